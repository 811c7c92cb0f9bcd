/*
 * k8s_yaml_read.h: strict reading of a positioned YAML tree (k8s_yaml.h) for
 * decoders of drasim's own files (scenarios, the hardware catalog).
 *
 * A thin face over base's strict readers (base_strict.h): those say what was
 * expected; this adds the node's FILE:LINE:COL and the field path, and adds the
 * result to a K8sDiagList, printed as "FILE:LINE:COL: error: message [path]".
 */
#pragma once

#include <glib.h>

#include "base_strict.h"
#include "k8s_diag.h"
#include "k8s_yaml.h"

G_BEGIN_DECLS

typedef struct {
	const char *file;   /* interned: positions borrow it */
	K8sDiagList *diags; /* where errors go */
} K8sYamlReader;

/* An error at @node (NULL: no position) with field path @path. */
void k8s_yaml_read_error(K8sYamlReader *r,
                         const K8sYamlNode *node,
                         const char *path,
                         const char *format,
                         ...) G_GNUC_PRINTF(4, 5);

/* Shape checks: "expected a mapping, got list", "expected a list, got string". */
gboolean k8s_yaml_read_map(K8sYamlReader *r, const K8sYamlNode *node, const char *path);
gboolean k8s_yaml_read_seq(K8sYamlReader *r, const K8sYamlNode *node, const char *path);

/**
 * k8s_yaml_read_keys:
 * Every key of mapping @map must be in @known (NULL-terminated); each unknown
 * key is an error at the key, path @path.KEY, explained in the style @hint.
 * Returns: TRUE when all are known.
 */
gboolean k8s_yaml_read_keys(K8sYamlReader *r,
                            const K8sYamlNode *map,
                            const char *path,
                            const char *const *known,
                            BaseStrictHint hint);

/* A string scalar (YAML type string), copied: "expected a string, got integer". */
char *k8s_yaml_read_string(K8sYamlReader *r, const K8sYamlNode *node, const char *path);

/*
 * A YAML integer as kubectl reads it ('_' separators, 0x, 0o, 0b) in [0, @max];
 * floats, strings and anything beyond 64 bits are refused, never rounded.
 */
gboolean k8s_yaml_read_uint(
        K8sYamlReader *r, const K8sYamlNode *node, const char *path, guint64 max, guint64 *out);
/* A finite number >= 0 (YAML integer or float). */
gboolean
k8s_yaml_read_double(K8sYamlReader *r, const K8sYamlNode *node, const char *path, double *out);
/* A YAML 1.1 boolean (true, false, yes, no, on, off, y, n in any case). */
gboolean
k8s_yaml_read_bool(K8sYamlReader *r, const K8sYamlNode *node, const char *path, gboolean *out);
/* A non-negative quantity of bytes like 40Gi or 10G. */
gboolean
k8s_yaml_read_bytes(K8sYamlReader *r, const K8sYamlNode *node, const char *path, gint64 *out);

G_END_DECLS
