/*
 * world_inventory.c: a mode's cluster when the scenario gives it as objects:
 * the imported Nodes and ResourceSlices after the mode's what-if edits, as
 * pure transforms of the object set, in this order (docs/import.md, "What-if
 * modes"): a copy of the inventory without the removed nodes and their
 * slices, drained nodes cordoned (spec.unschedulable, as `kubectl drain`
 * leaves them), clones `<like>-clone-<k>` of a node and its slices, a MIG
 * layout per node republished by model/hw; then the world's view
 * (world_inventory_view.c). Every derived thing is a note of the report.
 */
#include <string.h>

#include "world-inventory-private.h"

static gboolean
in_list(const GPtrArray *names, const char *name)
{
	for (guint i = 0; names != NULL && name != NULL && i < names->len; i++)
		if (strcmp(g_ptr_array_index(names, i), name) == 0)
			return TRUE;
	return FALSE;
}

/* The mode's MIG layout for node @name (mig: keyed by an imported node), or NULL. */
static const ScenarioPoolLayout *
node_layout(const Scenario *sc, const ScenarioMode *mode, const char *name)
{
	for (guint i = 0; name != NULL && mode->layouts != NULL && i < mode->layouts->len; i++) {
		const ScenarioPoolLayout *l = &g_array_index(mode->layouts, ScenarioPoolLayout, i);

		if (strcmp(l->pool, name) == 0 && scenario_lookup_pool(sc, name) == NULL)
			return l;
	}
	return NULL;
}

/* The copy without removed nodes (and their slices) and without the NVIDIA
 * slices of nodes a layout republishes; drained nodes cordoned. */
static void
copy_inventory(const Scenario *sc, const ScenarioMode *mode, WorldInventory *inv)
{
	for (guint i = 0; i < k8s_object_set_count(sc->inventory); i++) {
		const K8sObject *obj = k8s_object_set_get(sc->inventory, i);
		const K8sResourceSlice *s = k8s_object_as_resource_slice((K8sObject *)obj);
		K8sNode *node;

		if (obj->kind == K8S_KIND_NODE && in_list(mode->remove_nodes, obj->metadata.name)) {
			g_ptr_array_add(inv->gone, g_strdup(obj->metadata.name));
			continue;
		}
		if (s != NULL && (in_list(mode->remove_nodes, s->spec.node_name) ||
		                  (node_layout(sc, mode, s->spec.node_name) != NULL &&
		                   g_strcmp0(s->spec.driver, WORLD_INV_NVIDIA) == 0)))
			continue;
		node = k8s_object_as_node(k8s_object_set_add_copy(inv->set, obj, NULL));
		if (node != NULL && in_list(mode->drain_nodes, obj->metadata.name)) {
			node->unschedulable = TRUE;
			g_ptr_array_add(inv->drained, g_strdup(obj->metadata.name));
		}
	}
}

/* @text with its first @like replaced by @clone, else "@clone-@text". */
static const char *
renamed(K8sObjectSet *set, const char *text, const char *like, const char *clone)
{
	const char *at = text != NULL ? strstr(text, like) : NULL;
	g_autofree char *out = NULL;

	if (text == NULL)
		return NULL;
	if (at == NULL)
		out = g_strdup_printf("%s-%s", clone, text);
	else
		out = g_strdup_printf("%.*s%s%s", (int)(at - text), text, clone, at + strlen(like));
	return k8s_object_set_intern(set, out);
}

/* The clone's labels: kubernetes.io/hostname is the node's name (kubelet sets it). */
static void
relabel(K8sObjectSet *set, K8sStringMap *labels, const char *clone)
{
	K8sStringPair *items = k8s_object_set_alloc(set, sizeof(*items) * MAX(labels->n, 1));

	if (labels->n > 0)
		memcpy(items, labels->items, sizeof(*items) * labels->n);
	for (guint i = 0; i < labels->n; i++)
		if (strcmp(items[i].key, "kubernetes.io/hostname") == 0)
			items[i].value = k8s_object_set_intern(set, clone);
	labels->items = items;
}

/* One clone of node @from (its Node @like; NULL for a node known only from
 * slices, whose clone is inferred the same way) and of every slice of it. */
static void
add_clone(const Scenario *sc,
          WorldInventory *inv,
          const char *from,
          const K8sObject *like,
          const char *clone)
{
	const K8sResourceSlice *s;
	K8sObject *copy;

	if (like != NULL) {
		copy = k8s_object_set_add_copy(inv->set, like, clone);
		relabel(inv->set, &copy->metadata.labels, clone);
	}
	for (guint i = 0; (s = world_inv__next_slice(sc->inventory, from, NULL, &i));) {
		K8sResourceSlice *c = k8s_object_as_resource_slice(k8s_object_set_add_copy(
		        inv->set, &s->obj, renamed(inv->set, s->obj.metadata.name, from, clone)));

		c->spec.node_name = k8s_object_set_intern(inv->set, clone);
		c->spec.pool.name = renamed(inv->set, s->spec.pool.name, from, clone);
	}
}

static gboolean
add_clones(const Scenario *sc,
           const ScenarioMode *mode,
           WorldInventory *inv,
           GPtrArray *notes,
           K8sDiagList *diags,
           GError **error)
{
	g_autoptr(GHashTable) next = g_hash_table_new(g_str_hash, g_str_equal);
	guint index = world_inv__mode_index(sc, mode);

	for (guint i = 0; mode->add_nodes != NULL && i < mode->add_nodes->len; i++) {
		const ScenarioNodeClone *c = &g_array_index(mode->add_nodes, ScenarioNodeClone, i);
		const K8sObject *like =
		        k8s_object_set_lookup(sc->inventory, K8S_KIND_NODE, NULL, c->like);
		guint k = GPOINTER_TO_UINT(g_hash_table_lookup(next, c->like));
		g_autofree char *what = g_strdup_printf("addNodes: %u like %s", c->count, c->like);

		for (guint n = 0; n < c->count; n++, k++) {
			g_autofree char *clone = g_strdup_printf("%s-clone-%u", c->like, k);
			g_autofree char *field =
			        g_strdup_printf("spec.modes[%u].addNodes[%u].like", index, i);

			if (k8s_object_set_lookup(inv->set, K8S_KIND_NODE, NULL, clone) != NULL) {
				k8s_diag_list_error(
				        diags, &c->pos, field,
				        "the clone's name %s is the name of an imported "
				        "node: rename that node",
				        clone);
				g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD,
				            "%s: node %s exists", field, clone);
				return FALSE;
			}
			add_clone(sc, inv, c->like, like, clone);
		}
		g_hash_table_insert(next, c->like, GUINT_TO_POINTER(k));
		scenario_note__add(notes, "cluster", what,
		                   "copies of the Node named <like>-clone-<k> (hostname label "
		                   "too) and of its ResourceSlices, nodeName and pool renamed, "
		                   "device names and pool generation kept; no pod is copied");
	}
	return TRUE;
}

/* The highest generation of @name's gpu.nvidia.com pools in the inventory. */
static gint64
nvidia_generation(const Scenario *sc, const char *name)
{
	const K8sResourceSlice *s;
	gint64 g = 0;

	for (guint i = 0; (s = world_inv__next_slice(sc->inventory, name, WORLD_INV_NVIDIA, &i));)
		g = MAX(g, s->spec.pool.generation);
	return g;
}

static gboolean
mig_fail(const ScenarioPoolLayout *l, guint index, K8sDiagList *diags, GError **error, char *msg)
{
	g_autofree char *field = g_strdup_printf("spec.modes[%u].mig.%s", index, l->pool);
	g_autofree char *owned = msg;

	k8s_diag_list_error(diags, &l->pos, field, "%s", msg);
	g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD, "%s: %s", field, msg);
	return FALSE;
}

/* mig: {NODE: LAYOUT}: the node's NVIDIA devices replaced by the layout's, as
 * the driver republishes them after mig-parted applied it (pool generation + 1). */
static gboolean
apply_layout(const Scenario *sc,
             const ScenarioMode *mode,
             const ScenarioPoolLayout *l,
             WorldInventory *inv,
             GPtrArray *notes,
             K8sDiagList *diags,
             GError **error)
{
	guint index = world_inv__mode_index(sc, mode);
	g_autofree char *unknown = NULL;
	g_autoptr(GError) err = NULL;
	gboolean dynamic = g_strcmp0(l->mig, "dynamic") == 0;
	WorldInvNode node;
	gboolean ok;

	if (!world_inv__node_from_slices(&node, sc->catalog, sc->inventory, l->pool, &unknown)) {
		world_inv__node_clear(&node);
		if (unknown != NULL)
			return mig_fail(
			        l, index, diags, error,
			        g_strdup_printf("node %s: its GPUs' productName \"%s\" is no "
			                        "GPU model of the catalog",
			                        l->pool, unknown));
		return mig_fail(l, index, diags, error,
		                g_strdup_printf("node %s publishes no NVIDIA GPU (gpu.nvidia.com "
		                                "device of type gpu or mig): no MIG layout applies",
		                                l->pool));
	}
	if (!dynamic && !hw_node_apply_layout(node.node, l->mig, &err)) {
		world_inv__node_clear(&node);
		return mig_fail(l, index, diags, error, g_strdup(err->message));
	}
	ok = world_inv__publish(&node, dynamic || mode->dynamic_mig,
	                        nvidia_generation(sc, l->pool) + 1, inv->set, diags);
	if (ok) {
		g_autofree char *object = g_strdup_printf("node %s", l->pool);
		g_autofree char *what = g_strdup_printf("mig: %s", l->mig);

		scenario_note__add(notes, object, what,
		                   "its gpu.nvidia.com devices republished by drasim's model of "
		                   "the NVIDIA DRA driver for the catalog's GPU model, GPU UUIDs "
		                   "and PCI addresses kept; other drivers' slices unchanged");
	} else {
		g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD,
		            "node %s: the republished slices are invalid", l->pool);
	}
	world_inv__node_clear(&node);
	return ok;
}

gboolean
world_inventory__build(const Scenario *sc,
                       const ScenarioMode *mode,
                       WorldInventory *out,
                       GPtrArray *notes,
                       K8sDiagList *diags,
                       GError **error)
{
	guint index = world_inv__mode_index(sc, mode);

	memset(out, 0, sizeof(*out));
	out->set = k8s_object_set_new();
	out->gone = g_ptr_array_new_with_free_func(g_free);
	out->drained = g_ptr_array_new_with_free_func(g_free);
	if (sc->inventory == NULL)
		return TRUE;
	if (!scenario_mode_check_nodes(sc, mode, index, diags)) {
		g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD,
		            "spec.modes[%u]: a what-if edit names no imported node", index);
		world_inventory__clear(out);
		return FALSE;
	}
	copy_inventory(sc, mode, out);
	if (!add_clones(sc, mode, out, notes, diags, error))
		goto fail;
	for (guint i = 0; mode->layouts != NULL && i < mode->layouts->len; i++) {
		const ScenarioPoolLayout *l = &g_array_index(mode->layouts, ScenarioPoolLayout, i);

		if (node_layout(sc, mode, l->pool) == l && !in_list(mode->remove_nodes, l->pool) &&
		    !apply_layout(sc, mode, l, out, notes, diags, error))
			goto fail;
	}
	if (mode->world == SCENARIO_WORLD_EXTENDED)
		world_inv__view_extended(sc, mode, out, notes);
	else if (!world_inv__view_dra(sc, mode, out, notes, diags)) {
		g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD,
		            "spec.modes[%u]: slices derived from GFD labels are invalid", index);
		goto fail;
	}
	return TRUE;
fail:
	world_inventory__clear(out);
	return FALSE;
}

void
world_inventory__clear(WorldInventory *inv)
{
	g_clear_pointer(&inv->set, k8s_object_set_free);
	g_clear_pointer(&inv->gone, g_ptr_array_unref);
	g_clear_pointer(&inv->drained, g_ptr_array_unref);
}
