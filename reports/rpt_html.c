/*
 * rpt_html.c: the report as one self-contained HTML page.
 *
 * The page has no external reference (styles, charts and its check script
 * are inline) so it opens offline and can be attached to a ticket. Charts
 * come from rpt_svg.c. A small script at the end marks <body> with
 * data-check="ok" when every chart parsed and holds data, or "fail" with the
 * ids of the empty charts; the Chromium test reads it from the DOM. A page
 * with no chart fails too, unless its writer says it has none by design.
 */
#include <math.h>
#include <string.h>

#include "rpt-private.h"

static const char page_style[] =
        "body{font-family:sans-serif;margin:24px;color:#222}"
        "table{border-collapse:collapse;margin:8px 0}"
        "td,th{border:1px solid #ccc;padding:2px 8px}td.num{text-align:right}"
        "th{background:#f3f3f3}.unit{color:#888}"
        "svg.chart{display:block;margin:8px 0;border:1px solid #eee}"
        ".title{font-size:13px;font-weight:bold}.tick{font-size:10px;fill:#555}"
        ".label{font-size:10px}.axis{stroke:#888}"
        ".line{fill:none;stroke:#1f6feb;stroke-width:1.5}"
        ".gpu{fill:#fafafa;stroke:#999}.slice{stroke:#555}"
        ".charts{display:flex;flex-wrap:wrap;gap:8px}";

/* The page's check, in two parts around its condition on the number of charts. */
static const char page_check_head[] =
        "(function(){var empty=[];var charts=document.querySelectorAll('svg.chart');"
        "charts.forEach(function(c){var n=parseInt(c.getAttribute('data-points'),10);"
        "var p=c.querySelector('polyline');"
        "var drawn=p?p.points.numberOfItems>0:c.querySelectorAll('rect').length>0;"
        "if(!(n>0)||!drawn){empty.push(c.id);}});"
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

static void
summary_table(GString *out, const RptReport *report)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	g_autoptr(GPtrArray) units = g_ptr_array_new();

	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		for (guint i = 0; i < mode->metrics->len; i++) {
			const RptMetric *metric = g_ptr_array_index(mode->metrics, i);

			if (!g_ptr_array_find_with_equal_func(names, metric->name, g_str_equal,
			                                      NULL)) {
				g_ptr_array_add(names, metric->name);
				g_ptr_array_add(units, metric->unit);
			}
		}
	}
	g_string_append(out,
	                "<h2>Summary</h2><table id=\"summary\"><tr><th>metric</th><th>unit</th>");
	for (guint m = 0; m < report->modes->len; m++) {
		g_string_append(out, "<th>");
		rpt_html__escaped(out, ((RptMode *)g_ptr_array_index(report->modes, m))->name);
		g_string_append(out, "</th>");
	}
	g_string_append(out, "</tr>\n");
	for (guint i = 0; i < names->len; i++) {
		g_string_append(out, "<tr><td>");
		rpt_html__escaped(out, g_ptr_array_index(names, i));
		g_string_append(out, "</td><td class=\"unit\">");
		rpt_html__escaped(out, g_ptr_array_index(units, i));
		g_string_append(out, "</td>");
		for (guint m = 0; m < report->modes->len; m++) {
			double value = (double)NAN;
			char buf[64];

			rpt_mode_lookup_metric(g_ptr_array_index(report->modes, m),
			                       g_ptr_array_index(names, i), &value);
			rpt__format_number(buf, sizeof(buf), value);
			g_string_append_printf(out, "<td class=\"num\">%s</td>",
			                       isfinite(value) ? buf : "-");
		}
		g_string_append(out, "</tr>\n");
	}
	g_string_append(out, "</table>\n");
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
	if (mode->reasons->len > 0) {
		g_string_append(out, "<h3>Why pods waited</h3><table><tr><th>pod</th><th>time (s)"
		                     "</th><th>scheduler message</th><th>detail</th></tr>\n");
		for (guint i = 0; i < mode->reasons->len; i++) {
			const RptReason *reason = g_ptr_array_index(mode->reasons, i);

			g_string_append(out, "<tr><td>");
			rpt_html__escaped(out, reason->pod);
			if (reason->never_runs)
				g_string_append(out, " (never runs)");
			g_string_append_printf(out, "</td><td class=\"num\">%.3f</td><td>",
			                       (double)reason->at_us / 1e6);
			rpt_html__escaped(out, reason->message);
			g_string_append(out, "</td><td>");
			rpt_html__escaped(out, reason->detail);
			g_string_append(out, "</td></tr>\n");
		}
		g_string_append(out, "</table>\n");
	}
	if (mode->translations->len > 0) {
		g_string_append(out,
		                "<h3>Translation report</h3><table><tr><th>subject</th>"
		                "<th>feature</th><th>expression</th><th>approximation</th></tr>\n");
		for (guint i = 0; i < mode->translations->len; i++) {
			const RptTranslation *entry = g_ptr_array_index(mode->translations, i);
			const char *cells[] = { entry->subject, entry->feature, entry->expression,
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

static void
mode_section(GString *out, const RptMode *mode, guint index)
{
	g_autoptr(GArray) latency = g_array_new(FALSE, FALSE, sizeof(double));
	g_autoptr(GArray) slowdown = g_array_new(FALSE, FALSE, sizeof(double));
	const char *rows = rpt_mode_lookup_info(mode, "heatmap_nodes");
	const char *policy = rpt_mode_lookup_info(mode, "score_policy");
	g_autofree char *end = rpt_mode_describe_end(mode);
	g_autofree char *heat_title =
	        rows != NULL ? g_strdup_printf("GPU occupancy per node over time (%s)", rows)
	                     : g_strdup("GPU occupancy per node over time");
	char id[64];

	pod_samples(mode, latency, slowdown);
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
	g_string_append(out, "<div class=\"charts\">\n");
	g_snprintf(id, sizeof(id), "m%u-allocation", index);
	rpt_svg__line_chart(out, id, "GPU allocation ratio over time", "ratio", mode,
	                    find_series(mode, RPT_S_GPU_ALLOC_RATIO));
	g_snprintf(id, sizeof(id), "m%u-pending", index);
	rpt_svg__line_chart(out, id, "Pending pods over time", "pods", mode,
	                    find_series(mode, RPT_S_PENDING_PODS));
	g_snprintf(id, sizeof(id), "m%u-fragmentation", index);
	rpt_svg__line_chart(out, id, "Fragmentation over time", "ratio", mode,
	                    find_series(mode, RPT_S_FRAGMENTATION));
	g_snprintf(id, sizeof(id), "m%u-latency-cdf", index);
	rpt_svg__cdf(out, id, "CDF of scheduling latency", "s",
	             latency->len ? &g_array_index(latency, double, 0) : NULL, latency->len);
	g_snprintf(id, sizeof(id), "m%u-slowdown-cdf", index);
	rpt_svg__cdf(out, id, "CDF of JCT slowdown", "x",
	             slowdown->len ? &g_array_index(slowdown, double, 0) : NULL, slowdown->len);
	g_snprintf(id, sizeof(id), "m%u-heatmap", index);
	rpt_svg__heatmap(out, id, heat_title, mode);
	if (mode->gpus->len > 0) {
		g_snprintf(id, sizeof(id), "m%u-slices", index);
		rpt_svg__gpus(out, id, "Who holds which slice (shared and MIG GPUs)", mode);
	}
	g_string_append(out, "</div>\n");
	mode_tables(out, mode);
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
	summary_table(out, report);
	for (guint m = 0; m < report->modes->len; m++) {
		mode_section(out, g_ptr_array_index(report->modes, m), m);
	}
	return rpt_html__page_close(out, TRUE);
}
