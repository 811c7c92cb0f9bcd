/*
 * hw_catalog_load.c: turns one catalog YAML document into records.
 *
 * Every value is checked where it is read, so each error carries the position of
 * the offending node and its field path (gpu_models[2].mig.profiles[4].max_count).
 * References (placement class, GPU model, NIC model, balanced-layout profiles) are
 * resolved against this document first and then against the catalog it extends.
 */
#include <stdio.h>
#include <string.h>

#include "hw-private.h"

GPtrArray *hw_catalog__profiles_new(void);
GPtrArray *hw_catalog__roots_new(void);
GArray *hw_catalog__nics_new(void);
GPtrArray *hw_catalog__classes_new(void);

typedef struct {
	HwReader *r;
	HwCatalog *staging;
	const HwCatalog *base;
} Ctx;

static gboolean
read_confidence(Ctx *ctx, yaml_node_t *map, const char *path, HwConfidence *out)
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

static gboolean
expect_seq(Ctx *ctx, yaml_node_t *node, const char *path)
{
	if (node == NULL || node->type != YAML_SEQUENCE_NODE) {
		return hw_reader__fail(ctx->r, node, path, "expected a list");
	}
	return TRUE;
}

#define SEQ_FOREACH(node, item)                                                                    \
	for (yaml_node_item_t *item = (node)->data.sequence.items.start;                           \
	     item < (node)->data.sequence.items.top; item++)
#define MAP_FOREACH(node, pair)                                                                    \
	for (yaml_node_pair_t *pair = (node)->data.mapping.pairs.start;                            \
	     pair < (node)->data.mapping.pairs.top; pair++)

/* ---- placement tables ---- */

static gboolean
parse_starts(Ctx *ctx, yaml_node_t *node, const char *path, HwPlacementClass *cls)
{
	guint64 prev = 0;

	if (!expect_seq(ctx, node, path)) {
		return FALSE;
	}
	SEQ_FOREACH(node, item)
	{
		yaml_node_t *start = hw_reader__node(ctx->r, *item);
		guint64 value;

		if (!hw_reader__scalar_uint(ctx->r, start, path, 7, &value)) {
			return FALSE;
		}
		if (cls->n_starts > 0 && value <= prev) {
			return hw_reader__fail(ctx->r, start, path, "starts must be ascending");
		}
		if (cls->n_starts == G_N_ELEMENTS(cls->starts)) {
			return hw_reader__fail(ctx->r, start, path, "at most 8 starts");
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
parse_tables(Ctx *ctx, yaml_node_t *node)
{
	static const char *const class_keys[] = { "compute_slices", "size", "starts", NULL };

	if (!hw_reader__mapping(ctx->r, node, "placement_tables", NULL)) {
		return FALSE;
	}
	MAP_FOREACH(node, pair)
	{
		yaml_node_t *classes = hw_reader__node(ctx->r, pair->value);
		HwPlacementTable *table = g_new0(HwPlacementTable, 1);
		g_autofree char *path = NULL;

		table->name =
		        g_strdup((char *)hw_reader__node(ctx->r, pair->key)->data.scalar.value);
		table->classes = hw_catalog__classes_new();
		g_ptr_array_add(ctx->staging->tables, table);
		path = g_strdup_printf("placement_tables.%s", table->name);
		if (!hw_reader__mapping(ctx->r, classes, path, NULL)) {
			return FALSE;
		}
		MAP_FOREACH(classes, cpair)
		{
			yaml_node_t *body = hw_reader__node(ctx->r, cpair->value);
			HwPlacementClass *cls = g_new0(HwPlacementClass, 1);
			g_autofree char *cpath = NULL;
			guint64 value = 0;

			cls->name = g_strdup(
			        (char *)hw_reader__node(ctx->r, cpair->key)->data.scalar.value);
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
find_table(Ctx *ctx, const char *name)
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
parse_profile(Ctx *ctx,
              yaml_node_t *node,
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
	    !read_confidence(ctx, node, path, &p->confidence)) {
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
parse_balanced(Ctx *ctx, yaml_node_t *node, const char *path, HwGpuModel *model)
{
	if (!hw_reader__mapping(ctx->r, node, path, NULL)) {
		return FALSE;
	}
	MAP_FOREACH(node, pair)
	{
		yaml_node_t *key = hw_reader__node(ctx->r, pair->key);
		const char *name = (const char *)key->data.scalar.value;
		const HwMigProfile *profile = hw_gpu_model_lookup_profile(model, name);
		g_autofree char *sub = g_strdup_printf("%s.%s", path, name);
		guint64 count;

		if (profile == NULL) {
			return hw_reader__fail(ctx->r, key, sub,
			                       "unknown MIG profile \"%s\" for %s", name,
			                       model->id);
		}
		if (!hw_reader__scalar_uint(ctx->r, hw_reader__node(ctx->r, pair->value), sub, 8,
		                            &count)) {
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
parse_mig(Ctx *ctx, yaml_node_t *node, const char *path, HwGpuModel *model)
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
	yaml_node_t *profiles, *balanced;
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
	if (!expect_seq(ctx, profiles, ppath)) {
		return FALSE;
	}
	SEQ_FOREACH(profiles, item)
	{
		HwMigProfile *profile = g_new0(HwMigProfile, 1);
		g_autofree char *sub = g_strdup_printf("%s[%u]", ppath, index++);

		g_ptr_array_add(model->mig->profiles, profile);
		if (!parse_profile(ctx, hw_reader__node(ctx->r, *item), sub, table, model->mig,
		                   profile)) {
			return FALSE;
		}
		for (guint i = 0; i + 1 < model->mig->profiles->len; i++) {
			const HwMigProfile *other = g_ptr_array_index(model->mig->profiles, i);

			if (strcmp(other->name, profile->name) == 0) {
				return hw_reader__fail(ctx->r, hw_reader__node(ctx->r, *item), sub,
				                       "duplicate MIG profile \"%s\"",
				                       profile->name);
			}
		}
	}
	balanced = hw_reader__get(ctx->r, node, "balanced");
	return balanced == NULL || parse_balanced(ctx, balanced, bpath, model);
}

static gboolean
parse_gpu(Ctx *ctx, yaml_node_t *node, const char *path, HwGpuModel *model)
{
	static const char *const keys[] = {
		"id",         "product_name", "brand",      "architecture", "compute_capability",
		"memory_mib", "sms",          "confidence", "mig",          NULL
	};
	g_autofree char *cc = NULL;
	guint64 value = 0;
	yaml_node_t *mig;

	if (!hw_reader__mapping(ctx->r, node, path, keys) ||
	    !hw_reader__str(ctx->r, node, "id", path, TRUE, &model->id) ||
	    !hw_reader__str(ctx->r, node, "product_name", path, TRUE, &model->product_name) ||
	    !hw_reader__str(ctx->r, node, "architecture", path, TRUE, &model->architecture) ||
	    !hw_reader__str(ctx->r, node, "compute_capability", path, TRUE, &cc) ||
	    !hw_reader__uint(ctx->r, node, "memory_mib", path, TRUE, G_MAXUINT32,
	                     &model->memory_mib) ||
	    !hw_reader__uint(ctx->r, node, "sms", path, TRUE, 4096, &value) ||
	    !read_confidence(ctx, node, path, &model->confidence)) {
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
parse_nic(Ctx *ctx, yaml_node_t *node, const char *path, HwNicModel *nic)
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
	    !read_confidence(ctx, node, path, &nic->confidence)) {
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

static const HwGpuModel *
find_gpu(Ctx *ctx, const char *id)
{
	const HwGpuModel *model = LIST_FIND(ctx->staging->gpus, HwGpuModel, id);

	return model ? model : LIST_FIND(ctx->base ? ctx->base->gpus : NULL, HwGpuModel, id);
}

static const HwNicModel *
find_nic(Ctx *ctx, const char *id)
{
	const HwNicModel *model = LIST_FIND(ctx->staging->nics, HwNicModel, id);

	return model ? model : LIST_FIND(ctx->base ? ctx->base->nics : NULL, HwNicModel, id);
}

/* ---- node shapes ---- */

static gboolean
is_hex_lower(const char *text, guint from, guint to)
{
	for (guint i = from; i < to; i++) {
		if (!g_ascii_isxdigit(text[i]) || g_ascii_isupper(text[i])) {
			return FALSE;
		}
	}
	return TRUE;
}

/* "pci0000:10": the first component of the sysfs path (deviceattribute helper). */
static gboolean
valid_root(const char *text)
{
	return strlen(text) == 10 && g_str_has_prefix(text, "pci") && is_hex_lower(text, 3, 7) &&
	       text[7] == ':' && is_hex_lower(text, 8, 10);
}

/* "dddd:bb:dd.f", lowercase hex, function 0-7. */
static gboolean
valid_bdf(const char *text)
{
	return strlen(text) == 12 && is_hex_lower(text, 0, 4) && text[4] == ':' &&
	       is_hex_lower(text, 5, 7) && text[7] == ':' && is_hex_lower(text, 8, 10) &&
	       text[10] == '.' && text[11] >= '0' && text[11] <= '7';
}

static gboolean
check_unique_bdf(Ctx *ctx, yaml_node_t *node, const char *path, GHashTable *seen, const char *bdf)
{
	if (!valid_bdf(bdf)) {
		return hw_reader__fail(
		        ctx->r, node, path,
		        "expected a PCI address dddd:bb:dd.f in lowercase hex, got \"%s\"", bdf);
	}
	if (!g_hash_table_add(seen, (gpointer)bdf)) {
		return hw_reader__fail(ctx->r, node, path, "PCI address %s is used twice", bdf);
	}
	return TRUE;
}

static gboolean
parse_root_nics(Ctx *ctx, yaml_node_t *node, const char *path, GHashTable *seen, HwPcieRoot *root)
{
	static const char *const keys[] = { "model", "bdf", NULL };
	guint index = 0;

	if (!expect_seq(ctx, node, path)) {
		return FALSE;
	}
	SEQ_FOREACH(node, item)
	{
		yaml_node_t *nic_node = hw_reader__node(ctx->r, *item);
		g_autofree char *sub = g_strdup_printf("%s[%u]", path, index++);
		HwShapeNic nic = { 0 };

		g_array_append_val(root->nics, nic);
		HwShapeNic *slot = &g_array_index(root->nics, HwShapeNic, root->nics->len - 1);
		if (!hw_reader__mapping(ctx->r, nic_node, sub, keys) ||
		    !hw_reader__str(ctx->r, nic_node, "model", sub, TRUE, &slot->model_id) ||
		    !hw_reader__str(ctx->r, nic_node, "bdf", sub, TRUE, &slot->bdf) ||
		    !check_unique_bdf(ctx, hw_reader__get(ctx->r, nic_node, "bdf"), sub, seen,
		                      slot->bdf)) {
			return FALSE;
		}
		slot->model = find_nic(ctx, slot->model_id);
		if (slot->model == NULL) {
			return hw_reader__fail_key(ctx->r, nic_node, "model", sub,
			                           "unknown NIC model \"%s\"", slot->model_id);
		}
	}
	return TRUE;
}

static gboolean
parse_root(Ctx *ctx, yaml_node_t *node, const char *path, GHashTable *seen, HwNodeShape *shape)
{
	static const char *const keys[] = { "root", "numa", "gpus", "nics", NULL };
	HwPcieRoot *root = g_new0(HwPcieRoot, 1);
	yaml_node_t *gpus, *nics;
	guint64 numa = 0;
	guint index = 0;

	root->gpu_bdfs = g_ptr_array_new_with_free_func(g_free);
	root->nics = hw_catalog__nics_new();
	g_ptr_array_add(shape->roots, root);
	if (!hw_reader__mapping(ctx->r, node, path, keys) ||
	    !hw_reader__str(ctx->r, node, "root", path, TRUE, &root->root) ||
	    !hw_reader__uint(ctx->r, node, "numa", path, TRUE, 63, &numa)) {
		return FALSE;
	}
	root->numa = (int)numa;
	if (!valid_root(root->root)) {
		return hw_reader__fail_key(
		        ctx->r, node, "root", path,
		        "expected a PCIe root pci<domain>:<bus> in lowercase hex, got "
		        "\"%s\"",
		        root->root);
	}
	if (numa >= shape->numa_nodes) {
		return hw_reader__fail_key(ctx->r, node, "numa", path,
		                           "NUMA node %u does not exist (the shape has %u)",
		                           (guint)numa, shape->numa_nodes);
	}
	gpus = hw_reader__get(ctx->r, node, "gpus");
	g_autofree char *gpath = g_strdup_printf("%s.gpus", path);
	if (gpus != NULL) {
		if (!expect_seq(ctx, gpus, gpath)) {
			return FALSE;
		}
		SEQ_FOREACH(gpus, item)
		{
			g_autofree char *sub = g_strdup_printf("%s[%u]", gpath, index++);
			const char *bdf =
			        hw_reader__scalar(ctx->r, hw_reader__node(ctx->r, *item), sub);

			if (bdf == NULL) {
				return FALSE;
			}
			g_ptr_array_add(root->gpu_bdfs, g_strdup(bdf));
			if (!check_unique_bdf(
			            ctx, hw_reader__node(ctx->r, *item), sub, seen,
			            g_ptr_array_index(root->gpu_bdfs, root->gpu_bdfs->len - 1))) {
				return FALSE;
			}
		}
	}
	nics = hw_reader__get(ctx->r, node, "nics");
	g_autofree char *npath = g_strdup_printf("%s.nics", path);
	return nics == NULL || parse_root_nics(ctx, nics, npath, seen, root);
}

static gboolean
hw_shape__parse_roots(Ctx *ctx, yaml_node_t *node, const char *path, HwNodeShape *shape)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	guint index = 0, gpus = 0;

	if (!expect_seq(ctx, node, path)) {
		return FALSE;
	}
	SEQ_FOREACH(node, item)
	{
		g_autofree char *sub = g_strdup_printf("%s[%u]", path, index++);

		if (!parse_root(ctx, hw_reader__node(ctx->r, *item), sub, seen, shape)) {
			return FALSE;
		}
		gpus += ((HwPcieRoot *)g_ptr_array_index(shape->roots, shape->roots->len - 1))
		                ->gpu_bdfs->len;
	}
	if (gpus == 0) {
		return hw_reader__fail(ctx->r, node, path, "a node shape needs at least one GPU");
	}
	return TRUE;
}

/* Lays out @roots root complexes evenly over bus numbers, GPUs first then NICs below
 * each root. The addresses are synthetic: only the grouping is modelled. */
static gboolean
hw_shape__generate(Ctx *ctx, yaml_node_t *node, const char *path, HwNodeShape *shape)
{
	static const char *const keys[] = { "roots",     "gpus_per_root", "nics_per_root",
		                            "nic_model", "numa",          NULL };
	guint64 roots = 0, gpus = 0, nics = 0;
	g_autofree char *nic_id = NULL;
	const HwNicModel *nic_model = NULL;
	yaml_node_t *numa;
	guint index = 0;

	if (!hw_reader__mapping(ctx->r, node, path, keys) ||
	    !hw_reader__uint(ctx->r, node, "roots", path, TRUE, 16, &roots) ||
	    !hw_reader__uint(ctx->r, node, "gpus_per_root", path, TRUE, 16, &gpus) ||
	    !hw_reader__uint(ctx->r, node, "nics_per_root", path, TRUE, 16, &nics) ||
	    !hw_reader__str(ctx->r, node, "nic_model", path, nics > 0, &nic_id)) {
		return FALSE;
	}
	if (roots == 0 || gpus == 0) {
		return hw_reader__fail(ctx->r, node, path,
		                       "roots and gpus_per_root must be at least 1");
	}
	if (nic_id != NULL && (nic_model = find_nic(ctx, nic_id)) == NULL) {
		return hw_reader__fail_key(ctx->r, node, "nic_model", path,
		                           "unknown NIC model \"%s\"", nic_id);
	}
	numa = hw_reader__get(ctx->r, node, "numa");
	g_autofree char *numa_path = g_strdup_printf("%s.numa", path);
	if (!expect_seq(ctx, numa, numa_path)) {
		return FALSE;
	}
	if ((guint64)(numa->data.sequence.items.top - numa->data.sequence.items.start) != roots) {
		return hw_reader__fail(ctx->r, numa, numa_path,
		                       "expected one NUMA node per root (%u)", (guint)roots);
	}
	SEQ_FOREACH(numa, item)
	{
		guint bus = index * (256 / (guint)roots);
		HwPcieRoot *root = g_new0(HwPcieRoot, 1);
		guint64 numa_node = 0;

		root->gpu_bdfs = g_ptr_array_new_with_free_func(g_free);
		root->nics = hw_catalog__nics_new();
		root->root = g_strdup_printf("pci0000:%02x", bus);
		g_ptr_array_add(shape->roots, root);
		if (!hw_reader__scalar_uint(ctx->r, hw_reader__node(ctx->r, *item), numa_path,
		                            shape->numa_nodes - 1, &numa_node)) {
			return FALSE;
		}
		root->numa = (int)numa_node;
		for (guint g = 0; g < gpus; g++) {
			g_ptr_array_add(root->gpu_bdfs,
			                g_strdup_printf("0000:%02x:00.0", bus + 1 + g));
		}
		for (guint n = 0; n < nics; n++) {
			HwShapeNic nic = { g_strdup_printf("0000:%02x:00.0",
				                           bus + 1 + (guint)gpus + n),
				           g_strdup(nic_id), nic_model };
			g_array_append_val(root->nics, nic);
		}
		index++;
	}
	return TRUE;
}

static gboolean
parse_shape(Ctx *ctx, yaml_node_t *node, const char *path, HwNodeShape *shape)
{
	static const char *const keys[] = { "id",         "gpu_model",          "cpus",
		                            "memory_gib", "numa_nodes",         "confidence",
		                            "pcie_roots", "generated_topology", NULL };
	yaml_node_t *roots, *generated;
	guint64 value = 0;

	shape->roots = hw_catalog__roots_new();
	if (!hw_reader__mapping(ctx->r, node, path, keys) ||
	    !hw_reader__str(ctx->r, node, "id", path, TRUE, &shape->id) ||
	    !hw_reader__str(ctx->r, node, "gpu_model", path, TRUE, &shape->gpu_model_id) ||
	    !hw_reader__uint(ctx->r, node, "cpus", path, TRUE, 1 << 20, &value)) {
		return FALSE;
	}
	shape->cpus = (guint)value;
	if (!hw_reader__uint(ctx->r, node, "memory_gib", path, TRUE, 1 << 30, &shape->memory_gib) ||
	    !hw_reader__uint(ctx->r, node, "numa_nodes", path, TRUE, 64, &value) ||
	    !read_confidence(ctx, node, path, &shape->confidence)) {
		return FALSE;
	}
	shape->numa_nodes = (guint)value;
	shape->gpu_model = find_gpu(ctx, shape->gpu_model_id);
	if (shape->gpu_model == NULL) {
		return hw_reader__fail_key(ctx->r, node, "gpu_model", path,
		                           "unknown GPU model \"%s\"", shape->gpu_model_id);
	}
	roots = hw_reader__get(ctx->r, node, "pcie_roots");
	generated = hw_reader__get(ctx->r, node, "generated_topology");
	if ((roots == NULL) == (generated == NULL)) {
		return hw_reader__fail(ctx->r, node, path,
		                       "expected exactly one of pcie_roots and generated_topology");
	}
	if (roots != NULL) {
		g_autofree char *sub = g_strdup_printf("%s.pcie_roots", path);
		return hw_shape__parse_roots(ctx, roots, sub, shape);
	}
	g_autofree char *sub = g_strdup_printf("%s.generated_topology", path);
	shape->synthetic_topology = TRUE;
	return hw_shape__generate(ctx, generated, sub, shape);
}

/* ---- node pools (scenario hardware) ---- */

static const HwNodeShape *
find_shape(Ctx *ctx, const char *id)
{
	const HwNodeShape *shape = LIST_FIND(ctx->staging->shapes, HwNodeShape, id);

	return shape ? shape : LIST_FIND(ctx->base ? ctx->base->shapes : NULL, HwNodeShape, id);
}

/* mig: as a list of {profile, start} maps. Each prefix of the list is checked, so an
 * error points at the first instance that breaks a rule. */
static gboolean
parse_pool_instances(
        Ctx *ctx, yaml_node_t *node, const char *path, const HwGpuModel *model, HwNodePool *pool)
{
	static const char *const keys[] = { "profile", "start", NULL };
	g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) placed = g_array_new(FALSE, TRUE, sizeof(HwMigInstance));
	gboolean pinned_all = TRUE, pinned_any = FALSE;
	guint index = 0;

	SEQ_FOREACH(node, item)
	{
		yaml_node_t *inst_node = hw_reader__node(ctx->r, *item);
		g_autofree char *sub = g_strdup_printf("%s[%u]", path, index++);
		g_autofree char *name = NULL;
		g_autofree char *reason = NULL;
		const HwMigProfile *profile;
		guint64 start = G_MAXUINT64;

		if (!hw_reader__mapping(ctx->r, inst_node, sub, keys) ||
		    !hw_reader__str(ctx->r, inst_node, "profile", sub, TRUE, &name) ||
		    !hw_reader__uint(ctx->r, inst_node, "start", sub, FALSE, 7, &start)) {
			return FALSE;
		}
		profile = hw_gpu_model_lookup_profile(model, name);
		if (profile == NULL) {
			return hw_reader__fail_key(ctx->r, inst_node, "profile", sub,
			                           "unknown MIG profile \"%s\" for %s", name,
			                           model->id);
		}
		pinned_all = pinned_all && start != G_MAXUINT64;
		pinned_any = pinned_any || start != G_MAXUINT64;
		if (start == G_MAXUINT64) {
			g_ptr_array_add(items, g_strdup(name));
			continue;
		}
		g_ptr_array_add(items, g_strdup_printf("%s@%u", name, (guint)start));
		HwMigInstance inst = { profile, (guint)start };
		g_array_append_val(placed, inst);
		if (hw_mig_check(model, (HwMigInstance *)(void *)placed->data, placed->len,
		                 &reason) != HW_MIG_OK) {
			return hw_reader__fail(ctx->r, inst_node, sub, "%s", reason);
		}
	}
	if (pinned_any && !pinned_all) {
		return hw_reader__fail(ctx->r, node, path, "give every instance a start, or none");
	}
	g_ptr_array_add(items, NULL);
	pool->layout = g_strjoinv(",", (char **)items->pdata);
	return TRUE;
}

static gboolean
parse_pool_mig(Ctx *ctx, yaml_node_t *node, const char *path, HwNodePool *pool)
{
	const HwGpuModel *model = pool->shape->gpu_model;
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) instances = NULL;
	gboolean enabled;

	if (node == NULL) {
		pool->layout = g_strdup("all-disabled");
		return TRUE;
	}
	if (node->type == YAML_SEQUENCE_NODE) {
		if (model->mig == NULL) {
			return hw_reader__fail(ctx->r, node, path, "%s does not support MIG",
			                       model->product_name);
		}
		if (!parse_pool_instances(ctx, node, path, model, pool)) {
			return FALSE;
		}
	} else {
		const char *text = hw_reader__scalar(ctx->r, node, path);

		if (text == NULL) {
			return FALSE;
		}
		if (strcmp(text, "dynamic") == 0) {
			pool->dynamic_mig = TRUE;
			pool->layout = g_strdup("all-disabled");
			return TRUE;
		}
		pool->layout = g_strdup(text);
	}
	instances = hw_mig_layout_parse(model, pool->layout, &enabled, &error);
	if (instances == NULL) {
		return hw_reader__fail(ctx->r, node, path, "%s", error->message);
	}
	return TRUE;
}

static gboolean
parse_pool(Ctx *ctx, yaml_node_t *node, const char *path, HwNodePool *pool)
{
	static const char *const keys[] = { "name", "shape", "count", "mig", NULL };
	g_autofree char *mig_path = g_strdup_printf("%s.mig", path);
	guint64 count = 0;

	if (!hw_reader__mapping(ctx->r, node, path, keys) ||
	    !hw_reader__str(ctx->r, node, "name", path, TRUE, &pool->name) ||
	    !hw_reader__str(ctx->r, node, "shape", path, TRUE, &pool->shape_id) ||
	    !hw_reader__uint(ctx->r, node, "count", path, TRUE, 100000, &count)) {
		return FALSE;
	}
	pool->count = (guint)count;
	pool->shape = find_shape(ctx, pool->shape_id);
	if (pool->shape == NULL) {
		return hw_reader__fail_key(ctx->r, node, "shape", path, "unknown node shape \"%s\"",
		                           pool->shape_id);
	}
	return parse_pool_mig(ctx, hw_reader__get(ctx->r, node, "mig"), mig_path, pool);
}

/* ---- document ---- */

typedef gboolean (*RecordParser)(Ctx *ctx, yaml_node_t *node, const char *path, gpointer record);

static gboolean
parse_gpu_record(Ctx *ctx, yaml_node_t *node, const char *path, gpointer record)
{
	return parse_gpu(ctx, node, path, record);
}

static gboolean
parse_nic_record(Ctx *ctx, yaml_node_t *node, const char *path, gpointer record)
{
	return parse_nic(ctx, node, path, record);
}

static gboolean
parse_pool_record(Ctx *ctx, yaml_node_t *node, const char *path, gpointer record)
{
	return parse_pool(ctx, node, path, record);
}

static gboolean
parse_shape_record(Ctx *ctx, yaml_node_t *node, const char *path, gpointer record)
{
	return parse_shape(ctx, node, path, record);
}

static gboolean
parse_list(Ctx *ctx,
           yaml_node_t *node,
           const char *key,
           GPtrArray *into,
           gsize record_size,
           RecordParser parse)
{
	guint index = 0;

	if (!expect_seq(ctx, node, key)) {
		return FALSE;
	}
	SEQ_FOREACH(node, item)
	{
		g_autofree char *path = g_strdup_printf("%s[%u]", key, index++);
		gpointer record = g_malloc0(record_size);

		g_ptr_array_add(into, record);
		if (!parse(ctx, hw_reader__node(ctx->r, *item), path, record)) {
			return FALSE;
		}
		for (guint i = 0; i + 1 < into->len; i++) {
			if (strcmp(*(char **)g_ptr_array_index(into, i), *(char **)record) == 0) {
				return hw_reader__fail(ctx->r, hw_reader__node(ctx->r, *item), path,
				                       "duplicate id \"%s\"", *(char **)record);
			}
		}
	}
	return TRUE;
}

gboolean
hw_catalog__parse(HwCatalog *staging, const HwCatalog *base, HwReader *reader, yaml_node_t *root)
{
	static const char *const keys[] = { "schema",     "placement_tables", "gpu_models",
		                            "nic_models", "node_shapes",      "node_pools",
		                            NULL };
	Ctx ctx = { reader, staging, base };
	g_autofree char *schema = NULL;
	yaml_node_t *node;

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
