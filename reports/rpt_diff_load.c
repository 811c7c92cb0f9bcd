/*
 * rpt_diff_load.c: reads either input of `drasim diff`: a report, or a
 * benchmark result file, which becomes a report with one mode "bench".
 *
 * A bench file (`drasim.io/bench/v2`) holds scheduler_perf's DataItems
 * (test/integration/scheduler_perf/util.go): {"labels": {"Name", "Metric"},
 * "unit", "data": {bucket: number}}. Each bucket becomes the metric
 * <Name>/<Metric>/<bucket> ("Value" drops its suffix: <Name>/<Metric>) in the
 * item's unit, so the same comparison and tolerance rules serve both
 * (instruction counts default to a 5% relative tolerance: the CI gate).
 */
#include <cjson/cJSON.h>

#include "base.h"
#include "rpt-private.h"

static const char *
label(const cJSON *labels, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(labels, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* One DataItem: every numeric bucket of "data" becomes a metric. */
static gboolean
bench_item(RptMode *mode, const cJSON *item, const char *path, guint index, GError **error)
{
	const cJSON *labels = cJSON_GetObjectItemCaseSensitive(item, "labels");
	const cJSON *unit = cJSON_GetObjectItemCaseSensitive(item, "unit");
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(item, "data");
	const char *name = label(labels, "Name");
	const char *metric = label(labels, "Metric");
	const cJSON *bucket;

	if (name == NULL || metric == NULL) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
		            "%s: dataItems[%u].labels: expected strings Name and Metric", path,
		            index);
		return FALSE;
	}
	if (!cJSON_IsObject(data) || !cJSON_IsString(unit)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
		            "%s: dataItems[%u]: expected an object data and a string unit", path,
		            index);
		return FALSE;
	}
	cJSON_ArrayForEach(bucket, data)
	{
		g_autofree char *full = NULL;

		if (!cJSON_IsNumber(bucket)) {
			g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
			            "%s: dataItems[%u].data.%s: expected a number", path, index,
			            bucket->string);
			return FALSE;
		}
		full = g_strcmp0(bucket->string, "Value") == 0
		               ? g_strconcat(name, "/", metric, NULL)
		               : g_strconcat(name, "/", metric, "/", bucket->string, NULL);
		rpt_mode_set_metric(mode, full, bucket->valuedouble, unit->valuestring);
	}
	return TRUE;
}

static RptReport *
bench_from_json(const cJSON *root, const char *path, GError **error)
{
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(root, "dataItems");
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "drasim_version");
	g_autoptr(RptReport) report = NULL;
	const cJSON *item;
	guint index = 0;
	RptMode *mode;

	if (!cJSON_IsArray(items)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE, "%s: dataItems: expected an array",
		            path);
		return NULL;
	}
	report = rpt_report_new("bench", NULL, 0,
	                        cJSON_IsString(version) ? version->valuestring : "");
	mode = rpt_mode_add(report, "bench");
	cJSON_ArrayForEach(item, items)
	{
		if (!bench_item(mode, item, path, index++, error)) {
			return NULL;
		}
	}
	return g_steal_pointer(&report);
}

RptReport *
rpt_diff_load(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	gsize length = 0;
	g_autoptr(GError) local = NULL;

	if (!base_read_file(path, &text, &length, &local)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "%s: %s", path, local->message);
		return NULL;
	}
	return rpt_diff_load_data(path, text, length, error);
}

RptReport *
rpt_diff_load_data(const char *path, const char *text, gsize length, GError **error)
{
	g_autoptr(GError) too_deep = NULL;
	const cJSON *schema;
	cJSON *root;
	RptReport *report;

	/* before cJSON: a bench file is held to the same nesting bound as a report */
	if (!base_json_check_depth(path, text, length, &too_deep)) {
		g_set_error_literal(error, RPT_ERROR, RPT_ERROR_PARSE, too_deep->message);
		return NULL;
	}
	root = cJSON_ParseWithLength(text, length);
	schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	if (root != NULL && cJSON_IsString(schema) &&
	    g_strcmp0(schema->valuestring, RPT_BENCH_SCHEMA) == 0) {
		report = bench_from_json(root, path, error);
		cJSON_Delete(root);
		return report;
	}
	if (root != NULL && cJSON_IsString(schema) &&
	    g_strcmp0(schema->valuestring, "drasim.io/bench/v1") == 0) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
		            "%s: drasim.io/bench/v1 (flat records) is no longer read; re-record it "
		            "with `drasim bench` (drasim.io/bench/v2, scheduler_perf DataItems)",
		            path);
		cJSON_Delete(root);
		return NULL;
	}
	cJSON_Delete(root);
	/* a report, or an error with its position */
	return rpt_json_load_data(path, text, length, error);
}
