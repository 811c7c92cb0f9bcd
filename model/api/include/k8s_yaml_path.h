/*
 * k8s_yaml_path.h: paths into a positioned YAML tree (k8s_yaml.h), as sweeps
 * write them to vary one field of a scenario, and the value put there.
 *
 * A path is one or more steps, from the document's root:
 *   KEY        a mapping key. The first step is a bare KEY or a bracket; every later
 *              KEY follows a '.'. A bare key is any characters but . [ ] " = and
 *              whitespace: `spec.cluster.nodePools`.
 *   ["KEY"]    a quoted mapping key, any text (\" and \\ escape): `labels["a.b/c"]`.
 *   [N]        a list item by 0-based decimal index: `nodePools[0]`.
 *   [F=V]      the one list item that is a mapping whose key F (bare) holds the scalar
 *              V (bare up to ']', or "quoted"): `nodePools[name=dgx]`.
 * Bounds: at most K8S_YAML_PATH_MAX_LEN bytes and K8S_YAML_PATH_MAX_STEPS steps (no
 * tree is deeper, K8S_YAML_MAX_DEPTH), indices at most G_MAXINT32.
 *
 * Every error message starts with the part of the path that failed and says what
 * is valid there: "spec.clustr: no key clustr; the keys here are seed, cluster",
 * "spec.cluster.nodePools[name=gpu]: no item named gpu; the items are named dgx,
 * a100", "spec.cluster.nodePools[7]: index out of range, the list has 2 items (0-1)".
 */
#pragma once

#include <glib.h>

#include "base_arena.h"
#include "k8s_yaml.h"

G_BEGIN_DECLS

#define K8S_YAML_PATH_MAX_LEN   4096
#define K8S_YAML_PATH_MAX_STEPS K8S_YAML_MAX_DEPTH

#define K8S_YAML_PATH_ERROR (k8s_yaml_path_error_quark())
GQuark k8s_yaml_path_error_quark(void);

typedef enum {
	K8S_YAML_PATH_ERROR_SYNTAX,    /* the path is not written as above */
	K8S_YAML_PATH_ERROR_NOT_FOUND, /* a step does not resolve in the tree */
	K8S_YAML_PATH_ERROR_VALUE,     /* the value cannot go there (too deep) */
} K8sYamlPathErrorCode;

typedef enum {
	K8S_YAML_STEP_KEY,   /* .KEY or ["KEY"] */
	K8S_YAML_STEP_INDEX, /* [N] */
	K8S_YAML_STEP_MATCH, /* [F=V] */
} K8sYamlStepKind;

typedef struct {
	K8sYamlStepKind kind;
	char *key;   /* KEY: the key; MATCH: F */
	char *value; /* MATCH: V; otherwise NULL */
	guint index; /* INDEX */
	guint end;   /* bytes of the path text up to the end of this step */
} K8sYamlPathStep;

typedef struct K8sYamlPath K8sYamlPath;

/**
 * k8s_yaml_path_parse:
 * Parses @text (syntax above).
 * Returns: (transfer full) (nullable): the path, or NULL with @error
 * (K8S_YAML_PATH_ERROR_SYNTAX) saying at which character what was expected.
 */
K8sYamlPath *k8s_yaml_path_parse(const char *text, GError **error);
void k8s_yaml_path_free(K8sYamlPath *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(K8sYamlPath, k8s_yaml_path_free)

const char *k8s_yaml_path_get_text(const K8sYamlPath *self);
guint k8s_yaml_path_get_n_steps(const K8sYamlPath *self);
const K8sYamlPathStep *k8s_yaml_path_get_step(const K8sYamlPath *self, guint index);

/**
 * k8s_yaml_path_resolve:
 * Returns: (transfer none) (nullable): the node @path names under @root, or NULL
 * with @error (K8S_YAML_PATH_ERROR_NOT_FOUND) naming the first step that does not
 * resolve and what is valid there.
 */
const K8sYamlNode *
k8s_yaml_path_resolve(const K8sYamlNode *root, const K8sYamlPath *path, GError **error);

/**
 * k8s_yaml_path_set:
 * Puts a copy of @value (nodes into @arena, text into @strings) where @path points
 * under @root: it replaces the node there or, when only the last step is a key
 * missing from its mapping, adds that key at the end of the mapping (a decoder
 * then judges it like any key written in the file). Every copied node takes the
 * line and column of the node it replaces (an added key and its value: of the
 * mapping), so the decoder's errors about the value point into @root's file. A
 * node reached through a YAML alias is shared: setting it changes every place
 * the alias is used.
 * Returns: FALSE with @error (NOT_FOUND as k8s_yaml_path_resolve(), or VALUE when
 * the result would be deeper than K8S_YAML_MAX_DEPTH); @root is then unchanged.
 */
gboolean k8s_yaml_path_set(K8sYamlNode *root,
                           const K8sYamlPath *path,
                           const K8sYamlNode *value,
                           BaseArena *arena,
                           GStringChunk *strings,
                           GError **error);

/**
 * k8s_yaml_flow_text:
 * @node as one line of YAML flow text that reads back to an equal tree
 * (k8s_yaml_equal): sequences `[a, b]`, mappings `{k: v}`, scalars plain when
 * they read back as the same value, otherwise double-quoted with escapes
 * ("4" stays quoted, a string with a comma is quoted). Tags are kept as
 * verbatim tags `!<tag>`. Sweeps key their cells and CSV columns by this text.
 * Returns: (transfer full)
 */
char *k8s_yaml_flow_text(const K8sYamlNode *node);

G_END_DECLS
