/*
 * hw_catalog_load.c: turns one catalog YAML document into records.
 *
 * Every value is checked where it is read, so each error carries the position of
 * the offending node and its field path (gpu_models[2].mig.profiles[4].max_count).
 * References (placement class, GPU model, NIC model, balanced-layout profiles) are
 * resolved against this document first and then against the catalog it extends.
 * This file reads the document, placement tables, GPU and NIC models;
 * hw_catalog_shape.c reads node shapes and node pools.
 */
#include <stdio.h>
#include <string.h>

#include "base_strict.h"
#include "hw-private.h"

gboolean
hw_catalog__read_confidence(HwCatalogCtx *ctx,
                            const K8sYamlNode *map,
                            const char *path,
                            HwConfidence *out)
{
	g_autofree char *text = NULL;

	*out = HW_CONFIDENCE_UNCONFIRMED;
	if (!hw_reader__str(ctx->r, map, "confidence", path, FALSE, &text)) {
		return FALSE;
	}
	if (text == NULL || strcmp(text, "unconfirmed") == 0) {
		return TRUE;
	}
	if (strcmp(text, "confirmed") == 0) {
		*out = HW_CONFIDENCE_CONFIRMED;
	} else if (strcmp(text, "inferred") == 0) {
		*out = HW_CONFIDENCE_INFERRED;
	} else {
		return hw_reader__fail_key(
		        ctx->r, map, "confidence", path,
		        "expected confirmed, inferred or unconfirmed, got \"%s\"", text);
	}
	return TRUE;
}

gboolean
hw_catalog__expect_seq(HwCatalogCtx *ctx, const K8sYamlNode *node, const char *path)
{
	if (node == NULL || node->kind != K8S_YAML_SEQUENCE) {
		return hw_reader__fail(ctx->r, node, path, "expected a list");
	}
	return TRUE;
}

/* ---- placement tables ---- */

static gboolean
parse_starts(HwCatalogCtx *ctx, const K8sYamlNode *node, const char *path, HwPlacementClass *cls)
{
	guint64 prev = 0;

	if (!hw_catalog__expect_seq(ctx, node, path)) {
		return FALSE;
	}
	SEQ_FOREACH(node, item)
	{
		const K8sYamlNode *start = *item;
		guint64 value;
		g_autofree char *too_many = NULL;

		if (!hw_reader__scalar_uint(ctx->r, start, path, 7, &value)) {
			return FALSE;
		}
		if (cls->n_starts > 0 && value <= prev) {
			return hw_reader__fail(ctx->r, start, path, "starts must be ascending");
		}
		if (!base_strict_count(cls->n_starts + 1, G_N_ELEMENTS(cls->starts), "starts",
		                       &too_many)) {
			return hw_reader__fail(ctx->r, start, path, "%s", too_many);
		}
		cls->starts[cls->n_starts++] = (guint)value;
		prev = value;
	}
	if (cls->n_starts == 0) {
		return hw_reader__fail(ctx->r, node, path, "expected at least one start");
	}
	return TRUE;
}

static gboolean
parse_tables(HwCatalogCtx *ctx, const K8sYamlNode *node)
{
	static const char *const class_keys[] = { "compute_slices", "size", "starts", NULL };

	if (!hw_reader__mapping(ctx->r, node, "placement_tables", NULL)) {
		return FALSE;
	}
	MAP_FOREACH(node, pair)
	{
		const K8sYamlNode *classes = pair->value;
		HwPlacementTable *table = g_new0(HwPlacementTable, 1);
		g_autofree char *path = NULL;

		table->name = g_strdup((char *)pair->key->scalar.text);
		table->classes = hw_catalog__classes_new();
		g_ptr_array_add(ctx->staging->tables, table);
		path = g_strdup_printf("placement_tables.%s", table->name);
		if (!hw_reader__mapping(ctx->r, classes, path, NULL)) {
			return FALSE;
		}
		MAP_FOREACH(classes, cpair)
		{
			const K8sYamlNode *body = cpair->value;
			HwPlacementClass *cls = g_new0(HwPlacementClass, 1);
			g_autofree char *cpath = NULL;
			guint64 value = 0;

			cls->name = g_strdup((char *)cpair->key->scalar.text);
			g_ptr_array_add(table->classes, cls);
			cpath = g_strdup_printf("%s.%s", path, cls->name);
			if (!hw_reader__mapping(ctx->r, body, cpath, class_keys) ||
			    !hw_reader__uint(ctx->r, body, "compute_slices", cpath, TRUE, 8,
			                     &value)) {
				return FALSE;
			}
			cls->compute_slices = (guint)value;
			if (!hw_reader__uint(ctx->r, body, "size", cpath, TRUE, 8, &value)) {
				return FALSE;
			}
			cls->size = (guint)value;
			if (cls->size == 0 || cls->compute_slices == 0) {
				return hw_reader__fail(
				        ctx->r, body, cpath,
				        "size and compute_slices must be at least 1");
			}
			g_autofree char *spath = g_strdup_printf("%s.starts", cpath);
			if (!parse_starts(ctx, hw_reader__get(ctx->r, body, "starts"), spath,
			                  cls)) {
				return FALSE;
			}
		}
	}
	return TRUE;
}

static const HwPlacementTable *
find_table(HwCatalogCtx *ctx, const char *name)
{
	const GPtrArray *lists[] = { ctx->staging->tables, ctx->base ? ctx->base->tables : NULL };

	for (guint l = 0; l < G_N_ELEMENTS(lists); l++) {
		for (guint i = 0; lists[l] != NULL && i < lists[l]->len; i++) {
			const HwPlacementTable *table = g_ptr_array_index(lists[l], i);

			if (strcmp(table->name, name) == 0) {
				return table;
			}
		}
	}
	return NULL;
}

static const HwPlacementClass *
find_class(const HwPlacementTable *table, const char *name)
{
	for (guint i = 0; i < table->classes->len; i++) {
		const HwPlacementClass *cls = g_ptr_array_index(table->classes, i);

		if (strcmp(cls->name, name) == 0) {
			return cls;
		}
	}
	return NULL;
}

/* ---- GPU models ---- */

static gboolean
parse_profile(HwCatalogCtx *ctx,
              const K8sYamlNode *node,
              const char *path,
              const HwPlacementTable *table,
              HwMigGeometry *mig,
              HwMigProfile *p)
{
	static const char *const keys[] = { "name", "gi_profile_id", "class",     "memory_mib",
		                            "sms",  "copy_engines",  "decoders",  "encoders",
		                            "jpeg", "ofa",           "max_count", "confidence",
		                            NULL };
	struct {
		const char *key;
		guint *field;
	} counts[] = { { "sms", &p->sms },
		       { "copy_engines", &p->copy_engines },
		       { "decoders", &p->decoders },
		       { "encoders", &p->encoders },
		       { "jpeg", &p->jpeg },
		       { "ofa", &p->ofa },
		       { "max_count", &p->max_count },
		       { "gi_profile_id", &p->gi_profile_id } };
	g_autofree char *class_name = NULL;
	const HwPlacementClass *cls;
	guint64 value = 0;

	if (!hw_reader__mapping(ctx->r, node, path, keys) ||
	    !hw_reader__str(ctx->r, node, "name", path, TRUE, &p->name) ||
	    !hw_reader__str(ctx->r, node, "class", path, TRUE, &class_name) ||
	    !hw_reader__uint(ctx->r, node, "memory_mib", path, TRUE, G_MAXUINT32, &value) ||
	    !hw_catalog__read_confidence(ctx, node, path, &p->confidence)) {
		return FALSE;
	}
	p->memory_mib = value;
	for (guint i = 0; i < G_N_ELEMENTS(counts); i++) {
		if (!hw_reader__uint(ctx->r, node, counts[i].key, path, TRUE, 1024, &value)) {
			return FALSE;
		}
		*counts[i].field = (guint)value;
	}
	cls = find_class(table, class_name);
	if (cls == NULL) {
		return hw_reader__fail_key(ctx->r, node, "class", path,
		                           "unknown placement class \"%s\" in table \"%s\"",
		                           class_name, table->name);
	}
	if (p->max_count == 0 || p->memory_mib == 0) {
		return hw_reader__fail(ctx->r, node, path,
		                       "max_count and memory_mib must be at least 1");
	}
	if (cls->compute_slices > mig->compute_slices ||
	    cls->starts[cls->n_starts - 1] + cls->size > mig->memory_slices) {
		return hw_reader__fail(
		        ctx->r, node, path,
		        "class \"%s\" does not fit a GPU of %u compute and %u memory "
		        "slices",
		        class_name, mig->compute_slices, mig->memory_slices);
	}
	p->compute_slices = cls->compute_slices;
	p->size = cls->size;
	memcpy(p->starts, cls->starts, sizeof(p->starts));
	p->n_starts = cls->n_starts;
	p->media_extensions = g_str_has_suffix(p->name, "+me");
	return TRUE;
}

static gboolean
parse_balanced(HwCatalogCtx *ctx, const K8sYamlNode *node, const char *path, HwGpuModel *model)
{
	if (!hw_reader__mapping(ctx->r, node, path, NULL)) {
		return FALSE;
	}
	MAP_FOREACH(node, pair)
	{
		const K8sYamlNode *key = pair->key;
		const char *name = (const char *)key->scalar.text;
		const HwMigProfile *profile = hw_gpu_model_lookup_profile(model, name);
		g_autofree char *sub = g_strdup_printf("%s.%s", path, name);
		guint64 count;

		if (profile == NULL) {
			return hw_reader__fail(ctx->r, key, sub,
			                       "unknown MIG profile \"%s\" for %s", name,
			                       model->id);
		}
		if (!hw_reader__scalar_uint(ctx->r, pair->value, sub, 8, &count)) {
			return FALSE;
		}
		for (guint64 i = 0; i < count; i++) {
			g_ptr_array_add(model->mig->balanced, (gpointer)profile);
		}
	}
	/* The balanced mix must itself be placeable, or all-balanced would fail later. */
	g_autofree HwMigInstance *placed = g_new0(HwMigInstance, model->mig->balanced->len + 1);
	g_autofree char *reason = NULL;
	if (hw_mig_place(model, (const HwMigProfile *const *)model->mig->balanced->pdata,
	                 model->mig->balanced->len, placed, &reason) != HW_MIG_OK) {
		return hw_reader__fail(ctx->r, node, path, "balanced layout is not feasible: %s",
		                       reason);
	}
	return TRUE;
}

static gboolean
parse_mig(HwCatalogCtx *ctx, const K8sYamlNode *node, const char *path, HwGpuModel *model)
{
	static const char *const keys[] = { "compute_slices",
		                            "memory_slices",
		                            "mode_toggle_requires_reset",
		                            "placement_table",
		                            "balanced",
		                            "profiles",
		                            NULL };
	g_autofree char *table_name = NULL;
	g_autofree char *ppath = g_strdup_printf("%s.profiles", path);
	g_autofree char *bpath = g_strdup_printf("%s.balanced", path);
	const HwPlacementTable *table;
	const K8sYamlNode *profiles, *balanced;
	guint64 value = 0;
	guint index = 0;

	model->mig = g_new0(HwMigGeometry, 1);
	model->mig->profiles = hw_catalog__profiles_new();
	model->mig->balanced = g_ptr_array_new();
	if (!hw_reader__mapping(ctx->r, node, path, keys) ||
	    !hw_reader__uint(ctx->r, node, "compute_slices", path, TRUE, 8, &value)) {
		return FALSE;
	}
	model->mig->compute_slices = (guint)value;
	if (!hw_reader__uint(ctx->r, node, "memory_slices", path, TRUE, 8, &value)) {
		return FALSE;
	}
	model->mig->memory_slices = (guint)value;
	if (!hw_reader__bool(ctx->r, node, "mode_toggle_requires_reset", path, TRUE,
	                     &model->mig->mode_toggle_requires_reset) ||
	    !hw_reader__str(ctx->r, node, "placement_table", path, TRUE, &table_name)) {
		return FALSE;
	}
	table = find_table(ctx, table_name);
	if (table == NULL) {
		return hw_reader__fail_key(ctx->r, node, "placement_table", path,
		                           "unknown placement table \"%s\"", table_name);
	}
	profiles = hw_reader__get(ctx->r, node, "profiles");
	if (!hw_catalog__expect_seq(ctx, profiles, ppath)) {
		return FALSE;
	}
	SEQ_FOREACH(profiles, item)
	{
		HwMigProfile *profile = g_new0(HwMigProfile, 1);
		g_autofree char *sub = g_strdup_printf("%s[%u]", ppath, index++);

		g_ptr_array_add(model->mig->profiles, profile);
		if (!parse_profile(ctx, *item, sub, table, model->mig, profile)) {
			return FALSE;
		}
		for (guint i = 0; i + 1 < model->mig->profiles->len; i++) {
			const HwMigProfile *other = g_ptr_array_index(model->mig->profiles, i);

			if (strcmp(other->name, profile->name) == 0) {
				return hw_reader__fail(ctx->r, *item, sub,
				                       "duplicate MIG profile \"%s\"",
				                       profile->name);
			}
		}
	}
	balanced = hw_reader__get(ctx->r, node, "balanced");
	return balanced == NULL || parse_balanced(ctx, balanced, bpath, model);
}

static gboolean
parse_gpu(HwCatalogCtx *ctx, const K8sYamlNode *node, const char *path, HwGpuModel *model)
{
	static const char *const keys[] = {
		"id",         "product_name", "brand",      "architecture", "compute_capability",
		"memory_mib", "sms",          "confidence", "mig",          NULL
	};
	g_autofree char *cc = NULL;
	guint64 value = 0;
	const K8sYamlNode *mig;

	if (!hw_reader__mapping(ctx->r, node, path, keys) ||
	    !hw_reader__str(ctx->r, node, "id", path, TRUE, &model->id) ||
	    !hw_reader__str(ctx->r, node, "product_name", path, TRUE, &model->product_name) ||
	    !hw_reader__str(ctx->r, node, "architecture", path, TRUE, &model->architecture) ||
	    !hw_reader__str(ctx->r, node, "compute_capability", path, TRUE, &cc) ||
	    !hw_reader__uint(ctx->r, node, "memory_mib", path, TRUE, G_MAXUINT32,
	                     &model->memory_mib) ||
	    !hw_reader__uint(ctx->r, node, "sms", path, TRUE, 4096, &value) ||
	    !hw_catalog__read_confidence(ctx, node, path, &model->confidence)) {
		return FALSE;
	}
	model->sms = (guint)value;
	model->brand = g_strdup("Nvidia");
	if (!hw_reader__str(ctx->r, node, "brand", path, FALSE, &model->brand)) {
		return FALSE;
	}
	if (sscanf(cc, "%u.%u", &model->cc_major, &model->cc_minor) != 2) {
		return hw_reader__fail_key(ctx->r, node, "compute_capability", path,
		                           "expected MAJOR.MINOR, got \"%s\"", cc);
	}
	mig = hw_reader__get(ctx->r, node, "mig");
	if (mig != NULL) {
		g_autofree char *sub = g_strdup_printf("%s.mig", path);
		return parse_mig(ctx, mig, sub, model);
	}
	return TRUE;
}

/* ---- NIC models ---- */

static gboolean
parse_nic(HwCatalogCtx *ctx, const K8sYamlNode *node, const char *path, HwNicModel *nic)
{
	static const char *const keys[] = { "id",         "vendor", "device",     "link", "rdma",
		                            "speed_gbps", "mtu",    "confidence", NULL };
	g_autofree char *link = NULL;
	guint64 value = 0;

	if (!hw_reader__mapping(ctx->r, node, path, keys) ||
	    !hw_reader__str(ctx->r, node, "id", path, TRUE, &nic->id) ||
	    !hw_reader__str(ctx->r, node, "vendor", path, TRUE, &nic->vendor) ||
	    !hw_reader__str(ctx->r, node, "device", path, TRUE, &nic->device) ||
	    !hw_reader__str(ctx->r, node, "link", path, TRUE, &link) ||
	    !hw_reader__bool(ctx->r, node, "rdma", path, TRUE, &nic->rdma) ||
	    !hw_reader__uint(ctx->r, node, "speed_gbps", path, TRUE, 100000, &value) ||
	    !hw_catalog__read_confidence(ctx, node, path, &nic->confidence)) {
		return FALSE;
	}
	nic->speed_gbps = (guint)value;
	value = 1500;
	if (!hw_reader__uint(ctx->r, node, "mtu", path, FALSE, 65535, &value)) {
		return FALSE;
	}
	nic->mtu = (guint)value;
	if (strcmp(link, "efa") == 0) {
		nic->link = HW_NIC_LINK_EFA;
	} else if (strcmp(link, "infiniband") == 0) {
		nic->link = HW_NIC_LINK_INFINIBAND;
	} else if (strcmp(link, "ethernet") == 0) {
		nic->link = HW_NIC_LINK_ETHERNET;
	} else {
		return hw_reader__fail_key(ctx->r, node, "link", path,
		                           "expected efa, infiniband or ethernet, got \"%s\"",
		                           link);
	}
	return TRUE;
}

const HwGpuModel *
hw_catalog__find_gpu(HwCatalogCtx *ctx, const char *id)
{
	const HwGpuModel *model = LIST_FIND(ctx->staging->gpus, HwGpuModel, id);

	return model ? model : LIST_FIND(ctx->base ? ctx->base->gpus : NULL, HwGpuModel, id);
}

const HwNicModel *
hw_catalog__find_nic(HwCatalogCtx *ctx, const char *id)
{
	const HwNicModel *model = LIST_FIND(ctx->staging->nics, HwNicModel, id);

	return model ? model : LIST_FIND(ctx->base ? ctx->base->nics : NULL, HwNicModel, id);
}

/* ---- document ---- */

typedef gboolean (*RecordParser)(HwCatalogCtx *ctx,
                                 const K8sYamlNode *node,
                                 const char *path,
                                 gpointer record);

/* parse_list's view of each record parser: the record as an untyped pointer. */
#define RECORD_PARSER(name, parse)                                                                 \
	static gboolean name(HwCatalogCtx *ctx, const K8sYamlNode *node, const char *path,         \
	                     gpointer record)                                                      \
	{                                                                                          \
		return parse(ctx, node, path, record);                                             \
	}
RECORD_PARSER(parse_gpu_record, parse_gpu)
RECORD_PARSER(parse_nic_record, parse_nic)
RECORD_PARSER(parse_pool_record, hw_catalog__parse_pool)
RECORD_PARSER(parse_shape_record, hw_catalog__parse_shape)
#undef RECORD_PARSER

static gboolean
parse_list(HwCatalogCtx *ctx,
           const K8sYamlNode *node,
           const char *key,
           GPtrArray *into,
           gsize record_size,
           RecordParser parse)
{
	guint index = 0;

	if (!hw_catalog__expect_seq(ctx, node, key)) {
		return FALSE;
	}
	SEQ_FOREACH(node, item)
	{
		g_autofree char *path = g_strdup_printf("%s[%u]", key, index++);
		gpointer record = g_malloc0(record_size);

		g_ptr_array_add(into, record);
		if (!parse(ctx, *item, path, record)) {
			return FALSE;
		}
		for (guint i = 0; i + 1 < into->len; i++) {
			if (strcmp(*(char **)g_ptr_array_index(into, i), *(char **)record) == 0) {
				return hw_reader__fail(ctx->r, *item, path, "duplicate id \"%s\"",
				                       *(char **)record);
			}
		}
	}
	return TRUE;
}

gboolean
hw_catalog__parse(HwCatalog *staging,
                  const HwCatalog *base,
                  HwReader *reader,
                  const K8sYamlNode *root)
{
	static const char *const keys[] = { "schema",     "placement_tables", "gpu_models",
		                            "nic_models", "node_shapes",      "node_pools",
		                            NULL };
	HwCatalogCtx ctx = { reader, staging, base };
	g_autofree char *schema = NULL;
	const K8sYamlNode *node;

	if (!hw_reader__mapping(reader, root, "<document>", keys) ||
	    !hw_reader__str(reader, root, "schema", "<document>", TRUE, &schema)) {
		return FALSE;
	}
	if (strcmp(schema, "drasim.hw/v1") != 0) {
		return hw_reader__fail(reader, hw_reader__get(reader, root, "schema"), "schema",
		                       "expected drasim.hw/v1, got \"%s\"", schema);
	}
	node = hw_reader__get(reader, root, "placement_tables");
	if (node != NULL && !parse_tables(&ctx, node)) {
		return FALSE;
	}
	node = hw_reader__get(reader, root, "gpu_models");
	if (node != NULL && !parse_list(&ctx, node, "gpu_models", staging->gpus, sizeof(HwGpuModel),
	                                parse_gpu_record)) {
		return FALSE;
	}
	node = hw_reader__get(reader, root, "nic_models");
	if (node != NULL && !parse_list(&ctx, node, "nic_models", staging->nics, sizeof(HwNicModel),
	                                parse_nic_record)) {
		return FALSE;
	}
	node = hw_reader__get(reader, root, "node_shapes");
	if (node != NULL && !parse_list(&ctx, node, "node_shapes", staging->shapes,
	                                sizeof(HwNodeShape), parse_shape_record)) {
		return FALSE;
	}
	node = hw_reader__get(reader, root, "node_pools");
	if (node != NULL && !parse_list(&ctx, node, "node_pools", staging->pools,
	                                sizeof(HwNodePool), parse_pool_record)) {
		return FALSE;
	}
	return TRUE;
}
