/*
 * rpt_report.c: the report object's top level: run identity and its modes.
 *
 * A report is filled once by the simulation and then only read by the
 * writers. Modes keep the order in which they were added, which is the
 * column order of every table.
 */
#include <math.h>
#include <stdio.h>

#include "rpt-private.h"

G_DEFINE_QUARK(rpt - error - quark, rpt_error)

RptReport *
rpt_report_new(const char *scenario, const char *scenario_hash, uint64_t seed, const char *version)
{
	RptReport *self = g_new0(RptReport, 1);

	self->scenario = g_strdup(scenario ? scenario : "");
	self->scenario_hash = g_strdup(scenario_hash);
	self->seed = seed;
	self->version = g_strdup(version ? version : "");
	self->horizon_us = RPT_TIME_NONE;
	self->modes = g_ptr_array_new_with_free_func((GDestroyNotify)rpt_mode__free);
	return self;
}

void
rpt_report_free(RptReport *self)
{
	if (self == NULL) {
		return;
	}
	g_free(self->scenario);
	g_free(self->scenario_hash);
	g_free(self->version);
	g_free(self->baseline);
	g_ptr_array_unref(self->modes);
	g_free(self);
}

const char *
rpt_report_get_scenario(const RptReport *self)
{
	return self->scenario;
}

const char *
rpt_report_get_scenario_hash(const RptReport *self)
{
	return self->scenario_hash;
}

uint64_t
rpt_report_get_seed(const RptReport *self)
{
	return self->seed;
}

const char *
rpt_report_get_version(const RptReport *self)
{
	return self->version;
}

void
rpt_report_set_horizon(RptReport *self, RptTime horizon_us)
{
	self->horizon_us = horizon_us;
}

RptTime
rpt_report_get_horizon(const RptReport *self)
{
	return self->horizon_us;
}

gboolean
rpt_report_set_baseline(RptReport *self, const char *mode)
{
	if (mode != NULL && rpt_report_lookup_mode(self, mode) == NULL)
		return FALSE;
	g_free(self->baseline);
	self->baseline = g_strdup(mode);
	return TRUE;
}

const char *
rpt_report_get_baseline(const RptReport *self)
{
	if (self->baseline != NULL)
		return self->baseline;
	return self->modes->len > 0 ? ((const RptMode *)g_ptr_array_index(self->modes, 0))->name
	                            : NULL;
}

guint
rpt_report_get_n_modes(const RptReport *self)
{
	return self->modes->len;
}

RptMode *
rpt_report_get_mode(const RptReport *self, guint index)
{
	g_return_val_if_fail(index < self->modes->len, NULL);
	return g_ptr_array_index(self->modes, index);
}

static void
copy_mode_summary(RptReport *out, const RptMode *mode)
{
	RptMode *copy = rpt_mode_add(out, rpt_mode_get_name(mode));

	for (guint i = 0; i < rpt_mode_get_n_info(mode); i++) {
		const char *key, *value;

		rpt_mode_get_info(mode, i, &key, &value);
		rpt_mode__set_info_kind(copy, key, value, rpt_mode__get_info_kind(mode, i));
	}
	for (guint i = 0; i < rpt_mode_get_n_metrics(mode); i++) {
		const char *name, *unit;
		double value;

		rpt_mode_get_metric(mode, i, &name, &value, &unit);
		rpt_mode_set_metric(copy, name, value, unit);
	}
	for (guint i = 0; i < rpt_mode_get_n_unschedulable(mode); i++) {
		const char *reason;
		uint64_t pods;

		rpt_mode_get_unschedulable(mode, i, &reason, &pods);
		rpt_mode_add_unschedulable(copy, reason, pods);
	}
}

RptReport *
rpt_report_copy_summary(const RptReport *self)
{
	RptReport *out =
	        rpt_report_new(self->scenario, self->scenario_hash, self->seed, self->version);

	rpt_report_set_horizon(out, self->horizon_us);
	for (guint i = 0; i < self->modes->len; i++)
		copy_mode_summary(out, self->modes->pdata[i]);
	return out;
}

RptMode *
rpt_report_lookup_mode(const RptReport *self, const char *name)
{
	for (guint i = 0; i < self->modes->len; i++) {
		RptMode *mode = g_ptr_array_index(self->modes, i);

		if (g_strcmp0(mode->name, name) == 0) {
			return mode;
		}
	}
	return NULL;
}

static const char *const outcome_names[] = {
	[RPT_OUTCOME_COMPLETED] = "completed",   [RPT_OUTCOME_RUNNING] = "running",
	[RPT_OUTCOME_PENDING] = "pending",       [RPT_OUTCOME_OOM_KILLED] = "oom-killed",
	[RPT_OUTCOME_EVICTED] = "evicted",       [RPT_OUTCOME_DELETED] = "deleted",
	[RPT_OUTCOME_UNRUNNABLE] = "unrunnable",
};

const char *
rpt_outcome_to_string(RptOutcome outcome)
{
	g_return_val_if_fail((guint)outcome < G_N_ELEMENTS(outcome_names), "unknown");
	return outcome_names[outcome];
}

gboolean
rpt_outcome_from_string(const char *text, RptOutcome *outcome_out)
{
	for (guint i = 0; i < G_N_ELEMENTS(outcome_names); i++) {
		if (g_strcmp0(text, outcome_names[i]) == 0) {
			*outcome_out = (RptOutcome)i;
			return TRUE;
		}
	}
	return FALSE;
}

static int
compare_doubles(gconstpointer a, gconstpointer b)
{
	double x = *(const double *)a;
	double y = *(const double *)b;

	return (x > y) - (x < y);
}

double
rpt_percentile(const double *samples, gsize n, double q)
{
	g_autofree double *sorted = NULL;
	double rank;
	gsize index;

	if (n == 0) {
		return (double)NAN;
	}
	sorted = g_memdup2(samples, n * sizeof(double));
	qsort(sorted, n, sizeof(double), compare_doubles);
	/* nearest rank: ceil(q/100 * n), 1-based */
	rank = ceil(q / 100.0 * (double)n);
	index = rank < 1.0 ? 0 : (gsize)rank - 1;
	return sorted[MIN(index, n - 1)];
}

/* Decimal digits of @value, exactly as "%" G_GINT64_FORMAT would print them;
 * a report prints millions of these, and snprintf costs ~2,000 instructions each. */
static void
format_integer(char *buf, gsize size, gint64 value)
{
	char digits[24];
	guint64 magnitude = value < 0 ? (guint64)0 - (guint64)value : (guint64)value;
	gsize n = 0;
	gsize at = 0;

	do {
		digits[n++] = (char)('0' + magnitude % 10);
		magnitude /= 10;
	} while (magnitude != 0);
	if (value < 0)
		digits[n++] = '-';
	if (n + 1 > size) {
		g_strlcpy(buf, "", size);
		return;
	}
	while (n > 0)
		buf[at++] = digits[--n];
	buf[at] = '\0';
}

/* Writes @v in decimal, at least @width digits (zero-padded), at @p; returns the length. */
static gsize
put_decimal(char *p, guint64 v, int width)
{
	char tmp[20];
	gsize n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	while (n < (gsize)width && n < sizeof(tmp))
		tmp[n++] = '0';
	for (gsize i = 0; i < n; i++)
		p[i] = tmp[n - 1 - i];
	return n;
}

void
rpt__format_seconds(char *buf, gsize size, RptTime t_us)
{
	/* integer µs -> seconds with up to six decimals, by integer arithmetic so the
	 * digits are exact (a double's %.9g would round 7362.323099 s); without printf,
	 * as every pod's times go through here (the report of a large run) */
	guint64 magnitude = t_us < 0 ? (guint64)0 - (guint64)t_us : (guint64)t_us;
	guint64 fraction = magnitude % 1000000;
	int digits = 6;
	char out[48];
	gsize n = 0;

	if (t_us < 0)
		out[n++] = '-';
	n += put_decimal(out + n, magnitude / 1000000, 1);
	if (fraction != 0) {
		while (fraction % 10 == 0) {
			fraction /= 10;
			digits--;
		}
		out[n++] = '.';
		n += put_decimal(out + n, fraction, digits);
	}
	out[n] = '\0';
	g_strlcpy(buf, out, size);
}

void
rpt__format_number(char *buf, gsize size, double value)
{
	/* Fixed precision keeps baselines stable across libc printf rounding of the last
	 * digits; integers print without an exponent up to 2^53. */
	if (!isfinite(value)) {
		g_strlcpy(buf, "null", size);
	} else if (!(value > floor(value)) && fabs(value) < 9007199254740992.0) {
		/* the common case (µs times, counts): what "%.0f" prints, without printf;
		 * -0 prints as 0 */
		format_integer(buf, size, (gint64)value);
	} else {
		snprintf(buf, size, "%.9g", value);
	}
}
