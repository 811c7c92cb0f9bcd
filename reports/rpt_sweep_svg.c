/*
 * rpt_sweep_svg.c: the sweep page's chart, a metric against one parameter:
 * one line per mode through the cells' means and a shaded band between the
 * interval's bounds, on the chart module's axes and legend (rpt_chart.c).
 *
 * The x axis is numeric when every value of the parameter reads as a number
 * (a node count, an arrival rate: distances mean something) and categorical
 * otherwise (a policy name, a mode list), in the order the sweep gave them.
 * A band needs two neighbouring points with an interval; a lone one gets an
 * error bar, and a cell with one seed (no interval) only its point. Colours
 * follow the mode's place in the page's mode list, so a mode keeps its
 * colour on every chart.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rpt-chart-private.h"
#include "rpt-private.h"
#include "rpt-sweep-private.h"

/* the width rpt_svg__open_chart() draws (rpt_svg.c's charts) */
#define W     560.0
#define H     250.0
#define RIGHT 16.0

typedef struct {
	double x; /* position on the axis: the value, or the category's index */
	const RptSweepRow *row;
} Point;

typedef struct {
	GPtrArray *labels; /* const char*: distinct values, first-seen order */
	gboolean numeric;
	gboolean integral; /* numeric and every value whole: whole ticks only */
	double x0, x1, y0, y1;
} Axes;

static gboolean
parse_number(const char *text, double *value_out)
{
	char *end = NULL;

	while (g_ascii_isspace(*text)) {
		text++;
	}
	*value_out = g_ascii_strtod(text, &end);
	if (end == text) {
		return FALSE;
	}
	while (g_ascii_isspace(*end)) {
		end++;
	}
	return *end == '\0' && isfinite(*value_out);
}

static double
position(const Axes *axes, const char *label)
{
	double value = 0.0;
	guint index = 0;

	if (axes->numeric) {
		parse_number(label, &value);
		return value;
	}
	g_ptr_array_find_with_equal_func(axes->labels, label, g_str_equal, &index);
	return index;
}

static void
widen(double *lo, double *hi, double v)
{
	if (isfinite(v)) {
		*lo = MIN(*lo, v);
		*hi = MAX(*hi, v);
	}
}

void
rpt_sweep_svg__y_range(const RptSweepRow *const *rows, guint n_rows, double range[2])
{
	range[0] = (double)INFINITY;
	range[1] = -(double)INFINITY;
	for (guint i = 0; i < n_rows; i++) {
		widen(&range[0], &range[1], rows[i]->stat.mean);
		widen(&range[0], &range[1], rows[i]->stat.ci_low);
		widen(&range[0], &range[1], rows[i]->stat.ci_high);
	}
	if (!(range[1] > range[0])) { /* one value, or none: a band around it */
		double v = isfinite(range[0]) ? range[0] : 0.0;
		double pad = fabs(v) > 0 ? fabs(v) * 0.1 : 1.0;

		range[0] = v - pad;
		range[1] = v + pad;
	}
}

static void
axes_init(Axes *axes,
          guint param,
          const RptSweepRow *const *rows,
          guint n_rows,
          const double y_range[2])
{
	double value;

	axes->labels = g_ptr_array_new();
	axes->numeric = TRUE;
	axes->integral = TRUE;
	axes->y0 = y_range[0];
	axes->y1 = y_range[1];
	for (guint i = 0; i < n_rows; i++) {
		const char *label = rows[i]->values[param];

		if (!g_ptr_array_find_with_equal_func(axes->labels, label, g_str_equal, NULL)) {
			g_ptr_array_add(axes->labels, (gpointer)label);
			axes->numeric = axes->numeric && parse_number(label, &value);
			axes->integral = axes->numeric && axes->integral &&
			                 !(fabs(value - floor(value)) > 0.0);
		}
	}
	axes->x0 = axes->numeric ? (double)INFINITY : 0.0;
	axes->x1 = axes->numeric ? -(double)INFINITY : MAX(axes->labels->len, 1u) - 1.0;
	for (guint i = 0; axes->numeric && i < axes->labels->len; i++) {
		widen(&axes->x0, &axes->x1, position(axes, g_ptr_array_index(axes->labels, i)));
	}
}

/* The chart module's frame (rpt_chart.c) over the sweep's axes: a numeric parameter on a
 * number axis, any other on a category axis in the sweep's order. */
static void
frame_init(RptChartFrame *f, const Axes *axes, const char *x_name, const char *y_unit)
{
	RptAxis x = { axes->numeric ? RPT_AXIS_NUMBER : RPT_AXIS_CATEGORY,
		      x_name,
		      (double)NAN,
		      (double)NAN,
		      (const char *const *)axes->labels->pdata,
		      axes->labels->len,
		      axes->numeric && axes->integral };
	RptAxis y = {
		rpt_chart_axis_for_unit(y_unit), y_unit, (double)NAN, (double)NAN, NULL, 0, FALSE
	};
	double xs[2] = { axes->x0, axes->x1 }, ys[2] = { axes->y0, axes->y1 };

	rpt_chart_frame_init(f, W, H, &x, &y, xs, ys);
}

static int
compare_points(gconstpointer a, gconstpointer b)
{
	const Point *p = a, *q = b;

	return (p->x > q->x) - (p->x < q->x);
}

/* The mode's points in pixels (NaN where a mean or a bound is undefined): bands, then the
 * mean line broken where a mean is undefined (rpt_svg__band_line), then the points with
 * their numbers as a tooltip. Returns the number of points drawn. */
static guint
draw_mode(GString *out, const RptChartFrame *f, guint param, GArray *points, const char *colour)
{
	const Point *p;
	g_autofree RptSvgPoint *pixels = g_new(RptSvgPoint, points->len + 1);
	guint drawn;

	g_array_sort(points, compare_points);
	p = (const Point *)(void *)points->data;
	for (guint i = 0; i < points->len; i++) {
		const RptStat *stat = &p[i].row->stat;
		gboolean interval = isfinite(stat->ci_low) && isfinite(stat->ci_high);

		double px, py, lo = (double)NAN, hi = (double)NAN, unused;

		rpt_chart_frame_xy(f, p[i].x, stat->mean, &px, &py);
		if (interval) {
			rpt_chart_frame_xy(f, p[i].x, stat->ci_low, &unused, &lo);
			rpt_chart_frame_xy(f, p[i].x, stat->ci_high, &unused, &hi);
		}
		pixels[i] = (RptSvgPoint){ .x = px, .y = py, .lo = lo, .hi = hi };
	}
	drawn = rpt_svg__band_line(out, pixels, points->len, colour, NULL);
	for (guint i = 0; i < points->len; i++) {
		const RptStat *stat = &p[i].row->stat;
		g_autofree char *tip = NULL;

		if (!isfinite(stat->mean)) {
			continue;
		}
		tip = g_markup_printf_escaped("%s at %s: mean %.6g, interval [%.6g, %.6g], n %u",
		                              p[i].row->mode, p[i].row->values[param], stat->mean,
		                              stat->ci_low, stat->ci_high, stat->n);
		g_string_append_printf(out,
		                       "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\">"
		                       "<title>%s</title></circle>",
		                       pixels[i].x, pixels[i].y, colour, tip);
	}
	g_string_append_c(out, '\n');
	return drawn;
}

/* The chart module's legend row, the other parameters' values at the top right. */
static void
legend(GString *out,
       const RptChartFrame *f,
       const char *const *modes,
       guint n_modes,
       const char *subtitle)
{
	g_autofree guint *colours = g_new(guint, n_modes + 1);

	for (guint m = 0; m < n_modes; m++)
		colours[m] = m;
	rpt_chart_legend(out, f, modes, colours, n_modes);
	if (subtitle != NULL && *subtitle != '\0') {
		g_autofree char *text = g_markup_escape_text(subtitle, -1);

		g_string_append_printf(out,
		                       "<text x=\"%.0f\" y=\"16\" class=\"tick\" "
		                       "text-anchor=\"end\">%s</text>\n",
		                       W - RIGHT, text);
	}
}

void
rpt_sweep_svg__chart(GString *out,
                     const char *id,
                     const char *title,
                     const char *subtitle,
                     const RptSweep *sweep,
                     guint param,
                     const RptSweepRow *const *rows,
                     guint n_rows,
                     const char *const *modes,
                     guint n_modes,
                     const double y_range[2])
{
	Axes axes;
	RptChartFrame f;
	g_autofree char *attrs = NULL;
	GString *body = g_string_new(NULL);
	g_autoptr(GArray) points = g_array_new(FALSE, FALSE, sizeof(Point));
	guint drawn = 0;

	axes_init(&axes, param, rows, n_rows, y_range);
	frame_init(&f, &axes, g_ptr_array_index(sweep->params, param), n_rows ? rows[0]->unit : "");
	rpt_chart_frame_draw(body, &f);
	for (guint m = 0; m < n_modes; m++) {
		g_array_set_size(points, 0);
		for (guint i = 0; i < n_rows; i++) {
			if (strcmp(rows[i]->mode, modes[m]) == 0) {
				Point point = { position(&axes, rows[i]->values[param]), rows[i] };

				g_array_append_val(points, point);
			}
		}
		drawn += draw_mode(body, &f, param, points, rpt_svg__colour(m));
	}
	legend(body, &f, modes, n_modes, subtitle);
	attrs = g_strdup_printf("data-series=\"%u\" data-x=\"%.6g %.6g\" data-y=\"%.6g %.6g\"",
	                        n_modes, f.x.lo, f.x.hi, f.y.lo, f.y.hi);
	rpt_chart_open(out, id, title, W, H, drawn, NULL, attrs);
	g_string_append_len(out, body->str, body->len);
	g_string_append(out, "</svg>\n");
	g_string_free(body, TRUE);
	g_ptr_array_unref(axes.labels);
}
