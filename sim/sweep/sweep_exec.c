/*
 * sweep_exec.c: runs a list of runs. Locally each run is a task of
 * sweep_pool.c (a child process: fork, sweep_run_one, _exit), at most `jobs`
 * at once, so a run that crashes or exhausts memory takes only itself down
 * and the sweep goes on; the parent only schedules, waits and shows
 * progress. An array task (Slurm, a Kubernetes Job index) runs its slice one
 * after the other in its own process. Either way a run whose report is already there is skipped:
 * that is what resuming means.
 */
#include <string.h>

#include "sweep-private.h"
#include "sweep_pool.h"

typedef struct {
	const char *scenario;
	SimTime horizon;
	const SweepRun *runs;
	const char *cells_dir;
	GArray *pending; /* guint: the run index of each pool task */
	SweepExecSummary *summary;
} ExecState;

/* In the child: the run writes its report or error.txt itself; nothing to send back. */
static gboolean
exec_run(guint task, GByteArray *out, gpointer data)
{
	const ExecState *st = data;
	guint index = g_array_index(st->pending, guint, task);

	(void)out;
	return sweep_run_one(st->scenario, st->horizon, &st->runs[index], st->cells_dir, NULL);
}

/* In the parent: a child killed by a signal gets its error.txt here. */
static gboolean
exec_done(guint task, const SweepPoolResult *result, gpointer data)
{
	ExecState *st = data;
	const SweepRun *run = &st->runs[g_array_index(st->pending, guint, task)];

	if (result->signal != 0) {
		g_autofree char *message =
		        g_strdup_printf("the run's process was killed by signal %d (%s)",
		                        result->signal, g_strsignal(result->signal));

		sweep_run__record_error(st->cells_dir, run, message);
	}
	st->summary->cell_seconds += sweep_run__seconds(st->cells_dir, run);
	return result->ok;
}

gboolean
sweep_exec_local(const char *scenario,
                 SimTime horizon,
                 const SweepRun *runs,
                 guint n_runs,
                 const char *cells_dir,
                 const SweepExecOptions *options,
                 SweepExecSummary *summary,
                 GError **error)
{
	g_autoptr(GArray) pending = g_array_new(FALSE, FALSE, sizeof(guint));
	ExecState st = { scenario, horizon, runs, cells_dir, pending, summary };
	SweepPoolOptions pool = { options->jobs,           FALSE,         FALSE, options->progress,
		                  options->progress_lines, options->label };
	SweepPoolSummary ran;
	gboolean ok;

	*summary = (SweepExecSummary){ 0 };
	for (guint i = 0; i < n_runs; i++) {
		if (sweep_run__done(cells_dir, &runs[i]))
			summary->skipped++;
		else
			g_array_append_val(pending, i);
	}
	ok = sweep_pool_run(pending->len, &pool, exec_run, exec_done, &st, &ran, error);
	summary->done = ran.done;
	summary->failed = ran.failed;
	return ok;
}

gboolean
sweep_exec_task(const SweepManifest *manifest,
                const char *dir,
                guint task,
                guint n_tasks,
                SweepExecSummary *summary,
                GError **error)
{
	const SweepSpec *spec = sweep_manifest_get_spec(manifest);
	g_autofree char *cells_dir = g_build_filename(dir, "cells", NULL);
	guint n = sweep_manifest_get_n_runs(manifest);

	*summary = (SweepExecSummary){ 0 };
	if (n_tasks == 0 || task >= n_tasks) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
		            "task %u of %u: a task is numbered 0 to tasks - 1", task, n_tasks);
		return FALSE;
	}
	for (guint i = task; i < n; i += n_tasks) {
		const SweepRun *run = sweep_manifest_get_run(manifest, i);

		if (sweep_run__done(cells_dir, run)) {
			summary->skipped++;
			continue;
		}
		if (sweep_run_one(spec->scenario, spec->horizon, run, cells_dir, NULL))
			summary->done++;
		else
			summary->failed++;
		summary->cell_seconds += sweep_run__seconds(cells_dir, run);
	}
	return TRUE;
}
