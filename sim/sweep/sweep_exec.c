/*
 * sweep_exec.c: runs a list of runs. Locally each run is a child process
 * (fork, then sweep_run_one, then _exit), at most `jobs` at once, so a run
 * that crashes or exhausts memory takes only itself down and the sweep goes
 * on; the parent only schedules, waits and shows progress. An array task
 * (Slurm, a Kubernetes Job index) runs its slice one after the other in its
 * own process. Either way a run whose report is already there is skipped:
 * that is what resuming means.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep-private.h"

typedef struct {
	const char *scenario;
	SimTime horizon;
	const SweepRun *runs;
	const char *cells_dir;
	const SweepExecOptions *options;
	SweepExecSummary *summary;
	GHashTable *running; /* pid -> run index + 1 */
	guint n_to_run;
	guint tenths_shown; /* progress_lines: tenths of the runs already reported */
	gint64 start_us;
} ExecState;

/* "42s", "3m05s", "2h10m": a person's reading of the seconds left. */
static void
format_eta(char *buf, gsize size, double seconds)
{
	guint64 s = (guint64)(seconds + 0.5);

	if (s < 60)
		g_snprintf(buf, size, "%" G_GUINT64_FORMAT "s", s);
	else if (s < 3600)
		g_snprintf(buf, size, "%" G_GUINT64_FORMAT "m%02" G_GUINT64_FORMAT "s", s / 60,
		           s % 60);
	else
		g_snprintf(buf, size, "%" G_GUINT64_FORMAT "h%02" G_GUINT64_FORMAT "m", s / 3600,
		           s / 60 % 60);
}

/*
 * On a terminal one line rewritten in place; in a log (progress_lines) a line
 * each time another tenth of the runs has finished, so a long sweep in CI
 * says where it is without flooding the log.
 */
static void
show_progress(ExecState *st, gboolean final)
{
	guint finished = st->summary->done + st->summary->failed;
	guint running = g_hash_table_size(st->running);
	double elapsed = (double)(g_get_monotonic_time() - st->start_us) / 1e6;
	guint tenth = st->n_to_run > 0 ? finished * 10 / st->n_to_run : 10;
	char eta[32] = "-";

	if (!st->options->progress && !(st->options->progress_lines && tenth > st->tenths_shown))
		return;
	if (finished > 0 && finished < st->n_to_run)
		format_eta(eta, sizeof eta, elapsed / finished * (st->n_to_run - finished));
	fprintf(stderr, "%s%s: %u/%u runs done, %u running, %u failed, ETA %s%s",
	        st->options->progress ? "\r" : "",
	        st->options->label != NULL ? st->options->label : "sweep", finished, st->n_to_run,
	        running, st->summary->failed, eta, st->options->progress ? "   " : "\n");
	st->tenths_shown = tenth;
	if (final && st->options->progress)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

/* The child's whole life: no return into the parent's code, no exit handlers. */
static G_GNUC_NORETURN void
child_run(const ExecState *st, guint index)
{
	gboolean ok =
	        sweep_run_one(st->scenario, st->horizon, &st->runs[index], st->cells_dir, NULL);

	fflush(NULL);
	_exit(ok ? 0 : 1);
}

static gboolean
start_run(ExecState *st, guint index, GError **error)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_IO, "cannot start a run: fork: %s",
		            g_strerror(errno));
		return FALSE;
	}
	if (pid == 0)
		child_run(st, index);
	g_hash_table_insert(st->running, GINT_TO_POINTER(pid), GUINT_TO_POINTER(index + 1));
	return TRUE;
}

/* Waits for one child and books it; a child killed by a signal gets its error.txt here. */
static void
reap_one(ExecState *st)
{
	int status = 0;
	pid_t pid;
	guint index;
	const SweepRun *run;

	do
		pid = waitpid(-1, &status, 0);
	while (pid < 0 && errno == EINTR);
	if (pid < 0)
		return;
	index = GPOINTER_TO_UINT(g_hash_table_lookup(st->running, GINT_TO_POINTER(pid)));
	g_hash_table_remove(st->running, GINT_TO_POINTER(pid));
	if (index == 0)
		return;
	run = &st->runs[index - 1];
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		st->summary->done++;
	} else {
		st->summary->failed++;
		if (WIFSIGNALED(status)) {
			g_autofree char *message =
			        g_strdup_printf("the run's process was killed by signal %d (%s)",
			                        WTERMSIG(status), g_strsignal(WTERMSIG(status)));

			sweep_run__record_error(st->cells_dir, run, message);
		}
	}
	st->summary->cell_seconds += sweep_run__seconds(st->cells_dir, run);
	show_progress(st, FALSE);
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
	ExecState st = { scenario, horizon, runs, cells_dir, options, summary, NULL, 0, 0, 0 };
	guint jobs = options->jobs > 0 ? options->jobs : g_get_num_processors();
	g_autoptr(GArray) pending = g_array_new(FALSE, FALSE, sizeof(guint));
	gboolean ok = TRUE;

	*summary = (SweepExecSummary){ 0 };
	for (guint i = 0; i < n_runs; i++) {
		if (sweep_run__done(cells_dir, &runs[i]))
			summary->skipped++;
		else
			g_array_append_val(pending, i);
	}
	st.running = g_hash_table_new(NULL, NULL);
	st.n_to_run = pending->len;
	st.start_us = g_get_monotonic_time();
	show_progress(&st, FALSE);
	for (guint next = 0; next < pending->len || g_hash_table_size(st.running) > 0;) {
		while (ok && next < pending->len && g_hash_table_size(st.running) < jobs)
			ok = start_run(&st, g_array_index(pending, guint, next++), error);
		if (!ok)
			next = pending->len; /* start nothing more; wait for what runs */
		if (g_hash_table_size(st.running) > 0)
			reap_one(&st);
	}
	show_progress(&st, TRUE);
	g_hash_table_unref(st.running);
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
