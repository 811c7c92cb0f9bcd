/*
 * measure_collect.c: the metrics of one run (docs/scenario.md, "Metrics"), read
 * from the simulation when the loop has stopped: counts, capacity, the
 * time-weighted means, the latency, JCT and slowdown quantiles, the per-pod
 * records and the pods' other devices (NICs) for the sampler's device lists.
 * sim/world hands over what it drove (MeasureRunEnd); nothing here changes the
 * simulation. A new metric is computed here and written in measure_report.c.
 */
#include <math.h>
#include <string.h>

#include "cluster_dra.h"
#include "cluster_sched.h"
#include "measure-private.h"

static void
quantiles(SimSamples *s, double *out)
{
	static const double q[SCENARIO_N_QUANTILES] = { 0.5, 0.9, 0.99 };

	for (guint i = 0; i < SCENARIO_N_QUANTILES; i++)
		out[i] = sim_samples_get_count(s) > 0 ? sim_samples_quantile(s, q[i]) : (double)NAN;
}

static const char *
insert_const(GStringChunk *strings, const char *text)
{
	return text != NULL ? g_string_chunk_insert_const(strings, text) : NULL;
}

static void
pod_record_clear(gpointer data)
{
	measure__placements_clear(data);
}

/* Per-pod records from what the simulation kept about each pod (index = uid). */
static GArray *
collect_pods(const MeasureRunEnd *run, ScenarioResult *result)
{
	guint n = MIN(cluster_sim_get_n_pods(run->sim), run->pods->len);
	GArray *out = g_array_sized_new(FALSE, TRUE, sizeof(ScenarioPodRecord), n);
	/* workload, request and node repeat: one copy each (issue 19: bytes per pod) */
	GStringChunk *strings = g_string_chunk_new(64 * 1024);
	/* pending pods can never run: the run stopped quiescent, or reached its
	 * horizon with nothing active beyond it and every pending pod settled */
	gboolean quiescent =
	        result->end_reason == SCENARIO_END_QUIESCENT ||
	        (result->horizon != SIM_TIME_NEVER && sim_loop_is_quiescent(run->loop));

	g_array_set_clear_func(out, pod_record_clear);
	for (guint i = 0; i < n; i++) {
		const ScenarioPod *pod = &g_array_index(run->pods, ScenarioPod, i);
		SimTime latency = cluster_sim_get_pod_latency(run->sim, i);
		SimTime jct = cluster_sim_get_pod_jct(run->sim, i);
		const ClusterNode *node = cluster_sim_get_pod_node(run->sim, i);
		ScenarioPodRecord rec = {
			.name = g_string_chunk_insert(strings, pod->name),
			.workload = insert_const(strings, pod->workload),
			.request = insert_const(strings, pod->request),
			.arrival = pod->arrival,
			.start = latency >= 0 ? pod->arrival + latency : -1,
			.end = jct >= 0 ? pod->arrival + jct : -1,
			.node = insert_const(strings, node != NULL ? node->name : NULL),
			.slowdown = -1.0,
			.phase = cluster_sim_get_pod_phase(run->sim, i),
			.restarts = cluster_sim_get_pod_restarts(run->sim, i),
			.attempts =
			        cluster_journal_get_attempts(cluster_sim_get_journal(run->sim), i),
		};

		rec.never_runs = quiescent && rec.phase == CLUSTER_POD_PENDING;
		result->never_runs += rec.never_runs;

		if (jct >= 0 && pod->work > 0 && pod->work != SIM_TIME_NEVER)
			rec.slowdown = (double)jct / (double)pod->work;
		measure__collect_placements(run, i, &rec);
		g_array_append_val(out, rec);
	}
	result->pod_strings = strings;
	return out;
}

/*
 * DRA world: the devices of each pod's claims that it does not compute on
 * (NICs from dra.net, ...) join its device list, kind "nic" for dra.net and
 * the driver's name otherwise, id "<pool>/<device>" (the pool is the node).
 */
static void
add_other_devices(const MeasureRunEnd *run, ScenarioSampler *sampler)
{
	guint n = MIN(cluster_sim_get_n_pods(run->sim), run->pods->len);

	for (guint i = 0; run->dra != NULL && i < n; i++) {
		const GPtrArray *others = cluster_sim_get_pod_node_index(run->sim, i) != G_MAXUINT
		                                  ? cluster_dra_get_pod_other_devices(run->dra, i)
		                                  : NULL;

		for (guint k = 0; others != NULL && k < others->len; k++) {
			const char *ref = others->pdata[k];
			const char *slash = strchr(ref, '/');
			g_autofree char *driver = slash != NULL
			                                  ? g_strndup(ref, (gsize)(slash - ref))
			                                  : g_strdup(ref);

			scenario_sample__add_pod_device(
			        sampler, i, strcmp(driver, "dra.net") == 0 ? "nic" : driver,
			        slash != NULL ? slash + 1 : ref);
		}
	}
}

void
measure_collect(ScenarioResult *r, const MeasureRunEnd *run)
{
	const ClusterSimStats *st = cluster_sim_get_stats(run->sim);
	const ClusterSchedStats *ss = cluster_sched_get_stats(cluster_sim_get_sched(run->sim));
	SimTime now = sim_loop_get_now(run->loop);
	const SimGauge *busy = cluster_sim_get_busy_devices(run->sim);

	r->end = now;
	r->events = sim_loop_get_dispatched(run->loop);
	r->submitted = st->submitted;
	r->scheduled = st->bound;
	r->completed = st->completed;
	r->pending = st->pending;
	r->running = st->running;
	r->oom_kills = st->oom_kills;
	r->evictions = st->evictions;
	cluster_sim_get_ledger(run->sim, &r->ledger);
	r->events_applied = run->events_applied;
	r->pending_never_tried = cluster_sim_count_pending_by_plugin(run->sim, r->unschedulable);
	cluster_sim_get_capacity(run->sim, &r->n_gpus, &r->gpu_compute_capacity,
	                         &r->gpu_memory_capacity);
	if (run->dynamic) {
		/* DynamicMIG devices overlap (a GPU and every instance it could hold):
		 * capacity is the physical GPUs', and a device count means nothing. */
		r->n_gpus = run->physical_gpus;
		r->gpu_compute_capacity = run->physical_gpus;
		r->gpu_memory_capacity = run->physical_mem;
		r->alloc_ratio_mean = r->alloc_ratio_final = (double)NAN;
	} else if (r->n_gpus > 0) {
		r->alloc_ratio_mean = sim_gauge_mean(busy, now) / r->n_gpus;
		r->alloc_ratio_final = busy->value / r->n_gpus;
	}
	if (r->gpu_compute_capacity > 0)
		r->compute_util_mean =
		        sim_gauge_mean(cluster_sim_get_compute_gauge(run->sim), now) /
		        r->gpu_compute_capacity;
	if (r->gpu_memory_capacity > 0)
		r->memory_alloc_mean = sim_gauge_mean(cluster_sim_get_memory_gauge(run->sim), now) /
		                       (double)r->gpu_memory_capacity;
	quantiles(cluster_sim_get_latencies(run->sim), r->latency);
	quantiles(cluster_sim_get_jcts(run->sim), r->jct);
	quantiles(cluster_sim_get_slowdowns(run->sim), r->slowdown);
	r->cycles = ss->attempts;
	r->filter_calls = ss->node_filter_calls;
	r->allocator_calls = ss->allocator_calls;
	if (run->dra != NULL) {
		const DraStats *ds = cluster_dra_get_allocator_stats(run->dra);

		r->cel_evaluations = ds->selector_evaluations;
		r->backtracks = ds->backtracks;
	}
	r->pending_series = g_array_ref(run->pending);
	r->alloc_series = g_array_ref(run->alloc);
	r->pod_records = collect_pods(run, r);
	scenario_sample__finish(run->sampler);
	add_other_devices(run, run->sampler);
	r->sampler = run->sampler;
	r->sampling = run->sampling;
}
