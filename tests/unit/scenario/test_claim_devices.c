/*
 * test_claim_devices.c: the DRA world runs a pod on the devices its claims
 * were allocated (every request, every claim, counts, allocationMode All,
 * firstAvailable subrequests, MIG devices, NICs listed), and tenants of one
 * device through a shared claim without sharing config are time-sliced with
 * the Default interval, as NVIDIA's DRA driver configures them. The expected
 * figures are worked by hand in each comment.
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

#define S ((SimTime)1000000)

/*
 * allocationMode All on a DGX H100 (8 GPUs), horizon 4 h = 32 GPU-hours.
 * `pair` (count 2) runs 0-1 h: 2 GPU-hours. `every` arrives at 1 h, when
 * `pair` has just ended and all eight GPUs are free, gets all eight and runs
 * its 2 h on them (1-3 h): 16 GPU-hours. Time-weighted allocation ratio
 * (2 + 16) / 32 = 0.5625, and compute utilisation the same (every pod of
 * demand 1.0 alone on its GPUs). Taking the translation's count instead, main
 * ran `every` on one GPU: (2 + 2) / 32 = 0.125, and listed one device.
 */
static void
test_all_runs_on_every_device(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("claims-all.yaml", "dra");
	const ScenarioPodRecord *every = scenario_test_pod_record(r, "every", NULL);

	assert_int_equal(r->completed, 2);
	assert_int_equal(every->start, 3600 * S);
	assert_int_equal(every->end, 3 * 3600 * S);
	assert_true(fabs(r->alloc_ratio_mean - 0.5625) < 1e-9);
	assert_true(fabs(r->compute_util_mean - 0.5625) < 1e-9);
	assert_string_equal(scenario_test_devices(r, "pair"), "gpu:dgx-0/gpu-0,gpu:dgx-0/gpu-1");
	assert_string_equal(scenario_test_devices(r, "every"),
	                    "gpu:dgx-0/gpu-0,gpu:dgx-0/gpu-1,gpu:dgx-0/gpu-2,gpu:dgx-0/gpu-3,"
	                    "gpu:dgx-0/gpu-4,gpu:dgx-0/gpu-5,gpu:dgx-0/gpu-6,gpu:dgx-0/gpu-7");
}

/*
 * firstAvailable [4 GPUs, else 1 GPU] on a node with two GPUs: the allocator
 * takes the fallback, and the pod runs on that one GPU from its arrival (t =
 * 0, one scheduling attempt) for its 1 h. Horizon 2 h = 4 GPU-hours, 1 used:
 * ratio 0.25. Main wanted 4 devices at placement, failed every attempt (657
 * over the 2 h) and never started.
 */
static void
test_first_available_fallback_starts_at_once(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("claims-first.yaml", "dra");
	const ScenarioPodRecord *flex = scenario_test_pod_record(r, "flex", NULL);

	assert_int_equal(flex->start, 0);
	assert_int_equal(flex->attempts, 1);
	assert_int_equal(flex->end, 3600 * S);
	assert_true(fabs(r->alloc_ratio_mean - 0.25) < 1e-9);
	assert_string_equal(scenario_test_devices(r, "flex"), "gpu:node-0/gpu-0");
}

/*
 * Two pods of demand 1.0 on one claim without sharing config, one H100: the
 * driver's default GpuConfig time-slices them with the Default interval.
 * Overhead with two tenants = switch / (slice + switch) = 50 us / 2050 us;
 * each gets (1 - 50/2050) / 2 = 1000/2050 of the GPU, so 1 h of work takes
 * 3600 x 2.05 = 7380 s. The GPU delivers 2000/2050 = 0.975609756 of its
 * compute the whole run. Main ran both at full speed (end 3600 s) and its
 * compute utilisation was 2.0: one GPU doing the work of two.
 */
static void
test_shared_claim_time_slices(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("claims-shared.yaml", "dra");

	assert_int_equal(r->completed, 2);
	assert_int_equal(scenario_test_pod_record(r, "a", NULL)->end, 7380 * S);
	assert_int_equal(scenario_test_pod_record(r, "b", NULL)->end, 7380 * S);
	assert_true(fabs(r->compute_util_mean - 2000.0 / 2050.0) < 1e-9);
	assert_true(fabs(r->alloc_ratio_mean - 1.0) < 1e-9);
	assert_string_equal(scenario_test_devices(r, "a"), "gpu:node-0/gpu-0");
	assert_string_equal(scenario_test_devices(r, "b"), "gpu:node-0/gpu-0");
	/* one copy of a device list for every pod that ran on it (issue 19, bytes per pod) */
	assert_ptr_equal(scenario_test_devices(r, "a"), scenario_test_devices(r, "b"));
}

/*
 * The same through a MIG 1g.10gb device (16 of the H100's 132 SMs: capacity
 * 16/132 = 0.121212) shared by two pods of demand 0.12. Alone a pod would run
 * at min(1, 0.121212 / 0.12) = 1. Shared, time-sliced (the MIG default config
 * sets no interval: the default slice): each gets 0.121212 x (2000/2050) / 2
 * = 0.0591278 of a GPU, speed 0.0591278 / 0.12 = 0.492732, so 1 h takes
 * 3600 / 0.492732 = 7306.2 s. Main ran both at full speed (3600 s).
 */
static void
test_shared_mig_claim_time_slices(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("claims-mig-shared.yaml", "dra");

	assert_int_equal(r->completed, 2);
	assert_true(llabs(scenario_test_pod_record(r, "a", NULL)->end - (SimTime)(7306.2 * S)) <
	            S / 10);
	assert_true(llabs(scenario_test_pod_record(r, "b", NULL)->end - (SimTime)(7306.2 * S)) <
	            S / 10);
	assert_string_equal(scenario_test_devices(r, "a"), "mig:node-0/gpu-0/mig-1g.10gb-0");
}

/*
 * A device's mode does not outlive the claim that set it. `capped` (MPS,
 * clients at 50 % of the SMs, demand 1.0) runs alone at 0.5: its 30 min of
 * work end at 1 h. Then `a` and `b` share a claim without config on the same
 * GPU: the driver's default, time-slicing Default, 1 h of work each ends
 * 7380 s later (as in test_shared_claim_time_slices), at 10980 s. Before, the
 * GPU stayed in MPS (uncapped clients, no switch cost): 7200 s, ending at
 * 10800 s.
 */
static void
test_claim_without_config_resets_the_device(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("claims-reset.yaml", "dra");

	assert_int_equal(scenario_test_pod_record(r, "capped", NULL)->end, 3600 * S);
	assert_int_equal(scenario_test_pod_record(r, "a", NULL)->end, 10980 * S);
	assert_int_equal(scenario_test_pod_record(r, "b", NULL)->end, 10980 * S);
}

/*
 * One pod with three claims (1 GPU, 2 GPUs, 1 dra.net NIC) on a DGX H100:
 * it runs on the three GPUs (1 h of 2 h on 3 of 8 GPUs: ratio 3/16 = 0.1875)
 * and lists the NIC after them with its kind. Main did not list the NIC.
 */
static void
test_several_claims_and_a_nic(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("claims-multi.yaml", "dra");

	assert_int_equal(r->completed, 1);
	assert_true(fabs(r->alloc_ratio_mean - 0.1875) < 1e-9);
	assert_string_equal(
	        scenario_test_devices(r, "multi"),
	        "gpu:dgx-0/gpu-0,gpu:dgx-0/gpu-1,gpu:dgx-0/gpu-2,nic:dgx-0/pci-0000-1c-00-0");
}

/*
 * Device ids join across modes: seven 1g.10gb notebooks take the seven
 * instances of an H100 in both worlds, and each names the same physical
 * instance (node, GPU, profile, placement start) in both. Main wrote the DRA
 * device name in one world and the MIG UUID in the other.
 */
static void
test_device_ids_join_across_modes(void **state)
{
	g_autoptr(ScenarioResult) dra = scenario_test_run_mode("mig7.yaml", "dra");
	g_autoptr(ScenarioResult) ext = scenario_test_run_mode("mig7.yaml", "extended");

	assert_string_equal(scenario_test_devices(dra, "notebook-0"),
	                    "mig:node-0/gpu-0/mig-1g.10gb-0");
	for (guint i = 0; i < 7; i++) {
		g_autofree char *name = g_strdup_printf("notebook-%u", i);

		assert_string_equal(scenario_test_devices(dra, name),
		                    scenario_test_devices(ext, name));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_runs_on_every_device),
		cmocka_unit_test(test_first_available_fallback_starts_at_once),
		cmocka_unit_test(test_shared_claim_time_slices),
		cmocka_unit_test(test_shared_mig_claim_time_slices),
		cmocka_unit_test(test_claim_without_config_resets_the_device),
		cmocka_unit_test(test_several_claims_and_a_nic),
		cmocka_unit_test(test_device_ids_join_across_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
