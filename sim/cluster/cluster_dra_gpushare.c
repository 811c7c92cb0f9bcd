/*
 * cluster_dra_gpushare.c: the DRA world's per-GPU state for the FGD paper's
 * score policies (docs/research/scenario-policies.md, section 1 DRA). A node
 * whose ClusterGpuShareNode tracks devices has GPU i = its i-th compute
 * device (cluster_dra_set_node_devices); when DynamicResources commits a
 * claim's allocation at Reserve, or the claim controller clears it, the
 * devices the allocator took are marked held or free. Whole exclusive
 * devices: drasim's NVIDIA driver publishes no allowMultipleAllocations GPU,
 * so a held GPU has nothing left to share. O(devices) per claim, no allocation.
 */
#include <string.h>

#include "cluster_dra-private.h"
#include "cluster_gpushare.h"

void
cluster_dra__gpushare_held(ClusterDra *self, const ClaimAlloc *a, gboolean held)
{
	ClusterGpuShareNode *g = a->on != NULL ? a->on->gpushare : NULL;
	const GPtrArray *table;

	if (G_LIKELY(g == NULL) || !g->devices)
		return;
	table = g_hash_table_lookup(self->node_devices, a->on->name);
	for (guint k = 0; table != NULL && k < a->devices->len; k++) {
		const DevRef *d = &g_array_index(a->devices, DevRef, k);

		for (guint i = 0; i < table->len; i++) {
			if (strcmp(table->pdata[i], d->device) == 0) {
				cluster_gpushare_node_set_held(g, i, held);
				break;
			}
		}
	}
}
