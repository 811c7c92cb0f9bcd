/*
 * test_plan_slo.c: SLO expressions (sim/plan/plan_slo.c): the grammar, the
 * units each metric takes, the errors, and the verdict on a confidence bound.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"

typedef struct {
	const char *text;
	const char *metric;
	PlanOp op;
	double value; /* in the report unit */
	const char *unit;
} GoodCase;

static void
test_parse_good(void **state)
{
	/* each value converted by hand: 1.5m = 90 s, 250ms = 0.25 s, 2h = 7200 s, 80% = 0.8 */
	static const GoodCase cases[] = {
		{ "pods_pending == 0", "pods_pending", PLAN_OP_EQ, 0, "pods" },
		{ "pods_pending==0", "pods_pending", PLAN_OP_EQ, 0, "pods" },
		{ "  scheduling_latency_p99 <= 60s ", "scheduling_latency_p99", PLAN_OP_LE, 60,
		  "s" },
		{ "scheduling_latency_p99<=60", "scheduling_latency_p99", PLAN_OP_LE, 60, "s" },
		{ "scheduling_latency_p90 <= 1.5m", "scheduling_latency_p90", PLAN_OP_LE, 90, "s" },
		{ "scheduling_latency_p50<250ms", "scheduling_latency_p50", PLAN_OP_LT, 0.25, "s" },
		{ "jct_p99 < 2h", "jct_p99", PLAN_OP_LT, 7200, "s" },
		{ "gpu_allocation_ratio_time_weighted >= 0.8", "gpu_allocation_ratio_time_weighted",
		  PLAN_OP_GE, 0.8, "ratio" },
		{ "gpu_allocation_ratio_final>80%", "gpu_allocation_ratio_final", PLAN_OP_GT, 0.8,
		  "ratio" },
		{ "slowdown_p99 <= 2x", "slowdown_p99", PLAN_OP_LE, 2, "x" },
		{ "oom_kills <= 3", "oom_kills", PLAN_OP_LE, 3, "kills" },
		{ "evictions == 0", "evictions", PLAN_OP_EQ, 0, "evictions" },
		{ "scheduling_cycles < 100", "scheduling_cycles", PLAN_OP_LT, 100, "cycles" },
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autofree char *trimmed = NULL;
		PlanSlo slo;

		assert_true(plan_slo_parse(cases[i].text, &slo, &error));
		assert_null(error);
		assert_string_equal(slo.metric, cases[i].metric);
		assert_int_equal(slo.op, cases[i].op);
		assert_true(fabs(slo.value - cases[i].value) < 1e-12);
		assert_string_equal(slo.unit, cases[i].unit);
		trimmed = g_strstrip(g_strdup(cases[i].text));
		assert_string_equal(slo.text, trimmed);
		plan_slo_clear(&slo);
	}
}

typedef struct {
	const char *text;
	const char *expect[3]; /* substrings of the message */
} BadCase;

static void
test_parse_bad(void **state)
{
	static const BadCase cases[] = {
		/* an unknown metric lists the valid ones */
		{ "pod_pending == 0",
		  { "unknown metric 'pod_pending'", "pods_pending", "scheduling_latency_p99" } },
		{ "scheduling_latency <= 60s", { "unknown metric 'scheduling_latency'", "_p99" } },
		/* a schema v1 name says what it became */
		{ "pods_oom_killed <= 3",
		  { "metric 'pods_oom_killed' was renamed to 'oom_kills'", "report schema v2",
		    "oom_kills <= 3" } },
		{ "pods_evicted == 0", { "renamed to 'evictions'", "evictions == 0" } },
		{ "oom_kills <= 3s", { "'s' does not fit oom_kills", "a count" } },
		/* operators */
		{ "pods_pending = 0", { "'=' is not an operator", "<=, <, >=, >, ==" } },
		{ "pods_pending != 0", { "'!=' is not an operator", "<=, <, >=, >, ==" } },
		{ "pods_pending =< 0", { "'=<' is not an operator" } },
		{ "pods_pending", { "expected an operator after 'pods_pending'" } },
		/* values and units */
		{ "pods_pending <=", { "expected a value after '<='", "a count" } },
		{ "pods_pending <= 3s",
		  { "'s' does not fit pods_pending", "a count: a plain number" } },
		{ "scheduling_latency_p99 <= 60 minutes",
		  { "'minutes' does not fit", "s, ms, m or h" } },
		{ "gpu_allocation_ratio_final >= 80s",
		  { "'s' does not fit", "a percentage (80%)" } },
		{ "slowdown_p99 <= 2s", { "a slowdown factor" } },
		{ "pods_pending <= nan", { "expected a value" } },
		{ "", { "expected METRIC OP VALUE", "pods_pending == 0" } },
		{ "<= 3", { "expected METRIC OP VALUE" } },
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		PlanSlo slo;

		assert_false(plan_slo_parse(cases[i].text, &slo, &error));
		assert_non_null(error);
		assert_true(g_error_matches(error, PLAN_ERROR, PLAN_ERROR_SLO));
		for (guint k = 0; k < 3 && cases[i].expect[k]; k++) {
			if (strstr(error->message, cases[i].expect[k]) == NULL)
				fail_msg("'%s': '%s' lacks '%s'", cases[i].text, error->message,
				         cases[i].expect[k]);
		}
		assert_null(slo.metric);
	}
}

static RptStat
stat_of(guint n, double mean, double low, double high)
{
	return (RptStat){ .n = n,
		          .mean = mean,
		          .sd = n > 1 ? 1.0 : (double)NAN,
		          .ci_low = low,
		          .ci_high = high };
}

typedef struct {
	const char *slo;
	RptStat stat;
	guint n_runs;
	RptPlanVerdict verdict;
	double bound;
} JudgeCase;

static void
test_judge(void **state)
{
	/*
	 * A latency whose mean (50 s) meets "<= 60s" but whose 95 % interval
	 * [30, 70] does not: the upper bound 70 is judged, so it fails. ">="
	 * judges the lower bound. One seed: the value is its own bound. A metric
	 * missing in one of three seeds (n = 2 of 3 runs) is undefined.
	 */
	const JudgeCase cases[] = {
		{ "scheduling_latency_p99 <= 60s", stat_of(3, 50, 30, 70), 3, RPT_PLAN_FAILS, 70 },
		{ "scheduling_latency_p99 <= 70s", stat_of(3, 50, 30, 70), 3, RPT_PLAN_HOLDS, 70 },
		{ "scheduling_latency_p99 < 70s", stat_of(3, 50, 30, 70), 3, RPT_PLAN_FAILS, 70 },
		{ "scheduling_latency_p99 >= 40s", stat_of(3, 50, 30, 70), 3, RPT_PLAN_FAILS, 30 },
		{ "scheduling_latency_p99 >= 30s", stat_of(3, 50, 30, 70), 3, RPT_PLAN_HOLDS, 30 },
		{ "scheduling_latency_p99 > 30s", stat_of(3, 50, 30, 70), 3, RPT_PLAN_FAILS, 30 },
		{ "scheduling_latency_p99 <= 60s", stat_of(1, 50, NAN, NAN), 1, RPT_PLAN_HOLDS,
		  50 },
		{ "pods_pending == 0", stat_of(5, 0, 0, 0), 5, RPT_PLAN_HOLDS, 0 },
		{ "pods_pending == 0", stat_of(1, 0, NAN, NAN), 1, RPT_PLAN_HOLDS, 0 },
		/* mean 0.4 of seeds {0, 0, 1, 0, 1}: interval [-0.27, 1.07], both must be 0 */
		{ "pods_pending == 0", stat_of(5, 0.4, -0.27, 1.07), 5, RPT_PLAN_FAILS, 1.07 },
		{ "pods_pending == 4", stat_of(1, 4, NAN, NAN), 1, RPT_PLAN_HOLDS, 4 },
		{ "scheduling_latency_p99 <= 60s", stat_of(2, 10, 5, 15), 3, RPT_PLAN_UNDEFINED,
		  NAN },
		{ "scheduling_latency_p99 <= 60s", stat_of(0, NAN, NAN, NAN), 1, RPT_PLAN_UNDEFINED,
		  NAN },
		{ "scheduling_latency_p99 <= 60s", stat_of(0, NAN, NAN, NAN), 0, RPT_PLAN_ERROR,
		  NAN },
	};

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		PlanSlo slo;
		double bound = 0;

		assert_true(plan_slo_parse(cases[i].slo, &slo, NULL));
		assert_int_equal(plan_slo_judge(&slo, &cases[i].stat, cases[i].n_runs, &bound),
		                 cases[i].verdict);
		if (isnan(cases[i].bound))
			assert_true(isnan(bound));
		else
			assert_true(fabs(bound - cases[i].bound) < 1e-12);
		plan_slo_clear(&slo);
	}
}

static void
test_metric_table(void **state)
{
	const char *const *names = rpt_metric_names();
	const char *unit = NULL;
	guint n = 0;

	(void)state;
	while (names[n] != NULL)
		n++;
	/* 7 pod counts, 5 ratios, 3 x 3 percentiles, 5 call counts, events_applied */
	assert_int_equal(n, 27);
	assert_true(rpt_metric_lookup("jct_p90", &unit));
	assert_string_equal(unit, "s");
	assert_true(rpt_metric_lookup("fragmentation", &unit));
	assert_string_equal(unit, "ratio");
	assert_false(rpt_metric_lookup("jct", &unit));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_judge),
		cmocka_unit_test(test_metric_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
