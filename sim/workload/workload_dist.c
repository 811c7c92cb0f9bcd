/*
 * workload_dist.c: the distributions of durations and demands, drawn from a
 * SimRng stream.
 *
 * Parameters are checked once, when a generator is built, with the field
 * path in the message; a draw afterwards cannot fail. Draws are clamped to
 * [min, max] when asked, since a lognormal tail of 10^6 s or a demand above
 * one GPU would otherwise leak into the cluster model.
 */
#include <math.h>

#include "workload-private.h"

GQuark
workload_error_quark(void)
{
	return g_quark_from_static_string("workload-error-quark");
}

static gboolean
invalid(GError **error, const char *field, const char *param, const char *what)
{
	g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_INVALID, "%s%s%s: %s",
	            field != NULL ? field : "", field != NULL ? "." : "", param, what);
	return FALSE;
}

static gboolean
nonneg(double x)
{
	return isfinite(x) && x >= 0.0;
}

gboolean
workload_dist_check(const WorkloadDist *dist, const char *field, GError **error)
{
	switch (dist->kind) {
	case WORKLOAD_DIST_FIXED:
		if (!nonneg(dist->value)) {
			return invalid(error, field, "value", "expected a finite number >= 0");
		}
		break;
	case WORKLOAD_DIST_EXPONENTIAL:
		if (!nonneg(dist->mean) || !(dist->mean > 0.0)) {
			return invalid(error, field, "mean", "expected a finite number > 0");
		}
		break;
	case WORKLOAD_DIST_LOGNORMAL:
		if (!isfinite(dist->mu)) {
			return invalid(error, field, "mu", "expected a finite number");
		}
		if (!nonneg(dist->sigma)) {
			return invalid(error, field, "sigma", "expected a finite number >= 0");
		}
		break;
	case WORKLOAD_DIST_UNIFORM:
		if (!nonneg(dist->lo) || !isfinite(dist->hi) || !(dist->hi >= dist->lo)) {
			return invalid(error, field, "lo", "expected 0 <= lo <= hi, both finite");
		}
		break;
	case WORKLOAD_DIST_EMPIRICAL:
		if (dist->samples == NULL || dist->n_samples == 0) {
			return invalid(error, field, "samples", "expected at least one sample");
		}
		for (gsize i = 0; i < dist->n_samples; i++) {
			if (!nonneg(dist->samples[i])) {
				g_autofree char *param = g_strdup_printf("samples[%zu]", i);
				return invalid(error, field, param,
				               "expected a finite number >= 0");
			}
		}
		break;
	default:
		return invalid(error, field, "kind", "expected a known distribution");
	}
	if (dist->max > dist->min && !nonneg(dist->min)) {
		return invalid(error, field, "min", "expected a finite number >= 0");
	}
	return TRUE;
}

void
workload_dist__init(WorkloadDistState *state, const WorkloadDist *dist)
{
	state->dist = *dist;
	state->empirical = NULL;
	if (dist->kind == WORKLOAD_DIST_EMPIRICAL) {
		state->empirical =
		        sim_empirical_new(dist->samples, dist->n_samples, dist->discrete);
		g_assert(state->empirical != NULL); /* checked by workload_dist_check() */
	}
}

void
workload_dist__clear(WorkloadDistState *state)
{
	g_clear_pointer(&state->empirical, sim_empirical_free);
}

double
workload_dist__draw(const WorkloadDistState *state, SimRng *rng)
{
	const WorkloadDist *d = &state->dist;
	double x = 0.0;

	switch (d->kind) {
	case WORKLOAD_DIST_FIXED:
		x = d->value;
		break;
	case WORKLOAD_DIST_EXPONENTIAL:
		x = sim_rng_exponential(rng, d->mean);
		break;
	case WORKLOAD_DIST_LOGNORMAL:
		x = sim_rng_lognormal(rng, d->mu, d->sigma);
		break;
	case WORKLOAD_DIST_UNIFORM:
		x = sim_rng_range(rng, d->lo, d->hi);
		break;
	case WORKLOAD_DIST_EMPIRICAL:
		x = sim_empirical_draw(state->empirical, rng);
		break;
	}
	if (d->max > d->min) {
		x = CLAMP(x, d->min, d->max);
	}
	return x;
}
