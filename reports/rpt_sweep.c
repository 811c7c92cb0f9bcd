/*
 * rpt_sweep.c: the results table of a sweep, plain data for its writers
 * (rpt_sweep_json.c, rpt_sweep_csv.c, rpt_sweep_html.c). sim/sweep fills it;
 * nothing here computes statistics.
 */
#include <math.h>
#include <string.h>

#include "rpt-sweep-private.h"

RptSweep *
rpt_sweep_new(const char *name,
              const char *scenario,
              const char *const *param_paths,
              guint n_params,
              const uint64_t *seeds,
              guint n_seeds,
              double confidence)
{
	RptSweep *self = g_new0(RptSweep, 1);

	self->name = g_strdup(name ? name : "");
	self->scenario = g_strdup(scenario ? scenario : "");
	self->params = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < n_params; i++) {
		g_ptr_array_add(self->params, g_strdup(param_paths[i]));
	}
	self->seeds = g_array_sized_new(FALSE, FALSE, sizeof(uint64_t), n_seeds);
	if (n_seeds > 0) {
		g_array_append_vals(self->seeds, seeds, n_seeds);
	}
	self->confidence = confidence;
	self->rows = g_array_new(FALSE, FALSE, sizeof(RptSweepRow));
	self->failures = g_array_new(FALSE, FALSE, sizeof(RptSweepFailure));
	self->strings = g_string_chunk_new(4096);
	return self;
}

void
rpt_sweep_free(RptSweep *self)
{
	if (self == NULL) {
		return;
	}
	for (guint i = 0; i < self->rows->len; i++) {
		g_free(g_array_index(self->rows, RptSweepRow, i).values);
	}
	for (guint i = 0; i < self->failures->len; i++) {
		g_free(g_array_index(self->failures, RptSweepFailure, i).values);
	}
	g_free(self->name);
	g_free(self->scenario);
	g_ptr_array_unref(self->params);
	g_array_unref(self->seeds);
	g_array_unref(self->rows);
	g_array_unref(self->failures);
	g_string_chunk_free(self->strings);
	g_free(self);
}

static const char *
intern(RptSweep *self, const char *text)
{
	return g_string_chunk_insert_const(self->strings, text ? text : "");
}

static const char **
intern_values(RptSweep *self, const char *const *values)
{
	const char **copy = g_new(const char *, self->params->len + 1);

	for (guint i = 0; i < self->params->len; i++) {
		copy[i] = intern(self, values[i]);
	}
	copy[self->params->len] = NULL;
	return copy;
}

void
rpt_sweep_add_row(RptSweep *self,
                  const char *const *param_values,
                  const char *mode,
                  const char *metric,
                  const char *unit,
                  const RptStat *stat)
{
	RptSweepRow row = {
		.values = intern_values(self, param_values),
		.mode = intern(self, mode),
		.metric = intern(self, metric),
		.unit = intern(self, unit),
		.stat = *stat,
	};

	g_array_append_val(self->rows, row);
}

void
rpt_sweep_add_failure(RptSweep *self,
                      const char *const *param_values,
                      uint64_t seed,
                      const char *message)
{
	RptSweepFailure failure = {
		.values = intern_values(self, param_values),
		.seed = seed,
		/* messages differ per run: copied, not interned */
		.message = g_string_chunk_insert(self->strings, message ? message : ""),
	};

	g_array_append_val(self->failures, failure);
}

guint
rpt_sweep_get_n_rows(const RptSweep *self)
{
	return self->rows->len;
}

guint
rpt_sweep_get_n_failures(const RptSweep *self)
{
	return self->failures->len;
}

void
rpt_sweep__level_text(char *buf, gsize size, double confidence)
{
	double percent = confidence * 100.0;
	double rounded = round(percent);

	/* 0.95 * 100 is 95.00000000000001 in binary: within 1e-9 of an integer counts as it */
	if (fabs(percent - rounded) < 1e-9) {
		g_snprintf(buf, size, "%.0f", rounded);
	} else {
		g_snprintf(buf, size, "%.6g", percent);
	}
}
