/*
 * rpt_json_load.c: reads a `drasim.io/report/v2` file back into a report.
 *
 * `drasim diff` needs the run identity, the mode info, the metrics and the
 * unschedulable counts; those are what is read back. Series, explanations,
 * pictures and per-pod records are left out: the diff compares summaries.
 * A v1 report (µs times, other metric names) is refused with how to
 * regenerate it: comparing it key by key would report renames as changes.
 */
#include <math.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "base.h"
#include "rpt-private.h"

static double
item_number(const cJSON *item)
{
	return cJSON_IsNumber(item) ? item->valuedouble : (double)NAN;
}

/* A JSON number that is a whole number in [0, 2^64), as a count or a seed. Anything else
 * converted to uint64_t is undefined in C (NaN, negative, too large: UBSan, fuzz-report). */
gboolean
rpt_json__whole_number(const cJSON *item, uint64_t *out)
{
	double v;

	if (!cJSON_IsNumber(item))
		return FALSE;
	v = item->valuedouble;
	if (!(v >= 0.0 && v < 18446744073709551616.0) || v > floor(v))
		return FALSE;
	*out = (uint64_t)v;
	return TRUE;
}

static gboolean
load_metrics(RptMode *mode, const cJSON *metrics, const char *path, GError **error)
{
	const cJSON *metric;

	cJSON_ArrayForEach(metric, metrics)
	{
		const cJSON *unit = cJSON_GetObjectItemCaseSensitive(metric, "unit");

		if (!cJSON_IsObject(metric)) {
			g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
			            "%s: modes[%s].metrics.%s: expected an object", path,
			            mode->name, metric->string);
			return FALSE;
		}
		rpt_mode_set_metric(mode, metric->string,
		                    item_number(cJSON_GetObjectItemCaseSensitive(metric, "value")),
		                    cJSON_IsString(unit) ? unit->valuestring : "");
	}
	return TRUE;
}

/* Info values keep their JSON type: a number's text is re-printed as the writer would. */
static void
load_info(RptMode *mode, const cJSON *item)
{
	if (cJSON_IsBool(item))
		rpt_mode_set_info_bool(mode, item->string, cJSON_IsTrue(item));
	else if (cJSON_IsNumber(item))
		rpt_mode_set_info_number(mode, item->string, item->valuedouble);
	else
		rpt_mode_set_info(mode, item->string,
		                  cJSON_IsString(item) ? item->valuestring : "");
}

static gboolean
load_mode(RptReport *report, const cJSON *object, guint index, const char *path, GError **error)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(object, "name");
	const cJSON *item;
	RptMode *mode;

	if (!cJSON_IsString(name)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
		            "%s: modes[%u].name: expected a string", path, index);
		return FALSE;
	}
	mode = rpt_mode_add(report, name->valuestring);
	cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(object, "info"))
	{
		load_info(mode, item);
	}
	cJSON_ArrayForEach(item,
	                   cJSON_GetObjectItemCaseSensitive(object, "unschedulable_by_reason"))
	{
		uint64_t count;

		if (!rpt_json__whole_number(item, &count)) {
			g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
			            "%s: modes[%u].unschedulable_by_reason.%s: expected a count (a "
			            "whole number, 0 or more)",
			            path, index, item->string != NULL ? item->string : "");
			return FALSE;
		}
		rpt_mode_add_unschedulable(mode, item->string, count);
	}
	return load_metrics(mode, cJSON_GetObjectItemCaseSensitive(object, "metrics"), path, error);
}

static RptReport *
report_from_json(const cJSON *root, const char *path, GError **error)
{
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	const cJSON *scenario = cJSON_GetObjectItemCaseSensitive(root, "scenario");
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(root, "drasim_version");
	const cJSON *modes = cJSON_GetObjectItemCaseSensitive(root, "modes");
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(scenario, "name");
	const cJSON *hash = cJSON_GetObjectItemCaseSensitive(scenario, "hash");
	const cJSON *seed = cJSON_GetObjectItemCaseSensitive(scenario, "seed");
	uint64_t seed_value = 0;
	g_autoptr(RptReport) report = NULL;
	guint index = 0;
	const cJSON *mode;

	if (cJSON_IsString(schema) && g_strcmp0(schema->valuestring, RPT_SCHEMA_V1) == 0) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_VERSION,
		            "%s: schema: this report is %s; this drasim reads %s (times in "
		            "seconds, metrics pods_oom_killed/pods_evicted renamed oom_kills/"
		            "evictions; docs/reports.md, \"Schema history\"). Regenerate it with "
		            "this drasim: `drasim compare SCENARIO --format json -o DIR` (a "
		            "baseline: tools/update-baselines)",
		            path, RPT_SCHEMA_V1, RPT_SCHEMA);
		return NULL;
	}
	if (!cJSON_IsString(schema) || g_strcmp0(schema->valuestring, RPT_SCHEMA) != 0) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_VERSION, "%s: schema: expected \"%s\"",
		            path, RPT_SCHEMA);
		return NULL;
	}
	if (!cJSON_IsArray(modes)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE, "%s: modes: expected an array",
		            path);
		return NULL;
	}
	if (cJSON_IsNumber(seed) && !rpt_json__whole_number(seed, &seed_value)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
		            "%s: scenario.seed: expected a whole number, 0 or more", path);
		return NULL;
	}
	report = rpt_report_new(cJSON_IsString(name) ? name->valuestring : "",
	                        cJSON_IsString(hash) ? hash->valuestring : NULL, seed_value,
	                        cJSON_IsString(version) ? version->valuestring : "");
	cJSON_ArrayForEach(mode, modes)
	{
		if (!load_mode(report, mode, index++, path, error)) {
			return NULL;
		}
	}
	return g_steal_pointer(&report);
}

RptReport *
rpt_json_load(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	gsize length = 0;
	g_autoptr(GError) local = NULL;

	if (!base_read_file(path, &text, &length, &local)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "%s: %s", path, local->message);
		return NULL;
	}
	return rpt_json_load_data(path, text, length, error);
}

/* @text as JSON, or NULL with an error naming @path:line:col (or the nesting bound). */
cJSON *
rpt_json__parse(const char *path, const char *text, gsize length, GError **error)
{
	g_autoptr(GError) too_deep = NULL;
	cJSON *root;

	if (!base_json_check_depth(path, text, length, &too_deep)) {
		g_set_error_literal(error, RPT_ERROR, RPT_ERROR_PARSE, too_deep->message);
		return NULL;
	}
	root = cJSON_ParseWithLength(text, length);
	if (root == NULL) {
		const char *at = cJSON_GetErrorPtr();
		gsize offset = at && at >= text ? (gsize)(at - text) : 0;
		guint line = 1, col = 1;

		for (gsize i = 0; i < offset && i < length; i++) {
			line += text[i] == '\n';
			col = text[i] == '\n' ? 1 : col + 1;
		}
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE, "%s:%u:%u: invalid JSON", path, line,
		            col);
	}
	return root;
}

RptReport *
rpt_json_load_data(const char *path, const char *text, gsize length, GError **error)
{
	cJSON *root = rpt_json__parse(path, text, length, error);
	RptReport *report;

	if (root == NULL)
		return NULL;
	report = report_from_json(root, path, error);
	cJSON_Delete(root);
	return report;
}
