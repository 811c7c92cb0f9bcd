/*
 * test_rate.c: arrival rates as people write them (workload_rate_parse):
 * per second by default, or per a duration unit. Each value is worked out by
 * hand in its comment; the errors are written out in full.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "workload.h"

static void
assert_rate(const char *text, double want)
{
	char *message = NULL;
	double got = -1;

	if (!workload_rate_parse(text, &got, &message))
		fail_msg("%s refused: %s", text, message);
	/* relative 1e-12: the division is one rounding away from the decimal */
	if (fabs(got - want) > 1e-12 * want)
		fail_msg("%s: got %.17g, want %.17g", text, got, want);
}

static void
assert_refused(const char *text, const char *want)
{
	char *message = NULL;
	double got = 0;

	if (workload_rate_parse(text, &got, &message))
		fail_msg("%s accepted as %g, expected: %s", text, got, want);
	assert_string_equal(message, want);
	g_free(message);
}

static void
test_rate__units(void **state)
{
	(void)state;
	/* plain numbers stay per second */
	assert_rate("0.002", 0.002);
	assert_rate("3", 3.0);
	/* 7.2 per hour: 7.2 / 3,600 s = 0.002/s */
	assert_rate("7.2/h", 0.002);
	/* 30 per minute: 30 / 60 s = 0.5/s, written min or m */
	assert_rate("30/min", 0.5);
	assert_rate("30/m", 0.5);
	/* 0.5 per second is 0.5 */
	assert_rate("0.5/s", 0.5);
	/* 2 per day: 2 / 86,400 s = 2.3148148148148148e-05/s */
	assert_rate("2/d", 2.0 / 86400.0);
	/* 14 per week: 14 / 604,800 s = 2 per day */
	assert_rate("14/w", 2.0 / 86400.0);
	/* 3 per 10 minutes: 3 / 600 s = 0.005/s */
	assert_rate("3/10m", 0.005);
	/* 1 per 1h30m: 1 / 5,400 s */
	assert_rate("1/1h30m", 1.0 / 5400.0);
	assert_rate("0/h", 0.0);
}

static void
test_rate__errors(void **state)
{
	(void)state;
	assert_refused("fast", "expected a rate: a number per second, or NUMBER/UNIT like 7.2/h, "
	                       "30/min, 0.5/s or 2/d, got \"fast\"");
	assert_refused("7.2/x", "expected a rate: a number per second, or NUMBER/UNIT like 7.2/h, "
	                        "30/min, 0.5/s or 2/d, got \"7.2/x\": unknown unit 'x' (us, ms, s, "
	                        "m or min, h, d or w)");
	/* a duration after the slash keeps sim_time_parse's reason */
	assert_refused("3/10x", "expected a rate: a number per second, or NUMBER/UNIT like 7.2/h, "
	                        "30/min, 0.5/s or 2/d, got \"3/10x\": col 3: expected a unit (us, "
	                        "ms, s, m or min, h, d or w) in duration \"10x\"");
	assert_refused("1/0s",
	               "expected a rate: a number per second, or NUMBER/UNIT like 7.2/h, "
	               "30/min, 0.5/s or 2/d, got \"1/0s\": the time after '/' must be > 0");
	assert_refused("7.2/", "expected a rate: a number per second, or NUMBER/UNIT like 7.2/h, "
	                       "30/min, 0.5/s or 2/d, got \"7.2/\": col 1: expected a number in "
	                       "duration \"\"");
	/* no number, a negative one, hex, infinity: refused with the forms */
	assert_refused("/h", "expected a rate: a number per second, or NUMBER/UNIT like 7.2/h, "
	                     "30/min, 0.5/s or 2/d, got \"/h\"");
	assert_refused("-1/h", "expected a rate: a number per second, or NUMBER/UNIT like 7.2/h, "
	                       "30/min, 0.5/s or 2/d, got \"-1/h\"");
	assert_refused("0x10", "expected a rate: a number per second, or NUMBER/UNIT like 7.2/h, "
	                       "30/min, 0.5/s or 2/d, got \"0x10\"");
	assert_refused("inf", "expected a rate: a number per second, or NUMBER/UNIT like 7.2/h, "
	                      "30/min, 0.5/s or 2/d, got \"inf\"");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rate__units),
		cmocka_unit_test(test_rate__errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
