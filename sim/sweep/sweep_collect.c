/*
 * sweep_collect.c: the results table of a sweep from its runs' reports.
 *
 * Cell by cell, each run's report is read (sweep_run_load: its metrics
 * alone, summary.json), its values taken and the report freed, so memory
 * holds one report and one cell's numbers
 * however large the sweep. Rows go mode by mode, metric by metric in the
 * order the reports list them (a mode or metric one seed lacks still gets
 * its row, from the seeds that have it); a run without a report is a
 * failure with its error.txt. The order depends on the manifest and the
 * reports only, never on which process ran what, so `--jobs` and Slurm
 * give the same table.
 */
#include <math.h>
#include <string.h>

#include "sweep.h"

/* The level of the intervals sweep.json and sweep.csv report (docs/sweep.md). */
#define SWEEP_CONFIDENCE 0.95

typedef struct {
	char *metric;
	char *unit;
	GArray *values; /* double, one per run of the cell (NaN: not in that run) */
} Column;

typedef struct {
	char *name;
	GPtrArray *columns; /* Column, first-seen order */
} ModeColumns;

static void
column_free(gpointer data)
{
	Column *column = data;

	g_free(column->metric);
	g_free(column->unit);
	g_array_unref(column->values);
	g_free(column);
}

static void
mode_columns_free(gpointer data)
{
	ModeColumns *mode = data;

	g_free(mode->name);
	g_ptr_array_unref(mode->columns);
	g_free(mode);
}

static ModeColumns *
find_mode(GPtrArray *modes, const char *name)
{
	for (guint i = 0; i < modes->len; i++) {
		ModeColumns *mode = g_ptr_array_index(modes, i);

		if (strcmp(mode->name, name) == 0) {
			return mode;
		}
	}
	ModeColumns *mode = g_new0(ModeColumns, 1);

	mode->name = g_strdup(name);
	mode->columns = g_ptr_array_new_with_free_func(column_free);
	g_ptr_array_add(modes, mode);
	return mode;
}

static Column *
find_column(ModeColumns *mode, const char *metric, const char *unit, guint n_runs)
{
	for (guint i = 0; i < mode->columns->len; i++) {
		Column *column = g_ptr_array_index(mode->columns, i);

		if (strcmp(column->metric, metric) == 0) {
			return column;
		}
	}
	Column *column = g_new0(Column, 1);
	double nan = (double)NAN;

	column->metric = g_strdup(metric);
	column->unit = g_strdup(unit);
	column->values = g_array_sized_new(FALSE, FALSE, sizeof(double), n_runs);
	for (guint i = 0; i < n_runs; i++) {
		g_array_append_val(column->values, nan);
	}
	g_ptr_array_add(mode->columns, column);
	return column;
}

/* Run @k of @n_runs of the cell: its metrics into @modes, or a failure into @table. */
static void
take_run(RptSweep *table,
         GPtrArray *modes,
         const char *cells_dir,
         const SweepRun *run,
         const char *const *values,
         guint k,
         guint n_runs)
{
	g_autofree char *error_text = NULL;
	g_autoptr(RptReport) report = sweep_run_load(cells_dir, run, &error_text);

	if (report == NULL) {
		rpt_sweep_add_failure(table, values, run->seed,
		                      error_text ? error_text : "not run");
		return;
	}
	for (guint m = 0; m < rpt_report_get_n_modes(report); m++) {
		const RptMode *mode = rpt_report_get_mode(report, m);
		ModeColumns *columns = find_mode(modes, rpt_mode_get_name(mode));

		for (guint i = 0; i < rpt_mode_get_n_metrics(mode); i++) {
			const char *name, *unit;
			double value;

			rpt_mode_get_metric(mode, i, &name, &value, &unit);
			g_array_index(find_column(columns, name, unit, n_runs)->values, double, k) =
			        value;
		}
	}
}

static void
collect_cell(RptSweep *table,
             const SweepManifest *manifest,
             const char *cells_dir,
             guint cell,
             const guint *runs,
             guint n_runs)
{
	const char *const *values = sweep_manifest_cell_values(manifest, cell);
	g_autoptr(GPtrArray) modes = g_ptr_array_new_with_free_func(mode_columns_free);

	for (guint k = 0; k < n_runs; k++) {
		take_run(table, modes, cells_dir, sweep_manifest_get_run(manifest, runs[k]), values,
		         k, n_runs);
	}
	for (guint m = 0; m < modes->len; m++) {
		const ModeColumns *mode = g_ptr_array_index(modes, m);

		for (guint i = 0; i < mode->columns->len; i++) {
			const Column *column = g_ptr_array_index(mode->columns, i);
			RptStat stat;

			sweep_stat_compute((const double *)(void *)column->values->data, n_runs,
			                   SWEEP_CONFIDENCE, &stat);
			rpt_sweep_add_row(table, values, mode->name, column->metric, column->unit,
			                  &stat);
		}
	}
}

static RptSweep *
new_table(const SweepSpec *spec)
{
	g_autofree const char **paths = g_new0(const char *, spec->params->len + 1);
	g_autofree uint64_t *seeds = g_new0(uint64_t, spec->seeds->len + 1);

	for (guint i = 0; i < spec->params->len; i++) {
		paths[i] = g_array_index(spec->params, SweepParam, i).path;
	}
	for (guint i = 0; i < spec->seeds->len; i++) {
		seeds[i] = g_array_index(spec->seeds, guint64, i);
	}
	return rpt_sweep_new(spec->name, spec->scenario, paths, spec->params->len, seeds,
	                     spec->seeds->len, SWEEP_CONFIDENCE);
}

RptSweep *
sweep_collect(const SweepManifest *manifest, const char *dir)
{
	const SweepSpec *spec = sweep_manifest_get_spec(manifest);
	guint n_cells = sweep_manifest_get_n_cells(manifest);
	guint n_runs = sweep_manifest_get_n_runs(manifest);
	g_autofree char *cells_dir = g_build_filename(dir, "cells", NULL);
	g_autofree guint *first = g_new0(guint, n_cells + 1);
	g_autofree guint *order = g_new0(guint, n_runs + 1);
	g_autofree guint *filled = g_new0(guint, n_cells + 1);
	RptSweep *table = new_table(spec);

	/* the runs of each cell together, in manifest order (a counting sort by cell) */
	for (guint r = 0; r < n_runs; r++) {
		guint cell = sweep_manifest_get_run(manifest, r)->cell;

		if (cell < n_cells) { /* a manifest that names no such cell: the run is left out */
			first[cell + 1]++;
		}
	}
	for (guint c = 0; c < n_cells; c++) {
		first[c + 1] += first[c];
	}
	for (guint r = 0; r < n_runs; r++) {
		guint cell = sweep_manifest_get_run(manifest, r)->cell;

		if (cell < n_cells) {
			order[first[cell] + filled[cell]++] = r;
		}
	}
	for (guint c = 0; c < n_cells; c++) {
		collect_cell(table, manifest, cells_dir, c, order + first[c],
		             first[c + 1] - first[c]);
	}
	return table;
}
