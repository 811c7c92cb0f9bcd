/*
 * test_yaml_limits.c: the YAML reader's node and depth limits (base.h), at
 * the limit and one over it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "base.h"
#include "base_arena.h"
#include "k8s_diag.h"
#include "k8s_yaml.h"
#include "limit-edge.h"

/* Parses @text; returns the first diagnostic's message (NULL when none). */
static char *
parse(const char *text)
{
	g_autoptr(BaseArena) arena = base_arena_new();
	GStringChunk *strings = g_string_chunk_new(64);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	K8sYamlFile file;
	char *message = NULL;

	k8s_yaml_parse(&(K8sYamlInput){ "t.yaml", text, strlen(text), arena, strings, diags },
	               &file);
	if (k8s_diag_list_count(diags) > 0)
		message = g_strdup(k8s_diag_list_get(diags, 0)->message);
	g_string_chunk_free(strings);
	return message;
}

/* "[[], [], []]" is 4 nodes (the outer sequence and three empty ones); with
 * "a: *x" aliases count as nodes too. 4 pass at a limit of 4, not at 3. */
static void
test_yaml__node_limit(void **state)
{
	g_autofree char *over = limit_edge(BASE_LIMIT_YAML_NODES, 4, parse, "[[], [], []]\n");

	assert_string_equal(over, "more than 3 YAML nodes in the file: the YAML nodes limit is 3 "
	                          "(set DRASIM_MAX_YAML_NODES to raise it)");
}

/* "[[[]]]" nests 3 collections: it passes at a depth limit of 3, not at 2;
 * the limit cannot go past K8S_YAML_MAX_DEPTH (100): 101 levels fail even
 * when the environment asks for more. */
static void
test_yaml__depth_limit(void **state)
{
	g_autofree char *over = limit_edge(BASE_LIMIT_YAML_DEPTH, 3, parse, "[[[]]]\n");
	g_autofree char *ceiling = NULL;
	g_autoptr(GString) deep = g_string_new(NULL);

	for (guint i = 0; i < 101; i++)
		g_string_append_c(deep, '[');
	for (guint i = 0; i < 101; i++)
		g_string_append_c(deep, ']');
	base_limit_set(BASE_LIMIT_YAML_DEPTH, 1000);
	ceiling = parse(deep->str);
	base_limit_set(BASE_LIMIT_YAML_DEPTH, 0);
	assert_string_equal(over, "nesting deeper than 2 levels (the YAML nesting depth limit; "
	                          "DRASIM_MAX_YAML_DEPTH sets it, up to 100)");
	assert_non_null(ceiling);
	assert_non_null(strstr(ceiling, "nesting deeper than 100 levels"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_yaml__node_limit),
		cmocka_unit_test(test_yaml__depth_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
