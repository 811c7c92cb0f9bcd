/*
 * test_scenario.c: analytic end-to-end checks of sim/scenario and sim/world
 * through the real stack (hw publishing, allocator and CEL, scheduler, run model), plus
 * the decoder's positioned errors. The expected figures are derived by hand
 * in the comments, not read from a previous run.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "scenario_test_util.h"

/* Two pods of demand 1.0 time-sliced on one GPU (shared claim, GpuConfig
 * TimeSlicing, no switch cost): each gets half the GPU, so 1 h of work takes
 * 2 h and the slowdown is exactly 2. */
static void
test_timeslice_twice(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("timeslice.yaml", "dra");

	assert_int_equal(r->submitted, 2);
	assert_int_equal(r->completed, 2);
	assert_int_equal(r->n_gpus, 1);
	assert_true(fabs(r->jct[0] - 7200.0) < 1e-3);
	assert_true(fabs(r->jct[2] - 7200.0) < 1e-3);
	assert_true(fabs(r->slowdown[0] - 2.0) < 1e-6);
	/* One GPU busy for the whole 2 h run. */
	assert_true(fabs(r->alloc_ratio_mean - 1.0) < 1e-9);
}

/* An H100 in all-1g.10gb has 7 instances: seven notebooks run, the eighth
 * waits, rejected by DynamicResources (dra) or NodeResourcesFit (extended:
 * nvidia.com/mig-1g.10gb = 7). */
static void
test_mig_seven_fit(void **state)
{
	g_autoptr(ScenarioResult) dra = scenario_test_run_mode("mig7.yaml", "dra");
	g_autoptr(ScenarioResult) ext = scenario_test_run_mode("mig7.yaml", "extended");

	assert_int_equal(dra->n_gpus, 7);
	assert_int_equal(dra->scheduled, 7);
	assert_int_equal(dra->pending, 1);
	assert_int_equal(dra->unschedulable[CLUSTER_PLUGIN_DYNAMIC_RESOURCES], 1);
	assert_int_equal(ext->scheduled, 7);
	assert_int_equal(ext->pending, 1);
	assert_int_equal(ext->unschedulable[CLUSTER_PLUGIN_NODE_RESOURCES_FIT], 1);
	assert_true(fabs(dra->alloc_ratio_final - 1.0) < 1e-9);
	/* The MIG profile became a resource name: one translation note. */
	assert_int_equal(ext->notes->len, 1);
}

/* The same notebooks written for the device plugin (nvidia.com/mig-1g.10gb: 1):
 * in the DRA world KEP-5004 allocates them through the generated class
 * mig-1g.10gb.nvidia.com, so again seven run and the eighth waits. */
static void
test_mig_extended_to_dra(void **state)
{
	g_autoptr(ScenarioResult) dra = scenario_test_run_mode("mig7-extended.yaml", "dra");
	g_autoptr(ScenarioResult) ext = scenario_test_run_mode("mig7-extended.yaml", "extended");

	assert_int_equal(dra->scheduled, 7);
	assert_int_equal(dra->pending, 1);
	assert_int_equal(dra->unschedulable[CLUSTER_PLUGIN_DYNAMIC_RESOURCES], 1);
	assert_true(dra->allocator_calls > 0);
	assert_int_equal(ext->scheduled, 7);
	assert_int_equal(ext->allocator_calls, 0);
}

/* The same scenario and seed give byte-identical JSON. */
static void
test_json_deterministic(void **state)
{
	g_autoptr(ScenarioResult) a = scenario_test_run_mode("mig7.yaml", "dra");
	g_autoptr(ScenarioResult) b = scenario_test_run_mode("mig7.yaml", "dra");
	g_autofree char *path = scenario_test_data_path("mig7.yaml");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	g_autoptr(RptReport) ra = scenario_report_build(sc, &a, 1);
	g_autoptr(RptReport) rb = scenario_report_build(sc, &b, 1);
	g_autofree char *ja = rpt_json_to_string(ra);
	g_autofree char *jb = rpt_json_to_string(rb);

	assert_string_equal(ja, jb);
	assert_non_null(strstr(ja, "pods_scheduled"));
}

static void
expect_error(const char *text, const char *needle)
{
	scenario_test_expect_error(text, needle);
}

static void
test_decode_errors(void **state)
{
	expect_error("apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\n"
	             "spec:\n  cluster:\n    nodePools: [{name: p, shape: dgx-h100, cuont: 2}]\n",
	             "s.yaml:6:44: error: unknown field 'cuont'; did you mean 'count'? "
	             "[spec.cluster.nodePools[0].cuont]");
	expect_error("apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\n"
	             "spec:\n  cluster:\n    nodePools: [{name: p, shape: dgx-h99}]\n",
	             "s.yaml:6:34: error: unknown node shape 'dgx-h99'");
	expect_error(
	        "apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\n"
	        "spec:\n  horizon: 2x\n  cluster:\n    nodePools: [{name: p, shape: dgx-h100}]\n",
	        "s.yaml:5:12: error: expected a duration like 90s or 1h30m");
	expect_error(
	        "apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\n"
	        "spec:\n  cluster:\n    nodePools: [{name: p, shape: dgx-h100, mig: all-1g.5gb}]\n",
	        "[spec.cluster.nodePools[0].mig]");
	expect_error("apiVersion: drasim.io/v1beta1\nkind: Scenario\nmetadata: {name: x}\n"
	             "spec:\n  cluster:\n    nodePools: [{name: p, shape: dgx-h100}]\n",
	             "s.yaml:1:13: error: expected apiVersion drasim.io/v1alpha1 [apiVersion]");
	expect_error("apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\n"
	             "spec:\n  cluster:\n    nodePools: [{name: p, shape: dgx-h100}]\n"
	             "  modes: [{name: m, world: hybrid}]\n",
	             "expected dra or extended, got \"hybrid\" [spec.modes[0].world]");
}

/* Rates with units decode to per second: 7.2/h = 7.2 / 3,600 s = 0.002/s,
 * 30/min = 30 / 60 s = 0.5/s (the duration default 1min is the same unit). A bad
 * rate names its file:line:col, field and the accepted forms. */
static void
test_rate_units(void **state)
{
	g_autofree char *path = scenario_test_data_path("rate-units.yaml");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	const ScenarioEntry *a, *b;

	if (sc == NULL)
		k8s_diag_list_print(diags, stderr);
	assert_non_null(sc);
	a = &g_array_index(sc->entries, ScenarioEntry, 0);
	b = &g_array_index(sc->entries, ScenarioEntry, 1);
	assert_true(fabs(a->process.rate_per_s - 0.002) < 1e-15);
	assert_true(fabs(b->process.rate_per_s - 0.5) < 1e-15);
	assert_int_equal(sc->default_duration, 60 * SIM_TIME_S);
	expect_error(
	        "apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\n"
	        "spec:\n  cluster:\n    nodePools: [{name: p, shape: dgx-h100}]\n"
	        "  workload:\n    entries:\n"
	        "    - {kind: Pod, name: a, arrival: {process: poisson, rate: 7.2/hour}}\n",
	        "s.yaml:9:62: error: expected a rate: a number per second, or NUMBER/UNIT "
	        "like 7.2/h, 30/min, 0.5/s or 2/d, got \"7.2/hour\": unknown unit 'hour' (us, ms, "
	        "s, m or min, h, d or w) "
	        "[spec.workload.entries[0].arrival.rate]");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeslice_twice),
		cmocka_unit_test(test_mig_seven_fit),
		cmocka_unit_test(test_mig_extended_to_dra),
		cmocka_unit_test(test_json_deterministic),
		cmocka_unit_test(test_decode_errors),
		cmocka_unit_test(test_rate_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
