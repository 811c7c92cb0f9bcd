/*
 * cluster_sim.h: the simulation object: it wires the scheduler, the queue, the
 * claim controller and the run model onto sim/engine events, takes nodes and
 * pods, and applies node events (drain, failure, MIG reconfiguration,
 * taints) while the loop runs. Its read-only side is cluster_query.h.
 *
 * ClusterSim is opaque. The configuration, a pod's work and the node actions
 * are plain values the world fills.
 */
#pragma once

#include <glib.h>

#include "cluster_claims.h"
#include "cluster_plugin.h"
#include "cluster_query.h"
#include "cluster_queue.h"
#include "cluster_run.h"
#include "cluster_sched.h"
#include "cluster_types.h"
#include "sim.h"

G_BEGIN_DECLS

/* ================================================== the engine wiring */

/**
 * ClusterSimWork:
 *
 * What a pod does once bound. @work: µs of work at full speed
 * (SIM_TIME_NEVER: runs until deleted); @lifetime: deleted this long after
 * arrival (SIM_TIME_NEVER: never). @n_devices: GPUs or MIG devices it asks
 * for, placed by the placement hook (default: whole free devices on
 * exclusive devices, the least-loaded ones on shared devices); a hook may
 * place a different number (the DRA world runs a pod on every device its
 * claims were allocated). @claims /
 * @templates: NULL-terminated resourceClaimName references and pod claim
 * names backed by templates (the controller generates those at arrival).
 * @set_sharing: the sharing strategy of the pod's claim config (GpuConfig
 * TimeSlicing with its interval, or MPS) sets the mode of each device the pod
 * is the first tenant of; otherwise the device keeps its own mode.
 */
typedef struct {
	SimTime arrival;
	SimTime work;
	SimTime lifetime;
	guint n_devices;
	double demand;
	gint64 gpu_mem;
	double mps_threads;
	gint64 mem_limit;
	const char *const *claims;
	const char *const *templates;
	/* A claim's GpuConfig sharing: applied to a device the pod joins empty. */
	gboolean set_sharing;
	ClusterShareMode sharing;
	ClusterTimeSliceInterval interval;
	/* Running when the run starts: no arrival event; cluster_sim_start_running()
	 * puts it on its node. */
	gboolean running;
	/* NULL-terminated (pod claim, claim name) pairs: claims the controller made
	 * for @templates before the run (an imported pod's resourceClaimStatuses),
	 * the pod's at its first arrival instead of new ones (cluster_claims_adopt). */
	const char *const *adopt;
} ClusterSimWork;

typedef struct ClusterSim ClusterSim;

/*
 * Chooses the device indexes of @node that @pod runs on and appends them to
 * @devices (guint, emptied by the caller); returns FALSE if it cannot. @n is
 * what the pod's work asks for (ClusterSimWork.n_devices): a device plugin's
 * kubelet hands out that many units (a device may be named once per replica),
 * while the DRA world appends every compute device its claims were allocated,
 * however many that is (cluster_dra.c).
 */
typedef gboolean (*ClusterSimPlaceFunc)(gpointer data,
                                        ClusterSim *sim,
                                        const ClusterPod *pod,
                                        const ClusterNode *node,
                                        guint n,
                                        GArray *devices);

typedef struct {
	ClusterSchedConfig sched; /* sched.rand: NULL = the "scheduler" stream */
	ClusterQueueConfig queue;
	ClusterRunParams run;
	SimTime cycle_time;        /* simulated duration of one scheduling cycle */
	guint64 seed;              /* for the "scheduler" and "claims" streams */
	ClusterSimPlaceFunc place; /* NULL = default placement */
	gpointer place_data;
	/* claims.rand is replaced by the "claims" stream; the rest is passed on */
	ClusterClaimsConfig claims;
	/* add the default profile's score plugins; FALSE: the caller adds its own
	 * (sim/world adds a mode's policy, cluster_sched_add_score_policy_config) */
	gboolean default_score_plugins;
	/* A failed node gets node.kubernetes.io/unreachable:NoExecute after
	 * node-monitor-grace-period (40 s); pods that do not tolerate it
	 * themselves get DefaultTolerationSeconds' toleration (300 s): their
	 * eviction comes 340 s after the failure. */
	SimTime node_monitor_grace_period;
	gint64 default_toleration_seconds;
} ClusterSimConfig;

/* Defaults of every part; default_score_plugins on, cycle_time 0, seed 1. */
void cluster_sim_config_init(ClusterSimConfig *config);

/* Registers its event kinds on @loop, which must outlive the simulation. */
ClusterSim *cluster_sim_new(SimLoop *loop, const ClusterSimConfig *config);
void cluster_sim_free(ClusterSim *self);
/* Takes @node (its user_data becomes the simulation's); @devices (copied) are
 * its GPUs / MIG devices. At the start or during the run (NODE_ADDED). */
void cluster_sim_add_node(ClusterSim *self,
                          ClusterNode *node,
                          const ClusterDevice *devices,
                          guint n_devices);
/* Takes @pod (its uid becomes the returned index); schedules its arrival. */
guint cluster_sim_add_pod(ClusterSim *self, ClusterPod *pod, const ClusterSimWork *work);

/*
 * Pods made at their arrival (issue 19 item 2: a pod that has not arrived
 * costs 16 B here). After set-up, a pod that waits for its arrival may be
 * parked: its ClusterPod and records are freed, and at its arrival @build is
 * called with its index and must hand the same pod and work to
 * cluster_sim_revive_pod() (the DRA marks of cluster_dra_add_pod() are kept
 * here). Until then the queries answer for it as for a pod that never
 * arrived, @name_of giving its name.
 */
typedef void (*ClusterSimPodBuilder)(gpointer data, guint index);
typedef const char *(*ClusterSimPodNamer)(gpointer data, guint index);
void cluster_sim_set_pod_builder(ClusterSim *self,
                                 ClusterSimPodBuilder build,
                                 ClusterSimPodNamer name_of,
                                 gpointer data);
/* FALSE (nothing done): no builder, or @index arrived, runs or is out of arrival order. */
gboolean cluster_sim_park_pod(ClusterSim *self, guint index);
void
cluster_sim_revive_pod(ClusterSim *self, guint index, ClusterPod *pod, const ClusterSimWork *work);
/*
 * cluster_sim_start_running:
 * Before the loop runs, pod @index (added with work.running) is on @node as
 * the starting state: it arrives and binds at once with no scheduling cycle
 * (cluster_sched_admit()), its claims reserved, and starts; its scheduling
 * latency is not sampled (it was running). Returns: FALSE, with @reason (static
 * or the scheduler's), when the kubelet would not admit it there; then it is an
 * ordinary pending arrival at the current time instead.
 */
gboolean
cluster_sim_start_running(ClusterSim *self, guint index, ClusterNode *node, const char **reason);
ClusterSched *cluster_sim_get_sched(ClusterSim *self);
ClusterQueue *cluster_sim_get_queue(ClusterSim *self);
ClusterClaims *cluster_sim_get_claims(ClusterSim *self);

/* A claim made for the pod during scheduling (KEP-5004's special claim). */
void cluster_sim_add_pod_claim(ClusterSim *self, guint index, const char *name);
/* Tell the queue about an outside event (slice published, class added...). */
void cluster_sim_notify(ClusterSim *self, ClusterEvent event);

/* ---------------------------------------------------- node events
 * Each takes effect at @when (>= now). Evicted pods are recreated by their
 * controller: pending again, with new generated claims, work from zero. */
typedef enum {
	CLUSTER_NODE_DRAIN,   /* cordon, evict every pod */
	CLUSTER_NODE_FAIL,    /* NotReady: pods stop; unreachable taints; eviction later */
	CLUSTER_NODE_RESTORE, /* uncordon, drop the unreachable taints, lost pods resume */
} ClusterNodeAction;

void
cluster_sim_node_event(ClusterSim *self, SimTime when, ClusterNode *node, ClusterNodeAction action);
/**
 * cluster_sim_reconfigure_node:
 *
 * The mig-manager flow, starting now: cordon, evict the pods that use
 * devices, wait @duration, then install @devices and the GPU slots of
 * @allocatable (slots >= CLUSTER_RES_FIRST_SCALAR), remove the labels
 * @unlabels (nullable, NULL-terminated keys: what GFD no longer publishes),
 * set @labels (NULL-terminated key, value pairs), uncordon and announce
 * NODE_UPDATED.
 */
void cluster_sim_reconfigure_node(ClusterSim *self,
                                  ClusterNode *node,
                                  SimTime duration,
                                  const ClusterDevice *devices,
                                  guint n_devices,
                                  const ClusterResources *allocatable,
                                  const char *const *labels,
                                  const char *const *unlabels);
/* Evicts one running or lost pod now (recreated pending). */
void cluster_sim_evict_pod(ClusterSim *self, guint index);
/**
 * cluster_sim_set_device_eviction:
 *
 * The device taint eviction controller's timer for a bound pod
 * (cluster_dra_taint.c): evicts it at @when, or at once when @when <= now;
 * replaces the pod's earlier timer. A pod that just bound is evicted no
 * sooner than CLUSTER_EVICTION_REBIND_DELAY after its bind.
 */
void cluster_sim_set_device_eviction(ClusterSim *self, guint index, SimTime when);

/* Cancels that timer (no eviction is due any more). */
void cluster_sim_clear_device_eviction(ClusterSim *self, guint index);

/*
 * A pod that tolerates a NoExecute taint only for a time already over when it
 * binds (tolerationSeconds <= 0, or a device taint older than its
 * tolerationSeconds) is scheduled there again and again: the scheduler ignores
 * tolerationSeconds, and so does the allocator. Production loops as fast as
 * its controllers go; drasim puts this delay between the bind and such an
 * eviction so that simulated time moves on.
 */
#define CLUSTER_EVICTION_REBIND_DELAY (1 * SIM_TIME_S)
/**
 * cluster_sim_taint_node:
 *
 * Adds a taint now. For a NoExecute taint the taint eviction controller
 * (cluster_taint_evict.c) looks at every pod bound to the node: a pod that
 * does not tolerate all its NoExecute taints is evicted at once; one whose
 * matching tolerations carry tolerationSeconds is evicted after the smallest
 * of them; tolerations without it tolerate forever.
 */
void cluster_sim_taint_node(ClusterSim *self,
                            ClusterNode *node,
                            const char *key,
                            const char *value,
                            ClusterTaintEffect effect);
/* Removes a taint now and announces NODE_UPDATED; a NoExecute taint going
 * away cancels the evictions it scheduled when no NoExecute taint is left. */
void cluster_sim_untaint_node(ClusterSim *self,
                              ClusterNode *node,
                              const char *key,
                              ClusterTaintEffect effect);

/*
 * cluster_sim_dra_driver_unavailable:
 *
 * The node's DRA driver is unregistered until @until (SIM_TIME_NEVER: to the
 * end; <= now: it is back): a pod with claims that binds there stays
 * ContainerCreating and starts at the kubelet's first retry (every 10 s from
 * its bind) at or after @until; running pods are not touched.
 */
void cluster_sim_dra_driver_unavailable(ClusterSim *self, ClusterNode *node, SimTime until);
/*
 * cluster_sim_kubelet_restart:
 *
 * The node's kubelet is down until @until (SIM_TIME_NEVER: to the end):
 * running containers keep running and their prepared claims stay prepared
 * (the DRA manager's checkpoint); a pod that binds there meanwhile is
 * ContainerCreating until @until, then its claims are prepared (once) and it
 * starts; a container restart due meanwhile waits for @until too.
 */
void cluster_sim_kubelet_restart(ClusterSim *self, ClusterNode *node, SimTime until);
/*
 * cluster_sim_device_renamed:
 *
 * The node's compute device @device was republished under a new name
 * (cluster_dra_rename_node_device()): a pod allocated the new name joins the
 * pods on the old one, and the report marks them all shared. On any other
 * exclusive device a second tenant stays unmarked, so `drasim verify` sees it.
 */
void cluster_sim_device_renamed(ClusterSim *self, ClusterNode *node, guint device);

/*
 * The change log: which nodes a reader of their state (the hourly sampler,
 * sim/measure) must read again. Once started, the simulation logs a node when
 * a device of it gains or loses a tenant, its devices are reconfigured or its
 * cordon changes (each node once until the log is taken), so the reader
 * visits only those nodes instead of all of them. Whoever changes a node's
 * cordon or hardware outside these calls says so with
 * cluster_sim_node_changed().
 */
void cluster_sim_log_node_changes(ClusterSim *self);
void cluster_sim_node_changed(ClusterSim *self, ClusterNode *node);
/* Appends the logged node indexes to @out (in the order first logged) and
 * empties the log. */
void cluster_sim_take_node_changes(ClusterSim *self, GArray *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterSim, cluster_sim_free)

G_END_DECLS
