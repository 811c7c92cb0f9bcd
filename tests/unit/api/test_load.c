/*
 * test_load.c: the loader. Every kind of broken input gives an error with the right
 * line and column and never crashes; good input of every shape (multi-document,
 * JSON, List, directories) loads in input order.
 */
#include <glib/gstdio.h>

#include "api-test-util.h"

static void
expect_error(const char *name, const char *text, const char *needle, guint line, guint col)
{
	Loaded l = load_text(name, text, K8S_LOAD_DEFAULT);

	assert_false(l.ok);
	expect_diag(l.diags, needle, line, col);
	assert_int_equal(expect_diag(l.diags, needle, line, col)->severity, K8S_SEVERITY_ERROR);
	loaded_clear(&l);
}

static const char pod[] = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n";

static void
test_load__multi_document(void **state)
{
	g_autofree char *text =
	        g_strdup_printf("---\n%s---\n# empty\n---\n%s...\n", pod,
	                        "apiVersion: v1\nkind: Node\nmetadata: {name: node-n}\n");
	Loaded l = load_text("m.yaml", text, K8S_LOAD_DEFAULT);

	assert_true(l.ok);
	assert_int_equal(k8s_object_set_count(l.set), 2);
	assert_int_equal(k8s_object_set_get(l.set, 0)->kind, K8S_KIND_POD);
	assert_int_equal(k8s_object_set_get(l.set, 1)->kind, K8S_KIND_NODE);
	assert_int_equal(k8s_object_set_get(l.set, 1)->pos.line, 9);
	assert_non_null(k8s_object_set_lookup(l.set, K8S_KIND_POD, NULL, "p"));
	assert_non_null(k8s_object_set_lookup(l.set, K8S_KIND_POD, "default", "p"));
	assert_null(k8s_object_set_lookup(l.set, K8S_KIND_POD, "other", "p"));
	assert_non_null(k8s_object_set_lookup(l.set, K8S_KIND_NODE, "ignored", "node-n"));
	loaded_clear(&l);
}

static void
test_load__json(void **state)
{
	Loaded l = load_text("p.json",
	                     "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"Pod\",\n"
	                     "  \"metadata\": {\"name\": \"p\", \"labels\": {\"a\": \"1\"}},\n"
	                     "  \"spec\": {\"priority\": 10, \"containers\": []}\n}\n",
	                     K8S_LOAD_DEFAULT);
	K8sPod *p = k8s_object_as_pod(k8s_object_set_get(l.set, 0));

	assert_true(l.ok);
	assert_non_null(p);
	assert_true(p->spec.has_priority);
	assert_int_equal(p->spec.priority, 10);
	assert_string_equal(p->obj.metadata.labels.items[0].value, "1");
	loaded_clear(&l);
}

static void
test_load__truncated(void **state)
{
	expect_error("t.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: \"p\n",
	             "truncated input", 5, 1);
	expect_error("t.json", "{\"apiVersion\": \"v1\", \"kind\": \"Pod\"", "truncated input", 1,
	             35);
}

static void
test_load__tab_indentation(void **state)
{
	expect_error("tab.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n\tname: p\n",
	             "tab character in indentation", 4, 1);
}

static void
test_load__duplicate_key(void **state)
{
	expect_error("dup.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n  name: b\n",
	             "duplicate key 'name' (first at line 4)", 5, 3);
	/* more keys than the quadratic check handles: the hash path */
	GString *many = g_string_new("apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n");
	for (int i = 0; i < 40; i++) {
		g_string_append_printf(many, "    k%d: v\n", i);
	}
	g_string_append(many, "    k7: again\n");
	expect_error("dup2.yaml", many->str, "duplicate key 'k7' (first at line 12)", 45, 5);
	g_string_free(many, TRUE);
}

static void
test_load__not_utf8(void **state)
{
	expect_error("u.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: caf\xe9\n",
	             "invalid UTF-8 byte 0xe9", 4, 12);
}

static void
test_load__not_utf8_with_len(void **state)
{
	/* load_text uses strlen, so give the NUL case its explicit length here */
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	const char text[] = "apiVersion: v1\nki\0nd: Pod\n";

	assert_false(k8s_load_data("nul.yaml", text, sizeof(text) - 1, 0, set, diags));
	expect_diag(diags, "NUL byte", 2, 3);
}

static void
test_load__empty(void **state)
{
	expect_error("e.yaml", "", "empty file", 1, 1);
	expect_error("c.yaml", "# just a comment\n\n", "only comments", 1, 1);
	expect_error("d.yaml", "---\n---\n", "only empty documents", 1, 1);
}

static void
test_load__directory_as_file(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("drasim-api-XXXXXX", NULL);
	g_autofree char *sub = g_build_filename(dir, "looks-like.yaml", NULL);
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	const char *paths[] = { sub, NULL };

	assert_int_equal(g_mkdir(sub, 0700), 0);
	assert_false(k8s_load_file(dir, 0, set, diags));
	expect_diag(diags, "is a directory", 1, 1);
	assert_false(k8s_load_paths(paths, 0, set, diags));
	assert_int_equal(k8s_diag_list_count_errors(diags), 2);
	g_rmdir(sub);
	/* an empty directory given as a directory */
	assert_false(k8s_load_paths((const char *const[]){ dir, NULL }, 0, set, diags));
	expect_diag(diags, "directory has no", 1, 1);
	g_rmdir(dir);
}

static void
test_load__directory_sorted(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("drasim-api-XXXXXX", NULL);
	g_autofree char *sub = g_build_filename(dir, "a-sub", NULL);
	g_autofree char *f1 = g_build_filename(dir, "b.yaml", NULL);
	g_autofree char *f2 = g_build_filename(sub, "z.yml", NULL);
	g_autofree char *f3 = g_build_filename(dir, "c.json", NULL);
	g_autofree char *f4 = g_build_filename(dir, "notes.txt", NULL);
	const char *paths[] = { dir, NULL };
	Loaded l = { k8s_object_set_new(), k8s_diag_list_new(), FALSE };

	g_mkdir(sub, 0700);
	g_file_set_contents(f1, "apiVersion: v1\nkind: Node\nmetadata: {name: b}\n", -1, NULL);
	g_file_set_contents(f2, "apiVersion: v1\nkind: Node\nmetadata: {name: z}\n", -1, NULL);
	g_file_set_contents(f3,
	                    "{\"apiVersion\": \"v1\", \"kind\": \"Node\", "
	                    "\"metadata\": {\"name\": \"c\"}}",
	                    -1, NULL);
	g_file_set_contents(f4, "not yaml: [", -1, NULL);
	l.ok = k8s_load_paths(paths, 0, l.set, l.diags);
	assert_true(l.ok);
	assert_int_equal(k8s_object_set_count(l.set), 3);
	assert_string_equal(k8s_object_set_get(l.set, 0)->metadata.name, "z"); /* a-sub/ first */
	assert_string_equal(k8s_object_set_get(l.set, 1)->metadata.name, "b");
	assert_string_equal(k8s_object_set_get(l.set, 2)->metadata.name, "c");
	loaded_clear(&l);
	g_unlink(f1);
	g_unlink(f2);
	g_unlink(f3);
	g_unlink(f4);
	g_rmdir(sub);
	g_rmdir(dir);
}

static void
test_load__deep_nesting(void **state)
{
	GString *text = g_string_new("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nx: ");

	for (int i = 0; i < 5000; i++) {
		g_string_append_c(text, '[');
	}
	expect_error("deep.yaml", text->str, "nesting deeper than 100 levels", 4, 103);
	g_string_free(text, TRUE);
}

static void
test_load__json_yaml_mix(void **state)
{
	expect_error("m.json", "apiVersion: v1\nkind: Pod\n", "JSON/YAML mix", 1, 1);
	expect_error("m2.json", "{\"apiVersion\": v1}", "unquoted value 'v1'", 1, 16);
	expect_error("m3.yaml",
	             "{\"apiVersion\": \"v1\", \"kind\": \"Pod\"}\nmetadata:\n  name: x\n",
	             "JSON/YAML mix: YAML content after a JSON document", 2, 1);
}

static void
test_load__huge_numbers(void **state)
{
	expect_error("h.yaml",
	             "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
	             "  priority: 99999999999999999999999\n",
	             "out of range", 5, 13);
	expect_error(
	        "h2.yaml",
	        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  priority: 2147483648\n",
	        "integer 2147483648 is out of range", 5, 13);
	expect_error("h3.yaml",
	             "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
	             "spec:\n  devices:\n    requests:\n    - name: r\n      exactly:\n"
	             "        deviceClassName: x\n        count: 1e400\n",
	             "out of range", 10, 16);
}

static void
test_load__aliases(void **state)
{
	Loaded l = load_text("a.yaml",
	                     "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	                     "  labels: &l {a: b}\n  annotations: *l\n",
	                     K8S_LOAD_DEFAULT);
	K8sPod *p = k8s_object_as_pod(k8s_object_set_get(l.set, 0));

	assert_true(l.ok);
	assert_int_equal(p->obj.metadata.annotations.n, 1);
	assert_string_equal(p->obj.metadata.annotations.items[0].value, "b");
	loaded_clear(&l);
	expect_error("r.yaml", "a: &x\n  b: *x\n", "refers to a collection that contains it", 2, 6);
	expect_error("u.yaml", "a: *nope\n", "unknown anchor", 1, 4);
}

static void
test_load__merge_keys(void **state)
{
	Loaded l = load_text("mk.yaml",
	                     "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	                     "  labels: &base {a: '1', b: '2'}\n"
	                     "  annotations:\n    <<: *base\n    b: override\n",
	                     K8S_LOAD_DEFAULT);
	K8sPod *p = k8s_object_as_pod(k8s_object_set_get(l.set, 0));

	assert_true(l.ok);
	assert_int_equal(p->obj.metadata.annotations.n, 2);
	assert_string_equal(p->obj.metadata.annotations.items[0].key, "b");
	assert_string_equal(p->obj.metadata.annotations.items[0].value, "override");
	assert_string_equal(p->obj.metadata.annotations.items[1].key, "a");
	loaded_clear(&l);
	expect_error("mk2.yaml", "a: &s x\nb:\n  <<: *s\n", "merge key (<<) takes a mapping", 1, 4);
}

static void
test_load__billion_laughs(void **state)
{
	GString *text = g_string_new("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");

	for (int i = 1; i < 9; i++) {
		g_string_append_printf(text, "a%d: &a%d [", i, i);
		for (int j = 0; j < 10; j++) {
			g_string_append_printf(text, "%s*a%d", j ? ", " : "", i - 1);
		}
		g_string_append(text, "]\n");
	}
	expect_error("bomb.yaml", text->str, "expands to", 1, 1);
	g_string_free(text, TRUE);
}

static void
test_load__scalar_types(void **state)
{
	static const struct {
		const char *text;
		K8sYamlType type;
	} cases[] = {
		{ "abc", K8S_YAML_TYPE_STRING },
		{ "'123'", K8S_YAML_TYPE_STRING },
		{ "123", K8S_YAML_TYPE_INT },
		{ "-0x1F", K8S_YAML_TYPE_INT },
		{ "1_000", K8S_YAML_TYPE_INT },
		{ "1.5", K8S_YAML_TYPE_FLOAT },
		{ "1e3", K8S_YAML_TYPE_FLOAT },
		{ ".inf", K8S_YAML_TYPE_FLOAT },
		{ "yes", K8S_YAML_TYPE_BOOL },
		{ "Off", K8S_YAML_TYPE_BOOL },
		{ "true", K8S_YAML_TYPE_BOOL },
		{ "~", K8S_YAML_TYPE_NULL },
		{ "null", K8S_YAML_TYPE_NULL },
		{ "", K8S_YAML_TYPE_NULL },
		{ "!!str 12", K8S_YAML_TYPE_STRING },
		{ "1.2.3", K8S_YAML_TYPE_STRING },
		{ "99999999999999999999", K8S_YAML_TYPE_FLOAT },
		{ "999999999999999999999999999999999999999999", K8S_YAML_TYPE_FLOAT },
		{ "nothing", K8S_YAML_TYPE_STRING },
		{ "Null", K8S_YAML_TYPE_NULL },
		{ "-x", K8S_YAML_TYPE_STRING },
		{ "+1", K8S_YAML_TYPE_INT },
		{ "0o17", K8S_YAML_TYPE_INT },
		{ "0b101", K8S_YAML_TYPE_INT },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(BaseArena) arena = base_arena_new();
		GStringChunk *strings = g_string_chunk_new(64);
		g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
		g_autofree char *text = g_strdup_printf("v: %s\n", cases[i].text);
		K8sYamlFile file;

		assert_true(k8s_yaml_parse(
		        &(K8sYamlInput){ "s.yaml", text, strlen(text), arena, strings, diags },
		        &file));
		if (k8s_yaml_scalar_type(k8s_yaml_map_lookup(file.docs[0].root, "v")) !=
		    cases[i].type) {
			print_message("# %s\n", cases[i].text);
			fail();
		}
		g_string_chunk_free(strings);
	}
}

static void
test_load__list(void **state)
{
	Loaded l = load_text(
	        "list.yaml",
	        "apiVersion: v1\nkind: List\nmetadata: {resourceVersion: \"\"}\nitems:\n"
	        "- apiVersion: v1\n  kind: Node\n  metadata: {name: a}\n"
	        "- apiVersion: v1\n  kind: Node\n  metadata: {name: b}\n  spec: {taints: 3}\n",
	        K8S_LOAD_DEFAULT);
	const K8sDiag *d;

	assert_false(l.ok);
	assert_int_equal(k8s_object_set_count(l.set), 2);
	assert_string_equal(k8s_object_set_get(l.set, 1)->path_prefix, "items[1].");
	d = expect_diag(l.diags, "expected a list of Taint", 11, 18);
	assert_string_equal(d->path, "items[1].spec.taints");
	loaded_clear(&l);
	/* kubectl get resourceslices -o yaml writes kind: ResourceSliceList when asked by type */
	l = load_text("l2.yaml",
	              "apiVersion: resource.k8s.io/v1\nkind: ResourceSliceList\nitems: []\n", 0);
	assert_true(l.ok);
	loaded_clear(&l);
	expect_error("l3.yaml", "apiVersion: v1\nkind: List\nitemz: []\nitems: []\n",
	             "did you mean 'items'", 3, 1);
	/* kubectl writes items before kind; a non-List's items are not objects */
	l = load_text(
	        "l4.yaml",
	        "apiVersion: v1\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: a}}\n"
	        "kind: List\n",
	        0);
	assert_true(l.ok);
	assert_int_equal(k8s_object_set_count(l.set), 1);
	loaded_clear(&l);
	l = load_text("l5.yaml",
	              "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nitems:\n"
	              "- {apiVersion: v1, kind: Node, metadata: {name: a}}\n",
	              0);
	assert_false(l.ok);
	expect_diag(l.diags, "unknown field 'items' in Pod", 4, 1);
	assert_int_equal(k8s_object_set_count(l.set), 1);
	assert_int_equal(k8s_object_set_get(l.set, 0)->kind, K8S_KIND_POD);
	loaded_clear(&l);
}

static void
test_load__object_shape(void **state)
{
	Loaded l;

	expect_error("s.yaml", "- a\n- b\n", "expected a Kubernetes object", 1, 1);
	expect_error("k.yaml", "apiVersion: v1\nmetadata: {name: x}\n", "missing 'kind'", 1, 1);
	expect_error("v.yaml", "kind: Pod\nmetadata: {name: x}\n", "missing 'apiVersion'", 1, 1);
	expect_error("t.yaml", "apiVersion: v1\nkind: Pdo\n", "did you mean 'Pod'", 2, 7);
	expect_error("g.yaml", "apiVersion: apps/v1\nkind: Pod\n", "not in API group 'apps'", 1,
	             13);
	expect_error("o.yaml", "apiVersion: resource.k8s.io/v1alpha2\nkind: ResourceClaim\n",
	             "not served by Kubernetes 1.34", 1, 13);
	l = load_text("svc.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n", 0);
	assert_true(l.ok);
	expect_diag(l.diags, "kind Service (v1) is not modelled by drasim; skipped", 2, 7);
	assert_int_equal(k8s_object_set_count(l.set), 0);
	loaded_clear(&l);
}

/*
 * K8S_LOAD_COUNT_SKIPPED (drasim import): unmodelled kinds are counted per kind, with no
 * diagnostic; a List item and a document count alike, and a Pod is still decoded. Here:
 * 2 Secrets (one a List item), 1 Event, the Pod kept: {Event: 1, Secret: 2}.
 */
static void
test_load__count_skipped(void **state)
{
	static const char text[] = "apiVersion: v1\nkind: List\nitems:\n"
	                           "- {apiVersion: v1, kind: Secret, metadata: {name: a}, "
	                           "data: {k: c2VjcmV0}}\n"
	                           "- {apiVersion: v1, kind: Pod, metadata: {name: p}, "
	                           "spec: {containers: [{name: c, image: x}]}}\n"
	                           "---\napiVersion: v1\nkind: Secret\nmetadata: {name: b}\n"
	                           "---\napiVersion: events.k8s.io/v1\nkind: Event\n";
	Loaded l = load_text("c.yaml", text, K8S_LOAD_COUNT_SKIPPED);
	GHashTable *skipped = k8s_object_set_get_skipped(l.set);

	(void)state;
	assert_true(l.ok);
	assert_int_equal(k8s_diag_list_count(l.diags), 0);
	assert_int_equal(k8s_object_set_count(l.set), 1);
	assert_non_null(skipped);
	assert_int_equal(g_hash_table_size(skipped), 2);
	assert_int_equal(GPOINTER_TO_UINT(g_hash_table_lookup(skipped, "Secret")), 2);
	assert_int_equal(GPOINTER_TO_UINT(g_hash_table_lookup(skipped, "Event")), 1);
	loaded_clear(&l);
	/* without the flag: nothing counted (a warning each instead) */
	l = load_text("c.yaml", text, 0);
	assert_null(k8s_object_set_get_skipped(l.set));
	assert_int_equal(k8s_diag_list_count_warnings(l.diags), 3);
	loaded_clear(&l);
}

static void
test_load__duplicate_object(void **state)
{
	g_autofree char *text = g_strdup_printf("%s---\n%s", pod, pod);
	Loaded l = load_text("d.yaml", text, 0);

	/* the two names sit at line 4 and line 9, column 9 ("  name: p") */
	assert_false(l.ok);
	assert_int_equal(expect_diag(l.diags,
	                             "Pod default/p is defined twice (first at d.yaml:4:9): one "
	                             "object per kind, namespace and name",
	                             9, 9)
	                         ->severity,
	                 K8S_SEVERITY_ERROR);
	assert_ptr_equal(k8s_object_set_lookup(l.set, K8S_KIND_POD, NULL, "p"),
	                 k8s_object_set_get(l.set, 0));
	loaded_clear(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load__multi_document),
		cmocka_unit_test(test_load__json),
		cmocka_unit_test(test_load__truncated),
		cmocka_unit_test(test_load__tab_indentation),
		cmocka_unit_test(test_load__duplicate_key),
		cmocka_unit_test(test_load__not_utf8),
		cmocka_unit_test(test_load__not_utf8_with_len),
		cmocka_unit_test(test_load__empty),
		cmocka_unit_test(test_load__directory_as_file),
		cmocka_unit_test(test_load__directory_sorted),
		cmocka_unit_test(test_load__deep_nesting),
		cmocka_unit_test(test_load__json_yaml_mix),
		cmocka_unit_test(test_load__huge_numbers),
		cmocka_unit_test(test_load__aliases),
		cmocka_unit_test(test_load__merge_keys),
		cmocka_unit_test(test_load__billion_laughs),
		cmocka_unit_test(test_load__scalar_types),
		cmocka_unit_test(test_load__list),
		cmocka_unit_test(test_load__object_shape),
		cmocka_unit_test(test_load__count_skipped),
		cmocka_unit_test(test_load__duplicate_object),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
