/*
 * test_sweep_collect.c: sweep_collect, the results table from a sweep's run
 * folders.
 *
 * A sweep over spec.x = 1, 2 with seeds 1-3 (six runs). Reports are written
 * by hand into DIR/cells/ID/report.json: in cell x=1 dra's pods_pending is
 * the seed (1, 2, 3), extended's is 0, and only seed 3 has the metric
 * "late"; in cell x=2 seed 1 has a report, seed 2 an error.txt and seed 3
 * nothing. Expected, worked by hand:
 *   x=1 dra pods_pending: n 3, mean 2, sd 1 (squared deviations 1 + 0 + 1,
 *       / 2), interval 2 -+ t_{0.975,2} / sqrt(3) = 2 -+ 4.302653 * 0.577350
 *       = 2 -+ 2.484138: [-0.484138, 4.484138]
 *   x=1 dra late: n 1 (the seeds without it are left out), mean 7
 *   x=1 extended pods_pending: n 3, mean 0, sd 0, [0, 0]
 *   x=2: seed 1 alone, n 1; failures (x=2, seed 2, its error.txt) and
 *       (x=2, seed 3, "not run")
 * Rows go mode by mode (dra's metrics, "late" after pods_pending as first
 * seen, then extended's), cells in grid order.
 */
#include <math.h>
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "sweep.h"

static void
write_report(const char *cells_dir, const SweepRun *run, double dra_pending, gboolean late)
{
	g_autoptr(RptReport) report = rpt_report_new("s", NULL, run->seed, "test");
	RptMode *dra = rpt_mode_add(report, "dra");
	RptMode *extended = rpt_mode_add(report, "extended");
	g_autofree char *dir = g_build_filename(cells_dir, run->id, NULL);
	g_autofree char *path = g_build_filename(dir, "report.json", NULL);
	g_autofree char *json = NULL;

	rpt_mode_set_metric(dra, "pods_pending", dra_pending, "pods");
	if (late) {
		rpt_mode_set_metric(dra, "late", 7, "s");
	}
	rpt_mode_set_metric(extended, "pods_pending", 0, "pods");
	json = rpt_json_to_string(report);
	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_true(g_file_set_contents(path, json, -1, NULL));
}

static void
write_error(const char *cells_dir, const SweepRun *run, const char *message)
{
	g_autofree char *dir = g_build_filename(cells_dir, run->id, NULL);
	g_autofree char *path = g_build_filename(dir, "error.txt", NULL);

	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_true(g_file_set_contents(path, message, -1, NULL));
}

/* Field @index of CSV line @line (no quoted fields in this sweep). */
static char *
csv_field(const char *const *lines, guint line, guint index)
{
	g_auto(GStrv) fields = g_strsplit(lines[line], ",", -1);

	assert_true(index < g_strv_length(fields));
	return g_strdup(fields[index]);
}

static void
assert_row(const char *const *lines, guint line, const char *start, const char *rest)
{
	g_autofree char *prefix = g_strconcat(start, ",", NULL);

	assert_true(g_str_has_prefix(lines[line], prefix));
	if (rest != NULL) {
		assert_string_equal(lines[line] + strlen(prefix), rest);
	}
}

static void
test_sweep_collect__cells_seeds_failures(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("sweep-collect-XXXXXX", NULL);
	g_autofree char *cells_dir = g_build_filename(dir, "cells", NULL);
	g_autoptr(SweepSpec) spec = sweep_spec_new("collect", "/nonexistent/scenario.yaml");
	g_autoptr(SweepManifest) manifest = NULL;
	g_autoptr(RptSweep) table = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *csv = NULL;
	g_autofree char *json = NULL;
	g_auto(GStrv) lines = NULL;

	assert_true(sweep_spec_add_vary(spec, "spec.x=1,2", 1, &error));
	assert_true(sweep_seeds_parse("1-3", spec->seeds, &error));
	manifest = sweep_manifest_new(spec, &error);
	assert_non_null(manifest);
	assert_int_equal(sweep_manifest_get_n_cells(manifest), 2);
	assert_int_equal(sweep_manifest_get_n_runs(manifest), 6);
	for (guint r = 0; r < 6; r++) {
		const SweepRun *run = sweep_manifest_get_run(manifest, r);
		const char *x = sweep_manifest_cell_values(manifest, run->cell)[0];

		if (strcmp(x, "1") == 0) {
			write_report(cells_dir, run, (double)run->seed, run->seed == 3);
		} else if (run->seed == 1) {
			write_report(cells_dir, run, 5, FALSE);
		} else if (run->seed == 2) {
			write_error(cells_dir, run, "s.yaml:1:1: spec.x: boom");
		}
	}
	table = sweep_collect(manifest, dir);
	csv = rpt_sweep_csv_to_string(table);
	lines = g_strsplit(csv, "\n", -1);
	assert_int_equal(g_strv_length(lines),
	                 1 + 3 + 2 + 1); /* header, rows, "" after the last \n */
	assert_string_equal(lines[0], "spec.x,mode,metric,unit,n,mean,sd,ci95_low,ci95_high");
	assert_row((const char *const *)lines, 1, "1,dra,pods_pending,pods,3,2,1", NULL);
	{
		g_autofree char *low = csv_field((const char *const *)lines, 1, 7);
		g_autofree char *high = csv_field((const char *const *)lines, 1, 8);

		assert_true(fabs(g_ascii_strtod(low, NULL) - (2 - 2.484138)) < 1e-6);
		assert_true(fabs(g_ascii_strtod(high, NULL) - (2 + 2.484138)) < 1e-6);
	}
	assert_row((const char *const *)lines, 2, "1,dra,late,s,1,7", ",,");
	assert_row((const char *const *)lines, 3, "1,extended,pods_pending,pods,3,0", "0,0,0");
	assert_row((const char *const *)lines, 4, "2,dra,pods_pending,pods,1,5", ",,");
	assert_row((const char *const *)lines, 5, "2,extended,pods_pending,pods,1,0", ",,");
	assert_int_equal(rpt_sweep_get_n_failures(table), 2);
	json = rpt_sweep_json_to_string(table);
	assert_non_null(
	        strstr(json, "\"seed\":\t2,\n\t\t\t\"message\":\t\"s.yaml:1:1: spec.x: boom"));
	assert_non_null(strstr(json, "\"seed\":\t3,\n\t\t\t\"message\":\t\"not run\""));
	assert_non_null(strstr(json, "\"seeds\":\t[1, 2, 3],"));
	{
		const char *argv[] = { "rm", "-rf", dir, NULL };

		assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
		                         NULL, NULL, NULL, NULL));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_collect__cells_seeds_failures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
