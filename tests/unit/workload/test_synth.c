/*
 * test_synth.c: synthetic workload generators.
 *
 * Invariants under test: items come out sorted by (arrival, source, index)
 * and are identical for the same seed; fixed-rate and burst times are exact;
 * Poisson and diurnal counts match their rates within 5 standard deviations;
 * the template mix follows its weights; changing the duration or demand model
 * leaves arrival times and templates unchanged (separate streams); bad specs
 * are refused with the field path.
 */
#include <string.h>

/* assert_close and test_seed: the engine tests' helpers serve here too */
#include "../engine/test-engine.h"
#include "workload.h"

static WorkloadSynthSpec
base_spec(WorkloadArrivalKind kind, double rate)
{
	return (WorkloadSynthSpec){
		.name = "test",
		.arrival = { .kind = kind, .rate_per_s = rate },
		.start = 0,
		.end = SIM_TIME_NEVER,
		.duration = { .kind = WORKLOAD_DIST_FIXED, .value = 60.0 },
		.demand = { .kind = WORKLOAD_DIST_FIXED, .value = 0.5 },
	};
}

static GArray *
generate(const WorkloadSynthSpec *spec, guint n, SimTime horizon, uint64_t seed)
{
	g_autoptr(SimRngSet) rngs = sim_rng_set_new(seed);
	g_autoptr(GError) error = NULL;
	GArray *items = workload_synth_generate(spec, n, horizon, rngs, &error);

	if (items == NULL) {
		fail_msg("generate: %s", error->message);
	}
	return items;
}

static void
assert_sorted(GArray *items)
{
	for (guint i = 1; i < items->len; i++) {
		const WorkloadItem *a = &g_array_index(items, WorkloadItem, i - 1);
		const WorkloadItem *b = &g_array_index(items, WorkloadItem, i);
		assert_true(a->arrival < b->arrival ||
		            (a->arrival == b->arrival &&
		             (a->source < b->source ||
		              (a->source == b->source && a->index < b->index))));
	}
}

static void
test_synth__fixed_rate_exact(void **state)
{
	WorkloadSynthSpec spec = base_spec(WORKLOAD_ARRIVAL_FIXED_RATE, 3.0); /* every 1/3 s */
	spec.start = 10 * SIM_TIME_S;
	spec.max_items = 7;
	g_autoptr(GArray) items = generate(&spec, 1, SIM_TIME_NEVER, 1);

	/* k-th at start + round(k * 333333.33 µs): no drift from summed gaps */
	static const SimTime expect[] = { 0, 333333, 666667, 1000000, 1333333, 1666667, 2000000 };
	assert_int_equal(items->len, 7);
	for (guint i = 0; i < items->len; i++) {
		const WorkloadItem *it = &g_array_index(items, WorkloadItem, i);
		assert_int_equal(it->arrival, spec.start + expect[i]);
		assert_int_equal(it->duration, 60 * SIM_TIME_S);
		assert_close(it->demand, 0.5, 0.0);
		assert_int_equal(it->index, i);
	}
}

static void
test_synth__burst(void **state)
{
	WorkloadSynthSpec spec = base_spec(WORKLOAD_ARRIVAL_BURST, 0);
	spec.arrival.burst_size = 3;
	spec.arrival.burst_period = 5 * SIM_TIME_MIN;
	spec.end = 12 * SIM_TIME_MIN; /* bursts at 0, 5m, 10m */
	g_autoptr(GArray) items = generate(&spec, 1, SIM_TIME_NEVER, 1);

	assert_int_equal(items->len, 9);
	for (guint i = 0; i < items->len; i++) {
		assert_int_equal(g_array_index(items, WorkloadItem, i).arrival,
		                 (SimTime)(i / 3) * 5 * SIM_TIME_MIN);
	}
}

static void
test_synth__poisson_rate_and_determinism(void **state)
{
	uint64_t seed = test_seed();
	WorkloadSynthSpec spec = base_spec(WORKLOAD_ARRIVAL_POISSON, 2.0);
	spec.duration = (WorkloadDist){ .kind = WORKLOAD_DIST_EXPONENTIAL, .mean = 100.0 };
	g_autoptr(GArray) a = generate(&spec, 1, 10000 * SIM_TIME_S, seed);
	g_autoptr(GArray) b = generate(&spec, 1, 10000 * SIM_TIME_S, seed);

	/* 20000 expected; sd = sqrt(20000) ~ 141 */
	assert_in_range(a->len, 20000 - 710, 20000 + 710);
	assert_int_equal(a->len, b->len);
	assert_memory_equal(a->data, b->data, a->len * sizeof(WorkloadItem));
	assert_sorted(a);
	double sum = 0;
	for (guint i = 0; i < a->len; i++) {
		const WorkloadItem *it = &g_array_index(a, WorkloadItem, i);
		assert_true(it->arrival < 10000 * SIM_TIME_S);
		sum += sim_time_to_seconds(it->duration);
	}
	assert_close(sum / a->len, 100.0, 5 * 100.0 / sqrt(a->len));
}

static void
test_synth__diurnal(void **state)
{
	WorkloadSynthSpec spec = base_spec(WORKLOAD_ARRIVAL_DIURNAL, 1.0);
	spec.arrival.amplitude = 0.8;
	spec.arrival.peak = 12 * SIM_TIME_HOUR;
	g_autoptr(GArray) items = generate(&spec, 1, 10 * SIM_TIME_DAY, test_seed());
	guint near_peak = 0, near_trough = 0;

	/* mean rate 1/s over 10 days: 864000 expected, sd ~ 930 */
	assert_in_range(items->len, 864000 - 4650, 864000 + 4650);
	assert_sorted(items);
	for (guint i = 0; i < items->len; i++) {
		SimTime tod = g_array_index(items, WorkloadItem, i).arrival % SIM_TIME_DAY;
		near_peak += tod >= 11 * SIM_TIME_HOUR && tod < 13 * SIM_TIME_HOUR;
		near_trough += tod < SIM_TIME_HOUR || tod >= 23 * SIM_TIME_HOUR;
	}
	/* integral of 1 + 0.8 cos over +-1 h around the peak / trough, times 10 days:
	 * 72000 * (1 +- 0.8 * sin(pi/12) / (pi/12)) */
	double k = 0.8 * sin(G_PI / 12) / (G_PI / 12);
	assert_close(near_peak, 72000 * (1 + k), 5 * sqrt(72000 * (1 + k)));
	assert_close(near_trough, 72000 * (1 - k), 5 * sqrt(72000 * (1 - k)));
}

static void
test_synth__template_mix(void **state)
{
	static const double weights[] = { 1.0, 0.0, 3.0 };
	WorkloadSynthSpec spec = base_spec(WORKLOAD_ARRIVAL_POISSON, 10.0);
	spec.template_weights = weights;
	spec.n_templates = 3;
	spec.max_items = 40000;
	g_autoptr(GArray) items = generate(&spec, 1, SIM_TIME_NEVER, test_seed());
	guint count[3] = { 0 };

	assert_int_equal(items->len, 40000);
	for (guint i = 0; i < items->len; i++) {
		count[g_array_index(items, WorkloadItem, i).template_index]++;
	}
	assert_int_equal(count[1], 0);
	assert_close(count[0] / 40000.0, 0.25, 5 * sqrt(0.25 * 0.75 / 40000));
}

static void
test_synth__streams_are_independent(void **state)
{
	static const double weights[] = { 1.0, 1.0 };
	WorkloadSynthSpec spec = base_spec(WORKLOAD_ARRIVAL_POISSON, 1.0);
	spec.template_weights = weights;
	spec.n_templates = 2;
	spec.max_items = 500;
	g_autoptr(GArray) a = generate(&spec, 1, SIM_TIME_NEVER, 5);

	spec.duration = (WorkloadDist){ .kind = WORKLOAD_DIST_LOGNORMAL, .mu = 3.0, .sigma = 1.0 };
	spec.demand = (WorkloadDist){ .kind = WORKLOAD_DIST_UNIFORM, .lo = 0.1, .hi = 1.0 };
	g_autoptr(GArray) b = generate(&spec, 1, SIM_TIME_NEVER, 5);

	assert_int_equal(a->len, b->len);
	guint durations_differ = 0;
	for (guint i = 0; i < a->len; i++) {
		const WorkloadItem *x = &g_array_index(a, WorkloadItem, i);
		const WorkloadItem *y = &g_array_index(b, WorkloadItem, i);
		assert_int_equal(x->arrival, y->arrival);
		assert_int_equal(x->template_index, y->template_index);
		durations_differ += x->duration != y->duration;
		assert_true(y->demand >= 0.1 && y->demand < 1.0);
	}
	assert_int_equal(durations_differ, a->len);
}

static void
test_synth__merge_and_dists(void **state)
{
	static const double samples[] = { 30, 60, 90 };
	WorkloadSynthSpec specs[2] = { base_spec(WORKLOAD_ARRIVAL_FIXED_RATE, 1.0),
		                       base_spec(WORKLOAD_ARRIVAL_FIXED_RATE, 0.5) };
	specs[0].name = "a";
	specs[1].name = "b";
	specs[1].duration = (WorkloadDist){ .kind = WORKLOAD_DIST_EMPIRICAL,
		                            .samples = samples,
		                            .n_samples = 3,
		                            .discrete = TRUE };
	specs[1].demand = (WorkloadDist){
		.kind = WORKLOAD_DIST_EXPONENTIAL, .mean = 5.0, .min = 0.0, .max = 1.0
	};
	g_autoptr(GArray) items = generate(specs, 2, 10 * SIM_TIME_S, 1);

	/* a: 0..9 s (10 items), b: 0, 2, .., 8 s (5 items); ties: source a first */
	assert_int_equal(items->len, 15);
	assert_sorted(items);
	assert_int_equal(g_array_index(items, WorkloadItem, 0).source, 0);
	assert_int_equal(g_array_index(items, WorkloadItem, 1).source, 1);
	for (guint i = 0; i < items->len; i++) {
		const WorkloadItem *it = &g_array_index(items, WorkloadItem, i);
		if (it->source == 1) {
			SimTime d = it->duration / SIM_TIME_S;
			assert_true(d == 30 || d == 60 || d == 90);
			assert_true(it->demand >= 0.0 && it->demand <= 1.0); /* clamped */
		}
	}
}

static void
test_synth__errors(void **state)
{
	g_autoptr(SimRngSet) rngs = sim_rng_set_new(1);
	static const double bad_weights[] = { 1.0, -2.0 };
	struct {
		WorkloadSynthSpec spec;
		const char *message;
	} rows[] = {
		{ base_spec(WORKLOAD_ARRIVAL_POISSON, 0.0), "arrival.rate: expected a rate" },
		{ base_spec(WORKLOAD_ARRIVAL_BURST, 0.0),
		  "arrival.burstSize: expected at least 1" },
		{ base_spec(WORKLOAD_ARRIVAL_DIURNAL, 1.0), NULL }, /* amplitude set below */
		{ base_spec(WORKLOAD_ARRIVAL_POISSON, 1.0), "duration.mean: expected" },
		{ base_spec(WORKLOAD_ARRIVAL_POISSON, 1.0), "templates[1].weight: expected" },
		{ base_spec(WORKLOAD_ARRIVAL_POISSON, 1.0),
		  "demand.samples: expected at least one" },
	};
	rows[2].spec.arrival.amplitude = 1.5;
	rows[2].message = "arrival.amplitude: expected a number in [0, 1]";
	rows[3].spec.duration = (WorkloadDist){ .kind = WORKLOAD_DIST_EXPONENTIAL, .mean = -1 };
	rows[4].spec.template_weights = bad_weights;
	rows[4].spec.n_templates = 2;
	rows[5].spec.demand = (WorkloadDist){ .kind = WORKLOAD_DIST_EMPIRICAL };

	for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(WorkloadSynth) gen = workload_synth_new(&rows[i].spec, rngs, &error);
		assert_null(gen);
		assert_true(g_error_matches(error, WORKLOAD_ERROR, WORKLOAD_ERROR_INVALID));
		if (!g_str_has_prefix(error->message, rows[i].message)) {
			fail_msg("row %u: got \"%s\"", i, error->message);
		}
	}

	/* through generate(): the spec index is prefixed; unbounded sources refused */
	g_autoptr(GError) error = NULL;
	WorkloadSynthSpec two[2] = { base_spec(WORKLOAD_ARRIVAL_POISSON, 1.0),
		                     base_spec(WORKLOAD_ARRIVAL_POISSON, -1.0) };
	assert_null(workload_synth_generate(two, 2, SIM_TIME_S, rngs, &error));
	assert_string_equal(error->message,
	                    "specs[1].arrival.rate: expected a rate in (0, 1e6] per second");
	g_clear_error(&error);
	assert_null(workload_synth_generate(two, 1, SIM_TIME_NEVER, rngs, &error));
	assert_true(g_str_has_prefix(error->message, "specs[0].end: expected an end"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_synth__fixed_rate_exact),
		cmocka_unit_test(test_synth__burst),
		cmocka_unit_test(test_synth__poisson_rate_and_determinism),
		cmocka_unit_test(test_synth__diurnal),
		cmocka_unit_test(test_synth__template_mix),
		cmocka_unit_test(test_synth__streams_are_independent),
		cmocka_unit_test(test_synth__merge_and_dists),
		cmocka_unit_test(test_synth__errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
