/*
 * hw_catalog_shape.c: reads the node shapes and node pools of a catalog document.
 *
 * A shape is a node's PCIe layout (root complexes with their GPUs and NICs, given
 * or generated evenly over bus numbers); a pool is a number of nodes of one shape
 * with their MIG layout. GPU and NIC models resolve through hw_catalog_load.c.
 */
#include <stdio.h>
#include <string.h>

#include "hw-private.h"

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
check_unique_bdf(HwCatalogCtx *ctx,
                 const K8sYamlNode *node,
                 const char *path,
                 GHashTable *seen,
                 const char *bdf)
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
parse_root_nics(HwCatalogCtx *ctx,
                const K8sYamlNode *node,
                const char *path,
                GHashTable *seen,
                HwPcieRoot *root)
{
	static const char *const keys[] = { "model", "bdf", NULL };
	guint index = 0;

	if (!hw_catalog__expect_seq(ctx, node, path)) {
		return FALSE;
	}
	SEQ_FOREACH(node, item)
	{
		const K8sYamlNode *nic_node = *item;
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
		slot->model = hw_catalog__find_nic(ctx, slot->model_id);
		if (slot->model == NULL) {
			return hw_reader__fail_key(ctx->r, nic_node, "model", sub,
			                           "unknown NIC model \"%s\"", slot->model_id);
		}
	}
	return TRUE;
}

static gboolean
parse_root(HwCatalogCtx *ctx,
           const K8sYamlNode *node,
           const char *path,
           GHashTable *seen,
           HwNodeShape *shape)
{
	static const char *const keys[] = { "root", "numa", "gpus", "nics", NULL };
	HwPcieRoot *root = g_new0(HwPcieRoot, 1);
	const K8sYamlNode *gpus, *nics;
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
		if (!hw_catalog__expect_seq(ctx, gpus, gpath)) {
			return FALSE;
		}
		SEQ_FOREACH(gpus, item)
		{
			g_autofree char *sub = g_strdup_printf("%s[%u]", gpath, index++);
			const char *bdf = hw_reader__scalar(ctx->r, *item, sub);

			if (bdf == NULL) {
				return FALSE;
			}
			g_ptr_array_add(root->gpu_bdfs, g_strdup(bdf));
			if (!check_unique_bdf(
			            ctx, *item, sub, seen,
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
hw_shape__parse_roots(HwCatalogCtx *ctx,
                      const K8sYamlNode *node,
                      const char *path,
                      HwNodeShape *shape)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	guint index = 0, gpus = 0;

	if (!hw_catalog__expect_seq(ctx, node, path)) {
		return FALSE;
	}
	SEQ_FOREACH(node, item)
	{
		g_autofree char *sub = g_strdup_printf("%s[%u]", path, index++);

		if (!parse_root(ctx, *item, sub, seen, shape)) {
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
hw_shape__generate(HwCatalogCtx *ctx, const K8sYamlNode *node, const char *path, HwNodeShape *shape)
{
	static const char *const keys[] = { "roots",     "gpus_per_root", "nics_per_root",
		                            "nic_model", "numa",          NULL };
	guint64 roots = 0, gpus = 0, nics = 0;
	g_autofree char *nic_id = NULL;
	const HwNicModel *nic_model = NULL;
	const K8sYamlNode *numa;
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
	if (nic_id != NULL && (nic_model = hw_catalog__find_nic(ctx, nic_id)) == NULL) {
		return hw_reader__fail_key(ctx->r, node, "nic_model", path,
		                           "unknown NIC model \"%s\"", nic_id);
	}
	numa = hw_reader__get(ctx->r, node, "numa");
	g_autofree char *numa_path = g_strdup_printf("%s.numa", path);
	if (!hw_catalog__expect_seq(ctx, numa, numa_path)) {
		return FALSE;
	}
	if ((guint64)numa->seq.n != roots) {
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
		if (!hw_reader__scalar_uint(ctx->r, *item, numa_path, shape->numa_nodes - 1,
		                            &numa_node)) {
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

gboolean
hw_catalog__parse_shape(HwCatalogCtx *ctx,
                        const K8sYamlNode *node,
                        const char *path,
                        HwNodeShape *shape)
{
	static const char *const keys[] = { "id",         "gpu_model",          "cpus",
		                            "memory_gib", "numa_nodes",         "confidence",
		                            "pcie_roots", "generated_topology", NULL };
	const K8sYamlNode *roots, *generated;
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
	    !hw_catalog__read_confidence(ctx, node, path, &shape->confidence)) {
		return FALSE;
	}
	shape->numa_nodes = (guint)value;
	shape->gpu_model = hw_catalog__find_gpu(ctx, shape->gpu_model_id);
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

static const HwNodeShape *
find_shape(HwCatalogCtx *ctx, const char *id)
{
	const HwNodeShape *shape = LIST_FIND(ctx->staging->shapes, HwNodeShape, id);

	return shape ? shape : LIST_FIND(ctx->base ? ctx->base->shapes : NULL, HwNodeShape, id);
}

/* mig: as a list of {profile, start} maps. Each prefix of the list is checked, so an
 * error points at the first instance that breaks a rule. */
static gboolean
parse_pool_instances(HwCatalogCtx *ctx,
                     const K8sYamlNode *node,
                     const char *path,
                     const HwGpuModel *model,
                     HwNodePool *pool)
{
	static const char *const keys[] = { "profile", "start", NULL };
	g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) placed = g_array_new(FALSE, TRUE, sizeof(HwMigInstance));
	gboolean pinned_all = TRUE, pinned_any = FALSE;
	guint index = 0;

	SEQ_FOREACH(node, item)
	{
		const K8sYamlNode *inst_node = *item;
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
parse_pool_mig(HwCatalogCtx *ctx, const K8sYamlNode *node, const char *path, HwNodePool *pool)
{
	const HwGpuModel *model = pool->shape->gpu_model;
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) instances = NULL;
	gboolean enabled;

	if (node == NULL) {
		pool->layout = g_strdup("all-disabled");
		return TRUE;
	}
	if (node->kind == K8S_YAML_SEQUENCE) {
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

gboolean
hw_catalog__parse_pool(HwCatalogCtx *ctx,
                       const K8sYamlNode *node,
                       const char *path,
                       HwNodePool *pool)
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
