/*
 * measure.h: the face of sim/measure, what a run measures and how it becomes
 * a report: the samplers (pending pods, occupancy, FGD fragmentation, GPU
 * pictures, each pod's devices), the reasons pods waited, `drasim explain`'s
 * history of one pod, the ScenarioResult of one mode and the report builder
 * (scenario_report_build() -> RptReport of reports/). It reads the cluster
 * through sim/cluster's queries; sim/world, which drives the run, feeds it.
 */
#pragma once

#include <glib.h>

#include "cluster_dra.h"
#include "cluster_journal.h"
#include "cluster_query.h"
#include "cluster_types.h"
#include "hw.h"
#include "rpt.h"
#include "scenario.h"

G_BEGIN_DECLS

/* Heat-map rows kept per mode: the first nodes in pool order (docs/reports.md). */
#define SCENARIO_SAMPLE_MAX_NODES 64

typedef struct ScenarioSampler ScenarioSampler;

/* One line of the translation report. */
typedef struct {
	char *object; /* "Pod ml-team/ml-training" */
	char *what;   /* the selector, constraint or sharing setting */
	char *approx; /* how drasim approximated it */
} ScenarioNote;

#define SCENARIO_N_QUANTILES 3 /* p50, p90, p99 */

/* One stay of a pod on a node, for the report's placements[]. */
typedef struct {
	char *node;
	char *devices; /* the report's device ids, NULL when none */
	SimTime start, end;
	const char *ended; /* static: "evicted", "node-failure" or the pod's outcome */
} ScenarioPlacement;

/* One pod at the end of a run, for the per-pod records of the report. Its
 * strings live in the result's pod_strings (shared ones once). */
typedef struct {
	const char *name;
	const char *workload; /* ScenarioPod's */
	const char *request;
	SimTime arrival;
	SimTime start;    /* first bind, -1 when never bound */
	SimTime end;      /* completion, -1 when not completed */
	const char *node; /* the node it is bound to at the end, NULL when none */
	double slowdown;  /* jct / work, < 0 when not completed */
	/* every placement when the row cannot tell them (evicted, or deleted
	 * while bound); NULL otherwise (measure_placements.c) */
	ScenarioPlacement *placements;
	ClusterPodPhase phase;
	guint restarts;
	guint attempts; /* scheduling attempts */
	/* 88 bytes a pod with the two flags in one word (issue 19: bytes per pod) */
	guint n_placements : 30;
	guint never_runs : 1; /* pending, and no pending event can change that (quiescent) */
	guint shared : 1;     /* a device of its last placement is shared (not exclusive) */
} ScenarioPodRecord;

/* Why a run ended (docs/scenario.md, "How a run ends"). */
typedef enum {
	SCENARIO_END_DONE,      /* no horizon: nothing left to happen, no pod waiting */
	SCENARIO_END_QUIESCENT, /* no horizon: pods wait that can never run */
	SCENARIO_END_HORIZON,   /* the clock reached the horizon */
} ScenarioEnd;

/* "done", "quiescent", "horizon" (static). */
const char *scenario_end_to_string(ScenarioEnd end);

/* The metrics of one mode (docs/scenario.md, "Metrics"). */
typedef struct {
	char *mode;
	ScenarioWorld world;
	guint64 seed; /* the seed and horizon the run used */
	SimTime horizon;
	SimTime end; /* simulated time at the end of the run */
	ScenarioEnd end_reason;
	guint64 never_runs; /* pending pods that can never run (quiescent at the end) */
	guint64 events;
	guint64 submitted, scheduled, completed, pending, running;
	guint64 oom_kills, evictions;
	ClusterSimLedger ledger; /* where the submitted pods are at the end */
	guint64 events_applied;  /* spec.events that took effect on at least one node */
	guint64 unschedulable[CLUSTER_N_PLUGINS]; /* pending now, by last rejecting plugin */
	guint64 pending_never_tried;
	guint n_gpus; /* compute devices (GPUs or MIG devices) */
	double gpu_compute_capacity;
	gint64 gpu_memory_capacity;
	double alloc_ratio_mean; /* busy devices / devices, time-weighted */
	double alloc_ratio_final;
	double compute_util_mean; /* compute in use / capacity, time-weighted */
	double memory_alloc_mean; /* GPU memory of running pods / capacity, time-weighted */
	double latency[SCENARIO_N_QUANTILES]; /* s, NAN when no sample */
	double jct[SCENARIO_N_QUANTILES];
	double slowdown[SCENARIO_N_QUANTILES];
	GArray *pending_series; /* guint64 per sampling interval, from t = 0 */
	GArray *alloc_series;   /* double busy devices / devices per sample (empty: DynamicMIG) */
	GArray *pod_records;    /* ScenarioPodRecord, in pod order */
	GStringChunk *pod_strings; /* the records' strings */
	/* occupancy per node, fragmentation, GPU pictures, pod devices (measure_sample.c) */
	struct ScenarioSampler *sampler;
	SimTime sampling;
	guint64 filter_calls, allocator_calls, cel_evaluations, backtracks, cycles;
	GPtrArray *notes;        /* ScenarioNote*: the translation report */
	GPtrArray *reasons;      /* ScenarioReason*: pods that waited or never ran */
	ClusterJournal *journal; /* the run's full journal when Scenario.journal, else NULL */
	ClusterResNames *names;  /* with the journal: its resource names */
} ScenarioResult;

/* measure_reasons.c: why a pod waited (its last failed attempt). */
typedef struct {
	char *pod;
	SimTime at;
	char *message;       /* kube-scheduler's FitError text */
	char *detail;        /* the DRA allocator's diagnosis, or NULL */
	gboolean never_runs; /* the run ended quiescent with this pod pending */
} ScenarioReason;

/* (transfer full): kube-scheduler's message for a failed attempt (FitError + PostFilter). */
char *scenario_reason_message(const ClusterAttempt *attempt, const ClusterResNames *names);
/**
 * scenario_explain_pod:
 * @result: a run with its full journal (Scenario.journal)
 * @pod: an index of its journal (cluster_journal_lookup_pod())
 *
 * Returns: (transfer full): the pod's history in the journal: arrival,
 * attempts with their reasons, binding, its devices by the report's stable
 * ids, co-tenants on shared devices, speed changes, OOM kills, evictions,
 * completion.
 */
char *scenario_explain_pod(const ScenarioResult *result, guint pod);

void scenario_result_free(ScenarioResult *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ScenarioResult, scenario_result_free)

/* ---- notes: the translation report (measure_report.c) ---- */

void scenario_note__add(GPtrArray *notes, const char *object, const char *what, const char *approx);
void scenario_note__free(gpointer note);

/* ---- explain's view of a run's journal (measure_explain.c) ---- */

/* Pods the journal of @result knows (0 without a journal). */
guint scenario_explain_get_n_pods(const ScenarioResult *result);
/* The name of journal pod @pod. */
const char *scenario_explain_get_pod_name(const ScenarioResult *result, guint pod);
/* The journal index of the pod named @name, or -1. */
gint scenario_explain_lookup_pod(const ScenarioResult *result, const char *name);

/* ---- the samplers, driven by the world that runs the mode (measure_sample.c) ---- */

/*
 * What a DRA pod's claims ask for in the extended world's terms (sim/world's
 * translation): the resource (NULL: no GPU), the count and the first GPU
 * request's DeviceClass, both (transfer full).
 */
typedef void (*ScenarioClaimShapeFunc)(const Scenario *sc,
                                       const ScenarioPod *pod,
                                       char **resource,
                                       gint64 *count,
                                       char **device_class);

/*
 * @sim, @names and @pods are borrowed for the run; the sampler keeps what
 * the report needs, so it outlives them (ScenarioResult owns it). @shape
 * gives the task mix the DRA pods' shapes.
 */
ScenarioSampler *scenario_sample__new(const Scenario *sc,
                                      const ScenarioMode *mode,
                                      const ClusterSim *sim,
                                      const ClusterResNames *names,
                                      const GArray *pods,
                                      ScenarioClaimShapeFunc shape);
void scenario_sample__free(ScenarioSampler *self);
/* After cluster_sim_add_pod() of pod @index, while its ClusterPod exists: the
 * pod joins the task mix (every pod once, in index order, or none: the first
 * tick then reads them all from the simulation). */
void scenario_sample__add_pod_task(ScenarioSampler *self, guint index);
/* After cluster_sim_add_node(): the node's hardware, published with @opts
 * (@slices: its hw_publish_nvidia() output, the simulation's device order). */
/*
 * Nodes given as objects (spec.cluster.objects; measure_sample_objects.c),
 * after cluster_sim_add_node(): the node's physical GPUs as sim/world derived
 * them from its published devices or extended resources, and for each
 * simulation device (in the simulation's order) which GPU it is.
 */
typedef struct {
	const HwGpuModel *model; /* the catalog model of its product; NULL: not in the catalog */
	const char *product;     /* copied; NULL: unknown */
	guint minor;             /* the stable id's gpu-<minor> */
	gboolean mig;            /* its devices are MIG instances (needs @model with MIG) */
} ScenarioObjectGpu;

typedef struct {
	guint gpu;           /* index into the node's ScenarioObjectGpu */
	const char *profile; /* a MIG instance's profile (copied); NULL: the whole GPU */
	guint start;         /* a MIG instance's first memory slice */
} ScenarioObjectDevice;

void scenario_sample__add_object_node(ScenarioSampler *self,
                                      const char *name,
                                      const ScenarioObjectGpu *gpus,
                                      guint n_gpus,
                                      const ScenarioObjectDevice *devices,
                                      guint n_devices);
/* A node given as objects whose GPUs the sampler cannot model (sim/world says why in a
 * note): fragmentation is then not measured (NaN), never a figure over part of the cluster. */
void scenario_sample__add_unsampled_node(ScenarioSampler *self, const char *name);
void scenario_sample__add_node(ScenarioSampler *self,
                               const HwNode *node,
                               const HwPublishOptions *opts,
                               const GPtrArray *slices);
/* Before the first tick: each tick reads only the nodes @sim logged as
 * changed (cluster_sim_log_node_changes; @sim is the one given to new).
 * Without it each tick checks every node. */
void scenario_sample__follow_changes(ScenarioSampler *self, ClusterSim *sim);
/* One sample at @now (the run's sampling tick). */
void scenario_sample__tick(ScenarioSampler *self, SimTime now);
/* How many times a tick read a node so far (tests: an unchanged node is not read again). */
guint64 scenario_sample__get_nodes_read(const ScenarioSampler *self);
/* At the end of the run: each pod's devices; drops the borrowed pointers. */
void scenario_sample__finish(ScenarioSampler *self);
/* After finish: adds a device the simulation does not run on (a NIC) to the pod's list. */
void
scenario_sample__add_pod_device(ScenarioSampler *self, guint pod, const char *kind, const char *id);
/* (nullable) the pod's devices, comma-separated. */
const char *scenario_sample__get_pod_devices(const ScenarioSampler *self, guint pod);

/* ---- reasons (measure_reasons.c) ---- */

/* After the run: a ScenarioReason per pod that waited or never ran (@pods: ScenarioPod). */
void scenario_reasons__collect(ScenarioResult *result,
                               ClusterSim *sim,
                               ClusterDra *dra,
                               const ClusterResNames *names,
                               const GArray *pods);
void scenario_reason__free(gpointer reason);

/* The report object of reports/ (text, JSON, CSV, HTML, diff) for @n runs. */
RptReport *scenario_report_build(const Scenario *scenario, ScenarioResult *const *results, guint n);

/**
 * MeasureRunEnd:
 *
 * What sim/world hands to measuring when a mode's loop has stopped: the
 * simulation it drove (read only), the allocator adapter (DRA world, else NULL),
 * the pods as expanded, the series it sampled, and the sampler, whose ownership
 * passes to the result. @dynamic: some pool publishes DynamicMIG devices, which
 * overlap, so capacity is @physical_gpus / @physical_mem.
 */
typedef struct {
	SimLoop *loop;
	ClusterSim *sim;
	ClusterDra *dra;
	const GArray *pods; /* ScenarioPod */
	GArray *pending;    /* guint64 samples */
	GArray *alloc;      /* double samples */
	ScenarioSampler *sampler;
	guint64 events_applied;
	gboolean dynamic;
	guint physical_gpus;
	gint64 physical_mem;
	SimTime sampling;
} MeasureRunEnd;

/* The metrics of docs/scenario.md ("Metrics") into @result; takes @end->sampler. */
void measure_collect(ScenarioResult *result, const MeasureRunEnd *end);

G_END_DECLS
