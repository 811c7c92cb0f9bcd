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
