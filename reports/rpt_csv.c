/*
 * rpt_csv.c: the report's time series and per-pod records as CSV.
 *
 * RFC 4180: comma-separated, a header row, fields quoted when they hold a
 * comma, a quote or a newline, empty for "none". Every row of a file has
 * the header's column count, so pandas.read_csv loads it with no options.
 * The columns are documented in docs/reports.md.
 */
#include <math.h>
#include <string.h>

#include "rpt-private.h"

void
rpt_csv__field(GString *out, const char *text, gboolean first)
{
	if (!first) {
		g_string_append_c(out, ',');
	}
	if (text == NULL) {
		return;
	}
	if (strpbrk(text, ",\"\r\n") == NULL) {
		g_string_append(out, text);
		return;
	}
	g_string_append_c(out, '"');
	for (const char *p = text; *p; p++) {
		if (*p == '"') {
			g_string_append_c(out, '"');
		}
		g_string_append_c(out, *p);
	}
	g_string_append_c(out, '"');
}

void
rpt_csv__number_field(GString *out, double value)
{
	char buf[64];

	g_string_append_c(out, ',');
	if (isfinite(value)) {
		rpt__format_number(buf, sizeof(buf), value);
		g_string_append(out, buf);
	}
}

static void
time_field(GString *out, RptTime t)
{
	if (t != RPT_TIME_NONE) {
		g_string_append_printf(out, ",%.6f", (double)t / 1e6);
	} else {
		g_string_append_c(out, ',');
	}
}

/* The union of the modes' series names, in first-seen order (borrowed strings). */
static GPtrArray *
series_columns(const RptReport *report)
{
	GPtrArray *names = g_ptr_array_new();

	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		for (guint i = 0; i < mode->series->len; i++) {
			const RptSeries *series = g_ptr_array_index(mode->series, i);

			if (!g_ptr_array_find_with_equal_func(names, series->name, g_str_equal,
			                                      NULL)) {
				g_ptr_array_add(names, series->name);
			}
		}
	}
	return names;
}

static const RptSeries *
mode_series(const RptMode *mode, const char *name)
{
	for (guint i = 0; i < mode->series->len; i++) {
		const RptSeries *series = g_ptr_array_index(mode->series, i);

		if (strcmp(series->name, name) == 0) {
			return series;
		}
	}
	return NULL;
}

char *
rpt_csv_series_to_string(const RptReport *report)
{
	g_autoptr(GPtrArray) names = series_columns(report);
	GString *out = g_string_new("mode,sample,time_s");

	for (guint i = 0; i < names->len; i++) {
		rpt_csv__field(out, g_ptr_array_index(names, i), FALSE);
	}
	g_string_append_c(out, '\n');
	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);
		guint n = rpt_mode__n_samples(mode);

		for (guint s = 0; s < n; s++) {
			rpt_csv__field(out, mode->name, TRUE);
			g_string_append_printf(out, ",%u", s);
			time_field(out, rpt_mode__sample_time(mode, s));
			for (guint i = 0; i < names->len; i++) {
				const RptSeries *series =
				        mode_series(mode, g_ptr_array_index(names, i));

				rpt_csv__number_field(
				        out, series && s < series->values->len
				                     ? g_array_index(series->values, double, s)
				                     : (double)NAN);
			}
			g_string_append_c(out, '\n');
		}
	}
	return g_string_free(out, FALSE);
}

char *
rpt_csv_pods_to_string(const RptReport *report)
{
	GString *out =
	        g_string_new("mode,pod,arrival_s,start_s,end_s,node,devices,slowdown,outcome,"
	                     "attempts,oom_kills\n");

	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		for (guint i = 0; i < mode->pods->len; i++) {
			const RptPod *pod = &g_array_index(mode->pods, RptPod, i);

			rpt_csv__field(out, mode->name, TRUE);
			rpt_csv__field(out, pod->name, FALSE);
			time_field(out, pod->arrival_us);
			time_field(out, pod->start_us);
			time_field(out, pod->end_us);
			rpt_csv__field(out, pod->node, FALSE);
			rpt_csv__field(out, pod->devices, FALSE);
			rpt_csv__number_field(out, pod->slowdown < 0 ? (double)NAN : pod->slowdown);
			rpt_csv__field(out, rpt_outcome_to_string(pod->outcome), FALSE);
			g_string_append_printf(out, ",%u,%u\n", pod->attempts, pod->oom_kills);
		}
	}
	return g_string_free(out, FALSE);
}
