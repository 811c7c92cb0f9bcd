/*
 * test_chart.c: the chart module's axes (rpt_chart.c) and the report page's
 * summary sentence (rpt_html_compare.c), with every expected value worked
 * out by hand in the comments.
 */
#include <math.h>
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "rpt-chart-private.h"
#include "rpt-private.h"

/* The tick labels of @kind over [lo, hi], joined with spaces, and the resolved range. */
static char *
ticks_text(RptAxisKind kind, gboolean integral, double lo, double hi, double range[2])
{
	RptAxis axis = { kind, NULL, (double)NAN, (double)NAN, NULL, 0, integral };

	double ticks[RPT_CHART_MAX_TICKS];
	guint n = rpt_chart_ticks(&axis, lo, hi, ticks, range);
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < n; i++) {
		char label[32];

		rpt_chart_tick_label(label, sizeof label, &axis, ticks[i]);
		g_string_append_printf(out, "%s%s", i ? " " : "", label);
	}
	return g_string_free(out, FALSE);
}

#define INTEGRAL_NUMBER (-1)

static void
test_ticks(void **state)
{
	static const struct {
		int kind; /* an RptAxisKind, or INTEGRAL_NUMBER: a number axis of whole values */
		double lo, hi;
		const char *ticks;
		double range_lo, range_hi;
	} cases[] = {
		/* a day: 3 h steps give 8 intervals (9 ticks > 8), 6 h give 4 */
		{ RPT_AXIS_TIME, 0, 86400, "0 6h 12h 18h 1d", 0, 86400 },
		/* 0..72 pods: step 10 is 8 intervals, 20 covers 0..80 in 4 */
		{ RPT_AXIS_NUMBER, 0, 72, "0 20 40 60 80", 0, 80 },
		/* a ratio 0..1: step 0.1 is 10 intervals, 0.2 is 5 */
		{ RPT_AXIS_PERCENT, 0, 1, "0% 20% 40% 60% 80% 100%", 0, 1 },
		/* all zero: [0, 0] becomes [0, 1], never a 0-0 axis */
		{ RPT_AXIS_NUMBER, 0, 0, "0 0.2 0.4 0.6 0.8 1", 0, 1 },
		/* one value 50: +-10 % -> [45, 55]; step 2 is 5 intervals from 44 to 56 */
		{ RPT_AXIS_NUMBER, 50, 50, "44 46 48 50 52 54 56", 44, 56 },
		/* 3.5 h: 30 min is 7 intervals (8 ticks) */
		{ RPT_AXIS_TIME, 0, 12600, "0 30min 1h 1h30min 2h 2h30min 3h 3h30min", 0, 12600 },
		/* slowdown 1..228: three decades 1, 10, 100, 1000 */
		{ RPT_AXIS_LOG, 1, 228, "1 10 100 1000", 1, 1000 },
		/* slowdown 1..1.4: one decade gets 1, 2, 5, 10 */
		{ RPT_AXIS_LOG, 1, 1.4, "1 2 5 10", 1, 10 },
		/* 3..5 nodes: span 2 / 8 puts the decade at 0.1 and the step at 0.5 (3 3.5 4 ...)
		 */
		{ RPT_AXIS_NUMBER, 3, 5, "3 3.5 4 4.5 5", 3, 5 },
		/* the same whole-valued: the decade is raised to 1, step 1 is 2 intervals */
		{ INTEGRAL_NUMBER, 3, 5, "3 4 5", 3, 5 },
		/* whole 0..72 keeps its step 20: integral only forbids steps below 1 */
		{ INTEGRAL_NUMBER, 0, 72, "0 20 40 60 80", 0, 80 },
		/* one whole value 4: widened to [3.6, 4.4], step 1 covers 3..5 */
		{ INTEGRAL_NUMBER, 4, 4, "3 4 5", 3, 5 },
	};

	(void)state;
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		double range[2];
		gboolean integral = cases[i].kind == INTEGRAL_NUMBER;
		RptAxisKind kind = integral ? RPT_AXIS_NUMBER : (RptAxisKind)cases[i].kind;
		g_autofree char *text = ticks_text(kind, integral, cases[i].lo, cases[i].hi, range);

		assert_string_equal(text, cases[i].ticks);
		assert_float_equal(range[0], cases[i].range_lo, 1e-9);
		assert_float_equal(range[1], cases[i].range_hi, 1e-9);
	}
}

static void
test_duration(void **state)
{
	static const struct {
		double seconds;
		const char *text;
	} cases[] = {
		{ 0, "0" },           { 0.25, "250ms" },   { 1.5, "1.5s" }, { 45, "45s" },
		{ 150, "2min30s" },   { 5400, "1h30min" }, { 21600, "6h" }, { 86400, "1d" },
		{ 108000, "1d6h" },   { 90061, "1d1h" }, /* 1d 1h 1min 1s: two largest units */
		{ 86700, "1d" }, /* 1d 0h 5min: the units stop at the first gap */
		{ -150, "-2min30s" }, { NAN, "-" },
	};

	(void)state;
	for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
		char buf[32];

		rpt_chart_duration(buf, sizeof buf, cases[i].seconds);
		assert_string_equal(buf, cases[i].text);
	}
}

static void
test_wait_phrase(void **state)
{
	g_autofree char *resource = rpt_html__wait_phrase(
	        "0/2 nodes are available: 2 Insufficient nvidia.com/mig-1g.10gb. no new claims to "
	        "deallocate, preemption: 0/2 nodes are available: 2 No preemption victims found.");
	/* the largest item wins: 3 > 1 */
	g_autofree char *largest = rpt_html__wait_phrase(
	        "0/4 nodes are available: 1 Insufficient nvidia.com/gpu, 3 cannot allocate all "
	        "claims. still not schedulable");

	(void)state;
	assert_string_equal(resource, "for nvidia.com/mig-1g.10gb");
	assert_string_equal(largest, "with \u201ccannot allocate all claims\u201d");
}

static void
add_wait(RptMode *mode, const char *pod, const char *resource)
{
	g_autofree char *message =
	        g_strdup_printf("0/2 nodes are available: 2 Insufficient %s.", resource);

	rpt_mode_add_pod_reason(mode, pod, 1000000, message, NULL);
}

static void
test_summary_sentence(void **state)
{
	g_autoptr(RptReport) report = rpt_report_new("small", NULL, 1, "test");
	RptMode *dra = rpt_mode_add(report, "dra");
	RptMode *extended = rpt_mode_add(report, "extended");
	g_autofree char *sentence = NULL;

	(void)state;
	/* dra: 72 of 72 scheduled, nobody waited; extended: 60 of 72, 12 waited for a MIG
	 * profile (10 for 1g.10gb, 2 for 3g.40gb), all 12 still pending */
	rpt_mode_set_metric(dra, "pods_submitted", 72, "pods");
	rpt_mode_set_metric(dra, "pods_scheduled", 72, "pods");
	rpt_mode_set_metric(dra, "pods_pending", 0, "pods");
	rpt_mode_set_metric(extended, "pods_submitted", 72, "pods");
	rpt_mode_set_metric(extended, "pods_scheduled", 60, "pods");
	rpt_mode_set_metric(extended, "pods_pending", 12, "pods");
	add_wait(extended, "nb-large-0", "nvidia.com/mig-3g.40gb");
	for (guint i = 0; i < 10; i++) {
		g_autofree char *pod = g_strdup_printf("nb-small-%u", i);

		add_wait(extended, pod, "nvidia.com/mig-1g.10gb");
	}
	add_wait(extended, "nb-large-1", "nvidia.com/mig-3g.40gb");
	sentence = rpt_html__summary_sentence(report);
	/* 10 > 2 puts 1g.10gb first though 3g.40gb waited first */
	assert_string_equal(sentence, "dra scheduled 72 of 72 pods, extended 60. No pod waited in "
	                              "dra. In extended 12 pods waited, 12 still pending at the "
	                              "end: 10 for nvidia.com/mig-1g.10gb, 2 for "
	                              "nvidia.com/mig-3g.40gb.");
	/* the baseline: the first mode unless set; an unknown name changes nothing */
	assert_string_equal(rpt_report_get_baseline(report), "dra");
	assert_false(rpt_report_set_baseline(report, "dr"));
	assert_true(rpt_report_set_baseline(report, "extended"));
	assert_string_equal(rpt_report_get_baseline(report), "extended");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ticks),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_wait_phrase),
		cmocka_unit_test(test_summary_sentence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
