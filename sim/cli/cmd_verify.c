/*
 * cmd_verify.c: `drasim verify REPORT.json...`, the report's own proof that
 * every submitted pod is accounted for and that no device was held twice at
 * once (reports/rpt_verify.c does the checking). Exit 0 when every report
 * passes, 1 on a violation or a file that is not a v2 report with ledgers.
 */
#include <stdio.h>

#include "cli.h"
#include "rpt.h"

int cli_verify_main(int argc, char **argv);

int
cli_verify_main(int argc, char **argv)
{
	g_autoptr(GOptionContext) context = g_option_context_new(
	        "REPORT.json... - check a report from its contents: the pod ledger, and that "
	        "no device was held by two pods at overlapping times unless both are shared");
	int status;
	guint checked = 0, violations = 0;
	gboolean ok = TRUE;

	g_option_context_set_description(
	        context,
	        "Checks, in each mode of a drasim.io/report/v2 JSON report: the pod ledger's "
	        "identity\n(submitted = pending + creating + running + restarting + lost + "
	        "completed "
	        "+ deleted)\nand its holds flag; the pod rows' outcomes against the ledger; and "
	        "that "
	        "no device\nwas held by two pods at overlapping times unless both are marked "
	        "shared "
	        "(a pod's\nstays: its placements[], else its row). Prints each violation and "
	        "`N checked, N violations`;\nexit 0 when there is none, 1 on a violation or a file "
	        "that is not such a report\n(docs/reports.md, \"Pod ledger\" and \"Placement "
	        "history\").");
	status = cli_parse_options(context, &argc, &argv);
	if (status != CLI_EXIT_OK)
		return status;
	if (argc < 2)
		return cli_usage_error(NULL, "expected at least one REPORT.json");
	for (int i = 1; i < argc; i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GString) out = g_string_new(NULL);
		guint c = 0, v = 0;

		if (!rpt_verify_file(argv[i], out, &c, &v, &error)) {
			fprintf(stderr, "drasim verify: error: %s\n", error->message);
			ok = FALSE;
		}
		fputs(out->str, stdout);
		checked += c;
		violations += v;
	}
	printf("%u checked, %u violations\n", checked, violations);
	return ok && violations == 0 ? CLI_EXIT_OK : CLI_EXIT_INPUT_ERROR;
}
