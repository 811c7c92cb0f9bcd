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
 * The requests are gone: the sampler read them for its task mix at set-up
 * (scenario_sample__add_pod_task).
 */
#include <string.h>

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

/* The namer of parked pods gives this one's name too: no copy kept (2,000,000
 * pods: 64 MB of names). */
static gboolean
named_by_builder(const ClusterSim *self, const ClusterSimPod *sp)
{
	return self->name_of != NULL &&
	       strcmp(self->name_of(self->build_data, sp->index), sp->pod->name) == 0;
}

void
cluster_sim__retire_pod(ClusterSim *self, ClusterSimPod *sp)
{
	ClusterSimRetired *r = record_slot(self, sp->index);

	*r = (ClusterSimRetired){
		.name = named_by_builder(self, sp) ? NULL : g_steal_pointer(&sp->pod->name),
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
		.retired = TRUE,
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
	return r->retired ? r : NULL;
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

		if (!r->retired)
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
	if (self->parked != NULL)
		g_array_unref(self->parked);
}

const char *
cluster_sim_get_pod_name(const ClusterSim *self, guint index)
{
	const ClusterSimPod *sp;
	const ClusterSimRetired *r;

	g_assert(index < self->pods->len);
	sp = self->pods->pdata[index];
	if (sp != NULL)
		return sp->pod->name;
	r = cluster_sim__retired(self, index);
	/* parked, or retired with the name the namer gives */
	return r != NULL && r->name != NULL ? r->name : self->name_of(self->build_data, index);
}

const ClusterResources *
cluster_sim_get_pod_requests(const ClusterSim *self, guint index)
{
	const ClusterSimPod *sp;

	g_assert(index < self->pods->len);
	sp = self->pods->pdata[index];
	return sp != NULL ? &sp->pod->requests : NULL;
}
