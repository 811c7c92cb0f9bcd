/*
 * test_golden.c: a golden file per report form (text, JSON, both CSVs,
 * HTML) for the fake two-mode report, so any change in what a writer prints
 * shows up as a test failure with the first differing line.
 *
 * To accept a deliberate change: RPT_UPDATE_GOLDEN=1 meson test reports-golden,
 * then review the diff of tests/unit/reports/golden/ before committing.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fake-report.h"

static const char *
line_end(const char *p)
{
	const char *newline = strchr(p, '\n');

	return newline ? newline : p + strlen(p);
}

static void
report_first_difference(const char *want, const char *got)
{
	guint line = 1;
	const char *w = want, *g = got;

	while (*w && *w == *g) {
		line += *w == '\n';
		w++;
		g++;
	}
	const char *w_end = line_end(w), *g_end = line_end(g);

	print_error("first difference at line %u:\n  want: %.*s\n  got:  %.*s\n", line,
	            (int)(w_end - w), w, (int)(g_end - g), g);
}

static void
check_golden(const char *name, char *text)
{
	g_autofree char *owned = text;
	const char *dir = g_getenv("RPT_GOLDEN_DIR");
	g_autofree char *path = NULL;
	g_autofree char *want = NULL;

	assert_non_null(dir);
	path = g_build_filename(dir, name, NULL);
	if (g_strcmp0(g_getenv("RPT_UPDATE_GOLDEN"), "1") == 0) {
		assert_true(g_file_set_contents(path, owned, -1, NULL));
		return;
	}
	if (!g_file_get_contents(path, &want, NULL, NULL)) {
		print_error("%s: missing golden file (RPT_UPDATE_GOLDEN=1 writes it)\n", path);
		fail();
	}
	if (strcmp(want, owned) != 0) {
		print_error("%s differs from the writer's output\n", path);
		report_first_difference(want, owned);
		fail();
	}
}

static void
test_golden__forms(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);

	check_golden("fake-small.txt", rpt_text_to_string(report, FALSE));
	check_golden("fake-small.json", rpt_json_to_string(report));
	check_golden("fake-small.summary.csv", rpt_csv_summary_to_string(report));
	check_golden("fake-small.timeseries.csv", rpt_csv_series_to_string(report));
	check_golden("fake-small.pods.csv", rpt_csv_pods_to_string(report));
	check_golden("fake-small.html", rpt_html_to_string(report));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden__forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
