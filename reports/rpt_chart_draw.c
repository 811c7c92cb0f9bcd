/*
 * rpt_chart_draw.c: an overlaid line chart on rpt_chart.c's axes: every
 * series (a mode) on the same axes in its palette colour, with its band
 * when it has one, a staircase for a CDF, and a legend. A chart whose series
 * have no point at all says why (its empty_text) and is marked
 * data-nodata="1", so a check can tell "nothing happened" from "drew nothing".
 */
#include <math.h>
#include <string.h>

#include "rpt-chart-private.h"
#include "rpt-private.h"

#define WIDTH  560.0
#define HEIGHT 240.0

static void
widen(double range[2], double v, gboolean positive_only)
{
	if (isfinite(v) && (!positive_only || v > 0.0)) {
		range[0] = MIN(range[0], v);
		range[1] = MAX(range[1], v);
	}
}

/* The data ranges of every series; returns the number of points with an x and a y. */
static guint
data_ranges(const RptChart *chart, double x[2], double y[2])
{
	gboolean x_log = chart->x.kind == RPT_AXIS_LOG, y_log = chart->y.kind == RPT_AXIS_LOG;
	guint points = 0;

	x[0] = y[0] = (double)INFINITY;
	x[1] = y[1] = -(double)INFINITY;
	for (guint s = 0; s < chart->n_series; s++) {
		const RptChartSeries *series = &chart->series[s];

		for (guint i = 0; i < series->n; i++) {
			if (!isfinite(series->x[i]) || !isfinite(series->y[i]))
				continue;
			points++;
			widen(x, series->x[i], x_log);
			widen(y, series->y[i], y_log);
			if (series->lo != NULL)
				widen(y, series->lo[i], y_log);
			if (series->hi != NULL)
				widen(y, series->hi[i], y_log);
		}
		if (series->steps && series->n > 0)
			widen(y, 0.0, y_log); /* a CDF starts from 0 */
	}
	return points;
}

void
rpt_chart_open(GString *out,
               const char *id,
               const char *title,
               double width,
               double height,
               guint points,
               const char *empty_text,
               const char *extra_attrs)
{
	g_autofree char *escaped = g_markup_escape_text(title, -1);
	g_autofree char *escaped_id = g_markup_escape_text(id, -1);

	g_string_append_printf(out,
	                       "<svg class=\"chart\" id=\"%s\" data-points=\"%u\"%s%s "
	                       "viewBox=\"0 0 %.0f %.0f\" width=\"%.0f\" height=\"%.0f\" "
	                       "xmlns=\"http://www.w3.org/2000/svg\">"
	                       "<text x=\"%.0f\" y=\"16\" class=\"title\">%s</text>\n",
	                       escaped_id, points, extra_attrs ? " " : "",
	                       extra_attrs ? extra_attrs : "", width, height, width, height, 56.0,
	                       escaped);
	if (points == 0) {
		g_autofree char *text =
		        g_markup_escape_text(empty_text ? empty_text : "no data in this run", -1);

		/* say so on the page rather than draw empty axes that look like zeros */
		g_string_append_printf(out,
		                       "<text x=\"%.0f\" y=\"%.0f\" class=\"tick nodata\" "
		                       "text-anchor=\"middle\">%s</text>\n",
		                       width / 2, height / 2, text);
	}
}

/* The series in pixels: a staircase doubles the points (rise at each x from the last level). */
static guint
series_pixels(const RptChartFrame *f, const RptChartSeries *series, RptSvgPoint *p)
{
	guint n = 0;
	double level = 0.0;

	for (guint i = 0; i < series->n; i++) {
		double px, py, lo = (double)NAN, hi = (double)NAN, unused;

		if (series->steps) {
			rpt_chart_frame_xy(f, series->x[i], level, &px, &py);
			p[n++] = (RptSvgPoint){ px, py, (double)NAN, (double)NAN };
			level = series->y[i];
		}
		rpt_chart_frame_xy(f, series->x[i], series->y[i], &px, &py);
		if (series->lo != NULL && series->hi != NULL) {
			rpt_chart_frame_xy(f, series->x[i], series->lo[i], &unused, &lo);
			rpt_chart_frame_xy(f, series->x[i], series->hi[i], &unused, &hi);
		}
		p[n++] = (RptSvgPoint){ px, py, lo, hi };
	}
	return n;
}

static guint
draw_series(GString *out, const RptChartFrame *f, const RptChartSeries *series)
{
	g_autofree RptSvgPoint *pixels = g_new(RptSvgPoint, 2 * series->n + 1);
	guint n = series_pixels(f, series, pixels);
	const char *colour = rpt_svg__colour(series->colour);
	guint drawn = 0;

	rpt_svg__band_line(out, pixels, n, colour, NULL);
	for (guint i = 0; i < series->n; i++)
		drawn += isfinite(series->x[i]) && isfinite(series->y[i]);
	if (drawn == 1 && !series->steps) { /* a lone point has no line to show it */
		for (guint i = 0; i < n; i++) {
			if (isfinite(pixels[i].x) && isfinite(pixels[i].y))
				g_string_append_printf(out,
				                       "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
				                       "fill=\"%s\"/>",
				                       pixels[i].x, pixels[i].y, colour);
		}
	}
	return drawn;
}

guint
rpt_chart_draw(GString *out, const RptChart *chart)
{
	double data_x[2], data_y[2];
	guint points = data_ranges(chart, data_x, data_y);
	g_autofree const char **names = g_new0(const char *, chart->n_series + 1);
	g_autofree guint *colours = g_new0(guint, chart->n_series + 1);
	g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *attrs = NULL;
	RptChartFrame f;

	if (points == 0) {
		rpt_chart_open(out, chart->id, chart->title, WIDTH, HEIGHT, 0, chart->empty_text,
		               "data-nodata=\"1\"");
		g_string_append(out, "</svg>\n");
		return 0;
	}
	rpt_chart_frame_init(&f, WIDTH, HEIGHT, &chart->x, &chart->y, data_x, data_y);
	attrs = g_strdup_printf("data-series=\"%u\" data-x=\"%.6g %.6g\" data-y=\"%.6g %.6g\"",
	                        chart->n_series, f.x.lo, f.x.hi, f.y.lo, f.y.hi);
	rpt_chart_open(out, chart->id, chart->title, WIDTH, HEIGHT, points, NULL, attrs);
	rpt_chart_frame_draw(out, &f);
	for (guint s = 0; s < chart->n_series; s++) {
		guint drawn = draw_series(out, &f, &chart->series[s]);

		colours[s] = chart->series[s].colour;
		names[s] = chart->series[s].name;
		if (drawn == 0) {
			names[s] = g_strconcat(chart->series[s].name, " (no data)", NULL);
			g_ptr_array_add(owned, (gpointer)names[s]);
		}
	}
	rpt_chart_legend(out, &f, names, colours, chart->n_series);
	g_string_append(out, "</svg>\n");
	return points;
}
