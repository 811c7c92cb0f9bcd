/*
 * scenario.h: a drasim scenario (apiVersion drasim.io/v1alpha1, kind Scenario):
 * a cluster of node pools, a workload of Kubernetes manifests with arrivals,
 * durations and demands, and the modes to compare (DRA and extended
 * resources). scenario_run() replays one mode on sim/cluster and returns its
 * metrics; the same arrivals reach every mode.
 */
#pragma once

#include <stdio.h>

#include <glib.h>

#include "cluster.h"
#include "hw.h"
#include "k8s_diag.h"
#include "k8s_objects.h"
#include "rpt.h"
#include "sim.h"
#include "workload.h"
#include "xr.h"

G_BEGIN_DECLS

#define SCENARIO_ERROR (scenario_error_quark())
GQuark scenario_error_quark(void);

typedef enum {
	SCENARIO_ERROR_INVALID, /* the scenario has errors (they are in the diag list) */
	SCENARIO_ERROR_MODE,    /* no such mode */
	SCENARIO_ERROR_BUILD,   /* the cluster or workload cannot be built for a mode */
} ScenarioErrorCode;

/* One group of identical nodes. */
typedef struct {
	char *name;
	char *shape; /* hw catalog shape id */
	guint count;
	char *mig; /* hw_mig_layout_parse() layout; "dynamic" = DynamicMIG */
	K8sPos pos;
} ScenarioPool;

/* How the instances of one workload entry arrive. */
typedef enum {
	SCENARIO_ARRIVAL_AT,      /* all at one time */
	SCENARIO_ARRIVAL_PROCESS, /* a sim/workload arrival process */
} ScenarioArrivalKind;

/**
 * ScenarioEntry:
 *
 * One workload object (Pod, Deployment, Job, StatefulSet) of the manifests,
 * named by kind/name, with @count copies (each a Deployment's replicas...),
 * its arrivals, duration (seconds) and demand. @lifetime: a service runs
 * until deleted (SIM_TIME_NEVER work) for this long.
 */
typedef struct {
	char *kind;
	char *name;
	guint count;
	ScenarioArrivalKind arrival_kind;
	SimTime at;
	WorkloadArrival process;
	SimTime start, end;
	WorkloadDist duration;
	double compute;   /* GPU compute fraction when alone */
	gint64 memory;    /* GPU memory, bytes */
	gboolean service; /* runs until the horizon */
	K8sPos pos;
} ScenarioEntry;

typedef struct {
	char *path;  /* absolute or relative to the scenario */
	guint limit; /* 0 = every row */
	K8sPos pos;
	/* gpuModels: trace GPU code -> catalog GPU id, overriding
	 * workload_trace_model_catalog_id(); char* code, id alternately, and a
	 * K8sPos per pair (for the check against the catalog). NULL: none. */
	GPtrArray *gpu_models;
	GArray *gpu_model_pos;
} ScenarioTrace;

typedef enum {
	SCENARIO_WORLD_DRA,
	SCENARIO_WORLD_EXTENDED,
} ScenarioWorld;

typedef struct {
	char *pool;
	char *mig;
	K8sPos pos; /* of the layout in spec.modes[].mig */
} ScenarioPoolLayout;

/* What a node or device event does (docs/scenario.md, "Events"). */
typedef enum {
	SCENARIO_EVENT_FAIL,            /* the node stops (NotReady); pods evicted later */
	SCENARIO_EVENT_RESTORE,         /* the node is back: uncordon, lost pods resume */
	SCENARIO_EVENT_DRAIN,           /* cordon, evict every pod */
	SCENARIO_EVENT_CORDON,          /* unschedulable, pods keep running */
	SCENARIO_EVENT_UNCORDON,        /* schedulable again */
	SCENARIO_EVENT_TAINT,           /* a node taint (NoExecute evicts) */
	SCENARIO_EVENT_UNTAINT,         /* removes a node taint */
	SCENARIO_EVENT_DEVICE_TAINT,    /* DRA: a DeviceTaintRule (DRADeviceTaints) */
	SCENARIO_EVENT_DEVICE_UNTAINT,  /* DRA: deletes that DeviceTaintRule */
	SCENARIO_EVENT_MIG_RECONFIGURE, /* mig-manager: nvidia.com/mig.config changes */
	SCENARIO_N_EVENT_ACTIONS
} ScenarioEventAction;

/* The action's name in a scenario ("fail", "device-taint", ...). */
const char *scenario_event_action_get_name(ScenarioEventAction action);

/**
 * ScenarioEvent:
 *
 * One timed event of spec.events. Targets @node, or nodes @index ..
 * @index + @count - 1 of node pool @pool (@count 0: to the end of the pool).
 * @taint_*: the taint of taint, untaint, device-taint and device-untaint;
 * @devices: the devices device-(un)taint names (NULL: every device of the
 * node); @mig_config: the layout mig-reconfigure installs; @duration: how
 * long mig-manager takes (< 0: computed from the plan).
 */
typedef struct {
	SimTime at;
	ScenarioEventAction action;
	char *node;
	char *pool;
	guint index, count;
	char *taint_key;
	char *taint_value;
	ClusterTaintEffect taint_effect;
	char **devices;
	char *mig_config;
	SimTime duration;
	K8sPos pos;
} ScenarioEvent;

typedef struct {
	char *name;
	ScenarioWorld world;
	XrConfig xr;          /* device plugin: MIG strategy, sharing, replicas */
	gboolean dynamic_mig; /* DRA: DynamicMIG */
	GArray *layouts;      /* ScenarioPoolLayout: per-pool MIG layout overrides */
	char *score;          /* LeastAllocated (default), MostAllocated */
	guint percentage_of_nodes_to_score;
	gboolean extended_resource_gate; /* DRAExtendedResource (default on in dra world) */
	gboolean device_taints_gate;     /* DRADeviceTaints (alpha, off) */
	/* DynamicResources filterTimeout: 10 s unless set; none with the gate off */
	gboolean filter_timeout_set;
	SimTime filter_timeout;
	gboolean filter_timeout_gate_off; /* DRASchedulerFilterTimeout: false */
	K8sPos pos;
} ScenarioMode;

typedef struct {
	char *file; /* the scenario file */
	char *dir;  /* its folder: manifest and trace paths are relative to it */
	char *name;
	guint64 seed;
	SimTime horizon;      /* SIM_TIME_NEVER: until the queue empties */
	SimTime sampling;     /* pending-pods sample interval */
	GArray *pools;        /* ScenarioPool */
	HwCatalog *catalog;   /* built-in plus spec.cluster.catalog files */
	GPtrArray *manifests; /* char*: resolved paths */
	GArray *entries;      /* ScenarioEntry */
	SimTime default_duration;
	double default_compute;
	gint64 default_memory;
	ScenarioTrace trace; /* path NULL: none */
	GArray *modes;       /* ScenarioMode */
	ClusterRunParams run;
	GArray *events;        /* ScenarioEvent, in spec order */
	K8sObjectSet *objects; /* the manifests */
	GStringChunk *strings; /* the scenario file's name and text: positions point here */
	/* not from the file: runs record every pod's history (drasim explain) */
	gboolean journal;
} Scenario;

/**
 * scenario_load:
 *
 * Reads and checks a scenario and the manifests it names. Problems go to
 * @diags as FILE:LINE:COL with field paths.
 *
 * Returns: (transfer full) (nullable): NULL when @diags holds errors.
 */
Scenario *scenario_load(const char *path, K8sDiagList *diags);
void scenario_free(Scenario *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Scenario, scenario_free)

const ScenarioMode *scenario_lookup_mode(const Scenario *self, const char *name);
/* The mode's DynamicResources filterTimeout in microseconds; 0: no timeout. */
gint64 scenario_mode_filter_timeout(const ScenarioMode *mode);

/* ---- a mode's world besides the manifests (scenario_world.c; run and lint) ---- */

/* The "file" the DeviceClasses below are read from (their positions point into it). */
#define SCENARIO_CLASSES_FILE "<nvidia device classes>"

/* The MIG layout @pool has in @mode: the mode's override, the pool's, else "all-disabled". */
const char *scenario_mode_pool_layout(const ScenarioMode *mode, const ScenarioPool *pool);
/**
 * scenario_chart_classes_load:
 * Appends to @set the DeviceClasses the NVIDIA DRA driver's chart installs
 * (hw_nvidia_device_classes()), except those @manifests define (theirs win).
 */
void
scenario_chart_classes_load(const K8sObjectSet *manifests, K8sObjectSet *set, K8sDiagList *diags);
/**
 * scenario_dra_classes_load:
 * Appends to @set the DeviceClasses a DRA world of @sc has besides the manifests':
 * the chart's and one KEP-5004 class mig-<profile>.nvidia.com per MIG profile of
 * the pools' GPUs, except those the manifests define.
 */
void scenario_dra_classes_load(const Scenario *sc, K8sObjectSet *set, K8sDiagList *diags);
/**
 * scenario_lint_extended:
 * For `drasim lint`: warns at each workload entry whose pod, as @mode (an extended
 * world) translates it, no node of the mode's cluster can take (scenario_lint.c).
 */
void scenario_lint_extended(const Scenario *sc, const ScenarioMode *mode, K8sDiagList *diags);

/* One line of the translation report. */
typedef struct {
	char *object; /* "Pod ml-team/ml-training" */
	char *what;   /* the selector, constraint or sharing setting */
	char *approx; /* how drasim approximated it */
} ScenarioNote;

#define SCENARIO_N_QUANTILES 3 /* p50, p90, p99 */

/* One pod at the end of a run, for the per-pod records of the report. */
typedef struct {
	char *name;
	SimTime arrival;
	SimTime start;   /* first bind, -1 when never bound */
	SimTime end;     /* completion, -1 when not completed */
	char *node;      /* the node it is bound to at the end, NULL when none */
	double slowdown; /* jct / work, < 0 when not completed */
	ClusterPodPhase phase;
	guint restarts;
	guint attempts;      /* scheduling attempts */
	gboolean never_runs; /* pending, and no pending event can change that (quiescent) */
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
	guint64 events_applied; /* spec.events that took effect on at least one node */
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
	/* occupancy per node, fragmentation, GPU pictures, pod devices (scenario_sample.c) */
	struct ScenarioSampler *sampler;
	SimTime sampling;
	guint64 filter_calls, allocator_calls, cel_evaluations, backtracks, cycles;
	GPtrArray *notes;        /* ScenarioNote*: the translation report */
	GPtrArray *reasons;      /* ScenarioReason*: pods that waited or never ran */
	ClusterJournal *journal; /* the run's full journal when Scenario.journal, else NULL */
	ClusterResNames *names;  /* with the journal: its resource names */
} ScenarioResult;

/* scenario_reasons.c: why a pod waited (its last failed attempt). */
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

typedef struct ScenarioSampler ScenarioSampler;

void scenario_result_free(ScenarioResult *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ScenarioResult, scenario_result_free)

/* Progress during a run: called every so many events (CLI: a TTY line). */
typedef void (*ScenarioProgressFunc)(SimTime now, guint64 pods, guint64 events, gpointer data);

/**
 * scenario_run:
 * @seed: overrides the scenario's seed when non-zero
 * @horizon: overrides the horizon when > 0
 *
 * Runs one mode. Returns: (transfer full) (nullable): NULL with @error
 * (SCENARIO_ERROR_BUILD, diagnostics in @diags) when the mode cannot be built.
 */
ScenarioResult *scenario_run(const Scenario *self,
                             const ScenarioMode *mode,
                             guint64 seed,
                             SimTime horizon,
                             ScenarioProgressFunc progress,
                             gpointer progress_data,
                             K8sDiagList *diags,
                             GError **error);

/* The report object of reports/ (text, JSON, CSV, HTML, diff) for @n runs. */
RptReport *scenario_report_build(const Scenario *scenario, ScenarioResult *const *results, guint n);

G_END_DECLS
