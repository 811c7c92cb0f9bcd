/*
 * test_fgd_worlds.c: the FGD protocol in each world (research.h) on one tiny
 * trace worked by hand, the world API (names, parse, info, refusals) and the
 * refusals' messages.
 *
 * The trace pins each pod to one node by GPU model, so the node choice is the
 * same under every policy and every order; the pods that contend for one node
 * are alike, so which of them fail does not matter either:
 *
 *   n0  model A, 2 GPUs   a1..a4: 0.25 GPU each (spec A)         1000 milli
 *   n1  model B, 2 GPUs   d: 2 whole GPUs (spec B)               2000
 *   n2  model C, 1 GPU    c: 1 whole GPU (spec C)                1000
 *   n3  model D, 1 GPU    b: 0.6 GPU (spec D)                     600
 *   (no node of model E)  z: 2 x 0.7 GPU (spec E): always fails  1400
 *
 * Capacity 6 GPUs = 6000 milli and the pods ask 6000 in all, so arrival reaches
 * 100 % at the last pod, in every order: the figures at 100 % are the final
 * state's, and the log point at 100 % is that pod's alone (the one before
 * it ends at most at 5750, 95.8 %). unallocated = 100 − placed share / 6000.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "fgd-trace.h"
#include "research-private.h"
#include "research.h"

#define NODES                                                                                      \
	NODES_HEADER "n0,8000,1024,2,A\n"                                                          \
	             "n1,8000,1024,2,B\n"                                                          \
	             "n2,8000,1024,1,C\n"                                                          \
	             "n3,8000,1024,1,D\n"
#define PODS                                                                                       \
	PODS_HEADER "a1,1000,1,1,250,A\n"                                                          \
	            "a2,1000,1,1,250,A\n"                                                          \
	            "a3,1000,1,1,250,A\n"                                                          \
	            "a4,1000,1,1,250,A\n"                                                          \
	            "d,1000,1,2,1000,B\n"                                                          \
	            "c,1000,1,1,1000,C\n"                                                          \
	            "b,1000,1,1,600,D\n"                                                           \
	            "z,1000,1,2,700,E\n"

typedef struct {
	double unallocated, stranded, cotenants_mean, cotenants_max;
	guint failed;
	gboolean frag_defined;
} Expect;

/* Seeds 1..8 (eight pod orders and node orders), with @policy in @config's world. */
static void
check_world(ResearchFgdConfig config, const char *policy, const Expect *want)
{
	g_autoptr(WorkloadTrace) trace = trace_new(NODES, PODS);

	config.policy = policy;
	for (guint64 seed = 1; seed <= 8; seed++) {
		g_autoptr(GError) error = NULL;
		ResearchFgdRun run;

		config.seed = seed;
		assert_true(research_fgd_run(trace, &config, &run, &error));
		assert_int_equal(run.capacity_milli, 6000);
		assert_int_equal(run.pods_offered, 8);
		assert_int_equal(run.pods_failed, want->failed);
		assert_true(run.has_at_100 && run.has[100]);
		assert_true(fabs(run.unallocated_pct[100] - want->unallocated) < 1e-9);
		assert_true(fabs(run.stranded_pct - want->stranded) < 1e-9);
		assert_true(fabs(run.cotenants_mean - want->cotenants_mean) < 1e-9);
		assert_true(fabs(run.cotenants_max - want->cotenants_max) < 1e-9);
		assert_true(run.frag_defined == want->frag_defined);
	}
}

/*
 * gpushare, BestFit (and LeastAllocated, whose GPU pick is best fit too): the
 * four 0.25 pods stack on one GPU of n0 (best fit: the fitting GPU with least
 * free), so all but z run: placed 4600, 76.67 %, unallocated 23.33. Nothing
 * stranded. Pods per GPU: n0 4 and an empty one, d 1 on each of n1's, c 1,
 * b 1: over the 5 GPUs in use (4 + 1 + 1 + 1 + 1) / 5 = 1.6, max 4.
 */
static void
test_worlds__gpushare_by_hand(void **state)
{
	const Expect want = { 100.0 - 76.67, 0.0, 1.6, 4.0, 1, TRUE };

	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_GPUSHARE }, "BestFit", &want);
	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_GPUSHARE }, "LeastAllocated",
	            &want);
}

/*
 * whole: every GPU pod takes whole GPUs. n0's two GPUs take two of the four
 * 0.25 pods, two fail: placed 500 + 2000 + 1000 + 600 = 4100, 68.33 %,
 * unallocated 31.67. Held 2 × 1000 + 2000 + 1000 + 1000 = 6000, stranded
 * (6000 − 4100) / 6000 = 31.67 %. One pod per GPU: mean 1, max 1. Failed: two
 * a's and z. Same under the paper's FGD and kube-scheduler's MostAllocated.
 */
static void
test_worlds__whole_by_hand(void **state)
{
	const Expect want = { 100.0 - 68.33, 1900.0 / 60.0, 1.0, 1.0, 3, TRUE };

	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_WHOLE }, "FGD", &want);
	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_WHOLE }, "MostAllocated", &want);
}

/*
 * time-slicing, 10 replicas a GPU: a 0.25 pod asks ceil(2.5) = 3 replicas
 * (holds 0.3), b 6, c 10, d 2 × 10; n0 has 20 replicas for the a's 12: all
 * but z run, unallocated 23.33 as in gpushare. Stranded 4 × 50 / 6000 =
 * 3.33 %. The device plugin's distributed choice, per replica the GPU with
 * fewest taken (ties: fewest of this pod, then lowest index): a1 takes GPU 0,
 * 1, 0 (taken 2, 1); a2 1, 0, 1 (3, 3); a3 0, 1, 0 (5, 4); a4 1, 0, 1 (6, 6):
 * every a is on both GPUs, 4 pods on each. n1 1 + 1, c 1, b 1: over 6 GPUs
 * (4 + 4 + 1 + 1 + 1 + 1) / 6 = 2, max 4. No fragment in this world.
 *
 * With 4 replicas: an a asks 1 (holds 0.25), b ceil(2.4) = 3 (holds 0.75):
 * stranded 150 / 6000 = 2.5 %; a1..a4 alternate GPU 0, 1, 0, 1: 2 pods on
 * each, mean (2 + 2 + 4 × 1) / 6 = 1.33, max 2.
 */
static void
test_worlds__time_slicing_by_hand(void **state)
{
	const Expect ten = { 100.0 - 76.67, 200.0 / 60.0, 2.0, 4.0, 1, FALSE };
	const Expect four = { 100.0 - 76.67, 150.0 / 60.0, 8.0 / 6.0, 2.0, 1, FALSE };

	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_TIME_SLICING }, "LeastAllocated",
	            &ten);
	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_TIME_SLICING, .replicas = 4 },
	            "MostAllocated", &four);
}

/*
 * dra-capacity, step 10: nothing rounds; the allocator's first fit stacks the
 * four 0.25 shares on n0's GPU 0 (it has room for all four): the gpushare
 * figures (23.33, 0, 1.6, 4). With step 100, a share of 250 rounds up to 300
 * (validRange min 100 + 2 × 100): GPU 0 takes three (900), the fourth goes to
 * GPU 1; b's 600 does not round. Stranded 4 × 50 / 6000 = 3.33 %; pods per
 * GPU (3 + 1 + 1 + 1 + 1 + 1) / 6 = 1.33, max 3. dra-capacity-pick with
 * BestFit picks as first fit here (one GPU in use at a time).
 */
static void
test_worlds__dra_capacity_by_hand(void **state)
{
	const Expect fine = { 100.0 - 76.67, 0.0, 1.6, 4.0, 1, TRUE };
	const Expect coarse = { 100.0 - 76.67, 200.0 / 60.0, 8.0 / 6.0, 3.0, 1, TRUE };

	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_DRA_CAPACITY }, "FGD", &fine);
	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_DRA_CAPACITY }, "LeastAllocated",
	            &fine);
	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_DRA_CAPACITY_PICK }, "BestFit",
	            &fine);
	check_world(
	        (ResearchFgdConfig){ .world = RESEARCH_WORLD_DRA_CAPACITY, .capacity_step = 100 },
	        "GpuPacking", &coarse);
}

/*
 * dra-capacity-1.34 (the allocator's re-check reads device i for a claim's
 * i-th GPU, kubernetes#133705): a one-GPU pod fits only while GPU 0 has room.
 * Step 10: the four 0.25 shares all fit on n0's GPU 0 (1000), d takes n1's
 * GPUs 0 and 1 (both idle), c and b their node's GPU 0: dra-capacity's
 * figures (unallocated 23.33, stranded 0, 1.6 pods per GPU, max 4), but no
 * fragment in this world. Step 100: a share of 250 holds 300; GPU 0 takes
 * three (900), the fourth fails on GPU 0's 100 though GPU 1 is idle (in
 * dra-capacity it goes there). Placed 3 × 250 + 2000 + 1000 + 600 = 4350,
 * 72.5 %: unallocated 27.5. Failed: that a and z. Stranded 3 × 50 / 6000 =
 * 2.5 %. Pods per GPU over the 5 in use (3 + 1 + 1 + 1 + 1) / 5 = 1.4, max 3.
 */
static void
test_worlds__dra_capacity_134_by_hand(void **state)
{
	const Expect fine = { 100.0 - 76.67, 0.0, 1.6, 4.0, 1, FALSE };
	const Expect coarse = { 27.5, 2.5, 1.4, 3.0, 2, FALSE };

	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_DRA_CAPACITY_134 },
	            "LeastAllocated", &fine);
	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_DRA_CAPACITY_134,
	                                 .capacity_step = 100 },
	            "FGD", &coarse);
	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_DRA_CAPACITY_134,
	                                 .capacity_step = 100 },
	            "MostAllocated", &coarse);
}

/*
 * One request of count 2 may put both shares on one multi-allocatable device
 * (model/dra; test-research-world-dra): a pod of 2 x 0.4 GPU on a node of one
 * GPU runs in dra-capacity (arrived 800 of 1000: 80 %, unallocated 20, one pod
 * on the GPU), and fails under Open-Gpu-Share, which wants two GPUs
 * (unallocated 100), and in dra-capacity-1.34, whose second slot re-checks
 * device 1 of a one-device slice (model/dra: an index error).
 */
static void
test_worlds__dra_capacity_stacks_one_request(void **state)
{
	g_autoptr(WorkloadTrace) trace =
	        trace_new(NODES_HEADER "n0,8000,1024,1,A\n", PODS_HEADER "p,1000,1,2,400,A\n");
	ResearchFgdConfig config = { .policy = "FGD", .world = RESEARCH_WORLD_DRA_CAPACITY };
	g_autoptr(GError) error = NULL;
	ResearchFgdRun run;

	assert_true(research_fgd_run(trace, &config, &run, &error));
	assert_int_equal(run.pods_failed, 0);
	assert_true(fabs(run.unallocated_pct[80] - 20.0) < 1e-9);
	config.world = RESEARCH_WORLD_GPUSHARE;
	assert_true(research_fgd_run(trace, &config, &run, &error));
	assert_int_equal(run.pods_failed, 1);
	assert_true(fabs(run.unallocated_pct[80] - 100.0) < 1e-9);
	config.world = RESEARCH_WORLD_DRA_CAPACITY_134;
	assert_true(research_fgd_run(trace, &config, &run, &error));
	assert_int_equal(run.pods_failed, 1);
	assert_true(fabs(run.unallocated_pct[80] - 100.0) < 1e-9);
}

/*
 * dra-mig on the default model (A100-SXM4-40GB: 7 compute, 8 memory slices):
 * 0.25 takes 2g.10gb (2 of 7 compute slices: 285 milli), 0.6 takes 7g.40gb
 * (4g's 571 is short: 1000 milli), whole GPUs full devices. First fit puts
 * three 2g on n0's GPU 0 (starts 0, 2, 4; 6 of 7 compute slices), the fourth
 * on GPU 1. All but z run: unallocated 23.33. Stranded 4 × (285 − 250) +
 * (1000 − 600) = 540: 9 %. Instances per GPU (3 + 1 + 1 + 1 + 1 + 1) / 6 =
 * 1.33, max 3. No fragment. Same under BalancedAllocation and
 * RequestedToCapacityRatio. An unknown MIG model lists the capable ones.
 */
static void
test_worlds__dra_mig_by_hand(void **state)
{
	const Expect want = { 100.0 - 76.67, 9.0, 8.0 / 6.0, 3.0, 1, FALSE };
	g_autoptr(GError) error = NULL;
	g_autoptr(ResearchMig) mig = research_mig_new(NULL, &error);
	g_autoptr(WorkloadTrace) trace = trace_new(NODES, PODS);
	ResearchFgdConfig config = { .policy = "LeastAllocated",
		                     .world = RESEARCH_WORLD_DRA_MIG,
		                     .mig_model = "tesla-t4" };
	ResearchFgdRun run;

	assert_non_null(mig);
	assert_string_equal(research_mig_profile_name(mig, research_mig_profile_for(mig, 250)),
	                    "2g.10gb");
	assert_int_equal(research_mig_profile_milli(mig, research_mig_profile_for(mig, 250)), 285);
	assert_string_equal(research_mig_profile_name(mig, research_mig_profile_for(mig, 600)),
	                    "7g.40gb");
	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_DRA_MIG }, "BalancedAllocation",
	            &want);
	check_world((ResearchFgdConfig){ .world = RESEARCH_WORLD_DRA_MIG },
	            "RequestedToCapacityRatio", &want);
	assert_false(research_fgd_run(trace, &config, &run, &error));
	assert_non_null(strstr(error->message, "(MIG-capable models: "));
}

/* The names in ResearchWorld order, parse and info agree; the policies list the paper's first. */
static void
test_worlds__api(void **state)
{
	const char *const *names = research_world_names();
	const char *const *policies = research_policy_names();
	ResearchWorld w;

	assert_int_equal(g_strv_length((char **)names), RESEARCH_N_WORLDS);
	for (guint i = 0; i < RESEARCH_N_WORLDS; i++) {
		assert_true(research_world_parse(names[i], &w));
		assert_int_equal(w, i);
		assert_string_equal(research_world_info(w)->name, names[i]);
	}
	assert_false(research_world_parse("mps", &w));
	assert_string_equal(research_world_info(RESEARCH_WORLD_DRA_CAPACITY)->device_pick,
	                    "first-fit");
	assert_true(research_world_info(RESEARCH_WORLD_DRA_CAPACITY_PICK)->beyond_production);
	assert_string_equal(names[RESEARCH_WORLD_DRA_CAPACITY_134], "dra-capacity-1.34");
	assert_string_equal(research_world_info(RESEARCH_WORLD_DRA_CAPACITY_134)->device_pick,
	                    "first-fit");
	assert_false(research_world_info(RESEARCH_WORLD_DRA_CAPACITY_134)->beyond_production);
	assert_false(research_world_info(RESEARCH_WORLD_DRA_CAPACITY_134)->memory_isolation);
	assert_true(research_world_info(RESEARCH_WORLD_WHOLE)->memory_isolation);
	assert_false(research_world_info(RESEARCH_WORLD_TIME_SLICING)->memory_isolation);
	assert_string_equal(policies[0], "Random");
	assert_string_equal(policies[5], "FGD");
	assert_string_equal(policies[6], "LeastAllocated");
	assert_true(research_policy_beyond_production("FGD"));
	assert_false(research_policy_beyond_production("MostAllocated"));
}

/*
 * The paper's policies are refused in time-slicing and dra-mig, with the
 * reason, by research_world_refuses and by a run; kube-scheduler's run there.
 */
static void
test_worlds__refusals(void **state)
{
	g_autoptr(WorkloadTrace) trace = trace_new(NODES, PODS);
	ResearchFgdConfig config = { .policy = "FGD", .world = RESEARCH_WORLD_TIME_SLICING };
	g_autoptr(GError) ts = NULL;
	g_autoptr(GError) mig = NULL;
	ResearchFgdRun run;

	assert_null(research_world_refuses(RESEARCH_WORLD_TIME_SLICING, "LeastAllocated"));
	assert_null(research_world_refuses(RESEARCH_WORLD_DRA_CAPACITY, "FGD"));
	assert_null(research_world_refuses(RESEARCH_WORLD_DRA_CAPACITY_134, "BestFit"));
	assert_null(research_world_refuses(RESEARCH_WORLD_WHOLE, "Random"));
	assert_non_null(research_world_refuses(RESEARCH_WORLD_DRA_MIG, "BestFit"));
	assert_false(research_fgd_run(trace, &config, &run, &ts));
	assert_string_equal(ts->message,
	                    "policy FGD cannot run in world time-slicing: the paper's policies "
	                    "score each GPU's free share, and under time-slicing the scheduler "
	                    "sees only a node's count of nvidia.com/gpu replicas; which GPU "
	                    "holds them is the device plugin's choice after binding");
	config.world = RESEARCH_WORLD_DRA_MIG;
	config.policy = "GpuPacking";
	assert_false(research_fgd_run(trace, &config, &run, &mig));
	assert_string_equal(mig->message,
	                    "policy GpuPacking cannot run in world dra-mig: the paper's policies "
	                    "score each GPU's free milli-GPU, and a MIG GPU's free room is a set "
	                    "of profile placements, not an amount");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worlds__gpushare_by_hand),
		cmocka_unit_test(test_worlds__whole_by_hand),
		cmocka_unit_test(test_worlds__time_slicing_by_hand),
		cmocka_unit_test(test_worlds__dra_capacity_by_hand),
		cmocka_unit_test(test_worlds__dra_capacity_134_by_hand),
		cmocka_unit_test(test_worlds__dra_capacity_stacks_one_request),
		cmocka_unit_test(test_worlds__dra_mig_by_hand),
		cmocka_unit_test(test_worlds__api),
		cmocka_unit_test(test_worlds__refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
