/*
 * plan_search.c: the capacity search. Points (a count per pool) are
 * evaluated through the caller's PlanEvalFunc at most once each, and one
 * evaluation serves every mode (every run runs them all), so the modes'
 * searches share a cache. Per mode: the max first, so a scenario no count
 * can satisfy gets "not met" after one point instead of a hang; then
 * bisection of [min, max] assuming the SLOs are monotone in the count;
 * then the answer and the count below it explicitly; then every point
 * evaluated is checked against the answer for monotonicity. A mix
 * enumerates the other pools' counts and bisects the last (docs/plan.md).
 */
#include <math.h>
#include <string.h>

#include "plan.h"

typedef struct {
	const PlanSpec *spec;
	PlanEvalFunc eval;
	gpointer user_data;
	RptPlan *plan;
	GHashTable
	        *index; /* "c0,c1,..." -> point index + 1 (lookups only: order comes from plan) */
	guint *counts;  /* scratch: the point being built */
	/* per SLO, for the mode being searched: TRUE when more nodes made it worse (it held at
	 * --min and failed at --max, e.g. a utilisation floor); the search leaves it out of the
	 * bisection and checks it at the answer */
	gboolean *ceiling;
} PlanSearch;

static char *
point_key(const PlanSearch *s, const guint *counts)
{
	GString *key = g_string_new(NULL);

	for (guint p = 0; p < s->spec->pools->len; p++)
		g_string_append_printf(key, "%s%u", p ? "," : "", counts[p]);
	return g_string_free(key, FALSE);
}

/* Judges every SLO of every mode at the point just evaluated. */
static void
judge_point(PlanSearch *s, RptPlanPoint *point)
{
	for (guint m = 0; m < s->plan->n_modes; m++) {
		for (guint k = 0; k < s->plan->n_slos; k++) {
			RptPlanMeasure *measure = rpt_plan_point_measure(s->plan, point, m, k);
			const PlanSlo *slo = &g_array_index(s->spec->slos, PlanSlo, k);

			if (point->error != NULL) {
				measure->verdict = RPT_PLAN_ERROR;
				continue;
			}
			measure->verdict = plan_slo_judge(slo, &measure->stat, measure->n_runs,
			                                  &measure->bound);
		}
	}
}

/* The index of the point @counts, evaluated now when it is new. */
static gboolean
point_at(PlanSearch *s, const guint *counts, guint *index_out, GError **error)
{
	g_autofree char *key = point_key(s, counts);
	gpointer found = g_hash_table_lookup(s->index, key);
	RptPlanPoint *point;
	char *failure = NULL;

	if (found != NULL) {
		*index_out = GPOINTER_TO_UINT(found) - 1;
		return TRUE;
	}
	point = rpt_plan_add_point(s->plan, counts);
	*index_out = s->plan->points->len - 1;
	if (!s->eval(counts, point->measures, &failure, s->user_data, error))
		return FALSE;
	point->error = failure;
	judge_point(s, point);
	g_hash_table_insert(s->index, g_steal_pointer(&key), GUINT_TO_POINTER(*index_out + 1));
	return TRUE;
}

/* Whether every SLO of @mode but the ceilings (see PlanSearch) holds at @point. */
static gboolean
floors_hold(const PlanSearch *s, RptPlanPoint *point, guint mode)
{
	if (point->error != NULL)
		return FALSE;
	for (guint k = 0; k < s->plan->n_slos; k++) {
		if (!s->ceiling[k] &&
		    rpt_plan_point_measure(s->plan, point, mode, k)->verdict != RPT_PLAN_HOLDS)
			return FALSE;
	}
	return TRUE;
}

/*
 * At the max some SLO failed: those that held at --min are ceilings (more
 * nodes make them worse). *@searchable_out: every SLO failing at the max is
 * one, so a smallest count for the others may exist.
 */
static gboolean
find_ceilings(PlanSearch *s, guint mode, guint *counts, gboolean *searchable_out, GError **error)
{
	guint last = s->spec->pools->len - 1, hi_index, lo_index;
	RptPlanPoint *hi, *lo;

	*searchable_out = FALSE;
	if (!point_at(s, counts, &hi_index, error))
		return FALSE;
	counts[last] = s->spec->min;
	if (!point_at(s, counts, &lo_index, error))
		return FALSE;
	hi = g_ptr_array_index(s->plan->points, hi_index);
	lo = g_ptr_array_index(s->plan->points, lo_index);
	if (hi->error != NULL || lo->error != NULL)
		return TRUE;
	for (guint k = 0; k < s->plan->n_slos; k++) {
		gboolean at_hi =
		        rpt_plan_point_measure(s->plan, hi, mode, k)->verdict == RPT_PLAN_HOLDS;
		gboolean at_lo =
		        rpt_plan_point_measure(s->plan, lo, mode, k)->verdict == RPT_PLAN_HOLDS;

		if (!at_hi && !at_lo)
			return TRUE;
		s->ceiling[k] = s->ceiling[k] || (!at_hi && at_lo);
	}
	*searchable_out = TRUE;
	return TRUE;
}

/* Whether @mode holds at @counts (evaluating it when new). */
static gboolean
holds_at(PlanSearch *s, guint mode, const guint *counts, gboolean *holds_out, GError **error)
{
	guint index;

	if (!point_at(s, counts, &index, error))
		return FALSE;
	*holds_out = floors_hold(s, g_ptr_array_index(s->plan->points, index), mode);
	return TRUE;
}

/*
 * The smallest count of the last pool, the others as in @counts, for which
 * @mode holds: max first, then bisection, then the answer and the one below
 * explicitly (with the cache they cost nothing when bisection saw them).
 * *@met_out FALSE when max fails. @counts' last entry is scratch.
 */
static gboolean
bisect_last(PlanSearch *s,
            guint mode,
            guint *counts,
            guint *answer_out,
            gboolean *met_out,
            GError **error)
{
	guint last = s->spec->pools->len - 1;
	guint lo = s->spec->min, hi = s->spec->max;
	gboolean holds;

	counts[last] = hi;
	if (!holds_at(s, mode, counts, met_out, error))
		return FALSE;
	if (!*met_out && !find_ceilings(s, mode, counts, met_out, error))
		return FALSE;
	if (!*met_out)
		return TRUE;
	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;

		counts[last] = mid;
		if (!holds_at(s, mode, counts, &holds, error))
			return FALSE;
		if (holds)
			hi = mid;
		else
			lo = mid + 1;
	}
	*answer_out = hi;
	counts[last] = hi;
	if (!holds_at(s, mode, counts, &holds, error))
		return FALSE;
	if (hi > s->spec->min) {
		counts[last] = hi - 1;
		if (!holds_at(s, mode, counts, &holds, error))
			return FALSE;
	}
	counts[last] = hi;
	return TRUE;
}

/* Whether @point has @prefix in every pool but the last. */
static gboolean
same_prefix(const PlanSearch *s, const RptPlanPoint *point, const guint *prefix)
{
	for (guint p = 0; p + 1 < s->spec->pools->len; p++) {
		if (point->counts[p] != prefix[p])
			return FALSE;
	}
	return TRUE;
}

/*
 * Every evaluated point on the line of @answer's counts (all pools but the
 * last as there) that contradicts it: one below the answer that holds, one
 * above that fails; with no answer, any that holds.
 */
static void
check_monotone(PlanSearch *s, guint mode)
{
	RptPlanAnswer *answer = &s->plan->answers[mode];
	const RptPlanPoint *anchor = g_ptr_array_index(s->plan->points, answer->point);
	guint last = s->spec->pools->len - 1;

	for (guint i = 0; i < s->plan->points->len; i++) {
		RptPlanPoint *point = g_ptr_array_index(s->plan->points, i);
		gboolean holds = floors_hold(s, point, mode);
		guint c = point->counts[last];
		gboolean contradicts;

		if (!same_prefix(s, point, anchor->counts))
			continue;
		if (answer->met)
			contradicts = (c < answer->counts[last] && holds) ||
			              (c > answer->counts[last] && !holds);
		else
			contradicts = holds;
		if (contradicts)
			g_array_append_val(answer->offending, i);
	}
	answer->monotone = answer->offending->len == 0;
}

static guint
lookup_point(const PlanSearch *s, const guint *counts)
{
	g_autofree char *key = point_key(s, counts);

	return GPOINTER_TO_UINT(g_hash_table_lookup(s->index, key)) - 1;
}

static double
cost_of(const PlanSearch *s, const guint *counts)
{
	double cost = 0.0;

	if (s->spec->costs->len == 0)
		return NAN;
	for (guint p = 0; p < s->spec->pools->len; p++)
		cost += counts[p] * g_array_index(s->spec->costs, double, p);
	return cost;
}

/* "; at the max jct_p99 is 40s (bound 64.84s), not <= 60s" */
static void
append_failure(GString *why, const char *where, const RptPlanSlo *slo, const RptPlanMeasure *m)
{
	g_autofree char *mean = rpt_plan_value_to_string(m->stat.mean, slo->unit);
	g_autofree char *bound = rpt_plan_value_to_string(m->bound, slo->unit);
	g_autofree char *value = rpt_plan_value_to_string(slo->value, slo->unit);

	g_string_append_printf(why, "; %s %s is %s (bound %s), not %s %s", where, slo->metric, mean,
	                       bound, slo->op, value);
}

/* "not met" with the closest point (every pool at max) and what failed there. */
static void
set_not_met(PlanSearch *s, guint mode)
{
	RptPlanAnswer *answer = &s->plan->answers[mode];
	const PlanSpec *spec = s->spec;
	GString *why = g_string_new(NULL);
	RptPlanPoint *point;

	for (guint p = 0; p < spec->pools->len; p++)
		s->counts[p] = spec->max;
	answer->met = FALSE;
	answer->point = lookup_point(s, s->counts);
	point = g_ptr_array_index(s->plan->points, answer->point);
	if (spec->pools->len == 1)
		g_string_append_printf(why, "no count of pool %s up to %u meets the SLOs",
		                       (const char *)g_ptr_array_index(spec->pools, 0), spec->max);
	else
		g_string_append_printf(why, "no mix with each pool up to %u meets the SLOs",
		                       spec->max);
	if (point->error != NULL)
		g_string_append_printf(why, "; at the max the runs failed: %s", point->error);
	for (guint k = 0; point->error == NULL && k < s->plan->n_slos; k++) {
		const RptPlanMeasure *m = rpt_plan_point_measure(s->plan, point, mode, k);

		if (m->verdict == RPT_PLAN_UNDEFINED)
			g_string_append_printf(why, "; at the max %s is undefined in some seed",
			                       s->plan->slos[k].metric);
		else if (m->verdict == RPT_PLAN_FAILS)
			append_failure(why, "at the max", &s->plan->slos[k], m);
	}
	answer->reason = g_string_free(why, FALSE);
}

/* "dgx=3 a100=0" */
static char *
counts_text(const PlanSearch *s, const guint *counts)
{
	GString *out = g_string_new(NULL);

	for (guint p = 0; p < s->spec->pools->len; p++)
		g_string_append_printf(out, "%s%s=%u", p ? " " : "",
		                       (const char *)g_ptr_array_index(s->spec->pools, p),
		                       counts[p]);
	return g_string_free(out, FALSE);
}

/*
 * "not met" because a ceiling (an SLO more nodes make worse) fails at the
 * smallest count where every other SLO holds: a larger count only makes it
 * worse, a smaller one fails the others.
 */
static void
set_not_met_ceiling(PlanSearch *s, guint mode, const guint *counts)
{
	RptPlanAnswer *answer = &s->plan->answers[mode];
	g_autofree char *where = counts_text(s, counts);
	g_autofree char *at = g_strdup_printf("at %s", where);
	GString *why = g_string_new(NULL);
	RptPlanPoint *point;

	answer->met = FALSE;
	answer->point = lookup_point(s, counts);
	point = g_ptr_array_index(s->plan->points, answer->point);
	g_string_append_printf(why,
	                       "no count meets every SLO: %s is the smallest count where the SLOs "
	                       "that more nodes help hold",
	                       where);
	for (guint k = 0; k < s->plan->n_slos; k++) {
		const RptPlanMeasure *m = rpt_plan_point_measure(s->plan, point, mode, k);

		if (s->ceiling[k] && m->verdict != RPT_PLAN_HOLDS)
			append_failure(why, at, &s->plan->slos[k], m);
	}
	g_string_append(why, "; more nodes only make that worse (it held at the min and fails at "
	                     "the max)");
	answer->reason = g_string_free(why, FALSE);
}

/* Every SLO holds at @counts (evaluated): the ceilings too. */
static gboolean
all_hold(PlanSearch *s, guint mode, const guint *counts)
{
	const RptPlanPoint *point = g_ptr_array_index(s->plan->points, lookup_point(s, counts));

	return rpt_plan_point_holds(s->plan, point, mode);
}

static void
set_met(PlanSearch *s, guint mode, const guint *counts)
{
	RptPlanAnswer *answer = &s->plan->answers[mode];

	answer->met = TRUE;
	memcpy(answer->counts, counts, sizeof(guint) * s->spec->pools->len);
	answer->point = lookup_point(s, counts);
	answer->cost = cost_of(s, counts);
}

static gboolean
search_one_pool(PlanSearch *s, guint mode, GError **error)
{
	guint answer;
	gboolean met;

	if (!bisect_last(s, mode, s->counts, &answer, &met, error))
		return FALSE;
	if (met && all_hold(s, mode, s->counts))
		set_met(s, mode, s->counts);
	else if (met)
		set_not_met_ceiling(s, mode, s->counts);
	else
		set_not_met(s, mode);
	check_monotone(s, mode);
	return TRUE;
}

/* The next combination of the first n-1 pools' counts in lexical order. Returns: FALSE after the
 * last. */
static gboolean
next_prefix(const PlanSpec *spec, guint *prefix)
{
	for (guint p = spec->pools->len - 1; p-- > 0;) {
		if (prefix[p] < spec->max) {
			prefix[p]++;
			return TRUE;
		}
		prefix[p] = spec->min;
	}
	return FALSE;
}

typedef struct {
	gboolean found;
	guint *counts;
	double cost;
	guint nodes;
} PlanBest;

static guint
nodes_of(const PlanSpec *spec, const guint *counts)
{
	guint nodes = 0;

	for (guint p = 0; p < spec->pools->len; p++)
		nodes += counts[p];
	return nodes;
}

/* Cheaper, or as cheap with fewer nodes (combinations come in lexical order, so on a full
 * tie the earlier, lexically smaller one stays). */
static gboolean
better(const PlanSpec *spec, const PlanBest *best, const guint *counts, double cost)
{
	double slack = 1e-9 * MAX(1.0, fabs(best->cost));

	if (!best->found || cost < best->cost - slack)
		return TRUE;
	return cost <= best->cost + slack && nodes_of(spec, counts) < best->nodes;
}

static gboolean
search_mix(PlanSearch *s, guint mode, GError **error)
{
	const PlanSpec *spec = s->spec;
	guint n = spec->pools->len;
	g_autofree guint *prefix = g_new(guint, n);
	PlanBest best = { .counts = g_new0(guint, n) };
	gboolean ok = TRUE;

	for (guint p = 0; p < n; p++)
		prefix[p] = spec->min;
	do {
		guint answer;
		gboolean met;

		memcpy(s->counts, prefix, sizeof(guint) * n);
		s->counts[n - 1] = spec->min;
		/* the cheapest this combination can be; no point bisecting when it is dearer */
		if (best.found && cost_of(s, s->counts) > best.cost + 1e-9 * MAX(1.0, best.cost))
			continue;
		if (!(ok = bisect_last(s, mode, s->counts, &answer, &met, error)))
			break;
		if (met && all_hold(s, mode, s->counts) &&
		    better(spec, &best, s->counts, cost_of(s, s->counts))) {
			best.found = TRUE;
			memcpy(best.counts, s->counts, sizeof(guint) * n);
			best.cost = cost_of(s, s->counts);
			best.nodes = nodes_of(spec, s->counts);
		}
	} while (next_prefix(spec, prefix));
	if (ok) {
		if (best.found)
			set_met(s, mode, best.counts);
		else
			set_not_met(s, mode);
		check_monotone(s, mode);
	}
	g_free(best.counts);
	return ok;
}

static RptPlan *
plan_new_for(const PlanSpec *spec)
{
	g_autofree const char **modes = g_new0(const char *, spec->modes->len + 1);
	g_autofree const char **pools = g_new0(const char *, spec->pools->len + 1);
	gboolean shapes = spec->shapes->len == spec->pools->len;
	RptPlan *plan;

	for (guint m = 0; m < spec->modes->len; m++)
		modes[m] = g_ptr_array_index(spec->modes, m);
	for (guint p = 0; p < spec->pools->len; p++)
		pools[p] = g_ptr_array_index(spec->pools, p);
	plan = rpt_plan_new(spec->scenario, pools,
	                    shapes ? (const char *const *)spec->shapes->pdata : NULL,
	                    spec->costs->len ? (const double *)(gpointer)spec->costs->data : NULL,
	                    spec->pools->len, modes, spec->modes->len, spec->slos->len,
	                    (const uint64_t *)(gpointer)spec->seeds->data, spec->seeds->len,
	                    spec->confidence, spec->min, spec->max);
	for (guint k = 0; k < spec->slos->len; k++) {
		const PlanSlo *slo = &g_array_index(spec->slos, PlanSlo, k);

		rpt_plan_set_slo(plan, k, slo->text, slo->metric, plan_op_to_string(slo->op),
		                 slo->value, slo->unit);
	}
	return plan;
}

RptPlan *
plan_search(const PlanSpec *spec, PlanEvalFunc eval, gpointer user_data, GError **error)
{
	g_autoptr(RptPlan) plan = NULL;
	g_autoptr(GHashTable) index = NULL;
	g_autofree guint *counts = NULL;
	g_autofree gboolean *ceiling = NULL;
	PlanSearch s;

	g_return_val_if_fail(spec->modes->len > 0 && spec->seeds->len > 0, NULL);
	if (!plan_spec_check(spec, error))
		return NULL;
	plan = plan_new_for(spec);
	index = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	counts = g_new0(guint, spec->pools->len);
	ceiling = g_new0(gboolean, spec->slos->len);
	s = (PlanSearch){ .spec = spec,
		          .eval = eval,
		          .user_data = user_data,
		          .plan = plan,
		          .index = index,
		          .counts = counts,
		          .ceiling = ceiling };
	for (guint m = 0; m < spec->modes->len; m++) {
		gboolean ok;

		memset(ceiling, 0, sizeof(gboolean) * spec->slos->len);
		ok = spec->pools->len == 1 ? search_one_pool(&s, m, error)
		                           : search_mix(&s, m, error);

		if (!ok)
			return NULL;
	}
	return g_steal_pointer(&plan);
}
