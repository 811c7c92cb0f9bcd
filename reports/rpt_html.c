/*
 * rpt_html.c: the report as one self-contained HTML page, comparison first:
 * a summary sentence, the metrics with deltas against the baseline mode, the
 * per-workload breakdown (rpt_html_compare.c), one chart per metric with every
 * mode overlaid (rpt_chart.c), then each mode's pictures and explanations.
 *
 * The page has no external reference (styles, charts and its check script
 * are inline) so it opens offline and can be attached to a ticket. A small script at the end marks
 * <body> with data-check="ok" when every chart parsed and holds data, or "fail" with the ids of the
 * empty charts; the Chromium test reads it from the DOM. A page with no chart fails too, unless its
 * writer says it has none by design.
 */
#include <math.h>
#include <string.h>

#include "rpt-chart-private.h"
#include "rpt-private.h"

static const char page_style[] =
        "body{font-family:sans-serif;margin:24px;color:#222}"
        "table{border-collapse:collapse;margin:8px 0}"
        "td,th{border:1px solid #ccc;padding:2px 8px}td.num{text-align:right}"
        "th{background:#f3f3f3}.unit{color:#888}"
        "svg.chart{display:block;margin:8px 0;border:1px solid #eee}"
        ".title{font-size:13px;font-weight:bold}.tick{font-size:10px;fill:#555}"
        ".label{font-size:10px}.axis{stroke:#888}"
        ".line{fill:none;stroke:#1f6feb;stroke-width:1.5}.grid{stroke:#eee}"
        ".band{stroke:none;fill-opacity:0.18}.mean{fill:none;stroke-width:1.5}"
        ".delta{color:#555}.nodata{font-size:12px;fill:#555}p.lead{font-size:15px;max-width:60em}"
        ".gpu{fill:#fafafa;stroke:#999}.slice{stroke:#555}"
        ".charts{display:flex;flex-wrap:wrap;gap:8px}";

/* The page's check, in two parts around its condition on the number of charts. */
static const char page_check_head[] =
        "(function(){var empty=[];var charts=document.querySelectorAll('svg.chart');"
        "charts.forEach(function(c){var n=parseInt(c.getAttribute('data-points'),10);"
        "var p=c.querySelector('polyline');"
        "var drawn=p?p.points.numberOfItems>0:c.querySelectorAll('rect').length>0;"
        "if(c.getAttribute('data-nodata')!=='1'&&(!(n>0)||!drawn)){empty.push(c.id);}"
        /* an axis must span a range and its tick labels must differ */
        "['x','y'].forEach(function(a){var r=c.getAttribute('data-'+a);if(!r){return;}"
        "var v=r.split(' ').map(Number);var t=[];"
        "c.querySelectorAll('text.'+a+'t').forEach(function(e){t.push(e.textContent);});"
        "if(!(v[0]<v[1])||t.length<1||new Set(t).size!==t.length){empty.push(c.id+':'+a);}"
        "});});"
        "var b=document.body;b.setAttribute('data-charts',String(charts.length));"
        "b.setAttribute('data-empty-charts',empty.join(' '));"
        "b.setAttribute('data-errors',String(window.__rptErrors.length));"
        "b.setAttribute('data-check',"
        "empty.length===0&&window.__rptErrors.length===0&&";
static const char page_check_tail[] = "?'ok':'fail');})();";

void
rpt_html__escaped(GString *out, const char *text)
{
	g_autofree char *escaped_text = g_markup_escape_text(text ? text : "", -1);

	g_string_append(out, escaped_text);
}

static const RptSeries *
find_series(const RptMode *mode, const char *name)
{
	for (guint i = 0; i < mode->series->len; i++) {
		const RptSeries *series = g_ptr_array_index(mode->series, i);

		if (strcmp(series->name, name) == 0) {
			return series;
		}
	}
	return NULL;
}

/* Scheduling latency (first start - arrival) and slowdown of the pods that have them. */
static void
pod_samples(const RptMode *mode, GArray *latency, GArray *slowdown)
{
	for (guint i = 0; i < mode->pods->len; i++) {
		const RptPod *pod = &g_array_index(mode->pods, RptPod, i);

		if (pod->start_us != RPT_TIME_NONE && pod->arrival_us != RPT_TIME_NONE) {
			double seconds = (double)(pod->start_us - pod->arrival_us) / 1e6;

			g_array_append_val(latency, seconds);
		}
		if (pod->slowdown >= 0) {
			g_array_append_val(slowdown, pod->slowdown);
		}
	}
}

/* Why pods waited, grouped as the text report groups them (kube-scheduler's message
 * and the detail, most pods first), with when the first one waited. */
static void
why_waited(GString *out, const RptMode *mode)
{
	g_autoptr(GArray) groups = NULL;

	if (mode->reasons->len == 0)
		return;
	groups = rpt_text__group_reasons(mode);
	g_string_append_printf(out,
	                       "<h3>Why pods waited</h3><p>%u pod%s, %u distinct reason%s "
	                       "(kube-scheduler's message).</p><table><tr><th>pods</th>"
	                       "<th>e.g.</th><th>at</th><th>scheduler message</th>"
	                       "<th>detail</th></tr>\n",
	                       mode->reasons->len, mode->reasons->len == 1 ? "" : "s", groups->len,
	                       groups->len == 1 ? "" : "s");
	for (guint i = 0; i < MIN(groups->len, 10u); i++) {
		const RptReasonGroup *g = &g_array_index(groups, RptReasonGroup, i);
		char at[32];

		rpt_chart_duration(at, sizeof at, (double)g->first->at_us / 1e6);
		g_string_append_printf(out, "<tr><td class=\"num\">%u</td><td>", g->pods);
		rpt_html__escaped(out, g->first->pod);
		if (g->first->never_runs)
			g_string_append(out, " (never runs)");
		g_string_append_printf(out, "</td><td class=\"num\">%s</td><td>", at);
		rpt_html__escaped(out, g->first->message);
		g_string_append(out, "</td><td>");
		rpt_html__escaped(out, g->first->detail);
		g_string_append(out, "</td></tr>\n");
	}
	g_string_append(out, "</table>\n");
	if (groups->len > 10)
		g_string_append_printf(out,
		                       "<p>... and %u more reasons (see the JSON report).</p>\n",
		                       groups->len - 10);
}

/* The explanations under the charts: pending pods by reason, why pods waited, translation. */
static void
mode_tables(GString *out, const RptMode *mode)
{
	if (mode->unsched->len > 0) {
		g_string_append(out, "<h3>Pending pods by reason</h3><table><tr><th>reason</th>"
		                     "<th>pods</th></tr>\n");
		for (guint i = 0; i < mode->unsched->len; i++) {
			const RptUnsched *entry = g_ptr_array_index(mode->unsched, i);

			g_string_append(out, "<tr><td>");
			rpt_html__escaped(out, entry->reason);
			g_string_append_printf(
			        out, "</td><td class=\"num\">%" G_GUINT64_FORMAT "</td></tr>\n",
			        entry->pods);
		}
		g_string_append(out, "</table>\n");
	}
	why_waited(out, mode);
	if (mode->translations->len > 0) {
		g_string_append(out, "<h3>Translation report</h3><table><tr><th>subject</th>"
		                     "<th>expression</th><th>approximation</th></tr>\n");
		for (guint i = 0; i < mode->translations->len; i++) {
			const RptTranslation *entry = g_ptr_array_index(mode->translations, i);
			/* no feature column: the simulation's notes carry the feature inside the
			 * expression ("selector device.attributes..."), and the report's feature
			 * field is always empty (sim/measure/measure_report.c) */
			const char *cells[] = { entry->subject, entry->expression,
				                entry->approximation };

			g_string_append(out, "<tr>");
			for (guint j = 0; j < G_N_ELEMENTS(cells); j++) {
				g_string_append(out, "<td>");
				rpt_html__escaped(out, cells[j]);
				g_string_append(out, "</td>");
			}
			g_string_append(out, "</tr>\n");
		}
		g_string_append(out, "</table>\n");
	}
}

/* The pod ledger's one line (rpt_ledger.c). */
static void
html_ledger(GString *out, const RptMode *mode)
{
	const RptLedger *ledger = rpt_mode_get_ledger(mode);
	g_autofree char *text = ledger != NULL ? rpt_ledger_describe(ledger) : NULL;

	if (text == NULL)
		return;
	g_string_append(out, "<p class=\"ledger\">Pod ledger: ");
	rpt_html__escaped(out, text);
	g_string_append(out, "</p>\n");
}

/* Each mode's pictures: the heat map and, with MIG or shared GPUs, who holds which slice. */
static void
mode_section(GString *out, const RptMode *mode, guint index)
{
	const char *rows = rpt_mode_lookup_info(mode, "heatmap_nodes");
	const char *policy = rpt_mode_lookup_info(mode, "score_policy");
	g_autofree char *end = rpt_mode_describe_end(mode);
	g_autofree char *heat_title =
	        rows != NULL ? g_strdup_printf("GPU occupancy per node over time (%s)", rows)
	                     : g_strdup("GPU occupancy per node over time");
	char id[64];

	g_string_append(out, "<h2>Mode ");
	rpt_html__escaped(out, mode->name);
	g_string_append(out, "</h2>");
	if (policy != NULL) {
		g_string_append(out, "\n<p>Score policy: ");
		rpt_html__escaped(out, policy);
		g_string_append(out, "</p>");
	}
	if (end != NULL) {
		g_string_append(out, "\n<p>Run ended: ");
		rpt_html__escaped(out, end);
		g_string_append(out, "</p>\n");
	}
	html_ledger(out, mode);
	g_string_append(out, "<div class=\"charts\">\n");
	g_snprintf(id, sizeof(id), "m%u-heatmap", index);
	rpt_svg__heatmap(out, id, heat_title, mode);
	if (mode->gpus->len > 0) {
		g_snprintf(id, sizeof(id), "m%u-slices", index);
		rpt_svg__gpus(out, id, "Who holds which slice (shared and MIG GPUs)", mode);
	}
	g_string_append(out, "</div>\n");
	mode_tables(out, mode);
}

/* A series of every mode over time, overlaid: the modes keep their colour on every chart. */
static void
time_chart(GString *out,
           const RptReport *report,
           const char *id,
           const char *title,
           const char *series_name,
           const RptAxis *y)
{
	guint n_modes = report->modes->len;
	g_autofree RptChartSeries *series = g_new0(RptChartSeries, n_modes + 1);
	g_autoptr(GPtrArray) times = g_ptr_array_new_with_free_func(g_free);

	for (guint m = 0; m < n_modes; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);
		const RptSeries *found = find_series(mode, series_name);
		guint n = found ? found->values->len : 0;
		double *t = g_new(double, n + 1);

		for (guint i = 0; i < n; i++)
			t[i] = (double)rpt_mode__sample_time(mode, i) / 1e6;
		g_ptr_array_add(times, t);
		series[m] = (RptChartSeries){ .name = mode->name,
			                      .colour = m,
			                      .x = t,
			                      .y = n ? (const double *)(void *)found->values->data
			                             : NULL,
			                      .n = n };
	}
	rpt_chart_draw(out, &(RptChart){ .id = id,
	                                 .title = title,
	                                 .x = { RPT_AXIS_TIME, "simulated time", NAN, NAN },
	                                 .y = *y,
	                                 .series = series,
	                                 .n_series = n_modes,
	                                 .empty_text = "no samples in this run" });
}

/* The CDF of a per-pod quantity (@latency: scheduling latency, else slowdown) of every mode. */
static void
cdf_chart(GString *out, const RptReport *report, gboolean latency, const RptChart *frame)
{
	guint n_modes = report->modes->len;
	g_autofree RptChartSeries *series = g_new0(RptChartSeries, n_modes + 1);
	g_autoptr(GPtrArray) arrays = g_ptr_array_new_with_free_func((GDestroyNotify)g_array_unref);
	gboolean any_nonzero = FALSE;
	RptChart chart = *frame;

	for (guint m = 0; m < n_modes; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);
		GArray *lat = g_array_new(FALSE, FALSE, sizeof(double));
		GArray *slow = g_array_new(FALSE, FALSE, sizeof(double));
		GArray *x = g_array_new(FALSE, FALSE, sizeof(double));
		GArray *y = g_array_new(FALSE, FALSE, sizeof(double));
		GArray *samples = latency ? lat : slow;

		pod_samples(mode, lat, slow);
		rpt_chart_cdf_points((const double *)(void *)samples->data, samples->len, x, y);
		for (guint i = 0; i < samples->len; i++)
			any_nonzero = any_nonzero || fabs(g_array_index(samples, double, i)) > 0.0;
		series[m] = (RptChartSeries){ .name = mode->name,
			                      .colour = m,
			                      .x = (const double *)(void *)x->data,
			                      .y = (const double *)(void *)y->data,
			                      .n = x->len,
			                      .steps = TRUE };
		g_ptr_array_add(arrays, lat);
		g_ptr_array_add(arrays, slow);
		g_ptr_array_add(arrays, x);
		g_ptr_array_add(arrays, y);
	}
	chart.series = series;
	/* every latency 0: a step at 0 on a made-up axis says less than the sentence */
	chart.n_series = latency && !any_nonzero ? 0 : n_modes;
	rpt_chart_draw(out, &chart);
}

static void
overlaid_charts(GString *out, const RptReport *report)
{
	const RptAxis percent_0_1 = { RPT_AXIS_PERCENT, "of GPUs", 0.0, 1.0, NULL, 0, FALSE };
	const RptAxis percent = { RPT_AXIS_PERCENT, "of GPUs", 0.0, NAN, NULL, 0, FALSE };
	const RptAxis pods = { RPT_AXIS_NUMBER, "pods", 0.0, NAN, NULL, 0, TRUE };

	g_string_append(out, "<h2>Over time and across pods</h2><div class=\"charts\">\n");
	time_chart(out, report, "allocation", "GPU allocation ratio over time",
	           RPT_S_GPU_ALLOC_RATIO, &percent_0_1);
	time_chart(out, report, "pending", "Pending pods over time", RPT_S_PENDING_PODS, &pods);
	time_chart(out, report, "fragmentation", "Fragmentation over time", RPT_S_FRAGMENTATION,
	           &percent);
	cdf_chart(out, report, TRUE,
	          &(RptChart){ .id = "latency-cdf",
	                       .title = "CDF of scheduling latency (first start - arrival)",
	                       .x = { RPT_AXIS_TIME, "latency", NAN, NAN },
	                       .y = { RPT_AXIS_PERCENT, "of pods", 0.0, 1.0 },
	                       .empty_text = "no pod waited: every pod started on arrival" });
	cdf_chart(out, report, FALSE,
	          &(RptChart){ .id = "slowdown-cdf",
	                       .title = "CDF of JCT slowdown (log scale; 1 = ran at full speed)",
	                       .x = { RPT_AXIS_LOG, "slowdown (x)", 1.0, NAN },
	                       .y = { RPT_AXIS_PERCENT, "of pods", 0.0, 1.0 },
	                       .empty_text = "no pod completed in this run" });
	g_string_append(out, "</div>\n");
}

GString *
rpt_html__page_open(const char *title, const char *extra_style)
{
	GString *out =
	        g_string_new("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">");

	g_string_append(out, "<title>");
	rpt_html__escaped(out, title);
	g_string_append_printf(out, "</title><style>%s%s</style>", page_style,
	                       extra_style ? extra_style : "");
	/* errors anywhere on the page are counted before anything else runs */
	g_string_append(out, "<script>window.__rptErrors=[];window.addEventListener('error',"
	                     "function(e){window.__rptErrors.push(String(e.message));});</script>");
	g_string_append(out, "</head>\n<body>\n<h1>");
	rpt_html__escaped(out, title);
	return out;
}

char *
rpt_html__page_close(GString *out, gboolean charts_expected)
{
	g_string_append_printf(out, "<script>%s%s%s</script>\n</body></html>\n", page_check_head,
	                       charts_expected ? "charts.length>0" : "true", page_check_tail);
	return g_string_free(out, FALSE);
}

char *
rpt_html_to_string(const RptReport *report)
{
	g_autofree char *title = g_strconcat("drasim report: ", report->scenario, NULL);
	GString *out = rpt_html__page_open(title, NULL);

	g_string_append_printf(out, "</h1><p>seed %" G_GUINT64_FORMAT " · drasim ", report->seed);
	rpt_html__escaped(out, report->version);
	if (report->scenario_hash) {
		g_string_append(out, " · scenario hash ");
		rpt_html__escaped(out, report->scenario_hash);
	}
	g_string_append(out, "</p>\n");
	{
		g_autofree char *sentence = rpt_html__summary_sentence(report);

		g_string_append(out, "<p class=\"lead\" id=\"in-short\">");
		rpt_html__escaped(out, sentence);
		g_string_append(out, "</p>\n");
	}
	rpt_html__summary_table(out, report);
	overlaid_charts(out, report);
	rpt_html__workloads(out, report);
	for (guint m = 0; m < report->modes->len; m++) {
		mode_section(out, g_ptr_array_index(report->modes, m), m);
	}
	return rpt_html__page_close(out, TRUE);
}
