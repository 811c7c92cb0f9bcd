/*
 * test_sweep_diff.c: `drasim diff` of two sweeps (rpt_sweep_load.c,
 * rpt_sweep_diff.c). One parameter p, mode m; the old rows, worked by hand:
 *   a: n 5, mean 10, interval [8, 12]   new mean 12.5 -> moved above (12.5 > 12)
 *   b: n 5, mean 10, interval [8, 12]   new mean 11.99 -> within
 *   c: n 1, mean 3, no interval         new mean 3 -> same; (d) 3.1 -> changed
 *   e: in the old sweep only            -> removed
 *   f: in the new sweep only            -> added
 * so 2 moved (a, d) + 1 removed = 3 failures. Both sweeps go through
 * sweep.json and back, which must give the same bytes again.
 */
#include <math.h>
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "rpt.h"
#include "rpt_sweep.h"

static const char *const params[] = { "spec.p" };
static const uint64_t seeds[] = { 1, 2, 3, 4, 5 };

static void
row(RptSweep *s, const char *value, guint n, double mean, double low, double high)
{
	const char *values[] = { value };
	RptStat stat = { n, mean, n > 1 ? 1.0 : (double)NAN, low, high };

	rpt_sweep_add_row(s, values, "m", "x", "pods", &stat);
}

/* Written to sweep.json and read back: what `drasim diff` compares. */
static RptSweep *
round_trip(const RptSweep *s)
{
	g_autofree char *dir = g_dir_make_tmp("test-sweep-diff-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "sweep.json", NULL);
	g_autofree char *text = rpt_sweep_json_to_string(s);
	g_autofree char *again = NULL;
	RptSweep *loaded;

	assert_true(g_file_set_contents(path, text, -1, NULL));
	loaded = rpt_sweep_json_load(path, NULL);
	assert_non_null(loaded);
	again = rpt_sweep_json_to_string(loaded);
	assert_string_equal(text, again);
	g_unlink(path);
	g_rmdir(dir);
	return loaded;
}

static void
test_diff_verdicts(void **state)
{
	g_autoptr(RptSweep) old = rpt_sweep_new("s", "x.yaml", params, 1, seeds, 5, 0.95);
	g_autoptr(RptSweep) new = rpt_sweep_new("s", "x.yaml", params, 1, seeds, 5, 0.95);
	g_autoptr(RptSweep) old_back = NULL, new_back = NULL;
	g_autofree char *text = NULL;
	guint failures = 0;

	(void)state;
	row(old, "a", 5, 10, 8, 12);
	row(old, "b", 5, 10, 8, 12);
	row(old, "c", 1, 3, NAN, NAN);
	row(old, "d", 1, 3, NAN, NAN);
	row(old, "e", 5, 1, 0, 2);
	row(new, "a", 5, 12.5, 11, 14);
	row(new, "b", 5, 11.99, 10, 14);
	row(new, "c", 1, 3, NAN, NAN);
	row(new, "d", 1, 3.1, NAN, NAN);
	row(new, "f", 5, 1, 0, 2);
	old_back = round_trip(old);
	new_back = round_trip(new);
	text = rpt_sweep_diff_to_string(old_back, new_back, FALSE, &failures);
	assert_int_equal(failures, 3);
	assert_non_null(strstr(text, "5 rows compared: 2 moved beyond the old 95 % interval, "
	                             "1 added, 1 removed\n"));
	assert_non_null(strstr(text, "above the old interval"));
	assert_non_null(strstr(text, "changed (the old row has no interval)"));
	assert_null(strstr(text, "within")); /* b is listed only with --all */
	g_free(g_steal_pointer(&text));
	text = rpt_sweep_diff_to_string(old_back, new_back, TRUE, &failures);
	assert_non_null(strstr(text, "within"));
}

static void
test_diff_other_parameters(void **state)
{
	static const char *const other[] = { "spec.q" };
	g_autoptr(RptSweep) old = rpt_sweep_new("s", "x.yaml", params, 1, seeds, 5, 0.95);
	g_autoptr(RptSweep) new = rpt_sweep_new("s", "x.yaml", other, 1, seeds, 5, 0.95);
	g_autofree char *text = NULL;
	guint failures = 0;

	(void)state;
	text = rpt_sweep_diff_to_string(old, new, FALSE, &failures);
	assert_int_equal(failures, 1);
	assert_non_null(strstr(text, "different parameters"));
}

static void
test_load_refuses_a_report(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("test-sweep-diff-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "report.json", NULL);
	g_autoptr(GError) error = NULL;

	(void)state;
	assert_true(g_file_set_contents(path, "{\"schema\": \"drasim.io/report/v1\"}", -1, NULL));
	assert_null(rpt_sweep_json_load(path, &error));
	assert_true(g_error_matches(error, RPT_ERROR, RPT_ERROR_VERSION));
	g_unlink(path);
	g_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff_verdicts),
		cmocka_unit_test(test_diff_other_parameters),
		cmocka_unit_test(test_load_refuses_a_report),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
