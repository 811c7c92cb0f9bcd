/*
 * test_strict.c: strict decoding. Unknown fields are errors with "did you mean" (or
 * warnings with K8S_LOAD_LENIENT); scalars of the wrong type are errors with the
 * value's position and field path; real Kubernetes fields drasim does not model load.
 */
#include "api-test-util.h"

static const char claim_head[] = "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
                                 "metadata: {name: c}\nspec:\n  devices:\n    requests:\n"
                                 "    - name: gpu\n      exactly:\n";

static Loaded
load_claim(const char *request_tail, K8sLoadFlags flags)
{
	g_autofree char *text = g_strconcat(claim_head, request_tail, NULL);

	return load_text("c.yaml", text, flags);
}

static void
test_strict__did_you_mean(void **state)
{
	static const struct {
		const char *tail;
		const char *message;
	} cases[] = {
		{ "        devceClassName: x\n",
		  "unknown field 'devceClassName' in ExactDeviceRequest; "
		  "did you mean 'deviceClassName'?" },
		{ "        DeviceClassName: x\n", "did you mean 'deviceClassName'?" },
		{ "        deviceClassName: x\n        cuont: 2\n", "did you mean 'count'?" },
		{ "        deviceClassName: x\n        selector: []\n",
		  "did you mean 'selectors'?" },
		{ "        deviceClassName: x\n        allocationmode: All\n",
		  "did you mean 'allocationMode'?" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		Loaded l = load_claim(cases[i].tail, 0);
		const K8sDiag *d;

		assert_false(l.ok);
		d = expect_diag(l.diags, cases[i].message, 0, 0);
		assert_int_equal(d->severity, K8S_SEVERITY_ERROR);
		assert_int_equal(d->pos.col, 9);
		assert_true(g_str_has_prefix(d->path, "spec.devices.requests[0].exactly."));
		loaded_clear(&l);
	}
}

static void
test_strict__no_suggestion_when_far(void **state)
{
	Loaded l = load_claim("        deviceClassName: x\n        flavour: big\n", 0);
	const K8sDiag *d =
	        expect_diag(l.diags, "unknown field 'flavour' in ExactDeviceRequest", 10, 9);

	assert_null(strstr(d->message, "did you mean"));
	assert_string_equal(d->path, "spec.devices.requests[0].exactly.flavour");
	loaded_clear(&l);
}

static void
test_strict__lenient(void **state)
{
	Loaded l = load_claim("        deviceClassName: x\n        cuont: 2\n", K8S_LOAD_LENIENT);
	K8sResourceClaim *c = k8s_object_as_resource_claim(k8s_object_set_get(l.set, 0));
	const K8sDiag *d;

	assert_true(l.ok);
	d = expect_diag(l.diags, "did you mean 'count'?", 10, 9);
	assert_int_equal(d->severity, K8S_SEVERITY_WARNING);
	assert_string_equal(c->spec.requests[0].exactly.device_class_name, "x");
	loaded_clear(&l);
}

static void
test_strict__wrong_types(void **state)
{
	static const struct {
		const char *tail;
		const char *message;
		guint line, col;
	} cases[] = {
		{ "        deviceClassName: 12\n",
		  "expected a string, got the integer 12 (quote it", 9, 26 },
		{ "        deviceClassName: true\n", "expected a string, got the bool true", 9,
		  26 },
		{ "        deviceClassName: [a]\n", "expected a string, got a list", 9, 26 },
		{ "        count: \"2\"\n",
		  "expected an integer, got the string '2' (remove the "
		  "quotes)",
		  9, 16 },
		{ "        count: 1.5\n", "expected an integer, got the fraction 1.5", 9, 16 },
		{ "        count: two\n", "expected an integer, got the string 'two'", 9, 16 },
		{ "        adminAccess: \"true\"\n",
		  "expected true or false, got string 'true' "
		  "(remove the quotes)",
		  9, 22 },
		{ "        selectors: {cel: x}\n",
		  "expected a list of DeviceSelector, got a mapping", 9, 20 },
		{ "        selectors:\n        - cel: x\n",
		  "expected a mapping (CELDeviceSelector), "
		  "got a string",
		  10, 16 },
		{ "        capacity:\n          requests:\n            memory: lots\n",
		  "invalid quantity 'lots'", 11, 21 },
		{ "        capacity:\n          requests:\n            memory: true\n",
		  "expected a quantity (like 1, 500m or 40Gi), got the bool true", 11, 21 },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		Loaded l = load_claim(cases[i].tail, 0);

		assert_false(l.ok);
		expect_diag(l.diags, cases[i].message, cases[i].line, cases[i].col);
		loaded_clear(&l);
	}
}

/* YAML 1.0 becomes JSON 1 on kubectl's way to the API server; nulls are absent fields. */
static void
test_strict__accepted_forms(void **state)
{
	Loaded l = load_claim("        deviceClassName: x\n        count: 2.0\n        selectors:\n"
	                      "        adminAccess: ~\n",
	                      0);
	K8sResourceClaim *c = k8s_object_as_resource_claim(k8s_object_set_get(l.set, 0));

	assert_true(l.ok);
	assert_int_equal(c->spec.requests[0].exactly.count, 2);
	assert_int_equal(c->spec.requests[0].exactly.n_selectors, 0);
	assert_false(c->spec.requests[0].exactly.has_admin_access);
	loaded_clear(&l);
}

/* Real Kubernetes fields drasim does not model are accepted; a typo of one is not. */
static void
test_strict__real_fields_accepted(void **state)
{
	Loaded l = load_text(
	        "pod.yaml",
	        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
	        "  resourceVersion: \"1\"\n  finalizers: [x]\n  generation: 3\n"
	        "spec:\n  hostNetwork: true\n  topologySpreadConstraints: []\n"
	        "  containers:\n  - name: c\n    image: i\n    ports: [{containerPort: 1}]\n"
	        "    livenessProbe: {exec: {command: [x]}}\n    stdin: true\n"
	        "status:\n  podIP: 10.0.0.1\n",
	        0);

	assert_true(l.ok);
	assert_int_equal(k8s_diag_list_count(l.diags), 0);
	loaded_clear(&l);
	l = load_text("pod.yaml",
	              "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
	              "  - name: c\n    imag: i\n    volumeMount: []\n",
	              0);
	assert_false(l.ok);
	expect_diag(l.diags, "unknown field 'imag' in Container; did you mean 'image'?", 7, 5);
	expect_diag(l.diags, "did you mean 'volumeMounts'?", 8, 5);
	loaded_clear(&l);
}

static void
test_strict__metadata_and_maps(void **state)
{
	Loaded l = load_text("m.yaml",
	                     "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  lables: {}\n"
	                     "  labels:\n    version: 1\n    empty:\n",
	                     0);
	K8sNode *n = k8s_object_as_node(k8s_object_set_get(l.set, 0));

	assert_false(l.ok);
	expect_diag(l.diags, "unknown field 'lables' in ObjectMeta; did you mean 'labels'?", 5, 3);
	assert_string_equal(
	        expect_diag(l.diags, "expected a string, got the integer 1", 7, 14)->path,
	        "metadata.labels[version]");
	assert_int_equal(n->obj.metadata.labels.n, 2);
	assert_string_equal(n->obj.metadata.labels.items[1].value, "");
	loaded_clear(&l);
}

static void
test_strict__attributes(void **state)
{
	Loaded l = load_text(
	        "s.yaml",
	        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
	        "spec:\n  driver: d\n  devices:\n  - name: a\n    attributes:\n"
	        "      x: {int: 1, string: s}\n      y: {}\n      z: {float: 1.5}\n"
	        "      w: {int: 9223372036854775808}\n",
	        0);
	K8sResourceSlice *s = k8s_object_as_resource_slice(k8s_object_set_get(l.set, 0));

	assert_false(l.ok);
	assert_int_equal(s->spec.devices[0].attributes[0].n_values, 2);
	assert_int_equal(s->spec.devices[0].attributes[1].type, K8S_ATTR_NONE);
	expect_diag(l.diags, "unknown field 'float' in DeviceAttribute", 11, 11);
	expect_diag(l.diags, "out of range", 12, 16);
	loaded_clear(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strict__did_you_mean),
		cmocka_unit_test(test_strict__no_suggestion_when_far),
		cmocka_unit_test(test_strict__lenient),
		cmocka_unit_test(test_strict__wrong_types),
		cmocka_unit_test(test_strict__accepted_forms),
		cmocka_unit_test(test_strict__real_fields_accepted),
		cmocka_unit_test(test_strict__metadata_and_maps),
		cmocka_unit_test(test_strict__attributes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
