/*
 * test_plan_report.c: the plan writers (reports/rpt_plan_*.c) on a plan the
 * search made from a synthetic evaluator: the answer lines, the table of
 * points, plan.json's answers, modes and points, and the HTML page's charts.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "plan.h"

/*
 * Three seeds. Mode "dra": latency p99 = 100 - 20c seconds in every seed
 * (sd 0, so the interval is the point), "extended": 120 - 20c with a
 * spread: mean m, sd 10, the interval m -/+ t(0.975, 2) x 10 / sqrt(3) =
 * m -/+ 4.3027 x 5.7735 = m -/+ 24.8414.
 */
static gboolean
latency_eval(const guint *counts,
             RptPlanMeasure *measures,
             char **failure_out,
             gpointer user_data,
             GError **error)
{
	double dra = 100.0 - 20.0 * counts[0];
	double ext = 120.0 - 20.0 * counts[0];
	double half = 4.302652729911275 * 10.0 / sqrt(3.0);

	measures[0] = (RptPlanMeasure){ .stat = { 3, dra, 0.0, dra, dra }, .n_runs = 3 };
	measures[1] =
	        (RptPlanMeasure){ .stat = { 3, ext, 10.0, ext - half, ext + half }, .n_runs = 3 };
	return TRUE;
}

static RptPlan *
latency_plan(void)
{
	PlanSpec *spec = plan_spec_new("scenarios/x/scenario.yaml");
	guint64 seeds[] = { 1, 2, 3 };
	PlanSlo slo;
	RptPlan *plan;

	g_ptr_array_add(spec->pools, g_strdup("dgx"));
	g_ptr_array_add(spec->shapes, g_strdup("dgx-h100"));
	g_ptr_array_add(spec->modes, g_strdup("dra"));
	g_ptr_array_add(spec->modes, g_strdup("extended"));
	assert_true(plan_slo_parse("scheduling_latency_p99 <= 1m", &slo, NULL));
	g_array_append_val(spec->slos, slo);
	g_array_append_vals(spec->seeds, seeds, 3);
	spec->max = 4;
	plan = plan_search(spec, latency_eval, NULL, NULL);
	plan_spec_free(spec);
	return plan;
}

static void
test_text(void **state)
{
	g_autoptr(RptPlan) plan = latency_plan();
	g_autofree char *text = rpt_plan_text_to_string(plan);

	(void)state;
	/*
	 * dra: 100 - 20c <= 60 from c = 2. Points: 4 (20 s), bisect [1, 4]: 2
	 * (60 s, holds: <= is inclusive), 1 (80 s, fails). extended: 120 - 20c,
	 * upper bound 120 - 20c + 24.8414 <= 60 needs c >= 4.24: not even 4
	 * (40 + 24.8414 = 64.8414 s): not met after the max, whose figures it
	 * names. Columns are as wide as their widest cell (the SLO's header, 28).
	 */
	assert_non_null(strstr(text, "dra: 2 x dgx-h100 (pool dgx)\n"));
	assert_non_null(strstr(text, "extended: not met: no count of pool dgx up to 4 meets the "
	                             "SLOs; at the max scheduling_latency_p99 is 40s (bound "
	                             "64.84s), not <= 60s\n"));
	assert_non_null(strstr(text, "seeds 1-3 (3): an SLO holds when the 95% confidence"));
	/* dra's table in count order, the answer marked */
	assert_non_null(strstr(text, "mode dra: 3 points evaluated\n"
	                             "  dgx  scheduling_latency_p99 <= 1m  all\n"
	                             "  1    80s [80s, 80s] fails          fails\n"
	                             "  2    60s [60s, 60s] holds          holds  answer\n"
	                             "  4    20s [20s, 20s] holds          holds\n"));
	assert_non_null(strstr(text, "  4    40s [15.16s, 64.84s] fails    fails  closest\n"));
}

static void
test_json(void **state)
{
	g_autoptr(RptPlan) plan = latency_plan();
	g_autofree char *text = rpt_plan_json_to_string(plan);
	cJSON *root = cJSON_Parse(text);
	cJSON *answers = cJSON_GetObjectItem(root, "answers");
	cJSON *modes = cJSON_GetObjectItem(root, "modes");
	cJSON *points = cJSON_GetObjectItem(root, "points");
	cJSON *first;

	(void)state;
	assert_non_null(root);
	assert_string_equal(cJSON_GetObjectItem(root, "schema")->valuestring, "drasim.io/plan/v1");
	/* only dra met its SLO: one answer */
	assert_int_equal(cJSON_GetArraySize(answers), 1);
	first = cJSON_GetArrayItem(answers, 0);
	assert_string_equal(cJSON_GetObjectItem(first, "mode")->valuestring, "dra");
	assert_string_equal(cJSON_GetObjectItem(first, "pool")->valuestring, "dgx");
	assert_int_equal(cJSON_GetObjectItem(first, "count")->valueint, 2);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(cJSON_GetArrayItem(modes, 1), "met")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(cJSON_GetArrayItem(modes, 1), "monotone")));
	/* points in evaluation order: 4, 2, 1 */
	assert_int_equal(cJSON_GetArraySize(points), 3);
	assert_int_equal(
	        cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(points, 2), "counts"),
	                            "dgx")
	                ->valueint,
	        1);
	cJSON_Delete(root);
}

static void
test_html(void **state)
{
	g_autoptr(RptPlan) plan = latency_plan();
	g_autofree char *html = rpt_plan_html_to_string(plan);

	(void)state;
	/* one chart per mode and SLO, each with its three points drawn */
	assert_non_null(strstr(html, "id=\"m0-slo0\" data-points=\"3\""));
	assert_non_null(strstr(html, "id=\"m1-slo0\" data-points=\"3\""));
	assert_non_null(strstr(html, "class=\"threshold\""));
	/* the answer line only where there is an answer */
	assert_non_null(strstr(html, "class=\"answer\""));
	assert_non_null(strstr(html, "<title>drasim plan: scenarios/x/scenario.yaml</title>"));
}

/* Seconds from 1000 on are whole (39182.39 s -> "39182s"), below that 4 significant digits. */
static void
test_value_text(void **state)
{
	static const struct {
		double value;
		const char *unit, *text;
	} cases[] = {
		{ 39182.3916, "s", "39182s" }, { 999.94, "s", "999.9s" },
		{ 64.8412, "s", "64.84s" },    { 0.8125, "ratio", "0.8125" },
		{ 3.5, "x", "3.5x" },          { NAN, "s", "n/a" },
	};

	(void)state;
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = rpt_plan_value_to_string(cases[i].value, cases[i].unit);

		assert_string_equal(text, cases[i].text);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_value_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
