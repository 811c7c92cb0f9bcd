/*
 * hw_catalog.c: the hardware catalog's records, lookups, and how a loaded document is
 * merged in.
 *
 * The built-in catalog is model/hw/catalog/ (every .yaml there), embedded in the binary at build
 * time (hw_catalog_data.c is generated), so drasim does not depend on where it runs.
 * A scenario adds documents on top: same id replaces, new id extends.
 */
#include <string.h>

#include "base.h"
#include "base_strict.h"
#include "hw-private.h"

const char *
hw_confidence_to_string(HwConfidence confidence)
{
	switch (confidence) {
	case HW_CONFIDENCE_CONFIRMED:
		return "confirmed";
	case HW_CONFIDENCE_INFERRED:
		return "inferred";
	case HW_CONFIDENCE_UNCONFIRMED:
		return "unconfirmed";
	}
	return "unconfirmed";
}

static void
mig_profile_free(HwMigProfile *profile)
{
	g_free(profile->name);
	g_free(profile);
}

void
hw_gpu_model__free(HwGpuModel *model)
{
	if (model == NULL) {
		return;
	}
	if (model->mig != NULL) {
		g_ptr_array_unref(model->mig->profiles);
		g_ptr_array_unref(model->mig->balanced);
		g_free(model->mig);
	}
	g_free(model->id);
	g_free(model->product_name);
	g_free(model->brand);
	g_free(model->architecture);
	g_free(model);
}

void
hw_nic_model__free(HwNicModel *model)
{
	if (model == NULL) {
		return;
	}
	g_free(model->id);
	g_free(model->vendor);
	g_free(model->device);
	g_free(model);
}

static void
shape_nic_clear(HwShapeNic *nic)
{
	g_free(nic->bdf);
	g_free(nic->model_id);
}

static void
pcie_root_free(HwPcieRoot *root)
{
	g_free(root->root);
	g_ptr_array_unref(root->gpu_bdfs);
	g_array_unref(root->nics);
	g_free(root);
}

void
hw_node_shape__free(HwNodeShape *shape)
{
	if (shape == NULL) {
		return;
	}
	g_free(shape->id);
	g_free(shape->gpu_model_id);
	if (shape->roots != NULL) {
		g_ptr_array_unref(shape->roots);
	}
	g_free(shape);
}

void
hw_node_pool__free(HwNodePool *pool)
{
	if (pool == NULL) {
		return;
	}
	g_free(pool->name);
	g_free(pool->shape_id);
	g_free(pool->layout);
	g_free(pool);
}

static void
placement_class_free(HwPlacementClass *cls)
{
	g_free(cls->name);
	g_free(cls);
}

void
hw_placement_table__free(HwPlacementTable *table)
{
	if (table == NULL) {
		return;
	}
	g_free(table->name);
	g_ptr_array_unref(table->classes);
	g_free(table);
}

/* Constructors used by the parser (hw_catalog_load.c, hw_catalog_shape.c). */

GPtrArray *
hw_catalog__profiles_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)mig_profile_free);
}

GPtrArray *
hw_catalog__roots_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)pcie_root_free);
}

GArray *
hw_catalog__nics_new(void)
{
	GArray *nics = g_array_new(FALSE, TRUE, sizeof(HwShapeNic));

	g_array_set_clear_func(nics, (GDestroyNotify)shape_nic_clear);
	return nics;
}

GPtrArray *
hw_catalog__classes_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)placement_class_free);
}

HwCatalog *
hw_catalog_new_empty(void)
{
	HwCatalog *self = g_new0(HwCatalog, 1);

	self->tables = g_ptr_array_new_with_free_func((GDestroyNotify)hw_placement_table__free);
	self->gpus = g_ptr_array_new_with_free_func((GDestroyNotify)hw_gpu_model__free);
	self->nics = g_ptr_array_new_with_free_func((GDestroyNotify)hw_nic_model__free);
	self->shapes = g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_shape__free);
	self->pools = g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_pool__free);
	self->retired = g_ptr_array_new_with_free_func((GDestroyNotify)hw_catalog_free);
	return self;
}

void
hw_catalog_free(HwCatalog *self)
{
	if (self == NULL) {
		return;
	}
	g_ptr_array_unref(self->tables);
	g_ptr_array_unref(self->gpus);
	g_ptr_array_unref(self->nics);
	g_ptr_array_unref(self->shapes);
	g_ptr_array_unref(self->pools);
	g_ptr_array_unref(self->retired);
	g_free(self);
}

/* Parses the embedded files; hw_catalog_new_builtin() (hw_catalog_copy.c) keeps the result. */
HwCatalog *
hw_catalog__parse_builtin(GError **error)
{
	g_autoptr(HwCatalog) self = hw_catalog_new_empty();

	for (guint i = 0; hw_catalog_embedded[i].name != NULL; i++) {
		const HwEmbeddedFile *file = &hw_catalog_embedded[i];

		if (!hw_catalog_load_data(self, file->name, file->data, file->len, error)) {
			return NULL;
		}
	}
	return g_steal_pointer(&self);
}

gboolean
hw_catalog_load_file(HwCatalog *self, const char *path, GError **error)
{
	g_autofree char *data = NULL;
	gsize len = 0;
	GError *local = NULL;

	if (!base_read_file(path, &data, &len, &local)) {
		g_set_error(error, HW_ERROR, HW_ERROR_IO, "%s:1:1: error: %s [<file>]", path,
		            local->message);
		g_error_free(local);
		return FALSE;
	}
	return hw_catalog_load_data(self, path, data, len, error);
}

gboolean
hw_catalog_load_data(
        HwCatalog *self, const char *filename, const char *data, gsize len, GError **error)
{
	HwReader reader;
	g_autoptr(HwCatalog) staging = hw_catalog_new_empty();
	const K8sYamlNode *root = hw_reader__load(&reader, filename, data, len, error);
	gboolean ok = root != NULL && hw_catalog__parse(staging, self, &reader, root);

	hw_reader__clear(&reader);
	if (ok) {
		hw_catalog__merge(self, staging);
	}
	return ok;
}

#define LOOKUP(array, type, id)                                                                    \
	do {                                                                                       \
		for (guint i_ = 0; i_ < (array)->len; i_++) {                                      \
			type *r_ = g_ptr_array_index((array), i_);                                 \
			if (strcmp(r_->id, (id)) == 0) {                                           \
				return r_;                                                         \
			}                                                                          \
		}                                                                                  \
		return NULL;                                                                       \
	} while (0)

const HwGpuModel *
hw_catalog_lookup_gpu(const HwCatalog *self, const char *id)
{
	LOOKUP(self->gpus, HwGpuModel, id);
}

const HwNicModel *
hw_catalog_lookup_nic(const HwCatalog *self, const char *id)
{
	LOOKUP(self->nics, HwNicModel, id);
}

const HwNodeShape *
hw_catalog_lookup_shape(const HwCatalog *self, const char *id)
{
	LOOKUP(self->shapes, HwNodeShape, id);
}

const HwNodePool *
hw_catalog_lookup_pool(const HwCatalog *self, const char *name)
{
	for (guint i = 0; i < self->pools->len; i++) {
		const HwNodePool *pool = g_ptr_array_index(self->pools, i);

		if (strcmp(pool->name, name) == 0) {
			return pool;
		}
	}
	return NULL;
}

const GPtrArray *
hw_catalog_get_pools(const HwCatalog *self)
{
	return self->pools;
}

const GPtrArray *
hw_catalog_get_gpus(const HwCatalog *self)
{
	return self->gpus;
}

const GPtrArray *
hw_catalog_get_shapes(const HwCatalog *self)
{
	return self->shapes;
}

char *
hw_catalog_unknown_shape(const HwCatalog *self, const char *id)
{
	g_autofree const char **ids = g_new0(const char *, self->shapes->len + 1);

	for (guint i = 0; i < self->shapes->len; i++)
		ids[i] = ((const HwNodeShape *)g_ptr_array_index(self->shapes, i))->id;
	return base_strict_unknown("unknown node shape", id, ids, "shapes");
}

const HwMigProfile *
hw_gpu_model_lookup_profile(const HwGpuModel *model, const char *name)
{
	if (model->mig == NULL) {
		return NULL;
	}
	for (guint i = 0; i < model->mig->profiles->len; i++) {
		const HwMigProfile *profile = g_ptr_array_index(model->mig->profiles, i);

		if (strcmp(profile->name, name) == 0) {
			return profile;
		}
	}
	return NULL;
}

/* Moves every record of @from into @into, replacing same-named ones; the replaced
 * records go to @retired so that outstanding pointers stay valid. */
static void
merge_array(GPtrArray *into, GPtrArray *from, GPtrArray *retired_into)
{
	while (from->len > 0) {
		/* Every record type starts with `char *name` or `char *id`. */
		char **record = g_ptr_array_steal_index(from, 0);
		gboolean replaced = FALSE;

		for (guint i = 0; i < into->len && !replaced; i++) {
			char **old = g_ptr_array_index(into, i);

			if (strcmp(*old, *record) == 0) {
				g_ptr_array_add(retired_into, into->pdata[i]);
				into->pdata[i] = record;
				replaced = TRUE;
			}
		}
		if (!replaced) {
			g_ptr_array_add(into, record);
		}
	}
}

void
hw_catalog__merge(HwCatalog *self, HwCatalog *staging)
{
	HwCatalog *retired = hw_catalog_new_empty();

	merge_array(self->tables, staging->tables, retired->tables);
	merge_array(self->gpus, staging->gpus, retired->gpus);
	merge_array(self->nics, staging->nics, retired->nics);
	merge_array(self->shapes, staging->shapes, retired->shapes);
	merge_array(self->pools, staging->pools, retired->pools);
	g_ptr_array_add(self->retired, retired);

	/* Shapes name their GPU and NIC models by id: re-resolve all of them, so that an
	 * overridden model is seen by the built-in shapes too. */
	for (guint i = 0; i < self->shapes->len; i++) {
		HwNodeShape *shape = g_ptr_array_index(self->shapes, i);

		shape->gpu_model = hw_catalog_lookup_gpu(self, shape->gpu_model_id);
		for (guint r = 0; r < shape->roots->len; r++) {
			HwPcieRoot *root = g_ptr_array_index(shape->roots, r);

			for (guint n = 0; n < root->nics->len; n++) {
				HwShapeNic *nic = &g_array_index(root->nics, HwShapeNic, n);

				nic->model = hw_catalog_lookup_nic(self, nic->model_id);
			}
		}
	}
	for (guint i = 0; i < self->pools->len; i++) {
		HwNodePool *pool = g_ptr_array_index(self->pools, i);

		pool->shape = hw_catalog_lookup_shape(self, pool->shape_id);
	}
}
