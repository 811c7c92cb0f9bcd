/*
 * cmd_diff.c: `drasim diff OLD.json NEW.json [--tolerance FILE]`, the
 * regression check between two reports or two benchmark result files, or
 * between two sweeps' sweep.json (a row moved beyond its confidence
 * interval: rpt_sweep_diff_to_string()).
 *
 * The comparison lives in reports/ (rpt_diff_*); this file is the command
 * line around it. Exit 1 when a change is beyond tolerance, a metric was
 * removed or a mode is missing (with --strict, also when one was added).
 */
#include <stdio.h>

#include "cli.h"
#include "rpt.h"
#include "rpt_sweep.h"

int cli_diff_main(int argc, char **argv);

/* Two sweep.json files; -1 when @old_path is not one (then it is a report or bench file). */
static int
diff_sweeps(const char *old_path, const char *new_path, gboolean all, gboolean tolerance)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(RptSweep) old_sweep = rpt_sweep_json_load(old_path, &error);
	g_autoptr(RptSweep) new_sweep = NULL;
	g_autofree char *table = NULL;
	guint failures;

	if (old_sweep == NULL && g_error_matches(error, RPT_ERROR, RPT_ERROR_VERSION))
		return -1;
	if (old_sweep == NULL || (new_sweep = rpt_sweep_json_load(new_path, &error)) == NULL) {
		fprintf(stderr, "drasim diff: error: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	if (tolerance) {
		fprintf(stderr,
		        "drasim diff: --tolerance is for reports; a sweep's rows are judged "
		        "by their confidence intervals\n");
		return CLI_EXIT_USAGE;
	}
	table = rpt_sweep_diff_to_string(old_sweep, new_sweep, all, &failures);
	fputs(table, stdout);
	return failures > 0 ? CLI_EXIT_INPUT_ERROR : CLI_EXIT_OK;
}

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
	if ((status = diff_sweeps(argv[1], argv[2], all, tolerance_file != NULL)) >= 0)
		return status;
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
