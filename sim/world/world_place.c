/*
 * world_place.c: device placement in the extended world. The device
 * plugin hands a pod devices of the resource it asked for: a pod asking
 * nvidia.com/mig-3g.40gb gets a 3g.40gb instance, never a 1g.10gb one. An
 * exclusive device takes one pod. A time-sliced or MPS device is advertised
 * as `replicas` units and takes up to that many; the kubelet picks a pod's
 * replicas with the plugin's distributed policy, which may give one pod
 * several replicas of one GPU (then devices[] names it several times).
 * Occupancy is read back from the simulation (pods still running or
 * restarting on the node), so no release hook is needed.
 */
#include <string.h>

#include "world-private.h"

typedef struct {
	guint pod;
	guint device;
} PlaceRecord;

typedef struct {
	GPtrArray *resources; /* char* per device */
	gboolean shared;
	GArray *records; /* PlaceRecord, one per replica held */
	GArray *tenants; /* guint per device: replicas held, scratch */
} PlaceNode;

struct ScenarioPlace {
	GHashTable *nodes;       /* node name -> PlaceNode (lookups only) */
	GPtrArray *pod_resource; /* char* per pod index */
	guint replicas;          /* units per shared device */
	gboolean fail_greater_than_one;
};

static void
place_node_free(gpointer data)
{
	PlaceNode *n = data;

	g_ptr_array_unref(n->resources);
	g_array_unref(n->records);
	g_array_unref(n->tenants);
	g_free(n);
}

ScenarioPlace *
scenario_place__new(void)
{
	ScenarioPlace *self = g_new0(ScenarioPlace, 1);

	self->nodes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, place_node_free);
	self->pod_resource = g_ptr_array_new_with_free_func(g_free);
	self->replicas = G_MAXUINT;
	return self;
}

/*
 * The plugin's sharing settings. MPS refuses a request above one replica
 * whatever the config says: the plugin sets sharing.mps.failRequestsGreaterThanOne
 * itself (NVIDIA/k8s-device-plugin api/config/v1/config.go, v0.15.0 and later).
 */
void
scenario_place__configure(ScenarioPlace *self, const XrConfig *xr)
{
	self->replicas = xr->sharing == XR_SHARING_NONE ? 1 : MAX(xr->replicas, 1);
	self->fail_greater_than_one =
	        xr->sharing == XR_SHARING_MPS ||
	        (xr->sharing == XR_SHARING_TIME_SLICING && xr->fail_requests_greater_than_one);
}

void
scenario_place__free(ScenarioPlace *self)
{
	if (self == NULL)
		return;
	g_hash_table_unref(self->nodes);
	g_ptr_array_unref(self->pod_resource);
	g_free(self);
}

void
scenario_place__add_node(ScenarioPlace *self,
                         const char *node,
                         GPtrArray *resources,
                         gboolean shared)
{
	PlaceNode *n = g_new0(PlaceNode, 1);

	n->resources = g_ptr_array_ref(resources);
	n->shared = shared;
	n->records = g_array_new(FALSE, FALSE, sizeof(PlaceRecord));
	n->tenants = g_array_new(FALSE, TRUE, sizeof(guint));
	g_hash_table_replace(self->nodes, g_strdup(node), n);
}

void
scenario_place__set_pod(ScenarioPlace *self, guint index, const char *resource)
{
	if (index >= self->pod_resource->len)
		g_ptr_array_set_size(self->pod_resource, index + 1);
	g_free(self->pod_resource->pdata[index]);
	self->pod_resource->pdata[index] = g_strdup(resource);
}

/* Drops records of pods that ended or left the node; counts the rest. */
static void
count_tenants(PlaceNode *n, ClusterSim *sim, const ClusterNode *node)
{
	guint kept = 0;

	g_array_set_size(n->tenants, n->resources->len);
	memset(n->tenants->data, 0, n->resources->len * sizeof(guint));
	for (guint i = 0; i < n->records->len; i++) {
		PlaceRecord r = g_array_index(n->records, PlaceRecord, i);
		ClusterPodPhase phase = cluster_sim_get_pod_phase(sim, r.pod);

		if (!cluster_pod_phase_is_bound(phase) ||
		    cluster_sim_get_pod_node(sim, r.pod) != node)
			continue;
		g_array_index(n->records, PlaceRecord, kept++) = r;
		g_array_index(n->tenants, guint, r.device)++;
	}
	g_array_set_size(n->records, kept);
}

/*
 * The kubelet asks the plugin for its preferred replicas (GetPreferredAllocation);
 * for replicated devices the plugin's distributed policy (NVIDIA/k8s-device-plugin
 * internal/rm/allocate.go, distributedAlloc; the "distributed" comparator of
 * greedyAlloc in later versions) takes them one at a time from the device with
 * the fewest replicas allocated, this request's picks included, then the one
 * this request took fewest from. Upstream leaves the remaining ties to Go map
 * order; drasim takes the lowest index. Several replicas of one GPU may go to
 * one pod, so @n may exceed the node's GPUs.
 */
static gboolean
place_replicas(const ScenarioPlace *self, PlaceNode *pn, const char *want, guint *devices, guint n)
{
	for (guint k = 0; k < n; k++) {
		guint best = G_MAXUINT, best_mine = 0;

		for (guint d = 0; d < pn->resources->len; d++) {
			guint t = g_array_index(pn->tenants, guint, d), mine = 0;

			if (t >= self->replicas || strcmp(pn->resources->pdata[d], want) != 0)
				continue;
			for (guint j = 0; j < k; j++)
				mine += devices[j] == d;
			if (best == G_MAXUINT || t < g_array_index(pn->tenants, guint, best) ||
			    (t == g_array_index(pn->tenants, guint, best) && mine < best_mine)) {
				best = d;
				best_mine = mine;
			}
		}
		if (best == G_MAXUINT)
			return FALSE;
		devices[k] = best;
		g_array_index(pn->tenants, guint, best)++;
	}
	return TRUE;
}

/* Exclusive devices: free ones, in index order. */
static gboolean
place_whole(PlaceNode *pn, const char *want, guint *devices, guint n)
{
	for (guint k = 0; k < n; k++) {
		guint best = G_MAXUINT;

		for (guint d = 0; d < pn->resources->len && best == G_MAXUINT; d++) {
			gboolean taken = g_array_index(pn->tenants, guint, d) > 0 ||
			                 strcmp(pn->resources->pdata[d], want) != 0;

			for (guint j = 0; j < k; j++)
				taken |= devices[j] == d;
			if (!taken)
				best = d;
		}
		if (best == G_MAXUINT)
			return FALSE;
		devices[k] = best;
	}
	return TRUE;
}

gboolean
scenario_place__func(gpointer data,
                     ClusterSim *sim,
                     const ClusterPod *pod,
                     const ClusterNode *node,
                     guint n,
                     GArray *placed)
{
	ScenarioPlace *self = data;
	guint *devices;
	PlaceNode *pn = g_hash_table_lookup(self->nodes, node->name);
	guint index = (guint)pod->uid;
	const char *want =
	        index < self->pod_resource->len ? self->pod_resource->pdata[index] : NULL;

	if (n == 0)
		return TRUE; /* no GPU asked for: nothing to hand out */
	if (pn == NULL || want == NULL)
		return FALSE;
	g_array_set_size(placed, n);
	devices = &g_array_index(placed, guint, 0);
	/* The plugin's Allocate refuses it (internal/plugin/server.go: "maximum
	 * request size for shared resources is 1"); the kubelet fails the pod with
	 * UnexpectedAdmissionError. drasim retries it as a placement failure. */
	if (pn->shared && n > 1 && self->fail_greater_than_one)
		return FALSE;
	count_tenants(pn, sim, node);
	if (!(pn->shared ? place_replicas(self, pn, want, devices, n)
	                 : place_whole(pn, want, devices, n)))
		return FALSE;
	for (guint k = 0; k < n; k++) {
		PlaceRecord r = { index, devices[k] };

		g_array_append_val(pn->records, r);
	}
	return TRUE;
}
