/*
 * cluster_queue.c: kube-scheduler 1.34's PriorityQueue
 * (pkg/scheduler/backend/queue/scheduling_queue.go, backoff_queue.go):
 * activeQ ordered by PrioritySort (priority, then the time the pod was last
 * queued), podBackoffQ and podErrorBackoffQ ordered by backoff expiry, and the
 * unschedulable pool, whose pods move back only on a cluster event that one of
 * their rejecting plugins cares about, or after podMaxInUnschedulablePods.
 *
 * The queue keeps no clock: every call takes `now`. Flushes are driven by the
 * caller (cluster_queue_next_backoff_time says when the next one matters).
 * Heaps break the last tie by insertion sequence, so order is deterministic.
 */
#include "cluster_queue.h"

#include "cluster_plugin.h"
#include "cluster_types.h"

/* backoffQOrderingWindowDuration (KEP-5142) */
#define BACKOFF_WINDOW SIM_TIME_S

typedef gboolean (*LessFunc)(ClusterQueue *q, const ClusterQueuedPod *a, const ClusterQueuedPod *b);

typedef struct {
	GPtrArray *items;
	LessFunc less;
} Heap;

struct ClusterQueue {
	ClusterQueueConfig config;
	Heap active;
	Heap backoff;
	Heap error_backoff;
	GQueue unschedulable;                    /* ClusterQueuedPod *, in the order they entered */
	guint pool_by_plugin[CLUSTER_N_PLUGINS]; /* pool pods each plugin rejected */
	GQueue in_flight;
	guint64 next_seq;
};

/* ---------------------------------------------------------------- heap */

static void
heap_swap(Heap *heap, guint i, guint j)
{
	ClusterQueuedPod *a = heap->items->pdata[i], *b = heap->items->pdata[j];

	heap->items->pdata[i] = b;
	heap->items->pdata[j] = a;
	b->heap_index = (gint)i;
	a->heap_index = (gint)j;
}

static void
heap_up(ClusterQueue *q, Heap *heap, guint i)
{
	while (i > 0) {
		guint parent = (i - 1) / 2;

		if (!heap->less(q, heap->items->pdata[i], heap->items->pdata[parent]))
			break;
		heap_swap(heap, i, parent);
		i = parent;
	}
}

static void
heap_down(ClusterQueue *q, Heap *heap, guint i)
{
	guint n = heap->items->len;

	for (;;) {
		guint left = 2 * i + 1, right = left + 1, best = i;

		if (left < n && heap->less(q, heap->items->pdata[left], heap->items->pdata[best]))
			best = left;
		if (right < n && heap->less(q, heap->items->pdata[right], heap->items->pdata[best]))
			best = right;
		if (best == i)
			return;
		heap_swap(heap, i, best);
		i = best;
	}
}

static void
heap_push(ClusterQueue *q, Heap *heap, ClusterQueuedPod *qp)
{
	qp->heap_index = (gint)heap->items->len;
	g_ptr_array_add(heap->items, qp);
	heap_up(q, heap, heap->items->len - 1);
}

static void
heap_remove(ClusterQueue *q, Heap *heap, ClusterQueuedPod *qp)
{
	guint i = (guint)qp->heap_index, last = heap->items->len - 1;

	g_assert(heap->items->pdata[i] == qp);
	if (i != last)
		heap_swap(heap, i, last);
	g_ptr_array_set_size(heap->items, last);
	qp->heap_index = -1;
	if (i < last) {
		heap_down(q, heap, i);
		heap_up(q, heap, i);
	}
}

static ClusterQueuedPod *
heap_peek(Heap *heap)
{
	return heap->items->len > 0 ? heap->items->pdata[0] : NULL;
}

/* ------------------------------------------------------------- backoff */

static SimTime
align_to_window(const ClusterQueue *q, SimTime t)
{
	if (!q->config.pop_from_backoffq)
		return t;
	return t - t % BACKOFF_WINDOW;
}

/* calculateBackoffDuration: initial × 2^(attempts-1), capped; 0 before any attempt. */
SimTime
cluster_queue_backoff_duration(const ClusterQueue *self, guint attempts)
{
	SimTime duration = self->config.initial_backoff;

	if (attempts == 0)
		return 0;
	for (guint i = 1; i < attempts; i++) {
		if (duration > self->config.max_backoff - duration)
			return self->config.max_backoff;
		duration += duration;
	}
	return duration;
}

/* getBackoffTime: cached until the pod is re-queued; "zero time" before any attempt. */
static SimTime
backoff_time(ClusterQueue *q, ClusterQueuedPod *qp)
{
	if (qp->attempts == 0)
		return G_MININT64;
	if (qp->backoff_expiration < 0) {
		SimTime t = qp->timestamp + cluster_queue_backoff_duration(q, qp->attempts);

		qp->backoff_expiration = align_to_window(q, t);
	}
	return qp->backoff_expiration;
}

/* isPodBackingoff: "not before the current window" is still backing off. */
gboolean
cluster_queue_is_backing_off(ClusterQueue *self, ClusterQueuedPod *qp, SimTime now)
{
	return !(backoff_time(self, qp) < align_to_window(self, now));
}

/*
 * The flush ticker runs on whole windows from time 0, so a pod leaves the
 * backoff queue at the first tick where it no longer backs off.
 */
SimTime
cluster_queue_backoff_ready_time(ClusterQueue *self, ClusterQueuedPod *qp)
{
	SimTime bo = backoff_time(self, qp);

	if (bo == G_MININT64)
		return 0;
	if (self->config.pop_from_backoffq)
		return bo + BACKOFF_WINDOW;
	return (bo / BACKOFF_WINDOW + 1) * BACKOFF_WINDOW;
}

/* ---------------------------------------------------------- orderings */

/* PrioritySort Less: higher priority, then earlier timestamp; then seq. */
static gboolean
less_active(ClusterQueue *q, const ClusterQueuedPod *a, const ClusterQueuedPod *b)
{
	if (a->pod->priority != b->pod->priority)
		return a->pod->priority > b->pod->priority;
	if (a->timestamp != b->timestamp)
		return a->timestamp < b->timestamp;
	return a->seq < b->seq;
}

/* The backoff queues' first key, shared by both orderings: the earlier backoff
 * expiry first (-1, 0 or 1, as a before, with or after b). */
static int
cmp_backoff_expiry(ClusterQueue *q, const ClusterQueuedPod *a, const ClusterQueuedPod *b)
{
	SimTime ta = backoff_time(q, (ClusterQueuedPod *)a);
	SimTime tb = backoff_time(q, (ClusterQueuedPod *)b);

	return (ta > tb) - (ta < tb);
}

/* lessBackoffCompletedWithPriority (podBackoffQ) and lessBackoffCompleted. */
static gboolean
less_backoff(ClusterQueue *q, const ClusterQueuedPod *a, const ClusterQueuedPod *b)
{
	int c = cmp_backoff_expiry(q, a, b);

	if (c != 0)
		return c < 0;
	if (q->config.pop_from_backoffq)
		return less_active(q, a, b);
	return a->seq < b->seq;
}

/* The error backoff queue: expiry, then arrival order, without priority. */
static gboolean
less_error_backoff(ClusterQueue *q, const ClusterQueuedPod *a, const ClusterQueuedPod *b)
{
	int c = cmp_backoff_expiry(q, a, b);

	return c != 0 ? c < 0 : a->seq < b->seq;
}

/* --------------------------------------------------------------- queue */

void
cluster_queue_config_init(ClusterQueueConfig *config)
{
	config->initial_backoff = 1 * SIM_TIME_S;
	config->max_backoff = 10 * SIM_TIME_S;
	config->max_in_unschedulable = 5 * SIM_TIME_MIN;
	config->flush_unschedulable_period = 30 * SIM_TIME_S;
	config->pop_from_backoffq = TRUE;
}

ClusterQueue *
cluster_queue_new(const ClusterQueueConfig *config)
{
	ClusterQueue *self = g_new0(ClusterQueue, 1);

	if (config != NULL)
		self->config = *config;
	else
		cluster_queue_config_init(&self->config);
	self->active = (Heap){ g_ptr_array_new(), less_active };
	self->backoff = (Heap){ g_ptr_array_new(), less_backoff };
	self->error_backoff = (Heap){ g_ptr_array_new(), less_error_backoff };
	g_queue_init(&self->unschedulable);
	g_queue_init(&self->in_flight);
	return self;
}

void
cluster_queue_free(ClusterQueue *self)
{
	Heap *heaps[3];

	if (self == NULL)
		return;
	heaps[0] = &self->active;
	heaps[1] = &self->backoff;
	heaps[2] = &self->error_backoff;
	for (guint h = 0; h < G_N_ELEMENTS(heaps); h++) {
		for (guint i = 0; i < heaps[h]->items->len; i++)
			g_free(heaps[h]->items->pdata[i]);
		g_ptr_array_unref(heaps[h]->items);
	}
	g_queue_clear_full(&self->unschedulable, g_free);
	g_queue_clear_full(&self->in_flight, g_free);
	g_free(self);
}

const ClusterQueueConfig *
cluster_queue_get_config(const ClusterQueue *self)
{
	return &self->config;
}

static void
pool_count(ClusterQueue *q, const ClusterQueuedPod *qp, gint delta)
{
	for (guint p = 0; p < CLUSTER_N_PLUGINS; p++) {
		if (qp->rejectors & CLUSTER_PLUGIN_BIT(p))
			q->pool_by_plugin[p] += delta;
	}
}

/* The plugins that rejected at least one pod of the pool. */
static guint32
pool_rejectors(const ClusterQueue *q)
{
	guint32 mask = 0;

	for (guint p = 0; p < CLUSTER_N_PLUGINS; p++) {
		if (q->pool_by_plugin[p] > 0)
			mask |= CLUSTER_PLUGIN_BIT(p);
	}
	return mask;
}

/* Takes @qp out of whatever structure holds it. */
static void
unlink_pod(ClusterQueue *q, ClusterQueuedPod *qp)
{
	switch (qp->where) {
	case CLUSTER_QUEUED_ACTIVE:
		heap_remove(q, &q->active, qp);
		break;
	case CLUSTER_QUEUED_BACKOFF:
		heap_remove(q, &q->backoff, qp);
		break;
	case CLUSTER_QUEUED_ERROR_BACKOFF:
		heap_remove(q, &q->error_backoff, qp);
		break;
	case CLUSTER_QUEUED_UNSCHEDULABLE:
		g_queue_delete_link(&q->unschedulable, qp->link);
		qp->link = NULL;
		pool_count(q, qp, -1);
		break;
	case CLUSTER_QUEUED_IN_FLIGHT:
		g_queue_delete_link(&q->in_flight, qp->link);
		qp->link = NULL;
		break;
	case CLUSTER_QUEUED_NONE:
		break;
	}
	qp->where = CLUSTER_QUEUED_NONE;
}

static void
to_active(ClusterQueue *q, ClusterQueuedPod *qp)
{
	qp->where = CLUSTER_QUEUED_ACTIVE;
	heap_push(q, &q->active, qp);
}

/* backoffQueue.add: pods without rejecting plugins failed on an error. */
static void
to_backoff(ClusterQueue *q, ClusterQueuedPod *qp)
{
	if (qp->rejectors == 0) {
		qp->where = CLUSTER_QUEUED_ERROR_BACKOFF;
		heap_push(q, &q->error_backoff, qp);
	} else {
		qp->where = CLUSTER_QUEUED_BACKOFF;
		heap_push(q, &q->backoff, qp);
	}
}

static void
to_unschedulable(ClusterQueue *q, ClusterQueuedPod *qp)
{
	qp->where = CLUSTER_QUEUED_UNSCHEDULABLE;
	g_queue_push_tail(&q->unschedulable, qp);
	qp->link = q->unschedulable.tail;
	pool_count(q, qp, +1);
}

/* requeuePodWithQueueingStrategy for queueAfterBackoff. */
static void
requeue_after_backoff(ClusterQueue *q, ClusterQueuedPod *qp, SimTime now)
{
	if (cluster_queue_is_backing_off(q, qp, now))
		to_backoff(q, qp);
	else
		to_active(q, qp);
}

ClusterQueuedPod *
cluster_queue_add(ClusterQueue *self, const ClusterPod *pod, SimTime now)
{
	ClusterQueuedPod *qp = g_new0(ClusterQueuedPod, 1);

	qp->pod = pod;
	qp->timestamp = now;
	qp->initial_attempt = -1;
	qp->backoff_expiration = -1;
	qp->seq = self->next_seq++;
	qp->heap_index = -1;
	to_active(self, qp);
	return qp;
}

/* activeQueue.unlockedPop, with SchedulerPopFromBackoffQ's fallback to podBackoffQ. */
ClusterQueuedPod *
cluster_queue_pop(ClusterQueue *self, SimTime now)
{
	ClusterQueuedPod *qp = heap_peek(&self->active);

	if (qp == NULL && self->config.pop_from_backoffq)
		qp = heap_peek(&self->backoff);
	if (qp == NULL)
		return NULL;
	unlink_pod(self, qp);
	qp->attempts++;
	if (qp->initial_attempt < 0)
		qp->initial_attempt = now;
	qp->in_flight_events = 0;
	qp->where = CLUSTER_QUEUED_IN_FLIGHT;
	g_queue_push_tail(&self->in_flight, qp);
	qp->link = self->in_flight.tail;
	return qp;
}

void
cluster_queue_done_scheduled(ClusterQueue *self, ClusterQueuedPod *qp)
{
	g_return_if_fail(qp->where == CLUSTER_QUEUED_IN_FLIGHT);
	unlink_pod(self, qp);
	g_free(qp);
}

/*
 * AddUnschedulableIfNotPresent with queueing hints: refresh the timestamp,
 * then ask whether an event seen while in flight interests a rejecting plugin
 * (determineSchedulingHintForInFlightPod). A pod without rejecting plugins
 * (an error) is always worth requeuing after backoff.
 */
void
cluster_queue_done_failed(ClusterQueue *self, ClusterQueuedPod *qp, guint32 rejectors, SimTime now)
{
	gboolean requeue = rejectors == 0;

	g_return_if_fail(qp->where == CLUSTER_QUEUED_IN_FLIGHT);
	unlink_pod(self, qp);
	if (rejectors == 0) {
		qp->consecutive_errors++;
	} else {
		qp->unschedulable_count++;
		qp->consecutive_errors = 0;
	}
	qp->rejectors = rejectors;
	qp->timestamp = now;
	qp->backoff_expiration = -1;
	for (guint e = 0; e < CLUSTER_N_EVENTS && !requeue; e++) {
		if (!(qp->in_flight_events & (1u << e)))
			continue;
		if (e == CLUSTER_EVENT_UNSCHEDULABLE_TIMEOUT ||
		    (cluster_event_get_interested((ClusterEvent)e) & rejectors))
			requeue = TRUE;
	}
	qp->in_flight_events = 0;
	if (requeue)
		requeue_after_backoff(self, qp, now);
	else
		to_unschedulable(self, qp);
}

void
cluster_queue_delete(ClusterQueue *self, ClusterQueuedPod *qp)
{
	unlink_pod(self, qp);
	g_free(qp);
}

static gboolean
worth_requeuing(const ClusterQueuedPod *qp, ClusterEvent event)
{
	/* isPodWorthRequeuing: no rejectors or a wildcard event always requeue */
	if (qp->rejectors == 0 || event == CLUSTER_EVENT_UNSCHEDULABLE_TIMEOUT)
		return TRUE;
	return (cluster_event_get_interested(event) & qp->rejectors) != 0;
}

guint
cluster_queue_on_event(ClusterQueue *self, ClusterEvent event, SimTime now)
{
	guint moved = 0;
	GList *next, *head = self->unschedulable.head;

	/* The pool holds only pods with rejectors: skip it if none cares. */
	if (event != CLUSTER_EVENT_UNSCHEDULABLE_TIMEOUT &&
	    (cluster_event_get_interested(event) & pool_rejectors(self)) == 0)
		head = NULL;
	for (GList *l = head; l != NULL; l = next) {
		ClusterQueuedPod *qp = l->data;

		next = l->next;
		if (!worth_requeuing(qp, event))
			continue;
		unlink_pod(self, qp);
		requeue_after_backoff(self, qp, now);
		moved++;
	}
	/* inFlightEvents: remembered for pods now being scheduled */
	for (GList *l = self->in_flight.head; l != NULL; l = l->next)
		((ClusterQueuedPod *)l->data)->in_flight_events |= 1u << event;
	return moved;
}

static guint
flush_heap(ClusterQueue *q, Heap *heap, SimTime now)
{
	guint moved = 0;
	ClusterQueuedPod *qp;

	while ((qp = heap_peek(heap)) != NULL && !cluster_queue_is_backing_off(q, qp, now)) {
		unlink_pod(q, qp);
		to_active(q, qp);
		moved++;
	}
	return moved;
}

guint
cluster_queue_flush_backoff(ClusterQueue *self, SimTime now)
{
	return flush_heap(self, &self->backoff, now) + flush_heap(self, &self->error_backoff, now);
}

/* flushUnschedulablePodsLeftover: strictly longer than the limit since last queued. */
guint
cluster_queue_flush_unschedulable(ClusterQueue *self, SimTime now)
{
	guint moved = 0;
	GList *next;

	for (GList *l = self->unschedulable.head; l != NULL; l = next) {
		ClusterQueuedPod *qp = l->data;

		next = l->next;
		if (now - qp->timestamp <= self->config.max_in_unschedulable)
			continue;
		unlink_pod(self, qp);
		requeue_after_backoff(self, qp, now);
		moved++;
	}
	return moved;
}

SimTime
cluster_queue_next_backoff_time(ClusterQueue *self)
{
	SimTime next = SIM_TIME_NEVER;
	ClusterQueuedPod *heads[] = { heap_peek(&self->backoff), heap_peek(&self->error_backoff) };

	for (guint i = 0; i < G_N_ELEMENTS(heads); i++) {
		if (heads[i] != NULL)
			next = MIN(next, cluster_queue_backoff_ready_time(self, heads[i]));
	}
	return next;
}

gboolean
cluster_queue_can_pop(const ClusterQueue *self)
{
	return self->active.items->len > 0 ||
	       (self->config.pop_from_backoffq && self->backoff.items->len > 0);
}

guint
cluster_queue_get_n_active(const ClusterQueue *self)
{
	return self->active.items->len;
}

guint
cluster_queue_get_n_backoff(const ClusterQueue *self)
{
	return self->backoff.items->len + self->error_backoff.items->len;
}

guint
cluster_queue_get_n_error_backoff(const ClusterQueue *self)
{
	return self->error_backoff.items->len;
}

guint
cluster_queue_get_n_unschedulable(const ClusterQueue *self)
{
	return self->unschedulable.length;
}

guint
cluster_queue_get_n_in_flight(const ClusterQueue *self)
{
	return self->in_flight.length;
}

/* ------------------------------------------------------------- events */

static const char *const event_names[CLUSTER_N_EVENTS] = {
	[CLUSTER_EVENT_POD_DELETED] = "AssignedPodDelete",
	[CLUSTER_EVENT_CLAIM_DEALLOCATED] = "ResourceClaimUpdate",
	[CLUSTER_EVENT_CLAIM_ADDED] = "ResourceClaimAdd",
	[CLUSTER_EVENT_NODE_ADDED] = "NodeAdd",
	[CLUSTER_EVENT_NODE_UPDATED] = "NodeUpdate",
	[CLUSTER_EVENT_SLICE_CHANGED] = "ResourceSliceChange",
	[CLUSTER_EVENT_CLASS_ADDED] = "DeviceClassChange",
	[CLUSTER_EVENT_UNSCHEDULABLE_TIMEOUT] = "UnschedulableTimeout",
};

const char *
cluster_event_get_name(ClusterEvent event)
{
	if ((guint)event >= CLUSTER_N_EVENTS)
		return "unknown";
	return event_names[event];
}

#define BIT(p) CLUSTER_PLUGIN_BIT(CLUSTER_PLUGIN_##p)

/*
 * Each plugin's EventsToRegister, with its QueueingHint reduced to "Queue"
 * for the event kinds it registers (the hints that inspect the objects are
 * not modelled): NodeResourcesFit waits for freed resources and node changes,
 * DynamicResources for claims, slices, classes and nodes, the node-local
 * plugins for node changes.
 */
guint32
cluster_event_get_interested(ClusterEvent event)
{
	switch (event) {
	case CLUSTER_EVENT_POD_DELETED:
		return BIT(NODE_RESOURCES_FIT);
	case CLUSTER_EVENT_CLAIM_DEALLOCATED:
	case CLUSTER_EVENT_CLAIM_ADDED:
	case CLUSTER_EVENT_SLICE_CHANGED:
	case CLUSTER_EVENT_CLASS_ADDED:
		return BIT(DYNAMIC_RESOURCES);
	case CLUSTER_EVENT_NODE_ADDED:
	case CLUSTER_EVENT_NODE_UPDATED:
		return BIT(NODE_UNSCHEDULABLE) | BIT(TAINT_TOLERATION) | BIT(NODE_AFFINITY) |
		       BIT(NODE_RESOURCES_FIT) | BIT(DYNAMIC_RESOURCES);
	case CLUSTER_EVENT_UNSCHEDULABLE_TIMEOUT:
		return G_MAXUINT32;
	case CLUSTER_N_EVENTS:
		break;
	}
	return 0;
}
