/*
 * test_rng.c: named RNG streams and the draw helpers.
 *
 * Invariants under test: a stream's seed is FNV-1a + splitmix64 of (seed,
 * name), pinned to values computed independently (Python), so GLib or
 * compiler changes cannot move it; the same (seed, name) gives the same
 * sequence; creating other streams first, or drawing from them, changes no
 * stream; drasim's own taus2 type gives GSL's gsl_rng_taus2 output number for
 * number; the helpers' sample moments match their parameters.
 */
#include <string.h>

#include "test-engine.h"

static void
test_rng__stream_seed_is_pinned(void **state)
{
	/* computed with a 12-line Python FNV-1a/splitmix64, not with this code */
	assert_true(sim_rng_stream_seed(0, "") == UINT64_C(0x5b21f68ffa77f14c));
	assert_true(sim_rng_stream_seed(42, "arrivals") == UINT64_C(0x837269277334a26c));
	assert_true(sim_rng_stream_seed(42, "durations") == UINT64_C(0x86cff95210bfba92));
	assert_true(sim_rng_stream_seed(7, "test.queue") == UINT64_C(0x0a619a99f210a94f));
}

/* A reference taus2 from GSL, seeded as the stream's generator is. */
static gsl_rng *
gsl_twin(SimRng *rng, unsigned long seed)
{
	gsl_rng *ref = gsl_rng_alloc(gsl_rng_taus2);

	gsl_rng_set(ref, seed);
	gsl_rng_set(sim_rng_get_gsl(rng), seed);
	return ref;
}

static void
test_rng__own_taus2_is_gsls(void **state)
{
	/* 0 (GSL seeds 1 instead), the words' lower bounds, the 32-bit edges */
	const unsigned long seeds[] = {
		0, 1, 2, 3, 7, 69069, 0x7fffffffUL, 0xffffffffUL, 123456789
	};
	const uint32_t bounds[] = { 1, 2, 3, 7, 1000, 0x80000001u, 0xffffffffu };

	for (guint s = 0; s < G_N_ELEMENTS(seeds); s++) {
		g_autoptr(SimRng) rng = sim_rng_new(0, "twin");
		gsl_rng *ref = gsl_twin(rng, seeds[s]);

		for (guint i = 0; i < 20000; i++) {
			uint32_t n = bounds[i % G_N_ELEMENTS(bounds)];

			switch (i % 3) {
			case 0:
				assert_int_equal(gsl_rng_get(sim_rng_get_gsl(rng)),
				                 gsl_rng_get(ref));
				break;
			case 1: {
				double x = sim_rng_uniform(rng), y = gsl_rng_uniform(ref);
				assert_memory_equal(&x, &y, sizeof x);
				break;
			}
			default:
				assert_int_equal(sim_rng_uniform_int(rng, n),
				                 gsl_rng_uniform_int(ref, n));
			}
		}
		gsl_rng_free(ref);
	}
}

static void
test_rng__reproducible(void **state)
{
	g_autoptr(SimRng) a = sim_rng_new(42, "arrivals");
	g_autoptr(SimRng) b = sim_rng_new(42, "arrivals");
	g_autoptr(SimRng) other_name = sim_rng_new(42, "durations");
	g_autoptr(SimRng) other_seed = sim_rng_new(43, "arrivals");
	guint same_name = 0, same_seed = 0;

	for (guint i = 0; i < 1000; i++) {
		double x = sim_rng_uniform(a);
		assert_true(x >= 0.0 && x < 1.0);
		double y = sim_rng_uniform(b);
		double z = sim_rng_uniform(other_name);
		double w = sim_rng_uniform(other_seed);
		assert_memory_equal(&x, &y, sizeof x); /* bit for bit */
		same_name += memcmp(&x, &z, sizeof x) == 0;
		same_seed += memcmp(&x, &w, sizeof x) == 0;
	}
	assert_int_equal(same_name, 0);
	assert_int_equal(same_seed, 0);
	assert_string_equal(sim_rng_get_name(a), "arrivals");
}

static void
test_rng__adding_a_stream_changes_no_other(void **state)
{
	g_autoptr(SimRngSet) before = sim_rng_set_new(7);
	g_autoptr(SimRngSet) after = sim_rng_set_new(7);

	/* "after" gains a new stream, created first and drawn from in between */
	SimRng *extra = sim_rng_set_get(after, "failures");
	SimRng *b1 = sim_rng_set_get(before, "arrivals");
	SimRng *a1 = sim_rng_set_get(after, "arrivals");
	assert_ptr_equal(sim_rng_set_get(after, "arrivals"), a1); /* created once */
	for (guint i = 0; i < 1000; i++) {
		sim_rng_uniform(extra);
		assert_int_equal(sim_rng_uniform_int(b1, 1000000),
		                 sim_rng_uniform_int(a1, 1000000));
	}
	assert_true(sim_rng_set_get_seed(after) == 7);
}

static void
test_rng__moments(void **state)
{
	g_autoptr(SimRng) r = sim_rng_new(test_seed(), "test.moments");
	const guint n = 200000;
	double sum_exp = 0, sum_pois = 0, sum_bern = 0, sum_log = 0, sum_log2 = 0;
	guint below_median = 0;

	for (guint i = 0; i < n; i++) {
		sum_exp += sim_rng_exponential(r, 2.5);
		sum_pois += sim_rng_poisson(r, 4.0);
		sum_bern += sim_rng_bernoulli(r, 0.25);
		double l = log(sim_rng_lognormal(r, 1.0, 0.5));
		sum_log += l;
		sum_log2 += l * l;
		below_median += sim_rng_range(r, 2.0, 6.0) < 4.0;
		uint32_t k = sim_rng_uniform_int(r, 3);
		assert_true(k < 3);
		double u = sim_rng_uniform_pos(r);
		assert_true(u > 0.0 && u < 1.0);
	}
	/* tolerances are > 5 standard errors at n = 200000 */
	assert_close(sum_exp / n, 2.5, 0.03);
	assert_close(sum_pois / n, 4.0, 0.03);
	assert_close(sum_bern / n, 0.25, 0.005);
	double mean_log = sum_log / n;
	assert_close(mean_log, 1.0, 0.006);
	assert_close(sqrt(sum_log2 / n - mean_log * mean_log), 0.5, 0.005);
	assert_close((double)below_median / n, 0.5, 0.006);
}

static void
test_rng__empirical(void **state)
{
	static const double samples[] = { 30.0, 10.0, 20.0, 40.0, 10.0 };
	g_autoptr(SimRng) r = sim_rng_new(test_seed(), "test.empirical");
	g_autoptr(SimEmpirical) cont = sim_empirical_new(samples, G_N_ELEMENTS(samples), FALSE);
	g_autoptr(SimEmpirical) disc = sim_empirical_new(samples, G_N_ELEMENTS(samples), TRUE);
	const guint n = 200000;
	double sum_c = 0, sum_d = 0;
	guint hist[5] = { 0 };

	for (guint i = 0; i < n; i++) {
		double c = sim_empirical_draw(cont, r);
		double d = sim_empirical_draw(disc, r);
		assert_true(c >= 10.0 && c <= 40.0);
		sum_c += c;
		sum_d += d;
		int k = (int)d / 10; /* d is exactly one of the samples */
		assert_close(d, 10.0 * k, 0.0);
		hist[k]++;
	}
	/* discrete: the sample mean 22; each value with its sample frequency */
	assert_close(sim_empirical_mean(disc), 22.0, 1e-12);
	assert_close(sum_d / n, 22.0, 0.15);
	assert_close(hist[1] / (double)n, 0.4, 0.005);
	assert_close(hist[4] / (double)n, 0.2, 0.005);
	/* continuous over sorted 10,10,20,30,40: trapezoid mean (5+10+20+30+20)/4 */
	assert_close(sim_empirical_mean(cont), 21.25, 1e-12);
	assert_close(sum_c / n, 21.25, 0.15);

	static const double bad[] = { 1.0, NAN };
	assert_null(sim_empirical_new(bad, 2, FALSE));
	assert_null(sim_empirical_new(samples, 0, FALSE));
	g_autoptr(SimEmpirical) one = sim_empirical_new(samples, 1, FALSE);
	assert_close(sim_empirical_draw(one, r), 30.0, 0.0);
}

/*
 * sim_rng_reservoir(ties) against its definition: the loop of
 * sim_rng_uniform_int(count) == 0 for count = 2..ties on a second stream with
 * the same seed. The answers must agree and both streams must stay in step
 * (the next raw draw equal), over tie counts that grow the scale table several
 * times, including 0, 1 and 2; and the answer is uniform: over 1 to 4 ties,
 * 40,000 reservoirs of 4 pick each item about 10,000 times.
 */
static void
test_rng__reservoir_is_the_loop(void **state)
{
	g_autoptr(SimRng) fast = sim_rng_new(test_seed(), "test.reservoir");
	g_autoptr(SimRng) loop = sim_rng_new(test_seed(), "test.reservoir");
	static const guint32 sizes[] = { 0, 1, 2, 3, 7, 64, 2, 1000, 5, 4097, 420 };
	guint hist[5] = { 0 };

	for (guint round = 0; round < 20; round++) {
		for (guint i = 0; i < G_N_ELEMENTS(sizes); i++) {
			guint32 expect = 1;

			for (guint32 count = 2; count <= sizes[i]; count++)
				if (sim_rng_uniform_int(loop, count) == 0)
					expect = count;
			assert_int_equal(sim_rng_reservoir(fast, sizes[i]), expect);
			assert_int_equal(sim_rng_uniform_int(fast, 1000000),
			                 sim_rng_uniform_int(loop, 1000000));
		}
	}
	for (guint i = 0; i < 40000; i++)
		hist[sim_rng_reservoir(fast, 4)]++;
	assert_int_equal(hist[0], 0);
	/* binomial(40000, 1/4): standard deviation 87; 600 is 6.9 of them */
	for (guint k = 1; k <= 4; k++)
		assert_true(hist[k] > 10000 - 600 && hist[k] < 10000 + 600);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rng__stream_seed_is_pinned),
		cmocka_unit_test(test_rng__own_taus2_is_gsls),
		cmocka_unit_test(test_rng__reproducible),
		cmocka_unit_test(test_rng__adding_a_stream_changes_no_other),
		cmocka_unit_test(test_rng__moments),
		cmocka_unit_test(test_rng__empirical),
		cmocka_unit_test(test_rng__reservoir_is_the_loop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
