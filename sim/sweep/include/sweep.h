/*
 * sweep.h: the face of sim/sweep, experiments over a scenario: a sweep
 * (parameters varied by path into the scenario, every cell run with every
 * seed), the runs it expands to, their execution (local child processes,
 * one slice per Slurm array task or Kubernetes Job index), and the merge of
 * their reports into statistics across seeds (Student's t intervals).
 * docs/sweep.md is the user's guide. `drasim plan` (sim/plan) runs its points
 * through the same executor.
 *
 * Output folder of a sweep (every file written atomically):
 *   DIR/sweep-manifest.json   the expanded sweep (what run-task and merge read)
 *   DIR/cells/ID/report.json  one run's report (ID: "c0003-seed7"), its metrics
 *                             alone in summary.json (what the merge reads), or
 *   DIR/cells/ID/error.txt    why the run failed
 *   DIR/sweep.json, sweep.csv, sweep.html   the merged results
 */
#pragma once

#include <glib.h>

#include "k8s_diag.h"
#include "rpt.h"
#include "rpt_sweep.h"
#include "scenario.h"
#include "sim.h"

G_BEGIN_DECLS

#define SWEEP_ERROR (sweep_error_quark())
GQuark sweep_error_quark(void);

typedef enum {
	SWEEP_ERROR_INPUT,  /* the sweep, its paths, values or seeds are wrong */
	SWEEP_ERROR_IO,     /* a file of the output folder cannot be read or written */
	SWEEP_ERROR_RESUME, /* the output folder holds another sweep */
	SWEEP_ERROR_RUN,    /* runs failed (the sweep went on; they are listed) */
} SweepErrorCode;

/* Bounds (documented in docs/sweep.md): a grid larger than this is refused before it runs. */
#define SWEEP_MAX_PARAMS 16
#define SWEEP_MAX_VALUES 4096 /* per parameter */
#define SWEEP_MAX_SEEDS  100000
/* Runs (cells x seeds) are bounded by DRASIM_MAX_SWEEP_RUNS: sweep_max_runs(). */

/* One varied parameter: a path into the scenario and the values it takes. */
typedef struct {
	char *path;        /* k8s_yaml_path.h syntax: spec.cluster.nodePools[name=dgx].count */
	GPtrArray *values; /* char*: each value as YAML flow text ("4", "[dra, extended]") */
	K8sPos pos; /* where the parameter was written (file "--vary N" on the command line) */
	GArray *value_pos; /* K8sPos of each value */
} SweepParam;

/**
 * SweepSpec:
 *
 * A sweep as written (a kind: Sweep file, or `drasim sweep SCENARIO --vary
 * ... --seeds ...`): the scenario (absolute path), the parameters in order
 * (the grid is their product, the last varying fastest), the seeds in order,
 * and the horizon (0: the scenario's).
 */
typedef struct {
	char *file; /* the Sweep file; NULL from the command line */
	char *name;
	char *scenario;
	GArray *params; /* SweepParam */
	GArray *seeds;  /* guint64 */
	SimTime horizon;
	K8sPos pos;
} SweepSpec;

SweepSpec *sweep_spec_new(const char *name, const char *scenario);
void sweep_spec_free(SweepSpec *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SweepSpec, sweep_spec_free)

/**
 * sweep_spec_load:
 * Reads a kind: Sweep document (apiVersion drasim.io/v1alpha1) strictly.
 * Problems go to @diags at FILE:LINE:COL with field paths.
 * Returns: (transfer full) (nullable): NULL when @diags holds errors.
 */
SweepSpec *sweep_spec_load(const char *path, K8sDiagList *diags);
/* sweep_spec_load() on @len bytes already in memory (the fuzz targets), which
 * @path names; the caller bounds @len (base_read_file() does for a file). */
SweepSpec *sweep_spec_load_data(const char *path, const char *data, gsize len, K8sDiagList *diags);

/**
 * sweep_spec_add_vary:
 * Adds the command line's `--vary PATH=V1,V2,...` (@index: its 1-based
 * number, for positions). Values split at commas outside brackets and braces,
 * so `spec.modes=[{name: a, world: dra}],[{name: b, world: extended}]` gives two values.
 * Returns: FALSE with @error (SWEEP_ERROR_INPUT) when it is malformed.
 */
gboolean sweep_spec_add_vary(SweepSpec *self, const char *arg, guint index, GError **error);

/**
 * sweep_seeds_parse:
 * Parses "A-B" (A <= B), "A" or a comma list of those into @seeds (appended,
 * in order; a seed given twice is an error).
 * Returns: FALSE with @error naming the problem and the valid forms.
 */
gboolean sweep_seeds_parse(const char *text, GArray *seeds, GError **error);

/**
 * sweep_spec_check:
 * Everything that can be checked before anything runs: each path resolves
 * in the scenario and each value, put there alone, gives a valid scenario;
 * the grid is within the bounds above. Problems go to @diags at the
 * parameter's or value's position, with the scenario's own message.
 * Returns: TRUE when @diags got no error.
 */
gboolean sweep_spec_check(const SweepSpec *self, K8sDiagList *diags);

/* ---- runs: one (cell, seed) each ---------------------------------------------------------- */

/**
 * SweepRun:
 *
 * One run: the scenario with @overrides, every mode, with @seed. @id names its
 * folder under cells/ and is unique in its sweep.
 */
typedef struct {
	char *id;
	guint cell; /* the grid cell (index into sweep_manifest_cell_values()) */
	guint64 seed;
	ScenarioOverride *overrides;
	guint n_overrides;
} SweepRun;

/**
 * SweepManifest:
 *
 * The expanded sweep as DIR/sweep-manifest.json keeps it: the spec, the
 * grid's cells and the runs in a fixed order (cell-major, seeds in order).
 * Everything that reads an output folder (run-task, merge, a resumed sweep)
 * reads this, never the Sweep file again.
 */
typedef struct SweepManifest SweepManifest;

SweepManifest *sweep_manifest_new(const SweepSpec *spec, GError **error);
void sweep_manifest_free(SweepManifest *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SweepManifest, sweep_manifest_free)
const SweepSpec *sweep_manifest_get_spec(const SweepManifest *self);
guint sweep_manifest_get_n_cells(const SweepManifest *self);
/* (transfer none) the values (char*, one per parameter) of @cell. */
const char *const *sweep_manifest_cell_values(const SweepManifest *self, guint cell);
guint sweep_manifest_get_n_runs(const SweepManifest *self);
const SweepRun *sweep_manifest_get_run(const SweepManifest *self, guint index);
/* Writes DIR/sweep-manifest.json, or checks that the one there is the same sweep. */
gboolean sweep_manifest_save(const SweepManifest *self, const char *dir, GError **error);
SweepManifest *sweep_manifest_load(const char *dir, GError **error);

/* ---- execution ---------------------------------------------------------------------------- */

/**
 * sweep_run_one:
 * Runs @run in this process: loads the scenario with its overrides, runs
 * every mode, and writes @cells_dir/ID/report.json, or @cells_dir/ID/error.txt
 * with the diagnostics, atomically. The wall time it took goes to
 * @cells_dir/ID/seconds (never into results).
 * Returns: TRUE when the report was written.
 */
gboolean sweep_run_one(const char *scenario,
                       SimTime horizon,
                       const SweepRun *run,
                       const char *cells_dir,
                       GError **error);

/* What a sweep_exec_*() call did. @cell_seconds: the runs' own wall times, summed. */
typedef struct {
	guint done;    /* runs that wrote a report now */
	guint failed;  /* runs that wrote error.txt now */
	guint skipped; /* runs whose report was already there (resumed) */
	double cell_seconds;
} SweepExecSummary;

typedef struct {
	guint jobs;              /* child processes at once; 0: the online cores */
	gboolean progress;       /* a progress line on stderr (done, running, failed, ETA) */
	gboolean progress_lines; /* without @progress: a line at each tenth of the runs */
	const char *label;       /* its prefix ("sweep", "plan 3 x dgx") */
} SweepExecOptions;

/**
 * sweep_exec_local:
 * Runs the @n_runs runs that have no report.json under @cells_dir yet, each
 * in a child process, @options->jobs at a time. A run that fails records
 * its error and the others go on.
 * Returns: FALSE with @error only when the runs could not be started.
 */
gboolean sweep_exec_local(const char *scenario,
                          SimTime horizon,
                          const SweepRun *runs,
                          guint n_runs,
                          const char *cells_dir,
                          const SweepExecOptions *options,
                          SweepExecSummary *summary,
                          GError **error);

/* The runs array task @task of @n_tasks executes: indices task, task + n_tasks, ... */
gboolean sweep_exec_task(const SweepManifest *manifest,
                         const char *dir,
                         guint task,
                         guint n_tasks,
                         SweepExecSummary *summary,
                         GError **error);

/**
 * sweep_run_load:
 * Returns: (transfer full) (nullable): the summary of the report @run wrote
 * under @cells_dir (identity, infos, metrics: rpt_report_copy_summary()),
 * or NULL with @error_text set to its error.txt (or "not run").
 */
RptReport *sweep_run_load(const char *cells_dir, const SweepRun *run, char **error_text);

/* ---- statistics and merge ---------------------------------------------------------------- */

/**
 * sweep_stat_compute:
 * Summarises the @n finite values of @x (NaN entries are left out and not
 * counted): n, mean, sample sd, and the two-sided @confidence interval of
 * the mean by Student's t with n - 1 degrees of freedom. With n == 1 sd and
 * the interval are NaN; with n == 0 everything is NaN.
 */
void sweep_stat_compute(const double *x, guint n, double confidence, RptStat *out);

/**
 * sweep_collect:
 * The results table of a finished (or partly finished) sweep: for each cell,
 * mode and metric of its reports, the statistics across seeds; failed and
 * missing runs listed. Reads @dir/cells/.
 * Returns: (transfer full) the table for the rpt_sweep_* writers.
 */
RptSweep *sweep_collect(const SweepManifest *manifest, const char *dir);

/* Writes DIR/sweep.json, sweep.csv and sweep.html from sweep_collect(). */
gboolean
sweep_merge(const SweepManifest *manifest, const char *dir, RptSweep **table_out, GError **error);

G_END_DECLS
