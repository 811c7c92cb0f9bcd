/*
 * measure_report.c: ScenarioResult -> RptReport, so `drasim run|compare` get
 * every report form (text, JSON, CSV, HTML) and `drasim diff` from reports/.
 * Seed and horizon are the ones the runs used (command-line overrides
 * included). Fragmentation, the heat map, the GPU pictures and pod devices come
 * from the run's sampler (measure_sample.c). The result and its translation
 * notes are freed here too.
 */
#include "drasim-config.h"

#include <string.h>

#include "base.h"
#include "measure-private.h"
#include "rpt.h"

static char *
scenario_hash(const Scenario *scenario)
{
	g_autofree char *text = NULL;
	gsize length = 0;

	/* the scenario file's bytes; manifests it names are not folded in yet */
	if (scenario->file == NULL || !base_read_file(scenario->file, &text, &length, NULL)) {
		return NULL;
	}
	return g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, length);
}

static void
set_quantiles(RptMode *mode, const char *base, const double *q, const char *unit)
{
	static const char *const suffix[SCENARIO_N_QUANTILES] = { "_p50", "_p90", "_p99" };

	for (guint i = 0; i < SCENARIO_N_QUANTILES; i++) {
		g_autofree char *name = g_strconcat(base, suffix[i], NULL);

		rpt_mode_set_metric(mode, name, q[i], unit);
	}
}

static RptOutcome
pod_outcome(const ScenarioPodRecord *rec)
{
	switch (rec->phase) {
	case CLUSTER_POD_SUCCEEDED:
		return RPT_OUTCOME_COMPLETED;
	case CLUSTER_POD_RUNNING:
		return RPT_OUTCOME_RUNNING;
	case CLUSTER_POD_RESTARTING:
		return RPT_OUTCOME_OOM_KILLED;
	case CLUSTER_POD_DELETED:
		return RPT_OUTCOME_DELETED;
	case CLUSTER_POD_LOST: /* its node failed: it will be evicted */
		return RPT_OUTCOME_EVICTED;
	case CLUSTER_POD_CREATING: /* bound, ContainerCreating: API phase Pending */
	case CLUSTER_POD_PENDING:
	default:
		return rec->never_runs ? RPT_OUTCOME_UNRUNNABLE : RPT_OUTCOME_PENDING;
	}
}

void
scenario_note__free(gpointer data)
{
	ScenarioNote *n = data;

	g_free(n->object);
	g_free(n->what);
	g_free(n->approx);
	g_free(n);
}

void
scenario_note__add(GPtrArray *notes, const char *object, const char *what, const char *approx)
{
	ScenarioNote *n;

	for (guint i = 0; i < notes->len; i++) {
		n = notes->pdata[i];
		if (strcmp(n->object, object) == 0 && strcmp(n->what, what) == 0)
			return;
	}
	n = g_new0(ScenarioNote, 1);
	n->object = g_strdup(object);
	n->what = g_strdup(what);
	n->approx = g_strdup(approx);
	g_ptr_array_add(notes, n);
}

void
scenario_result_free(ScenarioResult *self)
{
	if (self == NULL)
		return;
	g_free(self->mode);
	if (self->pending_series != NULL)
		g_array_unref(self->pending_series);
	if (self->alloc_series != NULL)
		g_array_unref(self->alloc_series);
	if (self->pod_records != NULL)
		g_array_unref(self->pod_records);
	if (self->pod_strings != NULL)
		g_string_chunk_free(self->pod_strings);
	scenario_sample__free(self->sampler);
	g_ptr_array_unref(self->notes);
	if (self->reasons != NULL)
		g_ptr_array_unref(self->reasons);
	cluster_journal_free(self->journal);
	cluster_res_names_free(self->names);
	g_free(self);
}

/* The record's placements as the report's (the last one ends with the pod's outcome). */
static void
fill_placements(GArray *out, const ScenarioPodRecord *rec, RptOutcome outcome)
{
	g_array_set_size(out, 0);
	for (guint k = 0; k < rec->n_placements; k++) {
		const ScenarioPlacement *p = &rec->placements[k];
		RptPlacement place = {
			.node = p->node,
			.devices = p->devices,
			.start_us = p->start >= 0 ? p->start : RPT_TIME_NONE,
			.end_us = p->end >= 0 ? p->end : RPT_TIME_NONE,
			.ended = p->ended != NULL ? p->ended : rpt_outcome_to_string(outcome),
		};

		g_array_append_val(out, place);
	}
}

/* Per-pod records; the HTML's latency and slowdown CDFs are drawn from them. */
static void
fill_pods(RptMode *mode, const ScenarioResult *r)
{
	g_autoptr(GArray) places = g_array_new(FALSE, TRUE, sizeof(RptPlacement));

	for (guint i = 0; r->pod_records != NULL && i < r->pod_records->len; i++) {
		const ScenarioPodRecord *rec = &g_array_index(r->pod_records, ScenarioPodRecord, i);
		RptPod pod = {
			.name = rec->name,
			.workload = rec->workload,
			.request = rec->request,
			.arrival_us = rec->arrival,
			.start_us = rec->start >= 0 ? rec->start : RPT_TIME_NONE,
			.end_us = rec->end >= 0 ? rec->end : RPT_TIME_NONE,
			.node = rec->node,
			.devices = scenario_sample__get_pod_devices(r->sampler, i),
			.slowdown = rec->slowdown,
			.outcome = pod_outcome(rec),
			.attempts = rec->attempts,
			.oom_kills = rec->restarts,
			.shared = rec->shared,
		};

		fill_placements(places, rec, pod.outcome);
		pod.placements = (const RptPlacement *)(gconstpointer)places->data;
		pod.n_placements = places->len;
		rpt_mode_add_pod(mode, &pod);
	}
}

static void
fill_ledger(RptMode *mode, const ScenarioResult *r)
{
	const ClusterSimLedger *l = &r->ledger;
	RptLedger ledger = {
		.submitted = l->submitted,
		.pending = l->pending,
		.creating = l->creating,
		.running = l->running,
		.restarting = l->restarting,
		.lost = l->lost,
		.completed = l->completed,
		.deleted = l->deleted,
		.evictions = r->evictions,
		.oom_kills = r->oom_kills,
	};

	rpt_mode_set_ledger(mode, &ledger);
}

static void
fill_series(RptMode *mode, const ScenarioResult *r)
{
	const GArray *occupancy = scenario_sample__get_occupancy(r->sampler);

	rpt_mode_set_sampling(mode, 0, r->sampling);
	if (r->alloc_series != NULL && r->alloc_series->len > 0) {
		RptSeries *alloc = rpt_mode_add_series(mode, RPT_S_GPU_ALLOC_RATIO, "ratio");

		for (guint i = 0; i < r->alloc_series->len; i++)
			rpt_series_append(alloc, g_array_index(r->alloc_series, double, i));
	} else if (occupancy != NULL && occupancy->len > 0) {
		/* DynamicMIG: published devices overlap, so a device count means nothing;
		 * the series is the occupied fraction of the physical GPUs instead. */
		RptSeries *alloc = rpt_mode_add_series(mode, RPT_S_GPU_ALLOC_RATIO, "ratio");

		rpt_mode_set_info(mode, "gpu_allocation_ratio_series",
		                  "occupied fraction of the physical GPUs (DynamicMIG)");
		for (guint i = 0; i < occupancy->len; i++)
			rpt_series_append(alloc, g_array_index(occupancy, double, i));
	}
	if (r->pending_series != NULL) {
		RptSeries *pending = rpt_mode_add_series(mode, RPT_S_PENDING_PODS, "pods");

		for (guint i = 0; i < r->pending_series->len; i++) {
			rpt_series_append(pending,
			                  (double)g_array_index(r->pending_series, guint64, i));
		}
	}
}

static void
fill_mode(RptMode *mode, const ScenarioResult *r, const ScenarioMode *spec)
{
	rpt_mode_set_info(mode, "world", r->world == SCENARIO_WORLD_DRA ? "dra" : "extended");
	if (spec != NULL) {
		/* the mode's `policy:`, with its arguments (LeastAllocated when unset) */
		g_autofree char *policy = cluster_score_policy_config_describe(&spec->policy);

		rpt_mode_set_info(mode, "score_policy", policy);
		/* the FGD paper's six: a research plugin no kube-scheduler ships
		 * (docs/research/scenario-policies.md); who picks the GPUs (devicePick) */
		if (cluster_sched_score_policy_needs_gpushare(spec->policy.name)) {
			rpt_mode_set_info_bool(mode, "score_policy_beyond_production", TRUE);
			rpt_mode_set_info(mode, "device_pick",
			                  spec->device_pick_policy ? "policy" : "production");
		}
	}
	rpt_mode_set_info_number(mode, "gpu_devices", r->n_gpus);
	/* SimTime is µs, as RptTime */
	rpt_mode_set_info_seconds(mode, "simulated_end_s", r->end);
	rpt_mode_set_info(mode, "end", scenario_end_to_string(r->end_reason));
	rpt_mode_set_info_number(mode, "events", (double)r->events);
	rpt_mode_set_metric(mode, RPT_M_PODS_SUBMITTED, (double)r->submitted, "pods");
	rpt_mode_set_metric(mode, RPT_M_PODS_SCHEDULED, (double)r->scheduled, "pods");
	rpt_mode_set_metric(mode, RPT_M_PODS_COMPLETED, (double)r->completed, "pods");
	rpt_mode_set_metric(mode, "pods_running", (double)r->running, "pods");
	rpt_mode_set_metric(mode, RPT_M_PODS_PENDING, (double)r->pending, "pods");
	rpt_mode_set_metric(mode, RPT_M_OOM_KILLS, (double)r->oom_kills, "kills");
	rpt_mode_set_metric(mode, RPT_M_EVICTIONS, (double)r->evictions, "evictions");
	rpt_mode_set_metric(mode, RPT_M_GPU_ALLOC_RATIO_TW, r->alloc_ratio_mean, "ratio");
	rpt_mode_set_metric(mode, RPT_M_GPU_ALLOC_RATIO_FINAL, r->alloc_ratio_final, "ratio");
	rpt_mode_set_metric(mode, RPT_M_GPU_COMPUTE_UTILISATION, r->compute_util_mean, "ratio");
	rpt_mode_set_metric(mode, RPT_M_GPU_MEMORY_ALLOCATED, r->memory_alloc_mean, "ratio");
	rpt_mode_set_metric(mode, RPT_M_FRAGMENTATION,
	                    scenario_sample__get_fragmentation_mean(r->sampler), "ratio");
	set_quantiles(mode, RPT_M_SCHED_LATENCY, r->latency, "s");
	set_quantiles(mode, RPT_M_JCT, r->jct, "s");
	set_quantiles(mode, RPT_M_SLOWDOWN, r->slowdown, "x");
	rpt_mode_set_metric(mode, "scheduling_cycles", (double)r->cycles, "cycles");
	rpt_mode_set_metric(mode, RPT_M_FILTER_CALLS, (double)r->filter_calls, "calls");
	rpt_mode_set_metric(mode, RPT_M_ALLOCATOR_CALLS, (double)r->allocator_calls, "calls");
	rpt_mode_set_metric(mode, RPT_M_CEL_EVALUATIONS, (double)r->cel_evaluations, "evaluations");
	rpt_mode_set_metric(mode, RPT_M_BACKTRACKS, (double)r->backtracks, "backtracks");
	rpt_mode_set_metric(mode, RPT_M_EVENTS_APPLIED, (double)r->events_applied, "events");
	for (guint p = 0; p < CLUSTER_N_PLUGINS; p++) {
		if (r->unschedulable[p] > 0) {
			rpt_mode_add_unschedulable(mode, cluster_plugin_get_name((ClusterPlugin)p),
			                           r->unschedulable[p]);
		}
	}
	if (r->pending_never_tried > 0) {
		rpt_mode_add_unschedulable(mode, "(not yet tried, or failed on an error)",
		                           r->pending_never_tried);
	}
	fill_ledger(mode, r);
	fill_series(mode, r);
	scenario_sample__fill_report(r->sampler, mode);
	fill_pods(mode, r);
	/* why pods waited or never ran (measure_reasons.c), in pod order */
	for (guint i = 0; r->reasons != NULL && i < r->reasons->len; i++) {
		const ScenarioReason *why = g_ptr_array_index(r->reasons, i);

		if (why->never_runs)
			rpt_mode_add_never_runs_reason(mode, why->pod, why->at, why->message,
			                               why->detail);
		else
			rpt_mode_add_pod_reason(mode, why->pod, why->at, why->message, why->detail);
	}
	for (guint i = 0; r->notes != NULL && i < r->notes->len; i++) {
		const ScenarioNote *note = g_ptr_array_index(r->notes, i);

		rpt_mode_add_translation(mode, note->object, "", note->what, note->approx);
	}
}

RptReport *
scenario_report_build(const Scenario *scenario, ScenarioResult *const *results, guint n)
{
	g_autofree char *hash = scenario_hash(scenario);
	guint64 seed = n > 0 ? results[0]->seed : scenario->seed;
	SimTime horizon = n > 0 ? results[0]->horizon : scenario->horizon;
	RptReport *report = rpt_report_new(scenario->name, hash, seed, DRASIM_VERSION);

	if (horizon != SIM_TIME_NEVER) {
		rpt_report_set_horizon(report, horizon);
	}
	for (guint i = 0; i < n; i++) {
		fill_mode(rpt_mode_add(report, results[i]->mode), results[i],
		          scenario_lookup_mode(scenario, results[i]->mode));
	}
	return report;
}
