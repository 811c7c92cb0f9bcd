/*
 * test_plan_scenarios.c: the search on the real evaluator (sim/plan/plan_eval.c):
 * the analytic plans of scenarios/plan-one-gpu and scenarios/plan-dra-vs-plugin
 * run through sim/sweep's executor, with the points and answers their READMEs
 * work out by hand.
 */
#include "drasim-config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "plan.h"

static RptPlan *
plan_scenario(const char *name, const char *slo_text, guint64 first_seed, guint n_seeds)
{
	g_autofree char *scenario =
	        g_build_filename(DRASIM_SOURCE_ROOT, "scenarios", name, "scenario.yaml", NULL);
	g_autofree char *dir = g_dir_make_tmp("plan-XXXXXX", NULL);
	g_autofree char *points = g_build_filename(dir, "points", NULL);
	g_autoptr(PlanSpec) spec = plan_spec_new(scenario);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(PlanEval) eval = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *rm_argv0 = g_strdup("rm");
	gboolean pool_error;
	PlanSlo slo;
	RptPlan *plan;

	g_ptr_array_add(spec->pools, g_strdup("dgx"));
	assert_true(plan_slo_parse(slo_text, &slo, NULL));
	g_array_append_val(spec->slos, slo);
	for (guint64 s = first_seed; s < first_seed + n_seeds; s++)
		g_array_append_val(spec->seeds, s);
	assert_true(plan_spec_fill_from_scenario(spec, diags, &pool_error, &error));
	assert_true(plan_dir_prepare(spec, 0, dir, &error));
	eval = plan_eval_new(spec, 0, points, 2, FALSE);
	plan = plan_search(spec, plan_eval_point, eval, &error);
	if (plan == NULL)
		fail_msg("%s", error->message);
	{
		char *argv[] = { rm_argv0, (char *)"-rf", dir, NULL };

		g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL,
		             NULL);
	}
	return plan;
}

static void
assert_points(const RptPlan *plan, const guint *counts, guint n)
{
	assert_int_equal(plan->points->len, n);
	for (guint i = 0; i < n; i++)
		assert_int_equal(((RptPlanPoint *)g_ptr_array_index(plan->points, i))->counts[0],
		                 counts[i]);
}

static void
test_one_gpu(void **state)
{
	/*
	 * 20 - 8n pods pending (README): 64 holds; bisect [1, 64]: 32 16 8 4 hold,
	 * 2 fails with 4 pending, 3 holds. 3 nodes in both worlds.
	 */
	static const guint expected[] = { 64, 32, 16, 8, 4, 2, 3 };
	g_autoptr(RptPlan) plan = plan_scenario("plan-one-gpu", "pods_pending == 0", 1, 1);
	RptPlanPoint *two = g_ptr_array_index(plan->points, 5);

	(void)state;
	assert_points(plan, expected, G_N_ELEMENTS(expected));
	assert_int_equal(plan->n_modes, 2);
	for (guint m = 0; m < 2; m++) {
		assert_true(plan->answers[m].met);
		assert_int_equal(plan->answers[m].counts[0], 3);
		assert_true(plan->answers[m].monotone);
		assert_true(fabs(rpt_plan_point_measure(plan, two, m, 0)->stat.mean - 4.0) < 1e-12);
	}
	assert_string_equal(plan->shapes[0], "dgx-h100");
}

static void
test_one_gpu_seeds(void **state)
{
	/* no arrival is random: three seeds, every one 0 pending from 3 nodes on, interval [0, 0]
	 */
	g_autoptr(RptPlan) plan = plan_scenario("plan-one-gpu", "pods_pending == 0", 1, 3);
	RptPlanPoint *three = g_ptr_array_index(plan->points, 6);
	const RptPlanMeasure *m = rpt_plan_point_measure(plan, three, 1, 0);

	(void)state;
	assert_int_equal(plan->answers[1].counts[0], 3);
	assert_int_equal(m->n_runs, 3);
	assert_int_equal(m->stat.n, 3);
	assert_true(fabs(m->stat.ci_low) < 1e-12 && fabs(m->stat.ci_high) < 1e-12);
	assert_int_equal(m->verdict, RPT_PLAN_HOLDS);
}

static void
test_dra_vs_plugin(void **state)
{
	/*
	 * dra-dynamic: 32 - 16n pending: 64 32 16 8 4 hold, [1, 4]: 2 holds, 1
	 * fails: 2. dra-static and extended: 32 - 8n: 2 fails (lo 3), 3 (new)
	 * fails (lo 4): 4.
	 */
	static const guint expected[] = { 64, 32, 16, 8, 4, 2, 1, 3 };
	g_autoptr(RptPlan) plan = plan_scenario("plan-dra-vs-plugin", "pods_pending == 0", 1, 1);

	(void)state;
	assert_points(plan, expected, G_N_ELEMENTS(expected));
	assert_string_equal(plan->modes[0], "dra-dynamic");
	assert_int_equal(plan->answers[0].counts[0], 2);
	assert_string_equal(plan->modes[1], "dra-static");
	assert_int_equal(plan->answers[1].counts[0], 4);
	assert_string_equal(plan->modes[2], "extended");
	assert_int_equal(plan->answers[2].counts[0], 4);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_gpu),
		cmocka_unit_test(test_one_gpu_seeds),
		cmocka_unit_test(test_dra_vs_plugin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
