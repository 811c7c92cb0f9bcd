/*
 * test_versions.c: resource.k8s.io v1alpha3 (the Kubernetes 1.31 shape), v1beta1,
 * v1beta2 and v1 all decode into equal v1 objects; the apiVersion as written is kept
 * and classified the way a 1.34 API server serves it.
 */
#include "api-test-util.h"

static const char *const versions[] = { "v1", "v1beta2", "v1beta1", "v1alpha3" };

static Loaded
load_version(const char *version)
{
	g_autofree char *name = g_strdup_printf("versions/%s.yaml", version);
	g_autofree char *path = data_path(name);

	return load_path(path, K8S_LOAD_DEFAULT);
}

static void
test_versions__all_equal_to_v1(void **state)
{
	Loaded v1 = load_version("v1");

	assert_true(v1.ok);
	assert_int_equal(k8s_object_set_count(v1.set), 6);
	for (guint v = 0; v < G_N_ELEMENTS(versions); v++) {
		Loaded other = load_version(versions[v]);
		g_autofree char *api = g_strdup_printf("resource.k8s.io/%s", versions[v]);

		if (!other.ok) {
			k8s_diag_list_print(other.diags, stderr);
		}
		assert_true(other.ok);
		assert_int_equal(k8s_object_set_count(other.set), 6);
		for (guint i = 0; i < 6; i++) {
			K8sObject *a = k8s_object_set_get(v1.set, i);
			K8sObject *b = k8s_object_set_get(other.set, i);

			if (!k8s_object_equal(a, b)) {
				print_message("# %s object %u (%s) differs from v1\n", versions[v],
				              i, b->kind_name);
				fail();
			}
			assert_int_equal(b->version, (K8sApiVersion)v);
			assert_string_equal(b->api_version, api);
		}
		loaded_clear(&other);
	}
	loaded_clear(&v1);
}

/* Equality is not trivially true: a changed field is seen. */
static void
test_versions__difference_is_seen(void **state)
{
	Loaded a = load_version("v1");
	Loaded b = load_version("v1beta1");
	K8sResourceClaim *c = k8s_object_as_resource_claim(k8s_object_set_get(b.set, 1));
	K8sResourceSlice *s = k8s_object_as_resource_slice(k8s_object_set_get(b.set, 3));

	assert_true(k8s_object_equal(k8s_object_set_get(a.set, 1), &c->obj));
	c->spec.requests[0].exactly.count = 3;
	assert_false(k8s_object_equal(k8s_object_set_get(a.set, 1), &c->obj));
	s->spec.devices[0].attributes[2].type = K8S_ATTR_BOOL;
	assert_false(k8s_object_equal(k8s_object_set_get(a.set, 3), &s->obj));
	assert_false(k8s_object_equal(k8s_object_set_get(a.set, 3), k8s_object_set_get(a.set, 4)));
	loaded_clear(&a);
	loaded_clear(&b);
}

static void
test_versions__seed_tutorial_shape(void **state)
{
	/* as in the seed tutorial: flat request, no count, literal block selector */
	Loaded l = load_text("seed.yaml",
	                     "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceClaim\n"
	                     "metadata:\n  name: mig-1g-10gb\nspec:\n  devices:\n    requests:\n"
	                     "    - name: gpu-partition\n      deviceClassName: gpu.nvidia.com\n"
	                     "      selectors:\n      - cel:\n          expression: |\n"
	                     "            device.attributes[\"gpu.nvidia.com\"].migProfile == "
	                     "\"1g.10gb\"\n",
	                     0);
	K8sResourceClaim *c = k8s_object_as_resource_claim(k8s_object_set_get(l.set, 0));
	const char *instead, *why;

	assert_true(l.ok);
	assert_true(c->spec.requests[0].has_exactly);
	assert_false(c->spec.requests[0].exactly.has_count);
	assert_string_equal(c->spec.requests[0].exactly.device_class_name, "gpu.nvidia.com");
	assert_int_equal(c->spec.requests[0].exactly.selectors[0].expression_pos.line, 12);
	assert_int_equal(k8s_version_served(&c->obj, &instead, &why), K8S_NOT_SERVED);
	assert_string_equal(instead, "resource.k8s.io/v1");
	assert_non_null(strstr(why, "DeviceTaintRule"));
	loaded_clear(&l);
}

static void
test_versions__served(void **state)
{
	static const struct {
		const char *api;
		const char *kind;
		K8sServed served;
		const char *instead;
	} cases[] = {
		{ "resource.k8s.io/v1", "ResourceSlice", K8S_SERVED, "resource.k8s.io/v1" },
		{ "resource.k8s.io/v1beta2", "DeviceClass", K8S_SERVED_DISABLED,
		  "resource.k8s.io/v1" },
		{ "resource.k8s.io/v1beta1", "ResourceClaim", K8S_SERVED_DISABLED,
		  "resource.k8s.io/v1" },
		{ "resource.k8s.io/v1alpha3", "ResourceClaimTemplate", K8S_NOT_SERVED,
		  "resource.k8s.io/v1" },
		{ "resource.k8s.io/v1alpha3", "DeviceTaintRule", K8S_SERVED_DISABLED,
		  "resource.k8s.io/v1alpha3" },
		{ "resource.k8s.io/v1", "DeviceTaintRule", K8S_NOT_SERVED,
		  "resource.k8s.io/v1alpha3" },
		{ "apps/v1", "Deployment", K8S_SERVED, "apps/v1" },
		{ "batch/v1", "Job", K8S_SERVED, "batch/v1" },
		{ "v1", "Pod", K8S_SERVED, "v1" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text =
		        g_strdup_printf("apiVersion: %s\nkind: %s\nmetadata: {name: x}\n",
		                        cases[i].api, cases[i].kind);
		Loaded l = load_text("s.yaml", text, 0);
		const char *instead = NULL;

		assert_int_equal(k8s_object_set_count(l.set), 1);
		assert_int_equal(k8s_version_served(k8s_object_set_get(l.set, 0), &instead, NULL),
		                 cases[i].served);
		assert_string_equal(instead, cases[i].instead);
		loaded_clear(&l);
	}
}

static void
test_versions__removed_fields_warn(void **state)
{
	Loaded l = load_text(
	        "old.yaml",
	        "apiVersion: resource.k8s.io/v1alpha3\nkind: DeviceClass\nmetadata: {name: c}\n"
	        "spec:\n  suitableNodes:\n    nodeSelectorTerms: []\n---\n"
	        "apiVersion: resource.k8s.io/v1alpha3\nkind: ResourceClaim\nmetadata: {name: c}\n"
	        "spec:\n  controller: example.com\n  devices: {requests: []}\n"
	        "status:\n  deallocationRequested: false\n  allocation:\n    controller: x\n",
	        0);

	assert_true(l.ok);
	assert_int_equal(k8s_object_set_count(l.set), 2);
	assert_int_equal(k8s_diag_list_count_warnings(l.diags), 4);
	expect_diag(l.diags, "suitableNodes was removed in Kubernetes 1.32", 6, 5);
	expect_diag(l.diags, "spec.controller", 12, 15);
	expect_diag(l.diags, "deallocationRequested", 15, 26);
	expect_diag(l.diags, "status.allocation.controller", 17, 17);
	loaded_clear(&l);
}

static void
test_versions__wrong_shape_hints(void **state)
{
	Loaded l = load_text(
	        "v1flat.yaml",
	        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
	        "spec:\n  devices:\n    requests:\n    - name: gpu\n"
	        "      deviceClassName: gpu.example.com\n",
	        0);
	const K8sDiag *d;

	assert_false(l.ok);
	d = expect_diag(l.diags, "go under 'exactly' (the flat form is v1beta1)", 8, 7);
	assert_string_equal(d->path, "spec.devices.requests[0].deviceClassName");
	loaded_clear(&l);

	l = load_text(
	        "b1.yaml",
	        "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata: {name: c}\n"
	        "spec:\n  devices:\n    requests:\n    - name: gpu\n      exactly:\n"
	        "        deviceClassName: gpu.example.com\n",
	        0);
	assert_false(l.ok);
	expect_diag(l.diags, "'exactly' is the resource.k8s.io/v1 and v1beta2 form", 8, 7);
	loaded_clear(&l);

	l = load_text(
	        "dev.yaml",
	        "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: s}\n"
	        "spec:\n  driver: d\n  devices:\n  - name: a\n    basic:\n      attributes: {}\n"
	        "---\napiVersion: resource.k8s.io/v1beta1\nkind: ResourceSlice\n"
	        "metadata: {name: t}\nspec:\n  driver: d\n  devices:\n  - name: a\n"
	        "    attributes: {}\n",
	        0);
	assert_false(l.ok);
	expect_diag(l.diags, "'basic' is the v1beta1 form", 8, 5);
	expect_diag(l.diags, "in this apiVersion device fields go under 'basic'", 18, 5);
	loaded_clear(&l);
}

/* v1beta1 firstAvailable next to flat fields: both kept, so validation can say "one of". */
static void
test_versions__first_available_with_flat_fields(void **state)
{
	Loaded l = load_text(
	        "fa.yaml",
	        "apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\n"
	        "metadata: {name: c}\nspec:\n  devices:\n    requests:\n    - name: a\n"
	        "      firstAvailable:\n      - {name: sx, deviceClassName: c}\n"
	        "    - name: b\n      firstAvailable:\n      - {name: sy, deviceClassName: c}\n"
	        "      deviceClassName: c\n",
	        0);
	K8sResourceClaim *c = k8s_object_as_resource_claim(k8s_object_set_get(l.set, 0));

	assert_true(l.ok);
	assert_false(c->spec.requests[0].has_exactly);
	assert_int_equal(c->spec.requests[0].n_first_available, 1);
	assert_true(c->spec.requests[1].has_exactly);
	assert_int_equal(c->spec.requests[1].n_first_available, 1);
	loaded_clear(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_versions__all_equal_to_v1),
		cmocka_unit_test(test_versions__difference_is_seen),
		cmocka_unit_test(test_versions__seed_tutorial_shape),
		cmocka_unit_test(test_versions__served),
		cmocka_unit_test(test_versions__removed_fields_warn),
		cmocka_unit_test(test_versions__wrong_shape_hints),
		cmocka_unit_test(test_versions__first_available_with_flat_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
