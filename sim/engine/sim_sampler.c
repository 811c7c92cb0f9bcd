/*
 * sim_sampler.c: periodic sampling of probes into time series (pending pods
 * over time, allocation ratio over time).
 *
 * The sampler is an ordinary event kind on the loop, scheduled at the lowest
 * priority, so a sample at tick t sees every other event of tick t applied.
 * Values are stored row-major: one row of n_probes doubles per point.
 */
#include "sim.h"

typedef struct {
	char *name;
	SimProbeFunc func;
	gpointer user_data;
} Probe;

struct SimSampler {
	SimLoop *loop;
	uint32_t kind;
	SimTime interval;
	SimEventId pending;
	GArray *probes; /* Probe */
	GArray *times;  /* SimTime */
	GArray *values; /* double, n_probes per point */
};

static void
sampler_fire(SimLoop *loop, const SimEvent *event, gpointer user_data)
{
	SimSampler *self = user_data;
	SimTime now = event->time;

	g_array_append_val(self->times, now);
	for (guint i = 0; i < self->probes->len; i++) {
		const Probe *p = &g_array_index(self->probes, Probe, i);
		double v = p->func(p->user_data, now);
		g_array_append_val(self->values, v);
	}
	self->pending = SIM_TIME_NEVER - now < self->interval
	                        ? SIM_EVENT_ID_NONE
	                        : sim_loop_schedule(loop, now + self->interval, self->kind,
	                                            SIM_PRIORITY_MAX, 0, NULL);
}

static void
probe_clear(gpointer data)
{
	g_free(((Probe *)data)->name);
}

SimSampler *
sim_sampler_new(SimLoop *loop, SimTime interval)
{
	g_return_val_if_fail(loop != NULL && interval > 0, NULL);

	SimSampler *self = g_new0(SimSampler, 1);
	self->loop = loop;
	self->interval = interval;
	self->kind = sim_loop_add_kind(loop, "sim.sample", sampler_fire, self);
	self->probes = g_array_new(FALSE, TRUE, sizeof(Probe));
	g_array_set_clear_func(self->probes, probe_clear);
	self->times = g_array_new(FALSE, FALSE, sizeof(SimTime));
	self->values = g_array_new(FALSE, FALSE, sizeof(double));
	return self;
}

void
sim_sampler_free(SimSampler *self)
{
	if (self == NULL) {
		return;
	}
	g_array_unref(self->probes);
	g_array_unref(self->times);
	g_array_unref(self->values);
	g_free(self);
}

guint
sim_sampler_add_probe(SimSampler *self, const char *name, SimProbeFunc func, gpointer user_data)
{
	Probe p = { g_strdup(name), func, user_data };

	g_return_val_if_fail(self->times->len == 0, 0); /* rows have a fixed width */
	g_array_append_val(self->probes, p);
	return self->probes->len - 1;
}

void
sim_sampler_start(SimSampler *self, SimTime first)
{
	sim_sampler_stop(self);
	self->pending = sim_loop_schedule(self->loop, first, self->kind, SIM_PRIORITY_MAX, 0, NULL);
}

void
sim_sampler_stop(SimSampler *self)
{
	if (self->pending != SIM_EVENT_ID_NONE) {
		sim_loop_cancel(self->loop, self->pending);
		self->pending = SIM_EVENT_ID_NONE;
	}
}

guint
sim_sampler_get_n_points(const SimSampler *self)
{
	return self->times->len;
}

guint
sim_sampler_get_n_probes(const SimSampler *self)
{
	return self->probes->len;
}

const char *
sim_sampler_get_probe_name(const SimSampler *self, guint probe)
{
	g_return_val_if_fail(probe < self->probes->len, NULL);
	return g_array_index(self->probes, Probe, probe).name;
}

SimTime
sim_sampler_get_time(const SimSampler *self, guint point)
{
	g_return_val_if_fail(point < self->times->len, SIM_TIME_NEVER);
	return g_array_index(self->times, SimTime, point);
}

double
sim_sampler_get_value(const SimSampler *self, guint probe, guint point)
{
	g_return_val_if_fail(probe < self->probes->len && point < self->times->len, 0.0);
	return g_array_index(self->values, double, point * self->probes->len + probe);
}
