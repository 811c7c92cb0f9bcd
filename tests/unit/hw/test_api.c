/*
 * test_api.c: everything drasim publishes decodes with model/api's loader and passes
 * Kubernetes' validation (what `drasim lint` checks), for every catalog shape in every
 * mode: no MIG, static MIG (balanced), dynamic MIG with the 1.34 layout.
 *
 * Publishing builds the api objects directly; they must be the ones the printed
 * text (`drasim publish`) decodes to, and a diagnostic must still point into that
 * text.
 *
 * The >= 1.35 dynamic layout is left out on purpose: model/api validates as Kubernetes
 * 1.34 does, where a device may only consume counters of its own slice and a slice
 * holds at most 32 counters, so that layout is (correctly) invalid on a 1.34 cluster.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hw_api.h"
#include "hw_test_publish.h"
#include "k8s_validate.h"

static void
check_shape(const HwNodeShape *shape,
            const char *layout,
            gboolean dynamic,
            gboolean k8s_1_35,
            guint *failures)
{
	g_autoptr(HwNode) node = hw_node_new(shape, "node-a");
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	HwPublishOptions options;

	hw_publish_options_init(&options);
	options.dynamic_mig = dynamic;
	options.k8s_1_35 = k8s_1_35;
	assert_true(hw_node_apply_layout(node, layout, NULL));
	hw_publish_objects(node, &options, TRUE, set, diags);
	k8s_validate_set(set, diags);
	k8s_validate_references(set, diags);
	if (k8s_diag_list_count_errors(diags) > 0) {
		print_message("# %s %s%s%s:\n", shape->id, layout, dynamic ? " dynamic" : "",
		              k8s_1_35 ? " 1.35" : "");
		for (guint i = 0; i < k8s_diag_list_count(diags) && i < 5; i++) {
			g_autofree char *text = k8s_diag_format(k8s_diag_list_get(diags, i));
			print_message("#   %s\n", text);
		}
		(*failures)++;
	}
	/* Node, 2 classes, GPU slices, and a NIC slice when the shape has NICs. */
	assert_true(k8s_object_set_count(set) >= 4);
}

static void
test_api__every_shape_validates(void **state)
{
	g_autoptr(HwCatalog) catalog = hw_catalog_new_builtin(NULL);
	const GPtrArray *shapes = hw_catalog_get_shapes(catalog);
	guint failures = 0;

	for (guint i = 0; i < shapes->len; i++) {
		const HwNodeShape *shape = g_ptr_array_index(shapes, i);

		check_shape(shape, "all-disabled", FALSE, FALSE, &failures);
		if (shape->gpu_model->mig != NULL) {
			check_shape(shape, "all-balanced", FALSE, FALSE, &failures);
			check_shape(shape, "all-disabled", TRUE, FALSE, &failures);
		}
	}
	assert_int_equal(failures, 0);
}

/* The text path: print the List, parse it. */
static void
load_text(const HwNode *node, const HwPublishOptions *options, K8sObjectSet *set)
{
	g_autoptr(GPtrArray) nodes =
	        g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_object_free);
	g_autoptr(GPtrArray) slices = hw_publish_nvidia(node, options);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autofree char *yaml = NULL;
	HwSlice *nics = hw_publish_dranet(node);

	g_ptr_array_add(nodes, hw_node_object_new(node));
	if (nics != NULL)
		g_ptr_array_add(slices, nics);
	yaml = hw_yaml_write_list(nodes, hw_nvidia_device_classes(), slices);
	assert_true(k8s_load_data("<text>", yaml, strlen(yaml), K8S_LOAD_DEFAULT, set, diags));
	assert_int_equal(k8s_diag_list_count(diags), 0);
}

static void
check_same_objects(const HwNodeShape *shape, const char *layout, gboolean dynamic)
{
	g_autoptr(HwNode) node = hw_node_new(shape, "node-a");
	g_autoptr(K8sObjectSet) fed = k8s_object_set_new();
	g_autoptr(K8sObjectSet) parsed = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	HwPublishOptions options;

	hw_publish_options_init(&options);
	options.dynamic_mig = dynamic;
	assert_true(hw_node_apply_layout(node, layout, NULL));
	assert_true(hw_publish_objects(node, &options, TRUE, fed, diags));
	assert_int_equal(k8s_diag_list_count(diags), 0);
	load_text(node, &options, parsed);
	assert_int_equal(k8s_object_set_count(fed), k8s_object_set_count(parsed));
	for (guint i = 0; i < k8s_object_set_count(fed); i++) {
		if (!k8s_object_equal(k8s_object_set_get(fed, i), k8s_object_set_get(parsed, i)))
			fail_msg("%s %s%s: object %u differs between events and text", shape->id,
			         layout, dynamic ? " dynamic" : "", i);
	}
}

static void
test_api__events_decode_as_text(void **state)
{
	g_autoptr(HwCatalog) catalog = hw_catalog_new_builtin(NULL);
	const GPtrArray *shapes = hw_catalog_get_shapes(catalog);

	for (guint i = 0; i < shapes->len; i++) {
		const HwNodeShape *shape = g_ptr_array_index(shapes, i);

		check_same_objects(shape, "all-disabled", FALSE);
		if (shape->gpu_model->mig != NULL) {
			check_same_objects(shape, "all-balanced", FALSE);
			check_same_objects(shape, "all-disabled", TRUE);
		}
	}
}

static void
bad_gpu_quantity(HwNodeObject *object)
{
	hw_node_object_set_resource(object, "nvidia.com/gpu", "not-a-quantity");
}

/* A GPU quantity api rejects: the message comes from the written text, with its line. */
static void
test_api__diagnostics_point_into_text(void **state)
{
	g_autoptr(HwCatalog) catalog = hw_catalog_new_builtin(NULL);
	g_autoptr(HwNode) node =
	        hw_node_new(g_ptr_array_index(hw_catalog_get_shapes(catalog), 0), "node-a");
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();

	assert_true(first_publish_error(node, bad_gpu_quantity, set, diags)->pos.line > 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api__every_shape_validates),
		cmocka_unit_test(test_api__events_decode_as_text),
		cmocka_unit_test(test_api__diagnostics_point_into_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
