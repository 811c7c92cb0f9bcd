/*
 * cli_dispatch.c: finding a subcommand by name, and option parsing shared by
 * every subcommand so that errors, help texts and exit codes look the same
 * everywhere. A name that is not found (a command, an option) gets base's
 * one did-you-mean message with the valid names (base_strict_unknown).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base_strict.h"
#include "cli.h"

/* The row being run: its name, summary and examples complete its --help. */
static const CliCommand *current;

static void
print_table(FILE *out, const char *prog, const CliCommand *table)
{
	fprintf(out, "Usage: %s COMMAND [OPTION...]\n       %s --version\n\nCommands:\n", prog,
	        prog);
	for (const CliCommand *row = table; row->name != NULL; row++) {
		fprintf(out, "  %-14s %s\n", row->name, row->summary);
	}
	fprintf(out, "\nRun '%s COMMAND --help' for the options and examples of a command.\n",
	        prog);
}

/* The names of @table's rows, NULL-terminated (the strings are the table's). */
static const char **
command_names(const CliCommand *table)
{
	guint n = 0;
	const char **names;

	while (table[n].name != NULL)
		n++;
	names = g_new0(const char *, n + 1);
	for (guint i = 0; i < n; i++)
		names[i] = table[i].name;
	return names;
}

static int
unknown_command(const CliCommand *table, const char *prog, const char *word)
{
	g_autofree const char **names = command_names(table);
	g_autofree char *msg = base_strict_unknown("unknown command", word, names, NULL);

	fprintf(stderr, "%s: %s\n", prog, msg);
	print_table(stderr, prog, table);
	return CLI_EXIT_USAGE;
}

int
cli_run_row(const CliCommand *row, const char *prog, int argc, char **argv)
{
	g_autofree char *full = g_strdup_printf("%s %s", prog, row->name);

	current = row;
	/* GOption's usage line names the program: "drasim compare [OPTION…] SCENARIO" */
	g_set_prgname(full);
	return row->handler(argc, argv);
}

int
cli_dispatch(const CliCommand *table, const char *prog, int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "help") == 0) {
		/* `drasim help CMD` is `drasim CMD --help` */
		char help[] = "--help";
		char *help_argv[] = { argv[2], help, NULL };

		for (const CliCommand *row = table; row->name != NULL; row++) {
			if (strcmp(row->name, argv[2]) == 0)
				return cli_run_row(row, prog, 2, help_argv);
		}
		return unknown_command(table, prog, argv[2]);
	}
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		print_table(argc < 2 ? stderr : stdout, prog, table);
		return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		char version[] = "version";
		char *version_argv[] = { version, NULL };

		if (argc > 2) {
			fprintf(stderr, "%s: %s takes no arguments\n", prog, argv[1]);
			return CLI_EXIT_USAGE;
		}
		return cli_version_main(1, version_argv);
	}
	for (const CliCommand *row = table; row->name != NULL; row++) {
		if (strcmp(row->name, argv[1]) == 0)
			return cli_run_row(row, prog, argc - 1, argv + 1);
	}
	return unknown_command(table, prog, argv[1]);
}

/* The program name GOption shows: "drasim CMD" once dispatched. */
static const char *
prog(void)
{
	return g_get_prgname() != NULL ? g_get_prgname() : "drasim";
}

/* The summary and examples of the running command, unless the command set its own. */
static void
add_help_texts(GOptionContext *context)
{
	const char *description;

	if (current == NULL)
		return;
	if (g_option_context_get_summary(context) == NULL)
		g_option_context_set_summary(context, current->summary);
	description = g_option_context_get_description(context);
	if (current->examples != NULL) {
		g_autofree char *text =
		        g_strdup_printf("%s%sExamples:\n%s", description != NULL ? description : "",
		                        description != NULL ? "\n\n" : "", current->examples);

		g_option_context_set_description(context, text);
	}
}

/*
 * -h, --help or -? (1) or --help-all (2) before any "--": the help is then
 * printed here, as UTF-8 whatever the locale ("[OPTION…]", not "[OPTION?]").
 */
static int
wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0 ||
		    strcmp(argv[i], "-?") == 0)
			return 1;
		if (strcmp(argv[i], "--help-all") == 0)
			return 2;
	}
	return 0;
}

char **
cli_option_names(GOptionContext *context)
{
	g_autofree char *help = g_option_context_get_help(context, FALSE, NULL);
	g_auto(GStrv) lines = g_strsplit(help, "\n", -1);
	g_autoptr(GPtrArray) names = g_ptr_array_new();

	for (guint i = 0; lines[i] != NULL; i++) {
		const char *p = lines[i] + strspn(lines[i], " ");
		gsize len;

		if (p == lines[i] || *p != '-')
			continue; /* option rows are indented and start with a dash */
		if (p[1] != '-' && p[1] != '\0' && p[2] == ',' && p[3] == ' ')
			p += 4; /* "-o, --output=DIR" */
		len = strcspn(p, "= ");
		if (len < 3 || p[1] != '-' || strncmp(p, "--help", 6) == 0)
			continue;
		g_ptr_array_add(names, g_strndup(p, len));
	}
	g_ptr_array_add(names, NULL);
	return (char **)g_ptr_array_free(g_steal_pointer(&names), FALSE);
}

/* GOption's "Unknown option --fromat=x": did you mean, and the command's options. */
static int
unknown_option(GOptionContext *context, const char *glib_message)
{
	static const char prefix[] = "Unknown option ";
	g_auto(GStrv) known = cli_option_names(context);
	g_autofree char *word = NULL;
	g_autofree char *msg = NULL;

	if (!g_str_has_prefix(glib_message, prefix)) {
		fprintf(stderr, "%s: %s\n", prog(), glib_message);
		return CLI_EXIT_USAGE;
	}
	word = g_strdup(glib_message + strlen(prefix));
	word[strcspn(word, "=")] = '\0';
	msg = base_strict_unknown("unknown option", word, (const char *const *)known,
	                          known[0] != NULL ? "options" : NULL);
	return cli_usage_error(NULL, msg);
}

int
cli_parse_options(GOptionContext *context, int *argc, char ***argv)
{
	g_autoptr(GError) error = NULL;
	int help_kind;

	add_help_texts(context);
	if ((help_kind = wants_help(*argc, *argv)) != 0) {
		g_autofree char *help = g_option_context_get_help(context, help_kind == 1, NULL);

		fputs(help, stdout);
		exit(CLI_EXIT_OK); /* as GOption's own --help does; stdout is checked at exit */
	}
	if (!g_option_context_parse(context, argc, argv, &error)) {
		if (g_error_matches(error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION))
			return unknown_option(context, error->message);
		return cli_usage_error(NULL, error->message);
	}
	return CLI_EXIT_OK;
}

int
cli_usage_error(const char *command, const char *message)
{
	g_autofree char *who =
	        command != NULL ? g_strdup_printf("drasim %s", command) : g_strdup(prog());

	fprintf(stderr, "%s: %s\nRun '%s --help' for usage.\n", who, message, who);
	return CLI_EXIT_USAGE;
}
