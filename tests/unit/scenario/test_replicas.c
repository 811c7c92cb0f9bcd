/*
 * test_replicas.c: the device plugin's time-slicing replicas end to end. A pod
 * may hold several replicas of one GPU (the plugin's distributed policy picks
 * them), runs there as one process doing the work of all of them (demand ×
 * replicas, memory once per GPU), and failRequestsGreaterThanOne (always on
 * under MPS) refuses a request above one replica. The expected figures are
 * derived by hand below (docs/cluster.md, "Several replicas of one GPU").
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure.h"
#include "scenario_test_util.h"

/* The pod's devices (the plugin's device IDs, one per replica held). */
static char **
devices(const ScenarioResult *r, const char *name)
{
	return g_strsplit(scenario_test_devices(r, name), ",", -1);
}

static void
assert_seconds(SimTime t, double expected)
{
	double got = sim_time_to_seconds(t);

	if (fabs(got - expected) > 1e-6)
		fail_msg("expected %.6f s, got %.6f s", expected, got);
}

/*
 * Two H100s, 4 replicas each, no switch cost; every pod has 1 h of work at
 * demand 1.0.
 * - big (4 replicas, 50 GiB) at 0: the distributed policy takes GPU0, GPU1
 *   (fewest allocated), GPU0, GPU1 (ties: fewest taken by this request, then
 *   the lowest index). One process per GPU doing two replicas' work: demand
 *   2.0, speed 0.5. Its memory counts once per GPU (50 GiB < 80 GiB; per
 *   replica it would be 100 GiB and an OOM kill).
 * - second (4 replicas, 20 GiB) at 1800 s: big has done 900 s. The remaining
 *   replicas are 2 per GPU; second takes them alike. Each GPU now has two
 *   processes of demand 2.0: a half each, speed 0.25 for both pods.
 * - third (1 replica) at 2700 s: all 8 replicas are allocated, so Fit rejects
 *   it until big ends.
 * - big ends when its 2700 s left are done at 0.25: 1800 + 10800 = 12600 s.
 *   By then second has done 10800 × 0.25 = 2700 s: 900 s are left. third
 *   starts at t3 >= 12600 s on GPU0 (2 and 2 allocated: lowest index). Until
 *   t3 second runs alone at 0.5; then GPU0 is split between second (demand
 *   2.0) and third (1.0), a half each: second at 0.25, third at 0.5, so
 *   second ends at t3 + (900 − 0.5 (t3 − 12600)) / 0.25 and third, alone
 *   after that, has 3600 − 0.5 (end − t3) s left at full speed.
 */
static void
test_replicas_of_one_gpu(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("replicas.yaml", "timeslice");
	guint i;
	const ScenarioPodRecord *big = scenario_test_pod_record(r, "big", &i);
	const ScenarioPodRecord *second = scenario_test_pod_record(r, "second", &i);
	const ScenarioPodRecord *third = scenario_test_pod_record(r, "third", &i);
	g_auto(GStrv) dbig = devices(r, "big");
	g_auto(GStrv) dsecond = devices(r, "second");
	g_auto(GStrv) dthird = devices(r, "third");
	double t3, left;

	assert_int_equal(r->completed, 3);
	assert_int_equal(r->oom_kills, 0);
	/* placed at the first attempt: no placement error, no retry */
	assert_int_equal(big->attempts, 1);
	assert_int_equal(second->attempts, 1);
	assert_seconds(big->start, 0);
	assert_seconds(second->start, 1800);
	/* two replicas of each GPU, in the distributed order */
	assert_int_equal(g_strv_length(dbig), 4);
	assert_string_equal(dbig[0], dbig[2]);
	assert_string_equal(dbig[1], dbig[3]);
	assert_string_not_equal(dbig[0], dbig[1]);
	assert_int_equal(g_strv_length(dsecond), 4);
	assert_string_equal(dsecond[0], dbig[0]);
	assert_string_equal(dsecond[1], dbig[1]);
	assert_string_equal(dsecond[2], dbig[0]);
	assert_string_equal(dsecond[3], dbig[1]);
	assert_seconds(big->end, 12600);
	assert_true(fabs(big->slowdown - 3.5) < 1e-9);
	/* third waited for freed replicas (Fit), then took one of GPU0 */
	assert_true(third->attempts >= 2);
	assert_true(third->start >= big->end);
	assert_int_equal(g_strv_length(dthird), 1);
	assert_string_equal(dthird[0], dbig[0]);
	t3 = sim_time_to_seconds(third->start);
	left = 900 - 0.5 * (t3 - 12600);
	assert_true(left > 0);
	assert_seconds(second->end, t3 + left / 0.25);
	assert_seconds(third->end, sim_time_to_seconds(second->end) +
	                                   (3600 - 0.5 * (sim_time_to_seconds(second->end) - t3)));
}

/*
 * Demand below one: big (0.25) holds two replicas of each GPU, a process of
 * demand 0.5 per GPU, and runs at full speed: 3600 s. second (0.6) at 2 h:
 * demand 1.2 per GPU, speed 1/1.2: 4320 s of run, ends at 7200 + 4320.
 * third (one replica) at 5 h runs alone: 3600 s.
 */
static void
test_replicas_demand(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("replicas-light.yaml", "timeslice");
	guint i;

	assert_int_equal(r->completed, 3);
	assert_seconds(scenario_test_pod_record(r, "big", &i)->end, 3600);
	assert_seconds(scenario_test_pod_record(r, "second", &i)->end, 7200 + 4320);
	assert_seconds(scenario_test_pod_record(r, "third", &i)->end, 18000 + 3600);
}

/*
 * failRequestsGreaterThanOne (time-slicing) and MPS (the plugin forces the
 * option): big and second are refused at every attempt and never run;
 * third runs alone from 2700 s (MPS with 4 replicas: 25 % of the SMs, speed
 * 0.25, so 4 h; time-slicing: full speed, 1 h).
 */
static void
test_fail_requests_greater_than_one(void **state)
{
	const char *const modes[] = { "strict", "mps" };
	const double runs[] = { 3600, 4 * 3600 };

	for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
		g_autoptr(ScenarioResult) r = scenario_test_run_mode("replicas.yaml", modes[m]);
		guint i;
		const ScenarioPodRecord *big = scenario_test_pod_record(r, "big", &i);
		const ScenarioPodRecord *second = scenario_test_pod_record(r, "second", &i);
		const ScenarioPodRecord *third = scenario_test_pod_record(r, "third", &i);

		assert_int_equal(r->completed, 1);
		assert_int_equal(r->pending, 2);
		assert_true(big->start < 0);
		assert_true(second->start < 0);
		assert_true(big->attempts > 2);
		assert_seconds(third->start, 2700);
		assert_seconds(third->end, 2700 + runs[m]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replicas_of_one_gpu),
		cmocka_unit_test(test_replicas_demand),
		cmocka_unit_test(test_fail_requests_greater_than_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
