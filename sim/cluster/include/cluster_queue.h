/*
 * cluster_queue.h: the scheduling queue (scheduling_queue.go): active, backoff and
 * unschedulable pods, the cluster events and QueueingHints that move them.
 *
 * ClusterQueue is opaque. ClusterQueuedPod is the entry the scheduler pops
 * and hands back; its fields are read by the wiring at every attempt, so it
 * stays a plain struct.
 */
#pragma once

#include <glib.h>

#include "cluster_plugin.h"
#include "cluster_types.h"
#include "sim.h"

G_BEGIN_DECLS

/* ======================================================= scheduling queue */

/* Cluster events that may make unschedulable pods schedulable. */
typedef enum {
	CLUSTER_EVENT_POD_DELETED,       /* an assigned pod ended or was deleted */
	CLUSTER_EVENT_CLAIM_DEALLOCATED, /* a ResourceClaim changed: deallocated, deleted */
	CLUSTER_EVENT_CLAIM_ADDED,       /* a ResourceClaim appeared (template → claim) */
	CLUSTER_EVENT_NODE_ADDED,
	CLUSTER_EVENT_NODE_UPDATED,          /* labels, taints, allocatable, uncordon */
	CLUSTER_EVENT_SLICE_CHANGED,         /* a ResourceSlice was added or updated */
	CLUSTER_EVENT_CLASS_ADDED,           /* a DeviceClass was added or updated */
	CLUSTER_EVENT_UNSCHEDULABLE_TIMEOUT, /* wildcard: the 5-minute flush */
	CLUSTER_N_EVENTS
} ClusterEvent;

const char *cluster_event_get_name(ClusterEvent event);
/* The plugins whose QueueingHint returns Queue for @event (simplified per kind). */
guint32 cluster_event_get_interested(ClusterEvent event);

typedef struct {
	SimTime initial_backoff;            /* podInitialBackoffSeconds: 1 s */
	SimTime max_backoff;                /* podMaxBackoffSeconds: 10 s */
	SimTime max_in_unschedulable;       /* podMaxInUnschedulablePodsDuration: 5 min */
	SimTime flush_unschedulable_period; /* 30 s */
	gboolean pop_from_backoffq;         /* SchedulerPopFromBackoffQ (beta, on in 1.34) */
} ClusterQueueConfig;

void cluster_queue_config_init(ClusterQueueConfig *config);

typedef enum {
	CLUSTER_QUEUED_NONE,
	CLUSTER_QUEUED_ACTIVE,
	CLUSTER_QUEUED_BACKOFF,
	CLUSTER_QUEUED_ERROR_BACKOFF,
	CLUSTER_QUEUED_UNSCHEDULABLE,
	CLUSTER_QUEUED_IN_FLIGHT,
} ClusterQueuedWhere;

/**
 * ClusterQueuedPod:
 *
 * A QueuedPodInfo. Owned by the queue; read-only for callers.
 */
typedef struct {
	const ClusterPod *pod;   /* (transfer none) */
	SimTime timestamp;       /* last time added or re-added to the queue */
	SimTime initial_attempt; /* -1 until first popped */
	guint attempts;
	guint unschedulable_count;
	guint consecutive_errors;
	guint32 rejectors;          /* unschedulable plugins of the last attempt */
	guint32 in_flight_events;   /* events seen while in flight (bit per ClusterEvent) */
	SimTime backoff_expiration; /* -1: not computed */
	ClusterQueuedWhere where;
	guint64 seq;
	gint heap_index;
	GList *link; /* in the unschedulable pool */
} ClusterQueuedPod;

typedef struct ClusterQueue ClusterQueue;

ClusterQueue *cluster_queue_new(const ClusterQueueConfig *config);
void cluster_queue_free(ClusterQueue *self);
/* A new pending pod (Add): goes to the active queue. */
ClusterQueuedPod *cluster_queue_add(ClusterQueue *self, const ClusterPod *pod, SimTime now);
/**
 * cluster_queue_pop:
 *
 * The head of the active queue (priority, then timestamp); when it is empty
 * and pop_from_backoffq is on, the head of the backoff queue. The pod is in
 * flight until cluster_queue_done_*.
 *
 * Returns: (transfer none) (nullable): NULL when nothing can be popped.
 */
ClusterQueuedPod *cluster_queue_pop(ClusterQueue *self, SimTime now);
/* The pod was scheduled: the queue forgets it (the entry is freed). */
void cluster_queue_done_scheduled(ClusterQueue *self, ClusterQueuedPod *qp);
/**
 * cluster_queue_done_failed:
 * @rejectors: plugin bits that rejected the pod; 0 means an error
 *
 * AddUnschedulableIfNotPresent: to the error backoff queue after an error,
 * otherwise to the unschedulable pool, unless an event of interest arrived
 * while in flight (then to backoff or active).
 */
void
cluster_queue_done_failed(ClusterQueue *self, ClusterQueuedPod *qp, guint32 rejectors, SimTime now);
/* The pod was deleted while pending or in flight: forget it. */
void cluster_queue_delete(ClusterQueue *self, ClusterQueuedPod *qp);
/**
 * cluster_queue_on_event:
 *
 * MoveAllToActiveOrBackoffQueue: unschedulable pods rejected by a plugin
 * interested in @event move to the backoff queue (still backing off) or to
 * the active queue. Returns the number moved.
 */
guint cluster_queue_on_event(ClusterQueue *self, ClusterEvent event, SimTime now);
/* flushBackoffQCompleted: backoff-completed pods to active. Returns the number moved. */
guint cluster_queue_flush_backoff(ClusterQueue *self, SimTime now);
/* flushUnschedulablePodsLeftover. Returns the number moved. */
guint cluster_queue_flush_unschedulable(ClusterQueue *self, SimTime now);
/* The backoff duration after @attempts attempts (calculateBackoffDuration). */
SimTime cluster_queue_backoff_duration(const ClusterQueue *self, guint attempts);
/* The time @qp stops backing off; flush ticks must reach it. */
SimTime cluster_queue_backoff_ready_time(ClusterQueue *self, ClusterQueuedPod *qp);
gboolean cluster_queue_is_backing_off(ClusterQueue *self, ClusterQueuedPod *qp, SimTime now);
/* Earliest time a backoff flush would move a pod, SIM_TIME_NEVER if none. */
SimTime cluster_queue_next_backoff_time(ClusterQueue *self);
/* TRUE if cluster_queue_pop() would return a pod. */
gboolean cluster_queue_can_pop(const ClusterQueue *self);
guint cluster_queue_get_n_active(const ClusterQueue *self);
guint cluster_queue_get_n_backoff(const ClusterQueue *self); /* both backoff heaps */
guint cluster_queue_get_n_error_backoff(const ClusterQueue *self);
guint cluster_queue_get_n_unschedulable(const ClusterQueue *self);
guint cluster_queue_get_n_in_flight(const ClusterQueue *self);
const ClusterQueueConfig *cluster_queue_get_config(const ClusterQueue *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterQueue, cluster_queue_free)

G_END_DECLS
