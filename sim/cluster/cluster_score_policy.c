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
add_default_profile(ClusterSched *sched, ClusterScoringType strategy)
{
	ClusterFitScoring fit;

	cluster_fit_scoring_init(&fit);
	fit.type = strategy;
	cluster_sched_add_score_plugin(sched, cluster_score_taint_new(3));
	cluster_sched_add_score_plugin(sched, cluster_score_fit_new(&fit, 1));
	cluster_sched_add_score_plugin(sched, cluster_score_balanced_new(NULL, 0, 1));
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
	"LeastAllocated", "MostAllocated", "Random", "DotProd", "GpuClustering",
	"GpuPacking",     "BestFit",       "FGD",    NULL,
};
static void (*const policy_add[])(ClusterSched *sched) = {
	cluster_sched_add_default_score_plugins, /* the default profile */
	add_most_allocated,
	add_random,
	add_dotprod,
	add_clustering,
	add_packing,
	add_bestfit,
	add_fgd,
};
static const ClusterGpuPick policy_pick[] = {
	CLUSTER_GPU_PICK_BEST, CLUSTER_GPU_PICK_BEST, CLUSTER_GPU_PICK_RANDOM,
	CLUSTER_GPU_PICK_BEST, CLUSTER_GPU_PICK_BEST, CLUSTER_GPU_PICK_BEST,
	CLUSTER_GPU_PICK_BEST, CLUSTER_GPU_PICK_FGD,
};
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

	return i >= 0 && policy_add[i] != cluster_sched_add_default_score_plugins &&
	       policy_add[i] != add_most_allocated;
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
