/*
 * test_api.c: everything drasim publishes decodes with model/api's loader and passes
 * Kubernetes' validation (what `drasim lint` checks), for every catalog shape in every
 * mode: no MIG, static MIG (balanced), dynamic MIG with the 1.34 layout.
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_api__every_shape_validates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
