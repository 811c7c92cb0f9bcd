/*
 * test_report.c: the report object and its JSON/text/CSV writers.
 *
 * Invariants: metrics keep insertion order and replace in place; the JSON
 * of one report is byte-identical across builds (the baseline diff relies
 * on it); the loader reads back what the writer wrote; kube-scheduler's
 * FitError text is reproduced exactly, including its string sort.
 */
#include <math.h>
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include "fake-report.h"
#include "rpt-private.h"

static void
test_report__metric_order(void **state)
{
	g_autoptr(RptReport) report = rpt_report_new("s", NULL, 1, "v");
	RptMode *mode = rpt_mode_add(report, "dra");
	const char *name, *unit;
	double value;

	rpt_mode_set_metric(mode, "b", 1, "pods");
	rpt_mode_set_metric(mode, "a", 2, "pods");
	rpt_mode_set_metric(mode, "b", 3, "calls");
	assert_int_equal(rpt_mode_get_n_metrics(mode), 2);
	rpt_mode_get_metric(mode, 0, &name, &value, &unit);
	assert_string_equal(name, "b");
	assert_true(value > 2.5 && value < 3.5);
	assert_string_equal(unit, "calls");
	rpt_mode_get_metric(mode, 1, &name, &value, &unit);
	assert_string_equal(name, "a");
	assert_ptr_equal(rpt_mode_add(report, "dra"), mode);
	assert_int_equal(rpt_report_get_n_modes(report), 1);
}

static void
test_report__percentile_nearest_rank(void **state)
{
	double samples[] = { 5, 1, 4, 2, 3, 10, 9, 8, 7, 6 };

	assert_true(rpt_percentile(samples, 10, 50) > 4.5 && rpt_percentile(samples, 10, 50) < 5.5);
	assert_true(rpt_percentile(samples, 10, 90) > 8.5 && rpt_percentile(samples, 10, 90) < 9.5);
	assert_true(rpt_percentile(samples, 10, 99) > 9.5);
	assert_true(rpt_percentile(samples, 1, 50) > 4.5);
	assert_true(isnan(rpt_percentile(samples, 0, 50)));
	/* the input is not reordered */
	assert_true(samples[0] > 4.5 && samples[0] < 5.5);
}

static void
test_report__fit_error_text(void **state)
{
	const char *reasons[] = { "cannot allocate all claims", "Insufficient cpu" };
	const guint counts[] = { 380, 120 };
	g_autofree char *a = rpt_format_fit_error(500, reasons, counts, 2, NULL, NULL);
	const guint counts2[] = { 38, 120 };
	g_autofree char *b = rpt_format_fit_error(158, reasons, counts2, 2, NULL, NULL);
	g_autofree char *c = rpt_format_fit_error(
	        3, NULL, NULL, 0, "pod has unbound immediate PersistentVolumeClaims",
	        "preemption: not eligible due to preemptionPolicy=Never.");

	assert_string_equal(a, "0/500 nodes are available: 120 Insufficient cpu, 380 cannot "
	                       "allocate all claims.");
	/* upstream sorts the formatted strings: "120 ..." before "38 ..." */
	assert_string_equal(b, "0/158 nodes are available: 120 Insufficient cpu, 38 cannot "
	                       "allocate all claims.");
	assert_string_equal(c, "0/3 nodes are available: pod has unbound immediate "
	                       "PersistentVolumeClaims. preemption: not eligible due to "
	                       "preemptionPolicy=Never.");
}

static void
test_report__json_deterministic(void **state)
{
	g_autoptr(RptReport) one = fake_report_new(1.0);
	g_autoptr(RptReport) two = fake_report_new(1.0);
	g_autofree char *a = rpt_json_to_string(one);
	g_autofree char *b = rpt_json_to_string(two);

	assert_string_equal(a, b);
	/* fixed precision and key order */
	assert_non_null(strstr(a, "\"schema\":\t\"drasim.io/report/v2\""));
	assert_non_null(strstr(a, "\"value\":\t0.612345679"));
	assert_true(strstr(a, "\"pods_submitted\"") < strstr(a, "\"pods_scheduled\""));
	/* times in seconds, exact to the µs: job-01 arrives at 10 s + 250000 µs; the
	 * horizon is 600 s; simulated_end_s is 600 s + 500 µs */
	assert_non_null(strstr(a, "\"start_s\":\tnull"));
	assert_non_null(strstr(a, "\"arrival_s\":\t10.25,"));
	assert_non_null(strstr(a, "\"horizon_s\":\t600\n"));
	assert_non_null(strstr(a, "\"simulated_end_s\":\t600.0005,"));
	assert_null(strstr(a, "_us\""));
	/* info numbers and booleans are JSON numbers and booleans */
	assert_non_null(strstr(a, "\"gpus\":\t32,"));
	assert_non_null(strstr(a, "\"score_policy_beyond_production\":\tfalse\n"));
	/* a count named for what it counts */
	assert_non_null(strstr(a,
	                       "\"oom_kills\":\t{\n\t\t\t\t\t\"value\":\t1,\n\t\t\t\t\t\"unit\":\t"
	                       "\"kills\""));
}

static void
test_report__json_round_trip(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	g_autofree char *text = rpt_json_to_string(report);
	g_autofree char *path = g_build_filename(g_get_tmp_dir(), "rpt-test-round.json", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(RptReport) loaded = NULL;
	double value = 0;

	assert_true(g_file_set_contents(path, text, -1, NULL));
	loaded = rpt_json_load(path, &error);
	g_unlink(path);
	assert_null(error);
	assert_non_null(loaded);
	assert_int_equal(rpt_report_get_n_modes(loaded), 2);
	assert_string_equal(rpt_report_get_scenario(loaded), "fake-small");
	assert_true(rpt_mode_lookup_metric(rpt_report_lookup_mode(loaded, "extended"),
	                                   RPT_M_PODS_PENDING, &value));
	assert_true(value > 2.5 && value < 3.5);
	assert_int_equal(rpt_mode_get_n_unschedulable(rpt_report_get_mode(loaded, 0)), 2);
	/* typed info survives the trip: written again, still a number and a boolean */
	{
		g_autofree char *again = rpt_json_to_string(loaded);

		assert_string_equal(rpt_mode_lookup_info(rpt_report_get_mode(loaded, 0), "gpus"),
		                    "32");
		assert_non_null(strstr(again, "\"simulated_end_s\":\t600.0005,"));
		assert_non_null(strstr(again, "\"score_policy_beyond_production\":\tfalse\n"));
	}
}

static void
test_report__json_load_errors(void **state)
{
	g_autofree char *path = g_build_filename(g_get_tmp_dir(), "rpt-test-bad.json", NULL);
	g_autoptr(GError) error = NULL;

	assert_true(g_file_set_contents(path, "{\n  \"schema\": \"x\",\n  oops\n}", -1, NULL));
	assert_null(rpt_json_load(path, &error));
	assert_non_null(error);
	assert_non_null(strstr(error->message, ":3:"));
	g_clear_error(&error);
	assert_true(g_file_set_contents(path, "{\"schema\": \"drasim.io/report/v0\"}", -1, NULL));
	assert_null(rpt_json_load(path, &error));
	assert_true(g_error_matches(error, RPT_ERROR, RPT_ERROR_VERSION));
	g_clear_error(&error);
	/* a v1 report: says which schema it is, which this drasim reads, how to regenerate */
	assert_true(g_file_set_contents(
	        path, "{\"schema\": \"drasim.io/report/v1\", \"modes\": []}", -1, NULL));
	assert_null(rpt_json_load(path, &error));
	assert_true(g_error_matches(error, RPT_ERROR, RPT_ERROR_VERSION));
	assert_non_null(strstr(error->message, "this report is drasim.io/report/v1"));
	assert_non_null(strstr(error->message, "reads drasim.io/report/v2"));
	assert_non_null(strstr(error->message, "Regenerate it"));
	g_unlink(path);
}

static void
test_report__text_tables(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	g_autofree char *plain = rpt_text_to_string(report, FALSE);
	g_autofree char *colour = rpt_text_to_string(report, TRUE);
	g_auto(GStrv) lines = g_strsplit(plain, "\n", -1);
	gsize header_at = 0;

	assert_null(strchr(plain, '\033'));
	assert_non_null(strchr(colour, '\033'));
	assert_non_null(strstr(plain, "0/4 nodes are available: 1 Insufficient cpu, 3 cannot"));
	/* the modes are columns: every row of the summary is as wide as its header */
	for (guint i = 0; lines[i] != NULL; i++) {
		if (g_str_has_prefix(lines[i], "metric ")) {
			header_at = i;
		}
	}
	assert_true(header_at > 0);
	assert_non_null(strstr(lines[header_at], "dra"));
	assert_non_null(strstr(lines[header_at], "extended"));
	for (guint i = header_at + 1; lines[i] != NULL && *lines[i]; i++) {
		assert_int_equal(strlen(lines[i]), strlen(lines[header_at]));
	}
	assert_non_null(strstr(plain, "61.2%"));
}

/*
 * Each mode's score policy (info score_policy, set by sim/measure from the
 * mode's policy:): the text report lists it per mode, names aligned (the
 * longest, "binpack", is 7 wide), a mode without it as "-"; the HTML shows it
 * under the mode's heading, escaped. A report without the info (fake-small's
 * golden files) shows neither.
 */
static void
test_report__score_policy(void **state)
{
	g_autoptr(RptReport) report = rpt_report_new("s", NULL, 1, "v");
	g_autoptr(RptReport) none = rpt_report_new("s", NULL, 1, "v");
	g_autofree char *text = NULL, *html = NULL, *plain = NULL;

	rpt_mode_set_info(rpt_mode_add(report, "dra"), "score_policy", "LeastAllocated");
	rpt_mode_set_info(rpt_mode_add(report, "binpack"), "score_policy",
	                  "RequestedToCapacityRatio shape 0:0, 100:10 <x>");
	rpt_mode_add(report, "ext");
	rpt_mode_add(none, "dra");
	text = rpt_text_to_string(report, FALSE);
	html = rpt_html_to_string(report);
	plain = rpt_text_to_string(none, FALSE);
	assert_non_null(strstr(text, "\nScore policy\ndra      LeastAllocated\n"
	                             "binpack  RequestedToCapacityRatio shape 0:0, 100:10 <x>\n"
	                             "ext      -\n"));
	assert_non_null(strstr(html, "<h2>Mode binpack</h2>\n<p>Score policy: "
	                             "RequestedToCapacityRatio shape 0:0, 100:10 &lt;x&gt;</p>"));
	assert_null(strstr(plain, "Score policy"));
}

/*
 * The long-form CSVs of fake-small (fake-report.c), rows worked out by hand:
 * extended's allocation ratio at sample 10 (t = 10 x 60 s) is min(1, 0.9 x
 * 10 / 10) = 0.9; job-01 arrives at 10 s + 250000 µs = 10.25 s and asks for
 * one nvidia.com/gpu (odd jobs); job-17 never ran, its last message is the
 * fit error of fill_explanations (quoted: it holds commas); job-19 has none.
 */
static void
test_report__csv_shape(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	g_autofree char *summary = rpt_csv_summary_to_string(report);
	g_autofree char *series = rpt_csv_series_to_string(report);
	g_autofree char *pods = rpt_csv_pods_to_string(report);

	assert_true(
	        g_str_has_prefix(summary, "mode,metric,unit,value\ndra,pods_submitted,pods,20\n"));
	assert_non_null(strstr(summary, "\nextended,oom_kills,kills,1\n"));
	/* p50 of the 7 latencies 0 0.5 1 1.5 2 3 4: the 4th (nearest rank ceil(3.5)) */
	assert_non_null(strstr(summary, "\ndra,scheduling_latency_p50,s,1.5\n"));
	assert_true(g_str_has_prefix(series, "mode,t_s,metric,unit,value\n"
	                                     "dra,0,gpu_allocation_ratio,ratio,0\n"));
	assert_non_null(strstr(series, "\nextended,600,gpu_allocation_ratio,ratio,0.9\n"));
	assert_non_null(strstr(series, "\ndra,120,pending_pods,pods,2\n"));
	assert_true(g_str_has_prefix(pods, "mode,pod,workload,request,arrival_s,start_s,end_s,node,"
	                                   "devices,slowdown,outcome,attempts,oom_kills,"
	                                   "pending_reason\n"));
	assert_non_null(strstr(pods, "\"gpu-0,gpu-1\""));
	assert_non_null(strstr(pods, "\ndra,job-01,job,nvidia.com/gpu=1,10.25,11,110,node-1,"));
	assert_non_null(strstr(pods, "\ndra,job-17,job,nvidia.com/gpu=1,170,,,,,,pending,4,0,"
	                             "\"0/4 nodes are available: 1 Insufficient cpu, 3 cannot "
	                             "allocate all claims.\"\n"));
	assert_non_null(strstr(pods, "\ndra,job-19,job,nvidia.com/gpu=1,190,,,,,,pending,4,0,\n"));
}

static void
test_report__write_formats(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	g_autofree char *dir = g_dir_make_tmp("rpt-test-XXXXXX", NULL);
	g_autoptr(GError) error = NULL;
	static const char *const files[] = { "report.txt",     "report.json", "summary.csv",
		                             "timeseries.csv", "pods.csv",    "report.html" };

	assert_false(rpt_write_formats(report, "text,pdf", dir, &error));
	assert_true(g_error_matches(error, RPT_ERROR, RPT_ERROR_FORMAT));
	g_clear_error(&error);
	assert_false(rpt_write_formats(report, "csv", NULL, &error));
	g_clear_error(&error);
	assert_true(rpt_write_formats(report, "text,json,csv,html", dir, &error));
	for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *path = g_build_filename(dir, files[i], NULL);

		assert_true(g_file_test(path, G_FILE_TEST_IS_REGULAR));
		g_unlink(path);
	}
	g_rmdir(dir);
}

/* The integer fast path must print what "%.0f" printed before it, and other
 * values keep "%.9g": the baselines depend on every digit. */
static void
test_report__number_format(void **state)
{
	static const double values[] = { 0.0,
		                         -0.0,
		                         1.0,
		                         -1.0,
		                         9.0,
		                         10.0,
		                         99.0,
		                         100.0,
		                         123456789.0,
		                         -987654321.0,
		                         604800000000.0,
		                         9007199254740991.0,
		                         -9007199254740991.0,
		                         9007199254740992.0,
		                         1e300,
		                         0.5,
		                         -2.25,
		                         1.0 / 3.0,
		                         123456.7891234,
		                         1e-7 };
	char got[64];
	char want[64];

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(values); i++) {
		double v = values[i];

		rpt__format_number(got, sizeof(got), v);
		if (!(v > floor(v)) && fabs(v) < 9007199254740992.0)
			snprintf(want, sizeof(want), "%.0f", v + 0.0);
		else
			snprintf(want, sizeof(want), "%.9g", v);
		assert_string_equal(got, want);
	}
	rpt__format_number(got, sizeof(got), (double)NAN);
	assert_string_equal(got, "null");
	rpt__format_number(got, 3, 12345.0); /* too small: empty, never truncated digits */
	assert_string_equal(got, "");
	/* times: µs -> seconds by integer digits, no trailing zeros, nothing rounded */
	rpt__format_seconds(got, sizeof(got), 1);
	assert_string_equal(got, "0.000001");
	rpt__format_seconds(got, sizeof(got), 7362323099);
	assert_string_equal(got, "7362.323099");
	rpt__format_seconds(got, sizeof(got), 86400000000);
	assert_string_equal(got, "86400");
	rpt__format_seconds(got, sizeof(got), -1500000);
	assert_string_equal(got, "-1.5");
	rpt__format_seconds(got, sizeof(got), 0);
	assert_string_equal(got, "0");
}

/*
 * The per-pod records are written as text, not through cJSON: the JSON must
 * still be exactly what cJSON prints for the same tree. Parsing it and
 * printing it again with cJSON must give the same bytes, for strings that
 * need every kind of escape and for pods with and without their optional
 * fields.
 */
static void
test_report__json_pods_as_cjson(void **state)
{
	g_autoptr(RptReport) report = rpt_report_new("escapes", NULL, 7, "test");
	RptMode *mode = rpt_mode_add(report, "dra");
	RptMode *empty = rpt_mode_add(report, "extended");
	/* times whose seconds cJSON prints the same way (it would print 1 µs as 1e-06;
	 * test_report__number_format checks the writer's own digits) */
	RptPod done = { .name = "q\"b\\s\b\f\n\r\t\001\037 é/€",
		        .workload = "w\"1",
		        .request = "nvidia.com/gpu=1",
		        .arrival_us = 1500000,
		        .start_us = 2250000,
		        .end_us = 604800000000,
		        .node = "node-0",
		        .devices = "gpu-0,gpu-1",
		        .slowdown = 1.234567891234,
		        .outcome = RPT_OUTCOME_COMPLETED,
		        .attempts = 3,
		        .oom_kills = 1 };
	RptPod waiting = { .name = "p",
		           .arrival_us = 5000000,
		           .start_us = RPT_TIME_NONE,
		           .end_us = RPT_TIME_NONE,
		           .slowdown = -1,
		           .outcome = RPT_OUTCOME_PENDING };
	g_autofree char *text = NULL;
	cJSON *tree;
	char *again;

	(void)state;
	(void)empty;
	rpt_mode_add_pod(mode, &done);
	rpt_mode_add_pod(mode, &waiting);
	text = rpt_json_to_string(report);
	tree = cJSON_Parse(text);
	assert_non_null(tree);
	again = cJSON_Print(tree);
	assert_true(g_str_has_suffix(text, "\n"));
	text[strlen(text) - 1] = '\0';
	assert_string_equal(again, text);
	assert_non_null(strstr(text, "\"q\\\"b\\\\s\\b\\f\\n\\r\\t\\u0001\\u001f é/€\""));
	cJSON_free(again);
	cJSON_Delete(tree);
}

/*
 * The HTML's per-workload table groups pods by their workload field, not by
 * their names: "alpha" and "beta-3" are pods of the entries "notebooks" and
 * "train"; "gamma-1" has no workload and falls back to its name without the
 * expander's "-<k>", "gamma". alpha waited once (a reason) and still pends:
 * notebooks 0 of 1 scheduled, 1 pending, 1 waited; train 1 of 1, 0, 0.
 */
static void
test_report__html_workloads_from_field(void **state)
{
	g_autoptr(RptReport) report = rpt_report_new("workloads", NULL, 1, "test");
	RptMode *mode = rpt_mode_add(report, "dra");
	RptPod alpha = { .name = "alpha",
		         .workload = "notebooks",
		         .arrival_us = 0,
		         .start_us = RPT_TIME_NONE,
		         .end_us = RPT_TIME_NONE,
		         .slowdown = -1,
		         .outcome = RPT_OUTCOME_PENDING };
	RptPod beta = { .name = "beta-3",
		        .workload = "train",
		        .arrival_us = 0,
		        .start_us = 1000000,
		        .end_us = 2000000,
		        .node = "node-0",
		        .slowdown = 1,
		        .outcome = RPT_OUTCOME_COMPLETED };
	RptPod gamma = { .name = "gamma-1",
		         .arrival_us = 0,
		         .start_us = 1000000,
		         .end_us = RPT_TIME_NONE,
		         .node = "node-0",
		         .slowdown = 1,
		         .outcome = RPT_OUTCOME_RUNNING };
	g_autofree char *html = NULL;

	(void)state;
	rpt_mode_add_pod(mode, &alpha);
	rpt_mode_add_pod(mode, &beta);
	rpt_mode_add_pod(mode, &gamma);
	rpt_mode_add_pod_reason(mode, "alpha", 0, "0/1 nodes are available: 1 Insufficient cpu.",
	                        NULL);
	html = rpt_html_to_string(report);
	assert_non_null(strstr(html, "<tr><td>notebooks</td><td class=\"num\">0 of 1</td>"
	                             "<td class=\"num\">1</td><td class=\"num\">1</td></tr>"));
	assert_non_null(strstr(html, "<tr><td>train</td><td class=\"num\">1 of 1</td>"
	                             "<td class=\"num\">0</td><td class=\"num\">0</td></tr>"));
	assert_non_null(strstr(html, "<tr><td>gamma</td><td class=\"num\">1 of 1</td>"));
	assert_null(strstr(html, "<tr><td>alpha</td>"));
	assert_null(strstr(html, "<tr><td>beta</td>"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report__metric_order),
		cmocka_unit_test(test_report__percentile_nearest_rank),
		cmocka_unit_test(test_report__fit_error_text),
		cmocka_unit_test(test_report__json_deterministic),
		cmocka_unit_test(test_report__json_round_trip),
		cmocka_unit_test(test_report__json_load_errors),
		cmocka_unit_test(test_report__text_tables),
		cmocka_unit_test(test_report__score_policy),
		cmocka_unit_test(test_report__csv_shape),
		cmocka_unit_test(test_report__write_formats),
		cmocka_unit_test(test_report__number_format),
		cmocka_unit_test(test_report__json_pods_as_cjson),
		cmocka_unit_test(test_report__html_workloads_from_field),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
