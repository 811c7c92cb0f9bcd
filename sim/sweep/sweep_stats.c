/*
 * sweep_stats.c: a metric summarised across the seeds of one sweep cell.
 *
 * The seeds of a cell are independent replications, so the mean's
 * confidence interval is Student's t with n - 1 degrees of freedom:
 * mean -+ t_{(1+c)/2, n-1} * sd / sqrt(n), sd the sample standard deviation.
 * docs/sweep.md says what the interval means and when it misleads (a metric
 * bounded at 0, a handful of seeds, runs that are not independent).
 */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "sweep.h"

void
sweep_stat_compute(const double *x, guint n, double confidence, RptStat *out)
{
	double shift = (double)NAN, sum = 0.0, squares = 0.0;
	guint count = 0;

	*out = (RptStat){ 0, (double)NAN, (double)NAN, (double)NAN, (double)NAN };
	/* Deviations from the first finite value: a constant column gives sd 0 and
	 * the interval [v, v] exactly, and large values (µs) lose no digits. */
	for (guint i = 0; i < n; i++) {
		if (!isfinite(x[i])) {
			continue;
		}
		if (count == 0) {
			shift = x[i];
		}
		sum += x[i] - shift;
		count++;
	}
	if (count == 0) {
		return;
	}
	double mean_shifted = sum / count;

	out->n = count;
	out->mean = shift + mean_shifted;
	if (count == 1) {
		return;
	}
	for (guint i = 0; i < n; i++) {
		if (isfinite(x[i])) {
			double d = x[i] - shift - mean_shifted;

			squares += d * d;
		}
	}
	out->sd = sqrt(squares / (count - 1));
	if (!(confidence > 0.0 && confidence < 1.0)) {
		return; /* no interval at a level that is not a probability */
	}
	double t = gsl_cdf_tdist_Pinv((1.0 + confidence) / 2.0, (double)(count - 1));
	double half_width = t * out->sd / sqrt((double)count);

	out->ci_low = out->mean - half_width;
	out->ci_high = out->mean + half_width;
}
