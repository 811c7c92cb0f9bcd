/*
 * cel_lib_k8s_lists.c: the Kubernetes lists CEL library (isSorted, sum, min, max, indexOf,
 * lastIndexOf) of k8s.io/apiserver/pkg/cel/library/lists.go.
 *
 * Overload ids follow upstream's naming ("list_int_sum_int", "list_a_index_of_int") since
 * the cost model and error messages refer to them.
 */
#include "cel_lib_k8s.h"

static CelValue
lists_is_sorted(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelList *list = args[0].list;
	for (guint i = 1; i < list->len; i++) {
		CelValue prev = cel_list_get(list, i - 1, act);
		CelValue next = cel_list_get(list, i, act);
		int c = cel_value_compare(prev, next);
		if (c == 3) {
			return cel_value_error("no such overload");
		}
		if (c == 1) {
			return cel_value_bool(FALSE);
		}
	}
	return cel_value_bool(TRUE);
}

/* sum of int, uint, double or duration; an empty list sums to that type's zero. */
static CelValue
lists_sum(CelActivation *act, const CelValue *args, guint nargs, CelKind kind)
{
	const CelList *list = args[0].list;
	gint64 i = 0;
	guint64 u = 0;
	double d = 0;

	for (guint k = 0; k < list->len; k++) {
		CelValue v = cel_list_get(list, k, act);
		switch (kind) {
		case CEL_KIND_INT:
		case CEL_KIND_DURATION:
			if ((v.i > 0 && i > G_MAXINT64 - v.i) ||
			    (v.i < 0 && i < G_MININT64 - v.i)) {
				return cel_value_error("integer overflow");
			}
			i += v.i;
			break;
		case CEL_KIND_UINT:
			if (u > G_MAXUINT64 - v.u) {
				return cel_value_error("unsigned integer overflow");
			}
			u += v.u;
			break;
		default:
			d += v.d;
			break;
		}
	}
	switch (kind) {
	case CEL_KIND_INT:
		return cel_value_int(i);
	case CEL_KIND_DURATION:
		return cel_value_duration(i);
	case CEL_KIND_UINT:
		return cel_value_uint(u);
	default:
		return cel_value_double(d);
	}
}

/* sum() of each element type: one overload each, all the same walk. */
#define LISTS_SUM_OVERLOAD(suffix, kind)                                                           \
	static CelValue lists_sum_##suffix(CelActivation *act, const CelValue *args, guint nargs)  \
	{                                                                                          \
		return lists_sum(act, args, nargs, kind);                                          \
	}
LISTS_SUM_OVERLOAD(int, CEL_KIND_INT)
LISTS_SUM_OVERLOAD(uint, CEL_KIND_UINT)
LISTS_SUM_OVERLOAD(double, CEL_KIND_DOUBLE)
LISTS_SUM_OVERLOAD(duration, CEL_KIND_DURATION)

static CelValue
lists_extreme(CelActivation *act, const CelValue *args, int want, const char *empty)
{
	const CelList *list = args[0].list;
	if (list->len == 0) {
		return cel_value_error(empty);
	}
	CelValue best = cel_list_get(list, 0, act);
	for (guint i = 1; i < list->len; i++) {
		CelValue v = cel_list_get(list, i, act);
		int c = cel_value_compare(v, best);
		if (c == 3) {
			return cel_value_error("no such overload");
		}
		if (c == want) {
			best = v;
		}
	}
	return best;
}

static CelValue
lists_min(CelActivation *act, const CelValue *args, guint nargs)
{
	return lists_extreme(act, args, -1, "min called on empty list");
}

static CelValue
lists_max(CelActivation *act, const CelValue *args, guint nargs)
{
	return lists_extreme(act, args, 1, "max called on empty list");
}

static CelValue
lists_index_of(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelList *list = args[0].list;
	for (guint i = 0; i < list->len; i++) {
		if (cel_value_equal(cel_list_get(list, i, act), args[1], act)) {
			return cel_value_int(i);
		}
	}
	return cel_value_int(-1);
}

static CelValue
lists_last_index_of(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelList *list = args[0].list;
	for (guint i = list->len; i > 0; i--) {
		if (cel_value_equal(cel_list_get(list, i - 1, act), args[1], act)) {
			return cel_value_int(i - 1);
		}
	}
	return cel_value_int(-1);
}

#define COMPARABLE(t)                                                                               \
	{ "isSorted",      "list_" t "_is_sorted_bool",                                             \
	  CEL_RECEIVER,    "list(" t ") -> bool",                                                   \
	  lists_is_sorted, NULL },                                                                  \
	        { "min", "list_" t "_min_" t, CEL_RECEIVER, "list(" t ") -> " t, lists_min, NULL }, \
	{                                                                                           \
		"max", "list_" t "_max_" t, CEL_RECEIVER, "list(" t ") -> " t, lists_max, NULL      \
	}

static const CelOverload lists_overloads[] = {
	{ "sum", "list_int_sum_int", CEL_RECEIVER, "list(int) -> int", lists_sum_int, NULL },
	{ "sum", "list_uint_sum_uint", CEL_RECEIVER, "list(uint) -> uint", lists_sum_uint, NULL },
	{ "sum", "list_double_sum_double", CEL_RECEIVER, "list(double) -> double", lists_sum_double,
	  NULL },
	{ "sum", "list_duration_sum_duration", CEL_RECEIVER,
	  "list(google.protobuf.Duration) -> google.protobuf.Duration", lists_sum_duration, NULL },
	COMPARABLE("int"),
	COMPARABLE("uint"),
	COMPARABLE("double"),
	COMPARABLE("bool"),
	COMPARABLE("string"),
	COMPARABLE("bytes"),
	COMPARABLE("google.protobuf.Duration"),
	COMPARABLE("google.protobuf.Timestamp"),
	{ "indexOf", "list_a_index_of_int", CEL_RECEIVER, "list(A), A -> int", lists_index_of,
	  NULL },
	{ "lastIndexOf", "list_a_last_index_of_int", CEL_RECEIVER, "list(A), A -> int",
	  lists_last_index_of, NULL },
};

void
cel_lib_k8s_lists_register(CelEnv *env)
{
	cel_env_add_overloads(env, lists_overloads, G_N_ELEMENTS(lists_overloads));
}
