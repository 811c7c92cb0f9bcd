/*
 * cel_lib_std.c: the CEL standard library: operators, size, string tests,
 * and the overload table that declares them (cel-go common/stdlib).
 *
 * Arithmetic is checked: int64/uint64 overflow, division and modulus by zero
 * are error values. Comparisons across int/uint/double are declared, as with
 * Kubernetes' CrossTypeNumericComparisons. Conversions live in
 * cel_lib_convert.c, timestamps in cel_lib_time.c.
 */
#include <math.h>
#include <string.h>

#include "cel-private.h"

#define FN(name) static CelValue name(CelActivation *act, const CelValue *a, guint n)

static CelValue
overflow(void)
{
	return cel_value_error("integer overflow");
}

FN(not_bool)
{
	return cel_value_bool(!a[0].b);
}

FN(neg_int)
{
	if (a[0].i == G_MININT64) {
		return overflow();
	}
	return cel_value_int(-a[0].i);
}

FN(neg_double)
{
	return cel_value_double(-a[0].d);
}

FN(add_int)
{
	gint64 r;
	if (__builtin_add_overflow(a[0].i, a[1].i, &r)) {
		return overflow();
	}
	return cel_value_int(r);
}

FN(sub_int)
{
	gint64 r;
	if (__builtin_sub_overflow(a[0].i, a[1].i, &r)) {
		return overflow();
	}
	return cel_value_int(r);
}

FN(mul_int)
{
	gint64 r;
	if (__builtin_mul_overflow(a[0].i, a[1].i, &r)) {
		return overflow();
	}
	return cel_value_int(r);
}

FN(div_int)
{
	if (a[1].i == 0) {
		return cel_value_error("division by zero");
	}
	if (a[0].i == G_MININT64 && a[1].i == -1) {
		return overflow();
	}
	return cel_value_int(a[0].i / a[1].i);
}

FN(mod_int)
{
	if (a[1].i == 0) {
		return cel_value_error("modulus by zero");
	}
	if (a[1].i == -1) {
		return cel_value_int(0);
	}
	return cel_value_int(a[0].i % a[1].i);
}

FN(add_uint)
{
	guint64 r;
	if (__builtin_add_overflow(a[0].u, a[1].u, &r)) {
		return overflow();
	}
	return cel_value_uint(r);
}

FN(sub_uint)
{
	guint64 r;
	if (__builtin_sub_overflow(a[0].u, a[1].u, &r)) {
		return overflow();
	}
	return cel_value_uint(r);
}

FN(mul_uint)
{
	guint64 r;
	if (__builtin_mul_overflow(a[0].u, a[1].u, &r)) {
		return overflow();
	}
	return cel_value_uint(r);
}

FN(div_uint)
{
	if (a[1].u == 0) {
		return cel_value_error("division by zero");
	}
	return cel_value_uint(a[0].u / a[1].u);
}

FN(mod_uint)
{
	if (a[1].u == 0) {
		return cel_value_error("modulus by zero");
	}
	return cel_value_uint(a[0].u % a[1].u);
}

FN(add_double)
{
	return cel_value_double(a[0].d + a[1].d);
}

FN(sub_double)
{
	return cel_value_double(a[0].d - a[1].d);
}

FN(mul_double)
{
	return cel_value_double(a[0].d * a[1].d);
}

FN(div_double)
{
	return cel_value_double(a[0].d / a[1].d);
}

FN(add_string)
{
	gsize len = (gsize)a[0].aux + a[1].aux;
	char *p = cel_activation_alloc(act, len + 1);
	if (a[0].aux) {
		memcpy(p, a[0].str, a[0].aux);
	}
	if (a[1].aux) {
		memcpy(p + a[0].aux, a[1].str, a[1].aux);
	}
	CelValue v =
	        a[0].kind == CEL_KIND_BYTES ? cel_value_bytes(p, len) : cel_value_string(p, len);
	return v;
}

/* list + list; appends in place when the left side is a comprehension's
 * accumulator (CEL_VALUE_MUTABLE), as cel-go's mutable lists do. */
FN(add_list)
{
	const CelList *l = a[0].list, *r = a[1].list;
	if ((a[0].flags & CEL_VALUE_MUTABLE) && l->klass == NULL) {
		CelList *m = (CelList *)l;
		if (m->len + r->len > m->cap) {
			guint cap = MAX(8, (m->len + r->len) * 2);
			CelValue *items = cel_activation_alloc(act, cap * sizeof(CelValue));
			if (m->len) {
				memcpy(items, m->items, m->len * sizeof(CelValue));
			}
			m->items = items;
			m->cap = cap;
		}
		for (guint i = 0; i < r->len; i++) {
			m->items[m->len++] = cel_list_get(r, i, act);
		}
		return a[0];
	}
	if (r->len == 0) {
		CelValue v = a[0];
		v.flags &= ~CEL_VALUE_MUTABLE;
		return v;
	}
	if (l->len == 0) {
		return a[1];
	}
	CelList *out = cel_list_new(act, l->len + r->len);
	for (guint i = 0; i < l->len; i++) {
		out->items[out->len++] = cel_list_get(l, i, act);
	}
	for (guint i = 0; i < r->len; i++) {
		out->items[out->len++] = cel_list_get(r, i, act);
	}
	return cel_value_list(out);
}

/* cel.@mapInsert(map, key, value) and cel.@mapInsert(map, map) */
FN(map_insert)
{
	const CelMap *src = a[0].map;
	CelMap *m;
	guint extra = n == 3 ? 1 : a[1].map->len;
	if ((a[0].flags & CEL_VALUE_MUTABLE) && src->klass == NULL) {
		m = (CelMap *)src;
	} else {
		m = cel_map_new(act, src->len + extra);
		for (guint i = 0; i < src->len; i++) {
			cel_map_entry(src, i, &m->keys[i], &m->values[i], act);
		}
		m->len = src->len;
	}
	if (m->len + extra > m->cap) {
		guint cap = MAX(8, (m->len + extra) * 2);
		CelValue *k = cel_activation_alloc(act, cap * sizeof(CelValue));
		CelValue *v = cel_activation_alloc(act, cap * sizeof(CelValue));
		if (m->len) {
			memcpy(k, m->keys, m->len * sizeof(CelValue));
			memcpy(v, m->values, m->len * sizeof(CelValue));
		}
		m->keys = k;
		m->values = v;
		m->cap = cap;
	}
	for (guint i = 0; i < extra; i++) {
		CelValue k, v, old;
		if (n == 3) {
			k = a[1];
			v = a[2];
		} else {
			cel_map_entry(a[1].map, i, &k, &v, act);
		}
		if (cel_map_lookup(m, k, &old, act)) {
			return cel_errorf(act, "insert failed: key already exists");
		}
		m->keys[m->len] = k;
		m->values[m->len++] = v;
	}
	CelValue r = cel_value_map(m);
	r.flags = a[0].flags & CEL_VALUE_MUTABLE;
	return r;
}

/* comparisons: one implementation, the operator is in the overload id */
static CelValue
compare(const CelValue *a, int want_lo, int want_hi)
{
	int c = cel_value_compare(a[0], a[1]);
	if (c == 3) {
		return cel_value_error("no matching overload");
	}
	if (c == 2) {
		return cel_value_bool(FALSE);
	}
	return cel_value_bool(c >= want_lo && c <= want_hi);
}

FN(lt)
{
	return compare(a, -1, -1);
}

FN(le)
{
	return compare(a, -1, 0);
}

FN(gt)
{
	return compare(a, 1, 1);
}

FN(ge)
{
	return compare(a, 0, 1);
}

FN(eq)
{
	return cel_value_bool(cel_value_equal(a[0], a[1], act));
}

FN(ne)
{
	return cel_value_bool(!cel_value_equal(a[0], a[1], act));
}

FN(logic_and)
{
	return cel_value_bool(a[0].b && a[1].b);
}

FN(logic_or)
{
	return cel_value_bool(a[0].b || a[1].b);
}

FN(cond)
{
	return a[0].b ? a[1] : a[2];
}

FN(not_strictly_false)
{
	return a[0].kind == CEL_KIND_BOOL ? a[0] : cel_value_bool(TRUE);
}

FN(in_list)
{
	for (guint i = 0; i < a[1].list->len; i++) {
		if (cel_value_equal(a[0], cel_list_get(a[1].list, i, act), act)) {
			return cel_value_bool(TRUE);
		}
	}
	return cel_value_bool(FALSE);
}

FN(in_map)
{
	if (a[1].map->klass != NULL && a[1].map->klass->contains != NULL) {
		return cel_value_bool(a[1].map->klass->contains(a[1].map, a[0], act));
	}
	CelValue out;
	return cel_value_bool(cel_map_lookup(a[1].map, a[0], &out, act));
}

FN(size_string)
{
	return cel_value_int((gint64)cel_utf8_length(a[0].str, a[0].aux));
}

FN(size_bytes)
{
	return cel_value_int(a[0].aux);
}

FN(size_list)
{
	return cel_value_int(a[0].list->len);
}

FN(size_map)
{
	return cel_value_int(a[0].map->len);
}

static gboolean
has_sub(CelValue s, CelValue sub)
{
	if (sub.aux > s.aux) {
		return FALSE;
	}
	if (sub.aux == 0) {
		return TRUE;
	}
	for (guint i = 0; i + sub.aux <= s.aux; i++) {
		if (memcmp(s.str + i, sub.str, sub.aux) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

FN(contains)
{
	return cel_value_bool(has_sub(a[0], a[1]));
}

FN(starts_with)
{
	return cel_value_bool(a[1].aux <= a[0].aux && memcmp(a[0].str, a[1].str, a[1].aux) == 0);
}

FN(ends_with)
{
	return cel_value_bool(a[1].aux <= a[0].aux &&
	                      memcmp(a[0].str + a[0].aux - a[1].aux, a[1].str, a[1].aux) == 0);
}

/* RE2 semantics come from cel-k8s's regex library, which replaces these two
 * overloads (same ids). Until it is linked, GRegex with a small cache. */
static GMutex regex_lock;
static GHashTable *regex_cache;

FN(matches)
{
	g_autofree char *pat = g_strndup(a[1].str, a[1].aux);
	g_mutex_lock(&regex_lock);
	if (regex_cache == NULL) {
		regex_cache = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
		                                    (GDestroyNotify)g_regex_unref);
	}
	GRegex *re = g_hash_table_lookup(regex_cache, pat);
	if (re == NULL) {
		GError *err = NULL;
		re = g_regex_new(pat, G_REGEX_OPTIMIZE, 0, &err);
		if (re == NULL) {
			g_mutex_unlock(&regex_lock);
			CelValue e =
			        cel_errorf(act, "invalid regular expression: %s", err->message);
			g_error_free(err);
			return e;
		}
		g_hash_table_insert(regex_cache, g_strdup(pat), re);
	}
	g_regex_ref(re);
	g_mutex_unlock(&regex_lock);
	gboolean m = g_regex_match_full(re, a[0].str, a[0].aux, 0, 0, NULL, NULL);
	g_regex_unref(re);
	return cel_value_bool(m);
}

FN(identity)
{
	return a[0];
}

FN(type_of)
{
	return cel_value_type(cel_type_of_value(a[0]));
}

static const CelOverload std_overloads[] = {
	{ "!_", "logical_not", CEL_GLOBAL, "bool -> bool", not_bool, NULL },
	{ "-_", "negate_int64", CEL_GLOBAL, "int -> int", neg_int, NULL },
	{ "-_", "negate_double", CEL_GLOBAL, "double -> double", neg_double, NULL },
	{ "_&&_", "logical_and", CEL_GLOBAL, "bool, bool -> bool", logic_and, NULL },
	{ "_||_", "logical_or", CEL_GLOBAL, "bool, bool -> bool", logic_or, NULL },
	{ "_?_:_", "conditional", CEL_GLOBAL, "bool, A, A -> A", cond, NULL },
	{ "@not_strictly_false", "not_strictly_false", CEL_GLOBAL, "bool -> bool",
	  not_strictly_false, NULL },
	{ "_+_", "add_int64", CEL_GLOBAL, "int, int -> int", add_int, NULL },
	{ "_+_", "add_uint64", CEL_GLOBAL, "uint, uint -> uint", add_uint, NULL },
	{ "_+_", "add_double", CEL_GLOBAL, "double, double -> double", add_double, NULL },
	{ "_+_", "add_string", CEL_GLOBAL, "string, string -> string", add_string, NULL },
	{ "_+_", "add_bytes", CEL_GLOBAL, "bytes, bytes -> bytes", add_string, NULL },
	{ "_+_", "add_list", CEL_GLOBAL, "list(A), list(A) -> list(A)", add_list, NULL },
	{ "_-_", "subtract_int64", CEL_GLOBAL, "int, int -> int", sub_int, NULL },
	{ "_-_", "subtract_uint64", CEL_GLOBAL, "uint, uint -> uint", sub_uint, NULL },
	{ "_-_", "subtract_double", CEL_GLOBAL, "double, double -> double", sub_double, NULL },
	{ "_*_", "multiply_int64", CEL_GLOBAL, "int, int -> int", mul_int, NULL },
	{ "_*_", "multiply_uint64", CEL_GLOBAL, "uint, uint -> uint", mul_uint, NULL },
	{ "_*_", "multiply_double", CEL_GLOBAL, "double, double -> double", mul_double, NULL },
	{ "_/_", "divide_int64", CEL_GLOBAL, "int, int -> int", div_int, NULL },
	{ "_/_", "divide_uint64", CEL_GLOBAL, "uint, uint -> uint", div_uint, NULL },
	{ "_/_", "divide_double", CEL_GLOBAL, "double, double -> double", div_double, NULL },
	{ "_%_", "modulo_int64", CEL_GLOBAL, "int, int -> int", mod_int, NULL },
	{ "_%_", "modulo_uint64", CEL_GLOBAL, "uint, uint -> uint", mod_uint, NULL },
	{ "_==_", "equals", CEL_GLOBAL, "A, A -> bool", eq, NULL },
	{ "_!=_", "not_equals", CEL_GLOBAL, "A, A -> bool", ne, NULL },
	{ "@in", "in_list", CEL_GLOBAL, "A, list(A) -> bool", in_list, NULL },
	{ "@in", "in_map", CEL_GLOBAL, "A, map(A, B) -> bool", in_map, NULL },
	{ "_[_]", "index_list", CEL_GLOBAL, "list(A), int -> A", NULL, NULL },
	{ "_[_]", "index_map", CEL_GLOBAL, "map(A, B), A -> B", NULL, NULL },
	{ "size", "size_string", CEL_GLOBAL, "string -> int", size_string, NULL },
	{ "size", "size_bytes", CEL_GLOBAL, "bytes -> int", size_bytes, NULL },
	{ "size", "size_list", CEL_GLOBAL, "list(A) -> int", size_list, NULL },
	{ "size", "size_map", CEL_GLOBAL, "map(A, B) -> int", size_map, NULL },
	{ "size", "string_size", CEL_RECEIVER, "string -> int", size_string, NULL },
	{ "size", "bytes_size", CEL_RECEIVER, "bytes -> int", size_bytes, NULL },
	{ "size", "list_size", CEL_RECEIVER, "list(A) -> int", size_list, NULL },
	{ "size", "map_size", CEL_RECEIVER, "map(A, B) -> int", size_map, NULL },
	{ "contains", "contains_string", CEL_RECEIVER, "string, string -> bool", contains, NULL },
	{ "startsWith", "starts_with_string", CEL_RECEIVER, "string, string -> bool", starts_with,
	  NULL },
	{ "endsWith", "ends_with_string", CEL_RECEIVER, "string, string -> bool", ends_with, NULL },
	{ "matches", "matches", CEL_GLOBAL, "string, string -> bool", matches, NULL },
	{ "matches", "matches_string", CEL_RECEIVER, "string, string -> bool", matches, NULL },
	{ "dyn", "to_dyn", CEL_GLOBAL, "A -> dyn", identity, NULL },
	{ "type", "type", CEL_GLOBAL, "A -> type(A)", type_of, NULL },
	{ "cel.@mapInsert", "cel_@mapInsert_map_key_value", CEL_GLOBAL,
	  "map(K, V), K, V -> map(K, V)", map_insert, NULL },
	{ "cel.@mapInsert", "cel_@mapInsert_map_map", CEL_GLOBAL,
	  "map(K, V), map(K, V) -> map(K, V)", map_insert, NULL },
};

/* ordering operators: same-type and cross-type numeric overloads */
static const char *const cmp_types[] = { "bool",   "int",   "uint",      "double",
	                                 "string", "bytes", "timestamp", "duration" };
/* the spelling of each in cel-go's overload ids (common/overloads/overloads.go) */
static const char *const cmp_ids[] = { "bool",   "int64", "uint64",    "double",
	                               "string", "bytes", "timestamp", "duration" };
static const char *const num_types[] = { "int", "uint", "double" };
static const char *const num_ids[] = { "int64", "uint64", "double" };

static void
register_comparisons(CelEnv *env)
{
	static const struct {
		const char *fn;
		const char *name;
		CelFunc impl;
	} ops[] = { { "_<_", "less", lt },
		    { "_<=_", "less_equals", le },
		    { "_>_", "greater", gt },
		    { "_>=_", "greater_equals", ge } };
	static CelOverload rows[4 * (8 + 6)];
	static gsize init;
	if (g_once_init_enter(&init)) {
		guint k = 0;
		for (guint o = 0; o < G_N_ELEMENTS(ops); o++) {
			for (guint t = 0; t < G_N_ELEMENTS(cmp_types); t++) {
				const char *ty = cmp_types[t];
				char id[64], sig[64];
				g_snprintf(id, sizeof id, "%s_%s", ops[o].name, cmp_ids[t]);
				g_snprintf(sig, sizeof sig, "%s, %s -> bool", ty, ty);
				rows[k++] = (CelOverload){
					ops[o].fn,   g_intern_string(id),
					CEL_GLOBAL,  g_intern_string(sig),
					ops[o].impl, NULL,
				};
			}
			for (guint x = 0; x < 3; x++) {
				for (guint y = 0; y < 3; y++) {
					if (x == y) {
						continue;
					}
					char id[64], sig[64];
					g_snprintf(id, sizeof id, "%s_%s_%s", ops[o].name,
					           num_ids[x], num_ids[y]);
					g_snprintf(sig, sizeof sig, "%s, %s -> bool", num_types[x],
					           num_types[y]);
					rows[k++] = (CelOverload){
						ops[o].fn,   g_intern_string(id),
						CEL_GLOBAL,  g_intern_string(sig),
						ops[o].impl, NULL,
					};
				}
			}
		}
		g_once_init_leave(&init, 1);
	}
	cel_env_add_overloads(env, rows, G_N_ELEMENTS(rows));
}

void cel_lib_convert_register(CelEnv *env);

void
cel_lib_std_register(CelEnv *env)
{
	cel_env_add_overloads(env, std_overloads, G_N_ELEMENTS(std_overloads));
	register_comparisons(env);
	cel_lib_convert_register(env);
}
