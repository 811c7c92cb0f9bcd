/*
 * test_lint.c: `drasim lint --shape` findings (hw_lint_selectors) on
 * tests/data/hw/lint/manifests.yaml against a DGX H100: every annotated finding is
 * reported at its field path and nothing else is, then a scenario cluster (node pools)
 * is checked too.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "hw_api.h"
#include "hw_test_catalog.h"

typedef struct {
	K8sSeverity severity;
	const char *path;    /* suffix of the diagnostic's path */
	const char *message; /* substring of the message */
} Expect;

static K8sDiagList *
lint_with(HwLintTarget *target, const char *file)
{
	g_autofree char *path = g_build_filename(HW_TEST_DATA, "lint", file, NULL);
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	K8sDiagList *diags = k8s_diag_list_new();
	g_autoptr(K8sDiagList) load = k8s_diag_list_new();

	if (!k8s_load_file(path, K8S_LOAD_DEFAULT, set, load)) {
		k8s_diag_list_print(load, stderr);
		fail_msg("%s does not load", path);
	}
	hw_lint_selectors(target, set, diags);
	return diags;
}

static void
expect_findings(K8sDiagList *diags, const Expect *expect, guint n)
{
	guint matched = 0;

	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		const K8sDiag *d = k8s_diag_list_get(diags, i);
		g_autofree char *text = k8s_diag_format(d);
		gboolean found = FALSE;

		for (guint e = 0; e < n && !found; e++) {
			found = d->severity == expect[e].severity &&
			        g_str_has_suffix(d->path, expect[e].path) &&
			        strstr(d->message, expect[e].message) != NULL;
		}
		print_message("# %s %s\n", found ? "expected:" : "UNEXPECTED:", text);
		matched += found ? 1 : 0;
	}
	assert_int_equal(k8s_diag_list_count(diags), n);
	assert_int_equal(matched, n);
}

static void
test_lint__shape_findings(void **state)
{
	g_autoptr(HwLintTarget) target = hw_lint_target_new();
	g_autoptr(K8sDiagList) diags = NULL;
	static const Expect expect[] = {
		{ K8S_SEVERITY_ERROR, "spec.config[0].opaque.parameters.apiVersion",
		  "does not know apiVersion \"gpu.resource.nvidia.com/v1alpha1\"" },
		{ K8S_SEVERITY_ERROR, "selectors[0].cel.expression",
		  "memory is a capacity, not an attribute: use "
		  "device.capacity[\"gpu.nvidia.com\"].memory" },
		{ K8S_SEVERITY_ERROR, "selectors[0].cel.expression",
		  "\"no such key: migProfile\"; did you mean "
		  "device.attributes[\"gpu.nvidia.com\"].profile?" },
		{ K8S_SEVERITY_WARNING, "selectors[0].cel.expression",
		  "can match no device: no device published as gpu.nvidia.com has profile == "
		  "\"1g.5gb\"" },
		{ K8S_SEVERITY_ERROR, "selectors[0].cel.expression",
		  "did you mean device.attributes[\"resource.kubernetes.io\"].pciBusID?" },
		{ K8S_SEVERITY_ERROR, "spec.spec.devices.config[0].opaque.parameters.kind",
		  "does not know kind \"GPUConfig\"" },
		{ K8S_SEVERITY_ERROR, "selectors[0].cel.expression",
		  "does not publish it on device gpu-0 (node dgx-h100-0), so the selector fails "
		  "with "
		  "\"no such key: profile\"" },
		{ K8S_SEVERITY_ERROR, "selectors[0].cel.expression",
		  "\"no such key: archtecture\"; did you mean "
		  "device.attributes[\"gpu.nvidia.com\"].architecture?" },
	};

	assert_true(hw_lint_target_add_shape(target, hw_catalog_lookup_shape(catalog, "dgx-h100"),
	                                     NULL, NULL));
	diags = lint_with(target, "manifests.yaml");
	expect_findings(diags, expect, G_N_ELEMENTS(expect));
}

/* Against a cluster whose only pool has MIG off (static), MIG selectors match nothing. */
static void
test_lint__cluster_pools(void **state)
{
	g_autoptr(HwLintTarget) target = hw_lint_target_new();
	g_autoptr(HwCatalog) scenario = hw_catalog_new_builtin(NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(K8sDiagList) diags = NULL;
	static const char doc[] = "schema: drasim.hw/v1\n"
	                          "node_pools:\n"
	                          "  - { name: p4d, shape: aws-p4d.24xlarge, count: 2 }\n";
	guint warnings = 0;

	assert_true(hw_catalog_load_data(scenario, "cluster.yaml", doc, sizeof(doc) - 1, &error));
	assert_true(hw_lint_target_add_pools(target, scenario, &error));
	diags = lint_with(target, "manifests.yaml");
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		const K8sDiag *d = k8s_diag_list_get(diags, i);

		warnings += d->severity == K8S_SEVERITY_WARNING ? 1 : 0;
		if (strstr(d->message, "migProfile") != NULL) {
			/* No MIG device on these nodes: checked against the first GPU. */
			assert_non_null(strstr(d->message, "device gpu-0 (node p4d-0)"));
		}
	}
	/* mig.nvidia.com matches nothing on MIG-off A100s: both MIG claims warn. */
	assert_true(warnings >= 1);
}

/* The one-call entry point for cmd_lint.c. */
static void
test_lint__run(void **state)
{
	g_autofree char *path = g_build_filename(HW_TEST_DATA, "lint", "manifests.yaml", NULL);
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(GError) error = NULL;
	const char *const shapes[] = { "dgx-h100", NULL };
	const char *const bad[] = { "dgx-h999", NULL };

	assert_true(k8s_load_file(path, K8S_LOAD_DEFAULT, set, diags));
	assert_int_equal(k8s_diag_list_count(diags), 0);
	assert_true(hw_lint_run(shapes, NULL, set, diags, &error));
	assert_int_equal(k8s_diag_list_count_errors(diags), 7);
	assert_int_equal(k8s_diag_list_count_warnings(diags), 1);
	assert_false(hw_lint_run(bad, NULL, set, diags, &error));
	/* "dgx-h999" is 3 edits from dgx-h100 (8 characters allow 2): no did-you-mean */
	assert_string_equal(error->message,
	                    "unknown node shape 'dgx-h999'; shapes: dgx-a100-640gb, "
	                    "dgx-a100-320gb, dgx-h100, dgx-b200, aws-p4d.24xlarge, "
	                    "aws-p4de.24xlarge, aws-p5.48xlarge, aws-p5e.48xlarge, "
	                    "gcp-a2-highgpu-8g, gcp-a2-ultragpu-8g, gcp-a3-highgpu-8g, "
	                    "gcp-a3-megagpu-8g, gcp-a3-ultragpu-8g, azure-nd96asr-v4, "
	                    "azure-nd96amsr-a100-v4, azure-nd96isr-h100-v5");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lint__shape_findings),
		cmocka_unit_test(test_lint__cluster_pools),
		cmocka_unit_test(test_lint__run),
	};

	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
