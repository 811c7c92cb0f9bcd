/*
 * cluster_score_gpushare.c: the six score policies of the FGD paper (Weng et
 * al., USENIX ATC '23) over Open-Gpu-Share's milli-GPU model
 * (cluster_gpushare.h): Random, DotProd, GpuClustering, GpuPacking, BestFit
 * and FGD, with the integer arithmetic of the authors' simulator
 * (hkust-adsl/kubernetes-scheduler-simulator, pkg/simulator/plugin/, the *_score.go files)
 * so that ties, which selectHost breaks at random, fall where they fall there.
 * Each runs alone in its profile, as in the paper (weight 1000 upstream, which
 * changes no ranking). They read nodes and pods that carry a gpushare state;
 * a node without one scores 0. Research policies: beyond production.
 */
#include "cluster_gpushare.h"
#include "cluster_score.h"

/* A pod's GPU request in milli-GPU: num_gpu × gpu_milli (TotalMilliGpu). */
static inline gint64
pod_gpu_total(const ClusterPod *pod)
{
	return pod->gpushare != NULL ? (gint64)pod->gpushare->num_gpu * pod->gpushare->gpu_milli
	                             : 0;
}

static ClusterScorePlugin *
plugin_new(const ClusterScorePluginClass *klass, gsize size)
{
	ClusterScorePlugin *self = g_malloc0(size);

	self->klass = klass;
	self->weight = 1;
	return self;
}

/* --------------------------------------------------------------- Random */

typedef struct {
	ClusterScorePlugin base;
	const ClusterNode *chosen;
} RandomPlugin;

/* random_score.go PreScore: one feasible node uniformly at random. */
static gboolean
random_prescore(ClusterScorePlugin *base,
                const ClusterPod *pod,
                ClusterNode *const *nodes,
                guint n_nodes)
{
	RandomPlugin *self = (RandomPlugin *)base;
	ClusterGpuShare *share =
	        n_nodes > 0 && nodes[0]->gpushare != NULL ? nodes[0]->gpushare->share : NULL;

	self->chosen = n_nodes == 0    ? NULL
	               : share != NULL ? nodes[cluster_gpushare_rand(share, n_nodes)]
	                               : nodes[0];
	return TRUE;
}

static gint64
random_score(ClusterScorePlugin *base, const ClusterPod *pod, const ClusterNode *node)
{
	return node == ((RandomPlugin *)base)->chosen ? CLUSTER_MAX_NODE_SCORE : 0;
}

static const ClusterScorePluginClass random_class = {
	.name = "RandomScore",
	.prescore = random_prescore,
	.score = random_score,
};

ClusterScorePlugin *
cluster_score_gpushare_random_new(void)
{
	return plugin_new(&random_class, sizeof(RandomPlugin));
}

/* -------------------------------------------------------------- DotProd */

/*
 * dot_product_score.go with the paper's settings (-dimext merge -norm max):
 * node vector (free CPU, free GPU milli summed), pod vector (CPU, GPU milli),
 * both divided by the largest node spec; score = int64(100 × (1 − dot / 2)).
 * A node without the pod's CPU has no match group and scores 0.
 */
static gint64
dotprod_score(ClusterScorePlugin *base, const ClusterPod *pod, const ClusterNode *node)
{
	const ClusterGpuShareNode *g = node->gpushare;
	gint64 cpu_left = cluster_gpushare_cpu_left(node), cpu = cluster_gpushare_cpu_request(pod);
	double max_cpu, max_gpu, dot;

	if (g == NULL || cpu_left < cpu)
		return 0;
	max_cpu = (double)cluster_gpushare_get_max_cpu(g->share);
	max_gpu = (double)cluster_gpushare_get_max_gpu(g->share);
	dot = ((double)cpu_left / max_cpu) * ((double)cpu / max_cpu) +
	      ((double)cluster_gpushare_node_free_total(g) / max_gpu) *
	              ((double)pod_gpu_total(pod) / max_gpu);
	return (gint64)((double)CLUSTER_MAX_NODE_SCORE * (1.0 - dot / 2.0));
}

static const ClusterScorePluginClass dotprod_class = {
	.name = "DotProductScore",
	.score = dotprod_score,
};

ClusterScorePlugin *
cluster_score_gpushare_dotprod_new(void)
{
	return plugin_new(&dotprod_class, sizeof(ClusterScorePlugin));
}

/* -------------------------------------------------------- GpuClustering */

/*
 * gpu_clustering_score.go: bands by the GPU classes already on the node
 * (fractional, 1-GPU, 2-GPU, ...): only the pod's class (75, 100], several
 * including it (50, 75], none (25, 50], only others (0, 25]; inside a band
 * 25 × (maxGPU − free) / maxGPU in integers. A CPU-only pod scores 0.
 */
static gint64
clustering_score(ClusterScorePlugin *base, const ClusterPod *pod, const ClusterNode *node)
{
	const ClusterGpuShareNode *g = node->gpushare;
	const ClusterGpuShareReq *req = pod->gpushare;
	gint64 max_gpu, inside;
	guint cls;

	if (g == NULL || req == NULL || req->num_gpu == 0)
		return 0;
	max_gpu = cluster_gpushare_get_max_gpu(g->share);
	inside = CLUSTER_MAX_NODE_SCORE / 4 * (max_gpu - cluster_gpushare_node_free_total(g)) /
	         max_gpu;
	cls = req->gpu_milli < CLUSTER_GPUSHARE_MILLI
	              ? 0
	              : MIN(req->num_gpu, CLUSTER_GPUSHARE_MAX_GPUS);
	if (g->affinity[cls] > 0)
		return inside + CLUSTER_MAX_NODE_SCORE * (g->n_affinity == 1 ? 3 : 2) / 4;
	return inside + (g->n_affinity == 0 ? CLUSTER_MAX_NODE_SCORE / 4 : 0);
}

static const ClusterScorePluginClass clustering_class = {
	.name = "GpuClusteringScore",
	.score = clustering_score,
};

ClusterScorePlugin *
cluster_score_gpushare_clustering_new(void)
{
	return plugin_new(&clustering_class, sizeof(ClusterScorePlugin));
}

/* ---------------------------------------------------------- GpuPacking */

/*
 * gpu_packing_score.go getPackingScore: an idle node max(33 − idle GPUs, idle
 * GPUs); otherwise the pod's GPUs are taken least-free first (a stable sort by
 * free milli): if any is idle, max(50 − idle ones used, 33); if all are
 * shared, max(100 − Σ(free × 100 / 1000) / 10, 50). A CPU-only pod scores 0.
 */
static gint64
packing_score(ClusterScorePlugin *base, const ClusterPod *pod, const ClusterNode *node)
{
	const ClusterGpuShareNode *g = node->gpushare;
	const ClusterGpuShareReq *req = pod->gpushare;
	gint64 idle, idle_used = 0, free_pct = 0;
	guint32 left, order[CLUSTER_GPUSHARE_MAX_GPUS];

	if (g == NULL || req == NULL || req->num_gpu == 0 || req->gpu_milli == 0)
		return 0;
	idle = cluster_gpushare_node_fully_free(g);
	if (idle == g->n_gpus)
		return MAX(CLUSTER_MAX_NODE_SCORE / 3 - idle, idle);
	for (guint i = 0; i < g->n_gpus; i++) { /* stable insertion sort, ascending */
		guint j = i;

		while (j > 0 && g->free[order[j - 1]] > g->free[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	left = req->num_gpu;
	for (guint k = 0; k < g->n_gpus && left > 0; k++) {
		gint32 free = g->free[order[k]];

		if (free < (gint32)req->gpu_milli)
			continue;
		left--;
		idle_used += free == CLUSTER_GPUSHARE_MILLI;
		free_pct += (gint64)free * 100 / CLUSTER_GPUSHARE_MILLI;
	}
	if (left > 0)
		return 0;
	if (idle_used > 0)
		return MAX(CLUSTER_MAX_NODE_SCORE / 2 - idle_used, CLUSTER_MAX_NODE_SCORE / 3);
	return MAX(CLUSTER_MAX_NODE_SCORE - free_pct / 10, CLUSTER_MAX_NODE_SCORE / 2);
}

static const ClusterScorePluginClass packing_class = {
	.name = "GpuPackingScore",
	.score = packing_score,
};

ClusterScorePlugin *
cluster_score_gpushare_packing_new(void)
{
	return plugin_new(&packing_class, sizeof(ClusterScorePlugin));
}

/* -------------------------------------------------------------- BestFit */

/*
 * best_fit_score.go: int64(100 × (1 − [0.5 (freeCPU − CPU) / maxCPU +
 * 0.5 (freeGPU − GPU) / maxGPU])), then NormalizeScore (plugin_utils.go):
 * min-max to 0..100 in integers, all 0 when every node scores the same.
 */
static gint64
bestfit_score(ClusterScorePlugin *base, const ClusterPod *pod, const ClusterNode *node)
{
	const ClusterGpuShareNode *g = node->gpushare;
	double leftover;

	if (g == NULL)
		return 0;
	leftover = (double)(cluster_gpushare_cpu_left(node) - cluster_gpushare_cpu_request(pod)) /
	                   (double)cluster_gpushare_get_max_cpu(g->share) * 0.5 +
	           (double)((gint64)cluster_gpushare_node_free_total(g) - pod_gpu_total(pod)) /
	                   (double)cluster_gpushare_get_max_gpu(g->share) * 0.5;
	return (gint64)((1.0 - leftover) * (double)CLUSTER_MAX_NODE_SCORE);
}

static void
minmax_normalize(ClusterScorePlugin *base, const ClusterPod *pod, gint64 *scores, guint n)
{
	gint64 hi = G_MININT64, lo = G_MAXINT64;

	for (guint i = 0; i < n; i++) {
		hi = MAX(hi, scores[i]);
		lo = MIN(lo, scores[i]);
	}
	for (guint i = 0; i < n; i++)
		scores[i] = hi == lo ? 0 : (scores[i] - lo) * CLUSTER_MAX_NODE_SCORE / (hi - lo);
}

static const ClusterScorePluginClass bestfit_class = {
	.name = "BestFitScore",
	.score = bestfit_score,
	.normalize = minmax_normalize,
	.normalize_by_extremes = TRUE,
};

ClusterScorePlugin *
cluster_score_gpushare_bestfit_new(void)
{
	return plugin_new(&bestfit_class, sizeof(ClusterScorePlugin));
}

/* ------------------------------------------------------------------ FGD */

/* fgd_score.go: the node whose fragment grows least (cluster_gpushare_fgd_score). */
static gint64
fgd_score(ClusterScorePlugin *base, const ClusterPod *pod, const ClusterNode *node)
{
	gint gpu;

	if (node->gpushare == NULL)
		return 0;
	return cluster_gpushare_fgd_score(pod, node, &gpu);
}

static const ClusterScorePluginClass fgd_class = {
	.name = "FGDScore",
	.score = fgd_score,
};

ClusterScorePlugin *
cluster_score_gpushare_fgd_new(void)
{
	return plugin_new(&fgd_class, sizeof(ClusterScorePlugin));
}
