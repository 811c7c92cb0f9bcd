/*
 * gen_slices.c: `gen-slices [--slices N] [--devices M] FILE` writes the lint benchmark's
 * input (default 10,000 slices of 8 devices, about 60 MB) to FILE, or stdout for "-".
 */
#include <stdio.h>

#include <glib.h>

#include "slices_gen.h"

int
main(int argc, char **argv)
{
	gint n_slices = 10000, n_devices = 8;
	g_auto(GStrv) rest = NULL;
	GOptionEntry entries[] = {
		{ "slices", 0, 0, G_OPTION_ARG_INT, &n_slices, "number of ResourceSlices", "N" },
		{ "devices", 0, 0, G_OPTION_ARG_INT, &n_devices, "devices per slice", "M" },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, "FILE" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("FILE - write a ResourceSlice List");
	g_autoptr(GError) error = NULL;
	FILE *out;

	g_option_context_add_main_entries(context, entries, NULL);
	if (!g_option_context_parse(context, &argc, &argv, &error) || rest == NULL ||
	    rest[0] == NULL || n_slices < 0 || n_devices < 0) {
		fprintf(stderr, "usage: gen-slices [--slices N] [--devices M] FILE|-\n");
		return 2;
	}
	out = g_strcmp0(rest[0], "-") == 0 ? stdout : fopen(rest[0], "w");
	if (out == NULL) {
		perror(rest[0]);
		return 1;
	}
	slices_gen_write(out, (guint)n_slices, (guint)n_devices);
	if (out != stdout && fclose(out) != 0) {
		perror(rest[0]);
		return 1;
	}
	return 0;
}
