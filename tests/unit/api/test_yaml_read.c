/*
 * test_yaml_read.c: the data-file parse (k8s_yaml_parse_data) and the strict
 * reader face over it (k8s_yaml_read.h): duplicate keys are left to the reader,
 * syntax errors keep libyaml's words, and each reader error carries
 * FILE:LINE:COL, the field path and base's "expected ..." text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "k8s_yaml_read.h"

typedef struct {
	BaseArena *arena;
	GStringChunk *strings;
	K8sDiagList *diags;
	K8sYamlFile file;
} Parsed;

static gboolean
parse(Parsed *p, const char *text)
{
	p->arena = base_arena_new();
	p->strings = g_string_chunk_new(256);
	p->diags = k8s_diag_list_new();
	return k8s_yaml_parse_data(
	        &(K8sYamlInput){ "r.yaml", text, strlen(text), p->arena, p->strings, p->diags },
	        &p->file);
}

static void
parsed_clear(Parsed *p)
{
	base_arena_free(p->arena);
	g_string_chunk_free(p->strings);
	k8s_diag_list_free(p->diags);
}

/* The @index-th diagnostic as printed. */
static char *
diag_line(const Parsed *p, guint index)
{
	if (index >= k8s_diag_list_count(p->diags))
		fail_msg("no diagnostic %u", index);
	return k8s_diag_format(k8s_diag_list_get(p->diags, index));
}

static void
test_yaml_read__data_file_keeps_duplicates_for_the_reader(void **state)
{
	Parsed p;

	/* a manifest parse would drop the second `a` with an error; a data file keeps
	 * all four pairs and reports nothing */
	assert_true(parse(&p, "a: 1\nb: [x]\nzz: 2\na: 3\n"));
	assert_int_equal(p.file.n_docs, 1);
	assert_int_equal(p.file.docs[0].root->map.n, 4);
	assert_int_equal(k8s_diag_list_count(p.diags), 0);
	parsed_clear(&p);
	/* an empty file is no error here: the reader says what it needed */
	assert_true(parse(&p, ""));
	assert_int_equal(p.file.n_docs, 0);
	assert_int_equal(k8s_diag_list_count(p.diags), 0);
	parsed_clear(&p);
	/* a syntax error keeps libyaml's text (the hw catalog's tests pin it) */
	assert_false(parse(&p, "a: [1\n"));
	assert_string_equal(k8s_diag_list_get(p.diags, 0)->message,
	                    "did not find expected ',' or ']'");
	parsed_clear(&p);
}

static void
test_yaml_read__errors_name_position_path_and_expectation(void **state)
{
	static const char *const known[] = { "a", "b", "z", NULL };
	Parsed p;
	K8sYamlReader r;
	const K8sYamlNode *root;
	guint64 v = 0;
	g_autofree char *first = NULL;
	g_autofree char *second = NULL;

	assert_true(parse(&p, "a: 1\nb: [x]\nzz: 2\n"));
	r = (K8sYamlReader){ p.file.file, p.diags };
	root = p.file.docs[0].root;
	/* "zz" is one deletion from "z"; 2 characters allow 1 edit: the key at 3:1 */
	assert_false(k8s_yaml_read_keys(&r, root, "spec", known, BASE_STRICT_HINT_CLOSEST));
	first = diag_line(&p, 0);
	assert_string_equal(first, "r.yaml:3:1: error: unknown field 'zz'; did you mean 'z'? "
	                           "[spec.zz]");
	/* `b: [x]`: the list starts at column 4 */
	assert_false(k8s_yaml_read_uint(&r, k8s_yaml_map_lookup(root, "b"), "spec.b", 10, &v));
	second = diag_line(&p, 1);
	assert_string_equal(second, "r.yaml:2:4: error: expected an integer in [0, 10], got list "
	                            "[spec.b]");
	assert_true(k8s_yaml_read_uint(&r, k8s_yaml_map_lookup(root, "a"), "spec.a", 10, &v));
	assert_int_equal(v, 1);
	parsed_clear(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_yaml_read__data_file_keeps_duplicates_for_the_reader),
		cmocka_unit_test(test_yaml_read__errors_name_position_path_and_expectation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
