/*
 * phold.c: the PHOLD benchmark of sim/engine (Fujimoto 1990; the reference
 * model of ROSS, models/phold).
 *
 * N logical processes (LPs) each start with one event. Each event, when it
 * runs, schedules exactly one new event: for a uniformly chosen LP with
 * probability 0.25 (remote), otherwise for its own LP, at now + 1.0 +
 * Exp(mean 1.0). Time unit here: 1.0 = 1,000,000 µs of SimTime. The number
 * of pending events stays N, so the benchmark measures the queue at size N
 * plus dispatch and the RNG draws. Wall-clock timing is allowed here (a bench
 * harness), never in sim/engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <glib.h>

#include "sim.h"

#define PHOLD_UNIT      SIM_TIME_S /* 1.0 in PHOLD time = 1 s = 1e6 µs */
#define PHOLD_LOOKAHEAD 1.0
#define PHOLD_MEAN      1.0
#define PHOLD_REMOTE    0.25

typedef struct {
	SimRng *rng;
	uint64_t *received; /* per-LP state: events handled */
	uint32_t n_lps;
	uint32_t kind;
} Phold;

static inline SimTime
phold_delay(Phold *m)
{
	double d = PHOLD_LOOKAHEAD + sim_rng_exponential(m->rng, PHOLD_MEAN);
	return (SimTime)(d * (double)PHOLD_UNIT + 0.5);
}

static void
phold_event(SimLoop *loop, const SimEvent *event, gpointer user_data)
{
	Phold *m = user_data;
	uint32_t dest = event->target;

	m->received[dest]++;
	if (sim_rng_uniform(m->rng) < PHOLD_REMOTE) {
		dest = sim_rng_uniform_int(m->rng, m->n_lps);
	}
	sim_loop_schedule(loop, event->time + phold_delay(m), m->kind, 0, dest, NULL);
}

static double
clock_seconds(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Events per second of the dispatch loop (set-up excluded), by the wall
 * clock and by this process's CPU time. On a shared machine the second is the
 * stable one: it does not count time slices given to other processes. */
typedef struct {
	double wall;
	double cpu;
} Rate;

static Rate
phold_run(uint32_t n_lps, uint64_t n_events, uint64_t seed, gboolean verbose)
{
	g_autoptr(SimLoop) loop = sim_loop_new();
	Phold m = {
		.rng = sim_rng_new(seed, "phold"),
		.received = g_new0(uint64_t, n_lps),
		.n_lps = n_lps,
	};

	m.kind = sim_loop_add_kind(loop, "phold", phold_event, &m);
	for (uint32_t lp = 0; lp < n_lps; lp++) {
		sim_loop_schedule(loop, phold_delay(&m), m.kind, 0, lp, NULL);
	}
	sim_loop_set_max_events(loop, n_events);

	double t0 = clock_seconds(CLOCK_MONOTONIC);
	double c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
	SimStopReason reason = sim_loop_run(loop);
	double elapsed = clock_seconds(CLOCK_MONOTONIC) - t0;
	double cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;

	uint64_t total = 0;
	for (uint32_t lp = 0; lp < n_lps; lp++) {
		total += m.received[lp];
	}
	/* The model's invariants: every dispatched event was received once, and
	 * each event replaced itself, so N stay pending... */
	g_assert(reason == SIM_STOP_MAX_EVENTS && total == n_events);
	g_assert(sim_queue_get_length(sim_loop_get_queue(loop)) == n_lps);
	/* ...and the pool never grew past N slots: no allocation in steady state. */
	g_assert(sim_queue_get_pool_size(sim_loop_get_queue(loop)) == n_lps);
	if (verbose) {
		g_autofree char *now = sim_time_format(sim_loop_get_now(loop));
		fprintf(stderr,
		        "phold: N=%u events=%" G_GUINT64_FORMAT
		        " sim_time=%s wall=%.3fs %.3fM ev/s cpu=%.3fs %.3fM ev/s pool=%u\n",
		        n_lps, n_events, now, elapsed, (double)n_events / elapsed / 1e6, cpu,
		        (double)n_events / cpu / 1e6,
		        sim_queue_get_pool_size(sim_loop_get_queue(loop)));
	}
	sim_rng_free(m.rng);
	g_free(m.received);
	return (Rate){ (double)n_events / elapsed, (double)n_events / cpu };
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
median_of(double *v, gint64 n)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void
print_record(
        gint64 lps, const char *what, const char *unit, double value, gint64 runs, gint64 events)
{
	printf("{\"name\": \"phold.n%" G_GINT64_FORMAT ".%s\", \"unit\": \"%s\", "
	       "\"value\": %.0f, \"runs\": %" G_GINT64_FORMAT
	       ", \"events_per_run\": %" G_GINT64_FORMAT "}\n",
	       lps, what, unit, value, runs, events);
}

int
main(int argc, char **argv)
{
	gint64 lps = 1000, events = 5000000, runs = 5, seed = 1;
	gboolean json = FALSE, quiet = FALSE;
	GOptionEntry entries[] = {
		{ "lps", 'n', 0, G_OPTION_ARG_INT64, &lps, "logical processes (default 1000)",
		  "N" },
		{ "events", 'e', 0, G_OPTION_ARG_INT64, &events, "events per run (default 5e6)",
		  "E" },
		{ "runs", 'r', 0, G_OPTION_ARG_INT64, &runs,
		  "runs; the median is reported (default 5)", "R" },
		{ "seed", 's', 0, G_OPTION_ARG_INT64, &seed, "scenario seed (default 1)", "S" },
		{ "json", 'j', 0, G_OPTION_ARG_NONE, &json, "print one JSON record per measurement",
		  NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no per-run lines on stderr", NULL },
		{ NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("- PHOLD benchmark of sim/engine");
	g_autoptr(GError) error = NULL;

	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, &argc, &argv, &error)) {
		fprintf(stderr, "phold: %s\n", error->message);
		return 2;
	}
	if (lps < 1 || lps > G_MAXUINT32 / 2 || events < 1 || runs < 1 || runs > 99) {
		fprintf(stderr, "phold: --lps, --events and --runs must be positive\n");
		return 2;
	}

	double wall[99], cpu[99];
	for (gint64 i = 0; i < runs; i++) {
		Rate r = phold_run((uint32_t)lps, (uint64_t)events, (uint64_t)seed, !quiet);
		wall[i] = r.wall;
		cpu[i] = r.cpu;
	}
	double wall_median = median_of(wall, runs);
	double cpu_median = median_of(cpu, runs);

	if (json) {
		print_record(lps, "events_per_s", "events/s", wall_median, runs, events);
		print_record(lps, "events_per_cpu_s", "events/cpu-s", cpu_median, runs, events);
	} else {
		printf("phold N=%" G_GINT64_FORMAT ": median %.3fM events/s wall (min %.3fM, max "
		       "%.3fM), %.3fM events/cpu-s (min %.3fM, max %.3fM), %" G_GINT64_FORMAT
		       " runs\n",
		       lps, wall_median / 1e6, wall[0] / 1e6, wall[runs - 1] / 1e6,
		       cpu_median / 1e6, cpu[0] / 1e6, cpu[runs - 1] / 1e6, runs);
	}
	return 0;
}
