/*
 * rpt_chart.c: the one chart module of the HTML pages (report, sweep, plan;
 * the FGD page shares its tick labels and bands).
 *
 * Charts are hand-drawn inline SVG: the page stays one offline file with no
 * script library, and every coordinate is printed with one decimal, so the
 * same report gives the same bytes. What a library would bring is done here:
 * ticks on 1-2-5 steps (4 to 8 of them) or on human time steps (15 min, 6 h,
 * 1 d), labels in the unit people read (53.8 %, 2h30min), a log scale for
 * long-tailed distributions, and no degenerate axis (an all-zero series gets
 * [0, 1]; a chart with no point says why instead of drawing 0-0 axes).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rpt-chart-private.h"
#include "rpt-private.h"

#define MAX_LINEAR_TICKS 8
#define LEFT_MARGIN      60.0
#define RIGHT_MARGIN     16.0
#define TOP_MARGIN       44.0 /* the title, then the legend row */
#define BOTTOM_MARGIN    34.0
#define CDF_MAX_STEPS    500

/* Time steps people count in; past a month, 1-2-5 multiples of a day. */
static const double time_steps[] = {
	1,    2,    5,    10,    15,    30,    60,    120,    300,    600,    900,
	1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 432000, 604800, 1209600,
};

static guint
n_intervals(double lo, double hi, double step)
{
	/* a hair of slack: 0.6 / 0.2 is 2.9999999999999996 */
	double first = floor(lo / step + 1e-9), last = ceil(hi / step - 1e-9);

	return (guint)MAX(last - first, 1.0);
}

/* The smallest 1-2-5 step (or time step) that covers [lo, hi] in at most 7 intervals. */
static double
linear_step(RptAxisKind kind, double lo, double hi, gboolean integral)
{
	double span = hi - lo;
	double decade = pow(10.0, floor(log10(span / MAX_LINEAR_TICKS)));

	if (integral && decade < 1.0)
		decade = 1.0;

	if (kind == RPT_AXIS_TIME && span > 8.0) {
		for (gsize i = 0; i < G_N_ELEMENTS(time_steps); i++) {
			if (n_intervals(lo, hi, time_steps[i]) < MAX_LINEAR_TICKS)
				return time_steps[i];
		}
		return 86400.0 * linear_step(RPT_AXIS_NUMBER, lo / 86400.0, hi / 86400.0, FALSE);
	}
	for (;; decade *= 10.0) {
		static const double mantissa[] = { 1.0, 2.0, 5.0 };

		for (gsize i = 0; i < G_N_ELEMENTS(mantissa); i++) {
			if (n_intervals(lo, hi, decade * mantissa[i]) < MAX_LINEAR_TICKS)
				return decade * mantissa[i];
		}
	}
}

/* An empty, inverted or one-value range made drawable: [0, 0] -> [0, 1], v -> v +- 10 %. */
static void
widen_degenerate(double *lo, double *hi)
{
	if (!isfinite(*lo) || !isfinite(*hi)) {
		*lo = isfinite(*lo) ? *lo : (isfinite(*hi) ? *hi : 0.0);
		*hi = *lo;
	}
	if (*hi > *lo)
		return;
	if (!(fabs(*lo) > 0.0)) {
		*hi = 1.0;
		return;
	}
	double pad = fabs(*lo) * 0.1;

	*hi = *lo + pad;
	*lo = *lo >= 0.0 && *lo - pad < 0.0 ? 0.0 : *lo - pad;
}

static guint
log_ticks(double lo, double hi, double *ticks, double range_out[2])
{
	double d0, d1;
	guint n = 0;

	lo = lo > 0.0 && isfinite(lo) ? lo : 1.0;
	hi = hi > lo && isfinite(hi) ? hi : lo;
	d0 = floor(log10(lo) + 1e-9);
	d1 = MAX(ceil(log10(hi) - 1e-9), d0 + 1.0);
	if (d1 - d0 <= 2.0) { /* one or two decades: 1, 2, 5, 10, 20, 50, 100 */
		for (double d = d0; d < d1; d++) {
			ticks[n++] = pow(10.0, d);
			ticks[n++] = 2.0 * pow(10.0, d);
			ticks[n++] = 5.0 * pow(10.0, d);
		}
		ticks[n++] = pow(10.0, d1);
	} else {
		double every = ceil((d1 - d0) / (MAX_LINEAR_TICKS - 1));

		d1 = d0 + every * ceil((d1 - d0) / every);
		for (double d = d0; d <= d1 + 1e-9; d += every)
			ticks[n++] = pow(10.0, d);
	}
	range_out[0] = pow(10.0, d0);
	range_out[1] = pow(10.0, d1);
	return n;
}

guint
rpt_chart_ticks(const RptAxis *axis, double lo, double hi, double *ticks, double range_out[2])
{
	double step, first;
	guint n;

	if (axis->kind == RPT_AXIS_LOG)
		return log_ticks(lo, hi, ticks, range_out);
	if (axis->kind == RPT_AXIS_CATEGORY) {
		guint every = (axis->n_labels + RPT_CHART_MAX_TICKS - 1) / RPT_CHART_MAX_TICKS;

		n = 0;
		for (guint i = 0; i < axis->n_labels; i += MAX(every, 1u))
			ticks[n++] = i;
		/* each category sits in the middle of its slot, off the axis line */
		range_out[0] = -0.5;
		range_out[1] = MAX(axis->n_labels, 1u) - 0.5;
		return n;
	}
	widen_degenerate(&lo, &hi);
	step = linear_step(axis->kind, lo, hi, axis->kind == RPT_AXIS_NUMBER && axis->integral);
	first = floor(lo / step + 1e-9);
	n = n_intervals(lo, hi, step) + 1;
	for (guint i = 0; i < n; i++) {
		/* integer multiples, never a running sum, so 0.1 * 3 does not drift */
		ticks[i] = (first + i) * step;
		if (fabs(ticks[i]) < step * 1e-9)
			ticks[i] = 0.0; /* no "-0" */
	}
	range_out[0] = ticks[0];
	range_out[1] = ticks[n - 1];
	return n;
}

RptAxisKind
rpt_chart_axis_for_unit(const char *unit)
{
	if (g_strcmp0(unit, "s") == 0)
		return RPT_AXIS_TIME;
	if (g_strcmp0(unit, "ratio") == 0)
		return RPT_AXIS_PERCENT;
	return RPT_AXIS_NUMBER;
}

void
rpt_chart_duration(char *buf, gsize size, double seconds)
{
	static const struct {
		double seconds;
		const char *name;
	} units[] = { { 86400, "d" }, { 3600, "h" }, { 60, "min" }, { 1, "s" } };
	double total;
	gsize used = 0;
	guint parts = 0;

	if (!isfinite(seconds)) {
		g_strlcpy(buf, "-", size);
		return;
	}
	if (!(fabs(seconds) > 0.0)) {
		g_strlcpy(buf, "0", size);
		return;
	}
	if (fabs(seconds) < 60.0) {
		if (fabs(seconds) < 1.0)
			g_snprintf(buf, size, "%.3gms", seconds * 1e3);
		else
			g_snprintf(buf, size, "%.3gs", seconds);
		return;
	}
	if (seconds < 0.0)
		used = (gsize)g_snprintf(buf, size, "-");
	total = round(fabs(seconds));
	for (gsize i = 0; i < G_N_ELEMENTS(units) && parts < 2 && used < size; i++) {
		double count = floor(total / units[i].seconds);

		if (count >= 1.0) {
			used += (gsize)g_snprintf(buf + used, size - used, "%.0f%s", count,
			                          units[i].name);
			total -= count * units[i].seconds;
			parts++;
		} else if (parts > 0) {
			break; /* 1d0h5min reads as 1d */
		}
	}
}

void
rpt_chart_value(char *buf, gsize size, double value, const char *unit)
{
	if (isnan(value)) {
		g_strlcpy(buf, "-", size);
	} else if (g_strcmp0(unit, "ratio") == 0) {
		g_snprintf(buf, size, "%.1f%%", value * 100.0);
	} else if (g_strcmp0(unit, "s") == 0 || g_strcmp0(unit, "x") == 0) {
		g_snprintf(buf, size, "%.3f", value);
	} else if (!(value > floor(value)) && fabs(value) < 1e15) {
		g_snprintf(buf, size, "%.0f", value);
	} else {
		g_snprintf(buf, size, "%.3f", value);
	}
}

void
rpt_chart_tick_label(char *buf, gsize size, const RptAxis *axis, double v)
{
	switch (axis->kind) {
	case RPT_AXIS_TIME:
		rpt_chart_duration(buf, size, v);
		return;
	case RPT_AXIS_PERCENT:
		g_snprintf(buf, size, "%.4g%%", v * 100.0);
		return;
	case RPT_AXIS_CATEGORY: {
		guint i = (guint)MAX(v, 0.0);

		g_strlcpy(buf, i < axis->n_labels ? axis->labels[i] : "", size);
		return;
	}
	case RPT_AXIS_NUMBER:
	case RPT_AXIS_LOG:
	default:
		rpt_svg__tick_text(buf, size, v);
	}
}

static void
resolve_axis(RptAxis *axis, double *ticks, guint *n_ticks, const double data[2])
{
	double lo = isfinite(axis->lo) ? axis->lo : data[0];
	double hi = isfinite(axis->hi) ? axis->hi : data[1];
	double range[2];

	*n_ticks = rpt_chart_ticks(axis, lo, hi, ticks, range);
	axis->lo = range[0];
	axis->hi = range[1];
}

void
rpt_chart_frame_init(RptChartFrame *f,
                     double width,
                     double height,
                     const RptAxis *x,
                     const RptAxis *y,
                     const double data_x[2],
                     const double data_y[2])
{
	*f = (RptChartFrame){
		.width = width,
		.height = height,
		.left = LEFT_MARGIN,
		.right = width - RIGHT_MARGIN,
		.top = TOP_MARGIN,
		.bottom = height - BOTTOM_MARGIN,
		.x = *x,
		.y = *y,
	};
	resolve_axis(&f->x, f->x_ticks, &f->n_x_ticks, data_x);
	resolve_axis(&f->y, f->y_ticks, &f->n_y_ticks, data_y);
}

static double
axis_position(const RptAxis *axis, double v, double p0, double p1)
{
	double lo = axis->lo, hi = axis->hi;

	if (axis->kind == RPT_AXIS_LOG) {
		if (!(v > 0.0))
			return (double)NAN;
		v = log10(v);
		lo = log10(lo);
		hi = log10(hi);
	}
	if (!isfinite(v))
		return (double)NAN;
	v = CLAMP(v, lo, hi);
	return hi > lo ? p0 + (v - lo) / (hi - lo) * (p1 - p0) : (p0 + p1) / 2;
}

void
rpt_chart_frame_xy(const RptChartFrame *f, double x, double y, double *px, double *py)
{
	*px = axis_position(&f->x, x, f->left, f->right);
	*py = axis_position(&f->y, y, f->bottom, f->top);
}

void
rpt_chart_frame_draw(GString *out, const RptChartFrame *f)
{
	char label[64];

	g_string_append_printf(
	        out,
	        "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"axis\"/>"
	        "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" class=\"axis\"/>\n",
	        f->left, f->top, f->left, f->bottom, f->left, f->bottom, f->right, f->bottom);
	for (guint i = 0; i < f->n_y_ticks; i++) {
		double px, py;
		g_autofree char *text = NULL;

		rpt_chart_frame_xy(f, f->x.lo, f->y_ticks[i], &px, &py);
		rpt_chart_tick_label(label, sizeof label, &f->y, f->y_ticks[i]);
		text = g_markup_escape_text(label, -1);
		g_string_append_printf(
		        out,
		        "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" "
		        "class=\"grid\"/><text x=\"%.0f\" y=\"%.1f\" class=\"tick yt\" "
		        "text-anchor=\"end\">%s</text>",
		        f->left, py, f->right, py, f->left - 4, py + 3, text);
	}
	g_string_append_c(out, '\n');
	for (guint i = 0; i < f->n_x_ticks; i++) {
		double px, py;
		g_autofree char *text = NULL;

		rpt_chart_frame_xy(f, f->x_ticks[i], f->y.lo, &px, &py);
		rpt_chart_tick_label(label, sizeof label, &f->x, f->x_ticks[i]);
		text = g_markup_escape_text(label, -1);
		g_string_append_printf(
		        out,
		        "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" "
		        "class=\"axis\"/><text x=\"%.1f\" y=\"%.0f\" class=\"tick xt\" "
		        "text-anchor=\"middle\">%s</text>",
		        px, f->bottom, px, f->bottom + 4, px, f->bottom + 14, text);
	}
	if (f->x.unit != NULL) {
		g_autofree char *unit = g_markup_escape_text(f->x.unit, -1);

		g_string_append_printf(out,
		                       "<text x=\"%.0f\" y=\"%.0f\" class=\"tick\" "
		                       "text-anchor=\"end\">%s</text>",
		                       f->right, f->height - 4, unit);
	}
	if (f->y.unit != NULL) {
		g_autofree char *unit = g_markup_escape_text(f->y.unit, -1);

		g_string_append_printf(out, "<text x=\"4\" y=\"%.0f\" class=\"tick\">%s</text>",
		                       f->top - 6, unit);
	}
	g_string_append_c(out, '\n');
}

void
rpt_chart_legend(GString *out,
                 const RptChartFrame *f,
                 const char *const *names,
                 const guint *colours,
                 guint n)
{
	double x = f->left;

	for (guint i = 0; i < n; i++) {
		g_autofree char *name = g_markup_escape_text(names[i], -1);

		g_string_append_printf(out,
		                       "<rect x=\"%.1f\" y=\"23\" width=\"10\" height=\"10\" "
		                       "fill=\"%s\" class=\"swatch\"/><text x=\"%.1f\" y=\"32\" "
		                       "class=\"tick legend\">%s</text>",
		                       x, rpt_svg__colour(colours[i]), x + 13, name);
		/* ~6 px a character at 10 px */
		x += 6.0 * g_utf8_strlen(names[i], -1) + 26.0;
	}
	g_string_append_c(out, '\n');
}

static int
compare_doubles(gconstpointer a, gconstpointer b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
rpt_chart_cdf_points(const double *samples, gsize n, GArray *x, GArray *y)
{
	g_autofree double *sorted = n ? g_memdup2(samples, n * sizeof(double)) : NULL;

	if (n == 0)
		return;
	qsort(sorted, n, sizeof(double), compare_doubles);
	for (gsize i = 0, step = MAX(1, n / CDF_MAX_STEPS); i < n; i += step) {
		gsize last = MIN(i + step, n) - 1;
		double fraction = (double)(last + 1) / (double)n;

		/* equal samples rise once, at their value */
		while (last + 1 < n && !(sorted[last + 1] > sorted[last])) {
			fraction = (double)(++last + 1) / (double)n;
			i = last + 1 - step;
		}
		g_array_append_val(x, sorted[last]);
		g_array_append_val(y, fraction);
	}
}
