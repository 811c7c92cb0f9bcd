/*
 * rpt_metrics.c: the one table of the metric names a simulated run reports
 * and their units, in the order sim/measure sets them. The SLO parser of
 * `drasim plan` reads it to check a metric and its unit, and to list the
 * valid names when one is unknown; a new metric is one row here. The names
 * schema v1 used for two of them are kept to say what they became.
 */
#include <string.h>

#include "rpt-private.h"

typedef struct {
	const char *name;
	const char *unit;
} MetricRow;

/* sim/measure/measure_report.c fill_mode() sets these, in this order */
static const MetricRow metric_rows[] = {
	{ RPT_M_PODS_SUBMITTED, "pods" },
	{ RPT_M_PODS_SCHEDULED, "pods" },
	{ RPT_M_PODS_COMPLETED, "pods" },
	{ "pods_running", "pods" },
	{ RPT_M_PODS_PENDING, "pods" },
	{ RPT_M_OOM_KILLS, "kills" },
	{ RPT_M_EVICTIONS, "evictions" },
	{ RPT_M_GPU_ALLOC_RATIO_TW, "ratio" },
	{ RPT_M_GPU_ALLOC_RATIO_FINAL, "ratio" },
	{ RPT_M_GPU_COMPUTE_UTILISATION, "ratio" },
	{ RPT_M_GPU_MEMORY_ALLOCATED, "ratio" },
	{ RPT_M_FRAGMENTATION, "ratio" },
	{ RPT_M_SCHED_LATENCY "_p50", "s" },
	{ RPT_M_SCHED_LATENCY "_p90", "s" },
	{ RPT_M_SCHED_LATENCY "_p99", "s" },
	{ RPT_M_JCT "_p50", "s" },
	{ RPT_M_JCT "_p90", "s" },
	{ RPT_M_JCT "_p99", "s" },
	{ RPT_M_SLOWDOWN "_p50", "x" },
	{ RPT_M_SLOWDOWN "_p90", "x" },
	{ RPT_M_SLOWDOWN "_p99", "x" },
	{ "scheduling_cycles", "cycles" },
	{ RPT_M_FILTER_CALLS, "calls" },
	{ RPT_M_ALLOCATOR_CALLS, "calls" },
	{ RPT_M_CEL_EVALUATIONS, "evaluations" },
	{ RPT_M_BACKTRACKS, "backtracks" },
	{ RPT_M_EVENTS_APPLIED, "events" },
};

#define N_METRICS G_N_ELEMENTS(metric_rows)

gboolean
rpt_metric_lookup(const char *name, const char **unit_out)
{
	for (guint i = 0; i < N_METRICS; i++) {
		if (strcmp(metric_rows[i].name, name) == 0) {
			if (unit_out != NULL)
				*unit_out = metric_rows[i].unit;
			return TRUE;
		}
	}
	return FALSE;
}

/* schema v1 -> v2 (docs/reports.md, "Schema history"): both counted events, not pods */
static const MetricRow renamed_rows[] = {
	{ "pods_oom_killed", RPT_M_OOM_KILLS },
	{ "pods_evicted", RPT_M_EVICTIONS },
};

const char *
rpt_metric_renamed(const char *old_name)
{
	for (guint i = 0; i < G_N_ELEMENTS(renamed_rows); i++) {
		if (strcmp(renamed_rows[i].name, old_name) == 0)
			return renamed_rows[i].unit;
	}
	return NULL;
}

const char *const *
rpt_metric_names(void)
{
	static const char *names[N_METRICS + 1];
	static gsize filled;

	if (g_once_init_enter(&filled)) {
		for (guint i = 0; i < N_METRICS; i++)
			names[i] = metric_rows[i].name;
		g_once_init_leave(&filled, 1);
	}
	return names;
}
