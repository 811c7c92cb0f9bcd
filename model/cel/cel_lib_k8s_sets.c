/*
 * cel_lib_k8s_sets.c: cel-go's ext.Sets library (sets.contains, sets.equivalent,
 * sets.intersects), which the Kubernetes base environment enables from 1.29 on.
 *
 * Lists are treated as sets under CEL equality (1 == 1u == 1.0). The work is quadratic, as
 * in cel-go, whose cost model charges size(a) * size(b).
 */
#include "cel_lib_k8s.h"

static gboolean
list_has(const CelList *list, CelValue v, CelActivation *act)
{
	for (guint i = 0; i < list->len; i++) {
		if (cel_value_equal(cel_list_get(list, i, act), v, act)) {
			return TRUE;
		}
	}
	return FALSE;
}

/* Every element of @sub is in @super. */
static gboolean
list_contains_all(const CelList *super, const CelList *sub, CelActivation *act)
{
	for (guint i = 0; i < sub->len; i++) {
		if (!list_has(super, cel_list_get(sub, i, act), act)) {
			return FALSE;
		}
	}
	return TRUE;
}

static CelValue
sets_contains(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_bool(list_contains_all(args[0].list, args[1].list, act));
}

static CelValue
sets_equivalent(CelActivation *act, const CelValue *args, guint nargs)
{
	return cel_value_bool(list_contains_all(args[0].list, args[1].list, act) &&
	                      list_contains_all(args[1].list, args[0].list, act));
}

static CelValue
sets_intersects(CelActivation *act, const CelValue *args, guint nargs)
{
	const CelList *b = args[1].list;
	for (guint i = 0; i < b->len; i++) {
		if (list_has(args[0].list, cel_list_get(b, i, act), act)) {
			return cel_value_bool(TRUE);
		}
	}
	return cel_value_bool(FALSE);
}

static const CelOverload sets_overloads[] = {
	{ "sets.contains", "list_sets_contains_list", CEL_GLOBAL, "list(T), list(T) -> bool",
	  sets_contains, NULL },
	{ "sets.equivalent", "list_sets_equivalent_list", CEL_GLOBAL, "list(T), list(T) -> bool",
	  sets_equivalent, NULL },
	{ "sets.intersects", "list_sets_intersects_list", CEL_GLOBAL, "list(T), list(T) -> bool",
	  sets_intersects, NULL },
};

void
cel_lib_k8s_sets_register(CelEnv *env)
{
	cel_env_add_overloads(env, sets_overloads, G_N_ELEMENTS(sets_overloads));
}
