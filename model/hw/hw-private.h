/*
 * hw-private.h: layouts and helpers shared by the files of model/hw only.
 */
#pragma once

#include "hw.h"
#include "k8s_objects.h"
#include "k8s_yaml_read.h"

/* One placement class of a placement table ("3g": 3 compute slices, size 4, starts 0,4). */
typedef struct {
	char *name;
	guint compute_slices;
	guint size;
	guint starts[8];
	guint n_starts;
} HwPlacementClass;

typedef struct {
	char *name;
	GPtrArray *classes; /* HwPlacementClass* */
} HwPlacementTable;

/* The embedded catalog files, parsed (hw_catalog.c); (transfer full) or NULL with @error. */
HwCatalog *hw_catalog__parse_builtin(GError **error);

struct HwCatalog {
	GPtrArray *tables; /* HwPlacementTable* */
	GPtrArray *gpus;   /* HwGpuModel* */
	GPtrArray *nics;   /* HwNicModel* */
	GPtrArray *shapes; /* HwNodeShape* */
	GPtrArray *pools;  /* HwNodePool* */
	/* Records replaced by an override stay alive until the catalog dies, so that
	 * pointers handed out earlier (a node's shape) never dangle. */
	GPtrArray *retired;
};

/* ---- published objects built as model/api objects (hw_api_build.c) ---- */

typedef struct {
	K8sObjectSet *set;
	const char *file; /* the published "file" positions name: "<published node-a>" */
	guint index;      /* the next object's item number in the published List */
	gboolean failed;  /* a quantity that does not parse */
} HwApiBuild;

void hw_api__build_node(HwApiBuild *b, const HwNodeObject *node);
void hw_api__build_class(HwApiBuild *b, const HwDeviceClass *class_);
void hw_api__build_slice(HwApiBuild *b, const HwSlice *slice);

/* ---- positioned YAML reading (hw_yaml_read.c) ---- */

/* One hardware YAML file being read: model/api's tree of it and the first error. */
typedef struct {
	K8sYamlReader yaml;    /* file (interned) and the diagnostics */
	BaseArena *arena;      /* the tree's nodes */
	GStringChunk *strings; /* the tree's text */
	GError **error;        /* set at the first error */
	gboolean failed;
} HwReader;

/* Parses @data (named @filename) with model/api's reader; the first document's
 * root, or NULL with a positioned HW_ERROR_PARSE. hw_reader__clear() after. */
const K8sYamlNode *hw_reader__load(
        HwReader *reader, const char *filename, const char *data, gsize len, GError **error);
void hw_reader__clear(HwReader *reader);

/* Sets a positioned HW_ERROR_INVALID error at @node, once; returns FALSE. */
gboolean hw_reader__fail(HwReader *reader,
                         const K8sYamlNode *node,
                         const char *path,
                         const char *format,
                         ...) G_GNUC_PRINTF(4, 5);
/* The same, at the value of @key in mapping @map, with path @path.@key. */
gboolean hw_reader__fail_key(HwReader *reader,
                             const K8sYamlNode *map,
                             const char *key,
                             const char *path,
                             const char *format,
                             ...) G_GNUC_PRINTF(5, 6);
/* Checks that @node is a mapping whose keys are all in @allowed (NULL-terminated). */
gboolean hw_reader__mapping(HwReader *reader,
                            const K8sYamlNode *node,
                            const char *path,
                            const char *const *allowed);
/* The value of @key in mapping @node, or NULL. */
const K8sYamlNode *hw_reader__get(HwReader *reader, const K8sYamlNode *node, const char *key);
/* Scalar readers; @required FALSE leaves @out untouched when the key is absent. */
gboolean hw_reader__str(HwReader *reader,
                        const K8sYamlNode *map,
                        const char *key,
                        const char *path,
                        gboolean required,
                        char **out);
gboolean hw_reader__uint(HwReader *reader,
                         const K8sYamlNode *map,
                         const char *key,
                         const char *path,
                         gboolean required,
                         guint64 max,
                         guint64 *out);
gboolean hw_reader__bool(HwReader *reader,
                         const K8sYamlNode *map,
                         const char *key,
                         const char *path,
                         gboolean required,
                         gboolean *out);
gboolean hw_reader__scalar_uint(
        HwReader *reader, const K8sYamlNode *node, const char *path, guint64 max, guint64 *out);
const char *hw_reader__scalar(HwReader *reader, const K8sYamlNode *node, const char *path);

/* ---- catalog internals ---- */

void hw_gpu_model__free(HwGpuModel *model);
void hw_nic_model__free(HwNicModel *model);
void hw_node_shape__free(HwNodeShape *shape);
void hw_placement_table__free(HwPlacementTable *table);
void hw_node_pool__free(HwNodePool *pool);
gboolean hw_catalog__parse(HwCatalog *staging,
                           const HwCatalog *base,
                           HwReader *reader,
                           const K8sYamlNode *root);
void hw_catalog__merge(HwCatalog *self, HwCatalog *staging);
GPtrArray *hw_catalog__profiles_new(void);
GPtrArray *hw_catalog__roots_new(void);
GArray *hw_catalog__nics_new(void);
GPtrArray *hw_catalog__classes_new(void);

/* One catalog document being read (hw_catalog_load.c, hw_catalog_shape.c). */
typedef struct {
	HwReader *r;
	HwCatalog *staging;    /* the records of this document */
	const HwCatalog *base; /* the catalog it extends: references resolve here second */
} HwCatalogCtx;

/* Walks a YAML sequence / mapping node; finds a record by id in a GPtrArray (or NULL).
 * An empty node's array is NULL, and NULL + 0 is undefined (UBSan, fuzz-catalog): the end
 * is computed only for a non-NULL array. */
#define SEQ_FOREACH(node, item)                                                                    \
	for (K8sYamlNode *const *item = (node)->seq.items;                                         \
	     item != NULL && item < (node)->seq.items + (node)->seq.n; item++)
#define MAP_FOREACH(node, pair)                                                                    \
	for (const K8sYamlPair *pair = (node)->map.pairs;                                          \
	     pair != NULL && pair < (node)->map.pairs + (node)->map.n; pair++)
#define LIST_FIND(list, type, id)                                                                  \
	({                                                                                         \
		const type *found_ = NULL;                                                         \
		for (guint i_ = 0; (list) != NULL && i_ < (list)->len && found_ == NULL; i_++) {   \
			const type *r_ = g_ptr_array_index((list), i_);                            \
			if (strcmp(r_->id, (id)) == 0) {                                           \
				found_ = r_;                                                       \
			}                                                                          \
		}                                                                                  \
		found_;                                                                            \
	})

gboolean hw_catalog__read_confidence(HwCatalogCtx *ctx,
                                     const K8sYamlNode *map,
                                     const char *path,
                                     HwConfidence *out);
gboolean hw_catalog__expect_seq(HwCatalogCtx *ctx, const K8sYamlNode *node, const char *path);
/* A GPU or NIC model by id, from this document or its base; NULL when unknown. */
const HwGpuModel *hw_catalog__find_gpu(HwCatalogCtx *ctx, const char *id);
const HwNicModel *hw_catalog__find_nic(HwCatalogCtx *ctx, const char *id);
/* hw_catalog_shape.c */
gboolean hw_catalog__parse_shape(HwCatalogCtx *ctx,
                                 const K8sYamlNode *node,
                                 const char *path,
                                 HwNodeShape *shape);
gboolean hw_catalog__parse_pool(HwCatalogCtx *ctx,
                                const K8sYamlNode *node,
                                const char *path,
                                HwNodePool *pool);

/* The embedded catalog files (generated at build time). */
typedef struct {
	const char *name;
	const char *data;
	gsize len;
} HwEmbeddedFile;
extern const HwEmbeddedFile hw_catalog_embedded[];

/* ---- publishing helpers (hw_device.c) ---- */

HwDevice *hw_device__new(const char *name);
void hw_device__free(HwDevice *device);
void hw_device__attr_string(HwDevice *device, const char *name, const char *value);
void hw_device__attr_version(HwDevice *device, const char *name, const char *value);
void hw_device__attr_int(HwDevice *device, const char *name, gint64 value);
void hw_device__attr_bool(HwDevice *device, const char *name, gboolean value);
void hw_qty__append(GArray *array, const char *name, gint64 value, HwQtyFormat format);
HwConsumption *hw_device__consume(HwDevice *device, const char *counter_set);
HwSlice *hw_slice__new(const char *driver, const char *node_name, guint index);
/* The name hw_slice__new() gives: "<node>-<driver>-<5 hashed letters>". */
char *hw__slice_name(const char *driver, const char *node_name, guint index);
HwCounterSet *hw_counter_set__new(const char *name);
void hw_counter_set__free(HwCounterSet *set);
/* A stable pseudo-random lowercase suffix for generated names. */
char *hw__name_suffix(const char *seed, guint length);

/* ---- cheap hashed names (hw_sha256.c) ---- */

/* The lowercase hex SHA-256 of @len bytes of @text, as GLib's G_CHECKSUM_SHA256. */
void hw__sha256_hex(const char *text, gsize len, char out[65]);

/* Text put together without printf: on the stack while short. str is always
 * NUL-terminated; hw__text_clear() frees what grew and empties it. */
typedef struct {
	char *str;
	gsize len, cap;
	char stack[160];
} HwText;

void hw__text_init(HwText *t);
void hw__text_add(HwText *t, const char *s);
void hw__text_add_uint(HwText *t, guint64 n);
void hw__text_clear(HwText *t);

/* g_intern_string(@name) behind a small per-thread cache. */
const char *hw__intern(const char *name);
/* A UUID-formatted hash of @seed with @prefix: "GPU-", "MIG-". */
char *hw__uuid(const char *prefix, const char *seed);
