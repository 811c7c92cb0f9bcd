/*
 * test_xr_view.c: the device plugin's view of a node (NVIDIA k8s-device-plugin
 * v0.20, internal/lm and internal/rm): counts per resource name for each MIG strategy,
 * time-slicing/MPS replicas with renameByDefault and failRequestsGreaterThanOne, and
 * the GFD labels, including single's -MIG-INVALID set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "hw_test_catalog.h"
#include "xr.h"

static XrNodeView *
view_of(const HwNode *node,
        XrMigStrategy strategy,
        XrSharing sharing,
        guint replicas,
        gboolean rename)
{
	XrConfig config;
	g_autoptr(GError) error = NULL;
	XrNodeView *view;

	xr_config_init(&config);
	config.mig_strategy = strategy;
	config.sharing = sharing;
	config.replicas = replicas;
	config.rename_by_default = rename;
	view = xr_node_view_new(node, &config, &error);
	if (view == NULL) {
		fail_msg("%s", error->message);
	}
	return view;
}

static void
assert_label(const XrNodeView *view, const char *key, const char *want)
{
	const char *got = xr_node_view_label(view, key);

	if (want == NULL) {
		assert_null(got);
		return;
	}
	if (got == NULL) {
		fail_msg("label %s missing", key);
	}
	assert_string_equal(got, want);
}

static void
test_xr__none_full_gpus(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-h100", "all-disabled");
	g_autoptr(XrNodeView) v = view_of(node, XR_MIG_NONE, XR_SHARING_NONE, 1, FALSE);

	assert_int_equal(xr_node_view_get_resources(v)->len, 1);
	assert_int_equal(xr_node_view_count(v, "nvidia.com/gpu"), 8);
	assert_label(v, "nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3");
	assert_label(v, "nvidia.com/gpu.count", "8");
	assert_label(v, "nvidia.com/gpu.replicas", "1");
	assert_label(v, "nvidia.com/gpu.memory", "81559");
	assert_label(v, "nvidia.com/gpu.family", "hopper");
	assert_label(v, "nvidia.com/gpu.compute.major", "9");
	assert_label(v, "nvidia.com/gpu.compute.minor", "0");
	assert_label(v, "nvidia.com/gpu.sharing-strategy", "none");
	assert_label(v, "nvidia.com/mig.capable", "true");
	assert_label(v, "nvidia.com/mig.strategy", NULL); /* not set under none */
}

/* none ignores MIG: a MIG-enabled GPU is still one nvidia.com/gpu. */
static void
test_xr__none_ignores_mig(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-h100", "all-1g.10gb");
	g_autoptr(XrNodeView) v = view_of(node, XR_MIG_NONE, XR_SHARING_NONE, 1, FALSE);

	assert_int_equal(xr_node_view_count(v, "nvidia.com/gpu"), 8);
	assert_label(v, "nvidia.com/gpu.replicas", "0");
}

static void
test_xr__single_valid(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-a100-320gb", "all-1g.5gb");
	g_autoptr(XrNodeView) v = view_of(node, XR_MIG_SINGLE, XR_SHARING_NONE, 1, FALSE);

	assert_null(xr_node_view_invalid_reason(v));
	assert_int_equal(xr_node_view_count(v, "nvidia.com/gpu"), 56);
	assert_label(v, "nvidia.com/mig.strategy", "single");
	assert_label(v, "nvidia.com/gpu.product", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb");
	assert_label(v, "nvidia.com/gpu.count", "56");
	assert_label(v, "nvidia.com/gpu.memory", "4864");
	assert_label(v, "nvidia.com/gpu.multiprocessors", "14");
	assert_label(v, "nvidia.com/gpu.slices.gi", "1");
	assert_label(v, "nvidia.com/gpu.engines.copy", "1");
	assert_label(v, "nvidia.com/gpu.family", "ampere");
}

static void
test_xr__single_invalid(void **state)
{
	g_autoptr(HwNode) mixed = catalog_node("dgx-h100", "all-balanced");
	g_autoptr(HwNode) empty = catalog_node("dgx-h100", "all-enabled");
	g_autoptr(HwNode) partial = catalog_node("dgx-h100", "all-1g.10gb");
	g_autoptr(XrNodeView) v1 = view_of(mixed, XR_MIG_SINGLE, XR_SHARING_NONE, 1, FALSE);
	g_autoptr(XrNodeView) v2 = view_of(empty, XR_MIG_SINGLE, XR_SHARING_NONE, 1, FALSE);
	g_autoptr(XrNodeView) v3 = NULL;

	assert_string_equal(xr_node_view_invalid_reason(v1),
	                    "more than one MIG device type present on node");
	assert_int_equal(xr_node_view_count(v1, "nvidia.com/gpu"), 0);
	assert_label(v1, "nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3-MIG-INVALID");
	assert_label(v1, "nvidia.com/gpu.count", "0");
	assert_label(v1, "nvidia.com/gpu.replicas", "0");
	assert_label(v1, "nvidia.com/gpu.memory", "0");
	assert_string_equal(xr_node_view_invalid_reason(v2),
	                    "at least one MIG device is enabled but empty");
	hw_gpu_apply_reconfigure(g_ptr_array_index(partial->gpus, 3), FALSE, NULL, 0);
	v3 = view_of(partial, XR_MIG_SINGLE, XR_SHARING_NONE, 1, FALSE);
	assert_string_equal(xr_node_view_invalid_reason(v3),
	                    "devices with MIG enabled and disable detected");
	assert_int_equal(xr_node_view_count(v3, "nvidia.com/gpu"), 0);
}

static void
test_xr__mixed(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-h100", "all-balanced");
	g_autoptr(XrNodeView) v = NULL;
	g_autoptr(XrNodeView) v2 = NULL;

	v = view_of(node, XR_MIG_MIXED, XR_SHARING_NONE, 1, FALSE);
	assert_int_equal(xr_node_view_count(v, "nvidia.com/mig-1g.10gb"), 16);
	assert_int_equal(xr_node_view_count(v, "nvidia.com/mig-2g.20gb"), 8);
	assert_int_equal(xr_node_view_count(v, "nvidia.com/mig-3g.40gb"), 8);
	assert_int_equal(xr_node_view_get_resources(v)->len, 3); /* no nvidia.com/gpu */
	assert_label(v, "nvidia.com/mig.strategy", "mixed");
	assert_label(v, "nvidia.com/mig-3g.40gb.count", "8");
	assert_label(v, "nvidia.com/mig-3g.40gb.product", "NVIDIA-H100-80GB-HBM3-MIG-3g.40gb");
	assert_label(v, "nvidia.com/mig-3g.40gb.multiprocessors", "60");
	assert_label(v, "nvidia.com/mig-2g.20gb.engines.decoder", "2");
	assert_label(v, "nvidia.com/gpu.count", "8");
	assert_label(v, "nvidia.com/gpu.replicas", "0");
	/* A MIG-off GPU stays nvidia.com/gpu. */
	hw_gpu_apply_reconfigure(g_ptr_array_index(node->gpus, 7), FALSE, NULL, 0);
	v2 = view_of(node, XR_MIG_MIXED, XR_SHARING_NONE, 1, FALSE);
	assert_int_equal(xr_node_view_count(v2, "nvidia.com/gpu"), 1);
	assert_int_equal(xr_node_view_count(v2, "nvidia.com/mig-3g.40gb"), 7);
	assert_label(v2, "nvidia.com/gpu.replicas", "1");
}

static void
test_xr__time_slicing(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-h100", "all-disabled");
	g_autoptr(XrNodeView) shared =
	        view_of(node, XR_MIG_NONE, XR_SHARING_TIME_SLICING, 4, FALSE);
	g_autoptr(XrNodeView) renamed =
	        view_of(node, XR_MIG_NONE, XR_SHARING_TIME_SLICING, 4, TRUE);

	assert_int_equal(xr_node_view_count(shared, "nvidia.com/gpu"), 32);
	assert_label(shared, "nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3-SHARED");
	assert_label(shared, "nvidia.com/gpu.replicas", "4");
	assert_label(shared, "nvidia.com/gpu.sharing-strategy", "time-slicing");
	assert_int_equal(xr_node_view_count(renamed, "nvidia.com/gpu"), 0);
	assert_int_equal(xr_node_view_count(renamed, "nvidia.com/gpu.shared"), 32);
	assert_label(renamed, "nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3");
}

static void
test_xr__time_slicing_mixed_mig(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-h100", "all-3g.40gb");
	g_autoptr(XrNodeView) v = view_of(node, XR_MIG_MIXED, XR_SHARING_TIME_SLICING, 2, FALSE);

	assert_int_equal(xr_node_view_count(v, "nvidia.com/mig-3g.40gb"), 32);
	assert_label(v, "nvidia.com/mig-3g.40gb.product",
	             "NVIDIA-H100-80GB-HBM3-MIG-3g.40gb-SHARED");
	assert_label(v, "nvidia.com/mig-3g.40gb.replicas", "2");
}

static void
test_xr__fail_requests_greater_than_one(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-h100", "all-disabled");
	XrConfig config;
	g_autoptr(XrNodeView) strict = NULL;
	g_autoptr(XrNodeView) mps = NULL;
	g_autoptr(XrNodeView) lax = view_of(node, XR_MIG_NONE, XR_SHARING_TIME_SLICING, 4, FALSE);
	g_autofree char *reason = NULL;

	xr_config_init(&config);
	config.sharing = XR_SHARING_TIME_SLICING;
	config.replicas = 4;
	config.fail_requests_greater_than_one = TRUE;
	strict = xr_node_view_new(node, &config, NULL);
	assert_int_equal(xr_node_view_admit(strict, "nvidia.com/gpu", 1, NULL), XR_ADMIT_OK);
	assert_int_equal(xr_node_view_admit(strict, "nvidia.com/gpu", 2, &reason),
	                 XR_ADMIT_REJECTED);
	assert_non_null(strstr(reason, "UnexpectedAdmissionError"));
	assert_int_equal(xr_node_view_admit(lax, "nvidia.com/gpu", 2, NULL), XR_ADMIT_OK);
	/* MPS: the plugin sets the option itself */
	config.sharing = XR_SHARING_MPS;
	config.fail_requests_greater_than_one = FALSE;
	mps = xr_node_view_new(node, &config, NULL);
	assert_non_null(mps);
	assert_int_equal(xr_node_view_admit(mps, "nvidia.com/gpu", 1, NULL), XR_ADMIT_OK);
	assert_int_equal(xr_node_view_admit(mps, "nvidia.com/gpu", 2, NULL), XR_ADMIT_REJECTED);
}

static void
test_xr__mps(void **state)
{
	g_autoptr(HwNode) full = catalog_node("dgx-h100", "all-disabled");
	g_autoptr(HwNode) mig = catalog_node("dgx-h100", "all-3g.40gb");
	g_autoptr(XrNodeView) v = view_of(full, XR_MIG_NONE, XR_SHARING_MPS, 2, FALSE);
	g_autoptr(GError) error = NULL;
	XrConfig config;

	assert_int_equal(xr_node_view_count(v, "nvidia.com/gpu"), 16);
	assert_label(v, "nvidia.com/gpu.sharing-strategy", "mps");
	xr_config_init(&config);
	config.mig_strategy = XR_MIG_MIXED;
	config.sharing = XR_SHARING_MPS;
	config.replicas = 2;
	assert_null(xr_node_view_new(mig, &config, &error));
	assert_non_null(strstr(error->message, "MPS sharing is not supported with MIG"));
}

/* The Node object gets the resources as allocatable and the labels, name-sorted. */
static void
test_xr__node_object(void **state)
{
	g_autoptr(HwNode) node = catalog_node("aws-p4d.24xlarge", "all-disabled");
	g_autoptr(XrNodeView) v = view_of(node, XR_MIG_NONE, XR_SHARING_NONE, 1, FALSE);
	g_autoptr(HwNodeObject) obj = hw_node_object_new(node);

	xr_node_view_apply(v, obj);
	for (guint i = 1; i < obj->label_keys->len; i++) {
		assert_true(strcmp(obj->label_keys->pdata[i - 1], obj->label_keys->pdata[i]) < 0);
	}
	assert_string_equal(obj->resource_names->pdata[2], "nvidia.com/gpu");
	assert_string_equal(obj->resource_values->pdata[2], "8");
}

/* GFD on the older GPUs of the Alibaba trace (test shapes loaded in setup): family by compute
 * capability major (resource.go getArchFamily), and "-SHARED" appended to the product label
 * under time-slicing without renameByDefault, which a gpu.product node selector must match. */
static void
test_xr__families_and_shared_product(void **state)
{
	g_autoptr(HwNode) t4 = catalog_node("test-xr-t4x2", "all-disabled");
	g_autoptr(HwNode) p100 = catalog_node("test-xr-p100x1", "all-disabled");
	g_autoptr(XrNodeView) plain = view_of(t4, XR_MIG_NONE, XR_SHARING_NONE, 1, FALSE);
	g_autoptr(XrNodeView) shared = view_of(t4, XR_MIG_NONE, XR_SHARING_TIME_SLICING, 4, FALSE);
	g_autoptr(XrNodeView) renamed = view_of(t4, XR_MIG_NONE, XR_SHARING_TIME_SLICING, 4, TRUE);
	g_autoptr(XrNodeView) pascal = view_of(p100, XR_MIG_NONE, XR_SHARING_NONE, 1, FALSE);

	(void)state;
	assert_label(plain, "nvidia.com/gpu.product", "Tesla-T4");
	assert_label(plain, "nvidia.com/gpu.family", "turing");
	assert_label(shared, "nvidia.com/gpu.product", "Tesla-T4-SHARED");
	assert_int_equal(xr_node_view_count(shared, "nvidia.com/gpu"), 8);
	assert_label(renamed, "nvidia.com/gpu.product", "Tesla-T4");
	assert_int_equal(xr_node_view_count(renamed, "nvidia.com/gpu.shared"), 8);
	assert_label(pascal, "nvidia.com/gpu.product", "Tesla-P100-PCIE-16GB");
	assert_label(pascal, "nvidia.com/gpu.family", "pascal");
	assert_label(pascal, "nvidia.com/gpu.compute.major", "6");
}

static const char test_shapes[] =
        "schema: drasim.hw/v1\n"
        "gpu_models:\n"
        "  - { id: test-xr-p100, product_name: Tesla P100-PCIE-16GB, brand: Nvidia,"
        " architecture: Pascal, compute_capability: \"6.0\", memory_mib: 16280, sms: 56,"
        " confidence: unconfirmed }\n"
        "node_shapes:\n"
        "  - { id: test-xr-t4x2, gpu_model: t4-16gb, cpus: 8, memory_gib: 64, numa_nodes: 1,"
        " confidence: inferred, generated_topology: { roots: 1, gpus_per_root: 2,"
        " nics_per_root: 0, numa: [0] } }\n"
        "  - { id: test-xr-p100x1, gpu_model: test-xr-p100, cpus: 8, memory_gib: 64,"
        " numa_nodes: 1, confidence: inferred, generated_topology: { roots: 1,"
        " gpus_per_root: 1, nics_per_root: 0, numa: [0] } }\n";

static int
setup(void **state)
{
	return catalog_setup_with("<test shapes>", test_shapes, sizeof test_shapes - 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xr__none_full_gpus),
		cmocka_unit_test(test_xr__none_ignores_mig),
		cmocka_unit_test(test_xr__single_valid),
		cmocka_unit_test(test_xr__single_invalid),
		cmocka_unit_test(test_xr__mixed),
		cmocka_unit_test(test_xr__time_slicing),
		cmocka_unit_test(test_xr__time_slicing_mixed_mig),
		cmocka_unit_test(test_xr__fail_requests_greater_than_one),
		cmocka_unit_test(test_xr__mps),
		cmocka_unit_test(test_xr__node_object),
		cmocka_unit_test(test_xr__families_and_shared_product),
	};

	return cmocka_run_group_tests(tests, setup, catalog_teardown);
}
