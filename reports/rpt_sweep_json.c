/*
 * rpt_sweep_json.c: the sweep's results as `drasim.io/sweep/v1` JSON
 * (reports/schema/sweep.schema.json; fields in docs/sweep.md "Output").
 *
 * Like rpt_json.c: keys in a fixed order, numbers through
 * rpt__format_number() as raw text (null for NaN), seeds as raw 64-bit
 * digits, so one sweep gives byte-identical files however it was run.
 * Parameter values stay the YAML text they were given as ("4",
 * "[dra, extended]"): a JSON number would lose what the user wrote.
 */
#include <cjson/cJSON.h>

#include "rpt-private.h"
#include "rpt-sweep-private.h"

static cJSON *
seed_value(uint64_t seed)
{
	char buf[32];

	g_snprintf(buf, sizeof(buf), "%" G_GUINT64_FORMAT, (guint64)seed);
	return cJSON_CreateRaw(buf);
}

/* {path: value text} in parameter order */
static cJSON *
values_object(const RptSweep *self, const char *const *values)
{
	cJSON *object = cJSON_CreateObject();

	for (guint i = 0; i < self->params->len; i++) {
		cJSON_AddStringToObject(object, g_ptr_array_index(self->params, i), values[i]);
	}
	return object;
}

static cJSON *
row_object(const RptSweep *self, const RptSweepRow *row)
{
	cJSON *object = cJSON_CreateObject();

	cJSON_AddItemToObject(object, "values", values_object(self, row->values));
	cJSON_AddStringToObject(object, "mode", row->mode);
	cJSON_AddStringToObject(object, "metric", row->metric);
	cJSON_AddStringToObject(object, "unit", row->unit);
	cJSON_AddItemToObject(object, "n", rpt_json__number(row->stat.n));
	cJSON_AddItemToObject(object, "mean", rpt_json__number(row->stat.mean));
	cJSON_AddItemToObject(object, "sd", rpt_json__number(row->stat.sd));
	cJSON_AddItemToObject(object, "ci_low", rpt_json__number(row->stat.ci_low));
	cJSON_AddItemToObject(object, "ci_high", rpt_json__number(row->stat.ci_high));
	return object;
}

static cJSON *
failure_object(const RptSweep *self, const RptSweepFailure *failure)
{
	cJSON *object = cJSON_CreateObject();

	cJSON_AddItemToObject(object, "values", values_object(self, failure->values));
	cJSON_AddItemToObject(object, "seed", seed_value(failure->seed));
	cJSON_AddStringToObject(object, "message", failure->message);
	return object;
}

char *
rpt_sweep_json_to_string(const RptSweep *self)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *params = cJSON_CreateArray();
	cJSON *seeds = cJSON_CreateArray();
	cJSON *rows = cJSON_CreateArray();
	cJSON *failures = cJSON_CreateArray();
	char *text;
	char *out;

	cJSON_AddStringToObject(root, "schema", RPT_SWEEP_SCHEMA);
	cJSON_AddStringToObject(root, "name", self->name);
	cJSON_AddStringToObject(root, "scenario", self->scenario);
	cJSON_AddItemToObject(root, "confidence", rpt_json__number(self->confidence));
	for (guint i = 0; i < self->params->len; i++) {
		cJSON_AddItemToArray(params,
		                     cJSON_CreateString(g_ptr_array_index(self->params, i)));
	}
	cJSON_AddItemToObject(root, "parameters", params);
	for (guint i = 0; i < self->seeds->len; i++) {
		cJSON_AddItemToArray(seeds, seed_value(g_array_index(self->seeds, uint64_t, i)));
	}
	cJSON_AddItemToObject(root, "seeds", seeds);
	for (guint i = 0; i < self->rows->len; i++) {
		cJSON_AddItemToArray(rows,
		                     row_object(self, &g_array_index(self->rows, RptSweepRow, i)));
	}
	cJSON_AddItemToObject(root, "rows", rows);
	for (guint i = 0; i < self->failures->len; i++) {
		cJSON_AddItemToArray(
		        failures,
		        failure_object(self, &g_array_index(self->failures, RptSweepFailure, i)));
	}
	cJSON_AddItemToObject(root, "failures", failures);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	out = g_strconcat(text, "\n", NULL);
	cJSON_free(text);
	return out;
}
