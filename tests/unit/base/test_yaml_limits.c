/*
 * test_yaml_limits.c: the YAML reader's node and depth limits and the object
 * count of a manifest set (base.h), at the limit and one over it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "base.h"
#include "base_arena.h"
#include "k8s_diag.h"
#include "k8s_objects.h"
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

/* Loads @text as manifests; returns every diagnostic, formatted, or NULL when none. */
static char *
load(const char *text)
{
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	GString *out = g_string_new(NULL);

	k8s_load_data("m.yaml", text, strlen(text), K8S_LOAD_DEFAULT, set, diags);
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		g_autofree char *line = k8s_diag_format(k8s_diag_list_get(diags, i));

		g_string_append_printf(out, "%s\n", line);
	}
	return g_string_free(out, out->len == 0);
}

/* A List of two DeviceClasses (lines 4 and 5) and a third DeviceClass as the next
 * document (line 7): 3 objects pass at a limit of 3; at 2 the third, 7:1, is the one
 * error. (List items are decoded while the file streams, the documents after it: the
 * List comes first so that the third object in the file is also the third decoded.) */
static void
test_objects__limit(void **state)
{
	static const char *const text = "apiVersion: resource.k8s.io/v1\nkind: List\nitems:\n"
	                                "- {apiVersion: resource.k8s.io/v1, kind: DeviceClass, "
	                                "metadata: {name: b}}\n"
	                                "- {apiVersion: resource.k8s.io/v1, kind: DeviceClass, "
	                                "metadata: {name: c}}\n---\n"
	                                "apiVersion: resource.k8s.io/v1\n"
	                                "kind: DeviceClass\nmetadata: {name: a}\n";
	g_autofree char *over = limit_edge(BASE_LIMIT_OBJECTS, 3, load, text);

	assert_string_equal(over, "m.yaml:7:1: error: more than 2 objects; the objects limit is 2 "
	                          "(set DRASIM_MAX_OBJECTS to raise it)\n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_yaml__node_limit),
		cmocka_unit_test(test_yaml__depth_limit),
		cmocka_unit_test(test_objects__limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
