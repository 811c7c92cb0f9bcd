/*
 * sim.h: the public face of sim/engine, drasim's discrete-event core.
 *
 * The engine knows nothing about Kubernetes (ARCHITECTURE.md): it offers
 * integer time, an event queue ordered by (time, priority, seq) with
 * cancellation, a dispatch loop keyed by event kind (the ROSS tw_lptype
 * analogue), named RNG streams and statistics. sim/cluster is the only glue.
 */
#pragma once

#include <stdint.h>

#include <glib.h>
#include <gsl/gsl_rng.h>

G_BEGIN_DECLS

/* ------------------------------------------------------------------ time */

/**
 * SimTime:
 *
 * Simulated time as a count of microseconds since the start of the run.
 * Integer, so ties are exact (style-anchors 9.10); conversions to seconds or
 * text happen only at the edges (scenario decode, reports).
 */
typedef int64_t SimTime;

#define SIM_TIME_US    ((SimTime)1)
#define SIM_TIME_MS    ((SimTime)1000)
#define SIM_TIME_S     ((SimTime)1000000)
#define SIM_TIME_MIN   (60 * SIM_TIME_S)
#define SIM_TIME_HOUR  (60 * SIM_TIME_MIN)
#define SIM_TIME_DAY   (24 * SIM_TIME_HOUR)
#define SIM_TIME_NEVER ((SimTime)INT64_MAX) /* "no horizon", "not scheduled" */

#define SIM_ERROR (sim_error_quark())
GQuark sim_error_quark(void);

typedef enum {
	SIM_ERROR_PARSE, /* a duration or number did not parse */
	SIM_ERROR_RANGE, /* a value parsed but is out of range */
} SimErrorCode;

static inline double
sim_time_to_seconds(SimTime t)
{
	return (double)t / 1e6;
}

/* Rounds to the nearest microsecond; saturates at +-SIM_TIME_NEVER. */
SimTime sim_time_from_seconds(double seconds);

/**
 * sim_time_parse:
 * @text: a duration: a sequence of <number><unit> with units us (or µs), ms,
 *   s, m, h, d, w, e.g. "90s", "1h30m", "2d", "1.5h", "250ms"; a bare "0" is
 *   accepted. A leading '-' negates the whole duration.
 * @out: (out): the duration, set only on success
 * @error: SIM_ERROR_PARSE with "col N: what was expected", or SIM_ERROR_RANGE
 *   on overflow; the caller prefixes file:line.
 *
 * Returns: TRUE on success.
 */
gboolean sim_time_parse(const char *text, SimTime *out, GError **error);

/**
 * sim_time_format:
 *
 * Formats as the largest units first, zero units omitted, seconds with up to
 * six decimals: 5400 s -> "1h30m", 90061.5 s -> "1d1h1m1.5s", 0 -> "0s".
 * sim_time_parse() reads the result back to the same value.
 *
 * Returns: (transfer full): the text.
 */
char *sim_time_format(SimTime t);

/**
 * sim_time_format_brief:
 *
 * A person's glance at a time span: its two largest units, the smaller
 * truncated (2 digits after the first): 42 s -> "42s", 192 s -> "3m12s",
 * 5400 s -> "1h30m", 137,797 s -> "1d14h", 7 d -> "7d", below 1 s -> "0s".
 * For progress lines and ETAs, not for reading back.
 *
 * Returns: (transfer full): the text.
 */
char *sim_time_format_brief(SimTime t);

/* ---------------------------------------------------------------- events */

/* Inline payload: no heap pointer per event (style-anchors 9.4). */
typedef union {
	int64_t i[4];
	uint64_t u[4];
	double d[4];
	gpointer p[4];
} SimPayload;

/**
 * SimEvent:
 *
 * An event as handed to a handler: a copy, valid for the duration of the
 * call. @target is the model's logical process (a pod, node, LP index...).
 * Lower @priority runs first among events at the same @time; @seq is the
 * scheduling order and breaks the remaining ties.
 */
typedef struct {
	SimTime time;
	uint64_t seq;
	uint32_t kind;
	uint32_t target;
	uint32_t priority;
	uint32_t gen; /* internal: slot generation, part of the SimEventId */
	SimPayload data;
} SimEvent;

/* A handle on a scheduled event; stays valid across reschedules, and turns
 * stale (cancel and reschedule then return FALSE) once the event has run or
 * been cancelled. 0 is never a valid handle. */
typedef uint64_t SimEventId;
#define SIM_EVENT_ID_NONE ((SimEventId)0)

#define SIM_PRIORITY_MAX 255u

/* ----------------------------------------------------------------- queue */

/**
 * SimQueue:
 *
 * The pending-event set. Events leave in non-decreasing (time, priority, seq)
 * order, where seq is assigned at push (and again at reschedule), so ties run
 * in scheduling order. Event storage is a pool with a free list: steady state
 * allocates nothing.
 */
typedef struct SimQueue SimQueue;

SimQueue *sim_queue_new(void);
void sim_queue_free(SimQueue *self);

/**
 * sim_queue_push:
 * @time: must be >= the time of the last popped event (so never negative)
 * @priority: 0..SIM_PRIORITY_MAX, lower first
 * @data: (nullable) (transfer none): copied into the event; NULL = zeroes
 *
 * Returns: a handle for sim_queue_cancel() / sim_queue_reschedule().
 */
SimEventId sim_queue_push(SimQueue *self,
                          SimTime time,
                          uint32_t priority,
                          uint32_t kind,
                          uint32_t target,
                          const SimPayload *data);

/**
 * sim_queue_pop:
 * @out: (out caller-allocates): the earliest event, copied
 *
 * The event's slot returns to the pool before this returns, so the caller may
 * schedule freely while it holds @out. Advances the queue's clock.
 *
 * Returns: FALSE when the queue is empty (@out untouched).
 */
gboolean sim_queue_pop(SimQueue *self, SimEvent *out);

/* Time of the earliest pending event, SIM_TIME_NEVER when empty. */
SimTime sim_queue_peek_time(SimQueue *self);

/* Returns: TRUE if @id was pending and is now cancelled. */
gboolean sim_queue_cancel(SimQueue *self, SimEventId id);

/**
 * sim_queue_reschedule:
 *
 * Moves a pending event to @time (earlier or later, not before the clock).
 * It takes a new seq, so among ties it runs as if scheduled now. The handle
 * stays the same.
 *
 * Returns: TRUE if @id was pending.
 */
gboolean sim_queue_reschedule(SimQueue *self, SimEventId id, SimTime time);

gboolean sim_queue_is_pending(const SimQueue *self, SimEventId id);
/* Kind of a pending event, UINT32_MAX if @id is not pending. */
uint32_t sim_queue_get_event_kind(const SimQueue *self, SimEventId id);
/* Time of a pending event, SIM_TIME_NEVER if @id is not pending. */
SimTime sim_queue_get_event_time(const SimQueue *self, SimEventId id);
guint sim_queue_get_length(const SimQueue *self); /* pending events */
SimTime sim_queue_get_now(const SimQueue *self);
guint sim_queue_get_pool_size(const SimQueue *self); /* event slots ever allocated */

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SimQueue, sim_queue_free)

/* ------------------------------------------------------------------ loop */

typedef struct SimLoop SimLoop;

/* A handler: @event is a copy owned by the loop, valid during the call. */
typedef void (*SimHandlerFunc)(SimLoop *loop, const SimEvent *event, gpointer user_data);
/* Called every `every` dispatched events and once at the end of a run. The
 * engine never reads the wall clock: the callee may (the CLI shows events/s). */
typedef void (*SimProgressFunc)(SimLoop *loop, gpointer user_data);

typedef enum {
	SIM_STOP_EMPTY,      /* no event left */
	SIM_STOP_HORIZON,    /* next event lies beyond the horizon; clock set to it */
	SIM_STOP_MAX_EVENTS, /* the dispatch budget ran out */
	SIM_STOP_REQUESTED,  /* a handler called sim_loop_stop() */
	SIM_STOP_QUIESCENT,  /* only passive events left and the model is settled */
} SimStopReason;

SimLoop *sim_loop_new(void);
void sim_loop_free(SimLoop *self);

/**
 * sim_loop_add_kind:
 * @name: (transfer none): static string for diagnostics
 *
 * Registers a handler, as ROSS models hand tw_lptype tables to the engine.
 *
 * Returns: the kind number to schedule events with (0, 1, 2... in order).
 */
uint32_t
sim_loop_add_kind(SimLoop *self, const char *name, SimHandlerFunc handler, gpointer user_data);
const char *sim_loop_get_kind_name(const SimLoop *self, uint32_t kind);

SimEventId sim_loop_schedule(SimLoop *self,
                             SimTime time,
                             uint32_t kind,
                             uint32_t priority,
                             uint32_t target,
                             const SimPayload *data);
gboolean sim_loop_cancel(SimLoop *self, SimEventId id);
gboolean sim_loop_reschedule(SimLoop *self, SimEventId id, SimTime time);

/* Events after @horizon are not run. Default SIM_TIME_NEVER. */
void sim_loop_set_horizon(SimLoop *self, SimTime horizon);
/**
 * sim_loop_set_kind_passive:
 *
 * Marks @kind passive: its events only observe (a sampler) or retry work the
 * model already tried (a retry timer); by themselves they start nothing new.
 * Every other kind is active: an arrival, a completion, an external change.
 * The loop counts pending active events to detect quiescence, so mark a
 * kind before scheduling any event of it.
 */
void sim_loop_set_kind_passive(SimLoop *self, uint32_t kind);

/*
 * The model's half of quiescence: TRUE when every passive event still
 * pending would repeat a result the model already has (e.g. every waiting
 * job was retried since the last change). Called only while no active event
 * is pending.
 */
typedef gboolean (*SimSettledFunc)(gpointer user_data);

/**
 * sim_loop_set_settled_func:
 *
 * Without a horizon, sim_loop_run() stops with SIM_STOP_QUIESCENT as soon as
 * no active event is pending and @func says the model is settled: nothing
 * that could still happen can change the state, so running the passive
 * events (which could go on for ever) would only repeat themselves. With a
 * horizon the loop runs to it as asked (sim_loop_is_quiescent() tells).
 */
void sim_loop_set_settled_func(SimLoop *self, SimSettledFunc func, gpointer user_data);
/* No active event pending and the settled func (if any) says TRUE. */
gboolean sim_loop_is_quiescent(SimLoop *self);
/* Active events pending (scheduled, not yet run or cancelled). */
uint64_t sim_loop_get_n_active_pending(const SimLoop *self);
/* Active events dispatched so far: a change counter for the model. */
uint64_t sim_loop_get_active_dispatched(const SimLoop *self);

/* At most @max_events dispatches per sim_loop_run(); 0 = no limit. */
void sim_loop_set_max_events(SimLoop *self, uint64_t max_events);
void sim_loop_set_progress(SimLoop *self, uint64_t every, SimProgressFunc func, gpointer user_data);
/*
 * @func runs after every dispatched event (NULL: none, the default). The
 * run-model invariant checker uses it; unset, the loop pays one branch.
 */
void sim_loop_set_event_check(SimLoop *self, SimProgressFunc func, gpointer user_data);
/* From a handler: stop after the current event. */
void sim_loop_stop(SimLoop *self);

SimStopReason sim_loop_run(SimLoop *self);

SimTime sim_loop_get_now(const SimLoop *self);
uint64_t sim_loop_get_dispatched(const SimLoop *self);
SimQueue *sim_loop_get_queue(SimLoop *self); /* (transfer none) */

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SimLoop, sim_loop_free)

/* ------------------------------------------------------------------- rng */

/**
 * SimRng:
 *
 * One named random stream: a GSL taus2 generator seeded from
 * sim_rng_stream_seed(scenario seed, name). The name is hashed with FNV-1a
 * (stable across GLib versions), so adding a stream changes no other stream.
 */
typedef struct SimRng SimRng;

/* The 64-bit seed of stream @name under scenario seed @seed. */
uint64_t sim_rng_stream_seed(uint64_t seed, const char *name);

SimRng *sim_rng_new(uint64_t seed, const char *name);
void sim_rng_free(SimRng *self);
const char *sim_rng_get_name(const SimRng *self);
gsl_rng *sim_rng_get_gsl(SimRng *self); /* (transfer none): for other GSL draws */

double sim_rng_uniform(SimRng *self);                     /* [0, 1) */
double sim_rng_uniform_pos(SimRng *self);                 /* (0, 1) */
double sim_rng_range(SimRng *self, double lo, double hi); /* [lo, hi) */
uint32_t sim_rng_uniform_int(SimRng *self, uint32_t n);   /* [0, n), n >= 1 */
/* The draws of sim_rng_uniform_int(count) for count = 2..ties, and the last
 * count that drew 0 (1 if none): reservoir sampling over @ties items. */
uint32_t sim_rng_reservoir(SimRng *self, uint32_t ties);
gboolean sim_rng_bernoulli(SimRng *self, double p);
double sim_rng_exponential(SimRng *self, double mean);
/* exp(N(mu, sigma^2)): mu and sigma of the underlying normal. */
double sim_rng_lognormal(SimRng *self, double mu, double sigma);
unsigned int sim_rng_poisson(SimRng *self, double mean);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SimRng, sim_rng_free)

/**
 * SimRngSet:
 *
 * The streams of one run, created on first use and owned by the set.
 */
typedef struct SimRngSet SimRngSet;

SimRngSet *sim_rng_set_new(uint64_t seed);
void sim_rng_set_free(SimRngSet *self);
uint64_t sim_rng_set_get_seed(const SimRngSet *self);
/* Returns: (transfer none): the stream, valid as long as the set. */
SimRng *sim_rng_set_get(SimRngSet *self, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SimRngSet, sim_rng_set_free)

/**
 * SimEmpirical:
 *
 * A distribution given by samples. Draws invert the piecewise-linear
 * empirical CDF through the sorted samples (values between observed samples
 * are possible), or, with @discrete, return one of the samples uniformly.
 */
typedef struct SimEmpirical SimEmpirical;

/* Returns: (transfer full): NULL if @n == 0 or a sample is not finite. */
SimEmpirical *sim_empirical_new(const double *samples, gsize n, gboolean discrete);
void sim_empirical_free(SimEmpirical *self);
double sim_empirical_draw(const SimEmpirical *self, SimRng *rng);
/* The mean of the distribution drawn from (the sample mean if @discrete). */
double sim_empirical_mean(const SimEmpirical *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SimEmpirical, sim_empirical_free)

/* ----------------------------------------------------------------- stats */

/**
 * SimGauge:
 *
 * A piecewise-constant quantity (allocated GPUs, pending pods) with its
 * time-weighted mean. Embed it; no allocation. Fields are read-only.
 */
typedef struct {
	SimTime start;     /* when observation began */
	SimTime last_time; /* time of the last change */
	double value;      /* current (last) value */
	double min;
	double max;
	double area; /* integral of value dt over [start, last_time], in value*µs */
} SimGauge;

void sim_gauge_init(SimGauge *self, SimTime start, double value);
/* @now must not go back in time. */
void sim_gauge_set(SimGauge *self, SimTime now, double value);
void sim_gauge_add(SimGauge *self, SimTime now, double delta);
/* Time-weighted mean over [start, now]; the current value if now == start. */
double sim_gauge_mean(const SimGauge *self, SimTime now);

/**
 * SimCounters:
 *
 * Named counters, reported in registration order (never hash order).
 */
typedef struct SimCounters SimCounters;

SimCounters *sim_counters_new(void);
void sim_counters_free(SimCounters *self);
/* Returns the index of @name, registering it (at 0) if new. */
guint sim_counters_register(SimCounters *self, const char *name);
void sim_counters_add(SimCounters *self, guint index, uint64_t n);
uint64_t sim_counters_get(const SimCounters *self, guint index);
guint sim_counters_get_length(const SimCounters *self);
const char *sim_counters_get_name(const SimCounters *self, guint index);
/* Returns: the value of @name, 0 if never registered. */
uint64_t sim_counters_lookup(const SimCounters *self, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SimCounters, sim_counters_free)

/**
 * SimSamples:
 *
 * Stored observations (latencies, slowdowns) with exact, deterministic
 * quantiles: the sorted samples with linear interpolation between order
 * statistics (Hyndman-Fan type 7, as gsl_stats_quantile_from_sorted_data).
 */
typedef struct SimSamples SimSamples;

SimSamples *sim_samples_new(void);
void sim_samples_free(SimSamples *self);
void sim_samples_add(SimSamples *self, double value);
gsize sim_samples_get_count(const SimSamples *self);
double sim_samples_mean(const SimSamples *self); /* NAN when empty */
double sim_samples_min(SimSamples *self);        /* NAN when empty */
double sim_samples_max(SimSamples *self);        /* NAN when empty */
/* @q in [0, 1]; NAN when empty. Sorts on first use after an add. */
double sim_samples_quantile(SimSamples *self, double q);
/**
 * sim_samples_histogram:
 * @edges: n_bins + 1 increasing bin edges; bin i is [edges[i], edges[i+1]),
 *   the last bin also takes its upper edge
 * @counts: (out caller-allocates): n_bins counts
 *
 * Returns: the number of samples outside [edges[0], edges[n_bins]].
 */
gsize sim_samples_histogram(SimSamples *self, const double *edges, guint n_bins, uint64_t *counts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SimSamples, sim_samples_free)

/**
 * SimSampler:
 *
 * A periodic sampler for time series: every @interval of simulated time it
 * records one value of each probe. It runs as an event of its own kind at
 * SIM_PRIORITY_MAX, so it sees the state after all other events at a tick.
 */
typedef struct SimSampler SimSampler;
typedef double (*SimProbeFunc)(gpointer user_data, SimTime now);

/* Registers its event kind on @loop; @loop must outlive the sampler. */
SimSampler *sim_sampler_new(SimLoop *loop, SimTime interval);
void sim_sampler_free(SimSampler *self);
/* Returns: the probe's index. Add probes before sim_sampler_start(). */
guint
sim_sampler_add_probe(SimSampler *self, const char *name, SimProbeFunc func, gpointer user_data);
/* Schedules the first sample at @first; later ones every interval. */
void sim_sampler_start(SimSampler *self, SimTime first);
/* Stops sampling (cancels the pending sample event). */
void sim_sampler_stop(SimSampler *self);
guint sim_sampler_get_n_points(const SimSampler *self);
guint sim_sampler_get_n_probes(const SimSampler *self);
const char *sim_sampler_get_probe_name(const SimSampler *self, guint probe);
SimTime sim_sampler_get_time(const SimSampler *self, guint point);
double sim_sampler_get_value(const SimSampler *self, guint probe, guint point);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SimSampler, sim_sampler_free)

G_END_DECLS
