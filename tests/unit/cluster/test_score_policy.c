/*
 * test_score_policy.c: kube-scheduler's own score policies through
 * cluster_sched_add_score_policy_config(), each placing a pod on the node
 * worked out by hand (and on a different node than LeastAllocated):
 * RequestedToCapacityRatio with the default and a given shape,
 * BalancedAllocation alone, a GPU-weighted resources list; the one-line
 * description reports print; what the function refuses.
 *
 * Every node has cpu 4000m and memory 8 GiB; the pod's requests are added to
 * the node's before scoring (NodeResourcesFit and BalancedAllocation score the
 * node as it would be). No node has a taint, so TaintToleration (w3) gives
 * every node 100 × 3 = 300 and never decides.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cluster_sched.h"
#include "cluster_score.h"
#include "cluster_types.h"

#define GI ((gint64)1 << 30)

typedef struct {
	gint64 cpu, memory, gpu_alloc, gpu; /* requested before the pod (cpu in millis) */
} NodeLoad;

/* A scheduler with one node per @loads entry, nodes in @nodes_out (the caller frees). */
static ClusterSched *
sched_with(const NodeLoad *loads, guint n, ClusterResNames *names, GPtrArray **nodes_out)
{
	ClusterSched *sched = cluster_sched_new(NULL); /* rand NULL: the first best node */
	GPtrArray *nodes = g_ptr_array_new_with_free_func((GDestroyNotify)cluster_node_free);
	gint gpu = cluster_res_names_intern(names, "nvidia.com/gpu");

	for (guint i = 0; i < n; i++) {
		g_autofree char *name = g_strdup_printf("n%u", i);
		ClusterNode *node = cluster_node_new(name);

		node->allocatable.v[CLUSTER_RES_CPU] = 4000;
		node->allocatable.v[CLUSTER_RES_MEMORY] = 8 * GI;
		node->allocatable.v[CLUSTER_RES_PODS] = 110;
		node->allocatable.v[gpu] = loads[i].gpu_alloc;
		node->requested.v[CLUSTER_RES_CPU] = loads[i].cpu;
		node->nonzero_requested.v[CLUSTER_RES_CPU] = loads[i].cpu;
		node->requested.v[CLUSTER_RES_MEMORY] = loads[i].memory;
		node->nonzero_requested.v[CLUSTER_RES_MEMORY] = loads[i].memory;
		node->requested.v[gpu] = loads[i].gpu;
		g_ptr_array_add(nodes, node);
		cluster_sched_add_node(sched, node);
	}
	*nodes_out = nodes;
	return sched;
}

/* The index of the node @config's policy puts a pod of @cpu millis, @memory bytes
 * and @gpus nvidia.com/gpu on; -1 when it binds nowhere. */
static gint
place(const NodeLoad *loads,
      guint n,
      const ClusterScorePolicyConfig *config,
      gint64 cpu,
      gint64 memory,
      gint64 gpus)
{
	g_autoptr(ClusterResNames) names = cluster_res_names_new();
	g_autoptr(GPtrArray) nodes = NULL;
	g_autoptr(ClusterSched) sched = sched_with(loads, n, names, &nodes);
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	ClusterScheduleResult r;

	assert_true(cluster_sched_add_score_policy_config(sched, config, names));
	cluster_pod_set_request(pod, CLUSTER_RES_CPU, cpu);
	cluster_pod_set_request(pod, CLUSTER_RES_MEMORY, memory);
	if (gpus > 0)
		cluster_pod_set_request(pod, cluster_res_names_lookup(names, "nvidia.com/gpu"),
		                        gpus);
	cluster_sched_schedule_one(sched, pod, &r);
	if (r.status != CLUSTER_STATUS_SUCCESS)
		return -1;
	for (guint i = 0; i < nodes->len; i++) {
		if (r.node == nodes->pdata[i])
			return (gint)i;
	}
	return -1;
}

static ClusterScorePolicyConfig
named(const char *name)
{
	ClusterScorePolicyConfig config;

	cluster_score_policy_config_init(&config);
	config.name = name;
	return config;
}

/*
 * Three nodes at 75 %, 37.5 % and 0 % of cpu and memory; the pod asks 500m and
 * 1 GiB (12.5 %). With the pod the utilisations are 87.5, 50 and 12.5 %,
 * integer percent 87, 50 and 12 for both resources; cpu and memory fractions
 * are equal on every node, so BalancedAllocation gives 100 everywhere and
 * NodeResourcesFit decides:
 *  - LeastAllocated: (100 - util) = 12, 50, 87: node 2;
 *  - MostAllocated: 87, 50, 12: node 0;
 *  - RequestedToCapacityRatio, default shape (0,0),(100,10), scores ×10 =
 *    (0,0),(100,100): 87, 50, 12: node 0 (bin packing);
 *  - RequestedToCapacityRatio, shape (0,0),(50,10),(100,0) = (0,0),(50,100),
 *    (100,0): node 0 100 + (0-100)(87-50)/50 = 100 - 74 = 26; node 1 at the
 *    peak 100; node 2 0 + 100 × 12 / 50 = 24: node 1.
 */
static void
test_policy__rtcr_shape_by_hand(void **state)
{
	const NodeLoad loads[] = { { 3000, 6 * GI, 0, 0 }, { 1500, 3 * GI, 0, 0 }, { 0, 0, 0, 0 } };
	ClusterScorePolicyConfig least = named("LeastAllocated");
	ClusterScorePolicyConfig most = named("MostAllocated");
	ClusterScorePolicyConfig rtcr = named("RequestedToCapacityRatio");

	assert_int_equal(place(loads, 3, &least, 500, GI, 0), 2);
	assert_int_equal(place(loads, 3, &most, 500, GI, 0), 0);
	assert_int_equal(place(loads, 3, &rtcr, 500, GI, 0), 0);
	rtcr.shape[0] = (ClusterShapePoint){ 0, 0 };
	rtcr.shape[1] = (ClusterShapePoint){ 50, 10 };
	rtcr.shape[2] = (ClusterShapePoint){ 100, 0 };
	rtcr.n_shape = 3;
	assert_int_equal(place(loads, 3, &rtcr, 500, GI, 0), 1);
	/* the same policy by name alone is the default shape's */
	g_autoptr(ClusterSched) sched = cluster_sched_new(NULL);
	assert_true(cluster_sched_add_score_policy(sched, "RequestedToCapacityRatio"));
}

/*
 * The pod asks 1000m and 1 GiB. With it the nodes' cpu and memory fractions are
 *  - node 0 (3000m, 1 GiB): 4000/4000 = 1, 2/8 = 0.25;
 *  - node 1 (2000m, 4 GiB): 0.75, 5/8 = 0.625;
 *  - node 2 (0m, 4 GiB): 0.25, 0.625.
 * BalancedAllocation: (1 - |a - b| / 2) × 100 = 62 (62.5), 93 (93.75), 81 (81.25):
 * node 1, the closest fractions. LeastAllocated adds NodeResourcesFit's
 * (cpu + memory) / 2 of free percent, nonzero requests: node 0 (0 + 75) / 2 = 37,
 * node 1 (25 + 37) / 2 = 31, node 2 (75 + 37) / 2 = 56; with BalancedAllocation
 * 62 + 37 = 99, 93 + 31 = 124, 81 + 56 = 137: node 2.
 */
static void
test_policy__balanced_allocation_by_hand(void **state)
{
	const NodeLoad loads[] = { { 3000, 1 * GI, 0, 0 },
		                   { 2000, 4 * GI, 0, 0 },
		                   { 0, 4 * GI, 0, 0 } };
	ClusterScorePolicyConfig balanced = named("BalancedAllocation");
	ClusterScorePolicyConfig least = named("LeastAllocated");

	assert_int_equal(place(loads, 3, &balanced, 1000, GI, 0), 1);
	assert_int_equal(place(loads, 3, &least, 1000, GI, 0), 2);
}

/*
 * MostAllocated over cpu:1, nvidia.com/gpu:3 (NodeResourcesFitArgs'
 * scoringStrategy.resources). Node 0: 3000m and 6 GiB, 1 of 8 GPUs; node 1:
 * nothing on cpu or memory, 6 of 8 GPUs. The pod asks 500m, 1 GiB, 1 GPU.
 *  - cpu:1, memory:1 (the default): node 0 (87 + 87) / 2 = 87, node 1
 *    (12 + 12) / 2 = 12; BalancedAllocation (cpu, memory) 100 on both: node 0.
 *  - cpu:1, nvidia.com/gpu:3: node 0 (87 + 3 × 25) / 4 = 162 / 4 = 40, node 1
 *    (12 + 3 × 87) / 4 = 273 / 4 = 68: node 1, the fuller GPUs.
 */
static void
test_policy__gpu_weighted_resources(void **state)
{
	const NodeLoad loads[] = { { 3000, 6 * GI, 8, 1 }, { 0, 0, 8, 6 } };
	ClusterScorePolicyConfig most = named("MostAllocated");

	assert_int_equal(place(loads, 2, &most, 500, GI, 1), 0);
	most.resources[0] = (ClusterPolicyResource){ g_strdup("cpu"), 1 };
	most.resources[1] = (ClusterPolicyResource){ g_strdup("nvidia.com/gpu"), 3 };
	most.n_resources = 2;
	assert_int_equal(place(loads, 2, &most, 500, GI, 1), 1);
	cluster_score_policy_config_clear(&most);
	assert_string_equal(most.name, "LeastAllocated");
	assert_int_equal(most.n_resources, 0);
}

/* The line reports print; RTCR shows the shape it uses, given or default. */
static void
test_policy__describe(void **state)
{
	ClusterScorePolicyConfig config = named("RequestedToCapacityRatio");
	g_autofree char *rtcr = cluster_score_policy_config_describe(&config);
	g_autofree char *least = NULL, *shaped = NULL, *weighted = NULL;

	assert_string_equal(rtcr, "RequestedToCapacityRatio shape 0:0, 100:10");
	config.resources[0] = (ClusterPolicyResource){ g_strdup("cpu"), 1 };
	config.n_resources = 1;
	config.shape[0] = (ClusterShapePoint){ 0, 0 };
	config.shape[1] = (ClusterShapePoint){ 50, 10 };
	config.shape[2] = (ClusterShapePoint){ 100, 0 };
	config.n_shape = 3;
	shaped = cluster_score_policy_config_describe(&config);
	assert_string_equal(shaped,
	                    "RequestedToCapacityRatio resources cpu:1; shape 0:0, 50:10, 100:0");
	cluster_score_policy_config_clear(&config);
	least = cluster_score_policy_config_describe(&config);
	assert_string_equal(least, "LeastAllocated");
	config.name = "BalancedAllocation";
	config.resources[0] = (ClusterPolicyResource){ g_strdup("cpu"), 1 };
	config.resources[1] = (ClusterPolicyResource){ g_strdup("nvidia.com/gpu"), 1 };
	config.n_resources = 2;
	weighted = cluster_score_policy_config_describe(&config);
	assert_string_equal(weighted, "BalancedAllocation resources cpu:1, nvidia.com/gpu:1");
	cluster_score_policy_config_clear(&config);
}

/* Unknown names and resource names without a run's table add nothing. */
static void
test_policy__refusals(void **state)
{
	g_autoptr(ClusterSched) sched = cluster_sched_new(NULL);
	ClusterScorePolicyConfig config = named("Tetris");

	assert_false(cluster_sched_add_score_policy_config(sched, &config, NULL));
	config = named("MostAllocated");
	config.resources[0] = (ClusterPolicyResource){ g_strdup("cpu"), 1 };
	config.n_resources = 1;
	assert_false(cluster_sched_add_score_policy_config(sched, &config, NULL));
	cluster_score_policy_config_clear(&config);
	assert_true(cluster_score_policy_takes_shape("RequestedToCapacityRatio"));
	assert_false(cluster_score_policy_takes_shape("MostAllocated"));
	assert_true(cluster_score_policy_balanced_resources("BalancedAllocation"));
	assert_false(cluster_score_policy_balanced_resources("LeastAllocated"));
	assert_false(cluster_sched_score_policy_needs_gpushare("BalancedAllocation"));
	assert_true(cluster_sched_score_policy_needs_gpushare("Random"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy__rtcr_shape_by_hand),
		cmocka_unit_test(test_policy__balanced_allocation_by_hand),
		cmocka_unit_test(test_policy__gpu_weighted_resources),
		cmocka_unit_test(test_policy__describe),
		cmocka_unit_test(test_policy__refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
