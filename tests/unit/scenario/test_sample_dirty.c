/*
 * test_sample_dirty.c: the hourly sampler reads only the nodes the
 * simulation logged as changed (sim/measure/measure_sample.c,
 * cluster_sim_log_node_changes), and its figures are what reading every
 * node would give. data/sample-dirty.yaml: three one-GPU nodes, samples at
 * 0, 1, 2, 3 and 4 h; `solo` holds gpu-0 from 30 min to 2 h 30 min; gpu-2
 * is cordoned at 1 h 30 min.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "measure_sample-private.h"
#include "scenario_test_util.h"

#define assert_near(a, b) assert_near_at((a), (b), __FILE__, __LINE__)

static void
assert_near_at(double got, double want, const char *file, int line)
{
	if (fabs(got - want) > 1e-12) {
		print_error("%s:%d: got %.17g, want %.17g\n", file, line, got, want);
		fail();
	}
}

/*
 * Worked by hand, tick by tick (3 GPUs in all):
 * - 0 h: the first tick reads all 3 nodes; nothing runs: occupancy 0.
 * - 1 h: solo bound on gpu-0 at 30 min: gpu-0 alone is read (4 reads);
 *   occupancy 1/3. Were gpu-0 not read again, it would stay 0.
 * - 2 h: gpu-2 cordoned: gpu-2 alone is read (5); occupancy 1/3.
 * - 3 h: solo completed at 2 h 30 min: gpu-0 read (6); occupancy 0.
 * - 4 h: nothing changed: no node read (still 6); occupancy 0.
 * Fragmentation (one task, one whole GPU, weight 1; docs/reports.md): a
 * free schedulable GPU hosts it (0), a busy node has no free GPU (0), the
 * idle cordoned gpu-2 cannot host it and wastes its 1 free GPU; per sample
 * the sum over nodes / 3 GPUs: 0, 0, 1/3, 1/3, 1/3, mean 1/5. Had the
 * cordon not been read, every sample would be 0.
 */
static void
test_only_changed_nodes_are_read(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("sample-dirty.yaml", "dra");
	const ScenarioSampler *sampler = r->sampler;
	const GArray *occupancy = scenario_sample__get_occupancy(sampler);
	const double want[] = { 0.0, 1.0 / 3, 1.0 / 3, 0.0, 0.0 };
	const double gpu0[] = { 0.0, 1.0, 1.0, 0.0, 0.0 };
	const SampleNode *first = sampler->nodes->pdata[0];

	assert_int_equal(occupancy->len, G_N_ELEMENTS(want));
	for (guint i = 0; i < occupancy->len; i++)
		assert_near(g_array_index(occupancy, double, i), want[i]);
	/* the heat map's row of gpu-0, appended at every tick whether read or not */
	assert_string_equal(first->name, "gpu-0");
	assert_int_equal(first->busy->len, G_N_ELEMENTS(gpu0));
	for (guint i = 0; i < first->busy->len; i++)
		assert_near(g_array_index(first->busy, double, i), gpu0[i]);
	assert_near(scenario_sample__get_fragmentation_mean(sampler), 1.0 / 5);
	assert_int_equal(scenario_sample__get_nodes_read(sampler), 6);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_only_changed_nodes_are_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
