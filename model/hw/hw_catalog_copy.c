/*
 * hw_catalog_copy.c: the built-in catalog is parsed once per process and every
 * hw_catalog_new_builtin() gets a deep copy of it.
 *
 * Why a copy and not a shared catalog: a scenario loads its own documents on top
 * (hw_catalog__merge), which replaces records and re-resolves the shapes' model
 * pointers in place, so each caller needs records of its own. Parsing and checking
 * the embedded YAML (MIG placements, balanced layouts) cost far more than copying
 * the records: a run asks for the built-in catalog three times (scenario loading,
 * lint_shared, world_xlate_dra) and the fuzz targets once per input.
 */
#include <string.h>

#include "hw-private.h"

static HwMigProfile *
profile_copy(const HwMigProfile *from)
{
	HwMigProfile *to = g_memdup2(from, sizeof(*from));

	to->name = g_strdup(from->name);
	return to;
}

/* The balanced list points into the profiles: the copy points into the copied ones. */
static HwMigGeometry *
geometry_copy(const HwMigGeometry *from)
{
	HwMigGeometry *to = g_memdup2(from, sizeof(*from));

	to->profiles = hw_catalog__profiles_new();
	to->balanced = g_ptr_array_new();
	for (guint i = 0; i < from->profiles->len; i++)
		g_ptr_array_add(to->profiles, profile_copy(g_ptr_array_index(from->profiles, i)));
	for (guint i = 0; i < from->balanced->len; i++) {
		guint index = 0;

		if (g_ptr_array_find(from->profiles, g_ptr_array_index(from->balanced, i), &index))
			g_ptr_array_add(to->balanced, g_ptr_array_index(to->profiles, index));
	}
	return to;
}

static HwGpuModel *
gpu_copy(const HwGpuModel *from)
{
	HwGpuModel *to = g_memdup2(from, sizeof(*from));

	to->id = g_strdup(from->id);
	to->product_name = g_strdup(from->product_name);
	to->brand = g_strdup(from->brand);
	to->architecture = g_strdup(from->architecture);
	to->mig = from->mig != NULL ? geometry_copy(from->mig) : NULL;
	return to;
}

static HwNicModel *
nic_copy(const HwNicModel *from)
{
	HwNicModel *to = g_memdup2(from, sizeof(*from));

	to->id = g_strdup(from->id);
	to->vendor = g_strdup(from->vendor);
	to->device = g_strdup(from->device);
	return to;
}

/* Model pointers are left for hw_catalog__merge() to resolve in the new catalog. */
static HwPcieRoot *
root_copy(const HwPcieRoot *from)
{
	HwPcieRoot *to = g_memdup2(from, sizeof(*from));

	to->root = g_strdup(from->root);
	to->gpu_bdfs = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < from->gpu_bdfs->len; i++)
		g_ptr_array_add(to->gpu_bdfs, g_strdup(g_ptr_array_index(from->gpu_bdfs, i)));
	to->nics = hw_catalog__nics_new();
	for (guint i = 0; i < from->nics->len; i++) {
		const HwShapeNic *nic = &g_array_index(from->nics, HwShapeNic, i);
		HwShapeNic copy = { g_strdup(nic->bdf), g_strdup(nic->model_id), NULL };

		g_array_append_val(to->nics, copy);
	}
	return to;
}

static HwNodeShape *
shape_copy(const HwNodeShape *from)
{
	HwNodeShape *to = g_memdup2(from, sizeof(*from));

	to->id = g_strdup(from->id);
	to->gpu_model_id = g_strdup(from->gpu_model_id);
	to->gpu_model = NULL;
	to->roots = hw_catalog__roots_new();
	for (guint i = 0; i < from->roots->len; i++)
		g_ptr_array_add(to->roots, root_copy(g_ptr_array_index(from->roots, i)));
	return to;
}

static HwNodePool *
pool_copy(const HwNodePool *from)
{
	HwNodePool *to = g_memdup2(from, sizeof(*from));

	to->name = g_strdup(from->name);
	to->shape_id = g_strdup(from->shape_id);
	to->shape = NULL;
	to->layout = g_strdup(from->layout);
	return to;
}

static HwPlacementTable *
table_copy(const HwPlacementTable *from)
{
	HwPlacementTable *to = g_new0(HwPlacementTable, 1);

	to->name = g_strdup(from->name);
	to->classes = hw_catalog__classes_new();
	for (guint i = 0; i < from->classes->len; i++) {
		const HwPlacementClass *cls = g_ptr_array_index(from->classes, i);
		HwPlacementClass *copy = g_memdup2(cls, sizeof(*cls));

		copy->name = g_strdup(cls->name);
		g_ptr_array_add(to->classes, copy);
	}
	return to;
}

typedef gpointer (*RecordCopy)(gconstpointer record);

static void
copy_records(GPtrArray *into, const GPtrArray *from, RecordCopy copy)
{
	for (guint i = 0; i < from->len; i++)
		g_ptr_array_add(into, copy(g_ptr_array_index(from, i)));
}

/* A deep copy of @from's live records (replaced ones are not carried over). */
static HwCatalog *
catalog_copy(const HwCatalog *from)
{
	HwCatalog *staging = hw_catalog_new_empty();
	HwCatalog *to = hw_catalog_new_empty();

	copy_records(staging->tables, from->tables, (RecordCopy)table_copy);
	copy_records(staging->gpus, from->gpus, (RecordCopy)gpu_copy);
	copy_records(staging->nics, from->nics, (RecordCopy)nic_copy);
	copy_records(staging->shapes, from->shapes, (RecordCopy)shape_copy);
	copy_records(staging->pools, from->pools, (RecordCopy)pool_copy);
	hw_catalog__merge(to, staging); /* resolves the shapes' and pools' pointers */
	hw_catalog_free(staging);
	return to;
}

HwCatalog *
hw_catalog_new_builtin(GError **error)
{
	static GMutex lock;
	static HwCatalog *parsed; /* kept for the whole process */
	HwCatalog *copy = NULL;

	g_mutex_lock(&lock);
	if (parsed == NULL)
		parsed = hw_catalog__parse_builtin(error);
	if (parsed != NULL)
		copy = catalog_copy(parsed);
	g_mutex_unlock(&lock);
	return copy;
}
