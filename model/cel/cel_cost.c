/*
 * cel_cost.c: the static cost estimator and the runtime cost tracker, ported from cel-go
 * (checker/cost.go, interpreter/runtimecost.go) with the Kubernetes library estimator
 * (k8s.io/apiserver/pkg/cel/library/cost.go) layered on top, as the apiserver configures it.
 *
 * The estimator walks the checked tree once, keeping cel-go's side tables: a field path per
 * node (so a size estimator can name "device.attributes.@values.<id>"), computed sizes,
 * entry sizes of literal containers, and a scope stack of comprehension variables. The
 * numbers must match upstream exactly: API validation rejects a selector whose estimate
 * exceeds the limit, and drasim's lint must agree with it.
 */
#include "cel_cost.h"

#include <math.h>
#include <string.h>

#define STRING_TRAVERSAL 0.1  /* common.StringTraversalCostFactor */
#define REGEX_LENGTH     0.25 /* common.RegexStringLengthCostFactor */
#define LIST_CREATE      10
#define MAP_CREATE       30
#define STRUCT_CREATE    40
#define ACCUMULATOR      "@result"
#define DRA_MAX_LIST     48 /* ResourceSliceMaxAttributeValuesPerDevice */

/* ---- saturating arithmetic (cel-go addUint64NoOverflow and friends) ---- */

static guint64
add_sat(guint64 x, guint64 y)
{
	return (y > 0 && x > G_MAXUINT64 - y) ? G_MAXUINT64 : x + y;
}

static guint64
mul_sat(guint64 x, guint64 y)
{
	return (y != 0 && x > G_MAXUINT64 / y) ? G_MAXUINT64 : x * y;
}

guint64
cel_cost_ceil(guint64 n, double factor)
{
	double x = (double)n;
	if (x > 0 && factor > 0 && x > 18446744073709551615.0 / factor) {
		return G_MAXUINT64;
	}
	double c = ceil(x * factor);
	if (c >= 18446744073709551616.0) {
		return G_MAXUINT64;
	}
	return (guint64)c;
}

static CelCostRange
range_fixed(guint64 v)
{
	return (CelCostRange){ v, v };
}

static const CelCostRange range_unknown = { 0, G_MAXUINT64 };

static CelCostRange
range_add(CelCostRange a, CelCostRange b)
{
	return (CelCostRange){ add_sat(a.min, b.min), add_sat(a.max, b.max) };
}

static CelCostRange
range_mul(CelCostRange a, CelCostRange b)
{
	return (CelCostRange){ mul_sat(a.min, b.min), mul_sat(a.max, b.max) };
}

static CelCostRange
range_factor(CelCostRange a, double f)
{
	return (CelCostRange){ cel_cost_ceil(a.min, f), cel_cost_ceil(a.max, f) };
}

static CelCostRange
range_union(CelCostRange a, CelCostRange b)
{
	return (CelCostRange){ MIN(a.min, b.min), MAX(a.max, b.max) };
}

/* ---- estimator state ---- */

typedef struct {
	const char **elems;
	guint n;
} CostPath;

typedef struct {
	CelTypeKind container; /* CEL_TYPE_LIST or CEL_TYPE_MAP */
	CelCostRange key;
	CelCostRange val;
} EntrySize;

typedef struct {
	CostPath path;
	gboolean has_size;
	CelCostRange size;
	gboolean has_entry;
	EntrySize entry;
} LocalVar;

typedef struct {
	guint max_id;
	CostPath *paths; /* by node id */
	gboolean *has_size;
	CelCostRange *sizes;
	gboolean *has_entry;
	EntrySize *entries;
	GHashTable *locals; /* name -> GPtrArray of LocalVar* (a stack) */
	CelArena arena;
	const CelCostModel *model;
} Coster;

/* A view of a node as cel-go's AstNode: path, type, expression, computed size. */
typedef struct {
	CostPath path;
	const CelType *type;
	const CelAst *expr;
	gboolean has_size;
	CelCostRange size;
} CostNode;

static CelCostRange cost_of(Coster *c, const CelAst *e);

static const CelAst *
unwrap(const CelAst *e)
{
	/* callers pass non-NULL nodes */
	while (e->kind == CEL_AST_HOST && e->host.original != NULL) {
		e = e->host.original;
	}
	return e;
}

static CostPath
path_append(Coster *c, CostPath base, const char *elem)
{
	CostPath p;
	p.n = base.n + 1;
	p.elems = cel_arena_alloc(&c->arena, p.n * sizeof(char *));
	if (base.n > 0) {
		memcpy(p.elems, base.elems, base.n * sizeof(char *));
	}
	p.elems[base.n] = elem;
	return p;
}

static LocalVar *
local_peek(Coster *c, const char *name)
{
	GPtrArray *stack = g_hash_table_lookup(c->locals, name);
	return stack != NULL && stack->len > 0 ? g_ptr_array_index(stack, stack->len - 1) : NULL;
}

static void
local_push(Coster *c, const char *name, LocalVar *v)
{
	GPtrArray *stack = g_hash_table_lookup(c->locals, name);
	if (stack == NULL) {
		stack = g_ptr_array_new();
		g_hash_table_insert(c->locals, (gpointer)name, stack);
	}
	g_ptr_array_add(stack, v);
}

static void
local_pop(Coster *c, const char *name)
{
	GPtrArray *stack = g_hash_table_lookup(c->locals, name);
	if (stack != NULL && stack->len > 0) {
		g_ptr_array_set_size(stack, stack->len - 1);
	}
}

static guint
node_id(Coster *c, const CelAst *e)
{
	return MIN(e->id, c->max_id);
}

static CostPath
get_path(Coster *c, const CelAst *e)
{
	if (e->kind == CEL_AST_IDENT) {
		LocalVar *v = local_peek(c, e->ident.name);
		if (v != NULL) {
			return v->path;
		}
	}
	return c->paths[node_id(c, e)];
}

static void
set_path(Coster *c, const CelAst *e, CostPath p)
{
	c->paths[node_id(c, e)] = p;
}

static void
set_size(Coster *c, const CelAst *e, const CelCostRange *size)
{
	if (size != NULL) {
		c->has_size[node_id(c, e)] = TRUE;
		c->sizes[node_id(c, e)] = *size;
	}
}

static void
set_entry(Coster *c, const CelAst *e, const EntrySize *entry)
{
	if (entry != NULL) {
		c->has_entry[node_id(c, e)] = TRUE;
		c->entries[node_id(c, e)] = *entry;
	}
}

static const EntrySize *
entry_size(Coster *c, const CelAst *e)
{
	if (c->has_entry[node_id(c, e)]) {
		return &c->entries[node_id(c, e)];
	}
	if (e->kind == CEL_AST_IDENT) {
		LocalVar *v = local_peek(c, e->ident.name);
		if (v != NULL && v->has_entry) {
			return &v->entry;
		}
	}
	return NULL;
}

/* computeExprSize: literal strings (code points), bytes, scalars, list and map literals. */
static gboolean
expr_size(const CelAst *e, CelCostRange *out)
{
	switch (e->kind) {
	case CEL_AST_CONST:
		switch (e->constant.kind) {
		case CEL_KIND_STRING:
			*out = range_fixed(cel_utf8_length(e->constant.str, e->constant.aux));
			return TRUE;
		case CEL_KIND_BYTES:
			*out = range_fixed(e->constant.aux);
			return TRUE;
		case CEL_KIND_BOOL:
		case CEL_KIND_DOUBLE:
		case CEL_KIND_DURATION:
		case CEL_KIND_INT:
		case CEL_KIND_TIMESTAMP:
		case CEL_KIND_UINT:
		case CEL_KIND_NULL:
			*out = range_fixed(1);
			return TRUE;
		default:
			return FALSE;
		}
	case CEL_AST_LIST:
		*out = range_fixed(e->list.n);
		return TRUE;
	case CEL_AST_MAP:
		*out = range_fixed(e->map.n);
		return TRUE;
	default:
		return FALSE;
	}
}

static gboolean
type_is_scalar(const CelType *t)
{
	if (t == NULL) {
		return FALSE;
	}
	switch (t->kind) {
	case CEL_TYPE_BOOL:
	case CEL_TYPE_DOUBLE:
	case CEL_TYPE_DURATION:
	case CEL_TYPE_INT:
	case CEL_TYPE_TIMESTAMP:
	case CEL_TYPE_UINT:
		return TRUE;
	case CEL_TYPE_OPTIONAL:
		return type_is_scalar(t->params[0]);
	default:
		return FALSE;
	}
}

/* The Kubernetes CostEstimator.EstimateSize: delegate to the environment's size estimator. */
static gboolean
estimate_size(Coster *c, CostPath path, CelCostRange *out)
{
	if (c->model->size == NULL || path.n == 0) {
		return FALSE;
	}
	if (strcmp(path.elems[0], ACCUMULATOR) == 0) {
		return FALSE;
	}
	return c->model->size(path.elems, path.n, out, c->model->size_data);
}

/* computeSize. */
static gboolean
compute_size(Coster *c, const CelAst *e, CelCostRange *out)
{
	guint id = node_id(c, e);
	if (c->has_size[id]) {
		*out = c->sizes[id];
		return TRUE;
	}
	if (expr_size(e, out)) {
		return TRUE;
	}
	if (estimate_size(c, get_path(c, e), out)) {
		c->has_size[id] = TRUE;
		c->sizes[id] = *out;
		return TRUE;
	}
	if (type_is_scalar(e->type)) {
		*out = range_fixed(1);
		return TRUE;
	}
	if (e->kind == CEL_AST_IDENT) {
		LocalVar *v = local_peek(c, e->ident.name);
		if (v != NULL && v->has_size) {
			*out = v->size;
			return TRUE;
		}
	}
	return FALSE;
}

static CelCostRange
size_or_unknown(Coster *c, const CelAst *e)
{
	CelCostRange r;
	return compute_size(c, e, &r) ? r : range_unknown;
}

static CostNode
make_node(Coster *c, const CelAst *e)
{
	CostNode n = { 0 };
	n.path = get_path(c, e);
	if (n.path.n > 0 && strcmp(n.path.elems[0], ACCUMULATOR) == 0) {
		n.path = (CostPath){ 0 };
	}
	n.type = e->type;
	n.expr = e;
	n.has_size = compute_size(c, e, &n.size);
	return n;
}

static CelCostRange
node_size_or_unknown(const CostNode *n)
{
	return n->has_size ? n->size : range_unknown;
}

/* The Kubernetes estimator's sizeEstimate(): computed size, then the size estimator. */
static CelCostRange
k8s_size(Coster *c, const CostNode *n)
{
	CelCostRange r;
	if (n->has_size) {
		return n->size;
	}
	if (estimate_size(c, n->path, &r)) {
		return r;
	}
	return range_unknown;
}

static gboolean
type_kind_is(const CelType *t, CelTypeKind k)
{
	return t != NULL && t->kind == k;
}

/* ---- per-call estimates ---- */

typedef struct {
	CelCostRange cost;
	gboolean has_result_size;
	CelCostRange result_size;
} CallEstimate;

static gboolean
k8s_call_estimate(Coster *c,
                  const char *fn,
                  const char *id,
                  const CostNode *target,
                  const CostNode *args,
                  guint nargs,
                  CallEstimate *out)
{
	memset(out, 0, sizeof *out);
	if (c->model->dra_includes && strcmp(fn, "includes") == 0 &&
	    strcmp(id, "dra_includes_dyn_dyn") == 0 && target != NULL) {
		out->cost = range_mul((CelCostRange){ 0, DRA_MAX_LIST }, range_fixed(1));
		return TRUE;
	}
	if (g_strv_contains((const char *const[]){ "isSorted", "sum", "max", "min", "indexOf",
	                                           "lastIndexOf", NULL },
	                    fn)) {
		if (target == NULL) {
			return FALSE;
		}
		const CelType *t = target->type;
		if (t != NULL && t->nparams > 0 && t->kind == CEL_TYPE_LIST) {
			CelCostRange el = range_fixed(1);
			const CelType *et = t->params[0];
			if (et != NULL &&
			    (et->kind == CEL_TYPE_STRING || et->kind == CEL_TYPE_BYTES)) {
				CostNode item = { 0 };
				item.path = target->path.n > 0
				                    ? path_append(c, target->path, "@items")
				                    : (CostPath){ 0 };
				item.type = et;
				el = range_add(el,
				               range_factor(k8s_size(c, &item), STRING_TRAVERSAL));
			}
			out->cost = range_mul(k8s_size(c, target), el);
		} else {
			out->cost = range_factor(k8s_size(c, target), STRING_TRAVERSAL);
		}
		return TRUE;
	}
	if (strcmp(fn, "url") == 0) {
		if (nargs == 1) {
			out->cost = range_factor(k8s_size(c, &args[0]), STRING_TRAVERSAL);
			return TRUE;
		}
		return FALSE;
	}
	if (g_strv_contains(
	            (const char *const[]){ "lowerAscii", "upperAscii", "substring", "trim", NULL },
	            fn)) {
		if (target == NULL) {
			return FALSE;
		}
		CelCostRange sz = k8s_size(c, target);
		out->cost = range_factor(sz, STRING_TRAVERSAL);
		out->has_result_size = TRUE;
		out->result_size = sz;
		return TRUE;
	}
	if (strcmp(fn, "replace") == 0) {
		if (target == NULL || nargs < 2) {
			return FALSE;
		}
		CelCostRange sz = k8s_size(c, target);
		CelCostRange to_replace = k8s_size(c, &args[0]);
		CelCostRange replace_with = k8s_size(c, &args[1]);
		CelCostRange count = { 0, 0 }, retained = { 0, 0 };
		if (to_replace.min == 0) {
			count.max = sz.max < G_MAXUINT64 ? sz.max + 1 : sz.max;
			retained.max = sz.max;
		} else if (replace_with.max <= to_replace.min) {
			count.max = 0;
			retained.max = sz.max;
		} else {
			count.max = (guint64)ceil((double)sz.max / (double)to_replace.min);
		}
		if (to_replace.max == 0) {
			count.min = sz.min < G_MAXUINT64 ? sz.min + 1 : sz.min;
			retained.min = sz.min;
		} else if (to_replace.max <= replace_with.min) {
			count.min = 0;
			retained.min = sz.min;
		} else {
			count.min = (guint64)ceil((double)sz.min / (double)to_replace.max);
		}
		out->cost = range_factor(sz, 2 * STRING_TRAVERSAL);
		out->has_result_size = TRUE;
		out->result_size = range_add(range_mul(count, replace_with), retained);
		return TRUE;
	}
	if (strcmp(fn, "split") == 0) {
		if (target == NULL) {
			return FALSE;
		}
		CelCostRange sz = k8s_size(c, target);
		guint64 max = sz.max;
		if (nargs > 1) {
			const CelAst *lit = args[1].expr;
			if (lit->kind == CEL_AST_CONST && lit->constant.kind == CEL_KIND_INT) {
				max = (guint64)lit->constant.i;
			} else if (lit->kind == CEL_AST_CONST &&
			           lit->constant.kind == CEL_KIND_UINT) {
				max = lit->constant.u;
			}
		}
		out->cost = range_factor(sz, 2 * STRING_TRAVERSAL);
		out->has_result_size = TRUE;
		out->result_size = (CelCostRange){ 0, max };
		return TRUE;
	}
	if (strcmp(fn, "join") == 0) {
		if (target == NULL) {
			return FALSE;
		}
		CelCostRange sz = { 0, 0 };
		CelCostRange list = k8s_size(c, target);
		const CelType *t = target->type;
		if (t != NULL && t->kind == CEL_TYPE_LIST && t->nparams > 0) {
			CostNode item = { 0 };
			item.path = target->path.n > 0 ? path_append(c, target->path, "@items")
			                               : (CostPath){ 0 };
			item.type = t->params[0];
			sz = range_mul(list, k8s_size(c, &item));
		}
		if (nargs > 0) {
			CelCostRange sep = k8s_size(c, &args[0]);
			CelCostRange seps = { list.min > 0 ? list.min - 1 : 0,
				              list.max > 0 ? list.max - 1 : 0 };
			sz = range_add(sz, range_mul(sep, seps));
		}
		out->cost = range_factor(sz, STRING_TRAVERSAL);
		out->has_result_size = TRUE;
		out->result_size = sz;
		return TRUE;
	}
	if (strcmp(fn, "find") == 0 || strcmp(fn, "findAll") == 0) {
		if (target == NULL || nargs < 1) {
			return FALSE;
		}
		CelCostRange sz = k8s_size(c, target);
		CelCostRange str = range_factor(range_add(sz, range_fixed(1)), STRING_TRAVERSAL);
		CelCostRange re = range_factor(k8s_size(c, &args[0]), REGEX_LENGTH);
		out->cost = range_mul(str, re);
		out->has_result_size = TRUE;
		out->result_size = (CelCostRange){ 0, sz.max };
		return TRUE;
	}
	if (strcmp(fn, "quantity") == 0 || strcmp(fn, "isQuantity") == 0) {
		/* Upstream tests `target != nil` for these global functions, so this never fires.
		 */
		if (target == NULL || nargs < 1) {
			return FALSE;
		}
		out->cost = range_factor(k8s_size(c, &args[0]), STRING_TRAVERSAL);
		return TRUE;
	}
	if (g_strv_contains((const char *const[]){ "sign", "asInteger", "isInteger",
	                                           "asApproximateFloat", "isGreaterThan",
	                                           "isLessThan", "compareTo", "add", "sub", NULL },
	                    fn)) {
		out->cost = range_fixed(1);
		return TRUE;
	}
	return FALSE;
}

/* cel-go's overload ids for the operators whose cost is not 1, from the kept overload. */
static const char *
go_overload_id(const CelAst *e,
               const CelOverloadDecl *decl,
               const CelType *const *argt,
               guint nargt)
{
	const char *fn = e->call.function;
	const CelType *p0 =
	        decl != NULL && decl->nparams > 0 ? decl->params[0] : (nargt > 0 ? argt[0] : NULL);
	const CelType *p1 =
	        decl != NULL && decl->nparams > 1 ? decl->params[1] : (nargt > 1 ? argt[1] : NULL);

	if (strcmp(fn, "_==_") == 0) {
		return "equals";
	}
	if (strcmp(fn, "_!=_") == 0) {
		return "not_equals";
	}
	if (strcmp(fn, "_&&_") == 0) {
		return "logical_and";
	}
	if (strcmp(fn, "_||_") == 0) {
		return "logical_or";
	}
	if (strcmp(fn, "_?_:_") == 0) {
		return "conditional";
	}
	if (strcmp(fn, "_<_") == 0 || strcmp(fn, "_>_") == 0 || strcmp(fn, "_<=_") == 0 ||
	    strcmp(fn, "_>=_") == 0) {
		if (type_kind_is(p0, CEL_TYPE_STRING) || type_kind_is(p0, CEL_TYPE_BYTES)) {
			return "compare_string";
		}
	}
	if (strcmp(fn, "_+_") == 0) {
		if (type_kind_is(p0, CEL_TYPE_STRING)) {
			return "add_string";
		}
		if (type_kind_is(p0, CEL_TYPE_BYTES)) {
			return "add_bytes";
		}
		if (type_kind_is(p0, CEL_TYPE_LIST)) {
			return "add_list";
		}
	}
	if (strcmp(fn, "@in") == 0 && type_kind_is(p1, CEL_TYPE_LIST)) {
		return "in_list";
	}
	if (strcmp(fn, "_[_]") == 0) {
		if (type_kind_is(p0, CEL_TYPE_LIST)) {
			return "index_list";
		}
		if (type_kind_is(p0, CEL_TYPE_MAP)) {
			return "index_map";
		}
	}
	if (e->call.target != NULL) {
		if (strcmp(fn, "startsWith") == 0) {
			return "starts_with_string";
		}
		if (strcmp(fn, "endsWith") == 0) {
			return "ends_with_string";
		}
		if (strcmp(fn, "contains") == 0 && type_kind_is(p0, CEL_TYPE_STRING)) {
			return "contains_string";
		}
		if (strcmp(fn, "matches") == 0) {
			return "matches_string";
		}
		if (strcmp(fn, "format") == 0 && type_kind_is(p0, CEL_TYPE_STRING)) {
			return "string_format";
		}
	} else {
		if (strcmp(fn, "matches") == 0) {
			return "matches_string";
		}
		if (strcmp(fn, "bytes") == 0 && type_kind_is(p0, CEL_TYPE_STRING)) {
			return "string_to_bytes";
		}
		if (strcmp(fn, "string") == 0 && type_kind_is(p0, CEL_TYPE_BYTES)) {
			return "bytes_to_string";
		}
		if (strcmp(fn, "strings.quote") == 0) {
			return "strings_quote";
		}
	}
	return decl != NULL ? decl->def->id : fn;
}

static CallEstimate
function_cost(Coster *c,
              const CelAst *e,
              const char *fn,
              const char *id,
              const CostNode *target,
              const CostNode *args,
              guint nargs,
              const CelCostRange *arg_costs)
{
	CallEstimate est = { 0 };
	CelCostRange argsum = { 0, 0 };
	for (guint i = 0; i < nargs; i++) {
		argsum = range_add(argsum, arg_costs[i]);
	}

	/* ext.Sets registers per-overload estimators: size(a) * size(b) + 1. */
	if (strcmp(id, "list_sets_contains_list") == 0 ||
	    strcmp(id, "list_sets_equivalent_list") == 0 ||
	    strcmp(id, "list_sets_intersects_list") == 0) {
		if (nargs == 2) {
			CelCostRange s = range_mul(k8s_size(c, &args[0]), k8s_size(c, &args[1]));
			est.cost = range_add(range_add(range_factor(s, 1), range_fixed(1)), argsum);
			return est;
		}
	}
	if (k8s_call_estimate(c, fn, id, target, args, nargs, &est)) {
		est.cost = range_add(est.cost, argsum);
		return est;
	}
	if (strcmp(id, "string_format") == 0 && target != NULL && nargs > 0) {
		CelCostRange t = node_size_or_unknown(target);
		CelCostRange a = node_size_or_unknown(&args[0]);
		est.cost = range_add(range_factor(t, STRING_TRAVERSAL), argsum);
		est.has_result_size = TRUE;
		est.result_size = range_add(t, a);
		return est;
	}
	if (strcmp(id, "string_to_bytes") == 0 && nargs == 1) {
		CelCostRange sz = node_size_or_unknown(&args[0]);
		est.cost = range_add(range_factor(sz, STRING_TRAVERSAL), argsum);
		est.has_result_size = TRUE;
		est.result_size = (CelCostRange){ sz.min, mul_sat(sz.max, 4) };
		return est;
	}
	if (strcmp(id, "bytes_to_string") == 0 && nargs == 1) {
		CelCostRange sz = node_size_or_unknown(&args[0]);
		est.cost = range_add(range_factor(sz, STRING_TRAVERSAL), argsum);
		est.has_result_size = TRUE;
		est.result_size = (CelCostRange){ sz.min / 4, sz.max };
		return est;
	}
	if (strcmp(id, "strings_quote") == 0 && nargs == 1) {
		CelCostRange sz = node_size_or_unknown(&args[0]);
		est.cost = range_add(range_factor(sz, STRING_TRAVERSAL), argsum);
		est.has_result_size = TRUE;
		est.result_size = (CelCostRange){ sz.min + 2, add_sat(mul_sat(sz.max, 2), 2) };
		return est;
	}
	if ((strcmp(id, "starts_with_string") == 0 || strcmp(id, "ends_with_string") == 0) &&
	    nargs == 1) {
		est.cost = range_add(range_factor(node_size_or_unknown(&args[0]), STRING_TRAVERSAL),
		                     argsum);
		return est;
	}
	if (strcmp(id, "in_list") == 0 && nargs == 2) {
		est.cost = range_add(range_factor(node_size_or_unknown(&args[1]), 1), argsum);
		return est;
	}
	if (strcmp(id, "matches_string") == 0 && target != NULL && nargs == 1) {
		CelCostRange str = range_factor(
		        range_add(node_size_or_unknown(target), range_fixed(1)), STRING_TRAVERSAL);
		CelCostRange re = range_factor(node_size_or_unknown(&args[0]), REGEX_LENGTH);
		est.cost = range_add(range_mul(str, re), argsum);
		return est;
	}
	if (strcmp(id, "contains_string") == 0 && target != NULL && nargs == 1) {
		CelCostRange str = range_factor(node_size_or_unknown(target), STRING_TRAVERSAL);
		CelCostRange sub = range_factor(node_size_or_unknown(&args[0]), STRING_TRAVERSAL);
		est.cost = range_add(range_mul(str, sub), argsum);
		return est;
	}
	if (strcmp(id, "logical_and") == 0 || strcmp(id, "logical_or") == 0) {
		est.cost = (CelCostRange){ arg_costs[0].min,
			                   range_add(arg_costs[0], arg_costs[1]).max };
		return est;
	}
	if (strcmp(id, "conditional") == 0 && nargs == 3) {
		const EntrySize *t = entry_size(c, args[1].expr);
		const EntrySize *f = entry_size(c, args[2].expr);
		if (t != NULL && f != NULL) {
			EntrySize u = { t->container, range_union(t->key, f->key),
				        range_union(t->val, f->val) };
			set_entry(c, e, &u);
		}
		est.cost = range_add(arg_costs[0], range_union(arg_costs[1], arg_costs[2]));
		est.has_result_size = TRUE;
		est.result_size =
		        range_union(node_size_or_unknown(&args[1]), node_size_or_unknown(&args[2]));
		return est;
	}
	if ((strcmp(id, "add_string") == 0 || strcmp(id, "add_bytes") == 0 ||
	     strcmp(id, "add_list") == 0) &&
	    nargs == 2) {
		CelCostRange size =
		        range_add(node_size_or_unknown(&args[0]), node_size_or_unknown(&args[1]));
		const EntrySize *l = entry_size(c, args[0].expr);
		const EntrySize *r = entry_size(c, args[1].expr);
		if (l != NULL && r != NULL) {
			EntrySize u = { l->container, range_union(l->key, r->key),
				        range_union(l->val, r->val) };
			set_entry(c, e, &u);
		}
		est.has_result_size = TRUE;
		est.result_size = size;
		if (strcmp(id, "add_list") == 0) {
			est.cost = range_add(range_fixed(1), argsum);
		} else {
			est.cost = range_add(range_factor(size, STRING_TRAVERSAL), argsum);
		}
		return est;
	}
	if ((strcmp(id, "compare_string") == 0 || strcmp(id, "equals") == 0 ||
	     strcmp(id, "not_equals") == 0) &&
	    nargs == 2) {
		CelCostRange l = node_size_or_unknown(&args[0]);
		CelCostRange r = node_size_or_unknown(&args[1]);
		guint64 smallest = MIN(l.max, r.max);
		CelCostRange cr = { smallest > 0 ? 1 : 0, smallest };
		est.cost = range_add(range_factor(cr, STRING_TRAVERSAL), argsum);
		return est;
	}
	est.cost = range_add(range_fixed(1), argsum);
	return est;
}

static CelCostRange
cost_call(Coster *c, const CelAst *e)
{
	const char *fn = e->call.function;
	guint nargs = e->call.nargs;

	if (strcmp(fn, "dyn") == 0 && nargs == 1 && e->call.target == NULL) {
		CelCostRange ac = cost_of(c, e->call.args[0]);
		CelCostRange sz;
		if (compute_size(c, e->call.args[0], &sz)) {
			set_size(c, e, &sz);
		}
		set_entry(c, e, entry_size(c, e->call.args[0]));
		return range_add(range_fixed(1), ac);
	}

	CostNode *args = g_newa(CostNode, MAX(nargs, 1));
	CelCostRange *arg_costs = g_newa(CelCostRange, MAX(nargs, 1));
	const CelType **argt = g_newa(const CelType *, MAX(nargs + 1, 1));
	guint nargt = 0;
	for (guint i = 0; i < nargs; i++) {
		arg_costs[i] = cost_of(c, e->call.args[i]);
		args[i] = make_node(c, e->call.args[i]);
	}

	/* The overloads the checker kept (or, for specials, the ones cel-go would). */
	guint n = e->call.noverloads;
	gboolean special = e->call.special != CEL_SPECIAL_NONE;
	if (n == 0 && !special) {
		return (CelCostRange){ 0, 0 };
	}

	CelCostRange sum = { 0, 0 };
	CostNode target_node;
	const CostNode *target = NULL;
	if (e->call.target != NULL) {
		sum = range_add(sum, cost_of(c, e->call.target));
		target_node = make_node(c, e->call.target);
		target = &target_node;
		argt[nargt++] = e->call.target->type;
	}
	for (guint i = 0; i < nargs; i++) {
		argt[nargt++] = e->call.args[i]->type;
	}

	CelCostRange fn_cost = { G_MAXUINT64, 0 };
	gboolean has_result = FALSE;
	CelCostRange result = { 0, 0 };
	guint rounds = MAX(n, 1);
	for (guint k = 0; k < rounds; k++) {
		const CelOverloadDecl *decl = n > 0 ? e->call.overloads[k] : NULL;
		const char *id = go_overload_id(e, decl, argt, nargt);
		/* An index on a dyn operand keeps both index overloads in cel-go. */
		if (decl == NULL && strcmp(fn, "_[_]") == 0 && strcmp(id, "_[_]") == 0) {
			id = k == 0 ? "index_list" : "index_map";
			rounds = 2;
		}
		CallEstimate est = function_cost(c, e, fn, id, target, args, nargs, arg_costs);
		fn_cost = range_union(fn_cost, est.cost);
		if (est.has_result_size) {
			result =
			        has_result ? range_union(result, est.result_size) : est.result_size;
			has_result = TRUE;
		}
		if ((strcmp(id, "index_list") == 0 || strcmp(id, "index_map") == 0) && nargs > 0) {
			const EntrySize *es = entry_size(c, e->call.args[0]);
			has_result = es != NULL;
			if (es != NULL) {
				result = es->val;
			}
			set_path(c, e,
			         path_append(c, get_path(c, e->call.args[0]),
			                     strcmp(id, "index_list") == 0 ? "@items" : "@values"));
		}
		if (!has_result) {
			has_result = compute_size(c, e, &result);
		}
	}
	if (has_result) {
		set_size(c, e, &result);
	}
	return range_add(sum, fn_cost);
}

static CelCostRange
cost_select(Coster *c, const CelAst *e)
{
	CelCostRange sum = { 0, 0 };
	if (e->select.test_only) {
		/* Kubernetes: PresenceTestHasCost(false). */
		return cost_of(c, e->select.operand);
	}
	sum = cost_of(c, e->select.operand);
	const CelType *t = e->select.operand->type;
	if (t != NULL &&
	    (t->kind == CEL_TYPE_MAP || t->kind == CEL_TYPE_OBJECT || t->kind == CEL_TYPE_PARAM)) {
		sum = range_add(sum, range_fixed(1));
	}
	set_path(c, e, path_append(c, get_path(c, e->select.operand), e->select.field));
	return sum;
}

static LocalVar *
new_local(Coster *c, CostPath path)
{
	LocalVar *v = cel_arena_alloc(&c->arena, sizeof *v);
	v->path = path;
	return v;
}

static void
push_local_var(Coster *c, const char *name, const CelAst *init)
{
	LocalVar *v = new_local(c, get_path(c, init));
	v->has_size = compute_size(c, init, &v->size);
	const EntrySize *es = entry_size(c, init);
	if (es != NULL) {
		v->has_entry = TRUE;
		v->entry = *es;
	}
	local_push(c, name, v);
}

/* pushIterSingle / pushIterKey / pushIterValue. */
static void
push_iter(Coster *c,
          const char *name,
          const CelAst *range,
          int which /* 0 single, 1 key, 2 value */)
{
	const EntrySize *es = entry_size(c, range);
	CelTypeKind container = es != NULL
	                                ? es->container
	                                : (range->type != NULL ? range->type->kind : CEL_TYPE_DYN);
	gboolean is_list = container == CEL_TYPE_LIST;
	const char *sub;
	gboolean has_size = FALSE;
	CelCostRange size = { 0, 0 };

	if (which == 0) {
		sub = is_list ? "@items" : "@keys";
		if (es != NULL) {
			has_size = TRUE;
			size = is_list ? es->val : es->key;
		}
	} else if (which == 1) {
		sub = is_list ? "@indices" : "@keys";
		if (es != NULL) {
			has_size = TRUE;
			size = es->key;
		}
	} else {
		sub = is_list ? "@items" : "@values";
		if (es != NULL) {
			has_size = TRUE;
			size = es->val;
		}
	}
	LocalVar *v = new_local(c, path_append(c, get_path(c, range), sub));
	v->has_size = has_size;
	v->size = size;
	local_push(c, name, v);
}

static gboolean
is_bind(const CelAst *e)
{
	const CelAst *range = unwrap(e->comp.iter_range);
	const CelAst *cond = unwrap(e->comp.loop_cond);
	return range->kind == CEL_AST_LIST && range->list.n == 0 && cond->kind == CEL_AST_CONST &&
	       cond->constant.kind == CEL_KIND_BOOL && !cond->constant.b &&
	       strcmp(e->comp.accu_var, ACCUMULATOR) != 0;
}

static CelCostRange
cost_comprehension(Coster *c, const CelAst *e)
{
	CelCostRange sum = { 0, 0 };

	if (is_bind(e)) {
		sum = range_add(sum, cost_of(c, e->comp.iter_range));
		sum = range_add(sum, cost_of(c, e->comp.accu_init));
		push_local_var(c, e->comp.accu_var, e->comp.accu_init);
		sum = range_add(sum, cost_of(c, e->comp.result));
		local_pop(c, e->comp.accu_var);
		CelCostRange sz;
		if (compute_size(c, e->comp.result, &sz)) {
			set_size(c, e, &sz);
		}
		set_entry(c, e, entry_size(c, e->comp.result));
		return sum;
	}

	sum = range_add(sum, cost_of(c, e->comp.iter_range));
	sum = range_add(sum, cost_of(c, e->comp.accu_init));
	push_local_var(c, e->comp.accu_var, e->comp.accu_init);
	if (e->comp.iter_var2 != NULL) {
		push_iter(c, e->comp.iter_var, e->comp.iter_range, 1);
		push_iter(c, e->comp.iter_var2, e->comp.iter_range, 2);
	} else {
		push_iter(c, e->comp.iter_var, e->comp.iter_range, 0);
	}
	CelCostRange loop = cost_of(c, e->comp.loop_cond);
	CelCostRange step = cost_of(c, e->comp.loop_step);
	local_pop(c, e->comp.iter_var);
	if (e->comp.iter_var2 != NULL) {
		local_pop(c, e->comp.iter_var2);
	}
	sum = range_add(sum, cost_of(c, e->comp.result));
	local_pop(c, e->comp.accu_var);

	CelCostRange count = size_or_unknown(c, e->comp.iter_range);
	sum = range_add(sum, range_mul(count, range_add(step, loop)));

	const CelAst *init = unwrap(e->comp.accu_init);
	if (init->kind == CEL_AST_CONST) {
		CelCostRange sz;
		if (compute_size(c, e->comp.accu_init, &sz)) {
			set_size(c, e, &sz);
		}
	} else if (init->kind == CEL_AST_LIST || init->kind == CEL_AST_MAP) {
		set_size(c, e, &count);
		set_entry(c, e, entry_size(c, e->comp.loop_step));
	}
	return sum;
}

static CelCostRange
cost_of(Coster *c, const CelAst *e)
{
	CelCostRange sum = { 0, 0 };
	if (e == NULL) {
		return sum;
	}
	e = unwrap(e);
	switch (e->kind) {
	case CEL_AST_CONST:
		return sum;
	case CEL_AST_IDENT: {
		LocalVar *v = local_peek(c, e->ident.name);
		if (v != NULL) {
			set_path(c, e, v->path);
		} else {
			const char **elem = cel_arena_alloc(&c->arena, sizeof(char *));
			elem[0] = e->ident.name;
			set_path(c, e, (CostPath){ elem, 1 });
		}
		return range_fixed(1);
	}
	case CEL_AST_SELECT:
		return cost_select(c, e);
	case CEL_AST_CALL:
		return cost_call(c, e);
	case CEL_AST_LIST: {
		CelCostRange item = { e->list.n == 0 ? 0 : G_MAXUINT64, 0 };
		for (guint i = 0; i < e->list.n; i++) {
			sum = range_add(sum, cost_of(c, e->list.elems[i]));
			item = range_union(item, size_or_unknown(c, e->list.elems[i]));
		}
		EntrySize es = { CEL_TYPE_LIST, range_fixed(1), item };
		set_entry(c, e, &es);
		return range_add(sum, range_fixed(LIST_CREATE));
	}
	case CEL_AST_MAP: {
		CelCostRange key = { e->map.n == 0 ? 0 : G_MAXUINT64, 0 };
		CelCostRange val = key;
		for (guint i = 0; i < e->map.n; i++) {
			sum = range_add(sum, cost_of(c, e->map.keys[i]));
			sum = range_add(sum, cost_of(c, e->map.values[i]));
			key = range_union(key, size_or_unknown(c, e->map.keys[i]));
			val = range_union(val, size_or_unknown(c, e->map.values[i]));
		}
		EntrySize es = { CEL_TYPE_MAP, key, val };
		set_entry(c, e, &es);
		return range_add(sum, range_fixed(MAP_CREATE));
	}
	case CEL_AST_STRUCT:
		for (guint i = 0; i < e->strukt.n; i++) {
			sum = range_add(sum, cost_of(c, e->strukt.values[i]));
		}
		return range_add(sum, range_fixed(STRUCT_CREATE));
	case CEL_AST_COMPREHENSION:
		return cost_comprehension(c, e);
	default:
		return sum;
	}
}

static void
stack_free(gpointer p)
{
	g_ptr_array_unref(p);
}

CelCostRange
cel_cost_estimate(const CelAst *root, guint max_id, const CelCostModel *model)
{
	Coster c = { 0 };
	guint n = max_id + 1;

	c.max_id = max_id;
	c.model = model;
	c.paths = g_new0(CostPath, n);
	c.has_size = g_new0(gboolean, n);
	c.sizes = g_new0(CelCostRange, n);
	c.has_entry = g_new0(gboolean, n);
	c.entries = g_new0(EntrySize, n);
	c.locals = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, stack_free);
	cel_arena_init(&c.arena, 4096);

	CelCostRange r = cost_of(&c, root);

	cel_arena_clear(&c.arena);
	g_hash_table_unref(c.locals);
	g_free(c.paths);
	g_free(c.has_size);
	g_free(c.sizes);
	g_free(c.has_entry);
	g_free(c.entries);
	return r;
}

/* ---- runtime ---- */

guint64
cel_cost_actual_size(CelValue v)
{
	switch (v.kind) {
	case CEL_KIND_STRING:
		return cel_utf8_length(v.str, v.aux);
	case CEL_KIND_BYTES:
		return v.aux;
	case CEL_KIND_LIST:
		return v.list->len;
	case CEL_KIND_MAP:
		return v.map->len;
	default:
		return 1;
	}
}

/* library.traversalCost: truncating, not rounding up. */
static guint64
traversal_cost(CelValue v, CelActivation *act)
{
	switch (v.kind) {
	case CEL_KIND_STRING:
	case CEL_KIND_BYTES:
		return (guint64)((double)v.aux * STRING_TRAVERSAL);
	case CEL_KIND_LIST: {
		guint64 cost = 0;
		for (guint i = 0; i < v.list->len; i++) {
			cost += traversal_cost(cel_list_get(v.list, i, act), act);
		}
		return cost;
	}
	case CEL_KIND_MAP: {
		guint64 cost = 0;
		for (guint i = 0; i < v.map->len; i++) {
			CelValue key, val;
			cel_map_entry(v.map, i, &key, &val, act);
			cost += traversal_cost(key, act) + traversal_cost(val, act);
		}
		return cost;
	}
	default:
		return 1;
	}
}

/* How a call is charged at run time; resolved once per function name (interned pointer). */
typedef enum {
	RT_ONE = 0,     /* O(1): 1 */
	RT_TRAVERSAL,   /* lists library: traversalCost(args[0]) */
	RT_STR_ARG0,    /* ceil(size(args[0]) * 0.1) */
	RT_STR_ARG0_X2, /* replace, split: ceil(size(args[0]) * 0.2) */
	RT_JOIN,        /* ceil(size(result) * 0.2) */
	RT_REGEX,       /* ceil((1 + size(text)) * 0.1) * ceil(size(pattern) * 0.25) */
	RT_SETS,        /* 1 + size(a) * size(b) */
	RT_CONVERT,     /* bytes(string), string(bytes), strings.quote: ceil(size(args[0]) * 0.1) */
	RT_PREFIX,      /* startsWith, endsWith: ceil(size(args[1]) * 0.1) */
	RT_IN,          /* x in list: size(list) */
	RT_CONTAINS,    /* ceil(size(a) * 0.1) * ceil(size(b) * 0.1) */
	RT_ADD,         /* string/bytes +: ceil((size(a) + size(b)) * 0.1) */
	RT_RELATIONAL,  /* string/bytes < <= > >=: ceil(min size * 0.1) */
	RT_EQUALITY,    /* == !=: ceil(min size * 0.1) */
	RT_IP,          /* ip(string): ceil(size * 0.1); cidr.ip(): 1 */
	RT_CONTAINS_IP, /* 1, plus parsing a string operand */
	RT_CONTAINS_CIDR, /* 3, plus parsing a string operand */
} RuntimeClass;

static const struct {
	const char *name;
	RuntimeClass rc;
} runtime_classes[] = {
	{ "isSorted", RT_TRAVERSAL },
	{ "sum", RT_TRAVERSAL },
	{ "max", RT_TRAVERSAL },
	{ "min", RT_TRAVERSAL },
	{ "indexOf", RT_TRAVERSAL },
	{ "lastIndexOf", RT_TRAVERSAL },
	{ "url", RT_STR_ARG0 },
	{ "lowerAscii", RT_STR_ARG0 },
	{ "upperAscii", RT_STR_ARG0 },
	{ "substring", RT_STR_ARG0 },
	{ "trim", RT_STR_ARG0 },
	{ "quantity", RT_STR_ARG0 },
	{ "isQuantity", RT_STR_ARG0 },
	{ "replace", RT_STR_ARG0_X2 },
	{ "split", RT_STR_ARG0_X2 },
	{ "join", RT_JOIN },
	{ "find", RT_REGEX },
	{ "findAll", RT_REGEX },
	{ "matches", RT_REGEX },
	{ "sets.contains", RT_SETS },
	{ "sets.equivalent", RT_SETS },
	{ "sets.intersects", RT_SETS },
	{ "bytes", RT_CONVERT },
	{ "string", RT_CONVERT },
	{ "strings.quote", RT_CONVERT },
	{ "startsWith", RT_PREFIX },
	{ "endsWith", RT_PREFIX },
	{ "@in", RT_IN },
	{ "contains", RT_CONTAINS },
	{ "_+_", RT_ADD },
	{ "_<_", RT_RELATIONAL },
	{ "_<=_", RT_RELATIONAL },
	{ "_>_", RT_RELATIONAL },
	{ "_>=_", RT_RELATIONAL },
	{ "_==_", RT_EQUALITY },
	{ "_!=_", RT_EQUALITY },
	{ "cidr", RT_STR_ARG0 },
	{ "isIP", RT_STR_ARG0 },
	{ "isCIDR", RT_STR_ARG0 },
	{ "ip", RT_IP },
	{ "ip.isCanonical", RT_STR_ARG0_X2 },
	{ "containsIP", RT_CONTAINS_IP },
	{ "containsCIDR", RT_CONTAINS_CIDR },
};

#define RT_SLOTS 128 /* open addressing on the interned name pointer */

static const char *rt_keys[RT_SLOTS];
static RuntimeClass rt_values[RT_SLOTS];

static guint
rt_slot(const char *name)
{
	return (guint)(((guintptr)name >> 3) * 2654435761u) % RT_SLOTS;
}

static void
rt_init(void)
{
	static gsize done;
	if (!g_once_init_enter(&done)) {
		return;
	}
	for (guint i = 0; i < G_N_ELEMENTS(runtime_classes); i++) {
		const char *key = g_intern_static_string(runtime_classes[i].name);
		guint s = rt_slot(key);
		while (rt_keys[s] != NULL) {
			s = (s + 1) % RT_SLOTS;
		}
		rt_keys[s] = key;
		rt_values[s] = runtime_classes[i].rc;
	}
	g_once_init_leave(&done, 1);
}

/* The class of interned function name @fn (RT_ONE when it has none). */
static RuntimeClass
rt_class(const char *fn)
{
	for (guint s = rt_slot(fn);; s = (s + 1) % RT_SLOTS) {
		if (rt_keys[s] == fn) {
			return rt_values[s];
		}
		if (rt_keys[s] == NULL) {
			return RT_ONE;
		}
	}
}

static gboolean
is_text(CelValue v)
{
	return v.kind == CEL_KIND_STRING || v.kind == CEL_KIND_BYTES;
}

/* library.CostEstimator.CallCost, then cel-go's CostTracker.costCall. */
static guint64
call_cost(CelActivation *act, const CelAst *e, const CelValue *args, guint nargs, CelValue result)
{
	switch (rt_class(e->call.function)) {
	case RT_TRAVERSAL:
		return nargs > 0 ? traversal_cost(args[0], act) : 0;
	case RT_STR_ARG0:
		return nargs > 0 ? cel_cost_ceil(cel_cost_actual_size(args[0]), STRING_TRAVERSAL)
		                 : 1;
	case RT_STR_ARG0_X2:
		return nargs > 0
		               ? cel_cost_ceil(cel_cost_actual_size(args[0]), 2 * STRING_TRAVERSAL)
		               : 1;
	case RT_JOIN:
		return cel_cost_ceil(cel_cost_actual_size(result), 2 * STRING_TRAVERSAL);
	case RT_REGEX:
		if (nargs < 2) {
			return 1;
		}
		return cel_cost_ceil(1 + cel_cost_actual_size(args[0]), STRING_TRAVERSAL) *
		       cel_cost_ceil(cel_cost_actual_size(args[1]), REGEX_LENGTH);
	case RT_SETS:
		return nargs == 2
		               ? 1 + cel_cost_actual_size(args[0]) * cel_cost_actual_size(args[1])
		               : 1;
	case RT_CONVERT:
		if (nargs == 1 && is_text(args[0])) {
			return cel_cost_ceil(cel_cost_actual_size(args[0]), STRING_TRAVERSAL);
		}
		return 1;
	case RT_PREFIX:
		return nargs == 2 ? cel_cost_ceil(cel_cost_actual_size(args[1]), STRING_TRAVERSAL)
		                  : 1;
	case RT_IN:
		return nargs == 2 && args[1].kind == CEL_KIND_LIST ? cel_cost_actual_size(args[1])
		                                                   : 1;
	case RT_CONTAINS:
		if (nargs == 2 && args[0].kind == CEL_KIND_STRING) {
			return cel_cost_ceil(cel_cost_actual_size(args[0]), STRING_TRAVERSAL) *
			       cel_cost_ceil(cel_cost_actual_size(args[1]), STRING_TRAVERSAL);
		}
		return 1;
	case RT_ADD:
		if (nargs == 2 && is_text(args[0])) {
			return cel_cost_ceil(cel_cost_actual_size(args[0]) +
			                             cel_cost_actual_size(args[1]),
			                     STRING_TRAVERSAL);
		}
		return 1;
	case RT_RELATIONAL:
		if (nargs != 2 || !is_text(args[0])) {
			return 1;
		}
		/* fall through */
	case RT_EQUALITY:
		if (nargs != 2) {
			return 1;
		}
		return cel_cost_ceil(
		        MIN(cel_cost_actual_size(args[0]), cel_cost_actual_size(args[1])),
		        STRING_TRAVERSAL);
	case RT_IP:
		return nargs == 1 && args[0].kind == CEL_KIND_STRING
		               ? cel_cost_ceil(cel_cost_actual_size(args[0]), STRING_TRAVERSAL)
		               : 1;
	case RT_CONTAINS_IP:
	case RT_CONTAINS_CIDR: {
		guint64 cost = rt_class(e->call.function) == RT_CONTAINS_IP ? 1 : 3;
		if (nargs == 2 && args[1].kind == CEL_KIND_STRING) {
			cost += cel_cost_ceil(cel_cost_actual_size(args[1]), STRING_TRAVERSAL);
		}
		return cost;
	}
	case RT_ONE:
	default:
		return 1;
	}
}

void
cel_cost_observe(CelActivation *act,
                 const CelAst *node,
                 const CelValue *args,
                 guint nargs,
                 CelValue result,
                 gpointer data)
{
	switch (node->kind) {
	case CEL_AST_IDENT:
		act->cost += 1;
		break;
	case CEL_AST_SELECT:
		/* has() costs nothing: PresenceTestHasCost(false). */
		act->cost += node->select.test_only ? 0 : 1;
		break;
	case CEL_AST_CALL:
		switch (node->call.special) {
		case CEL_SPECIAL_AND:
		case CEL_SPECIAL_OR:
		case CEL_SPECIAL_COND:
		case CEL_SPECIAL_OR_VALUE:
		case CEL_SPECIAL_OR_OPT:
			break;
		case CEL_SPECIAL_INDEX:
		case CEL_SPECIAL_OPT_SELECT:
		case CEL_SPECIAL_OPT_INDEX:
			act->cost += 1;
			break;
		default:
			rt_init();
			act->cost += call_cost(act, node, args, nargs, result);
			break;
		}
		break;
	case CEL_AST_LIST:
		act->cost += LIST_CREATE;
		break;
	case CEL_AST_MAP:
		act->cost += MAP_CREATE;
		break;
	case CEL_AST_STRUCT:
		act->cost += STRUCT_CREATE;
		break;
	default:
		/* constants, comprehensions (their parts are counted), host nodes (count
		 * themselves) */
		break;
	}
}
