/*
 * rpt_sweep_html.c: the sweep's results as one self-contained page
 * (sweep.html), in rpt_html.c's frame and style, with its chart check.
 *
 * A section per metric, in the rows' order; in it, a chart per parameter:
 * the metric against the parameter's values, one line per mode with its
 * confidence band (with one parameter, the charts of all metrics share one
 * grid, two or three a row, instead of a section each). With several parameters the others are held
 * fixed, one small chart per combination of their values (small multiples, at most MAX_PANELS per
 * parameter): one chart with a line per combination and mode would be unreadable past a few lines,
 * and panels on the metric's one scale compare at a glance. Then the failed runs, the seeds and the
 * level.
 */
#include <math.h>
#include <string.h>

#include "rpt-private.h"
#include "rpt-sweep-private.h"

#define MAX_PANELS 12

static const char sweep_style[] =
        ".band{stroke:none;fill-opacity:0.18}.mean{fill:none;stroke-width:1.5}"
        ".bar{stroke-width:1.5;stroke-opacity:0.5}.note{color:#555;max-width:70em}"
        "ul.toc{columns:3;font-size:13px}.break{flex-basis:100%;height:0}";

/* Distinct strings of the rows in first-seen order (borrowed, interned). */
static GPtrArray *
distinct(const RptSweep *self, gboolean metrics)
{
	GPtrArray *seen = g_ptr_array_new();

	for (guint i = 0; i < self->rows->len; i++) {
		const RptSweepRow *row = &g_array_index(self->rows, RptSweepRow, i);
		const char *text = metrics ? row->metric : row->mode;

		/* interned: equal strings are one pointer */
		if (!g_ptr_array_find(seen, text, NULL)) {
			g_ptr_array_add(seen, (gpointer)text);
		}
	}
	return seen;
}

/* "1-10, 12" */
static void
seeds_text(GString *out, const GArray *seeds)
{
	for (guint i = 0; i < seeds->len;) {
		uint64_t first = g_array_index(seeds, uint64_t, i);
		guint j = i + 1;

		while (j < seeds->len && g_array_index(seeds, uint64_t, j) == first + (j - i)) {
			j++;
		}
		g_string_append_printf(out, "%s%" G_GUINT64_FORMAT, i ? ", " : "", (guint64)first);
		if (j - i > 1) {
			g_string_append_printf(out, "-%" G_GUINT64_FORMAT,
			                       (guint64)g_array_index(seeds, uint64_t, j - 1));
		}
		i = j;
	}
}

/* The other parameters' values of @row as "path=value, ..." (the panel's key and title). */
static char *
others_text(const RptSweep *self, const RptSweepRow *row, guint param)
{
	GString *text = g_string_new(NULL);

	for (guint j = 0; j < self->params->len; j++) {
		if (j != param) {
			g_string_append_printf(text, "%s%s=%s", text->len ? ", " : "",
			                       (char *)g_ptr_array_index(self->params, j),
			                       row->values[j]);
		}
	}
	return g_string_free(text, FALSE);
}

/* The charts of @rows (one metric) against @param: a panel per combination of the others. */
static void
param_charts(GString *out,
             const RptSweep *self,
             guint metric,
             guint param,
             const GPtrArray *rows,
             const GPtrArray *modes)
{
	g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) panels =
	        g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	const char *metric_name = ((const RptSweepRow *)g_ptr_array_index(rows, 0))->metric;
	/* key -> its index + 1 (keys are owned by @keys); a grid has up to thousands of them */
	g_autoptr(GHashTable) index_of = g_hash_table_new(g_str_hash, g_str_equal);
	double y_range[2];

	rpt_sweep_svg__y_range((const RptSweepRow *const *)rows->pdata, rows->len, y_range);
	for (guint i = 0; i < rows->len; i++) {
		const RptSweepRow *row = g_ptr_array_index(rows, i);
		char *key = others_text(self, row, param);
		guint index = GPOINTER_TO_UINT(g_hash_table_lookup(index_of, key));

		if (index == 0) {
			g_ptr_array_add(keys, key);
			g_ptr_array_add(panels, g_ptr_array_new());
			index = keys->len;
			g_hash_table_insert(index_of, key, GUINT_TO_POINTER(index));
		} else {
			g_free(key);
		}
		g_ptr_array_add(g_ptr_array_index(panels, index - 1), (gpointer)row);
	}
	for (guint g = 0; g < MIN(panels->len, MAX_PANELS); g++) {
		const GPtrArray *panel = g_ptr_array_index(panels, g);
		const char *key = g_ptr_array_index(keys, g);
		g_autofree char *subtitle = *key ? g_strconcat("where ", key, NULL) : NULL;
		char id[64];

		g_snprintf(id, sizeof(id), "k%u-p%u-g%u", metric, param, g);
		rpt_sweep_svg__chart(out, id, metric_name, subtitle, self, param,
		                     (const RptSweepRow *const *)panel->pdata, panel->len,
		                     (const char *const *)modes->pdata, modes->len, y_range);
	}
	if (panels->len > MAX_PANELS) {
		g_string_append_printf(out,
		                       "<p class=\"note\">%u more combinations of the other "
		                       "parameters: see sweep.csv.</p>\n",
		                       panels->len - MAX_PANELS);
	}
}

static gboolean
any_mean(const GPtrArray *rows)
{
	for (guint i = 0; i < rows->len; i++) {
		if (isfinite(((const RptSweepRow *)g_ptr_array_index(rows, i))->stat.mean)) {
			return TRUE;
		}
	}
	return FALSE;
}

static void
metric_section(GString *out,
               const RptSweep *self,
               guint metric,
               const GPtrArray *rows,
               const GPtrArray *modes)
{
	const RptSweepRow *first = g_ptr_array_index(rows, 0);

	g_string_append_printf(out, "<h2 id=\"metric-%u\">", metric);
	rpt_html__escaped(out, first->metric);
	g_string_append(out, " <span class=\"unit\">");
	rpt_html__escaped(out, first->unit);
	g_string_append(out, "</span></h2>\n<div class=\"charts\">\n");
	for (guint p = 0; p < self->params->len; p++) {
		/* each parameter's panels start a row of their own */
		g_string_append(out, p ? "<div class=\"break\"></div>\n" : "");
		param_charts(out, self, metric, p, rows, modes);
	}
	g_string_append(out, "</div>\n");
}

/* A sweep of seeds alone has no axis to draw against: its numbers as a table, a row per
 * metric, a column per mode ("mean [low, high], n"). */
static void
summary_table(GString *out,
              const GPtrArray *metrics,
              const GPtrArray *by_metric,
              const GPtrArray *modes)
{
	g_string_append(out, "<table id=\"summary\"><tr><th>metric</th>"
	                     "<th>unit</th>");
	for (guint m = 0; m < modes->len; m++) {
		g_string_append(out, "<th>");
		rpt_html__escaped(out, g_ptr_array_index(modes, m));
		g_string_append(out, "</th>");
	}
	g_string_append(out, "</tr>\n");
	for (guint k = 0; k < metrics->len; k++) {
		const GPtrArray *rows = g_ptr_array_index(by_metric, k);

		g_string_append_printf(out, "<tr id=\"metric-%u\"><td>", k);
		rpt_html__escaped(out, g_ptr_array_index(metrics, k));
		g_string_append(out, "</td><td class=\"unit\">");
		rpt_html__escaped(out, ((const RptSweepRow *)g_ptr_array_index(rows, 0))->unit);
		g_string_append(out, "</td>");
		for (guint m = 0; m < modes->len; m++) {
			const RptSweepRow *found = NULL;

			for (guint i = 0; i < rows->len && found == NULL; i++) {
				const RptSweepRow *row = g_ptr_array_index(rows, i);

				found = row->mode == g_ptr_array_index(modes, m) ? row : NULL;
			}
			if (found == NULL || !isfinite(found->stat.mean)) {
				g_string_append(out, "<td class=\"num\">-</td>");
			} else if (!isfinite(found->stat.ci_low)) {
				g_string_append_printf(out, "<td class=\"num\">%.6g, n %u</td>",
				                       found->stat.mean, found->stat.n);
			} else {
				g_string_append_printf(
				        out, "<td class=\"num\">%.6g [%.6g, %.6g], n %u</td>",
				        found->stat.mean, found->stat.ci_low, found->stat.ci_high,
				        found->stat.n);
			}
		}
		g_string_append(out, "</tr>\n");
	}
	g_string_append(out, "</table>\n");
}

static void
failures_table(GString *out, const RptSweep *self)
{
	g_string_append_printf(out, "<h2 id=\"failures\">Failed runs (%u)</h2>\n",
	                       self->failures->len);
	if (self->failures->len == 0) {
		g_string_append(out, "<p>None: every run wrote its report.</p>\n");
		return;
	}
	g_string_append(out, "<table id=\"failures-table\"><tr>");
	for (guint j = 0; j < self->params->len; j++) {
		g_string_append(out, "<th>");
		rpt_html__escaped(out, g_ptr_array_index(self->params, j));
		g_string_append(out, "</th>");
	}
	g_string_append(out, "<th>seed</th><th>message</th></tr>\n");
	for (guint i = 0; i < self->failures->len; i++) {
		const RptSweepFailure *failure = &g_array_index(self->failures, RptSweepFailure, i);

		g_string_append(out, "<tr>");
		for (guint j = 0; j < self->params->len; j++) {
			g_string_append(out, "<td>");
			rpt_html__escaped(out, failure->values[j]);
			g_string_append(out, "</td>");
		}
		g_string_append_printf(out, "<td class=\"num\">%" G_GUINT64_FORMAT "</td><td>",
		                       (guint64)failure->seed);
		rpt_html__escaped(out, failure->message);
		g_string_append(out, "</td></tr>\n");
	}
	g_string_append(out, "</table>\n");
}

static void
header(GString *out, const RptSweep *self)
{
	char level[32];

	rpt_sweep__level_text(level, sizeof(level), self->confidence);
	g_string_append(out, "</h1>\n<p>scenario ");
	rpt_html__escaped(out, self->scenario);
	g_string_append_printf(out, " · %u seeds (", self->seeds->len);
	seeds_text(out, self->seeds);
	g_string_append_printf(out, ") · confidence %s %% · %u failed runs</p>\n", level,
	                       self->failures->len);
	g_string_append_printf(
	        out,
	        "<p class=\"note\">Each line is a mode's mean across the seeds of a cell; the "
	        "shaded band (an error bar for a lone point) is the %s %% confidence interval of "
	        "that mean by Student's t. A cell where the metric was defined for one seed only "
	        "has no interval. The interval assumes roughly normal means: with few seeds and "
	        "a metric piled up at a bound (0 pending pods, a ratio of 1) it can cross the "
	        "bound and is then too wide on that side. The numbers are in sweep.csv and "
	        "sweep.json.</p>\n",
	        level);
}

char *
rpt_sweep_html_to_string(const RptSweep *self)
{
	g_autofree char *title = g_strconcat("drasim sweep: ", self->name, NULL);
	GString *out = rpt_html__page_open(title, sweep_style);
	g_autoptr(GPtrArray) modes = distinct(self, FALSE);
	g_autoptr(GPtrArray) metrics = distinct(self, TRUE);
	g_autoptr(GPtrArray) by_metric =
	        g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	GString *empty = g_string_new(NULL);
	/* one parameter, one chart a metric: all in one grid, each titled by its metric */
	gboolean grid = self->params->len == 1;

	header(out, self);
	for (guint k = 0; k < metrics->len; k++) {
		g_ptr_array_add(by_metric, g_ptr_array_new());
	}
	for (guint i = 0; i < self->rows->len; i++) {
		const RptSweepRow *row = &g_array_index(self->rows, RptSweepRow, i);
		guint k = 0;

		g_ptr_array_find(metrics, row->metric, &k);
		g_ptr_array_add(g_ptr_array_index(by_metric, k), (gpointer)row);
	}
	g_string_append(out, "<ul class=\"toc\">");
	for (guint k = 0; k < metrics->len; k++) {
		gboolean drawn = any_mean(g_ptr_array_index(by_metric, k));

		if (drawn) {
			g_string_append_printf(out,
			                       grid ? "<li><a href=\"#k%u-p0-g0\">"
			                            : "<li><a href=\"#metric-%u\">",
			                       k);
		} else { /* no chart with nothing to draw: named once, below */
			g_string_append(out, "<li><a href=\"#undefined\">");
			g_string_append_printf(empty, "%s%s", empty->len ? ", " : "",
			                       (char *)g_ptr_array_index(metrics, k));
		}
		rpt_html__escaped(out, g_ptr_array_index(metrics, k));
		g_string_append(out, "</a></li>");
	}
	g_string_append(out, "<li><a href=\"#failures\">failed runs</a></li></ul>\n");
	if (self->params->len == 0) {
		summary_table(out, metrics, by_metric, modes);
	}
	g_string_append(out, grid ? "<div class=\"charts\">\n" : "");
	for (guint k = 0; k < metrics->len && self->params->len > 0; k++) {
		const GPtrArray *rows = g_ptr_array_index(by_metric, k);

		if (!any_mean(rows)) {
			continue;
		} else if (grid) {
			param_charts(out, self, k, 0, rows, modes);
		} else {
			metric_section(out, self, k, rows, modes);
		}
	}
	g_string_append(out, grid ? "</div>\n" : "");
	if (empty->len > 0) {
		g_string_append(out, "<p class=\"note\" id=\"undefined\">Not defined in any run: ");
		rpt_html__escaped(out, empty->str);
		g_string_append(out, ".</p>\n");
	}
	g_string_free(empty, TRUE);
	failures_table(out, self);
	/* a sweep of seeds alone has its numbers in a table, no chart */
	return rpt_html__page_close(out, self->params->len > 0);
}
