/*
 * test_import_events.c: spec.events on an imported cluster and the imported
 * starting state without a scheduling cycle (issue 16; docs/import.md,
 * "Events on imported nodes" and section 1).
 *
 * The cluster (data/import/nodes.yaml, slices.yaml): Nodes node-a and node-b
 * with 4 GPUs each (gpu-0..gpu-3, pools named after the nodes). ev-run runs on
 * node-a through claim ev-held, allocated node-a/gpu-3 and reserved for it;
 * ev-wait is Pending with a one-GPU template claim and a nodeSelector for
 * node-b; ev-gen runs on node-b through claim ev-gen-gpu-x7k2p, which the
 * controller generated from its template (status.resourceClaimStatuses),
 * allocated node-b/gpu-2. node-a is drained at 10 min; the horizon is 1 h.
 *
 * Worked by hand, mode dra: at t = 0 ev-run is on node-a/gpu-3 and ev-gen on
 * node-b/gpu-2 (its generated claim is kept, not made anew), with no scheduling
 * cycle; the one cycle at t = 0 is ev-wait's, which takes node-b's first free
 * device, gpu-0. At 600 s the drain evicts ev-run (it tolerates nothing: at
 * once); its claim, reserved by no one now, is deallocated, and its replacement
 * is scheduled at 600 s on node-b, node-a being cordoned: the allocator's first
 * free device there is gpu-1. Cycles: 2 (ev-wait at 0, ev-run at 600 s), each
 * filtering the 2 nodes: 4 filter calls. Binds 4.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "cluster_journal.h"
#include "scenario_test_util.h"

/* The @k-th BOUND entry of pod @name (0 = the first), or NULL. */
static const ClusterJournalEntry *
nth_bound(const ScenarioResult *r, const char *name, guint k)
{
	gint pod = cluster_journal_lookup_pod(r->journal, name);

	for (guint i = 0; pod >= 0 && i < cluster_journal_get_n_entries(r->journal); i++) {
		const ClusterJournalEntry *e = cluster_journal_get_entry(r->journal, i);

		if (e->kind == CLUSTER_JOURNAL_BOUND && e->pod == (guint)pod && k-- == 0)
			return e;
	}
	return NULL;
}

static void
assert_bound(const ScenarioResult *r, const char *pod, guint k, SimTime at, const char *device)
{
	const ClusterJournalEntry *e = nth_bound(r, pod, k);

	if (e == NULL) {
		fail_msg("%s has no bind #%u", pod, k);
		return; /* fail_msg is not known not to return (gcc -O3 -Wnull-dereference) */
	}
	assert_int_equal(e->at, at);
	if (strstr(e->text, device) == NULL)
		fail_msg("%s bind #%u: expected %s in \"%s\"", pod, k, device, e->text);
}

static gboolean
has_note(const ScenarioResult *r, const char *object, const char *text)
{
	for (guint i = 0; i < r->notes->len; i++) {
		const ScenarioNote *n = r->notes->pdata[i];

		if (strstr(n->object, object) != NULL &&
		    (strstr(n->what, text) != NULL || strstr(n->approx, text) != NULL))
			return TRUE;
	}
	return FALSE;
}

static void
test_drain_imported_node(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_journal("import-events.yaml", "dra");

	(void)state;
	assert_bound(r, "ev-run", 0, 0, "gpu.nvidia.com/node-a/gpu-3");
	assert_bound(r, "ev-gen", 0, 0, "claim ev-gen-gpu-x7k2p: gpu.nvidia.com/node-b/gpu-2");
	assert_bound(r, "ev-wait", 0, 0, "gpu.nvidia.com/node-b/gpu-0");
	assert_bound(r, "ev-run", 1, 600 * SIM_TIME_S, "gpu.nvidia.com/node-b/gpu-1");
	assert_int_equal(scenario_test_pod_record(r, "ev-gen", NULL)->attempts, 0);
	assert_null(nth_bound(r, "ev-run", 2));
	assert_string_equal(scenario_test_pod_record(r, "ev-run", NULL)->node, "node-b");
	/* the only attempt of ev-run is its replacement's */
	assert_int_equal(scenario_test_pod_record(r, "ev-run", NULL)->attempts, 1);
	assert_int_equal(scenario_test_pod_record(r, "ev-wait", NULL)->attempts, 1);
	assert_int_equal(r->cycles, 2);
	assert_int_equal(r->filter_calls, 4);
	assert_int_equal(r->scheduled, 4);
	assert_int_equal(r->evictions, 1);
	assert_int_equal(r->events_applied, 1);
}

/*
 * Mode without-a removes node-a: ev-run's node is gone, so it is pending at t = 0
 * (a note); ev-held's reservedFor names only ev-run, which does not run here, so
 * the claim controller deallocates it (a note). ev-gen runs on node-b/gpu-2;
 * ev-run, before ev-wait in the queue, takes node-b/gpu-0, ev-wait gpu-1. The
 * drain of node-a has no
 * effect in this mode: a note, events_applied 0.
 */
static void
test_event_on_removed_node(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_journal("import-events.yaml", "without-a");

	(void)state;
	assert_true(has_note(r, "spec.events[0]",
	                     "node node-a is removed in this mode (removeNodes): no effect"));
	assert_true(has_note(r, "ev-run", "its node is not in this mode's cluster"));
	assert_true(has_note(r, "ev-held", "allocated claim reserved for pods not running"));
	assert_int_equal(r->events_applied, 0);
	assert_int_equal(r->evictions, 0);
	assert_bound(r, "ev-run", 0, 0, "gpu.nvidia.com/node-b/gpu-0");
	assert_bound(r, "ev-wait", 0, 0, "gpu.nvidia.com/node-b/gpu-1");
	assert_int_equal(r->cycles, 2);
}

/*
 * A device taint on an imported node names its slices' pools
 * (data/import-device-taint.yaml: node-a's 2 GPUs in pool a-gpus, not named
 * after the node). ev-taint runs on node-a from t = 0; its template claim is not
 * allocated, so its admission allocates node-a's first device, a-gpus/gpu-0. At
 * 10 min gpu-0 gets a NoExecute taint: ev-taint, tolerating nothing, is evicted
 * at once, and its replacement (nodeSelector node-a) gets gpu-1.
 */
static void
test_device_taint_imported_pool(void **state)
{
	g_autoptr(ScenarioResult) r =
	        scenario_test_run_journal("import-device-taint.yaml", "taints");

	(void)state;
	assert_bound(r, "ev-taint", 0, 0, "gpu.nvidia.com/a-gpus/gpu-0");
	assert_bound(r, "ev-taint", 1, 600 * SIM_TIME_S, "gpu.nvidia.com/a-gpus/gpu-1");
	assert_int_equal(r->evictions, 1);
	assert_int_equal(r->events_applied, 1);
}

/* A scenario on data/import's cluster with @events (spec.events items) and @modes. */
static char *
events_scenario(const char *events, const char *modes)
{
	g_autofree char *nodes = scenario_test_data_path("import/nodes.yaml");
	g_autofree char *slices = scenario_test_data_path("import/slices.yaml");

	return g_strdup_printf("apiVersion: drasim.io/v1alpha1\n"
	                       "kind: Scenario\n"
	                       "metadata: {name: s}\n"
	                       "spec:\n"
	                       "  cluster:\n"
	                       "    objects: [%s, %s]\n"
	                       "  modes:\n"
	                       "  - {name: dra, world: dra}\n"
	                       "%s"
	                       "  events:\n"
	                       "%s",
	                       nodes, slices, modes, events);
}

static void
test_event_errors(void **state)
{
	g_autofree char *mig = events_scenario(
	        "  - {at: 1m, action: mig-reconfigure, node: node-a, migConfig: all-1g.10gb}\n",
	        "");
	g_autofree char *unknown =
	        events_scenario("  - {at: 1m, action: drain, node: node-aa}\n", "");
	g_autofree char *clone_mig = events_scenario(
	        "  - {at: 1m, action: mig-reconfigure, node: node-b-clone-1, migConfig: "
	        "all-1g.10gb}\n",
	        "  - {name: more, world: dra, addNodes: [{like: node-b, count: 2}]}\n");
	g_autofree char *clone_past = events_scenario(
	        "  - {at: 1m, action: cordon, node: node-b-clone-2}\n",
	        "  - {name: more, world: dra, addNodes: [{like: node-b, count: 2}]}\n");

	(void)state;
	scenario_test_expect_error(
	        mig, "s.yaml:10:45: error: mig-reconfigure cannot target node-a: it is an imported "
	             "node, whose ResourceSlices are its driver's as published, and drasim cannot "
	             "republish them after a mig-manager step; compare MIG layouts with a mode's "
	             "`mig: {node-a: LAYOUT}` instead (docs/import.md section 3) "
	             "[spec.events[0].node]");
	scenario_test_expect_error(unknown, "s.yaml:10:35: error: \"node-aa\" is no node of a pool "
	                                    "or imported node (valid: node-a, node-b); did you "
	                                    "mean \"node-a\"? [spec.events[0].node]");
	/* a clone a mode adds is an imported node too */
	scenario_test_expect_error(clone_mig,
	                           "error: mig-reconfigure cannot target node-b-clone-1");
	scenario_test_expect_error(
	        clone_past, "error: \"node-b-clone-2\" is no node of a pool or imported node");
}

/* An event on a clone loads; a mode without the clone notes it and goes on. */
static void
test_event_on_clone(void **state)
{
	g_autofree char *text = events_scenario(
	        "  - {at: 1m, action: cordon, node: node-b-clone-0}\n",
	        "  - {name: more, world: dra, addNodes: [{like: node-b, count: 1}]}\n");
	g_autofree char *dir = g_dir_make_tmp("drasim-ev-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "s.yaml", NULL);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(ScenarioResult) plain = NULL;
	g_autoptr(ScenarioResult) more = NULL;

	(void)state;
	assert_true(g_file_set_contents(path, text, -1, NULL));
	sc = scenario_load(path, diags);
	assert_non_null(sc);
	plain = scenario_run(sc, scenario_lookup_mode(sc, "dra"), 0, 0, NULL, NULL, diags, &error);
	assert_non_null(plain);
	assert_true(has_note(plain, "spec.events[0]",
	                     "node node-b-clone-0 is not in this mode's "
	                     "cluster (another mode's addNodes makes it)"));
	assert_int_equal(plain->events_applied, 0);
	more = scenario_run(sc, scenario_lookup_mode(sc, "more"), 0, 0, NULL, NULL, diags, &error);
	assert_non_null(more);
	assert_int_equal(more->events_applied, 1);
	g_unlink(path);
	g_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drain_imported_node),
		cmocka_unit_test(test_event_on_removed_node),
		cmocka_unit_test(test_device_taint_imported_pool),
		cmocka_unit_test(test_event_errors),
		cmocka_unit_test(test_event_on_clone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
