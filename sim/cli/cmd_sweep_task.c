/*
 * cmd_sweep_task.c: the two halves of a sweep that runs elsewhere:
 * `drasim sweep run-task DIR --task T --tasks N` runs one array task's
 * slice of the runs (what a Slurm array task or a Kubernetes Job index
 * executes), and `drasim sweep merge DIR` assembles whatever reports are
 * there into the sweep's results, listing the runs that failed or are
 * missing.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_sweep.h"

/* At most this many failed runs are listed one by one; the rest are counted. */
#define LISTED_FAILURES 20

static void
print_failures(const SweepManifest *manifest, const char *dir, guint *n_failed)
{
	g_autofree char *cells_dir = g_build_filename(dir, "cells", NULL);

	*n_failed = 0;
	for (guint i = 0; i < sweep_manifest_get_n_runs(manifest); i++) {
		const SweepRun *run = sweep_manifest_get_run(manifest, i);
		g_autofree char *why = NULL;
		g_autoptr(RptReport) report = sweep_run_load(cells_dir, run, &why);
		char *newline;

		if (report != NULL)
			continue;
		if (++*n_failed > LISTED_FAILURES)
			continue;
		newline = strchr(why, '\n');
		if (newline != NULL)
			*newline = '\0';
		fprintf(stderr, "  failed: cells/%s: %s%s\n", run->id, why,
		        newline != NULL ? " (more in its error.txt)" : "");
	}
	if (*n_failed > LISTED_FAILURES)
		fprintf(stderr, "  ... and %u more failed runs\n", *n_failed - LISTED_FAILURES);
}

int
cli_sweep_merge_and_report(const SweepManifest *manifest, const char *dir)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(RptSweep) table = NULL;
	guint n_failed;

	if (!sweep_merge(manifest, dir, &table, &error)) {
		fprintf(stderr, "drasim: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	print_failures(manifest, dir, &n_failed);
	printf("%s: %u runs (%u cells x %u seeds), %u failed; %u rows in %s/sweep.csv, "
	       "sweep.json, sweep.html\n",
	       sweep_manifest_get_spec(manifest)->name, sweep_manifest_get_n_runs(manifest),
	       sweep_manifest_get_n_cells(manifest), sweep_manifest_get_spec(manifest)->seeds->len,
	       n_failed, rpt_sweep_get_n_rows(table), dir);
	return n_failed == 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT_ERROR;
}

int
cli_sweep_run_task_main(int argc, char **argv)
{
	gint64 task = -1, tasks = 0;
	GOptionEntry entries[] = {
		{ "task", 0, 0, G_OPTION_ARG_INT64, &task,
		  "this task's number, 0 to tasks - 1 "
		  "(Slurm: $SLURM_ARRAY_TASK_ID; Kubernetes: $JOB_COMPLETION_INDEX)",
		  "T" },
		{ "tasks", 0, 0, G_OPTION_ARG_INT64, &tasks,
		  "how many tasks share the runs (task T runs runs T, T+N, ...)", "N" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("DIR - run one array task's slice of the sweep in DIR");
	g_autoptr(SweepManifest) manifest = NULL;
	g_autoptr(GError) error = NULL;
	SweepExecSummary summary;
	int rc;

	g_option_context_add_main_entries(context, entries, NULL);
	if ((rc = cli_parse_options(context, &argc, &argv)) != CLI_EXIT_OK)
		return rc;
	if (argc != 2)
		return cli_usage_error("sweep run-task", "expected the sweep's folder DIR");
	if (task < 0 || tasks < 1 || task >= tasks || tasks > G_MAXUINT)
		return cli_usage_error("sweep run-task",
		                       "--task T and --tasks N are needed, with 0 <= T < N");
	manifest = sweep_manifest_load(argv[1], &error);
	if (manifest == NULL ||
	    !sweep_exec_task(manifest, argv[1], (guint)task, (guint)tasks, &summary, &error)) {
		fprintf(stderr, "drasim: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	printf("task %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT ": %u runs done, %u failed, %u "
	       "already there\n",
	       task, tasks, summary.done, summary.failed, summary.skipped);
	return summary.failed == 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT_ERROR;
}

int
cli_sweep_merge_main(int argc, char **argv)
{
	GOptionEntry entries[] = { { NULL, 0, 0, 0, NULL, NULL, NULL } };
	g_autoptr(GOptionContext) context = g_option_context_new(
	        "DIR - merge the runs' reports in DIR into sweep.json, sweep.csv and sweep.html");
	g_autoptr(SweepManifest) manifest = NULL;
	g_autoptr(GError) error = NULL;
	int rc;

	g_option_context_add_main_entries(context, entries, NULL);
	if ((rc = cli_parse_options(context, &argc, &argv)) != CLI_EXIT_OK)
		return rc;
	if (argc != 2)
		return cli_usage_error("sweep merge", "expected the sweep's folder DIR");
	manifest = sweep_manifest_load(argv[1], &error);
	if (manifest == NULL) {
		fprintf(stderr, "drasim: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	return cli_sweep_merge_and_report(manifest, argv[1]);
}
