/*
 * test_publish_api.c: published hardware becomes model/api objects without text.
 *
 * The objects are built in the set, not decoded from written YAML: they carry no
 * line (only the published "file"), each numbered as its item of the List
 * `drasim publish` prints. They are validated by api's own rules, and a problem is
 * reported at its line of that printed text. The print is api's encoder in
 * kubectl's style.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hw_api.h"
#include "hw_test_publish.h"

static HwNode *
dgx_node(HwCatalog **catalog)
{
	*catalog = hw_catalog_new_builtin(NULL);
	return hw_node_new(hw_catalog_lookup_shape(*catalog, "dgx-h100"), "node-a");
}

/* Node, 2 classes, the gpu.nvidia.com slice, the dra.net slice: items 0..4 of the
 * List, none with a line of text behind it. */
static void
test_publish_api__built_without_text(void **state)
{
	g_autoptr(HwCatalog) catalog = NULL;
	g_autoptr(HwNode) node = dgx_node(&catalog);
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	HwPublishOptions options;

	hw_publish_options_init(&options);
	assert_true(hw_publish_objects(node, &options, FALSE, set, diags));
	assert_int_equal(k8s_diag_list_count(diags), 0);
	assert_int_equal(k8s_object_set_count(set), 3);
	for (guint i = 0; i < k8s_object_set_count(set); i++) {
		const K8sObject *obj = k8s_object_set_get(set, i);
		g_autofree char *prefix = g_strdup_printf("items[%u].", i);

		assert_string_equal(obj->pos.file, "<published node-a>");
		assert_int_equal(obj->pos.line, 0);
		assert_string_equal(obj->path_prefix, prefix);
	}
}

static void
bad_label(HwNodeObject *object)
{
	hw_node_object_set_label(object, "example.com/bad", "-bad value-");
}

/* A label value api rejects ("-bad value-": must start and end with an alphanumeric
 * and hold no space) fails publishing; the message points into the printed text. */
static void
test_publish_api__validated(void **state)
{
	g_autoptr(HwCatalog) catalog = NULL;
	g_autoptr(HwNode) node = dgx_node(&catalog);
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	const K8sDiag *diag = first_publish_error(node, bad_label, set, diags);

	assert_int_equal(k8s_diag_list_count_errors(diags), 1);
	/* line 1 "apiVersion: v1", 2 "items:", 3 "- apiVersion: v1", 4 kind, 5 metadata,
	 * 6 labels, 7 the first label: example.com/bad sorts first */
	assert_int_equal(diag->pos.line, 7);
	assert_non_null(strstr(diag->path, "metadata.labels"));
}

/* Publishing a node again into one set (a republish after a MIG change) succeeds
 * without a message, as it did when the objects were decoded from text: the same
 * names again are an update, not a second object. */
static void
test_publish_api__republish(void **state)
{
	g_autoptr(HwCatalog) catalog = NULL;
	g_autoptr(HwNode) node = dgx_node(&catalog);
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	HwPublishOptions options;

	hw_publish_options_init(&options);
	assert_true(hw_publish_objects(node, &options, FALSE, set, diags));
	assert_true(hw_publish_objects(node, &options, FALSE, set, diags));
	assert_int_equal(k8s_diag_list_count(diags), 0);
	assert_int_equal(k8s_object_set_count(set), 6);
}

/* With the gpu.nvidia.com slices published by the caller (DynamicMIG here), the
 * objects are the same as when hw_publish_objects() publishes them itself, and the
 * caller's slices stay the caller's. */
static void
test_publish_api__with_slices(void **state)
{
	g_autoptr(HwCatalog) catalog = NULL;
	g_autoptr(HwNode) node = dgx_node(&catalog);
	g_autoptr(K8sObjectSet) own = k8s_object_set_new();
	g_autoptr(K8sObjectSet) given = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(GPtrArray) slices = NULL;
	HwPublishOptions options;

	hw_publish_options_init(&options);
	options.dynamic_mig = TRUE;
	slices = hw_publish_nvidia(node, &options);
	assert_true(hw_publish_objects(node, &options, TRUE, own, diags));
	assert_true(hw_publish_objects_with(node, slices, TRUE, given, diags));
	/* DGX H100: 8 GPU slices (one per GPU, 1.34 layout) */
	assert_int_equal(slices->len, 8);
	assert_int_equal(k8s_object_set_count(given), k8s_object_set_count(own));
	for (guint i = 0; i < k8s_object_set_count(own); i++) {
		assert_true(
		        k8s_object_equal(k8s_object_set_get(own, i), k8s_object_set_get(given, i)));
	}
}

/*
 * `drasim publish` prints kubectl's text: a string that may not be plain is
 * single-quoted without libyaml's "!" tag, and keys follow go-yaml's order
 * (slot2 before slot10, numbers compared as numbers).
 */
static void
test_publish_api__printed_like_kubectl(void **state)
{
	static const char doc[] = "driver: fpga.example.com\n"
	                          "devices:\n"
	                          "  - count: 1\n"
	                          "    name: fpga-0\n"
	                          "    attributes: { mode: { string: \"x: y\" } }\n"
	                          "    capacity: { slot10: \"1\", slot2: \"2\" }\n";
	g_autoptr(HwGenericDriver) driver =
	        hw_generic_driver_parse("d.yaml", doc, sizeof(doc) - 1, NULL);
	g_autoptr(GPtrArray) slices = g_ptr_array_new_with_free_func((GDestroyNotify)hw_slice_free);
	g_autofree char *text = NULL;
	const char *slot2, *slot10;

	assert_non_null(driver);
	g_ptr_array_add(slices, hw_generic_driver_publish(driver, "node-a"));
	text = hw_yaml_write_list(NULL, NULL, slices);
	assert_non_null(strstr(text, "\n          string: 'x: y'\n"));
	slot2 = strstr(text, "slot2:");
	slot10 = strstr(text, "slot10:");
	assert_non_null(slot2);
	assert_non_null(slot10);
	assert_true(slot2 < slot10);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_publish_api__built_without_text),
		cmocka_unit_test(test_publish_api__validated),
		cmocka_unit_test(test_publish_api__republish),
		cmocka_unit_test(test_publish_api__with_slices),
		cmocka_unit_test(test_publish_api__printed_like_kubectl),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
