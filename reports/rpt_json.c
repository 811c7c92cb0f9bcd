/*
 * rpt_json.c: the report as `drasim.io/report/v2` JSON, the complete record.
 *
 * Keys are emitted in a fixed order (cJSON keeps insertion order), numbers
 * go through rpt__format_number() as raw text so every run prints the same
 * digits, and times are seconds written exactly from integer microseconds
 * (keys end in _s), so two runs of one scenario give byte-identical files
 * and a baseline diff shows only real changes.
 */
#include <string.h>

#include <cjson/cJSON.h>

#include "rpt-private.h"

/* Where the pods go in the printed skeleton: a byte no printed string holds
 * (cJSON escapes control characters) and no raw number or token does. */
#define PODS_MARK "\001"

cJSON *
rpt_json__number(double value)
{
	char buf[64];

	rpt__format_number(buf, sizeof(buf), value);
	return cJSON_CreateRaw(buf);
}

static cJSON *
time_value(RptTime t)
{
	char buf[64];

	if (t == RPT_TIME_NONE)
		return cJSON_CreateNull();
	rpt__format_seconds(buf, sizeof(buf), t);
	return cJSON_CreateRaw(buf);
}

static cJSON *
string_or_null(const char *text)
{
	return text ? cJSON_CreateString(text) : cJSON_CreateNull();
}

static cJSON *
values_array(const GArray *values)
{
	cJSON *array = cJSON_CreateArray();

	for (guint i = 0; i < values->len; i++) {
		cJSON_AddItemToArray(array, rpt_json__number(g_array_index(values, double, i)));
	}
	return array;
}

static cJSON *
metrics_object(const RptMode *mode)
{
	cJSON *object = cJSON_CreateObject();

	for (guint i = 0; i < mode->metrics->len; i++) {
		const RptMetric *metric = g_ptr_array_index(mode->metrics, i);
		cJSON *item = cJSON_CreateObject();

		cJSON_AddItemToObject(item, "value", rpt_json__number(metric->value));
		cJSON_AddStringToObject(item, "unit", metric->unit);
		cJSON_AddItemToObject(object, metric->name, item);
	}
	return object;
}

static cJSON *
explanations(const RptMode *mode)
{
	cJSON *array = cJSON_CreateArray();

	for (guint i = 0; i < mode->reasons->len; i++) {
		const RptReason *reason = g_ptr_array_index(mode->reasons, i);
		cJSON *item = cJSON_CreateObject();

		cJSON_AddStringToObject(item, "pod", reason->pod);
		cJSON_AddItemToObject(item, "time_s", time_value(reason->at_us));
		cJSON_AddStringToObject(item, "message", reason->message);
		cJSON_AddItemToObject(item, "detail", string_or_null(reason->detail));
		if (reason->never_runs)
			cJSON_AddTrueToObject(item, "never_runs");
		cJSON_AddItemToArray(array, item);
	}
	return array;
}

static cJSON *
translations(const RptMode *mode)
{
	cJSON *array = cJSON_CreateArray();

	for (guint i = 0; i < mode->translations->len; i++) {
		const RptTranslation *entry = g_ptr_array_index(mode->translations, i);
		cJSON *item = cJSON_CreateObject();

		cJSON_AddStringToObject(item, "subject", entry->subject);
		cJSON_AddStringToObject(item, "feature", entry->feature);
		cJSON_AddStringToObject(item, "expression", entry->expression);
		cJSON_AddStringToObject(item, "approximation", entry->approximation);
		cJSON_AddItemToArray(array, item);
	}
	return array;
}

static cJSON *
timeseries(const RptMode *mode)
{
	cJSON *object = cJSON_CreateObject();
	cJSON *series = cJSON_CreateObject();
	cJSON *nodes = cJSON_CreateArray();

	cJSON_AddItemToObject(object, "start_s", time_value(mode->sample_start_us));
	cJSON_AddItemToObject(object, "interval_s", time_value(mode->sample_interval_us));
	for (guint i = 0; i < mode->series->len; i++) {
		const RptSeries *one = g_ptr_array_index(mode->series, i);
		cJSON *item = cJSON_CreateObject();

		cJSON_AddStringToObject(item, "unit", one->unit);
		cJSON_AddItemToObject(item, "values", values_array(one->values));
		cJSON_AddItemToObject(series, one->name, item);
	}
	cJSON_AddItemToObject(object, "series", series);
	for (guint i = 0; i < mode->nodes->len; i++) {
		const RptSeries *row = g_ptr_array_index(mode->nodes, i);
		cJSON *item = cJSON_CreateObject();

		cJSON_AddStringToObject(item, "node", row->name);
		cJSON_AddItemToObject(item, "gpus", rpt_json__number(row->gpus));
		cJSON_AddItemToObject(item, "busy", values_array(row->values));
		cJSON_AddItemToArray(nodes, item);
	}
	cJSON_AddItemToObject(object, "node_gpu_occupancy", nodes);
	return object;
}

static cJSON *
gpu_pictures(const RptMode *mode)
{
	cJSON *array = cJSON_CreateArray();

	for (guint i = 0; i < mode->gpus->len; i++) {
		const RptGpu *gpu = g_ptr_array_index(mode->gpus, i);
		cJSON *item = cJSON_CreateObject();
		cJSON *slices = cJSON_CreateArray();

		cJSON_AddStringToObject(item, "node", gpu->node);
		cJSON_AddStringToObject(item, "device", gpu->device);
		cJSON_AddStringToObject(item, "model", gpu->model);
		cJSON_AddStringToObject(item, "sharing", gpu->sharing);
		cJSON_AddItemToObject(item, "units", rpt_json__number(gpu->units));
		cJSON_AddItemToObject(item, "time_s", time_value(gpu->at_us));
		for (guint j = 0; j < gpu->slices->len; j++) {
			const RptSlice *slice = g_ptr_array_index(gpu->slices, j);
			cJSON *s = cJSON_CreateObject();

			cJSON_AddStringToObject(s, "profile", slice->profile);
			cJSON_AddItemToObject(s, "start", rpt_json__number(slice->start));
			cJSON_AddItemToObject(s, "size", rpt_json__number(slice->size));
			cJSON_AddItemToObject(s, "pod", string_or_null(slice->pod));
			cJSON_AddItemToArray(slices, s);
		}
		cJSON_AddItemToObject(item, "slices", slices);
		cJSON_AddItemToArray(array, item);
	}
	return array;
}

static cJSON *
mode_object(const RptMode *mode)
{
	cJSON *object = cJSON_CreateObject();
	cJSON *info = cJSON_CreateObject();
	cJSON *unsched = cJSON_CreateObject();
	cJSON *ledger;

	cJSON_AddStringToObject(object, "name", mode->name);
	for (guint i = 0; i < mode->info->len; i++) {
		const RptInfo *entry = g_ptr_array_index(mode->info, i);

		/* a number's or a boolean's text is its JSON token (rpt_mode_set_info_*) */
		cJSON_AddItemToObject(info, entry->key,
		                      entry->kind == RPT_INFO_STRING
		                              ? cJSON_CreateString(entry->value)
		                              : cJSON_CreateRaw(entry->value));
	}
	cJSON_AddItemToObject(object, "info", info);
	cJSON_AddItemToObject(object, "metrics", metrics_object(mode));
	ledger = rpt_json__ledger(mode);
	if (ledger != NULL)
		cJSON_AddItemToObject(object, "ledger", ledger);
	for (guint i = 0; i < mode->unsched->len; i++) {
		const RptUnsched *entry = g_ptr_array_index(mode->unsched, i);

		cJSON_AddItemToObject(unsched, entry->reason,
		                      rpt_json__number((double)entry->pods));
	}
	cJSON_AddItemToObject(object, "unschedulable_by_reason", unsched);
	cJSON_AddItemToObject(object, "pod_reasons", explanations(mode));
	cJSON_AddItemToObject(object, "translation", translations(mode));
	cJSON_AddItemToObject(object, "timeseries", timeseries(mode));
	cJSON_AddItemToObject(object, "gpu_slices", gpu_pictures(mode));
	/* where rpt_json_write() streams the pods in */
	cJSON_AddItemToObject(object, "pods", cJSON_CreateRaw(PODS_MARK));
	return object;
}

/* The report without its pods, each mode's "pods" a PODS_MARK (transfer full). */
static char *
skeleton(const RptReport *report)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *scenario = cJSON_CreateObject();
	cJSON *modes = cJSON_CreateArray();
	g_autofree char *seed = g_strdup_printf("%" G_GUINT64_FORMAT, report->seed);
	char *text;

	cJSON_AddStringToObject(root, "schema", RPT_SCHEMA);
	cJSON_AddStringToObject(scenario, "name", report->scenario);
	cJSON_AddItemToObject(scenario, "hash", string_or_null(report->scenario_hash));
	/* raw digits: a 64-bit seed does not survive a double */
	cJSON_AddItemToObject(scenario, "seed", cJSON_CreateRaw(seed));
	cJSON_AddItemToObject(scenario, "horizon_s", time_value(report->horizon_us));
	cJSON_AddItemToObject(root, "scenario", scenario);
	cJSON_AddStringToObject(root, "drasim_version", report->version);
	for (guint i = 0; i < report->modes->len; i++) {
		cJSON_AddItemToArray(modes, mode_object(g_ptr_array_index(report->modes, i)));
	}
	cJSON_AddItemToObject(root, "modes", modes);
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

static gboolean
report_write(gconstpointer subject, const RptSink *sink, GError **error)
{
	const RptReport *report = subject;
	char *text = skeleton(report);
	const char *at = text;
	g_autoptr(GString) buffer = g_string_sized_new(RPT_SINK_CHUNK + 4096);
	gboolean ok = TRUE;

	for (guint i = 0; ok && i < report->modes->len; i++) {
		const RptMode *mode = g_ptr_array_index(report->modes, i);
		const char *mark = strchr(at, PODS_MARK[0]);

		/* one mark a mode, in mode order: cJSON escapes the byte in any string */
		g_assert(mark != NULL);
		g_string_append_len(buffer, at, mark - at);
		/* depth 4: root object, "modes" array, this object, "pods" array */
		ok = rpt_json__pods_write(mode->pods, 4, buffer, sink, error);
		at = mark + 1;
	}
	if (ok) {
		g_string_append(buffer, at);
		g_string_append_c(buffer, '\n');
		ok = rpt__sink_pass(sink, buffer, 0, error);
	}
	cJSON_free(text);
	return ok;
}

gboolean
rpt_json_write(const RptReport *report, const RptSink *sink, GError **error)
{
	return report_write(report, sink, error);
}

char *
rpt_json_to_string(const RptReport *report)
{
	return rpt__produce_to_string(report_write, report);
}
