/*
 * test_queue.c: SimQueue ordering, cancellation, rescheduling and the pool.
 *
 * Invariants under test: pop order is non-decreasing in (time, priority, seq);
 * events pushed at equal (time, priority) come out in push order; a cancelled
 * event never comes out; a rescheduled event comes out once, at its new time,
 * ordered as if pushed at the reschedule; stale handles are refused; slots
 * are reused. The randomised test checks every pop against a brute-force
 * reference model.
 */
#include "test-engine.h"

static void
test_queue__ties_keep_push_order(void **state)
{
	g_autoptr(SimQueue) q = sim_queue_new();
	static const SimTime times[] = { 5, 1, 5, 3, 1, 5, 5, 1 };
	SimEvent ev;
	uint32_t expect_tag_at_5 = 0;

	for (guint i = 0; i < G_N_ELEMENTS(times); i++) {
		sim_queue_push(q, times[i], 0, 0, i, NULL);
	}
	SimTime prev_time = -1;
	uint64_t prev_seq = 0;
	guint n = 0;
	while (sim_queue_pop(q, &ev)) {
		assert_true(ev.time >= prev_time);
		if (ev.time == prev_time) {
			assert_true(ev.seq > prev_seq);
		}
		if (ev.time == 5) {
			/* pushed as targets 0, 2, 5, 6 in that order */
			static const uint32_t order[] = { 0, 2, 5, 6 };
			assert_int_equal(ev.target, order[expect_tag_at_5++]);
		}
		prev_time = ev.time;
		prev_seq = ev.seq;
		n++;
	}
	assert_int_equal(n, G_N_ELEMENTS(times));
	assert_int_equal(expect_tag_at_5, 4);
}

static void
test_queue__priority_before_seq(void **state)
{
	g_autoptr(SimQueue) q = sim_queue_new();
	SimEvent ev;

	sim_queue_push(q, 10, 7, 0, 0, NULL);
	sim_queue_push(q, 10, 3, 0, 1, NULL);
	sim_queue_push(q, 9, 200, 0, 2, NULL);
	sim_queue_push(q, 10, 3, 0, 3, NULL);
	static const uint32_t order[] = { 2, 1, 3, 0 };
	for (guint i = 0; i < G_N_ELEMENTS(order); i++) {
		assert_true(sim_queue_pop(q, &ev));
		assert_int_equal(ev.target, order[i]);
	}
	assert_false(sim_queue_pop(q, &ev));
	assert_int_equal(sim_queue_get_now(q), 10);
}

static void
test_queue__payload_copied(void **state)
{
	g_autoptr(SimQueue) q = sim_queue_new();
	SimPayload p = { .i = { -1, 2, 3, INT64_MAX } };
	SimEvent ev;

	sim_queue_push(q, 1, 0, 42, 7, &p);
	p.i[0] = 99; /* the queue holds a copy */
	assert_true(sim_queue_pop(q, &ev));
	assert_int_equal(ev.kind, 42);
	assert_int_equal(ev.target, 7);
	assert_int_equal(ev.data.i[0], -1);
	assert_int_equal(ev.data.i[3], INT64_MAX);
}

static void
test_queue__cancel(void **state)
{
	g_autoptr(SimQueue) q = sim_queue_new();
	SimEvent ev;

	SimEventId a = sim_queue_push(q, 5, 0, 0, 1, NULL);
	SimEventId b = sim_queue_push(q, 3, 0, 0, 2, NULL);
	SimEventId c = sim_queue_push(q, 7, 0, 0, 3, NULL);
	assert_int_equal(sim_queue_get_length(q), 3);
	assert_true(sim_queue_cancel(q, b));
	assert_false(sim_queue_cancel(q, b)); /* already cancelled */
	assert_false(sim_queue_is_pending(q, b));
	assert_int_equal(sim_queue_get_length(q), 2);
	assert_int_equal(sim_queue_peek_time(q), 5);

	assert_true(sim_queue_pop(q, &ev));
	assert_int_equal(ev.target, 1);
	assert_false(sim_queue_cancel(q, a)); /* already ran */
	assert_true(sim_queue_is_pending(q, c));
	assert_true(sim_queue_cancel(q, c));
	assert_false(sim_queue_pop(q, &ev));
	assert_int_equal(sim_queue_get_length(q), 0);
	assert_int_equal(sim_queue_peek_time(q), SIM_TIME_NEVER);
	assert_false(sim_queue_cancel(q, SIM_EVENT_ID_NONE));
}

static void
test_queue__reschedule(void **state)
{
	g_autoptr(SimQueue) q = sim_queue_new();
	SimEvent ev;

	SimEventId a = sim_queue_push(q, 10, 0, 0, 1, NULL);
	sim_queue_push(q, 20, 0, 0, 2, NULL);
	SimEventId c = sim_queue_push(q, 30, 0, 0, 3, NULL);

	/* later: a moves behind the event at 20, to a tie with c */
	assert_true(sim_queue_reschedule(q, a, 30));
	assert_int_equal(sim_queue_get_event_time(q, a), 30);
	/* earlier: c moves to 5; same handle */
	assert_true(sim_queue_reschedule(q, c, 5));
	assert_true(sim_queue_is_pending(q, c));
	assert_int_equal(sim_queue_get_length(q), 3);

	static const uint32_t order[] = { 3, 2, 1 };
	static const SimTime at[] = { 5, 20, 30 };
	for (guint i = 0; i < 3; i++) {
		assert_true(sim_queue_pop(q, &ev));
		assert_int_equal(ev.target, order[i]);
		assert_int_equal(ev.time, at[i]);
	}
	assert_false(sim_queue_pop(q, &ev)); /* the moved events' old entries are gone */
	assert_false(sim_queue_reschedule(q, a, 40));
}

static void
test_queue__reschedule_orders_as_new_push(void **state)
{
	g_autoptr(SimQueue) q = sim_queue_new();
	SimEvent ev;

	SimEventId a = sim_queue_push(q, 10, 0, 0, 1, NULL);
	sim_queue_push(q, 10, 0, 0, 2, NULL);
	assert_true(sim_queue_reschedule(q, a, 10)); /* same time: now behind target 2 */
	assert_true(sim_queue_pop(q, &ev));
	assert_int_equal(ev.target, 2);
	assert_true(sim_queue_pop(q, &ev));
	assert_int_equal(ev.target, 1);
}

static void
test_queue__pool_reuse(void **state)
{
	g_autoptr(SimQueue) q = sim_queue_new();
	SimEvent ev;

	SimEventId first = sim_queue_push(q, 0, 0, 0, 0, NULL);
	for (SimTime t = 1; t <= 10000; t++) {
		assert_true(sim_queue_pop(q, &ev));
		sim_queue_push(q, t, 0, 0, 0, NULL);
	}
	/* one pending event at a time needs one slot, however many ran */
	assert_int_equal(sim_queue_get_pool_size(q), 1);
	/* the slot was reused 10000 times; the first handle must not match it */
	assert_false(sim_queue_is_pending(q, first));
	assert_false(sim_queue_cancel(q, first));
	assert_int_equal(sim_queue_get_length(q), 1);
}

/* Reference model: live events in an array; the minimum is found by a scan. */
typedef struct {
	SimTime time;
	uint32_t priority;
	uint64_t order; /* push counter, renewed on reschedule */
	SimEventId id;
	uint32_t tag;
} RefEvent;

static guint
ref_min(GArray *ref)
{
	guint best = 0;

	for (guint i = 1; i < ref->len; i++) {
		RefEvent *a = &g_array_index(ref, RefEvent, i);
		RefEvent *b = &g_array_index(ref, RefEvent, best);
		if (a->time < b->time ||
		    (a->time == b->time && (a->priority < b->priority ||
		                            (a->priority == b->priority && a->order < b->order)))) {
			best = i;
		}
	}
	return best;
}

static void
test_queue__random_against_reference(void **state)
{
	g_autoptr(SimQueue) q = sim_queue_new();
	g_autoptr(SimRng) rng = sim_rng_new(test_seed(), "test.queue");
	g_autoptr(GArray) ref = g_array_new(FALSE, FALSE, sizeof(RefEvent));
	uint64_t order = 0;
	uint32_t tag = 0;
	SimTime now = 0;
	SimEvent ev;

	for (guint step = 0; step < 60000; step++) {
		double u = sim_rng_uniform(rng);
		/* Phase 2 (second third) cancels a lot, to exercise the sweep. */
		gboolean churn = step / 20000 == 1;
		if (u < 0.45 || ref->len == 0) {
			/* few distinct times and priorities, so ties are common */
			RefEvent r = { now + sim_rng_uniform_int(rng, 50),
				       sim_rng_uniform_int(rng, 3), order++, 0, tag++ };
			r.id = sim_queue_push(q, r.time, r.priority, 0, r.tag, NULL);
			g_array_append_val(ref, r);
		} else if (u < (churn ? 0.55 : 0.75)) {
			guint m = ref_min(ref);
			RefEvent r = g_array_index(ref, RefEvent, m);
			g_array_remove_index_fast(ref, m);
			assert_true(sim_queue_pop(q, &ev));
			assert_int_equal(ev.target, r.tag);
			assert_int_equal(ev.time, r.time);
			assert_true(ev.time >= now);
			now = ev.time;
		} else if (u < (churn ? 0.85 : 0.87)) {
			guint k = sim_rng_uniform_int(rng, ref->len);
			assert_true(sim_queue_cancel(q, g_array_index(ref, RefEvent, k).id));
			g_array_remove_index_fast(ref, k);
		} else {
			guint k = sim_rng_uniform_int(rng, ref->len);
			RefEvent *r = &g_array_index(ref, RefEvent, k);
			r->time = now + sim_rng_uniform_int(rng, 50);
			r->order = order++;
			assert_true(sim_queue_reschedule(q, r->id, r->time));
		}
		assert_int_equal(sim_queue_get_length(q), ref->len);
	}
	while (ref->len > 0) {
		guint m = ref_min(ref);
		assert_true(sim_queue_pop(q, &ev));
		assert_int_equal(ev.target, g_array_index(ref, RefEvent, m).tag);
		g_array_remove_index_fast(ref, m);
	}
	assert_false(sim_queue_pop(q, &ev));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queue__ties_keep_push_order),
		cmocka_unit_test(test_queue__priority_before_seq),
		cmocka_unit_test(test_queue__payload_copied),
		cmocka_unit_test(test_queue__cancel),
		cmocka_unit_test(test_queue__reschedule),
		cmocka_unit_test(test_queue__reschedule_orders_as_new_push),
		cmocka_unit_test(test_queue__pool_reuse),
		cmocka_unit_test(test_queue__random_against_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
