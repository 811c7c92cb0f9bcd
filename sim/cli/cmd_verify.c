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
	int status = cli_parse_options(context, &argc, &argv);
	guint checked = 0, violations = 0;
	gboolean ok = TRUE;

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
