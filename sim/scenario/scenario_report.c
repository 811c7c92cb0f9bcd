/*
 * scenario_report.c: the metrics of one or more modes as a side-by-side text
 * table and as JSON. Both are written field by field in a fixed order with
 * fixed number formats, so the same runs give byte-identical output. (The
 * reports room's report object will take over; the keys stay the same.)
 */
#include <math.h>
#include <string.h>

#include "scenario-private.h"

typedef struct {
	const char *label;
	const char *key;
	double (*get)(const ScenarioResult *r, guint i);
	guint index;
	gboolean integer;
} Metric;

#define U(field)                                                                                   \
	static double get_##field(const ScenarioResult *r, guint i)                                \
	{                                                                                          \
		return (double)r->field;                                                           \
	}
U(submitted)
U(scheduled)
U(completed)
U(pending)
U(running)
U(oom_kills)
U(evictions)
U(n_gpus)
U(alloc_ratio_mean)
U(alloc_ratio_final)
U(compute_util_mean)
U(memory_alloc_mean)
U(cycles)
U(filter_calls)
U(allocator_calls)
U(cel_evaluations)
U(backtracks)
U(events)
#undef U

static double
get_latency(const ScenarioResult *r, guint i)
{
	return r->latency[i];
}

static double
get_jct(const ScenarioResult *r, guint i)
{
	return r->jct[i];
}

static double
get_slowdown(const ScenarioResult *r, guint i)
{
	return r->slowdown[i];
}

static double
get_unsched(const ScenarioResult *r, guint i)
{
	return (double)r->unschedulable[i];
}

static double
get_untried(const ScenarioResult *r, guint i)
{
	return (double)r->pending_never_tried;
}

static double
get_end(const ScenarioResult *r, guint i)
{
	return sim_time_to_seconds(r->end);
}

static const Metric metrics[] = {
	{ "pods submitted", "submitted", get_submitted, 0, TRUE },
	{ "pods scheduled", "scheduled", get_scheduled, 0, TRUE },
	{ "pods completed", "completed", get_completed, 0, TRUE },
	{ "pods running at end", "running", get_running, 0, TRUE },
	{ "pods still pending", "pending", get_pending, 0, TRUE },
	{ "  not yet tried or failed on an error", "pending_error_or_untried", get_untried, 0,
	  TRUE },
	{ "  unschedulable: NodeUnschedulable", "unschedulable.NodeUnschedulable", get_unsched,
	  CLUSTER_PLUGIN_NODE_UNSCHEDULABLE, TRUE },
	{ "  unschedulable: TaintToleration", "unschedulable.TaintToleration", get_unsched,
	  CLUSTER_PLUGIN_TAINT_TOLERATION, TRUE },
	{ "  unschedulable: NodeAffinity", "unschedulable.NodeAffinity", get_unsched,
	  CLUSTER_PLUGIN_NODE_AFFINITY, TRUE },
	{ "  unschedulable: NodeResourcesFit", "unschedulable.NodeResourcesFit", get_unsched,
	  CLUSTER_PLUGIN_NODE_RESOURCES_FIT, TRUE },
	{ "  unschedulable: DynamicResources", "unschedulable.DynamicResources", get_unsched,
	  CLUSTER_PLUGIN_DYNAMIC_RESOURCES, TRUE },
	{ "OOM kills", "oom_kills", get_oom_kills, 0, TRUE },
	{ "evictions", "evictions", get_evictions, 0, TRUE },
	{ "GPU devices (physical if DynamicMIG)", "gpu_devices", get_n_gpus, 0, TRUE },
	{ "GPU allocation ratio (time-weighted)", "gpu_alloc_ratio_mean", get_alloc_ratio_mean, 0,
	  FALSE },
	{ "GPU allocation ratio (final)", "gpu_alloc_ratio_final", get_alloc_ratio_final, 0,
	  FALSE },
	{ "GPU compute utilisation", "gpu_compute_util", get_compute_util_mean, 0, FALSE },
	{ "GPU memory allocated", "gpu_memory_alloc", get_memory_alloc_mean, 0, FALSE },
	{ "scheduling latency p50 (s)", "latency_p50", get_latency, 0, FALSE },
	{ "scheduling latency p90 (s)", "latency_p90", get_latency, 1, FALSE },
	{ "scheduling latency p99 (s)", "latency_p99", get_latency, 2, FALSE },
	{ "JCT p50 (s)", "jct_p50", get_jct, 0, FALSE },
	{ "JCT p90 (s)", "jct_p90", get_jct, 1, FALSE },
	{ "JCT p99 (s)", "jct_p99", get_jct, 2, FALSE },
	{ "slowdown p50", "slowdown_p50", get_slowdown, 0, FALSE },
	{ "slowdown p90", "slowdown_p90", get_slowdown, 1, FALSE },
	{ "slowdown p99", "slowdown_p99", get_slowdown, 2, FALSE },
	{ "scheduling cycles", "cycles", get_cycles, 0, TRUE },
	{ "filter calls (nodes)", "filter_calls", get_filter_calls, 0, TRUE },
	{ "allocator calls", "allocator_calls", get_allocator_calls, 0, TRUE },
	{ "CEL evaluations", "cel_evaluations", get_cel_evaluations, 0, TRUE },
	{ "allocator backtracks", "backtracks", get_backtracks, 0, TRUE },
	{ "simulated end (s)", "end_s", get_end, 0, FALSE },
	{ "events", "events", get_events, 0, TRUE },
};

static void
format_value(GString *out, double v, gboolean integer, gboolean json)
{
	if (isnan(v))
		g_string_append(out, json ? "null" : "-");
	else if (integer || fabs(v) >= 1000)
		g_string_append_printf(out, "%.0f", v);
	else
		g_string_append_printf(out, "%.4g", v);
}

static void
text_notes(ScenarioResult *const *results, guint n, GString *out)
{
	for (guint m = 0; m < n; m++) {
		const ScenarioResult *r = results[m];

		if (r->notes->len == 0)
			continue;
		g_string_append_printf(out, "\ntranslation report (%s):\n", r->mode);
		for (guint i = 0; i < r->notes->len; i++) {
			const ScenarioNote *note = r->notes->pdata[i];

			g_string_append_printf(out, "  %s: %s\n    -> %s\n", note->object,
			                       note->what, note->approx);
		}
	}
}

static void
text_pending(ScenarioResult *const *results, guint n, GString *out)
{
	for (guint m = 0; m < n; m++) {
		const ScenarioResult *r = results[m];
		g_autofree char *every = sim_time_format(r->sampling);
		guint64 peak = 0;
		guint peak_at = 0;

		for (guint i = 0; i < r->pending_series->len; i++) {
			guint64 v = g_array_index(r->pending_series, guint64, i);

			if (v > peak) {
				peak = v;
				peak_at = i;
			}
		}
		g_string_append_printf(
		        out, "pending pods (%s, every %s): %u samples, peak %" G_GUINT64_FORMAT,
		        r->mode, every, r->pending_series->len, peak);
		if (peak > 0) {
			g_autofree char *at = sim_time_format(peak_at * r->sampling);

			g_string_append_printf(out, " at %s", at);
		}
		g_string_append_c(out, '\n');
	}
}

void
scenario_report_text(const Scenario *scenario,
                     ScenarioResult *const *results,
                     guint n,
                     GString *out)
{
	const int w = 38;
	int cw = 14;

	for (guint m = 0; m < n; m++)
		cw = MAX(cw, (int)strlen(results[m]->mode) + 2);
	g_string_append_printf(out, "scenario %s\n\n%-*s", scenario->name, w, "metric");
	for (guint m = 0; m < n; m++)
		g_string_append_printf(out, "%*s", cw, results[m]->mode);
	g_string_append_c(out, '\n');
	for (guint i = 0; i < G_N_ELEMENTS(metrics); i++) {
		g_string_append_printf(out, "%-*s", w, metrics[i].label);
		for (guint m = 0; m < n; m++) {
			g_autoptr(GString) v = g_string_new(NULL);

			format_value(v, metrics[i].get(results[m], metrics[i].index),
			             metrics[i].integer, FALSE);
			g_string_append_printf(out, "%*s", cw, v->str);
		}
		g_string_append_c(out, '\n');
	}
	g_string_append_c(out, '\n');
	text_pending(results, n, out);
	text_notes(results, n, out);
}

static void
json_string(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (const char *p = s; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_printf(out, "\\%c", *p);
		else if ((unsigned char)*p < 0x20)
			g_string_append_printf(out, "\\u%04x", *p);
		else
			g_string_append_c(out, *p);
	}
	g_string_append_c(out, '"');
}

static void
json_result(const ScenarioResult *r, GString *out)
{
	g_string_append(out, "    {\n      \"mode\": ");
	json_string(out, r->mode);
	g_string_append_printf(out, ",\n      \"world\": \"%s\",\n      \"metrics\": {\n",
	                       r->world == SCENARIO_WORLD_DRA ? "dra" : "extended");
	for (guint i = 0; i < G_N_ELEMENTS(metrics); i++) {
		g_string_append_printf(out, "        \"%s\": ", metrics[i].key);
		format_value(out, metrics[i].get(r, metrics[i].index), metrics[i].integer, TRUE);
		g_string_append(out, i + 1 < G_N_ELEMENTS(metrics) ? ",\n" : "\n");
	}
	g_string_append_printf(out,
	                       "      },\n      \"pending_series\": {\"interval_s\": %.6g, "
	                       "\"values\": [",
	                       sim_time_to_seconds(r->sampling));
	for (guint i = 0; i < r->pending_series->len; i++)
		g_string_append_printf(out, "%s%" G_GUINT64_FORMAT, i ? ", " : "",
		                       g_array_index(r->pending_series, guint64, i));
	g_string_append(out, "]},\n      \"translation\": [");
	for (guint i = 0; i < r->notes->len; i++) {
		const ScenarioNote *note = r->notes->pdata[i];

		g_string_append(out, i ? ",\n        {\"object\": " : "\n        {\"object\": ");
		json_string(out, note->object);
		g_string_append(out, ", \"what\": ");
		json_string(out, note->what);
		g_string_append(out, ", \"approximation\": ");
		json_string(out, note->approx);
		g_string_append_c(out, '}');
	}
	g_string_append(out, r->notes->len ? "\n      ]\n    }" : "]\n    }");
}

void
scenario_report_json(const Scenario *scenario,
                     ScenarioResult *const *results,
                     guint n,
                     GString *out)
{
	g_string_append(out, "{\n  \"scenario\": ");
	json_string(out, scenario->name);
	g_string_append(out, ",\n  \"modes\": [\n");
	for (guint m = 0; m < n; m++) {
		json_result(results[m], out);
		g_string_append(out, m + 1 < n ? ",\n" : "\n");
	}
	g_string_append(out, "  ]\n}\n");
}
