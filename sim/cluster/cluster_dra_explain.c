/*
 * cluster_dra_explain.c: the DynamicResources side of `drasim explain` and
 * of the reports' reasons: the allocator's diagnosis of one pod now
 * (dra_allocator_explain() on the nodes whose other filters pass, the ones
 * DynamicResources would be asked about), and a one-line description of the
 * devices a bound pod holds through its claims. Off the hot path: called for
 * a failed attempt of a journaled run, or once per unschedulable pod at the
 * end of a run.
 */
#include <string.h>

#include "cluster_dra-private.h"

typedef struct {
	GArray *nodes;      /* DraNode */
	GPtrArray *keepers; /* label arrays, freed with the set */
} NodeSet;

static void
node_set_clear(NodeSet *set)
{
	g_array_unref(set->nodes);
	g_ptr_array_unref(set->keepers);
}

static void
add_node(NodeSet *set, const ClusterNode *node)
{
	GPtrArray *keys = g_ptr_array_new();
	GPtrArray *values = g_ptr_array_new();
	DraNode d = { .name = node->name, .n_labels = node->labels->len };

	for (guint i = 0; i < node->labels->len; i++) {
		const ClusterLabel *l = &g_array_index(node->labels, ClusterLabel, i);

		g_ptr_array_add(keys, l->key);
		g_ptr_array_add(values, l->value);
	}
	d.label_keys = (const char *const *)keys->pdata;
	d.label_values = (const char *const *)values->pdata;
	g_ptr_array_add(set->keepers, keys);
	g_ptr_array_add(set->keepers, values);
	g_array_append_val(set->nodes, d);
}

/* Allocated claims pinned to another node reject it before Allocate() runs. */
static gboolean
claims_fit_node(ClusterDra *self, const ClusterNode *node)
{
	for (guint i = 0; i < self->allocated->len; i++) {
		const ClusterClaim *c = self->allocated->pdata[i];
		const ClaimAlloc *a = c->allocation;

		if (a != NULL && a->node != NULL && strcmp(a->node, node->name) != 0)
			return FALSE;
	}
	return TRUE;
}

char *
cluster_dra_explain_pod(ClusterDra *self, guint index)
{
	ClusterSim *sim = self->sim;
	const ClusterPod *pod = cluster_sim_get_pod(sim, index);
	ClusterSched *sched = cluster_sim_get_sched(sim);
	const ClusterDraOps *ops = sim->config.sched.dra;
	NodeSet set = { g_array_new(FALSE, TRUE, sizeof(DraNode)),
		        g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref) };
	g_autoptr(GPtrArray) claims = NULL;
	guint64 calls[CLUSTER_N_PLUGINS] = { 0 };
	const char *reason = NULL;
	char *text = NULL;

	/* PreFilter again: which claims are still to allocate, which are pinned */
	if (pod == NULL || ops == NULL ||
	    ops->prefilter(self, pod, &reason) != CLUSTER_STATUS_SUCCESS ||
	    self->pending->len == 0) {
		node_set_clear(&set);
		return NULL;
	}
	claims = g_ptr_array_copy(self->pending, NULL, NULL);
	for (guint i = 0; i < cluster_sched_get_n_nodes(sched); i++) {
		const ClusterNode *node = cluster_sched_get_node(sched, i);

		if (cluster_filter__run(pod, node, calls, &reason) != CLUSTER_N_PLUGINS ||
		    !claims_fit_node(self, node))
			continue;
		add_node(&set, node);
	}
	if (set.nodes->len > 0)
		text = dra_allocator_explain(self->alloc, (const DraClaim *const *)claims->pdata,
		                             claims->len, (const DraNode *)(void *)set.nodes->data,
		                             set.nodes->len);
	node_set_clear(&set);
	return text;
}

/* "claim gpu-x: gpu.nvidia.com/node-3/gpu-1; claim ...", in claim order. */
char *
cluster_dra_describe_pod(ClusterDra *self, guint index)
{
	ClusterSim *sim = self->sim;
	GPtrArray *names = cluster_sim_get_pod_claims(sim, index);
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < names->len; i++) {
		const ClusterClaim *c =
		        cluster_claims_lookup(cluster_sim_get_claims(sim), names->pdata[i]);
		const ClaimAlloc *a = c != NULL ? c->allocation : NULL;

		g_string_append_printf(out, "%sclaim %s", out->len > 0 ? "; " : "",
		                       (const char *)names->pdata[i]);
		for (guint k = 0; a != NULL && k < a->devices->len; k++) {
			const DevRef *d = &g_array_index(a->devices, DevRef, k);

			g_string_append_printf(out, "%s%s/%s/%s", k == 0 ? ": " : ", ", d->driver,
			                       d->pool, d->device);
		}
	}
	if (out->len == 0) {
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_string_free(out, FALSE);
}
