/*
 * test_xr_api.c: the extended-mode Node decodes with model/api, keeps the plugin's
 * allocatable and GFD's labels, and passes Kubernetes' validation, for every shape.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "k8s_validate.h"
#include "xr_api.h"

static void
test_xr_api__every_shape(void **state)
{
	g_autoptr(HwCatalog) catalog = hw_catalog_new_builtin(NULL);
	const GPtrArray *shapes = hw_catalog_get_shapes(catalog);

	for (guint i = 0; i < shapes->len; i++) {
		const HwNodeShape *shape = g_ptr_array_index(shapes, i);
		gboolean mig = shape->gpu_model->mig != NULL;
		g_autoptr(HwNode) node = hw_node_new(shape, "node-a");
		g_autoptr(K8sObjectSet) set = k8s_object_set_new();
		g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
		g_autoptr(GError) error = NULL;
		XrConfig config;
		K8sNode *k8s_node;

		xr_config_init(&config);
		config.mig_strategy = mig ? XR_MIG_MIXED : XR_MIG_NONE;
		config.sharing = XR_SHARING_TIME_SLICING;
		config.replicas = 2;
		assert_true(
		        hw_node_apply_layout(node, mig ? "all-balanced" : "all-disabled", NULL));
		if (!xr_publish_objects(node, &config, set, diags, &error)) {
			k8s_diag_list_print(diags, stderr);
			fail_msg("%s: %s", shape->id, error->message);
		}
		k8s_validate_set(set, diags);
		if (k8s_diag_list_count_errors(diags) > 0) {
			k8s_diag_list_print(diags, stderr);
			fail_msg("%s: validation errors", shape->id);
		}
		assert_int_equal(k8s_object_set_count(set), 1);
		k8s_node = k8s_object_as_node(k8s_object_set_get(set, 0));
		/* Every advertised resource is allocatable, under its own name. */
		g_autoptr(XrNodeView) view = xr_node_view_new(node, &config, NULL);
		const GPtrArray *resources = xr_node_view_get_resources(view);
		for (guint r = 0; r < resources->len; r++) {
			const XrResource *res = g_ptr_array_index(resources, r);
			gboolean found = FALSE;

			for (guint k = 0; k < k8s_node->allocatable.n; k++) {
				found = found ||
				        strcmp(k8s_node->allocatable.items[k].key, res->name) == 0;
			}
			if (!found) {
				fail_msg("%s: %s not allocatable", shape->id, res->name);
			}
		}
		assert_true(resources->len >= 1);
		assert_int_equal(k8s_node->allocatable.n, 3 + resources->len);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xr_api__every_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
