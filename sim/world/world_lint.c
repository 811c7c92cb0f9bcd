/*
 * world_lint.c: what `drasim lint SCENARIO` checks in an extended mode: each
 * workload entry's pod as the run translates it (scenario_xlate__pod(): a count
 * of nvidia.com/gpu or nvidia.com/mig-<profile>, GFD node selectors) against one
 * node per pool as the mode's device plugin and GFD publish it
 * (xr_publish_objects()). A pod no node can ever take stays Pending in that
 * mode, so lint warns at the entry. On an imported cluster the mode's own
 * Nodes (world_inventory__build()) are checked as well.
 */
#include <string.h>

#include "world-inventory.h"
#include "world-private.h"
#include "xr_api.h"

static const K8sQty *
allocatable(const K8sNode *node, const char *resource)
{
	for (guint i = 0; i < node->allocatable.n; i++) {
		if (strcmp(node->allocatable.items[i].key, resource) == 0)
			return &node->allocatable.items[i].value;
	}
	return NULL;
}

static gboolean
has_label(const K8sNode *node, const char *key, const char *value)
{
	const K8sStringMap *labels = &node->obj.metadata.labels;

	for (guint i = 0; i < labels->n; i++) {
		if (strcmp(labels->items[i].key, key) == 0)
			return g_strcmp0(labels->items[i].value, value) == 0;
	}
	return FALSE;
}

/* TRUE when some Node of @nodes offers @x: its count of its resource, its labels. */
static gboolean
some_node_fits(const K8sObjectSet *nodes, const ScenarioXlate *x)
{
	for (guint n = 0; n < k8s_object_set_count_kind(nodes, K8S_KIND_NODE); n++) {
		const K8sNode *node =
		        k8s_object_as_node(k8s_object_set_get_kind(nodes, K8S_KIND_NODE, n));
		const K8sQty *q = allocatable(node, x->resource);
		gboolean fits =
		        q != NULL && q->valid && k8s_quantity_cmp_int64(&q->value, x->count) >= 0;

		for (guint i = 0; fits && i + 1 < x->node_selector->len; i += 2)
			fits = has_label(node, x->node_selector->pdata[i],
			                 x->node_selector->pdata[i + 1]);
		if (fits)
			return TRUE;
	}
	return FALSE;
}

/* One node per pool as @mode's device plugin shows it (the run's add_node()). */
static gboolean
publish_nodes(const Scenario *sc, const ScenarioMode *mode, K8sObjectSet *nodes, K8sDiagList *diags)
{
	for (guint p = 0; p < sc->pools->len; p++) {
		const ScenarioPool *pool = &g_array_index(sc->pools, ScenarioPool, p);
		const HwNodeShape *shape = hw_catalog_lookup_shape(sc->catalog, pool->shape);
		const char *layout = scenario_mode_pool_layout(mode, pool);
		g_autofree char *name = g_strdup_printf("%s-0", pool->name);
		g_autoptr(HwNode) node = NULL;
		g_autoptr(K8sDiagList) quiet = k8s_diag_list_new();
		g_autoptr(GError) error = NULL;

		if (shape == NULL || pool->count == 0)
			continue;
		node = hw_node_new(shape, name);
		/* the device plugin has no dynamic MIG: MIG off (a note in the run) */
		if (strcmp(layout, "dynamic") == 0)
			layout = "all-disabled";
		if (!hw_node_apply_layout(node, layout, &error) ||
		    !xr_publish_objects(node, &mode->xr, nodes, quiet, &error)) {
			k8s_diag_list_error(diags, &pool->pos, "spec.cluster.nodePools",
			                    "mode %s: node pool %s: %s", mode->name, pool->name,
			                    error != NULL ? error->message
			                                  : "the Node does not decode");
			return FALSE;
		}
	}
	return TRUE;
}

K8sObjectSet *
scenario_mode_inventory(const Scenario *sc, const ScenarioMode *mode, K8sDiagList *diags)
{
	g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(scenario_note__free);
	g_autoptr(GError) error = NULL;
	WorldInventory inv = { 0 };
	K8sObjectSet *set;

	if (sc->inventory == NULL || !world_inventory__build(sc, mode, &inv, notes, diags, &error))
		return NULL;
	set = g_steal_pointer(&inv.set);
	world_inventory__clear(&inv);
	return set;
}

void
scenario_lint_extended(const Scenario *sc, const ScenarioMode *mode, K8sDiagList *diags)
{
	g_autoptr(K8sObjectSet) nodes = k8s_object_set_new();
	g_autoptr(K8sObjectSet) imported = NULL;
	g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(scenario_note__free);

	if (!publish_nodes(sc, mode, nodes, diags))
		return;
	imported = scenario_mode_inventory(sc, mode, diags);
	for (guint i = 0; i < sc->entries->len; i++) {
		const ScenarioEntry *e = &g_array_index(sc->entries, ScenarioEntry, i);
		const K8sObject *obj = scenario_pods__find_object(sc, e);
		ScenarioPod pod = { 0 };
		ScenarioXlate x;
		g_autoptr(GString) selector = g_string_new(NULL);
		g_autofree char *path = g_strdup_printf("spec.workload.entries[%u]", i);

		if (obj == NULL)
			continue; /* scenario_load() reported it */
		pod.namespace_ = k8s_object_namespace(obj);
		pod.spec = scenario_pods__object_spec(obj);
		pod.obj = obj;
		scenario_xlate__pod(sc, &pod, &x, notes);
		if (x.resource != NULL && x.count > 0 && !some_node_fits(nodes, &x) &&
		    (imported == NULL || !some_node_fits(imported, &x))) {
			for (guint k = 0; k + 1 < x.node_selector->len; k += 2)
				g_string_append_printf(selector, "%s%s=%s", k == 0 ? " " : ", ",
				                       (char *)x.node_selector->pdata[k],
				                       (char *)x.node_selector->pdata[k + 1]);
			k8s_diag_list_warning(diags, &e->pos, path,
			                      "%s %s: translated for the device plugin it asks %s: "
			                      "%" G_GINT64_FORMAT "%s%s; no node of this mode's "
			                      "cluster offers that, so its pods would stay Pending",
			                      e->kind, e->name, x.resource, x.count,
			                      selector->len > 0 ? " on nodes labelled" : "",
			                      selector->str);
		}
		scenario_xlate__clear(&x);
	}
}
