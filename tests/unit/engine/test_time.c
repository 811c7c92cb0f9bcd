/*
 * test_time.c: SimTime parsing and formatting.
 *
 * Invariants under test: every accepted duration has the hand-computed value
 * in microseconds; format() output parses back to the same value; errors name
 * the 1-based column of the offending character.
 */
#include "test-engine.h"

static void
test_time__parse_table(void **state)
{
	static const struct {
		const char *text;
		SimTime us;
	} rows[] = {
		{ "0", 0 },
		{ "90s", 90 * SIM_TIME_S },
		{ "1h30m", 5400 * SIM_TIME_S },
		{ "2d", 172800 * SIM_TIME_S },
		{ "1w", 604800 * SIM_TIME_S },
		{ "1.5h", 5400 * SIM_TIME_S },
		{ "250ms", 250000 },
		{ "1m1ms", 60001000 },
		{ "30min", 1800 * SIM_TIME_S }, /* min is m: 30 x 60 s */
		{ "1h30min", 5400 * SIM_TIME_S },
		{ "1min1ms", 60001000 },
		{ "3us", 3 },
		{ "3\xc2\xb5s", 3 },
		{ ".5s", 500000 },
		{ "0.0000015s", 2 }, /* rounds to the nearest µs */
		{ "-1m", -60 * SIM_TIME_S },
		{ "1d2h3m4.5s", 93784500000 },
	};

	for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autoptr(GError) error = NULL;
		SimTime t = -42;
		if (!sim_time_parse(rows[i].text, &t, &error)) {
			fail_msg("\"%s\": %s", rows[i].text, error->message);
		}
		assert_int_equal(t, rows[i].us);
	}
}

static void
test_time__parse_errors(void **state)
{
	static const struct {
		const char *text;
		const char *message_prefix;
		int code;
	} rows[] = {
		{ "", "col 1: expected a number", SIM_ERROR_PARSE },
		{ "10", "col 3: expected a unit", SIM_ERROR_PARSE },
		{ "1h30", "col 5: expected a unit", SIM_ERROR_PARSE },
		{ "5x", "col 2: expected a unit", SIM_ERROR_PARSE },
		{ "1h 2m", "col 3: expected a number", SIM_ERROR_PARSE },
		{ ".s", "col 2: expected a digit", SIM_ERROR_PARSE },
		{ "99999999999999999999s", "col 1: duration", SIM_ERROR_RANGE },
		{ "20000000w", "col 1: duration", SIM_ERROR_RANGE },
	};

	for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autoptr(GError) error = NULL;
		SimTime t = -42;
		assert_false(sim_time_parse(rows[i].text, &t, &error));
		assert_non_null(error);
		assert_int_equal(error->code, rows[i].code);
		if (!g_str_has_prefix(error->message, rows[i].message_prefix)) {
			fail_msg("\"%s\": got \"%s\"", rows[i].text, error->message);
		}
		assert_int_equal(t, -42); /* untouched on failure */
	}
}

static void
test_time__format_round_trip(void **state)
{
	static const struct {
		SimTime us;
		const char *text;
	} rows[] = {
		{ 0, "0s" },
		{ 5400 * SIM_TIME_S, "1h30m" },
		{ 90061500000, "1d1h1m1.5s" },
		{ 250000, "0.25s" },
		{ 3, "0.000003s" },
		{ -60 * SIM_TIME_S, "-1m" },
		{ 8 * SIM_TIME_DAY, "8d" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(rows); i++) {
		g_autofree char *s = sim_time_format(rows[i].us);
		SimTime back = 0;
		assert_string_equal(s, rows[i].text);
		assert_true(sim_time_parse(s, &back, NULL));
		assert_int_equal(back, rows[i].us);
	}
	assert_int_equal(sim_time_from_seconds(1.5), 1500000);
	assert_int_equal(sim_time_from_seconds(-0.0000004), 0);
	assert_int_equal(sim_time_from_seconds(1e300), SIM_TIME_NEVER);
	assert_close(sim_time_to_seconds(2500000), 2.5, 0.0);
}

/* Random strings over the duration alphabet: parse either succeeds and the
 * value formats and parses back, or fails with a column inside the text. */
static void
test_time__random_input(void **state)
{
	static const char alphabet[] = "0123456789.-+usmhdwx \xc2\xb5";
	g_autoptr(SimRng) rng = sim_rng_new(test_seed(), "test.time");
	guint ok = 0;

	for (guint round = 0; round < 20000; round++) {
		char text[24];
		guint len = sim_rng_uniform_int(rng, sizeof text);
		for (guint i = 0; i < len; i++) {
			text[i] = alphabet[sim_rng_uniform_int(rng, sizeof alphabet - 1)];
		}
		text[len] = '\0';
		g_autoptr(GError) error = NULL;
		SimTime t;
		if (sim_time_parse(text, &t, &error)) {
			g_autofree char *back = sim_time_format(t);
			SimTime again = 0;
			assert_true(sim_time_parse(back, &again, NULL));
			assert_int_equal(again, t);
			ok++;
		} else {
			int col = 0;
			assert_int_equal(sscanf(error->message, "col %d:", &col), 1);
			assert_true(col >= 1 && col <= (int)len + 1);
		}
	}
	assert_true(ok > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_time__parse_table),
		cmocka_unit_test(test_time__parse_errors),
		cmocka_unit_test(test_time__format_round_trip),
		cmocka_unit_test(test_time__random_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
