/*
 * test_svg_ticks.c: the charts' axis labels (rpt_svg__tick_text). Below
 * 10,000 they stay %.4g, as every report drew them before; from 10,000 on
 * %.4g would print 4.738e+04, too wide for the margin, so they read with an
 * SI suffix and 3 significant digits: 47385 -> 47.4k, 1234567 -> 1.23M.
 */
#include <math.h>
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rpt-private.h"

static void
test_ticks(void **state)
{
	static const struct {
		double value;
		const char *text;
	} cases[] = {
		{ 0, "0" },        { 0.8125, "0.8125" }, { 600, "600" },       { 9999, "9999" },
		{ 10000, "10k" },  { 47385, "47.4k" },   { -47385, "-47.4k" }, { 1234567, "1.23M" },
		{ 3.5e9, "3.5G" }, { 2e12, "2e+12" },    { NAN, "nan" },
	};

	(void)state;
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		char buf[32];

		rpt_svg__tick_text(buf, sizeof buf, cases[i].value);
		assert_string_equal(buf, cases[i].text);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
