/*
 * rpt_plan_html.c: plan.html, one self-contained page in the frame of the
 * run report (rpt_html.c): the answers, then per mode and SLO a chart of the
 * metric against the count of the searched pool (the last one; in a mix the
 * other pools stay at the answer's counts), with the mean, the bound's
 * interval as a bar, the SLO's threshold as a dashed line and the answer as
 * a vertical line, and the table of points as plan.txt has it.
 */
#include <math.h>

#include "rpt-chart-private.h"
#include "rpt-private.h"
#include "rpt_plan-private.h"

/* The points of @mode's chart: those whose counts equal the answer's (or the closest
 * point's) in every pool but the last, in count order. */
static GArray *
chart_points(const RptPlan *self, guint mode, const GArray *order)
{
	const RptPlanAnswer *answer = &self->answers[mode];
	const RptPlanPoint *anchor =
	        self->points->len ? g_ptr_array_index(self->points, answer->point) : NULL;
	GArray *chosen = g_array_new(FALSE, FALSE, sizeof(guint));

	for (guint i = 0; anchor != NULL && i < order->len; i++) {
		guint index = g_array_index(order, guint, i);
		const RptPlanPoint *point = g_ptr_array_index(self->points, index);
		gboolean same = TRUE;

		for (guint p = 0; p + 1 < self->n_pools; p++)
			same = same && point->counts[p] == anchor->counts[p];
		if (same)
			g_array_append_val(chosen, index);
	}
	return chosen;
}

/* The y range: the threshold, 0 and every finite mean and bound. */
static void
y_range(const RptPlan *self, guint mode, guint slo, const GArray *chosen, double *y0, double *y1)
{
	*y0 = MIN(0.0, self->slos[slo].value);
	*y1 = MAX(0.0, self->slos[slo].value);
	for (guint i = 0; i < chosen->len; i++) {
		RptPlanPoint *point =
		        g_ptr_array_index(self->points, g_array_index(chosen, guint, i));
		const RptPlanMeasure *m = rpt_plan_point_measure(self, point, mode, slo);
		const double values[] = { m->stat.mean, m->stat.ci_low, m->stat.ci_high };

		for (guint k = 0; k < G_N_ELEMENTS(values); k++) {
			if (isfinite(values[k])) {
				*y0 = MIN(*y0, values[k]);
				*y1 = MAX(*y1, values[k]);
			}
		}
	}
	if (*y1 <= *y0)
		*y1 = *y0 + 1.0;
}

/* The plot area: counts on a log scale (bisection's points 2, 4, 8 ... 64 spread evenly),
 * the chart module's frame (rpt_chart.c). */
typedef struct {
	RptChartFrame frame;
} ChartFrame;

static void
place(const ChartFrame *f, double count, double y, double *px, double *py)
{
	rpt_chart_frame_xy(&f->frame, MAX(count, 1.0), y, px, py);
}

static void
svg_line(GString *out,
         const ChartFrame *f,
         double c0,
         double y0,
         double c1,
         double y1,
         const char *attrs)
{
	double px, py, qx, qy;

	place(f, c0, y0, &px, &py);
	place(f, c1, y1, &qx, &qy);
	g_string_append_printf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>",
	                       px, py, qx, qy, attrs);
}

/* The means as a polyline (into @line), each with a dot and its interval as a bar (into @marks). */
static guint
draw_points(GString *line,
            GString *marks,
            const RptPlan *self,
            guint mode,
            guint slo,
            const GArray *chosen,
            const ChartFrame *f)
{
	guint drawn = 0;

	for (guint i = 0; i < chosen->len; i++) {
		RptPlanPoint *point =
		        g_ptr_array_index(self->points, g_array_index(chosen, guint, i));
		const RptPlanMeasure *m = rpt_plan_point_measure(self, point, mode, slo);
		double c = point->counts[self->n_pools - 1], px, py;

		if (!isfinite(m->stat.mean))
			continue;
		place(f, c, m->stat.mean, &px, &py);
		g_string_append_printf(line, "%s%.1f,%.1f", drawn++ ? " " : "", px, py);
		g_string_append_printf(marks,
		                       "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#1f6feb\"/>",
		                       px, py);
		if (isfinite(m->stat.ci_low) && isfinite(m->stat.ci_high))
			svg_line(marks, f, c, m->stat.ci_low, c, m->stat.ci_high,
			         "class=\"band\" stroke=\"#1f6feb\" stroke-opacity=\"0.35\" "
			         "stroke-width=\"4\"");
	}
	return drawn;
}

static void
slo_chart(GString *out, const RptPlan *self, guint mode, guint slo, const GArray *chosen)
{
	const char *pool = self->pools[self->n_pools - 1];
	g_autofree char *id = g_strdup_printf("m%u-slo%u", mode, slo);
	g_autofree char *title = g_strdup_printf("%s: %s against the count of %s",
	                                         self->modes[mode], self->slos[slo].text, pool);
	g_autofree char *attrs = NULL;
	g_autoptr(GString) line = g_string_new(NULL);
	g_autoptr(GString) marks = g_string_new(NULL);
	ChartFrame f;
	double counts[2] = { G_MAXDOUBLE, 1.0 }, ys[2];
	guint drawn;

	for (guint i = 0; i < chosen->len; i++) {
		RptPlanPoint *point =
		        g_ptr_array_index(self->points, g_array_index(chosen, guint, i));

		counts[0] = MIN(counts[0], MAX(point->counts[self->n_pools - 1], 1.0));
		counts[1] = MAX(counts[1], point->counts[self->n_pools - 1]);
	}
	if (counts[0] > counts[1])
		counts[0] = 1.0;
	y_range(self, mode, slo, chosen, &ys[0], &ys[1]);
	rpt_chart_frame_init(
	        &f.frame, 560.0, 240.0,
	        &(RptAxis){ RPT_AXIS_LOG, "nodes (log scale)", NAN, NAN, NULL, 0, FALSE },
	        &(RptAxis){ rpt_chart_axis_for_unit(self->slos[slo].unit), self->slos[slo].unit,
	                    NAN, NAN, NULL, 0, FALSE },
	        counts, ys);
	drawn = draw_points(line, marks, self, mode, slo, chosen, &f);
	attrs = g_strdup_printf("data-series=\"1\" data-x=\"%.6g %.6g\" data-y=\"%.6g %.6g\"",
	                        f.frame.x.lo, f.frame.x.hi, f.frame.y.lo, f.frame.y.hi);
	rpt_chart_open(out, id, title, 560.0, 240.0, drawn, NULL, attrs);
	rpt_chart_frame_draw(out, &f.frame);
	svg_line(out, &f, f.frame.x.lo, self->slos[slo].value, f.frame.x.hi, self->slos[slo].value,
	         "class=\"threshold\" stroke=\"#d73a49\" stroke-dasharray=\"4 3\"");
	if (self->answers[mode].met) {
		double c = self->answers[mode].counts[self->n_pools - 1];

		svg_line(out, &f, c, f.frame.y.lo, c, f.frame.y.hi,
		         "class=\"answer\" stroke=\"#2da44e\"");
	}
	g_string_append_printf(out, "\n%s\n<polyline class=\"line\" points=\"%s\"/></svg>\n",
	                       marks->str, line->str);
}

static void
points_table(GString *out, const RptPlan *self, guint mode, const GArray *order)
{
	g_string_append(out, "<table><tr>");
	for (guint p = 0; p < self->n_pools; p++) {
		g_string_append(out, "<th>");
		rpt_html__escaped(out, self->pools[p]);
		g_string_append(out, "</th>");
	}
	for (guint s = 0; s < self->n_slos; s++) {
		g_string_append(out, "<th>");
		rpt_html__escaped(out, self->slos[s].text);
		g_string_append(out, "</th>");
	}
	g_string_append(out, "<th>all</th></tr>\n");
	for (guint i = 0; i < order->len; i++) {
		guint index = g_array_index(order, guint, i);
		RptPlanPoint *point = g_ptr_array_index(self->points, index);

		g_string_append(out, "<tr>");
		for (guint p = 0; p < self->n_pools; p++)
			g_string_append_printf(out, "<td class=\"num\">%u</td>", point->counts[p]);
		for (guint s = 0; s < self->n_slos; s++) {
			g_autofree char *cell = rpt_plan__measure_text(
			        self, rpt_plan_point_measure(self, point, mode, s), s);

			g_string_append(out, "<td>");
			rpt_html__escaped(out, cell);
			g_string_append(out, "</td>");
		}
		g_string_append_printf(out, "<td>%s%s</td></tr>\n",
		                       rpt_plan_point_holds(self, point, mode) ? "holds" : "fails",
		                       rpt_plan__is_offending(&self->answers[mode], index)
		                               ? " (not monotone)"
		                               : "");
	}
	g_string_append(out, "</table>\n");
}

char *
rpt_plan_html_to_string(const RptPlan *self)
{
	g_autofree char *title = g_strconcat("drasim plan: ", self->scenario, NULL);
	g_autofree char *seeds = rpt_plan__seeds_text(self);
	g_autoptr(GArray) order = rpt_plan__points_by_counts(self);
	GString *out = rpt_html__page_open(title, NULL);

	g_string_append_printf(out, "</h1>\n<p>seeds %s · confidence %g%%</p>\n<ul>\n", seeds,
	                       self->confidence * 100.0);
	for (guint m = 0; m < self->n_modes; m++) {
		g_autofree char *answer = rpt_plan__answer_text(self, m);

		g_string_append(out, "<li><b>");
		rpt_html__escaped(out, self->modes[m]);
		g_string_append(out, "</b>: ");
		rpt_html__escaped(out, answer);
		g_string_append(out, "</li>\n");
	}
	g_string_append(out, "</ul>\n");
	for (guint m = 0; m < self->n_modes; m++) {
		g_autoptr(GArray) chosen = chart_points(self, m, order);

		g_string_append(out, "<h2>");
		rpt_html__escaped(out, self->modes[m]);
		g_string_append(out, "</h2>\n<div class=\"charts\">\n");
		for (guint s = 0; s < self->n_slos; s++)
			slo_chart(out, self, m, s, chosen);
		g_string_append(out, "</div>\n");
		points_table(out, self, m, order);
	}
	return rpt_html__page_close(out, self->n_slos > 0);
}
