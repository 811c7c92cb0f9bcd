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

static void
format_value(char *buf, gsize size, double value, const char *unit)
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
			format_value(buf, sizeof(buf), value, g_ptr_array_index(units, i));
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
			format_value(buf, sizeof(buf), value, unit);
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

static void
reasons_list(TextOut *self, const RptMode *mode)
{
	guint shown = MIN(mode->reasons->len, MAX_REASONS_SHOWN);

	if (mode->reasons->len == 0) {
		return;
	}
	g_autofree char *title = g_strdup_printf("Why pods waited (%s)", mode->name);
	heading(self, title);
	for (guint i = 0; i < shown; i++) {
		const RptReason *reason = g_ptr_array_index(mode->reasons, i);

		g_string_append_printf(self->out, "%s at %.3f s: %s\n", reason->pod,
		                       (double)reason->at_us / 1e6, reason->message);
		if (reason->detail != NULL) {
			g_string_append_printf(self->out, "    %s\n", reason->detail);
		}
	}
	if (mode->reasons->len > shown) {
		g_string_append_printf(self->out, "... and %u more (see the JSON report)\n",
		                       mode->reasons->len - shown);
	}
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
	for (guint m = 0; m < report->modes->len; m++) {
		const RptMode *mode = g_ptr_array_index(report->modes, m);

		unschedulable_table(&self, mode);
		reasons_list(&self, mode);
		translation_list(&self, mode);
	}
	return g_string_free(self.out, FALSE);
}
