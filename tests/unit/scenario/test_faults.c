/*
 * test_faults.c: the fault scenarios of scenarios/faults/ end to end. Each
 * scenario's README works out by hand which pod runs where and when; the
 * tests check exactly that in the run's journal and pod records.
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

/*
 * The run's story, one "pod event[ node]@seconds" per binding, eviction and
 * completion (and container start, @starts), in the journal's (time) order,
 * separated by ", ".
 */
static char *
story(const ScenarioResult *r, gboolean starts)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < cluster_journal_get_n_entries(r->journal); i++) {
		const ClusterJournalEntry *e = cluster_journal_get_entry(r->journal, i);
		const char *what = e->kind == CLUSTER_JOURNAL_BOUND               ? "bound"
		                   : e->kind == CLUSTER_JOURNAL_EVICTED           ? "evicted"
		                   : e->kind == CLUSTER_JOURNAL_COMPLETED         ? "completed"
		                   : e->kind == CLUSTER_JOURNAL_STARTED && starts ? "started"
		                                                                  : NULL;

		if (what == NULL)
			continue;
		g_string_append_printf(out, "%s%s %s%s%s@%g", out->len > 0 ? ", " : "",
		                       cluster_journal_get_pod_name(r->journal, e->pod), what,
		                       e->node != NULL ? " " : "", e->node != NULL ? e->node : "",
		                       sim_time_to_seconds(e->at));
	}
	return g_string_free(out, FALSE);
}

/*
 * Runs mode @mode of scenarios/faults/@file with its journal and checks its
 * story (with container starts when @starts) and how many events took
 * effect; returns the run for further checks.
 */
static ScenarioResult *
expect_story(
        const char *file, const char *mode, gboolean starts, const char *expected, guint64 applied)
{
	ScenarioResult *r = scenario_test_run_journal(file, mode);
	g_autofree char *got = story(r, starts);

	assert_string_equal(got, expected);
	assert_int_equal(r->events_applied, applied);
	return r;
}

/* scenarios/faults/node-flap/README.md: a 2 m flap evicts none, a 10 m one evicts. */
static void
test_node_flap(void **state)
{
	const char *const modes[] = { "dra", "extended" };

	for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
		g_autoptr(ScenarioResult) r = expect_story(
		        "node-flap/scenario.yaml", modes[m], FALSE,
		        "short bound dgx-0@0, long bound dgx-1@0, own bound dgx-1@0, own "
		        "evicted@660, "
		        "arrives bound dgx-0@720, long evicted@900, long bound dgx-2@900, "
		        "own bound dgx-1@1200, short completed@3600, arrives completed@4320, "
		        "long completed@4500, own completed@4800",
		        2);

		assert_int_equal(r->evictions, 2);
		assert_int_equal(r->completed, 4);
	}
}

/*
 * scenarios/faults/driver-unavailable/README.md: dgx-0's DRA driver is away
 * 600..625 s; waits binds at 610, its kubelet retries at 620 (still away) and
 * 630 (back): started at 630. Running and other-node pods are not touched.
 * The device plugin world has no DRA driver: no effect, a note.
 */
static void
test_driver_unavailable(void **state)
{
	g_autoptr(ScenarioResult) dra = expect_story(
	        "driver-unavailable/scenario.yaml", "dra", TRUE,
	        "running bound dgx-0@0, running started dgx-0@0, waits bound dgx-0@610, "
	        "elsewhere bound dgx-1@610, elsewhere started dgx-1@610, waits started dgx-0@630, "
	        "running completed@3600, elsewhere completed@4210, waits completed@4230",
	        1);
	g_autoptr(ScenarioResult) ext = expect_story(
	        "driver-unavailable/scenario.yaml", "extended", TRUE,
	        "running bound dgx-0@0, running started dgx-0@0, waits bound dgx-0@610, "
	        "waits started dgx-0@610, elsewhere bound dgx-1@610, elsewhere started dgx-1@610, "
	        "running completed@3600, waits completed@4210, elsewhere completed@4210",
	        0);
}

/*
 * fail-while-waiting.yaml: a pod waiting for its driver is bound, so its
 * node's failure takes it too (lost); the restored kubelet prepares it again
 * from 650 every 10 s and starts it when the driver is back, at 700.
 */
static void
test_driver_down_node_fail(void **state)
{
	g_autoptr(ScenarioResult) r = expect_story(
	        "driver-unavailable/fail-while-waiting.yaml", "dra", TRUE,
	        "running bound dgx-0@0, running started dgx-0@0, elsewhere bound dgx-1@0, "
	        "elsewhere started dgx-1@0, waits bound dgx-0@610, running started dgx-0@650, "
	        "waits started dgx-0@700, elsewhere completed@3600, running completed@4250, "
	        "waits completed@4300",
	        3);

	assert_int_equal(r->evictions, 0);
}

/*
 * drain-while-waiting.yaml: a pod bound and waiting for its driver is bound
 * (ContainerCreating): dgx-0's drain at 615 evicts it with `running`; both
 * replacements may only run on the cordoned dgx-0, so both stay pending.
 */
static void
test_driver_down_drain(void **state)
{
	g_autoptr(ScenarioResult) r = expect_story(
	        "driver-unavailable/drain-while-waiting.yaml", "dra", TRUE,
	        "running bound dgx-0@0, running started dgx-0@0, waits bound dgx-0@610, "
	        "elsewhere bound dgx-1@610, elsewhere started dgx-1@610, running evicted@615, "
	        "waits evicted@615, elsewhere completed@4210",
	        2);

	assert_int_equal(r->evictions, 2);
	assert_int_equal(scenario_test_pod_record(r, "waits", NULL)->phase, CLUSTER_POD_PENDING);
	assert_int_equal(scenario_test_pod_record(r, "running", NULL)->phase, CLUSTER_POD_PENDING);
}

/*
 * kubelet-restart/README.md: dgx-0's kubelet is down 600..630 s. `running`
 * keeps running and is never started (prepared) again; `arrives` (claim) and
 * `plain` (no claim) bind at 610 and 615 and start at 630. The same in both
 * worlds: the device plugin's kubelet restarts alike.
 */
static void
test_kubelet_restart(void **state)
{
	const char *const modes[] = { "dra", "extended" };

	for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
		g_autoptr(ScenarioResult) r = expect_story(
		        "kubelet-restart/scenario.yaml", modes[m], TRUE,
		        "running bound dgx-0@0, running started dgx-0@0, arrives bound dgx-0@610, "
		        "elsewhere bound dgx-1@610, elsewhere started dgx-1@610, "
		        "plain bound dgx-0@615, arrives started dgx-0@630, plain started "
		        "dgx-0@630, "
		        "running completed@3600, elsewhere completed@4210, arrives completed@4230, "
		        "plain completed@4230",
		        1);

		assert_int_equal(r->evictions, 0);
	}
}

/*
 * pool-republish/README.md: a generation bump alone moves nothing; after
 * gpu-0 (held by `holder`) and gpu-1 leave the pool, holder runs on, `six`
 * gets gpu-2..gpu-7 and `late` waits for one of those (4210), not for gpu-0
 * (freed at 3600 but not published). The device plugin world: no effect.
 */
static void
test_pool_republish(void **state)
{
	g_autoptr(ScenarioResult) dra =
	        expect_story("pool-republish/scenario.yaml", "dra", FALSE,
	                     "holder bound dgx-0@0, six bound dgx-0@610, holder completed@3600, "
	                     "six completed@4210, late bound dgx-0@4210, late completed@7810",
	                     2);
	g_autoptr(ScenarioResult) ext =
	        expect_story("pool-republish/scenario.yaml", "extended", FALSE,
	                     "holder bound dgx-0@0, six bound dgx-0@610, late bound dgx-0@620, "
	                     "holder completed@3600, six completed@4210, late completed@4220",
	                     0);

	assert_string_equal(scenario_test_devices(dra, "holder"), "gpu:dgx-0/gpu-0");
	assert_string_equal(scenario_test_devices(dra, "late"), "gpu:dgx-0/gpu-2");
}

/*
 * pool-rename/README.md: at 600 gpu-0 (held by `holder`) is republished as
 * gpu-8; `late` (1200) gets gpu-8, physical GPU 0, shared with holder by
 * time-slicing: 2 ms slices, 50 us switches, 20/41 of the GPU each. holder:
 * 1200 s alone, 2400 s of work left at 20/41 = 4920 s, done at 6120; late:
 * 2400 s of work by 6120, 1200 s alone, done at 7320. Extended: no effect,
 * late waits for the GPUs freed at 3600.
 */
static void
test_pool_rename(void **state)
{
	g_autoptr(ScenarioResult) dra =
	        expect_story("pool-rename/scenario.yaml", "dra", FALSE,
	                     "holder bound dgx-0@0, fill bound dgx-0@0, late bound dgx-0@1200, "
	                     "fill completed@3600, holder completed@6120, late completed@7320",
	                     1);
	g_autoptr(ScenarioResult) ext =
	        expect_story("pool-rename/scenario.yaml", "extended", FALSE,
	                     "holder bound dgx-0@0, fill bound dgx-0@0, holder completed@3600, "
	                     "fill completed@3600, late bound dgx-0@3600, late completed@7200",
	                     0);

	/* the sampler names physical GPUs: both tenants are on GPU 0 */
	assert_string_equal(scenario_test_devices(dra, "holder"), "gpu:dgx-0/gpu-0");
	assert_string_equal(scenario_test_devices(dra, "late"), "gpu:dgx-0/gpu-0");
	/* marked shared for the report (drasim verify), fill alone on its own */
	assert_true(scenario_test_pod_record(dra, "holder", NULL)->shared);
	assert_true(scenario_test_pod_record(dra, "late", NULL)->shared);
	assert_false(scenario_test_pod_record(dra, "fill", NULL)->shared);
}

/*
 * pool-incomplete/README.md: 600..900 s both pools show gpu-0..gpu-3 only;
 * `one` gets gpu-1 at 610, `four` (4 GPUs) finds two free: unschedulable,
 * moved at 900 by the slice event. `whole` (allocationMode All) meets the
 * pool "being updated", an error: retried on the error backoff (every 11 s
 * from 629), it binds at the first retry after 900, 904.
 */
static void
test_pool_incomplete(void **state)
{
	g_autoptr(ScenarioResult) r =
	        expect_story("pool-incomplete/scenario.yaml", "dra", FALSE,
	                     "before bound dgx-0@0, one bound dgx-0@610, four bound dgx-0@900, "
	                     "whole bound dgx-1@904, before completed@3600, one completed@4210, "
	                     "four completed@4500, whole completed@4504",
	                     1);

	assert_string_equal(scenario_test_devices(r, "one"), "gpu:dgx-0/gpu-1");
}

/* Decoding: which actions take duration and devices; the valid actions listed. */
/* renames: an old name the node does not publish (the valid ones listed), a
 * new name it already publishes, a device both left out and renamed, an
 * action other than republish. */
static void
test_rename_decode_errors(void **state)
{
	const char *head = "apiVersion: drasim.io/v1alpha1\n"
	                   "kind: Scenario\n"
	                   "metadata: {name: t}\n"
	                   "spec:\n"
	                   "  cluster:\n"
	                   "    nodePools: [{name: dgx, shape: dgx-h100, count: 1}]\n"
	                   "  events:\n";
	g_autofree char *unknown = g_strconcat(
	        head, "  - {at: 1m, action: republish, node: dgx-0, renames: {gpu-9: gpu-10}}\n",
	        NULL);
	g_autofree char *taken = g_strconcat(
	        head, "  - {at: 1m, action: republish, node: dgx-0, renames: {gpu-0: gpu-1}}\n",
	        NULL);
	g_autofree char *both = g_strconcat(head,
	                                    "  - {at: 1m, action: republish, node: dgx-0, "
	                                    "devices: [gpu-2], renames: {gpu-2: gpu-8}}\n",
	                                    NULL);
	g_autofree char *on_remove = g_strconcat(head,
	                                         "  - {at: 1m, action: device-remove, node: dgx-0, "
	                                         "devices: [gpu-1], renames: {gpu-0: gpu-8}}\n",
	                                         NULL);

	scenario_test_expect_error(unknown, ":8:56: error: the node publishes no device gpu-9; its "
	                                    "gpu.nvidia.com devices: gpu-0, "
	                                    "gpu-1, gpu-2, gpu-3, gpu-4, gpu-5, gpu-6, gpu-7 "
	                                    "[spec.events[0].renames.gpu-9]");
	scenario_test_expect_error(
	        taken, ":8:63: error: gpu-1 is already a device name of the pool: expected a new "
	               "name [spec.events[0].renames.gpu-0]");
	scenario_test_expect_error(
	        both, ":8:74: error: gpu-2 is in devices (left out): a device is left out or "
	              "renamed, not both [spec.events[0].renames.gpu-2]");
	scenario_test_expect_error(
	        on_remove, ":8:77: error: renames applies to republish only, not to device-remove "
	                   "[spec.events[0].renames]");
}

static void
test_not_ready_decode_errors(void **state)
{
	const char *head = "apiVersion: drasim.io/v1alpha1\n"
	                   "kind: Scenario\n"
	                   "metadata: {name: t}\n"
	                   "spec:\n"
	                   "  cluster:\n"
	                   "    nodePools: [{name: dgx, shape: dgx-h100, count: 1}]\n"
	                   "  events:\n";
	g_autofree char *negative = g_strconcat(
	        head, "  - {at: 1m, action: not-ready, node: dgx-0, duration: -5s}\n", NULL);
	g_autofree char *on_cordon = g_strconcat(
	        head, "  - {at: 1m, action: cordon, node: dgx-0, duration: 5s}\n", NULL);
	g_autofree char *typo =
	        g_strconcat(head, "  - {at: 1m, action: notready, node: dgx-0}\n", NULL);

	scenario_test_expect_error(
	        negative,
	        ":8:56: error: expected a duration >= 0, got -5s [spec.events[0].duration]");
	g_autofree char *remove_all =
	        g_strconcat(head, "  - {at: 1m, action: device-remove, node: dgx-0}\n", NULL);
	g_autofree char *restart_devices = g_strconcat(
	        head, "  - {at: 1m, action: kubelet-restart, node: dgx-0, devices: [gpu-0]}\n",
	        NULL);
	g_autofree char *incomplete_empty = g_strconcat(
	        head, "  - {at: 1m, action: pool-incomplete, node: dgx-0, devices: []}\n", NULL);

	scenario_test_expect_error(
	        on_cordon, "duration applies to mig-reconfigure, not-ready, driver-unavailable, "
	                   "pool-incomplete and kubelet-restart only, not to cordon "
	                   "[spec.events[0].duration]");
	scenario_test_expect_error(typo, ":8:22: error: expected fail, restore, drain, cordon, "
	                                 "uncordon, taint, untaint, device-taint, device-untaint, "
	                                 "mig-reconfigure, not-ready, driver-unavailable, "
	                                 "republish, device-remove, pool-incomplete or "
	                                 "kubelet-restart, got \"notready\"");
	scenario_test_expect_error(remove_all,
	                           ":8:5: error: expected the names of the devices the driver "
	                           "stops publishing (as the node's ResourceSlices name them, "
	                           "e.g. gpu-0) [spec.events[0].devices]");
	scenario_test_expect_error(restart_devices,
	                           ":8:61: error: devices applies to device-taint, device-untaint, "
	                           "republish, device-remove and pool-incomplete only, not to "
	                           "kubelet-restart [spec.events[0].devices]");
	scenario_test_expect_error(incomplete_empty,
	                           ":8:61: error: expected at least one device name");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_flap),
		cmocka_unit_test(test_driver_unavailable),
		cmocka_unit_test(test_driver_down_node_fail),
		cmocka_unit_test(test_driver_down_drain),
		cmocka_unit_test(test_kubelet_restart),
		cmocka_unit_test(test_pool_republish),
		cmocka_unit_test(test_pool_rename),
		cmocka_unit_test(test_pool_incomplete),
		cmocka_unit_test(test_not_ready_decode_errors),
		cmocka_unit_test(test_rename_decode_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
