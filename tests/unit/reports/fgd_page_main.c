/*
 * fgd_page_main.c: rpt-fgd-page FGD.JSON OUT.HTML draws the FGD page of a
 * saved fgd.json (reports/rpt_fgd*.c), for looking at the page in a
 * browser and for redrawing a page without re-running the experiment.
 * Exit 1 with the loader's message when the file is not a valid fgd.json.
 */
#include <stdio.h>

#include "base.h"
#include "rpt-fgd-private.h"

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *json = NULL;
	g_autofree char *page = NULL;
	gsize len = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FGD.JSON OUT.HTML\n", argv[0]);
		return 2;
	}
	if (!base_read_file(argv[1], &json, &len, &error) ||
	    (page = rpt_fgd_html(json, (gssize)len, &error)) == NULL ||
	    !g_file_set_contents(argv[2], page, -1, &error)) {
		/* a parse error reads LINE:COL: ..., a field error PATH: ...; both after FILE: */
		fprintf(stderr, "%s:%s%s\n", argv[1],
		        g_error_matches(error, RPT_FGD_ERROR, RPT_FGD_ERROR_PARSE) ? "" : " ",
		        error->message);
		return 1;
	}
	return 0;
}
