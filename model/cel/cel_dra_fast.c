/*
 * cel_dra_fast.c: a direct evaluator for the common shape of device selectors.
 *
 * Most selectors are conjunctions of comparisons between one device attribute and a
 * constant. After the DRA rewrite these are trees of host lookups, constants and a few
 * operators, which this file runs without the generic evaluator's dispatch. It only takes
 * the happy path: a missing attribute, a value of an unexpected kind or anything else makes
 * it return FALSE, and the caller runs the generic evaluator, which then produces the exact
 * result or error message. The runtime cost is accounted with the same rules (cel_cost.c).
 * The form for evaluation without cost accounting is compiled by cel_dra_fast_test.c.
 */
#include <string.h>

#include "cel-dra-private.h"
#include "cel_cost.h"
#include "cel_lib_k8s_env.h"

static const FastNode *compile_node(const CelAst *e, BaseArena *arena);

static FastNode *
node_new(BaseArena *arena, FastOp op)
{
	FastNode *n = base_arena_alloc(arena, sizeof *n);
	n->op = op;
	return n;
}

static gboolean
const_value(const CelAst *e, CelValue *v, guint64 *cost)
{
	if (e->kind == CEL_AST_CONST) {
		*v = e->constant;
		*cost = 0;
		return TRUE;
	}
	/* a folded library call still costs what the call costs */
	return cel_k8s_const_host_value(e, v, cost);
}

static const FastNode *
compile_binary(const CelAst *e, FastOp op, BaseArena *arena)
{
	if (e->call.nargs != 2 || e->call.target != NULL) {
		return NULL;
	}
	const FastNode *a = compile_node(e->call.args[0], arena);
	const FastNode *b = a != NULL ? compile_node(e->call.args[1], arena) : NULL;
	if (b == NULL) {
		return NULL;
	}
	FastNode *n = node_new(arena, op);
	n->a = a;
	n->b = b;
	return n;
}

/* target.fn(constant) for the string, quantity and semver member functions. */
static const FastNode *
compile_member(const CelAst *e, BaseArena *arena)
{
	const char *fn = e->call.function;
	CelValue k;
	guint64 kcost;

	if (e->call.target == NULL || e->call.nargs != 1 ||
	    !const_value(e->call.args[0], &k, &kcost)) {
		return NULL;
	}
	const FastNode *a = compile_node(e->call.target, arena);
	if (a == NULL) {
		return NULL;
	}
	FastNode *n = node_new(arena, FAST_CONST);
	n->a = a;
	n->k = k;
	if (k.kind == CEL_KIND_STRING) {
		n->k_chars = cel_utf8_length(k.str, k.aux);
		if (strcmp(fn, "startsWith") == 0 || strcmp(fn, "endsWith") == 0) {
			n->op = strcmp(fn, "startsWith") == 0 ? FAST_STARTS : FAST_ENDS;
			n->cost = kcost + cel_cost_ceil(n->k_chars, 0.1);
			return n;
		}
		if (strcmp(fn, "contains") == 0 && strlen(k.str) == k.aux) {
			n->op = FAST_CONTAINS;
			n->cost = kcost;
			return n;
		}
		return NULL;
	}
	if (k.kind == CEL_KIND_OBJECT) {
		if (strcmp(fn, "compareTo") == 0) {
			n->mode = CMP_VALUE;
		} else if (strcmp(fn, "isGreaterThan") == 0) {
			n->mode = CMP_GT;
		} else if (strcmp(fn, "isLessThan") == 0) {
			n->mode = CMP_LT;
		} else {
			return NULL;
		}
		if (k.obj->klass == &cel_quantity_class) {
			n->op = FAST_QTY_CMP;
		} else if (k.obj->klass == &cel_semver_class) {
			n->op = FAST_SEMVER_CMP;
		} else {
			return NULL;
		}
		n->cost = kcost + 1;
		return n;
	}
	return NULL;
}

/* s.matches(re) with a pattern prepared at compile time (and kept when constant). */
static const FastNode *
compile_matches(const CelAst *e,
                const CelAst *text,
                const CelRegex *re,
                guint64 regex_cost,
                BaseArena *arena)
{
	const FastNode *a = compile_node(text, arena);
	if (a == NULL) {
		return NULL;
	}
	FastNode *n = node_new(arena, FAST_MATCHES);
	n->a = a;
	n->re = re;
	n->k_chars = regex_cost; /* ceil(len(pattern) * RegexStringLengthCostFactor) */
	const CelAst *call = e->host.original;
	const CelAst *p = NULL;
	if (call != NULL && call->kind == CEL_AST_CALL) {
		p = call->call.target != NULL && call->call.nargs == 1 ? call->call.args[0]
		    : call->call.nargs == 2                            ? call->call.args[1]
		                                                       : NULL;
	}
	if (p != NULL && p->kind == CEL_AST_CONST && p->constant.kind == CEL_KIND_STRING) {
		n->pattern = p->constant;
	}
	return n;
}

/* Logic, equality and order operators; member functions (compile_member). */
static const FastNode *
compile_call(const CelAst *e, BaseArena *arena)
{
	switch (e->call.special) {
	case CEL_SPECIAL_AND:
		return compile_binary(e, FAST_AND, arena);
	case CEL_SPECIAL_OR:
		return compile_binary(e, FAST_OR, arena);
	case CEL_SPECIAL_EQ:
		return compile_binary(e, FAST_EQ, arena);
	case CEL_SPECIAL_NE:
		return compile_binary(e, FAST_NE, arena);
	case CEL_SPECIAL_NONE:
		break;
	default:
		return NULL;
	}
	const char *fn = e->call.function;
	if (strcmp(fn, "!_") == 0 && e->call.nargs == 1) {
		const FastNode *a = compile_node(e->call.args[0], arena);
		if (a == NULL) {
			return NULL;
		}
		FastNode *n = node_new(arena, FAST_NOT);
		n->a = a;
		n->cost = 1;
		return n;
	}
	if (strcmp(fn, "_<_") == 0) {
		return compile_binary(e, FAST_LT, arena);
	}
	if (strcmp(fn, "_<=_") == 0) {
		return compile_binary(e, FAST_LE, arena);
	}
	if (strcmp(fn, "_>_") == 0) {
		return compile_binary(e, FAST_GT, arena);
	}
	if (strcmp(fn, "_>=_") == 0) {
		return compile_binary(e, FAST_GE, arena);
	}
	return compile_member(e, arena);
}

static const FastNode *
compile_node(const CelAst *e, BaseArena *arena)
{
	const CelDraHost *h = cel_dra_host_of(e);
	CelValue k;
	guint64 kcost;

	if (h != NULL) {
		FastNode *n = node_new(arena, FAST_LOOKUP);
		n->host = h;
		n->cost = h->cost;
		return h->kind == CEL_DRA_HOST_ENTRY || h->kind == CEL_DRA_HOST_DRIVER ||
		                       h->kind == CEL_DRA_HOST_MULTI
		               ? n
		               : NULL;
	}
	if (const_value(e, &k, &kcost)) {
		FastNode *n = node_new(arena, FAST_CONST);
		n->k = k;
		n->cost = kcost;
		return n;
	}
	const CelAst *text;
	const CelRegex *re;
	guint64 regex_cost;
	if (cel_regex_host_matches(e, &text, &re, &regex_cost)) {
		return compile_matches(e, text, re, regex_cost, arena);
	}
	if (e->kind != CEL_AST_CALL) {
		return NULL;
	}
	return compile_call(e, arena);
}

CelDraFast *
cel_dra_fast_compile(const CelAst *root, BaseArena *arena)
{
	const FastNode *n = compile_node(root, arena);
	if (n == NULL) {
		return NULL;
	}
	CelDraFast *f = base_arena_alloc(arena, sizeof *f);
	guint nleaves = 0;
	f->root = n;
	f->test = cel_dra_fast__test_compile(n, arena, &nleaves);
	return f;
}

/* ---- evaluation: FALSE means "not on the happy path, use the generic evaluator" ---- */

static gboolean
lookup(const FastNode *n, const CelDraView *view, CelValue *out)
{
	const CelDraHost *h = n->host;
	switch (h->kind) {
	case CEL_DRA_HOST_DRIVER:
		*out = cel_value_string(view->driver, view->driver_len);
		return TRUE;
	case CEL_DRA_HOST_MULTI:
		*out = cel_value_bool(view->allow_multiple_allocations);
		return TRUE;
	default: {
		const CelDraTable *t = h->capacity ? &view->capacity : &view->attributes;
		const CelValue *v = cel_dra_table_lookup(t, h->domain, h->id);
		if (v == NULL) {
			return FALSE;
		}
		*out = *v;
		return TRUE;
	}
	}
}

static guint64
chars(CelValue s)
{
	return cel_utf8_length(s.str, s.aux);
}

static gboolean
eval_compare(const FastNode *n, const CelDraView *view, CelValue *out, guint64 *cost)
{
	CelValue a, b;
	if (!cel_dra_fast__eval_node(n->a, view, &a, cost) ||
	    !cel_dra_fast__eval_node(n->b, view, &b, cost) || a.kind != b.kind) {
		return FALSE;
	}
	int c;
	switch (a.kind) {
	case CEL_KIND_INT:
		c = a.i == b.i ? 0 : (a.i < b.i ? -1 : 1);
		break;
	case CEL_KIND_UINT:
		c = a.u == b.u ? 0 : (a.u < b.u ? -1 : 1);
		break;
	case CEL_KIND_BOOL:
		c = a.b == b.b ? 0 : (!a.b ? -1 : 1);
		break;
	case CEL_KIND_STRING:
		c = cel_dra_fast__cmp_strings(a, b);
		break;
	default:
		return FALSE;
	}
	if (cost != NULL) {
		/* == and <: ceil(min(size) * 0.1); scalars have size 1 */
		*cost +=
		        a.kind == CEL_KIND_STRING ? cel_cost_ceil(MIN(chars(a), chars(b)), 0.1) : 1;
	}
	gboolean r;
	switch (n->op) {
	case FAST_EQ:
		r = c == 0;
		break;
	case FAST_NE:
		r = c != 0;
		break;
	case FAST_LT:
		r = c < 0;
		break;
	case FAST_LE:
		r = c <= 0;
		break;
	case FAST_GT:
		r = c > 0;
		break;
	default:
		r = c >= 0;
		break;
	}
	*out = cel_value_bool(r);
	return TRUE;
}

/* &&, || (short-circuiting, as cel-go) and !. */
static gboolean
eval_logic(const FastNode *n, const CelDraView *view, CelValue *out, guint64 *cost)
{
	CelValue a, b;

	if (!cel_dra_fast__eval_node(n->a, view, &a, cost) || a.kind != CEL_KIND_BOOL) {
		return FALSE;
	}
	if (n->op == FAST_NOT) {
		*out = cel_value_bool(!a.b);
		return TRUE;
	}
	if (a.b == (n->op == FAST_OR)) {
		*out = a; /* short circuit, as cel-go */
		return TRUE;
	}
	if (!cel_dra_fast__eval_node(n->b, view, &b, cost) || b.kind != CEL_KIND_BOOL) {
		return FALSE;
	}
	*out = b;
	return TRUE;
}

/* startsWith, endsWith, contains and matches on a string operand and a constant. */
static gboolean
eval_string(const FastNode *n, const CelDraView *view, CelValue *out, guint64 *cost)
{
	CelValue a;

	if (!cel_dra_fast__eval_node(n->a, view, &a, cost) || a.kind != CEL_KIND_STRING) {
		return FALSE;
	}
	switch (n->op) {
	case FAST_STARTS:
	case FAST_ENDS:
		*out = cel_value_bool(a.aux >= n->k.aux &&
		                      memcmp(a.str + (n->op == FAST_STARTS ? 0 : a.aux - n->k.aux),
		                             n->k.str, n->k.aux) == 0);
		return TRUE;
	case FAST_CONTAINS:
		if (cost != NULL) {
			*cost += cel_cost_ceil(chars(a), 0.1) * cel_cost_ceil(n->k_chars, 0.1);
		}
		*out = cel_value_bool(n->k.aux == 0 ||
		                      g_strstr_len(a.str, a.aux, n->k.str) != NULL);
		return TRUE;
	case FAST_MATCHES:
	default:
		if (cost != NULL) {
			*cost += cel_cost_ceil(1 + chars(a), 0.1) * n->k_chars;
		}
		*out = cel_value_bool(cel_regex_match(n->re, a.str, a.aux));
		return TRUE;
	}
}

/* compareTo, isGreaterThan, isLessThan of a quantity or a semver against a constant. */
static gboolean
eval_order(const FastNode *n, const CelDraView *view, CelValue *out, guint64 *cost)
{
	CelValue a;
	int c;

	if (!cel_dra_fast__eval_node(n->a, view, &a, cost) || a.kind != CEL_KIND_OBJECT) {
		return FALSE;
	}
	if (n->op == FAST_QTY_CMP) {
		const K8sQuantity *q = cel_quantity_of(a);
		if (q == NULL) {
			return FALSE;
		}
		c = k8s_quantity_cmp(q, cel_quantity_of(n->k));
	} else {
		const CelSemver *v = cel_semver_of(a);
		if (v == NULL) {
			return FALSE;
		}
		c = cel_semver_compare(v, cel_semver_of(n->k));
	}
	*out = n->mode == CMP_VALUE ? cel_value_int(c)
	                            : cel_value_bool(c == (n->mode == CMP_GT ? 1 : -1));
	return TRUE;
}

gboolean
cel_dra_fast__eval_node(const FastNode *n, const CelDraView *view, CelValue *out, guint64 *cost)
{
	if (cost != NULL) {
		*cost += n->cost;
	}
	switch (n->op) {
	case FAST_CONST:
		*out = n->k;
		return TRUE;
	case FAST_LOOKUP:
		return lookup(n, view, out);
	case FAST_AND:
	case FAST_OR:
	case FAST_NOT:
		return eval_logic(n, view, out, cost);
	case FAST_EQ:
	case FAST_NE:
	case FAST_LT:
	case FAST_LE:
	case FAST_GT:
	case FAST_GE:
		return eval_compare(n, view, out, cost);
	case FAST_STARTS:
	case FAST_ENDS:
	case FAST_CONTAINS:
	case FAST_MATCHES:
		return eval_string(n, view, out, cost);
	case FAST_QTY_CMP:
	case FAST_SEMVER_CMP:
		return eval_order(n, view, out, cost);
	default:
		return FALSE;
	}
}

gboolean
cel_dra_fast_eval(const CelDraFast *fast, const CelDraView *view, CelValue *result, guint64 *cost)
{
	if (cost != NULL) {
		*cost = 0;
	}
	return cel_dra_fast__eval_node(fast->root, view, result, cost);
}
