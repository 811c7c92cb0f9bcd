/*
 * test_diag.c: the diagnostic list: format, counts, stable sort, positions inside
 * scalars (where a CEL expression starts and a character in it).
 */
#include "api-test-util.h"

static void
test_diag__format(void **state)
{
	g_autoptr(K8sDiagList) list = k8s_diag_list_new();
	K8sPos pos = { "a.yaml", 3, 7 };
	g_autofree char *line = NULL;
	g_autofree char *nopos = NULL;

	k8s_diag_list_error(list, &pos, "spec.devices.requests[0].name", "bad %s", "name");
	k8s_diag_list_warning(list, NULL, NULL, "no position");
	line = k8s_diag_format(k8s_diag_list_get(list, 0));
	assert_string_equal(line, "a.yaml:3:7: error: bad name [spec.devices.requests[0].name]");
	nopos = k8s_diag_format(k8s_diag_list_get(list, 1));
	assert_string_equal(nopos, "drasim: warning: no position");
	assert_int_equal(k8s_diag_list_count(list), 2);
	assert_int_equal(k8s_diag_list_count_errors(list), 1);
	assert_int_equal(k8s_diag_list_count_warnings(list), 1);
}

static void
test_diag__sort_is_stable(void **state)
{
	g_autoptr(K8sDiagList) list = k8s_diag_list_new();
	K8sPos late = { "a.yaml", 9, 1 }, early = { "a.yaml", 2, 5 }, other = { "b.yaml", 1, 1 };

	k8s_diag_list_error(list, &other, NULL, "b");
	k8s_diag_list_error(list, &late, NULL, "late");
	k8s_diag_list_error(list, &early, NULL, "early-1");
	k8s_diag_list_error(list, &early, NULL, "early-2");
	k8s_diag_list_sort(list);
	assert_string_equal(k8s_diag_list_get(list, 0)->message, "early-1");
	assert_string_equal(k8s_diag_list_get(list, 1)->message, "early-2");
	assert_string_equal(k8s_diag_list_get(list, 2)->message, "late");
	assert_string_equal(k8s_diag_list_get(list, 3)->message, "b");
}

static void
test_diag__strings_are_copied(void **state)
{
	g_autoptr(K8sDiagList) list = k8s_diag_list_new();
	g_autoptr(K8sDiagList) copy = k8s_diag_list_new();
	char file[] = "tmp.yaml";
	K8sPos pos = { file, 1, 2 };

	k8s_diag_list_error(list, &pos, "x", "m");
	file[0] = 'X';
	assert_string_equal(k8s_diag_list_get(list, 0)->pos.file, "tmp.yaml");
	k8s_diag_list_append(copy, list);
	assert_int_equal(k8s_diag_list_count_errors(copy), 1);
	assert_string_equal(k8s_diag_list_get(copy, 0)->path, "x");
}

/* Positions of CEL expressions: where the string starts, and a character inside. */
static void
test_diag__expression_positions(void **state)
{
	Loaded l = load_text("cel.yaml",
	                     "apiVersion: resource.k8s.io/v1\n"
	                     "kind: DeviceClass\n"
	                     "metadata: {name: c}\n"
	                     "spec:\n"
	                     "  selectors:\n"
	                     "  - cel:\n"
	                     "      expression: device.driver == 'x'\n"
	                     "  - cel:\n"
	                     "      expression: \"a && b\"\n"
	                     "  - cel:\n"
	                     "      expression: |\n"
	                     "        first\n"
	                     "        second.line\n",
	                     K8S_LOAD_DEFAULT);
	K8sDeviceClass *dc = k8s_object_as_device_class(k8s_object_set_get(l.set, 0));
	K8sPos p;

	assert_true(l.ok);
	assert_int_equal(dc->spec.n_selectors, 3);
	assert_int_equal(dc->spec.selectors[0].expression_pos.line, 7);
	assert_int_equal(dc->spec.selectors[0].expression_pos.col, 19);
	assert_int_equal(dc->spec.selectors[0].expression_style, K8S_YAML_STYLE_PLAIN);
	assert_int_equal(dc->spec.selectors[1].expression_style, K8S_YAML_STYLE_DOUBLE_QUOTED);
	assert_int_equal(dc->spec.selectors[2].expression_style, K8S_YAML_STYLE_LITERAL);
	assert_string_equal(dc->spec.selectors[2].cel_expression, "first\nsecond.line\n");
	/* "second" starts at line 13, column 9 */
	p = k8s_pos_advance(dc->spec.selectors[0].expression_pos,
	                    dc->spec.selectors[0].cel_expression, 7);
	assert_int_equal(p.line, 7);
	assert_int_equal(p.col, 26);
	loaded_clear(&l);
}

/* k8s_yaml_text_pos knows the indentation of literal blocks. */
static void
test_diag__text_pos_in_block(void **state)
{
	g_autoptr(BaseArena) arena = base_arena_new();
	GStringChunk *strings = g_string_chunk_new(256);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	const char *text = "e: |\n    one\n    two.x\nq: 'ab'\n";
	K8sYamlFile file;
	const K8sYamlNode *e, *q;
	K8sPos p;

	assert_true(k8s_yaml_parse(
	        &(K8sYamlInput){ "t.yaml", text, strlen(text), arena, strings, diags }, &file));
	e = k8s_yaml_map_lookup(file.docs[0].root, "e");
	p = k8s_yaml_text_pos(e, "t.yaml", 8); /* 't' of "two" is byte 4; '.' byte 7; 'x' 8 */
	assert_int_equal(p.line, 3);
	assert_int_equal(p.col, 9);
	q = k8s_yaml_map_lookup(file.docs[0].root, "q");
	p = k8s_yaml_text_pos(q, "t.yaml", 1);
	assert_int_equal(p.line, 4);
	assert_int_equal(p.col, 6);
	g_string_chunk_free(strings);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diag__format),
		cmocka_unit_test(test_diag__sort_is_stable),
		cmocka_unit_test(test_diag__strings_are_copied),
		cmocka_unit_test(test_diag__expression_positions),
		cmocka_unit_test(test_diag__text_pos_in_block),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
