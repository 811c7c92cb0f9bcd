/*
 * test_cel_eval.c: evaluation semantics: checked arithmetic, heterogeneous
 * numeric comparison, error absorption by && || ?:, `in`, code-point string
 * size, double formatting as cel-go, timestamps, optionals, comprehension
 * accumulators, host map values with custom lookup, and runtime errors as
 * values.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cel-private.h"

/* Evaluates @src with x = 7, s = 'héllo' and prints the result. */
static char *
eval_to_string(CelEnv *env, const char *src)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(CelProgram) p = cel_program_compile(env, src, &error);
	if (p == NULL) {
		return g_strdup(error->message);
	}
	g_autoptr(CelActivation) act = cel_activation_new(env);
	cel_activation_set(act, cel_env_lookup_var(env, "x")->slot, cel_value_int(7));
	cel_activation_set(act, cel_env_lookup_var(env, "s")->slot,
	                   cel_value_string("h\xc3\xa9llo", 6));
	GString *out = g_string_new(NULL);
	cel_value_print(out, cel_program_eval(p, act));
	return g_string_free(out, FALSE);
}

static CelEnv *
new_env(void)
{
	CelEnv *env = cel_env_new();
	cel_env_declare_var(env, "x", cel_type_int());
	cel_env_declare_var(env, "s", cel_type_string());
	return env;
}

#define CHECK(env, src, want)                                                                      \
	do {                                                                                       \
		g_autofree char *got_ = eval_to_string(env, src);                                  \
		if (strcmp(got_, want) != 0) {                                                     \
			fail_msg("%s\n  want %s\n  got  %s", src, want, got_);                     \
		}                                                                                  \
	} while (0)

/* One expression and the rendering its evaluation must give. */
typedef struct {
	const char *src;
	const char *want;
} EvalCase;

/* Runs every case of one test against a single environment, reporting the failing source. */
static void
check_cases(const EvalCase *cases, size_t n)
{
	g_autoptr(CelEnv) env = new_env();
	for (size_t i = 0; i < n; i++) {
		CHECK(env, cases[i].src, cases[i].want);
	}
}

static void
test_eval__arithmetic(void **state)
{
	static const EvalCase cases[] = {
		{ "x * 6", "42" },
		{ "9223372036854775807 + x", "error: integer overflow" },
		{ "-9223372036854775808 / -1", "error: integer overflow" },
		{ "x / 0", "error: division by zero" },
		{ "x % 0", "error: modulus by zero" },
		{ "0u - 1u", "error: integer overflow" },
		{ "1.0 / 0.0", "+Inf" },
		{ "string(1e21)", "\"1e+21\"" },
		{ "string(123456.0)", "\"123456\"" },
		{ "string(1234567.0)", "\"1.234567e+06\"" },
		{ "string(0.0001)", "\"0.0001\"" },
		{ "string(0.00001)", "\"1e-05\"" },
		{ "int('-12') + int(2.9)", "-10" },
		{ "int(1e19)", "error: range error" },
	};
	check_cases(cases, G_N_ELEMENTS(cases));
}

static void
test_eval__comparison_and_logic(void **state)
{
	static const EvalCase cases[] = {
		{ "dyn(1) == 1u && dyn(1u) == 1.0 && 2 > 1.5 && 1u < 2", "true" },
		{ "1 == 1u", "ERROR: <input>:1:3: found no matching overload for '_==_' applied to "
		             "'(int, uint)'\n | 1 == 1u\n | ..^" },
		{ "dyn(1) == 'a'", "false" },
		{ "false && x / 0 == 1", "false" },
		{ "x / 0 == 1 && false", "false" },
		{ "x / 0 == 1 || true", "true" },
		{ "x / 0 == 1 && true", "error: division by zero" },
		{ "true ? 1 : x / 0", "1" },
		{ "2 in [1, 2] && 'a' in {'a': 1} && !(dyn(3) in [1u, 2u]) && dyn(2) in [1u, 2u]",
		  "true" },
		{ "0.0/0.0 == 0.0/0.0", "false" },
	};
	check_cases(cases, G_N_ELEMENTS(cases));
}

static void
test_eval__strings_and_containers(void **state)
{
	g_autoptr(CelEnv) env = new_env();
	CHECK(env, "size(s)", "5");
	CHECK(env, "s.charAt(1) + s.substring(3)", "\"élo\"");
	CHECK(env, "{'a': 1}['b']", "error: no such key: b");
	CHECK(env, "[1, 2][2]", "error: index out of bounds: 2");
	CHECK(env, "[1, 2, 3].map(v, v * x)", "[7, 14, 21]");
	CHECK(env, "[1, 2, 3].filter(v, v > 1).size()", "2");
	CHECK(env, "cel.bind(l, [1].map(v, v), [l + [2], l + [3]])", "[[1, 2], [1, 3]]");
	CHECK(env, "{'k': 1}.transformMap(k, v, v + 1)", "{\"k\": 2}");
	CHECK(env, "[3, 4].all(i, v, v > i)", "true");
	CHECK(env, "{'a': {'b': 1}}.?a.?c.orValue(5)", "5");
	CHECK(env, "optional.none().orValue(x / 0)", "error: division by zero");
	CHECK(env, "optional.of(1).orValue(x / 0)", "1");
	CHECK(env, "timestamp('2009-02-13T23:31:30Z').getDayOfWeek()", "5");
	CHECK(env, "duration('1h30m') + duration('30m') == duration('2h')", "true");
	CHECK(env, "'%d-%s'.format([x, 'a'])", "\"7-a\"");
	/* precision bound (fuzz-cel: %.4444444444...f overflowed the parser's int): 1000
	 * digits print, "1." plus 1000 digits = 1002 characters; 1001 is an error */
	CHECK(env, "'%.1000f'.format([1.5]).size()", "1002");
	CHECK(env, "'%.1001f'.format([1.5])",
	      "error: could not parse formatting clause: precision exceeds drasim's limit of 1000");
	CHECK(env, "'%.44444444444444444444f'.format([1.5])",
	      "error: could not parse formatting clause: precision exceeds drasim's limit of 1000");
}

/* a host map: keys "0".."n-1" map to their index, looked up by arithmetic */
typedef struct {
	CelMap base;
} CountMap;

static gboolean
count_lookup(const CelMap *self, CelValue key, CelValue *out, CelActivation *act)
{
	if (key.kind != CEL_KIND_STRING || key.aux != 1 || key.str[0] < '0' ||
	    key.str[0] >= '0' + (int)self->len) {
		return FALSE;
	}
	*out = cel_value_int(key.str[0] - '0');
	return TRUE;
}

static void
count_entry(const CelMap *self, guint i, CelValue *key, CelValue *value, CelActivation *act)
{
	static const char digits[] = "0123456789";
	*key = cel_value_string(digits + i, 1);
	*value = cel_value_int(i);
}

static const CelMapClass count_class = { count_lookup, count_entry, NULL };

static void
test_eval__host_map(void **state)
{
	g_autoptr(CelEnv) env = cel_env_new();
	guint slot = cel_env_declare_var(env, "h", cel_type_parse("map(string, int)"));
	g_autoptr(GError) error = NULL;
	g_autoptr(CelProgram) p = cel_program_compile(
	        env,
	        "h['2'] + h.`3` == 5 && '1' in h && !has(h.x) && h.size() == 4 && "
	        "h.exists(k, h[k] == 3)",
	        &error);
	assert_non_null(p);
	CountMap m = { { &count_class, 4, 0, NULL, NULL } };
	g_autoptr(CelActivation) act = cel_activation_new(env);
	cel_activation_set(act, slot, cel_value_map(&m.base));
	CelValue v = cel_program_eval(p, act);
	assert_int_equal(v.kind, CEL_KIND_BOOL);
	assert_true(v.b);
}

static void
count_nodes(CelActivation *act,
            const CelAst *node,
            const CelValue *args,
            guint nargs,
            CelValue result,
            gpointer data)
{
	act->cost++;
}

static gboolean
reject_all(CelEnv *env, CelAstTree *tree, gpointer data, GError **error)
{
	g_set_error_literal(error, CEL_ERROR, CEL_ERROR_LIMIT, "rejected by the checked hook");
	return FALSE;
}

static void
test_eval__hooks(void **state)
{
	g_autoptr(CelEnv) env = new_env();
	env->hooks.observe = count_nodes;
	cel_env_set_cost_limit(env, 50);
	CHECK(env, "x + 1", "8");
	CHECK(env, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(v, v * x).size()",
	      "error: operation cancelled: actual cost limit exceeded");
	env->hooks.observe = NULL;
	CHECK(env, "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(v, v * x).size()", "10");
	env->hooks.checked = reject_all;
	CHECK(env, "x", "rejected by the checked hook");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_eval__arithmetic),
		cmocka_unit_test(test_eval__comparison_and_logic),
		cmocka_unit_test(test_eval__strings_and_containers),
		cmocka_unit_test(test_eval__host_map),
		cmocka_unit_test(test_eval__hooks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
