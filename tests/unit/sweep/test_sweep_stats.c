/*
 * test_sweep_stats.c: sweep_stat_compute, the statistics across seeds.
 *
 * Every expected number is worked by hand in the test's comment; the t
 * quantiles are the textbook table's (t_{0.975,4} = 2.776445,
 * t_{0.95,4} = 2.131847, t_{0.975,1} = 12.706205).
 */
#include <math.h>
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sweep.h"

#define TOLERANCE 1e-6

static void
assert_close(double actual, double expected)
{
	if (!(fabs(actual - expected) < TOLERANCE)) {
		fail_msg("%.9f is not %.9f", actual, expected);
	}
}

/* Bit-for-bit equal where the arithmetic is exact (no -Wfloat-equal ==). */
static void
assert_exact(double actual, double expected)
{
	if (actual < expected || actual > expected || isnan(actual)) {
		fail_msg("%.17g is not exactly %.17g", actual, expected);
	}
}

static void
test_sweep_stats__one_to_five(void **state)
{
	/* {1,2,3,4,5}: mean 3; squared deviations 4+1+0+1+4 = 10, sd = sqrt(10/4) = 1.58113883;
	 * standard error 1.58113883 / sqrt(5) = 0.70710678; half-width at 95 %:
	 * 2.776445 * 0.70710678 = 1.96324, so the interval is [1.03676, 4.96324]. */
	const double x[] = { 1, 2, 3, 4, 5 };
	RptStat stat;

	sweep_stat_compute(x, G_N_ELEMENTS(x), 0.95, &stat);
	assert_int_equal(stat.n, 5);
	assert_close(stat.mean, 3.0);
	assert_close(stat.sd, 1.58113883);
	assert_close(stat.ci_low, 3.0 - 2.776445 * 0.70710678);
	assert_close(stat.ci_high, 3.0 + 2.776445 * 0.70710678);
	assert_close(stat.ci_high - stat.mean, 1.963243);
}

static void
test_sweep_stats__other_confidence(void **state)
{
	/* The same values at 90 %: GSL's quantile t_{0.95,4} = 2.131847, half-width
	 * 2.131847 * 0.70710678 = 1.507443: [1.492557, 4.507443]. A hard-coded 95 %
	 * quantile would give 1.96 here. */
	const double x[] = { 5, 4, 3, 2, 1 };
	RptStat stat;

	sweep_stat_compute(x, G_N_ELEMENTS(x), 0.9, &stat);
	assert_int_equal(stat.n, 5);
	assert_close(stat.mean, 3.0);
	assert_close(stat.ci_low, 1.492557);
	assert_close(stat.ci_high, 4.507443);
}

static void
test_sweep_stats__constant(void **state)
{
	/* Three equal values: sd 0 and the interval [v, v], exactly (0.1 + 0.1 + 0.1 is
	 * not 0.3 in binary, so a plain sum / n would not give 0.1 back). */
	const double x[] = { 0.1, 0.1, 0.1 };
	RptStat stat;

	sweep_stat_compute(x, G_N_ELEMENTS(x), 0.95, &stat);
	assert_int_equal(stat.n, 3);
	assert_exact(stat.mean, 0.1);
	assert_exact(stat.sd, 0.0);
	assert_exact(stat.ci_low, 0.1);
	assert_exact(stat.ci_high, 0.1);
}

static void
test_sweep_stats__nan_skipped(void **state)
{
	/* {2, NaN, 4, inf}: the two finite values count, n = 2; mean 3; sd = sqrt((1 + 1) / 1)
	 * = 1.41421356; standard error 1.41421356 / sqrt(2) = 1; half-width t_{0.975,1} * 1 =
	 * 12.706205: [-9.706205, 15.706205]. */
	const double x[] = { 2, (double)NAN, 4, (double)INFINITY };
	RptStat stat;

	sweep_stat_compute(x, G_N_ELEMENTS(x), 0.95, &stat);
	assert_int_equal(stat.n, 2);
	assert_close(stat.mean, 3.0);
	assert_close(stat.sd, 1.41421356);
	assert_close(stat.ci_low, 3.0 - 12.706205);
	assert_close(stat.ci_high, 3.0 + 12.706205);
}

static void
test_sweep_stats__one_and_none(void **state)
{
	/* One finite value: its mean, no spread and no interval. None: all NaN, n 0. */
	const double one[] = { (double)NAN, 5 };
	const double none[] = { (double)NAN, (double)NAN };
	RptStat stat;

	sweep_stat_compute(one, G_N_ELEMENTS(one), 0.95, &stat);
	assert_int_equal(stat.n, 1);
	assert_close(stat.mean, 5.0);
	assert_true(isnan(stat.sd) && isnan(stat.ci_low) && isnan(stat.ci_high));
	sweep_stat_compute(none, G_N_ELEMENTS(none), 0.95, &stat);
	assert_int_equal(stat.n, 0);
	assert_true(isnan(stat.mean) && isnan(stat.sd));
	assert_true(isnan(stat.ci_low) && isnan(stat.ci_high));
	sweep_stat_compute(NULL, 0, 0.95, &stat);
	assert_int_equal(stat.n, 0);
	assert_true(isnan(stat.mean));
}

static void
test_sweep_stats__large_values(void **state)
{
	/* {1e12 + 1, 1e12 + 2, 1e12 + 3} µs: mean 1e12 + 2 and sd 1 (squared deviations
	 * 1 + 0 + 1 = 2, / 2 = 1); summing the raw values would cost digits. A level that
	 * is not in (0, 1) gives no interval. */
	const double x[] = { 1e12 + 1, 1e12 + 2, 1e12 + 3 };
	RptStat stat;

	sweep_stat_compute(x, G_N_ELEMENTS(x), 1.0, &stat);
	assert_int_equal(stat.n, 3);
	assert_exact(stat.mean, 1e12 + 2);
	assert_close(stat.sd, 1.0);
	assert_true(isnan(stat.ci_low) && isnan(stat.ci_high));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_stats__one_to_five),
		cmocka_unit_test(test_sweep_stats__other_confidence),
		cmocka_unit_test(test_sweep_stats__constant),
		cmocka_unit_test(test_sweep_stats__nan_skipped),
		cmocka_unit_test(test_sweep_stats__one_and_none),
		cmocka_unit_test(test_sweep_stats__large_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
