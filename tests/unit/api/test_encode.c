/*
 * test_encode.c: the v1 encoder. For every kind in every version: decode, encode,
 * decode again gives equal objects, and encoding is idempotent (normalized). Strings
 * that YAML would misread come out quoted; quantities come out canonical.
 */
#include "api-test-util.h"

static void
round_trip(const char *what, K8sObjectSet *set)
{
	g_autofree char *text = k8s_object_set_encode(set);
	Loaded again = load_text("encoded.yaml", text, K8S_LOAD_DEFAULT);
	g_autofree char *text2 = NULL;

	if (!again.ok) {
		print_message("# %s: output does not decode:\n%s\n", what, text);
		k8s_diag_list_print(again.diags, stderr);
		fail();
	}
	assert_int_equal(k8s_object_set_count(again.set), k8s_object_set_count(set));
	for (guint i = 0; i < k8s_object_set_count(set); i++) {
		if (!k8s_object_equal(k8s_object_set_get(set, i),
		                      k8s_object_set_get(again.set, i))) {
			print_message("# %s: object %u changed in the round trip\n%s\n", what, i,
			              text);
			fail();
		}
		assert_int_equal(k8s_object_set_get(again.set, i)->version, K8S_VERSION_V1);
	}
	text2 = k8s_object_set_encode(again.set);
	assert_string_equal(text, text2);
	loaded_clear(&again);
}

static void
test_encode__round_trip_files(void **state)
{
	static const char *const files[] = { "core.yaml", "versions/v1.yaml",
		                             "versions/v1beta2.yaml", "versions/v1beta1.yaml",
		                             "versions/v1alpha3.yaml" };

	for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *path = data_path(files[i]);
		Loaded l = load_path(path, 0);

		assert_true(l.ok);
		round_trip(files[i], l.set);
		loaded_clear(&l);
	}
}

static void
test_encode__strings_are_quoted(void **state)
{
	static const char *const values[] = {
		"true",        "no",
		"n",           "Y",
		"123",         "1.5",
		"~",           "",
		"a: b",        "#x",
		"x #y",        "- item",
		"[x]",         "{x}",
		" lead",       "trail ",
		"tab\there",   "two\nlines\n",
		"two\nlines",  "two\n\n",
		"'q'",         "\"dq\"",
		"back\\slash", "2025-01-01T00:00:00Z",
		"12:30",       "*alias",
		"&anchor",     "!tag",
		"%x",          "@x",
		"`x",          "|",
		">",           "0x1F",
		"1_000",       ".inf",
		"é ünïcode",   "line\n  indented",
		"ctl\x01x",
	};
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	K8sObject *obj = k8s_object_set_add_new(set, K8S_KIND_NODE, NULL, "n");

	obj->metadata.labels.items =
	        k8s_object_set_alloc(set, sizeof(K8sStringPair) * G_N_ELEMENTS(values));
	obj->metadata.labels.n = G_N_ELEMENTS(values);
	for (guint i = 0; i < G_N_ELEMENTS(values); i++) {
		g_autofree char *key = g_strdup_printf("k%u", i);

		obj->metadata.labels.items[i].key = k8s_object_set_intern(set, key);
		obj->metadata.labels.items[i].value = k8s_object_set_intern(set, values[i]);
	}
	round_trip("strings", set);
	/* keys that need quoting, too */
	obj->metadata.labels.items[0].key = "a: b";
	obj->metadata.labels.items[1].key = "true";
	round_trip("keys", set);
}

static void
test_encode__canonical_quantities(void **state)
{
	Loaded l = load_text("q.yaml",
	                     "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\nstatus:\n"
	                     "  capacity:\n    cpu: 1000m\n    memory: 1073741824\n    gpu: 8\n"
	                     "    half: 0.5\n",
	                     0);
	g_autoptr(GString) out = g_string_new(NULL);

	assert_true(l.ok);
	k8s_object_encode(k8s_object_set_get(l.set, 0), out);
	assert_string_equal(out->str,
	                    "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\n"
	                    "status:\n  capacity:\n    cpu: \"1\"\n    memory: \"1073741824\"\n"
	                    "    gpu: \"8\"\n    half: \"500m\"\n");
	round_trip("quantities", l.set);
	loaded_clear(&l);
}

/* Field order is Go struct order whatever the input order; v1beta1 becomes v1. */
static void
test_encode__normalized(void **state)
{
	Loaded l = load_text("n.yaml",
	                     "spec:\n  devices:\n    requests:\n    - count: 2\n"
	                     "      deviceClassName: gpu\n      name: r\n"
	                     "metadata: {namespace: ns, name: c}\nkind: ResourceClaim\n"
	                     "apiVersion: resource.k8s.io/v1beta1\n",
	                     0);
	g_autofree char *text = k8s_object_set_encode(l.set);

	assert_true(l.ok);
	assert_string_equal(text, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
	                          "metadata:\n  name: c\n  namespace: ns\nspec:\n  devices:\n"
	                          "    requests:\n    - name: r\n      exactly:\n"
	                          "        deviceClassName: gpu\n        count: 2\n");
	loaded_clear(&l);
}

static void
test_encode__opaque_parameters(void **state)
{
	Loaded l = load_text(
	        "p.yaml",
	        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: c}\n"
	        "spec:\n  config:\n  - opaque:\n      driver: d\n      parameters:\n"
	        "        a: [1, \"1\", true, null, {}, []]\n        b: {c: 'yes', d: 1.5}\n"
	        "        e: \"multi\\nline\"\n",
	        0);

	assert_true(l.ok);
	round_trip("parameters", l.set);
	loaded_clear(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode__round_trip_files),
		cmocka_unit_test(test_encode__strings_are_quoted),
		cmocka_unit_test(test_encode__canonical_quantities),
		cmocka_unit_test(test_encode__normalized),
		cmocka_unit_test(test_encode__opaque_parameters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
