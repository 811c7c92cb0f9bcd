/*
 * plan_spec.c: the question a plan answers (PlanSpec) and the checks that
 * can be made before anything runs, so a wrong command line never starts
 * a search: pools, costs, the count bounds and the size of a mix.
 */
#include <math.h>
#include <string.h>

#include "plan.h"

PlanSpec *
plan_spec_new(const char *scenario)
{
	PlanSpec *self = g_new0(PlanSpec, 1);

	self->scenario = g_strdup(scenario);
	self->pools = g_ptr_array_new_with_free_func(g_free);
	self->shapes = g_ptr_array_new_with_free_func(g_free);
	self->costs = g_array_new(FALSE, FALSE, sizeof(double));
	self->slos = g_array_new(FALSE, TRUE, sizeof(PlanSlo));
	g_array_set_clear_func(self->slos, (GDestroyNotify)plan_slo_clear);
	self->modes = g_ptr_array_new_with_free_func(g_free);
	self->seeds = g_array_new(FALSE, FALSE, sizeof(guint64));
	self->confidence = 0.95;
	self->min = 1;
	self->max = PLAN_DEFAULT_MAX;
	return self;
}

void
plan_spec_free(PlanSpec *self)
{
	if (self == NULL)
		return;
	g_free(self->scenario);
	g_ptr_array_unref(self->pools);
	g_ptr_array_unref(self->shapes);
	g_array_unref(self->costs);
	g_array_unref(self->slos);
	g_ptr_array_unref(self->modes);
	g_array_unref(self->seeds);
	g_free(self);
}

static gboolean input_error(GError **error, const char *format, ...) G_GNUC_PRINTF(2, 3);

static gboolean
input_error(GError **error, const char *format, ...)
{
	va_list args;
	g_autofree char *message = NULL;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error_literal(error, PLAN_ERROR, PLAN_ERROR_INPUT, message);
	return FALSE;
}

/* (max - min + 1) ^ (n_pools - 1), or G_MAXUINT64 past PLAN_MAX_MIXES. */
static guint64
n_mixes(const PlanSpec *self)
{
	guint64 n = 1, width = (guint64)self->max - self->min + 1;

	for (guint p = 0; p + 1 < self->pools->len; p++) {
		n *= width;
		if (n > PLAN_MAX_MIXES)
			return G_MAXUINT64;
	}
	return n;
}

static gboolean
check_pools(const PlanSpec *self, GError **error)
{
	if (self->pools->len == 0)
		return input_error(error, "no pool to plan: name one with --pool NAME");
	if (self->pools->len > PLAN_MAX_POOLS)
		return input_error(error, "%u pools: a plan searches at most %u", self->pools->len,
		                   PLAN_MAX_POOLS);
	for (guint i = 0; i < self->pools->len; i++) {
		for (guint j = 0; j < i; j++) {
			if (strcmp(g_ptr_array_index(self->pools, i),
			           g_ptr_array_index(self->pools, j)) == 0) {
				return input_error(error, "pool %s is named twice",
				                   (const char *)g_ptr_array_index(self->pools, i));
			}
		}
	}
	if (self->costs->len != 0 && self->costs->len != self->pools->len)
		return input_error(error,
		                   "costs for %u of %u pools: give --cost NAME=PRICE for each",
		                   self->costs->len, self->pools->len);
	if (self->pools->len > 1 && self->costs->len == 0) {
		return input_error(error,
		                   "a mix of %u pools needs a cost per node-hour for each, to "
		                   "say which mix is cheapest: --cost NAME=PRICE",
		                   self->pools->len);
	}
	for (guint i = 0; i < self->costs->len; i++) {
		double cost = g_array_index(self->costs, double, i);

		if (!isfinite(cost) || cost < 0)
			return input_error(error, "the cost of pool %s must be a number >= 0",
			                   (const char *)g_ptr_array_index(self->pools, i));
	}
	return TRUE;
}

gboolean
plan_spec_check(const PlanSpec *self, GError **error)
{
	if (!check_pools(self, error))
		return FALSE;
	if (self->slos->len == 0)
		return input_error(error, "no SLO to meet: give one with --slo 'METRIC OP VALUE', "
		                          "e.g. --slo 'pods_pending == 0'");
	if (!(self->confidence > 0.0 && self->confidence < 1.0))
		return input_error(error, "confidence %g: it must be between 0 and 1 (e.g. 0.95)",
		                   self->confidence);
	if (self->min > self->max)
		return input_error(error, "--min %u is above --max %u", self->min, self->max);
	if (self->max > PLAN_MAX_COUNT)
		return input_error(error, "--max %u is above %u, the largest node pool count",
		                   self->max, PLAN_MAX_COUNT);
	if (n_mixes(self) == G_MAXUINT64) {
		return input_error(error,
		                   "a mix of %u pools over counts %u..%u is more than %u "
		                   "combinations of the first %u pools: narrow --min/--max or "
		                   "plan fewer pools",
		                   self->pools->len, self->min, self->max, PLAN_MAX_MIXES,
		                   self->pools->len - 1);
	}
	return TRUE;
}
