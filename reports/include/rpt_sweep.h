/*
 * rpt_sweep.h: the results table of a sweep (statistics across seeds per
 * cell, mode and metric) and its writers: sweep.json (schema
 * drasim.io/sweep/v1), sweep.csv in long, tidy form and sweep.html (each
 * metric against each parameter, one line per mode with its confidence
 * band). Plain data like rpt.h: sim/sweep fills it (sweep_collect()),
 * nothing here runs or computes statistics. docs/sweep.md documents the
 * columns and fields.
 */
#pragma once

#include <stdint.h>

#include <glib.h>

#define RPT_SWEEP_SCHEMA "drasim.io/sweep/v1"

/*
 * A metric summarised across seeds: @n finite values, their @mean, sample
 * standard deviation @sd, and the confidence interval [@ci_low, @ci_high] of
 * the mean. NaN (written as null / an empty CSV field) when not defined.
 */
typedef struct {
	guint n;
	double mean;
	double sd;
	double ci_low;
	double ci_high;
} RptStat;

typedef struct RptSweep RptSweep;

/**
 * rpt_sweep_new:
 * @name: the sweep's name; @scenario: the scenario file as the user named it
 * @param_paths: the varied parameters' paths, in grid order
 * @seeds: the seeds every cell ran with
 * @confidence: the level of the intervals (0.95)
 * Returns: (transfer full) an empty table.
 */
RptSweep *rpt_sweep_new(const char *name,
                        const char *scenario,
                        const char *const *param_paths,
                        guint n_params,
                        const uint64_t *seeds,
                        guint n_seeds,
                        double confidence);
void rpt_sweep_free(RptSweep *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RptSweep, rpt_sweep_free)

/* Appends one row: the cell's parameter values (YAML text, n_params of them), a mode, a metric. */
void rpt_sweep_add_row(RptSweep *self,
                       const char *const *param_values,
                       const char *mode,
                       const char *metric,
                       const char *unit,
                       const RptStat *stat);
/* Records a run (cell values, seed) that failed or never ran, with why. */
void rpt_sweep_add_failure(RptSweep *self,
                           const char *const *param_values,
                           uint64_t seed,
                           const char *message);

guint rpt_sweep_get_n_rows(const RptSweep *self);
guint rpt_sweep_get_n_failures(const RptSweep *self);

/* Writers: deterministic text (rows in insertion order), ending with a newline. */
char *rpt_sweep_json_to_string(const RptSweep *self);
char *rpt_sweep_csv_to_string(const RptSweep *self);
char *rpt_sweep_html_to_string(const RptSweep *self);

/**
 * rpt_sweep_json_load:
 * Reads back a sweep.json written by rpt_sweep_json_to_string(): the
 * parameters and rows (failures are not read).
 * Returns: (transfer full) the table, or NULL with @error (RPT_ERROR_VERSION
 * when the file is not a drasim.io/sweep/v1 document).
 */
RptSweep *rpt_sweep_json_load(const char *path, GError **error);

/**
 * rpt_sweep_diff_to_string:
 * Compares two sweeps row by row (parameter values, mode, metric): a row
 * moved when @new's mean is outside @old's confidence interval, or, when
 * @old's row has none, when its mean changed. Lists moved, added and
 * removed rows (with @all, every row). @failures: moved + removed rows
 * (1 when the sweeps vary different parameters).
 * Returns: (transfer full) the table.
 */
char *
rpt_sweep_diff_to_string(const RptSweep *old, const RptSweep *new, gboolean all, guint *failures);
