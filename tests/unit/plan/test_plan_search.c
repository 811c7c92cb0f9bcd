/*
 * test_plan_search.c: the capacity search (sim/plan/plan_search.c) driven
 * by synthetic evaluators. Each test writes down, worked by hand, the exact
 * sequence of points the search must evaluate and the answer it must give.
 * The SLO is "pods_pending == 0"; a synthetic point reports 0 pending pods
 * (one seed) where the rule under test says it holds, else 4.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"

typedef gboolean (*HoldsRule)(guint mode, const guint *counts);

typedef struct {
	HoldsRule holds;
	guint n_modes;
	guint n_pools;
	GString *sequence;   /* "64 32 ..." or "0,3 1,3 ..." */
	const char *fail_at; /* the counts ("1,2") whose runs fail, or NULL */
	gboolean abort;      /* return FALSE (an I/O error) on the first point */
} Synth;

static gboolean
synth_eval(const guint *counts,
           RptPlanMeasure *measures,
           char **failure_out,
           gpointer user_data,
           GError **error)
{
	Synth *synth = user_data;
	GString *key = g_string_new(NULL);

	if (synth->abort) {
		g_string_free(key, TRUE);
		g_set_error(error, PLAN_ERROR, PLAN_ERROR_EVAL, "points/x: cannot write: No space");
		return FALSE;
	}
	for (guint p = 0; p < synth->n_pools; p++)
		g_string_append_printf(key, "%s%u", p ? "," : "", counts[p]);
	g_string_append_printf(synth->sequence, "%s%s", synth->sequence->len ? " " : "", key->str);
	if (g_strcmp0(synth->fail_at, key->str) == 0) {
		*failure_out = g_strdup("scenario.yaml:3:1: error: boom");
		g_string_free(key, TRUE);
		return TRUE;
	}
	g_string_free(key, TRUE);
	for (guint m = 0; m < synth->n_modes; m++) {
		double pending = synth->holds(m, counts) ? 0.0 : 4.0;

		measures[m] = (RptPlanMeasure){
			.stat = { .n = 1,
			          .mean = pending,
			          .sd = NAN,
			          .ci_low = NAN,
			          .ci_high = NAN },
			.n_runs = 1,
		};
	}
	return TRUE;
}

static PlanSpec *
spec_new(guint n_modes, const char *const *pools, const double *costs, guint min, guint max)
{
	PlanSpec *spec = plan_spec_new("synthetic.yaml");
	PlanSlo slo;
	guint64 seed = 1;

	for (guint p = 0; pools[p] != NULL; p++) {
		g_ptr_array_add(spec->pools, g_strdup(pools[p]));
		if (costs != NULL)
			g_array_append_val(spec->costs, costs[p]);
	}
	for (guint m = 0; m < n_modes; m++)
		g_ptr_array_add(spec->modes, g_strdup_printf("mode%u", m));
	assert_true(plan_slo_parse("pods_pending == 0", &slo, NULL));
	g_array_append_val(spec->slos, slo);
	g_array_append_val(spec->seeds, seed);
	spec->min = min;
	spec->max = max;
	return spec;
}

static RptPlan *
run(PlanSpec *spec, Synth *synth, GError **error)
{
	synth->n_modes = spec->modes->len;
	synth->n_pools = spec->pools->len;
	synth->sequence = g_string_new(NULL);
	return plan_search(spec, synth_eval, synth, error);
}

static const char *const one_pool[] = { "dgx", NULL };

/* 20 one-GPU pods on 8-GPU nodes: 20 - 8c pending, none from c = 3 on */
static gboolean
step_at_3(guint mode, const guint *counts)
{
	return counts[0] >= 3;
}

static void
test_monotone_step(void **state)
{
	g_autoptr(PlanSpec) spec = spec_new(1, one_pool, NULL, 1, 64);
	Synth synth = { .holds = step_at_3 };
	g_autoptr(RptPlan) plan = run(spec, &synth, NULL);

	(void)state;
	/*
	 * 64 first (holds), then bisection of [1, 64] keeping hi holding:
	 * mid 32 holds (hi 32), 16 (hi 16), 8 (hi 8), 4 (hi 4); [1, 4]: mid 2
	 * fails (lo 3); [3, 4]: mid 3 holds (hi 3). Answer 3; the explicit
	 * checks of 3 and 2 hit the cache.
	 */
	assert_string_equal(synth.sequence->str, "64 32 16 8 4 2 3");
	assert_true(plan->answers[0].met);
	assert_int_equal(plan->answers[0].counts[0], 3);
	assert_int_equal(plan->answers[0].point, 6);
	assert_true(plan->answers[0].monotone);
	assert_true(isnan(plan->answers[0].cost));
	g_string_free(synth.sequence, TRUE);
}

static gboolean
never(guint mode, const guint *counts)
{
	return FALSE;
}

static void
test_never_holds(void **state)
{
	g_autoptr(PlanSpec) spec = spec_new(1, one_pool, NULL, 1, 64);
	Synth synth = { .holds = never };
	g_autoptr(RptPlan) plan = run(spec, &synth, NULL);

	(void)state;
	/* the max fails, and so does the min (1), evaluated to tell an SLO more nodes make worse:
	 * no bisection, two points, a clear answer */
	assert_string_equal(synth.sequence->str, "64 1");
	assert_false(plan->answers[0].met);
	assert_int_equal(plan->answers[0].point, 0);
	assert_non_null(strstr(plan->answers[0].reason,
	                       "no count of pool dgx up to 64 meets the SLOs; at the max "
	                       "pods_pending is 4 (bound 4), not == 0"));
	assert_true(plan->answers[0].monotone);
	g_string_free(synth.sequence, TRUE);
}

static gboolean
always(guint mode, const guint *counts)
{
	return TRUE;
}

static void
test_holds_at_min(void **state)
{
	g_autoptr(PlanSpec) spec = spec_new(1, one_pool, NULL, 1, 64);
	Synth synth = { .holds = always };
	g_autoptr(RptPlan) plan = run(spec, &synth, NULL);

	(void)state;
	/* every mid holds: 32 16 8 4 2, then [1, 2]: mid 1 holds; nothing below --min 1 */
	assert_string_equal(synth.sequence->str, "64 32 16 8 4 2 1");
	assert_int_equal(plan->answers[0].counts[0], 1);
	assert_true(plan->answers[0].monotone);
	g_string_free(synth.sequence, TRUE);
}

/* mode 0: monotone, from 3 on; mode 1: holds at 2 and from 5 on (not monotone) */
static gboolean
two_modes(guint mode, const guint *counts)
{
	return mode == 0 ? counts[0] >= 3 : counts[0] == 2 || counts[0] >= 5;
}

static void
test_not_monotone(void **state)
{
	g_autoptr(PlanSpec) spec = spec_new(2, one_pool, NULL, 1, 64);
	Synth synth = { .holds = two_modes };
	g_autoptr(RptPlan) plan = run(spec, &synth, NULL);

	(void)state;
	/*
	 * Mode 0 as in test_monotone_step: 64 32 16 8 4 2 3 (indices 0..6).
	 * Mode 1 reuses them: 64, 32, 16, 8 hold, 4 fails (lo 5, hi 8); mid 6
	 * is new and holds (hi 6), mid 5 is new and holds (hi 5): answer 5.
	 * Count 2 (index 5), below 5, holds for mode 1: not monotone. Mode 0's
	 * points above 3 all hold and 2 fails: monotone.
	 */
	assert_string_equal(synth.sequence->str, "64 32 16 8 4 2 3 6 5");
	assert_int_equal(plan->answers[0].counts[0], 3);
	assert_true(plan->answers[0].monotone);
	assert_int_equal(plan->answers[1].counts[0], 5);
	assert_false(plan->answers[1].monotone);
	assert_int_equal(plan->answers[1].offending->len, 1);
	assert_int_equal(g_array_index(plan->answers[1].offending, guint, 0), 5);
	g_string_free(synth.sequence, TRUE);
}

static const char *const two_pools[] = { "a", "b", NULL };

/* a node of pool a is worth 2 of pool b: it holds when 2a + b >= 4 */
static gboolean
capacity_4(guint mode, const guint *counts)
{
	return 2 * counts[0] + counts[1] >= 4;
}

static void
test_mix_cheapest(void **state)
{
	static const double costs[] = { 10.0, 4.0 };
	g_autoptr(PlanSpec) spec = spec_new(1, two_pools, costs, 0, 3);
	Synth synth = { .holds = capacity_4 };
	g_autoptr(RptPlan) plan = run(spec, &synth, NULL);

	(void)state;
	/*
	 * a = 0: b's max (0,3) fails (3 < 4), and b's min (0,0) too: nothing with a = 0.
	 * a = 1: (1,3) holds; bisect b in [0, 3]: mid 1 (1,1) fails (lo 2),
	 *        mid 2 (1,2) holds (hi 2): 1 x a + 2 x b = 10 + 8 = $18/h.
	 * a = 2: at least 2 x 10 = $20 > $18, skipped; a = 3 ($30) too.
	 */
	assert_string_equal(synth.sequence->str, "0,3 0,0 1,3 1,1 1,2");
	assert_true(plan->answers[0].met);
	assert_int_equal(plan->answers[0].counts[0], 1);
	assert_int_equal(plan->answers[0].counts[1], 2);
	assert_true(fabs(plan->answers[0].cost - 18.0) < 1e-9);
	assert_true(plan->answers[0].monotone);
	g_string_free(synth.sequence, TRUE);
}

static void
test_mix_tie_fewer_nodes(void **state)
{
	static const double costs[] = { 4.0, 2.0 };
	g_autoptr(PlanSpec) spec = spec_new(1, two_pools, costs, 0, 3);
	Synth synth = { .holds = capacity_4 };
	g_autoptr(RptPlan) plan = run(spec, &synth, NULL);

	(void)state;
	/*
	 * a = 0: (0,3) and (0,0) fail. a = 1: (1,3) (1,1) (1,2): 1a + 2b = 4 + 4 = $8, 3 nodes.
	 * a = 2: lower bound 2 x 4 = $8, not dearer, so searched: (2,3) holds,
	 *        mid 1 (2,1) holds (hi 1), mid 0 (2,0) holds (hi 0): 2a = $8, 2 nodes:
	 *        as cheap with fewer nodes, it wins. a = 3: $12 > $8, skipped.
	 */
	assert_string_equal(synth.sequence->str, "0,3 0,0 1,3 1,1 1,2 2,3 2,1 2,0");
	assert_int_equal(plan->answers[0].counts[0], 2);
	assert_int_equal(plan->answers[0].counts[1], 0);
	assert_true(fabs(plan->answers[0].cost - 8.0) < 1e-9);
	g_string_free(synth.sequence, TRUE);
}

static void
test_mix_never(void **state)
{
	static const double costs[] = { 1.0, 1.0 };
	g_autoptr(PlanSpec) spec = spec_new(1, two_pools, costs, 0, 1);
	Synth synth = { .holds = capacity_4 };
	g_autoptr(RptPlan) plan = run(spec, &synth, NULL);

	(void)state;
	/* 2a + b <= 3 < 4 at a, b <= 1: each combination's max fails, and its min */
	assert_string_equal(synth.sequence->str, "0,1 0,0 1,1 1,0");
	assert_false(plan->answers[0].met);
	assert_int_equal(plan->answers[0].point, 2); /* (1,1), every pool at max */
	assert_non_null(strstr(plan->answers[0].reason, "no mix with each pool up to 1"));
	g_string_free(synth.sequence, TRUE);
}

static void
test_failed_runs(void **state)
{
	g_autoptr(PlanSpec) spec = spec_new(1, one_pool, NULL, 1, 8);
	Synth synth = { .holds = step_at_3, .fail_at = "4" };
	g_autoptr(RptPlan) plan = run(spec, &synth, NULL);

	(void)state;
	/*
	 * 8 holds; [1, 8]: mid 4's runs fail, which counts as not holding (lo 5);
	 * [5, 8]: mid 6 holds (hi 6), mid 5 holds (hi 5). Answer 5; 3 was never
	 * evaluated, so nothing contradicts it.
	 */
	assert_string_equal(synth.sequence->str, "8 4 6 5");
	assert_int_equal(plan->answers[0].counts[0], 5);
	assert_string_equal(((RptPlanPoint *)g_ptr_array_index(plan->points, 1))->error,
	                    "scenario.yaml:3:1: error: boom");
	g_string_free(synth.sequence, TRUE);
}

static void
test_eval_error_stops(void **state)
{
	g_autoptr(PlanSpec) spec = spec_new(1, one_pool, NULL, 1, 8);
	Synth synth = { .holds = step_at_3, .abort = TRUE };
	g_autoptr(GError) error = NULL;
	RptPlan *plan = run(spec, &synth, &error);

	(void)state;
	assert_null(plan);
	assert_true(g_error_matches(error, PLAN_ERROR, PLAN_ERROR_EVAL));
	g_string_free(synth.sequence, TRUE);
}

typedef struct {
	const char *const *pools;
	const double *costs;
	guint min, max;
	const char *expect;
} BadSpec;

static void
test_bad_spec(void **state)
{
	static const double one_cost[] = { 1.0 };
	static const double costs[] = { 1.0, 2.0, 3.0 };
	static const char *const three_pools[] = { "a", "b", "c", NULL };
	static const char *const twice[] = { "a", "a", NULL };
	const BadSpec cases[] = {
		{ two_pools, NULL, 0, 3, "a mix of 2 pools needs a cost per node-hour" },
		{ one_pool, NULL, 5, 4, "--min 5 is above --max 4" },
		{ one_pool, one_cost, 1, 200000, "--max 200000 is above 100000" },
		/* 201 x 201 = 40401 combinations of a and b */
		{ three_pools, costs, 0, 200, "more than 10000 combinations of the first 2 pools" },
		{ twice, costs, 0, 3, "pool a is named twice" },
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(PlanSpec) spec =
		        spec_new(1, cases[i].pools, cases[i].costs, cases[i].min, cases[i].max);
		g_autoptr(GError) error = NULL;
		Synth synth = { .holds = always };
		RptPlan *plan = run(spec, &synth, &error);

		assert_null(plan);
		assert_true(g_error_matches(error, PLAN_ERROR, PLAN_ERROR_INPUT));
		if (strstr(error->message, cases[i].expect) == NULL)
			fail_msg("'%s' lacks '%s'", error->message, cases[i].expect);
		/* refused before anything ran */
		assert_string_equal(synth.sequence->str, "");
		g_string_free(synth.sequence, TRUE);
	}
}

/*
 * Two SLOs pulling apart: 20 one-GPU pods on c 8-GPU nodes leave
 * max(0, 20 - 8c) pending and allocate min(20, 8c) / 8c of the GPUs, so
 * pods_pending == 0 needs c >= 3 while a utilisation floor gets worse with
 * every node: 1.0 at c <= 2, 0.833 at 3, 0.625 at 4, 20/512 at 64.
 */
static gboolean
two_slo_eval(const guint *counts,
             RptPlanMeasure *measures,
             char **failure_out,
             gpointer user_data,
             GError **error)
{
	GString *sequence = user_data;
	double c = counts[0];
	double values[2] = { MAX(0.0, 20.0 - 8.0 * c), MIN(20.0, 8.0 * c) / (8.0 * c) };

	(void)failure_out;
	(void)error;
	g_string_append_printf(sequence, "%s%u", sequence->len ? " " : "", counts[0]);
	for (guint k = 0; k < 2; k++)
		measures[k] = (RptPlanMeasure){
			.stat = { .n = 1,
			          .mean = values[k],
			          .sd = NAN,
			          .ci_low = NAN,
			          .ci_high = NAN },
			.n_runs = 1,
		};
	return TRUE;
}

static RptPlan *
run_two_slos(const char *floor, GString *sequence)
{
	g_autoptr(PlanSpec) spec = spec_new(1, one_pool, NULL, 1, 64);
	PlanSlo slo;

	assert_true(plan_slo_parse(floor, &slo, NULL));
	g_array_append_val(spec->slos, slo);
	return plan_search(spec, two_slo_eval, sequence, NULL);
}

static void
test_ceiling_met(void **state)
{
	g_autoptr(GString) sequence = g_string_new(NULL);
	g_autoptr(RptPlan) plan =
	        run_two_slos("gpu_allocation_ratio_time_weighted >= 0.8", sequence);

	(void)state;
	/*
	 * 64 fails (the ratio, 0.039); 1 is evaluated: the ratio holds there (1.0), so it
	 * is an SLO more nodes make worse and leaves the bisection. Bisecting
	 * pods_pending in [1, 64]: 32 16 8 4 hold, 2 fails (4 pending), 3 holds. At 3
	 * the ratio is 0.833 >= 0.8: the answer is 3, monotone.
	 */
	assert_string_equal(sequence->str, "64 1 32 16 8 4 2 3");
	assert_true(plan->answers[0].met);
	assert_int_equal(plan->answers[0].counts[0], 3);
	assert_true(plan->answers[0].monotone);
}

static void
test_ceiling_not_met(void **state)
{
	g_autoptr(GString) sequence = g_string_new(NULL);
	g_autoptr(RptPlan) plan =
	        run_two_slos("gpu_allocation_ratio_time_weighted >= 0.9", sequence);

	(void)state;
	/* the same search; at 3, the smallest count with no pod pending, 0.833 < 0.9: none */
	assert_string_equal(sequence->str, "64 1 32 16 8 4 2 3");
	assert_false(plan->answers[0].met);
	assert_non_null(strstr(plan->answers[0].reason,
	                       "no count meets every SLO: dgx=3 is the smallest count where the "
	                       "SLOs that more nodes help hold; at dgx=3 "
	                       "gpu_allocation_ratio_time_weighted is 0.8333"));
	assert_non_null(strstr(plan->answers[0].reason, "more nodes only make that worse"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monotone_step),    cmocka_unit_test(test_never_holds),
		cmocka_unit_test(test_holds_at_min),     cmocka_unit_test(test_not_monotone),
		cmocka_unit_test(test_mix_cheapest),     cmocka_unit_test(test_mix_tie_fewer_nodes),
		cmocka_unit_test(test_mix_never),        cmocka_unit_test(test_failed_runs),
		cmocka_unit_test(test_eval_error_stops), cmocka_unit_test(test_ceiling_met),
		cmocka_unit_test(test_ceiling_not_met),  cmocka_unit_test(test_bad_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
