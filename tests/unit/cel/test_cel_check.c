/*
 * test_cel_check.c: the type checker: cel-go style messages with position
 * and caret, deduced types (type parameters unified over the expression),
 * containers, and the Kubernetes homogeneous-literal switch.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cel-private.h"

static CelEnv *
new_env(void)
{
	CelEnv *env = cel_env_new();
	cel_env_declare_var(env, "x", cel_type_int());
	cel_env_declare_var(env, "m", cel_type_parse("map(string, list(int))"));
	cel_env_declare_var(env, "d", cel_type_dyn());
	return env;
}

static void
assert_type(CelEnv *env, const char *src, const char *want)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(CelProgram) p = cel_program_compile(env, src, &error);
	if (p == NULL) {
		fail_msg("%s: %s", src, error->message);
	}
	const char *got = cel_type_get_name(cel_program_get_type(p));
	if (strcmp(got, want) != 0) {
		fail_msg("type of %s: want %s, got %s", src, want, got);
	}
}

static void
assert_error(CelEnv *env, const char *src, const char *want)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(CelProgram) p = cel_program_compile(env, src, &error);
	if (p != NULL) {
		fail_msg("%s: compiled, expected error %s", src, want);
	}
	if (strcmp(error->message, want) != 0) {
		fail_msg("%s:\n  want %s\n  got  %s", src, want, error->message);
	}
}

static void
test_check__messages(void **state)
{
	g_autoptr(CelEnv) env = new_env();
	assert_error(env, "x + y",
	             "ERROR: <input>:1:5: undeclared reference to 'y' (in container '')\n"
	             " | x + y\n"
	             " | ....^");
	assert_error(env, "x + 'a'",
	             "ERROR: <input>:1:3: found no matching overload for '_+_' applied to "
	             "'(int, string)'\n | x + 'a'\n | ..^");
	assert_error(env, "'a'.startsWith(1)",
	             "ERROR: <input>:1:15: found no matching overload for 'startsWith' applied to "
	             "'string.(int)'\n | 'a'.startsWith(1)\n | ..............^");
	assert_error(env, "x.f",
	             "ERROR: <input>:1:2: type 'int' does not support field selection\n"
	             " | x.f\n | .^");
	assert_error(env, "1.all(v, true)",
	             "ERROR: <input>:1:1: expression of type 'int' cannot be the range of a "
	             "comprehension (must be list, map, or dynamic)\n | 1.all(v, true)\n | ^");
}

static void
test_check__deduced_types(void **state)
{
	/* Expression and the type name the checker must deduce for it. */
	static const char *const cases[][2] = {
		{ "m['a']", "list(int)" },
		{ "m.a[0] + x", "int" },
		{ "[1, 2].map(v, v * 2)", "list(int)" },
		{ "[[], [1]]", "list(list(int))" },
		{ "{'a': 1}", "map(string, int)" },
		{ "[1, 'a']", "list(dyn)" },
		{ "d.x", "dyn" },
		{ "optional.of(1)", "optional_type(int)" },
		{ "type(1)", "type(int)" },
		{ "cel.bind(z, 'a', z + z)", "string" },
		{ "m.transformMap(k, v, size(v))", "map(string, int)" },
	};
	g_autoptr(CelEnv) env = new_env();
	for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
		assert_type(env, cases[i][0], cases[i][1]);
	}
}

static void
test_check__containers(void **state)
{
	g_autoptr(CelEnv) env = cel_env_new();
	cel_env_declare_var(env, "a.b.c", cel_type_string());
	cel_env_declare_var(env, "c", cel_type_int());
	cel_env_set_container(env, "a.b");
	assert_type(env, "c", "string");
	assert_type(env, ".c", "int");
	assert_type(env, "a.b.c", "string");
}

static void
test_check__homogeneous_switch(void **state)
{
	g_autoptr(CelEnv) env = new_env();
	assert_type(env, "[1, 'a']", "list(dyn)");
	cel_env_set_homogeneous_literals(env, TRUE);
	assert_error(env, "[1, 'a']",
	             "ERROR: <input>:1:5: expected type 'int' but found 'string'\n"
	             " | [1, 'a']\n | ....^");
	assert_type(env, "[dyn(1), dyn('a')]", "list(dyn)");
	assert_type(env, "{'a': 1, 'b': 2}", "map(string, int)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check__messages),
		cmocka_unit_test(test_check__deduced_types),
		cmocka_unit_test(test_check__containers),
		cmocka_unit_test(test_check__homogeneous_switch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
