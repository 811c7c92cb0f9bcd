/*
 * test_scenario_events.c: spec.events end to end (node failure, drain,
 * DRA device taints with and without DRADeviceTaints, the mig-manager flow)
 * and the MPS limits of a GpuConfig, through the real stack. Every expected
 * time is derived by hand in the scenario files' comments and below.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "scenario_test_util.h"

static gint
cmp_time(gconstpointer a, gconstpointer b)
{
	SimTime x = *(const SimTime *)a, y = *(const SimTime *)b;

	return x < y ? -1 : x > y;
}

/* The completion times of the completed pods, in seconds, ascending; asserts their count. */
static void
assert_ends(const ScenarioResult *r, const double *expected, guint n)
{
	g_autoptr(GArray) ends = g_array_new(FALSE, FALSE, sizeof(SimTime));

	for (guint i = 0; i < r->pod_records->len; i++) {
		const ScenarioPodRecord *rec = &g_array_index(r->pod_records, ScenarioPodRecord, i);

		if (rec->end >= 0)
			g_array_append_val(ends, rec->end);
	}
	g_array_sort(ends, cmp_time);
	assert_int_equal(ends->len, n);
	for (guint i = 0; i < n; i++) {
		double got = sim_time_to_seconds(g_array_index(ends, SimTime, i));

		if (fabs(got - expected[i]) > 1e-6)
			fail_msg("completion %u: expected %.3f s, got %.3f s", i, expected[i], got);
	}
}

/* Two one-GPU nodes, three 1 h pods. gpu-0 fails at 600 s; its pod is lost,
 * evicted at 600 + 340 = 940 s and pending; gpu-0 is restored at 1200 s and
 * takes one of the two pending pods: 1200 + 3600 = 4800 s. gpu-1 ends its
 * pod at 3600 s and runs the last one to 7200 s. The same in both worlds. */
static void
test_node_failure(void **state)
{
	static const double ends[] = { 3600, 4800, 7200 };
	const char *const modes[] = { "dra", "extended" };

	for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
		g_autoptr(ScenarioResult) r = scenario_test_run_mode("events-fail.yaml", modes[m]);

		assert_int_equal(r->submitted, 3);
		assert_int_equal(r->evictions, 1);
		assert_int_equal(r->completed, 3);
		/* the evicted pod was bound twice */
		assert_int_equal(r->scheduled, 4);
		assert_int_equal(r->events_applied, 2);
		assert_ends(r, ends, 3);
	}
}

/* gpu-0 is drained at 600 s and stays cordoned: its pod is evicted at once
 * and the two pending pods run one after the other on gpu-1 (3600 s, 7200 s
 * to 10800 s); no pod ends on gpu-0. */
static void
test_drain(void **state)
{
	static const double ends[] = { 3600, 7200, 10800 };
	const char *const modes[] = { "dra", "extended" };

	for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
		g_autoptr(ScenarioResult) r = scenario_test_run_mode("events-drain.yaml", modes[m]);

		assert_int_equal(r->evictions, 1);
		assert_int_equal(r->completed, 3);
		assert_ends(r, ends, 3);
		for (guint i = 0; i < r->pod_records->len; i++) {
			const ScenarioPodRecord *rec =
			        &g_array_index(r->pod_records, ScenarioPodRecord, i);

			assert_string_equal(rec->node, "gpu-1");
		}
	}
}

/* A NoExecute node taint on gpu-0 from 600 s to 1200 s evicts its pod at
 * once; gpu-1 is cordoned at 1800 s and keeps its pod (ends 3600 s) but takes
 * no other: gpu-0 runs the two pending pods, 1200-4800 s and 4800-8400 s. */
static void
test_node_taint_cordon(void **state)
{
	static const double ends[] = { 3600, 4800, 8400 };
	const char *const modes[] = { "dra", "extended" };

	for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
		g_autoptr(ScenarioResult) r = scenario_test_run_mode("events-taint.yaml", modes[m]);

		assert_int_equal(r->evictions, 1);
		assert_int_equal(r->events_applied, 3);
		assert_ends(r, ends, 3);
	}
}

/* A NoExecute DeviceTaintRule at 600 s: with DRADeviceTaints the running pod
 * is evicted and the GPU stays tainted until 1200 s; the pods then end at
 * 1200 + 3600 = 4800 s and 8400 s. Without the gate, and in the extended
 * world, the rule changes nothing: 3600 s and 7200 s, no eviction, and the
 * translation report says why. */
static void
test_device_taint_no_execute(void **state)
{
	static const double gated[] = { 4800, 8400 };
	static const double plain[] = { 3600, 7200 };
	g_autoptr(ScenarioResult) on =
	        scenario_test_run_mode("events-device-taint.yaml", "dra-taints");
	g_autoptr(ScenarioResult) off = scenario_test_run_mode("events-device-taint.yaml", "dra");
	g_autoptr(ScenarioResult) ext =
	        scenario_test_run_mode("events-device-taint.yaml", "extended");

	assert_int_equal(on->evictions, 1);
	assert_int_equal(on->events_applied, 2);
	assert_ends(on, gated, 2);
	assert_int_equal(off->evictions, 0);
	assert_int_equal(off->events_applied, 0);
	assert_ends(off, plain, 2);
	assert_true(off->notes->len >= 1);
	assert_int_equal(ext->evictions, 0);
	assert_ends(ext, plain, 2);
}

/* NoSchedule on gpu-0 from 600 s to 7200 s: the running pod keeps going
 * (ends 3600 s), the waiting one cannot be allocated until 7200 s: 10800 s. */
static void
test_device_taint_no_schedule(void **state)
{
	static const double ends[] = { 3600, 10800 };
	g_autoptr(ScenarioResult) r =
	        scenario_test_run_mode("events-device-noschedule.yaml", "dra");

	assert_int_equal(r->evictions, 0);
	assert_ends(r, ends, 2);
}

/* A request that tolerates the taint keeps its device: no eviction. */
static void
test_device_taint_tolerated(void **state)
{
	static const double ends[] = { 3600 };
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("events-device-tolerated.yaml", "dra");

	assert_int_equal(r->evictions, 0);
	assert_ends(r, ends, 1);
}

/* mig-manager on one H100: at 600 s the node is cordoned and "full" (the
 * only GPU pod) evicted; 60 + 5 + 7 x 2 = 79 s later seven 1g.10gb devices
 * appear and the seven notebooks start at 679 s and end at 4279 s. "full"
 * waits: there is no whole GPU any more. Static MIG in the DRA world goes
 * through the same flow (the driver republishes its pool). */
static void
test_mig_reconfigure(void **state)
{
	static const double ends[] = { 4279, 4279, 4279, 4279, 4279, 4279, 4279 };
	const char *const modes[] = { "extended", "dra" };

	for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
		g_autoptr(ScenarioResult) r = scenario_test_run_mode("events-mig.yaml", modes[m]);

		assert_int_equal(r->evictions, 1);
		assert_int_equal(r->completed, 7);
		assert_int_equal(r->pending, 1);
		assert_int_equal(r->events_applied, 1);
		assert_ends(r, ends, 7);
		for (guint i = 0; i < r->pod_records->len; i++) {
			const ScenarioPodRecord *rec =
			        &g_array_index(r->pod_records, ScenarioPodRecord, i);

			if (g_str_has_prefix(rec->name, "notebook"))
				assert_true(rec->start == 679 * SIM_TIME_S);
			else
				assert_int_equal(rec->phase, CLUSTER_POD_PENDING);
		}
	}
}

/* GpuConfig MPS with defaultActiveThreadPercentage 50: a pod of demand 1.0
 * alone on the GPU runs at half speed, so 1 h of work takes 2 h. */
static void
test_mps_thread_cap(void **state)
{
	static const double ends[] = { 7200 };
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("events-mps.yaml", "dra");

	assert_ends(r, ends, 1);
	assert_true(fabs(r->slowdown[0] - 2.0) < 1e-9);
}

/* defaultPinnedDeviceMemoryLimit 10Gi and a pod that needs 12 GiB: killed on
 * start, again after each crash-loop backoff (10, 20, 40, 80, 160, 300 s...). */
static void
test_mps_memory_limit(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("events-mps-oom.yaml", "dra");

	assert_int_equal(r->completed, 0);
	assert_true(r->oom_kills >= 5);
}

/* The device plugin's MPS with 2 replicas: a replica gets 50 % of the SMs, so
 * a pod of demand 1.0 alone on the GPU takes 2 h for 1 h of work; with
 * time-slicing replicas (no cap) it runs at full speed alone. */
static void
test_plugin_mps(void **state)
{
	static const double capped[] = { 7200 };
	static const double free_[] = { 3600 };
	g_autoptr(ScenarioResult) mps =
	        scenario_test_run_mode("events-plugin-mps.yaml", "extended");
	g_autoptr(ScenarioResult) ts =
	        scenario_test_run_mode("events-plugin-mps.yaml", "extended-ts");

	assert_ends(mps, capped, 1);
	assert_ends(ts, free_, 1);
}

/* The same run twice: the same evictions, ends and per-pod records. */
static void
test_deterministic(void **state)
{
	g_autoptr(ScenarioResult) a = scenario_test_run_mode("events-fail.yaml", "dra");
	g_autoptr(ScenarioResult) b = scenario_test_run_mode("events-fail.yaml", "dra");

	assert_int_equal(a->events, b->events);
	assert_int_equal(a->pod_records->len, b->pod_records->len);
	for (guint i = 0; i < a->pod_records->len; i++) {
		const ScenarioPodRecord *x = &g_array_index(a->pod_records, ScenarioPodRecord, i);
		const ScenarioPodRecord *y = &g_array_index(b->pod_records, ScenarioPodRecord, i);

		assert_string_equal(x->name, y->name);
		assert_true(x->start == y->start && x->end == y->end);
		assert_string_equal(x->node != NULL ? x->node : "-",
		                    y->node != NULL ? y->node : "-");
	}
}

/* Loading data/@file fails with exactly @n errors, each line of @expected among them. */
static void
expect_load_errors(const char *file, const char *const *expected, guint n)
{
	g_autofree char *path = scenario_test_data_path(file);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	GString *buf = g_string_new(NULL);
	g_autofree char *all = NULL;

	assert_null(sc);
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		g_autofree char *line = k8s_diag_format(k8s_diag_list_get(diags, i));

		g_string_append_printf(buf, "%s\n", line);
	}
	all = g_string_free(buf, FALSE);
	for (guint i = 0; i < n; i++)
		if (strstr(all, expected[i]) == NULL)
			fail_msg("expected \"%s\" in:\n%s", expected[i], all);
	assert_int_equal(k8s_diag_list_count_errors(diags), n);
}

/* Every bad event is reported with its position, field path and what was expected. */
static void
test_decode_errors(void **state)
{
	static const char *const expected[] = {
		"events-bad.yaml:9:23: error: expected fail, restore, drain, cordon, uncordon, "
		"taint, "
		"untaint, device-taint, device-untaint, mig-reconfigure, not-ready, "
		"driver-unavailable, republish, device-remove, pool-incomplete or "
		"kubelet-restart, got "
		"\"explode\" "
		"[spec.events[0].action]",
		"events-bad.yaml:10:35: error: \"gpu-2\" is no node of a pool (valid: gpu-0, "
		"gpu-1); did you mean \"gpu-0\"? (nodes are named <pool>-<k>",
		"events-bad.yaml:11:69: error: expected NoSchedule, PreferNoSchedule or NoExecute, "
		"got "
		"\"Sometimes\" [spec.events[2].taint.effect]",
		"events-bad.yaml:12:62: error: index 1 + count 2 is past the pool's 2 nodes "
		"[spec.events[3].count]",
		"events-bad.yaml:13:64: error: MIG layout \"all-9g.99gb\": unknown MIG profile",
		"events-bad.yaml:14:55: error: migConfig applies to mig-reconfigure only, not to "
		"cordon [spec.events[5].migConfig]",
		"events-bad.yaml:15:5: error: expected the time of the event",
		"events-bad.yaml:15:37: error: unknown field 'nodes'; did you mean 'node'? "
		"[spec.events[6].nodes]",
	};
	expect_load_errors("events-bad.yaml", expected, G_N_ELEMENTS(expected));
}

/*
 * A GpuConfig the NVIDIA driver rejects never runs in production (prepare fails),
 * so loading the scenario fails with each bad value at its position and field: the
 * class's interval "Forever" (line 13: 8 + len("sharing: {strategy: TimeSlicing, ")
 * 33 + len("timeSlicingConfig: {interval: ") 30 = 71, column 72) and the template's
 * .inf percentage (line 34: 16 + len("defaultActiveThreadPercentage: ") 31, column 48).
 * On main both loaded: Forever ran as Default, .inf as 0 % (no cap).
 */
static void
test_mps_config_errors(void **state)
{
	static const char *const expected[] = {
		"events-mps-bad-manifests.yaml:13:72: error: unknown time-slice interval "
		"\"Forever\": valid are Default, Short, Medium, Long "
		"[spec.config[0].opaque.parameters.sharing.timeSlicingConfig.interval]",
		"events-mps-bad-manifests.yaml:34:48: error: expected an integer from 0 to 100 "
		"(percent of the SMs), got \".inf\" [spec.spec.devices.config[0].opaque."
		"parameters.sharing.mpsConfig.defaultActiveThreadPercentage]",
	};
	expect_load_errors("events-mps-bad.yaml", expected, G_N_ELEMENTS(expected));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_failure),
		cmocka_unit_test(test_mps_config_errors),
		cmocka_unit_test(test_drain),
		cmocka_unit_test(test_node_taint_cordon),
		cmocka_unit_test(test_device_taint_no_execute),
		cmocka_unit_test(test_device_taint_no_schedule),
		cmocka_unit_test(test_device_taint_tolerated),
		cmocka_unit_test(test_mig_reconfigure),
		cmocka_unit_test(test_mps_thread_cap),
		cmocka_unit_test(test_mps_memory_limit),
		cmocka_unit_test(test_plugin_mps),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_decode_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
