/*
 * rpt_diff.c: `drasim diff`'s comparison of two reports (or two benchmark
 * files) metric by metric.
 *
 * Rows follow the old report's modes and metrics in order, then what only
 * the new one has, so the table is as stable as the reports themselves.
 * Unschedulable counts are compared as metrics "unschedulable:<reason>".
 */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "rpt-private.h"

typedef struct {
	char *mode;
	char *metric;
	char *unit;
	double old_value;
	double new_value;
	RptChangeKind kind;
	gboolean relative;
	double tolerance;
} Row;

struct RptDiff {
	GArray *rows; /* Row */
};

static const char *const change_names[] = {
	[RPT_CHANGE_SAME] = "same",
	[RPT_CHANGE_WITHIN] = "within",
	[RPT_CHANGE_BEYOND] = "BEYOND",
	[RPT_CHANGE_ADDED] = "added",
	[RPT_CHANGE_REMOVED] = "REMOVED",
	[RPT_CHANGE_MODE_ADDED] = "mode added",
	[RPT_CHANGE_MODE_MISSING] = "MODE MISSING",
};

const char *
rpt_change_kind_to_string(RptChangeKind kind)
{
	g_return_val_if_fail((guint)kind < G_N_ELEMENTS(change_names), "?");
	return change_names[kind];
}

static void
row_clear(Row *row)
{
	g_free(row->mode);
	g_free(row->metric);
	g_free(row->unit);
}

/* A mode's comparable values: its metrics, then its unschedulable counts. */
typedef struct {
	GPtrArray *names; /* owned strings */
	GPtrArray *units; /* borrowed */
	GArray *values;   /* double */
} Flat;

static void
flat_clear(Flat *flat)
{
	g_ptr_array_unref(flat->names);
	g_ptr_array_unref(flat->units);
	g_array_unref(flat->values);
}

static void
flat_init(Flat *flat, const RptMode *mode)
{
	flat->names = g_ptr_array_new_with_free_func(g_free);
	flat->units = g_ptr_array_new();
	flat->values = g_array_new(FALSE, FALSE, sizeof(double));
	for (guint i = 0; i < mode->metrics->len; i++) {
		const RptMetric *metric = g_ptr_array_index(mode->metrics, i);

		g_ptr_array_add(flat->names, g_strdup(metric->name));
		g_ptr_array_add(flat->units, (gpointer)metric->unit);
		g_array_append_val(flat->values, metric->value);
	}
	for (guint i = 0; i < mode->unsched->len; i++) {
		const RptUnsched *entry = g_ptr_array_index(mode->unsched, i);
		double pods = (double)entry->pods;

		g_ptr_array_add(flat->names, g_strconcat("unschedulable:", entry->reason, NULL));
		g_ptr_array_add(flat->units, (gpointer) "pods");
		g_array_append_val(flat->values, pods);
	}
}

static gboolean
flat_lookup(const Flat *flat, const char *name, guint *index_out)
{
	return g_ptr_array_find_with_equal_func(flat->names, name, g_str_equal, index_out);
}

static RptChangeKind
classify(double old_value, double new_value, gboolean relative, double tolerance)
{
	double delta;

	if (isnan(old_value) && isnan(new_value)) {
		return RPT_CHANGE_SAME;
	}
	if (isnan(old_value) || isnan(new_value)) {
		return RPT_CHANGE_BEYOND;
	}
	delta = fabs(new_value - old_value);
	if (!(delta > 0.0)) {
		return RPT_CHANGE_SAME;
	}
	/* a relative bound is computed in floating point: 2% of 1234 must admit 1258.68, so
	 * allow the bound's own rounding (1e-9 of it) */
	double bound = relative ? tolerance * fabs(old_value) : tolerance;

	return delta <= bound * (1.0 + 1e-9) ? RPT_CHANGE_WITHIN : RPT_CHANGE_BEYOND;
}

static void
add_row(RptDiff *self,
        const char *mode,
        const char *metric,
        const char *unit,
        double old_value,
        double new_value,
        RptChangeKind kind,
        const RptTolerances *tolerances)
{
	Row row = { .mode = g_strdup(mode),
		    .metric = g_strdup(metric),
		    .unit = g_strdup(unit),
		    .old_value = old_value,
		    .new_value = new_value,
		    .kind = kind };

	if (tolerances != NULL && metric != NULL) {
		rpt_tolerances__lookup(tolerances, metric, unit, &row.relative, &row.tolerance);
	}
	g_array_append_val(self->rows, row);
}

static void
compare_modes(RptDiff *self,
              const RptMode *old_mode,
              const RptMode *new_mode,
              const RptTolerances *tolerances)
{
	Flat old_flat, new_flat;

	flat_init(&old_flat, old_mode);
	flat_init(&new_flat, new_mode);
	for (guint i = 0; i < old_flat.names->len; i++) {
		const char *name = g_ptr_array_index(old_flat.names, i);
		const char *unit = g_ptr_array_index(old_flat.units, i);
		double old_value = g_array_index(old_flat.values, double, i);
		guint j;

		if (!flat_lookup(&new_flat, name, &j)) {
			add_row(self, old_mode->name, name, unit, old_value, (double)NAN,
			        RPT_CHANGE_REMOVED, tolerances);
			continue;
		}
		double new_value = g_array_index(new_flat.values, double, j);
		gboolean relative = FALSE;
		double tolerance = 0.0;

		rpt_tolerances__lookup(tolerances, name, unit, &relative, &tolerance);
		add_row(self, old_mode->name, name, unit, old_value, new_value,
		        classify(old_value, new_value, relative, tolerance), tolerances);
	}
	for (guint j = 0; j < new_flat.names->len; j++) {
		const char *name = g_ptr_array_index(new_flat.names, j);

		if (!flat_lookup(&old_flat, name, NULL)) {
			add_row(self, old_mode->name, name, g_ptr_array_index(new_flat.units, j),
			        (double)NAN, g_array_index(new_flat.values, double, j),
			        RPT_CHANGE_ADDED, tolerances);
		}
	}
	flat_clear(&old_flat);
	flat_clear(&new_flat);
}

RptDiff *
rpt_diff_new(const RptReport *old_report,
             const RptReport *new_report,
             const RptTolerances *tolerances)
{
	g_autoptr(RptTolerances) defaults = NULL;
	RptDiff *self = g_new0(RptDiff, 1);

	if (tolerances == NULL) {
		defaults = rpt_tolerances_new();
		tolerances = defaults;
	}
	self->rows = g_array_new(FALSE, TRUE, sizeof(Row));
	g_array_set_clear_func(self->rows, (GDestroyNotify)row_clear);
	for (guint m = 0; m < old_report->modes->len; m++) {
		const RptMode *old_mode = g_ptr_array_index(old_report->modes, m);
		const RptMode *new_mode = rpt_report_lookup_mode(new_report, old_mode->name);

		if (new_mode == NULL) {
			add_row(self, old_mode->name, NULL, NULL, (double)NAN, (double)NAN,
			        RPT_CHANGE_MODE_MISSING, NULL);
		} else {
			compare_modes(self, old_mode, new_mode, tolerances);
		}
	}
	for (guint m = 0; m < new_report->modes->len; m++) {
		const RptMode *new_mode = g_ptr_array_index(new_report->modes, m);

		if (rpt_report_lookup_mode(old_report, new_mode->name) == NULL) {
			add_row(self, new_mode->name, NULL, NULL, (double)NAN, (double)NAN,
			        RPT_CHANGE_MODE_ADDED, NULL);
		}
	}
	return self;
}

void
rpt_diff_free(RptDiff *self)
{
	if (self == NULL) {
		return;
	}
	g_array_unref(self->rows);
	g_free(self);
}

guint
rpt_diff_count(const RptDiff *self, RptChangeKind kind)
{
	guint n = 0;

	for (guint i = 0; i < self->rows->len; i++) {
		n += g_array_index(self->rows, Row, i).kind == kind;
	}
	return n;
}

guint
rpt_diff_count_failures(const RptDiff *self, gboolean strict)
{
	guint n = rpt_diff_count(self, RPT_CHANGE_BEYOND) +
	          rpt_diff_count(self, RPT_CHANGE_REMOVED) +
	          rpt_diff_count(self, RPT_CHANGE_MODE_MISSING);

	if (strict) {
		n += rpt_diff_count(self, RPT_CHANGE_ADDED) +
		     rpt_diff_count(self, RPT_CHANGE_MODE_ADDED);
	}
	return n;
}

static void
format_cell(char *buf, gsize size, double value)
{
	if (isnan(value)) {
		g_strlcpy(buf, "-", size);
	} else {
		rpt__format_number(buf, size, value);
	}
}

static char *
change_text(const Row *row)
{
	if (isnan(row->old_value) || isnan(row->new_value)) {
		return g_strdup("");
	}
	if (fabs(row->old_value) > 0.0) {
		return g_strdup_printf("%+.2f%%", (row->new_value - row->old_value) /
		                                          fabs(row->old_value) * 100.0);
	}
	return g_strdup_printf("%+g", row->new_value - row->old_value);
}

static char *
tolerance_text(const Row *row)
{
	if (row->metric == NULL) {
		return g_strdup("");
	}
	return row->relative ? g_strdup_printf("%g%%", row->tolerance * 100.0)
	                     : g_strdup_printf("±%g", row->tolerance);
}

char *
rpt_diff_to_string(const RptDiff *self, gboolean all)
{
	GString *out = g_string_new(NULL);
	guint shown = 0;

	g_string_append_printf(out, "%-12s %-44s %14s %14s %9s %9s  %s\n", "mode", "metric", "old",
	                       "new", "change", "tolerance", "status");
	for (guint i = 0; i < self->rows->len; i++) {
		const Row *row = &g_array_index(self->rows, Row, i);
		char old_buf[64], new_buf[64];
		g_autofree char *change = NULL;
		g_autofree char *tolerance = NULL;

		if (row->kind == RPT_CHANGE_SAME && !all) {
			continue;
		}
		format_cell(old_buf, sizeof(old_buf), row->old_value);
		format_cell(new_buf, sizeof(new_buf), row->new_value);
		change = change_text(row);
		tolerance = tolerance_text(row);
		g_string_append_printf(out, "%-12s %-44s %14s %14s %9s %9s  %s\n", row->mode,
		                       row->metric ? row->metric : "(whole mode)", old_buf, new_buf,
		                       change, tolerance, rpt_change_kind_to_string(row->kind));
		shown++;
	}
	if (shown == 0) {
		g_string_append(out, "(no changes)\n");
	}
	g_string_append_printf(out,
	                       "%u compared, %u changed within tolerance, %u beyond, %u added, "
	                       "%u removed, %u modes missing, %u modes added\n",
	                       self->rows->len, rpt_diff_count(self, RPT_CHANGE_WITHIN),
	                       rpt_diff_count(self, RPT_CHANGE_BEYOND),
	                       rpt_diff_count(self, RPT_CHANGE_ADDED),
	                       rpt_diff_count(self, RPT_CHANGE_REMOVED),
	                       rpt_diff_count(self, RPT_CHANGE_MODE_MISSING),
	                       rpt_diff_count(self, RPT_CHANGE_MODE_ADDED));
	return g_string_free(out, FALSE);
}
