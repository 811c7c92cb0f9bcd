/*
 * test_queue.c: the scheduling queue keeps kube-scheduler 1.34's order and
 * timing: PrioritySort, backoff 1 s doubling to 10 s on whole-second windows
 * (SchedulerPopFromBackoffQ), unschedulable pods waiting for an event one of
 * their rejecting plugins registered for, events seen while in flight, the
 * error backoff queue, and the 5-minute flush.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cluster_plugin.h"
#include "cluster_queue.h"
#include "cluster_types.h"

#define S   SIM_TIME_S
#define FIT CLUSTER_PLUGIN_BIT(CLUSTER_PLUGIN_NODE_RESOURCES_FIT)
#define DRA CLUSTER_PLUGIN_BIT(CLUSTER_PLUGIN_DYNAMIC_RESOURCES)

static ClusterQueue *
new_queue(gboolean pop_from_backoffq)
{
	ClusterQueueConfig config;

	cluster_queue_config_init(&config);
	config.pop_from_backoffq = pop_from_backoffq;
	return cluster_queue_new(&config);
}

static void
test_queue__backoff_doubles_to_max(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(TRUE);
	const SimTime want[] = { 0, 1 * S, 2 * S, 4 * S, 8 * S, 10 * S, 10 * S };

	for (guint a = 0; a < G_N_ELEMENTS(want); a++)
		assert_int_equal(cluster_queue_backoff_duration(q, a), want[a]);
	assert_int_equal(cluster_queue_backoff_duration(q, 1000), 10 * S);
}

static void
test_queue__priority_then_timestamp(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(TRUE);
	g_autoptr(ClusterPod) low_early = cluster_pod_new("low-early", 1);
	g_autoptr(ClusterPod) high = cluster_pod_new("high", 2);
	g_autoptr(ClusterPod) low_late = cluster_pod_new("low-late", 3);
	g_autoptr(ClusterPod) low_tie = cluster_pod_new("low-tie", 4);
	ClusterQueuedPod *qp;

	high->priority = 10;
	cluster_queue_add(q, low_late, 1 * S);
	cluster_queue_add(q, high, 5 * S);
	cluster_queue_add(q, low_early, 0);
	cluster_queue_add(q, low_tie, 1 * S);
	const ClusterPod *order[] = { high, low_early, low_late, low_tie };
	for (guint i = 0; i < G_N_ELEMENTS(order); i++) {
		qp = cluster_queue_pop(q, 6 * S);
		assert_non_null(qp);
		assert_ptr_equal(qp->pod, order[i]);
		assert_int_equal(qp->attempts, 1);
		cluster_queue_done_scheduled(q, qp);
	}
	assert_null(cluster_queue_pop(q, 6 * S));
}

static void
test_queue__unschedulable_waits_for_interesting_event(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(TRUE);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterQueuedPod *qp;

	cluster_queue_add(q, pod, 0);
	qp = cluster_queue_pop(q, 0);
	cluster_queue_done_failed(q, qp, FIT, 0);
	assert_int_equal(cluster_queue_get_n_unschedulable(q), 1);
	assert_int_equal(qp->where, CLUSTER_QUEUED_UNSCHEDULABLE);

	/* NodeResourcesFit does not care about slices or classes */
	assert_int_equal(cluster_queue_on_event(q, CLUSTER_EVENT_SLICE_CHANGED, S / 2), 0);
	assert_int_equal(cluster_queue_on_event(q, CLUSTER_EVENT_CLASS_ADDED, S / 2), 0);
	assert_int_equal(cluster_queue_get_n_unschedulable(q), 1);

	/* a pod deletion frees resources: back, but still backing off */
	assert_int_equal(cluster_queue_on_event(q, CLUSTER_EVENT_POD_DELETED, S / 2), 1);
	assert_int_equal(qp->where, CLUSTER_QUEUED_BACKOFF);
	/* expiry 0 + 1 s, truncated to its window; free from the next window on */
	assert_int_equal(qp->backoff_expiration, 1 * S);
	assert_int_equal(cluster_queue_next_backoff_time(q), 2 * S);
	assert_true(cluster_queue_is_backing_off(q, qp, 2 * S - 1));
	assert_false(cluster_queue_is_backing_off(q, qp, 2 * S));
	assert_int_equal(cluster_queue_flush_backoff(q, 2 * S - 1), 0);
	assert_int_equal(cluster_queue_flush_backoff(q, 2 * S), 1);
	assert_int_equal(qp->where, CLUSTER_QUEUED_ACTIVE);
	assert_int_equal(cluster_queue_get_n_backoff(q), 0);
}

static void
test_queue__event_after_backoff_goes_active(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(TRUE);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterQueuedPod *qp;

	cluster_queue_add(q, pod, 0);
	qp = cluster_queue_pop(q, 0);
	cluster_queue_done_failed(q, qp, DRA, 0);
	assert_int_equal(cluster_queue_on_event(q, CLUSTER_EVENT_POD_DELETED, 30 * S), 0);
	assert_int_equal(cluster_queue_on_event(q, CLUSTER_EVENT_CLAIM_DEALLOCATED, 30 * S), 1);
	assert_int_equal(qp->where, CLUSTER_QUEUED_ACTIVE);
}

static void
test_queue__backoff_grows_with_attempts(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(TRUE);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterQueuedPod *qp = cluster_queue_add(q, pod, 0);
	SimTime now = 0;
	const SimTime expect[] = { 1 * S, 2 * S, 4 * S, 8 * S, 10 * S, 10 * S };

	for (guint i = 0; i < G_N_ELEMENTS(expect); i++) {
		qp = cluster_queue_pop(q, now);
		assert_non_null(qp);
		cluster_queue_done_failed(q, qp, FIT, now);
		cluster_queue_on_event(q, CLUSTER_EVENT_NODE_ADDED, now);
		assert_int_equal(qp->where, CLUSTER_QUEUED_BACKOFF);
		/* now is always on a whole second here, so no truncation */
		assert_int_equal(qp->backoff_expiration, now + expect[i]);
		now = cluster_queue_next_backoff_time(q);
		assert_int_equal(now, qp->backoff_expiration + S);
		assert_int_equal(cluster_queue_flush_backoff(q, now), 1);
	}
}

static void
test_queue__unaligned_backoff_without_pop_from_backoffq(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(FALSE);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterQueuedPod *qp;

	cluster_queue_add(q, pod, 0);
	qp = cluster_queue_pop(q, 0);
	cluster_queue_done_failed(q, qp, FIT, 300 * SIM_TIME_MS);
	cluster_queue_on_event(q, CLUSTER_EVENT_NODE_ADDED, 400 * SIM_TIME_MS);
	assert_int_equal(qp->backoff_expiration, 1300 * SIM_TIME_MS);
	assert_true(cluster_queue_is_backing_off(q, qp, 1300 * SIM_TIME_MS));
	assert_false(cluster_queue_is_backing_off(q, qp, 1300 * SIM_TIME_MS + 1));
	/* the flush ticks every whole second */
	assert_int_equal(cluster_queue_next_backoff_time(q), 2 * S);
	/* and an empty activeQ does not fall back to the backoff queue */
	assert_null(cluster_queue_pop(q, 500 * SIM_TIME_MS));
}

static void
test_queue__pop_from_backoffq_when_active_empty(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(TRUE);
	g_autoptr(ClusterPod) a = cluster_pod_new("a", 1);
	g_autoptr(ClusterPod) b = cluster_pod_new("b", 2);
	ClusterQueuedPod *qa, *qb;

	cluster_queue_add(q, a, 0);
	qa = cluster_queue_pop(q, 0);
	cluster_queue_done_failed(q, qa, FIT, 0);
	cluster_queue_on_event(q, CLUSTER_EVENT_POD_DELETED, 0);
	assert_int_equal(qa->where, CLUSTER_QUEUED_BACKOFF);
	cluster_queue_add(q, b, 0);
	/* the active pod first, then the one still backing off */
	qb = cluster_queue_pop(q, 0);
	assert_ptr_equal(qb->pod, b);
	cluster_queue_done_scheduled(q, qb);
	qa = cluster_queue_pop(q, 0);
	assert_non_null(qa);
	assert_ptr_equal(qa->pod, a);
	assert_int_equal(qa->attempts, 2);
	cluster_queue_done_scheduled(q, qa);
}

static void
test_queue__error_goes_to_error_backoff(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(TRUE);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterQueuedPod *qp;

	cluster_queue_add(q, pod, 0);
	qp = cluster_queue_pop(q, 0);
	cluster_queue_done_failed(q, qp, 0, 0);
	assert_int_equal(qp->where, CLUSTER_QUEUED_ERROR_BACKOFF);
	assert_int_equal(qp->consecutive_errors, 1);
	assert_int_equal(cluster_queue_get_n_unschedulable(q), 0);
	/* PopFromBackoffQ pops podBackoffQ only, not the error queue */
	assert_null(cluster_queue_pop(q, 0));
	assert_int_equal(cluster_queue_next_backoff_time(q), 2 * S);
	assert_int_equal(cluster_queue_flush_backoff(q, 2 * S), 1);
	assert_int_equal(qp->where, CLUSTER_QUEUED_ACTIVE);
}

static void
test_queue__event_while_in_flight(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(TRUE);
	g_autoptr(ClusterPod) a = cluster_pod_new("a", 1);
	g_autoptr(ClusterPod) b = cluster_pod_new("b", 2);
	ClusterQueuedPod *qa, *qb;

	cluster_queue_add(q, a, 0);
	cluster_queue_add(q, b, 0);
	qa = cluster_queue_pop(q, 0);
	cluster_queue_on_event(q, CLUSTER_EVENT_POD_DELETED, 0);
	cluster_queue_done_failed(q, qa, FIT, 0);
	assert_int_equal(qa->where, CLUSTER_QUEUED_BACKOFF);

	qb = cluster_queue_pop(q, 0);
	assert_ptr_equal(qb->pod, b);
	cluster_queue_on_event(q, CLUSTER_EVENT_SLICE_CHANGED, 0);
	cluster_queue_done_failed(q, qb, FIT, 0);
	assert_int_equal(qb->where, CLUSTER_QUEUED_UNSCHEDULABLE);
	assert_int_equal(cluster_queue_get_n_in_flight(q), 0);
}

static void
test_queue__flush_unschedulable_after_five_minutes(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(TRUE);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterQueuedPod *qp;

	cluster_queue_add(q, pod, 0);
	qp = cluster_queue_pop(q, 0);
	cluster_queue_done_failed(q, qp, FIT, 10 * S);
	assert_int_equal(cluster_queue_flush_unschedulable(q, 10 * S + 5 * SIM_TIME_MIN), 0);
	assert_int_equal(cluster_queue_flush_unschedulable(q, 10 * S + 5 * SIM_TIME_MIN + 1), 1);
	assert_int_equal(qp->where, CLUSTER_QUEUED_ACTIVE);
}

static void
test_queue__delete_from_every_place(void **state)
{
	g_autoptr(ClusterQueue) q = new_queue(TRUE);
	g_autoptr(ClusterPod) a = cluster_pod_new("a", 1);
	g_autoptr(ClusterPod) b = cluster_pod_new("b", 2);
	g_autoptr(ClusterPod) c = cluster_pod_new("c", 3);
	ClusterQueuedPod *qa = cluster_queue_add(q, a, 0), *qb, *qc;

	cluster_queue_add(q, b, 0);
	cluster_queue_add(q, c, 0);
	cluster_queue_delete(q, qa);
	qb = cluster_queue_pop(q, 0);
	qc = cluster_queue_pop(q, 0);
	cluster_queue_done_failed(q, qb, FIT, 0);
	cluster_queue_delete(q, qb);
	cluster_queue_delete(q, qc);
	assert_int_equal(cluster_queue_get_n_active(q) + cluster_queue_get_n_backoff(q) +
	                         cluster_queue_get_n_unschedulable(q) +
	                         cluster_queue_get_n_in_flight(q),
	                 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue__backoff_doubles_to_max),
		cmocka_unit_test(test_queue__priority_then_timestamp),
		cmocka_unit_test(test_queue__unschedulable_waits_for_interesting_event),
		cmocka_unit_test(test_queue__event_after_backoff_goes_active),
		cmocka_unit_test(test_queue__backoff_grows_with_attempts),
		cmocka_unit_test(test_queue__unaligned_backoff_without_pop_from_backoffq),
		cmocka_unit_test(test_queue__pop_from_backoffq_when_active_empty),
		cmocka_unit_test(test_queue__error_goes_to_error_backoff),
		cmocka_unit_test(test_queue__event_while_in_flight),
		cmocka_unit_test(test_queue__flush_unschedulable_after_five_minutes),
		cmocka_unit_test(test_queue__delete_from_every_place),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
