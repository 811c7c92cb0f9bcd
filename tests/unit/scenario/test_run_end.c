/*
 * test_run_end.c: a run always ends and says why (issue 12, item 5). Without
 * a horizon a run stops when no pending event can change anything: only the
 * scheduler's retries are left and every waiting pod already failed against
 * the current state. Those pods are reported as never running, with their
 * last failure. Expected times are worked out by hand below and in the
 * scenario files' comments.
 */

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../base/limit-edge.h"
#include "base.h"
#include "rpt.h"
#include "scenario_test_util.h"

/* The text report of one result (the report object of `drasim run`). */
static char *
text_report(const char *file, ScenarioResult *r)
{
	g_autofree char *path = scenario_test_data_path(file);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	g_autoptr(RptReport) report = NULL;

	assert_non_null(sc);
	report = scenario_report_build(sc, &r, 1);
	return rpt_text_to_string(report, FALSE);
}

/* The notebook arrives at 0 and is tried at once (cycle time 0): no node
 * publishes a MIG device, so it fails. Nothing else is pending but its
 * retry timer: the run ends at 0 s, quiescent, after two events (the
 * arrival and the attempt); on main it spun for ever. */
static void
test_never_fitting_pod_ends_the_run(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("runend-stuck.yaml", "dra");
	const ScenarioReason *why = scenario_test_pod_reason(r, "notebook");
	g_autofree char *text = text_report("runend-stuck.yaml", r);

	assert_int_equal(r->end_reason, SCENARIO_END_QUIESCENT);
	assert_int_equal(r->end, 0);
	assert_int_equal(r->events, 2);
	assert_int_equal(r->pending, 1);
	assert_int_equal(r->never_runs, 1);
	assert_true(scenario_test_pod_record(r, "notebook", NULL)->never_runs);
	assert_true(why->never_runs);
	assert_int_equal(why->at, 0);
	assert_non_null(strstr(why->message, "0/1 nodes are available: 1 cannot allocate all "
	                                     "claims."));
	/* the series close with one sample at the stop time */
	assert_int_equal(r->pending_series->len, 1);
	assert_non_null(strstr(text, "Run end (dra): quiescent at 0 s: 1 pod can "
	                             "never run\nnotebook never runs (last tried at 0.000 s): "
	                             "0/1 nodes are available"));
}

/* One GPU: train-0 runs 0-3600 s, train-1 waits for it and runs 3600-7200 s.
 * `wide` (two GPUs) fails every attempt. train-1 must not be declared stuck
 * while train-0's completion is pending, nor `wide` while train-1's is: at
 * 7200 s the completion moves `wide` to the active queue (its last retry was
 * at an unschedulable flush minutes before, so its backoff of at most 10 s
 * is over), it fails at once, and the run is quiescent at 7200 s. */
static void
test_waiting_pod_is_not_stuck(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("runend-wait.yaml", "dra");
	const ScenarioPodRecord *train1 = scenario_test_pod_record(r, "train-1", NULL);

	assert_int_equal(r->end_reason, SCENARIO_END_QUIESCENT);
	assert_int_equal(r->end, 7200 * SIM_TIME_S);
	assert_int_equal(r->completed, 2);
	assert_int_equal(train1->start, 3600 * SIM_TIME_S);
	assert_int_equal(train1->end, 7200 * SIM_TIME_S);
	assert_false(train1->never_runs);
	assert_false(scenario_test_pod_reason(r, "train-1")->never_runs);
	assert_int_equal(r->never_runs, 1);
	assert_true(scenario_test_pod_record(r, "wide", NULL)->never_runs);
	assert_int_equal(scenario_test_pod_reason(r, "wide")->at, 7200 * SIM_TIME_S);
}

/* One GPU, two 1 h pods. gpu-0 fails at 600 s: train-0 is lost and evicted
 * at 600 + 40 + 300 = 940 s; both pods wait with no node. The restore at
 * 7200 s is pending all that time, so the run must go on: train-0 binds at
 * 7200 s and ends at 10800 s, train-1 runs 10800-14400 s; then no pod waits
 * and the run ends "done" at the last completion, 14400 s (a sample tick). */
static void
test_pending_restore_keeps_the_run_going(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("runend-restore.yaml", "dra");

	assert_int_equal(r->end_reason, SCENARIO_END_DONE);
	assert_int_equal(r->end, 14400 * SIM_TIME_S);
	assert_int_equal(r->events_applied, 2);
	assert_int_equal(r->completed, 2);
	assert_int_equal(r->never_runs, 0);
	assert_int_equal(scenario_test_pod_record(r, "train-0", NULL)->end, 10800 * SIM_TIME_S);
	assert_int_equal(scenario_test_pod_record(r, "train-1", NULL)->start, 10800 * SIM_TIME_S);
	assert_int_equal(scenario_test_pod_record(r, "train-1", NULL)->end, 14400 * SIM_TIME_S);
}

/* With a 1 h horizon the clock goes to the horizon (samples every minute:
 * 0..3600 s, 61 of them) and the end says "horizon"; nothing was pending
 * beyond it and the notebook had failed against the final state, so it is
 * still reported as never running. */
static void
test_horizon_run_reports_never_running_pods(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("runend-stuck-horizon.yaml", "dra");

	assert_int_equal(r->end_reason, SCENARIO_END_HORIZON);
	assert_int_equal(r->end, 3600 * SIM_TIME_S);
	assert_int_equal(r->pending_series->len, 61);
	assert_int_equal(r->never_runs, 1);
	assert_true(scenario_test_pod_record(r, "notebook", NULL)->never_runs);
}

/* Loads and runs data/@file's dra mode; returns the error text, NULL on
 * success. Diagnostics (pod limit errors) are joined into the text. */
static char *
run_error(const char *file)
{
	g_autofree char *path = scenario_test_data_path(file);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	g_autoptr(GError) error = NULL;
	g_autoptr(ScenarioResult) r = NULL;
	GString *text = g_string_new(NULL);

	assert_non_null(sc);
	r = scenario_run(sc, scenario_lookup_mode(sc, "dra"), 0, 0, NULL, NULL, diags, &error);
	if (r != NULL)
		return g_string_free(text, TRUE);
	for (guint i = 0; i < k8s_diag_list_count(diags); i++)
		g_string_append_printf(text, "%s\n", k8s_diag_list_get(diags, i)->message);
	g_string_append(text, error->message);
	return g_string_free(text, FALSE);
}

/* 1 node: 4 + 1 = 5 series. A 1 h horizon sampled every minute takes 61
 * samples (0, 1, ..., 60 min): 305 values fit a limit of 305, not of 304,
 * and the run fails before it starts. */
static void
test_sample_limit_with_horizon(void **state)
{
	g_autofree char *over =
	        limit_edge(BASE_LIMIT_SAMPLES, 305, run_error, "runend-stuck-horizon.yaml");

	assert_string_equal(over, "horizon 1h / sampling 1m: 61 samples x 5 series: the sampled "
	                          "values limit is 304 (set DRASIM_MAX_SAMPLES to raise it); "
	                          "raise spec.sampling or shorten the horizon");
}

/* No horizon: the wait run samples 0, 1, ..., 120 min (it is quiescent at
 * 7200 s): 121 samples x 5 series = 605 values. At 604 (120 samples) the
 * 121st is one too many. */
static void
test_sample_limit_without_horizon(void **state)
{
	g_autofree char *over = limit_edge(BASE_LIMIT_SAMPLES, 605, run_error, "runend-wait.yaml");

	assert_string_equal(over, "no horizon: at 2h the run needs more than 120 samples "
	                          "(sampling 1m) x 5 series: the sampled values limit is 604 "
	                          "(set DRASIM_MAX_SAMPLES to raise it); set spec.horizon or "
	                          "raise spec.sampling");
}

/* The wait run makes 3 pods (train x 2, wide): a limit of 3 passes, 2 fails
 * at the third, before any run is built. */
static void
test_pod_limit(void **state)
{
	g_autofree char *over = limit_edge(BASE_LIMIT_PODS, 3, run_error, "runend-wait.yaml");

	assert_non_null(strstr(over, "the workload makes more than 2 pods (2 so far, 1 more "
	                             "here): the pods limit is 2 (set DRASIM_MAX_PODS to raise "
	                             "it)"));
}

/* Loads @path; returns its diagnostics (errors and warnings), or NULL when it loads. */
static char *
load_error_at(const char *path)
{
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	GString *text = g_string_new(NULL);

	for (guint i = 0; sc == NULL && i < k8s_diag_list_count(diags); i++) {
		g_autofree char *line = k8s_diag_format(k8s_diag_list_get(diags, i));

		g_string_append_printf(text, "%s\n", line);
	}
	return g_string_free(text, sc != NULL);
}

static char *
load_error(const char *file)
{
	g_autofree char *path = scenario_test_data_path(file);

	return load_error_at(path);
}

/* Pools of 2 and 1 nodes: 3 load at a limit of 3; at 2 the second pool (line 12)
 * is the error, before any node is built. */
static void
test_node_limit_pools(void **state)
{
	g_autofree char *over =
	        limit_edge(BASE_LIMIT_NODES, 3, load_error, "bounds-three-nodes.yaml");

	assert_non_null(strstr(over, "bounds-three-nodes.yaml:12:7: error: this pool brings the "
	                             "nodes to 3; the nodes limit is 2 (set DRASIM_MAX_NODES to "
	                             "raise it) [spec.cluster.nodePools[1].count]"));
}

/* scenarios/imported-cluster: 2 nodes inferred from the slices (gpu-node-1 and -2, its
 * header), and mode plus-4 adds 4 clones: 6 load at a limit of 6; at 5 its addNodes
 * entry is the error; at 1 the imported cluster itself is. */
static void
test_node_limit_imported_and_clones(void **state)
{
	g_autofree char *over = limit_edge(BASE_LIMIT_NODES, 6, load_error_at,
	                                   DRASIM_TEST_DATA
	                                   "/../../../../scenarios/imported-cluster/scenario.yaml");
	g_autofree char *imported = NULL;

	assert_non_null(strstr(over, "scenario.yaml:48:50: error: this addNodes entry brings the "
	                             "nodes to 6; the nodes limit is 5 (set DRASIM_MAX_NODES to "
	                             "raise it) [spec.modes[1].addNodes[0].count]"));
	base_limit_set(BASE_LIMIT_NODES, 1);
	imported = load_error_at(DRASIM_TEST_DATA
	                         "/../../../../scenarios/imported-cluster/scenario.yaml");
	base_limit_set(BASE_LIMIT_NODES, 0);
	assert_non_null(imported);
	assert_non_null(strstr(imported, "scenario.yaml:1:1: error: the imported cluster brings "
	                                 "the nodes to 2; the nodes limit is 1"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_never_fitting_pod_ends_the_run),
		cmocka_unit_test(test_waiting_pod_is_not_stuck),
		cmocka_unit_test(test_pending_restore_keeps_the_run_going),
		cmocka_unit_test(test_horizon_run_reports_never_running_pods),
		cmocka_unit_test(test_sample_limit_with_horizon),
		cmocka_unit_test(test_sample_limit_without_horizon),
		cmocka_unit_test(test_pod_limit),
		cmocka_unit_test(test_node_limit_pools),
		cmocka_unit_test(test_node_limit_imported_and_clones),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
