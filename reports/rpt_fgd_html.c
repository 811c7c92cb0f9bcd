/*
 * rpt_fgd_html.c: the FGD experiment's page (fgd.html), drawn from the
 * experiment's fgd.json text alone, in rpt_html.c's frame and style.
 *
 * Per trace: the paper's Fig. 9a (unallocated GPU against arrived GPU, a
 * chart per world on one y scale so worlds compare at a glance), the bars at
 * 100 % arrival grouped by world, the fragment charts where the world has an
 * FGD fragment, and a table per world and policy with what each world's
 * sharing buys (co-tenants, memory isolation) and costs (stranded GPU).
 * What production does not do (the paper's policies, a device choice other
 * than the allocator's first fit) carries a "beyond production" badge.
 * A policy keeps one colour on the whole page.
 */
#include <math.h>
#include <string.h>

#include "rpt-fgd-private.h"
#include "rpt-private.h"

static const char fgd_style[] =
        ".band{stroke:none;fill-opacity:0.15}.mean{fill:none;stroke-width:1.6}"
        ".bar{stroke-width:1.5;stroke-opacity:0.5}.grid{stroke:#eee}"
        ".mark100{stroke:#888;stroke-dasharray:3 3}.whisker{stroke:#222;fill:none}"
        ".halo{stroke:#fff;stroke-width:3;fill:none}"
        ".onplot{paint-order:stroke;stroke:#fff;stroke-width:3px}"
        ".value{font-size:9px;fill:#222}.refused{fill:#999}.beyond{fill:#9a3c00}"
        ".badge{display:inline-block;white-space:nowrap;font-size:11px;padding:0 "
        "5px;margin-left:4px;"
        "border-radius:8px;background:#fff1e5;color:#9a3c00;border:1px solid #f0b17a}"
        ".note{color:#555;max-width:75em}code{background:#f6f8fa;padding:1px 4px}"
        "td.refused{color:#777;font-style:italic}td.best{font-weight:bold}ul.toc{columns:4;font-"
        "size:13px}"
        ".charts>p.note{flex-basis:100%;margin:2px 0}td.policy{white-space:nowrap}"
        "td[rowspan]{vertical-align:top}";

static const char beyond_badge[] = "<span class=\"badge\">beyond production</span>";

static const char *const curve_titles[RPT_FGD_N_CURVES] = {
	"unallocated GPU",
	"fragment amount",
	"fragment ratio",
};
static const char *const curve_ids[RPT_FGD_N_CURVES] = { "unallocated", "frag-amount",
	                                                 "frag-ratio" };

/* The page's policies in first-seen order: a policy's colour is its place here. */
static guint
colour_index(const char *policy, gpointer data)
{
	GPtrArray *names = data;
	guint index = 0;

	if (!g_ptr_array_find_with_equal_func(names, policy, g_str_equal, &index)) {
		g_ptr_array_add(names, (gpointer)policy);
		index = names->len - 1;
	}
	return index;
}

static const char *
colour_of(const char *policy, gpointer data)
{
	return rpt_svg__colour(colour_index(policy, data));
}

/* Adds @name to @seen unless there; the page's traces, worlds and policies for the command. */
static void
add_distinct(GPtrArray *seen, const char *name)
{
	if (!g_ptr_array_find_with_equal_func(seen, name, g_str_equal, NULL)) {
		g_ptr_array_add(seen, (gpointer)name);
	}
}

/* @word as one shell word: as is when plain, else single-quoted. */
static void
shell_word(GString *out, const char *word)
{
	gboolean plain = *word != '\0';

	for (const char *p = word; *p; p++) {
		plain = plain && (g_ascii_isalnum(*p) || strchr("._/-+,=", *p) != NULL);
	}
	if (plain) {
		g_string_append(out, word);
	} else {
		g_autofree char *quoted = g_shell_quote(word);

		g_string_append(out, quoted);
	}
}

/*
 * `drasim experiment fgd`'s defaults (docs/experiment.md), so that the command names only
 * what differs: the CLI refuses a refused pair named on both sides (--worlds and --policy),
 * which a page with refused pairs got from a default. reports/ sees no sim/ header, so the
 * lists are here; sim/research's tables are the source (research_world_names(),
 * research_policy_names()).
 */
static const char *const all_worlds[] = { "gpushare",          "whole",
	                                  "time-slicing",      "dra-capacity",
	                                  "dra-capacity-pick", "dra-mig",
	                                  "dra-capacity-1.34", NULL };
static const char *const all_policies[] = { "Random",
	                                    "DotProd",
	                                    "GpuClustering",
	                                    "GpuPacking",
	                                    "BestFit",
	                                    "FGD",
	                                    "LeastAllocated",
	                                    "MostAllocated",
	                                    "RequestedToCapacityRatio",
	                                    "BalancedAllocation",
	                                    NULL };
#define PAPER_POLICIES 6 /* the first six of all_policies */

/* TRUE when @names are the first @n of @list, in order. */
static gboolean
is_prefix(const GPtrArray *names, const char *const *list, guint n)
{
	if (names->len != n) {
		return FALSE;
	}
	for (guint i = 0; i < n; i++) {
		if (list[i] == NULL || strcmp(g_ptr_array_index(names, i), list[i]) != 0) {
			return FALSE;
		}
	}
	return TRUE;
}

/* The options that name the page's worlds and policies, each left out when the default. */
static void
worlds_and_policies(GString *cmd, const GPtrArray *worlds, const GPtrArray *policies)
{
	gboolean paper_world = is_prefix(worlds, all_worlds, 1);

	if (is_prefix(worlds, all_worlds, G_N_ELEMENTS(all_worlds) - 1)) {
		g_string_append(cmd, " --worlds all");
	} else if (!paper_world && worlds->len > 0) {
		g_string_append(cmd, " --worlds ");
		for (guint w = 0; w < worlds->len; w++) {
			shell_word(cmd, g_ptr_array_index(worlds, w));
			g_string_append(cmd, w + 1 < worlds->len ? "," : "");
		}
	}
	if (is_prefix(policies, all_policies,
	              paper_world ? PAPER_POLICIES : G_N_ELEMENTS(all_policies) - 1)) {
		return;
	}
	for (guint p = 0; p < policies->len; p++) {
		g_string_append(cmd, " --policy ");
		shell_word(cmd, g_ptr_array_index(policies, p));
	}
}

/* The command that writes this page again: every trace, world and policy on it. */
static char *
regenerate_command(const RptFgd *self)
{
	g_autoptr(GPtrArray) policies = g_ptr_array_new();
	g_autoptr(GPtrArray) worlds = g_ptr_array_new();
	GString *cmd = g_string_new("drasim experiment fgd");

	for (guint t = 0; t < self->traces->len; t++) {
		const RptFgdTrace *trace = g_ptr_array_index(self->traces, t);

		g_string_append(cmd, " --trace ");
		shell_word(cmd, trace->name);
		for (guint w = 0; w < trace->worlds->len; w++) {
			const RptFgdWorld *world = g_ptr_array_index(trace->worlds, w);

			add_distinct(worlds, world->name);
			for (guint p = 0; p < world->policies->len; p++) {
				add_distinct(policies,
				             ((RptFgdPolicy *)g_ptr_array_index(world->policies, p))
				                     ->name);
			}
		}
	}
	worlds_and_policies(cmd, worlds, policies);
	if (self->replicas > 0)
		g_string_append_printf(cmd, " --replicas %" G_GINT64_FORMAT, self->replicas);
	if (self->capacity_step > 0)
		g_string_append_printf(cmd, " --capacity-step %" G_GINT64_FORMAT,
		                       self->capacity_step);
	if (self->mig_model != NULL) {
		g_string_append(cmd, " --mig-model ");
		shell_word(cmd, self->mig_model);
	}
	g_string_append_printf(cmd,
	                       " --seeds %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
	                       " --jobs 2 --format json,csv,html -o DIR",
	                       self->seed_from, self->seed_to);
	return g_string_free(cmd, FALSE);
}

static void
header(GString *out, const RptFgd *self)
{
	g_autofree char *command = regenerate_command(self);

	g_string_append(out, "</h1>\n<p>");
	rpt_html__escaped(out, self->api_version);
	g_string_append_printf(out,
	                       " · seeds %" G_GINT64_FORMAT "-%" G_GINT64_FORMAT
	                       " (%" G_GINT64_FORMAT ") · tune ratio %g ",
	                       self->seed_from, self->seed_to, self->seed_to - self->seed_from + 1,
	                       self->tune_ratio);
	if (self->tune_ratio > 0) {
		g_string_append_printf(out, "(pods sampled up to %g %% of GPU capacity)",
		                       self->tune_ratio * 100.0);
	} else { /* the protocol's "no tuning" */
		g_string_append(out, "(the trace's pods as they are, not tuned)");
	}
	g_string_append_printf(out, " · %u trace%s</p>\n<p>Regenerate: <code>", self->traces->len,
	                       self->traces->len == 1 ? "" : "s");
	rpt_html__escaped(out, command);
	g_string_append_printf(
	        out,
	        "</code> (a trace given as a file is named by its file name; add --nodes or "
	        "--csv-dir if the run set them: fgd.json does not record them).</p>\n"
	        "<p class=\"note\">The FGD protocol: pods shuffled by seed, offered one at a "
	        "time, none departs, a pod no node can take is dropped. Each line is a policy's "
	        "mean over the seeds at each integer arrived %%, the shaded band +-1 SD, clipped "
	        "at 0 and 100 %% (every figure here is a percentage); a gap is a point no seed "
	        "reached. Solid lines are the paper's policies, dashed ones kube-scheduler's. "
	        "%s marks what production Kubernetes does not do: the paper's score policies "
	        "(research scores, not in kube-scheduler), and a world whose device choice "
	        "inside the node is not the DRA allocator's first fit or the device "
	        "plugin's.</p>\n",
	        beyond_badge);
}

/* TRUE when some policy of @world that ran has a defined @curve point. */
static gboolean
world_has_curve(const RptFgdWorld *world, RptFgdCurve curve)
{
	for (guint p = 0; p < world->policies->len; p++) {
		const RptFgdPolicy *policy = g_ptr_array_index(world->policies, p);

		for (guint i = 0; i < RPT_FGD_POINTS && policy->refused == NULL; i++) {
			if (isfinite(policy->curve[curve][i].mean)) {
				return TRUE;
			}
		}
	}
	return FALSE;
}

/* One world's chart of @curve from @from % on the scale [0, @y_top], or a line saying why
 * there is none. */
static guint
world_chart(GString *out,
            guint t,
            guint w,
            const RptFgdWorld *world,
            RptFgdCurve curve,
            guint from,
            double y_top,
            GPtrArray *colours)
{
	g_autofree char *id =
	        g_strdup_printf("t%u-w%u-%s%s", t, w, curve_ids[curve], from > 0 ? "-close" : "");
	g_autofree char *title =
	        g_strdup_printf("%s: %s%s%s", world->name, curve_titles[curve],
	                        from > 0 ? ", from 80 % arrived" : "",
	                        world->beyond_production ? " (beyond production)" : "");
	RptFgdChart chart = { id, title, world->title, curve, from, y_top };
	guint drawn = rpt_fgd_svg__curves(out, &chart, world, colour_of, colours);

	if (drawn == 0 && from == 0) {
		g_string_append(out, "<p class=\"note\">");
		rpt_html__escaped(out, world->name);
		g_string_append(out,
		                curve == RPT_FGD_UNALLOCATED
		                        ? ": no policy ran in this world (see the table).</p>\n"
		                        : ": no FGD fragment in this world.</p>\n");
	}
	return drawn ? 1 : 0;
}

/* The unallocated charts of every world from @from %, on one scale. */
static guint
unallocated_charts(GString *out, guint t, const RptFgdTrace *trace, guint from, GPtrArray *colours)
{
	double top = rpt_fgd_svg__y_top(trace->worlds, RPT_FGD_UNALLOCATED, from);
	guint charts = 0;

	for (guint w = 0; w < trace->worlds->len; w++) {
		charts += world_chart(out, t, w, g_ptr_array_index(trace->worlds, w),
		                      RPT_FGD_UNALLOCATED, from, top, colours);
	}
	return charts;
}

/* Unallocated GPU: against arrived % (whole axis, then up close from 80 %) and at 100 %.
 * Several worlds: a row of charts each; one world: the three charts in one row. */
static guint
unallocated_section(GString *out, guint t, const RptFgdTrace *trace, GPtrArray *colours)
{
	static const char *const headings[] = {
		"<h3>Unallocated GPU against arrived GPU (the paper's Fig. 9a), a chart per world "
		"on one scale</h3>\n<div class=\"charts\">\n",
		"</div>\n<h3>The same from 80 % arrived: the knee and the policies' order up "
		"close</h3>\n<div class=\"charts\">\n",
		"</div>\n<h3>Unallocated GPU at 100 % arrival (SD whiskers)</h3>\n<div "
		"class=\"charts\">\n",
	};
	gboolean one_row = trace->worlds->len == 1;
	g_autofree char *bars_id = g_strdup_printf("t%u-bars", t);
	guint charts = 0;

	g_string_append(out, one_row ? "<h3>Unallocated GPU against arrived GPU (the paper's "
	                               "Fig. 9a), up close from 80 % arrived, and at 100 % (SD "
	                               "whiskers)</h3>\n<div class=\"charts\">\n"
	                             : headings[0]);
	charts += unallocated_charts(out, t, trace, 0, colours);
	g_string_append(out, one_row ? "" : headings[1]);
	charts += unallocated_charts(out, t, trace, 80, colours);
	g_string_append(out, one_row ? "" : headings[2]);
	if (rpt_fgd_svg__bars(out, bars_id, "unallocated GPU % at 100 % arrival, by world",
	                      trace->worlds, colour_of, colours) > 0) {
		charts++;
	}
	g_string_append(out, "</div>\n");
	return charts;
}

/* "mean ± SD (n N)", or "mean" without an SD, or "-" without a mean; @best in bold. */
static void
stat_cell(GString *out, const RptFgdStat *stat, gboolean with_n, gboolean best)
{
	const char *open = best ? "<td class=\"num best\">" : "<td class=\"num\">";

	if (!isfinite(stat->mean)) {
		g_string_append_printf(out, "%s-</td>", open);
	} else if (!isfinite(stat->sd)) {
		g_string_append_printf(out, "%s%.2f", open, stat->mean);
	} else {
		g_string_append_printf(out, "%s%.2f ± %.2f", open, stat->mean, stat->sd);
	}
	if (isfinite(stat->mean)) {
		g_string_append_printf(out, with_n ? " (n %u)</td>" : "</td>", stat->n);
	}
}

/* The policy of @world with the least unallocated GPU at 100 % (the first of equals), or
 * G_MAXUINT when none has the figure. */
static guint
best_policy(const RptFgdWorld *world)
{
	guint best = G_MAXUINT;
	double least = (double)INFINITY;

	for (guint p = 0; p < world->policies->len; p++) {
		const RptFgdPolicy *policy = g_ptr_array_index(world->policies, p);
		double mean = policy->at_100[RPT_FGD_AT_UNALLOCATED].mean;

		if (policy->refused == NULL && policy->has_at_100 && mean < least) {
			least = mean;
			best = p;
		}
	}
	return best;
}

static void
policy_row(GString *out, const RptFgdWorld *world, guint p, guint best)
{
	static const RptFgdStat none = { (double)NAN, (double)NAN, 0 };
	const RptFgdPolicy *policy = g_ptr_array_index(world->policies, p);

	g_string_append(out, "<tr>");
	if (p == 0) { /* the world's cells span its policies' rows */
		g_string_append_printf(out, "<td rowspan=\"%u\">", world->policies->len);
		rpt_html__escaped(out, world->name);
		g_string_append(out, world->beyond_production ? beyond_badge : "");
		g_string_append_printf(out, "</td><td rowspan=\"%u\">", world->policies->len);
		rpt_html__escaped(out, world->device_pick);
		g_string_append_printf(out, "</td><td rowspan=\"%u\">%s</td>", world->policies->len,
		                       world->memory_isolation ? "yes" : "no");
	}
	g_string_append(out, "<td class=\"policy\">");
	rpt_html__escaped(out, policy->name);
	g_string_append(out, policy->beyond_production ? beyond_badge : "");
	g_string_append(out, "</td>");
	if (policy->refused != NULL) {
		const RptFgdPolicy *previous = p ? g_ptr_array_index(world->policies, p - 1) : NULL;

		g_string_append(out, "<td colspan=\"3\" class=\"refused\">refused: ");
		/* a world refuses the paper's six for one reason: said once */
		if (previous != NULL && g_strcmp0(previous->refused, policy->refused) == 0) {
			g_string_append(out, "the same reason");
		} else {
			rpt_html__escaped(out, policy->refused);
		}
		g_string_append(out, "</td></tr>\n");
		return;
	}
	for (guint k = 0; k < RPT_FGD_N_AT; k++) {
		/* mean / max co-tenants share a column */
		if (k == RPT_FGD_AT_COTENANTS_MAX) {
			continue;
		}
		stat_cell(out, policy->has_at_100 ? &policy->at_100[k] : &none,
		          k == RPT_FGD_AT_UNALLOCATED, k == RPT_FGD_AT_UNALLOCATED && p == best);
	}
	g_string_truncate(out, out->len - strlen("</td>"));
	g_string_append(out, " / ");
	if (policy->has_at_100 && isfinite(policy->at_100[RPT_FGD_AT_COTENANTS_MAX].mean)) {
		g_string_append_printf(out, "%.2f", policy->at_100[RPT_FGD_AT_COTENANTS_MAX].mean);
	} else {
		g_string_append(out, "-");
	}
	g_string_append(out, "</td></tr>\n");
}

static void
trace_table(GString *out, guint t, const RptFgdTrace *trace)
{
	g_string_append_printf(out,
	                       "<table id=\"t%u-table\"><tr><th>world</th><th>device pick</th>"
	                       "<th>memory isolation</th><th>policy</th>"
	                       "<th>unallocated GPU %% at 100 %% (mean ± SD, n)</th>"
	                       "<th>stranded GPU %%</th><th>co-tenants per GPU (mean / max)</th>"
	                       "</tr>\n",
	                       t);
	for (guint w = 0; w < trace->worlds->len; w++) {
		const RptFgdWorld *world = g_ptr_array_index(trace->worlds, w);

		guint best = best_policy(world);

		for (guint p = 0; p < world->policies->len; p++) {
			policy_row(out, world, p, best);
		}
	}
	g_string_append(out, "</table>\n<p class=\"note\">Stranded GPU: GPU held by pods beyond "
	                     "their share (a whole GPU for a 0.3 pod, a MIG slice larger than the "
	                     "share), as % of capacity. Co-tenants: pods per GPU over the GPUs "
	                     "that hold one. Both when arrival first reaches 100 %. In bold: "
	                     "the world's least unallocated GPU.</p>\n");
}

/* The trace's section; returns the number of charts drawn. */
static guint
trace_section(GString *out, guint t, const RptFgdTrace *trace, GPtrArray *colours)
{
	double tops[RPT_FGD_N_CURVES];
	guint charts;

	for (RptFgdCurve c = 0; c < RPT_FGD_N_CURVES; c++) {
		tops[c] = rpt_fgd_svg__y_top(trace->worlds, c, 0);
	}
	g_string_append_printf(out, "<h2 id=\"trace-%u\">Trace ", t);
	rpt_html__escaped(out, trace->name);
	g_string_append(out, "</h2>\n");
	charts = unallocated_section(out, t, trace, colours);
	g_string_append(out, "<h3>FGD fragmentation against arrived GPU</h3>\n"
	                     "<div class=\"charts\">\n");
	for (guint w = 0; w < trace->worlds->len; w++) {
		const RptFgdWorld *world = g_ptr_array_index(trace->worlds, w);

		if (!world_has_curve(world, RPT_FGD_FRAG_AMOUNT) &&
		    !world_has_curve(world, RPT_FGD_FRAG_RATIO)) {
			/* said once for both charts */
			world_chart(out, t, w, world, RPT_FGD_FRAG_AMOUNT, 0, 1.0, colours);
			continue;
		}
		for (RptFgdCurve c = RPT_FGD_FRAG_AMOUNT; c <= RPT_FGD_FRAG_RATIO; c++) {
			charts += world_chart(out, t, w, world, c, 0, tops[c], colours);
		}
	}
	g_string_append(out, "</div>\n<h3>Per world and policy at 100 % arrival</h3>\n");
	trace_table(out, t, trace);
	return charts;
}

char *
rpt_fgd_html(const char *json, gssize len, GError **error)
{
	g_autoptr(RptFgd) self = NULL;
	g_autoptr(GPtrArray) colours = g_ptr_array_new();
	GString *out;
	guint charts = 0;

	g_return_val_if_fail(json != NULL, NULL);
	self = rpt_fgd__load(json, len, error);
	if (self == NULL) {
		return NULL;
	}
	out = rpt_html__page_open("drasim experiment fgd", fgd_style);
	header(out, self);
	g_string_append(out, "<ul class=\"toc\">");
	for (guint t = 0; t < self->traces->len; t++) {
		g_string_append_printf(out, "<li><a href=\"#trace-%u\">", t);
		rpt_html__escaped(out, ((RptFgdTrace *)g_ptr_array_index(self->traces, t))->name);
		g_string_append(out, "</a></li>");
	}
	g_string_append(out, "</ul>\n");
	for (guint t = 0; t < self->traces->len; t++) {
		charts += trace_section(out, t, g_ptr_array_index(self->traces, t), colours);
	}
	return rpt_html__page_close(out, charts > 0);
}
