/*
 * cmd_run.h: what `drasim run` and `drasim compare` share (cmd_run.c).
 */
#pragma once

#include <glib.h>

/* @compare: run every mode of the scenario and print one table. */
int cli_run_main(int argc, char **argv);
int cli_compare_main(int argc, char **argv);
int cli_run_common(int argc, char **argv, gboolean compare);
