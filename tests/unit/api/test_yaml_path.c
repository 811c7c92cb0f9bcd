/*
 * test_yaml_path.c: paths into a YAML tree (k8s_yaml_path.h): the syntax and
 * its bounds on hostile input, resolving with an error that names the failing
 * step and what is valid there, setting a value (replace, add a last key,
 * positions, sizes, depth), and the flow text that sweeps key values by.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "k8s_yaml_path.h"

/*
 * The document the tests walk, with its lines numbered:
 *  1 apiVersion: drasim.io/v1alpha1
 *  2 kind: Scenario
 *  3 spec:
 *  4   seed: 7
 *  5   cluster:
 *  6     nodePools:
 *  7     - name: dgx          (the item's mapping starts at column 7)
 *  8       count: 2           (the 2 is at column 14)
 *  9     - name: a100
 * 10       count: 1
 * 11   modes: [dra, extended]
 */
static const char doc_text[] = "apiVersion: drasim.io/v1alpha1\n"
                               "kind: Scenario\n"
                               "spec:\n"
                               "  seed: 7\n"
                               "  cluster:\n"
                               "    nodePools:\n"
                               "    - name: dgx\n"
                               "      count: 2\n"
                               "    - name: a100\n"
                               "      count: 1\n"
                               "  modes: [dra, extended]\n";

typedef struct {
	BaseArena *arena;
	GStringChunk *strings;
	K8sDiagList *diags;
} Trees;

static int
setup(void **state)
{
	Trees *t = g_new0(Trees, 1);

	t->arena = base_arena_new();
	t->strings = g_string_chunk_new(256);
	t->diags = k8s_diag_list_new();
	*state = t;
	return 0;
}

static int
teardown(void **state)
{
	Trees *t = *state;

	base_arena_free(t->arena);
	g_string_chunk_free(t->strings);
	k8s_diag_list_free(t->diags);
	g_free(t);
	return 0;
}

/* The root of @text's one document. */
static K8sYamlNode *
parse_doc(Trees *t, const char *text)
{
	K8sYamlFile file = { 0 };

	assert_true(k8s_yaml_parse_data(
	        &(K8sYamlInput){ "d.yaml", text, strlen(text), t->arena, t->strings, t->diags },
	        &file));
	assert_int_equal(file.n_docs, 1);
	return file.docs[0].root;
}

/* The error message of resolving @path_text in @root (the path must parse). */
static char *
resolve_error(const K8sYamlNode *root, const char *path_text)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(K8sYamlPath) path = k8s_yaml_path_parse(path_text, &error);

	assert_non_null(path);
	assert_null(k8s_yaml_path_resolve(root, path, &error));
	assert_true(g_error_matches(error, K8S_YAML_PATH_ERROR, K8S_YAML_PATH_ERROR_NOT_FOUND));
	return g_strdup(error->message);
}

static const K8sYamlNode *
resolve(const K8sYamlNode *root, const char *path_text)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(K8sYamlPath) path = k8s_yaml_path_parse(path_text, &error);
	const K8sYamlNode *node;

	assert_non_null(path);
	node = k8s_yaml_path_resolve(root, path, &error);
	if (node == NULL)
		fail_msg("%s: %s", path_text, error->message);
	return node;
}

static void
test_yaml_path__parse_steps(void **state)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(K8sYamlPath) p = NULL;
	const K8sYamlPathStep *s;

	p = k8s_yaml_path_parse("spec.cluster.nodePools[name=dgx].count", &error);
	assert_non_null(p);
	assert_int_equal(k8s_yaml_path_get_n_steps(p), 5);
	s = k8s_yaml_path_get_step(p, 2);
	assert_int_equal(s->kind, K8S_YAML_STEP_KEY);
	assert_string_equal(s->key, "nodePools");
	assert_int_equal(s->end, 22); /* "spec.cluster.nodePools" */
	s = k8s_yaml_path_get_step(p, 3);
	assert_int_equal(s->kind, K8S_YAML_STEP_MATCH);
	assert_string_equal(s->key, "name");
	assert_string_equal(s->value, "dgx");
	assert_int_equal(s->end, 32); /* + "[name=dgx]" */
	g_clear_pointer(&p, k8s_yaml_path_free);
	/* a quoted key holds dots and brackets; an index may follow at once; a quoted
	 * item value holds ']' */
	p = k8s_yaml_path_parse("labels[\"a.b/c[1]\"][3][f=\"x]y\"]", &error);
	assert_non_null(p);
	assert_int_equal(k8s_yaml_path_get_n_steps(p), 4);
	assert_string_equal(k8s_yaml_path_get_step(p, 1)->key, "a.b/c[1]");
	assert_int_equal(k8s_yaml_path_get_step(p, 2)->kind, K8S_YAML_STEP_INDEX);
	assert_int_equal(k8s_yaml_path_get_step(p, 2)->index, 3);
	assert_string_equal(k8s_yaml_path_get_step(p, 3)->value, "x]y");
	g_clear_pointer(&p, k8s_yaml_path_free);
	/* a path may start with an index (a document that is a list) */
	p = k8s_yaml_path_parse("[0].name", &error);
	assert_non_null(p);
	assert_int_equal(k8s_yaml_path_get_step(p, 0)->index, 0);
}

/* Each hostile path is refused with the character and what was expected there. */
static void
test_yaml_path__parse_hostile(void **state)
{
	static const struct {
		const char *path;
		const char *message; /* the start of the error, up to "; write one like" */
	} cases[] = {
		{ "", "bad path (character 1): the path is empty" },
		{ "..", "bad path (character 1): expected a key, got '.'" },
		{ "a..b", "bad path (character 3): expected a key after '.', got '.'" },
		{ "a.",
		  "bad path (character 3): expected a key after '.', got the end of the path" },
		{ "[",
		  "bad path (character 2): expected an index [0], a quoted key [\"key\"] or an "
		  "item [name=value] after '['" },
		{ "a[-1]", "bad path (character 3): expected an index [0], a quoted key [\"key\"] "
		           "or an item [name=value] after '['" },
		{ "a[1", "bad path (character 4): expected ']', got the end of the path" },
		{ "a[x]", "bad path (character 4): expected '=' after [x (an item is picked as "
		          "[x=value])" },
		{ "a[x=]", "bad path (character 5): expected a value after [x=" },
		{ "a[\"x]", "bad path (character 6): a quoted key is not closed with '\"'" },
		{ "a b", "bad path (character 2): expected '.' or '[' after a step, got ' '" },
		{ "a]", "bad path (character 2): expected '.' or '[' after a step, got ']'" },
		/* 2^31 = 2147483648: one above G_MAXINT32, found at its last digit */
		{ "a[2147483648]", "bad path (character 12): the index is too large (at most "
		                   "2147483647)" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(K8sYamlPath) p = k8s_yaml_path_parse(cases[i].path, &error);

		assert_null(p);
		assert_true(
		        g_error_matches(error, K8S_YAML_PATH_ERROR, K8S_YAML_PATH_ERROR_SYNTAX));
		if (!g_str_has_prefix(error->message, cases[i].message))
			fail_msg("%s: got \"%s\"", cases[i].path, error->message);
	}
}

/* Bounds: 10,000 steps is too long (19,999 bytes); 101 short steps too many. */
static void
test_yaml_path__parse_bounds(void **state)
{
	g_autoptr(GString) s = g_string_new("a");
	g_autoptr(GError) error = NULL;
	K8sYamlPath *p;

	for (guint i = 1; i < 10000; i++)
		g_string_append(s, ".a");
	p = k8s_yaml_path_parse(s->str, &error);
	assert_null(p);
	assert_non_null(strstr(error->message, "the path is 19999 bytes long (at most 4096)"));
	g_clear_error(&error);
	/* 100 steps (199 bytes) is the most; the 101st is refused where it starts */
	g_string_truncate(s, 199);
	p = k8s_yaml_path_parse(s->str, &error);
	assert_non_null(p);
	assert_int_equal(k8s_yaml_path_get_n_steps(p), 100);
	k8s_yaml_path_free(p);
	g_string_append(s, ".a");
	p = k8s_yaml_path_parse(s->str, &error);
	assert_null(p);
	assert_non_null(strstr(error->message, "(character 200): more than 100 steps"));
	/* the largest index parses */
	k8s_yaml_path_free(k8s_yaml_path_parse("a[2147483647]", &error));
}

static void
test_yaml_path__resolve(void **state)
{
	K8sYamlNode *root = parse_doc(*state, doc_text);

	assert_string_equal(resolve(root, "spec.cluster.nodePools[0].count")->scalar.text, "2");
	assert_string_equal(resolve(root, "spec.cluster.nodePools[name=a100].count")->scalar.text,
	                    "1");
	assert_string_equal(resolve(root, "spec.modes[1]")->scalar.text, "extended");
	assert_string_equal(resolve(root, "[\"spec\"].seed")->scalar.text, "7");
	assert_int_equal(resolve(root, "spec.cluster")->kind, K8S_YAML_MAPPING);
}

/* Each error names the first step that does not resolve and what is there. */
static void
test_yaml_path__resolve_errors(void **state)
{
	static const struct {
		const char *path;
		const char *message;
	} cases[] = {
		{ "spec.clustr.nodePools[0].count",
		  "spec.clustr: no key clustr; did you mean cluster? the keys here are seed, "
		  "cluster, modes" },
		{ "spec.cluster.nodePools[name=gpu].count",
		  "spec.cluster.nodePools[name=gpu]: no item named gpu; the items are named dgx, "
		  "a100" },
		{ "spec.cluster.nodePools[7]",
		  "spec.cluster.nodePools[7]: index out of range, the list has 2 items (0-1)" },
		{ "spec.cluster[name=x]",
		  "spec.cluster[name=x]: [name=x] on a mapping, not a list; the keys here are "
		  "nodePools" },
		{ "spec[0]", "spec[0]: [0] on a mapping, not a list; the keys here are seed, "
		             "cluster, modes" },
		{ "spec.modes.name",
		  "spec.modes.name: spec.modes is a list, not a mapping; pick an item with [0] or "
		  "[name=...] first (the list has 2 items (0-1))" },
		{ "spec.seed.x", "spec.seed.x: spec.seed is a scalar (integer 7), not a mapping" },
		{ "spec.seed[0]", "spec.seed[0]: spec.seed is a scalar (integer 7), not a list" },
		{ "spec.cluster.nodePools[kind=Pod]",
		  "spec.cluster.nodePools[kind=Pod]: no item has a kind; the list has 2 items "
		  "(0-1)" },
		{ "spec.cluster.nodePools[count=3]",
		  "spec.cluster.nodePools[count=3]: no item with count=3; the items have count "
		  "2, 1" },
		{ "status", "status: no key status; the keys here are apiVersion, kind, spec" },
		{ "[0]", "[0]: [0] on a mapping, not a list; the keys here are apiVersion, kind, "
		         "spec" },
	};
	K8sYamlNode *root = parse_doc(*state, doc_text);
	K8sYamlNode *twins = parse_doc(*state, "[{name: a}, {name: a}, {}]\n");
	/* 45 characters: cut to 40 in a message */
	K8sYamlNode *long_text =
	        parse_doc(*state, "a: abcdefghijabcdefghijabcdefghijabcdefghijabcde\n");
	g_autofree char *twin_error = NULL;
	g_autofree char *long_error = NULL;

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *message = resolve_error(root, cases[i].path);

		if (strcmp(message, cases[i].message) != 0)
			fail_msg("%s: got \"%s\"", cases[i].path, message);
	}
	twin_error = resolve_error(twins, "[name=a]");
	assert_string_equal(twin_error, "[name=a]: items 0 and 1 both have name a; pick one by "
	                                "index");
	g_free(resolve_error(twins, "[3]"));
	long_error = resolve_error(long_text, "a.b");
	assert_string_equal(long_error, "a.b: a is a scalar (string "
	                                "abcdefghijabcdefghijabcdefghijabcdefghij...), not a "
	                                "mapping");
}

/* Sets @value_text (parsed) at @path_text in @root; FALSE with the message in *@message. */
static gboolean
set(Trees *t, K8sYamlNode *root, const char *path_text, const char *value_text, char **message)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(K8sYamlPath) path = k8s_yaml_path_parse(path_text, &error);
	K8sYamlNode *value = parse_doc(t, value_text);

	assert_non_null(path);
	if (k8s_yaml_path_set(root, path, value, t->arena, t->strings, &error))
		return TRUE;
	*message = g_strdup(error->message);
	return FALSE;
}

static void
test_yaml_path__set_replaces_with_the_position_replaced(void **state)
{
	Trees *t = *state;
	K8sYamlNode *root = parse_doc(t, doc_text);
	guint32 size = root->size;
	const K8sYamlNode *count, *modes;
	g_autofree char *spec = NULL;
	char *message = NULL;

	assert_true(set(t, root, "spec.cluster.nodePools[name=dgx].count", "4", &message));
	count = resolve(root, "spec.cluster.nodePools[0].count");
	assert_string_equal(count->scalar.text, "4");
	assert_int_equal(k8s_yaml_scalar_type(count), K8S_YAML_TYPE_INT);
	/* the 2 it replaced was at line 8, column 14 (see doc_text) */
	assert_int_equal(count->line, 8);
	assert_int_equal(count->col, 14);
	assert_int_equal(root->size, size); /* a scalar for a scalar */
	/* a list for a list: [dra, extended] (3 nodes) becomes [dra] (2 nodes); every
	 * node of it takes the position of the old list, line 11 column 10 */
	assert_true(set(t, root, "spec.modes", "[dra]", &message));
	modes = resolve(root, "spec.modes");
	assert_int_equal(modes->seq.n, 1);
	assert_int_equal(modes->seq.items[0]->line, 11);
	assert_int_equal(modes->seq.items[0]->col, 10);
	assert_int_equal(root->size, size - 1);
	spec = k8s_yaml_flow_text(resolve(root, "spec"));
	assert_string_equal(spec, "{seed: 7, cluster: {nodePools: [{name: dgx, count: 4}, "
	                          "{name: a100, count: 1}]}, modes: [dra]}");
}

static void
test_yaml_path__set_adds_only_a_last_key(void **state)
{
	Trees *t = *state;
	K8sYamlNode *root = parse_doc(t, doc_text);
	guint32 size = root->size;
	const K8sYamlNode *item, *mig;
	g_autofree char *before = k8s_yaml_flow_text(root);
	g_autofree char *after = NULL;
	char *message = NULL;

	/* mig is not in the first pool: it is added at the end of that item's mapping,
	 * key and value at the mapping's position (line 7, column 7); the tree grows
	 * by the key and the value, 2 nodes */
	assert_true(set(t, root, "spec.cluster.nodePools[0].mig", "dynamic", &message));
	item = resolve(root, "spec.cluster.nodePools[0]");
	assert_int_equal(item->map.n, 3);
	assert_string_equal(item->map.pairs[2].key->scalar.text, "mig");
	mig = resolve(root, "spec.cluster.nodePools[0].mig");
	assert_string_equal(mig->scalar.text, "dynamic");
	assert_int_equal(mig->line, 7);
	assert_int_equal(mig->col, 7);
	assert_int_equal(item->map.pairs[2].key->line, 7);
	assert_int_equal(root->size, size + 2);
	/* a missing key before the last step is an error, and the tree is unchanged */
	g_free(before);
	before = k8s_yaml_flow_text(root);
	assert_false(set(t, root, "spec.run.maxPods", "3", &message));
	assert_string_equal(message, "spec.run: no key run; the keys here are seed, cluster, "
	                             "modes");
	g_free(message);
	/* so are a missing item and an index past the end: nothing is appended */
	assert_false(set(t, root, "spec.cluster.nodePools[2]", "{name: x}", &message));
	g_free(message);
	assert_false(set(t, root, "spec.cluster.nodePools[name=x].count", "1", &message));
	g_free(message);
	after = k8s_yaml_flow_text(root);
	assert_string_equal(before, after);
}

/* A value that would nest the tree deeper than K8S_YAML_MAX_DEPTH (100) is refused. */
static void
test_yaml_path__set_depth_bound(void **state)
{
	Trees *t = *state;
	K8sYamlNode *root = parse_doc(t, doc_text);
	g_autoptr(GString) deep = g_string_new(NULL);
	char *message = NULL;

	/* 99 nested lists: 99 levels; under "spec" (1 step) the total is 100, allowed;
	 * under "spec.seed" (2 steps) it is 101 */
	for (guint i = 0; i < 99; i++)
		g_string_append_c(deep, '[');
	for (guint i = 0; i < 99; i++)
		g_string_append_c(deep, ']');
	assert_false(set(t, root, "spec.seed", deep->str, &message));
	assert_string_equal(message,
	                    "spec.seed: the value is nested 101 deep there, deeper than 100");
	g_free(message);
	assert_true(set(t, root, "spec", deep->str, &message));
}

/* Flow text reads back to an equal tree, and is written as a person would. */
static void
test_yaml_path__flow_text_round_trips(void **state)
{
	static const struct {
		const char *yaml;
		const char *flow;
	} cases[] = {
		{ "4", "4" },
		{ "'4'", "\"4\"" },
		{ "\"dra\"", "dra" },
		{ "[dra,extended]", "[dra, extended]" },
		{ "{name: x, world: dra}", "{name: x, world: dra}" },
		{ "- a,b\n- 'x: y'\n- -1\n- -x\n- '-'\n- ''\n- ~\n- true\n- 'true'\n",
		  "[\"a,b\", \"x: y\", -1, -x, \"-\", \"\", ~, true, \"true\"]" },
		{ "a:\n  b: |\n    two\n    lines\n", "{a: {b: \"two\\nlines\\n\"}}" },
		{ "'---'", "\"---\"" },
		{ "1.5e3", "1.5e3" },
		{ "!!str 12", "!<tag:yaml.org,2002:str> \"12\"" },
	};
	Trees *t = *state;

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		K8sYamlNode *node = parse_doc(t, cases[i].yaml);
		g_autofree char *flow = k8s_yaml_flow_text(node);
		K8sYamlNode *back = parse_doc(t, flow);

		if (strcmp(flow, cases[i].flow) != 0)
			fail_msg("%s: got %s", cases[i].yaml, flow);
		if (!k8s_yaml_equal(node, back))
			fail_msg("%s does not read back as %s", flow, cases[i].yaml);
	}
	/* a null written as nothing is written null (nothing would be no value at all) */
	{
		K8sYamlNode *node = parse_doc(t, "k:\n");
		g_autofree char *flow = k8s_yaml_flow_text(node);

		assert_string_equal(flow, "{k: null}");
		assert_int_equal(k8s_yaml_scalar_type(parse_doc(t, flow)->map.pairs[0].value),
		                 K8S_YAML_TYPE_NULL);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_yaml_path__parse_steps),
		cmocka_unit_test(test_yaml_path__parse_hostile),
		cmocka_unit_test(test_yaml_path__parse_bounds),
		cmocka_unit_test_setup_teardown(test_yaml_path__resolve, setup, teardown),
		cmocka_unit_test_setup_teardown(test_yaml_path__resolve_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(
		        test_yaml_path__set_replaces_with_the_position_replaced, setup, teardown),
		cmocka_unit_test_setup_teardown(test_yaml_path__set_adds_only_a_last_key, setup,
		                                teardown),
		cmocka_unit_test_setup_teardown(test_yaml_path__set_depth_bound, setup, teardown),
		cmocka_unit_test_setup_teardown(test_yaml_path__flow_text_round_trips, setup,
		                                teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
