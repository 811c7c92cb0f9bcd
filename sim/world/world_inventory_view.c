/*
 * world_inventory_view.c: an imported cluster as the mode's world sees it.
 *
 * world: extended on a DRA snapshot: the NVIDIA device plugin is what would
 * run, so a Node with gpu.nvidia.com devices gets the resources the plugin
 * advertises (nvidia.com/gpu per full GPU, nvidia.com/mig-<profile> per MIG
 * device under the mode's migStrategy) and the labels GPU Feature Discovery
 * writes, both computed by model/xr from the GPUs the devices describe.
 * world: dra on a device-plugin snapshot: a Node without slices whose GFD
 * labels name a catalog GPU gets the slices model/hw's NVIDIA DRA driver
 * publishes for them (MIG from nvidia.com/mig.config or the mig-* counts),
 * and loses the plugin's extended resources (the plugin is gone).
 */
#include <string.h>

#include "base_strict.h"
#include "k8s_quantity.h"
#include "world-inventory-private.h"
#include "xr.h"

/* @map with @key set to @value (appended when absent), in a new array of @set. */
static void
qty_map_set(K8sObjectSet *set, K8sQtyMap *map, const char *key, gint64 value)
{
	K8sQtyPair *items = k8s_object_set_alloc(set, sizeof(*items) * (map->n + 1));
	g_autofree char *text = g_strdup_printf("%" G_GINT64_FORMAT, value);
	K8sQtyPair pair = { k8s_object_set_intern(set, key),
		            { k8s_object_set_intern(set, text), map->pos,
		              k8s_quantity_from_int64(value, K8S_QUANTITY_DECIMAL_SI), TRUE },
		            map->pos };
	guint at = 0;

	if (map->n > 0) /* items is NULL when empty: memcpy must not see it */
		memcpy(items, map->items, sizeof(*items) * map->n);
	while (at < map->n && strcmp(items[at].key, key) != 0)
		at++;
	items[at] = pair;
	map->n = MAX(map->n, at + 1);
	map->items = items;
}

/* @map without the keys starting with @prefix, in a new array of @set. */
static void
qty_map_drop(K8sObjectSet *set, K8sQtyMap *map, const char *prefix)
{
	K8sQtyPair *items = k8s_object_set_alloc(set, sizeof(*items) * MAX(map->n, 1));
	guint n = 0;

	for (guint i = 0; i < map->n; i++)
		if (!g_str_has_prefix(map->items[i].key, prefix))
			items[n++] = map->items[i];
	map->items = items;
	map->n = n;
}

static void
label_set(K8sObjectSet *set, K8sStringMap *map, const char *key, const char *value)
{
	K8sStringPair *items = k8s_object_set_alloc(set, sizeof(*items) * (map->n + 1));
	guint at = 0;

	if (map->n > 0) /* items is NULL when empty: memcpy must not see it */
		memcpy(items, map->items, sizeof(*items) * map->n);
	while (at < map->n && strcmp(items[at].key, key) != 0)
		at++;
	items[at] = (K8sStringPair){ k8s_object_set_intern(set, key),
		                     k8s_object_set_intern(set, value), map->pos };
	map->n = MAX(map->n, at + 1);
	map->items = items;
}

static gint64
allocatable(const K8sNode *node, const char *name)
{
	for (guint i = 0; i < node->allocatable.n; i++)
		if (strcmp(node->allocatable.items[i].key, name) == 0)
			return k8s_quantity_value(&node->allocatable.items[i].value.value);
	return 0;
}

static gboolean
has_nvidia_resources(const K8sNode *node)
{
	for (guint i = 0; i < node->allocatable.n; i++)
		if (g_str_has_prefix(node->allocatable.items[i].key, "nvidia.com/"))
			return TRUE;
	return FALSE;
}

static gboolean
has_slices(K8sObjectSet *set, const char *name)
{
	guint i = 0;

	return world_inv__next_slice(set, name, NULL, &i) != NULL;
}

static void
node_note(GPtrArray *notes, const K8sNode *node, const char *what, const char *approx)
{
	g_autofree char *object = g_strdup_printf("node %s", node->obj.metadata.name);

	scenario_note__add(notes, object, what, approx);
}

/* The plugin's resources and GFD's labels of @inv's @node, from its devices. */
static void
extend_node(const Scenario *sc,
            const ScenarioMode *mode,
            WorldInventory *inv,
            K8sNode *node,
            GPtrArray *notes)
{
	g_autofree char *unknown = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(XrNodeView) view = NULL;
	g_autoptr(HwNodeObject) o = g_new0(HwNodeObject, 1);
	WorldInvNode n;

	if (!world_inv__node_from_slices(&n, sc->catalog, inv->set, node->obj.metadata.name,
	                                 &unknown)) {
		if (unknown != NULL) {
			g_autofree char *what = g_strdup_printf("productName %s", unknown);
			node_note(notes, node, what,
			          "no GPU model of the catalog: no nvidia.com/gpu derived, the "
			          "node has no GPU in the extended world");
		}
		world_inv__node_clear(&n);
		return;
	}
	view = xr_node_view_new(n.node, &mode->xr, &error);
	world_inv__node_clear(&n);
	if (view == NULL) {
		node_note(notes, node, "world: extended", error->message);
		return;
	}
	o->label_keys = g_ptr_array_new_with_free_func(g_free);
	o->label_values = g_ptr_array_new_with_free_func(g_free);
	o->resource_names = g_ptr_array_new_with_free_func(g_free);
	o->resource_values = g_ptr_array_new_with_free_func(g_free);
	xr_node_view_apply(view, o);
	for (guint i = 0; i < o->resource_names->len; i++) {
		const char *name = g_ptr_array_index(o->resource_names, i);
		gint64 count = xr_node_view_count(view, name);

		qty_map_set(inv->set, &node->capacity, name, count);
		qty_map_set(inv->set, &node->allocatable, name, count);
	}
	for (guint i = 0; i < o->label_keys->len; i++)
		label_set(inv->set, &node->obj.metadata.labels, g_ptr_array_index(o->label_keys, i),
		          g_ptr_array_index(o->label_values, i));
	node_note(notes, node, "world: extended",
	          "extended resources derived from the slices of gpu.nvidia.com (the device "
	          "plugin's count per full GPU and MIG device) and GFD labels from the devices; "
	          "slices are not used by that world");
}

/* A Node for @name, known only from its slices: the extended world reads
 * resources from Nodes. CPU, memory and pods from nodeDefaults; unset, as
 * sim/world's inferred nodes: 2^50 (unlimited, small enough for the scorers'
 * arithmetic) and 110 pods (kubelet's default maxPods). */
static K8sNode *
inferred_node(const Scenario *sc, WorldInventory *inv, const char *name)
{
	K8sNode *node =
	        k8s_object_as_node(k8s_object_set_add_new(inv->set, K8S_KIND_NODE, NULL, name));
	const ScenarioNodeDefaults *d = &sc->node_defaults;
	const gint64 unlimited = (gint64)1 << 50;
	const char *keys[] = { "cpu", "memory", "pods" };
	gint64 values[] = { d->cpu_milli >= 0 ? d->cpu_milli : unlimited,
		            d->memory >= 0 ? d->memory : unlimited, d->pods >= 0 ? d->pods : 110 };

	for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
		K8sQtyMap *maps[] = { &node->capacity, &node->allocatable };

		for (guint m = 0; m < 2; m++) {
			qty_map_set(inv->set, maps[m], keys[i], values[i]);
			if (i == 0) /* milli-CPU */
				maps[m]->items[maps[m]->n - 1].value.value =
				        k8s_quantity_from_milli(values[i], K8S_QUANTITY_DECIMAL_SI);
		}
	}
	label_set(inv->set, &node->obj.metadata.labels, "kubernetes.io/hostname", name);
	return node;
}

void
world_inv__view_extended(const Scenario *sc,
                         const ScenarioMode *mode,
                         WorldInventory *inv,
                         GPtrArray *notes)
{
	guint n_nodes = k8s_object_set_count_kind(inv->set, K8S_KIND_NODE);
	guint n_slices = k8s_object_set_count_kind(inv->set, K8S_KIND_RESOURCE_SLICE);

	for (guint i = 0; i < n_nodes; i++) {
		K8sNode *node =
		        k8s_object_as_node(k8s_object_set_get_kind(inv->set, K8S_KIND_NODE, i));

		if (!has_nvidia_resources(node))
			extend_node(sc, mode, inv, node, notes);
	}
	for (guint i = 0; i < n_slices; i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(inv->set, K8S_KIND_RESOURCE_SLICE, i));
		const char *name = s->spec.node_name;

		if (g_strcmp0(s->spec.driver, WORLD_INV_NVIDIA) != 0 || name == NULL ||
		    k8s_object_set_lookup(inv->set, K8S_KIND_NODE, NULL, name) != NULL)
			continue;
		extend_node(sc, mode, inv, inferred_node(sc, inv, name), notes);
		scenario_note__add(notes, name, "inferred node, world: extended",
		                   "a Node made from spec.cluster.nodeDefaults (unlimited CPU and "
		                   "memory when unset) to carry the device plugin's resources");
	}
}

/* The MIG instances of the nvidia.com/mig-<profile> counts spread over the
 * @n_mig GPUs after the first @n_full (MIG off), round robin per profile. */
static gboolean
spread_mig(const K8sNode *node, HwNode *hw, guint n_full, GString *why)
{
	const HwGpuModel *model = hw->shape->gpu_model;
	guint n_mig = hw->gpus->len - n_full;

	for (guint i = 0; i < node->allocatable.n; i++) {
		const char *key = node->allocatable.items[i].key;
		const HwMigProfile *p;
		gint64 count = k8s_quantity_value(&node->allocatable.items[i].value.value);

		if (!g_str_has_prefix(key, "nvidia.com/mig-") || count <= 0)
			continue;
		p = model->mig != NULL
		            ? hw_gpu_model_lookup_profile(model, key + strlen("nvidia.com/mig-"))
		            : NULL;
		if (p == NULL || n_mig == 0) {
			g_string_printf(why, "%s is no MIG profile of %s's GPUs", key, model->id);
			return FALSE;
		}
		for (gint64 k = 0; k < count; k++) {
			HwGpu *gpu = g_ptr_array_index(hw->gpus, n_full + (guint)(k % n_mig));
			HwMigInstance inst = { p, 0 };

			gpu->mig_mode = HW_MIG_MODE_ON;
			g_array_append_val(gpu->instances, inst);
		}
	}
	for (guint g = n_full; g < hw->gpus->len; g++) {
		HwGpu *gpu = g_ptr_array_index(hw->gpus, g);
		const HwMigProfile **ps = g_new(const HwMigProfile *, MAX(gpu->instances->len, 1));
		gboolean ok;

		for (guint k = 0; k < gpu->instances->len; k++)
			ps[k] = g_array_index(gpu->instances, HwMigInstance, k).profile;
		ok = hw_mig_place(model, ps, gpu->instances->len,
		                  (HwMigInstance *)(void *)gpu->instances->data, NULL) == HW_MIG_OK;
		g_free(ps);
		if (!ok) {
			g_string_printf(why, "the nvidia.com/mig-* counts do not fit %u GPUs",
			                n_mig);
			return FALSE;
		}
	}
	return TRUE;
}

/* The GPUs GFD's labels (and the plugin's counts) of @node name, MIG set. */
static gboolean
gpus_from_labels(const K8sNode *node, WorldInvNode *n, const HwGpuModel *model, GString *why)
{
	const char *count_label = world_inv__node_label(node, "nvidia.com/gpu.count");
	const char *config = world_inv__node_label(node, "nvidia.com/mig.config");
	g_autofree char *message = NULL;
	g_autoptr(GError) error = NULL;
	guint64 count = 0;

	if (g_strcmp0(world_inv__node_label(node, "nvidia.com/mig.strategy"), "single") == 0 &&
	    strstr(world_inv__node_label(node, "nvidia.com/gpu.product"), "-MIG-") != NULL) {
		g_string_assign(why,
		                "migStrategy single counts MIG devices in nvidia.com/gpu.count: "
		                "the number of physical GPUs is unknown");
		return FALSE;
	}
	if (count_label == NULL || !base_strict_uint(count_label, 4096, &count, &message))
		count = (guint64)allocatable(node, "nvidia.com/gpu");
	world_inv__node_init(n, model, node->obj.metadata.name, (guint)count);
	if (config != NULL && g_str_has_prefix(config, "all-")) {
		if (hw_node_apply_layout(n->node, config, &error))
			return TRUE;
		g_string_assign(why, error->message);
		return FALSE;
	}
	return spread_mig(node, n->node,
	                  (guint)MIN((guint64)allocatable(node, "nvidia.com/gpu"), count), why);
}

static gboolean
publish_from_labels(const Scenario *sc,
                    const ScenarioMode *mode,
                    WorldInventory *inv,
                    K8sNode *node,
                    GPtrArray *notes,
                    K8sDiagList *diags)
{
	const char *product = world_inv__node_label(node, "nvidia.com/gpu.product");
	const HwGpuModel *model = world_inv__gpu_model(sc->catalog, product);
	g_autoptr(GString) why = g_string_new(NULL);
	g_autofree char *what = g_strdup_printf("nvidia.com/gpu.product %s", product);
	WorldInvNode n = { 0 };
	gboolean ok = TRUE;

	if (model == NULL) {
		node_note(notes, node, what,
		          "no GPU model of the catalog: the node has no DRA devices");
	} else if (!gpus_from_labels(node, &n, model, why)) {
		node_note(notes, node, what, why->str);
	} else if ((ok = world_inv__publish(&n, mode->dynamic_mig, 1, inv->set, diags))) {
		node_note(notes, node, "world: dra",
		          "slices derived from GFD labels, not published by a driver (drasim's "
		          "model of the NVIDIA DRA driver for the catalog's GPU model); the "
		          "device plugin's nvidia.com/* resources removed");
	}
	world_inv__node_clear(&n);
	qty_map_drop(inv->set, &node->capacity, "nvidia.com/");
	qty_map_drop(inv->set, &node->allocatable, "nvidia.com/");
	return ok;
}

gboolean
world_inv__view_dra(const Scenario *sc,
                    const ScenarioMode *mode,
                    WorldInventory *inv,
                    GPtrArray *notes,
                    K8sDiagList *diags)
{
	guint n_nodes = k8s_object_set_count_kind(inv->set, K8S_KIND_NODE);

	for (guint i = 0; i < n_nodes; i++) {
		K8sNode *node =
		        k8s_object_as_node(k8s_object_set_get_kind(inv->set, K8S_KIND_NODE, i));

		if (has_slices(inv->set, node->obj.metadata.name) ||
		    (world_inv__node_label(node, "nvidia.com/gpu.product") == NULL))
			continue;
		if (!publish_from_labels(sc, mode, inv, node, notes, diags))
			return FALSE;
	}
	return TRUE;
}
