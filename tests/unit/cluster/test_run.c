/*
 * test_run.c: analytic checks of the run model: processor sharing under
 * time-slicing (two pods of demand 1.0 both finish at twice their work),
 * context-switch overhead, max-min fairness, MPS thread caps, the MIG speed
 * rule, OOM victims with and without memory isolation, the crash-loop backoff,
 * and completion times that move when the co-tenants change.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cluster_run.h"

#define S  SIM_TIME_S
#define GB ((gint64)1000 * 1000 * 1000)

static void
assert_close(double got, double want)
{
	if (fabs(got - want) > 1e-9)
		fail_msg("got %.12f, want %.12f", got, want);
}

static ClusterRunParams
no_overhead(void)
{
	ClusterRunParams params;

	cluster_run_params_init(&params);
	params.context_switch = 0;
	return params;
}

static void
test_run__two_full_pods_time_sliced_take_twice(void **state)
{
	ClusterRunParams params = no_overhead();
	ClusterDevice gpu = { CLUSTER_SHARE_TIME_SLICE, CLUSTER_INTERVAL_DEFAULT, 1.0, 80 * GB,
		              FALSE };
	ClusterTenant t[2] = { { .demand = 1.0 }, { .demand = 1.0 } };
	ClusterProgress p[2];
	double rates[2];

	cluster_run_rates(&params, &gpu, t, 2, rates);
	assert_close(rates[0], 0.5);
	assert_close(rates[1], 0.5);
	for (guint i = 0; i < 2; i++) {
		cluster_progress_init(&p[i], 10 * S, 0);
		cluster_progress_set_rate(&p[i], 0, rates[i]);
		assert_int_equal(cluster_progress_finish_time(&p[i]), 20 * S);
	}
}

static void
test_run__completion_moves_when_cotenant_leaves(void **state)
{
	ClusterRunParams params = no_overhead();
	ClusterDevice gpu = { CLUSTER_SHARE_TIME_SLICE, CLUSTER_INTERVAL_DEFAULT, 1.0, 80 * GB,
		              FALSE };
	ClusterTenant t[2] = { { .demand = 1.0 }, { .demand = 1.0 } };
	ClusterProgress a, b;
	double rates[2];

	cluster_progress_init(&a, 10 * S, 0);
	cluster_progress_init(&b, 20 * S, 0);
	cluster_run_rates(&params, &gpu, t, 2, rates);
	cluster_progress_set_rate(&a, 0, rates[0]);
	cluster_progress_set_rate(&b, 0, rates[1]);
	assert_int_equal(cluster_progress_finish_time(&a), 20 * S);
	assert_int_equal(cluster_progress_finish_time(&b), 40 * S);
	/* a finishes at 20 s; b has 10 s of work left and now runs alone */
	cluster_run_rates(&params, &gpu, t, 1, rates);
	cluster_progress_set_rate(&b, 20 * S, rates[0]);
	assert_close(b.remaining, (double)(10 * S));
	assert_int_equal(cluster_progress_finish_time(&b), 30 * S);
	/* a third pod joins at 25 s: 5 s left at half speed */
	cluster_progress_set_rate(&b, 25 * S, 0.5);
	assert_int_equal(cluster_progress_finish_time(&b), 35 * S);
	cluster_progress_set_rate(&b, 26 * S, 0.0);
	assert_int_equal(cluster_progress_finish_time(&b), SIM_TIME_NEVER);
}

static void
test_run__context_switch_overhead(void **state)
{
	ClusterRunParams params;
	ClusterDevice gpu = { CLUSTER_SHARE_TIME_SLICE, CLUSTER_INTERVAL_SHORT, 1.0, 80 * GB,
		              FALSE };
	ClusterTenant t[2] = { { .demand = 1.0 }, { .demand = 1.0 } };
	double rates[2];

	cluster_run_params_init(&params);
	/* 50 µs per switch on a 1 ms slice */
	assert_close(cluster_run_switch_overhead(&params, CLUSTER_INTERVAL_SHORT, 2),
	             50.0 / 1050.0);
	assert_close(cluster_run_switch_overhead(&params, CLUSTER_INTERVAL_LONG, 2), 50.0 / 4050.0);
	assert_close(cluster_run_switch_overhead(&params, CLUSTER_INTERVAL_SHORT, 1), 0.0);
	cluster_run_rates(&params, &gpu, t, 2, rates);
	assert_close(rates[0], 0.5 * (1.0 - 50.0 / 1050.0));
	/* alone there is nothing to switch */
	cluster_run_rates(&params, &gpu, t, 1, rates);
	assert_close(rates[0], 1.0);
}

static void
test_run__max_min_fair_sharing(void **state)
{
	ClusterRunParams params = no_overhead();
	ClusterDevice gpu = { CLUSTER_SHARE_TIME_SLICE, CLUSTER_INTERVAL_DEFAULT, 1.0, 80 * GB,
		              FALSE };
	ClusterTenant t[3] = { { .demand = 0.2 }, { .demand = 1.0 }, { .demand = 0.3 } };
	double rates[3];

	/* 0.2 and 0.3 fit under the 1/3 share; the big pod gets the other 0.5 */
	cluster_run_rates(&params, &gpu, t, 3, rates);
	assert_close(rates[0], 1.0);
	assert_close(rates[1], 0.5);
	assert_close(rates[2], 1.0);
	/* light pods that fit together all run at full speed */
	t[1].demand = 0.4;
	cluster_run_rates(&params, &gpu, t, 3, rates);
	assert_close(rates[0] + rates[1] + rates[2], 3.0);
}

static void
test_run__mps_thread_caps(void **state)
{
	ClusterRunParams params;
	ClusterDevice gpu = { CLUSTER_SHARE_MPS, CLUSTER_INTERVAL_DEFAULT, 1.0, 80 * GB, FALSE };
	ClusterTenant t[2] = { { .demand = 0.6, .mps_threads = 50 },
		               { .demand = 0.6, .mps_threads = 50 } };
	double rates[2];

	cluster_run_params_init(&params);
	cluster_run_rates(&params, &gpu, t, 2, rates);
	assert_close(rates[0], 0.5 / 0.6);
	assert_close(rates[1], 0.5 / 0.6);
	/* one client alone is still capped by its thread percentage */
	t[0].demand = 1.0;
	t[0].mps_threads = 30;
	cluster_run_rates(&params, &gpu, t, 1, rates);
	assert_close(rates[0], 0.3);
	/* unset threads mean 100 %: no context-switch overhead under MPS */
	t[0].mps_threads = 0;
	t[1].mps_threads = 0;
	t[1].demand = 1.0;
	cluster_run_rates(&params, &gpu, t, 2, rates);
	assert_close(rates[0], 0.5);
}

static void
test_run__mig_speed(void **state)
{
	ClusterRunParams params;
	/* H100: 132 SMs; a 1g.10gb slice has 16 */
	ClusterDevice mig = { CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_DEFAULT, 16.0 / 132.0,
		              10 * GB, TRUE };
	ClusterTenant needs_33_sms = { .demand = 33.0 / 132.0 };
	ClusterTenant needs_8_sms = { .demand = 8.0 / 132.0 };
	double rate;

	cluster_run_params_init(&params);
	cluster_run_rates(&params, &mig, &needs_33_sms, 1, &rate);
	assert_close(rate, 16.0 / 33.0);
	cluster_run_rates(&params, &mig, &needs_8_sms, 1, &rate);
	assert_close(rate, 1.0);
}

/*
 * Two tenants on an exclusive device (a claim shared by two pods without
 * sharing config) are time-sliced with the Default interval, as NVIDIA's
 * driver configures them, even when the device was set up with another
 * interval: overhead 50 / (2000 + 50), each of demand 1.0 gets (1 -
 * 50/2050) / 2 = 1000/2050 of the GPU. Before, both ran at 1.0 and the GPU
 * delivered 2.0. The compute delivered (0.9756) stays within capacity.
 */
static void
test_run__exclusive_device_with_two_tenants_is_time_sliced(void **state)
{
	ClusterRunParams params;
	ClusterDevice gpu = { CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_LONG, 1.0, 80 * GB, FALSE };
	ClusterTenant t[2] = { { .demand = 1.0 }, { .demand = 1.0 } };
	double rates[2];

	cluster_run_params_init(&params);
	cluster_run_rates(&params, &gpu, t, 2, rates);
	assert_close(rates[0], 1000.0 / 2050.0);
	assert_close(rates[1], 1000.0 / 2050.0);
	cluster_run_check_delivered(&gpu, rates[0] + rates[1]);
	/* alone it keeps the whole device */
	cluster_run_rates(&params, &gpu, t, 1, rates);
	assert_close(rates[0], 1.0);
}

static void
test_run__oom_kills_newest_without_isolation(void **state)
{
	ClusterDevice gpu = { CLUSTER_SHARE_TIME_SLICE, CLUSTER_INTERVAL_DEFAULT, 1.0, 80 * GB,
		              FALSE };
	ClusterTenant t[3] = { { .mem_bytes = 30 * GB, .start = 0, .seq = 1 },
		               { .mem_bytes = 30 * GB, .start = 5, .seq = 2 },
		               { .mem_bytes = 30 * GB, .start = 3, .seq = 3 } };
	gboolean kill[3];

	assert_int_equal(cluster_run_oom_victims(&gpu, t, 3, kill), 1);
	assert_false(kill[0]);
	assert_true(kill[1]);
	assert_false(kill[2]);
	/* 3 × 50 GB: the two newest go; equal start times fall back to seq */
	for (guint i = 0; i < 3; i++) {
		t[i].mem_bytes = 50 * GB;
		t[i].start = 7;
	}
	assert_int_equal(cluster_run_oom_victims(&gpu, t, 3, kill), 2);
	assert_false(kill[0]);
	assert_true(kill[1]);
	assert_true(kill[2]);
	/* within memory nobody dies */
	assert_int_equal(cluster_run_oom_victims(&gpu, t, 1, kill), 0);
}

static void
test_run__isolated_memory_kills_only_the_offender(void **state)
{
	ClusterDevice mig = { CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_DEFAULT, 1.0 / 7.0, 10 * GB,
		              TRUE };
	ClusterDevice mps = { CLUSTER_SHARE_MPS, CLUSTER_INTERVAL_DEFAULT, 1.0, 80 * GB, FALSE };
	ClusterTenant big = { .mem_bytes = 12 * GB };
	ClusterTenant t[2] = { { .mem_bytes = 20 * GB, .mem_limit = 16 * GB, .start = 0 },
		               { .mem_bytes = 10 * GB, .mem_limit = 16 * GB, .start = 1 } };
	gboolean kill[2];

	assert_int_equal(cluster_run_oom_victims(&mig, &big, 1, kill), 1);
	big.mem_bytes = 9 * GB;
	assert_int_equal(cluster_run_oom_victims(&mig, &big, 1, kill), 0);
	/* the older MPS client over its pinned limit dies, not the newest */
	assert_int_equal(cluster_run_oom_victims(&mps, t, 2, kill), 1);
	assert_true(kill[0]);
	assert_false(kill[1]);
}

static void
test_run__restart_backoff(void **state)
{
	ClusterRunParams params;
	const SimTime want[] = { 0, 10 * S, 20 * S, 40 * S, 80 * S, 160 * S, 300 * S, 300 * S };

	cluster_run_params_init(&params);
	for (guint i = 0; i < G_N_ELEMENTS(want); i++)
		assert_int_equal(cluster_run_restart_backoff(&params, i), want[i]);
	assert_int_equal(cluster_run_restart_backoff(&params, 200), 300 * S);
}

static void
test_run__progress_rounds_up_to_whole_us(void **state)
{
	ClusterProgress p;

	cluster_progress_init(&p, 10, 0);
	cluster_progress_set_rate(&p, 0, 1.0 / 3.0);
	assert_int_equal(cluster_progress_finish_time(&p), 30);
	cluster_progress_init(&p, 7, 100);
	cluster_progress_set_rate(&p, 100, 2.0 / 3.0);
	assert_int_equal(cluster_progress_finish_time(&p), 111);
	cluster_progress_advance(&p, 111);
	assert_close(p.remaining, 0.0);
	assert_int_equal(cluster_progress_finish_time(&p), 111);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run__two_full_pods_time_sliced_take_twice),
		cmocka_unit_test(test_run__completion_moves_when_cotenant_leaves),
		cmocka_unit_test(test_run__context_switch_overhead),
		cmocka_unit_test(test_run__max_min_fair_sharing),
		cmocka_unit_test(test_run__mps_thread_caps),
		cmocka_unit_test(test_run__mig_speed),
		cmocka_unit_test(test_run__oom_kills_newest_without_isolation),
		cmocka_unit_test(test_run__isolated_memory_kills_only_the_offender),
		cmocka_unit_test(test_run__restart_backoff),
		cmocka_unit_test(test_run__exclusive_device_with_two_tenants_is_time_sliced),
		cmocka_unit_test(test_run__progress_rounds_up_to_whole_us),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
