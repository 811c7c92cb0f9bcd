/*
 * cmd_run.h: what `drasim run` and `drasim compare` share (cmd_run.c).
 */
#pragma once

#include <glib.h>

#include "scenario.h"

/* @compare: run every mode of the scenario and print one table. */
int cli_run_main(int argc, char **argv);
int cli_compare_main(int argc, char **argv);
int cli_run_common(int argc, char **argv, gboolean compare);
/* cmd_compare.c: the usage error for a --baseline that names no mode of @sc, listing its
 * modes; returns the usage exit status. */
int cli_compare_unknown_baseline(const Scenario *sc, const char *baseline);

/**
 * cli_check_mode:
 * Whether @sc has a mode named @mode. Returns: CLI_EXIT_OK, or CLI_EXIT_USAGE
 * after "no such mode 'M'; did you mean 'N'? modes: A, B" (the running command).
 */
int cli_check_mode(const Scenario *sc, const char *mode);
