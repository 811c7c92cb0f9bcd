/*
 * cmd_sweep.h: what `drasim sweep`'s files share (cmd_sweep.c: the sweep
 * itself; cmd_sweep_task.c: run-task and merge).
 */
#pragma once

#include "sweep.h"

int cli_sweep_run_task_main(int argc, char **argv);
int cli_sweep_merge_main(int argc, char **argv);

/**
 * cli_sweep_merge_and_report:
 * Merges the runs under @dir into sweep.json/csv/html and prints where they
 * are and which runs failed (with the first line of each error).
 * Returns: CLI_EXIT_OK when every run has a report, CLI_EXIT_INPUT_ERROR otherwise.
 */
int cli_sweep_merge_and_report(const SweepManifest *manifest, const char *dir);

/* `--slurm` / `--k8s` and their options (cmd_sweep_engine.c). */
typedef struct {
	gboolean slurm, submit, k8s;
	gint64 tasks;
	char *job_name;
	char *partition, *time;
	gint64 cpus_per_task, array_throttle;
	char **sbatch_args;
	gint64 parallelism;
	char *image, *pvc, *k8s_root;
} SweepEngineArgs;

/* (transfer full) the option group; it writes into @a. */
GOptionGroup *cli_sweep_engine_options(SweepEngineArgs *a);
void cli_sweep_engine_args_clear(SweepEngineArgs *a);
/* The usage error in @a (an option of one engine without it...), or NULL. */
const char *cli_sweep_engine_args_check(const SweepEngineArgs *a);
/* What the engine's writer would refuse in @a's values (a newline in --partition, a
 * --k8s-root that holds not both paths...), before anything is written; NULL: nothing. */
char *
cli_sweep_engine_validate(const SweepEngineArgs *a, const SweepManifest *manifest, const char *dir);
/* Hands the runs to the engine @a asks for; -1 when it asks for none (run locally). */
int cli_sweep_engine_run(const SweepEngineArgs *a, const SweepManifest *manifest, const char *dir);
