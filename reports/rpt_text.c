/*
 * rpt_text.c: the report as aligned side-by-side tables for a terminal.
 *
 * Modes are columns and metrics are rows (the union of the modes' metrics,
 * in first-seen order), so `drasim compare` reads across. Colour is an
 * option of the caller: rpt_write_formats() turns it on only for a TTY
 * without NO_COLOR.
 */
#include <math.h>
#include <string.h>

#include "rpt-chart-private.h"
#include "rpt-private.h"

#define MAX_REASONS_SHOWN 10

typedef struct {
	gboolean colour;
	GString *out;
} TextOut;

static void
heading(TextOut *self, const char *title)
{
	g_string_append_printf(self->out, "\n%s%s%s\n", self->colour ? "\033[1m" : "", title,
	                       self->colour ? "\033[0m" : "");
}

/* The union of metric names over modes, in first-seen order, with the first unit seen. */
static GPtrArray *
metric_rows(const RptReport *report, GPtrArray **units_out)
{
	GPtrArray *names = g_ptr_array_new();
	GPtrArray *units = g_ptr_array_new();

	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		for (guint i = 0; i < mode->metrics->len; i++) {
			const RptMetric *metric = g_ptr_array_index(mode->metrics, i);
			gboolean seen = FALSE;

			for (guint j = 0; j < names->len && !seen; j++) {
				seen = strcmp(g_ptr_array_index(names, j), metric->name) == 0;
			}
			if (!seen) {
				g_ptr_array_add(names, metric->name);
				g_ptr_array_add(units, metric->unit);
			}
		}
	}
	*units_out = units;
	return names;
}

static void
summary_table(TextOut *self, const RptReport *report)
{
	g_autoptr(GPtrArray) units = NULL;
	g_autoptr(GPtrArray) names = metric_rows(report, &units);
	guint name_width = strlen("metric"), unit_width = strlen("unit");
	guint n_modes = report->modes->len;
	g_autofree guint *widths = g_new0(guint, n_modes);
	char buf[64];

	for (guint i = 0; i < names->len; i++) {
		name_width = MAX(name_width, strlen(g_ptr_array_index(names, i)));
		unit_width = MAX(unit_width, strlen(g_ptr_array_index(units, i)));
	}
	for (guint m = 0; m < n_modes; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		widths[m] = MAX(8, strlen(mode->name));
		for (guint i = 0; i < names->len; i++) {
			double value = (double)NAN;

			rpt_mode_lookup_metric(mode, g_ptr_array_index(names, i), &value);
			rpt_chart_value(buf, sizeof(buf), value, g_ptr_array_index(units, i));
			widths[m] = MAX(widths[m], strlen(buf));
		}
	}
	heading(self, "Summary");
	g_string_append_printf(self->out, "%-*s  %-*s", name_width, "metric", unit_width, "unit");
	for (guint m = 0; m < n_modes; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		g_string_append_printf(self->out, "  %*s", widths[m], mode->name);
	}
	g_string_append_c(self->out, '\n');
	for (guint i = 0; i < names->len; i++) {
		const char *unit = g_ptr_array_index(units, i);

		g_string_append_printf(self->out, "%-*s  %s%-*s%s", name_width,
		                       (char *)g_ptr_array_index(names, i),
		                       self->colour ? "\033[2m" : "", unit_width, unit,
		                       self->colour ? "\033[0m" : "");
		for (guint m = 0; m < n_modes; m++) {
			double value = (double)NAN;

			rpt_mode_lookup_metric(g_ptr_array_index(report->modes, m),
			                       g_ptr_array_index(names, i), &value);
			rpt_chart_value(buf, sizeof(buf), value, unit);
			g_string_append_printf(self->out, "  %*s", widths[m], buf);
		}
		g_string_append_c(self->out, '\n');
	}
}

static void
unschedulable_table(TextOut *self, const RptMode *mode)
{
	guint width = strlen("reason");

	if (mode->unsched->len == 0) {
		return;
	}
	for (guint i = 0; i < mode->unsched->len; i++) {
		width = MAX(width,
		            strlen(((RptUnsched *)g_ptr_array_index(mode->unsched, i))->reason));
	}
	g_autofree char *title = g_strdup_printf("Pending pods by reason (%s)", mode->name);
	heading(self, title);
	g_string_append_printf(self->out, "%-*s  %8s\n", width, "reason", "pods");
	for (guint i = 0; i < mode->unsched->len; i++) {
		const RptUnsched *entry = g_ptr_array_index(mode->unsched, i);

		g_string_append_printf(self->out, "%-*s  %8" G_GUINT64_FORMAT "\n", width,
		                       entry->reason, entry->pods);
	}
}

static gint
by_pods(gconstpointer a, gconstpointer b)
{
	const RptReasonGroup *x = a, *y = b;

	/* more pods first; ties keep first-seen order (g_array_sort is not stable) */
	if (x->pods != y->pods) {
		return x->pods > y->pods ? -1 : 1;
	}
	return x->order < y->order ? -1 : (x->order > y->order);
}

GArray *
rpt_text__group_reasons(const RptMode *mode)
{
	GArray *groups = g_array_new(FALSE, TRUE, sizeof(RptReasonGroup));
	g_autoptr(GHashTable) index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (guint i = 0; i < mode->reasons->len; i++) {
		const RptReason *r = g_ptr_array_index(mode->reasons, i);
		char *key = g_strconcat(r->message, "\n", r->detail ? r->detail : "", NULL);
		gpointer at = g_hash_table_lookup(index, key);

		if (at != NULL) {
			g_array_index(groups, RptReasonGroup, GPOINTER_TO_UINT(at) - 1).pods++;
			g_free(key);
			continue;
		}
		RptReasonGroup g = { r, i, 1 };
		g_array_append_val(groups, g);
		g_hash_table_insert(index, key, GUINT_TO_POINTER(groups->len));
	}
	g_array_sort(groups, by_pods);
	return groups;
}

/* The most common reasons, each with how many pods share it and one example. */
static void
reasons_list(TextOut *self, const RptMode *mode)
{
	if (mode->reasons->len == 0) {
		return;
	}
	g_autoptr(GArray) groups = rpt_text__group_reasons(mode);
	guint shown = MIN(groups->len, MAX_REASONS_SHOWN);
	g_autofree char *title =
	        g_strdup_printf("Why pods waited (%s): %u pod%s, %u distinct reason%s", mode->name,
	                        mode->reasons->len, mode->reasons->len == 1 ? "" : "s", groups->len,
	                        groups->len == 1 ? "" : "s");
	heading(self, title);
	for (guint i = 0; i < shown; i++) {
		const RptReasonGroup *g = &g_array_index(groups, RptReasonGroup, i);

		g_string_append_printf(self->out, "%u pod%s, e.g. %s at %.3f s: %s\n", g->pods,
		                       g->pods == 1 ? "" : "s", g->first->pod,
		                       (double)g->first->at_us / 1e6, g->first->message);
		if (g->first->detail != NULL) {
			g_string_append_printf(self->out, "    %s\n", g->first->detail);
		}
	}
	if (groups->len > shown) {
		g_string_append_printf(self->out, "... and %u more reasons (see the JSON report)\n",
		                       groups->len - shown);
	}
}

/* How the run ended; the pods that can never run, each with its last failure. */
static void
end_list(TextOut *self, const RptMode *mode)
{
	g_autofree char *end = rpt_mode_describe_end(mode);
	guint shown = 0;

	if (end == NULL)
		return;
	g_autofree char *title = g_strdup_printf("Run end (%s): %s", mode->name, end);
	heading(self, title);
	for (guint i = 0; i < mode->reasons->len; i++) {
		const RptReason *r = g_ptr_array_index(mode->reasons, i);

		if (!r->never_runs)
			continue;
		if (shown++ == MAX_REASONS_SHOWN) {
			g_string_append(self->out, "... and more (see the JSON report)\n");
			break;
		}
		g_string_append_printf(self->out, "%s never runs (last tried at %.3f s): %s\n",
		                       r->pod, (double)r->at_us / 1e6, r->message);
	}
}

/* Where every submitted pod is at the end (rpt_ledger.c). */
static void
ledger_line(TextOut *self, const RptMode *mode)
{
	const RptLedger *ledger = rpt_mode_get_ledger(mode);
	g_autofree char *text = NULL;

	if (ledger == NULL)
		return;
	text = rpt_ledger_describe(ledger);
	g_string_append_printf(self->out, "Pod ledger (%s): %s\n", mode->name, text);
}

static void
translation_list(TextOut *self, const RptMode *mode)
{
	if (mode->translations->len == 0) {
		return;
	}
	g_autofree char *title = g_strdup_printf("Translation report (%s)", mode->name);
	heading(self, title);
	for (guint i = 0; i < mode->translations->len; i++) {
		const RptTranslation *entry = g_ptr_array_index(mode->translations, i);

		g_string_append_printf(self->out, "%s: %s%s%s\n    -> %s\n", entry->subject,
		                       entry->feature, *entry->feature ? " " : "",
		                       entry->expression, entry->approximation);
	}
}

/* Each mode's score policy (info score_policy, sim/measure), when the run says. */
static void
policy_list(TextOut *self, const RptReport *report)
{
	guint width = 0;
	gboolean any = FALSE;

	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		width = MAX(width, (guint)strlen(mode->name));
		any = any || rpt_mode_lookup_info(mode, "score_policy") != NULL;
	}
	if (!any)
		return;
	heading(self, "Score policy");
	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);
		const char *policy = rpt_mode_lookup_info(mode, "score_policy");

		g_string_append_printf(self->out, "%-*s  %s\n", (int)width, mode->name,
		                       policy != NULL ? policy : "-");
	}
}

char *
rpt_text_to_string(const RptReport *report, gboolean colour)
{
	TextOut self = { colour, g_string_new(NULL) };

	g_string_append_printf(self.out, "scenario %s  seed %" G_GUINT64_FORMAT "  drasim %s\n",
	                       report->scenario, report->seed, report->version);
	if (report->scenario_hash != NULL) {
		g_string_append_printf(self.out, "hash %s\n", report->scenario_hash);
	}
	summary_table(&self, report);
	policy_list(&self, report);
	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		end_list(&self, mode);
		ledger_line(&self, mode);
		unschedulable_table(&self, mode);
		reasons_list(&self, mode);
		translation_list(&self, mode);
	}
	return g_string_free(self.out, FALSE);
}
