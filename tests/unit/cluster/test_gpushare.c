/*
 * test_gpushare.c: Open-Gpu-Share's milli-GPU model (fit, GPU choice), the FGD
 * fragment and its memo, and the six score policies of the FGD paper on one
 * small node, every expected number worked by hand in the comments.
 *
 * The node of most tests: 4 GPUs of model 0 with free milli [1000, 300, 600,
 * 1000] (2,900 free), 16 CPUs free; two fractional pods already on it. The
 * cluster's largest node is 128 CPUs / 8 GPUs (the upstream constants).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "cluster_gpushare.h"
#include "cluster_plugin.h"
#include "cluster_sched.h"
#include "cluster_score.h"
#include "cluster_types.h"

#define MAX_CPU 128000
#define MAX_GPU 8000

/* A: 4 CPUs + half a GPU (p 0.5); B: 8 CPUs + one GPU (p 0.25); C: 2 CPUs, no GPU (p 0.25). */
static const ClusterGpuShareTask tasks[] = {
	{ 4000, { 1, 500, 0 }, 0.5 },
	{ 8000, { 1, 1000, 0 }, 0.25 },
	{ 2000, { 0, 0, 0 }, 0.25 },
};

typedef struct {
	ClusterGpuShare *share;
	ClusterNode *node;
	ClusterGpuShareNode g;
} Fixture;

static guint32
rand_last(gpointer data, guint32 n)
{
	return n - 1; /* the last of n: Random's node, never a reservoir swap */
}

static void
fixture_init(Fixture *f, guint32 cpu_left, const gint32 *free, guint n)
{
	f->share = cluster_gpushare_new(MAX_CPU, MAX_GPU, rand_last, NULL);
	cluster_gpushare_set_tasks(f->share, tasks, G_N_ELEMENTS(tasks));
	f->node = cluster_node_new("n");
	f->node->allocatable.v[CLUSTER_RES_CPU] = 32000;
	f->node->requested.v[CLUSTER_RES_CPU] = 32000 - cpu_left;
	f->node->allocatable.v[CLUSTER_RES_MEMORY] = 1 << 30;
	f->node->allocatable.v[CLUSTER_RES_PODS] = 110;
	cluster_gpushare_node_init(&f->g, f->share, 0, n);
	for (guint i = 0; i < n; i++)
		f->g.free[i] = free[i];
	f->node->gpushare = &f->g;
}

static void
fixture_std(Fixture *f)
{
	static const gint32 free[] = { 1000, 300, 600, 1000 };

	fixture_init(f, 16000, free, 4);
	f->g.affinity[0] = 2; /* the two fractional pods that took 700 and 400 */
	f->g.n_affinity = 1;
}

static void
fixture_clear(Fixture *f)
{
	cluster_node_free(f->node);
	cluster_gpushare_free(f->share);
}

static ClusterPod *
pod_new(gint64 cpu, ClusterGpuShareReq *req)
{
	ClusterPod *pod = cluster_pod_new("p", 1);

	cluster_pod_set_request(pod, CLUSTER_RES_CPU, cpu);
	pod->gpushare = req;
	return pod;
}

static void
test_gpushare__fit_and_pick(void **state)
{
	Fixture f;
	ClusterGpuShareReq half = { 1, 500, 0 }, two = { 2, 1000, 0 }, three = { 3, 1000, 0 };
	ClusterGpuShareReq other_model = { 1, 500, 1u << 1 }, cpu_only = { 0, 0, 0 };
	g_autoptr(ClusterPod) pod = pod_new(4000, &half);
	guint gpus[CLUSTER_GPUSHARE_MAX_GPUS];

	fixture_std(&f);
	/* 500 fits GPUs 0 (1000), 2 (600), 3 (1000); best fit is GPU 2, the least free */
	assert_true(cluster_gpushare_fits(&f.g, &half));
	assert_int_equal(cluster_gpushare_pick(CLUSTER_GPU_PICK_BEST, pod, f.node, gpus), 1);
	assert_int_equal(gpus[0], 2);
	/* random: reservoir over 0, 2, 3; the k-th keeps the draw 0 of [0, k), and the
	 * test's draw is k − 1, so the first stays: GPU 0 */
	assert_int_equal(cluster_gpushare_pick(CLUSTER_GPU_PICK_RANDOM, pod, f.node, gpus), 1);
	assert_int_equal(gpus[0], 0);
	/* two whole GPUs: the idle ones of lowest index, 0 and 3; three do not fit */
	pod->gpushare = &two;
	assert_int_equal(cluster_gpushare_pick(CLUSTER_GPU_PICK_BEST, pod, f.node, gpus), 2);
	assert_int_equal(gpus[0], 0);
	assert_int_equal(gpus[1], 3);
	assert_false(cluster_gpushare_fits(&f.g, &three));
	assert_false(cluster_gpushare_fits(&f.g, &other_model));
	assert_true(cluster_gpushare_fits(&f.g, &cpu_only));
	/* binding 2 × 1000 empties GPUs 0 and 3 and adds the 2-GPU class */
	cluster_gpushare_bind(f.node, pod, gpus, 2);
	assert_int_equal(cluster_gpushare_node_free_total(&f.g), 900);
	assert_int_equal(f.g.affinity[2], 1);
	assert_int_equal(f.g.n_affinity, 2);
	fixture_clear(&f);
}

static void
test_gpushare__frag_by_hand(void **state)
{
	Fixture f;
	static const gint32 permuted[] = { 600, 1000, 1000, 300 };
	ClusterGpuShareTask other = { 4000, { 1, 500, 1u << 1 }, 1.0 };
	guint64 lookups, misses;

	fixture_std(&f);
	/*
	 * 2,900 free. A fits (3 GPUs >= 500, 4 <= 16 CPUs): GPUs below 500 = 300,
	 * × 0.5 = 150. B fits (2 idle GPUs): GPUs below 1000 = 300 + 600 = 900,
	 * × 0.25 = 225. C asks no GPU: all 2,900 × 0.25 = 725. F = 1,100.
	 */
	assert_true(fabs(cluster_gpushare_node_frag(f.node) - 1100.0) < 1e-9);
	/* 6 CPUs free: B lacks CPU (Q4), all 2,900 × 0.25 = 725: F = 150 + 725 + 725 = 1,600 */
	assert_true(fabs(cluster_gpushare_frag(f.share, 0, 6000, f.g.free, 4) - 1600.0) < 1e-9);
	/* the same state in another GPU order is a memo hit: 2 misses so far (16 and 6 CPUs) */
	assert_true(fabs(cluster_gpushare_frag(f.share, 0, 16000, permuted, 4) - 1100.0) < 1e-9);
	cluster_gpushare_get_memo_stats(f.share, &lookups, &misses);
	assert_int_equal(lookups, 3);
	assert_int_equal(misses, 2);
	/* 14 CPUs free: the same tasks fit as with 16, so the same memo entry */
	assert_true(fabs(cluster_gpushare_frag(f.share, 0, 14000, f.g.free, 4) - 1100.0) < 1e-9);
	cluster_gpushare_get_memo_stats(f.share, &lookups, &misses);
	assert_int_equal(misses, 2);
	/* a task of model 1 only cannot use this model-0 node: all 2,900 (NoAccess) */
	cluster_gpushare_set_tasks(f.share, &other, 1);
	assert_true(fabs(cluster_gpushare_frag(f.share, 0, 16000, f.g.free, 4) - 2900.0) < 1e-9);
	fixture_clear(&f);
}

static void
test_gpushare__fgd_score_by_hand(void **state)
{
	Fixture f;
	ClusterGpuShareReq half = { 1, 500, 0 };
	g_autoptr(ClusterPod) pod = pod_new(4000, &half);
	guint gpus[CLUSTER_GPUSHARE_MAX_GPUS];
	gint gpu;

	fixture_std(&f);
	/*
	 * Before: F = 1,100. The pod leaves 12 CPUs (A, B, C still fit on CPU).
	 * On GPU 0: [500, 300, 600, 1000], 2,400 free: A 300 × 0.5 = 150,
	 *   B (500 + 300 + 600) × 0.25 = 350, C 2,400 × 0.25 = 600: F' = 1,100,
	 *   decrease 0: int(100 × sigmoid(0)) = 50.
	 * On GPU 2: [1000, 300, 100, 1000]: A (300 + 100) × 0.5 = 200, B 400 × 0.25
	 *   = 100, C 600: F' = 900, decrease 200: int(100 × sigmoid(0.2)) =
	 *   int(54.98) = 54.
	 * GPU 3 is GPU 0's state again. Best: GPU 2, 54.
	 */
	assert_int_equal(cluster_gpushare_fgd_score(pod, f.node, &gpu), 54);
	assert_int_equal(gpu, 2);
	assert_int_equal(cluster_gpushare_pick(CLUSTER_GPU_PICK_FGD, pod, f.node, gpus), 1);
	assert_int_equal(gpus[0], 2);
	fixture_clear(&f);
}

static gint64
score_with(ClusterScorePlugin *(*make)(void), const ClusterPod *pod, const ClusterNode *node)
{
	g_autoptr(ClusterScorePlugin) plugin = make();

	return plugin->klass->score(plugin, pod, node);
}

static void
test_gpushare__dotprod_by_hand(void **state)
{
	Fixture f;
	ClusterGpuShareReq half = { 1, 500, 0 };
	g_autoptr(ClusterPod) pod = pod_new(4000, &half);

	fixture_std(&f);
	/*
	 * node (16000/128000, 2900/8000) = (0.125, 0.3625), pod (4000/128000,
	 * 500/8000) = (0.03125, 0.0625): dot = 0.00390625 + 0.02265625 = 0.0265625;
	 * int(100 × (1 − 0.0265625 / 2)) = int(98.67) = 98.
	 */
	assert_int_equal(score_with(cluster_score_gpushare_dotprod_new, pod, f.node), 98);
	/* 20 CPUs asked, 16 free: no match group, 0 */
	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 20000);
	assert_int_equal(score_with(cluster_score_gpushare_dotprod_new, pod, f.node), 0);
	fixture_clear(&f);
}

static void
test_gpushare__clustering_by_hand(void **state)
{
	Fixture f;
	static const gint32 idle[] = { 1000, 1000, 1000, 1000 };
	ClusterGpuShareReq half = { 1, 500, 0 }, whole = { 1, 1000, 0 }, none = { 0, 0, 0 };
	g_autoptr(ClusterPod) pod = pod_new(4000, &half);

	fixture_std(&f);
	/* inside a band: 25 × (8000 − 2900) / 8000 = 127500 / 8000 = 15 (integers) */
	/* a fractional pod on a node holding only fractional pods: 15 + 75 = 90 */
	assert_int_equal(score_with(cluster_score_gpushare_clustering_new, pod, f.node), 90);
	/* a 1-GPU pod there: only another class, 15 + 0 */
	pod->gpushare = &whole;
	assert_int_equal(score_with(cluster_score_gpushare_clustering_new, pod, f.node), 15);
	/* with a 1-GPU pod bound too: its class among two, 15 + 50 = 65 */
	f.g.affinity[1] = 1;
	f.g.n_affinity = 2;
	assert_int_equal(score_with(cluster_score_gpushare_clustering_new, pod, f.node), 65);
	/* a CPU-only pod: 0 */
	pod->gpushare = &none;
	assert_int_equal(score_with(cluster_score_gpushare_clustering_new, pod, f.node), 0);
	fixture_clear(&f);
	/* an idle node, 4,000 free: 25 × 4000 / 8000 = 12, + 25 = 37 */
	fixture_init(&f, 16000, idle, 4);
	pod->gpushare = &half;
	assert_int_equal(score_with(cluster_score_gpushare_clustering_new, pod, f.node), 37);
	fixture_clear(&f);
}

static void
test_gpushare__packing_by_hand(void **state)
{
	Fixture f;
	static const gint32 idle[] = { 1000, 1000, 1000, 1000 };
	ClusterGpuShareReq half = { 1, 500, 0 }, two = { 2, 1000, 0 };
	g_autoptr(ClusterPod) pod = pod_new(4000, &half);

	fixture_std(&f);
	/* least free first: 300, 600, ...; 500 lands on the shared 600 GPU:
	 * 100 − (600 × 100 / 1000) / 10 = 100 − 6 = 94 */
	assert_int_equal(score_with(cluster_score_gpushare_packing_new, pod, f.node), 94);
	/* two whole GPUs take both idle ones: max(50 − 2, 33) = 48 */
	pod->gpushare = &two;
	assert_int_equal(score_with(cluster_score_gpushare_packing_new, pod, f.node), 48);
	fixture_clear(&f);
	/* an idle node of 4 GPUs: max(33 − 4, 4) = 29 */
	fixture_init(&f, 16000, idle, 4);
	assert_int_equal(score_with(cluster_score_gpushare_packing_new, pod, f.node), 29);
	fixture_clear(&f);
}

static void
test_gpushare__bestfit_by_hand(void **state)
{
	Fixture f;
	ClusterGpuShareReq half = { 1, 500, 0 };
	g_autoptr(ClusterPod) pod = pod_new(4000, &half);
	g_autoptr(ClusterScorePlugin) plugin = cluster_score_gpushare_bestfit_new();
	gint64 scores[] = { 80, 60, 70 };

	fixture_std(&f);
	/*
	 * leftover 0.5 × (16000 − 4000) / 128000 + 0.5 × (2900 − 500) / 8000 =
	 * 0.046875 + 0.15 = 0.196875: int(100 × 0.803125) = 80
	 */
	assert_int_equal(plugin->klass->score(plugin, pod, f.node), 80);
	/* min-max: (80, 60, 70) -> (100, 0, 50); all equal -> 0 */
	plugin->klass->normalize(plugin, pod, scores, 3);
	assert_int_equal(scores[0], 100);
	assert_int_equal(scores[1], 0);
	assert_int_equal(scores[2], 50);
	scores[0] = scores[1] = scores[2] = 7;
	plugin->klass->normalize(plugin, pod, scores, 3);
	assert_int_equal(scores[0], 0);
	fixture_clear(&f);
}

/*
 * Through the scheduler: Random's PreScore draws the last of three feasible
 * nodes (the test's draw), which alone scores 100. A node whose GPUs cannot
 * take the pod is rejected by Open-Gpu-Share's filter (under NodeResourcesFit).
 */
static void
test_gpushare__random_through_the_scheduler(void **state)
{
	static const gint32 idle[] = { 1000, 1000 }, busy[] = { 300, 200 };
	ClusterSchedConfig config = { .percentage_of_nodes_to_score = 100 };
	g_autoptr(ClusterSched) sched = cluster_sched_new(&config);
	ClusterGpuShareReq half = { 1, 500, 0 };
	g_autoptr(ClusterPod) pod = pod_new(4000, &half);
	Fixture f[4];
	ClusterScheduleResult r;
	ClusterGpuPick pick;

	for (guint i = 0; i < 4; i++) {
		fixture_init(&f[i], 16000, i == 1 ? busy : idle, 2);
		cluster_sched_add_node(sched, f[i].node);
	}
	for (guint i = 0; i < 4; i++)
		f[i].g.share = f[0].share; /* one cluster-wide context */
	assert_true(cluster_sched_add_score_policy(sched, "Random"));
	cluster_sched_schedule_one(sched, pod, &r);
	assert_int_equal(r.status, CLUSTER_STATUS_SUCCESS);
	assert_int_equal(r.feasible, 3);
	assert_int_equal(r.rejected[CLUSTER_PLUGIN_NODE_RESOURCES_FIT], 1);
	assert_ptr_equal(r.node, f[3].node);
	assert_true(cluster_sched_score_policy_gpu_pick("Random", &pick));
	assert_int_equal(pick, CLUSTER_GPU_PICK_RANDOM);
	assert_true(cluster_sched_score_policy_gpu_pick("FGD", &pick));
	assert_int_equal(pick, CLUSTER_GPU_PICK_FGD);
	assert_false(cluster_sched_score_policy_needs_gpushare("LeastAllocated"));
	assert_true(cluster_sched_score_policy_needs_gpushare("BestFit"));
	assert_false(cluster_sched_score_policy_gpu_pick("Tetris", &pick));
	for (guint i = 0; i < 4; i++)
		fixture_clear(&f[i]);
}

/*
 * The memo grows past its first table (4,096 slots, doubled at half full):
 * 1,000 free values of a 1-GPU node × 3 CPU bands (below 2, between 4 and 8,
 * above 8 CPUs) are 3,000 states, each a miss once; asked again, each is a hit
 * and equals the value a fresh context computes on its first (missed) lookup.
 */
static void
test_gpushare__memo_survives_growth(void **state)
{
	static const gint64 cpu[] = { 1000, 5000, 16000 };
	g_autoptr(ClusterGpuShare) share = cluster_gpushare_new(MAX_CPU, MAX_GPU, NULL, NULL);
	guint64 lookups, misses;

	cluster_gpushare_set_tasks(share, tasks, G_N_ELEMENTS(tasks));
	for (guint pass = 0; pass < 2; pass++) {
		for (gint32 free = 0; free < 1000; free++) {
			for (guint c = 0; c < G_N_ELEMENTS(cpu); c++) {
				g_autoptr(ClusterGpuShare) fresh =
				        cluster_gpushare_new(MAX_CPU, MAX_GPU, NULL, NULL);
				double got = cluster_gpushare_frag(share, 0, cpu[c], &free, 1),
				       want;

				cluster_gpushare_set_tasks(fresh, tasks, G_N_ELEMENTS(tasks));
				want = cluster_gpushare_frag(fresh, 0, cpu[c], &free, 1);
				/* bit for bit: the memo returns what was computed */
				assert_memory_equal(&got, &want, sizeof(double));
			}
		}
	}
	cluster_gpushare_get_memo_stats(share, &lookups, &misses);
	assert_int_equal(lookups, 6000);
	assert_int_equal(misses, 3000);
}

/*
 * A scenario's extended world tracks whole GPUs from the node's count of
 * resource slot 3 (nvidia.com/gpu there), through the scheduler's assume and
 * release. An idle node of 4 GPUs, 32 CPUs:
 *  - assume a 2-GPU pod: 4 - 2 = 2 idle, taken ones first: [0, 0, 1000, 1000]
 *    (2,000 free, 2 fully free), class 2 counted (one class present);
 *  - assume a 1-GPU pod: 1 idle: [0, 0, 0, 1000]; class 1 too (two classes);
 *  - release the 2-GPU pod: 3 idle: [0, 1000, 1000, 1000]; class 2 gone (one).
 * Each step drops the cached fragment. A node of the FGD protocol (no
 * tracking) keeps its state: only cluster_gpushare_bind changes it.
 */
static void
test_gpushare__whole_gpus_follow_assume_and_release(void **state)
{
	static const gint32 idle[] = { 1000, 1000, 1000, 1000 };
	ClusterSchedConfig config = { .percentage_of_nodes_to_score = 100 };
	g_autoptr(ClusterSched) sched = cluster_sched_new(&config);
	ClusterGpuShareReq two = { 2, 1000, 0 }, one = { 1, 1000, 0 };
	g_autoptr(ClusterPod) p2 = pod_new(8000, &two);
	g_autoptr(ClusterPod) p1 = pod_new(4000, &one);
	Fixture f, research;
	const gint32 after_two[] = { 0, 0, 1000, 1000 }, after_one[] = { 0, 0, 0, 1000 };
	const gint32 after_release[] = { 0, 1000, 1000, 1000 };

	fixture_init(&f, 32000, idle, 4);
	f.node->allocatable.v[3] = 4;
	cluster_gpushare_node_track_whole(&f.g, 3);
	cluster_pod_set_request(p2, 3, 2);
	cluster_pod_set_request(p1, 3, 1);
	f.g.frag_valid = TRUE;
	cluster_sched_assume(sched, p2, f.node);
	assert_memory_equal(f.g.free, after_two, sizeof(after_two));
	assert_int_equal(cluster_gpushare_node_free_total(&f.g), 2000);
	assert_int_equal(cluster_gpushare_node_fully_free(&f.g), 2);
	assert_int_equal(f.g.affinity[2], 1);
	assert_int_equal(f.g.n_affinity, 1);
	assert_false(f.g.frag_valid);
	cluster_sched_assume(sched, p1, f.node);
	assert_memory_equal(f.g.free, after_one, sizeof(after_one));
	assert_int_equal(f.g.affinity[1], 1);
	assert_int_equal(f.g.n_affinity, 2);
	f.g.frag_valid = TRUE;
	cluster_sched_release(sched, p2, f.node);
	assert_memory_equal(f.g.free, after_release, sizeof(after_release));
	assert_int_equal(f.g.affinity[2], 0);
	assert_int_equal(f.g.n_affinity, 1);
	assert_false(f.g.frag_valid);

	fixture_std(&research);
	cluster_sched_assume(sched, p1, research.node);
	assert_int_equal(research.g.free[1], 300);
	assert_int_equal(cluster_gpushare_node_free_total(&research.g), 2900);
	assert_int_equal(research.g.n_affinity, 1);
	fixture_clear(&research);
	fixture_clear(&f);
}

/*
 * FGD's task mix from pod counts (GetTypicalPods): shapes C (1 pod), B (7), A
 * (12), 20 pods. Most popular first: A, B, C. 95 % of 20 is 19: A covers 12,
 * A + B 19, which is not below 19: C is cut. Popularity over the 19 kept:
 * 12/19 and 7/19.
 */
static void
test_gpushare__popular_tasks(void **state)
{
	ClusterGpuShareTask shapes[] = {
		{ 2000, { 0, 0, 0 }, 1 },
		{ 8000, { 1, 1000, 0 }, 7 },
		{ 4000, { 2, 1000, 0 }, 12 },
	};
	g_autoptr(ClusterGpuShare) share = cluster_gpushare_new(MAX_CPU, MAX_GPU, rand_last, NULL);

	assert_int_equal(cluster_gpushare_set_popular_tasks(share, shapes, 3), 2);
	assert_int_equal(shapes[0].cpu_milli, 4000);
	assert_int_equal(shapes[1].cpu_milli, 8000);
	assert_true(fabs(shapes[0].p - 12.0 / 19.0) < 1e-12);
	assert_true(fabs(shapes[1].p - 7.0 / 19.0) < 1e-12);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpushare__fit_and_pick),
		cmocka_unit_test(test_gpushare__frag_by_hand),
		cmocka_unit_test(test_gpushare__memo_survives_growth),
		cmocka_unit_test(test_gpushare__fgd_score_by_hand),
		cmocka_unit_test(test_gpushare__dotprod_by_hand),
		cmocka_unit_test(test_gpushare__clustering_by_hand),
		cmocka_unit_test(test_gpushare__packing_by_hand),
		cmocka_unit_test(test_gpushare__bestfit_by_hand),
		cmocka_unit_test(test_gpushare__random_through_the_scheduler),
		cmocka_unit_test(test_gpushare__whole_gpus_follow_assume_and_release),
		cmocka_unit_test(test_gpushare__popular_tasks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
