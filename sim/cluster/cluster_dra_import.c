/*
 * cluster_dra_import.c: a ResourceClaim that arrives already allocated (an
 * imported cluster's claim with status.allocation, docs/import.md). Its
 * devices are taken as allocated: the allocator marks them in use and never
 * allocates them again, and the claim controller holds the allocation, so the
 * pods that reference the claim run on those devices on the allocation's node,
 * as the scheduler's DynamicResources plugin treats a claim that is already
 * allocated (pkg/scheduler/framework/plugins/dynamicresources: an allocated
 * claim is only checked against the node, never allocated anew). The claim is
 * deallocated when its last consumer is gone; one that no pod uses keeps its
 * devices, as in a real cluster.
 */
#include <string.h>

#include "cluster_dra-private.h"

/* The node an allocation is bound to: its nodeSelector's metadata.name field or
 * kubernetes.io/hostname label (what the scheduler writes); NULL: every node. */
static const char *
allocation_node(const K8sAllocationResult *a)
{
	const K8sNodeSelectorTerm *t;

	if (a->node_selector == NULL || a->node_selector->n_terms != 1)
		return NULL;
	t = &a->node_selector->terms[0];
	for (guint i = 0; i < t->n_match_fields; i++)
		if (g_strcmp0(t->match_fields[i].key, "metadata.name") == 0 &&
		    t->match_fields[i].values.n == 1)
			return t->match_fields[i].values.items[0];
	for (guint i = 0; i < t->n_match_expressions; i++)
		if (g_strcmp0(t->match_expressions[i].key, "kubernetes.io/hostname") == 0 &&
		    t->match_expressions[i].values.n == 1)
			return t->match_expressions[i].values.items[0];
	return NULL;
}

/* "driver/pool/device" of an exclusive result, already held by another claim? */
static gboolean
check_exclusive(GHashTable *held,
                const K8sResourceClaim *claim,
                const K8sDeviceRequestAllocationResult *r,
                K8sDiagList *diags)
{
	g_autofree char *key = NULL;
	const char *first;

	if ((r->has_admin_access && r->admin_access) || (r->share_id != NULL && r->share_id[0]))
		return TRUE; /* admin access and consumable-capacity shares may overlap */
	key = g_strdup_printf("%s/%s/%s", r->driver, r->pool, r->device);
	first = g_hash_table_lookup(held, key);
	if (first != NULL) {
		k8s_diag_list_error(diags, &r->pos, "status.allocation.devices.results[]",
		                    "ResourceClaim %s: device %s is already allocated to "
		                    "ResourceClaim %s: an exclusive device has one claim",
		                    claim->obj.metadata.name, key, first);
		return FALSE;
	}
	g_hash_table_insert(held, g_steal_pointer(&key), (gpointer)claim->obj.metadata.name);
	return TRUE;
}

gboolean
cluster_dra_add_allocated_claim(ClusterDra *self,
                                const K8sResourceClaim *claim,
                                GHashTable *held,
                                K8sDiagList *diags)
{
	const K8sAllocationResult *alloc = claim->status.allocation;
	ClusterClaims *claims = cluster_sim_get_claims(self->sim);
	ClusterClaim *c;
	ClaimAlloc *a;
	const char *node;

	g_return_val_if_fail(alloc != NULL, FALSE);
	for (guint i = 0; i < alloc->n_results; i++)
		if (!check_exclusive(held, claim, &alloc->results[i], diags))
			return FALSE;
	cluster_dra_add_claim(self, claim);
	c = cluster_claims_lookup(claims, claim->obj.metadata.name);
	if (c == NULL || c->allocated)
		return TRUE; /* a second claim of the name: the first won */
	a = g_new0(ClaimAlloc, 1);
	node = allocation_node(alloc);
	a->node = g_strdup(node);
	a->devices = g_array_new(FALSE, TRUE, sizeof(DevRef));
	for (guint i = 0; i < alloc->n_results; i++) {
		const K8sDeviceRequestAllocationResult *r = &alloc->results[i];
		DevRef d = { 0 };

		d.driver = g_strdup(r->driver);
		d.pool = g_strdup(r->pool);
		d.device = g_strdup(r->device);
		d.request = g_strdup(r->request);
		/* held as dra_input_mark_allocation() marks it */
		d.admin_access = r->has_admin_access && r->admin_access;
		d.shared = r->share_id != NULL && r->share_id[0] != '\0';
		d.n_consumed = d.shared ? r->consumed_capacity.n : 0;
		if (d.n_consumed > 0)
			d.consumed = g_new(DraConsumed, d.n_consumed);
		for (guint k = 0; k < d.n_consumed; k++)
			d.consumed[k] = (DraConsumed){
				g_intern_string(r->consumed_capacity.items[k].key),
				dra_input_qty_milli(&r->consumed_capacity.items[k].value)
			};
		g_array_append_val(a->devices, d);
	}
	dra_input_mark_allocation(self->alloc, alloc);
	cluster_claims_allocate(claims, c, a);
	return TRUE;
}
