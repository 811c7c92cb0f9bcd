/*
 * test_frag.c: FGD fragmentation of one node (sim/measure/measure_frag.c)
 * against figures worked out by hand from the definition in docs/reports.md:
 * whole-GPU and replica tasks on plain GPUs, a task the node cannot host,
 * a static MIG layout (free instances of another profile are fragments) and
 * DynamicMIG (what could still be created), and a cordoned node.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "hw_test_catalog.h"
#include "measure-private.h"

/* cmocka's assert_float_equal compares floats: these figures need doubles. */
#define assert_near(a, b) assert_near_at((a), (b), __FILE__, __LINE__)

static void
assert_near_at(double got, double want, const char *file, int line)
{
	if (fabs(got - want) > 1e-12) {
		print_error("%s:%d: got %.17g, want %.17g\n", file, line, got, want);
		fail();
	}
}

static GArray *
tasks_of(const ScenarioTask *t, guint n)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(ScenarioTask));

	g_array_append_vals(a, t, n);
	return a;
}

/* A mix of one task (weight 1): @count devices of @kind, MIG @profile or NULL. */
static GArray *
only_task(ScenarioTaskKind kind, const char *profile, guint count)
{
	ScenarioTask t = { kind, profile, count, 1.0 };

	return tasks_of(&t, 1);
}

/* A plain GPU with @tenants pods out of @replicas (1: exclusive). */
static ScenarioGpuState
plain(guint tenants, guint replicas)
{
	ScenarioGpuState s = { .model = hw_catalog_lookup_gpu(catalog, "h100-sxm5-80gb") };

	s.replicas = replicas;
	s.tenants = tenants;
	s.pods = tenants;
	s.full_busy = tenants > 0;
	s.used = tenants == 0 ? 0.0 : replicas > 1 ? (double)tenants / replicas : 1.0;
	return s;
}

static void
test_whole_and_replica(void **state)
{
	ScenarioGpuState exclusive[4] = { plain(1, 1), plain(0, 1), plain(0, 1), plain(0, 1) };
	ScenarioGpuState shared[4] = { plain(4, 4), plain(3, 4), plain(0, 4), plain(0, 4) };
	ScenarioTask mix[2] = { { SCENARIO_TASK_WHOLE, NULL, 1, 0.5 },
		                { SCENARIO_TASK_REPLICA, NULL, 1, 0.5 } };
	g_autoptr(GArray) one = only_task(SCENARIO_TASK_WHOLE, NULL, 1);
	g_autoptr(GArray) two = tasks_of(mix, 2);

	/* three free whole GPUs: all usable */
	assert_near(scenario_frag__node(exclusive, 4, one), 0.0);
	/* free 0 + 0.25 + 1 + 1; the whole-GPU task cannot use the quarter (0.5 x 0.25),
	 * the replica task can use all of it */
	assert_near(scenario_frag__node(shared, 4, two), 0.125);
}

/* A task of 4 replicas fits 0 + 1 + 4 + 4 free replicas on three GPUs (the
 * device plugin may give it several of one GPU): nothing wasted; one of 10
 * does not fit and wastes the 2.25 free GPUs. */
static void
test_replicas_of_one_gpu(void **state)
{
	ScenarioGpuState shared[4] = { plain(4, 4), plain(3, 4), plain(0, 4), plain(0, 4) };
	g_autoptr(GArray) a = only_task(SCENARIO_TASK_REPLICA, NULL, 4);
	g_autoptr(GArray) b = only_task(SCENARIO_TASK_REPLICA, NULL, 10);

	assert_near(scenario_frag__node(shared, 4, a), 0.0);
	assert_near(scenario_frag__node(shared, 4, b), 2.25);
}

static void
test_not_hostable(void **state)
{
	ScenarioGpuState gpus[4] = { plain(1, 1), plain(1, 1), plain(0, 1), plain(0, 1) };
	g_autoptr(GArray) a = only_task(SCENARIO_TASK_WHOLE, NULL, 4);
	g_autoptr(GArray) b = only_task(SCENARIO_TASK_WHOLE, NULL, 2);

	/* a 4-GPU task on a node with 2 free GPUs: both are wasted for it */
	assert_near(scenario_frag__node(gpus, 4, a), 2.0);
	assert_near(scenario_frag__node(gpus, 4, b), 0.0);
	/* full node: nothing free, nothing fragmented */
	gpus[2] = plain(1, 1);
	gpus[3] = plain(1, 1);
	assert_near(scenario_frag__node(gpus, 4, a), 0.0);
}

static void
test_static_mig(void **state)
{
	/* H100 all-balanced: 2g.20gb@0, 1g.10gb@2, 1g.10gb@3, 3g.40gb@4; the 1g@2 is busy */
	ScenarioGpuState g = { .model = hw_catalog_lookup_gpu(catalog, "h100-sxm5-80gb") };
	ScenarioTask mix[2] = { { SCENARIO_TASK_MIG, "1g.10gb", 1, 0.8 },
		                { SCENARIO_TASK_MIG, "3g.40gb", 1, 0.2 } };
	g_autoptr(GArray) tasks = tasks_of(mix, 2);
	g_autoptr(GArray) any_tasks = only_task(SCENARIO_TASK_MIG_ANY, NULL, 1);
	g_autoptr(GArray) whole_tasks = only_task(SCENARIO_TASK_WHOLE, NULL, 1);

	g.mig = TRUE;
	g.replicas = 1;
	g.used_compute = 1;
	g.used_mask = 1u << 2;
	g.used = 1.0 / 7;
	g.free_profiles[0] = "2g.20gb";
	g.free_profiles[1] = "1g.10gb";
	g.free_profiles[2] = "3g.40gb";
	g.n_free = 3;
	/* free 6/7; 1g can use one 1g (1/7): 5/7 wasted; 3g the 3g (3/7): 3/7 wasted */
	assert_near(scenario_frag__node(&g, 1, tasks), 0.8 * 5 / 7 + 0.2 * 3 / 7);
	/* any MIG device: every free instance (2 + 1 + 3 slices), nothing wasted */
	assert_near(scenario_frag__node(&g, 1, any_tasks), 0.0);
	/* a whole-GPU task cannot use a MIG GPU at all */
	assert_near(scenario_frag__node(&g, 1, whole_tasks), 6.0 / 7);
}

static void
test_dynamic_mig(void **state)
{
	/* DynamicMIG H100 with one 1g.10gb at memory slice 0 */
	ScenarioGpuState g = { .model = hw_catalog_lookup_gpu(catalog, "h100-sxm5-80gb") };
	g_autoptr(GArray) t3 = only_task(SCENARIO_TASK_MIG, "3g.40gb", 1);
	g_autoptr(GArray) t7 = only_task(SCENARIO_TASK_MIG, "7g.80gb", 1);
	g_autoptr(GArray) t1 = only_task(SCENARIO_TASK_MIG, "1g.10gb", 1);

	g.dynamic = TRUE;
	g.replicas = 1;
	g.used_compute = 1;
	g.used_mask = 1u << 0;
	g.used = 1.0 / 7;
	/* 3g fits only at start 4 (start 0 is taken): 3/7 of the 6/7 free is usable */
	assert_near(scenario_frag__node(&g, 1, t3), 3.0 / 7);
	/* 7g cannot be created: the node cannot host it, all 6/7 are wasted */
	assert_near(scenario_frag__node(&g, 1, t7), 6.0 / 7);
	/* 1g: six more fit (starts 1..6), every free compute slice usable */
	assert_near(scenario_frag__node(&g, 1, t1), 0.0);
}

static void
test_cordoned(void **state)
{
	ScenarioGpuState gpus[2] = { plain(0, 1), plain(0, 1) };
	g_autoptr(GArray) tasks = only_task(SCENARIO_TASK_WHOLE, NULL, 1);

	gpus[0].unusable = gpus[1].unusable = TRUE;
	assert_near(scenario_frag__node(gpus, 2, tasks), 2.0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_and_replica),
		cmocka_unit_test(test_replicas_of_one_gpu),
		cmocka_unit_test(test_not_hostable),
		cmocka_unit_test(test_static_mig),
		cmocka_unit_test(test_dynamic_mig),
		cmocka_unit_test(test_cordoned),
	};

	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
