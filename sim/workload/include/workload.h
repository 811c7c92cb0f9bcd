/*
 * workload.h: where pods come from, as plain items: synthetic arrival
 * processes with duration and demand distributions, and the Alibaba
 * GPU-sharing trace (cluster-trace-gpu-v2023, "openb").
 *
 * Nothing here builds Kubernetes objects: sim/cluster turns a WorkloadItem
 * (arrival, template, duration, demand) or a trace row into a Pod.
 */
#pragma once

#include <glib.h>

#include "sim.h"

G_BEGIN_DECLS

#define WORKLOAD_ERROR (workload_error_quark())
GQuark workload_error_quark(void);

typedef enum {
	WORKLOAD_ERROR_INVALID, /* a spec field is out of range; message names the field */
	WORKLOAD_ERROR_IO,      /* a trace file cannot be read */
	WORKLOAD_ERROR_TRACE,   /* a trace row is malformed: "file:line:col: what [column]" */
} WorkloadErrorCode;

/* ---------------------------------------------------------- distributions */

typedef enum {
	WORKLOAD_DIST_FIXED,       /* always `value` */
	WORKLOAD_DIST_EXPONENTIAL, /* mean `mean` */
	WORKLOAD_DIST_LOGNORMAL,   /* exp(N(mu, sigma^2)) */
	WORKLOAD_DIST_UNIFORM,     /* [lo, hi) */
	WORKLOAD_DIST_EMPIRICAL,   /* from `samples` (see SimEmpirical) */
} WorkloadDistKind;

/**
 * WorkloadDist:
 *
 * A distribution of a non-negative quantity (a duration in seconds, a GPU
 * demand as a fraction of one GPU...). Draws are clamped to [min, max] when
 * max > min (zero-initialised: no clamp). The samples are borrowed; a
 * generator copies them.
 */
typedef struct {
	WorkloadDistKind kind;
	double value;          /* FIXED */
	double mean;           /* EXPONENTIAL */
	double mu, sigma;      /* LOGNORMAL */
	double lo, hi;         /* UNIFORM */
	const double *samples; /* EMPIRICAL, (transfer none) */
	gsize n_samples;       /* EMPIRICAL */
	gboolean discrete;     /* EMPIRICAL: return samples only, no interpolation */
	double min, max;       /* clamp, used when max > min */
} WorkloadDist;

/**
 * workload_dist_check:
 * @field: (nullable): the field path to name in the message, e.g. "duration"
 *
 * Returns: TRUE if the parameters are valid; else WORKLOAD_ERROR_INVALID with
 *   "<field>.<param>: <what was expected>".
 */
gboolean workload_dist_check(const WorkloadDist *dist, const char *field, GError **error);

/* ---------------------------------------------------------------- synthetic */

typedef enum {
	WORKLOAD_ARRIVAL_POISSON,    /* exponential gaps, mean 1/rate */
	WORKLOAD_ARRIVAL_FIXED_RATE, /* the k-th arrival at start + round(k / rate) */
	WORKLOAD_ARRIVAL_BURST,      /* burst_size arrivals at once, every burst_period */
	WORKLOAD_ARRIVAL_DIURNAL,    /* Poisson with a sinusoidal daily rate, by thinning */
} WorkloadArrivalKind;

/**
 * WorkloadArrival:
 *
 * DIURNAL: rate(t) = rate_per_s * (1 + amplitude * cos(2 pi (t - peak) / period)),
 * amplitude in [0, 1], period defaulting to one day when 0. Sampled by
 * thinning (Lewis and Shedler 1979): candidates at the peak rate, each kept
 * with probability rate(t) / peak rate.
 */
typedef struct {
	WorkloadArrivalKind kind;
	double rate_per_s;    /* POISSON, FIXED_RATE, DIURNAL (mean rate) */
	guint burst_size;     /* BURST */
	SimTime burst_period; /* BURST */
	double amplitude;     /* DIURNAL */
	SimTime period;       /* DIURNAL; 0 = 1 day */
	SimTime peak;         /* DIURNAL: a time of maximal rate */
} WorkloadArrival;

/*
 * The arrival processes by name, as a scenario writes them (workload_arrival.c):
 * NULL-terminated, index = WorkloadArrivalKind. A new process is a kind, a
 * name here, its parameters below (fields of WorkloadArrival) and its sampling
 * in workload_synth.c; the scenario decoder reads both tables, so it does not
 * change.
 */
const char *const *workload_arrival_names(void);

typedef enum {
	WORKLOAD_PARAM_NUMBER,   /* double */
	WORKLOAD_PARAM_COUNT,    /* guint, 1 to 1,000,000 */
	WORKLOAD_PARAM_DURATION, /* SimTime */
	WORKLOAD_PARAM_RATE,     /* double, per second (workload_rate_parse) */
} WorkloadParamType;

/* One parameter of WorkloadArrival: its key in a scenario, its type, its field. */
typedef struct {
	const char *key;
	WorkloadParamType type;
	gsize offset; /* offsetof(WorkloadArrival, ...) */
} WorkloadArrivalParam;

/* Every process parameter, terminated by a NULL key. */
const WorkloadArrivalParam *workload_arrival_params(void);

/* What workload_rate_parse accepts, for messages and docs. */
#define WORKLOAD_RATE_FORMS "a number per second, or NUMBER/UNIT like 7.2/h, 30/min, 0.5/s or 2/d"

/**
 * workload_rate_parse:
 * A rate as people write it: a plain number is per second; "N/UNIT" or
 * "N/DURATION" is N per that duration, with the duration units of
 * sim_time_parse ("7.2/h" = 7.2 / 3,600 s = 0.002/s; "30/min" = 0.5/s;
 * "3/10m" = 0.005/s). The number is finite and >= 0; the duration > 0.
 * Returns: TRUE with *@per_s, or FALSE with @message (transfer full): "expected
 * a rate: WORKLOAD_RATE_FORMS, got \"TEXT\"" and the reason.
 */
gboolean workload_rate_parse(const char *text, double *per_s, char **message);

/**
 * WorkloadSynthSpec:
 *
 * One synthetic source. Items arrive in [start, end) (end SIM_TIME_NEVER for
 * no end), at most max_items of them (0: no limit). Each picks a template
 * index with probability proportional to template_weights (n_templates == 0:
 * always 0), a duration in seconds and a demand. Each of the four draws has
 * its own RNG stream "<name>.arrivals", ".templates", ".durations",
 * ".demands", so changing the duration model leaves arrival times unchanged.
 * Pointers (name, weights, samples) are only read by workload_synth_new().
 */
typedef struct {
	const char *name;
	WorkloadArrival arrival;
	SimTime start;
	SimTime end;
	guint64 max_items;
	const double *template_weights;
	guint n_templates;
	WorkloadDist duration; /* seconds */
	WorkloadDist demand;
} WorkloadSynthSpec;

/* One arrival. `source` and `index` identify it: the spec's position in a
 * merge, and its rank within that source. */
typedef struct {
	SimTime arrival;
	SimTime duration;
	double demand;
	guint32 template_index;
	guint32 source;
	guint64 index;
} WorkloadItem;

typedef struct WorkloadSynth WorkloadSynth;

/**
 * workload_synth_new:
 * @rngs: (transfer none): the run's streams; must outlive the generator
 *
 * Returns: (transfer full) (nullable): a lazy generator, or NULL with
 *   WORKLOAD_ERROR_INVALID naming the bad field.
 */
WorkloadSynth *workload_synth_new(const WorkloadSynthSpec *spec, SimRngSet *rngs, GError **error);
void workload_synth_free(WorkloadSynth *self);
/* Next item in arrival order; FALSE when the source is exhausted. */
gboolean workload_synth_next(WorkloadSynth *self, WorkloadItem *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(WorkloadSynth, workload_synth_free)

/**
 * workload_synth_generate:
 * @specs: @n_specs sources; item.source is the index into @specs
 * @horizon: stop at this time even for unbounded sources
 *
 * All items of all sources, merged into one stream sorted by (arrival,
 * source, index): deterministic for a given seed.
 *
 * Returns: (transfer full) (element-type WorkloadItem) (nullable): or NULL
 *   with the error of the first bad spec, prefixed "specs[i].".
 */
GArray *workload_synth_generate(const WorkloadSynthSpec *specs,
                                guint n_specs,
                                SimTime horizon,
                                SimRngSet *rngs,
                                GError **error);

/* -------------------------------------------------------------- the trace */

typedef enum {
	WORKLOAD_PHASE_UNKNOWN, /* no pod_phase column */
	WORKLOAD_PHASE_PENDING,
	WORKLOAD_PHASE_RUNNING,
	WORKLOAD_PHASE_SUCCEEDED,
	WORKLOAD_PHASE_FAILED,
} WorkloadPhase;

/**
 * WorkloadTracePod:
 *
 * One row of an openb pod list. Strings are owned by the trace. Times are
 * SimTime (seconds in the file); SIM_TIME_NEVER when the column is empty or
 * absent (the multigpu files have no time columns: creation is then 0).
 * gpu_spec_mask has bit i set for model i of workload_trace_get_model();
 * 0 means any model.
 */
typedef struct {
	const char *name;
	gint64 cpu_milli;
	gint64 memory_mib;
	guint32 num_gpu;
	guint32 gpu_milli; /* per GPU, 0..1000 */
	guint32 gpu_spec_mask;
	const char *gpu_spec; /* as written, "" if none */
	const char *qos;      /* "" if absent */
	WorkloadPhase phase;
	SimTime creation;
	SimTime deletion;
	SimTime scheduled;
	guint32 line; /* 1-based line in the file */
} WorkloadTracePod;

/* One row of an openb node list. model is "" for CPU-only nodes. */
typedef struct {
	const char *name;
	gint64 cpu_milli;
	gint64 memory_mib;
	guint32 gpu;
	guint32 model_index; /* into workload_trace_get_model(); G_MAXUINT32 if none */
	const char *model;
	guint32 line;
} WorkloadTraceNode;

typedef struct WorkloadTrace WorkloadTrace;

WorkloadTrace *workload_trace_new(void);
void workload_trace_free(WorkloadTrace *self);

/**
 * workload_trace_load_pods:
 * @path: a pod list CSV (header row names the columns; order is free; the
 *   required ones are name, cpu_milli, memory_mib, num_gpu, gpu_milli)
 *
 * Appends the rows, read in place. On error nothing is appended.
 *
 * Returns: TRUE on success; else WORKLOAD_ERROR_IO, or WORKLOAD_ERROR_TRACE
 *   "path:line:col: what was expected [column]" for the first bad row.
 */
gboolean workload_trace_load_pods(WorkloadTrace *self, const char *path, GError **error);
/* The same for a node list (sn, cpu_milli, memory_mib, gpu, model). */
gboolean workload_trace_load_nodes(WorkloadTrace *self, const char *path, GError **error);
/* The two readers on @len bytes in memory (the fuzz targets); @name stands for
 * the path in errors. The caller bounds @len (base_read_file() does for files). */
gboolean workload_trace_load_pods_data(
        WorkloadTrace *self, const char *name, const char *data, gsize len, GError **error);
gboolean workload_trace_load_nodes_data(
        WorkloadTrace *self, const char *name, const char *data, gsize len, GError **error);

guint workload_trace_get_n_pods(const WorkloadTrace *self);
/* (transfer none): in file order */
const WorkloadTracePod *workload_trace_get_pod(const WorkloadTrace *self, guint i);
guint workload_trace_get_n_nodes(const WorkloadTrace *self);
const WorkloadTraceNode *workload_trace_get_node(const WorkloadTrace *self, guint i);
/* GPU models seen in gpu_spec and node model columns, in first-seen order. */
guint workload_trace_get_n_models(const WorkloadTrace *self);
const char *workload_trace_get_model(const WorkloadTrace *self, guint i);

/**
 * workload_trace_to_items:
 *
 * The pods as a replay stream: arrival = creation, duration = deletion -
 * creation (0 if there is no deletion time), demand = num_gpu * gpu_milli /
 * 1000 GPUs, template_index = the pod's row index, sorted by (arrival, row).
 *
 * Returns: (transfer full) (element-type WorkloadItem)
 */
GArray *workload_trace_to_items(const WorkloadTrace *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(WorkloadTrace, workload_trace_free)

/**
 * workload_trace_model_catalog_id:
 * @code: a trace GPU model code (T4, P100, V100M16, V100M32, A10, G2, G3)
 *
 * Returns: (nullable): the model/hw catalog GPU id that stands for @code
 *   (docs/workload.md, "gpu_spec"), or NULL for a code with no mapping (G1,
 *   unknown codes). G2 and G3 are undisclosed: their ids are stand-ins.
 */
const char *workload_trace_model_catalog_id(const char *code);

G_END_DECLS
