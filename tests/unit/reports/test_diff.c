/*
 * test_diff.c: `drasim diff`'s comparison: each kind of change is found
 * (a value change, a metric added, a metric removed, a mode missing),
 * tolerances decide "within" vs "beyond", and a bench file compares too.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "fake-report.h"

static void
test_diff__identical(void **state)
{
	g_autoptr(RptReport) a = fake_report_new(1.0);
	g_autoptr(RptReport) b = fake_report_new(1.0);
	g_autoptr(RptDiff) diff = rpt_diff_new(a, b, NULL);
	g_autofree char *text = rpt_diff_to_string(diff, FALSE);

	assert_int_equal(rpt_diff_count_failures(diff, TRUE), 0);
	assert_int_equal(rpt_diff_count(diff, RPT_CHANGE_WITHIN), 0);
	assert_non_null(strstr(text, "(no changes)"));
}

static void
test_diff__value_change(void **state)
{
	g_autoptr(RptReport) a = fake_report_new(1.0);
	g_autoptr(RptReport) b = fake_report_new(1.0);
	g_autoptr(RptTolerances) loose = rpt_tolerances_new();
	g_autoptr(RptDiff) diff = NULL;
	g_autoptr(RptDiff) within = NULL;
	g_autofree char *text = NULL;

	rpt_mode_set_metric(rpt_report_lookup_mode(b, "dra"), RPT_M_PODS_PENDING, 4, "pods");
	diff = rpt_diff_new(a, b, NULL);
	assert_int_equal(rpt_diff_count(diff, RPT_CHANGE_BEYOND), 1);
	assert_int_equal(rpt_diff_count_failures(diff, FALSE), 1);
	text = rpt_diff_to_string(diff, FALSE);
	assert_non_null(strstr(text, "pods_pending"));
	assert_non_null(strstr(text, "+33.33%"));
	assert_non_null(strstr(text, "BEYOND"));
	/* the same change under a 50% relative rule is within tolerance */
	rpt_tolerances_add(loose, "pods_*", TRUE, 0.5);
	within = rpt_diff_new(a, b, loose);
	assert_int_equal(rpt_diff_count(within, RPT_CHANGE_WITHIN), 1);
	assert_int_equal(rpt_diff_count_failures(within, TRUE), 0);
}

static void
test_diff__default_tolerances(void **state)
{
	/* scale 1.001 moves ratios by < 0.005 absolute and calls by 0.1% (within 2%) */
	g_autoptr(RptReport) a = fake_report_new(1.0);
	g_autoptr(RptReport) b = fake_report_new(1.001);
	g_autoptr(RptDiff) diff = rpt_diff_new(a, b, NULL);

	assert_true(rpt_diff_count(diff, RPT_CHANGE_WITHIN) > 0);
	assert_int_equal(rpt_diff_count(diff, RPT_CHANGE_BEYOND), 0);
}

static void
test_diff__metric_added_and_removed(void **state)
{
	g_autoptr(RptReport) a = fake_report_new(1.0);
	g_autoptr(RptReport) b = fake_report_new(1.0);
	g_autoptr(RptDiff) added = NULL;
	g_autoptr(RptDiff) removed = NULL;

	rpt_mode_set_metric(rpt_report_lookup_mode(b, "extended"), "backtracks", 7, "calls");
	added = rpt_diff_new(a, b, NULL);
	assert_int_equal(rpt_diff_count(added, RPT_CHANGE_ADDED), 1);
	assert_int_equal(rpt_diff_count_failures(added, FALSE), 0);
	assert_int_equal(rpt_diff_count_failures(added, TRUE), 1);
	removed = rpt_diff_new(b, a, NULL);
	assert_int_equal(rpt_diff_count(removed, RPT_CHANGE_REMOVED), 1);
	assert_int_equal(rpt_diff_count_failures(removed, FALSE), 1);
}

static void
test_diff__mode_missing(void **state)
{
	g_autoptr(RptReport) a = fake_report_new(1.0);
	g_autoptr(RptReport) b = rpt_report_new("fake-small", NULL, 42, "0.1.0");
	g_autoptr(RptDiff) diff = NULL;
	g_autoptr(RptDiff) back = NULL;

	rpt_mode_add(b, "dra");
	diff = rpt_diff_new(a, b, NULL);
	assert_int_equal(rpt_diff_count(diff, RPT_CHANGE_MODE_MISSING), 1);
	assert_true(rpt_diff_count(diff, RPT_CHANGE_REMOVED) > 0);
	back = rpt_diff_new(b, a, NULL);
	assert_int_equal(rpt_diff_count(back, RPT_CHANGE_MODE_ADDED), 1);
	assert_int_equal(rpt_diff_count_failures(back, FALSE), 0);
	assert_true(rpt_diff_count_failures(back, TRUE) > 0);
}

static void
test_diff__unschedulable_reason(void **state)
{
	g_autoptr(RptReport) a = fake_report_new(1.0);
	g_autoptr(RptReport) b = fake_report_new(1.0);
	g_autoptr(RptDiff) diff = NULL;
	g_autofree char *text = NULL;

	rpt_mode_add_unschedulable(rpt_report_lookup_mode(b, "dra"), "DynamicResources", 1);
	diff = rpt_diff_new(a, b, NULL);
	text = rpt_diff_to_string(diff, FALSE);
	assert_int_equal(rpt_diff_count(diff, RPT_CHANGE_BEYOND), 1);
	assert_non_null(strstr(text, "unschedulable:DynamicResources"));
}

static char *
write_temp(const char *name, const char *text)
{
	char *path = g_build_filename(g_get_tmp_dir(), name, NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	return path;
}

static void
test_diff__tolerance_file(void **state)
{
	g_autofree char *good = write_temp("rpt-tol-good.txt", "# zero everywhere\n* abs 0\n"
	                                                       "scheduling_latency_* rel 10%\n");
	g_autofree char *bad = write_temp("rpt-tol-bad.txt", "* abs 0\npods_pending within 3\n");
	g_autoptr(RptTolerances) tolerances = rpt_tolerances_new();
	g_autoptr(RptTolerances) broken = rpt_tolerances_new();
	g_autoptr(RptReport) a = fake_report_new(1.0);
	g_autoptr(RptReport) b = fake_report_new(1.001);
	g_autoptr(RptDiff) diff = NULL;
	g_autoptr(GError) error = NULL;

	assert_true(rpt_tolerances_load(tolerances, good, &error));
	diff = rpt_diff_new(a, b, tolerances);
	/* with zero tolerance the 0.1% moves are regressions */
	assert_true(rpt_diff_count(diff, RPT_CHANGE_BEYOND) > 0);
	assert_false(rpt_tolerances_load(broken, bad, &error));
	assert_non_null(strstr(error->message, "rpt-tol-bad.txt:2:1:"));
	g_unlink(good);
	g_unlink(bad);
}

/* A bench file in scheduler_perf's DataItem shape (labels, unit, data). */
#define BENCH_ITEM(name, metric, unit, data)                                                       \
	"{\"labels\":{\"Name\":\"" name "\",\"Metric\":\"" metric "\"},\"unit\":\"" unit           \
	"\",\"data\":{" data "}}"
#define BENCH_FILE(items)                                                                          \
	"{\"schema\":\"drasim.io/bench/v2\",\"version\":\"v1\",\"dataItems\":[" items "]}"

static void
test_diff__bench_files(void **state)
{
	g_autofree char *old_path = write_temp(
	        "rpt-bench-old.json",
	        BENCH_FILE(BENCH_ITEM("cel_eval", "wall_time", "ns", "\"Value\":100,\"Perc50\":90,\"Perc90\":120,\"Perc99\":150") "," BENCH_ITEM(
	                "cel_eval", "instructions", "instructions",
	                "\"Value\":1000000") "," BENCH_ITEM("phold_1k", "throughput", "events/s",
	                                                    "\"Value\":1e7") "," BENCH_ITEM("phold_"
	                                                                                    "1k",
	                                                                                    "instru"
	                                                                                    "ction"
	                                                                                    "s",
	                                                                                    "instru"
	                                                                                    "ction"
	                                                                                    "s",
	                                                                                    "\"Valu"
	                                                                                    "e\":"
	                                                                                    "5e"
	                                                                                    "8")));
	g_autofree char *new_path = write_temp(
	        "rpt-bench-new.json",
	        BENCH_FILE(BENCH_ITEM("cel_eval", "wall_time", "ns", "\"Value\":110,\"Perc50\":95,\"Perc90\":125,\"Perc99\":160") "," BENCH_ITEM(
	                "cel_eval", "instructions", "instructions",
	                "\"Value\":1060000") "," BENCH_ITEM("phold_1k", "throughput", "events/s",
	                                                    "\"Value\":1.1e7") "," BENCH_ITEM("phol"
	                                                                                      "d_"
	                                                                                      "1k",
	                                                                                      "inst"
	                                                                                      "ruct"
	                                                                                      "ion"
	                                                                                      "s",
	                                                                                      "inst"
	                                                                                      "ruct"
	                                                                                      "ion"
	                                                                                      "s",
	                                                                                      "\"Va"
	                                                                                      "lue"
	                                                                                      "\":"
	                                                                                      "5."
	                                                                                      "1e"
	                                                                                      "8")));
	g_autoptr(GError) error = NULL;
	g_autoptr(RptReport) old_report = rpt_diff_load(old_path, &error);
	g_autoptr(RptReport) new_report = rpt_diff_load(new_path, &error);
	g_autoptr(RptDiff) diff = NULL;
	g_autofree char *text = NULL;

	assert_non_null(old_report);
	assert_non_null(new_report);
	diff = rpt_diff_new(old_report, new_report, NULL);
	text = rpt_diff_to_string(diff, FALSE);
	/* 6% more instructions for cel_eval is the one regression; wall time moved within 25% */
	assert_int_equal(rpt_diff_count(diff, RPT_CHANGE_BEYOND), 1);
	assert_non_null(strstr(text, "cel_eval/instructions"));
	assert_non_null(strstr(text, "cel_eval/wall_time/Perc99"));
	/* four wall-time buckets, phold throughput and phold's 2% more instructions are within */
	assert_int_equal(rpt_diff_count(diff, RPT_CHANGE_WITHIN), 6);
	g_unlink(old_path);
	g_unlink(new_path);
}

static void
test_diff__bench_added_removed_and_bad(void **state)
{
	g_autofree char *old_path = write_temp(
	        "rpt-bench-old2.json",
	        BENCH_FILE(BENCH_ITEM("alloc_hard", "instructions", "instructions",
	                              "\"Value\":100") "," BENCH_ITEM("e2e_10", "instructions",
	                                                              "instructions",
	                                                              "\"Value\":100")));
	g_autofree char *new_path =
	        write_temp("rpt-bench-new2.json",
	                   BENCH_FILE(BENCH_ITEM(
	                           "alloc_hard", "instructions", "instructions",
	                           "\"Value\":100") "," BENCH_ITEM("cel_x", "instructions",
	                                                           "instructions", "\"Value\":7")));
	g_autofree char *v1_path = write_temp("rpt-bench-v1.json",
	                                      "{\"schema\":\"drasim.io/bench/v1\",\"records\":[]}");
	g_autofree char *bad_path = write_temp(
	        "rpt-bench-bad.json",
	        BENCH_FILE(BENCH_ITEM("x", "instructions", "instructions", "\"Value\":\"many\"")));
	g_autoptr(GError) error = NULL;
	g_autoptr(RptReport) old_report = rpt_diff_load(old_path, &error);
	g_autoptr(RptReport) new_report = rpt_diff_load(new_path, &error);
	g_autoptr(RptDiff) diff = NULL;

	assert_non_null(old_report);
	assert_non_null(new_report);
	diff = rpt_diff_new(old_report, new_report, NULL);
	/* a benchmark that disappeared fails the gate; a new one does not */
	assert_int_equal(rpt_diff_count(diff, RPT_CHANGE_REMOVED), 1);
	assert_int_equal(rpt_diff_count(diff, RPT_CHANGE_ADDED), 1);
	assert_true(rpt_diff_count_failures(diff, FALSE) > 0);
	assert_null(rpt_diff_load(v1_path, &error));
	assert_non_null(strstr(error->message, "re-record"));
	g_clear_error(&error);
	assert_null(rpt_diff_load(bad_path, &error));
	assert_non_null(strstr(error->message, "dataItems[0].data.Value: expected a number"));
	g_unlink(old_path);
	g_unlink(new_path);
	g_unlink(v1_path);
	g_unlink(bad_path);
}

/*
 * Counts and the seed must be whole numbers, 0 or more (fuzz-report: a string count became
 * NaN and its conversion to an integer is undefined): a string count, -1, 1.5 and a seed of
 * 2^64 are each an error naming the field; a count of 3 loads.
 */
static void
test_diff__bad_counts(void **state)
{
	static const char *const bad[] = { "\"3\"", "-1", "1.5" };
	static const char head[] = "{\"schema\":\"drasim.io/report/v2\",\"scenario\":{\"name\":"
	                           "\"s\",\"seed\":%s},\"modes\":[{\"name\":\"dra\","
	                           "\"unschedulable_by_reason\":{\"r\":%s}}]}";

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autofree char *text = g_strdup_printf(head, "1", bad[i]);
		g_autoptr(GError) error = NULL;

		assert_null(rpt_json_load_data("r.json", text, strlen(text), &error));
		assert_non_null(
		        strstr(error->message, "modes[0].unschedulable_by_reason.r: expected"));
	}
	g_autofree char *big_seed = g_strdup_printf(head, "18446744073709551616", "3");
	g_autoptr(GError) seed_error = NULL;
	assert_null(rpt_json_load_data("r.json", big_seed, strlen(big_seed), &seed_error));
	assert_non_null(strstr(seed_error->message, "scenario.seed: expected"));
	g_autofree char *good = g_strdup_printf(head, "1", "3");
	g_autoptr(GError) good_error = NULL;
	g_autoptr(RptReport) report = rpt_json_load_data("r.json", good, strlen(good), &good_error);
	assert_non_null(report);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_diff__identical),
		cmocka_unit_test(test_diff__value_change),
		cmocka_unit_test(test_diff__default_tolerances),
		cmocka_unit_test(test_diff__metric_added_and_removed),
		cmocka_unit_test(test_diff__mode_missing),
		cmocka_unit_test(test_diff__unschedulable_reason),
		cmocka_unit_test(test_diff__tolerance_file),
		cmocka_unit_test(test_diff__bench_files),
		cmocka_unit_test(test_diff__bench_added_removed_and_bad),
		cmocka_unit_test(test_diff__bad_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
