/*
 * rpt_write.c: rpt_write_formats(), the one call `drasim run|compare` make
 * to render a report in the forms asked for with --format and -o.
 *
 * Text and JSON may go to stdout; CSV (two files) and HTML need a
 * directory, which is written through rpt_output.c: replaced as a whole, so
 * it never mixes this run's files with an earlier run's. Every format is
 * checked before anything is written, so a typo in --format leaves no
 * half-written output. A write error on stdout is caught once, at exit, by
 * the drasim command (sim/cli/cli_output.c).
 */
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

/* Adds @name with @text (owned) to @out; FALSE with @error on a write error. */
static gboolean
add_file(RptOutputDir *out, const char *name, char *text, GError **error)
{
	g_autofree char *owned = text;

	return rpt_output_dir_add(out, name, owned, error);
}

static gboolean
use_colour(void)
{
	const char *no_colour = g_getenv("NO_COLOR");

	/* https://no-color.org: any non-empty NO_COLOR disables colour */
	return isatty(STDOUT_FILENO) && (no_colour == NULL || *no_colour == '\0');
}

/* Never fails here: a write error on stdout is reported at exit (see above). */
static gboolean
stdout_write(gpointer data, const char *bytes, gsize length, GError **error)
{
	(void)data;
	(void)error;
	(void)fwrite(bytes, 1, length, stdout);
	return TRUE;
}

/* The JSON report and pods.csv are streamed: with millions of pods they are
 * hundreds of MB of text, never held whole (rpt_sink.c). */
static gboolean
json_write(gconstpointer report, const RptSink *sink, GError **error)
{
	return rpt_json_write(report, sink, error);
}

static gboolean
pods_csv_write(gconstpointer report, const RptSink *sink, GError **error)
{
	return rpt_csv_pods_write(report, sink, error);
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
	if (mask & FORMAT_JSON)
		return rpt_json_write(report, &(RptSink){ stdout_write, NULL }, error);
	return TRUE;
}

static gboolean
write_dir(const RptReport *report, guint mask, const char *dir, GError **error)
{
	g_autoptr(RptOutputDir) out = rpt_output_dir_new(dir, error);

	if (out == NULL)
		return FALSE;
	if ((mask & FORMAT_TEXT) &&
	    !add_file(out, "report.txt", rpt_text_to_string(report, FALSE), error))
		return FALSE;
	if ((mask & FORMAT_JSON) &&
	    !rpt_output_dir_add_streamed(out, "report.json", json_write, report, error))
		return FALSE;
	if ((mask & FORMAT_CSV) &&
	    (!add_file(out, "summary.csv", rpt_csv_summary_to_string(report), error) ||
	     !add_file(out, "timeseries.csv", rpt_csv_series_to_string(report), error) ||
	     !rpt_output_dir_add_streamed(out, "pods.csv", pods_csv_write, report, error)))
		return FALSE;
	if ((mask & FORMAT_HTML) &&
	    !add_file(out, "report.html", rpt_html_to_string(report), error))
		return FALSE;
	return rpt_output_dir_commit(out, error);
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
	return write_dir(report, mask, dir, error);
}
