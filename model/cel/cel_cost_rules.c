/*
 * cel_cost_rules.c: what each function costs, as a table (the static estimator's rule book).
 *
 * The tree walk (cel_cost.c) hands every call to cel_cost__call_rule, which looks the call
 * up in three layers, in the order the apiserver's estimator consults them:
 *   1. the ext.Sets overload estimators, by overload id;
 *   2. the Kubernetes library estimator (k8s.io/apiserver/pkg/cel/library/cost.go), by
 *      function name;
 *   3. cel-go's checker built-ins (checker/cost.go, functionCost), by overload id.
 * Each row names a rule (a small estimating function), what the call must look like for the
 * rule to apply (a receiver, an argument count), and the rule's parameters. The first layer
 * whose row applies wins; a call no row covers costs 1 plus its arguments, as in cel-go.
 * Layers 1 and 2 measure operands with the environment's size estimator, layer 3 with the
 * sizes the checker computed only, exactly as upstream does.
 */
#include <math.h>
#include <string.h>

#include "cel_cost.h"

#define DRA_MAX_LIST 48 /* ResourceSliceMaxAttributeValuesPerDevice */

typedef CelCostRange (*CostSizeFn)(CelCoster *c, const CelCostNode *n);

/* What a rule works with: the call and the layer's way of measuring an operand. */
typedef struct {
	CelCoster *c;
	const CelCostCall *call;
	CostSizeFn size;
} CostCtx;

typedef enum {
	OPERAND_TARGET,
	OPERAND_ARG0,
	OPERAND_ARG1,
} CostOperand;

typedef struct CostRule CostRule;

/* A rule kind: fills @out with the call's own cost (and result size); FALSE to decline. */
typedef gboolean (*CostRuleFn)(const CostCtx *x, const CostRule *rule, CelCostEstimate *out);

struct CostRule {
	const char *name; /* function name or overload id, by the layer */
	CostRuleFn estimate;
	gboolean needs_target; /* applies to receiver-style calls only */
	guint min_args, max_args;
	gboolean own_args;   /* the rule charges the arguments itself (short-circuits) */
	CostOperand operand; /* rule_scan: what it traverses */
	double factor;       /* rule_scan: cost per size unit */
};

static const CelCostNode *
operand(const CostCtx *x, CostOperand which)
{
	switch (which) {
	case OPERAND_TARGET:
		return x->call->target;
	case OPERAND_ARG0:
		return &x->call->args[0];
	case OPERAND_ARG1:
	default:
		return &x->call->args[1];
	}
}

static CelCostRange
target_size(const CostCtx *x)
{
	return x->size(x->c, x->call->target);
}

static CelCostRange
arg_size(const CostCtx *x, guint i)
{
	return x->size(x->c, &x->call->args[i]);
}

/* The size of one item of the list @list (its path extended by "@items"). */
static CelCostRange
item_size(const CostCtx *x, const CelCostNode *list, const CelType *item_type)
{
	CelCostNode item = { 0 };
	item.path = list->path.n > 0 ? cel_cost__path_append(x->c, list->path, "@items")
	                             : (CelCostPath){ 0 };
	item.type = item_type;
	return x->size(x->c, &item);
}

static void
set_result(CelCostEstimate *out, CelCostRange size)
{
	out->has_result_size = TRUE;
	out->result_size = size;
}

/* ---- rule kinds shared by several rows ---- */

/* O(1). */
static gboolean
rule_unit(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	(void)x;
	(void)rule;
	out->cost = cel_cost_fixed(1);
	return TRUE;
}

/* One pass over an operand: ceil(size(operand) * factor). */
static gboolean
rule_scan(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	out->cost = cel_cost_range_factor(x->size(x->c, operand(x, rule->operand)), rule->factor);
	return TRUE;
}

/* A string-to-string pass that keeps the size (lowerAscii, trim, ...). */
static gboolean
rule_scan_same_size(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	CelCostRange sz = target_size(x);
	(void)rule;
	out->cost = cel_cost_range_factor(sz, CEL_COST_STRING_TRAVERSAL);
	set_result(out, sz);
	return TRUE;
}

/* A regular expression over a string: ceil((size+1) * 0.1) * ceil(size(pattern) * 0.25). */
static CelCostRange
regex_cost(const CostCtx *x, CelCostRange text)
{
	CelCostRange str = cel_cost_range_factor(cel_cost_range_add(text, cel_cost_fixed(1)),
	                                         CEL_COST_STRING_TRAVERSAL);
	CelCostRange re = cel_cost_range_factor(arg_size(x, 0), CEL_COST_REGEX_LENGTH);
	return cel_cost_range_mul(str, re);
}

/* ---- the ext.Sets estimators ---- */

/* sets.contains / equivalent / intersects: size(a) * size(b) + 1. */
static gboolean
rule_sets(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	CelCostRange s = cel_cost_range_mul(arg_size(x, 0), arg_size(x, 1));
	(void)rule;
	out->cost = cel_cost_range_add(cel_cost_range_factor(s, 1), cel_cost_fixed(1));
	return TRUE;
}

/* ---- the Kubernetes library estimator ---- */

/* DRA's `includes`: its target's maximum list length. */
static gboolean
rule_dra_includes(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	(void)rule;
	if (!x->c->model->dra_includes || strcmp(x->call->overload, "dra_includes_dyn_dyn") != 0) {
		return FALSE;
	}
	out->cost = cel_cost_range_mul((CelCostRange){ 0, DRA_MAX_LIST }, cel_cost_fixed(1));
	return TRUE;
}

/* The lists library: one step per element, plus a string traversal for string elements. */
static gboolean
rule_list_traversal(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	const CelCostNode *target = x->call->target;
	const CelType *t = target->type;
	(void)rule;
	if (t != NULL && t->nparams > 0 && t->kind == CEL_TYPE_LIST) {
		CelCostRange el = cel_cost_fixed(1);
		const CelType *et = t->params[0];
		if (et != NULL && (et->kind == CEL_TYPE_STRING || et->kind == CEL_TYPE_BYTES)) {
			el = cel_cost_range_add(el,
			                        cel_cost_range_factor(item_size(x, target, et),
			                                              CEL_COST_STRING_TRAVERSAL));
		}
		out->cost = cel_cost_range_mul(target_size(x), el);
	} else {
		out->cost = cel_cost_range_factor(target_size(x), CEL_COST_STRING_TRAVERSAL);
	}
	return TRUE;
}

/* How many replacements fit in a string of @sz, and how much of it is kept, at one end. */
static void
replace_bound(
        guint64 sz, guint64 to_replace_bound, gboolean no_growth, guint64 *count, guint64 *retained)
{
	if (to_replace_bound == 0) {
		*count = sz < G_MAXUINT64 ? sz + 1 : sz;
		*retained = sz;
	} else if (no_growth) {
		*count = 0;
		*retained = sz;
	} else {
		*count = (guint64)ceil((double)sz / (double)to_replace_bound);
	}
}

/* replace(from, to): two passes; the result grows by the replacements. */
static gboolean
rule_replace(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	CelCostRange sz = target_size(x);
	CelCostRange to_replace = arg_size(x, 0);
	CelCostRange replace_with = arg_size(x, 1);
	CelCostRange count = { 0, 0 }, retained = { 0, 0 };
	(void)rule;
	replace_bound(sz.max, to_replace.min, replace_with.max <= to_replace.min, &count.max,
	              &retained.max);
	replace_bound(sz.min, to_replace.max, to_replace.max <= replace_with.min, &count.min,
	              &retained.min);
	out->cost = cel_cost_range_factor(sz, 2 * CEL_COST_STRING_TRAVERSAL);
	set_result(out, cel_cost_range_add(cel_cost_range_mul(count, replace_with), retained));
	return TRUE;
}

/* split(sep[, n]): two passes; at most n parts when n is a literal. */
static gboolean
rule_split(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	CelCostRange sz = target_size(x);
	guint64 max = sz.max;
	(void)rule;
	if (x->call->nargs > 1) {
		const CelAst *lit = x->call->args[1].expr;
		if (lit->kind == CEL_AST_CONST && lit->constant.kind == CEL_KIND_INT) {
			max = (guint64)lit->constant.i;
		} else if (lit->kind == CEL_AST_CONST && lit->constant.kind == CEL_KIND_UINT) {
			max = lit->constant.u;
		}
	}
	out->cost = cel_cost_range_factor(sz, 2 * CEL_COST_STRING_TRAVERSAL);
	set_result(out, (CelCostRange){ 0, max });
	return TRUE;
}

/* join([sep]): the items and the separators between them, traversed once. */
static gboolean
rule_join(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	const CelCostNode *target = x->call->target;
	CelCostRange sz = { 0, 0 };
	CelCostRange list = target_size(x);
	const CelType *t = target->type;
	(void)rule;
	if (t != NULL && t->kind == CEL_TYPE_LIST && t->nparams > 0) {
		sz = cel_cost_range_mul(list, item_size(x, target, t->params[0]));
	}
	if (x->call->nargs > 0) {
		CelCostRange seps = { list.min > 0 ? list.min - 1 : 0,
			              list.max > 0 ? list.max - 1 : 0 };
		sz = cel_cost_range_add(sz, cel_cost_range_mul(arg_size(x, 0), seps));
	}
	out->cost = cel_cost_range_factor(sz, CEL_COST_STRING_TRAVERSAL);
	set_result(out, sz);
	return TRUE;
}

/* find / findAll: a regular expression over the target; the result is at most as long. */
static gboolean
rule_find(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	CelCostRange sz = target_size(x);
	(void)rule;
	out->cost = regex_cost(x, sz);
	set_result(out, (CelCostRange){ 0, sz.max });
	return TRUE;
}

/* ---- cel-go's checker built-ins ---- */

/* "%s".format(args): one pass over the format; the result is format plus arguments. */
static gboolean
rule_string_format(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	CelCostRange t = target_size(x);
	(void)rule;
	out->cost = cel_cost_range_factor(t, CEL_COST_STRING_TRAVERSAL);
	set_result(out, cel_cost_range_add(t, arg_size(x, 0)));
	return TRUE;
}

/* bytes(string): one pass; up to 4 bytes per code point. */
static gboolean
rule_string_to_bytes(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	CelCostRange sz = arg_size(x, 0);
	(void)rule;
	out->cost = cel_cost_range_factor(sz, CEL_COST_STRING_TRAVERSAL);
	set_result(out, (CelCostRange){ sz.min, cel_cost_mul_sat(sz.max, 4) });
	return TRUE;
}

/* string(bytes): one pass; at least one code point per 4 bytes. */
static gboolean
rule_bytes_to_string(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	CelCostRange sz = arg_size(x, 0);
	(void)rule;
	out->cost = cel_cost_range_factor(sz, CEL_COST_STRING_TRAVERSAL);
	set_result(out, (CelCostRange){ sz.min / 4, sz.max });
	return TRUE;
}

/* strings.quote(s): one pass; two quotes and at most one escape per code point. */
static gboolean
rule_strings_quote(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	CelCostRange sz = arg_size(x, 0);
	(void)rule;
	out->cost = cel_cost_range_factor(sz, CEL_COST_STRING_TRAVERSAL);
	set_result(out,
	           (CelCostRange){ sz.min + 2, cel_cost_add_sat(cel_cost_mul_sat(sz.max, 2), 2) });
	return TRUE;
}

/* s.matches(re): a regular expression over the target. */
static gboolean
rule_matches(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	(void)rule;
	out->cost = regex_cost(x, target_size(x));
	return TRUE;
}

/* s.contains(sub): a pass over the target per position of the substring. */
static gboolean
rule_contains_string(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	CelCostRange str = cel_cost_range_factor(target_size(x), CEL_COST_STRING_TRAVERSAL);
	CelCostRange sub = cel_cost_range_factor(arg_size(x, 0), CEL_COST_STRING_TRAVERSAL);
	(void)rule;
	out->cost = cel_cost_range_mul(str, sub);
	return TRUE;
}

/* && and ||: the first operand always, the second at most. */
static gboolean
rule_short_circuit(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	const CelCostRange *ac = x->call->arg_costs;
	(void)rule;
	out->cost = (CelCostRange){ ac[0].min, cel_cost_range_add(ac[0], ac[1]).max };
	return TRUE;
}

/* The entry sizes of a value that is one of two containers (or their concatenation). */
static void
union_entries(const CostCtx *x, const CelAst *a, const CelAst *b)
{
	const CelCostEntry *l = cel_cost__entry(x->c, a);
	const CelCostEntry *r = cel_cost__entry(x->c, b);
	if (l != NULL && r != NULL) {
		CelCostEntry u = { l->container, cel_cost_range_union(l->key, r->key),
			           cel_cost_range_union(l->val, r->val) };
		cel_cost__set_entry(x->c, x->call->expr, &u);
	}
}

/* c ? a : b: the condition and the dearer branch; the result is either branch. */
static gboolean
rule_conditional(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	const CelCostRange *ac = x->call->arg_costs;
	(void)rule;
	union_entries(x, x->call->args[1].expr, x->call->args[2].expr);
	out->cost = cel_cost_range_add(ac[0], cel_cost_range_union(ac[1], ac[2]));
	set_result(out, cel_cost_range_union(arg_size(x, 1), arg_size(x, 2)));
	return TRUE;
}

/* a + b on strings, bytes or lists: the result is both; @text says whether it is traversed. */
static void
concat(const CostCtx *x, gboolean text, CelCostEstimate *out)
{
	CelCostRange size = cel_cost_range_add(arg_size(x, 0), arg_size(x, 1));
	union_entries(x, x->call->args[0].expr, x->call->args[1].expr);
	set_result(out, size);
	out->cost =
	        text ? cel_cost_range_factor(size, CEL_COST_STRING_TRAVERSAL) : cel_cost_fixed(1);
}

static gboolean
rule_concat_text(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	(void)rule;
	concat(x, TRUE, out);
	return TRUE;
}

static gboolean
rule_concat_list(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	(void)rule;
	concat(x, FALSE, out);
	return TRUE;
}

/* ==, != and string ordering: a pass over the shorter operand. */
static gboolean
rule_compare_text(const CostCtx *x, const CostRule *rule, CelCostEstimate *out)
{
	guint64 smallest = MIN(arg_size(x, 0).max, arg_size(x, 1).max);
	CelCostRange cr = { smallest > 0 ? 1 : 0, smallest };
	(void)rule;
	out->cost = cel_cost_range_factor(cr, CEL_COST_STRING_TRAVERSAL);
	return TRUE;
}

/* ---- the tables ---- */

#define MANY G_MAXUINT /* no upper bound on the argument count */

/*
 * Row shorthands. ROW: a rule kind; SCAN: rule_scan over operand @what at @f per size
 * unit; OWN: a rule that charges the arguments itself. @target: the call needs a receiver;
 * @min, @max: the argument counts the row applies to. (One line each reads better than
 * clang-format's layout.)
 */
/* clang-format off */
#define ROW(name, rule, target, min, max) { name, rule, target, min, max, FALSE, OPERAND_TARGET, 0 }
#define SCAN(name, target, min, max, what, f) { name, rule_scan, target, min, max, FALSE, what, f }
#define OWN(name, rule, min, max) { name, rule, FALSE, min, max, TRUE, OPERAND_TARGET, 0 }
/* clang-format on */

static const CostRule sets_rules[] = {
	ROW("list_sets_contains_list", rule_sets, FALSE, 2, 2),
	ROW("list_sets_equivalent_list", rule_sets, FALSE, 2, 2),
	ROW("list_sets_intersects_list", rule_sets, FALSE, 2, 2),
};

static const CostRule k8s_rules[] = {
	ROW("includes", rule_dra_includes, TRUE, 0, MANY),
	ROW("isSorted", rule_list_traversal, TRUE, 0, MANY),
	ROW("sum", rule_list_traversal, TRUE, 0, MANY),
	ROW("max", rule_list_traversal, TRUE, 0, MANY),
	ROW("min", rule_list_traversal, TRUE, 0, MANY),
	ROW("indexOf", rule_list_traversal, TRUE, 0, MANY),
	ROW("lastIndexOf", rule_list_traversal, TRUE, 0, MANY),
	SCAN("url", FALSE, 1, 1, OPERAND_ARG0, CEL_COST_STRING_TRAVERSAL),
	ROW("lowerAscii", rule_scan_same_size, TRUE, 0, MANY),
	ROW("upperAscii", rule_scan_same_size, TRUE, 0, MANY),
	ROW("substring", rule_scan_same_size, TRUE, 0, MANY),
	ROW("trim", rule_scan_same_size, TRUE, 0, MANY),
	ROW("replace", rule_replace, TRUE, 2, MANY),
	ROW("split", rule_split, TRUE, 0, MANY),
	ROW("join", rule_join, TRUE, 0, MANY),
	ROW("find", rule_find, TRUE, 1, MANY),
	ROW("findAll", rule_find, TRUE, 1, MANY),
	/* Upstream tests `target != nil` for these global functions, so they never fire. */
	SCAN("quantity", TRUE, 1, MANY, OPERAND_ARG0, CEL_COST_STRING_TRAVERSAL),
	SCAN("isQuantity", TRUE, 1, MANY, OPERAND_ARG0, CEL_COST_STRING_TRAVERSAL),
	ROW("sign", rule_unit, FALSE, 0, MANY),
	ROW("asInteger", rule_unit, FALSE, 0, MANY),
	ROW("isInteger", rule_unit, FALSE, 0, MANY),
	ROW("asApproximateFloat", rule_unit, FALSE, 0, MANY),
	ROW("isGreaterThan", rule_unit, FALSE, 0, MANY),
	ROW("isLessThan", rule_unit, FALSE, 0, MANY),
	ROW("compareTo", rule_unit, FALSE, 0, MANY),
	ROW("add", rule_unit, FALSE, 0, MANY),
	ROW("sub", rule_unit, FALSE, 0, MANY),
};

static const CostRule builtin_rules[] = {
	ROW("string_format", rule_string_format, TRUE, 1, MANY),
	ROW("string_to_bytes", rule_string_to_bytes, FALSE, 1, 1),
	ROW("bytes_to_string", rule_bytes_to_string, FALSE, 1, 1),
	ROW("strings_quote", rule_strings_quote, FALSE, 1, 1),
	SCAN("starts_with_string", FALSE, 1, 1, OPERAND_ARG0, CEL_COST_STRING_TRAVERSAL),
	SCAN("ends_with_string", FALSE, 1, 1, OPERAND_ARG0, CEL_COST_STRING_TRAVERSAL),
	SCAN("in_list", FALSE, 2, 2, OPERAND_ARG1, 1),
	ROW("matches_string", rule_matches, TRUE, 1, 1),
	ROW("contains_string", rule_contains_string, TRUE, 1, 1),
	OWN("logical_and", rule_short_circuit, 0, MANY),
	OWN("logical_or", rule_short_circuit, 0, MANY),
	OWN("conditional", rule_conditional, 3, 3),
	ROW("add_string", rule_concat_text, FALSE, 2, 2),
	ROW("add_bytes", rule_concat_text, FALSE, 2, 2),
	ROW("add_list", rule_concat_list, FALSE, 2, 2),
	ROW("compare_string", rule_compare_text, FALSE, 2, 2),
	ROW("equals", rule_compare_text, FALSE, 2, 2),
	ROW("not_equals", rule_compare_text, FALSE, 2, 2),
};

typedef struct {
	const CostRule *rules;
	guint n;
	gboolean by_overload; /* rows name overload ids, else function names */
	CostSizeFn size;
} CostLayer;

static const CostLayer layers[] = {
	{ sets_rules, G_N_ELEMENTS(sets_rules), TRUE, cel_cost__estimated_size },
	{ k8s_rules, G_N_ELEMENTS(k8s_rules), FALSE, cel_cost__estimated_size },
	{ builtin_rules, G_N_ELEMENTS(builtin_rules), TRUE, cel_cost__computed_size },
};

/*
 * The tables indexed by name, built once: the estimator looks up every call of every
 * selector, and a scan of the rows (string compares) would cost more than the estimate. An
 * open-addressing array per table, filled without allocating (a GHashTable's set-up cost
 * more than compiling a few selectors does).
 */
#define INDEX_SLOTS 64 /* a power of two, over twice the names of any table */

typedef struct {
	const char *name; /* NULL: empty */
	guint row;
} IndexSlot;

static IndexSlot layer_slots[G_N_ELEMENTS(layers)][INDEX_SLOTS];
static IndexSlot overload_slots[INDEX_SLOTS]; /* a function's first row in overload_ids */

static void index_overload_ids(void);

/* FNV-1a: a name's first slot. */
static guint
slot_of(const char *name)
{
	guint32 h = 2166136261u;
	for (const guchar *p = (const guchar *)name; *p != '\0'; p++) {
		h = (h ^ *p) * 16777619u;
	}
	return h & (INDEX_SLOTS - 1);
}

/* Files @row under @name unless the name is there already (its first row wins). */
static void
index_add(IndexSlot *slots, const char *name, guint row)
{
	guint i = slot_of(name);
	for (; slots[i].name != NULL; i = (i + 1) & (INDEX_SLOTS - 1)) {
		if (strcmp(slots[i].name, name) == 0) {
			return;
		}
	}
	slots[i] = (IndexSlot){ name, row };
}

/* The row filed under @name, or -1. */
static gint
index_find(const IndexSlot *slots, const char *name)
{
	for (guint i = slot_of(name); slots[i].name != NULL; i = (i + 1) & (INDEX_SLOTS - 1)) {
		if (strcmp(slots[i].name, name) == 0) {
			return (gint)slots[i].row;
		}
	}
	return -1;
}

static void
index_init(void)
{
	static gsize done;
	if (!g_once_init_enter(&done)) {
		return;
	}
	for (guint l = 0; l < G_N_ELEMENTS(layers); l++) {
		g_assert(layers[l].n * 2 <= INDEX_SLOTS);
		for (guint i = 0; i < layers[l].n; i++) {
			index_add(layer_slots[l], layers[l].rules[i].name, i);
		}
	}
	index_overload_ids();
	g_once_init_leave(&done, 1);
}

static const CostRule *
layer_rule(guint l, const CelCostCall *call)
{
	const char *key = layers[l].by_overload ? call->overload : call->function;
	gint row = index_find(layer_slots[l], key);
	return row >= 0 ? &layers[l].rules[row] : NULL;
}

static gboolean
rule_fits(const CostRule *rule, const CelCostCall *call)
{
	return (!rule->needs_target || call->target != NULL) && call->nargs >= rule->min_args &&
	       call->nargs <= rule->max_args;
}

CelCostEstimate
cel_cost__call_rule(CelCoster *c, const CelCostCall *call)
{
	CelCostEstimate est = { 0 };
	CelCostRange argsum = { 0, 0 };
	index_init();
	for (guint i = 0; i < call->nargs; i++) {
		argsum = cel_cost_range_add(argsum, call->arg_costs[i]);
	}
	for (guint l = 0; l < G_N_ELEMENTS(layers); l++) {
		const CostRule *rule = layer_rule(l, call);
		CostCtx x = { c, call, layers[l].size };
		if (rule != NULL && rule_fits(rule, call) && rule->estimate(&x, rule, &est)) {
			if (!rule->own_args) {
				est.cost = cel_cost_range_add(est.cost, argsum);
			}
			return est;
		}
		memset(&est, 0, sizeof est);
	}
	est.cost = cel_cost_range_add(cel_cost_fixed(1), argsum);
	return est;
}

/* ---- cel-go's overload ids for the calls whose cost is not 1 ---- */

typedef enum {
	FORM_ANY,
	FORM_MEMBER, /* receiver-style: s.f(...) */
	FORM_GLOBAL, /* f(...) */
} CallForm;

#define NO_PARAM -1

/*
 * The first row whose function, call form and parameter kind match names the id; the rows
 * of one function are adjacent.
 */
static const struct {
	const char *function;
	CallForm form;
	gint8 param;      /* which parameter's kind is tested, or NO_PARAM */
	CelTypeKind kind; /* the kind it must have */
	const char *id;
} overload_ids[] = {
	{ "_==_", FORM_ANY, NO_PARAM, CEL_TYPE_DYN, "equals" },
	{ "_!=_", FORM_ANY, NO_PARAM, CEL_TYPE_DYN, "not_equals" },
	{ "_&&_", FORM_ANY, NO_PARAM, CEL_TYPE_DYN, "logical_and" },
	{ "_||_", FORM_ANY, NO_PARAM, CEL_TYPE_DYN, "logical_or" },
	{ "_?_:_", FORM_ANY, NO_PARAM, CEL_TYPE_DYN, "conditional" },
	{ "_<_", FORM_ANY, 0, CEL_TYPE_STRING, "compare_string" },
	{ "_<_", FORM_ANY, 0, CEL_TYPE_BYTES, "compare_string" },
	{ "_>_", FORM_ANY, 0, CEL_TYPE_STRING, "compare_string" },
	{ "_>_", FORM_ANY, 0, CEL_TYPE_BYTES, "compare_string" },
	{ "_<=_", FORM_ANY, 0, CEL_TYPE_STRING, "compare_string" },
	{ "_<=_", FORM_ANY, 0, CEL_TYPE_BYTES, "compare_string" },
	{ "_>=_", FORM_ANY, 0, CEL_TYPE_STRING, "compare_string" },
	{ "_>=_", FORM_ANY, 0, CEL_TYPE_BYTES, "compare_string" },
	{ "_+_", FORM_ANY, 0, CEL_TYPE_STRING, "add_string" },
	{ "_+_", FORM_ANY, 0, CEL_TYPE_BYTES, "add_bytes" },
	{ "_+_", FORM_ANY, 0, CEL_TYPE_LIST, "add_list" },
	{ "@in", FORM_ANY, 1, CEL_TYPE_LIST, "in_list" },
	{ "_[_]", FORM_ANY, 0, CEL_TYPE_LIST, "index_list" },
	{ "_[_]", FORM_ANY, 0, CEL_TYPE_MAP, "index_map" },
	{ "startsWith", FORM_MEMBER, NO_PARAM, CEL_TYPE_DYN, "starts_with_string" },
	{ "endsWith", FORM_MEMBER, NO_PARAM, CEL_TYPE_DYN, "ends_with_string" },
	{ "contains", FORM_MEMBER, 0, CEL_TYPE_STRING, "contains_string" },
	{ "matches", FORM_ANY, NO_PARAM, CEL_TYPE_DYN, "matches_string" },
	{ "format", FORM_MEMBER, 0, CEL_TYPE_STRING, "string_format" },
	{ "bytes", FORM_GLOBAL, 0, CEL_TYPE_STRING, "string_to_bytes" },
	{ "string", FORM_GLOBAL, 0, CEL_TYPE_BYTES, "bytes_to_string" },
	{ "strings.quote", FORM_GLOBAL, NO_PARAM, CEL_TYPE_DYN, "strings_quote" },
};

/* Parameter @i of the kept overload, or of the call's operand types for a special. */
static const CelType *
overload_param(const CelOverloadDecl *decl, const CelType *const *argt, guint nargt, guint i)
{
	if (decl != NULL && decl->nparams > i) {
		return decl->params[i];
	}
	return nargt > i ? argt[i] : NULL;
}

static void
index_overload_ids(void)
{
	G_STATIC_ASSERT(G_N_ELEMENTS(overload_ids) * 2 <= INDEX_SLOTS);
	for (guint i = 0; i < G_N_ELEMENTS(overload_ids); i++) {
		index_add(overload_slots, overload_ids[i].function, i);
	}
}

const char *
cel_cost__overload_id(const CelAst *e,
                      const CelOverloadDecl *decl,
                      const CelType *const *argt,
                      guint nargt)
{
	const char *fn = e->call.function;
	CallForm form = e->call.target != NULL ? FORM_MEMBER : FORM_GLOBAL;
	index_init();
	/* The rows of one function are adjacent: scan from its first. */
	gint first = index_find(overload_slots, fn);
	if (first < 0) {
		return decl != NULL ? decl->def->id : fn;
	}
	for (guint i = (guint)first;
	     i < G_N_ELEMENTS(overload_ids) && strcmp(overload_ids[i].function, fn) == 0; i++) {
		if (overload_ids[i].form != FORM_ANY && overload_ids[i].form != form) {
			continue;
		}
		if (overload_ids[i].param == NO_PARAM) {
			return overload_ids[i].id;
		}
		const CelType *p = overload_param(decl, argt, nargt, (guint)overload_ids[i].param);
		if (p != NULL && p->kind == overload_ids[i].kind) {
			return overload_ids[i].id;
		}
	}
	return decl != NULL ? decl->def->id : fn;
}
