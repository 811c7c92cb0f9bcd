/*
 * test_sched.c: the scheduling cycle against kube-scheduler 1.34: how many
 * nodes percentageOfNodesToScore evaluates and where the next cycle starts,
 * the filter plugins' semantics, the score plugins against hand-computed
 * values, selectHost's reservoir tie-breaking, and DynamicResources through
 * the ClusterDraOps interface (errors stop the cycle, as upstream).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cluster_plugin.h"
#include "cluster_sched.h"
#include "cluster_score.h"
#include "cluster_types.h"

#define GI ((gint64)1 << 30)

static ClusterNode *
big_node(const char *name)
{
	ClusterNode *node = cluster_node_new(name);

	node->allocatable.v[CLUSTER_RES_CPU] = 64000;
	node->allocatable.v[CLUSTER_RES_MEMORY] = 512 * GI;
	node->allocatable.v[CLUSTER_RES_PODS] = 110;
	return node;
}

static GPtrArray *
add_nodes(ClusterSched *sched, guint n)
{
	GPtrArray *nodes = g_ptr_array_new_with_free_func((GDestroyNotify)cluster_node_free);

	for (guint i = 0; i < n; i++) {
		g_autofree char *name = g_strdup_printf("node-%04u", i);
		ClusterNode *node = big_node(name);

		g_ptr_array_add(nodes, node);
		cluster_sched_add_node(sched, node);
	}
	return nodes;
}

static void
test_sched__num_feasible_nodes_to_find(void **state)
{
	/* numFeasibleNodesToFind: all below 100, adaptive 50 - n/125 (min 5 %), min 100 */
	const struct {
		gint32 pct;
		guint n, want;
	} cases[] = {
		{ 0, 50, 50 },       { 0, 99, 99 },     { 0, 100, 100 },     { 0, 500, 230 },
		{ 0, 1000, 420 },    { 0, 5000, 500 },  { 0, 6000, 300 },    { 0, 10000, 500 },
		{ 0, 100000, 5000 }, { 10, 5000, 500 }, { 100, 1000, 1000 }, { 1, 1000, 100 },
		{ 50, 150, 100 },    { 70, 200, 140 },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++)
		assert_int_equal(cluster_sched_num_feasible_nodes_to_find(cases[i].pct, cases[i].n),
		                 cases[i].want);
}

static void
test_sched__rotating_start_index(void **state)
{
	g_autoptr(ClusterSched) sched = cluster_sched_new(NULL);
	GPtrArray *nodes = add_nodes(sched, 500);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterScheduleResult r;
	const guint starts[] = { 230, 460, 190, 420 };

	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 1);
	for (guint i = 0; i < G_N_ELEMENTS(starts); i++) {
		cluster_sched_schedule_one(sched, pod, &r);
		assert_int_equal(r.status, CLUSTER_STATUS_SUCCESS);
		assert_int_equal(r.evaluated, 230);
		assert_int_equal(r.feasible, 230);
		assert_int_equal(cluster_sched_get_next_start_index(sched), starts[i]);
	}
	assert_int_equal(cluster_sched_get_stats(sched)->node_filter_calls, 4 * 230);
	g_ptr_array_unref(nodes);
}

static void
test_sched__infeasible_nodes_count_as_processed(void **state)
{
	g_autoptr(ClusterSched) sched = cluster_sched_new(NULL);
	GPtrArray *nodes = add_nodes(sched, 500);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterScheduleResult r;

	for (guint i = 1; i < nodes->len; i += 2)
		cluster_node_add_taint(nodes->pdata[i], "busy", "", CLUSTER_EFFECT_NO_SCHEDULE);
	cluster_sched_schedule_one(sched, pod, &r);
	/* 230 feasible even nodes: the last one is node 458, the 459th looked at */
	assert_int_equal(r.evaluated, 459);
	assert_int_equal(r.feasible, 230);
	assert_int_equal(r.rejected[CLUSTER_PLUGIN_TAINT_TOLERATION], 229);
	assert_int_equal(cluster_sched_get_next_start_index(sched), 459);
	/* a fully unschedulable pod walks every node once; the index wraps back */
	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 1000000);
	cluster_sched_schedule_one(sched, pod, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_UNSCHEDULABLE);
	assert_int_equal(r.evaluated, 500);
	assert_int_equal(cluster_sched_get_next_start_index(sched), 459);
	assert_true(r.rejectors & CLUSTER_PLUGIN_BIT(CLUSTER_PLUGIN_NODE_RESOURCES_FIT));
	/* the histogram: the 250 odd nodes under their taint, the 250 even ones short of cpu */
	assert_int_equal(r.reasons[CLUSTER_REASON_TAINT], 250);
	assert_int_equal(r.reasons[CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_CPU], 250);
	g_ptr_array_unref(nodes);
}

/* skip_reasons: the same rejections, no histogram. */
static void
test_sched__skip_reasons_keeps_rejections(void **state)
{
	ClusterSchedConfig config = { .skip_reasons = TRUE };
	g_autoptr(ClusterSched) sched = cluster_sched_new(&config);
	GPtrArray *nodes = add_nodes(sched, 10);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterScheduleResult r;

	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 1000000);
	cluster_sched_schedule_one(sched, pod, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_UNSCHEDULABLE);
	assert_int_equal(r.rejected[CLUSTER_PLUGIN_NODE_RESOURCES_FIT], 10);
	assert_int_equal(r.reasons[CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_CPU], 0);
	g_ptr_array_unref(nodes);
}

static void
test_sched__taints_and_tolerations(void **state)
{
	g_autoptr(ClusterNode) node = big_node("n");
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	g_autoptr(ClusterPod) tolerant = cluster_pod_new("t", 2);
	g_autoptr(ClusterPod) any = cluster_pod_new("a", 3);
	g_autoptr(ClusterPod) wrong_effect = cluster_pod_new("w", 4);

	cluster_node_add_taint(node, "gpu", "true", CLUSTER_EFFECT_PREFER_NO_SCHEDULE);
	assert_true(cluster_filter_taint_toleration(pod, node, NULL));
	cluster_node_add_taint(node, "nvidia.com/gpu", "present", CLUSTER_EFFECT_NO_SCHEDULE);
	assert_false(cluster_filter_taint_toleration(pod, node, NULL));
	cluster_pod_add_toleration(tolerant, "nvidia.com/gpu", CLUSTER_TOLERATION_EQUAL, "present",
	                           CLUSTER_EFFECT_NO_SCHEDULE);
	assert_true(cluster_filter_taint_toleration(tolerant, node, NULL));
	cluster_pod_add_toleration(any, NULL, CLUSTER_TOLERATION_EXISTS, NULL, CLUSTER_EFFECT_ALL);
	assert_true(cluster_filter_taint_toleration(any, node, NULL));
	cluster_pod_add_toleration(wrong_effect, "nvidia.com/gpu", CLUSTER_TOLERATION_EXISTS, NULL,
	                           CLUSTER_EFFECT_NO_EXECUTE);
	assert_false(cluster_filter_taint_toleration(wrong_effect, node, NULL));
	/* a wrong value with Equal does not tolerate */
	cluster_node_add_taint(node, "x", "1", CLUSTER_EFFECT_NO_EXECUTE);
	cluster_pod_add_toleration(tolerant, "x", CLUSTER_TOLERATION_EQUAL, "2",
	                           CLUSTER_EFFECT_ALL);
	assert_false(cluster_filter_taint_toleration(tolerant, node, NULL));
	assert_true(cluster_node_remove_taint(node, "x", CLUSTER_EFFECT_NO_EXECUTE));
	assert_true(cluster_filter_taint_toleration(tolerant, node, NULL));
	/* cordon: only pods tolerating node.kubernetes.io/unschedulable */
	node->unschedulable = TRUE;
	assert_false(cluster_filter_node_unschedulable(tolerant, node));
	assert_true(cluster_filter_node_unschedulable(any, node));
}

static gboolean
affinity(ClusterNode *node,
         const char *key,
         ClusterSelectorOp op,
         const char *const *values,
         gboolean field)
{
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	guint term = cluster_pod_add_term(pod);

	cluster_pod_term_add_requirement(pod, term, key, op, values, field);
	return cluster_filter_node_affinity(pod, node);
}

static void
test_sched__node_affinity_operators(void **state)
{
	g_autoptr(ClusterNode) node = big_node("node-1");
	const char *ab[] = { "a", "b", NULL }, *a[] = { "a", NULL }, *four[] = { "4", NULL };
	const char *five[] = { "5", NULL }, *six[] = { "6", NULL }, *bad[] = { "x", NULL };
	const char *me[] = { "node-1", NULL }, *other[] = { "node-2", NULL };

	cluster_node_set_label(node, "zone", "a");
	cluster_node_set_label(node, "gen", "5");
	assert_true(affinity(node, "zone", CLUSTER_SELECTOR_IN, ab, FALSE));
	assert_false(affinity(node, "zone", CLUSTER_SELECTOR_NOT_IN, a, FALSE));
	assert_true(affinity(node, "missing", CLUSTER_SELECTOR_NOT_IN, a, FALSE));
	assert_true(affinity(node, "zone", CLUSTER_SELECTOR_EXISTS, NULL, FALSE));
	assert_false(affinity(node, "zone", CLUSTER_SELECTOR_DOES_NOT_EXIST, NULL, FALSE));
	assert_true(affinity(node, "missing", CLUSTER_SELECTOR_DOES_NOT_EXIST, NULL, FALSE));
	assert_true(affinity(node, "gen", CLUSTER_SELECTOR_GT, four, FALSE));
	assert_false(affinity(node, "gen", CLUSTER_SELECTOR_GT, five, FALSE));
	assert_true(affinity(node, "gen", CLUSTER_SELECTOR_LT, six, FALSE));
	assert_false(affinity(node, "zone", CLUSTER_SELECTOR_GT, four, FALSE));
	assert_false(affinity(node, "gen", CLUSTER_SELECTOR_GT, bad, FALSE));
	assert_true(affinity(node, "metadata.name", CLUSTER_SELECTOR_IN, me, TRUE));
	assert_false(affinity(node, "metadata.name", CLUSTER_SELECTOR_IN, other, TRUE));
	assert_true(affinity(node, "metadata.name", CLUSTER_SELECTOR_NOT_IN, other, TRUE));
	assert_false(affinity(node, "metadata.uid", CLUSTER_SELECTOR_IN, me, TRUE));

	/* terms are ORed, requirements ANDed, an empty term matches nothing */
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	guint t0 = cluster_pod_add_term(pod), t1;
	cluster_pod_term_add_requirement(pod, t0, "zone", CLUSTER_SELECTOR_IN, a, FALSE);
	cluster_pod_term_add_requirement(pod, t0, "gen", CLUSTER_SELECTOR_GT, five, FALSE);
	assert_false(cluster_filter_node_affinity(pod, node));
	t1 = cluster_pod_add_term(pod);
	assert_false(cluster_filter_node_affinity(pod, node));
	cluster_pod_term_add_requirement(pod, t1, "gen", CLUSTER_SELECTOR_LT, six, FALSE);
	assert_true(cluster_filter_node_affinity(pod, node));
	/* and nodeSelector must hold as well */
	cluster_pod_add_node_selector(pod, "zone", "b");
	assert_false(cluster_filter_node_affinity(pod, node));
}

static void
test_sched__resources_fit(void **state)
{
	g_autoptr(ClusterNode) node = big_node("n");
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	gint slot = -1;
	const gint gpu = CLUSTER_RES_FIRST_SCALAR;

	node->allocatable.v[CLUSTER_RES_PODS] = 2;
	node->requested.v[CLUSTER_RES_CPU] = 63000;
	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 1000);
	assert_true(cluster_filter_resources_fit(pod, node, &slot));
	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 1001);
	assert_false(cluster_filter_resources_fit(pod, node, &slot));
	assert_int_equal(slot, CLUSTER_RES_CPU);
	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 0);
	cluster_pod_set_request(pod, gpu, 1);
	assert_false(cluster_filter_resources_fit(pod, node, &slot));
	assert_int_equal(slot, gpu);
	/* KEP-5004: a DRA-backed extended resource absent from the node is not Fit's */
	pod->dra_extended = 1u << gpu;
	assert_true(cluster_filter_resources_fit(pod, node, NULL));
	node->allocatable.v[gpu] = 8;
	node->requested.v[gpu] = 8;
	assert_false(cluster_filter_resources_fit(pod, node, NULL));
	node->requested.v[CLUSTER_RES_PODS] = 2;
	node->requested.v[gpu] = 0;
	assert_false(cluster_filter_resources_fit(pod, node, &slot));
	assert_int_equal(slot, CLUSTER_RES_PODS);
}

/* cpu 4000m with 1000m requested, memory 8 GiB with 2 GiB requested; pod 1000m / 1 GiB. */
static void
score_fixture(ClusterNode **node_out, ClusterPod **pod_out)
{
	ClusterNode *node = cluster_node_new("n");
	ClusterPod *pod = cluster_pod_new("p", 1);

	node->allocatable.v[CLUSTER_RES_CPU] = 4000;
	node->allocatable.v[CLUSTER_RES_MEMORY] = 8 * GI;
	node->allocatable.v[CLUSTER_RES_PODS] = 110;
	node->requested.v[CLUSTER_RES_CPU] = node->nonzero_requested.v[CLUSTER_RES_CPU] = 1000;
	node->requested.v[CLUSTER_RES_MEMORY] = node->nonzero_requested.v[CLUSTER_RES_MEMORY] =
	        2 * GI;
	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 1000);
	cluster_pod_set_request(pod, CLUSTER_RES_MEMORY, 1 * GI);
	*node_out = node;
	*pod_out = pod;
}

static gint64
score_with(ClusterScorePlugin *plugin, const ClusterPod *pod, const ClusterNode *node)
{
	gint64 score = plugin->klass->score(plugin, pod, node);

	cluster_score_plugin_free(plugin);
	return score;
}

static void
test_sched__fit_scores_by_hand(void **state)
{
	g_autoptr(ClusterNode) node = NULL;
	g_autoptr(ClusterPod) pod = NULL;
	ClusterFitScoring args;

	score_fixture(&node, &pod);
	/* Least: cpu (4000-2000)*100/4000 = 50, mem (8-3)*100/8 = 62 -> (50+62)/2 = 56 */
	assert_int_equal(score_with(cluster_score_fit_new(NULL, 1), pod, node), 56);
	/* Most: cpu 50, mem 3*100/8 = 37 -> 43 */
	cluster_fit_scoring_init(&args);
	args.type = CLUSTER_SCORING_MOST_ALLOCATED;
	assert_int_equal(score_with(cluster_score_fit_new(&args, 1), pod, node), 43);
	/* RTCR with shape (0,0),(100,10): utilisations 50 and 37, round(43.5) = 44 */
	args.type = CLUSTER_SCORING_REQUESTED_TO_CAPACITY_RATIO;
	args.shape[0] = (ClusterShapePoint){ 0, 0 };
	args.shape[1] = (ClusterShapePoint){ 100, 10 };
	assert_int_equal(score_with(cluster_score_fit_new(&args, 1), pod, node), 44);
	/* weights: cpu 3, memory 1 with LeastAllocated: (50*3 + 62)/4 = 53 */
	args.type = CLUSTER_SCORING_LEAST_ALLOCATED;
	args.resources[0].weight = 3;
	assert_int_equal(score_with(cluster_score_fit_new(&args, 1), pod, node), 53);
	/* a pod without requests scores with the non-zero defaults (100m, 200 MiB) */
	g_autoptr(ClusterPod) empty = cluster_pod_new("e", 2);
	/* cpu (4000-1100)*100/4000 = 72, mem (8192-2048-200)*100/8192 = 72 */
	assert_int_equal(score_with(cluster_score_fit_new(NULL, 1), empty, node), 72);
}

static void
test_sched__balanced_scores_by_hand(void **state)
{
	g_autoptr(ClusterNode) node = NULL;
	g_autoptr(ClusterPod) pod = NULL;
	g_autoptr(ClusterPod) empty = cluster_pod_new("e", 2);
	ClusterResourceWeight three[] = {
		{ CLUSTER_RES_CPU, 1 },
		{ CLUSTER_RES_MEMORY, 1 },
		{ CLUSTER_RES_FIRST_SCALAR, 1 },
	};
	ClusterScorePlugin *plugin;

	score_fixture(&node, &pod);
	/* fractions 0.5 and 0.375: std 0.0625, (1 - std) * 100 = 93 */
	assert_int_equal(score_with(cluster_score_balanced_new(NULL, 0, 1), pod, node), 93);
	/* three resources: 0.5, 0.375, 0.5 -> std 0.0589 -> 94 */
	node->allocatable.v[CLUSTER_RES_FIRST_SCALAR] = 4;
	node->requested.v[CLUSTER_RES_FIRST_SCALAR] = 1;
	cluster_pod_set_request(pod, CLUSTER_RES_FIRST_SCALAR, 1);
	assert_int_equal(score_with(cluster_score_balanced_new(three, 3, 1), pod, node), 94);
	/* best-effort pods skip the plugin */
	plugin = cluster_score_balanced_new(NULL, 0, 1);
	assert_false(plugin->klass->prescore(plugin, empty, NULL, 0));
	assert_true(plugin->klass->prescore(plugin, pod, NULL, 0));
	cluster_score_plugin_free(plugin);
}

static void
test_sched__helpers_by_hand(void **state)
{
	const ClusterShapePoint shape[] = { { 0, 0 }, { 50, 100 }, { 100, 20 } };
	gint64 scores[] = { 0, 1, 2 }, zeros[] = { 0, 0 };

	assert_int_equal(cluster_score_broken_linear(shape, 3, 0), 0);
	assert_int_equal(cluster_score_broken_linear(shape, 3, 25), 50);
	assert_int_equal(cluster_score_broken_linear(shape, 3, 75), 60);
	assert_int_equal(cluster_score_broken_linear(shape, 3, 150), 20);
	assert_int_equal(cluster_score_least_requested(5, 4), 0);
	assert_int_equal(cluster_score_most_requested(5, 4), 100);
	cluster_score_default_normalize(100, TRUE, scores, 3);
	assert_int_equal(scores[0], 100);
	assert_int_equal(scores[1], 50);
	assert_int_equal(scores[2], 0);
	cluster_score_default_normalize(100, TRUE, zeros, 2);
	assert_int_equal(zeros[0], 100);
}

static void
test_sched__taint_score_prefers_fewer_prefer_no_schedule(void **state)
{
	g_autoptr(ClusterSched) sched = cluster_sched_new(NULL);
	GPtrArray *nodes = add_nodes(sched, 3);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterScheduleResult r;

	cluster_sched_add_score_plugin(sched, cluster_score_taint_new(3));
	cluster_node_add_taint(nodes->pdata[0], "a", "", CLUSTER_EFFECT_PREFER_NO_SCHEDULE);
	cluster_node_add_taint(nodes->pdata[1], "a", "", CLUSTER_EFFECT_PREFER_NO_SCHEDULE);
	cluster_node_add_taint(nodes->pdata[1], "b", "", CLUSTER_EFFECT_PREFER_NO_SCHEDULE);
	cluster_sched_schedule_one(sched, pod, &r);
	assert_ptr_equal(r.node, nodes->pdata[2]);
	assert_int_equal(r.best_score, 300);
	assert_int_equal(cluster_sched_get_stats(sched)->score_calls, 3);
	g_ptr_array_unref(nodes);
}

typedef struct {
	guint32 answer;
	guint32 seen[8];
	guint n_calls;
} FakeRand;

static guint32
fake_rand(gpointer data, guint32 n)
{
	FakeRand *fake = data;

	fake->seen[fake->n_calls++ % 8] = n;
	return MIN(fake->answer, n - 1);
}

static void
test_sched__select_host_reservoir(void **state)
{
	FakeRand always_zero = { .answer = 0 }, never = { .answer = 1 };
	ClusterSchedConfig config = { .rand = fake_rand, .rand_data = &always_zero };
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterScheduleResult r;

	/* four equal nodes: Intn(2), Intn(3), Intn(4); 0 each time picks the last */
	g_autoptr(ClusterSched) a = cluster_sched_new(&config);
	GPtrArray *na = add_nodes(a, 4);
	cluster_sched_add_default_score_plugins(a);
	cluster_sched_schedule_one(a, pod, &r);
	assert_ptr_equal(r.node, na->pdata[3]);
	assert_int_equal(always_zero.n_calls, 3);
	assert_int_equal(always_zero.seen[0], 2);
	assert_int_equal(always_zero.seen[2], 4);

	config.rand_data = &never;
	g_autoptr(ClusterSched) b = cluster_sched_new(&config);
	GPtrArray *nb = add_nodes(b, 4);
	cluster_sched_add_default_score_plugins(b);
	cluster_sched_schedule_one(b, pod, &r);
	assert_ptr_equal(r.node, nb->pdata[0]);

	/* a strictly better node wins without a draw */
	g_autoptr(ClusterSched) c = cluster_sched_new(&config);
	GPtrArray *nc = add_nodes(c, 4);
	cluster_sched_add_default_score_plugins(c);
	for (guint i = 0; i < 4; i++) {
		if (i != 2)
			((ClusterNode *)nc->pdata[i])->nonzero_requested.v[CLUSTER_RES_CPU] = 32000;
	}
	never.n_calls = 0;
	cluster_sched_schedule_one(c, pod, &r);
	assert_ptr_equal(r.node, nc->pdata[2]);
	assert_int_equal(never.n_calls, 0);
	/* Reserve added the pod's non-zero requests to the node */
	assert_int_equal(((ClusterNode *)nc->pdata[2])->nonzero_requested.v[CLUSTER_RES_CPU], 100);
	assert_int_equal(((ClusterNode *)nc->pdata[2])->requested.v[CLUSTER_RES_PODS], 1);
	g_ptr_array_unref(na);
	g_ptr_array_unref(nb);
	g_ptr_array_unref(nc);
}

static void
test_sched__single_feasible_node_is_not_scored(void **state)
{
	g_autoptr(ClusterSched) sched = cluster_sched_new(NULL);
	GPtrArray *nodes = add_nodes(sched, 3);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterScheduleResult r;

	cluster_sched_add_default_score_plugins(sched);
	cluster_node_set_label(nodes->pdata[1], "gpu", "h100");
	cluster_pod_add_node_selector(pod, "gpu", "h100");
	cluster_sched_schedule_one(sched, pod, &r);
	assert_ptr_equal(r.node, nodes->pdata[1]);
	assert_int_equal(cluster_sched_get_stats(sched)->score_calls, 0);
	assert_int_equal(r.rejected[CLUSTER_PLUGIN_NODE_AFFINITY], 2);
	g_ptr_array_unref(nodes);
}

/* A fake allocator: per-node verdicts, counting calls. */
typedef struct {
	ClusterStatus prefilter;
	ClusterStatus verdict[8];
	guint filter_calls, reserve_calls, postfilter_calls;
	const ClusterNode *reserved;
} FakeDra;

static ClusterStatus
fake_prefilter(gpointer data, const ClusterPod *pod, const char **reason)
{
	FakeDra *dra = data;

	*reason = "claim not found";
	return dra->prefilter;
}

static ClusterStatus
fake_filter(gpointer data,
            const ClusterPod *pod,
            const ClusterNode *node,
            gboolean *allocator_called,
            const char **reason)
{
	FakeDra *dra = data;

	dra->filter_calls++;
	*allocator_called = TRUE;
	*reason = "cannot allocate all claims";
	return dra->verdict[node->index];
}

static gboolean
fake_reserve(gpointer data, const ClusterPod *pod, const ClusterNode *node)
{
	FakeDra *dra = data;

	dra->reserve_calls++;
	dra->reserved = node;
	return TRUE;
}

static void
fake_postfilter(gpointer data, const ClusterPod *pod)
{
	((FakeDra *)data)->postfilter_calls++;
}

static const ClusterDraOps fake_ops = {
	.prefilter = fake_prefilter,
	.filter = fake_filter,
	.reserve = fake_reserve,
	.postfilter = fake_postfilter,
};

static void
test_sched__dynamic_resources(void **state)
{
	FakeDra dra = { 0 };
	ClusterSchedConfig config = { .dra = &fake_ops, .dra_data = &dra };
	g_autoptr(ClusterSched) sched = cluster_sched_new(&config);
	GPtrArray *nodes = add_nodes(sched, 5);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	g_autoptr(ClusterPod) plain = cluster_pod_new("plain", 2);
	ClusterScheduleResult r;

	pod->has_dra = TRUE;
	for (guint i = 0; i < 5; i++)
		dra.verdict[i] = CLUSTER_STATUS_UNSCHEDULABLE;
	dra.verdict[3] = CLUSTER_STATUS_SUCCESS;
	cluster_sched_schedule_one(sched, pod, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_SUCCESS);
	assert_ptr_equal(r.node, nodes->pdata[3]);
	assert_ptr_equal(dra.reserved, nodes->pdata[3]);
	assert_int_equal(r.rejected[CLUSTER_PLUGIN_DYNAMIC_RESOURCES], 4);
	assert_int_equal(cluster_sched_get_stats(sched)->allocator_calls, 5);

	/* a CEL runtime error on one node is fatal for the whole attempt */
	dra.verdict[1] = CLUSTER_STATUS_ERROR;
	dra.filter_calls = 0;
	cluster_sched_schedule_one(sched, pod, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_ERROR);
	assert_int_equal(r.rejectors, 0);
	assert_int_equal(dra.filter_calls, 2);
	assert_int_equal(cluster_sched_get_next_start_index(sched), 0);

	/* unschedulable everywhere: PostFilter runs */
	dra.verdict[1] = dra.verdict[3] = CLUSTER_STATUS_UNSCHEDULABLE;
	cluster_sched_schedule_one(sched, pod, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_UNSCHEDULABLE);
	assert_int_equal(r.rejectors, CLUSTER_PLUGIN_BIT(CLUSTER_PLUGIN_DYNAMIC_RESOURCES));
	assert_int_equal(dra.postfilter_calls, 1);

	/* PreFilter rejects before any node is looked at */
	dra.prefilter = CLUSTER_STATUS_UNSCHEDULABLE;
	dra.filter_calls = 0;
	cluster_sched_schedule_one(sched, pod, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_UNSCHEDULABLE);
	assert_int_equal(dra.filter_calls, 0);
	assert_string_equal(r.reason, "claim not found");

	/* pods without claims never reach the allocator */
	cluster_sched_schedule_one(sched, plain, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_SUCCESS);
	assert_int_equal(dra.filter_calls, 0);
	g_ptr_array_unref(nodes);
}

static void
test_sched__no_nodes_and_no_driver(void **state)
{
	g_autoptr(ClusterSched) sched = cluster_sched_new(NULL);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterScheduleResult r;
	GPtrArray *nodes;

	cluster_sched_schedule_one(sched, pod, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_UNSCHEDULABLE);
	assert_int_equal(r.rejectors, 0); /* ErrNoNodesAvailable: retried after backoff */
	nodes = add_nodes(sched, 2);
	pod->has_dra = TRUE;
	cluster_sched_schedule_one(sched, pod, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_UNSCHEDULABLE);
	assert_int_equal(r.rejectors, CLUSTER_PLUGIN_BIT(CLUSTER_PLUGIN_DYNAMIC_RESOURCES));
	cluster_sched_remove_node(sched, nodes->pdata[0]);
	assert_int_equal(cluster_sched_get_n_nodes(sched), 1);
	assert_int_equal(cluster_sched_get_node(sched, 0)->index, 0);
	g_ptr_array_unref(nodes);
}

static void
order(ClusterSched *sched, GString *out)
{
	g_string_truncate(out, 0);
	for (guint i = 0; i < cluster_sched_get_n_nodes(sched); i++) {
		ClusterNode *node = cluster_sched_get_node(sched, i);

		assert_int_equal(node->index, i);
		g_string_append_printf(out, "%s ", node->name);
	}
}

static void
test_sched__node_order_round_robins_zones(void **state)
{
	g_autoptr(ClusterSched) sched = cluster_sched_new(NULL);
	g_autoptr(GPtrArray) nodes =
	        g_ptr_array_new_with_free_func((GDestroyNotify)cluster_node_free);
	g_autoptr(GString) got = g_string_new(NULL);
	const char *spec[][2] = { { "a1", "a" }, { "b1", "b" }, { "a2", "a" },
		                  { "c1", "c" }, { "a3", "a" }, { "c2", "c" } };

	for (guint i = 0; i < G_N_ELEMENTS(spec); i++) {
		ClusterNode *node = big_node(spec[i][0]);

		cluster_node_set_label(node, "topology.kubernetes.io/zone", spec[i][1]);
		g_ptr_array_add(nodes, node);
		cluster_sched_add_node(sched, node);
	}
	order(sched, got);
	assert_string_equal(got->str, "a1 b1 c1 a2 c2 a3 ");
	/* removal keeps the zone's order; an empty zone leaves the rotation */
	cluster_sched_remove_node(sched, nodes->pdata[0]);
	order(sched, got);
	assert_string_equal(got->str, "a2 b1 c1 a3 c2 ");
	cluster_sched_remove_node(sched, nodes->pdata[1]);
	order(sched, got);
	assert_string_equal(got->str, "a2 c1 a3 c2 ");
}

/*
 * A pod running when the run starts is admitted on its node without a cycle
 * (cluster_sched_admit): on 500 nodes, pod "run" bound to node-0300 under a
 * NoSchedule taint and a cordon (the kubelet checks neither) adds its 4 CPUs
 * there and leaves nextStartNodeIndex at 0, no attempt, no filter call. The
 * first pending pod's cycle then starts at node-0000: 230 nodes looked at
 * (numFeasibleNodesToFind of 500), the next start 230, as
 * test_sched__rotating_start_index's first cycle. A node selector the node
 * lacks, or resources past its allocatable, refuse the admission and reserve
 * nothing. For comparison, a cycle pinned by kubernetes.io/hostname (what
 * drasim did before) looks at all 500 nodes, one feasible, and so leaves the
 * index where it was: (230 + 500) mod 500 = 230.
 */
static void
test_sched__admit_running_pod_without_a_cycle(void **state)
{
	g_autoptr(ClusterSched) sched = cluster_sched_new(NULL);
	GPtrArray *nodes = add_nodes(sched, 500);
	ClusterNode *home = nodes->pdata[300];
	g_autoptr(ClusterPod) run = cluster_pod_new("run", 1);
	g_autoptr(ClusterPod) wait = cluster_pod_new("wait", 2);
	g_autoptr(ClusterPod) pinned = cluster_pod_new("pinned", 3);
	g_autoptr(ClusterPod) picky = cluster_pod_new("picky", 4);
	ClusterScheduleResult r;

	(void)state;
	cluster_node_add_taint(home, "busy", "", CLUSTER_EFFECT_NO_SCHEDULE);
	home->unschedulable = TRUE;
	cluster_pod_set_request(run, CLUSTER_RES_CPU, 4000);
	run->bound = TRUE;
	cluster_sched_admit(sched, run, home, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_SUCCESS);
	assert_ptr_equal(r.node, home);
	assert_int_equal(home->requested.v[CLUSTER_RES_CPU], 4000);
	assert_int_equal(cluster_sched_get_next_start_index(sched), 0);
	assert_int_equal(cluster_sched_get_stats(sched)->attempts, 0);
	assert_int_equal(cluster_sched_get_stats(sched)->node_filter_calls, 0);

	cluster_pod_set_request(wait, CLUSTER_RES_CPU, 1);
	cluster_sched_schedule_one(sched, wait, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_SUCCESS);
	assert_int_equal(r.evaluated, 230);
	assert_int_equal(cluster_sched_get_next_start_index(sched), 230);

	cluster_node_set_label(nodes->pdata[7], "kubernetes.io/hostname", "node-0007");
	cluster_pod_add_node_selector(pinned, "kubernetes.io/hostname", "node-0007");
	cluster_sched_schedule_one(sched, pinned, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_SUCCESS);
	assert_int_equal(r.evaluated, 500);
	assert_int_equal(r.feasible, 1);
	assert_int_equal(cluster_sched_get_next_start_index(sched), 230);

	cluster_pod_add_node_selector(picky, "gpu", "h100");
	picky->bound = TRUE;
	cluster_sched_admit(sched, picky, home, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_UNSCHEDULABLE);
	assert_null(r.node);
	assert_non_null(r.reason);
	cluster_pod_set_request(run, CLUSTER_RES_CPU, 61000); /* 4000 + 61000 > 64000 */
	cluster_sched_admit(sched, run, home, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_UNSCHEDULABLE);
	assert_int_equal(home->requested.v[CLUSTER_RES_CPU], 4000);
	g_ptr_array_unref(nodes);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sched__num_feasible_nodes_to_find),
		cmocka_unit_test(test_sched__rotating_start_index),
		cmocka_unit_test(test_sched__infeasible_nodes_count_as_processed),
		cmocka_unit_test(test_sched__skip_reasons_keeps_rejections),
		cmocka_unit_test(test_sched__taints_and_tolerations),
		cmocka_unit_test(test_sched__node_affinity_operators),
		cmocka_unit_test(test_sched__resources_fit),
		cmocka_unit_test(test_sched__fit_scores_by_hand),
		cmocka_unit_test(test_sched__balanced_scores_by_hand),
		cmocka_unit_test(test_sched__helpers_by_hand),
		cmocka_unit_test(test_sched__taint_score_prefers_fewer_prefer_no_schedule),
		cmocka_unit_test(test_sched__select_host_reservoir),
		cmocka_unit_test(test_sched__single_feasible_node_is_not_scored),
		cmocka_unit_test(test_sched__dynamic_resources),
		cmocka_unit_test(test_sched__no_nodes_and_no_driver),
		cmocka_unit_test(test_sched__node_order_round_robins_zones),
		cmocka_unit_test(test_sched__admit_running_pod_without_a_cycle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
