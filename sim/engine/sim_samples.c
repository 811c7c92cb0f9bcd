/*
 * sim_samples.c: stored observations with exact quantiles and histograms.
 *
 * Latency and slowdown percentiles in reports must be reproducible to the
 * last digit, so they come from the stored samples (sorted on demand), not
 * from a streaming sketch whose answer depends on insertion order.
 */
#include <math.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "sim.h"

struct SimSamples {
	GArray *values; /* double */
	gboolean sorted;
	double sum;
};

SimSamples *
sim_samples_new(void)
{
	SimSamples *self = g_new0(SimSamples, 1);

	self->values = g_array_new(FALSE, FALSE, sizeof(double));
	self->sorted = TRUE;
	return self;
}

void
sim_samples_free(SimSamples *self)
{
	if (self == NULL) {
		return;
	}
	g_array_unref(self->values);
	g_free(self);
}

void
sim_samples_add(SimSamples *self, double value)
{
	g_return_if_fail(!isnan(value));
	g_array_append_val(self->values, value);
	self->sum += value;
	self->sorted = FALSE;
}

gsize
sim_samples_get_count(const SimSamples *self)
{
	return self->values->len;
}

static const double *
sorted_values(SimSamples *self)
{
	if (!self->sorted) {
		gsl_sort((double *)self->values->data, 1, self->values->len);
		self->sorted = TRUE;
	}
	return (const double *)self->values->data;
}

double
sim_samples_mean(const SimSamples *self)
{
	return self->values->len ? self->sum / (double)self->values->len : (double)NAN;
}

double
sim_samples_min(SimSamples *self)
{
	return self->values->len ? sorted_values(self)[0] : (double)NAN;
}

double
sim_samples_max(SimSamples *self)
{
	return self->values->len ? sorted_values(self)[self->values->len - 1] : (double)NAN;
}

double
sim_samples_quantile(SimSamples *self, double q)
{
	g_return_val_if_fail(q >= 0.0 && q <= 1.0, (double)NAN);
	if (self->values->len == 0) {
		return (double)NAN;
	}
	return gsl_stats_quantile_from_sorted_data(sorted_values(self), 1, self->values->len, q);
}

gsize
sim_samples_histogram(SimSamples *self, const double *edges, guint n_bins, uint64_t *counts)
{
	const double *v = sorted_values(self);
	gsize outside = 0;
	guint bin = 0;

	g_return_val_if_fail(n_bins >= 1, 0);
	memset(counts, 0, n_bins * sizeof(uint64_t));
	/* One merge-like pass: samples and edges are both increasing. */
	for (guint i = 0; i < self->values->len; i++) {
		double x = v[i];
		if (x < edges[0] || x > edges[n_bins]) {
			outside++;
			continue;
		}
		while (bin + 1 < n_bins && x >= edges[bin + 1]) {
			bin++;
		}
		counts[bin]++;
	}
	return outside;
}
