/*
 * test_filter_timeout.c: DynamicResources' filterTimeout in scenarios
 * (data/filter-timeout.yaml): a node whose allocator search runs out of its
 * step budget is unschedulable for the pod with production's message, and
 * the mode's field and gate are decoded with positioned errors. Expected
 * texts are written from upstream's formats (dynamicresources.go Filter and
 * PostFilter, kube-scheduler's FitError), not copied from a run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "scenario.h"
#include "scenario_test_util.h"

/*
 * "mixed" needs far more than 1,000 steps on the only node, so every attempt
 * ends with the node UnschedulableAndUnresolvable ("timed out trying to
 * allocate devices"): no preemption, PostFilter "still not schedulable" (no
 * allocated claim to free). "small" needs 4 steps and binds at once.
 */
static void
test_timed_out_node_is_unschedulable(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("filter-timeout.yaml", "dra");
	const ScenarioReason *mixed = scenario_test_find_reason(r, "mixed");

	assert_non_null(mixed);
	if (mixed == NULL)
		return;
	assert_string_equal(mixed->message,
	                    "0/1 nodes are available: 1 timed out trying to allocate devices. "
	                    "still not schedulable, preemption: 0/1 nodes are available: 1 "
	                    "Preemption is not helpful for scheduling.");
	assert_null(mixed->detail); /* the allocator's diagnosis is for "cannot allocate" */
	assert_null(scenario_test_find_reason(r, "small"));
	const ScenarioPodRecord *small = scenario_test_pod_record(r, "small", NULL);
	const ScenarioPodRecord *mixed_rec = scenario_test_pod_record(r, "mixed", NULL);
	assert_non_null(small);
	assert_non_null(mixed_rec);
	if (small == NULL || mixed_rec == NULL)
		return;
	assert_int_equal(small->attempts, 1);
	assert_true(mixed_rec->attempts > 1);
}

static void
expect_error(const char *modes, const char *needle)
{
	g_autofree char *dir = g_dir_make_tmp("scenario-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "s.yaml", NULL);
	g_autofree char *text = g_strdup_printf(
	        "apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\nspec:\n"
	        "  cluster: {nodePools: [{name: pool, shape: dgx-h100, count: 1}]}\n"
	        "  modes:\n%s",
	        modes);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = NULL;
	GString *buf = g_string_new(NULL);
	g_autofree char *all = NULL;

	assert_true(g_file_set_contents(path, text, -1, NULL));
	sc = scenario_load(path, diags);
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		g_autofree char *line = k8s_diag_format(k8s_diag_list_get(diags, i));

		g_string_append_printf(buf, "%s\n", line);
	}
	all = g_string_free(buf, FALSE);
	if (needle == NULL) {
		if (sc == NULL)
			fail_msg("expected no error in:\n%s", all);
	} else if (sc != NULL || strstr(all, needle) == NULL) {
		fail_msg("expected \"%s\" in:\n%s", needle, all);
	}
	g_unlink(path);
	g_rmdir(dir);
}

/* Line 7 is the first mode; columns count from 1 (the mode's map opens at 5). */
static void
test_decode(void **state)
{
	expect_error("  - {name: dra, filterTimeout: -1s}\n",
	             "s.yaml:7:32: error: expected a duration >= 0, got -1s "
	             "[spec.modes[0].filterTimeout]");
	expect_error("  - {name: dra, filterTimeout: 10x}\n",
	             "s.yaml:7:32: error: expected a duration like 90s or 1h30m");
	expect_error("  - {name: dra, filterTimeout: [1s]}\n",
	             "s.yaml:7:32: error: expected a duration like 90s or 1h30m, got");
	expect_error("  - {name: dra, filterTimeout: 5s, featureGates: "
	             "{DRASchedulerFilterTimeout: false}}\n",
	             "s.yaml:7:32: error: Forbidden: the DRASchedulerFilterTimeout feature gate "
	             "is disabled (remove filterTimeout or turn the gate on) "
	             "[spec.modes[0].filterTimeout]");
	expect_error("  - {name: dra, featureGates: {DRASchedulerFilterTimeout: maybe}}\n",
	             "s.yaml:7:59: error: expected true or false, got string "
	             "[spec.modes[0].featureGates.DRASchedulerFilterTimeout]");
	expect_error("  - {name: dra, filtertimeout: 1s}\n",
	             "s.yaml:7:17: error: unknown field 'filtertimeout'");
	/* valid: 0 (no timeout), a duration, the gate off alone */
	expect_error("  - {name: dra, filterTimeout: 0s}\n", NULL);
	expect_error("  - {name: dra, filterTimeout: 250ms}\n", NULL);
	expect_error("  - {name: dra, featureGates: {DRASchedulerFilterTimeout: false}}\n", NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timed_out_node_is_unschedulable),
		cmocka_unit_test(test_decode),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
