/*
 * cluster_score.h: score plugins (framework.ScorePlugin): the plugin object, its class,
 * NodeResourcesFit's scoring strategies, BalancedAllocation, TaintToleration
 * and the pure scorer helpers policies build on.
 *
 * ClusterScorePlugin is a small base "class" a policy subclasses by embedding
 * it first, so its struct and class are visible; the scoring arguments
 * (ClusterFitScoring...) are plain configuration values.
 */
#pragma once

#include <glib.h>

#include "cluster_plugin.h"
#include "cluster_types.h"

G_BEGIN_DECLS

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
	/* TRUE: @score reads only the pod and the node's allocatable, requests and
	 * taints (no labels, name, user_data or random draws), so the nodes of one
	 * equivalence class (cluster_sched_class.c) share one call per cycle. */
	gboolean node_state_only;
	/* TRUE: @prescore reads only the pod (not the feasible nodes). */
	gboolean prescore_pod_only;
	/* TRUE: @normalize maps each score from its value and the list's maximum
	 * and minimum alone, so it may run over one score per class instead of one
	 * per node (cluster_sched_window.c). */
	gboolean normalize_by_extremes;
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
/* config.MaxCustomPriorityScore: a shape point's score is 0..10 */
#define CLUSTER_MAX_CUSTOM_PRIORITY_SCORE 10
/* validation_pluginargs.go validateResources: a weight is in (0, 100] */
#define CLUSTER_MAX_RESOURCE_WEIGHT 100

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

G_END_DECLS
