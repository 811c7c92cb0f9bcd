/*
 * test_duplicates.c: a key given twice in one mapping, for every kind of field the
 * decoder's tables have (string, integers, bool, quantity, string map, quantity map,
 * string list, struct, inline struct, pointer to struct, list of structs, keyed map of
 * structs, raw data, custom decoder, ignored field) and for keys repeated inside a map
 * value, in YAML and in JSON.
 *
 * Each case must give exactly one error, "duplicate key 'K' (first at line F)" at the
 * second key's LINE:COL, and decode to the same object as the manifest without the
 * second occurrence (the lines marked "#dup"): the first value stays, the second is
 * never decoded. Before the fix the second value was decoded again into storage sized
 * for the first (a heap overflow for the map kinds, which ASan reports) or replaced it.
 */
#include <glib/gstdio.h>

#include "api-test-util.h"

typedef struct {
	const char *what;
	const char *text; /* the second occurrence's lines end in "#dup" */
	const char *key;
	guint line, col; /* of the second key: 1-based, counted by hand in the text */
	guint first_line;
} DupCase;

/* @text without its "#dup" lines. (transfer full) */
static char *
without_dup_lines(const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	GString *out = g_string_new(NULL);

	for (guint i = 0; lines[i] != NULL; i++) {
		if (strstr(lines[i], "#dup") == NULL && lines[i][0] != '\0') {
			g_string_append_printf(out, "%s\n", lines[i]);
		}
	}
	return g_string_free(out, FALSE);
}

/* The checks above, for a case whose single-occurrence form is @first_text. */
static void
check_case(const DupCase *c, const char *file, const char *first_text)
{
	Loaded dup = load_text(file, c->text, K8S_LOAD_DEFAULT);
	Loaded first = load_text(file, first_text, K8S_LOAD_DEFAULT);
	g_autofree char *want =
	        g_strdup_printf("duplicate key '%s' (first at line %u)", c->key, c->first_line);
	guint n_errors = k8s_diag_list_count_errors(dup.diags);

	print_message("# %s\n", c->what);
	if (!first.ok) {
		print_message("# the manifest without the duplicate does not load:\n");
		print_diags_with(first.diags, "#   ");
		fail();
	}
	assert_false(dup.ok);
	expect_diag(dup.diags, want, c->line, c->col);
	if (n_errors != 1) {
		print_message("# expected 1 error, got %u\n", n_errors);
		print_diags_with(dup.diags, "#   ");
		fail();
	}
	assert_int_equal(k8s_object_set_count(dup.set), k8s_object_set_count(first.set));
	for (guint i = 0; i < k8s_object_set_count(first.set); i++) {
		if (!k8s_object_equal(k8s_object_set_get(dup.set, i),
		                      k8s_object_set_get(first.set, i))) {
			g_autofree char *got = k8s_object_set_encode(dup.set);

			print_message("# %s: the duplicate changed the object:\n%s\n", c->what,
			              got);
			fail();
		}
	}
	loaded_clear(&dup);
	loaded_clear(&first);
}

static const DupCase yaml_cases[] = {
	{ "string map (metadata.labels), the reported overflow",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	  "  labels:\n    x: \"1\"\n    y: \"2\"\n    z: \"3\"\n"
	  "  labels:   #dup\n    a: \"1\"   #dup\n    b: \"2\"   #dup\n"
	  "spec:\n  containers:\n  - name: c\n    image: i\n",
	  "labels", 9, 3, 5 },
	{ "a key twice inside a string map",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	  "  annotations:\n    x: \"1\"\n    x: \"2\"   #dup\n"
	  "spec:\n  containers:\n  - name: c\n    image: i\n",
	  "x", 7, 5, 6 },
	{ "quantity map (container resources.limits)",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
	  "  - name: c\n    image: i\n    resources:\n"
	  "      limits:\n        cpu: \"1\"\n        memory: 1Gi\n"
	  "      limits:   #dup\n        cpu: \"2\"   #dup\n        memory: 2Gi   #dup\n"
	  "        nvidia.com/gpu: \"1\"   #dup\n",
	  "limits", 13, 7, 10 },
	{ "a key twice inside a quantity map",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
	  "  - name: c\n    image: i\n    resources:\n"
	  "      requests:\n        cpu: \"1\"\n        cpu: \"2\"   #dup\n",
	  "cpu", 12, 9, 11 },
	{ "struct (container resources)",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
	  "  - name: c\n    image: i\n    resources:\n      limits: {cpu: \"1\"}\n"
	  "    resources:   #dup\n      limits: {cpu: \"2\", memory: 1Gi}   #dup\n"
	  "      requests: {cpu: \"1\"}   #dup\n",
	  "resources", 11, 5, 9 },
	{ "struct (metadata)",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {a: b}\n"
	  "metadata:   #dup\n  name: q   #dup\n  labels: {c: d, e: f}   #dup\n"
	  "spec:\n  containers:\n  - name: c\n    image: i\n",
	  "metadata", 6, 1, 3 },
	{ "quantity map in an inline struct (Node status.capacity)",
	  "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\nstatus:\n"
	  "  capacity:\n    cpu: \"8\"\n"
	  "  capacity:   #dup\n    cpu: \"16\"   #dup\n    memory: 64Gi   #dup\n"
	  "    nvidia.com/gpu: \"8\"   #dup\n",
	  "capacity", 8, 3, 6 },
	{ "inline struct (Node status)",
	  "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\nstatus:\n"
	  "  capacity: {cpu: \"8\"}\n"
	  "status:   #dup\n  capacity: {cpu: \"16\", memory: 64Gi}   #dup\n"
	  "  allocatable: {cpu: \"16\"}   #dup\n",
	  "status", 7, 1, 5 },
	{ "keyed map of structs (ResourceSlice device capacity)",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\n"
	  "spec:\n  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
	  "  nodeName: node-a\n  devices:\n  - name: gpu-0\n"
	  "    capacity:\n      memory: {value: 80Gi}\n"
	  "    capacity:   #dup\n      memory: {value: 40Gi}   #dup\n"
	  "      cores: {value: \"132\"}   #dup\n      slices: {value: \"7\"}   #dup\n",
	  "capacity", 13, 5, 11 },
	{ "keyed map of structs (device attributes)",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\n"
	  "spec:\n  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
	  "  nodeName: node-a\n  devices:\n  - name: gpu-0\n"
	  "    attributes:\n      model: {string: H100}\n"
	  "    attributes:   #dup\n      model: {string: A100}   #dup\n"
	  "      index: {int: 0}   #dup\n",
	  "attributes", 13, 5, 11 },
	{ "a key twice inside a keyed map (shared counters)",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\n"
	  "spec:\n  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
	  "  nodeName: node-a\n  sharedCounters:\n  - name: gpu-0-counters\n    counters:\n"
	  "      memory: {value: 80Gi}\n      memory: {value: 40Gi}   #dup\n",
	  "memory", 13, 7, 12 },
	{ "list of structs (ResourceSlice devices)",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\n"
	  "spec:\n  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
	  "  nodeName: node-a\n  devices:\n  - name: gpu-0\n"
	  "  devices:   #dup\n  - name: gpu-1   #dup\n  - name: gpu-2   #dup\n",
	  "devices", 11, 3, 9 },
	{ "list of structs (pod containers)",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
	  "  - name: c\n    image: i\n  containers:   #dup\n  - name: d   #dup\n"
	  "    image: i   #dup\n  - name: e   #dup\n    image: i   #dup\n",
	  "containers", 9, 3, 6 },
	{ "pointer to struct (ResourceSlice nodeSelector)",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: s\n"
	  "spec:\n  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
	  "  nodeSelector:\n    nodeSelectorTerms:\n"
	  "    - matchExpressions:\n      - {key: a, operator: In, values: [x]}\n"
	  "  nodeSelector:   #dup\n    nodeSelectorTerms:   #dup\n"
	  "    - matchExpressions:   #dup\n      - {key: b, operator: In, values: [x2, z2]}   "
	  "#dup\n",
	  "nodeSelector", 12, 3, 8 },
	{ "int64 (exactly.count)",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
	  "spec:\n  devices:\n    requests:\n    - name: a\n      exactly:\n"
	  "        deviceClassName: gpu.example.com\n        count: 1\n"
	  "        count: 2   #dup\n",
	  "count", 12, 9, 11 },
	{ "bool (exactly.adminAccess)",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
	  "spec:\n  devices:\n    requests:\n    - name: a\n      exactly:\n"
	  "        deviceClassName: gpu.example.com\n        adminAccess: false\n"
	  "        adminAccess: true   #dup\n",
	  "adminAccess", 12, 9, 11 },
	{ "string list (constraint requests)",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
	  "spec:\n  devices:\n    requests:\n    - name: a\n      exactly:\n"
	  "        deviceClassName: gpu.example.com\n    - name: b\n      exactly:\n"
	  "        deviceClassName: gpu.example.com\n    constraints:\n"
	  "    - matchAttribute: gpu.example.com/model\n      requests: [a]\n"
	  "      requests: [a, b]   #dup\n",
	  "requests", 17, 7, 16 },
	{ "string list (node selector values)",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  affinity:\n    nodeAffinity:\n"
	  "      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n"
	  "        - matchExpressions:\n          - key: zone\n            operator: In\n"
	  "            values: [a]\n            values: [b, c, d]   #dup\n"
	  "  containers:\n  - name: c\n    image: i\n",
	  "values", 14, 13, 13 },
	{ "string (opaque driver)",
	  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: d\nspec:\n"
	  "  config:\n  - opaque:\n      driver: gpu.example.com\n"
	  "      driver: other.example.com   #dup\n"
	  "      parameters: {kind: GpuConfig}\n",
	  "driver", 9, 7, 8 },
	{ "raw data (opaque parameters)",
	  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata:\n  name: d\nspec:\n"
	  "  config:\n  - opaque:\n      driver: gpu.example.com\n"
	  "      parameters: {kind: GpuConfig}\n"
	  "      parameters: {kind: Other, sharing: {strategy: MPS}}   #dup\n",
	  "parameters", 10, 7, 9 },
	{ "custom decoder (v1alpha3 bare capacity)",
	  "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceSlice\nmetadata:\n  name: s\n"
	  "spec:\n  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
	  "  nodeName: node-a\n  devices:\n  - name: gpu-0\n    basic:\n"
	  "      capacity: {memory: 80Gi}\n"
	  "      capacity: {memory: 40Gi, cores: \"132\"}   #dup\n",
	  "capacity", 13, 7, 12 },
	{ "inline struct (v1beta1 device basic)",
	  "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\nmetadata:\n  name: s\n"
	  "spec:\n  driver: gpu.example.com\n  pool: {name: p, resourceSliceCount: 1}\n"
	  "  nodeName: node-a\n  devices:\n  - name: gpu-0\n    basic:\n"
	  "      capacity: {memory: {value: 80Gi}}\n"
	  "    basic:   #dup\n      capacity: {memory: {value: 1Gi}, a: {value: 1}}   #dup\n",
	  "basic", 13, 5, 11 },
	{ "int32 (pod priority)",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  priority: 5\n"
	  "  priority: 7   #dup\n  containers:\n  - name: c\n    image: i\n",
	  "priority", 7, 3, 6 },
	/* the only case main passed: an ignored field changes no object, but must be reported */
	{ "a field drasim ignores (pod volumes)",
	  "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  volumes: []\n"
	  "  volumes: [{name: v}]   #dup\n  containers:\n  - name: c\n    image: i\n",
	  "volumes", 7, 3, 6 },
	{ "quantity (capacity requests) inside an inline struct",
	  "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: c\n"
	  "spec:\n  devices:\n    requests:\n    - name: a\n      exactly:\n"
	  "        deviceClassName: gpu.example.com\n"
	  "        capacity:\n          requests: {memory: 1Gi}\n"
	  "          requests: {memory: 2Gi, cores: \"1\"}   #dup\n",
	  "requests", 13, 11, 12 },
	{ "List items",
	  "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n"
	  "  metadata: {name: a}\n"
	  "items:   #dup\n- apiVersion: v1   #dup\n  kind: Node   #dup\n"
	  "  metadata: {name: b}   #dup\n",
	  "items", 7, 1, 3 },
};

static void
test_duplicates__yaml(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(yaml_cases); i++) {
		g_autofree char *first_text = without_dup_lines(yaml_cases[i].text);

		check_case(&yaml_cases[i], "dup.yaml", first_text);
	}
}

/*
 * JSON goes through the same tree builder (libyaml reads it as flow YAML); these pin
 * that. Columns: the key's opening quote.
 */
static const struct {
	DupCase c;
	const char *first_text;
} json_cases[] = {
	{ { "JSON string map (metadata.labels)",
	    "{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n"
	    " \"metadata\": {\"name\": \"p\",\n"
	    "  \"labels\": {\"x\": \"1\"},\n"
	    "  \"labels\": {\"a\": \"1\", \"b\": \"2\", \"c\": \"3\"}},\n"
	    " \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"i\"}]}}\n",
	    "labels", 4, 3, 3 },
	  "{\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n"
	  " \"metadata\": {\"name\": \"p\",\n"
	  "  \"labels\": {\"x\": \"1\"}},\n"
	  " \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"i\"}]}}\n" },
	{ { "JSON quantity map (container limits)",
	    "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"},\n"
	    " \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"i\",\n"
	    "  \"resources\": {\"limits\": {\"cpu\": \"1\"},\n"
	    "                \"limits\": {\"cpu\": \"2\", \"memory\": \"1Gi\"}}}]}}\n",
	    "limits", 4, 17, 3 },
	  "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"p\"},\n"
	  " \"spec\": {\"containers\": [{\"name\": \"c\", \"image\": \"i\",\n"
	  "  \"resources\": {\"limits\": {\"cpu\": \"1\"}}}]}}\n" },
	{ { "JSON keyed map (device capacity)",
	    "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSlice\",\n"
	    " \"metadata\": {\"name\": \"s\"},\n"
	    " \"spec\": {\"driver\": \"gpu.example.com\", \"nodeName\": \"node-a\",\n"
	    "  \"pool\": {\"name\": \"p\", \"resourceSliceCount\": 1},\n"
	    "  \"devices\": [{\"name\": \"gpu-0\",\n"
	    "   \"capacity\": {\"memory\": {\"value\": \"80Gi\"}},\n"
	    "   \"capacity\": {\"memory\": {\"value\": \"1Gi\"}, \"x\": {\"value\": \"1\"}}}]}}\n",
	    "capacity", 7, 4, 6 },
	  "{\"apiVersion\": \"resource.k8s.io/v1\", \"kind\": \"ResourceSlice\",\n"
	  " \"metadata\": {\"name\": \"s\"},\n"
	  " \"spec\": {\"driver\": \"gpu.example.com\", \"nodeName\": \"node-a\",\n"
	  "  \"pool\": {\"name\": \"p\", \"resourceSliceCount\": 1},\n"
	  "  \"devices\": [{\"name\": \"gpu-0\",\n"
	  "   \"capacity\": {\"memory\": {\"value\": \"80Gi\"}}}]}}\n" },
};

static void
test_duplicates__json(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(json_cases); i++) {
		check_case(&json_cases[i].c, "dup.json", json_cases[i].first_text);
	}
}

/* A mapping with more than 16 keys takes the hashed path of the duplicate check. */
static void
test_duplicates__many_keys(void **state)
{
	GString *text = g_string_new("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	                             "  labels:\n");
	DupCase c = { "20 labels, the 21st repeats the 3rd", NULL, "k2", 26, 5, 8 };

	/* labels k0..k19 sit on lines 6..25; "k2" again on line 26 */
	for (guint i = 0; i < 20; i++) {
		g_string_append_printf(text, "    k%u: v%u\n", i, i);
	}
	g_string_append(text, "    k2: other   #dup\n"
	                      "spec:\n  containers:\n  - name: c\n    image: i\n");
	c.text = text->str;
	{
		g_autofree char *first_text = without_dup_lines(c.text);

		check_case(&c, "dup.yaml", first_text);
	}
	g_string_free(text, TRUE);
}

/*
 * Two objects of one kind with one name in one namespace, across the files given
 * together: an error at the second's name pointing at the first (it was a warning and
 * lookups silently used the first). Another namespace or another kind is no clash.
 */
static void
test_duplicates__objects_across_files(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("dup-XXXXXX", NULL);
	g_autofree char *a = g_build_filename(dir, "a.yaml", NULL);
	g_autofree char *b = g_build_filename(dir, "b.yaml", NULL);
	const char *paths[] = { a, b, NULL };
	K8sObjectSet *set = k8s_object_set_new();
	K8sDiagList *diags = k8s_diag_list_new();
	g_autofree char *want_claim = NULL;
	g_autofree char *want_class = NULL;

	/* a.yaml: claim c (team-a), its name at 3:37; class gpu, its name at 7:18 */
	assert_true(g_file_set_contents(
	        a,
	        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
	        "metadata: {namespace: team-a, name: c}\n---\n"
	        "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n",
	        -1, NULL));
	/* b.yaml: claim c in team-b (fine, lines 1-3), Pod c (fine, 5-8), claim c in team-a
	 * again (10-14, "  name: c" at 13:9), class gpu again in v1beta1 (16-18, name at
	 * 18:18) */
	assert_true(g_file_set_contents(
	        b,
	        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
	        "metadata: {namespace: team-b, name: c}\n---\n"
	        "apiVersion: v1\nkind: Pod\nmetadata: {namespace: team-a, name: c}\n"
	        "spec: {containers: [{name: x, image: i}]}\n---\n"
	        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n"
	        "  name: c\n  namespace: team-a\n---\n"
	        "apiVersion: resource.k8s.io/v1beta1\nkind: DeviceClass\nmetadata: {name: gpu}\n",
	        -1, NULL));
	assert_false(k8s_load_paths(paths, K8S_LOAD_DEFAULT, set, diags));
	want_claim = g_strdup_printf("ResourceClaim team-a/c is defined twice (first at %s:3:37): "
	                             "one object per kind, namespace and name",
	                             a);
	want_class = g_strdup_printf("DeviceClass gpu is defined twice (first at %s:7:18): one "
	                             "object per kind and name",
	                             a);
	assert_string_equal(expect_diag(diags, want_claim, 13, 9)->pos.file, b);
	assert_string_equal(expect_diag(diags, want_class, 18, 18)->pos.file, b);
	assert_int_equal(k8s_diag_list_count_errors(diags), 2);
	k8s_object_set_free(set);
	k8s_diag_list_free(diags);
	g_unlink(a);
	g_unlink(b);
	g_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_duplicates__yaml),
		cmocka_unit_test(test_duplicates__json),
		cmocka_unit_test(test_duplicates__many_keys),
		cmocka_unit_test(test_duplicates__objects_across_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
