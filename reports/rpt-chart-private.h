/*
 * rpt-chart-private.h: the one chart module every HTML page draws with
 * (rpt_chart.c): readable axes (1-2-5 ticks, human time, percentages, log
 * scale, a category axis), the frame and legend of a chart, and an overlaid
 * line chart of several series with bands. The report page, the sweep page
 * and the plan page use it; the FGD page uses its tick labels and bands.
 */
#pragma once

#include <glib.h>

/* What an axis shows; it decides the ticks and their labels. */
typedef enum {
	RPT_AXIS_NUMBER,   /* 1-2-5 steps, labels 0.2, 40, 47.4k */
	RPT_AXIS_TIME,     /* seconds; steps of 1, 2, 5, 10, 15, 30 s, min, 1-3-6-12 h, days */
	RPT_AXIS_PERCENT,  /* a ratio (0.538) labelled as a percentage (53.8 %) */
	RPT_AXIS_LOG,      /* log10: decades, with 2 and 5 when few decades */
	RPT_AXIS_CATEGORY, /* values are indices into labels */
} RptAxisKind;

#define RPT_CHART_MAX_TICKS 12

typedef struct {
	RptAxisKind kind;
	const char *unit; /* the axis name drawn beside it ("pods", "s"), or NULL */
	/* the data range; NaN: taken from the data. A chart keeps a given bound. */
	double lo, hi;
	const char *const *labels; /* RPT_AXIS_CATEGORY: a label per index */
	guint n_labels;
	/* RPT_AXIS_NUMBER: the values are whole (node counts, replicas), so ticks are
	 * whole too: a step below 1 would label positions no value can take (3.5 nodes). */
	gboolean integral;
} RptAxis;

/* rpt_chart_ticks: the axis's ticks over [@lo, @hi] (a degenerate or empty range is
 * widened first: [0, 0] -> [0, 1], [v, v] -> around v), at most 8 of them
 * (RPT_AXIS_CATEGORY: every label, thinned to 12), the range widened to the end ticks
 * and written to @range_out. Returns the number of ticks written to @ticks. */
guint
rpt_chart_ticks(const RptAxis *axis, double lo, double hi, double *ticks, double range_out[2]);
/* The label of tick value @v on an axis of @kind (categories: the label). */
void rpt_chart_tick_label(char *buf, gsize size, const RptAxis *axis, double v);
/* The value axis a metric of @unit is drawn on: "s" in human time, "ratio" as percentages,
 * anything else as numbers (the sweep and plan pages, like the run report's charts). */
RptAxisKind rpt_chart_axis_for_unit(const char *unit);
/* A duration in seconds for people: 0, 250ms, 1.5s, 45s, 2min30s, 6h, 1d6h (two largest units). */
void rpt_chart_duration(char *buf, gsize size, double seconds);
/* A value in @unit as the text report prints it: "ratio" as 53.8%, counts as integers,
 * others with three decimals, NaN as "-". */
void rpt_chart_value(char *buf, gsize size, double value, const char *unit);

/* A chart's plot area and resolved axes. */
typedef struct {
	double width, height;
	double left, right, top, bottom; /* the plot area in pixels */
	RptAxis x, y;                    /* lo and hi resolved to the tick range */
	double x_ticks[RPT_CHART_MAX_TICKS], y_ticks[RPT_CHART_MAX_TICKS];
	guint n_x_ticks, n_y_ticks;
} RptChartFrame;

/* Resolves @x and @y (NaN bounds from @data_x / @data_y, each [lo, hi]) for a chart of
 * @width x @height with a legend row under the title. */
void rpt_chart_frame_init(RptChartFrame *f,
                          double width,
                          double height,
                          const RptAxis *x,
                          const RptAxis *y,
                          const double data_x[2],
                          const double data_y[2]);
/* Where (x, y) in data units lands, in pixels (log axes take log10; values outside clamp). */
void rpt_chart_frame_xy(const RptChartFrame *f, double x, double y, double *px, double *py);
/* The axes, grid lines, tick labels (class "tick xt" / "tick yt") and unit names. */
void rpt_chart_frame_draw(GString *out, const RptChartFrame *f);
/* The legend row: a swatch of rpt_svg__colour(@colours[i]) and @names[i] for each, from
 * the left under the title; a name may say "(no data)". */
void rpt_chart_legend(GString *out,
                      const RptChartFrame *f,
                      const char *const *names,
                      const guint *colours,
                      guint n);

/* One series of an overlaid chart: points (x[i], y[i]) with an optional band
 * [lo[i], hi[i]] (NULL: none); @steps draws it as a staircase (a CDF). */
typedef struct {
	const char *name;
	guint colour; /* index into the palette: a mode keeps its colour on every chart */
	const double *x, *y, *lo, *hi;
	guint n;
	gboolean steps;
} RptChartSeries;

typedef struct {
	const char *id, *title;
	RptAxis x, y;
	const RptChartSeries *series;
	guint n_series;
	/* shown instead of axes when no series has a point: say why ("no pods waited") */
	const char *empty_text;
} RptChart;

/* Opens <svg class="chart"> of @width x @height with @title and data-points = @points
 * (@extra_attrs added when not NULL); with @points == 0 it writes @empty_text (NULL:
 * "no data in this run") in the middle. The caller closes it with </svg>. */
void rpt_chart_open(GString *out,
                    const char *id,
                    const char *title,
                    double width,
                    double height,
                    guint points,
                    const char *empty_text,
                    const char *extra_attrs);
/* The chart as one <svg class="chart">: data-points = points drawn, data-series = the
 * series count; with no point at all, data-nodata="1" and @empty_text instead of a
 * 0-0 axis. Returns the number of points drawn. */
guint rpt_chart_draw(GString *out, const RptChart *chart);

/* The points of the empirical CDF of @samples (sorted copy; at most ~500 steps):
 * x the sample, y the fraction <= it. */
void rpt_chart_cdf_points(const double *samples, gsize n, GArray *x, GArray *y);
