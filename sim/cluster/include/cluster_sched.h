/*
 * cluster_sched.h: the scheduling cycle (schedule_one.go): PreFilter, Filter over a
 * percentage of the nodes from a rotating start, Score, Reserve, and the
 * node list with what is assumed or bound on each node.
 *
 * ClusterSched is opaque. Its configuration, statistics and the result of one
 * cycle are plain values the caller fills or reads.
 */
#pragma once

#include <glib.h>

#include "cluster_plugin.h"
#include "cluster_score.h"
#include "cluster_types.h"
#include "sim.h"

G_BEGIN_DECLS

/* ============================================================ scheduler */

typedef struct {
	/* percentageOfNodesToScore: 0 = adaptive (50 - nodes/125, at least 5). */
	gint32 percentage_of_nodes_to_score;
	ClusterRandFunc rand; /* selectHost tie-breaking; NULL = first best node */
	gpointer rand_data;
	/* optional, on rand_data: the same draws as @rand's reservoir in one call
	 * (the window's selectHost, cluster_sched_window.c) */
	ClusterReservoirFunc reservoir;
	const ClusterDraOps *dra; /* NULL: pods with has_dra are unschedulable */
	gpointer dra_data;
	/* TRUE: leave ClusterScheduleResult.reasons[] at 0 (the FitError histogram
	 * for explain). A caller that never reads it (the FGD protocol) saves the
	 * count per rejected node; rejected[] and rejectors are kept. */
	gboolean skip_reasons;
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
	/* cycles decided from per-class counts (cluster_sched_window.c), no node
	 * walked: how a run was computed, not what it decided (not in reports) */
	guint64 window_cycles;
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
 * The score policies by name (cluster_score_policy.c), NULL-terminated, in
 * order: kube-scheduler's own, "LeastAllocated" (the default profile),
 * "MostAllocated" and "RequestedToCapacityRatio" (the default profile with
 * that NodeResourcesFit strategy), "BalancedAllocation" (the default profile
 * without NodeResourcesFit's score); then the FGD paper's research policies.
 * A new policy is a row there; the scenario decoder and sim/world find it by
 * name.
 */
const char *const *cluster_sched_score_policy_names(void);
/*
 * TRUE for the FGD paper's policies (Random, DotProd, GpuClustering,
 * GpuPacking, BestFit, FGD): they score Open-Gpu-Share's milli-GPU state
 * (cluster_gpushare.h), which only the FGD protocol builds, so a world
 * without it must refuse them rather than run them on nothing.
 */
gboolean cluster_sched_score_policy_needs_gpushare(const char *name);
/* Adds the named policy's score plugins; FALSE (nothing added) for an unknown name. */
gboolean cluster_sched_add_score_policy(ClusterSched *self, const char *name);

/* A resource of a policy's `resources` list, by name: slots are per run. */
typedef struct {
	char *name; /* owned */
	gint64 weight;
} ClusterPolicyResource;

/*
 * ClusterScorePolicyConfig:
 * A score policy with its arguments, as a scenario mode's `policy:` gives it
 * (and as the FGD protocol may): NodeResourcesFitArgs.scoringStrategy's
 * resources and shape for LeastAllocated, MostAllocated and
 * RequestedToCapacityRatio; NodeResourcesBalancedAllocationArgs.resources
 * for BalancedAllocation. The scenario decoder validates it as
 * kube-scheduler does (validation_pluginargs.go); the FGD paper's policies
 * take no arguments.
 */
typedef struct {
	const char *name; /* a cluster_sched_score_policy_names() entry (static) */
	ClusterPolicyResource resources[CLUSTER_RES_MAX];
	guint n_resources; /* 0: cpu:1, memory:1 (v1/defaults.go) */
	ClusterShapePoint shape[CLUSTER_MAX_SHAPE_POINTS];
	guint n_shape; /* RequestedToCapacityRatio only; 0: (0,0),(100,10) */
} ClusterScorePolicyConfig;

/* LeastAllocated (the default profile), no arguments. */
void cluster_score_policy_config_init(ClusterScorePolicyConfig *config);
/* Frees the resource names; the config is init'ed again. */
void cluster_score_policy_config_clear(ClusterScorePolicyConfig *config);
/* TRUE when @name's arguments include a shape (RequestedToCapacityRatio). */
gboolean cluster_score_policy_takes_shape(const char *name);
/* TRUE when @name's resources are BalancedAllocation's: each weight must be 1,
 * each name once (ValidateNodeResourcesBalancedAllocationArgs). */
gboolean cluster_score_policy_balanced_resources(const char *name);
/*
 * Adds @config's score plugins, its resource names interned in @names (a
 * name no node or pod has gets a slot no node advertises: it scores as
 * upstream scores a resource the node lacks). FALSE (nothing added) for an
 * unknown name, or resources without @names, or more names than slots.
 */
gboolean cluster_sched_add_score_policy_config(ClusterSched *self,
                                               const ClusterScorePolicyConfig *config,
                                               ClusterResNames *names);
/* One line for reports: "LeastAllocated", "RequestedToCapacityRatio resources
 * cpu:1, nvidia.com/gpu:3; shape 0:0, 100:10" (the shape RTCR uses, given or
 * default). (transfer full) */
char *cluster_score_policy_config_describe(const ClusterScorePolicyConfig *config);
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
/**
 * cluster_sched_admit:
 *
 * A pod already running on @node when the run starts (an imported pod with
 * spec.nodeName, ClusterPod.bound): no scheduling cycle placed it and none
 * runs now. Only what the kubelet's admission checks on its own node (node
 * selector and affinity, resources: GeneralPredicates; a cordon and NoSchedule
 * taints do not apply) and its claims there (an allocated claim is only
 * checked against the node, one not allocated is allocated on it), then
 * Reserve. nextStartNodeIndex, the random stream and the cycle counters are
 * untouched. On failure @out says why (status UNSCHEDULABLE, reason) and
 * nothing is reserved.
 */
void cluster_sched_admit(ClusterSched *self,
                         const ClusterPod *pod,
                         ClusterNode *node,
                         ClusterScheduleResult *out);
/* Adds @pod's requests to @node (a pod bound outside the scheduler). */
void cluster_sched_assume(ClusterSched *self, const ClusterPod *pod, ClusterNode *node);
/* Removes @pod's requests from @node (pod ended, evicted, or unreserved). */
void cluster_sched_release(ClusterSched *self, const ClusterPod *pod, ClusterNode *node);
const ClusterSchedStats *cluster_sched_get_stats(const ClusterSched *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterSched, cluster_sched_free)

G_END_DECLS
