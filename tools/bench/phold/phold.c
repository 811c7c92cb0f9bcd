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
wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One run; returns events/s of the dispatch loop (set-up excluded). */
static double
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

	double t0 = wall_seconds();
	SimStopReason reason = sim_loop_run(loop);
	double elapsed = wall_seconds() - t0;

	uint64_t total = 0;
	for (uint32_t lp = 0; lp < n_lps; lp++) {
		total += m.received[lp];
	}
	/* The model's invariants: every dispatched event was received once, and
	 * each event replaced itself, so N stay pending. */
	g_assert(reason == SIM_STOP_MAX_EVENTS && total == n_events);
	g_assert(sim_queue_get_length(sim_loop_get_queue(loop)) == n_lps);
	if (verbose) {
		g_autofree char *now = sim_time_format(sim_loop_get_now(loop));
		fprintf(stderr,
		        "phold: N=%u events=%" G_GUINT64_FORMAT
		        " sim_time=%s wall=%.3fs %.3fM ev/s pool=%u\n",
		        n_lps, n_events, now, elapsed, (double)n_events / elapsed / 1e6,
		        sim_queue_get_pool_size(sim_loop_get_queue(loop)));
	}
	sim_rng_free(m.rng);
	g_free(m.received);
	return (double)n_events / elapsed;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
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

	double rates[99];
	for (gint64 i = 0; i < runs; i++) {
		rates[i] = phold_run((uint32_t)lps, (uint64_t)events, (uint64_t)seed, !quiet);
	}
	qsort(rates, (size_t)runs, sizeof(double), cmp_double);
	double median = runs % 2 ? rates[runs / 2] : (rates[runs / 2 - 1] + rates[runs / 2]) / 2;

	if (json) {
		printf("{\"name\": \"phold.n%" G_GINT64_FORMAT
		       ".events_per_s\", \"unit\": \"events/s\", "
		       "\"value\": %.0f, \"runs\": %" G_GINT64_FORMAT
		       ", \"events_per_run\": %" G_GINT64_FORMAT "}\n",
		       lps, median, runs, events);
	} else {
		printf("phold N=%" G_GINT64_FORMAT ": median %.3fM events/s over %" G_GINT64_FORMAT
		       " runs (min %.3fM, max %.3fM)\n",
		       lps, median / 1e6, runs, rates[0] / 1e6, rates[runs - 1] / 1e6);
	}
	return 0;
}
