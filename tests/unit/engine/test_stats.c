/*
 * test_stats.c: gauges, counters and samples against hand-computed values.
 *
 * Invariants under test: the time-weighted mean is the integral of the step
 * function divided by the elapsed time; quantiles are Hyndman-Fan type 7 over
 * the sorted samples, independent of insertion order; histogram bins are
 * half-open except the last; counters report in registration order.
 */
#include "test-engine.h"

static void
test_stats__gauge(void **state)
{
	SimGauge g;

	sim_gauge_init(&g, 0, 0.0);
	assert_close(sim_gauge_mean(&g, 0), 0.0, 0.0);
	sim_gauge_set(&g, 10, 2.0); /* 0 over [0,10) */
	sim_gauge_add(&g, 30, 3.0); /* 2 over [10,30), then 5 */
	sim_gauge_set(&g, 30, 4.0); /* zero-length step: no area */
	/* (0*10 + 2*20 + 4*10) / 40 */
	assert_close(sim_gauge_mean(&g, 40), 80.0 / 40.0, 1e-12);
	assert_close(g.min, 0.0, 0.0);
	assert_close(g.max, 5.0, 0.0);
	assert_close(g.value, 4.0, 0.0);

	/* a gauge that starts late averages only over its own span */
	SimGauge late;
	sim_gauge_init(&late, 100, 1.0);
	sim_gauge_set(&late, 150, 3.0);
	assert_close(sim_gauge_mean(&late, 200), (1.0 * 50 + 3.0 * 50) / 100.0, 1e-12);
}

static void
test_stats__quantiles(void **state)
{
	g_autoptr(SimSamples) s = sim_samples_new();
	static const double values[] = { 7, 3, 10, 1, 9, 2, 8, 6, 4, 5 };

	assert_true(isnan(sim_samples_quantile(s, 0.5)));
	assert_true(isnan(sim_samples_mean(s)));
	for (guint i = 0; i < G_N_ELEMENTS(values); i++) {
		sim_samples_add(s, values[i]);
	}
	assert_int_equal(sim_samples_get_count(s), 10);
	/* type 7: h = (n-1)q; x[floor h] + frac(h) * (x[floor h + 1] - x[floor h]) */
	assert_close(sim_samples_quantile(s, 0.5), 5.5, 1e-12);
	assert_close(sim_samples_quantile(s, 0.9), 9.1, 1e-12);
	assert_close(sim_samples_quantile(s, 0.99), 9.91, 1e-12);
	assert_close(sim_samples_quantile(s, 0.0), 1.0, 0.0);
	assert_close(sim_samples_quantile(s, 1.0), 10.0, 0.0);
	assert_close(sim_samples_mean(s), 5.5, 1e-12);
	assert_close(sim_samples_min(s), 1.0, 0.0);
	assert_close(sim_samples_max(s), 10.0, 0.0);

	/* adding after a sort re-sorts */
	sim_samples_add(s, 0.0);
	assert_close(sim_samples_quantile(s, 0.5), 5.0, 1e-12);
	assert_close(sim_samples_min(s), 0.0, 0.0);
}

static void
test_stats__histogram(void **state)
{
	g_autoptr(SimSamples) s = sim_samples_new();
	static const double values[] = { -1, 0, 0.5, 1, 1.5, 2, 2, 3, 3.5 };
	static const double edges[] = { 0, 1, 2, 3 };
	uint64_t counts[3];

	for (guint i = 0; i < G_N_ELEMENTS(values); i++) {
		sim_samples_add(s, values[i]);
	}
	/* [0,1): 0, 0.5   [1,2): 1, 1.5   [2,3]: 2, 2, 3   outside: -1, 3.5 */
	assert_int_equal(sim_samples_histogram(s, edges, 3, counts), 2);
	assert_int_equal(counts[0], 2);
	assert_int_equal(counts[1], 2);
	assert_int_equal(counts[2], 3);
}

static void
test_stats__counters(void **state)
{
	g_autoptr(SimCounters) c = sim_counters_new();

	guint filter = sim_counters_register(c, "filter_calls");
	guint alloc = sim_counters_register(c, "allocator_calls");
	assert_int_equal(sim_counters_register(c, "filter_calls"), filter);
	sim_counters_add(c, filter, 3);
	sim_counters_add(c, alloc, 1);
	sim_counters_add(c, filter, 4);
	assert_int_equal(sim_counters_get_length(c), 2);
	assert_string_equal(sim_counters_get_name(c, 0), "filter_calls");
	assert_string_equal(sim_counters_get_name(c, 1), "allocator_calls");
	assert_int_equal(sim_counters_get(c, filter), 7);
	assert_int_equal(sim_counters_lookup(c, "allocator_calls"), 1);
	assert_int_equal(sim_counters_lookup(c, "never"), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats__gauge),
		cmocka_unit_test(test_stats__quantiles),
		cmocka_unit_test(test_stats__histogram),
		cmocka_unit_test(test_stats__counters),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
