/*
 * cluster_dra_class.c: DynamicResources answered once per equivalence class
 * (docs/cluster.md, "DynamicResources per class").
 *
 * Every node carries its DRA signature (ClusterNode.dra_sig, from
 * dra_allocator_node_signature): nodes with equal non-zero signatures have
 * the same pools but for names and per-node attribute values, and the same
 * allocated state, so the allocator's search gives them the same answer and
 * statistics unless it read a per-node value. The scheduler keys its classes
 * by it; the first member of a class asks the allocator (filter_shared), the
 * others take that answer and add its statistics again (add_answer).
 *
 * Signatures are kept current without looking at every node: this wiring
 * makes every change of the allocated state (Reserve, deallocation) and notes
 * the node; any other change (the inventory, a change made elsewhere) shows
 * as an unexpected move of the allocator's change count and makes every
 * node's signature be recomputed, at the next PreFilter.
 */
#include "cluster_dra-private.h"

void
cluster_dra__sig_before_change(ClusterDra *self)
{
	if (dra_allocator_get_state_changes(self->alloc) != self->sig_synced)
		self->sig_all = TRUE; /* something else changed since: every node */
}

void
cluster_dra__sig_after_change(ClusterDra *self, const ClusterNode *node)
{
	if (node == NULL)
		self->sig_all = TRUE;
	else
		g_ptr_array_add(self->sig_dirty, (gpointer)node);
	self->sig_synced = dra_allocator_get_state_changes(self->alloc);
}

/* @node's signature now; a move bumps its state_gen (its class changes). */
static void
update_sig(ClusterDra *self, ClusterNode *node)
{
	DraNode dnode = cluster_dra__dra_node(self, node);
	guint sig = dra_allocator_node_signature(self->alloc, &dnode,
	                                         cluster_dra__node_ref(self, node));

	if (sig != node->dra_sig) {
		node->dra_sig = sig;
		cluster_node_touch(node);
	}
}

void
cluster_dra__sig_refresh(ClusterDra *self)
{
	ClusterSched *sched;

	if (dra_allocator_get_state_changes(self->alloc) != self->sig_synced)
		self->sig_all = TRUE;
	if (self->sig_all) {
		sched = cluster_sim_get_sched(self->sim);
		for (guint i = 0; i < cluster_sched_get_n_nodes(sched); i++)
			update_sig(self, cluster_sched_get_node(sched, i));
	} else {
		for (guint i = 0; i < self->sig_dirty->len; i++)
			update_sig(self, self->sig_dirty->pdata[i]);
	}
	self->sig_dirty->len = 0;
	self->sig_all = FALSE;
	/* computing may prepare the allocator's indexes, which counts as a change */
	self->sig_synced = dra_allocator_get_state_changes(self->alloc);
}

/*
 * A claim allocated already is checked by node name, and the special claim of
 * extended resources depends on the node's device plugin: per node then.
 */
gboolean
cluster_dra__class_invariant(gpointer data, const ClusterPod *pod)
{
	ClusterDra *self = data;

	return self->allocated->len == 0 && !self->has_special;
}

ClusterStatus
cluster_dra__filter_shared(gpointer data,
                           const ClusterPod *pod,
                           const ClusterNode *node,
                           gboolean *allocator_called,
                           const char **reason,
                           guint *answer)
{
	ClusterDra *self = data;
	DraStats before = *dra_allocator_get_stats(self->alloc), delta;
	ClusterStatus status = cluster_dra__filter(data, pod, node, allocator_called, reason);
	const guint64 *a, *b;
	guint64 *d;

	*answer = 0;
	if (status == CLUSTER_STATUS_ERROR)
		return status;
	if (*allocator_called && (dra_allocator_timed_out(self->alloc) ||
	                          dra_allocator_answer_reads_node_values(self->alloc)))
		return status;
	a = (const guint64 *)(const void *)dra_allocator_get_stats(self->alloc);
	b = (const guint64 *)(const void *)&before;
	d = (guint64 *)(void *)&delta;
	for (guint k = 0; k < sizeof(DraStats) / sizeof(guint64); k++)
		d[k] = a[k] - b[k];
	/* the others' calls are class answers, not memo hits (DraStats) */
	delta.memo_hits = 0;
	delta.class_answers = 0;
	*answer = dra_allocator_intern_stats(self->alloc, &delta) + 1;
	return status;
}

void
cluster_dra__add_answer(gpointer data, guint answer, guint64 times)
{
	ClusterDra *self = data;

	g_return_if_fail(answer > 0);
	dra_allocator_add_stats(self->alloc, answer - 1, times);
}
