/*
 * cli.h: the drasim command's subcommand table and shared helpers.
 *
 * Every subcommand is one row of cli_commands[] (cli_commands.c) and one
 * cmd_<name>.c file. A handler receives argv with argv[0] set to the
 * subcommand's name and returns an exit status from CliExit.
 */
#pragma once

#include <glib.h>

#include "sim.h"

typedef enum {
	CLI_EXIT_OK = 0,          /* success, or only warnings */
	CLI_EXIT_INPUT_ERROR = 1, /* the input has errors, or a check failed */
	CLI_EXIT_USAGE = 2,       /* the command line itself is wrong */
} CliExit;

typedef int (*CliHandler)(int argc, char **argv);

typedef struct {
	const char *name;
	const char *summary;
	CliHandler handler;
	/* the "Examples:" of its --help (and of drasim(1)): indented command lines */
	const char *examples;
} CliCommand;

/* The subcommands, terminated by a row with name == NULL. */
extern const CliCommand cli_commands[];

/**
 * cli_parse_options:
 * Parses argv with @context, printing the error and a hint on failure.
 * Returns: CLI_EXIT_OK, or CLI_EXIT_USAGE when the options are wrong.
 */
int cli_parse_options(GOptionContext *context, int *argc, char ***argv);

/**
 * cli_option_names:
 * The long options @context knows ("--format", ...; not --help), in its help's
 * order: what an unknown option is matched against.
 * Returns: (transfer full): a NULL-terminated array.
 */
char **cli_option_names(GOptionContext *context);

/**
 * cli_usage_error:
 * Prints "drasim @command: @message" and the --help hint on stderr (@command
 * NULL: the running command, as dispatched).
 * Returns: CLI_EXIT_USAGE, for the caller to return.
 */
int cli_usage_error(const char *command, const char *message);

/**
 * cli_dispatch:
 * Runs the row of @table named by argv[1] (--version and -V: `version`);
 * on a miss, did-you-mean and the table.
 * Returns: the handler's exit status, or CLI_EXIT_USAGE.
 */
int cli_dispatch(const CliCommand *table, const char *prog, int argc, char **argv);

/**
 * cli_run_row:
 * Runs @row's handler as "@prog NAME": its --help, usage line and errors name
 * it so, and it gets the row's examples (cli_dispatch, nested subcommands).
 * Returns: the handler's exit status.
 */
int cli_run_row(const CliCommand *row, const char *prog, int argc, char **argv);

/**
 * cli_install_output_checks:
 * Makes a lost write to stdout an error: at exit, stdout is flushed and
 * closed, and any write error since the start (a full disk, a closed pipe
 * with SIGPIPE ignored) prints "drasim: error writing standard output:
 * REASON" and turns the exit status into CLI_EXIT_INPUT_ERROR. Call once,
 * first thing in main() (cli_output.c).
 */
void cli_install_output_checks(void);

/* A run's progress line on a terminal (cli_progress.c). */
typedef struct {
	const char *label; /* the mode */
	SimTime horizon;   /* <= 0 or SIM_TIME_NEVER: no percent, no ETA */
	gint64 start_us, shown_us;
} CliProgress;

/**
 * cli_progress_line:
 * "LABEL: t=1d14h of 7d (22%)  pods=138,099  events/s=19,936  ETA 3m12s": the
 * simulated time @now of @horizon (floored percent), @pods bound, @events over
 * @wall_s seconds, and the ETA if the rest goes at the same simulated speed;
 * without a horizon "LABEL: t=1d14h  pods=...  events/s=...". Returns: (transfer full).
 */
char *cli_progress_line(const char *label,
                        SimTime now,
                        SimTime horizon,
                        guint64 pods,
                        guint64 events,
                        double wall_s);
/* TRUE on a terminal only: never in pipes or CI logs. */
gboolean cli_progress_wanted(void);
void cli_progress_start(CliProgress *p, const char *label, SimTime horizon);
/* Rewrites the line in place, at most four times a second. */
void cli_progress_show(CliProgress *p, SimTime now, guint64 pods, guint64 events);
/* Erases the line. */
void cli_progress_end(CliProgress *p);

/* Handlers, one per row of the tables. */
int cli_version_main(int argc, char **argv);
int cli_explain_main(int argc, char **argv);
int cli_convert_main(int argc, char **argv);
int cli_lint_main(int argc, char **argv);
int cli_import_main(int argc, char **argv);
int cli_publish_main(int argc, char **argv);
int cli_sweep_main(int argc, char **argv);
int cli_plan_main(int argc, char **argv);
int cli_experiment_main(int argc, char **argv);
