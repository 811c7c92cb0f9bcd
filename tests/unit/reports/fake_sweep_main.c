/*
 * fake_sweep_main.c: writes the fake sweep's sweep.json, sweep.csv and
 * sweep.html into a directory (argv[1]) for check_sweep_outputs.py.
 */
#include <stdio.h>

#include <glib.h>

#include "fake-sweep.h"

int
main(int argc, char **argv)
{
	g_autoptr(RptSweep) table = fake_sweep_new();
	char *(*const writers[])(const RptSweep *) = { rpt_sweep_json_to_string,
		                                       rpt_sweep_csv_to_string,
		                                       rpt_sweep_html_to_string };
	const char *names[] = { "sweep.json", "sweep.csv", "sweep.html" };

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree char *text = writers[i](table);
		g_autofree char *path = g_build_filename(argv[1], names[i], NULL);
		g_autoptr(GError) error = NULL;

		if (!g_file_set_contents(path, text, -1, &error)) {
			fprintf(stderr, "%s\n", error->message);
			return 1;
		}
	}
	return 0;
}
