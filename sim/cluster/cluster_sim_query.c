/*
 * cluster_sim_query.c: read-only accessors over a ClusterSim's nodes,
 * devices and pod placements, for samplers and reports (sim/measure's
 * measure_sample.c). Nothing here changes the simulation or allocates, so
 * a sampler may call them at every sampling tick. Declared in cluster_query.h
 * ("Read-only queries").
 */
#include "cluster-private.h"
#include "cluster_query.h"
#include "cluster_run.h"
#include "cluster_types.h"

guint
cluster_sim_get_n_nodes(const ClusterSim *self)
{
	return self->nodes->len;
}

static const ClusterSimNode *
sim_node(const ClusterSim *self, guint node)
{
	g_assert(node < self->nodes->len);
	return self->nodes->pdata[node];
}

ClusterNode *
cluster_sim_get_node(const ClusterSim *self, guint node)
{
	return sim_node(self, node)->node;
}

guint
cluster_sim_get_node_n_devices(const ClusterSim *self, guint node)
{
	return sim_node(self, node)->n_devices;
}

guint64
cluster_sim_get_node_generation(const ClusterSim *self, guint node)
{
	return sim_node(self, node)->generation;
}

const ClusterDevice *
cluster_sim_get_device(const ClusterSim *self, guint node, guint device)
{
	const ClusterSimNode *sn = sim_node(self, node);

	g_assert(device < sn->n_devices);
	return &sn->devices[device].dev;
}

const guint *
cluster_sim_get_device_tenants(const ClusterSim *self, guint node, guint device, guint *n_out)
{
	const ClusterSimNode *sn = sim_node(self, node);

	g_assert(device < sn->n_devices);
	*n_out = sn->devices[device].tenants->len;
	return (const guint *)(gpointer)sn->devices[device].tenants->data;
}

/* What the queries answer for a parked pod: one that has not arrived. */
static const ClusterSimRetired not_arrived = {
	.arrival = -1,
	.bound_at = -1,
	.finished_at = -1,
	.placed_at = -1,
	.left_at = -1,
	.node = G_MAXUINT,
	.phase = CLUSTER_POD_PENDING,
};

/* The live pod @pod, or NULL with *@r its record (retired or parked). */
static const ClusterSimPod *
pod_or_record(const ClusterSim *self, guint pod, const ClusterSimRetired **r)
{
	const ClusterSimPod *sp;

	g_assert(pod < self->pods->len);
	sp = self->pods->pdata[pod];
	*r = sp == NULL ? cluster_sim__retired(self, pod) : NULL;
	if (sp == NULL && *r == NULL) {
		g_assert(cluster_arrivals__parked(self, pod) != NULL);
		*r = &not_arrived;
	}
	return sp;
}

const guint *
cluster_sim_get_pod_devices(const ClusterSim *self, guint pod, guint *n_out)
{
	const ClusterSimRetired *r;
	const ClusterSimPod *sp = pod_or_record(self, pod, &r);

	if (sp == NULL) {
		*n_out = r->n_devices;
		return r->n_devices > 0 ? cluster_sim__retired_devices(r) : NULL;
	}
	/* sp->devices is rewritten by every placement attempt; it is the last
	 * bind's only while the pod still has a node (bound, or ended there). */
	if (sp->node == NULL || sp->bound_at < 0) {
		*n_out = 0;
		return NULL;
	}
	*n_out = sp->n_devices;
	return sp->devices;
}

guint
cluster_sim_get_pod_node_index(const ClusterSim *self, guint pod)
{
	const ClusterSimRetired *r;
	const ClusterSimPod *sp = pod_or_record(self, pod, &r);

	if (sp == NULL)
		return r->node;
	return sp->node != NULL ? sp->node->index : G_MAXUINT;
}

const ClusterSimPlacement *
cluster_sim_get_pod_history(const ClusterSim *self, guint pod, guint *n_out)
{
	const ClusterSimRetired *r;
	const ClusterSimPod *sp = pod_or_record(self, pod, &r);

	*n_out = sp != NULL ? sp->n_history : r->n_history;
	return sp != NULL ? sp->history : r->history;
}

SimTime
cluster_sim_get_pod_placed_at(const ClusterSim *self, guint pod)
{
	const ClusterSimRetired *r;
	const ClusterSimPod *sp = pod_or_record(self, pod, &r);

	return sp != NULL ? sp->placed_at : r->placed_at;
}

SimTime
cluster_sim_get_pod_left_at(const ClusterSim *self, guint pod)
{
	const ClusterSimRetired *r;
	const ClusterSimPod *sp = pod_or_record(self, pod, &r);

	return sp != NULL ? sp->left_at : r->left_at;
}

/*
 * Other pods may hold its devices at the same time: a user-created claim
 * (resourceClaimName) can be reserved for several pods, which then share its
 * devices (upstream: ResourceClaim.status.reservedFor); its claim config asks
 * for time-slicing or MPS; a device of its last placement is not
 * exclusive (device-plugin replicas, MPS, gpushare); or it shared an
 * exclusive device with another pod (a device renamed in a pool republish).
 */
gboolean
cluster_sim_get_pod_shares_devices(const ClusterSim *self, guint pod)
{
	const ClusterSimRetired *r;
	const ClusterSimPod *sp = pod_or_record(self, pod, &r);
	guint node = cluster_sim_get_pod_node_index(self, pod);
	const ClusterSimNode *sn = node != G_MAXUINT ? self->nodes->pdata[node] : NULL;
	guint n_devices = 0;
	const guint *devices;

	if (r == &not_arrived)
		return cluster_arrivals__parked(self, pod)->shares;
	if (sp != NULL
	            ? sp->n_user_claims > 0 || sp->co_tenant ||
	                      (sp->work.set_sharing && sp->work.sharing != CLUSTER_SHARE_EXCLUSIVE)
	            : r->shares)
		return TRUE;
	/* a live pod's devices whatever its bind; a record keeps the last bind's */
	devices = sp != NULL ? sp->devices : cluster_sim__retired_devices(r);
	n_devices = sp != NULL ? sp->n_devices : r->n_devices;
	for (guint i = 0; sn != NULL && i < n_devices; i++)
		if (devices[i] < sn->n_devices &&
		    sn->devices[devices[i]].dev.mode != CLUSTER_SHARE_EXCLUSIVE)
			return TRUE;
	return FALSE;
}

SimTime
cluster_sim_get_pod_latency(const ClusterSim *self, guint index)
{
	const ClusterSimRetired *r;
	const ClusterSimPod *sp = pod_or_record(self, index, &r);

	if (sp == NULL)
		return r->bound_at < 0 ? -1 : r->bound_at - r->arrival;
	return sp->bound_at < 0 ? -1 : sp->bound_at - sp->work.arrival;
}

SimTime
cluster_sim_get_pod_jct(const ClusterSim *self, guint index)
{
	const ClusterSimRetired *r;
	const ClusterSimPod *sp = pod_or_record(self, index, &r);

	if (sp == NULL)
		return r->finished_at < 0 ? -1 : r->finished_at - r->arrival;
	return sp->finished_at < 0 ? -1 : sp->finished_at - sp->work.arrival;
}

guint
cluster_sim_get_pod_restarts(const ClusterSim *self, guint index)
{
	const ClusterSimRetired *r;
	const ClusterSimPod *sp = pod_or_record(self, index, &r);

	return sp != NULL ? sp->restarts : r->restarts;
}
