/*
 * sim_stats.c: time-weighted gauges and named counters.
 *
 * A gauge integrates its value over simulated time as it changes, so the
 * time-weighted mean (e.g. the GPU allocation ratio) costs O(1) per change
 * and needs no samples. Counters keep registration order for reports.
 */
#include "sim.h"

void
sim_gauge_init(SimGauge *self, SimTime start, double value)
{
	*self = (SimGauge){
		.start = start,
		.last_time = start,
		.value = value,
		.min = value,
		.max = value,
		.area = 0.0,
	};
}

void
sim_gauge_set(SimGauge *self, SimTime now, double value)
{
	g_return_if_fail(now >= self->last_time);

	self->area += self->value * (double)(now - self->last_time);
	self->last_time = now;
	self->value = value;
	if (value < self->min) {
		self->min = value;
	}
	if (value > self->max) {
		self->max = value;
	}
}

void
sim_gauge_add(SimGauge *self, SimTime now, double delta)
{
	sim_gauge_set(self, now, self->value + delta);
}

double
sim_gauge_mean(const SimGauge *self, SimTime now)
{
	g_return_val_if_fail(now >= self->last_time, self->value);

	if (now == self->start) {
		return self->value;
	}
	double area = self->area + self->value * (double)(now - self->last_time);
	return area / (double)(now - self->start);
}

/* -------------------------------------------------------------- counters */

struct SimCounters {
	GArray *values;      /* uint64_t */
	GPtrArray *names;    /* owned strings, registration order */
	GHashTable *by_name; /* name -> index + 1; lookup only, never iterated */
};

SimCounters *
sim_counters_new(void)
{
	SimCounters *self = g_new0(SimCounters, 1);

	self->values = g_array_new(FALSE, TRUE, sizeof(uint64_t));
	self->names = g_ptr_array_new_with_free_func(g_free);
	self->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	return self;
}

void
sim_counters_free(SimCounters *self)
{
	if (self == NULL) {
		return;
	}
	g_hash_table_unref(self->by_name);
	g_ptr_array_unref(self->names);
	g_array_unref(self->values);
	g_free(self);
}

guint
sim_counters_register(SimCounters *self, const char *name)
{
	gpointer found = g_hash_table_lookup(self->by_name, name);

	if (found != NULL) {
		return GPOINTER_TO_UINT(found) - 1;
	}
	char *copy = g_strdup(name);
	uint64_t zero = 0;
	g_ptr_array_add(self->names, copy);
	g_array_append_val(self->values, zero);
	g_hash_table_insert(self->by_name, copy, GUINT_TO_POINTER(self->names->len));
	return self->names->len - 1;
}

void
sim_counters_add(SimCounters *self, guint index, uint64_t n)
{
	g_return_if_fail(index < self->values->len);
	g_array_index(self->values, uint64_t, index) += n;
}

uint64_t
sim_counters_get(const SimCounters *self, guint index)
{
	g_return_val_if_fail(index < self->values->len, 0);
	return g_array_index(self->values, uint64_t, index);
}

guint
sim_counters_get_length(const SimCounters *self)
{
	return self->names->len;
}

const char *
sim_counters_get_name(const SimCounters *self, guint index)
{
	g_return_val_if_fail(index < self->names->len, NULL);
	return g_ptr_array_index(self->names, index);
}

uint64_t
sim_counters_lookup(const SimCounters *self, const char *name)
{
	gpointer found = g_hash_table_lookup(self->by_name, name);

	return found != NULL ? sim_counters_get(self, GPOINTER_TO_UINT(found) - 1) : 0;
}
