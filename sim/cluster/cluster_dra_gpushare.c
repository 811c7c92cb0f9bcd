/*
 * cluster_dra_gpushare.c: the DRA world's per-GPU state for the FGD paper's
 * score policies (docs/research/scenario-policies.md, section 1 DRA). A node
 * whose ClusterGpuShareNode tracks devices has GPU i = its i-th compute
 * device (cluster_dra_set_node_devices); when DynamicResources commits a
 * claim's allocation at Reserve, or the claim controller clears it, the
 * devices the allocator took are marked held or free. Whole exclusive
 * devices: drasim's NVIDIA driver publishes no allowMultipleAllocations GPU,
 * so a held GPU has nothing left to share. O(devices) per claim, no allocation.
 * Claims allocated in an imported cluster's input are held once at start.
 */
#include <string.h>

#include "cluster_claims.h"
#include "cluster_dra-private.h"
#include "cluster_gpushare.h"
#include "cluster_query.h"

void
cluster_dra__gpushare_held(ClusterDra *self, const ClaimAlloc *a, gboolean held)
{
	ClusterGpuShareNode *g = a->on != NULL ? a->on->gpushare : NULL;

	if (G_LIKELY(g == NULL) || !g->devices)
		return;
	for (guint k = 0; k < a->devices->len; k++) {
		const DevRef *d = &g_array_index(a->devices, DevRef, k);
		guint i;

		if (cluster_dra__node_device_index(self, a->on->name, d->device, &i))
			cluster_gpushare_node_set_held(g, i, held);
	}
}

typedef struct {
	ClusterDra *dra;
	GHashTable *nodes; /* name -> ClusterNode * */
} HoldImported;

static void
hold_imported(gpointer data, gpointer user_data)
{
	ClusterClaim *claim = data;
	HoldImported *h = user_data;
	ClaimAlloc *a = claim->allocated ? claim->allocation : NULL;

	/* allocated at Reserve: `on` is set and the devices already held */
	if (a == NULL || a->on != NULL || a->node == NULL)
		return;
	a->on = g_hash_table_lookup(h->nodes, a->node);
	cluster_dra__gpushare_held(h->dra, a, TRUE);
}

void
cluster_dra_gpushare_hold_imported(ClusterDra *self)
{
	g_autoptr(GHashTable) nodes = g_hash_table_new(g_str_hash, g_str_equal);
	HoldImported h = { self, nodes };

	for (guint i = 0; i < cluster_sim_get_n_nodes(self->sim); i++) {
		ClusterNode *node = cluster_sim_get_node(self->sim, i);

		g_hash_table_insert(nodes, (gpointer)node->name, node);
	}
	cluster_claims_foreach(cluster_sim_get_claims(self->sim), hold_imported, &h);
}
