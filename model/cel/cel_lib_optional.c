/*
 * cel_lib_optional.c: optional types (cel-go cel/library.go optionalLib):
 * optional.of/ofNonZeroValue/none, hasValue, value, or, orValue, and the
 * declarations of the `.?` / `[?]` operators (evaluated in cel_eval.c).
 * or/orValue short-circuit as cel-go's decorators do: the argument is
 * evaluated only when the receiver is empty (see cel_eval.c).
 */
#include "cel-private.h"

#define FN(name) static CelValue name(CelActivation *act, const CelValue *a, guint n)

FN(opt_of)
{
	CelValue v = a[0];
	v.flags &= ~CEL_VALUE_MUTABLE;
	return cel_value_optional_of(act, v);
}

static gboolean
is_zero(CelValue v)
{
	switch ((CelKind)v.kind) {
	case CEL_KIND_NULL:
		return TRUE;
	case CEL_KIND_BOOL:
		return !v.b;
	case CEL_KIND_INT:
	case CEL_KIND_DURATION:
		return v.i == 0;
	case CEL_KIND_UINT:
		return v.u == 0;
	case CEL_KIND_DOUBLE:
		return CEL_DOUBLE_EQ(v.d, 0.0);
	case CEL_KIND_STRING:
	case CEL_KIND_BYTES:
		return v.aux == 0;
	case CEL_KIND_LIST:
		return v.list->len == 0;
	case CEL_KIND_MAP:
		return v.map->len == 0;
	case CEL_KIND_TIMESTAMP:
		return v.i == 0 && v.aux == 0;
	case CEL_KIND_OPTIONAL:
		return v.opt == NULL;
	default:
		return FALSE;
	}
}

FN(opt_of_non_zero)
{
	if (is_zero(a[0])) {
		return cel_value_optional_none();
	}
	return opt_of(act, a, n);
}

FN(opt_none)
{
	return cel_value_optional_none();
}

FN(opt_has_value)
{
	return cel_value_bool(a[0].opt != NULL);
}

FN(opt_value)
{
	if (a[0].opt == NULL) {
		return cel_value_error("optional.none() dereference");
	}
	return *(const CelValue *)a[0].opt;
}

FN(opt_or)
{
	return a[0].opt != NULL ? a[0] : a[1];
}

FN(opt_or_value)
{
	return a[0].opt != NULL ? *(const CelValue *)a[0].opt : a[1];
}

static const CelOverload optional_overloads[] = {
	{ "optional.of", "optional_of", CEL_GLOBAL, "A -> optional_type(A)", opt_of, NULL },
	{ "optional.ofNonZeroValue", "optional_ofNonZeroValue", CEL_GLOBAL, "A -> optional_type(A)",
	  opt_of_non_zero, NULL },
	{ "optional.none", "optional_none", CEL_GLOBAL, "-> optional_type(A)", opt_none, NULL },
	{ "hasValue", "optional_hasValue", CEL_RECEIVER, "optional_type(A) -> bool", opt_has_value,
	  NULL },
	{ "value", "optional_value", CEL_RECEIVER, "optional_type(A) -> A", opt_value, NULL },
	{ "or", "optional_or_optional", CEL_RECEIVER,
	  "optional_type(A), optional_type(A) -> optional_type(A)", opt_or, NULL },
	{ "orValue", "optional_orValue_value", CEL_RECEIVER, "optional_type(A), A -> A",
	  opt_or_value, NULL },
	{ "_?._", "select_optional_field", CEL_GLOBAL, "map(K, V), string -> optional_type(V)",
	  NULL, NULL },
	{ "_?._", "select_optional_field_optional", CEL_GLOBAL,
	  "optional_type(map(K, V)), string -> optional_type(V)", NULL, NULL },
	{ "_[?_]", "list_optindex_optional_int", CEL_GLOBAL, "list(V), int -> optional_type(V)",
	  NULL, NULL },
	{ "_[?_]", "map_optindex_optional_value", CEL_GLOBAL, "map(K, V), K -> optional_type(V)",
	  NULL, NULL },
	{ "_[?_]", "optional_list_optindex_optional_int", CEL_GLOBAL,
	  "optional_type(list(V)), int -> optional_type(V)", NULL, NULL },
	{ "_[?_]", "optional_map_optindex_optional_value", CEL_GLOBAL,
	  "optional_type(map(K, V)), K -> optional_type(V)", NULL, NULL },
	{ "_[_]", "optional_list_index_int", CEL_GLOBAL,
	  "optional_type(list(V)), int -> optional_type(V)", NULL, NULL },
	{ "_[_]", "optional_map_index_value", CEL_GLOBAL,
	  "optional_type(map(K, V)), K -> optional_type(V)", NULL, NULL },
};

void
cel_lib_optional_register(CelEnv *env)
{
	cel_env_add_overloads(env, optional_overloads, G_N_ELEMENTS(optional_overloads));
}
