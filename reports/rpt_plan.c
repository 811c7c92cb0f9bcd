/*
 * rpt_plan.c: the plan result as plain data (rpt_plan.h) and the text
 * helpers its writers share: an answer as one line, a value in its unit,
 * the points in count order.
 */
#include <math.h>
#include <string.h>

#include "rpt_plan-private.h"

const char *
rpt_plan_verdict_to_string(RptPlanVerdict verdict)
{
	static const char *const names[] = { "holds", "fails", "undefined", "error" };

	g_return_val_if_fail((guint)verdict < G_N_ELEMENTS(names), "error");
	return names[verdict];
}

static char **
copy_strings(const char *const *strings, guint n)
{
	char **copy = g_new0(char *, n + 1);

	for (guint i = 0; i < n; i++)
		copy[i] = g_strdup(strings[i]);
	return copy;
}

RptPlan *
rpt_plan_new(const char *scenario,
             const char *const *pools,
             const char *const *shapes,
             const double *costs,
             guint n_pools,
             const char *const *modes,
             guint n_modes,
             guint n_slos,
             const uint64_t *seeds,
             guint n_seeds,
             double confidence,
             guint min,
             guint max)
{
	RptPlan *self = g_new0(RptPlan, 1);

	self->scenario = g_strdup(scenario);
	self->n_pools = n_pools;
	self->pools = copy_strings(pools, n_pools);
	self->shapes = copy_strings(shapes ? shapes : pools, n_pools);
	self->costs = costs ? g_memdup2(costs, sizeof(double) * n_pools) : NULL;
	self->n_modes = n_modes;
	self->modes = copy_strings(modes, n_modes);
	self->n_slos = n_slos;
	self->slos = g_new0(RptPlanSlo, n_slos);
	self->seeds = g_array_sized_new(FALSE, FALSE, sizeof(uint64_t), n_seeds);
	g_array_append_vals(self->seeds, seeds, n_seeds);
	self->confidence = confidence;
	self->min = min;
	self->max = max;
	self->points = g_ptr_array_new();
	self->answers = g_new0(RptPlanAnswer, n_modes);
	for (guint m = 0; m < n_modes; m++) {
		self->answers[m].counts = g_new0(guint, n_pools);
		self->answers[m].cost = NAN;
		self->answers[m].monotone = TRUE;
		self->answers[m].offending = g_array_new(FALSE, FALSE, sizeof(guint));
	}
	return self;
}

void
rpt_plan_free(RptPlan *self)
{
	if (self == NULL)
		return;
	for (guint i = 0; i < self->points->len; i++) {
		RptPlanPoint *point = g_ptr_array_index(self->points, i);

		g_free(point->counts);
		g_free(point->error);
		g_free(point->measures);
		g_free(point);
	}
	g_ptr_array_unref(self->points);
	for (guint m = 0; m < self->n_modes; m++) {
		g_free(self->answers[m].counts);
		g_array_unref(self->answers[m].offending);
		g_free(self->answers[m].reason);
	}
	g_free(self->answers);
	for (guint s = 0; s < self->n_slos; s++) {
		g_free(self->slos[s].text);
		g_free(self->slos[s].metric);
		g_free(self->slos[s].op);
		g_free(self->slos[s].unit);
	}
	g_free(self->slos);
	g_strfreev(self->pools);
	g_strfreev(self->shapes);
	g_strfreev(self->modes);
	g_free(self->costs);
	g_array_unref(self->seeds);
	g_free(self->scenario);
	g_free(self);
}

void
rpt_plan_set_slo(RptPlan *self,
                 guint index,
                 const char *text,
                 const char *metric,
                 const char *op,
                 double value,
                 const char *unit)
{
	RptPlanSlo *slo;

	g_return_if_fail(index < self->n_slos);
	slo = &self->slos[index];
	g_free(slo->text);
	g_free(slo->metric);
	g_free(slo->op);
	g_free(slo->unit);
	slo->text = g_strdup(text);
	slo->metric = g_strdup(metric);
	slo->op = g_strdup(op);
	slo->value = value;
	slo->unit = g_strdup(unit);
}

RptPlanPoint *
rpt_plan_add_point(RptPlan *self, const guint *counts)
{
	RptPlanPoint *point = g_new0(RptPlanPoint, 1);
	guint n = self->n_modes * self->n_slos;

	point->counts = g_memdup2(counts, sizeof(guint) * self->n_pools);
	point->measures = g_new0(RptPlanMeasure, n);
	for (guint i = 0; i < n; i++) {
		point->measures[i].stat =
		        (RptStat){ .n = 0, .mean = NAN, .sd = NAN, .ci_low = NAN, .ci_high = NAN };
		point->measures[i].bound = NAN;
		point->measures[i].verdict = RPT_PLAN_ERROR;
	}
	g_ptr_array_add(self->points, point);
	return point;
}

RptPlanMeasure *
rpt_plan_point_measure(const RptPlan *self, RptPlanPoint *point, guint mode, guint slo)
{
	g_return_val_if_fail(mode < self->n_modes && slo < self->n_slos, NULL);
	return &point->measures[mode * self->n_slos + slo];
}

gboolean
rpt_plan_point_holds(const RptPlan *self, const RptPlanPoint *point, guint mode)
{
	if (point->error != NULL)
		return FALSE;
	for (guint s = 0; s < self->n_slos; s++) {
		if (point->measures[mode * self->n_slos + s].verdict != RPT_PLAN_HOLDS)
			return FALSE;
	}
	return TRUE;
}

/* ---- text helpers shared by the writers ---------------------------------------------------- */

char *
rpt_plan__counts_text(const RptPlan *self, const guint *counts)
{
	GString *out = g_string_new(NULL);

	for (guint p = 0; p < self->n_pools; p++)
		g_string_append_printf(out, "%s%s=%u", p ? " " : "", self->pools[p], counts[p]);
	return g_string_free(out, FALSE);
}

char *
rpt_plan_value_to_string(double value, const char *unit)
{
	if (!isfinite(value))
		return g_strdup("n/a");
	/* Whole seconds from 1000 s on: 39180s, not 3.918e+04s (the SLO's own unit, s, stays). */
	if (g_strcmp0(unit, "s") == 0 && fabs(value) >= 1000 && fabs(value) < 1e15)
		return g_strdup_printf("%.0fs", value);
	if (g_strcmp0(unit, "s") == 0)
		return g_strdup_printf("%.4gs", value);
	if (g_strcmp0(unit, "x") == 0)
		return g_strdup_printf("%.4gx", value);
	return g_strdup_printf("%.4g", value);
}

char *
rpt_plan__answer_text(const RptPlan *self, guint mode)
{
	const RptPlanAnswer *answer = &self->answers[mode];
	GString *out;

	if (!answer->met)
		return g_strdup_printf("not met: %s",
		                       answer->reason ? answer->reason : "not searched");
	out = g_string_new(NULL);
	if (self->n_pools == 1) {
		g_string_append_printf(out, "%u x %s (pool %s)", answer->counts[0], self->shapes[0],
		                       self->pools[0]);
	} else {
		for (guint p = 0; p < self->n_pools; p++)
			g_string_append_printf(out, "%s%u x %s", p ? " + " : "", answer->counts[p],
			                       self->pools[p]);
	}
	if (self->costs != NULL)
		g_string_append_printf(out, ", $%.2f/h", answer->cost);
	if (!answer->monotone)
		g_string_append(out, " (not monotone: see the points marked !)");
	return g_string_free(out, FALSE);
}

static int
compare_points(gconstpointer a, gconstpointer b, gpointer user_data)
{
	const RptPlan *sort_plan = user_data;
	const RptPlanPoint *x = g_ptr_array_index(sort_plan->points, *(const guint *)a);
	const RptPlanPoint *y = g_ptr_array_index(sort_plan->points, *(const guint *)b);

	for (guint p = 0; p < sort_plan->n_pools; p++) {
		if (x->counts[p] != y->counts[p])
			return x->counts[p] < y->counts[p] ? -1 : 1;
	}
	return 0;
}

GArray *
rpt_plan__points_by_counts(const RptPlan *self)
{
	GArray *order = g_array_sized_new(FALSE, FALSE, sizeof(guint), self->points->len);

	for (guint i = 0; i < self->points->len; i++)
		g_array_append_val(order, i);
	g_array_sort_with_data(order, compare_points, (gpointer)self);
	return order;
}

gboolean
rpt_plan__is_offending(const RptPlanAnswer *answer, guint index)
{
	for (guint i = 0; i < answer->offending->len; i++) {
		if (g_array_index(answer->offending, guint, i) == index)
			return TRUE;
	}
	return FALSE;
}

char *
rpt_plan__seeds_text(const RptPlan *self)
{
	GString *out = g_string_new(NULL);
	guint n = self->seeds->len;

	for (guint i = 0; i < n;) {
		uint64_t first = g_array_index(self->seeds, uint64_t, i);
		guint j = i;

		while (j + 1 < n && g_array_index(self->seeds, uint64_t, j + 1) ==
		                            g_array_index(self->seeds, uint64_t, j) + 1)
			j++;
		g_string_append_printf(out, "%s%" G_GUINT64_FORMAT, i ? ", " : "", first);
		if (j > i)
			g_string_append_printf(out, "-%" G_GUINT64_FORMAT,
			                       g_array_index(self->seeds, uint64_t, j));
		i = j + 1;
	}
	return g_string_free(out, FALSE);
}

char *
rpt_plan__measure_text(const RptPlan *self, const RptPlanMeasure *measure, guint slo)
{
	const char *unit = self->slos[slo].unit;
	const char *verdict = rpt_plan_verdict_to_string(measure->verdict);
	g_autofree char *mean = rpt_plan_value_to_string(measure->stat.mean, unit);
	g_autofree char *low = NULL;
	g_autofree char *high = NULL;

	if (measure->verdict == RPT_PLAN_ERROR)
		return g_strdup("error");
	if (measure->verdict == RPT_PLAN_UNDEFINED)
		return g_strdup_printf("undefined in %u of %u seeds",
		                       measure->n_runs - measure->stat.n, measure->n_runs);
	if (measure->stat.n < 2)
		return g_strdup_printf("%s %s", mean, verdict);
	low = rpt_plan_value_to_string(measure->stat.ci_low, unit);
	high = rpt_plan_value_to_string(measure->stat.ci_high, unit);
	return g_strdup_printf("%s [%s, %s] %s", mean, low, high, verdict);
}
