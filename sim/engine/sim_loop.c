/*
 * sim_loop.c: the dispatch loop. Pops the earliest event and calls the handler
 * registered for its kind, until the queue empties, the horizon is reached, a
 * dispatch budget runs out, a handler asks to stop, or (without a horizon)
 * the run is quiescent: only passive events are left (samples, retries) and
 * the model says they would repeat what it already knows.
 *
 * The handler table is the only coupling between engine and model (ROSS's
 * tw_lptype): the engine never interprets kinds, targets or payloads.
 */
#include "sim-private.h"

typedef struct {
	const char *name;
	SimHandlerFunc handler;
	gpointer user_data;
	gboolean passive;
} KindEntry;

struct SimLoop {
	SimQueue *queue;
	GArray *kinds; /* KindEntry, indexed by kind */
	SimTime horizon;
	uint64_t max_events;
	uint64_t dispatched;
	uint64_t progress_every;
	SimProgressFunc progress;
	gpointer progress_data;
	gboolean stop_requested;
	uint64_t active_pending;    /* active events in the queue */
	uint64_t active_dispatched; /* active events run so far */
	SimSettledFunc settled;
	gpointer settled_data;
	SimProgressFunc check; /* after every event (a test build's invariants) */
	gpointer check_data;
};

SimLoop *
sim_loop_new(void)
{
	SimLoop *self = g_new0(SimLoop, 1);

	self->queue = sim_queue_new();
	self->kinds = g_array_new(FALSE, TRUE, sizeof(KindEntry));
	self->horizon = SIM_TIME_NEVER;
	return self;
}

void
sim_loop_free(SimLoop *self)
{
	if (self == NULL) {
		return;
	}
	sim_queue_free(self->queue);
	g_array_unref(self->kinds);
	g_free(self);
}

uint32_t
sim_loop_add_kind(SimLoop *self, const char *name, SimHandlerFunc handler, gpointer user_data)
{
	KindEntry entry = { name, handler, user_data, FALSE };

	g_return_val_if_fail(handler != NULL, UINT32_MAX);
	g_array_append_val(self->kinds, entry);
	return self->kinds->len - 1;
}

const char *
sim_loop_get_kind_name(const SimLoop *self, uint32_t kind)
{
	g_return_val_if_fail(kind < self->kinds->len, NULL);
	return g_array_index(self->kinds, KindEntry, kind).name;
}

void
sim_loop_set_kind_passive(SimLoop *self, uint32_t kind)
{
	g_return_if_fail(kind < self->kinds->len);
	g_array_index(self->kinds, KindEntry, kind).passive = TRUE;
}

static inline gboolean
kind_is_active(const SimLoop *self, uint32_t kind)
{
	return !g_array_index(self->kinds, KindEntry, kind).passive;
}

SimEventId
sim_loop_schedule(SimLoop *self,
                  SimTime time,
                  uint32_t kind,
                  uint32_t priority,
                  uint32_t target,
                  const SimPayload *data)
{
	g_return_val_if_fail(kind < self->kinds->len, SIM_EVENT_ID_NONE);
	if (kind_is_active(self, kind))
		self->active_pending++;
	return sim_queue_push(self->queue, time, priority, kind, target, data);
}

gboolean
sim_loop_cancel(SimLoop *self, SimEventId id)
{
	uint32_t kind = sim_queue_get_event_kind(self->queue, id);

	if (!sim_queue_cancel(self->queue, id))
		return FALSE;
	if (kind_is_active(self, kind))
		self->active_pending--;
	return TRUE;
}

gboolean
sim_loop_reschedule(SimLoop *self, SimEventId id, SimTime time)
{
	return sim_queue_reschedule(self->queue, id, time);
}

void
sim_loop_set_horizon(SimLoop *self, SimTime horizon)
{
	self->horizon = horizon;
}

void
sim_loop_set_max_events(SimLoop *self, uint64_t max_events)
{
	self->max_events = max_events;
}

void
sim_loop_set_progress(SimLoop *self, uint64_t every, SimProgressFunc func, gpointer user_data)
{
	self->progress_every = every;
	self->progress = func;
	self->progress_data = user_data;
}

void
sim_loop_set_settled_func(SimLoop *self, SimSettledFunc func, gpointer user_data)
{
	self->settled = func;
	self->settled_data = user_data;
}

gboolean
sim_loop_is_quiescent(SimLoop *self)
{
	return self->active_pending == 0 &&
	       (self->settled == NULL || self->settled(self->settled_data));
}

uint64_t
sim_loop_get_n_active_pending(const SimLoop *self)
{
	return self->active_pending;
}

uint64_t
sim_loop_get_active_dispatched(const SimLoop *self)
{
	return self->active_dispatched;
}

void
sim_loop_stop(SimLoop *self)
{
	self->stop_requested = TRUE;
}

/* Why the loop cannot dispatch the next event, or -1 if it can. */
static int
blocked_reason(SimLoop *self, uint64_t budget_end)
{
	if (self->stop_requested) {
		return SIM_STOP_REQUESTED;
	}
	if (self->dispatched >= budget_end) {
		return SIM_STOP_MAX_EVENTS;
	}
	/* Only passive events left and nothing they could change: with no horizon
	 * they would repeat for ever (a retry timer for a job that never fits). */
	if (self->horizon == SIM_TIME_NEVER && self->active_pending == 0 && self->settled != NULL &&
	    sim_queue_get_length(self->queue) > 0 && self->settled(self->settled_data)) {
		return SIM_STOP_QUIESCENT;
	}
	return -1;
}

SimStopReason
sim_loop_run(SimLoop *self)
{
	uint64_t budget_end = self->max_events ? self->dispatched + self->max_events : UINT64_MAX;
	uint64_t next_progress =
	        self->progress_every ? self->dispatched + self->progress_every : UINT64_MAX;
	SimStopReason reason;
	SimEvent ev;

	self->stop_requested = FALSE;
	for (;;) {
		int blocked = blocked_reason(self, budget_end);
		if (blocked >= 0) {
			reason = (SimStopReason)blocked;
			break;
		}
		if (!sim_queue__pop_until(self->queue, self->horizon, &ev)) {
			if (sim_queue_get_length(self->queue) == 0) {
				reason = SIM_STOP_EMPTY;
			} else {
				/* Statistics close at the horizon, so the clock moves there. */
				sim_queue__advance(self->queue, self->horizon);
				reason = SIM_STOP_HORIZON;
			}
			break;
		}
		const KindEntry *k = &g_array_index(self->kinds, KindEntry, ev.kind);
		if (!k->passive) {
			self->active_pending--;
			self->active_dispatched++;
		}
		k->handler(self, &ev, k->user_data);
		self->dispatched++;
		if (G_UNLIKELY(self->check != NULL))
			self->check(self, self->check_data);
		if (G_UNLIKELY(self->dispatched == next_progress)) {
			self->progress(self, self->progress_data);
			next_progress += self->progress_every;
		}
	}
	if (self->progress != NULL) {
		self->progress(self, self->progress_data);
	}
	return reason;
}

void
sim_loop_set_event_check(SimLoop *self, SimProgressFunc func, gpointer user_data)
{
	self->check = func;
	self->check_data = user_data;
}

SimTime
sim_loop_get_now(const SimLoop *self)
{
	return sim_queue_get_now(self->queue);
}

uint64_t
sim_loop_get_dispatched(const SimLoop *self)
{
	return self->dispatched;
}

SimQueue *
sim_loop_get_queue(SimLoop *self)
{
	return self->queue;
}
