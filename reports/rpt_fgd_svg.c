/*
 * rpt_fgd_svg.c: the FGD page's charts as inline SVG text: a curve of a
 * metric against arrived GPU % (the paper's Fig. 9a for unallocated GPU),
 * one line per policy with its +-SD band, and the bars of unallocated GPU at
 * 100 % arrival with SD whiskers, grouped by world.
 *
 * Every metric here is a percentage of something, so it lies in [0, 100]:
 * a band or whisker is clipped there (mean +- SD of a value near 100 would
 * otherwise stretch the axis past what can happen). A null mean is a gap in
 * the line, never a zero. The paper's (research) policies are drawn solid,
 * kube-scheduler's dashed, so ten lines stay apart beyond their colours.
 * Lines and bands go through rpt_svg__band_line(), the sweep page's drawing.
 */
#include <math.h>
#include <string.h>

#include "rpt-fgd-private.h"
#include "rpt-private.h"

#define LEFT           RPT_FGD_CURVE_LEFT
#define PLOT_TOP       RPT_FGD_PLOT_TOP
#define PLOT_H         RPT_FGD_PLOT_H
#define BOTTOM         56.0  /* x labels and the axis title */
#define LEGEND_W       180.0 /* the legend column right of the plot */
#define ROW_H          14.0  /* a legend row */
#define CHAR_W         6.0   /* a 10 px character, roughly */
#define PCT_PLOT_W     RPT_FGD_CURVE_W
#define LAST_PCT       (RPT_FGD_POINTS - 1)
#define DASHED         "stroke-dasharray=\"6 3\""
#define SUBTITLE_CHARS 110 /* 10 px characters over the plot and the legend */

static const char *const curve_units[RPT_FGD_N_CURVES] = {
	"unallocated GPU (% of capacity)",
	"fragment (% of GPU capacity)",
	"fragment (% of idle GPU)",
};

/* The step of about five intervals up to @top: 1, 2, 2.5 or 5 times a power of ten. */
static double
nice_step(double top)
{
	static const double steps[] = { 1.0, 2.0, 2.5, 5.0, 10.0 };
	double raw = top / 5.0, magnitude = pow(10.0, floor(log10(raw)));

	for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
		if (steps[i] * magnitude >= raw * (1 - 1e-9)) {
			return steps[i] * magnitude;
		}
	}
	return 10.0 * magnitude;
}

static double
nice_top(double max)
{
	double step;

	if (!(max > 0.0)) {
		return 1.0;
	}
	step = nice_step(max);
	return ceil(max / step * (1 - 1e-9)) * step;
}

static double
clip_pct(double v)
{
	return CLAMP(v, 0.0, 100.0);
}

/* The stat's extent for the scale: its mean and its clipped upper edge (NaN if neither). */
static double
stat_top(const RptFgdStat *stat)
{
	double top = stat->mean;

	if (isfinite(stat->mean) && isfinite(stat->sd)) {
		top = MAX(top, clip_pct(stat->mean + stat->sd));
	}
	return top;
}

double
rpt_fgd_svg__y_top(const GPtrArray *worlds, RptFgdCurve curve, guint from)
{
	double max = 0.0;

	for (guint w = 0; w < worlds->len; w++) {
		const RptFgdWorld *world = g_ptr_array_index(worlds, w);

		for (guint p = 0; p < world->policies->len; p++) {
			const RptFgdPolicy *policy = g_ptr_array_index(world->policies, p);

			for (guint i = from; i < RPT_FGD_POINTS && policy->refused == NULL; i++) {
				double top = stat_top(&policy->curve[curve][i]);

				max = isfinite(top) ? MAX(max, top) : max;
			}
		}
	}
	return nice_top(max);
}

/* Where arrived @pct lands on a chart from @from %. */
static double
sx(guint pct, guint from)
{
	return LEFT + (double)(pct - from) * PCT_PLOT_W / (LAST_PCT - from);
}

static double
sy(double v, double top)
{
	return PLOT_TOP + PLOT_H - v / top * PLOT_H;
}

/* The y axis from @x0 to @x1: grid lines and labels at nice steps, the unit along it. */
static void
y_axis(GString *out, double x0, double x1, double top, const char *unit)
{
	double step = nice_step(top);

	for (guint i = 0; i * step <= top * (1 + 1e-9); i++) {
		char label[32];

		rpt_svg__tick_text(label, sizeof(label), i * step);
		g_string_append_printf(out,
		                       "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		                       "class=\"grid\"/><text x=\"%.1f\" y=\"%.1f\" class=\"tick\" "
		                       "text-anchor=\"end\">%s</text>",
		                       x0, sy(i * step, top), x1, sy(i * step, top), x0 - 4,
		                       sy(i * step, top) + 3, label);
	}
	g_string_append_printf(out,
	                       "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	                       "class=\"axis\"/><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
	                       "y2=\"%.1f\" class=\"axis\"/>"
	                       "<text transform=\"translate(12,%.1f) rotate(-90)\" class=\"tick\" "
	                       "text-anchor=\"middle\">%s</text>\n",
	                       x0, PLOT_TOP, x0, PLOT_TOP + PLOT_H, x0, PLOT_TOP + PLOT_H, x1,
	                       PLOT_TOP + PLOT_H, PLOT_TOP + PLOT_H / 2, unit);
}

/* @policies as a legend column at @x: a line sample (dashed for kube-scheduler's policies)
 * and the name; with @mark_refused, a refused one greyed with "(refused)" (the bars' legend
 * spans worlds, where a policy refused in one runs in another). */
static void
legend(GString *out,
       double x,
       const GPtrArray *policies,
       gboolean mark_refused,
       RptFgdColourOf colour_of,
       gpointer data)
{
	for (guint p = 0; p < policies->len; p++) {
		const RptFgdPolicy *policy = g_ptr_array_index(policies, p);
		gboolean refused = mark_refused && policy->refused != NULL;
		double y = PLOT_TOP + p * ROW_H;
		g_autofree char *name = g_markup_escape_text(policy->name, -1);
		/* asked even when refused: the policy keeps its place in the page's colours */
		const char *colour = colour_of(policy->name, data);

		g_string_append_printf(out,
		                       "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		                       "stroke=\"%s\" stroke-width=\"2\"%s%s/>"
		                       "<text x=\"%.1f\" y=\"%.1f\" class=\"tick%s\">%s%s</text>\n",
		                       x, y - 3, x + 18, y - 3, refused ? "#cccccc" : colour,
		                       policy->beyond_production ? "" : " ",
		                       policy->beyond_production ? "" : DASHED, x + 22, y,
		                       refused ? " refused" : "", name,
		                       refused ? " (refused)" : "");
	}
}

/* One policy's line and band, in a group titled with its name; returns the points drawn. */
static guint
policy_curve(GString *out, const RptFgdPolicy *policy, const RptFgdChart *chart, const char *colour)
{
	RptSvgPoint points[RPT_FGD_POINTS];
	guint n = RPT_FGD_POINTS - chart->from;
	g_autofree char *name = g_markup_escape_text(policy->name, -1);
	guint drawn;

	for (guint i = 0; i < n; i++) {
		const RptFgdStat *stat = &policy->curve[chart->curve][chart->from + i];
		gboolean band = isfinite(stat->mean) && isfinite(stat->sd);

		points[i] = (RptSvgPoint){
			.x = sx(chart->from + i, chart->from),
			.y = isfinite(stat->mean) ? sy(stat->mean, chart->y_top) : (double)NAN,
			.lo = band ? sy(clip_pct(stat->mean - stat->sd), chart->y_top)
			           : (double)NAN,
			.hi = band ? sy(clip_pct(stat->mean + stat->sd), chart->y_top)
			           : (double)NAN,
		};
	}
	g_string_append_printf(out, "<g class=\"policy\" data-policy=\"%s\"><title>%s</title>",
	                       name, name);
	drawn = rpt_svg__band_line(out, points, n, colour,
	                           policy->beyond_production ? NULL : DASHED);
	for (guint i = 0; i < n; i++) {
		gboolean alone = (i == 0 || !isfinite(points[i - 1].y)) &&
		                 (i + 1 == n || !isfinite(points[i + 1].y));

		if (isfinite(points[i].y) && alone) { /* a line of one point shows nothing */
			g_string_append_printf(out,
			                       "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" "
			                       "fill=\"%s\"/>",
			                       points[i].x, points[i].y, colour);
		}
	}
	g_string_append(out, "</g>\n");
	return drawn;
}

/* Ticks every 10 % (5 % up close), labels every other tick, the 100 % mark. */
static void
x_axis(GString *out, guint from)
{
	guint label = LAST_PCT - from > 60 ? 20 : 10;

	for (guint pct = from; pct <= LAST_PCT; pct += label / 2) {
		double x = sx(pct, from);

		g_string_append_printf(out,
		                       "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		                       "class=\"axis\"/>",
		                       x, PLOT_TOP + PLOT_H, x, PLOT_TOP + PLOT_H + 4);
		if (pct % label == 0) {
			g_string_append_printf(out,
			                       "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" "
			                       "text-anchor=\"middle\">%u</text>",
			                       x, PLOT_TOP + PLOT_H + 15, pct);
		}
	}
	/* the paper's reading point: the load that fills the cluster's GPUs */
	g_string_append_printf(out,
	                       "\n<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
	                       "class=\"mark100\"/><text x=\"%.1f\" y=\"%.1f\" class=\"tick "
	                       "onplot\">100 %% arrived</text>"
	                       "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" "
	                       "text-anchor=\"middle\">arrived GPU (%% of capacity)</text>\n",
	                       sx(100, from), PLOT_TOP, sx(100, from), PLOT_TOP + PLOT_H,
	                       sx(100, from) + 3, PLOT_TOP + 10, LEFT + PCT_PLOT_W / 2,
	                       PLOT_TOP + PLOT_H + 30);
}

/* @text under the title in at most two lines of SUBTITLE_CHARS, broken at a space; what
 * does not fit ends in "..." and the whole text is the tooltip. */
static void
subtitle(GString *out, const char *text)
{
	const char *rest = text;
	g_autofree char *whole = g_markup_escape_text(text, -1);

	for (guint line = 0; line < 2 && *rest != '\0'; line++) {
		glong left = g_utf8_strlen(rest, -1);
		const char *end = rest + strlen(rest);
		gboolean cut = left > SUBTITLE_CHARS;
		g_autofree char *part = NULL;
		g_autofree char *escaped = NULL;

		if (cut) {
			const char *limit = g_utf8_offset_to_pointer(rest, SUBTITLE_CHARS);

			end = limit;
			while (end > rest && *end != ' ') {
				end--;
			}
			end = end > rest ? end : limit; /* one long word: cut it */
		}
		part = g_strndup(rest, end - rest);
		escaped = g_markup_escape_text(part, -1);
		g_string_append_printf(out,
		                       "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\">%s%s"
		                       "<title>%s</title></text>\n",
		                       LEFT, 30.0 + 11.0 * line, escaped,
		                       cut && line == 1 ? "..." : "", whole);
		rest = *end == ' ' ? end + 1 : end;
	}
}

guint
rpt_fgd_svg__curves(GString *out,
                    const RptFgdChart *chart,
                    const RptFgdWorld *world,
                    RptFgdColourOf colour_of,
                    gpointer data)
{
	g_autoptr(GString) body = g_string_new(NULL);
	guint drawn = 0;

	y_axis(body, LEFT, LEFT + PCT_PLOT_W, chart->y_top, curve_units[chart->curve]);
	x_axis(body, chart->from);
	for (guint p = 0; p < world->policies->len; p++) {
		const RptFgdPolicy *policy = g_ptr_array_index(world->policies, p);

		if (policy->refused == NULL) {
			drawn += policy_curve(body, policy, chart, colour_of(policy->name, data));
		}
	}
	if (drawn == 0) {
		return 0;
	}
	legend(body, LEFT + PCT_PLOT_W + 12, world->policies, TRUE, colour_of, data);
	if (chart->subtitle != NULL) {
		subtitle(body, chart->subtitle);
	}
	rpt_svg__open_chart_sized(out, chart->id, chart->title, LEFT + PCT_PLOT_W + LEGEND_W,
	                          PLOT_TOP + PLOT_H + BOTTOM, drawn);
	g_string_append_len(out, body->str, body->len);
	g_string_append(out, "</svg>\n");
	return drawn;
}

/* ---- bars at 100 % arrival ------------------------------------------------------------- */

/* The text rotated to read upwards from (x, y): value labels over narrow bars. */
static void
text_up(GString *out, double x, double y, const char *class, const char *text)
{
	g_string_append_printf(out,
	                       "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" "
	                       "class=\"%s\">%s</text>",
	                       x, y, class, text);
}

/* One bar with its whisker and value, its centre at @cx; returns 1 when drawn. */
static guint
bar(GString *out, double cx, const RptFgdPolicy *policy, double top, const char *colour)
{
	const RptFgdStat *stat = &policy->at_100[RPT_FGD_AT_UNALLOCATED];
	g_autofree char *tip = NULL;
	char value[32];
	double y, whisker_top;

	if (policy->refused != NULL || !policy->has_at_100 || !isfinite(stat->mean)) {
		/* say why there is no bar rather than draw a zero */
		text_up(out, cx + 3.5, PLOT_TOP + PLOT_H - 4, "tick refused",
		        policy->refused ? "refused" : "no data");
		return 0;
	}
	y = sy(clip_pct(stat->mean), top);
	tip = g_markup_printf_escaped("%s: %.2f %% +- %.2f, n %u", policy->name, stat->mean,
	                              stat->sd, stat->n);
	g_string_append_printf(out,
	                       "<rect class=\"fgd-bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
	                       "height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>",
	                       cx - RPT_FGD_BAR_W / 2 + 1, y, RPT_FGD_BAR_W - 2,
	                       PLOT_TOP + PLOT_H - y, colour, tip);
	whisker_top = y;
	if (isfinite(stat->sd)) {
		double lo = sy(clip_pct(stat->mean - stat->sd), top);

		whisker_top = sy(clip_pct(stat->mean + stat->sd), top);
		g_autofree char *d = g_strdup_printf(
		        "M%.1f,%.1f L%.1f,%.1f M%.1f,%.1f L%.1f,%.1f M%.1f,%.1f L%.1f,%.1f", cx,
		        whisker_top, cx, lo, cx - 3, whisker_top, cx + 3, whisker_top, cx - 3, lo,
		        cx + 3, lo);

		/* a white halo under the dark whisker keeps it visible on a dark bar */
		g_string_append_printf(out,
		                       "<path class=\"halo\" d=\"%s\"/><path class=\"whisker\" "
		                       "d=\"%s\"/>",
		                       d, d);
	}
	g_snprintf(value, sizeof(value), "%.1f", stat->mean);
	text_up(out, cx + 3.5, whisker_top - 3, "value", value);
	g_string_append_c(out, '\n');
	return 1;
}

/* A group's inner width: its bars, or its label if that is wider. */
static double
group_width(const RptFgdWorld *world)
{
	return MAX(world->policies->len * RPT_FGD_BAR_W, CHAR_W * strlen(world->name));
}

static double
bars_top(const GPtrArray *worlds)
{
	double max = 0.0;

	for (guint w = 0; w < worlds->len; w++) {
		const RptFgdWorld *world = g_ptr_array_index(worlds, w);

		for (guint p = 0; p < world->policies->len; p++) {
			const RptFgdPolicy *policy = g_ptr_array_index(world->policies, p);
			double top = stat_top(&policy->at_100[RPT_FGD_AT_UNALLOCATED]);

			if (policy->refused == NULL && policy->has_at_100 && isfinite(top)) {
				max = MAX(max, top);
			}
		}
	}
	return nice_top(max);
}

/* The world's bars from @x (the group's left edge) and its name under them. */
static guint
bar_group(GString *out,
          double x,
          const RptFgdWorld *world,
          double top,
          RptFgdColourOf colour_of,
          gpointer data)
{
	double inner = group_width(world);
	double first = x + (inner - world->policies->len * RPT_FGD_BAR_W) / 2;
	g_autofree char *name = g_markup_escape_text(world->name, -1);
	guint drawn = 0;

	for (guint p = 0; p < world->policies->len; p++) {
		const RptFgdPolicy *policy = g_ptr_array_index(world->policies, p);

		drawn += bar(out, first + (p + 0.5) * RPT_FGD_BAR_W, policy, top,
		             colour_of(policy->name, data));
	}
	g_string_append_printf(out,
	                       "<text x=\"%.1f\" y=\"%.1f\" class=\"tick\" "
	                       "text-anchor=\"middle\">%s</text>",
	                       x + inner / 2, PLOT_TOP + PLOT_H + 14, name);
	if (world->beyond_production) {
		g_string_append_printf(out,
		                       "<text x=\"%.1f\" y=\"%.1f\" class=\"tick beyond\" "
		                       "text-anchor=\"middle\">beyond prod.</text>",
		                       x + inner / 2, PLOT_TOP + PLOT_H + 26);
	}
	g_string_append_c(out, '\n');
	return drawn;
}

/* The policies of every world, each name once (its first entry, refused or not: the legend
 * only shows its colour and line style, and refusal is said at the bar). */
static GPtrArray *
distinct_policies(const GPtrArray *worlds)
{
	GPtrArray *seen = g_ptr_array_new();

	for (guint w = 0; w < worlds->len; w++) {
		const RptFgdWorld *world = g_ptr_array_index(worlds, w);

		for (guint p = 0; p < world->policies->len; p++) {
			RptFgdPolicy *policy = g_ptr_array_index(world->policies, p);
			gboolean found = FALSE;

			for (guint i = 0; i < seen->len && !found; i++) {
				found = strcmp(((RptFgdPolicy *)g_ptr_array_index(seen, i))->name,
				               policy->name) == 0;
			}
			if (!found) {
				g_ptr_array_add(seen, policy);
			}
		}
	}
	return seen;
}

guint
rpt_fgd_svg__bars(GString *out,
                  const char *id,
                  const char *title,
                  const GPtrArray *worlds,
                  RptFgdColourOf colour_of,
                  gpointer data)
{
	g_autoptr(GString) body = g_string_new(NULL);
	g_autoptr(GPtrArray) policies = distinct_policies(worlds);
	double top = bars_top(worlds), right = LEFT, left = LEFT + RPT_FGD_BAR_GAP / 2;
	guint drawn = 0;

	for (guint w = 0; w < worlds->len; w++) {
		right += group_width(g_ptr_array_index(worlds, w)) + RPT_FGD_BAR_GAP;
	}
	y_axis(body, LEFT, right, top, curve_units[RPT_FGD_UNALLOCATED]);
	for (guint w = 0; w < worlds->len; w++) {
		const RptFgdWorld *world = g_ptr_array_index(worlds, w);

		drawn += bar_group(body, left, world, top, colour_of, data);
		left += group_width(world) + RPT_FGD_BAR_GAP;
	}
	if (drawn == 0) {
		return 0;
	}
	legend(body, right + 12, policies, FALSE, colour_of, data);
	/* wide enough for the title (13 px bold, ~8 px a character) with one world */
	rpt_svg__open_chart_sized(out, id, title, MAX(right + LEGEND_W, LEFT + 8.0 * strlen(title)),
	                          PLOT_TOP + PLOT_H + BOTTOM, drawn);
	g_string_append_len(out, body->str, body->len);
	g_string_append(out, "</svg>\n");
	return drawn;
}
