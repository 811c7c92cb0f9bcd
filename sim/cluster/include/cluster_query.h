/*
 * cluster_query.h: the read-only query face of a ClusterSim: what samplers and
 * reports measure (pods and their phases, nodes, devices and their tenants,
 * gauges, samples, capacity, statistics). None of these functions changes
 * the simulation. (The sample getters take a non-const ClusterSim because
 * SimSamples sorts itself lazily when read.)
 *
 * ClusterSim is opaque; the statistics and the phase are plain values.
 */
#pragma once

#include <glib.h>

#include "cluster_plugin.h"
#include "cluster_run.h"
#include "cluster_types.h"
#include "sim.h"

G_BEGIN_DECLS

typedef struct ClusterSim ClusterSim;

typedef struct {
	guint64 submitted;
	guint64 bound;
	guint64 completed;
	guint64 deleted;
	guint64 oom_kills;
	guint64 placement_failures;
	guint64 failed_attempts[CLUSTER_N_PLUGINS]; /* per rejecting plugin */
	guint64 error_attempts;
	guint64 evictions;
	guint pending; /* now */
	guint running; /* now */
} ClusterSimStats;

typedef enum {
	CLUSTER_POD_PENDING,
	CLUSTER_POD_RUNNING,
	CLUSTER_POD_RESTARTING, /* OOM-killed, in crash-loop backoff */
	CLUSTER_POD_SUCCEEDED,
	CLUSTER_POD_DELETED,
	CLUSTER_POD_LOST, /* its node failed; evicted when its unreachable toleration runs out */
	/* bound, its claims allocated, the kubelet could not prepare them yet
	 * (ContainerCreating; API phase Pending): holds its node and devices */
	CLUSTER_POD_CREATING,
} ClusterPodPhase;

/* The pod is bound to a node and holds its resources (a drain or eviction handles it). */
gboolean cluster_pod_phase_is_bound(ClusterPodPhase phase);

/* Where the submitted (arrived) pods are now, by phase (cluster_invariants.c). */
typedef struct {
	guint64 submitted; /* the counter, not a count of pods */
	guint64 arrived;   /* pods counted as submitted */
	guint64 pending, creating, running, restarting, lost, completed, deleted;
} ClusterSimLedger;

void cluster_sim_get_ledger(const ClusterSim *self, ClusterSimLedger *out);

/* Why a placement ended before the pod's last one began. */
typedef enum {
	CLUSTER_PLACEMENT_EVICTED,      /* drain, taint eviction, reconfiguration */
	CLUSTER_PLACEMENT_NODE_FAILURE, /* its node failed; evicted when the toleration ran out */
} ClusterPlacementEnd;

/* One earlier stay of a pod: node and device indexes, bind to end. */
typedef struct {
	guint node;
	guint *devices;
	guint n_devices;
	SimTime start, end;
	ClusterPlacementEnd why;
} ClusterSimPlacement;

/*
 * The pod's earlier placements, oldest first (NULL, 0 for a pod placed at
 * most once: only pods placed again keep more than their last placement),
 * and when its last placement began (-1: never bound).
 */
const ClusterSimPlacement *
cluster_sim_get_pod_history(const ClusterSim *self, guint pod, guint *n_out);
SimTime cluster_sim_get_pod_placed_at(const ClusterSim *self, guint pod);
/* Other pods may hold its devices at the same time (cluster_sim_query.c says when). */
gboolean cluster_sim_get_pod_shares_devices(const ClusterSim *self, guint pod);
/* When it last left a node (completed, deleted, evicted); -1: never. */
SimTime cluster_sim_get_pod_left_at(const ClusterSim *self, guint pod);
const char *cluster_placement_end_to_string(ClusterPlacementEnd why);

const ClusterSimStats *cluster_sim_get_stats(const ClusterSim *self);
guint cluster_sim_get_n_pods(const ClusterSim *self);
/* (nullable): NULL once the pod retired (succeeded or deleted: cluster_sim_retired.c) and
 * while it is parked (cluster_sim_park_pod). */
ClusterPod *cluster_sim_get_pod(const ClusterSim *self, guint index);
const char *cluster_sim_get_pod_name(const ClusterSim *self, guint index);
/* (nullable): its requests; NULL once retired and while parked. */
const ClusterResources *cluster_sim_get_pod_requests(const ClusterSim *self, guint index);
ClusterPodPhase cluster_sim_get_pod_phase(const ClusterSim *self, guint index);
/* (nullable): the node the pod is bound to. */
ClusterNode *cluster_sim_get_pod_node(const ClusterSim *self, guint index);
/* Arrival to bind (first bind), -1 if never bound. */
SimTime cluster_sim_get_pod_latency(const ClusterSim *self, guint index);
/* Arrival to completion, -1 if not completed. */
SimTime cluster_sim_get_pod_jct(const ClusterSim *self, guint index);
guint cluster_sim_get_pod_restarts(const ClusterSim *self, guint index);
/* Names of the claims the pod uses, generated ones included (transfer none). */
GPtrArray *cluster_sim_get_pod_claims(const ClusterSim *self, guint index);

SimSamples *cluster_sim_get_latencies(ClusterSim *self); /* seconds, per bound pod */
SimSamples *cluster_sim_get_jcts(ClusterSim *self);      /* seconds, per completed pod */
SimSamples *cluster_sim_get_slowdowns(ClusterSim *self); /* jct / work */
/* Devices with at least one tenant, time-weighted. */
const SimGauge *cluster_sim_get_busy_devices(const ClusterSim *self);
const SimGauge *cluster_sim_get_pending_gauge(const ClusterSim *self);
/* Compute in use (Σ over running tenants of speed × demand, full-GPU units). */
const SimGauge *cluster_sim_get_compute_gauge(const ClusterSim *self);
/* GPU memory of the running tenants, bytes. */
const SimGauge *cluster_sim_get_memory_gauge(const ClusterSim *self);
/* Totals over the devices now: count, compute (full-GPU units), memory. */
void cluster_sim_get_capacity(const ClusterSim *self,
                              guint *n_devices,
                              double *compute,
                              gint64 *mem_bytes);
/* The count alone, kept as nodes are added and reconfigured (no pass over the nodes). */
guint cluster_sim_get_n_devices(const ClusterSim *self);

/* The simulated time now. */
SimTime cluster_sim_get_now(const ClusterSim *self);

/* The time of that timer, SIM_TIME_NEVER when none is set. */
SimTime cluster_sim_get_device_eviction(const ClusterSim *self, guint index);

/**
 * cluster_sim_count_pending_by_plugin:
 * @counts: (out caller-allocates): CLUSTER_N_PLUGINS counters
 *
 * For the pods pending now, how many were last rejected by each plugin (a
 * pod rejected by several counts for each). Returns the pending pods that
 * have not failed an attempt yet or failed on an error.
 */
guint cluster_sim_count_pending_by_plugin(const ClusterSim *self, guint64 *counts);

/* ------------------------------------------------- read-only queries
 * (cluster_sim_query.c) For samplers and reports: they change nothing and
 * allocate nothing, so they may run at every sampling tick. Node indexes are
 * in cluster_sim_add_node() order; device indexes as given there (or by the
 * last reconfiguration). Returned pointers are valid until the next event. */
guint cluster_sim_get_n_nodes(const ClusterSim *self);
ClusterNode *cluster_sim_get_node(const ClusterSim *self, guint node);
guint cluster_sim_get_node_n_devices(const ClusterSim *self, guint node);
/* Changes whenever a device of the node gains or loses a tenant (or takes
 * its first tenant's sharing mode), when a reconfiguration starts or
 * installs new devices and when the simulation or cluster_sim_node_changed()
 * changes its cordon; taints do not change it. */
guint64 cluster_sim_get_node_generation(const ClusterSim *self, guint node);
/* The device as it is now (the first tenant's claim config may have set its mode). */
const ClusterDevice *cluster_sim_get_device(const ClusterSim *self, guint node, guint device);
/* The pod indexes on the device, in the order they joined. */
const guint *
cluster_sim_get_device_tenants(const ClusterSim *self, guint node, guint device, guint *n_out);
/* The device indexes (on its node) of the pod's last bind; NULL, 0 when it has no node. */
const guint *cluster_sim_get_pod_devices(const ClusterSim *self, guint pod, guint *n_out);
/* The index of the pod's node, G_MAXUINT when it has none. */
guint cluster_sim_get_pod_node_index(const ClusterSim *self, guint pod);

G_END_DECLS
