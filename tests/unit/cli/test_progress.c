/*
 * test_progress.c: the progress line of long runs (cli_progress_line) and the
 * brief time format it uses (sim_time_format_brief). Every line is written out
 * by hand from its inputs; the working is in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cli.h"

static void
assert_brief(SimTime t, const char *want)
{
	g_autofree char *got = sim_time_format_brief(t);

	assert_string_equal(got, want);
}

static void
test_brief__two_largest_units(void **state)
{
	(void)state;
	assert_brief(0, "0s");
	assert_brief(SIM_TIME_MS * 400, "0s");
	assert_brief(42 * SIM_TIME_S, "42s");
	/* 192 s = 3 min 12 s */
	assert_brief(192 * SIM_TIME_S, "3m12s");
	assert_brief(185 * SIM_TIME_S, "3m05s");
	assert_brief(SIM_TIME_HOUR, "1h");
	/* 5,400 s = 1 h 30 min */
	assert_brief(5400 * SIM_TIME_S, "1h30m");
	/* 137,797 s = 1 d (86,400) + 14 h (50,400) + 16 m 37 s, cut to 1d14h */
	assert_brief(137797 * SIM_TIME_S + 247694, "1d14h");
	assert_brief(7 * SIM_TIME_DAY, "7d");
	assert_brief(-90 * SIM_TIME_S, "-1m30s");
}

static void
test_line__with_and_without_horizon(void **state)
{
	g_autofree char *line = NULL;

	(void)state;
	/*
	 * t = 1d14h16m37s of 7 d: 137,797 / 604,800 = 22.78 %, floored 22 %.
	 * 2,392,056 events in 120 s of wall time: 19,933.8 -> 19,934 events/s.
	 * ETA: 120 s for 137,797 simulated s, so the 467,003 left take
	 * 120 x 467,003 / 137,797 = 406.69 s = 6m46s.
	 */
	line = cli_progress_line("dra", 137797 * SIM_TIME_S, 7 * SIM_TIME_DAY, 138099, 2392056,
	                         120.0);
	assert_string_equal(line, "dra: t=1d14h of 7d (22%)  pods=138,099  events/s=19,934  "
	                          "ETA 6m46s");
	g_clear_pointer(&line, g_free);
	/* no horizon: no percent, no ETA; 999 pods need no comma; 1,000 events in 0.5 s */
	line = cli_progress_line("extended", 90 * SIM_TIME_S, SIM_TIME_NEVER, 999, 1000, 0.5);
	assert_string_equal(line, "extended: t=1m30s  pods=999  events/s=2,000");
	g_clear_pointer(&line, g_free);
	/* at the start nothing is known of the speed: 0 events/s and no ETA; 0 % */
	line = cli_progress_line("m", 0, SIM_TIME_HOUR, 0, 0, 0.0);
	assert_string_equal(line, "m: t=0s of 1h (0%)  pods=0  events/s=0");
	g_clear_pointer(&line, g_free);
	/* 1,234,567 groups as 1,234,567; half the horizon in 10 s leaves 10 s */
	line = cli_progress_line("m", 30 * SIM_TIME_MIN, SIM_TIME_HOUR, 1234567, 1000000, 10.0);
	assert_string_equal(line,
	                    "m: t=30m of 1h (50%)  pods=1,234,567  events/s=100,000  ETA 10s");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_brief__two_largest_units),
		cmocka_unit_test(test_line__with_and_without_horizon),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
