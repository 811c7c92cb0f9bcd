/*
 * cli_dispatch.c: finding a subcommand by name, and option parsing shared by
 * every subcommand so that errors and exit codes look the same everywhere.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void
print_table(FILE *out, const char *prog, const CliCommand *table)
{
	fprintf(out, "Usage: %s COMMAND [OPTION...]\n\nCommands:\n", prog);
	for (const CliCommand *row = table; row->name != NULL; row++) {
		fprintf(out, "  %-14s %s\n", row->name, row->summary);
	}
	fprintf(out, "\nRun '%s COMMAND --help' for the options of a command.\n", prog);
}

int
cli_dispatch(const CliCommand *table, const char *prog, int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		print_table(argc < 2 ? stderr : stdout, prog, table);
		return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	}
	for (const CliCommand *row = table; row->name != NULL; row++) {
		if (strcmp(row->name, argv[1]) == 0) {
			return row->handler(argc - 1, argv + 1);
		}
	}
	fprintf(stderr, "%s: unknown command '%s'\n", prog, argv[1]);
	print_table(stderr, prog, table);
	return CLI_EXIT_USAGE;
}

int
cli_parse_options(GOptionContext *context, int *argc, char ***argv)
{
	g_autoptr(GError) error = NULL;

	if (!g_option_context_parse(context, argc, argv, &error)) {
		fprintf(stderr, "drasim: %s\n", error->message);
		fprintf(stderr, "Run with --help for usage.\n");
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

int
cli_usage_error(const char *command, const char *message)
{
	fprintf(stderr, "drasim %s: %s\nRun with --help for usage.\n", command, message);
	return CLI_EXIT_USAGE;
}
