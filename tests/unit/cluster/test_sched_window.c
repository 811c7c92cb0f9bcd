/*
 * test_sched_window.c: the class position index (rank, select with wrap,
 * moves between sets, reset, the set bound) with answers worked by hand, and
 * the window path of the scheduling cycle (cluster_sched_window.c) against
 * the reference walk (DRASIM_SCHED_REFERENCE=1): the same window, counters,
 * histogram, scores, random draws and choices, with nodes changing class from
 * outside the scheduler and the node list rebuilt.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cluster_sched-private.h"
#include "sched-ties.h"

/* Two keys: any distinct addresses. */
static const int key_a, key_b, key_c;

/*
 * 130 positions: three words of 64 (the last holds 2). A = {3, 64, 65, 129},
 * B = {0, 70, 128}.
 */
static ClusterPosIndex *
two_sets(guint *a, guint *b)
{
	ClusterPosIndex *idx = cluster_pos_index_new(4);
	const guint in_a[] = { 3, 64, 65, 129 }, in_b[] = { 0, 70, 128 };

	cluster_pos_index_reset(idx, 130);
	for (guint i = 0; i < G_N_ELEMENTS(in_a); i++)
		assert_true(cluster_pos_index_move(idx, in_a[i], &key_a));
	for (guint i = 0; i < G_N_ELEMENTS(in_b); i++)
		assert_true(cluster_pos_index_move(idx, in_b[i], &key_b));
	*a = cluster_pos_index_set_of(idx, 3);
	*b = cluster_pos_index_set_of(idx, 0);
	return idx;
}

static void
test_pos_index__rank_and_select_with_wrap(void **state)
{
	guint a, b, both[2];
	ClusterPosIndex *idx = two_sets(&a, &b);

	both[0] = a;
	both[1] = b;
	assert_int_not_equal(a, b);
	assert_int_equal(cluster_pos_index_get_members(idx, a), 4);
	/* below 65: A's 3 and 64; below 71: A's 3, 64, 65 and B's 0, 70 */
	assert_int_equal(cluster_pos_index_rank(idx, &a, 1, 65), 2);
	assert_int_equal(cluster_pos_index_rank(idx, both, 2, 71), 5);
	assert_int_equal(cluster_pos_index_rank(idx, both, 2, 130), 7);
	/* A from 66 on: 129, then wrapping 3, 64, 65; a fifth does not exist */
	assert_int_equal(cluster_pos_index_select_from(idx, &a, 1, 66, 1), 129);
	assert_int_equal(cluster_pos_index_select_from(idx, &a, 1, 66, 2), 3);
	assert_int_equal(cluster_pos_index_select_from(idx, &a, 1, 66, 4), 65);
	assert_int_equal(cluster_pos_index_select_from(idx, &a, 1, 66, 5), CLUSTER_POS_NONE);
	/* A and B from 100 on: 128, 129, then 0, 3, 64 */
	assert_int_equal(cluster_pos_index_select_from(idx, both, 2, 100, 1), 128);
	assert_int_equal(cluster_pos_index_select_from(idx, both, 2, 100, 2), 129);
	assert_int_equal(cluster_pos_index_select_from(idx, both, 2, 100, 3), 0);
	assert_int_equal(cluster_pos_index_select_from(idx, both, 2, 100, 5), 64);
	/* a start on a member counts it first */
	assert_int_equal(cluster_pos_index_select_from(idx, &b, 1, 70, 1), 70);
	/* 40 positions from 100: 100..129 and 0..9 hold A's 129, 3 and B's 128, 0 */
	assert_int_equal(cluster_pos_index_count_window(idx, a, 100, 40), 2);
	assert_int_equal(cluster_pos_index_count_window(idx, b, 100, 40), 2);
	assert_int_equal(cluster_pos_index_count_window(idx, a, 64, 2), 2);
	assert_int_equal(cluster_pos_index_count_window(idx, a, 5, 130), 4);
	cluster_pos_index_free(idx);
}

static void
test_pos_index__moves_and_reset(void **state)
{
	guint a, b, sets[4];
	ClusterPosIndex *idx = two_sets(&a, &b);

	/* 65 goes to B: B = {0, 65, 70, 128}; from 66 B's first is 70, from 60 it is 65 */
	assert_true(cluster_pos_index_move(idx, 65, &key_b));
	assert_int_equal(cluster_pos_index_get_members(idx, a), 3);
	assert_int_equal(cluster_pos_index_rank(idx, &b, 1, 71), 3);
	assert_int_equal(cluster_pos_index_select_from(idx, &b, 1, 66, 1), 70);
	assert_int_equal(cluster_pos_index_select_from(idx, &b, 1, 60, 1), 65);
	/* A empties: its set is free again, only B is listed */
	for (guint i = 0; i < 130; i++)
		if (cluster_pos_index_set_of(idx, i) == a)
			assert_true(cluster_pos_index_move(idx, i, NULL));
	assert_int_equal(cluster_pos_index_list_sets(idx, sets), 1);
	assert_int_equal(sets[0], b);
	/* a new key takes a set with no stale bits: C = {5}, its only member */
	assert_true(cluster_pos_index_move(idx, 5, &key_c));
	sets[0] = cluster_pos_index_set_of(idx, 5);
	assert_int_equal(cluster_pos_index_select_from(idx, sets, 1, 0, 1), 5);
	assert_int_equal(cluster_pos_index_select_from(idx, sets, 1, 6, 1), 5);
	assert_int_equal(cluster_pos_index_rank(idx, sets, 1, 130), 1);
	/* reset: a shorter list, every set empty; then A = {9} alone */
	cluster_pos_index_reset(idx, 10);
	assert_int_equal(cluster_pos_index_list_sets(idx, sets), 0);
	assert_true(cluster_pos_index_move(idx, 9, &key_a));
	a = cluster_pos_index_set_of(idx, 9);
	assert_int_equal(cluster_pos_index_get_members(idx, a), 1);
	assert_int_equal(cluster_pos_index_select_from(idx, &a, 1, 3, 1), 9);
	assert_int_equal(cluster_pos_index_count_window(idx, a, 9, 2), 1);
	cluster_pos_index_free(idx);
}

static void
test_pos_index__bound_on_sets(void **state)
{
	ClusterPosIndex *idx = cluster_pos_index_new(2);

	cluster_pos_index_reset(idx, 3);
	assert_true(cluster_pos_index_move(idx, 0, &key_a));
	assert_true(cluster_pos_index_move(idx, 1, &key_b));
	assert_false(cluster_pos_index_move(idx, 2, &key_c));
	/* the only member of A leaving frees the set its new key then takes */
	assert_true(cluster_pos_index_move(idx, 0, &key_c));
	assert_int_equal(cluster_pos_index_get_members(idx, cluster_pos_index_set_of(idx, 0)), 1);
	cluster_pos_index_free(idx);
}

/* ------------------------------------------------------ the window path */

static void
assert_same_result(const ClusterScheduleResult *x, const ClusterScheduleResult *y)
{
	assert_int_equal(x->status, y->status);
	assert_string_equal(x->node != NULL ? x->node->name : "-",
	                    y->node != NULL ? y->node->name : "-");
	assert_int_equal(x->rejectors, y->rejectors);
	assert_memory_equal(x->rejected, y->rejected, sizeof(x->rejected));
	assert_memory_equal(x->reasons, y->reasons, sizeof(x->reasons));
	assert_string_equal(x->reason != NULL ? x->reason : "-",
	                    y->reason != NULL ? y->reason : "-");
	assert_int_equal(x->evaluated, y->evaluated);
	assert_int_equal(x->feasible, y->feasible);
	assert_int_equal(x->best_score, y->best_score);
}

static void
assert_same_stats(ClusterSched *a, ClusterSched *b)
{
	const ClusterSchedStats *x = cluster_sched_get_stats(a), *y = cluster_sched_get_stats(b);

	assert_int_equal(x->attempts, y->attempts);
	assert_int_equal(x->node_filter_calls, y->node_filter_calls);
	assert_memory_equal(x->plugin_filter_calls, y->plugin_filter_calls,
	                    sizeof(x->plugin_filter_calls));
	assert_int_equal(x->score_calls, y->score_calls);
	assert_int_equal(x->nodes_evaluated, y->nodes_evaluated);
	assert_int_equal(x->unschedulable, y->unschedulable);
	assert_int_equal(cluster_sched_get_next_start_index(a),
	                 cluster_sched_get_next_start_index(b));
}

static void
test_sched_window__hand_worked_window_and_draws(void **state)
{
	/*
	 * By hand: 200 identical nodes, every 4th cordoned (0, 4, ..., 196: 50),
	 * percentage 10: 20 < 100, so numFeasibleNodesToFind = 100. From 0 each
	 * block of 4 gives 3 feasible nodes: 33 blocks (0..131) give 99, node 132
	 * is cordoned, node 133 is the 100th: 134 nodes examined, 34 of them
	 * cordoned, next start 134. The 100 feasible nodes are tied: draws
	 * Intn(2)..Intn(100), 99 of them, Σ bounds = (2 + 100) × 99 / 2 = 5,049;
	 * always 0 keeps the last tie, node-0133.
	 * Second pod: from 134, 134..199 hold 16 cordoned (136..196) and 50
	 * feasible; wrapping, 0..63 give 48 more, 65 and 66 the 49th and 50th:
	 * 66 + 67 = 133 examined, 16 + 17 = 33 cordoned, next start
	 * (134 + 133) mod 200 = 67. node-0133 (less free now) is not in the
	 * window: 100 tied again, 99 more draws, node-0066 wins.
	 */
	g_autoptr(GPtrArray) nodes = ties_nodes_new(200, 4);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	const guint next[] = { 134, 67 }, evaluated[] = { 134, 133 }, cordoned[] = { 34, 33 };
	const char *chosen[] = { "node-0133", "node-0066" };
	LoggedRand ref_rand = { .zero = TRUE }, win_rand = { .zero = TRUE };
	g_autoptr(ClusterSched) ref = ties_sched_new(TRUE, 10, &ref_rand, nodes);
	g_autoptr(ClusterSched) win = NULL;
	ClusterScheduleResult r[2];

	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 1000);
	for (guint i = 0; i < 2; i++) {
		cluster_sched_schedule_one(ref, pod, &r[0]);
		assert_int_equal(r[0].evaluated, evaluated[i]);
		assert_int_equal(r[0].feasible, 100);
		assert_int_equal(r[0].rejected[CLUSTER_PLUGIN_NODE_UNSCHEDULABLE], cordoned[i]);
		assert_string_equal(r[0].node->name, chosen[i]);
		assert_int_equal(cluster_sched_get_next_start_index(ref), next[i]);
	}
	assert_int_equal(ref_rand.n_draws, 2 * 99);
	assert_int_equal(ref_rand.bounds_sum, 2 * 5049);
	/* the window path from the same state: release and start a new scheduler */
	cluster_sched_release(ref, pod, nodes->pdata[133]);
	cluster_sched_release(ref, pod, nodes->pdata[66]);
	g_clear_pointer(&ref, cluster_sched_free);
	win = ties_sched_new(FALSE, 10, &win_rand, nodes);
	for (guint i = 0; i < 2; i++) {
		cluster_sched_schedule_one(win, pod, &r[1]);
		assert_int_equal(r[1].evaluated, evaluated[i]);
		assert_int_equal(r[1].feasible, 100);
		assert_int_equal(r[1].rejected[CLUSTER_PLUGIN_NODE_UNSCHEDULABLE], cordoned[i]);
		assert_int_equal(r[1].reasons[CLUSTER_REASON_UNSCHEDULABLE], cordoned[i]);
		assert_string_equal(r[1].node->name, chosen[i]);
		assert_int_equal(cluster_sched_get_next_start_index(win), next[i]);
	}
	assert_int_equal(win_rand.n_draws, 2 * 99);
	assert_int_equal(win_rand.bounds_sum, 2 * 5049);
	assert_int_equal(cluster_sched_get_stats(win)->window_cycles, 2);
}

static void
test_sched_window__ten_identical_nodes(void **state)
{
	/*
	 * By hand: 10 nodes < 100, so all 10 are looked for and examined; all
	 * tied: Intn(2)..Intn(10), 9 draws, Σ bounds = (2 + 10) × 9 / 2 = 54;
	 * always 0 keeps node-0009; next start (0 + 10) mod 10 = 0.
	 */
	g_autoptr(GPtrArray) nodes = ties_nodes_new(10, 0);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	LoggedRand zero = { .zero = TRUE };
	g_autoptr(ClusterSched) sched = ties_sched_new(FALSE, 0, &zero, nodes);
	ClusterScheduleResult r;

	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 1000);
	cluster_sched_schedule_one(sched, pod, &r);
	assert_int_equal(r.evaluated, 10);
	assert_int_equal(zero.n_draws, 9);
	assert_int_equal(zero.bounds_sum, 54);
	assert_string_equal(r.node->name, "node-0009");
	assert_int_equal(cluster_sched_get_next_start_index(sched), 0);
	assert_int_equal(cluster_sched_get_stats(sched)->window_cycles, 1);
}

/* Both paths' worlds: the same nodes twice, the same pods. */
typedef struct {
	GPtrArray *nodes[2];
	ClusterSched *sched[2];
	LoggedRand rand[2];
	ClusterPod *pods[5];
} Twin;

static void
twin_init(Twin *t, guint n, guint64 seed)
{
	const gint64 cpu[] = { 1000, 48000, 0, 2000, 500 };

	for (guint p = 0; p < 2; p++) {
		t->nodes[p] = ties_nodes_new(n, 0);
		t->rand[p] = (LoggedRand){ .state = seed };
		t->sched[p] = ties_sched_new(p == 0, 0, &t->rand[p], t->nodes[p]);
	}
	for (guint i = 0; i < G_N_ELEMENTS(t->pods); i++) {
		g_autofree char *name = g_strdup_printf("pod-%u", i);

		t->pods[i] = cluster_pod_new(name, 1);
		if (cpu[i] != 0) /* pod 2 is best effort: BalancedAllocation skips it */
			cluster_pod_set_request(t->pods[i], CLUSTER_RES_CPU, cpu[i]);
	}
	/* pod 3 has a node selector: the walk decides for it on both paths */
	cluster_pod_add_node_selector(t->pods[3], "zone", "a");
	/* pod 4 tolerates the cordon and the taint */
	cluster_pod_add_toleration(t->pods[4], "", CLUSTER_TOLERATION_EXISTS, "",
	                           CLUSTER_EFFECT_ALL);
}

static void
twin_clear(Twin *t)
{
	for (guint p = 0; p < 2; p++) {
		cluster_sched_free(t->sched[p]);
		g_ptr_array_unref(t->nodes[p]);
	}
	for (guint i = 0; i < G_N_ELEMENTS(t->pods); i++)
		cluster_pod_free(t->pods[i]);
}

/* Changes made outside the scheduler (setters, a direct write and a touch), the same on both. */
static void
twin_change(Twin *t, guint step)
{
	for (guint p = 0; p < 2; p++) {
		ClusterNode *node = t->nodes[p]->pdata[(step * 37) % t->nodes[p]->len];

		switch (step % 5) {
		case 0:
			cluster_node_add_taint(node, "x", "", CLUSTER_EFFECT_PREFER_NO_SCHEDULE);
			break;
		case 1:
			cluster_node_add_taint(node, "y", "", CLUSTER_EFFECT_NO_SCHEDULE);
			break;
		case 2:
			node->unschedulable = !node->unschedulable;
			cluster_node_touch(node);
			break;
		case 3:
			cluster_node_set_label(node, "zone", step % 2 ? "a" : "b");
			break;
		default:
			/* out of the list and back in: the list (and the index) is rebuilt */
			cluster_sched_remove_node(t->sched[p], node);
			cluster_sched_add_node(t->sched[p], node);
			break;
		}
	}
}

static void
run_twin(guint64 seed, guint n)
{
	Twin t;

	twin_init(&t, n, seed);
	for (guint i = 0; i < 600; i++) {
		const ClusterPod *pod = t.pods[(i * 7 + seed) % G_N_ELEMENTS(t.pods)];
		ClusterScheduleResult r[2];

		for (guint p = 0; p < 2; p++)
			cluster_sched_schedule_one(t.sched[p], pod, &r[p]);
		assert_same_result(&r[0], &r[1]);
		/* every third pod ends at once: nodes go back to classes they left */
		for (guint p = 0; p < 2 && r[0].status == CLUSTER_STATUS_SUCCESS && i % 3 == 0; p++)
			cluster_sched_release(t.sched[p], pod, r[p].node);
		if (i % 11 == 5)
			twin_change(&t, i / 11);
	}
	assert_same_stats(t.sched[0], t.sched[1]);
	assert_true(t.rand[0].n_draws > 600); /* ties really happened */
	assert_int_equal(t.rand[0].n_draws, t.rand[1].n_draws);
	assert_int_equal(t.rand[0].bounds_sum, t.rand[1].bounds_sum);
	assert_int_equal(cluster_sched_get_stats(t.sched[0])->window_cycles, 0);
	/* the selector pod (1 in 5) walks; nearly all others use the window */
	assert_true(cluster_sched_get_stats(t.sched[1])->window_cycles > 400);
	twin_clear(&t);
}

static void
test_sched_window__same_as_reference_on_many_seeds(void **state)
{
	/* 300 nodes: 144 looked for; 60: all of them; 1,000: 420 */
	for (guint64 seed = 1; seed <= 12; seed++)
		run_twin(seed, seed % 3 == 0 ? 60 : seed % 3 == 1 ? 300 : 1000);
}

static void
test_sched_window__too_many_classes_falls_back(void **state)
{
	/*
	 * 300 nodes of 300 sizes: 300 classes, past the window's 256, so the
	 * walk decides (window_cycles stays 0) with the same results; once the
	 * nodes are equal again the index is rebuilt at its next retry (8
	 * cycles after the first failure) and the window decides again.
	 */
	Twin t;
	ClusterScheduleResult r[2];

	twin_init(&t, 300, 3);
	for (guint p = 0; p < 2; p++)
		for (guint i = 0; i < 300; i++) {
			ClusterNode *node = t.nodes[p]->pdata[i];

			node->allocatable.v[CLUSTER_RES_CPU] = 64000 + i;
			cluster_node_touch(node);
		}
	for (guint i = 0; i < 40; i++) {
		for (guint p = 0; p < 2; p++)
			cluster_sched_schedule_one(t.sched[p], t.pods[0], &r[p]);
		assert_same_result(&r[0], &r[1]);
	}
	assert_int_equal(cluster_sched_get_stats(t.sched[1])->window_cycles, 0);
	for (guint p = 0; p < 2; p++)
		for (guint i = 0; i < 300; i++) {
			ClusterNode *node = t.nodes[p]->pdata[i];

			node->allocatable.v[CLUSTER_RES_CPU] = 64000;
			cluster_node_touch(node);
		}
	for (guint i = 0; i < 40; i++) {
		for (guint p = 0; p < 2; p++)
			cluster_sched_schedule_one(t.sched[p], t.pods[0], &r[p]);
		assert_same_result(&r[0], &r[1]);
	}
	assert_true(cluster_sched_get_stats(t.sched[1])->window_cycles > 0);
	assert_same_stats(t.sched[0], t.sched[1]);
	assert_int_equal(t.rand[0].n_draws, t.rand[1].n_draws);
	twin_clear(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pos_index__rank_and_select_with_wrap),
		cmocka_unit_test(test_pos_index__moves_and_reset),
		cmocka_unit_test(test_pos_index__bound_on_sets),
		cmocka_unit_test(test_sched_window__hand_worked_window_and_draws),
		cmocka_unit_test(test_sched_window__ten_identical_nodes),
		cmocka_unit_test(test_sched_window__same_as_reference_on_many_seeds),
		cmocka_unit_test(test_sched_window__too_many_classes_falls_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
