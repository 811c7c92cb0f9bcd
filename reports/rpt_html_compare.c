/*
 * rpt_html_compare.c: the comparing half of the report page: the summary
 * sentence read off the numbers, the metrics table with deltas against the
 * baseline mode, the per-workload breakdown and the overlaid charts (every
 * mode on shared axes, one colour per mode on every chart).
 *
 * Nothing here is written by hand: each sentence comes from the report's
 * metrics (pods_submitted, pods_scheduled, pods_pending) and its pod
 * reasons (kube-scheduler's messages, the same data the text report groups).
 */
#include <math.h>
#include <string.h>

#include "rpt-chart-private.h"
#include "rpt-private.h"

static double
metric(const RptMode *mode, const char *name)
{
	double value = (double)NAN;

	rpt_mode_lookup_metric(mode, name, &value);
	return value;
}

/* What a scheduler message says pods waited for: the largest "N reason" item of
 * "0/N nodes are available: 2 Insufficient nvidia.com/mig-1g.10gb, 1 ... ." ->
 * "for nvidia.com/mig-1g.10gb", or the reason as said ("cannot allocate all claims"). */
char *
rpt_html__wait_phrase(const char *message)
{
	const char *at = message ? strstr(message, "nodes are available: ") : NULL;
	const char *end;
	g_autofree char *items = NULL;
	g_auto(GStrv) parts = NULL;
	const char *best = NULL;
	guint64 best_count = 0;

	if (at == NULL)
		return g_strdup(message ? message : "");
	at += strlen("nodes are available: ");
	/* the list ends at ". " (a resource name such as nvidia.com/gpu holds dots) */
	end = strstr(at, ". ");
	items = g_strndup(at, end != NULL ? (gsize)(end - at) : strlen(at));
	if (g_str_has_suffix(items, "."))
		items[strlen(items) - 1] = '\0';
	parts = g_strsplit(items, ", ", -1);
	for (guint i = 0; parts[i] != NULL; i++) {
		char *rest = NULL;
		guint64 count = g_ascii_strtoull(parts[i], &rest, 10);

		if (rest != parts[i] && *rest == ' ' && (best == NULL || count > best_count)) {
			best = rest + 1;
			best_count = count;
		}
	}
	if (best == NULL)
		return g_strdup(items);
	if (g_str_has_prefix(best, "Insufficient "))
		return g_strconcat("for ", best + strlen("Insufficient "), NULL);
	return g_strconcat("with \u201c", best, "\u201d", NULL);
}

/* "In extended 642 pods waited, 277 still pending at the end: 638 for X, 4 for Y." */
static void
mode_waits(GString *out, const RptMode *mode)
{
	g_autoptr(GPtrArray) phrases = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GArray) counts = g_array_new(FALSE, TRUE, sizeof(guint));
	double pending = metric(mode, "pods_pending");

	if (mode->reasons->len == 0) {
		g_string_append_printf(out, " No pod waited in %s.", mode->name);
		return;
	}
	for (guint i = 0; i < mode->reasons->len; i++) {
		const RptReason *r = g_ptr_array_index(mode->reasons, i);
		char *phrase = rpt_html__wait_phrase(r->message);
		guint at;

		if (g_ptr_array_find_with_equal_func(phrases, phrase, g_str_equal, &at)) {
			g_array_index(counts, guint, at)++;
			g_free(phrase);
			continue;
		}
		g_ptr_array_add(phrases, phrase);
		g_array_set_size(counts, phrases->len);
		g_array_index(counts, guint, phrases->len - 1) = 1;
	}
	g_string_append_printf(out, " In %s %u pod%s waited", mode->name, mode->reasons->len,
	                       mode->reasons->len == 1 ? "" : "s");
	if (pending > 0)
		g_string_append_printf(out, ", %.0f still pending at the end", pending);
	for (guint i = 0; i < phrases->len; i++) {
		/* most pods first; a tie keeps the order the pods first waited in */
		guint top = 0;

		for (guint j = 1; j < phrases->len; j++)
			if (g_array_index(counts, guint, j) > g_array_index(counts, guint, top))
				top = j;
		g_string_append_printf(out, "%s%u %s", i ? ", " : ": ",
		                       g_array_index(counts, guint, top),
		                       (char *)g_ptr_array_index(phrases, top));
		g_array_index(counts, guint, top) = 0;
	}
	g_string_append_c(out, '.');
}

char *
rpt_html__summary_sentence(const RptReport *report)
{
	GString *out = g_string_new(NULL);

	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);
		const RptMode *first = g_ptr_array_index(report->modes, 0);
		double scheduled = metric(mode, "pods_scheduled");
		double submitted = metric(mode, "pods_submitted");

		g_string_append_printf(out, "%s%s%s ", m == 0 ? "" : ", ", mode->name,
		                       m == 0 ? " scheduled" : "");
		if (isfinite(scheduled))
			g_string_append_printf(out, "%.0f", scheduled);
		else
			g_string_append(out, "-");
		/* "of N pods" once, again only where a mode was given other pods */
		if (m == 0 || metric(first, "pods_submitted") > submitted ||
		    metric(first, "pods_submitted") < submitted)
			g_string_append_printf(out, " of %.0f pods", submitted);
	}
	g_string_append_c(out, '.');
	for (guint m = 0; m < report->modes->len; m++)
		mode_waits(out, g_ptr_array_index(report->modes, m));
	return g_string_free(out, FALSE);
}

/* The change from @base to @value: percentage points for a ratio, else the difference
 * and, from a non-zero base, the relative change. */
static void
delta_text(char *buf, gsize size, double value, double base, const char *unit)
{
	char diff[48];

	if (!isfinite(value) || !isfinite(base)) {
		g_strlcpy(buf, "", size);
	} else if (g_strcmp0(unit, "ratio") == 0) {
		double points = (value - base) * 100.0;

		/* -0.04 rounds to "-0.0": no change reads as +0.0 */
		g_snprintf(buf, size, "%+.1f pp", fabs(points) < 0.05 ? 0.0 : points);
	} else {
		rpt_chart_value(diff, sizeof diff, value - base, unit);
		if (fabs(base) > 0.0)
			g_snprintf(buf, size, "%s%s (%+.1f%%)", value >= base ? "+" : "", diff,
			           (value - base) / fabs(base) * 100.0);
		else
			g_snprintf(buf, size, "%s%s", value >= base ? "+" : "", diff);
	}
}

static void
metric_row(GString *out,
           const RptReport *report,
           const char *name,
           const char *unit,
           const RptMode *base)
{
	double base_value = metric(base, name);

	g_string_append(out, "<tr><td>");
	rpt_html__escaped(out, name);
	g_string_append(out, "</td><td class=\"unit\">");
	rpt_html__escaped(out, unit);
	g_string_append(out, "</td>");
	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);
		double value = metric(mode, name);
		char text[64], delta[96];

		rpt_chart_value(text, sizeof text, value, unit);
		g_string_append_printf(out, "<td class=\"num\">%s</td>", text);
		if (mode == base)
			continue;
		delta_text(delta, sizeof delta, value, base_value, unit);
		g_string_append_printf(out, "<td class=\"num delta\">%s</td>", delta);
	}
	g_string_append(out, "</tr>\n");
}

void
rpt_html__summary_table(GString *out, const RptReport *report)
{
	const RptMode *base = rpt_report_lookup_mode(report, rpt_report_get_baseline(report));
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	g_autoptr(GPtrArray) units = g_ptr_array_new();

	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		for (guint i = 0; i < mode->metrics->len; i++) {
			const RptMetric *item = g_ptr_array_index(mode->metrics, i);

			if (!g_ptr_array_find_with_equal_func(names, item->name, g_str_equal,
			                                      NULL)) {
				g_ptr_array_add(names, item->name);
				g_ptr_array_add(units, item->unit);
			}
		}
	}
	g_string_append(out, "<h2>Summary</h2><p>Deltas are against the baseline mode <b>");
	rpt_html__escaped(out, base->name);
	g_string_append(out, "</b> (<code>drasim compare --baseline MODE</code>); ratios "
	                     "differ in percentage points (pp).</p>\n<table id=\"summary\">"
	                     "<tr><th>metric</th><th>unit</th>");
	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		g_string_append(out, "<th>");
		rpt_html__escaped(out, mode->name);
		g_string_append(out, "</th>");
		if (mode != base) {
			g_string_append(out, "<th>\u0394 ");
			rpt_html__escaped(out, mode->name);
			g_string_append(out, "</th>");
		}
	}
	g_string_append(out, "</tr>\n");
	for (guint i = 0; i < names->len; i++)
		metric_row(out, report, g_ptr_array_index(names, i), g_ptr_array_index(units, i),
		           base);
	g_string_append(out, "</table>\n");
}

/* A pod's workload entry: the report's own field (schema v2); for a pod without one,
 * its name without the "-<index>" the expander adds (sim/world/world_pods.c names
 * the k-th pod of an entry "<name>-<k>"). */
static char *
workload_of(const RptPod *pod, const char *name)
{
	gsize len, end;

	if (pod != NULL && pod->workload != NULL)
		return g_strdup(pod->workload);
	len = strlen(name);
	end = len;
	while (end > 0 && g_ascii_isdigit(name[end - 1]))
		end--;
	if (end == len || end < 2 || name[end - 1] != '-')
		return g_strdup(name);
	return g_strndup(name, end - 1);
}

typedef struct {
	guint pods, scheduled, pending, waited;
} WorkloadCount;

/* The index of workload @name (taken) in @names (added when new). */
static guint
workload_index(GPtrArray *names, GHashTable *index, char *name)
{
	gpointer at = g_hash_table_lookup(index, name);

	if (at != NULL) {
		g_free(name);
		return GPOINTER_TO_UINT(at) - 1;
	}
	g_ptr_array_add(names, name);
	g_hash_table_insert(index, name, GUINT_TO_POINTER(names->len));
	return names->len - 1;
}

/* The workload index of a reason's pod, through the mode's pods by name. */
static guint
reason_workload(GPtrArray *names, GHashTable *index, GHashTable *pods, const RptReason *r)
{
	return workload_index(names, index, workload_of(g_hash_table_lookup(pods, r->pod), r->pod));
}

static GHashTable *
pods_by_name(const RptMode *mode)
{
	GHashTable *pods = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < mode->pods->len; i++) {
		RptPod *pod = &g_array_index(mode->pods, RptPod, i);

		g_hash_table_insert(pods, (gpointer)pod->name, pod);
	}
	return pods;
}

static void
count_mode(const RptMode *mode,
           GPtrArray *names,
           GHashTable *index,
           WorkloadCount *counts,
           guint n_modes,
           guint m)
{
	g_autoptr(GHashTable) pods = pods_by_name(mode);

	for (guint i = 0; i < mode->pods->len; i++) {
		const RptPod *pod = &g_array_index(mode->pods, RptPod, i);
		guint w = workload_index(names, index, workload_of(pod, pod->name));

		if (counts == NULL)
			continue;
		counts[w * n_modes + m].pods++;
		counts[w * n_modes + m].scheduled += pod->start_us != RPT_TIME_NONE;
		counts[w * n_modes + m].pending += pod->outcome == RPT_OUTCOME_PENDING ||
		                                   pod->outcome == RPT_OUTCOME_UNRUNNABLE;
	}
	for (guint i = 0; i < mode->reasons->len; i++) {
		guint w = reason_workload(names, index, pods, mode->reasons->pdata[i]);

		if (counts != NULL)
			counts[w * n_modes + m].waited++;
	}
}

static WorkloadCount *
count_workloads(const RptReport *report, GPtrArray *names)
{
	g_autoptr(GHashTable) index = g_hash_table_new(g_str_hash, g_str_equal);
	guint n_modes = report->modes->len;
	WorkloadCount *counts = NULL;

	/* names first (first-seen order), then the counts in one table */
	for (guint m = 0; m < n_modes; m++)
		count_mode(g_ptr_array_index(report->modes, m), names, index, NULL, n_modes, m);
	counts = g_new0(WorkloadCount, (gsize)names->len * n_modes + 1);
	for (guint m = 0; m < n_modes; m++)
		count_mode(g_ptr_array_index(report->modes, m), names, index, counts, n_modes, m);
	return counts;
}

void
rpt_html__workloads(GString *out, const RptReport *report)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autofree WorkloadCount *counts = count_workloads(report, names);
	guint n_modes = report->modes->len;

	if (names->len == 0)
		return;
	g_string_append(out, "<h2>By workload</h2><p>Each workload entry's pods: scheduled of "
	                     "submitted, still pending at the end, and how many waited.</p>\n"
	                     "<table id=\"workloads\"><tr><th rowspan=\"2\">workload</th>");
	for (guint m = 0; m < n_modes; m++) {
		g_string_append(out, "<th colspan=\"3\">");
		rpt_html__escaped(out, ((RptMode *)report->modes->pdata[m])->name);
		g_string_append(out, "</th>");
	}
	g_string_append(out, "</tr><tr>");
	for (guint m = 0; m < n_modes; m++)
		g_string_append(out, "<th>scheduled</th><th>pending</th><th>waited</th>");
	g_string_append(out, "</tr>\n");
	for (guint w = 0; w < names->len; w++) {
		g_string_append(out, "<tr><td>");
		rpt_html__escaped(out, g_ptr_array_index(names, w));
		g_string_append(out, "</td>");
		for (guint m = 0; m < n_modes; m++) {
			const WorkloadCount *c = &counts[w * n_modes + m];

			g_string_append_printf(out,
			                       "<td class=\"num\">%u of %u</td><td class=\"num\">%u"
			                       "</td><td class=\"num\">%u</td>",
			                       c->scheduled, c->pods, c->pending, c->waited);
		}
		g_string_append(out, "</tr>\n");
	}
	g_string_append(out, "</table>\n");
}
