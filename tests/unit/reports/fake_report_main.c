/*
 * fake_report_main.c: writes the fake report in every format into a
 * directory (argv[1]), for the Python and Chromium checks, which need files.
 * argv[2] scales a few metrics; argv[3] "empty" adds a mode with no data, so
 * the checks can be shown to fail on an empty chart.
 */
#include <stdio.h>

#include <glib.h>

#include "fake-report.h"

int
main(int argc, char **argv)
{
	g_autoptr(RptReport) report =
	        fake_report_new(argc > 2 ? g_ascii_strtod(argv[2], NULL) : 1.0);
	g_autoptr(GError) error = NULL;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR [SCALE]\n", argv[0]);
		return 2;
	}
	if (argc > 3 && g_strcmp0(argv[3], "empty") == 0) {
		rpt_mode_add(report, "empty");
	}
	if (!rpt_write_formats(report, "text,json,csv,html", argv[1], &error)) {
		fprintf(stderr, "%s\n", error->message);
		return 1;
	}
	return 0;
}
