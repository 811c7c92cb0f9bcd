/*
 * rpt_diff_load.c: reads either input of `drasim diff`: a report, or a
 * benchmark result file, which becomes a report with one mode "bench".
 *
 * A bench record {name, unit, value, p50, p90, p99, instructions} becomes
 * the metrics <name>, <name>_p50, ..., <name>_instructions, so the same
 * comparison and tolerance rules serve both (instruction counts default to
 * a 5% relative tolerance: the CI regression gate).
 */
#include <cjson/cJSON.h>

#include "rpt-private.h"

static void
bench_metric(
        RptMode *mode, const char *name, const char *suffix, const cJSON *item, const char *unit)
{
	g_autofree char *full = g_strconcat(name, suffix, NULL);

	if (cJSON_IsNumber(item)) {
		rpt_mode_set_metric(mode, full, item->valuedouble, unit);
	}
}

static RptReport *
bench_from_json(const cJSON *root, const char *path, GError **error)
{
	const cJSON *records = cJSON_GetObjectItemCaseSensitive(root, "records");
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "drasim_version");
	g_autoptr(RptReport) report = NULL;
	const cJSON *record;
	guint index = 0;
	RptMode *mode;

	if (!cJSON_IsArray(records)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE, "%s: records: expected an array",
		            path);
		return NULL;
	}
	report = rpt_report_new("bench", NULL, 0,
	                        cJSON_IsString(version) ? version->valuestring : "");
	mode = rpt_mode_add(report, "bench");
	cJSON_ArrayForEach(record, records)
	{
		const cJSON *name = cJSON_GetObjectItemCaseSensitive(record, "name");
		const cJSON *unit = cJSON_GetObjectItemCaseSensitive(record, "unit");
		const char *unit_text = cJSON_IsString(unit) ? unit->valuestring : "";

		if (!cJSON_IsString(name)) {
			g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
			            "%s: records[%u].name: expected a string", path, index);
			return NULL;
		}
		bench_metric(mode, name->valuestring, "",
		             cJSON_GetObjectItemCaseSensitive(record, "value"), unit_text);
		bench_metric(mode, name->valuestring, "_p50",
		             cJSON_GetObjectItemCaseSensitive(record, "p50"), unit_text);
		bench_metric(mode, name->valuestring, "_p90",
		             cJSON_GetObjectItemCaseSensitive(record, "p90"), unit_text);
		bench_metric(mode, name->valuestring, "_p99",
		             cJSON_GetObjectItemCaseSensitive(record, "p99"), unit_text);
		bench_metric(mode, name->valuestring, "_instructions",
		             cJSON_GetObjectItemCaseSensitive(record, "instructions"),
		             "instructions");
		index++;
	}
	return g_steal_pointer(&report);
}

RptReport *
rpt_diff_load(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;
	const cJSON *schema;
	cJSON *root;
	RptReport *report;

	if (!g_file_get_contents(path, &text, NULL, &local)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "%s", local->message);
		return NULL;
	}
	root = cJSON_Parse(text);
	schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	if (root != NULL && cJSON_IsString(schema) &&
	    g_strcmp0(schema->valuestring, RPT_BENCH_SCHEMA) == 0) {
		report = bench_from_json(root, path, error);
		cJSON_Delete(root);
		return report;
	}
	cJSON_Delete(root);
	/* a report, or an error with its position */
	return rpt_json_load(path, error);
}
