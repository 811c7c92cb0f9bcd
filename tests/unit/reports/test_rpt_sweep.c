/*
 * test_rpt_sweep.c: the sweep results table and its writers.
 *
 * The CSV and JSON of a small table (two parameters, two modes, a cell with
 * one seed, a metric never defined, a failed run) are compared with text
 * written out by hand; the page is checked for its structure: how many
 * charts, bands, mean lines and points, on which axis.
 */
#include <math.h>
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fake-sweep.h"

static guint
count(const char *haystack, const char *needle)
{
	guint n = 0;

	for (const char *p = strstr(haystack, needle); p; p = strstr(p + 1, needle)) {
		n++;
	}
	return n;
}

static void
test_rpt_sweep__csv_text(void **state)
{
	/* One column per path, then the fixed ones named after 95 %; "[dra, extended]" holds a
	 * comma so it is quoted; NaN is an empty field; n is always there. */
	static const char expected[] =
	        P_COUNT "," P_MODES ",mode,metric,unit,n,mean,sd,ci95_low,ci95_high\n"
	                "2,\"[dra, extended]\",dra,pods_pending,pods,3,2.5,0.5,1.25,3.75\n"
	                "2,\"[dra, extended]\",extended,pods_pending,pods,3,0,0,0,0\n"
	                "4,[dra],dra,scheduling_latency_p99,s,1,12.5,,,\n"
	                "4,[dra],dra,jct_p50,s,0,,,,\n";
	g_autoptr(RptSweep) table = fake_sweep_new();
	g_autofree char *csv = rpt_sweep_csv_to_string(table);

	assert_int_equal(rpt_sweep_get_n_rows(table), 4);
	assert_int_equal(rpt_sweep_get_n_failures(table), 1);
	assert_string_equal(csv, expected);
}

static void
test_rpt_sweep__csv_level_and_quoting(void **state)
{
	/* At 0.9 the columns are ci90_*, at 0.999 ci99.9_*; a path with a comma or a quote
	 * is quoted with the quote doubled (RFC 4180); no parameter: mode comes first. */
	const char *params[] = { "spec.a[name=x,y]", "spec.\"b\"" };
	const char *cell[] = { "1", "say \"hi\"" };
	const RptStat stat = { 2, 1, 0, 1, 1 };
	g_autoptr(RptSweep) quoted = rpt_sweep_new("q", "s.yaml", params, 2, NULL, 0, 0.9);
	g_autoptr(RptSweep) bare = rpt_sweep_new("b", "s.yaml", NULL, 0, NULL, 0, 0.999);
	g_autofree char *csv_quoted = NULL;
	g_autofree char *csv_bare = NULL;

	rpt_sweep_add_row(quoted, cell, "dra", "m", "pods", &stat);
	rpt_sweep_add_row(bare, NULL, "dra", "m", "pods", &stat);
	csv_quoted = rpt_sweep_csv_to_string(quoted);
	csv_bare = rpt_sweep_csv_to_string(bare);
	assert_string_equal(csv_quoted,
	                    "\"spec.a[name=x,y]\",\"spec.\"\"b\"\"\",mode,metric,unit,n,mean,sd,"
	                    "ci90_low,ci90_high\n"
	                    "1,\"say \"\"hi\"\"\",dra,m,pods,2,1,0,1,1\n");
	assert_string_equal(csv_bare, "mode,metric,unit,n,mean,sd,ci99.9_low,ci99.9_high\n"
	                              "dra,m,pods,2,1,0,1,1\n");
}

static void
test_rpt_sweep__json_text(void **state)
{
	/* cJSON's printed form (tabs, "key":<tab>value), the values as their YAML text,
	 * seeds as integers, null for NaN, the failure with its seed and message. */
	static const char expected[] =
	        "{\n"
	        "\t\"schema\":\t\"drasim.io/sweep/v1\",\n"
	        "\t\"name\":\t\"demo\",\n"
	        "\t\"scenario\":\t\"scenarios/x/scenario.yaml\",\n"
	        "\t\"confidence\":\t0.95,\n"
	        "\t\"parameters\":\t[\"" P_COUNT "\", \"" P_MODES "\"],\n"
	        "\t\"seeds\":\t[1, 2, 3],\n"
	        "\t\"rows\":\t[{\n"
	        "\t\t\t\"values\":\t{\n"
	        "\t\t\t\t\"" P_COUNT "\":\t\"2\",\n"
	        "\t\t\t\t\"" P_MODES "\":\t\"[dra, extended]\"\n"
	        "\t\t\t},\n"
	        "\t\t\t\"mode\":\t\"dra\",\n"
	        "\t\t\t\"metric\":\t\"pods_pending\",\n"
	        "\t\t\t\"unit\":\t\"pods\",\n"
	        "\t\t\t\"n\":\t3,\n"
	        "\t\t\t\"mean\":\t2.5,\n"
	        "\t\t\t\"sd\":\t0.5,\n"
	        "\t\t\t\"ci_low\":\t1.25,\n"
	        "\t\t\t\"ci_high\":\t3.75\n"
	        "\t\t}, {\n"
	        "\t\t\t\"values\":\t{\n"
	        "\t\t\t\t\"" P_COUNT "\":\t\"2\",\n"
	        "\t\t\t\t\"" P_MODES "\":\t\"[dra, extended]\"\n"
	        "\t\t\t},\n"
	        "\t\t\t\"mode\":\t\"extended\",\n"
	        "\t\t\t\"metric\":\t\"pods_pending\",\n"
	        "\t\t\t\"unit\":\t\"pods\",\n"
	        "\t\t\t\"n\":\t3,\n"
	        "\t\t\t\"mean\":\t0,\n"
	        "\t\t\t\"sd\":\t0,\n"
	        "\t\t\t\"ci_low\":\t0,\n"
	        "\t\t\t\"ci_high\":\t0\n"
	        "\t\t}, {\n"
	        "\t\t\t\"values\":\t{\n"
	        "\t\t\t\t\"" P_COUNT "\":\t\"4\",\n"
	        "\t\t\t\t\"" P_MODES "\":\t\"[dra]\"\n"
	        "\t\t\t},\n"
	        "\t\t\t\"mode\":\t\"dra\",\n"
	        "\t\t\t\"metric\":\t\"scheduling_latency_p99\",\n"
	        "\t\t\t\"unit\":\t\"s\",\n"
	        "\t\t\t\"n\":\t1,\n"
	        "\t\t\t\"mean\":\t12.5,\n"
	        "\t\t\t\"sd\":\tnull,\n"
	        "\t\t\t\"ci_low\":\tnull,\n"
	        "\t\t\t\"ci_high\":\tnull\n"
	        "\t\t}, {\n"
	        "\t\t\t\"values\":\t{\n"
	        "\t\t\t\t\"" P_COUNT "\":\t\"4\",\n"
	        "\t\t\t\t\"" P_MODES "\":\t\"[dra]\"\n"
	        "\t\t\t},\n"
	        "\t\t\t\"mode\":\t\"dra\",\n"
	        "\t\t\t\"metric\":\t\"jct_p50\",\n"
	        "\t\t\t\"unit\":\t\"s\",\n"
	        "\t\t\t\"n\":\t0,\n"
	        "\t\t\t\"mean\":\tnull,\n"
	        "\t\t\t\"sd\":\tnull,\n"
	        "\t\t\t\"ci_low\":\tnull,\n"
	        "\t\t\t\"ci_high\":\tnull\n"
	        "\t\t}],\n"
	        "\t\"failures\":\t[{\n"
	        "\t\t\t\"values\":\t{\n"
	        "\t\t\t\t\"" P_COUNT "\":\t\"4\",\n"
	        "\t\t\t\t\"" P_MODES "\":\t\"[dra]\"\n"
	        "\t\t\t},\n"
	        "\t\t\t\"seed\":\t2,\n"
	        "\t\t\t\"message\":\t\"s.yaml:3:7: spec.x: \\\"a\\\" <is> not a number\"\n"
	        "\t\t}]\n"
	        "}\n";
	g_autoptr(RptSweep) table = fake_sweep_new();
	g_autofree char *json = rpt_sweep_json_to_string(table);

	assert_string_equal(json, expected);
}

static void
test_rpt_sweep__json_big_seed_and_empty(void **state)
{
	/* A 64-bit seed is written digit for digit (a double would round it); no rows and no
	 * failures are empty arrays, not missing keys. */
	const uint64_t seeds[] = { 18446744073709551615u };
	g_autoptr(RptSweep) table = rpt_sweep_new("e", "s.yaml", NULL, 0, seeds, 1, 0.95);
	g_autofree char *json = rpt_sweep_json_to_string(table);

	assert_non_null(strstr(json, "\"seeds\":\t[18446744073709551615],"));
	assert_non_null(strstr(json, "\"rows\":\t[],"));
	assert_non_null(strstr(json, "\"failures\":\t[]\n"));
}

static void
test_rpt_sweep__html_small_multiples(void **state)
{
	/* Two parameters: each metric with a mean gets a chart per parameter (the other held
	 * at its one value here): pods_pending 2 + scheduling_latency_p99 2 = 4 charts;
	 * jct_p50 has no mean anywhere, so no chart, and the page names it. Each chart has one
	 * point per mode: dra's pods_pending has an interval (an error bar, not a band);
	 * extended's is [0, 0] (a bar of no height); the one-seed cell has neither. */
	g_autoptr(RptSweep) table = fake_sweep_new();
	g_autofree char *html = rpt_sweep_html_to_string(table);

	assert_int_equal(count(html, "<svg class=\"chart\""), 4);
	assert_int_equal(count(html, "<div class=\"break\">"), 2); /* before each metric's 2nd */
	assert_int_equal(count(html, "<path class=\"band\""), 0);
	assert_int_equal(count(html, "<line class=\"bar\""), 2 * 2);
	assert_int_equal(count(html, "<circle "), 2 * 2 + 2 * 1);
	assert_non_null(strstr(html, "id=\"k0-p0-g0\" data-points=\"2\""));
	/* each chart titled by its metric and the other parameter's value under it */
	assert_int_equal(count(html, "class=\"title\">pods_pending</text>"), 2);
	assert_non_null(strstr(html, "class=\"tick\" text-anchor=\"end\">where " P_MODES
	                             "=[dra, extended]</text>"));
	assert_non_null(
	        strstr(html, "class=\"tick\" text-anchor=\"end\">where " P_COUNT "=2</text>"));
	assert_non_null(strstr(html, "Not defined in any run: jct_p50."));
	/* the failures table, escaped; the seeds and the level in the header */
	assert_non_null(strstr(html, "<td class=\"num\">2</td><td>s.yaml:3:7: spec.x: "
	                             "&quot;a&quot; &lt;is&gt; not a number</td>"));
	assert_non_null(strstr(html, "3 seeds (1-3) · confidence 95 %"));
	assert_non_null(strstr(html, "window.__rptErrors.length===0&&charts.length>0?'ok':'fail'"));
}

static void
test_rpt_sweep__html_band_numeric_axis(void **state)
{
	/* One numeric parameter given out of order (4, 1, 2), two modes, an interval at every
	 * point: one chart, one band and one mean line per mode, 3 points each, drawn in
	 * axis order. The chart module's plot spans x 60..544 (560 - 16); counts 1..4 are
	 * whole, so they tick every 1 (1 2 3 4: 0.5 would label 1.5 nodes), the axis is 1..4
	 * and x = 60, 60 + 484 / 3 = 221.3, 544 for 1, 2, 4. A mean missing in the middle
	 * breaks the line. */
	const char *params[] = { "spec.count" };
	const char *values[][1] = { { "4" }, { "1" }, { "2" } };
	g_autoptr(RptSweep) table = rpt_sweep_new("n", "s.yaml", params, 1, NULL, 0, 0.95);
	g_autofree char *html = NULL;

	for (guint i = 0; i < 3; i++) {
		RptStat dra = { 3, 1.0 + i, 0.5, 0.5 + i, 1.5 + i };
		RptStat ext = { 3, i == 2 ? (double)NAN : 2.0, 0, 2.0, 2.0 };

		rpt_sweep_add_row(table, values[i], "dra", "m", "pods", &dra);
		if (i == 2) {
			ext = (RptStat){ 0, (double)NAN, (double)NAN, (double)NAN, (double)NAN };
		}
		rpt_sweep_add_row(table, values[i], "extended", "m", "pods", &ext);
	}
	html = rpt_sweep_html_to_string(table);
	assert_int_equal(count(html, "<svg class=\"chart\""), 1);
	assert_non_null(strstr(html, "data-points=\"5\""));
	/* one parameter: no section per metric, the contents link to the chart itself */
	assert_null(strstr(html, "<h2 id=\"metric-"));
	assert_non_null(strstr(html, "<li><a href=\"#k0-p0-g0\">m</a></li>"));
	/* dra: a band over its three points; extended: x=1 and x=4 are not neighbours once
	 * the point at 2 is gone from the line, so two lone points, each a bar and a line */
	assert_int_equal(count(html, "<path class=\"band\""), 1);
	assert_int_equal(count(html, "<polyline class=\"mean\""), 1 + 2);
	assert_int_equal(count(html, "<circle "), 5);
	assert_non_null(strstr(html, "<path class=\"band\" fill=\"#1f6feb\" d=\"M60.0,"));
	assert_non_null(strstr(html, ">1</text>"));
	assert_non_null(strstr(html, "x=\"221.3\""));
	assert_non_null(strstr(html, "x=\"544.0\""));
	assert_int_equal(count(html, "class=\"tick xt\""), 4);
	assert_null(strstr(html, "class=\"tick xt\" text-anchor=\"middle\">1.5</text>"));
	assert_non_null(strstr(html, "class=\"tick xt\" text-anchor=\"middle\">3</text>"));
}

static void
test_rpt_sweep__html_categorical_axis(void **state)
{
	/* Values that are not all numbers sit at even steps in the order given: three
	 * categories, each in the middle of its slot on the axis -0.5..2.5 over x 60..544:
	 * 60 + 484 * 0.5 / 3 = 140.7, 302.0, 463.3; labels at y 216 + 14 = 230. */
	const char *params[] = { "spec.policy" };
	const char *values[][1] = { { "MostAllocated" }, { "2" }, { "LeastAllocated" } };
	const RptStat stat = { 2, 1, 0, 1, 1 };
	g_autoptr(RptSweep) table = rpt_sweep_new("c", "s.yaml", params, 1, NULL, 0, 0.95);
	g_autofree char *html = NULL;

	for (guint i = 0; i < 3; i++) {
		rpt_sweep_add_row(table, values[i], "dra", "m", "pods", &stat);
	}
	html = rpt_sweep_html_to_string(table);
	assert_non_null(strstr(html, "<text x=\"140.7\" y=\"230\" class=\"tick xt\" "
	                             "text-anchor=\"middle\">MostAllocated</text>"));
	assert_non_null(strstr(html, "<text x=\"302.0\" y=\"230\" class=\"tick xt\" "
	                             "text-anchor=\"middle\">2</text>"));
	assert_non_null(strstr(html, "<text x=\"463.3\" y=\"230\" class=\"tick xt\" "
	                             "text-anchor=\"middle\">LeastAllocated</text>"));
}

static void
test_rpt_sweep__html_shared_scale(void **state)
{
	/* Parameters a (1, 2) and b (x, y); dra's means 0, 1 at b = x and 10, 20 at b = y, no
	 * spread. Four panels (two per parameter), all on the metric's range [0, 20]: each
	 * has the ticks 0, 5, 10, 15 and 20 (step 2 would be 10 intervals, 5 is 4; a panel on
	 * its own range would top out at 1, 10 or 20). A single value, 12.5 s at one cell,
	 * gets 10 % either side, [11.25, 13.75]: step 0.2 is 69 - 56 = 13 intervals, 0.5 is
	 * 28 - 22 = 6, so ticks 11, 11.5 ... 14. */
	const char *params[] = { "a", "b" };
	const char *cells[][2] = { { "1", "x" }, { "1", "y" }, { "2", "x" }, { "2", "y" } };
	const double means[] = { 0, 10, 1, 20 };
	g_autoptr(RptSweep) table = rpt_sweep_new("s", "s.yaml", params, 2, NULL, 0, 0.95);
	g_autofree char *html = NULL;
	const char *one_cell[] = { "1", "x" };
	const RptStat single = { 1, 12.5, (double)NAN, (double)NAN, (double)NAN };

	for (guint i = 0; i < 4; i++) {
		RptStat stat = { 2, means[i], 0, means[i], means[i] };

		rpt_sweep_add_row(table, cells[i], "dra", "m", "pods", &stat);
	}
	rpt_sweep_add_row(table, one_cell, "dra", "latency", "s", &single);
	html = rpt_sweep_html_to_string(table);
	assert_int_equal(count(html, "<svg class=\"chart\""), 4 + 2);
	assert_int_equal(count(html, "text-anchor=\"end\">20</text>"), 4);
	assert_int_equal(count(html, "text-anchor=\"end\">10</text>"), 4);
	assert_int_equal(count(html, "text-anchor=\"end\">0</text>"), 4);
	assert_int_equal(count(html, "text-anchor=\"end\">5</text>"), 4);
	/* a metric in seconds is on a time axis, labelled as durations */
	assert_int_equal(count(html, "text-anchor=\"end\">11s</text>"), 2);
	assert_int_equal(count(html, "text-anchor=\"end\">12.5s</text>"), 2);
	assert_int_equal(count(html, "text-anchor=\"end\">14s</text>"), 2);
}

static void
test_rpt_sweep__html_panel_cap(void **state)
{
	/* a = 1, 2 and b = 0..13: against a, one panel per b value, 14, of which the first 12
	 * are drawn and the page says 2 more are in sweep.csv; against b, one per a value, 2.
	 * 12 + 2 = 14 charts. */
	const char *params[] = { "a", "b" };
	const RptStat stat = { 2, 1, 0, 1, 1 };
	g_autoptr(RptSweep) table = rpt_sweep_new("s", "s.yaml", params, 2, NULL, 0, 0.95);
	g_autofree char *html = NULL;

	for (guint a = 1; a <= 2; a++) {
		for (guint b = 0; b < 14; b++) {
			g_autofree char *a_text = g_strdup_printf("%u", a);
			g_autofree char *b_text = g_strdup_printf("%u", b);
			const char *cell[] = { a_text, b_text };

			rpt_sweep_add_row(table, cell, "dra", "m", "pods", &stat);
		}
	}
	html = rpt_sweep_html_to_string(table);
	assert_int_equal(count(html, "<svg class=\"chart\""), 12 + 2);
	assert_non_null(strstr(html, ">where b=11</text>"));
	assert_null(strstr(html, ">where b=12</text>"));
	assert_non_null(
	        strstr(html, "2 more combinations of the other parameters: see sweep.csv."));
}

static void
test_rpt_sweep__html_seeds_only(void **state)
{
	/* No parameter (a sweep of seeds alone): no axis, so a table, a row per metric and a
	 * column per mode, and a page check that expects no chart; "-" where undefined. */
	const RptStat spread = { 3, 2.5, 0.5, 1.25, 3.75 };
	const RptStat one = { 1, 12.5, (double)NAN, (double)NAN, (double)NAN };
	g_autoptr(RptSweep) table = rpt_sweep_new("s", "s.yaml", NULL, 0, NULL, 0, 0.95);
	g_autofree char *html = NULL;

	rpt_sweep_add_row(table, NULL, "dra", "m", "pods", &spread);
	rpt_sweep_add_row(table, NULL, "extended", "m", "pods", &one);
	rpt_sweep_add_row(table, NULL, "dra", "late", "s", &one);
	html = rpt_sweep_html_to_string(table);
	assert_int_equal(count(html, "<svg class=\"chart\""), 0);
	assert_non_null(strstr(html, "window.__rptErrors.length===0&&true?'ok':'fail'"));
	assert_non_null(strstr(html, "<table id=\"summary\"><tr><th>metric</th>"
	                             "<th>unit</th><th>dra</th><th>extended</th></tr>"));
	assert_non_null(strstr(html, "<td>m</td><td class=\"unit\">pods</td><td class=\"num\">"
	                             "2.5 [1.25, 3.75], n 3</td><td class=\"num\">12.5, n 1</td>"));
	assert_non_null(strstr(html, "<td>late</td><td class=\"unit\">s</td><td class=\"num\">"
	                             "12.5, n 1</td><td class=\"num\">-</td>"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rpt_sweep__csv_text),
		cmocka_unit_test(test_rpt_sweep__csv_level_and_quoting),
		cmocka_unit_test(test_rpt_sweep__json_text),
		cmocka_unit_test(test_rpt_sweep__json_big_seed_and_empty),
		cmocka_unit_test(test_rpt_sweep__html_small_multiples),
		cmocka_unit_test(test_rpt_sweep__html_band_numeric_axis),
		cmocka_unit_test(test_rpt_sweep__html_categorical_axis),
		cmocka_unit_test(test_rpt_sweep__html_shared_scale),
		cmocka_unit_test(test_rpt_sweep__html_panel_cap),
		cmocka_unit_test(test_rpt_sweep__html_seeds_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
