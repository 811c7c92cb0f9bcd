/*
 * k8s_objects.c: the K8sObjectSet, which owns decoded objects, and lookups in it.
 *
 * Objects are kept in input order (a GPtrArray) and indexed by kind/namespace/name
 * in a hash table used only for lookups, never iterated, so output order never
 * depends on hashing. Everything an object points to lives in the set's arena and
 * string chunk and is freed with the set.
 */
#include <string.h>

#include "k8s-private.h"

struct K8sObjectSet {
	BaseArena *arena;
	GStringChunk *strings; /* the objects' text; another set's for a scratch set */
	gboolean borrowed_strings;
	GStringChunk *keys; /* the index's keys */
	GPtrArray *objects; /* K8sObject*, input order */
	GPtrArray *by_kind[K8S_KIND_COUNT_];
	GHashTable *index;   /* "kind/ns/name" (in strings) -> first K8sObject* */
	GHashTable *skipped; /* kind name (in strings) -> count; NULL until one is skipped */
};

K8sObjectSet *
k8s_object_set_new(void)
{
	K8sObjectSet *self = g_new0(K8sObjectSet, 1);

	self->arena = base_arena_new();
	self->strings = g_string_chunk_new(64 * 1024);
	self->keys = g_string_chunk_new(4 * 1024);
	self->objects = g_ptr_array_new();
	for (guint k = 0; k < K8S_KIND_COUNT_; k++) {
		self->by_kind[k] = g_ptr_array_new();
	}
	self->index = g_hash_table_new(g_str_hash, g_str_equal);
	return self;
}

void
k8s_object_set_free(K8sObjectSet *self)
{
	if (self == NULL) {
		return;
	}
	g_hash_table_destroy(self->index);
	if (self->skipped != NULL) {
		g_hash_table_destroy(self->skipped);
	}
	for (guint k = 0; k < K8S_KIND_COUNT_; k++) {
		g_ptr_array_free(self->by_kind[k], TRUE);
	}
	g_ptr_array_free(self->objects, TRUE);
	if (!self->borrowed_strings)
		g_string_chunk_free(self->strings);
	g_string_chunk_free(self->keys);
	base_arena_free(self->arena);
	g_free(self);
}

K8sObjectSet *
k8s_object_set_new_scratch(K8sObjectSet *owner)
{
	K8sObjectSet *self = k8s_object_set_new();

	g_string_chunk_free(self->strings);
	self->strings = owner->strings;
	self->borrowed_strings = TRUE;
	return self;
}

void
k8s_object_set_reset(K8sObjectSet *self)
{
	g_hash_table_remove_all(self->index);
	g_clear_pointer(&self->skipped, g_hash_table_destroy);
	for (guint k = 0; k < K8S_KIND_COUNT_; k++)
		g_ptr_array_set_size(self->by_kind[k], 0);
	g_ptr_array_set_size(self->objects, 0);
	g_string_chunk_clear(self->keys);
	base_arena_reset(self->arena);
}

GHashTable *
k8s_object_set_get_skipped(const K8sObjectSet *self)
{
	return self->skipped;
}

void
k8s_object_set__count_skipped(K8sObjectSet *self, const char *kind_name)
{
	const char *key = g_string_chunk_insert_const(self->strings, kind_name);

	if (self->skipped == NULL) {
		self->skipped = g_hash_table_new(g_str_hash, g_str_equal);
	}
	g_hash_table_insert(
	        self->skipped, (gpointer)key,
	        GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(self->skipped, key)) + 1));
}

const char *
k8s_object_namespace(const K8sObject *obj)
{
	if (!k8s_kind_is_namespaced(obj->kind)) {
		return NULL;
	}
	return obj->metadata.namespace_ != NULL && obj->metadata.namespace_[0] != '\0'
	               ? obj->metadata.namespace_
	               : "default";
}

/*
 * "<kind>/<namespace>/<name>" into @buf when it fits, else into a new string
 * left in *@heap for the caller to free. Lookups run for every pod's claims
 * and classes, so the common case formats without printf or malloc.
 */
static const char *
index_key(
        char *buf, gsize size, K8sKind kind, const char *namespace_, const char *name, char **heap)
{
	gsize ns_len = namespace_ != NULL ? strlen(namespace_) : 0;
	gsize name_len = strlen(name);
	char kind_digits[12];
	gsize kind_len = sizeof(kind_digits);
	gsize total;
	char *out = buf;

	/* the kind's decimal digits, filled from the right */
	for (guint k = (guint)kind; kind_len == sizeof(kind_digits) || k != 0; k /= 10)
		kind_digits[--kind_len] = (char)('0' + k % 10);
	memmove(kind_digits, kind_digits + kind_len, sizeof(kind_digits) - kind_len);
	kind_len = sizeof(kind_digits) - kind_len;
	total = kind_len + 1 + ns_len + 1 + name_len + 1;
	*heap = NULL;
	if (total > size)
		out = *heap = g_malloc(total);
	memcpy(out, kind_digits, kind_len);
	out[kind_len] = '/';
	if (ns_len > 0)
		memcpy(out + kind_len + 1, namespace_, ns_len);
	out[kind_len + 1 + ns_len] = '/';
	memcpy(out + kind_len + 2 + ns_len, name, name_len + 1);
	return out;
}

/* The position of @obj's name, else of the object. */
static const K8sPos *
name_pos(const K8sObject *obj)
{
	return obj->metadata.name_pos.line != 0 ? &obj->metadata.name_pos : &obj->pos;
}

/*
 * Two objects of one kind with one name (in one namespace) cannot both exist in a
 * cluster (kubectl create answers AlreadyExists, apply keeps the last), so a second
 * one from the input is an error at its name that points at the first. Objects made
 * by drasim itself (@diags NULL) are only indexed.
 */
gboolean
k8s_object_set__add(K8sObjectSet *set, K8sObject *obj, K8sDiagList *diags)
{
	obj->index = set->objects->len;
	g_ptr_array_add(set->objects, obj);
	g_ptr_array_add(set->by_kind[obj->kind], obj);
	if (obj->metadata.name != NULL) {
		char buf[256];
		g_autofree char *heap = NULL;
		const char *ns = k8s_object_namespace(obj);
		const char *key =
		        index_key(buf, sizeof(buf), obj->kind, ns, obj->metadata.name, &heap);
		K8sObject *first = g_hash_table_lookup(set->index, key);

		if (first == NULL) {
			g_hash_table_insert(set->index, g_string_chunk_insert(set->keys, key), obj);
		} else if (diags != NULL) {
			const K8sPos *at = name_pos(first);
			g_autofree char *path =
			        g_strconcat(obj->path_prefix != NULL ? obj->path_prefix : "",
			                    "metadata.name", NULL);

			k8s_diag_list_error(
			        diags, name_pos(obj), path,
			        "%s %s%s%s is defined twice (first at %s:%u:%u): one object "
			        "per kind%s and name",
			        obj->kind_name, ns != NULL ? ns : "", ns != NULL ? "/" : "",
			        obj->metadata.name, at->file, at->line, at->col,
			        ns != NULL ? ", namespace" : "");
			return FALSE;
		}
	}
	return TRUE;
}

guint
k8s_object_set_count(const K8sObjectSet *self)
{
	return self->objects->len;
}

K8sObject *
k8s_object_set_get(const K8sObjectSet *self, guint index)
{
	g_return_val_if_fail(index < self->objects->len, NULL);
	return g_ptr_array_index(self->objects, index);
}

guint
k8s_object_set_count_kind(const K8sObjectSet *self, K8sKind kind)
{
	g_return_val_if_fail(kind < K8S_KIND_COUNT_, 0);
	return self->by_kind[kind]->len;
}

K8sObject *
k8s_object_set_get_kind(const K8sObjectSet *self, K8sKind kind, guint index)
{
	g_return_val_if_fail(kind < K8S_KIND_COUNT_, NULL);
	g_return_val_if_fail(index < self->by_kind[kind]->len, NULL);
	return g_ptr_array_index(self->by_kind[kind], index);
}

K8sObject *
k8s_object_set_lookup(const K8sObjectSet *self,
                      K8sKind kind,
                      const char *namespace_,
                      const char *name)
{
	char buf[256];
	g_autofree char *heap = NULL;

	g_return_val_if_fail(kind < K8S_KIND_COUNT_, NULL);
	if (name == NULL) {
		return NULL;
	}
	if (!k8s_kind_is_namespaced(kind)) {
		namespace_ = NULL;
	} else if (namespace_ == NULL || namespace_[0] == '\0') {
		namespace_ = "default";
	}
	return g_hash_table_lookup(self->index,
	                           index_key(buf, sizeof(buf), kind, namespace_, name, &heap));
}

gpointer
k8s_object_set_alloc(K8sObjectSet *self, gsize size)
{
	return base_arena_alloc(self->arena, size);
}

const char *
k8s_object_set_intern(K8sObjectSet *self, const char *text)
{
	return text != NULL ? g_string_chunk_insert_const(self->strings, text) : NULL;
}

const char *
k8s_object_set_copy_text(K8sObjectSet *self, const char *text)
{
	return text != NULL ? g_string_chunk_insert(self->strings, text) : NULL;
}

BaseArena *
k8s_object_set_get_arena(K8sObjectSet *self)
{
	return self->arena;
}

GStringChunk *
k8s_object_set_get_strings(K8sObjectSet *self)
{
	return self->strings;
}

static gsize
kind_size(K8sKind kind)
{
	switch (kind) {
	case K8S_KIND_DEVICE_CLASS:
		return sizeof(K8sDeviceClass);
	case K8S_KIND_RESOURCE_CLAIM:
		return sizeof(K8sResourceClaim);
	case K8S_KIND_RESOURCE_CLAIM_TEMPLATE:
		return sizeof(K8sResourceClaimTemplate);
	case K8S_KIND_RESOURCE_SLICE:
		return sizeof(K8sResourceSlice);
	case K8S_KIND_DEVICE_TAINT_RULE:
		return sizeof(K8sDeviceTaintRule);
	case K8S_KIND_POD:
		return sizeof(K8sPod);
	case K8S_KIND_NODE:
		return sizeof(K8sNode);
	default:
		return sizeof(K8sWorkload);
	}
}

/* Used by the loader too: a zeroed object with its header filled in. */
K8sObject *
k8s_object_set__new_object(K8sObjectSet *set, K8sKind kind)
{
	K8sObject *obj = base_arena_alloc(set->arena, kind_size(kind));

	obj->kind = kind;
	obj->kind_name = k8s_kind_name(kind);
	obj->path_prefix = "";
	return obj;
}

K8sObject *
k8s_object_set_add_new(K8sObjectSet *self, K8sKind kind, const char *namespace_, const char *name)
{
	K8sObject *obj;

	g_return_val_if_fail(kind > K8S_KIND_UNKNOWN && kind < K8S_KIND_COUNT_, NULL);
	obj = k8s_object_set__new_object(self, kind);
	obj->version = K8S_VERSION_V1;
	obj->api_version = k8s_api_version_string(kind, K8S_VERSION_V1);
	obj->metadata.name = k8s_object_set_intern(self, name);
	obj->metadata.namespace_ = k8s_object_set_intern(self, namespace_);
	k8s_object_set__add(self, obj, NULL);
	return obj;
}

K8sObject *
k8s_object_set_add_built(K8sObjectSet *self, K8sKind kind, const char *name, K8sPos pos)
{
	K8sObject *obj = k8s_object_set_add_new(self, kind, NULL, name);

	obj->pos = obj->metadata.pos = obj->metadata.name_pos = pos;
	obj->api_version_pos = obj->kind_pos = pos;
	return obj;
}

K8sObject *
k8s_object_set_add_copy(K8sObjectSet *self, const K8sObject *obj, const char *name)
{
	K8sObject *copy = k8s_object_set__new_object(self, obj->kind);

	memcpy(copy, obj, kind_size(obj->kind));
	if (name != NULL)
		copy->metadata.name = k8s_object_set_intern(self, name);
	k8s_object_set__add(self, copy, NULL);
	return copy;
}

#define DOWNCAST(fn, Type, KIND)                                                                   \
	Type *fn(K8sObject *obj)                                                                   \
	{                                                                                          \
		return obj != NULL && obj->kind == (KIND) ? (Type *)(void *)obj : NULL;            \
	}

DOWNCAST(k8s_object_as_device_class, K8sDeviceClass, K8S_KIND_DEVICE_CLASS)
DOWNCAST(k8s_object_as_resource_claim, K8sResourceClaim, K8S_KIND_RESOURCE_CLAIM)
DOWNCAST(k8s_object_as_resource_claim_template,
         K8sResourceClaimTemplate,
         K8S_KIND_RESOURCE_CLAIM_TEMPLATE)
DOWNCAST(k8s_object_as_resource_slice, K8sResourceSlice, K8S_KIND_RESOURCE_SLICE)
DOWNCAST(k8s_object_as_device_taint_rule, K8sDeviceTaintRule, K8S_KIND_DEVICE_TAINT_RULE)
DOWNCAST(k8s_object_as_pod, K8sPod, K8S_KIND_POD)
DOWNCAST(k8s_object_as_node, K8sNode, K8S_KIND_NODE)

K8sWorkload *
k8s_object_as_workload(K8sObject *obj)
{
	if (obj == NULL) {
		return NULL;
	}
	switch (obj->kind) {
	case K8S_KIND_DEPLOYMENT:
	case K8S_KIND_STATEFUL_SET:
	case K8S_KIND_REPLICA_SET:
	case K8S_KIND_JOB:
		return (K8sWorkload *)(void *)obj;
	default:
		return NULL;
	}
}
