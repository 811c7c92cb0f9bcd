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

/*
 * ---- estimator internals, shared by cel_cost.c (the tree walk) and cel_cost_rules.c (the
 * per-function rule table); nothing outside the cost files uses them ----
 */

#define CEL_COST_STRING_TRAVERSAL 0.1  /* common.StringTraversalCostFactor */
#define CEL_COST_REGEX_LENGTH     0.25 /* common.RegexStringLengthCostFactor */
#define CEL_COST_LIST_CREATE      10
#define CEL_COST_MAP_CREATE       30
#define CEL_COST_STRUCT_CREATE    40

/* Saturating arithmetic (cel-go addUint64NoOverflow and friends). */
static inline guint64
cel_cost_add_sat(guint64 x, guint64 y)
{
	return (y > 0 && x > G_MAXUINT64 - y) ? G_MAXUINT64 : x + y;
}

static inline guint64
cel_cost_mul_sat(guint64 x, guint64 y)
{
	return (y != 0 && x > G_MAXUINT64 / y) ? G_MAXUINT64 : x * y;
}

static inline CelCostRange
cel_cost_fixed(guint64 v)
{
	return (CelCostRange){ v, v };
}

#define CEL_COST_UNKNOWN ((CelCostRange){ 0, G_MAXUINT64 })

static inline CelCostRange
cel_cost_range_add(CelCostRange a, CelCostRange b)
{
	return (CelCostRange){ cel_cost_add_sat(a.min, b.min), cel_cost_add_sat(a.max, b.max) };
}

static inline CelCostRange
cel_cost_range_mul(CelCostRange a, CelCostRange b)
{
	return (CelCostRange){ cel_cost_mul_sat(a.min, b.min), cel_cost_mul_sat(a.max, b.max) };
}

static inline CelCostRange
cel_cost_range_factor(CelCostRange a, double f)
{
	return (CelCostRange){ cel_cost_ceil(a.min, f), cel_cost_ceil(a.max, f) };
}

static inline CelCostRange
cel_cost_range_union(CelCostRange a, CelCostRange b)
{
	return (CelCostRange){ MIN(a.min, b.min), MAX(a.max, b.max) };
}

/* A field path: a variable, then field names or "@items", "@keys", "@values", "@indices". */
typedef struct {
	const char **elems;
	guint n;
} CelCostPath;

/* cel-go's entry sizes of a literal container (or one built by a comprehension). */
typedef struct {
	CelTypeKind container; /* CEL_TYPE_LIST or CEL_TYPE_MAP */
	CelCostRange key;
	CelCostRange val;
} CelCostEntry;

/* The estimator's state: cel-go's side tables by node id, and the comprehension scopes. */
typedef struct {
	guint max_id;
	CelCostPath *paths; /* by node id */
	gboolean *has_size;
	CelCostRange *sizes;
	gboolean *has_entry;
	CelCostEntry *entries;
	GHashTable *locals; /* name -> GPtrArray of CostLocal* (a stack) */
	BaseArena arena;
	const CelCostModel *model;
} CelCoster;

/* A view of a node as cel-go's AstNode: path, type, expression, computed size. */
typedef struct {
	CelCostPath path;
	const CelType *type;
	const CelAst *expr;
	gboolean has_size;
	CelCostRange size;
} CelCostNode;

/* One call, as a cost rule sees it: the kept overload's id and the measured operands. */
typedef struct {
	const CelAst *expr;        /* the call node */
	const char *function;      /* e->call.function */
	const char *overload;      /* cel-go's overload id (cel_cost__overload_id) */
	const CelCostNode *target; /* NULL for a global call */
	const CelCostNode *args;   /* nargs views */
	guint nargs;
	const CelCostRange *arg_costs; /* the cost of evaluating each argument */
} CelCostCall;

/* What a rule estimates: the call's cost, and the size of its result when it knows it. */
typedef struct {
	CelCostRange cost;
	gboolean has_result_size;
	CelCostRange result_size;
} CelCostEstimate;

/* cel_cost.c: the side tables the rules read and write. */
CelCostPath cel_cost__path_append(CelCoster *c, CelCostPath base, const char *elem);
const CelCostEntry *cel_cost__entry(CelCoster *c, const CelAst *e);
void cel_cost__set_entry(CelCoster *c, const CelAst *e, const CelCostEntry *entry);
/* The Kubernetes estimator's sizeEstimate(): computed size, then the size estimator. */
CelCostRange cel_cost__estimated_size(CelCoster *c, const CelCostNode *n);
/* cel-go's own: the computed size only. */
CelCostRange cel_cost__computed_size(CelCoster *c, const CelCostNode *n);

/* cel_cost_rules.c: the rule table. */
/* cel-go's overload id for the kept overload @decl (NULL for specials) of call @e. */
const char *cel_cost__overload_id(const CelAst *e,
                                  const CelOverloadDecl *decl,
                                  const CelType *const *argt,
                                  guint nargt);
/* The cost of @call itself plus its arguments, by the first rule that applies. */
CelCostEstimate cel_cost__call_rule(CelCoster *c, const CelCostCall *call);

G_END_DECLS
