/*
 * k8s-private.h: shared by the model/api files only.
 *
 * Objects are described by tables (K8sStructDesc): one row per JSON field with its
 * type and where it lives in the C struct. The decoder, the encoder and structural
 * equality all walk the same tables, so a field added to a table is decoded,
 * written and compared. Older apiVersions use their own tables that write into
 * the same v1 structs (e.g. v1beta1's flat request fields land in `exactly`).
 */
#pragma once

#include <stddef.h>

#include <glib.h>
#include <yaml.h>

#include "k8s_objects.h"
#include "k8s_path-private.h"

G_BEGIN_DECLS

typedef struct K8sDec K8sDec;
typedef struct K8sStructDesc K8sStructDesc;

typedef enum {
	K8S_F_STRING,      /* const char *            */
	K8S_F_INT64,       /* gint64 (+ has)           */
	K8S_F_INT32,       /* gint32 (+ has)           */
	K8S_F_BOOL,        /* gboolean (+ has)         */
	K8S_F_QTY,         /* K8sQty                   */
	K8S_F_STRING_MAP,  /* K8sStringMap             */
	K8S_F_QTY_MAP,     /* K8sQtyMap                */
	K8S_F_STRING_LIST, /* K8sStringList            */
	K8S_F_STRUCT,      /* embedded struct (+ has)  */
	K8S_F_PTR,         /* struct allocated when present, NULL otherwise */
	K8S_F_ARRAY,       /* C array of structs + count */
	K8S_F_KEYED,       /* mapping name -> struct, stored as an array with the key at key_at */
	K8S_F_RAW,         /* K8sRaw (arbitrary data) */
	K8S_F_CUSTOM,      /* decode/encode/equal functions */
	K8S_F_IGNORE,      /* a real Kubernetes field drasim does not model: accepted, dropped */
	K8S_F_DROPPED,     /* a field removed from the API: accepted with a warning */
} K8sFieldType;

typedef void (*K8sFieldDecodeFn)(K8sDec *dec, const K8sYamlNode *node, void *out);
typedef void (*K8sFieldEncodeFn)(GString *out, const void *value, guint indent);
typedef gboolean (*K8sFieldEqualFn)(const void *a, const void *b);
typedef gboolean (*K8sFieldPresentFn)(const void *base); /* base = the struct holding the field */

/* Offsets are stored +1 so that 0 means "none" (see K8S_AT). */
#define K8S_AT(Type, field) (offsetof(Type, field) + 1)

typedef struct {
	const char *name;
	K8sFieldType type;
	gsize at;                  /* offset+1 of the value */
	gsize has_at;              /* offset+1 of a gboolean set when the field is present, or 0 */
	gsize pos_at;              /* offset+1 of a K8sPos set to the value's position, or 0 */
	gsize count_at;            /* ARRAY/KEYED: offset+1 of the guint count */
	gsize key_at;              /* KEYED: offset+1 of the const char * key inside each element */
	const K8sStructDesc *sub;  /* STRUCT/PTR/ARRAY/KEYED */
	K8sFieldDecodeFn decode;   /* CUSTOM */
	K8sFieldEncodeFn encode;   /* CUSTOM (NULL: not written) */
	K8sFieldEqualFn equal;     /* CUSTOM (NULL: not compared) */
	K8sFieldPresentFn present; /* whether to write the field (NULL: when not empty) */
	const char *note;          /* DROPPED: the warning */
} K8sField;

/* A hint for a field that is not in this version but is in another one. */
typedef struct {
	const char *name;
	const char *hint;
} K8sFieldHint;

struct K8sStructDesc {
	const char *name; /* Go type name, for messages */
	gsize size;
	gsize pos_at;           /* offset+1 of the struct's K8sPos, or 0 */
	const K8sField *fields; /* terminated by a row with name == NULL */
	const char *const
	        *ignored;          /* more real field names accepted and dropped; NULL-terminated */
	const K8sFieldHint *hints; /* NULL-terminated by name */
	/* called after the fields were decoded (defaults, derived values) */
	void (*finish)(K8sDec *dec, const K8sYamlNode *node, void *out);
	/* compares what the field rows do not cover (e.g. an attribute's type) */
	gboolean (*equal_extra)(const void *a, const void *b);
	/* Go's `json:",inline"`: more fields in the same JSON object, decoded into the
	 * struct at embed_at (offset+1; 1 = this struct) and written after ours */
	const K8sStructDesc *embed;
	gsize embed_at;
};

struct K8sDec {
	K8sObjectSet *set;
	BaseArena *arena;
	GStringChunk *strings;
	const char *file;
	K8sDiagList *diags;
	K8sLoadFlags flags;
	K8sApiVersion version;
	GString *path;
	gboolean failed;
	gboolean over_objects; /* DRASIM_MAX_OBJECTS reached: said once per file */
};

/* k8s_dec.c: the table-driven decoder. */
void k8s_dec__init(
        K8sDec *dec, K8sObjectSet *set, const char *file, K8sDiagList *diags, K8sLoadFlags flags);
void k8s_dec__clear(K8sDec *dec);
K8sPos k8s_dec__pos(const K8sDec *dec, const K8sYamlNode *node);
void k8s_dec__error(K8sDec *dec, const K8sYamlNode *node, const char *format, ...)
        G_GNUC_PRINTF(3, 4);
void k8s_dec__warning(K8sDec *dec, const K8sYamlNode *node, const char *format, ...)
        G_GNUC_PRINTF(3, 4);
/* The steps of k8s_path-private.h on the decoder's path; each returns the mark to pop to. */
#define k8s_dec__push_field(dec, name) k8s_path_push_field((dec)->path, (name))
#define k8s_dec__push_index(dec, i)    k8s_path_push_index((dec)->path, (i))
#define k8s_dec__pop(dec, mark)        k8s_path_pop((dec)->path, (mark))
gboolean k8s_dec__is_null(const K8sYamlNode *node);
gboolean k8s_dec__expect_map(K8sDec *dec, const K8sYamlNode *node, const char *what);
gboolean k8s_dec__expect_seq(K8sDec *dec, const K8sYamlNode *node, const char *what);
const char *k8s_dec__string(K8sDec *dec, const K8sYamlNode *node);
gboolean k8s_dec__int64(K8sDec *dec, const K8sYamlNode *node, gint64 min, gint64 max, gint64 *out);
gboolean k8s_dec__bool(K8sDec *dec, const K8sYamlNode *node, gboolean *out);
void k8s_dec__qty(K8sDec *dec, const K8sYamlNode *node, K8sQty *out);
void k8s_dec__struct(K8sDec *dec, const K8sYamlNode *node, const K8sStructDesc *desc, void *out);
/* Reports an unknown field, with "did you mean" and version hints. */
void k8s_dec__unknown_field(K8sDec *dec, const K8sYamlNode *key, const K8sStructDesc *desc);

/* k8s_fields.c: the tables of every kind, by version. */
const K8sStructDesc *k8s_fields__object(K8sKind kind, K8sApiVersion version);
const K8sStructDesc *k8s_fields__meta(void);
const K8sStructDesc *k8s_fields__node_selector(void);
/* the tables other tables embed (constant data, shared by the two k8s_fields files) */
extern const K8sStructDesc k8s_fields__meta_desc;
extern const K8sStructDesc k8s_fields__node_selector_desc;
/* k8s_fields_resource.c: the resource.k8s.io kinds. */
const K8sStructDesc *k8s_fields__resource_object(K8sKind kind, K8sApiVersion version);
/* k8s_fields_slice.c: ResourceSlice, and DeviceTaint (DeviceTaintRule embeds it). */
const K8sStructDesc *k8s_fields__resource_slice(K8sApiVersion version);
extern const K8sStructDesc k8s_fields__device_taint_desc;

/* k8s_encode.c / k8s_equal.c walk the v1 tables. */
void k8s_encode__struct(GString *out, const K8sStructDesc *desc, const void *value, guint indent);
gboolean k8s_equal__struct(const K8sStructDesc *desc, const void *a, const void *b);
/* k8s_encode_kubectl.c: @s as kubectl writes a string (plain, '...' or "..."). */
void k8s_kubectl__append_scalar(GString *out, const char *s);
/* <0, 0, >0 as @a sorts before, with, after @b in kubectl's (go-yaml's) key order. */
int k8s_kubectl__key_compare(const char *a, const char *b);

/* k8s_objects.c */
gboolean k8s_object_set__add(K8sObjectSet *set, K8sObject *obj, K8sDiagList *diags);
K8sObject *k8s_object_set__new_object(K8sObjectSet *set, K8sKind kind);
/* One more object of the unmodelled kind @kind_name (K8S_LOAD_COUNT_SKIPPED). */
void k8s_object_set__count_skipped(K8sObjectSet *set, const char *kind_name);

/*
 * The YAML tree builder (k8s_yaml.c: events -> tree; k8s_yaml_keys.c: duplicate and
 * merge keys; k8s_yaml_input.c: what the input must be and libyaml's errors said well).
 */
#define K8S_YAML_INTERN_MAX_LEN 128 /* longer scalars are not interned */

typedef struct {
	K8sYamlNode *node;
	guint first_child; /* index into scratch */
} K8sYamlFrame;

typedef struct {
	const char *file;
	const char *data;
	gsize len;
	BaseArena *arena; /* where nodes go now: main_arena, or item_arena inside a List item */
	BaseArena *main_arena;
	BaseArena *item_arena; /* List items, reset after each one is handed to item_fn */
	K8sYamlItemFn item_fn;
	gpointer user_data;
	gboolean in_items;     /* frames[1] is the top-level `items` sequence */
	gboolean in_item;      /* frames[2] is a List item being streamed */
	gboolean anchors_seen; /* nodes may be shared: never reset the item arena */
	guint item_index;
	K8sYamlNode *placeholder;
	GStringChunk *strings;
	K8sDiagList *diags;
	gboolean json;
	gboolean data_file;  /* k8s_yaml_parse_data(): drasim's own data, not manifests */
	GArray *frames;      /* K8sYamlFrame */
	GPtrArray *scratch;  /* children of open collections (pairs as key, value) */
	GHashTable *anchors; /* anchor name (owned) -> K8sYamlNode* */
	GArray *docs;        /* K8sYamlDoc */
	K8sYamlNode *root;   /* root of the current document */
	guint doc_index;
	guint doc_real_nodes; /* nodes created in this document */
	gboolean first_root_flow;
	gboolean failed; /* any error */
	gboolean fatal;  /* the tree is unusable from here on: stop */
	/* base.h limits, read once per file: nodes of the file, nesting */
	guint64 n_nodes, max_nodes;
	guint max_depth;
} K8sYamlBuilder;

static inline K8sPos
k8s_yaml_mark_pos(const K8sYamlBuilder *b, yaml_mark_t mark)
{
	K8sPos pos = { b->file, (guint32)mark.line + 1, (guint32)mark.column + 1 };

	return pos;
}

/* An error at @mark; the tree is unusable from here on. */
void k8s_yaml_fail(K8sYamlBuilder *b, yaml_mark_t mark, const char *format, ...)
        G_GNUC_PRINTF(3, 4);
void k8s_yaml_check_duplicates(K8sYamlBuilder *b, K8sYamlNode *map);
void k8s_yaml_apply_merge_keys(K8sYamlBuilder *b, K8sYamlNode *map);
void k8s_yaml_check_json_trailing_comma(K8sYamlBuilder *b, yaml_mark_t end);
void k8s_yaml_report_parser_error(K8sYamlBuilder *b, const yaml_parser_t *parser);
gboolean k8s_yaml_check_utf8(K8sYamlBuilder *b);
gboolean k8s_yaml_looks_like_json(const char *file, const char *data, gsize len);
void k8s_yaml_check_json_document(K8sYamlBuilder *b, const yaml_event_t *event);

G_END_DECLS
