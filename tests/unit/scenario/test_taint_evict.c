/*
 * test_taint_evict.c: tolerationSeconds end to end (node taints, the
 * unreachable taint of a failed node with DefaultTolerationSeconds, DRA
 * device taints) and GFD's labels after a mig-manager reconfiguration.
 * Each scenario file derives its times by hand; the tests check the
 * eviction times in the run's journal and the completion times.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scenario_test_util.h"

/* "name@seconds" of every eviction in time order, comma-separated. */
static char *
evictions(const ScenarioResult *r)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < cluster_journal_get_n_entries(r->journal); i++) {
		const ClusterJournalEntry *e = cluster_journal_get_entry(r->journal, i);

		if (e->kind != CLUSTER_JOURNAL_EVICTED)
			continue;
		g_string_append_printf(out, "%s%s@%g", out->len > 0 ? "," : "",
		                       cluster_journal_get_pod_name(r->journal, e->pod),
		                       sim_time_to_seconds(e->at));
	}
	return g_string_free(out, FALSE);
}

static void
assert_end(const ScenarioResult *r, const char *name, double seconds)
{
	const ScenarioPodRecord *rec = scenario_test_pod_record(r, name, NULL);
	double got = rec->end >= 0 ? sim_time_to_seconds(rec->end) : -1;

	if (fabs(got - seconds) > 1e-6)
		fail_msg("%s: expected end %.3f s, got %.3f s", name, seconds, got);
}

/* Node taints with tolerationSeconds (events-toleration.yaml), both worlds. */
static void
test_node_toleration_seconds(void **state)
{
	const char *const modes[] = { "dra", "extended" };

	for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
		g_autoptr(ScenarioResult) r =
		        scenario_test_run_journal("events-toleration.yaml", modes[m]);
		g_autofree char *ev = evictions(r);

		assert_string_equal(ev, "none@10,two@40,sixty@70,later@70,arrives@160");
		assert_int_equal(r->evictions, 5);
		assert_int_equal(r->completed, 7);
		assert_end(r, "sixty", 3670);
		assert_end(r, "removed", 3600);
		assert_end(r, "two", 3640);
		assert_end(r, "none", 3630);
		assert_end(r, "later", 3670);
		assert_end(r, "forever", 3600);
		assert_end(r, "arrives", 3760);
	}
}

/* A failed node: own tolerations of the unreachable taint, or the default. */
static void
test_unreachable_toleration(void **state)
{
	const char *const modes[] = { "dra", "extended" };

	for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
		g_autoptr(ScenarioResult) r =
		        scenario_test_run_journal("events-unreachable.yaml", modes[m]);
		g_autofree char *ev = evictions(r);

		assert_string_equal(ev, "mismatch@640,own@700,default@940");
		assert_int_equal(r->completed, 4);
		assert_end(r, "own", 4300);
		assert_end(r, "default", 4540);
		assert_end(r, "forever", 4800);
		assert_end(r, "mismatch", 4250);
		assert_string_equal(scenario_test_pod_record(r, "own", NULL)->node, "gpu-4");
		assert_string_equal(scenario_test_pod_record(r, "forever", NULL)->node, "gpu-2");
	}
}

/* DRA device taints with tolerationSeconds (events-device-toleration.yaml). */
static void
test_device_toleration_seconds(void **state)
{
	g_autoptr(ScenarioResult) r =
	        scenario_test_run_journal("events-device-toleration.yaml", "dra");
	g_autofree char *ev = evictions(r);

	assert_string_equal(ev, "any-effect@10,two@40,sixty@70");
	assert_int_equal(r->completed, 4);
	assert_end(r, "sixty", 3700);
	assert_end(r, "removed", 3600);
	assert_end(r, "two", 3700);
	assert_end(r, "any-effect", 3700);
}

/* Tolerations already over at bind: one eviction per second, not a hang. */
static void
test_expired_toleration_rebind(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_journal("events-expired.yaml", "dra");
	g_autofree char *ev = evictions(r);

	assert_string_equal(ev, "zero@21,short@21,zero@22,short@22,zero@23,short@23,"
	                        "zero@24,short@24,zero@25,short@25");
	assert_int_equal(r->evictions, 10);
	assert_int_equal(r->completed, 0);
}

/* After all-1g.10gb -> all-7g.80gb the 1g.10gb GFD labels are gone. */
static void
test_relabel_removes_stale_labels(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_journal("events-relabel.yaml", "extended");
	const ScenarioPodRecord *stale = scenario_test_pod_record(r, "stale", NULL);
	const ScenarioPodRecord *fresh = scenario_test_pod_record(r, "fresh", NULL);

	assert_int_equal(r->events_applied, 1);
	assert_int_equal(fresh->phase, CLUSTER_POD_SUCCEEDED);
	assert_true(fresh->start == 700 * SIM_TIME_S);
	assert_end(r, "fresh", 4300);
	assert_int_equal(stale->phase, CLUSTER_POD_PENDING);
	assert_int_equal(r->unschedulable[CLUSTER_PLUGIN_NODE_AFFINITY], 1);
}

static gboolean
has_note(const ScenarioResult *r, const char *object)
{
	for (guint i = 0; i < r->notes->len; i++) {
		const ScenarioNote *n = g_ptr_array_index(r->notes, i);

		if (strcmp(n->object, object) == 0)
			return TRUE;
	}
	return FALSE;
}

/* DeviceTaintRule manifests: applied with DRADeviceTaints (CEL selector), noted without. */
static void
test_taint_rule_manifest(void **state)
{
	g_autoptr(ScenarioResult) on =
	        scenario_test_run_journal("taint-rule-manifest.yaml", "dra-taints");
	g_autoptr(ScenarioResult) off =
	        scenario_test_run_journal("taint-rule-manifest.yaml", "dra");
	g_autoptr(ScenarioResult) ext =
	        scenario_test_run_journal("taint-rule-manifest.yaml", "extended");

	assert_end(on, "a", 3600);
	assert_end(on, "b", 7200);
	assert_end(on, "c", 10800);
	assert_false(has_note(on, "DeviceTaintRule first-gpu"));
	assert_end(off, "a", 3600);
	assert_end(off, "b", 3600);
	assert_end(off, "c", 7200);
	assert_true(has_note(off, "DeviceTaintRule first-gpu"));
	assert_true(has_note(ext, "DeviceTaintRule first-gpu"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_toleration_seconds),
		cmocka_unit_test(test_unreachable_toleration),
		cmocka_unit_test(test_device_toleration_seconds),
		cmocka_unit_test(test_expired_toleration_rebind),
		cmocka_unit_test(test_relabel_removes_stale_labels),
		cmocka_unit_test(test_taint_rule_manifest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
