/*
 * rpt_svg.c: the report's per-mode pictures (the GPU heat map and who holds
 * which slice), the palette, bands and number labels the chart module
 * (rpt_chart.c) draws with.
 *
 * Every chart carries data-points so the page's own check (and the Chromium
 * test) can tell an empty chart from a drawn one. Coordinates are printed
 * with one decimal so the file is deterministic.
 */
#include <math.h>
#include <string.h>

#include "rpt-chart-private.h"
#include "rpt-private.h"

#define W        560.0
#define H        220.0
#define LEFT     56.0
#define RIGHT    12.0
#define TOP      24.0
#define BOTTOM   32.0
#define MAX_COLS 120
#define MAX_ROWS 64

void
rpt_svg__open_chart_sized(
        GString *out, const char *id, const char *title, double width, double height, guint points)
{
	rpt_chart_open(out, id, title, width, height, points, NULL, NULL);
}

void
rpt_svg__open_chart(GString *out, const char *id, const char *title, double height, guint points)
{
	rpt_svg__open_chart_sized(out, id, title, W, height, points);
}

const char *
rpt_svg__colour(guint index)
{
	/* the first five are the sweep page's since it has had them; the sixth, near
	 * black, replaced an orange too close to the fourth; the last four (matplotlib's
	 * tab10 cyan, pink, grey, olive) keep ten lines apart */
	static const char *const palette[] = { "#1f6feb", "#d1242f", "#1a7f37", "#9a6700",
		                               "#8250df", "#24292f", "#17becf", "#e377c2",
		                               "#7f7f7f", "#bcbd22" };

	return palette[index % G_N_ELEMENTS(palette)];
}

/* The band over the run [from, to) of points that all have lo and hi: along the
 * upper edge, back along the lower one; a run of one point gets an error bar. */
static void
band(GString *out, const RptSvgPoint *p, guint from, guint to, const char *colour)
{
	if (to - from == 1) {
		g_string_append_printf(out,
		                       "<line class=\"bar\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
		                       "y2=\"%.1f\" stroke=\"%s\"/>",
		                       p[from].x, p[from].lo, p[from].x, p[from].hi, colour);
		return;
	}
	g_string_append_printf(out, "<path class=\"band\" fill=\"%s\" d=\"", colour);
	for (guint i = from; i < to; i++) {
		g_string_append_printf(out, "%s%.1f,%.1f", i == from ? "M" : " L", p[i].x, p[i].hi);
	}
	for (guint i = to; i-- > from;) {
		g_string_append_printf(out, " L%.1f,%.1f", p[i].x, p[i].lo);
	}
	g_string_append(out, " Z\"/>\n");
}

guint
rpt_svg__band_line(
        GString *out, const RptSvgPoint *p, guint n, const char *colour, const char *line_attrs)
{
	guint drawn = 0;

	for (guint i = 0, from = 0; i <= n; i++) {
		if (i == n || !isfinite(p[i].lo) || !isfinite(p[i].hi)) {
			if (i > from) {
				band(out, p, from, i, colour);
			}
			from = i + 1;
		}
	}
	for (guint i = 0; i < n; i++) {
		gboolean starts = i == 0 || !isfinite(p[i - 1].y);
		gboolean ends = i + 1 == n || !isfinite(p[i + 1].y);

		if (!isfinite(p[i].y)) {
			continue;
		}
		if (starts) {
			g_string_append_printf(
			        out, "<polyline class=\"mean\" stroke=\"%s\"%s%s points=\"", colour,
			        line_attrs ? " " : "", line_attrs ? line_attrs : "");
		}
		g_string_append_printf(out, "%s%.1f,%.1f%s", starts ? "" : " ", p[i].x, p[i].y,
		                       ends ? "\"/>\n" : "");
		drawn++;
	}
	return drawn;
}

/* An axis label that fits the margin: %.4g below 10,000 (what it always was), then 47.4k, 1.2M,
 * 3.5G instead of %.4g's 4.738e+04. */
void
rpt_svg__tick_text(char *buf, gsize size, double v)
{
	static const struct {
		double scale;
		const char *suffix;
	} si[] = { { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };

	for (gsize i = 0; fabs(v) >= 1e4 && fabs(v) < 1e12 && i < G_N_ELEMENTS(si); i++) {
		if (fabs(v) >= si[i].scale) {
			g_snprintf(buf, size, "%.3g%s", v / si[i].scale, si[i].suffix);
			return;
		}
	}
	g_snprintf(buf, size, "%.4g", v);
}

void
rpt_svg__heatmap(GString *out, const char *id, const char *title, const RptMode *mode)
{
	guint rows = MIN(mode->nodes->len, MAX_ROWS);
	guint samples = rpt_mode__n_samples(mode);
	guint cols = MIN(samples, MAX_COLS);
	double cell_h = rows ? MIN(12.0, 160.0 / rows) : 12.0;
	double height = TOP + rows * cell_h + BOTTOM;
	double cell_w = cols ? (W - LEFT - RIGHT) / cols : 1.0;
	guint points = 0;

	for (guint r = 0; r < rows; r++) {
		points += ((RptSeries *)g_ptr_array_index(mode->nodes, r))->values->len;
	}
	rpt_svg__open_chart(out, id, title, height, points);
	for (guint r = 0; r < rows; r++) {
		const RptSeries *row = g_ptr_array_index(mode->nodes, r);
		g_autofree char *node = g_markup_escape_text(row->name, -1);

		if (rows <= 16) {
			g_string_append_printf(out,
			                       "<text x=\"%.0f\" y=\"%.1f\" class=\"tick\" "
			                       "text-anchor=\"end\">%s</text>",
			                       LEFT - 4, TOP + (r + 0.8) * cell_h, node);
		}
		for (guint c = 0; c < cols; c++) {
			/* columns average the samples they cover */
			guint from = c * samples / cols,
			      to = MAX(from + 1, (c + 1) * samples / cols);
			double sum = 0.0;
			guint n = 0;

			for (guint s = from; s < to && s < row->values->len; s++, n++) {
				sum += g_array_index(row->values, double, s);
			}
			double ratio = n && row->gpus ? sum / n / row->gpus : 0.0;

			g_string_append_printf(
			        out,
			        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			        "height=\"%.1f\" fill=\"#1f6feb\" "
			        "fill-opacity=\"%.2f\"><title>%s: %.0f%%</title></rect>",
			        LEFT + c * cell_w, TOP + r * cell_h, cell_w + 0.05, cell_h - 0.5,
			        CLAMP(ratio, 0.0, 1.0) * 0.95 + 0.05, node, ratio * 100.0);
		}
		g_string_append_c(out, '\n');
	}
	if (mode->nodes->len > rows) {
		g_string_append_printf(out,
		                       "<text x=\"%.0f\" y=\"%.0f\" class=\"tick\">first %u of %u "
		                       "nodes</text>",
		                       LEFT, height - 8, rows, mode->nodes->len);
	}
	g_string_append(out, "</svg>\n");
}

static void
slice_colour(char *buf, gsize size, const char *pod)
{
	/* a fixed hue per pod name (djb2), so a pod has one colour in every picture */
	guint hash = 5381;

	for (const char *p = pod; *p; p++) {
		hash = hash * 33 + (guchar)*p;
	}
	hash *= 2654435761u; /* Knuth's multiplicative mix spreads similar names apart */
	g_snprintf(buf, size, "hsl(%u,60%%,70%%)", (hash >> 16) % 360);
}

static guint
place_lanes(const RptGpu *gpu, guint *lanes)
{
	guint n_lanes = 1;

	for (guint i = 0; i < gpu->slices->len; i++) {
		const RptSlice *slice = g_ptr_array_index(gpu->slices, i);

		lanes[i] = 0;
		for (guint j = 0; j < i; j++) {
			const RptSlice *other = g_ptr_array_index(gpu->slices, j);
			gboolean overlap = slice->start < other->start + other->size &&
			                   other->start < slice->start + slice->size;

			if (overlap && lanes[j] >= lanes[i]) {
				lanes[i] = lanes[j] + 1;
			}
		}
		n_lanes = MAX(n_lanes, lanes[i] + 1);
	}
	return n_lanes;
}

static double
draw_gpu(GString *out, const RptGpu *gpu, double y)
{
	g_autofree guint *lanes = g_new0(guint, gpu->slices->len + 1);
	guint n_lanes = place_lanes(gpu, lanes);
	double unit_w = (W - LEFT - RIGHT) / gpu->units;
	g_autofree char *label =
	        g_markup_printf_escaped("%s/%s %s (%s) at %.0f s", gpu->node, gpu->device,
	                                gpu->model, gpu->sharing, (double)gpu->at_us / 1e6);

	g_string_append_printf(out, "<text x=\"%.0f\" y=\"%.1f\" class=\"tick\">%s</text>\n", LEFT,
	                       y + 10, label);
	y += 14;
	g_string_append_printf(out,
	                       "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
	                       "class=\"gpu\"/>",
	                       LEFT, y, W - LEFT - RIGHT, n_lanes * 22.0);
	for (guint i = 0; i < gpu->slices->len; i++) {
		const RptSlice *slice = g_ptr_array_index(gpu->slices, i);
		char colour[32] = "#eeeeee";
		g_autofree char *text = g_markup_printf_escaped("%s %s", slice->profile,
		                                                slice->pod ? slice->pod : "(free)");
		double x = LEFT + slice->start * unit_w;

		if (slice->pod != NULL) {
			slice_colour(colour, sizeof(colour), slice->pod);
		}
		/* the label sits in a nested <svg>, whose viewport clips it to the slice */
		g_string_append_printf(out,
		                       "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" "
		                       "fill=\"%s\" class=\"slice\"><title>%s</title></rect>"
		                       "<svg x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\">"
		                       "<text x=\"3\" y=\"14\" class=\"label\">%s</text></svg>\n",
		                       x + 1, y + lanes[i] * 22.0 + 1, slice->size * unit_w - 2,
		                       colour, text, x + 1, y + lanes[i] * 22.0 + 1,
		                       MAX(slice->size * unit_w - 4, 1.0), text);
	}
	return y + n_lanes * 22.0 + 8;
}

void
rpt_svg__gpus(GString *out, const char *id, const char *title, const RptMode *mode)
{
	double height = TOP + 8;
	GString *body = g_string_new(NULL);
	guint points = 0;

	for (guint i = 0; i < mode->gpus->len; i++) {
		const RptGpu *gpu = g_ptr_array_index(mode->gpus, i);

		height = draw_gpu(body, gpu, height);
		points += gpu->slices->len;
	}
	rpt_svg__open_chart(out, id, title, height, points);
	g_string_append_len(out, body->str, body->len);
	g_string_append(out, "</svg>\n");
	g_string_free(body, TRUE);
}
