/*
 * k8s_objects.h: loading manifests into a K8sObjectSet, and finding objects in it.
 *
 * This is the entry point for lint, convert, scenarios and
 * tests: k8s_load_paths() reads files and directories, decodes every document
 * (every served apiVersion, converted to v1) and appends the objects in input
 * order. The set owns every object, array and string it holds.
 */
#pragma once

#include <stdio.h>

#include <glib.h>

#include "base_arena.h"
#include "k8s_diag.h"
#include "k8s_types.h"
#include "k8s_yaml.h"

G_BEGIN_DECLS

typedef enum {
	K8S_LOAD_DEFAULT = 0,
	K8S_LOAD_LENIENT = 1 << 0, /* unknown fields are warnings, not errors */
	/* kinds drasim does not model are counted per kind in the set
	 * (k8s_object_set_get_skipped()) instead of a warning each: `drasim import`
	 * reads whole cluster dumps, where thousands of Events are the norm */
	K8S_LOAD_COUNT_SKIPPED = 1 << 1,
} K8sLoadFlags;

typedef struct K8sObjectSet K8sObjectSet;

/** k8s_object_set_new: an empty set. (transfer full) */
K8sObjectSet *k8s_object_set_new(void);
/** k8s_object_set_free: frees the set and every object in it; NULL is a no-op. */
void k8s_object_set_free(K8sObjectSet *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(K8sObjectSet, k8s_object_set_free)
/**
 * k8s_object_set_new_scratch: an empty set whose objects intern their text in
 * @owner's strings, so that the text outlives them: objects built, read and then
 * dropped (k8s_object_set_reset) leave only their strings behind. @owner must
 * outlive it. (transfer full)
 */
K8sObjectSet *k8s_object_set_new_scratch(K8sObjectSet *owner);
/* Drops every object of the set (their memory is reused); interned text stays. */
void k8s_object_set_reset(K8sObjectSet *self);

/**
 * k8s_load_paths:
 * Loads every path of the NULL-terminated @paths ("-" is standard input). A
 * directory is read recursively:
 * its *.yaml, *.yml and *.json files in sorted (byte) order; a directory without
 * any manifest is an error. Objects are appended to @set in input order (a `v1
 * List` contributes its items), problems are added to @diags with positions.
 * Objects with errors in fields are still added (validation can say more);
 * documents that cannot be decoded at all are skipped.
 * Returns: TRUE when no error was added (warnings are fine).
 */
gboolean
k8s_load_paths(const char *const *paths, K8sLoadFlags flags, K8sObjectSet *set, K8sDiagList *diags);
/** k8s_load_file: one file (a directory here is an error). */
gboolean k8s_load_file(const char *path, K8sLoadFlags flags, K8sObjectSet *set, K8sDiagList *diags);
/** k8s_load_data: @len bytes of YAML or JSON; @name is used in positions. */
gboolean k8s_load_data(const char *name,
                       const char *data,
                       gsize len,
                       K8sLoadFlags flags,
                       K8sObjectSet *set,
                       K8sDiagList *diags);

/**
 * k8s_object_set_get_skipped:
 * The kinds skipped while loading with K8S_LOAD_COUNT_SKIPPED: kind name (as written)
 * -> GUINT_TO_POINTER(count). NULL when none was skipped. (transfer none)
 */
GHashTable *k8s_object_set_get_skipped(const K8sObjectSet *self);

/** k8s_object_set_count: the number of objects. */
guint k8s_object_set_count(const K8sObjectSet *self);
/** k8s_object_set_get: the @index-th object in input order. (transfer none) */
K8sObject *k8s_object_set_get(const K8sObjectSet *self, guint index);
/** k8s_object_set_count_kind / _get_kind: the objects of one kind, in input order. */
guint k8s_object_set_count_kind(const K8sObjectSet *self, K8sKind kind);
K8sObject *k8s_object_set_get_kind(const K8sObjectSet *self, K8sKind kind, guint index);
/**
 * k8s_object_set_lookup:
 * The first object of @kind named @name. @namespace_ is ignored for cluster-scoped
 * kinds; for namespaced kinds NULL means "default". Returns NULL when absent.
 */
K8sObject *k8s_object_set_lookup(const K8sObjectSet *self,
                                 K8sKind kind,
                                 const char *namespace_,
                                 const char *name);

/* For code that builds objects (hardware publishing, tests): memory of the set. */
gpointer k8s_object_set_alloc(K8sObjectSet *self, gsize size);
/** k8s_object_set_intern: @text stored in the set (equal text, equal pointer). */
const char *k8s_object_set_intern(K8sObjectSet *self, const char *text);
/**
 * k8s_object_set_copy_text: @text stored in the set without looking for an equal
 * one: for text of one owner (a node's uuids and macs), where interning would only
 * grow the set's table (100,000 nodes: 1.6 million entries, issue 19 item 3).
 */
const char *k8s_object_set_copy_text(K8sObjectSet *self, const char *text);
/**
 * k8s_object_set_add_new:
 * Appends a zeroed object of @kind (apiVersion v1, metadata.name @name, @namespace_
 * may be NULL) and returns it, to be filled in by the caller. (transfer none)
 */
K8sObject *
k8s_object_set_add_new(K8sObjectSet *self, K8sKind kind, const char *namespace_, const char *name);
/**
 * k8s_object_set_add_built:
 * k8s_object_set_add_new() for an object built by code in place of decoded text
 * (hardware publishing), cluster-scoped, its positions all @pos (line 0 when it
 * has no text). Like every object drasim makes, it is only indexed: a name already
 * in the set is no error. (transfer none)
 */
K8sObject *k8s_object_set_add_built(K8sObjectSet *self, K8sKind kind, const char *name, K8sPos pos);
/**
 * k8s_object_set_add_copy:
 * Appends a copy of @obj named @name (NULL: @obj's name), in @obj's namespace.
 * The copy is shallow: its arrays and strings are @obj's, so @obj's set must
 * outlive @self; a caller that edits a field gives the copy its own array first
 * (k8s_object_set_alloc()). Only indexed, like k8s_object_set_add_new(). (transfer none)
 */
K8sObject *k8s_object_set_add_copy(K8sObjectSet *self, const K8sObject *obj, const char *name);
BaseArena *k8s_object_set_get_arena(K8sObjectSet *self);
GStringChunk *k8s_object_set_get_strings(K8sObjectSet *self);

/* Checked downcasts: NULL when @obj is NULL or of another kind. */
K8sDeviceClass *k8s_object_as_device_class(K8sObject *obj);
K8sResourceClaim *k8s_object_as_resource_claim(K8sObject *obj);
K8sResourceClaimTemplate *k8s_object_as_resource_claim_template(K8sObject *obj);
K8sResourceSlice *k8s_object_as_resource_slice(K8sObject *obj);
K8sDeviceTaintRule *k8s_object_as_device_taint_rule(K8sObject *obj);
K8sPod *k8s_object_as_pod(K8sObject *obj);
K8sNode *k8s_object_as_node(K8sObject *obj);
/* Deployment, StatefulSet, ReplicaSet and Job. */
K8sWorkload *k8s_object_as_workload(K8sObject *obj);

/** k8s_object_namespace: the namespace (default "default"), or NULL if cluster-scoped. */
const char *k8s_object_namespace(const K8sObject *obj);

/* ---- kinds and versions (k8s_version.c) --------------------------------------------- */

/** k8s_kind_name: "ResourceClaim" etc. */
const char *k8s_kind_name(K8sKind kind);
/** k8s_kind_group: "resource.k8s.io", "" (core), "apps", "batch". */
const char *k8s_kind_group(K8sKind kind);
/** k8s_kind_is_namespaced */
gboolean k8s_kind_is_namespaced(K8sKind kind);
/** k8s_kind_from_name: K8S_KIND_UNKNOWN when drasim does not model @kind_name. */
K8sKind k8s_kind_from_name(const char *kind_name);
/** k8s_api_version_string: the apiVersion string of @version for @kind's group. */
const char *k8s_api_version_string(K8sKind kind, K8sApiVersion version);

typedef enum {
	K8S_SERVED,          /* a 1.34 API server serves it by default */
	K8S_SERVED_DISABLED, /* known to 1.34 but off by default (beta): a warning */
	K8S_NOT_SERVED,      /* a 1.34 API server rejects it: an error */
} K8sServed;

/**
 * k8s_version_served:
 * Whether a Kubernetes 1.34 API server accepts @obj's apiVersion for its kind.
 * @instead (out, nullable) is the apiVersion to write instead (static string);
 * @why (out, nullable) is one sentence for the diagnostic (static string).
 */
K8sServed k8s_version_served(const K8sObject *obj, const char **instead, const char **why);

/* ---- writing and comparing (k8s_encode.c, k8s_equal.c) ------------------------------ */

/**
 * k8s_object_encode:
 * Appends @obj as normalized v1 YAML (fields in Go struct order, maps in input
 * order, no empty fields) to @out, without the leading "---".
 */
void k8s_object_encode(const K8sObject *obj, GString *out);
/** k8s_object_set_encode: every object, each starting with "---\n". (transfer full) */
char *k8s_object_set_encode(const K8sObjectSet *self);
/**
 * k8s_object_list_encode_kubectl:
 * Appends @objs (@n of them) to @out as one `kind: List`, the way
 * `kubectl get -o yaml` prints them: keys of every mapping in kubectl's (go-yaml's)
 * order, strings quoted only where they would read back as another type.
 */
void k8s_object_list_encode_kubectl(K8sObject *const *objs, guint n, GString *out);
/**
 * k8s_object_equal:
 * Structural equality of two objects in their v1 form: every modelled field, map
 * entries in order; positions, the apiVersion they were written in and fields
 * drasim ignores do not count.
 */
gboolean k8s_object_equal(const K8sObject *a, const K8sObject *b);

G_END_DECLS
