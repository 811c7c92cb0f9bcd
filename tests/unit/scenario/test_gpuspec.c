/*
 * test_gpuspec.c: the Alibaba trace's gpu_spec in both worlds, through the
 * whole stack (data/gpuspec.yaml: one-GPU nodes t4-0, v100-0 = V100 32GB,
 * a100-0 = A100 40GB, the stand-in for the trace's G2).
 *
 * The pods (data/gpuspec-trace.csv) are built so that ignoring gpu_spec
 * changes the outcome: p-t4b asks for a T4 while the only T4 is busy and two
 * other GPUs are free, so in the exclusive modes it must wait for p-t4's end
 * (100 s); under time-slicing (2 replicas) it shares the T4 at once (5 s),
 * which also checks the extended selector uses GFD's "-SHARED" product label.
 * p-multi (V100M16|V100M32|G2) can only get the A100 (the V100 is busy, the T4
 * is not in its set). p-p100 names a model no node has and stays pending.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scenario_test_util.h"

static ScenarioResult *
run_mode(const char *mode_name)
{
	return scenario_test_run_mode("gpuspec.yaml", mode_name);
}

static void
assert_on(const ScenarioResult *r, const char *pod, const char *node, SimTime start)
{
	const ScenarioPodRecord *p = scenario_test_pod_record(r, pod, NULL);

	if (p->node == NULL || strcmp(p->node, node) != 0)
		fail_msg("%s: %s on %s, expected %s", r->mode, pod, p->node ? p->node : "(none)",
		         node);
	assert_int_equal(p->start, start);
}

static gboolean
has_note(const ScenarioResult *r, const char *what)
{
	for (guint i = 0; i < r->notes->len; i++) {
		const ScenarioNote *n = r->notes->pdata[i];

		if (strcmp(n->what, what) == 0)
			return TRUE;
	}
	return FALSE;
}

static void
check_common(const ScenarioResult *r)
{
	const ScenarioPodRecord *p100 = scenario_test_pod_record(r, "p-p100", NULL);

	assert_on(r, "p-t4", "t4-0", 0);
	assert_on(r, "p-v100", "v100-0", 1 * SIM_TIME_S);
	assert_on(r, "p-multi", "a100-0", 10 * SIM_TIME_S);
	assert_null(p100->node);
	assert_true(p100->start < 0);
	/* P100 has no GPU in the built-in catalog (the alibaba scenario adds one) */
	assert_true(has_note(r, "gpu_spec model P100"));
}

/* DRA: the claim's CEL selector on productName. */
static void
test_gpuspec_dra(void **state)
{
	g_autoptr(ScenarioResult) r = run_mode("dra");

	(void)state;
	check_common(r);
	assert_on(r, "p-t4b", "t4-0", 100 * SIM_TIME_S);
	assert_true(r->cel_evaluations > 0);
	assert_false(has_note(r, "gpu_spec with several models"));
}

/* Extended: nodeSelector nvidia.com/gpu.product, several models as affinity In. */
static void
test_gpuspec_extended(void **state)
{
	g_autoptr(ScenarioResult) r = run_mode("extended");

	(void)state;
	check_common(r);
	assert_on(r, "p-t4b", "t4-0", 100 * SIM_TIME_S);
	assert_true(has_note(r, "gpu_spec with several models"));
}

/* Time-slicing without renaming: GFD labels the T4 "Tesla-T4-SHARED". */
static void
test_gpuspec_shared(void **state)
{
	g_autoptr(ScenarioResult) r = run_mode("shared");

	(void)state;
	check_common(r);
	assert_on(r, "p-t4b", "t4-0", 5 * SIM_TIME_S);
}

/* spec.workload.trace.gpuModels: P100 -> the A100, so p-p100 (arriving at
 * 20 s) runs on a100-0 once p-multi leaves it (110 s), or at once beside it
 * under time-slicing; the other pods are where they were. */
static void
test_gpuspec_override(void **state)
{
	static const char *const modes[] = { "dra", "extended", "shared" };

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(modes); i++) {
		g_autoptr(ScenarioResult) r =
		        scenario_test_run_mode("gpuspec-override.yaml", modes[i]);

		assert_on(r, "p-multi", "a100-0", 10 * SIM_TIME_S);
		assert_on(r, "p-p100", "a100-0", (i == 2 ? 20 : 110) * SIM_TIME_S);
		assert_false(has_note(r, "gpu_spec model P100"));
	}
}

/* A gpuModels value that names no catalog GPU is a positioned decode error. */
static void
test_gpuspec_override_unknown(void **state)
{
	g_autofree char *path = g_build_filename(DRASIM_TEST_DATA, "gpuspec-bad.yaml", NULL);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	g_autofree char *text = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_null(sc);
	k8s_diag_list_print(diags, f);
	fclose(f);
	text = buf;
	if (strstr(text, "gpuspec-bad.yaml:17:23: error: expected a GPU model of the catalog") ==
	            NULL ||
	    strstr(text, "got \"no-such-gpu\" [spec.workload.trace.gpuModels.G2]") == NULL)
		fail_msg("unexpected diagnostics: %s", text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpuspec_dra),
		cmocka_unit_test(test_gpuspec_extended),
		cmocka_unit_test(test_gpuspec_shared),
		cmocka_unit_test(test_gpuspec_override),
		cmocka_unit_test(test_gpuspec_override_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
