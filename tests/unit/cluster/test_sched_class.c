/*
 * test_sched_class.c: the equivalence-class scheduling path against the
 * reference one (DRASIM_SCHED_REFERENCE=1) where ties really happen: identical
 * nodes, so selectHost's reservoir draws decide, and both paths must draw the
 * same numbers in the same order and choose the same nodes; plus nodes that
 * leave and join classes as pods are assumed and released.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cluster_sched.h"
#include "cluster_types.h"
#include "sched-ties.h"

static void
test_sched_class__ties_draw_as_the_reference(void **state)
{
	/*
	 * By hand: 300 identical empty nodes, numFeasibleNodesToFind =
	 * 300 × max(5, 50 − 300/125 = 48) / 100 = 144, all feasible and tied, so
	 * the first cycle draws Intn(2) .. Intn(144): 143 draws, Σ bounds =
	 * (2 + 144) × 143 / 2 = 10,439. A generator that always answers 0 keeps
	 * every later tie: the last examined node, node-0143, wins.
	 */
	g_autoptr(GPtrArray) nodes = ties_nodes_new(300, 0);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterScheduleResult r;

	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 1000);
	for (guint path = 0; path < 2; path++) {
		LoggedRand zero = { .zero = TRUE };
		g_autoptr(ClusterSched) sched = ties_sched_new(path == 0, 0, &zero, nodes);

		cluster_sched_schedule_one(sched, pod, &r);
		assert_int_equal(r.evaluated, 144);
		assert_int_equal(r.feasible, 144);
		assert_int_equal(zero.n_draws, 143);
		assert_int_equal(zero.bounds_sum, 10439);
		assert_string_equal(r.node->name, "node-0143");
		cluster_sched_release(sched, pod, r.node);
	}
}

static void
run_pods(gboolean reference, guint64 seed, GPtrArray *chosen, LoggedRand *rand)
{
	g_autoptr(GPtrArray) nodes = ties_nodes_new(300, 0);
	g_autoptr(ClusterSched) sched = NULL;
	g_autoptr(ClusterPod) small = cluster_pod_new("small", 1);
	g_autoptr(ClusterPod) big = cluster_pod_new("big", 2);
	ClusterScheduleResult r;

	*rand = (LoggedRand){ .state = seed };
	sched = ties_sched_new(reference, 0, rand, nodes);
	cluster_pod_set_request(small, CLUSTER_RES_CPU, 1000);
	cluster_pod_set_request(big, CLUSTER_RES_CPU, 48000);
	/* a tainted and a cordoned node: classes of their own */
	cluster_node_add_taint(nodes->pdata[5], "x", "", CLUSTER_EFFECT_PREFER_NO_SCHEDULE);
	((ClusterNode *)nodes->pdata[9])->unschedulable = TRUE;
	cluster_node_touch(nodes->pdata[9]);
	for (guint i = 0; i < 400; i++) {
		const ClusterPod *pod = i % 7 == 3 ? big : small;

		cluster_sched_schedule_one(sched, pod, &r);
		g_ptr_array_add(chosen, r.status == CLUSTER_STATUS_SUCCESS ? r.node : NULL);
		/* every third pod ends at once: nodes go back to a class they left */
		if (r.status == CLUSTER_STATUS_SUCCESS && i % 3 == 0)
			cluster_sched_release(sched, pod, r.node);
	}
	/* names, not pointers: each run has its own nodes */
	for (guint i = 0; i < chosen->len; i++)
		if (chosen->pdata[i] != NULL)
			chosen->pdata[i] =
			        (gpointer)g_intern_string(((ClusterNode *)chosen->pdata[i])->name);
}

static void
test_sched_class__same_choices_and_draws_on_many_seeds(void **state)
{
	for (guint64 seed = 1; seed <= 20; seed++) {
		g_autoptr(GPtrArray) ref = g_ptr_array_new();
		g_autoptr(GPtrArray) cls = g_ptr_array_new();
		LoggedRand a, b;

		run_pods(TRUE, seed, ref, &a);
		run_pods(FALSE, seed, cls, &b);
		assert_int_equal(ref->len, cls->len);
		for (guint i = 0; i < ref->len; i++)
			assert_ptr_equal(ref->pdata[i], cls->pdata[i]);
		assert_true(a.n_draws > 400); /* ties really happened */
		assert_int_equal(a.n_draws, b.n_draws);
		assert_int_equal(a.bounds_sum, b.bounds_sum);
		assert_int_equal(a.state, b.state);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sched_class__ties_draw_as_the_reference),
		cmocka_unit_test(test_sched_class__same_choices_and_draws_on_many_seeds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
