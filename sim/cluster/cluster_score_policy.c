/*
 * cluster_score_policy.c: the score policies a scenario's mode names
 * (`score:`), each a scheduling profile's list of score plugins. The table is
 * the one place a new policy is registered: the scenario decoder checks names
 * against cluster_sched_score_policy_names() and sim/world applies the mode's
 * choice through cluster_sched_add_score_policy(), so neither changes.
 */
#include <string.h>

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

/* The policies' names (NULL-terminated, the API's list) and, at the same index,
 * what each adds: one table, read two ways. */
static const char *const policy_names[] = { "LeastAllocated", "MostAllocated", NULL };
static void (*const policy_add[])(ClusterSched *sched) = {
	cluster_sched_add_default_score_plugins, /* the default profile */
	add_most_allocated,
};
G_STATIC_ASSERT(G_N_ELEMENTS(policy_names) == G_N_ELEMENTS(policy_add) + 1);

const char *const *
cluster_sched_score_policy_names(void)
{
	return policy_names;
}

gboolean
cluster_sched_add_score_policy(ClusterSched *self, const char *name)
{
	for (guint i = 0; i < G_N_ELEMENTS(policy_add); i++) {
		if (strcmp(policy_names[i], name) == 0) {
			policy_add[i](self);
			return TRUE;
		}
	}
	return FALSE;
}
