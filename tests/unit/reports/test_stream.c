/*
 * test_stream.c: the streamed writers (reports/rpt_sink.c): the JSON report
 * and pods.csv reach their sink a chunk at a time, never as one string.
 *
 * Invariants: the streamed JSON is what cJSON prints for the same tree (so it
 * is the report as before, byte for byte); each write but the last holds at
 * least RPT_SINK_CHUNK bytes and at most one more pod's text, so the memory a
 * writer holds does not grow with the pods; a sink that fails stops the writer
 * at once with the sink's error. The reports are made by hand: two modes of
 * 1,000 pods each, about 330 bytes of JSON a pod, so about ten chunks.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "rpt-private.h"

#define PODS_A_MODE 1000
/* a pod's JSON object or CSV row is under 1 KiB, the skeleton around the pods under 3 KiB */
#define MOST_OVER_A_CHUNK 4096

/* A sink that keeps what it is given and the length of each write; the write
 * numbered @fail_at (from 1) fails, 0 for none. */
typedef struct {
	GString *bytes;
	GArray *lengths;
	guint fail_at;
} Recorder;

static gboolean
record_write(gpointer data, const char *bytes, gsize length, GError **error)
{
	Recorder *self = data;

	g_array_append_val(self->lengths, length);
	if (self->lengths->len == self->fail_at) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "disk full at write %u", self->fail_at);
		return FALSE;
	}
	g_string_append_len(self->bytes, bytes, (gssize)length);
	return TRUE;
}

static Recorder *
recorder_new(guint fail_at)
{
	Recorder *self = g_new0(Recorder, 1);

	self->bytes = g_string_new(NULL);
	self->lengths = g_array_new(FALSE, FALSE, sizeof(gsize));
	self->fail_at = fail_at;
	return self;
}

static void
recorder_free(Recorder *self)
{
	g_string_free(self->bytes, TRUE);
	g_array_unref(self->lengths);
	g_free(self);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Recorder, recorder_free)

/* Pod i of a mode: arrived at i ms, ran 7 s after 250 µs. */
static void
add_pods(RptMode *mode)
{
	for (guint i = 0; i < PODS_A_MODE; i++) {
		g_autofree char *name = g_strdup_printf("job-%u", i);
		RptPod pod = {
			.name = name,
			.workload = "job",
			.request = "claim=one-gpu[gpu.nvidia.com x1]",
			.arrival_us = (RptTime)i * 1000,
			.start_us = (RptTime)i * 1000 + 250,
			.end_us = (RptTime)i * 1000 + 7000000,
			.node = "dgx-17",
			.devices = "gpu:dgx-17/gpu-3",
			.slowdown = 1.5,
			.outcome = RPT_OUTCOME_COMPLETED,
			.attempts = 1,
		};

		rpt_mode_add_pod(mode, &pod);
	}
}

static RptReport *
many_pods_report(void)
{
	RptReport *report = rpt_report_new("stream", NULL, 3, "test");

	add_pods(rpt_mode_add(report, "dra"));
	add_pods(rpt_mode_add(report, "extended"));
	return report;
}

/* Every write but the last holds a full chunk and at most a pod more; the last at most that. */
static void
assert_chunked(const Recorder *rec)
{
	gsize total = 0;

	assert_true(rec->lengths->len >= 2);
	for (guint i = 0; i < rec->lengths->len; i++) {
		gsize length = g_array_index(rec->lengths, gsize, i);

		if (i + 1 < rec->lengths->len)
			assert_true(length >= RPT_SINK_CHUNK);
		assert_true(length < RPT_SINK_CHUNK + MOST_OVER_A_CHUNK);
		total += length;
	}
	assert_int_equal(total, rec->bytes->len);
}

static void
assert_mode_pods(cJSON *modes, guint m, const char *name)
{
	cJSON *mode = cJSON_GetArrayItem(modes, (int)m);
	cJSON *pods = cJSON_GetObjectItemCaseSensitive(mode, "pods");

	assert_string_equal(cJSON_GetObjectItemCaseSensitive(mode, "name")->valuestring, name);
	assert_int_equal(cJSON_GetArraySize(pods), PODS_A_MODE);
	for (guint i = 0; i < PODS_A_MODE; i++) {
		g_autofree char *want = g_strdup_printf("job-%u", i);
		cJSON *pod = cJSON_GetArrayItem(pods, (int)i);

		assert_string_equal(cJSON_GetObjectItemCaseSensitive(pod, "name")->valuestring,
		                    want);
	}
}

/* 2,000 pods of about 330 bytes: about ten chunks, each pod in its mode, in order. */
static void
test_stream__json_in_chunks(void **state)
{
	g_autoptr(RptReport) report = many_pods_report();
	g_autoptr(Recorder) rec = recorder_new(0);
	cJSON *tree;
	char *again;

	(void)state;
	assert_true(rpt_json_write(report, &(RptSink){ record_write, rec }, NULL));
	assert_chunked(rec);
	assert_true(rec->bytes->len > 2 * PODS_A_MODE * 300);
	/* the bytes cJSON prints for the same tree, so the report's as it was */
	tree = cJSON_Parse(rec->bytes->str);
	assert_non_null(tree);
	again = cJSON_Print(tree);
	assert_true(g_str_has_suffix(rec->bytes->str, "\n"));
	g_string_truncate(rec->bytes, rec->bytes->len - 1);
	assert_string_equal(again, rec->bytes->str);
	assert_mode_pods(cJSON_GetObjectItemCaseSensitive(tree, "modes"), 0, "dra");
	assert_mode_pods(cJSON_GetObjectItemCaseSensitive(tree, "modes"), 1, "extended");
	cJSON_free(again);
	cJSON_Delete(tree);
}

/* One header row and a row a pod, mode by mode, in chunks; the string form is the same bytes. */
static void
test_stream__csv_in_chunks(void **state)
{
	g_autoptr(RptReport) report = many_pods_report();
	g_autoptr(Recorder) rec = recorder_new(0);
	g_autofree char *whole = rpt_csv_pods_to_string(report);
	g_auto(GStrv) lines = NULL;

	(void)state;
	assert_true(rpt_csv_pods_write(report, &(RptSink){ record_write, rec }, NULL));
	assert_chunked(rec);
	assert_string_equal(rec->bytes->str, whole);
	lines = g_strsplit(rec->bytes->str, "\n", -1);
	/* the header, 2 x 1,000 rows, and the empty string after the last newline */
	assert_int_equal(g_strv_length(lines), 1 + 2 * PODS_A_MODE + 1);
	assert_true(g_str_has_prefix(lines[1], "dra,job-0,job,"));
	assert_true(g_str_has_prefix(lines[PODS_A_MODE], "dra,job-999,"));
	assert_true(g_str_has_prefix(lines[PODS_A_MODE + 1], "extended,job-0,"));
	assert_string_equal(lines[2 * PODS_A_MODE + 1], "");
}

/* The second write fails: the writer returns the sink's error and writes nothing more. */
static void
test_stream__failing_sink_stops(void **state)
{
	g_autoptr(RptReport) report = many_pods_report();
	g_autoptr(Recorder) json = recorder_new(2);
	g_autoptr(Recorder) csv = recorder_new(1);
	g_autoptr(GError) json_error = NULL;
	g_autoptr(GError) csv_error = NULL;

	(void)state;
	assert_false(rpt_json_write(report, &(RptSink){ record_write, json }, &json_error));
	assert_string_equal(json_error->message, "disk full at write 2");
	assert_int_equal(json->lengths->len, 2);
	assert_false(rpt_csv_pods_write(report, &(RptSink){ record_write, csv }, &csv_error));
	assert_string_equal(csv_error->message, "disk full at write 1");
	assert_int_equal(csv->lengths->len, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stream__json_in_chunks),
		cmocka_unit_test(test_stream__csv_in_chunks),
		cmocka_unit_test(test_stream__failing_sink_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
