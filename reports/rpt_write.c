/*
 * rpt_write.c: rpt_write_formats(), the one call `drasim run|compare` make
 * to render a report in the forms asked for with --format and -o.
 *
 * Text and JSON may go to stdout; CSV (two files) and HTML need a
 * directory. Every format is checked before anything is written, so a typo
 * in --format leaves no half-written output.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rpt-private.h"

typedef enum {
	FORMAT_TEXT = 1 << 0,
	FORMAT_JSON = 1 << 1,
	FORMAT_CSV = 1 << 2,
	FORMAT_HTML = 1 << 3,
} Format;

static gboolean
parse_formats(const char *formats, guint *mask_out, GError **error)
{
	g_auto(GStrv) names = g_strsplit(formats && *formats ? formats : "text", ",", -1);
	guint mask = 0;

	for (guint i = 0; names[i] != NULL; i++) {
		const char *name = g_strstrip(names[i]);

		if (strcmp(name, "text") == 0) {
			mask |= FORMAT_TEXT;
		} else if (strcmp(name, "json") == 0) {
			mask |= FORMAT_JSON;
		} else if (strcmp(name, "csv") == 0) {
			mask |= FORMAT_CSV;
		} else if (strcmp(name, "html") == 0) {
			mask |= FORMAT_HTML;
		} else {
			g_set_error(error, RPT_ERROR, RPT_ERROR_FORMAT,
			            "unknown format '%s' (expected text, json, csv or html)", name);
			return FALSE;
		}
	}
	*mask_out = mask;
	return TRUE;
}

static gboolean
write_file(const char *dir, const char *name, char *text, GError **error)
{
	g_autofree char *owned = text;
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) local = NULL;

	if (!g_file_set_contents(path, owned, -1, &local)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "%s", local->message);
		return FALSE;
	}
	return TRUE;
}

static gboolean
use_colour(void)
{
	const char *no_colour = g_getenv("NO_COLOR");

	/* https://no-color.org: any non-empty NO_COLOR disables colour */
	return isatty(STDOUT_FILENO) && (no_colour == NULL || *no_colour == '\0');
}

static gboolean
write_stdout(const RptReport *report, guint mask, GError **error)
{
	if (mask & (FORMAT_CSV | FORMAT_HTML)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_FORMAT,
		            "csv and html output need a directory (-o DIR)");
		return FALSE;
	}
	if (mask & FORMAT_TEXT) {
		g_autofree char *text = rpt_text_to_string(report, use_colour());

		fputs(text, stdout);
	}
	if (mask & FORMAT_JSON) {
		g_autofree char *text = rpt_json_to_string(report);

		fputs(text, stdout);
	}
	return TRUE;
}

gboolean
rpt_write_formats(const RptReport *report, const char *formats, const char *dir, GError **error)
{
	guint mask = 0;

	if (!parse_formats(formats, &mask, error)) {
		return FALSE;
	}
	if (dir == NULL) {
		return write_stdout(report, mask, error);
	}
	if (g_mkdir_with_parents(dir, 0755) != 0) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "%s: cannot create: %s", dir,
		            g_strerror(errno));
		return FALSE;
	}
	if ((mask & FORMAT_TEXT) &&
	    !write_file(dir, "report.txt", rpt_text_to_string(report, FALSE), error)) {
		return FALSE;
	}
	if ((mask & FORMAT_JSON) &&
	    !write_file(dir, "report.json", rpt_json_to_string(report), error)) {
		return FALSE;
	}
	if ((mask & FORMAT_CSV) &&
	    (!write_file(dir, "timeseries.csv", rpt_csv_series_to_string(report), error) ||
	     !write_file(dir, "pods.csv", rpt_csv_pods_to_string(report), error))) {
		return FALSE;
	}
	if ((mask & FORMAT_HTML) &&
	    !write_file(dir, "report.html", rpt_html_to_string(report), error)) {
		return FALSE;
	}
	return TRUE;
}
