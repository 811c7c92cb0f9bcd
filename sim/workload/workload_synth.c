/*
 * workload_synth.c: synthetic sources: an arrival process, a template mix, a
 * duration and a demand distribution, drawn lazily in arrival order.
 *
 * Each kind of draw has its own named RNG stream, so the arrival times of a
 * scenario stay put when its duration or demand model changes, and the same
 * items reach every mode of a comparison. Times are integer µs; an arrival
 * process that accumulates gaps rounds each gap once, except fixed-rate, which
 * computes the k-th time directly so rounding never drifts.
 */
#include <math.h>
#include <string.h>

#include "workload-private.h"

struct WorkloadSynth {
	WorkloadSynthSpec spec;
	guint32 source;
	SimRng *arrivals;
	SimRng *templates;
	SimRng *durations;
	SimRng *demands;
	WorkloadDistState duration;
	WorkloadDistState demand;
	double *cumulative; /* template weights, cumulative, normalised to 1 */
	SimTime next_time;  /* POISSON, DIURNAL: the last candidate time */
	guint64 emitted;
	gboolean done;
};

static gboolean
invalid(GError **error, const char *field, const char *what)
{
	g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_INVALID, "%s: %s", field, what);
	return FALSE;
}

static gboolean
check_arrival(const WorkloadArrival *a, GError **error)
{
	switch (a->kind) {
	case WORKLOAD_ARRIVAL_POISSON:
	case WORKLOAD_ARRIVAL_FIXED_RATE:
	case WORKLOAD_ARRIVAL_DIURNAL:
		/* 1e6/s: one arrival per µs, the resolution of SimTime */
		if (!(isfinite(a->rate_per_s) && a->rate_per_s > 0.0 && a->rate_per_s <= 1e6)) {
			return invalid(error, "arrival.rate",
			               "expected a rate in (0, 1e6] per second");
		}
		break;
	case WORKLOAD_ARRIVAL_BURST:
		if (a->burst_size == 0) {
			return invalid(error, "arrival.burstSize", "expected at least 1");
		}
		if (a->burst_period <= 0) {
			return invalid(error, "arrival.period", "expected a duration > 0");
		}
		break;
	default:
		return invalid(error, "arrival.kind", "expected a known arrival process");
	}
	if (a->kind == WORKLOAD_ARRIVAL_DIURNAL) {
		if (!(a->amplitude >= 0.0 && a->amplitude <= 1.0)) {
			return invalid(error, "arrival.amplitude", "expected a number in [0, 1]");
		}
		if (a->period < 0) {
			return invalid(error, "arrival.period", "expected a duration >= 0");
		}
	}
	return TRUE;
}

static gboolean
check_spec(const WorkloadSynthSpec *spec, GError **error)
{
	if (spec->name == NULL || spec->name[0] == '\0') {
		return invalid(error, "name",
		               "expected a non-empty name (it names the RNG streams)");
	}
	if (spec->start < 0 || spec->end < spec->start) {
		return invalid(error, "start", "expected 0 <= start <= end");
	}
	if (!check_arrival(&spec->arrival, error)) {
		return FALSE;
	}
	double total = 0.0;
	for (guint i = 0; i < spec->n_templates; i++) {
		double w = spec->template_weights != NULL ? spec->template_weights[i] : (double)NAN;
		if (!(isfinite(w) && w >= 0.0)) {
			g_autofree char *field = g_strdup_printf("templates[%u].weight", i);
			return invalid(error, field, "expected a finite number >= 0");
		}
		total += w;
	}
	if (spec->n_templates > 0 && !(total > 0.0)) {
		return invalid(error, "templates", "expected at least one weight > 0");
	}
	return workload_dist_check(&spec->duration, "duration", error) &&
	       workload_dist_check(&spec->demand, "demand", error);
}

static SimRng *
stream(SimRngSet *rngs, const char *name, const char *purpose)
{
	g_autofree char *full = g_strconcat(name, ".", purpose, NULL);

	return sim_rng_set_get(rngs, full);
}

WorkloadSynth *
workload_synth_new(const WorkloadSynthSpec *spec, SimRngSet *rngs, GError **error)
{
	g_return_val_if_fail(spec != NULL && rngs != NULL, NULL);
	if (!check_spec(spec, error)) {
		return NULL;
	}

	WorkloadSynth *self = g_new0(WorkloadSynth, 1);
	self->spec = *spec;
	self->arrivals = stream(rngs, spec->name, "arrivals");
	self->templates = stream(rngs, spec->name, "templates");
	self->durations = stream(rngs, spec->name, "durations");
	self->demands = stream(rngs, spec->name, "demands");
	workload_dist__init(&self->duration, &spec->duration);
	workload_dist__init(&self->demand, &spec->demand);
	if (spec->n_templates > 0) {
		double total = 0.0, run = 0.0;
		self->cumulative = g_new(double, spec->n_templates);
		for (guint i = 0; i < spec->n_templates; i++) {
			total += spec->template_weights[i];
		}
		for (guint i = 0; i < spec->n_templates; i++) {
			run += spec->template_weights[i];
			self->cumulative[i] = run / total;
		}
	}
	self->next_time = spec->start;
	return self;
}

void
workload_synth_free(WorkloadSynth *self)
{
	if (self == NULL) {
		return;
	}
	workload_dist__clear(&self->duration);
	workload_dist__clear(&self->demand);
	g_free(self->cumulative);
	g_free(self);
}

/* A gap of Exp(1/rate) seconds, rounded once to µs. */
static SimTime
exp_gap(WorkloadSynth *self, double rate)
{
	return sim_time_from_seconds(sim_rng_exponential(self->arrivals, 1.0 / rate));
}

static gboolean
add_gap(SimTime *t, SimTime gap)
{
	if (gap > SIM_TIME_NEVER - *t) {
		return FALSE;
	}
	*t += gap;
	return TRUE;
}

/* The next arrival time, or FALSE if the process has no more in [start, end). */
static gboolean
next_arrival(WorkloadSynth *self, SimTime *out)
{
	const WorkloadArrival *a = &self->spec.arrival;
	SimTime t;

	switch (a->kind) {
	case WORKLOAD_ARRIVAL_POISSON:
		if (!add_gap(&self->next_time, exp_gap(self, a->rate_per_s))) {
			return FALSE;
		}
		t = self->next_time;
		break;
	case WORKLOAD_ARRIVAL_FIXED_RATE: {
		double at = (double)self->spec.start + (double)self->emitted * 1e6 / a->rate_per_s;
		if (at >= 9e18) {
			return FALSE;
		}
		t = (SimTime)llround(at);
		break;
	}
	case WORKLOAD_ARRIVAL_BURST: {
		guint64 burst = self->emitted / a->burst_size;
		if (burst > (guint64)((SIM_TIME_NEVER - self->spec.start) / a->burst_period)) {
			return FALSE;
		}
		t = self->spec.start + (SimTime)burst * a->burst_period;
		break;
	}
	case WORKLOAD_ARRIVAL_DIURNAL: {
		double peak_rate = a->rate_per_s * (1.0 + a->amplitude);
		SimTime period = a->period > 0 ? a->period : SIM_TIME_DAY;
		for (;;) {
			if (!add_gap(&self->next_time, exp_gap(self, peak_rate))) {
				return FALSE;
			}
			if (self->next_time >= self->spec.end) {
				return FALSE;
			}
			/* phase of the day computed in integers, so it stays exact */
			SimTime since_peak = (self->next_time - a->peak) % period;
			double phase = 2.0 * G_PI * (double)since_peak / (double)period;
			double rate = a->rate_per_s * (1.0 + a->amplitude * cos(phase));
			if (sim_rng_uniform(self->arrivals) * peak_rate < rate) {
				break;
			}
		}
		t = self->next_time;
		break;
	}
	default:
		g_assert_not_reached();
	}
	if (t >= self->spec.end) {
		return FALSE;
	}
	*out = t;
	return TRUE;
}

static guint32
pick_template(WorkloadSynth *self)
{
	if (self->spec.n_templates <= 1) {
		return 0;
	}
	double u = sim_rng_uniform(self->templates);
	for (guint i = 0; i + 1 < self->spec.n_templates; i++) {
		if (u < self->cumulative[i]) {
			return i;
		}
	}
	return self->spec.n_templates - 1;
}

gboolean
workload_synth_next(WorkloadSynth *self, WorkloadItem *out)
{
	SimTime t;

	if (self->done || (self->spec.max_items > 0 && self->emitted >= self->spec.max_items) ||
	    !next_arrival(self, &t)) {
		self->done = TRUE;
		return FALSE;
	}
	*out = (WorkloadItem){
		.arrival = t,
		.template_index = pick_template(self),
		.duration = sim_time_from_seconds(
		        workload_dist__draw(&self->duration, self->durations)),
		.demand = workload_dist__draw(&self->demand, self->demands),
		.source = self->source,
		.index = self->emitted++,
	};
	return TRUE;
}

static int
item_cmp(const void *a, const void *b)
{
	const WorkloadItem *x = a, *y = b;

	if (x->arrival != y->arrival) {
		return x->arrival < y->arrival ? -1 : 1;
	}
	if (x->source != y->source) {
		return x->source < y->source ? -1 : 1;
	}
	return (x->index > y->index) - (x->index < y->index);
}

GArray *
workload_synth_generate(const WorkloadSynthSpec *specs,
                        guint n_specs,
                        SimTime horizon,
                        SimRngSet *rngs,
                        GError **error)
{
	g_autoptr(GArray) items = g_array_new(FALSE, FALSE, sizeof(WorkloadItem));

	for (guint s = 0; s < n_specs; s++) {
		WorkloadSynthSpec spec = specs[s];
		if (horizon < spec.end) {
			spec.end = MAX(horizon, spec.start);
		}
		if (spec.max_items == 0 && spec.end == SIM_TIME_NEVER) {
			g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_INVALID,
			            "specs[%u].end: expected an end, a maximum count or a horizon",
			            s);
			return NULL;
		}
		g_autoptr(WorkloadSynth) gen = workload_synth_new(&spec, rngs, error);
		if (gen == NULL) {
			g_prefix_error(error, "specs[%u].", s);
			return NULL;
		}
		gen->source = s;
		WorkloadItem item;
		while (workload_synth_next(gen, &item)) {
			g_array_append_val(items, item);
		}
	}
	/* Each source is sorted already; one sort merges them deterministically. */
	if (items->len > 1) {
		qsort(items->data, items->len, sizeof(WorkloadItem), item_cmp);
	}
	return g_steal_pointer(&items);
}
