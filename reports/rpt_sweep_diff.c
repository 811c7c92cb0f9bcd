/*
 * rpt_sweep_diff.c: did a change move any figure of a sweep beyond its
 * confidence interval? `drasim diff OLD/sweep.json NEW/sweep.json` matches
 * rows by (parameter values, mode, metric) and calls a row moved when the
 * new mean falls outside the old row's interval. A row without an interval
 * (one seed, or a metric defined for one seed only) moves when its mean
 * changes at all. Rows that appear or disappear are listed too.
 */
#include <math.h>
#include <string.h>

#include "rpt-private.h"
#include "rpt-sweep-private.h"

typedef enum {
	VERDICT_SAME,
	VERDICT_MOVED,
	VERDICT_ADDED,
	VERDICT_REMOVED,
} Verdict;

/* Equal up to the 9 significant digits the JSON keeps. */
static gboolean
beyond(double value, double bound, int direction)
{
	double slack = 1e-8 * MAX(1.0, fabs(bound));

	return direction < 0 ? value < bound - slack : value > bound + slack;
}

static Verdict
compare_stat(const RptStat *old, const RptStat *new, const char **why)
{
	gboolean old_nan = isnan(old->mean), new_nan = isnan(new->mean);

	*why = "";
	if (old_nan || new_nan) {
		*why = old_nan && new_nan ? "" : "defined in one sweep only";
		return old_nan && new_nan ? VERDICT_SAME : VERDICT_MOVED;
	}
	if (old->n >= 2 && isfinite(old->ci_low) && isfinite(old->ci_high)) {
		if (beyond(new->mean, old->ci_low, -1))
			*why = "below the old interval";
		else if (beyond(new->mean, old->ci_high, 1))
			*why = "above the old interval";
		return **why != '\0' ? VERDICT_MOVED : VERDICT_SAME;
	}
	if (beyond(new->mean, old->mean, -1) || beyond(new->mean, old->mean, 1)) {
		*why = "changed (the old row has no interval)";
		return VERDICT_MOVED;
	}
	return VERDICT_SAME;
}

static char *
row_key(const RptSweep *sweep, const RptSweepRow *row)
{
	GString *key = g_string_new(NULL);

	for (guint i = 0; i < sweep->params->len; i++)
		g_string_append_printf(key, "%s\x1f", row->values[i]);
	g_string_append_printf(key, "%s\x1f%s", row->mode, row->metric);
	return g_string_free(key, FALSE);
}

static void
append_row(GString *out,
           const RptSweep *sweep,
           const RptSweepRow *row,
           const RptStat *old,
           const RptStat *new,
           const char *verdict)
{
	g_autoptr(GString) values = g_string_new(NULL);
	char mean[32] = "-", low[32] = "", high[32] = "", now[32] = "-", interval[72] = "";

	for (guint i = 0; i < sweep->params->len; i++)
		g_string_append_printf(values, "%s%s", i > 0 ? ", " : "", row->values[i]);
	if (old != NULL) {
		rpt__format_number(mean, sizeof mean, old->mean);
		rpt__format_number(low, sizeof low, old->ci_low);
		rpt__format_number(high, sizeof high, old->ci_high);
		g_snprintf(interval, sizeof interval, "[%s, %s]", low, high);
	}
	if (new != NULL)
		rpt__format_number(now, sizeof now, new->mean);
	g_string_append_printf(out, "%-16s %-12s %-36s %14s %-26s %14s  %s\n", values->str,
	                       row->mode, row->metric, mean, interval, now, verdict);
}

static void
count_removed(const RptSweep *old, GHashTable *seen, GString *out, guint *removed)
{
	for (guint i = 0; i < old->rows->len; i++) {
		const RptSweepRow *row = &g_array_index(old->rows, RptSweepRow, i);
		g_autofree char *key = row_key(old, row);

		if (g_hash_table_contains(seen, key))
			continue;
		(*removed)++;
		append_row(out, old, row, &row->stat, NULL, "removed");
	}
}

static gboolean
same_parameters(const RptSweep *a, const RptSweep *b)
{
	if (a->params->len != b->params->len)
		return FALSE;
	for (guint i = 0; i < a->params->len; i++)
		if (strcmp(a->params->pdata[i], b->params->pdata[i]) != 0)
			return FALSE;
	return TRUE;
}

char *
rpt_sweep_diff_to_string(const RptSweep *old, const RptSweep *new, gboolean all, guint *failures)
{
	g_autoptr(GHashTable) by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	GString *body = g_string_new(NULL), *out = g_string_new(NULL);
	guint moved = 0, added = 0, removed = 0;
	char level[16];

	if (!same_parameters(old, new)) {
		*failures = 1;
		g_string_free(body, TRUE);
		g_string_append(out, "the sweeps vary different parameters: nothing to compare\n");
		return g_string_free(out, FALSE);
	}
	for (guint i = 0; i < old->rows->len; i++) {
		const RptSweepRow *row = &g_array_index(old->rows, RptSweepRow, i);

		g_hash_table_insert(by_key, row_key(old, row), (gpointer)row);
	}
	for (guint i = 0; i < new->rows->len; i++) {
		const RptSweepRow *row = &g_array_index(new->rows, RptSweepRow, i);
		char *key = row_key(new, row);
		const RptSweepRow *before = g_hash_table_lookup(by_key, key);
		const char *why;

		g_hash_table_add(seen, key);
		if (before == NULL) {
			added++;
			append_row(body, new, row, NULL, &row->stat, "added");
		} else if (compare_stat(&before->stat, &row->stat, &why) == VERDICT_MOVED) {
			moved++;
			append_row(body, new, row, &before->stat, &row->stat, why);
		} else if (all) {
			append_row(body, new, row, &before->stat, &row->stat, "within");
		}
	}
	count_removed(old, seen, body, &removed);
	rpt_sweep__level_text(level, sizeof level, old->confidence);
	g_string_append_printf(
	        out,
	        "%u rows compared: %u moved beyond the old %s %% interval, %u added, "
	        "%u removed\n",
	        new->rows->len, moved, level, added, removed);
	if (body->len > 0)
		g_string_append_printf(out, "%-16s %-12s %-36s %14s %-26s %14s  %s\n%s", "values",
		                       "mode", "metric", "old mean", "[interval]", "new mean",
		                       "verdict", body->str);
	g_string_free(body, TRUE);
	*failures = moved + removed;
	return g_string_free(out, FALSE);
}
