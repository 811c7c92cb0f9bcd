/*
 * cmd_sweep_engine.c: `drasim sweep ... --slurm` and `--k8s`: the options
 * that hand a sweep's runs to a batch system instead of local child
 * processes. Both write the task script or manifest into DIR (sim/sweep's
 * sweep_engines.h); --submit also submits the Slurm array, waits for it and
 * merges, so DIR/sweep.csv is there when the command returns.
 */
#include <stdio.h>

#include "cli.h"
#include "cmd_sweep.h"
#include "sweep_engines.h"

/* A default array: one run per task, at most this many tasks (Slurm's default MaxArraySize is
 * 1001). */
#define DEFAULT_MAX_TASKS 1000

GOptionGroup *
cli_sweep_engine_options(SweepEngineArgs *a)
{
	GOptionEntry entries[] = {
		{ "slurm", 0, 0, G_OPTION_ARG_NONE, &a->slurm,
		  "write DIR/sweep.sbatch, one Slurm job array running the runs", NULL },
		{ "submit", 0, 0, G_OPTION_ARG_NONE, &a->submit,
		  "with --slurm: sbatch it, wait for the array and merge", NULL },
		{ "k8s", 0, 0, G_OPTION_ARG_NONE, &a->k8s,
		  "write DIR/sweep-job.yaml, a Kubernetes Indexed Job, and DIR/README-k8s.md",
		  NULL },
		{ "tasks", 0, 0, G_OPTION_ARG_INT64, &a->tasks,
		  "array tasks / Job indexes sharing the runs (default: one per run, at most 1000)",
		  "N" },
		{ "job-name", 0, 0, G_OPTION_ARG_STRING, &a->job_name,
		  "the Slurm job's or Kubernetes Job's name (default drasim-sweep)", "NAME" },
		{ "partition", 0, 0, G_OPTION_ARG_STRING, &a->partition, "Slurm --partition", "P" },
		{ "time", 0, 0, G_OPTION_ARG_STRING, &a->time, "Slurm --time per task", "T" },
		{ "cpus-per-task", 0, 0, G_OPTION_ARG_INT64, &a->cpus_per_task,
		  "Slurm --cpus-per-task", "C" },
		{ "array-throttle", 0, 0, G_OPTION_ARG_INT64, &a->array_throttle,
		  "Slurm: at most M tasks at once (--array=...%M)", "M" },
		{ "sbatch-arg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a->sbatch_args,
		  "one more sbatch option, e.g. --sbatch-arg=--mem=4G (repeatable)", "ARG" },
		{ "parallelism", 0, 0, G_OPTION_ARG_INT64, &a->parallelism,
		  "Kubernetes: pods at once (default min(tasks, 4))", "P" },
		{ "image", 0, 0, G_OPTION_ARG_STRING, &a->image,
		  "Kubernetes: the container image (default drasim:VERSION)", "IMAGE" },
		{ "pvc", 0, 0, G_OPTION_ARG_STRING, &a->pvc,
		  "Kubernetes: the PersistentVolumeClaim holding DIR and the scenario", "NAME" },
		{ "k8s-root", 0, 0, G_OPTION_ARG_FILENAME, &a->k8s_root,
		  "Kubernetes: where the claim is mounted (default: the folder holding both)",
		  "PATH" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GOptionGroup *group =
	        g_option_group_new("engines", "Running on Slurm or Kubernetes:",
	                           "Show the Slurm and Kubernetes options", NULL, NULL);

	g_option_group_add_entries(group, entries);
	return group;
}

void
cli_sweep_engine_args_clear(SweepEngineArgs *a)
{
	g_free(a->job_name);
	g_free(a->partition);
	g_free(a->time);
	g_strfreev(a->sbatch_args);
	g_free(a->image);
	g_free(a->pvc);
	g_free(a->k8s_root);
}

const char *
cli_sweep_engine_args_check(const SweepEngineArgs *a)
{
	gboolean slurm_only = a->submit || a->partition != NULL || a->time != NULL ||
	                      a->cpus_per_task != 0 || a->array_throttle != 0 ||
	                      a->sbatch_args != NULL;
	gboolean k8s_only =
	        a->parallelism != 0 || a->image != NULL || a->pvc != NULL || a->k8s_root != NULL;

	if (a->slurm && a->k8s)
		return "--slurm and --k8s: choose one engine";
	if (slurm_only && !a->slurm)
		return "--submit, --partition, --time, --cpus-per-task, --array-throttle and "
		       "--sbatch-arg are options of --slurm";
	if (k8s_only && !a->k8s)
		return "--parallelism, --image, --pvc and --k8s-root are options of --k8s";
	if ((a->tasks != 0 || a->job_name != NULL) && !a->slurm && !a->k8s)
		return "--tasks and --job-name need --slurm or --k8s";
	if (a->tasks < 0 || a->tasks > G_MAXINT32 || a->cpus_per_task < 0 ||
	    a->cpus_per_task > 4096 || a->array_throttle < 0 || a->array_throttle > G_MAXINT32 ||
	    a->parallelism < 0 || a->parallelism > G_MAXINT32)
		return "--tasks, --cpus-per-task, --array-throttle and --parallelism take positive "
		       "numbers";
	return NULL;
}

static guint
task_count(const SweepEngineArgs *a, const SweepManifest *manifest)
{
	guint runs = sweep_manifest_get_n_runs(manifest);

	if (a->tasks > 0)
		return (guint)MIN((guint64)a->tasks, runs);
	return MIN(runs, DEFAULT_MAX_TASKS);
}

static SweepSlurmOptions
slurm_options(const SweepEngineArgs *a, const SweepManifest *manifest)
{
	return (SweepSlurmOptions){ task_count(a, manifest),
		                    a->job_name,
		                    a->partition,
		                    a->time,
		                    (guint)a->cpus_per_task,
		                    (guint)a->array_throttle,
		                    (const char *const *)a->sbatch_args };
}

static SweepK8sOptions
k8s_options(const SweepEngineArgs *a, const SweepManifest *manifest)
{
	return (SweepK8sOptions){ task_count(a, manifest),
		                  (guint)a->parallelism,
		                  a->job_name,
		                  a->image,
		                  a->pvc,
		                  a->k8s_root };
}

char *
cli_sweep_engine_validate(const SweepEngineArgs *a, const SweepManifest *manifest, const char *dir)
{
	g_autofree char *absolute = g_canonicalize_filename(dir, NULL);
	g_autoptr(GError) error = NULL;
	g_autofree char *text = NULL;

	if (a->slurm) {
		SweepSlurmOptions o = slurm_options(a, manifest);

		text = sweep_slurm_script(&o, "/proc/self/exe", absolute, &error);
	} else if (a->k8s) {
		SweepK8sOptions o = k8s_options(a, manifest);

		text = sweep_k8s_job_text(&o, absolute, sweep_manifest_get_spec(manifest)->scenario,
		                          &error);
	}
	return error != NULL ? g_strdup(error->message) : NULL;
}

static int
run_slurm(const SweepEngineArgs *a, const SweepManifest *manifest, const char *dir)
{
	SweepSlurmOptions o = { task_count(a, manifest),
		                a->job_name,
		                a->partition,
		                a->time,
		                (guint)a->cpus_per_task,
		                (guint)a->array_throttle,
		                (const char *const *)a->sbatch_args };
	SweepSlurmSubmit submitted = { 0 };
	g_autoptr(GError) error = NULL;

	if (!sweep_slurm_write(&o, dir, &error)) {
		fprintf(stderr, "drasim sweep: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	if (!a->submit) {
		printf("%s/sweep.sbatch: %u array tasks for %u runs; submit it with `sbatch "
		       "%s/sweep.sbatch`, then `drasim sweep merge %s`\n",
		       dir, o.tasks, sweep_manifest_get_n_runs(manifest), dir, dir);
		return CLI_EXIT_OK;
	}
	if (!sweep_slurm_submit(dir, &submitted, &error)) {
		fprintf(stderr, "drasim sweep: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	sweep_slurm_submit_clear(&submitted);
	return cli_sweep_merge_and_report(manifest, dir);
}

static int
run_k8s(const SweepEngineArgs *a, const SweepManifest *manifest, const char *dir)
{
	SweepK8sOptions o = { task_count(a, manifest),
		              (guint)a->parallelism,
		              a->job_name,
		              a->image,
		              a->pvc,
		              a->k8s_root };
	g_autoptr(GError) error = NULL;

	if (!sweep_k8s_write(&o, dir, sweep_manifest_get_spec(manifest)->scenario, &error)) {
		fprintf(stderr, "drasim sweep: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	printf("%s/sweep-job.yaml: an Indexed Job of %u indexes for %u runs; %s/README-k8s.md "
	       "says how to run it and merge\n",
	       dir, o.tasks, sweep_manifest_get_n_runs(manifest), dir);
	return CLI_EXIT_OK;
}

int
cli_sweep_engine_run(const SweepEngineArgs *a, const SweepManifest *manifest, const char *dir)
{
	if (a->slurm)
		return run_slurm(a, manifest, dir);
	if (a->k8s)
		return run_k8s(a, manifest, dir);
	return -1;
}
