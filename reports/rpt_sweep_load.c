/*
 * rpt_sweep_load.c: a sweep.json read back (rpt_sweep_json_to_string()'s
 * output), for `drasim diff OLD/sweep.json NEW/sweep.json`. Only what the
 * comparison needs is checked strictly: the schema, the parameters, and each
 * row's values, mode, metric, unit and statistics.
 */
#include <math.h>

#include <cjson/cJSON.h>

#include "base.h"
#include "rpt-private.h"
#include "rpt-sweep-private.h"

static double
number_or_nan(const cJSON *item)
{
	return cJSON_IsNumber(item) ? item->valuedouble : (double)NAN;
}

static const char *
string_at(const cJSON *object, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* The row's values in parameter order, or FALSE when one is missing. */
static gboolean
row_values(const RptSweep *sweep, const cJSON *values, const char **out)
{
	for (guint i = 0; i < sweep->params->len; i++)
		if ((out[i] = string_at(values, sweep->params->pdata[i])) == NULL)
			return FALSE;
	return TRUE;
}

static gboolean
load_rows(RptSweep *sweep, const cJSON *rows, const char *path, GError **error)
{
	g_autofree const char **values = g_new0(const char *, sweep->params->len + 1);
	guint index = 0;
	const cJSON *row;

	cJSON_ArrayForEach(row, rows)
	{
		const char *mode = string_at(row, "mode"), *metric = string_at(row, "metric");
		const char *unit = string_at(row, "unit");
		const cJSON *n = cJSON_GetObjectItemCaseSensitive(row, "n");
		RptStat stat;

		if (mode == NULL || metric == NULL || unit == NULL || !cJSON_IsNumber(n) ||
		    !row_values(sweep, cJSON_GetObjectItemCaseSensitive(row, "values"), values)) {
			g_set_error(
			        error, RPT_ERROR, RPT_ERROR_PARSE,
			        "%s: rows[%u]: expected values of every parameter, mode, metric, "
			        "unit and n",
			        path, index);
			return FALSE;
		}
		stat = (RptStat){ (guint)n->valuedouble,
			          number_or_nan(cJSON_GetObjectItemCaseSensitive(row, "mean")),
			          number_or_nan(cJSON_GetObjectItemCaseSensitive(row, "sd")),
			          number_or_nan(cJSON_GetObjectItemCaseSensitive(row, "ci_low")),
			          number_or_nan(cJSON_GetObjectItemCaseSensitive(row, "ci_high")) };
		rpt_sweep_add_row(sweep, values, mode, metric, unit, &stat);
		index++;
	}
	return TRUE;
}

static RptSweep *
sweep_from_json(const cJSON *root, const char *path, GError **error)
{
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "parameters");
	const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(root, "seeds");
	const char *name = string_at(root, "name"), *scenario = string_at(root, "scenario");
	g_autoptr(GPtrArray) paths = g_ptr_array_new();
	g_autoptr(GArray) seed_list = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	g_autoptr(RptSweep) sweep = NULL;
	const cJSON *item;

	cJSON_ArrayForEach(item, params)
	{
		if (!cJSON_IsString(item))
			break;
		g_ptr_array_add(paths, item->valuestring);
	}
	cJSON_ArrayForEach(item, seeds)
	{
		uint64_t seed = cJSON_IsNumber(item) ? (uint64_t)item->valuedouble : 0;

		g_array_append_val(seed_list, seed);
	}
	if (name == NULL || scenario == NULL || !cJSON_IsArray(params) ||
	    paths->len != (guint)cJSON_GetArraySize(params)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
		            "%s: expected name, scenario and parameters (a list of paths)", path);
		return NULL;
	}
	sweep = rpt_sweep_new(name, scenario, (const char *const *)paths->pdata, paths->len,
	                      (const uint64_t *)seed_list->data, seed_list->len,
	                      number_or_nan(cJSON_GetObjectItemCaseSensitive(root, "confidence")));
	if (!load_rows(sweep, cJSON_GetObjectItemCaseSensitive(root, "rows"), path, error))
		return NULL;
	return g_steal_pointer(&sweep);
}

RptSweep *
rpt_sweep_json_load(const char *path, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;
	const char *schema;
	RptSweep *sweep;
	cJSON *root;
	gsize length;

	if (!base_read_file(path, &text, &length, &local)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "%s: %s", path, local->message);
		return NULL;
	}
	if (!base_json_check_depth(path, text, length, &local)) {
		g_set_error_literal(error, RPT_ERROR, RPT_ERROR_PARSE, local->message);
		return NULL;
	}
	root = cJSON_ParseWithLength(text, length);
	schema = string_at(root, "schema");
	if (g_strcmp0(schema, RPT_SWEEP_SCHEMA) != 0) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_VERSION, "%s: schema: expected \"%s\"",
		            path, RPT_SWEEP_SCHEMA);
		cJSON_Delete(root);
		return NULL;
	}
	sweep = sweep_from_json(root, path, error);
	cJSON_Delete(root);
	return sweep;
}
