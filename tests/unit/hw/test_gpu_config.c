/*
 * test_gpu_config.c: GpuConfig sharing validated as the NVIDIA DRA driver does
 * (hw_gpu_config_read, through hw_lint_configs as lint calls it; scenario_load
 * calls hw_check_gpu_configs, the same check of the contents).
 * Each bad case is a ResourceClaim whose GpuConfig sharing holds one bad value; the
 * expected line and column are where that value starts (counted by hand from the
 * YAML below), the path is the field's, and the message names what is valid
 * (the rules: NVIDIA/k8s-dra-driver-gpu api/nvidia.com/resource/v1beta1/validate.go,
 * sharing.go). A valid config reads back exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "hw_api.h"

/* A claim whose GpuConfig sharing is @sharing (from line 16, indented 12). */
static char *
claim_yaml(const char *sharing)
{
	return g_strconcat("apiVersion: resource.k8s.io/v1\n"                    /* 1 */
	                   "kind: ResourceClaim\n"                               /* 2 */
	                   "metadata: {name: c}\n"                               /* 3 */
	                   "spec:\n"                                             /* 4 */
	                   "  devices:\n"                                        /* 5 */
	                   "    requests:\n"                                     /* 6 */
	                   "    - name: gpu\n"                                   /* 7 */
	                   "      exactly: {deviceClassName: gpu.nvidia.com}\n"  /* 8 */
	                   "    config:\n"                                       /* 9 */
	                   "    - opaque:\n"                                     /* 10 */
	                   "        driver: gpu.nvidia.com\n"                    /* 11 */
	                   "        parameters:\n"                               /* 12 */
	                   "          apiVersion: resource.nvidia.com/v1beta1\n" /* 13 */
	                   "          kind: GpuConfig\n"                         /* 14 */
	                   "          sharing:\n",                               /* 15 */
	                   sharing, NULL);
}

/* The diagnostics of linting one claim, and (out) its object set. */
static K8sDiagList *
lint_claim(const char *sharing, K8sObjectSet *set)
{
	g_autofree char *yaml = claim_yaml(sharing);
	g_autoptr(K8sDiagList) load = k8s_diag_list_new();
	K8sDiagList *diags = k8s_diag_list_new();

	if (!k8s_load_data("claim.yaml", yaml, strlen(yaml), K8S_LOAD_DEFAULT, set, load)) {
		k8s_diag_list_print(load, stderr);
		fail_msg("the claim does not load");
	}
	hw_lint_configs(set, diags);
	return diags;
}

typedef struct {
	const char *sharing;
	guint line, col;
	const char *path; /* after spec.devices.config[0].opaque.parameters. */
	const char *message;
} BadCase;

/* Line 16 is the first line of @sharing. A value starts after its indent and
 * "key: ": 12 spaces under sharing, 14 under a block mpsConfig; in a flow mapping
 * after "mpsConfig: {" (12 + 12 = 24 columns). E.g. the .inf case: 14 +
 * len("defaultActiveThreadPercentage: ") 31 = 45, so column 46; the quoted "50":
 * 24 + 31 = 55, column 56 (the quote); 1Ki: 24 + len("defaultPinnedDeviceMemoryLimit: ")
 * 32 = 56, column 57; a flow mapping's error is at its "{": 12 + len("mpsConfig: ")
 * 11 = 23, column 24. */
static const BadCase bad_cases[] = {
	/* .inf: no integer (JSON has no infinity); main read it as 0 */
	{ "            strategy: MPS\n"
	  "            mpsConfig:\n"
	  "              defaultActiveThreadPercentage: .inf\n",
	  18, 46, "sharing.mpsConfig.defaultActiveThreadPercentage",
	  "expected an integer from 0 to 100 (percent of the SMs), got \".inf\"" },
	/* 150: above 100 (validate.go); main clamped it to 100 */
	{ "            strategy: MPS\n"
	  "            mpsConfig:\n"
	  "              defaultActiveThreadPercentage: 150\n",
	  18, 46, "sharing.mpsConfig.defaultActiveThreadPercentage",
	  "expected an integer from 0 to 100 (percent of the SMs), got \"150\"" },
	/* -5: negative (validate.go); main clamped it to 0 */
	{ "            strategy: MPS\n"
	  "            mpsConfig:\n"
	  "              defaultActiveThreadPercentage: -5\n",
	  18, 46, "sharing.mpsConfig.defaultActiveThreadPercentage",
	  "expected an integer from 0 to 100 (percent of the SMs), got \"-5\"" },
	/* a quoted number is a JSON string: the driver's *int does not take it */
	{ "            strategy: MPS\n"
	  "            mpsConfig: {defaultActiveThreadPercentage: \"50\"}\n",
	  17, 56, "sharing.mpsConfig.defaultActiveThreadPercentage",
	  "expected an integer from 0 to 100 (percent of the SMs), got \"50\"" },
	/* strategy names are case-sensitive; main ignored the config */
	{ "            strategy: Mps\n", 16, 23, "sharing.strategy",
	  "unknown GPU sharing strategy \"Mps\": valid are TimeSlicing, MPS" },
	/* an interval name the driver does not know; main used Default */
	{ "            strategy: TimeSlicing\n"
	  "            timeSlicingConfig: {interval: Longest}\n",
	  17, 43, "sharing.timeSlicingConfig.interval",
	  "unknown time-slice interval \"Longest\": valid are Default, Short, Medium, Long" },
	/* GetTimeSlicingConfig fails when mpsConfig is set (sharing.go) */
	{ "            strategy: TimeSlicing\n"
	  "            mpsConfig: {defaultActiveThreadPercentage: 50}\n",
	  17, 24, "sharing.mpsConfig", "mpsConfig cannot be used with strategy TimeSlicing" },
	/* 1Ki is 0 whole MiB: "default value set too low" (sharing.go) */
	{ "            strategy: MPS\n"
	  "            mpsConfig: {defaultPinnedDeviceMemoryLimit: 1Ki}\n",
	  17, 57, "sharing.mpsConfig.defaultPinnedDeviceMemoryLimit",
	  "pinned memory limit \"1Ki\" is below 1Mi" },
	/* strict decoding: a misspelt field fails */
	{ "            strategy: MPS\n"
	  "            mpsConfig: {defaultActiveThreadPercent: 50}\n",
	  17, 25, "sharing.mpsConfig.defaultActiveThreadPercent",
	  "unknown field \"defaultActiveThreadPercent\"" },
};

static void
test_gpu_config__bad_values_are_errors_at_the_field(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		const BadCase *b = &bad_cases[i];
		g_autoptr(K8sObjectSet) set = k8s_object_set_new();
		g_autoptr(K8sDiagList) diags = lint_claim(b->sharing, set);
		g_autofree char *path =
		        g_strdup_printf("spec.devices.config[0].opaque.parameters.%s", b->path);
		const K8sDiag *d;
		K8sObject *obj = k8s_object_set_get(set, 0);
		HwGpuSharing s = { HW_SHARING_MPS, HW_TIME_SLICE_LONG, 1, 1 };

		print_message("# case %u: %s", i, b->sharing);
		assert_int_equal(k8s_diag_list_count(diags), 1);
		d = k8s_diag_list_get(diags, 0);
		assert_int_equal(d->severity, K8S_SEVERITY_ERROR);
		assert_string_equal(d->pos.file, "claim.yaml");
		assert_int_equal(d->pos.line, b->line);
		assert_int_equal(d->pos.col, b->col);
		assert_string_equal(d->path, path);
		assert_non_null(strstr(d->message, b->message));
		/* the run reads nothing from an invalid config */
		assert_false(hw_gpu_config_read(
		        &k8s_object_as_resource_claim(obj)->spec.config[0].opaque,
		        "spec.devices.config[0].opaque", NULL, &s));
		assert_int_equal(s.strategy, HW_SHARING_NONE);
	}
}

/* Valid configs read exactly what they say, with no finding: MPS 50 % and 10Gi
 * (10 × 2^30 = 10737418240 bytes, whole MiB already); 1500Mi + 1 byte is
 * rounded down to 1500 MiB = 1572864000 bytes; TimeSlicing Long; 0 % and 100 %
 * are the bounds, both valid; 50.0 is 50 after kubectl's YAML-to-JSON. */
static void
test_gpu_config__valid_configs_read_back(void **state)
{
	static const struct {
		const char *sharing;
		HwSharingStrategy strategy;
		HwTimeSlice interval;
		double threads;
		gint64 limit;
	} ok[] = {
		{ "            strategy: MPS\n"
		  "            mpsConfig: {defaultActiveThreadPercentage: 50,"
		  " defaultPinnedDeviceMemoryLimit: 10Gi}\n",
		  HW_SHARING_MPS, HW_TIME_SLICE_DEFAULT, 50, 10737418240 },
		{ "            strategy: MPS\n"
		  "            mpsConfig: {defaultPinnedDeviceMemoryLimit: 1572864001}\n",
		  HW_SHARING_MPS, HW_TIME_SLICE_DEFAULT, 0, 1572864000 },
		{ "            strategy: TimeSlicing\n"
		  "            timeSlicingConfig: {interval: Long}\n",
		  HW_SHARING_TIME_SLICING, HW_TIME_SLICE_LONG, 0, 0 },
		{ "            strategy: TimeSlicing\n", HW_SHARING_TIME_SLICING,
		  HW_TIME_SLICE_DEFAULT, 0, 0 },
		{ "            strategy: MPS\n"
		  "            mpsConfig: {defaultActiveThreadPercentage: 0}\n",
		  HW_SHARING_MPS, HW_TIME_SLICE_DEFAULT, 0, 0 },
		{ "            strategy: MPS\n"
		  "            mpsConfig: {defaultActiveThreadPercentage: 100}\n",
		  HW_SHARING_MPS, HW_TIME_SLICE_DEFAULT, 100, 0 },
		{ "            strategy: MPS\n"
		  "            mpsConfig: {defaultActiveThreadPercentage: 50.0}\n",
		  HW_SHARING_MPS, HW_TIME_SLICE_DEFAULT, 50, 0 },
	};

	for (guint i = 0; i < G_N_ELEMENTS(ok); i++) {
		g_autoptr(K8sObjectSet) set = k8s_object_set_new();
		g_autoptr(K8sDiagList) diags = lint_claim(ok[i].sharing, set);
		K8sObject *obj = k8s_object_set_get(set, 0);
		HwGpuSharing s;

		print_message("# case %u: %s", i, ok[i].sharing);
		assert_int_equal(k8s_diag_list_count(diags), 0);
		assert_true(hw_gpu_config_read(
		        &k8s_object_as_resource_claim(obj)->spec.config[0].opaque,
		        "spec.devices.config[0].opaque", NULL, &s));
		assert_int_equal(s.strategy, ok[i].strategy);
		assert_int_equal(s.interval, ok[i].interval);
		assert_int_equal((gint64)s.active_threads, (gint64)ok[i].threads);
		assert_int_equal(s.pinned_memory_limit, ok[i].limit);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_config__bad_values_are_errors_at_the_field),
		cmocka_unit_test(test_gpu_config__valid_configs_read_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
