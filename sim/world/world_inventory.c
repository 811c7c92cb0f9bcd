/*
 * world_inventory.c: a mode's inventory from spec.cluster.objects. This first
 * version is the inventory as imported: no what-if edit (addNodes, removeNodes,
 * drainNodes, mig) and no change of world; helper `whatif` replaces the body
 * of world_inventory__build() with the edits (world-inventory.h).
 */
#include "world-inventory.h"

gboolean
world_inventory__build(const Scenario *sc,
                       const ScenarioMode *mode,
                       WorldInventory *out,
                       GPtrArray *notes,
                       K8sDiagList *diags,
                       GError **error)
{
	(void)mode;
	(void)notes;
	(void)diags;
	(void)error;
	g_autoptr(K8sDiagList) again = k8s_diag_list_new();
	g_autoptr(GPtrArray) paths = g_ptr_array_new();

	out->set = k8s_object_set_new();
	out->gone = g_ptr_array_new_with_free_func(g_free);
	out->drained = g_ptr_array_new_with_free_func(g_free);
	if (sc->inventory_paths == NULL)
		return TRUE;
	/* The mode's own copy: the same files read again (their problems were
	 * reported when the scenario was loaded, so this list is dropped). */
	for (guint i = 0; i < sc->inventory_paths->len; i++)
		g_ptr_array_add(paths, sc->inventory_paths->pdata[i]);
	g_ptr_array_add(paths, NULL);
	k8s_load_paths((const char *const *)paths->pdata, K8S_LOAD_DEFAULT, out->set, again);
	return TRUE;
}

void
world_inventory__clear(WorldInventory *inv)
{
	g_clear_pointer(&inv->set, k8s_object_set_free);
	g_clear_pointer(&inv->gone, g_ptr_array_unref);
	g_clear_pointer(&inv->drained, g_ptr_array_unref);
}
