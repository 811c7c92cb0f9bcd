/*
 * rpt_csv.c: the report's metrics, time series and per-pod records as CSV,
 * in long form (one value a row, with its unit) so that a table tool
 * filters and pivots them without knowing the columns in advance.
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
	char buf[64];

	g_string_append_c(out, ',');
	if (t != RPT_TIME_NONE) {
		rpt__format_seconds(buf, sizeof(buf), t);
		g_string_append(out, buf);
	}
}

char *
rpt_csv_summary_to_string(const RptReport *report)
{
	GString *out = g_string_new("mode,metric,unit,value\n");

	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		for (guint i = 0; i < mode->metrics->len; i++) {
			const RptMetric *metric = g_ptr_array_index(mode->metrics, i);

			rpt_csv__field(out, mode->name, TRUE);
			rpt_csv__field(out, metric->name, FALSE);
			rpt_csv__field(out, metric->unit, FALSE);
			rpt_csv__number_field(out, metric->value);
			g_string_append_c(out, '\n');
		}
	}
	return g_string_free(out, FALSE);
}

/* Long form: a row per sample of each series, series by series in the mode's order. */
char *
rpt_csv_series_to_string(const RptReport *report)
{
	GString *out = g_string_new("mode,t_s,metric,unit,value\n");

	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		for (guint i = 0; i < mode->series->len; i++) {
			const RptSeries *series = g_ptr_array_index(mode->series, i);

			for (guint s = 0; s < series->values->len; s++) {
				rpt_csv__field(out, mode->name, TRUE);
				time_field(out, rpt_mode__sample_time(mode, s));
				rpt_csv__field(out, series->name, FALSE);
				rpt_csv__field(out, series->unit, FALSE);
				rpt_csv__number_field(out,
				                      g_array_index(series->values, double, s));
				g_string_append_c(out, '\n');
			}
		}
	}
	return g_string_free(out, FALSE);
}

/* Each pod's last message in kube-scheduler's form (pod name -> borrowed message). */
static GHashTable *
pending_reasons(const RptMode *mode)
{
	GHashTable *last = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < mode->reasons->len; i++) {
		const RptReason *reason = g_ptr_array_index(mode->reasons, i);

		g_hash_table_insert(last, reason->pod, reason->message);
	}
	return last;
}

static void
pod_row(GString *out, const RptMode *mode, const RptPod *pod, GHashTable *reasons)
{
	rpt_csv__field(out, mode->name, TRUE);
	rpt_csv__field(out, pod->name, FALSE);
	rpt_csv__field(out, pod->workload, FALSE);
	rpt_csv__field(out, pod->request, FALSE);
	time_field(out, pod->arrival_us);
	time_field(out, pod->start_us);
	time_field(out, pod->end_us);
	rpt_csv__field(out, pod->node, FALSE);
	rpt_csv__field(out, pod->devices, FALSE);
	rpt_csv__number_field(out, pod->slowdown < 0 ? (double)NAN : pod->slowdown);
	rpt_csv__field(out, rpt_outcome_to_string(pod->outcome), FALSE);
	g_string_append_printf(out, ",%u,%u", pod->attempts, pod->oom_kills);
	rpt_csv__field(out, g_hash_table_lookup(reasons, pod->name), FALSE);
	g_string_append_c(out, '\n');
}

static gboolean
pods_write(gconstpointer subject, const RptSink *sink, GError **error)
{
	const RptReport *report = subject;
	g_autoptr(GString) out = g_string_sized_new(RPT_SINK_CHUNK + 4096);

	g_string_append(out, "mode,pod,workload,request,arrival_s,start_s,end_s,node,"
	                     "devices,slowdown,outcome,attempts,oom_kills,pending_reason\n");
	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);
		g_autoptr(GHashTable) reasons = pending_reasons(mode);

		for (guint i = 0; i < mode->pods->len; i++) {
			pod_row(out, mode, &g_array_index(mode->pods, RptPod, i), reasons);
			if (!rpt__sink_pass(sink, out, RPT_SINK_CHUNK, error))
				return FALSE;
		}
	}
	return rpt__sink_pass(sink, out, 0, error);
}

gboolean
rpt_csv_pods_write(const RptReport *report, const RptSink *sink, GError **error)
{
	return pods_write(report, sink, error);
}

char *
rpt_csv_pods_to_string(const RptReport *report)
{
	return rpt__produce_to_string(pods_write, report);
}
