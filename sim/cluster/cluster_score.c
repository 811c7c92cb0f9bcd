/*
 * cluster_score.c: the Score plugins of the default profile behind the small
 * ClusterScorePlugin interface: NodeResourcesFit (LeastAllocated,
 * MostAllocated, RequestedToCapacityRatio), NodeResourcesBalancedAllocation
 * and TaintToleration, with the integer arithmetic of kube-scheduler 1.34
 * (pkg/scheduler/framework/plugins/noderesources, .../tainttoleration).
 *
 * Research policies implement the same interface (cluster_score.h) and are added to
 * the scheduler next to, or instead of, these.
 */
#include "cluster_score.h"

#include <math.h>

#include "cluster-private.h"
#include "cluster_plugin.h"
#include "cluster_types.h"

void
cluster_score_plugin_free(ClusterScorePlugin *self)
{
	if (self == NULL)
		return;
	if (self->klass->finalize != NULL)
		self->klass->finalize(self);
	g_free(self);
}

/* least_allocated.go leastRequestedScore */
gint64
cluster_score_least_requested(gint64 requested, gint64 capacity)
{
	if (capacity == 0 || requested > capacity)
		return 0;
	return ((capacity - requested) * CLUSTER_MAX_NODE_SCORE) / capacity;
}

/* most_allocated.go mostRequestedScore: over-commit counts as full. */
gint64
cluster_score_most_requested(gint64 requested, gint64 capacity)
{
	if (capacity == 0)
		return 0;
	if (requested > capacity)
		requested = capacity;
	return (requested * CLUSTER_MAX_NODE_SCORE) / capacity;
}

/* scheduler/framework/plugins/helper/shape_score.go BuildBrokenLinearFunction */
gint64
cluster_score_broken_linear(const ClusterShapePoint *shape, guint n, gint64 x)
{
	for (guint i = 0; i < n; i++) {
		if (x <= shape[i].utilization) {
			if (i == 0)
				return shape[0].score;
			return shape[i - 1].score +
			       (shape[i].score - shape[i - 1].score) *
			               (x - shape[i - 1].utilization) /
			               (shape[i].utilization - shape[i - 1].utilization);
		}
	}
	return n > 0 ? shape[n - 1].score : 0;
}

/* plugins/helper/normalize_score.go DefaultNormalizeScore */
void
cluster_score_default_normalize(gint64 max_priority, gboolean reverse, gint64 *scores, guint n)
{
	gint64 max_count = 0;

	for (guint i = 0; i < n; i++)
		max_count = MAX(max_count, scores[i]);
	if (max_count == 0) {
		if (reverse) {
			for (guint i = 0; i < n; i++)
				scores[i] = max_priority;
		}
		return;
	}
	for (guint i = 0; i < n; i++) {
		gint64 score = max_priority * scores[i] / max_count;

		scores[i] = reverse ? max_priority - score : score;
	}
}

/*
 * resource_allocation.go calculateResourceAllocatableRequest. Fit's strategies
 * score with the non-zero requests of node and pod (useRequested = false);
 * BalancedAllocation with the real ones. An extended resource the pod does
 * not request is left out: (0, 0).
 */
static inline void
alloc_request(const ClusterPod *pod,
              const ClusterNode *node,
              gint slot,
              gboolean use_requested,
              gint64 *allocatable,
              gint64 *requested)
{
	gboolean fixed = slot == CLUSTER_RES_CPU || slot == CLUSTER_RES_MEMORY;
	const ClusterResources *node_req = &node->requested;
	gint64 pod_req = pod->requests.v[slot];

	if (fixed && !use_requested) {
		node_req = &node->nonzero_requested;
		pod_req = pod->nonzero_requests.v[slot];
	}
	if (!fixed && pod_req == 0) {
		*allocatable = 0;
		*requested = 0;
		return;
	}
	*allocatable = node->allocatable.v[slot];
	*requested = node_req->v[slot] + pod_req;
}

/* Out of line for other files; the score plugins below inline it (hot: every feasible node). */
void
cluster_score__alloc_request(const ClusterPod *pod,
                             const ClusterNode *node,
                             gint slot,
                             gboolean use_requested,
                             gint64 *allocatable,
                             gint64 *requested)
{
	alloc_request(pod, node, slot, use_requested, allocatable, requested);
}

void
cluster_fit_scoring_init(ClusterFitScoring *args)
{
	*args = (ClusterFitScoring){ 0 };
	args->type = CLUSTER_SCORING_LEAST_ALLOCATED;
	args->resources[0] = (ClusterResourceWeight){ CLUSTER_RES_CPU, 1 };
	args->resources[1] = (ClusterResourceWeight){ CLUSTER_RES_MEMORY, 1 };
	args->n_resources = 2;
	args->shape[0] = (ClusterShapePoint){ 0, 10 };
	args->shape[1] = (ClusterShapePoint){ 100, 0 };
	args->n_shape = 2;
}

/* ------------------------------------------------------ NodeResourcesFit */

typedef struct {
	ClusterScorePlugin base;
	ClusterFitScoring args;
	ClusterShapePoint scaled[CLUSTER_MAX_SHAPE_POINTS]; /* scores × 10 */
} FitPlugin;

/* requested_to_capacity_ratio.go: utilization in percent through the shape. */
static gint64
rtcr_resource_score(const FitPlugin *fit, gint64 requested, gint64 capacity)
{
	if (capacity == 0 || requested > capacity)
		return cluster_score_broken_linear(fit->scaled, fit->args.n_shape, 100);
	return cluster_score_broken_linear(fit->scaled, fit->args.n_shape,
	                                   requested * 100 / capacity);
}

static gint64
fit_score(ClusterScorePlugin *base, const ClusterPod *pod, const ClusterNode *node)
{
	const FitPlugin *fit = (const FitPlugin *)base;
	gint64 node_score = 0, weight_sum = 0;

	for (guint i = 0; i < fit->args.n_resources; i++) {
		const ClusterResourceWeight *rw = &fit->args.resources[i];
		gint64 alloc, req, score;

		alloc_request(pod, node, rw->slot, FALSE, &alloc, &req);
		if (alloc == 0)
			continue;
		switch (fit->args.type) {
		case CLUSTER_SCORING_LEAST_ALLOCATED:
			score = cluster_score_least_requested(req, alloc);
			break;
		case CLUSTER_SCORING_MOST_ALLOCATED:
			score = cluster_score_most_requested(req, alloc);
			break;
		case CLUSTER_SCORING_REQUESTED_TO_CAPACITY_RATIO:
			/* only positive resource scores enter the weighted mean */
			score = rtcr_resource_score(fit, req, alloc);
			if (score <= 0)
				continue;
			break;
		default:
			g_assert_not_reached();
		}
		node_score += score * rw->weight;
		weight_sum += rw->weight;
	}
	if (weight_sum == 0)
		return 0;
	if (fit->args.type == CLUSTER_SCORING_REQUESTED_TO_CAPACITY_RATIO)
		return (gint64)llround((double)node_score / (double)weight_sum);
	return node_score / weight_sum;
}

static const ClusterScorePluginClass fit_class = {
	.name = "NodeResourcesFit",
	.score = fit_score,
	.node_state_only = TRUE,
};

ClusterScorePlugin *
cluster_score_fit_new(const ClusterFitScoring *args, gint64 weight)
{
	FitPlugin *fit = g_new0(FitPlugin, 1);

	fit->base.klass = &fit_class;
	fit->base.weight = weight;
	if (args != NULL)
		fit->args = *args;
	else
		cluster_fit_scoring_init(&fit->args);
	fit->args.n_shape = MIN(fit->args.n_shape, CLUSTER_MAX_SHAPE_POINTS);
	/* MaxNodeScore / MaxCustomPriorityScore = 100 / 10 */
	for (guint i = 0; i < fit->args.n_shape; i++) {
		fit->scaled[i].utilization = fit->args.shape[i].utilization;
		fit->scaled[i].score = fit->args.shape[i].score * 10;
	}
	return &fit->base;
}

/* ------------------------------------------------- BalancedAllocation */

typedef struct {
	ClusterScorePlugin base;
	ClusterResourceWeight resources[CLUSTER_RES_MAX];
	guint n_resources;
} BalancedPlugin;

/* Best-effort pods skip the plugin (kubernetes issue 129138). */
static gboolean
balanced_prescore(ClusterScorePlugin *base,
                  const ClusterPod *pod,
                  ClusterNode *const *nodes,
                  guint n_nodes)
{
	const BalancedPlugin *ba = (const BalancedPlugin *)base;

	for (guint i = 0; i < ba->n_resources; i++) {
		if (pod->requests.v[ba->resources[i].slot] != 0)
			return TRUE;
	}
	return FALSE;
}

/* balanced_allocation.go balancedResourceScorer: (1 - std) × 100. */
static gint64
balanced_score(ClusterScorePlugin *base, const ClusterPod *pod, const ClusterNode *node)
{
	const BalancedPlugin *ba = (const BalancedPlugin *)base;
	double fractions[CLUSTER_RES_MAX];
	double total = 0.0, std = 0.0;
	guint n = 0;

	for (guint i = 0; i < ba->n_resources; i++) {
		gint64 alloc, req;
		double fraction;

		alloc_request(pod, node, ba->resources[i].slot, TRUE, &alloc, &req);
		if (alloc == 0)
			continue;
		fraction = MIN((double)req / (double)alloc, 1.0);
		total += fraction;
		fractions[n++] = fraction;
	}
	if (n == 2) {
		std = fabs((fractions[0] - fractions[1]) / 2.0);
	} else if (n > 2) {
		double mean = total / n, sum = 0.0;

		for (guint i = 0; i < n; i++)
			sum += (fractions[i] - mean) * (fractions[i] - mean);
		std = sqrt(sum / n);
	}
	return (gint64)((1.0 - std) * (double)CLUSTER_MAX_NODE_SCORE);
}

static const ClusterScorePluginClass balanced_class = {
	.name = "NodeResourcesBalancedAllocation",
	.prescore = balanced_prescore,
	.score = balanced_score,
	.node_state_only = TRUE,
	.prescore_pod_only = TRUE,
};

ClusterScorePlugin *
cluster_score_balanced_new(const ClusterResourceWeight *resources, guint n_resources, gint64 weight)
{
	BalancedPlugin *ba = g_new0(BalancedPlugin, 1);

	ba->base.klass = &balanced_class;
	ba->base.weight = weight;
	if (resources == NULL || n_resources == 0) {
		ba->resources[0] = (ClusterResourceWeight){ CLUSTER_RES_CPU, 1 };
		ba->resources[1] = (ClusterResourceWeight){ CLUSTER_RES_MEMORY, 1 };
		ba->n_resources = 2;
	} else {
		ba->n_resources = MIN(n_resources, CLUSTER_RES_MAX);
		for (guint i = 0; i < ba->n_resources; i++)
			ba->resources[i] = resources[i];
	}
	return &ba->base;
}

/* ----------------------------------------------------- TaintToleration */

/* taint_toleration.go: only tolerations with empty or PreferNoSchedule effect count. */
static gint64
taint_score(ClusterScorePlugin *base, const ClusterPod *pod, const ClusterNode *node)
{
	gint64 intolerable = 0;

	for (guint i = 0; i < node->taints->len; i++) {
		const ClusterTaint *taint = &g_array_index(node->taints, ClusterTaint, i);
		gboolean ok = FALSE;

		if (taint->effect != CLUSTER_EFFECT_PREFER_NO_SCHEDULE)
			continue;
		for (guint j = 0; j < cluster_pod_count(pod->tolerations) && !ok; j++) {
			const ClusterToleration *t =
			        &g_array_index(pod->tolerations, ClusterToleration, j);

			if (t->effect != CLUSTER_EFFECT_ALL &&
			    t->effect != CLUSTER_EFFECT_PREFER_NO_SCHEDULE)
				continue;
			ok = cluster_toleration_tolerates(t, taint);
		}
		if (!ok)
			intolerable++;
	}
	return intolerable;
}

static void
taint_normalize(ClusterScorePlugin *base, const ClusterPod *pod, gint64 *scores, guint n)
{
	cluster_score_default_normalize(CLUSTER_MAX_NODE_SCORE, TRUE, scores, n);
}

static const ClusterScorePluginClass taint_class = {
	.name = "TaintToleration",
	.score = taint_score,
	.normalize = taint_normalize,
	.node_state_only = TRUE,
	.normalize_by_extremes = TRUE, /* DefaultNormalizeScore: the maximum */
};

ClusterScorePlugin *
cluster_score_taint_new(gint64 weight)
{
	ClusterScorePlugin *self = g_new0(ClusterScorePlugin, 1);

	self->klass = &taint_class;
	self->weight = weight;
	return self;
}
