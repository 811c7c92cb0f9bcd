/*
 * cluster_score_policy.c: the score policies a scenario's mode names
 * (`policy:`) and the FGD protocol runs, each a scheduling profile's list of
 * score plugins, with the arguments kube-scheduler's own take (resources,
 * shape). The table is the one place a new policy is registered: the
 * scenario decoder checks names against cluster_sched_score_policy_names()
 * and sim/world applies the mode's choice through
 * cluster_sched_add_score_policy_config(), so neither changes.
 */
#include <string.h>

#include "cluster_gpushare.h"
#include "cluster_sched.h"

/* A policy's arguments with resource names turned into this run's slots. */
typedef struct {
	ClusterResourceWeight resources[CLUSTER_RES_MAX];
	guint n_resources; /* 0: the plugin's default */
	const ClusterShapePoint *shape;
	guint n_shape; /* 0: the default shape */
} PolicyArgs;

typedef struct PolicyRow PolicyRow;
struct PolicyRow {
	void (*add)(ClusterSched *sched, const PolicyRow *row, const PolicyArgs *args);
	ClusterScoringType strategy; /* NodeResourcesFit's, for the default profile */
	ClusterGpuPick pick;         /* how the policy picks GPUs under Open-Gpu-Share */
};

/*
 * RequestedToCapacityRatio's shape when none is given. Upstream requires one
 * (validation_pluginargs.go ValidateNodeResourcesFitArgs: "must be specified
 * when type is RequestedToCapacityRatio"); drasim takes (0,0),(100,10), the
 * bin-packing shape of the Kubernetes docs' "Resource Bin Packing" page and
 * of VolumeBinding's default (v1/defaults.go SetDefaults_VolumeBindingArgs).
 * The reverse shape (0,10),(100,0) would score like LeastAllocated.
 */
static const ClusterShapePoint default_rtcr_shape[] = {
	{ 0, 0 }, { 100, CLUSTER_MAX_CUSTOM_PRIORITY_SCORE }
};

/*
 * kube-scheduler's default profile: TaintToleration w3, NodeResourcesFit w1
 * with the row's strategy, BalancedAllocation w1 (v1/default_plugins.go).
 * The resources are the strategy's (NodeResourcesFitArgs.scoringStrategy);
 * BalancedAllocation keeps its own default, cpu and memory.
 */
static void
add_default_profile(ClusterSched *sched, const PolicyRow *row, const PolicyArgs *args)
{
	ClusterFitScoring fit;

	cluster_fit_scoring_init(&fit);
	fit.type = row->strategy;
	if (args->n_resources > 0) {
		memcpy(fit.resources, args->resources,
		       args->n_resources * sizeof(*args->resources));
		fit.n_resources = args->n_resources;
	}
	if (fit.type == CLUSTER_SCORING_REQUESTED_TO_CAPACITY_RATIO) {
		const ClusterShapePoint *shape =
		        args->n_shape > 0 ? args->shape : default_rtcr_shape;
		guint n = args->n_shape > 0 ? args->n_shape : G_N_ELEMENTS(default_rtcr_shape);

		memcpy(fit.shape, shape, n * sizeof(*shape));
		fit.n_shape = n;
	}
	cluster_sched_add_score_plugin(sched, cluster_score_taint_new(3));
	cluster_sched_add_score_plugin(sched, cluster_score_fit_new(&fit, 1));
	cluster_sched_add_score_plugin(sched, cluster_score_balanced_new(NULL, 0, 1));
}

/*
 * The default profile with NodeResourcesFit's score disabled (a profile's
 * plugins.score.disabled): TaintToleration w3 and BalancedAllocation w1 over
 * the given resources (NodeResourcesBalancedAllocationArgs). The default
 * profile already holds BalancedAllocation, so a policy of that name for the
 * whole profile would repeat LeastAllocated; this one lets balance alone
 * decide and keeps the taint preferences production keeps. Filtering is
 * unchanged (NodeResourcesFit still filters).
 */
static void
add_balanced_profile(ClusterSched *sched, const PolicyRow *row, const PolicyArgs *args)
{
	cluster_sched_add_score_plugin(sched, cluster_score_taint_new(3));
	cluster_sched_add_score_plugin(
	        sched, cluster_score_balanced_new(args->resources, args->n_resources, 1));
}

/* The FGD paper's policies, each alone in its profile (research; they score
 * only nodes and pods that carry Open-Gpu-Share state, cluster_gpushare.h). */
static void
add_random(ClusterSched *sched, const PolicyRow *row, const PolicyArgs *args)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_random_new());
}

static void
add_dotprod(ClusterSched *sched, const PolicyRow *row, const PolicyArgs *args)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_dotprod_new());
}

static void
add_clustering(ClusterSched *sched, const PolicyRow *row, const PolicyArgs *args)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_clustering_new());
}

static void
add_packing(ClusterSched *sched, const PolicyRow *row, const PolicyArgs *args)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_packing_new());
}

static void
add_bestfit(ClusterSched *sched, const PolicyRow *row, const PolicyArgs *args)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_bestfit_new());
}

static void
add_fgd(ClusterSched *sched, const PolicyRow *row, const PolicyArgs *args)
{
	cluster_sched_add_score_plugin(sched, cluster_score_gpushare_fgd_new());
}

/*
 * The policies' names (NULL-terminated, the API's list) and, at the same
 * index, what each adds and how it picks GPUs inside the node under
 * Open-Gpu-Share (the paper's run scripts: Random random, DotProd best-fit
 * with -dimext merge, FGD its own, the others Open-Gpu-Share's default
 * best-fit). kube-scheduler's own come first, the paper's research policies
 * after: one table, read several ways.
 */
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
#define N_KUBE_POLICIES 4
#define RTCR_INDEX      2
#define BALANCED_INDEX  3
static const PolicyRow policy_rows[] = {
	{ .add = add_default_profile, .strategy = CLUSTER_SCORING_LEAST_ALLOCATED },
	{ .add = add_default_profile, .strategy = CLUSTER_SCORING_MOST_ALLOCATED },
	{ .add = add_default_profile, .strategy = CLUSTER_SCORING_REQUESTED_TO_CAPACITY_RATIO },
	{ .add = add_balanced_profile },
	{ .add = add_random, .pick = CLUSTER_GPU_PICK_RANDOM },
	{ .add = add_dotprod, .pick = CLUSTER_GPU_PICK_BEST },
	{ .add = add_clustering, .pick = CLUSTER_GPU_PICK_BEST },
	{ .add = add_packing, .pick = CLUSTER_GPU_PICK_BEST },
	{ .add = add_bestfit, .pick = CLUSTER_GPU_PICK_BEST },
	{ .add = add_fgd, .pick = CLUSTER_GPU_PICK_FGD },
};
G_STATIC_ASSERT(G_N_ELEMENTS(policy_names) == G_N_ELEMENTS(policy_rows) + 1);

static gint
policy_index(const char *name)
{
	for (guint i = 0; name != NULL && i < G_N_ELEMENTS(policy_rows); i++) {
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

void
cluster_sched_add_default_score_plugins(ClusterSched *self)
{
	static const PolicyArgs none = { 0 };

	add_default_profile(self, &policy_rows[0], &none);
}

gboolean
cluster_sched_add_score_policy(ClusterSched *self, const char *name)
{
	ClusterScorePolicyConfig config;

	cluster_score_policy_config_init(&config);
	config.name = name;
	return cluster_sched_add_score_policy_config(self, &config, NULL);
}

gboolean
cluster_sched_add_score_policy_config(ClusterSched *self,
                                      const ClusterScorePolicyConfig *config,
                                      ClusterResNames *names)
{
	gint i = policy_index(config->name);
	PolicyArgs args = { .shape = config->shape, .n_shape = config->n_shape };

	if (i < 0 || (config->n_resources > 0 && names == NULL))
		return FALSE;
	for (guint r = 0; r < config->n_resources && r < CLUSTER_RES_MAX; r++) {
		gint slot = cluster_res_names_intern(names, config->resources[r].name);

		if (slot < 0)
			return FALSE;
		args.resources[r] = (ClusterResourceWeight){ slot, config->resources[r].weight };
		args.n_resources++;
	}
	policy_rows[i].add(self, &policy_rows[i], &args);
	return TRUE;
}

gboolean
cluster_sched_score_policy_needs_gpushare(const char *name)
{
	return policy_index(name) >= N_KUBE_POLICIES;
}

gboolean
cluster_sched_score_policy_gpu_pick(const char *name, ClusterGpuPick *pick)
{
	gint i = policy_index(name);

	if (i < 0)
		return FALSE;
	*pick = policy_rows[i].pick;
	return TRUE;
}

gboolean
cluster_score_policy_takes_shape(const char *name)
{
	return policy_index(name) == RTCR_INDEX;
}

gboolean
cluster_score_policy_balanced_resources(const char *name)
{
	return policy_index(name) == BALANCED_INDEX;
}

void
cluster_score_policy_config_init(ClusterScorePolicyConfig *config)
{
	*config = (ClusterScorePolicyConfig){ .name = policy_names[0] };
}

void
cluster_score_policy_config_clear(ClusterScorePolicyConfig *config)
{
	for (guint i = 0; i < config->n_resources; i++)
		g_free(config->resources[i].name);
	cluster_score_policy_config_init(config);
}

char *
cluster_score_policy_config_describe(const ClusterScorePolicyConfig *config)
{
	GString *out = g_string_new(config->name);
	const ClusterShapePoint *shape = config->shape;
	guint n_shape = config->n_shape;

	for (guint i = 0; i < config->n_resources; i++) {
		g_string_append_printf(out, "%s%s:%" G_GINT64_FORMAT, i == 0 ? " resources " : ", ",
		                       config->resources[i].name, config->resources[i].weight);
	}
	if (cluster_score_policy_takes_shape(config->name) && n_shape == 0) {
		shape = default_rtcr_shape;
		n_shape = G_N_ELEMENTS(default_rtcr_shape);
	}
	for (guint i = 0; i < n_shape; i++) {
		g_string_append_printf(out, "%s%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
		                       i > 0                     ? ", "
		                       : config->n_resources > 0 ? "; shape "
		                                                 : " shape ",
		                       shape[i].utilization, shape[i].score);
	}
	return g_string_free(out, FALSE);
}
