/*
 * cluster_score_policy.c: the score policies a scenario's mode names
 * (`score:`), each a scheduling profile's list of score plugins. The table is
 * the one place a new policy is registered: the scenario decoder checks names
 * against cluster_sched_score_policy_names() and sim/world applies the mode's
 * choice through cluster_sched_add_score_policy(), so neither changes.
 */
#include <string.h>

#include "cluster_gpushare.h"
#include "cluster_sched.h"

/* kube-scheduler's default profile: TaintToleration w3, NodeResourcesFit w1 with
 * its strategy, BalancedAllocation w1 (pkg/scheduler/apis/config/v1/default_plugins.go). */
static void
add_default_profile_with(ClusterSched *sched, const ClusterFitScoring *fit)
{
	cluster_sched_add_score_plugin(sched, cluster_score_taint_new(3));
	cluster_sched_add_score_plugin(sched, cluster_score_fit_new(fit, 1));
	cluster_sched_add_score_plugin(sched, cluster_score_balanced_new(NULL, 0, 1));
}

static void
add_default_profile(ClusterSched *sched, ClusterScoringType strategy)
{
	ClusterFitScoring fit;

	cluster_fit_scoring_init(&fit);
	fit.type = strategy;
	add_default_profile_with(sched, &fit);
}

void
cluster_sched_add_default_score_plugins(ClusterSched *self)
{
	add_default_profile(self, CLUSTER_SCORING_LEAST_ALLOCATED);
}

static void
add_most_allocated(ClusterSched *sched)
{
	add_default_profile(sched, CLUSTER_SCORING_MOST_ALLOCATED);
}

/*
 * The default profile with NodeResourcesFit's RequestedToCapacityRatio
 * strategy. Upstream requires a shape for it (validation_pluginargs.go
 * ValidateNodeResourcesFitArgs); without one drasim takes the bin-packing shape
 * of the Kubernetes docs' "Resource Bin Packing" page, (0,0),(100,10): the only
 * shape upstream documents, and one that differs from LeastAllocated (the
 * reverse shape (0,10),(100,0) would score like it). Resources default to
 * cpu:1, memory:1 (v1/defaults.go SetDefaults_NodeResourcesFitArgs).
 */
static void
add_requested_to_capacity_ratio(ClusterSched *sched)
{
	ClusterFitScoring fit;

	cluster_fit_scoring_init(&fit);
	fit.type = CLUSTER_SCORING_REQUESTED_TO_CAPACITY_RATIO;
	fit.shape[0] = (ClusterShapePoint){ 0, 0 };
	fit.shape[1] = (ClusterShapePoint){ 100, 10 };
	fit.n_shape = 2;
	add_default_profile_with(sched, &fit);
}

/*
 * The default profile with NodeResourcesFit's score disabled: TaintToleration
 * w3 and NodeResourcesBalancedAllocation w1. The default profile already
 * holds BalancedAllocation, so naming it for that profile would repeat
 * LeastAllocated; disabling the fit score (a profile's plugins.score.disabled)
 * is what an operator does to let balance alone decide, and it keeps the
 * taint preferences production keeps (Filter's NodeResourcesFit still runs).
 */
static void
add_balanced_allocation(ClusterSched *sched)
{
	cluster_sched_add_score_plugin(sched, cluster_score_taint_new(3));
	cluster_sched_add_score_plugin(sched, cluster_score_balanced_new(NULL, 0, 1));
}

/* The FGD paper's policies, each alone in its profile (research; they score
 * only nodes and pods that carry Open-Gpu-Share state, cluster_gpushare.h). */
static void
add_random(ClusterSched *sched)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_random_new());
}

static void
add_dotprod(ClusterSched *sched)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_dotprod_new());
}

static void
add_clustering(ClusterSched *sched)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_clustering_new());
}

static void
add_packing(ClusterSched *sched)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_packing_new());
}

static void
add_bestfit(ClusterSched *sched)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_bestfit_new());
}

static void
add_fgd(ClusterSched *sched)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_fgd_new());
}

/* The policies' names (NULL-terminated, the API's list) and, at the same index,
 * what each adds and how it picks GPUs inside the node under Open-Gpu-Share
 * (the paper's run scripts: Random random, DotProd best-fit with -dimext merge,
 * FGD its own, the others Open-Gpu-Share's default best-fit): one table, read
 * three ways. */
static const char *const policy_names[] = {
	"LeastAllocated",
	"MostAllocated",
	"RequestedToCapacityRatio",
	"BalancedAllocation",
	"Random",
	"DotProd",
	"GpuClustering",
	"GpuPacking",
	"BestFit",
	"FGD",
	NULL,
};
static void (*const policy_add[])(ClusterSched *sched) = {
	cluster_sched_add_default_score_plugins, /* the default profile */
	add_most_allocated,
	add_requested_to_capacity_ratio,
	add_balanced_allocation,
	add_random,
	add_dotprod,
	add_clustering,
	add_packing,
	add_bestfit,
	add_fgd,
};
static const ClusterGpuPick policy_pick[] = {
	CLUSTER_GPU_PICK_BEST, CLUSTER_GPU_PICK_BEST,   CLUSTER_GPU_PICK_BEST,
	CLUSTER_GPU_PICK_BEST, CLUSTER_GPU_PICK_RANDOM, CLUSTER_GPU_PICK_BEST,
	CLUSTER_GPU_PICK_BEST, CLUSTER_GPU_PICK_BEST,   CLUSTER_GPU_PICK_BEST,
	CLUSTER_GPU_PICK_FGD,
};
/* kube-scheduler's own come first; the rest are the paper's research policies */
#define N_KUBE_POLICIES 4
G_STATIC_ASSERT(G_N_ELEMENTS(policy_names) == G_N_ELEMENTS(policy_add) + 1);
G_STATIC_ASSERT(G_N_ELEMENTS(policy_pick) == G_N_ELEMENTS(policy_add));

static gint
policy_index(const char *name)
{
	for (guint i = 0; i < G_N_ELEMENTS(policy_add); i++) {
		if (strcmp(policy_names[i], name) == 0)
			return (gint)i;
	}
	return -1;
}

const char *const *
cluster_sched_score_policy_names(void)
{
	return policy_names;
}

gboolean
cluster_sched_add_score_policy(ClusterSched *self, const char *name)
{
	gint i = policy_index(name);

	if (i < 0)
		return FALSE;
	policy_add[i](self);
	return TRUE;
}

gboolean
cluster_sched_score_policy_needs_gpushare(const char *name)
{
	gint i = policy_index(name);

	return i >= N_KUBE_POLICIES;
}

gboolean
cluster_sched_score_policy_gpu_pick(const char *name, ClusterGpuPick *pick)
{
	gint i = policy_index(name);

	if (i < 0)
		return FALSE;
	*pick = policy_pick[i];
	return TRUE;
}
