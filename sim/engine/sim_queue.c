/*
 * sim_queue.c: the pending-event set: a 4-ary implicit min-heap of small keys
 * over a pool of event slots.
 *
 * Invariant: events leave in non-decreasing (time, priority, seq) order; seq
 * is assigned here at push (and at reschedule), so ties run in scheduling
 * order with no RNG. Heap entries carry their whole key (24 bytes), so sifting
 * never touches the slots; a slot is only read when its event is popped.
 *
 * Cancel and reschedule are lazy: they retire the old heap entry by changing
 * the slot's seq, and pop skips entries whose seq no longer matches. This
 * keeps position bookkeeping (one random write per sift step) off the hot
 * path. Stale entries are counted and swept by a rebuild when they exceed half
 * the heap, so the heap stays within twice the pending count.
 */
#include "sim-private.h"

#define SEQ_BITS 56
#define SEQ_MASK ((UINT64_C(1) << SEQ_BITS) - 1)
#define NO_SLOT  UINT32_MAX
#define ARITY    4

typedef struct {
	uint64_t order; /* priority << SEQ_BITS | seq */
	uint64_t time;  /* SimTime, never negative: the clock starts at 0 */
	uint32_t slot;
} HeapEntry;

/* The whole order as one unsigned 128-bit key, time in the high half: one
 * compare, no branch on the rare tie. */
typedef unsigned __int128 HeapKey;

static inline HeapKey
key_of(const HeapEntry *e)
{
	return (HeapKey)e->time << 64 | e->order;
}

struct SimQueue {
	HeapEntry *heap;
	guint n_heap;
	guint heap_cap;
	guint n_stale; /* heap entries whose event was cancelled or moved */

	SimEvent *slots; /* free slots have seq 0; data.u[0] links the free list */
	guint n_slots;
	guint slots_cap;
	uint32_t free_head;

	uint64_t next_seq; /* starts at 1: seq 0 marks a free slot */
	SimTime now;
};

SimQueue *
sim_queue_new(void)
{
	SimQueue *self = g_new0(SimQueue, 1);

	self->free_head = NO_SLOT;
	self->next_seq = 1;
	return self;
}

void
sim_queue_free(SimQueue *self)
{
	if (self == NULL) {
		return;
	}
	g_free(self->heap);
	g_free(self->slots);
	g_free(self);
}

static inline gboolean
entry_less(const HeapEntry *a, const HeapEntry *b)
{
	return key_of(a) < key_of(b);
}

static inline SimTime
entry_time(const HeapEntry *e)
{
	return (SimTime)e->time;
}

static inline gboolean
entry_is_live(const SimQueue *self, const HeapEntry *e)
{
	return self->slots[e->slot].seq == (e->order & SEQ_MASK);
}

static inline void
sift_up(HeapEntry *heap, guint i, HeapEntry e)
{
	while (i > 0) {
		guint parent = (i - 1) / ARITY;
		if (!entry_less(&e, &heap[parent])) {
			break;
		}
		heap[i] = heap[parent];
		i = parent;
	}
	heap[i] = e;
}

/*
 * The smallest of the children first .. first+3, all present. Unrolled, with
 * branches on purpose: a branch-free tournament (cmov) ran faster at 1k
 * pending events but slower at 1M, where correctly predicted branches let the
 * CPU start the next level's cache misses early (docs/engine.md).
 */
static inline guint
min_of_four(const HeapEntry *heap, guint first)
{
	guint best = first;

	if (key_of(&heap[first + 1]) < key_of(&heap[best])) {
		best = first + 1;
	}
	if (key_of(&heap[first + 2]) < key_of(&heap[best])) {
		best = first + 2;
	}
	if (key_of(&heap[first + 3]) < key_of(&heap[best])) {
		best = first + 3;
	}
	return best;
}

static inline guint
min_child(const HeapEntry *heap, guint n, guint first)
{
	if (G_LIKELY(first + ARITY <= n)) {
		return min_of_four(heap, first);
	}
	guint best = first;
	for (guint c = first + 1; c < n; c++) {
		best = key_of(&heap[c]) < key_of(&heap[best]) ? c : best;
	}
	return best;
}

/* Places @e at hole @i and moves it down to its place among @n entries. */
static inline void
sift_down(HeapEntry *heap, guint n, guint i, HeapEntry e)
{
	for (guint first; (first = ARITY * i + 1) < n;) {
		guint best = min_child(heap, n, first);
		if (!entry_less(&heap[best], &e)) {
			break;
		}
		heap[i] = heap[best];
		i = best;
	}
	heap[i] = e;
}

static void
heap_push(SimQueue *self, HeapEntry e)
{
	if (self->n_heap == self->heap_cap) {
		self->heap_cap = self->heap_cap ? self->heap_cap * 2 : 256;
		self->heap = g_renew(HeapEntry, self->heap, self->heap_cap);
	}
	sift_up(self->heap, self->n_heap++, e);
}

/*
 * Bottom-up deletion (Wegener): walk the hole at the root down to a leaf
 * along the smallest children without comparing against the last entry, then
 * sift the last entry up from there. The last entry is a leaf's value, so it
 * rarely climbs: this saves a compare per level over plain sift-down.
 */
static void
heap_remove_top(SimQueue *self)
{
	HeapEntry *heap = self->heap;
	guint n = --self->n_heap;
	guint i = 0;

	if (n == 0) {
		return;
	}
	for (guint first; (first = ARITY * i + 1) < n;) {
		guint best = min_child(heap, n, first);
		heap[i] = heap[best];
		i = best;
	}
	sift_up(heap, i, heap[n]);
}

/* Drops stale entries and re-heapifies bottom-up (Floyd), O(n). */
static void
heap_sweep(SimQueue *self)
{
	guint n = 0;

	for (guint i = 0; i < self->n_heap; i++) {
		if (entry_is_live(self, &self->heap[i])) {
			self->heap[n++] = self->heap[i];
		}
	}
	self->n_heap = n;
	self->n_stale = 0;
	if (n > 1) {
		for (guint i = (n - 2) / ARITY + 1; i-- > 0;) {
			sift_down(self->heap, n, i, self->heap[i]);
		}
	}
}

static void
note_stale(SimQueue *self)
{
	self->n_stale++;
	if (self->n_stale > 1024 && self->n_stale > self->n_heap / 2) {
		heap_sweep(self);
	}
}

static uint32_t
slot_alloc(SimQueue *self)
{
	if (self->free_head != NO_SLOT) {
		uint32_t slot = self->free_head;
		self->free_head = (uint32_t)self->slots[slot].data.u[0];
		return slot;
	}
	if (self->n_slots == self->slots_cap) {
		g_assert(self->slots_cap < NO_SLOT / 2);
		self->slots_cap = self->slots_cap ? self->slots_cap * 2 : 256;
		self->slots = g_renew(SimEvent, self->slots, self->slots_cap);
	}
	SimEvent *ev = &self->slots[self->n_slots];
	ev->gen = 1;
	return self->n_slots++;
}

static void
slot_release(SimQueue *self, uint32_t slot)
{
	SimEvent *ev = &self->slots[slot];

	ev->seq = 0;
	ev->gen = ev->gen == UINT32_MAX ? 1 : ev->gen + 1; /* handle gen is never 0 */
	ev->data.u[0] = self->free_head;
	self->free_head = slot;
}

static inline SimEventId
make_id(uint32_t slot, uint32_t gen)
{
	return (uint64_t)gen << 32 | slot;
}

/* The slot of a pending event, or NULL if @id is stale. */
static SimEvent *
lookup(const SimQueue *self, SimEventId id)
{
	uint32_t slot = (uint32_t)id;
	uint32_t gen = (uint32_t)(id >> 32);

	if (slot >= self->n_slots) {
		return NULL;
	}
	SimEvent *ev = &self->slots[slot];
	return ev->gen == gen && ev->seq != 0 ? ev : NULL;
}

static inline HeapEntry
entry_for(const SimEvent *ev, uint32_t slot)
{
	uint64_t order = (uint64_t)ev->priority << SEQ_BITS | ev->seq;

	return (HeapEntry){ order, (uint64_t)ev->time, slot };
}

SimEventId
sim_queue_push(SimQueue *self,
               SimTime time,
               uint32_t priority,
               uint32_t kind,
               uint32_t target,
               const SimPayload *data)
{
	g_return_val_if_fail(time >= self->now,
	                     SIM_EVENT_ID_NONE); /* no scheduling into the past */
	g_return_val_if_fail(priority <= SIM_PRIORITY_MAX, SIM_EVENT_ID_NONE);

	uint32_t slot = slot_alloc(self);
	SimEvent *ev = &self->slots[slot];
	ev->time = time;
	ev->seq = self->next_seq++;
	ev->kind = kind;
	ev->target = target;
	ev->priority = priority;
	if (data != NULL) {
		ev->data = *data;
	} else {
		ev->data = (SimPayload){ 0 };
	}
	heap_push(self, entry_for(ev, slot));
	return make_id(slot, ev->gen);
}

gboolean
sim_queue__pop_until(SimQueue *self, SimTime limit, SimEvent *out)
{
	while (self->n_heap > 0) {
		const HeapEntry *top = &self->heap[0];
		if (G_UNLIKELY(!entry_is_live(self, top))) {
			heap_remove_top(self);
			self->n_stale--;
			continue;
		}
		if (entry_time(top) > limit) {
			return FALSE;
		}
		uint32_t slot = top->slot;
		*out = self->slots[slot];
		heap_remove_top(self);
		slot_release(self, slot);
		/* The next event's slot is read at the next pop: start that cache
		 * miss now, so it overlaps with the handler's work. */
		if (self->n_heap > 0) {
			__builtin_prefetch(&self->slots[self->heap[0].slot]);
		}
		self->now = out->time;
		return TRUE;
	}
	return FALSE;
}

gboolean
sim_queue_pop(SimQueue *self, SimEvent *out)
{
	return sim_queue__pop_until(self, SIM_TIME_NEVER, out);
}

void
sim_queue__advance(SimQueue *self, SimTime now)
{
	if (now > self->now) {
		self->now = now;
	}
}

SimTime
sim_queue_peek_time(SimQueue *self)
{
	while (self->n_heap > 0 && !entry_is_live(self, &self->heap[0])) {
		heap_remove_top(self);
		self->n_stale--;
	}
	return self->n_heap > 0 ? entry_time(&self->heap[0]) : SIM_TIME_NEVER;
}

gboolean
sim_queue_cancel(SimQueue *self, SimEventId id)
{
	SimEvent *ev = lookup(self, id);

	if (ev == NULL) {
		return FALSE;
	}
	slot_release(self, (uint32_t)id);
	note_stale(self);
	return TRUE;
}

gboolean
sim_queue_reschedule(SimQueue *self, SimEventId id, SimTime time)
{
	SimEvent *ev = lookup(self, id);

	g_return_val_if_fail(time >= self->now, FALSE);
	if (ev == NULL) {
		return FALSE;
	}
	/* A new seq retires the old entry and orders the move as a fresh schedule. */
	ev->time = time;
	ev->seq = self->next_seq++;
	heap_push(self, entry_for(ev, (uint32_t)id));
	note_stale(self);
	return TRUE;
}

gboolean
sim_queue_is_pending(const SimQueue *self, SimEventId id)
{
	return lookup(self, id) != NULL;
}

SimTime
sim_queue_get_event_time(const SimQueue *self, SimEventId id)
{
	const SimEvent *ev = lookup(self, id);

	return ev != NULL ? ev->time : SIM_TIME_NEVER;
}

uint32_t
sim_queue_get_event_kind(const SimQueue *self, SimEventId id)
{
	const SimEvent *ev = lookup(self, id);

	return ev != NULL ? ev->kind : UINT32_MAX;
}

guint
sim_queue_get_length(const SimQueue *self)
{
	return self->n_heap - self->n_stale;
}

SimTime
sim_queue_get_now(const SimQueue *self)
{
	return self->now;
}

guint
sim_queue_get_pool_size(const SimQueue *self)
{
	return self->n_slots;
}
