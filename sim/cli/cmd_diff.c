/*
 * cmd_diff.c: `drasim diff OLD.json NEW.json [--tolerance FILE]`, the
 * regression check between two reports or two benchmark result files.
 *
 * The comparison lives in reports/ (rpt_diff_*); this file is the command
 * line around it. Exit 1 when a change is beyond tolerance, a metric was
 * removed or a mode is missing (with --strict, also when one was added).
 */
#include <stdio.h>

#include "cli.h"
#include "rpt.h"

int cli_diff_main(int argc, char **argv);

int
cli_diff_main(int argc, char **argv)
{
	g_autofree char *tolerance_file = NULL;
	gboolean all = FALSE, strict = FALSE;
	GOptionEntry entries[] = {
		{ "tolerance", 't', 0, G_OPTION_ARG_FILENAME, &tolerance_file,
		  "tolerance rules, one `PATTERN abs|rel VALUE` a line (over the defaults)",
		  "FILE" },
		{ "strict", 0, 0, G_OPTION_ARG_NONE, &strict,
		  "also fail on added metrics and modes", NULL },
		{ "all", 'a', 0, G_OPTION_ARG_NONE, &all, "list unchanged metrics too", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("OLD.json NEW.json - compare two reports or bench files");
	g_autoptr(RptTolerances) tolerances = rpt_tolerances_new();
	g_autoptr(RptReport) old_report = NULL;
	g_autoptr(RptReport) new_report = NULL;
	g_autoptr(RptDiff) diff = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *table = NULL;
	int status;

	g_option_context_add_main_entries(context, entries, NULL);
	status = cli_parse_options(context, &argc, &argv);
	if (status != CLI_EXIT_OK) {
		return status;
	}
	if (argc != 3) {
		fprintf(stderr, "drasim diff: expected two files, OLD.json and NEW.json\n");
		return CLI_EXIT_USAGE;
	}
	if ((tolerance_file && !rpt_tolerances_load(tolerances, tolerance_file, &error)) ||
	    !(old_report = rpt_diff_load(argv[1], &error)) ||
	    !(new_report = rpt_diff_load(argv[2], &error))) {
		fprintf(stderr, "drasim diff: error: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	diff = rpt_diff_new(old_report, new_report, tolerances);
	table = rpt_diff_to_string(diff, all);
	fputs(table, stdout);
	return rpt_diff_count_failures(diff, strict) > 0 ? CLI_EXIT_INPUT_ERROR : CLI_EXIT_OK;
}
