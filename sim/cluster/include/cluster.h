/*
 * cluster.h: the public face of sim/cluster, drasim's control plane.
 *
 * sim/cluster models kube-scheduler 1.34 (scheduling queue, filter and score
 * plugins, percentageOfNodesToScore, reserve/bind), the resource-claim
 * controller and the kubelet's run model (GPU sharing, OOM kills). Each part
 * is a small module with plain C inputs, so it can be tested on its own and
 * wired onto sim/engine events and model/ objects by cluster_sim.c.
 *
 * Time is SimTime (µs). Nothing here iterates a GHashTable into a result.
 */
#pragma once

#include <stdint.h>

#include <glib.h>

#include "sim.h"

G_BEGIN_DECLS

/* ============================================================ resources */

/*
 * Resource vector. Slots 0..2 are fixed; the rest are extended resources
 * (nvidia.com/gpu, nvidia.com/mig-1g.10gb, ...) interned in a ClusterResNames.
 */
#define CLUSTER_RES_CPU          0 /* millicores */
#define CLUSTER_RES_MEMORY       1 /* bytes */
#define CLUSTER_RES_PODS         2 /* pod count */
#define CLUSTER_RES_FIRST_SCALAR 3
#define CLUSTER_RES_MAX          16

typedef struct {
	gint64 v[CLUSTER_RES_MAX];
} ClusterResources;

typedef struct ClusterResNames ClusterResNames;

/* The three fixed names are pre-registered ("cpu", "memory", "pods"). */
ClusterResNames *cluster_res_names_new(void);
void cluster_res_names_free(ClusterResNames *self);
/* Returns: the slot of @name, registering it if new; -1 when all slots are taken. */
gint cluster_res_names_intern(ClusterResNames *self, const char *name);
/* Returns: the slot of @name or -1. */
gint cluster_res_names_lookup(const ClusterResNames *self, const char *name);
const char *cluster_res_names_get(const ClusterResNames *self, gint slot);
guint cluster_res_names_get_length(const ClusterResNames *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterResNames, cluster_res_names_free)

/* ======================================================== nodes and pods */

typedef enum {
	CLUSTER_EFFECT_ALL = 0, /* tolerations only: empty effect matches all */
	CLUSTER_EFFECT_NO_SCHEDULE,
	CLUSTER_EFFECT_PREFER_NO_SCHEDULE,
	CLUSTER_EFFECT_NO_EXECUTE,
} ClusterTaintEffect;

typedef enum {
	CLUSTER_TOLERATION_EQUAL = 0, /* also the empty operator */
	CLUSTER_TOLERATION_EXISTS,
} ClusterTolerationOp;

typedef enum {
	CLUSTER_SELECTOR_IN,
	CLUSTER_SELECTOR_NOT_IN,
	CLUSTER_SELECTOR_EXISTS,
	CLUSTER_SELECTOR_DOES_NOT_EXIST,
	CLUSTER_SELECTOR_GT,
	CLUSTER_SELECTOR_LT,
} ClusterSelectorOp;

typedef struct {
	char *key;
	char *value;
} ClusterLabel;

typedef struct {
	char *key;
	char *value;
	ClusterTaintEffect effect;
} ClusterTaint;

typedef struct {
	char *key; /* NULL/empty with EXISTS: every key */
	ClusterTolerationOp op;
	char *value;
	ClusterTaintEffect effect; /* CLUSTER_EFFECT_ALL: every effect */
	/* tolerationSeconds (NoExecute): FALSE = tolerate forever; <= 0 = evict at once */
	gboolean has_seconds;
	gint64 seconds;
} ClusterToleration;

/**
 * ClusterNode:
 *
 * The scheduler's view of a node (a NodeInfo). @requested sums the requests
 * of the pods assumed or bound there; @nonzero_requested does the same with
 * the scheduler's defaults for missing cpu/memory requests, which
 * NodeResourcesFit scoring uses. Fields are public for the plugins; change
 * them through the functions below.
 */
typedef struct {
	char *name;
	guint index;            /* position in the scheduler's node list */
	GArray *labels;         /* ClusterLabel, insertion order */
	GArray *taints;         /* ClusterTaint */
	gboolean unschedulable; /* spec.unschedulable (cordon) */
	ClusterResources allocatable;
	ClusterResources requested;
	ClusterResources nonzero_requested;
	gpointer user_data; /* for the wiring (model node, GPUs, ...) */
} ClusterNode;

ClusterNode *cluster_node_new(const char *name);
void cluster_node_free(ClusterNode *self);
/* Replaces the value if @key exists. */
void cluster_node_set_label(ClusterNode *self, const char *key, const char *value);
/* Returns: (transfer none) (nullable): the label's value. */
const char *cluster_node_get_label(const ClusterNode *self, const char *key);
/* Returns: TRUE if the label was there (the others keep their order). */
gboolean cluster_node_remove_label(ClusterNode *self, const char *key);
void cluster_node_add_taint(ClusterNode *self,
                            const char *key,
                            const char *value,
                            ClusterTaintEffect effect);
/* Returns: TRUE if a taint with @key and @effect was removed. */
gboolean cluster_node_remove_taint(ClusterNode *self, const char *key, ClusterTaintEffect effect);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterNode, cluster_node_free)

typedef struct {
	char *key;
	ClusterSelectorOp op;
	char **values;  /* NULL-terminated */
	gboolean field; /* matchFields (only metadata.name) instead of matchExpressions */
	gboolean valid; /* FALSE: the term never matches (bad Gt/Lt value, bad field) */
	gint64 number;  /* Gt/Lt operand */
} ClusterRequirement;

typedef struct {
	GArray *requirements; /* ClusterRequirement, ANDed */
} ClusterSelectorTerm;

/**
 * ClusterPod:
 *
 * The scheduler's view of a pod. @requests are the effective pod requests
 * (max(sum of containers, largest init container) + overhead, computed by the
 * caller); @nonzero_requests default to them with 100m cpu / 200 MiB memory
 * where they are zero (pkg/scheduler/util GetNonzeroRequests), for a pod
 * with one container. @has_dra: the pod references ResourceClaims (or a
 * DRA-backed extended resource), so DynamicResources runs.
 */
typedef struct {
	char *name;
	guint64 uid; /* stable identity, also the last tie-break */
	gint32 priority;
	ClusterResources requests;
	ClusterResources nonzero_requests;
	GArray *node_selector; /* ClusterLabel: spec.nodeSelector, ANDed */
	GArray *terms;         /* ClusterSelectorTerm: required node affinity, ORed; NULL = none */
	GArray *tolerations;   /* ClusterToleration */
	gboolean has_dra;
	/* Slots of extended resources backed by a DeviceClass (KEP-5004): where a
	 * node has no allocatable of them, DynamicResources decides, not Fit. */
	guint32 dra_extended;
	gpointer user_data;
} ClusterPod;

ClusterPod *cluster_pod_new(const char *name, guint64 uid);
void cluster_pod_free(ClusterPod *self);
/* Sets one request; also recomputes the non-zero request of cpu/memory. */
void cluster_pod_set_request(ClusterPod *self, gint slot, gint64 value);
void cluster_pod_add_node_selector(ClusterPod *self, const char *key, const char *value);
/* Returns: the index of a new, empty required-affinity term. */
guint cluster_pod_add_term(ClusterPod *self);
/**
 * cluster_pod_term_add_requirement:
 * @values: (nullable): NULL-terminated; copied
 * @field: TRUE for matchFields (key must be "metadata.name", op In/NotIn)
 */
void cluster_pod_term_add_requirement(ClusterPod *self,
                                      guint term,
                                      const char *key,
                                      ClusterSelectorOp op,
                                      const char *const *values,
                                      gboolean field);
void cluster_pod_add_toleration(ClusterPod *self,
                                const char *key,
                                ClusterTolerationOp op,
                                const char *value,
                                ClusterTaintEffect effect);
/* The same with tolerationSeconds (only the taint eviction controllers read it). */
void cluster_pod_add_toleration_seconds(ClusterPod *self,
                                        const char *key,
                                        ClusterTolerationOp op,
                                        const char *value,
                                        ClusterTaintEffect effect,
                                        gint64 seconds);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterPod, cluster_pod_free)

/* ============================================================== plugins */

/* Plugin ids, in the default profile's filter order (default_plugins.go). */
typedef enum {
	CLUSTER_PLUGIN_NODE_UNSCHEDULABLE,
	CLUSTER_PLUGIN_TAINT_TOLERATION,
	CLUSTER_PLUGIN_NODE_AFFINITY,
	CLUSTER_PLUGIN_NODE_RESOURCES_FIT,
	CLUSTER_PLUGIN_DYNAMIC_RESOURCES,
	CLUSTER_N_PLUGINS
} ClusterPlugin;

#define CLUSTER_PLUGIN_BIT(p) (1u << (p))

const char *cluster_plugin_get_name(ClusterPlugin plugin);

/* ------------------------------------------- per-node reasons (explain)
 * Why a filter rejected a node, as the reason codes behind kube-scheduler's
 * "0/N nodes are available: ..." histogram (cluster_journal.c turns them into
 * upstream's strings). NodeResourcesFit reports every insufficient resource
 * of a node, so a node may count under several codes, as upstream. */
typedef enum {
	CLUSTER_REASON_UNSCHEDULABLE,     /* "node(s) were unschedulable" */
	CLUSTER_REASON_TAINT,             /* "node(s) had untolerated taint(s)" */
	CLUSTER_REASON_AFFINITY,          /* "node(s) didn't match Pod's node affinity/selector" */
	CLUSTER_REASON_CLAIMS,            /* "cannot allocate all claims" */
	CLUSTER_REASON_CLAIM_NOT_ON_NODE, /* "resourceclaim not available on the node" */
	CLUSTER_REASON_DRA_TIMEOUT,       /* "timed out trying to allocate devices" */
	CLUSTER_REASON_INSUFFICIENT,      /* + slot: "Insufficient <name>" ("Too many pods") */
	CLUSTER_N_REASONS = CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_MAX
} ClusterReason;

/* Adds one count per reason @plugin has for rejecting @node (off the fast path). */
void cluster_reason_count(const ClusterPod *pod,
                          const ClusterNode *node,
                          ClusterPlugin plugin,
                          const char *dra_reason,
                          guint *counts);
/* (transfer full) upstream's text of @code; @names for "Insufficient <name>" (nullable). */
char *cluster_reason_to_string(ClusterReason code, const ClusterResNames *names);
/* TRUE for codes upstream marks UnschedulableAndUnresolvable (preemption cannot help). */
gboolean cluster_reason_is_unresolvable(ClusterReason code);

typedef enum {
	CLUSTER_STATUS_SUCCESS,
	CLUSTER_STATUS_UNSCHEDULABLE,
	CLUSTER_STATUS_ERROR, /* fatal for this attempt, e.g. a CEL runtime error */
} ClusterStatus;

/*
 * The filters, usable on their own (tests, the extended-resource mode).
 * @reason: (out) (optional): a static string naming the failure.
 */
gboolean cluster_filter_node_unschedulable(const ClusterPod *pod, const ClusterNode *node);
gboolean cluster_filter_taint_toleration(const ClusterPod *pod,
                                         const ClusterNode *node,
                                         const char **reason);
gboolean cluster_filter_node_affinity(const ClusterPod *pod, const ClusterNode *node);
/* @insufficient: (out) (optional): the first resource slot that does not fit. */
gboolean
cluster_filter_resources_fit(const ClusterPod *pod, const ClusterNode *node, gint *insufficient);
/* TRUE if @toleration tolerates @taint (core/v1 helper ToleratesTaint). */
gboolean cluster_toleration_tolerates(const ClusterToleration *toleration,
                                      const ClusterTaint *taint);

/**
 * ClusterDraOps:
 *
 * How DynamicResources reaches the allocator (implemented by the wiring on
 * top of model/dra). @data is passed back unchanged. Upstream semantics
 * (dynamicresources.go, see reference/dra-allocator.md §6):
 *  - @prefilter: once per attempt; UNSCHEDULABLE for a missing claim/class or a
 *    claim in use by 256 pods, ERROR for fatal problems.
 *  - @filter: per node; allocated claims' node selectors, then Allocate() for
 *    the unallocated ones. UNSCHEDULABLE = "cannot allocate all claims",
 *    ERROR = e.g. a CEL runtime error: the attempt stops at once.
 *    Sets *@allocator_called when Allocate() ran.
 *  - @reserve: commit the filter result of @node (in-flight allocation).
 *    FALSE makes the attempt an error.
 *  - @unreserve: undo @reserve.
 *  - @postfilter: (nullable) the pod was unschedulable: deallocate claims that
 *    are allocated but reserved by nobody.
 */
typedef struct {
	ClusterStatus (*prefilter)(gpointer data, const ClusterPod *pod, const char **reason);
	ClusterStatus (*filter)(gpointer data,
	                        const ClusterPod *pod,
	                        const ClusterNode *node,
	                        gboolean *allocator_called,
	                        const char **reason);
	gboolean (*reserve)(gpointer data, const ClusterPod *pod, const ClusterNode *node);
	void (*unreserve)(gpointer data, const ClusterPod *pod, const ClusterNode *node);
	void (*postfilter)(gpointer data, const ClusterPod *pod);
	/* (nullable) the pod was bound: the device taint eviction controller looks at it */
	void (*bound)(gpointer data, const ClusterPod *pod);
} ClusterDraOps;

/* ------------------------------------------------------------- scoring */

#define CLUSTER_MAX_NODE_SCORE 100 /* framework.MaxNodeScore */

typedef struct ClusterScorePlugin ClusterScorePlugin;

/**
 * ClusterScorePluginClass:
 *
 * The score plugin interface. A research policy embeds ClusterScorePlugin as
 * its first member and provides a class:
 *  - @prescore: (nullable) once per attempt with the feasible nodes; FALSE
 *    skips the plugin for this pod (upstream fwk.Skip).
 *  - @score: 0..CLUSTER_MAX_NODE_SCORE unless @normalize maps it there.
 *  - @normalize: (nullable) in place over the feasible nodes' scores.
 *  - @finalize: (nullable) frees what the plugin owns (not the struct).
 */
typedef struct {
	const char *name;
	gboolean (*prescore)(ClusterScorePlugin *self,
	                     const ClusterPod *pod,
	                     ClusterNode *const *nodes,
	                     guint n_nodes);
	gint64 (*score)(ClusterScorePlugin *self, const ClusterPod *pod, const ClusterNode *node);
	void (*normalize)(ClusterScorePlugin *self,
	                  const ClusterPod *pod,
	                  gint64 *scores,
	                  guint n_scores);
	void (*finalize)(ClusterScorePlugin *self);
} ClusterScorePluginClass;

struct ClusterScorePlugin {
	const ClusterScorePluginClass *klass;
	gint64 weight;
};

void cluster_score_plugin_free(ClusterScorePlugin *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterScorePlugin, cluster_score_plugin_free)

typedef enum {
	CLUSTER_SCORING_LEAST_ALLOCATED,
	CLUSTER_SCORING_MOST_ALLOCATED,
	CLUSTER_SCORING_REQUESTED_TO_CAPACITY_RATIO,
} ClusterScoringType;

typedef struct {
	gint slot;
	gint64 weight;
} ClusterResourceWeight;

typedef struct {
	gint64 utilization; /* 0..100 */
	gint64 score;       /* 0..10 (MaxCustomPriorityScore) */
} ClusterShapePoint;

#define CLUSTER_MAX_SHAPE_POINTS 16

/* NodeResourcesFitArgs.scoringStrategy */
typedef struct {
	ClusterScoringType type;
	ClusterResourceWeight resources[CLUSTER_RES_MAX];
	guint n_resources;
	ClusterShapePoint shape[CLUSTER_MAX_SHAPE_POINTS]; /* increasing utilization */
	guint n_shape;
} ClusterFitScoring;

/* Defaults: LeastAllocated over cpu:1, memory:1; shape (0,10),(100,0). */
void cluster_fit_scoring_init(ClusterFitScoring *args);

/* Returns: (transfer full): NodeResourcesFit's score with @args (NULL = defaults). */
ClusterScorePlugin *cluster_score_fit_new(const ClusterFitScoring *args, gint64 weight);
/* @resources: NULL = cpu:1, memory:1 (NodeResourcesBalancedAllocationArgs). */
ClusterScorePlugin *cluster_score_balanced_new(const ClusterResourceWeight *resources,
                                               guint n_resources,
                                               gint64 weight);
/* TaintToleration's score: fewer intolerable PreferNoSchedule taints is better. */
ClusterScorePlugin *cluster_score_taint_new(gint64 weight);

/* Pure scorer functions, exposed for tests and policies. */
gint64 cluster_score_least_requested(gint64 requested, gint64 capacity);
gint64 cluster_score_most_requested(gint64 requested, gint64 capacity);
/* helper.BuildBrokenLinearFunction over points already scaled to 0..100. */
gint64 cluster_score_broken_linear(const ClusterShapePoint *shape, guint n, gint64 x);
/* pluginhelper.DefaultNormalizeScore */
void
cluster_score_default_normalize(gint64 max_priority, gboolean reverse, gint64 *scores, guint n);

/* ============================================================ scheduler */

/* Draws a uniform integer in [0, n); sim_rng_uniform_int fits. */
typedef guint32 (*ClusterRandFunc)(gpointer rng, guint32 n);

typedef struct {
	/* percentageOfNodesToScore: 0 = adaptive (50 - nodes/125, at least 5). */
	gint32 percentage_of_nodes_to_score;
	ClusterRandFunc rand; /* selectHost tie-breaking; NULL = first best node */
	gpointer rand_data;
	const ClusterDraOps *dra; /* NULL: pods with has_dra are unschedulable */
	gpointer dra_data;
} ClusterSchedConfig;

typedef struct {
	guint64 attempts; /* scheduling cycles */
	guint64 scheduled;
	guint64 unschedulable;
	guint64 errors;
	guint64 node_filter_calls; /* RunFilterPlugins, once per node evaluated */
	guint64 plugin_filter_calls[CLUSTER_N_PLUGINS];
	guint64 score_calls; /* plugin Score() calls */
	guint64 dra_filter_calls;
	guint64 allocator_calls; /* Allocate() calls reported by the DRA ops */
	guint64 nodes_evaluated; /* sum of processed nodes over all cycles */
} ClusterSchedStats;

typedef struct {
	ClusterStatus status;
	ClusterNode *node; /* the chosen node on success */
	guint32 rejectors; /* CLUSTER_PLUGIN_BIT set of plugins that rejected a node */
	guint rejected[CLUSTER_N_PLUGINS]; /* nodes rejected per plugin */
	const char *reason; /* static text, or the DRA ops' text valid until the next cycle */
	guint evaluated;    /* nodes run through the filters */
	guint feasible;
	gint64 best_score;
	guint reasons[CLUSTER_N_REASONS]; /* rejected nodes per ClusterReason (explain) */
} ClusterScheduleResult;

typedef struct ClusterSched ClusterSched;

ClusterSched *cluster_sched_new(const ClusterSchedConfig *config);
void cluster_sched_free(ClusterSched *self);
/* Takes ownership; score plugins run in the order added. */
void cluster_sched_add_score_plugin(ClusterSched *self, ClusterScorePlugin *plugin);
/* Adds NodeResourcesFit(LeastAllocated) w1, BalancedAllocation w1, TaintToleration w3. */
void cluster_sched_add_default_score_plugins(ClusterSched *self);
/*
 * (transfer none): the caller owns nodes. The scheduler sees them in the
 * snapshot's order: grouped by zone (topology.kubernetes.io/region and /zone
 * labels), zones in order of appearance, one node per zone in turn
 * (node_tree.go); without zone labels, the order of addition.
 */
void cluster_sched_add_node(ClusterSched *self, ClusterNode *node);
void cluster_sched_remove_node(ClusterSched *self, ClusterNode *node);
guint cluster_sched_get_n_nodes(const ClusterSched *self);
ClusterNode *cluster_sched_get_node(const ClusterSched *self, guint index);

/* numFeasibleNodesToFind (schedule_one.go) */
guint cluster_sched_num_feasible_nodes_to_find(gint32 percentage, guint n_nodes);
guint cluster_sched_get_next_start_index(const ClusterSched *self);

/**
 * cluster_sched_schedule_one:
 *
 * One scheduling cycle (schedulePod + Reserve): PreFilter, filters from the
 * rotating start index until enough feasible nodes are found, scoring,
 * selectHost, and on success Reserve (the pod's requests are added to the
 * node and the DRA reserve runs). The caller binds or calls
 * cluster_sched_release() later.
 */
void
cluster_sched_schedule_one(ClusterSched *self, const ClusterPod *pod, ClusterScheduleResult *out);
/* Adds @pod's requests to @node (a pod bound outside the scheduler). */
void cluster_sched_assume(ClusterSched *self, const ClusterPod *pod, ClusterNode *node);
/* Removes @pod's requests from @node (pod ended, evicted, or unreserved). */
void cluster_sched_release(ClusterSched *self, const ClusterPod *pod, ClusterNode *node);
const ClusterSchedStats *cluster_sched_get_stats(const ClusterSched *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterSched, cluster_sched_free)

/* ======================================================= scheduling queue */

/* Cluster events that may make unschedulable pods schedulable. */
typedef enum {
	CLUSTER_EVENT_POD_DELETED,       /* an assigned pod ended or was deleted */
	CLUSTER_EVENT_CLAIM_DEALLOCATED, /* a ResourceClaim changed: deallocated, deleted */
	CLUSTER_EVENT_CLAIM_ADDED,       /* a ResourceClaim appeared (template → claim) */
	CLUSTER_EVENT_NODE_ADDED,
	CLUSTER_EVENT_NODE_UPDATED,          /* labels, taints, allocatable, uncordon */
	CLUSTER_EVENT_SLICE_CHANGED,         /* a ResourceSlice was added or updated */
	CLUSTER_EVENT_CLASS_ADDED,           /* a DeviceClass was added or updated */
	CLUSTER_EVENT_UNSCHEDULABLE_TIMEOUT, /* wildcard: the 5-minute flush */
	CLUSTER_N_EVENTS
} ClusterEvent;

const char *cluster_event_get_name(ClusterEvent event);
/* The plugins whose QueueingHint returns Queue for @event (simplified per kind). */
guint32 cluster_event_get_interested(ClusterEvent event);

typedef struct {
	SimTime initial_backoff;            /* podInitialBackoffSeconds: 1 s */
	SimTime max_backoff;                /* podMaxBackoffSeconds: 10 s */
	SimTime max_in_unschedulable;       /* podMaxInUnschedulablePodsDuration: 5 min */
	SimTime flush_unschedulable_period; /* 30 s */
	gboolean pop_from_backoffq;         /* SchedulerPopFromBackoffQ (beta, on in 1.34) */
} ClusterQueueConfig;

void cluster_queue_config_init(ClusterQueueConfig *config);

typedef enum {
	CLUSTER_QUEUED_NONE,
	CLUSTER_QUEUED_ACTIVE,
	CLUSTER_QUEUED_BACKOFF,
	CLUSTER_QUEUED_ERROR_BACKOFF,
	CLUSTER_QUEUED_UNSCHEDULABLE,
	CLUSTER_QUEUED_IN_FLIGHT,
} ClusterQueuedWhere;

/**
 * ClusterQueuedPod:
 *
 * A QueuedPodInfo. Owned by the queue; read-only for callers.
 */
typedef struct {
	const ClusterPod *pod;   /* (transfer none) */
	SimTime timestamp;       /* last time added or re-added to the queue */
	SimTime initial_attempt; /* -1 until first popped */
	guint attempts;
	guint unschedulable_count;
	guint consecutive_errors;
	guint32 rejectors;          /* unschedulable plugins of the last attempt */
	guint32 in_flight_events;   /* events seen while in flight (bit per ClusterEvent) */
	SimTime backoff_expiration; /* -1: not computed */
	ClusterQueuedWhere where;
	guint64 seq;
	gint heap_index;
	GList *link; /* in the unschedulable pool */
} ClusterQueuedPod;

typedef struct ClusterQueue ClusterQueue;

ClusterQueue *cluster_queue_new(const ClusterQueueConfig *config);
void cluster_queue_free(ClusterQueue *self);
/* A new pending pod (Add): goes to the active queue. */
ClusterQueuedPod *cluster_queue_add(ClusterQueue *self, const ClusterPod *pod, SimTime now);
/**
 * cluster_queue_pop:
 *
 * The head of the active queue (priority, then timestamp); when it is empty
 * and pop_from_backoffq is on, the head of the backoff queue. The pod is in
 * flight until cluster_queue_done_*.
 *
 * Returns: (transfer none) (nullable): NULL when nothing can be popped.
 */
ClusterQueuedPod *cluster_queue_pop(ClusterQueue *self, SimTime now);
/* The pod was scheduled: the queue forgets it (the entry is freed). */
void cluster_queue_done_scheduled(ClusterQueue *self, ClusterQueuedPod *qp);
/**
 * cluster_queue_done_failed:
 * @rejectors: plugin bits that rejected the pod; 0 means an error
 *
 * AddUnschedulableIfNotPresent: to the error backoff queue after an error,
 * otherwise to the unschedulable pool, unless an event of interest arrived
 * while in flight (then to backoff or active).
 */
void
cluster_queue_done_failed(ClusterQueue *self, ClusterQueuedPod *qp, guint32 rejectors, SimTime now);
/* The pod was deleted while pending or in flight: forget it. */
void cluster_queue_delete(ClusterQueue *self, ClusterQueuedPod *qp);
/**
 * cluster_queue_on_event:
 *
 * MoveAllToActiveOrBackoffQueue: unschedulable pods rejected by a plugin
 * interested in @event move to the backoff queue (still backing off) or to
 * the active queue. Returns the number moved.
 */
guint cluster_queue_on_event(ClusterQueue *self, ClusterEvent event, SimTime now);
/* flushBackoffQCompleted: backoff-completed pods to active. Returns the number moved. */
guint cluster_queue_flush_backoff(ClusterQueue *self, SimTime now);
/* flushUnschedulablePodsLeftover. Returns the number moved. */
guint cluster_queue_flush_unschedulable(ClusterQueue *self, SimTime now);
/* The backoff duration after @attempts attempts (calculateBackoffDuration). */
SimTime cluster_queue_backoff_duration(const ClusterQueue *self, guint attempts);
/* The time @qp stops backing off; flush ticks must reach it. */
SimTime cluster_queue_backoff_ready_time(ClusterQueue *self, ClusterQueuedPod *qp);
gboolean cluster_queue_is_backing_off(ClusterQueue *self, ClusterQueuedPod *qp, SimTime now);
/* Earliest time a backoff flush would move a pod, SIM_TIME_NEVER if none. */
SimTime cluster_queue_next_backoff_time(ClusterQueue *self);
/* TRUE if cluster_queue_pop() would return a pod. */
gboolean cluster_queue_can_pop(const ClusterQueue *self);
guint cluster_queue_get_n_active(const ClusterQueue *self);
guint cluster_queue_get_n_backoff(const ClusterQueue *self); /* both backoff heaps */
guint cluster_queue_get_n_error_backoff(const ClusterQueue *self);
guint cluster_queue_get_n_unschedulable(const ClusterQueue *self);
guint cluster_queue_get_n_in_flight(const ClusterQueue *self);
const ClusterQueueConfig *cluster_queue_get_config(const ClusterQueue *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterQueue, cluster_queue_free)

/* ============================================== resource-claim controller */

#define CLUSTER_CLAIM_RESERVED_FOR_MAX 256 /* ResourceClaimReservedForMaxSize */

typedef struct {
	char *name;
	char *owner_pod;         /* generated from a template: the owning pod; else NULL */
	char *pod_claim_name;    /* annotation resource.kubernetes.io/pod-claim-name */
	GPtrArray *reserved_for; /* pod names (char *), in reservation order */
	gboolean allocated;
	gpointer allocation; /* opaque (model/dra result), freed by the controller's free func */
	gpointer user_data;
	GList *link; /* private: position in the controller's creation-order list */
} ClusterClaim;

typedef struct ClusterClaims ClusterClaims;

typedef struct {
	ClusterRandFunc rand; /* name suffixes; NULL = a counter-based suffix */
	gpointer rand_data;
	GDestroyNotify free_allocation;
	/* (nullable) called when a claim is deallocated, with its allocation still set */
	void (*on_deallocated)(gpointer data, ClusterClaim *claim);
	gpointer on_deallocated_data;
} ClusterClaimsConfig;

ClusterClaims *cluster_claims_new(const ClusterClaimsConfig *config);
void cluster_claims_free(ClusterClaims *self);
/* A user-created claim (resourceClaimName). Returns NULL if the name is taken. */
ClusterClaim *cluster_claims_add(ClusterClaims *self, const char *name);
/**
 * cluster_claims_generate:
 *
 * The resourceclaim controller's claim for (pod, podClaim) from a template:
 * named "<pod>-<podClaim>-<5 chars>" (truncated like upstream), owned by the pod.
 *
 * Returns: (transfer none): the new claim.
 */
ClusterClaim *
cluster_claims_generate(ClusterClaims *self, const char *pod_name, const char *pod_claim_name);
ClusterClaim *cluster_claims_lookup(ClusterClaims *self, const char *name);
/* Records the allocation (takes ownership). */
void cluster_claims_allocate(ClusterClaims *self, ClusterClaim *claim, gpointer allocation);
/* Adds @pod to reservedFor. FALSE if full (256) and @pod is not yet in it. */
gboolean cluster_claims_reserve(ClusterClaims *self, ClusterClaim *claim, const char *pod);
gboolean cluster_claims_is_reserved_for(const ClusterClaim *claim, const char *pod);
/**
 * cluster_claims_release:
 *
 * @pod ended or was deleted: it leaves reservedFor; an allocated claim whose
 * reservedFor becomes empty is deallocated; a claim generated for @pod is
 * deleted (and @claim is then freed). Returns TRUE if the claim was deallocated.
 */
gboolean cluster_claims_release(ClusterClaims *self, ClusterClaim *claim, const char *pod);
/* Clears the allocation of a claim reserved by nobody (PostFilter). */
gboolean cluster_claims_deallocate_unreserved(ClusterClaims *self, ClusterClaim *claim);
guint cluster_claims_get_length(const ClusterClaims *self); /* live claims */
/* Calls @func on every live claim in creation order; @func must not delete claims. */
void cluster_claims_foreach(ClusterClaims *self, GFunc func, gpointer user_data);
guint64 cluster_claims_get_n_generated(const ClusterClaims *self);
guint64 cluster_claims_get_n_deallocated(const ClusterClaims *self);
guint64 cluster_claims_get_n_deleted(const ClusterClaims *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterClaims, cluster_claims_free)

/* ========================================================== run model */

typedef enum {
	CLUSTER_SHARE_EXCLUSIVE,  /* one pod per device */
	CLUSTER_SHARE_TIME_SLICE, /* shared claim / TimeSlicing / device-plugin replicas */
	CLUSTER_SHARE_MPS,        /* CUDA MPS */
} ClusterShareMode;

typedef enum {
	CLUSTER_INTERVAL_DEFAULT,
	CLUSTER_INTERVAL_SHORT,
	CLUSTER_INTERVAL_MEDIUM,
	CLUSTER_INTERVAL_LONG,
	CLUSTER_N_INTERVALS
} ClusterTimeSliceInterval;

/* Every parameter of the run model; see docs/cluster.md for the defaults. */
typedef struct {
	SimTime time_slice[CLUSTER_N_INTERVALS]; /* length of one slice */
	SimTime context_switch;                  /* cost of one switch */
	SimTime restart_backoff_initial;         /* kubelet crash-loop backoff: 10 s */
	SimTime restart_backoff_max;             /* 300 s */
	gboolean restart_keeps_progress;         /* FALSE: an OOM-killed pod starts over */
} ClusterRunParams;

void cluster_run_params_init(ClusterRunParams *params);

/**
 * ClusterDevice:
 *
 * One physical compute unit that tenants share: a full GPU or a MIG
 * partition. @capacity is its compute in full-GPU units (profile SMs / GPU
 * SMs for MIG, 1 for a GPU). @mem_isolated: each tenant's memory is capped
 * on its own (MIG; MPS with pinned-memory limits), so co-tenants cannot OOM
 * each other.
 */
typedef struct {
	ClusterShareMode mode;
	ClusterTimeSliceInterval interval;
	double capacity;
	gint64 mem_bytes;
	gboolean mem_isolated;
} ClusterDevice;

/**
 * ClusterTenant:
 *
 * A running pod on a device. @demand: the fraction of a full GPU's compute
 * the pod uses when alone (SMs it needs / GPU SMs); @mps_threads: active
 * thread percentage 1..100 (0 = 100); @mem_limit: per-tenant memory cap
 * (MPS pinned limit, MIG profile memory), 0 = none; @start, @seq: newest
 * first for OOM victims.
 */
typedef struct {
	double demand;
	gint64 mem_bytes;
	double mps_threads;
	gint64 mem_limit;
	SimTime start;
	guint64 seq;
} ClusterTenant;

/* Fraction of time lost to context switches with @n tenants time-sliced. */
double cluster_run_switch_overhead(const ClusterRunParams *params,
                                   ClusterTimeSliceInterval interval,
                                   guint n);
/**
 * cluster_run_rates:
 * @rates: (out caller-allocates): @n speeds in [0, 1], work seconds per second
 *
 * Exclusive: min(1, capacity / demand) (the MIG rule); two or more tenants
 * on an exclusive device (a shared claim without sharing config) are
 * time-sliced with the Default interval, as NVIDIA's DRA driver configures
 * it then. Time-slicing: max-min fair sharing of capacity × (1 − overhead)
 * by demand. MPS: max-min fair sharing of capacity with each tenant capped at
 * its thread percentage.
 */
void cluster_run_rates(const ClusterRunParams *params,
                       const ClusterDevice *device,
                       const ClusterTenant *tenants,
                       guint n,
                       double *rates);
/* Aborts when @delivered (Σ speed × demand) exceeds the device's capacity. */
void cluster_run_check_delivered(const ClusterDevice *device, double delivered);
/**
 * cluster_run_oom_victims:
 * @kill: (out caller-allocates): TRUE for each tenant to kill
 *
 * A tenant over its own limit (or the device memory) dies. Without memory
 * isolation, while the survivors' memory exceeds the device's, the newest
 * dies. Returns the number killed.
 */
guint cluster_run_oom_victims(const ClusterDevice *device,
                              const ClusterTenant *tenants,
                              guint n,
                              gboolean *kill);
/* Crash-loop backoff before restart number @restarts (1 = first restart). */
SimTime cluster_run_restart_backoff(const ClusterRunParams *params, guint restarts);

/**
 * ClusterProgress:
 *
 * Work done by a running pod under a changing rate. @remaining is in µs of
 * full-speed work.
 */
typedef struct {
	double remaining;
	double rate;
	SimTime since; /* time of the last advance */
} ClusterProgress;

void cluster_progress_init(ClusterProgress *self, SimTime work, SimTime now);
/* Accounts the work done at the current rate up to @now. */
void cluster_progress_advance(ClusterProgress *self, SimTime now);
/* Advances to @now, then switches to @rate. */
void cluster_progress_set_rate(ClusterProgress *self, SimTime now, double rate);
/* When the work finishes at the current rate; SIM_TIME_NEVER at rate 0. */
SimTime cluster_progress_finish_time(const ClusterProgress *self);

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
	gboolean default_score_plugins; /* add the default profile's score plugins */
	/* A failed node gets node.kubernetes.io/unreachable:NoExecute after
	 * node-monitor-grace-period (40 s); pods that do not tolerate it
	 * themselves get DefaultTolerationSeconds' toleration (300 s): their
	 * eviction comes 340 s after the failure. */
	SimTime node_monitor_grace_period;
	gint64 default_toleration_seconds;
} ClusterSimConfig;

/* Defaults of every part; default_score_plugins on, cycle_time 0, seed 1. */
void cluster_sim_config_init(ClusterSimConfig *config);

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
} ClusterPodPhase;

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
ClusterSched *cluster_sim_get_sched(ClusterSim *self);
ClusterQueue *cluster_sim_get_queue(ClusterSim *self);
ClusterClaims *cluster_sim_get_claims(ClusterSim *self);
const ClusterSimStats *cluster_sim_get_stats(const ClusterSim *self);
guint cluster_sim_get_n_pods(const ClusterSim *self);
ClusterPod *cluster_sim_get_pod(const ClusterSim *self, guint index);
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
/* A claim made for the pod during scheduling (KEP-5004's special claim). */
void cluster_sim_add_pod_claim(ClusterSim *self, guint index, const char *name);
/* Tell the queue about an outside event (slice published, class added...). */
void cluster_sim_notify(ClusterSim *self, ClusterEvent event);
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
/* The simulated time now. */
SimTime cluster_sim_get_now(const ClusterSim *self);
/* Cancels that timer (no eviction is due any more). */
void cluster_sim_clear_device_eviction(ClusterSim *self, guint index);
/* The time of that timer, SIM_TIME_NEVER when none is set. */
SimTime cluster_sim_get_device_eviction(const ClusterSim *self, guint index);
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
 * its first tenant's sharing mode) and when a reconfiguration starts or
 * installs new devices; cordons and taints do not change it. */
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterSim, cluster_sim_free)

/* ==================================================== per-pod journal
 * cluster_journal.c, for the reports' reasons and `drasim explain`. Every
 * simulation keeps, per pod, its scheduling attempts and its last failed
 * attempt (the FitError histogram). cluster_journal_set_full() also records
 * every event of every pod (arrival, attempts, binding, starts, speed
 * changes, OOM kills, evictions, completion). Recording allocates only
 * amortised array growth and interned strings. */

typedef struct ClusterJournal ClusterJournal;

typedef enum {
	CLUSTER_JOURNAL_ARRIVED,
	CLUSTER_JOURNAL_FAILED,     /* an attempt found no node: attempt index in @first */
	CLUSTER_JOURNAL_ERROR,      /* an attempt failed on an error (or placement) */
	CLUSTER_JOURNAL_BOUND,      /* @node, @text: its devices and claims */
	CLUSTER_JOURNAL_STARTED,    /* containers (re)started: devices [@first, +@n) */
	CLUSTER_JOURNAL_RATE,       /* its speed changed to @value (work s per s) */
	CLUSTER_JOURNAL_OOM_KILLED, /* left its devices; restarts after the backoff */
	CLUSTER_JOURNAL_STOPPED,    /* left its devices (ended, evicted, node failed) */
	CLUSTER_JOURNAL_LOST,       /* its node failed */
	CLUSTER_JOURNAL_EVICTED,    /* recreated pending */
	CLUSTER_JOURNAL_COMPLETED,
	CLUSTER_JOURNAL_DELETED,
} ClusterJournalKind;

typedef struct {
	guint16 code; /* ClusterReason */
	guint32 count;
} ClusterReasonCount;

#define CLUSTER_JOURNAL_MAX_REASONS 12

/* One failed attempt: what kube-scheduler's FitError would hold. */
typedef struct {
	SimTime at;
	guint n_nodes;
	gboolean error;      /* an error, not unschedulable (@message says which) */
	const char *message; /* PreFilter's or the error's message; NULL when Filter decided */
	gboolean has_claims; /* DynamicResources PostFilter has claims to look at */
	const char *detail;  /* the allocator's diagnosis (full journal), or NULL */
	guint n_reasons;
	ClusterReasonCount reasons[CLUSTER_JOURNAL_MAX_REASONS]; /* code order */
} ClusterAttempt;

typedef struct {
	SimTime at;
	ClusterJournalKind kind;
	guint pod;
	const char *node; /* interned; BOUND, STARTED */
	const char *text; /* interned; BOUND: devices and claims */
	double value;     /* RATE */
	guint first, n;   /* FAILED/ERROR: attempt index; STARTED: device range */
} ClusterJournalEntry;

/* The allocator's diagnosis of a failed attempt (full journal); transfer full, nullable. */
typedef char *(*ClusterJournalDetailFunc)(gpointer data, guint pod);
/* What a bound pod holds ("gpu.nvidia.com/node-0/gpu-3 via claim x"); transfer full. */
typedef char *(*ClusterJournalDescribeFunc)(gpointer data, guint pod);

/* (transfer none): the simulation's journal. */
ClusterJournal *cluster_sim_get_journal(ClusterSim *self);
/* (transfer full): the journal, kept after the simulation is freed (a new one replaces it). */
ClusterJournal *cluster_sim_steal_journal(ClusterSim *self);
void cluster_journal_free(ClusterJournal *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterJournal, cluster_journal_free)

void cluster_journal_set_full(ClusterJournal *self, gboolean full);
gboolean cluster_journal_get_full(const ClusterJournal *self);
void cluster_journal_set_hooks(ClusterJournal *self,
                               ClusterJournalDetailFunc detail,
                               ClusterJournalDescribeFunc describe,
                               gpointer data);
guint cluster_journal_get_n_pods(const ClusterJournal *self);
/* (nullable): the pod's name, known once it arrived. */
const char *cluster_journal_get_pod_name(const ClusterJournal *self, guint pod);
/* Returns: the pod index named @name, or -1. */
gint cluster_journal_lookup_pod(const ClusterJournal *self, const char *name);
guint cluster_journal_get_attempts(const ClusterJournal *self, guint pod);
/* (nullable): the last attempt of @pod that did not bind it. */
const ClusterAttempt *cluster_journal_get_last_failure(const ClusterJournal *self, guint pod);
/* Full journal: entries in time order, the failed attempts they point at, device indexes. */
guint cluster_journal_get_n_entries(const ClusterJournal *self);
const ClusterJournalEntry *cluster_journal_get_entry(const ClusterJournal *self, guint index);
const ClusterAttempt *cluster_journal_get_attempt(const ClusterJournal *self, guint index);
const guint *cluster_journal_get_devices(const ClusterJournal *self, guint first);
/* Sets the detail of @pod's last failure (interned copy of @detail). */
void cluster_journal_set_last_detail(ClusterJournal *self, guint pod, const char *detail);

G_END_DECLS
