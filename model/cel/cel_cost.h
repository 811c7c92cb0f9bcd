/*
 * cel_cost.h: CEL cost accounting as Kubernetes does it (internal to model/cel).
 *
 * Two halves, as in cel-go: the static estimator (checker/cost.go plus the Kubernetes
 * library estimator, k8s.io/apiserver/pkg/cel/library/cost.go) that API validation uses to
 * reject expensive expressions, and the runtime tracker (interpreter/runtimecost.go plus the
 * library's CallCost) that stops an evaluation over its budget.
 */
#pragma once

#include "cel-private.h"

G_BEGIN_DECLS

/* A [min, max] range; cel-go's SizeEstimate and CostEstimate share this shape. */
typedef struct {
	guint64 min;
	guint64 max;
} CelCostRange;

/*
 * CelCostSizeFn: the size (CEL size()) of the value at @path, where path[0] is a variable and
 * the rest are field names or "@items", "@keys", "@values", "@indices"; FALSE if unknown.
 */
typedef gboolean (*CelCostSizeFn)(const char *const *path,
                                  guint len,
                                  CelCostRange *out,
                                  gpointer data);

typedef struct {
	CelCostSizeFn size; /* may be NULL */
	gpointer size_data;
	/* DRA: the `includes` function costs its target's maximum list length (48). */
	gboolean dra_includes;
} CelCostModel;

/*
 * cel_cost_estimate:
 * cel.EstimateCost over the checked tree @root (HOST nodes are estimated through their
 * original subtree), with PresenceTestHasCost(false) as Kubernetes configures it.
 */
CelCostRange cel_cost_estimate(const CelAst *root, guint max_id, const CelCostModel *model);

/*
 * cel_cost_observe:
 * The CelEnvHooks.observe implementation: adds the runtime cost of @node to act->cost.
 */
void cel_cost_observe(CelActivation *act,
                      const CelAst *node,
                      const CelValue *args,
                      guint nargs,
                      CelValue result,
                      gpointer data);

/* The number of CEL size units of a runtime value (code points, bytes, entries; else 1). */
guint64 cel_cost_actual_size(CelValue v);

/* ceil(@n * @factor) with cel-go's saturation. */
guint64 cel_cost_ceil(guint64 n, double factor);

G_END_DECLS
