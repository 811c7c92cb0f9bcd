/*
 * cluster_sim_retired.c: finished pods as one fixed-size record. A pod that
 * succeeded or was deleted is never placed, run or recreated again (issue 19
 * item 2: a run of millions of pods must not keep them whole). Its
 * ClusterSimPod and ClusterPod (about 700 B with their side arrays) give way
 * to a ClusterSimRetired in one array by pod index, holding exactly what is
 * read after that: the name (the report, the journal, the reasons), phase,
 * times, node, the last placement's devices and the earlier placements (the
 * queries of cluster_sim_query.c and measure's collect_pods), and whether it
 * shared devices. Its claims are gone (the queries answer an empty list).
 *
 * The sampler reads every pod's requests once, at its first tick (the FGD
 * task mix, measure_frag.c); a pod retired before that keeps a copy of them
 * until then (cluster_sim_forget_retired_requests).
 */
#include "cluster-private.h"
#include "cluster_query.h"
#include "cluster_sim.h"

static gboolean
shares_by_config(const ClusterSimPod *sp)
{
	return sp->n_user_claims > 0 || sp->co_tenant ||
	       (sp->work.set_sharing && sp->work.sharing != CLUSTER_SHARE_EXCLUSIVE);
}

static ClusterSimRetired *
record_slot(ClusterSim *self, guint index)
{
	if (self->retired == NULL)
		self->retired = g_array_new(FALSE, TRUE, sizeof(ClusterSimRetired));
	if (index >= self->retired->len)
		g_array_set_size(self->retired, index + 1);
	return &g_array_index(self->retired, ClusterSimRetired, index);
}

static void
keep_requests(ClusterSim *self, const ClusterSimPod *sp)
{
	if (self->requests_read)
		return;
	if (self->retired_requests == NULL)
		self->retired_requests = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	g_hash_table_insert(self->retired_requests, GUINT_TO_POINTER(sp->index),
	                    g_memdup2(&sp->pod->requests, sizeof sp->pod->requests));
}

void
cluster_sim__retire_pod(ClusterSim *self, ClusterSimPod *sp)
{
	ClusterSimRetired *r = record_slot(self, sp->index);

	keep_requests(self, sp);
	*r = (ClusterSimRetired){
		.name = g_steal_pointer(&sp->pod->name),
		.history = g_steal_pointer(&sp->history),
		.arrival = sp->work.arrival,
		.bound_at = sp->bound_at,
		.finished_at = sp->finished_at,
		.placed_at = sp->placed_at,
		.left_at = sp->left_at,
		.node = sp->node != NULL ? sp->node->index : G_MAXUINT,
		.n_history = sp->n_history,
		.restarts = sp->restarts,
		.phase = (guint8)sp->phase,
		.shares = shares_by_config(sp),
	};
	/* what cluster_sim_get_pod_devices answers: the last bind's, if any */
	if (sp->node != NULL && sp->bound_at >= 0) {
		r->n_devices = sp->n_devices;
		if (sp->n_devices == 1)
			r->devices.one = sp->devices[0];
		else if (sp->n_devices > 1)
			r->devices.many = g_memdup2(sp->devices, sp->n_devices * sizeof(guint));
	}
	sp->n_history = 0;
	self->pods->pdata[sp->index] = NULL;
	cluster_sim__pod_free(sp);
}

const ClusterSimRetired *
cluster_sim__retired(const ClusterSim *self, guint index)
{
	const ClusterSimRetired *r;

	if (self->retired == NULL || index >= self->retired->len)
		return NULL;
	r = &g_array_index(self->retired, ClusterSimRetired, index);
	return r->name != NULL ? r : NULL;
}

const guint *
cluster_sim__retired_devices(const ClusterSimRetired *r)
{
	return r->n_devices == 1 ? &r->devices.one : r->devices.many;
}

void
cluster_sim__retired_free(ClusterSim *self)
{
	for (guint i = 0; self->retired != NULL && i < self->retired->len; i++) {
		ClusterSimRetired *r = &g_array_index(self->retired, ClusterSimRetired, i);

		if (r->name == NULL)
			continue;
		g_free(r->name);
		if (r->n_devices > 1)
			g_free(r->devices.many);
		for (guint h = 0; h < r->n_history; h++)
			g_free(r->history[h].devices);
		g_free(r->history);
	}
	if (self->retired != NULL)
		g_array_unref(self->retired);
	if (self->retired_requests != NULL)
		g_hash_table_unref(self->retired_requests);
}

const char *
cluster_sim_get_pod_name(const ClusterSim *self, guint index)
{
	const ClusterSimRetired *r = cluster_sim__retired(self, index);

	g_assert(index < self->pods->len);
	return r != NULL ? r->name : ((const ClusterSimPod *)self->pods->pdata[index])->pod->name;
}

const ClusterResources *
cluster_sim_get_pod_requests(const ClusterSim *self, guint index)
{
	const ClusterSimPod *sp;

	g_assert(index < self->pods->len);
	sp = self->pods->pdata[index];
	if (sp != NULL)
		return &sp->pod->requests;
	return self->retired_requests != NULL
	               ? g_hash_table_lookup(self->retired_requests, GUINT_TO_POINTER(index))
	               : NULL;
}

void
cluster_sim_forget_retired_requests(ClusterSim *self)
{
	self->requests_read = TRUE;
	g_clear_pointer(&self->retired_requests, g_hash_table_unref);
}
