/*
 * cel_cost.c: the static cost estimator, ported from cel-go (checker/cost.go) as the apiserver
 * configures it; what each function costs is the rule table in cel_cost_rules.c, and the
 * runtime tracker is cel_cost_runtime.c.
 *
 * The estimator walks the checked tree once, keeping cel-go's side tables: a field path per
 * node (so a size estimator can name "device.attributes.@values.<id>"), computed sizes,
 * entry sizes of literal containers, and a scope stack of comprehension variables. The
 * numbers must match upstream exactly: API validation rejects a selector whose estimate
 * exceeds the limit, and drasim's lint must agree with it.
 */
#include "cel_cost.h"

#include <string.h>

#define ACCUMULATOR "@result"

/* A comprehension variable in scope: its path and what is known of its size. */
typedef struct {
	CelCostPath path;
	gboolean has_size;
	CelCostRange size;
	gboolean has_entry;
	CelCostEntry entry;
} CostLocal;

static CelCostRange cost_of(CelCoster *c, const CelAst *e);

static const CelAst *
unwrap(const CelAst *e)
{
	/* callers pass non-NULL nodes */
	while (e->kind == CEL_AST_HOST && e->host.original != NULL) {
		e = e->host.original;
	}
	return e;
}

CelCostPath
cel_cost__path_append(CelCoster *c, CelCostPath base, const char *elem)
{
	CelCostPath p;
	p.n = base.n + 1;
	p.elems = base_arena_alloc(&c->arena, p.n * sizeof(char *));
	if (base.n > 0) {
		memcpy(p.elems, base.elems, base.n * sizeof(char *));
	}
	p.elems[base.n] = elem;
	return p;
}

static CostLocal *
local_peek(CelCoster *c, const char *name)
{
	GPtrArray *stack = g_hash_table_lookup(c->locals, name);
	return stack != NULL && stack->len > 0 ? g_ptr_array_index(stack, stack->len - 1) : NULL;
}

static void
local_push(CelCoster *c, const char *name, CostLocal *v)
{
	GPtrArray *stack = g_hash_table_lookup(c->locals, name);
	if (stack == NULL) {
		stack = g_ptr_array_new();
		g_hash_table_insert(c->locals, (gpointer)name, stack);
	}
	g_ptr_array_add(stack, v);
}

static void
local_pop(CelCoster *c, const char *name)
{
	GPtrArray *stack = g_hash_table_lookup(c->locals, name);
	if (stack != NULL && stack->len > 0) {
		g_ptr_array_set_size(stack, stack->len - 1);
	}
}

static guint
node_id(CelCoster *c, const CelAst *e)
{
	return MIN(e->id, c->max_id);
}

static CelCostPath
get_path(CelCoster *c, const CelAst *e)
{
	if (e->kind == CEL_AST_IDENT) {
		CostLocal *v = local_peek(c, e->ident.name);
		if (v != NULL) {
			return v->path;
		}
	}
	return c->paths[node_id(c, e)];
}

static void
set_path(CelCoster *c, const CelAst *e, CelCostPath p)
{
	c->paths[node_id(c, e)] = p;
}

static void
set_size(CelCoster *c, const CelAst *e, const CelCostRange *size)
{
	if (size != NULL) {
		c->has_size[node_id(c, e)] = TRUE;
		c->sizes[node_id(c, e)] = *size;
	}
}

void
cel_cost__set_entry(CelCoster *c, const CelAst *e, const CelCostEntry *entry)
{
	if (entry != NULL) {
		c->has_entry[node_id(c, e)] = TRUE;
		c->entries[node_id(c, e)] = *entry;
	}
}

const CelCostEntry *
cel_cost__entry(CelCoster *c, const CelAst *e)
{
	if (c->has_entry[node_id(c, e)]) {
		return &c->entries[node_id(c, e)];
	}
	if (e->kind == CEL_AST_IDENT) {
		CostLocal *v = local_peek(c, e->ident.name);
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
			*out = cel_cost_fixed(cel_utf8_length(e->constant.str, e->constant.aux));
			return TRUE;
		case CEL_KIND_BYTES:
			*out = cel_cost_fixed(e->constant.aux);
			return TRUE;
		case CEL_KIND_BOOL:
		case CEL_KIND_DOUBLE:
		case CEL_KIND_DURATION:
		case CEL_KIND_INT:
		case CEL_KIND_TIMESTAMP:
		case CEL_KIND_UINT:
		case CEL_KIND_NULL:
			*out = cel_cost_fixed(1);
			return TRUE;
		default:
			return FALSE;
		}
	case CEL_AST_LIST:
		*out = cel_cost_fixed(e->list.n);
		return TRUE;
	case CEL_AST_MAP:
		*out = cel_cost_fixed(e->map.n);
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
estimate_size(CelCoster *c, CelCostPath path, CelCostRange *out)
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
compute_size(CelCoster *c, const CelAst *e, CelCostRange *out)
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
		*out = cel_cost_fixed(1);
		return TRUE;
	}
	if (e->kind == CEL_AST_IDENT) {
		CostLocal *v = local_peek(c, e->ident.name);
		if (v != NULL && v->has_size) {
			*out = v->size;
			return TRUE;
		}
	}
	return FALSE;
}

static CelCostRange
size_or_unknown(CelCoster *c, const CelAst *e)
{
	CelCostRange r;
	return compute_size(c, e, &r) ? r : CEL_COST_UNKNOWN;
}

static CelCostNode
make_node(CelCoster *c, const CelAst *e)
{
	CelCostNode n = { 0 };
	n.path = get_path(c, e);
	if (n.path.n > 0 && strcmp(n.path.elems[0], ACCUMULATOR) == 0) {
		n.path = (CelCostPath){ 0 };
	}
	n.type = e->type;
	n.expr = e;
	n.has_size = compute_size(c, e, &n.size);
	return n;
}

/* cel-go's own operand size: what the checker computed, else unknown. */
CelCostRange
cel_cost__computed_size(CelCoster *c, const CelCostNode *n)
{
	(void)c;
	return n->has_size ? n->size : CEL_COST_UNKNOWN;
}

CelCostRange
cel_cost__estimated_size(CelCoster *c, const CelCostNode *n)
{
	CelCostRange r;
	if (n->has_size) {
		return n->size;
	}
	if (estimate_size(c, n->path, &r)) {
		return r;
	}
	return CEL_COST_UNKNOWN;
}

/* dyn(x) costs 1 and passes x's sizes through. */
static CelCostRange
cost_dyn(CelCoster *c, const CelAst *e)
{
	CelCostRange ac = cost_of(c, e->call.args[0]);
	CelCostRange sz;
	if (compute_size(c, e->call.args[0], &sz)) {
		set_size(c, e, &sz);
	}
	cel_cost__set_entry(c, e, cel_cost__entry(c, e->call.args[0]));
	return cel_cost_range_add(cel_cost_fixed(1), ac);
}

/* Indexing: the result is an element of the operand, at path "@items" or "@values". */
static void
index_result(
        CelCoster *c, const CelAst *e, gboolean list, gboolean *has_result, CelCostRange *result)
{
	const CelCostEntry *es = cel_cost__entry(c, e->call.args[0]);
	*has_result = es != NULL;
	if (es != NULL) {
		*result = es->val;
	}
	set_path(c, e,
	         cel_cost__path_append(c, get_path(c, e->call.args[0]),
	                               list ? "@items" : "@values"));
}

/*
 * The call's own cost over the overloads the checker kept (or, for specials, the ones cel-go
 * would): the union of each overload's rule; the result size likewise.
 */
static CelCostRange
cost_overloads(CelCoster *c, CelCostCall *call, const CelType *const *argt, guint nargt)
{
	const CelAst *e = call->expr;
	guint n = e->call.noverloads;
	CelCostRange fn_cost = { G_MAXUINT64, 0 };
	gboolean has_result = FALSE;
	CelCostRange result = { 0, 0 };
	guint rounds = MAX(n, 1);
	for (guint k = 0; k < rounds; k++) {
		const CelOverloadDecl *decl = n > 0 ? e->call.overloads[k] : NULL;
		call->overload = cel_cost__overload_id(e, decl, argt, nargt);
		/* An index on a dyn operand keeps both index overloads in cel-go. */
		if (decl == NULL && strcmp(call->function, "_[_]") == 0 &&
		    strcmp(call->overload, "_[_]") == 0) {
			call->overload = k == 0 ? "index_list" : "index_map";
			rounds = 2;
		}
		CelCostEstimate est = cel_cost__call_rule(c, call);
		fn_cost = cel_cost_range_union(fn_cost, est.cost);
		if (est.has_result_size) {
			result = has_result ? cel_cost_range_union(result, est.result_size)
			                    : est.result_size;
			has_result = TRUE;
		}
		gboolean index_list = strcmp(call->overload, "index_list") == 0;
		if ((index_list || strcmp(call->overload, "index_map") == 0) && call->nargs > 0) {
			index_result(c, e, index_list, &has_result, &result);
		}
		if (!has_result) {
			has_result = compute_size(c, e, &result);
		}
	}
	if (has_result) {
		set_size(c, e, &result);
	}
	return fn_cost;
}

static CelCostRange
cost_call(CelCoster *c, const CelAst *e)
{
	guint nargs = e->call.nargs;

	if (strcmp(e->call.function, "dyn") == 0 && nargs == 1 && e->call.target == NULL) {
		return cost_dyn(c, e);
	}

	CelCostNode *args = g_newa(CelCostNode, MAX(nargs, 1));
	CelCostRange *arg_costs = g_newa(CelCostRange, MAX(nargs, 1));
	const CelType **argt = g_newa(const CelType *, MAX(nargs + 1, 1));
	guint nargt = 0;
	for (guint i = 0; i < nargs; i++) {
		arg_costs[i] = cost_of(c, e->call.args[i]);
		args[i] = make_node(c, e->call.args[i]);
	}
	if (e->call.noverloads == 0 && e->call.special == CEL_SPECIAL_NONE) {
		return (CelCostRange){ 0, 0 };
	}

	CelCostRange sum = { 0, 0 };
	CelCostNode target_node;
	CelCostCall call = { e, e->call.function, NULL, NULL, args, nargs, arg_costs };
	if (e->call.target != NULL) {
		sum = cost_of(c, e->call.target);
		target_node = make_node(c, e->call.target);
		call.target = &target_node;
		argt[nargt++] = e->call.target->type;
	}
	for (guint i = 0; i < nargs; i++) {
		argt[nargt++] = e->call.args[i]->type;
	}
	return cel_cost_range_add(sum, cost_overloads(c, &call, argt, nargt));
}

static CelCostRange
cost_select(CelCoster *c, const CelAst *e)
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
		sum = cel_cost_range_add(sum, cel_cost_fixed(1));
	}
	set_path(c, e, cel_cost__path_append(c, get_path(c, e->select.operand), e->select.field));
	return sum;
}

static CostLocal *
new_local(CelCoster *c, CelCostPath path)
{
	CostLocal *v = base_arena_alloc(&c->arena, sizeof *v);
	v->path = path;
	return v;
}

static void
push_local_var(CelCoster *c, const char *name, const CelAst *init)
{
	CostLocal *v = new_local(c, get_path(c, init));
	v->has_size = compute_size(c, init, &v->size);
	const CelCostEntry *es = cel_cost__entry(c, init);
	if (es != NULL) {
		v->has_entry = TRUE;
		v->entry = *es;
	}
	local_push(c, name, v);
}

/* pushIterSingle / pushIterKey / pushIterValue. */
static void
push_iter(CelCoster *c,
          const char *name,
          const CelAst *range,
          int which /* 0 single, 1 key, 2 value */)
{
	const CelCostEntry *es = cel_cost__entry(c, range);
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
	CostLocal *v = new_local(c, cel_cost__path_append(c, get_path(c, range), sub));
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
cost_comprehension(CelCoster *c, const CelAst *e)
{
	CelCostRange sum = { 0, 0 };

	if (is_bind(e)) {
		sum = cel_cost_range_add(sum, cost_of(c, e->comp.iter_range));
		sum = cel_cost_range_add(sum, cost_of(c, e->comp.accu_init));
		push_local_var(c, e->comp.accu_var, e->comp.accu_init);
		sum = cel_cost_range_add(sum, cost_of(c, e->comp.result));
		local_pop(c, e->comp.accu_var);
		CelCostRange sz;
		if (compute_size(c, e->comp.result, &sz)) {
			set_size(c, e, &sz);
		}
		cel_cost__set_entry(c, e, cel_cost__entry(c, e->comp.result));
		return sum;
	}

	sum = cel_cost_range_add(sum, cost_of(c, e->comp.iter_range));
	sum = cel_cost_range_add(sum, cost_of(c, e->comp.accu_init));
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
	sum = cel_cost_range_add(sum, cost_of(c, e->comp.result));
	local_pop(c, e->comp.accu_var);

	CelCostRange count = size_or_unknown(c, e->comp.iter_range);
	sum = cel_cost_range_add(sum, cel_cost_range_mul(count, cel_cost_range_add(step, loop)));

	const CelAst *init = unwrap(e->comp.accu_init);
	if (init->kind == CEL_AST_CONST) {
		CelCostRange sz;
		if (compute_size(c, e->comp.accu_init, &sz)) {
			set_size(c, e, &sz);
		}
	} else if (init->kind == CEL_AST_LIST || init->kind == CEL_AST_MAP) {
		set_size(c, e, &count);
		cel_cost__set_entry(c, e, cel_cost__entry(c, e->comp.loop_step));
	}
	return sum;
}

static CelCostRange
cost_of(CelCoster *c, const CelAst *e)
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
		CostLocal *v = local_peek(c, e->ident.name);
		if (v != NULL) {
			set_path(c, e, v->path);
		} else {
			const char **elem = base_arena_alloc(&c->arena, sizeof(char *));
			elem[0] = e->ident.name;
			set_path(c, e, (CelCostPath){ elem, 1 });
		}
		return cel_cost_fixed(1);
	}
	case CEL_AST_SELECT:
		return cost_select(c, e);
	case CEL_AST_CALL:
		return cost_call(c, e);
	case CEL_AST_LIST: {
		CelCostRange item = { e->list.n == 0 ? 0 : G_MAXUINT64, 0 };
		for (guint i = 0; i < e->list.n; i++) {
			sum = cel_cost_range_add(sum, cost_of(c, e->list.elems[i]));
			item = cel_cost_range_union(item, size_or_unknown(c, e->list.elems[i]));
		}
		CelCostEntry es = { CEL_TYPE_LIST, cel_cost_fixed(1), item };
		cel_cost__set_entry(c, e, &es);
		return cel_cost_range_add(sum, cel_cost_fixed(CEL_COST_LIST_CREATE));
	}
	case CEL_AST_MAP: {
		CelCostRange key = { e->map.n == 0 ? 0 : G_MAXUINT64, 0 };
		CelCostRange val = key;
		for (guint i = 0; i < e->map.n; i++) {
			sum = cel_cost_range_add(sum, cost_of(c, e->map.keys[i]));
			sum = cel_cost_range_add(sum, cost_of(c, e->map.values[i]));
			key = cel_cost_range_union(key, size_or_unknown(c, e->map.keys[i]));
			val = cel_cost_range_union(val, size_or_unknown(c, e->map.values[i]));
		}
		CelCostEntry es = { CEL_TYPE_MAP, key, val };
		cel_cost__set_entry(c, e, &es);
		return cel_cost_range_add(sum, cel_cost_fixed(CEL_COST_MAP_CREATE));
	}
	case CEL_AST_STRUCT:
		for (guint i = 0; i < e->strukt.n; i++) {
			sum = cel_cost_range_add(sum, cost_of(c, e->strukt.values[i]));
		}
		return cel_cost_range_add(sum, cel_cost_fixed(CEL_COST_STRUCT_CREATE));
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
	CelCoster c = { 0 };
	guint n = max_id + 1;

	c.max_id = max_id;
	c.model = model;
	c.paths = g_new0(CelCostPath, n);
	c.has_size = g_new0(gboolean, n);
	c.sizes = g_new0(CelCostRange, n);
	c.has_entry = g_new0(gboolean, n);
	c.entries = g_new0(CelCostEntry, n);
	c.locals = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, stack_free);
	base_arena_init(&c.arena, 4096);

	CelCostRange r = cost_of(&c, root);

	base_arena_clear(&c.arena);
	g_hash_table_unref(c.locals);
	g_free(c.paths);
	g_free(c.has_size);
	g_free(c.sizes);
	g_free(c.has_entry);
	g_free(c.entries);
	return r;
}
