/*
 * rpt_mode.c: one mode of a report (dra, extended, ...): its metrics,
 * explanations, translation entries, time series, GPU pictures and pods.
 *
 * Setters append on a new name and replace in place on a known one, so the
 * order of first use is the output order and adding a metric needs no
 * writer change.
 */
#include <math.h>
#include <string.h>

#include "rpt-chart-private.h"
#include "rpt-private.h"

static void
metric_free(RptMetric *metric)
{
	g_free(metric->name);
	g_free(metric->unit);
	g_free(metric);
}

static void
info_free(RptInfo *info)
{
	g_free(info->key);
	g_free(info->value);
	g_free(info);
}

static void
unsched_free(RptUnsched *unsched)
{
	g_free(unsched->reason);
	g_free(unsched);
}

static void
reason_free(RptReason *reason)
{
	g_free(reason->pod);
	g_free(reason->message);
	g_free(reason->detail);
	g_free(reason);
}

static void
translation_free(RptTranslation *entry)
{
	g_free(entry->subject);
	g_free(entry->feature);
	g_free(entry->expression);
	g_free(entry->approximation);
	g_free(entry);
}

static void
series_free(RptSeries *series)
{
	g_free(series->name);
	g_free(series->unit);
	g_array_unref(series->values);
	g_free(series);
}

static void
slice_free(RptSlice *slice)
{
	g_free(slice->profile);
	g_free(slice->pod);
	g_free(slice);
}

static void
gpu_free(RptGpu *gpu)
{
	g_free(gpu->node);
	g_free(gpu->device);
	g_free(gpu->model);
	g_free(gpu->sharing);
	g_ptr_array_unref(gpu->slices);
	g_free(gpu);
}

void
rpt_mode__free(RptMode *mode)
{
	g_free(mode->name);
	g_ptr_array_unref(mode->info);
	g_ptr_array_unref(mode->metrics);
	g_ptr_array_unref(mode->unsched);
	g_ptr_array_unref(mode->reasons);
	g_ptr_array_unref(mode->translations);
	g_ptr_array_unref(mode->series);
	g_ptr_array_unref(mode->nodes);
	g_ptr_array_unref(mode->gpus);
	g_array_unref(mode->pods);
	g_ptr_array_unref(mode->placements);
	g_string_chunk_free(mode->strings);
	g_free(mode);
}

RptMode *
rpt_mode_add(RptReport *report, const char *name)
{
	RptMode *mode = rpt_report_lookup_mode(report, name);

	if (mode != NULL) {
		return mode;
	}
	mode = g_new0(RptMode, 1);
	mode->name = g_strdup(name);
	mode->info = g_ptr_array_new_with_free_func((GDestroyNotify)info_free);
	mode->metrics = g_ptr_array_new_with_free_func((GDestroyNotify)metric_free);
	mode->unsched = g_ptr_array_new_with_free_func((GDestroyNotify)unsched_free);
	mode->reasons = g_ptr_array_new_with_free_func((GDestroyNotify)reason_free);
	mode->translations = g_ptr_array_new_with_free_func((GDestroyNotify)translation_free);
	mode->series = g_ptr_array_new_with_free_func((GDestroyNotify)series_free);
	mode->nodes = g_ptr_array_new_with_free_func((GDestroyNotify)series_free);
	mode->gpus = g_ptr_array_new_with_free_func((GDestroyNotify)gpu_free);
	mode->pods = g_array_new(FALSE, TRUE, sizeof(RptPod));
	mode->placements = g_ptr_array_new_with_free_func(g_free);
	mode->strings = g_string_chunk_new(4096);
	g_ptr_array_add(report->modes, mode);
	return mode;
}

const char *
rpt_mode_get_name(const RptMode *self)
{
	return self->name;
}

void
rpt_mode__set_info_kind(RptMode *self, const char *key, const char *value, RptInfoKind kind)
{
	RptInfo *info = NULL;

	for (guint i = 0; i < self->info->len && info == NULL; i++) {
		if (strcmp(((RptInfo *)g_ptr_array_index(self->info, i))->key, key) == 0)
			info = g_ptr_array_index(self->info, i);
	}
	if (info == NULL) {
		info = g_new0(RptInfo, 1);
		info->key = g_strdup(key);
		g_ptr_array_add(self->info, info);
	}
	g_free(info->value);
	info->value = g_strdup(value ? value : "");
	info->kind = kind;
}

void
rpt_mode_set_info(RptMode *self, const char *key, const char *value)
{
	rpt_mode__set_info_kind(self, key, value, RPT_INFO_STRING);
}

void
rpt_mode_set_info_number(RptMode *self, const char *key, double value)
{
	char buf[64];

	rpt__format_number(buf, sizeof(buf), value);
	rpt_mode__set_info_kind(self, key, buf, RPT_INFO_NUMBER);
}

void
rpt_mode_set_info_seconds(RptMode *self, const char *key, RptTime t_us)
{
	char buf[64];

	rpt__format_seconds(buf, sizeof(buf), t_us);
	rpt_mode__set_info_kind(self, key, buf, RPT_INFO_NUMBER);
}

void
rpt_mode_set_info_bool(RptMode *self, const char *key, gboolean value)
{
	rpt_mode__set_info_kind(self, key, value ? "true" : "false", RPT_INFO_BOOL);
}

RptInfoKind
rpt_mode__get_info_kind(const RptMode *self, guint index)
{
	return ((const RptInfo *)g_ptr_array_index(self->info, index))->kind;
}

guint
rpt_mode_get_n_info(const RptMode *self)
{
	return self->info->len;
}

void
rpt_mode_get_info(const RptMode *self, guint index, const char **key_out, const char **value_out)
{
	const RptInfo *info = g_ptr_array_index(self->info, index);

	*key_out = info->key;
	*value_out = info->value;
}

const char *
rpt_mode_lookup_info(const RptMode *self, const char *key)
{
	for (guint i = 0; i < self->info->len; i++) {
		const RptInfo *info = g_ptr_array_index(self->info, i);

		if (strcmp(info->key, key) == 0)
			return info->value;
	}
	return NULL;
}

char *
rpt_mode_describe_end(const RptMode *self)
{
	const char *end = rpt_mode_lookup_info(self, "end");
	const char *seconds = rpt_mode_lookup_info(self, "simulated_end_s");
	char human[64] = "";
	guint never = 0;

	if (end == NULL)
		return NULL;
	/* the exact seconds the report holds, and the human duration beside them */
	if (seconds == NULL)
		seconds = "?";
	else if (g_ascii_strtod(seconds, NULL) >= 60.0)
		rpt_chart_duration(human, sizeof(human), g_ascii_strtod(seconds, NULL));
	for (guint i = 0; i < self->reasons->len; i++)
		never += ((const RptReason *)g_ptr_array_index(self->reasons, i))->never_runs;
	if (never > 0)
		return g_strdup_printf("%s at %s s%s%s%s: %u pod%s can never run", end, seconds,
		                       *human ? " (" : "", human, *human ? ")" : "", never,
		                       never == 1 ? "" : "s");
	return g_strdup_printf("%s at %s s%s%s%s%s", end, seconds, *human ? " (" : "", human,
	                       *human ? ")" : "",
	                       strcmp(end, "done") == 0 ? ", no pod waiting" : "");
}

void
rpt_mode_set_metric(RptMode *self, const char *name, double value, const char *unit)
{
	RptMetric *metric;

	for (guint i = 0; i < self->metrics->len; i++) {
		metric = g_ptr_array_index(self->metrics, i);
		if (strcmp(metric->name, name) == 0) {
			metric->value = value;
			g_free(metric->unit);
			metric->unit = g_strdup(unit ? unit : "");
			return;
		}
	}
	metric = g_new0(RptMetric, 1);
	metric->name = g_strdup(name);
	metric->unit = g_strdup(unit ? unit : "");
	metric->value = value;
	g_ptr_array_add(self->metrics, metric);
}

void
rpt_mode_set_percentiles(
        RptMode *self, const char *base, const double *samples, gsize n_samples, const char *unit)
{
	static const double quantiles[] = { 50.0, 90.0, 99.0 };

	for (guint i = 0; i < G_N_ELEMENTS(quantiles); i++) {
		g_autofree char *name = g_strdup_printf("%s_p%.0f", base, quantiles[i]);

		rpt_mode_set_metric(self, name, rpt_percentile(samples, n_samples, quantiles[i]),
		                    unit);
	}
}

guint
rpt_mode_get_n_metrics(const RptMode *self)
{
	return self->metrics->len;
}

void
rpt_mode_get_metric(const RptMode *self,
                    guint index,
                    const char **name_out,
                    double *value_out,
                    const char **unit_out)
{
	const RptMetric *metric = g_ptr_array_index(self->metrics, index);

	*name_out = metric->name;
	*value_out = metric->value;
	*unit_out = metric->unit;
}

gboolean
rpt_mode_lookup_metric(const RptMode *self, const char *name, double *value_out)
{
	for (guint i = 0; i < self->metrics->len; i++) {
		const RptMetric *metric = g_ptr_array_index(self->metrics, i);

		if (strcmp(metric->name, name) == 0) {
			*value_out = metric->value;
			return TRUE;
		}
	}
	return FALSE;
}

void
rpt_mode_add_unschedulable(RptMode *self, const char *reason, uint64_t pods)
{
	RptUnsched *entry;

	for (guint i = 0; i < self->unsched->len; i++) {
		entry = g_ptr_array_index(self->unsched, i);
		if (strcmp(entry->reason, reason) == 0) {
			entry->pods += pods;
			return;
		}
	}
	entry = g_new0(RptUnsched, 1);
	entry->reason = g_strdup(reason);
	entry->pods = pods;
	g_ptr_array_add(self->unsched, entry);
}

guint
rpt_mode_get_n_unschedulable(const RptMode *self)
{
	return self->unsched->len;
}

void
rpt_mode_get_unschedulable(const RptMode *self,
                           guint index,
                           const char **reason_out,
                           uint64_t *pods_out)
{
	const RptUnsched *entry = g_ptr_array_index(self->unsched, index);

	*reason_out = entry->reason;
	*pods_out = entry->pods;
}

static void
add_reason(RptMode *self,
           const char *pod,
           RptTime at_us,
           const char *message,
           const char *detail,
           gboolean never_runs)
{
	RptReason *reason = g_new0(RptReason, 1);

	reason->pod = g_strdup(pod);
	reason->at_us = at_us;
	reason->message = g_strdup(message ? message : "");
	reason->detail = g_strdup(detail);
	reason->never_runs = never_runs;
	g_ptr_array_add(self->reasons, reason);
}

void
rpt_mode_add_pod_reason(
        RptMode *self, const char *pod, RptTime at_us, const char *message, const char *detail)
{
	add_reason(self, pod, at_us, message, detail, FALSE);
}

void
rpt_mode_add_never_runs_reason(
        RptMode *self, const char *pod, RptTime at_us, const char *message, const char *detail)
{
	add_reason(self, pod, at_us, message, detail, TRUE);
}

void
rpt_mode_add_translation(RptMode *self,
                         const char *subject,
                         const char *feature,
                         const char *expression,
                         const char *approximation)
{
	RptTranslation *entry = g_new0(RptTranslation, 1);

	entry->subject = g_strdup(subject ? subject : "");
	entry->feature = g_strdup(feature ? feature : "");
	entry->expression = g_strdup(expression ? expression : "");
	entry->approximation = g_strdup(approximation ? approximation : "");
	g_ptr_array_add(self->translations, entry);
}

void
rpt_mode_set_sampling(RptMode *self, RptTime start_us, RptTime interval_us)
{
	self->sample_start_us = start_us;
	self->sample_interval_us = interval_us;
}

static RptSeries *
series_new(const char *name, const char *unit, guint gpus)
{
	RptSeries *series = g_new0(RptSeries, 1);

	series->name = g_strdup(name);
	series->unit = g_strdup(unit ? unit : "");
	series->gpus = gpus;
	series->values = g_array_new(FALSE, FALSE, sizeof(double));
	return series;
}

RptSeries *
rpt_mode_add_series(RptMode *self, const char *name, const char *unit)
{
	RptSeries *series;

	for (guint i = 0; i < self->series->len; i++) {
		series = g_ptr_array_index(self->series, i);
		if (strcmp(series->name, name) == 0) {
			return series;
		}
	}
	series = series_new(name, unit, 0);
	g_ptr_array_add(self->series, series);
	return series;
}

RptSeries *
rpt_mode_add_node(RptMode *self, const char *node, guint gpus)
{
	RptSeries *series;

	for (guint i = 0; i < self->nodes->len; i++) {
		series = g_ptr_array_index(self->nodes, i);
		if (strcmp(series->name, node) == 0) {
			return series;
		}
	}
	series = series_new(node, "gpus", gpus);
	g_ptr_array_add(self->nodes, series);
	return series;
}

void
rpt_series_append(RptSeries *self, double value)
{
	g_array_append_val(self->values, value);
}

RptTime
rpt_mode__sample_time(const RptMode *mode, guint i)
{
	return mode->sample_start_us + (RptTime)i * mode->sample_interval_us;
}

guint
rpt_mode__n_samples(const RptMode *mode)
{
	guint n = 0;

	for (guint i = 0; i < mode->series->len; i++) {
		n = MAX(n, ((RptSeries *)g_ptr_array_index(mode->series, i))->values->len);
	}
	for (guint i = 0; i < mode->nodes->len; i++) {
		n = MAX(n, ((RptSeries *)g_ptr_array_index(mode->nodes, i))->values->len);
	}
	return n;
}

RptGpu *
rpt_mode_add_gpu(RptMode *self,
                 const char *node,
                 const char *device,
                 const char *model,
                 const char *sharing,
                 guint units,
                 RptTime at_us)
{
	RptGpu *gpu = g_new0(RptGpu, 1);

	gpu->node = g_strdup(node ? node : "");
	gpu->device = g_strdup(device ? device : "");
	gpu->model = g_strdup(model ? model : "");
	gpu->sharing = g_strdup(sharing ? sharing : "exclusive");
	gpu->units = MAX(units, 1);
	gpu->at_us = at_us;
	gpu->slices = g_ptr_array_new_with_free_func((GDestroyNotify)slice_free);
	g_ptr_array_add(self->gpus, gpu);
	return gpu;
}

void
rpt_gpu_add_slice(RptGpu *self, const char *profile, guint start, guint size, const char *pod)
{
	RptSlice *slice = g_new0(RptSlice, 1);

	slice->profile = g_strdup(profile ? profile : "");
	slice->start = start;
	slice->size = size;
	slice->pod = g_strdup(pod);
	g_ptr_array_add(self->slices, slice);
}

static const char *
intern(RptMode *self, const char *text)
{
	return text ? g_string_chunk_insert_const(self->strings, text) : NULL;
}

void
rpt_mode_add_pod(RptMode *self, const RptPod *pod)
{
	RptPod copy = *pod;

	copy.name = intern(self, pod->name ? pod->name : "");
	copy.workload = intern(self, pod->workload);
	copy.request = intern(self, pod->request);
	copy.node = intern(self, pod->node);
	copy.devices = intern(self, pod->devices);
	copy.placements = NULL;
	copy.n_placements = 0;
	if (pod->n_placements > 0) {
		RptPlacement *places = g_new(RptPlacement, pod->n_placements);

		for (guint i = 0; i < pod->n_placements; i++) {
			places[i] = pod->placements[i];
			places[i].node = intern(self, pod->placements[i].node);
			places[i].devices = intern(self, pod->placements[i].devices);
			places[i].ended = intern(self, pod->placements[i].ended);
		}
		g_ptr_array_add(self->placements, places);
		copy.placements = places;
		copy.n_placements = pod->n_placements;
	}
	g_array_append_val(self->pods, copy);
}

guint
rpt_mode_get_n_pods(const RptMode *self)
{
	return self->pods->len;
}

const RptPod *
rpt_mode_get_pod(const RptMode *self, guint index)
{
	g_return_val_if_fail(index < self->pods->len, NULL);
	return &g_array_index(self->pods, RptPod, index);
}
