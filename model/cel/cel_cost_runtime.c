/*
 * cel_cost_runtime.c: the runtime cost tracker, ported from cel-go (interpreter/runtimecost.go)
 * with the Kubernetes library's CallCost (k8s.io/apiserver/pkg/cel/library/cost.go): every
 * evaluated node adds its actual cost to the activation, so an evaluation over its budget
 * stops. Calls are charged by a class looked up once per interned function name.
 */
#include <math.h>

#include "cel_cost.h"

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
		return (guint64)((double)v.aux * CEL_COST_STRING_TRAVERSAL);
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

/* cidr.containsIP / containsCIDR: @base, plus parsing the operand when it is a string. */
static guint64
containment_cost(guint64 base, const CelValue *args, guint nargs)
{
	if (nargs == 2 && args[1].kind == CEL_KIND_STRING) {
		return base +
		       cel_cost_ceil(cel_cost_actual_size(args[1]), CEL_COST_STRING_TRAVERSAL);
	}
	return base;
}

/* library.CostEstimator.CallCost, then cel-go's CostTracker.costCall. */
static guint64
call_cost(CelActivation *act, const CelAst *e, const CelValue *args, guint nargs, CelValue result)
{
	switch (rt_class(e->call.function)) {
	case RT_TRAVERSAL:
		return nargs > 0 ? traversal_cost(args[0], act) : 0;
	case RT_STR_ARG0:
		return nargs > 0 ? cel_cost_ceil(cel_cost_actual_size(args[0]),
		                                 CEL_COST_STRING_TRAVERSAL)
		                 : 1;
	case RT_STR_ARG0_X2:
		return nargs > 0 ? cel_cost_ceil(cel_cost_actual_size(args[0]),
		                                 2 * CEL_COST_STRING_TRAVERSAL)
		                 : 1;
	case RT_JOIN:
		return cel_cost_ceil(cel_cost_actual_size(result), 2 * CEL_COST_STRING_TRAVERSAL);
	case RT_REGEX:
		if (nargs < 2) {
			return 1;
		}
		return cel_cost_ceil(1 + cel_cost_actual_size(args[0]), CEL_COST_STRING_TRAVERSAL) *
		       cel_cost_ceil(cel_cost_actual_size(args[1]), CEL_COST_REGEX_LENGTH);
	case RT_SETS:
		return nargs == 2
		               ? 1 + cel_cost_actual_size(args[0]) * cel_cost_actual_size(args[1])
		               : 1;
	case RT_CONVERT:
		if (nargs == 1 && is_text(args[0])) {
			return cel_cost_ceil(cel_cost_actual_size(args[0]),
			                     CEL_COST_STRING_TRAVERSAL);
		}
		return 1;
	case RT_PREFIX:
		return nargs == 2 ? cel_cost_ceil(cel_cost_actual_size(args[1]),
		                                  CEL_COST_STRING_TRAVERSAL)
		                  : 1;
	case RT_IN:
		return nargs == 2 && args[1].kind == CEL_KIND_LIST ? cel_cost_actual_size(args[1])
		                                                   : 1;
	case RT_CONTAINS:
		if (nargs == 2 && args[0].kind == CEL_KIND_STRING) {
			return cel_cost_ceil(cel_cost_actual_size(args[0]),
			                     CEL_COST_STRING_TRAVERSAL) *
			       cel_cost_ceil(cel_cost_actual_size(args[1]),
			                     CEL_COST_STRING_TRAVERSAL);
		}
		return 1;
	case RT_ADD:
		if (nargs == 2 && is_text(args[0])) {
			return cel_cost_ceil(cel_cost_actual_size(args[0]) +
			                             cel_cost_actual_size(args[1]),
			                     CEL_COST_STRING_TRAVERSAL);
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
		        CEL_COST_STRING_TRAVERSAL);
	case RT_IP:
		return nargs == 1 && args[0].kind == CEL_KIND_STRING
		               ? cel_cost_ceil(cel_cost_actual_size(args[0]),
		                               CEL_COST_STRING_TRAVERSAL)
		               : 1;
	case RT_CONTAINS_IP:
		return containment_cost(1, args, nargs);
	case RT_CONTAINS_CIDR:
		return containment_cost(3, args, nargs);
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
		act->cost += CEL_COST_LIST_CREATE;
		break;
	case CEL_AST_MAP:
		act->cost += CEL_COST_MAP_CREATE;
		break;
	case CEL_AST_STRUCT:
		act->cost += CEL_COST_STRUCT_CREATE;
		break;
	default:
		/* constants, comprehensions (their parts are counted), host nodes (count
		 * themselves) */
		break;
	}
}
