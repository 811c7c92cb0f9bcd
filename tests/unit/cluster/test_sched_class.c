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

#define GI ((gint64)1 << 30)

/* A seeded generator that logs what it was asked: draws and their bounds. */
typedef struct {
	guint64 state;
	guint n_draws;
	guint64 bounds_sum; /* Σ n over the draws */
	gboolean zero;      /* answer 0 every time */
} LoggedRand;

static guint32
logged_rand(gpointer data, guint32 n)
{
	LoggedRand *r = data;

	r->state = r->state * 6364136223846793005u + 1442695040888963407u;
	r->n_draws++;
	r->bounds_sum += n;
	if (r->zero)
		return 0;
	return (guint32)((r->state >> 33) % n);
}

static ClusterSched *
new_sched(gboolean reference, LoggedRand *rand, GPtrArray *nodes)
{
	ClusterSchedConfig config = { .rand = logged_rand, .rand_data = rand };
	ClusterSched *sched;

	g_setenv("DRASIM_SCHED_REFERENCE", reference ? "1" : "0", TRUE);
	sched = cluster_sched_new(&config);
	g_unsetenv("DRASIM_SCHED_REFERENCE");
	cluster_sched_add_default_score_plugins(sched);
	for (guint i = 0; i < nodes->len; i++)
		cluster_sched_add_node(sched, nodes->pdata[i]);
	return sched;
}

static GPtrArray *
identical_nodes(guint n)
{
	GPtrArray *nodes = g_ptr_array_new_with_free_func((GDestroyNotify)cluster_node_free);

	for (guint i = 0; i < n; i++) {
		g_autofree char *name = g_strdup_printf("node-%04u", i);
		ClusterNode *node = cluster_node_new(name);

		node->allocatable.v[CLUSTER_RES_CPU] = 64000;
		node->allocatable.v[CLUSTER_RES_MEMORY] = 512 * GI;
		node->allocatable.v[CLUSTER_RES_PODS] = 110;
		g_ptr_array_add(nodes, node);
	}
	return nodes;
}

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
	g_autoptr(GPtrArray) nodes = identical_nodes(300);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterScheduleResult r;

	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 1000);
	for (guint path = 0; path < 2; path++) {
		LoggedRand zero = { .zero = TRUE };
		g_autoptr(ClusterSched) sched = new_sched(path == 0, &zero, nodes);

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
	g_autoptr(GPtrArray) nodes = identical_nodes(300);
	g_autoptr(ClusterSched) sched = NULL;
	g_autoptr(ClusterPod) small = cluster_pod_new("small", 1);
	g_autoptr(ClusterPod) big = cluster_pod_new("big", 2);
	ClusterScheduleResult r;

	*rand = (LoggedRand){ .state = seed };
	sched = new_sched(reference, rand, nodes);
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
