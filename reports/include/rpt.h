/*
 * rpt.h: the report object, one per run, and the writers that render it.
 *
 * The report is plain data: the simulation (sim/cluster, sim/scenario) fills
 * it through the builder below, and the writers (text, JSON, CSV, HTML) and
 * `drasim diff` read it. Nothing here knows a Kubernetes or engine type, so
 * reports/ depends on GLib and cJSON only. Every list keeps insertion order,
 * so output order is the order the simulation filled it in.
 */
#pragma once

#include <stdint.h>

#include <glib.h>

/* The schema identifier written into every JSON report and checked on load
 * (docs/reports.md, "Schema history": v2 has times in seconds, typed info,
 * oom_kills/evictions). RPT_SCHEMA_V1 is only recognised to say how to move on. */
#define RPT_SCHEMA    "drasim.io/report/v2"
#define RPT_SCHEMA_V1 "drasim.io/report/v1"

#define RPT_ERROR (rpt_error_quark())
typedef enum {
	RPT_ERROR_IO,         /* a file could not be read or written */
	RPT_ERROR_PARSE,      /* a report or tolerance file is malformed */
	RPT_ERROR_FORMAT,     /* an unknown output format was asked for */
	RPT_ERROR_VERSION,    /* a report of another schema version */
	RPT_ERROR_OUTPUT_DIR, /* -o names a directory drasim may not write (not its own output) */
} RptErrorCode;

GQuark rpt_error_quark(void);

/* Simulated time in µs, the same unit as the engine's SimTime (not included on purpose). */
typedef int64_t RptTime;
#define RPT_TIME_NONE ((RptTime)-1)

typedef struct RptReport RptReport;
typedef struct RptMode RptMode;
typedef struct RptSeries RptSeries;
typedef struct RptGpu RptGpu;

/*
 * Standard metric names. A metric is any (name, value, unit); these are the
 * ones the writers and the diff know by name (text grouping, default
 * tolerances). A count is named for what it counts and its unit says so:
 * "pods", "kills", "evictions", "cycles", "calls", "evaluations",
 * "backtracks", "events"; otherwise "ratio" (0..1), "s", "GiB", "x" (a
 * slowdown factor). Set them in this order for a familiar table.
 */
#define RPT_M_PODS_SUBMITTED          "pods_submitted"
#define RPT_M_PODS_SCHEDULED          "pods_scheduled"
#define RPT_M_PODS_COMPLETED          "pods_completed"
#define RPT_M_PODS_PENDING            "pods_pending"
#define RPT_M_OOM_KILLS               "oom_kills" /* schema v1: pods_oom_killed */
#define RPT_M_EVICTIONS               "evictions" /* schema v1: pods_evicted */
#define RPT_M_GPU_ALLOC_RATIO_TW      "gpu_allocation_ratio_time_weighted"
#define RPT_M_GPU_ALLOC_RATIO_FINAL   "gpu_allocation_ratio_final"
#define RPT_M_GPU_COMPUTE_UTILISATION "gpu_compute_utilisation"
#define RPT_M_GPU_MEMORY_ALLOCATED    "gpu_memory_allocated"
#define RPT_M_FRAGMENTATION           "fragmentation"
#define RPT_M_SCHED_LATENCY           "scheduling_latency" /* + _p50/_p90/_p99 */
#define RPT_M_JCT                     "jct"                /* + _p50/_p90/_p99 */
#define RPT_M_SLOWDOWN                "slowdown"           /* + _p50/_p90/_p99 */
#define RPT_M_FILTER_CALLS            "filter_calls"
#define RPT_M_ALLOCATOR_CALLS         "allocator_calls"
#define RPT_M_CEL_EVALUATIONS         "cel_evaluations"
#define RPT_M_BACKTRACKS              "backtracks"
#define RPT_M_EVENTS_APPLIED          "events_applied" /* spec.events that took effect */

/**
 * rpt_metric_lookup:
 * Whether @name is a metric every simulated run reports (the table of
 * docs/reports.md: the names above, the _p50/_p90/_p99 variants of the
 * latency, JCT and slowdown families, pods_running, scheduling_cycles).
 * Returns: TRUE and its unit (static) in @unit_out (nullable) when it is.
 */
gboolean rpt_metric_lookup(const char *name, const char **unit_out);
/* (transfer none) the standard metric names in report order, NULL-terminated. */
const char *const *rpt_metric_names(void);
/* (nullable) the schema v2 name of a metric that v1 reports called @old_name
 * ("pods_oom_killed" -> "oom_kills"), for errors that name the new one. */
const char *rpt_metric_renamed(const char *old_name);

/* Standard time series names (sampled at the mode's fixed interval). */
#define RPT_S_GPU_ALLOC_RATIO "gpu_allocation_ratio"
#define RPT_S_PENDING_PODS    "pending_pods"
#define RPT_S_FRAGMENTATION   "fragmentation"
#define RPT_S_RUNNING_PODS    "running_pods"

/* What became of a pod at the end of the run (per-pod records). */
typedef enum {
	RPT_OUTCOME_COMPLETED,  /* ran its work to the end */
	RPT_OUTCOME_RUNNING,    /* still running at the horizon */
	RPT_OUTCOME_PENDING,    /* never bound */
	RPT_OUTCOME_OOM_KILLED, /* last attempt ended in an OOM kill */
	RPT_OUTCOME_EVICTED,    /* last attempt ended in an eviction */
	RPT_OUTCOME_DELETED,    /* deleted by its workload (trace deletion) */
	RPT_OUTCOME_UNRUNNABLE, /* never bound, and no pending event could change that */
} RptOutcome;

/* "completed", "running", ... (static string). */
const char *rpt_outcome_to_string(RptOutcome outcome);
gboolean rpt_outcome_from_string(const char *text, RptOutcome *outcome_out);

/*
 * One stay of a pod on a node: its devices (the pod row's ids), from its bind
 * to its end (RPT_TIME_NONE: still there when the run ended), and why it
 * ended: "evicted", "node-failure", ... or the pod's outcome for the last one.
 */
typedef struct {
	const char *node;
	const char *devices;
	RptTime start_us;
	RptTime end_us;
	const char *ended;
} RptPlacement;

/*
 * One pod's record. Strings are copied by rpt_mode_add_pod. Times are
 * RPT_TIME_NONE when the event did not happen; slowdown is JCT divided by
 * the work at full speed (< 0 when the pod did not complete).
 */
typedef struct {
	const char *name;
	const char *workload; /* the workload entry (object name) or "trace"; NULL: unknown */
	const char *request;  /* what its manifest asks for: "nvidia.com/gpu=1", "claim=gpu" */
	RptTime arrival_us;
	RptTime start_us; /* first bind that ran */
	RptTime end_us;
	const char *node;    /* NULL when never bound */
	const char *devices; /* comma-separated device names, NULL when none */
	double slowdown;
	RptOutcome outcome;
	unsigned attempts;  /* scheduling attempts */
	unsigned oom_kills; /* times this pod was OOM-killed */
	/* every placement, oldest first, when it had more than one (else 0: the
	 * row's node, devices and times are its one placement); copied */
	const RptPlacement *placements;
	guint n_placements;
	/* the pod's devices are shared (time-slicing, MPS, gpushare, consumable
	 * capacity): other pods may hold them at the same time */
	gboolean shared;
} RptPod;

/*
 * Where every submitted pod is at the end of a mode's run (issue 18): the
 * identity submitted = pending + creating + running + restarting + lost +
 * completed + deleted holds when every pod is counted once. Evictions (each sent a pod
 * back to pending) and OOM kills are counted beside it.
 */
typedef struct {
	uint64_t submitted, pending, creating, running, restarting, lost, completed, deleted;
	uint64_t evictions, oom_kills;
} RptLedger;

gboolean rpt_ledger_holds(const RptLedger *ledger);
/* (transfer full) "314 submitted = 0 pending + 5 running + ... (holds)" */
char *rpt_ledger_describe(const RptLedger *ledger);

/* --- The report --------------------------------------------------------------------------- */

/**
 * rpt_report_new:
 * @scenario: the scenario's name
 * @scenario_hash: a digest of the scenario's canonical text (hex), or NULL
 * @seed: the run's seed
 * @version: the drasim version that produced the run
 * Returns: (transfer full) an empty report; free with rpt_report_free().
 */
RptReport *
rpt_report_new(const char *scenario, const char *scenario_hash, uint64_t seed, const char *version);
void rpt_report_free(RptReport *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RptReport, rpt_report_free)

const char *rpt_report_get_scenario(const RptReport *self);
const char *rpt_report_get_scenario_hash(const RptReport *self);
uint64_t rpt_report_get_seed(const RptReport *self);
const char *rpt_report_get_version(const RptReport *self);
/**
 * rpt_report_copy_summary:
 * What rpt_json_load() reads back, copied: the run's identity and horizon,
 * and each mode's info, metrics and unschedulable counts (no series,
 * explanations, pictures or pods). A sweep keeps it beside each run's
 * report so that merging reads kilobytes, not the pods of every run.
 * Returns: (transfer full) the copy.
 */
RptReport *rpt_report_copy_summary(const RptReport *self);
/* The horizon the run was asked for (RPT_TIME_NONE when unbounded). */
void rpt_report_set_horizon(RptReport *self, RptTime horizon_us);
RptTime rpt_report_get_horizon(const RptReport *self);
/* The mode the HTML page measures the others against (`drasim compare --baseline`):
 * FALSE, and nothing changed, when the report has no mode of that name; NULL: the first. */
gboolean rpt_report_set_baseline(RptReport *self, const char *mode);
/* (transfer none) the baseline mode's name: the one set, else the first mode's (NULL: no mode). */
const char *rpt_report_get_baseline(const RptReport *self);

/**
 * rpt_mode_add:
 * Appends a mode (e.g. "dra", "extended") to @report. Adding a name twice
 * returns the existing mode.
 * Returns: (transfer none) the mode, owned by @report.
 */
RptMode *rpt_mode_add(RptReport *report, const char *name);
guint rpt_report_get_n_modes(const RptReport *self);
/* (transfer none) the mode at @index, in insertion order. */
RptMode *rpt_report_get_mode(const RptReport *self, guint index);
/* (transfer none) the mode named @name, or NULL. */
RptMode *rpt_report_lookup_mode(const RptReport *self, const char *name);

/* --- A mode: metrics ---------------------------------------------------------------------- */

const char *rpt_mode_get_name(const RptMode *self);

/*
 * A free-form property of the mode (e.g. "scheduler_profile", "mig_strategy",
 * "nodes"), kept in insertion order; setting a key again replaces its value.
 * JSON writes a string; the typed setters make it a number (a time in
 * seconds, written exactly to the µs) or a boolean, and the text value is
 * what JSON prints ("80", "86400", "true").
 */
void rpt_mode_set_info(RptMode *self, const char *key, const char *value);
void rpt_mode_set_info_number(RptMode *self, const char *key, double value);
void rpt_mode_set_info_seconds(RptMode *self, const char *key, RptTime t_us);
void rpt_mode_set_info_bool(RptMode *self, const char *key, gboolean value);
guint rpt_mode_get_n_info(const RptMode *self);
void
rpt_mode_get_info(const RptMode *self, guint index, const char **key_out, const char **value_out);
/* (nullable) the value of info @key. */
const char *rpt_mode_lookup_info(const RptMode *self, const char *key);
/**
 * rpt_mode_describe_end:
 * How the run ended, from the infos "end" and "simulated_end_s" and the
 * never-runs reasons: "quiescent at 12.000 s: 1 pod can never run",
 * "horizon at 3600.000 s", "done at 7200.000 s (no pod waiting)".
 * Returns: (transfer full) (nullable): NULL when the mode has no "end" info.
 */
char *rpt_mode_describe_end(const RptMode *self);

/**
 * rpt_mode_set_metric:
 * Sets the metric @name to @value (in @unit). A new name is appended, so the
 * writers show metrics in the order they were first set; setting it again
 * replaces the value in place. NaN means "not defined for this run" (no
 * samples) and is written as null.
 */
void rpt_mode_set_metric(RptMode *self, const char *name, double value, const char *unit);

/**
 * rpt_mode_set_percentiles:
 * Sets @base_p50, @base_p90 and @base_p99 from @samples (any order; not
 * modified) with rpt_percentile(). With @n_samples == 0 the three are NaN.
 */
void rpt_mode_set_percentiles(
        RptMode *self, const char *base, const double *samples, gsize n_samples, const char *unit);

guint rpt_mode_get_n_metrics(const RptMode *self);
void rpt_mode_get_metric(const RptMode *self,
                         guint index,
                         const char **name_out,
                         double *value_out,
                         const char **unit_out);
/* Returns: TRUE and the value when @name is set. */
gboolean rpt_mode_lookup_metric(const RptMode *self, const char *name, double *value_out);

/**
 * rpt_percentile:
 * The @q-th percentile (0 < q <= 100) of @samples by the nearest-rank method:
 * the smallest sample such that at least q% of the samples are <= it. Sorts
 * a copy. Returns NaN when @n == 0.
 */
double rpt_percentile(const double *samples, gsize n, double q);

/* --- A mode: explanations ------------------------------------------------------------------ */

/* Adds @pods to the count of pending pods whose last rejection was @reason (e.g. a plugin). */
void rpt_mode_add_unschedulable(RptMode *self, const char *reason, uint64_t pods);
guint rpt_mode_get_n_unschedulable(const RptMode *self);
void rpt_mode_get_unschedulable(const RptMode *self,
                                guint index,
                                const char **reason_out,
                                uint64_t *pods_out);

/**
 * rpt_mode_add_pod_reason:
 * Records why @pod waited or never ran: @message in kube-scheduler's form
 * (see rpt_format_fit_error()), @detail (nullable) what the allocator knows
 * (which request, which selector or constraint ruled devices out on how many
 * nodes), and @at_us when the attempt happened.
 */
void rpt_mode_add_pod_reason(
        RptMode *self, const char *pod, RptTime at_us, const char *message, const char *detail);
/* The same for a pod that can never run: the run ended quiescent (no pending
 * event could change anything) with it pending; @message is its last failure. */
void rpt_mode_add_never_runs_reason(
        RptMode *self, const char *pod, RptTime at_us, const char *message, const char *detail);

/**
 * rpt_format_fit_error:
 * Formats kube-scheduler's FitError: "0/@n_nodes nodes are available: "
 * then "<count> <reason>" for each distinct reason, sorted as strings (so
 * "120 x" sorts before "38 y", as upstream's sort.Strings does), joined by
 * ", ", then "." (pkg/scheduler/framework/types.go FitError.Error in 1.34).
 * @pre_filter_msg (nullable) replaces the per-node list, as " <msg>.", as
 * upstream does when PreFilter rejected the pod; @post_filter_msg (nullable,
 * e.g. preemption's message) is appended verbatim after a space.
 * Returns: (transfer full) the message.
 */
char *rpt_format_fit_error(guint n_nodes,
                           const char *const *reasons,
                           const guint *counts,
                           gsize n_reasons,
                           const char *pre_filter_msg,
                           const char *post_filter_msg);

/*
 * A translation report entry: @subject (e.g. "ResourceClaimTemplate
 * default/gpu request gpu"), @feature (what the other world cannot express:
 * "selector", "constraint", "sharing", "config"), @expression (the source text)
 * and @approximation (what drasim did instead, e.g. "node selector
 * nvidia.com/gpu.product=H100", or "dropped").
 */
void rpt_mode_add_translation(RptMode *self,
                              const char *subject,
                              const char *feature,
                              const char *expression,
                              const char *approximation);

/* --- A mode: time series ------------------------------------------------------------------ */

/*
 * Samples are taken every @interval_us from @start_us; sample i is at
 * start_us + i * interval_us for every series of the mode.
 */
void rpt_mode_set_sampling(RptMode *self, RptTime start_us, RptTime interval_us);

/**
 * rpt_mode_add_series:
 * Returns: (transfer none) the series @name (created empty, appended to the
 * mode's list, when new) in @unit.
 */
RptSeries *rpt_mode_add_series(RptMode *self, const char *name, const char *unit);
void rpt_series_append(RptSeries *self, double value);

/**
 * rpt_mode_add_node:
 * Adds a node row of the per-node GPU occupancy heat map: @gpus devices.
 * Returns: (transfer none) the series of busy GPUs on the node (a count,
 * fractional under sharing), one value per sample.
 */
RptSeries *rpt_mode_add_node(RptMode *self, const char *node, guint gpus);

/* --- A mode: GPU slice pictures ----------------------------------------------------------- */

/**
 * rpt_mode_add_gpu:
 * Adds a snapshot, taken at @at_us, of how one shared or partitioned GPU is
 * held: @sharing is "mig", "time-slicing", "mps" or "exclusive"; @units is
 * the GPU's width in slice units (simulated runs draw MIG GPUs in their 8
 * memory slices on H100/A100, where NVIDIA's placement starts are defined;
 * 100 for percentage shares).
 * Returns: (transfer none) the GPU, to fill with rpt_gpu_add_slice().
 */
RptGpu *rpt_mode_add_gpu(RptMode *self,
                         const char *node,
                         const char *device,
                         const char *model,
                         const char *sharing,
                         guint units,
                         RptTime at_us);
/*
 * A slice from unit @start, @size units wide (e.g. MIG profile "3g.40gb"
 * at memory slice 4, size 4), held by @pod (NULL: free). Time-sliced tenants may
 * overlap: each gets its own slice over the same units.
 */
void rpt_gpu_add_slice(RptGpu *self, const char *profile, guint start, guint size, const char *pod);

/* --- A mode: pods ------------------------------------------------------------------------- */

/* The mode's ledger (copied); rpt_mode_get_ledger() is NULL until set. */
void rpt_mode_set_ledger(RptMode *self, const RptLedger *ledger);
const RptLedger *rpt_mode_get_ledger(const RptMode *self);

/* Appends a copy of @pod (its strings are copied). */
void rpt_mode_add_pod(RptMode *self, const RptPod *pod);
guint rpt_mode_get_n_pods(const RptMode *self);
/* (transfer none) the pod at @index; its strings live as long as the report. */
const RptPod *rpt_mode_get_pod(const RptMode *self, guint index);

/* --- Verifying a report ------------------------------------------------------------------ */

/*
 * `drasim verify`: checks the report at @path from its own contents (each
 * mode's ledger identity, its pod rows against it, and that no device was
 * held by two pods at once unless both are shared), appending one line per
 * violation to @out. Returns: FALSE with @error when the file is not a
 * readable v2 report with ledgers (then the counts are not meaningful).
 */
gboolean
rpt_verify_file(const char *path, GString *out, guint *checked, guint *violations, GError **error);

/* --- Writers ------------------------------------------------------------------------------ */

/*
 * Where a streamed writer puts its bytes, a piece at a time: @write appends
 * @length bytes of @bytes, or returns FALSE with @error set (the writer then
 * stops and returns FALSE). The per-pod parts of a report are streamed so
 * that no writer holds a whole report of millions of pods in memory.
 */
typedef struct {
	gboolean (*write)(gpointer data, const char *bytes, gsize length, GError **error);
	gpointer data;
} RptSink;

/* A writer of one file's bytes from @subject into @sink. */
typedef gboolean (*RptProduceFunc)(gconstpointer subject, const RptSink *sink, GError **error);

/**
 * rpt_json_to_string:
 * Returns: (transfer full) the report as `drasim.io/report/v2` JSON, keys in
 * a fixed order, floats with fixed precision, times in seconds (exact to
 * the µs), ending with a newline.
 */
char *rpt_json_to_string(const RptReport *report);
/* The same bytes into @sink, the pods streamed; FALSE with the sink's @error. */
gboolean rpt_json_write(const RptReport *report, const RptSink *sink, GError **error);

/**
 * rpt_json_load:
 * Reads back what `drasim diff` compares from a report written by
 * rpt_json_to_string(): the run identity, mode info, metrics and
 * unschedulable counts (series, explanations, pictures and pods are not
 * read). Fails on another schema (a v1 report: RPT_ERROR_VERSION saying how
 * to regenerate it); a seed above 2^53 loses precision.
 * Returns: (transfer full) the report, or NULL with @error set.
 */
RptReport *rpt_json_load(const char *path, GError **error);
/* rpt_json_load() on @length bytes in memory (the fuzz targets), which @path names. */
RptReport *rpt_json_load_data(const char *path, const char *text, gsize length, GError **error);

/* Text: side-by-side tables, modes as columns; @colour adds ANSI colour. */
char *rpt_text_to_string(const RptReport *report, gboolean colour);

/* CSV (columns in docs/reports.md), long form: one row per metric per mode
 * (summary.csv), per sample per series per mode (timeseries.csv), one row
 * per pod per mode (pods.csv). */
char *rpt_csv_summary_to_string(const RptReport *report);
char *rpt_csv_series_to_string(const RptReport *report);
char *rpt_csv_pods_to_string(const RptReport *report);
/* pods.csv's bytes into @sink, a few rows at a time; FALSE with the sink's @error. */
gboolean rpt_csv_pods_write(const RptReport *report, const RptSink *sink, GError **error);

/* HTML: one self-contained page with inline SVG charts. */
char *rpt_html_to_string(const RptReport *report);

/* --- Output files and directories (rpt_output.c) ----------------------------------------- */

/*
 * Every file drasim writes goes through these: a file is replaced atomically
 * (a temporary file beside it, fsync, rename), and an output directory is
 * replaced as a whole (docs/reports.md, "Output directories").
 */

/* The file in a drasim output directory that lists what drasim wrote there. */
#define RPT_OUTPUT_MARKER ".drasim-output"

typedef struct RptOutputFile RptOutputFile;

/**
 * rpt_output_file_new:
 * Starts writing @path: the bytes go to a temporary file beside it
 * (@path.tmp-XXXXXX), and @path is untouched until rpt_output_file_commit().
 * Returns: (transfer full) the file, or NULL with @error set.
 */
RptOutputFile *rpt_output_file_new(const char *path, GError **error);
/* The temporary file, for a writer in another process; commit then fsyncs and renames it. */
const char *rpt_output_file_get_temp_path(const RptOutputFile *self);
/* Appends @length bytes. Returns: FALSE with @error ("PATH: cannot write: REASON"). */
gboolean rpt_output_file_write(RptOutputFile *self, const void *data, gsize length, GError **error);
/**
 * rpt_output_file_commit:
 * Flushes the temporary file to disk, closes it and renames it over the
 * path. On failure the previous file is intact; free @self either way.
 */
gboolean rpt_output_file_commit(RptOutputFile *self, GError **error);
/* Frees @self; uncommitted, the temporary file is removed and the previous file stays. */
void rpt_output_file_free(RptOutputFile *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RptOutputFile, rpt_output_file_free)

/* new + write + commit: @path holds @length bytes of @contents, or is as it was. */
gboolean
rpt_output_write_file(const char *path, const char *contents, gsize length, GError **error);

typedef struct RptOutputDir RptOutputDir;

/**
 * rpt_output_dir_check:
 * Whether drasim may write the output directory @dir: it does not exist, is
 * empty, or is an earlier drasim output (its RPT_OUTPUT_MARKER lists every
 * file in it). Returns: FALSE with @error (RPT_ERROR_OUTPUT_DIR naming the
 * directory, what it holds and how to proceed) otherwise.
 */
gboolean rpt_output_dir_check(const char *dir, GError **error);
/**
 * rpt_output_dir_new:
 * Starts a new output for @dir (checked as above; missing parents are
 * created): files added go to a sibling @dir.tmp-XXXXXX.
 * Returns: (transfer full) the output, or NULL with @error set.
 */
RptOutputDir *rpt_output_dir_new(const char *dir, GError **error);
/* Writes the file @name (no '/') of the new output atomically. */
gboolean
rpt_output_dir_add(RptOutputDir *self, const char *name, const char *contents, GError **error);
/* Writes the file @name (no '/') of the new output atomically, its bytes
 * streamed by @produce from @subject. */
gboolean rpt_output_dir_add_streamed(RptOutputDir *self,
                                     const char *name,
                                     RptProduceFunc produce,
                                     gconstpointer subject,
                                     GError **error);
/**
 * rpt_output_dir_commit:
 * Writes the marker listing the files added, then puts the new output in
 * @dir's place and removes the previous one. On failure before the swap
 * @dir is as it was; free @self either way.
 */
gboolean rpt_output_dir_commit(RptOutputDir *self, GError **error);
/* Frees @self; uncommitted, the new output is removed and @dir is untouched. */
void rpt_output_dir_free(RptOutputDir *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RptOutputDir, rpt_output_dir_free)

/**
 * rpt_write_formats:
 * Writes @report in each of @formats, a comma-separated list of "text",
 * "json", "csv", "html" (NULL or "" means "text"). With @dir NULL, text and
 * JSON are printed on stdout (text in colour when stdout is a terminal and
 * NO_COLOR is unset) and csv/html are an error; with @dir, it gets
 * report.txt, report.json, summary.csv + timeseries.csv + pods.csv, report.html, and
 * nothing else: the directory is replaced as a whole (rpt_output_dir_new()).
 * Returns: FALSE with @error set on an unknown format or an I/O error.
 */
gboolean
rpt_write_formats(const RptReport *report, const char *formats, const char *dir, GError **error);

/* --- Regression diff ---------------------------------------------------------------------- */

/* The schema of a benchmark result file (scheduler_perf DataItems: labels, unit, data). */
#define RPT_BENCH_SCHEMA "drasim.io/bench/v2"

typedef enum {
	RPT_CHANGE_SAME,         /* equal */
	RPT_CHANGE_WITHIN,       /* changed within tolerance */
	RPT_CHANGE_BEYOND,       /* changed beyond tolerance */
	RPT_CHANGE_ADDED,        /* metric only in the new report */
	RPT_CHANGE_REMOVED,      /* metric only in the old report */
	RPT_CHANGE_MODE_ADDED,   /* mode only in the new report */
	RPT_CHANGE_MODE_MISSING, /* mode only in the old report */
} RptChangeKind;

const char *rpt_change_kind_to_string(RptChangeKind kind);

typedef struct RptTolerances RptTolerances;

/**
 * rpt_tolerances_new:
 * Returns: (transfer full) the default tolerances (docs/reports.md): exact
 * for counts, absolute 0.005 for ratios, relative 5% for times, slowdowns and
 * instruction counts, 2% for the scheduler's work counters (calls, cycles, evaluations,
 * backtracks), 25% for wall times.
 */
RptTolerances *rpt_tolerances_new(void);
void rpt_tolerances_free(RptTolerances *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RptTolerances, rpt_tolerances_free)

/**
 * rpt_tolerances_add:
 * Adds a rule that wins over every earlier one: metrics whose name matches
 * the glob @pattern (or whose unit is U, for the pattern "unit:U") may change
 * by @value, absolute or (@relative) a fraction of the old value.
 */
void rpt_tolerances_add(RptTolerances *self, const char *pattern, gboolean relative, double value);

/**
 * rpt_tolerances_load:
 * Adds the rules of a tolerance file: one `PATTERN abs|rel VALUE` per line
 * (VALUE may end in % for rel), `#` comments. Returns: FALSE with @error
 * ("file:line:col: ...") on a malformed line.
 */
gboolean rpt_tolerances_load(RptTolerances *self, const char *path, GError **error);

typedef struct RptDiff RptDiff;

/**
 * rpt_diff_load:
 * Reads a report (`drasim.io/report/v2`) or a benchmark file
 * (`drasim.io/bench/v2`, read as one mode "bench" whose metrics are the
 * DataItems' buckets, named <Name>/<Metric>[/<bucket>]).
 * Returns: (transfer full) the report, or NULL with @error set.
 */
RptReport *rpt_diff_load(const char *path, GError **error);
/* rpt_diff_load() on @length bytes in memory (the fuzz targets), which @path names. */
RptReport *rpt_diff_load_data(const char *path, const char *text, gsize length, GError **error);

/**
 * rpt_diff_new:
 * Compares @old_report with @new_report metric by metric (metrics and the
 * unschedulable counts, as "unschedulable:<reason>") under @tolerances.
 * Returns: (transfer full) the comparison.
 */
RptDiff *rpt_diff_new(const RptReport *old_report,
                      const RptReport *new_report,
                      const RptTolerances *tolerances);
void rpt_diff_free(RptDiff *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RptDiff, rpt_diff_free)

/* The number of rows of @kind. */
guint rpt_diff_count(const RptDiff *self, RptChangeKind kind);
/* Beyond-tolerance changes, removed metrics and missing modes; with @strict, added ones too. */
guint rpt_diff_count_failures(const RptDiff *self, gboolean strict);
/* (transfer full) the table of changes (every row with @all), and a summary line. */
char *rpt_diff_to_string(const RptDiff *self, gboolean all);
