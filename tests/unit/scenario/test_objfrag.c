/*
 * test_objfrag.c: GPU fragmentation and the FGD paper's score policies on a
 * cluster given as objects (spec.cluster.objects; issue 16, gap d): placements
 * and FGD fragmentation worked out by hand on two nodes of two GPUs, the same
 * figures and placements as the equal catalog pool (whole GPUs under each of
 * the six policies in both worlds, and static MIG), and the refusals at the
 * mode's policy with FILE:LINE:COL and field path.
 *
 * The fragmentation figure (docs/reports.md, "Fragmentation") is, per sample,
 * Σ over nodes of Σ over tasks of weight × the free GPU the task cannot use
 * there (all of the node's free GPU when the node cannot host it), over the
 * cluster's GPUs; the task mix is the run's GPU pods' shapes.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "measure.h"
#include "scenario_test_util.h"

/* The catalog pool equal to objfrag/cluster-2.yaml (see its header). */
#define POOL_2                                                                                     \
	"{catalog: [two-h100.hw.yaml], nodePools: [{name: node, shape: test-two-h100, count: 2}]}"
#define POOL_3                                                                                     \
	"{catalog: [two-h100.hw.yaml], nodePools: [{name: node, shape: test-two-h100, count: 3}]}"
#define POOL_MIG                                                                                   \
	"{catalog: [two-h100.hw.yaml], nodePools: [{name: node, shape: test-two-h100, count: 1, "  \
	"mig: all-3g.40gb}]}"

/* Runs @mode of data/@file, its spec.cluster replaced by @cluster unless NULL;
 * returns the report as JSON (the mode's object is modes[0]). */
static cJSON *
run_report(const char *file, const char *cluster, const char *mode)
{
	g_autofree char *path = scenario_test_data_path(file);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	ScenarioOverride o = { "spec.cluster", cluster, { "--vary 1", 0, 0 } };
	g_autoptr(Scenario) sc = scenario_load_with(path, &o, cluster != NULL ? 1 : 0, diags);
	g_autoptr(GError) error = NULL;
	g_autoptr(ScenarioResult) r = NULL;
	g_autoptr(RptReport) report = NULL;
	g_autofree char *json = NULL;
	cJSON *root;

	if (sc == NULL)
		k8s_diag_list_print(diags, stderr);
	assert_non_null(sc);
	r = scenario_run(sc, scenario_lookup_mode(sc, mode), 0, 0, NULL, NULL, diags, &error);
	if (r == NULL) {
		k8s_diag_list_print(diags, stderr);
		fail_msg("%s: %s", mode, error->message);
	}
	report = scenario_report_build(sc, &r, 1);
	json = rpt_json_to_string(report);
	root = cJSON_Parse(json);
	assert_non_null(root);
	return root;
}

static const cJSON *
mode_of(const cJSON *root)
{
	const cJSON *m = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "modes"), 0);

	assert_non_null(m);
	return m;
}

/* The fragmentation sample @i (NaN when null). */
static double
frag_sample(const cJSON *root, int i)
{
	const cJSON *ts = cJSON_GetObjectItemCaseSensitive(mode_of(root), "timeseries");
	const cJSON *series = cJSON_GetObjectItemCaseSensitive(ts, "series");
	const cJSON *frag = cJSON_GetObjectItemCaseSensitive(series, "fragmentation");
	const cJSON *v = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(frag, "values"), i);

	assert_non_null(v);
	return cJSON_IsNumber(v) ? v->valuedouble : (double)NAN;
}

static double
frag_mean(const cJSON *root)
{
	const cJSON *metrics = cJSON_GetObjectItemCaseSensitive(mode_of(root), "metrics");
	const cJSON *frag = cJSON_GetObjectItemCaseSensitive(metrics, "fragmentation");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(frag, "value");

	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

/* The pod's field @key ("node", "devices"); NULL when absent. */
static const char *
pod_field(const cJSON *root, const char *pod, const char *key)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(mode_of(root), "pods"))
	{
		if (g_strcmp0(cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "name")),
		              pod) == 0)
			return cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, key));
	}
	fail_msg("no pod %s", pod);
	return NULL;
}

/*
 * data/objfrag.yaml: nodes node-0 and node-1 (2 H100, 32 cpu each) given as
 * objects; `first` (1 GPU, 24 cpu) at 0 lands on either, call it A; `second`
 * (1 GPU, 8 cpu) at 10m; `pair` (2 GPUs, 4 cpu) at 20m, 1h.
 *  - LeastAllocated: `second` spreads to B (test_policy.c works the scores
 *    out); then A and B each have one GPU free and `pair` waits until `first`
 *    ends at 2h, and runs on A.
 *  - FGD: the task mix is the three shapes, 1/3 each. For `second`: A now
 *    (8000 cpu, GPUs [0, 1000] milli free): `first`'s shape fits the GPU, not
 *    the CPU (Q4: 1000 × 1/3); `second`'s fits (Q3: no GPU with less than
 *    1000 free but the full one, whose free is 0: 0); `pair` lacks a second
 *    GPU (Q2: 1000 × 1/3): 666.7. A after: nothing free, 0. Score
 *    int(100 sigmoid(0.6667)) = int(66.08) = 66. B now (32000, [1000, 1000]):
 *    all three fit, 0. B after (24000, [0, 1000]): `first` and `second` fit
 *    (the taken GPU has 0 free: 0), `pair` lacks a GPU (1000 × 1/3): 333.3;
 *    int(100 sigmoid(-0.3333)) = int(41.74) = 41. `second` goes to A, and
 *    `pair` to B, the only node with two free GPUs, at once.
 * The same in both worlds (extended: nvidia.com/gpu derived from the slices;
 * DRA: the slices' GPU devices), and on objfrag-amd.yaml's AMD GPUs, whose
 * pods ask the AMD driver's class gpu.amd.com.
 */
/* The modes worked out by hand: objfrag.yaml's (NVIDIA) and objfrag-amd.yaml's (AMD). */
static const struct {
	const char *file, *mode;
	gboolean fgd;
} by_hand[] = {
	{ "objfrag.yaml", "ext-least", FALSE },     { "objfrag.yaml", "ext-fgd", TRUE },
	{ "objfrag.yaml", "dra-least", FALSE },     { "objfrag.yaml", "dra-fgd", TRUE },
	{ "objfrag-amd.yaml", "dra-least", FALSE }, { "objfrag-amd.yaml", "dra-fgd", TRUE },
};

static void
test_objfrag__placements_by_hand(void **state)
{
	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(by_hand); i++) {
		cJSON *root = run_report(by_hand[i].file, NULL, by_hand[i].mode);
		gboolean fgd = by_hand[i].fgd;
		const char *a = pod_field(root, "first", "node");
		g_autofree char *b = NULL, *both = NULL;

		assert_non_null(a);
		/* the other node: node-0 / node-1, amd-0 / amd-1 */
		b = g_strdup(a);
		b[strlen(b) - 1] = b[strlen(b) - 1] == '0' ? '1' : '0';
		both = g_strdup_printf("gpu:%s/gpu-0,gpu:%s/gpu-1", fgd ? b : a, fgd ? b : a);
		assert_string_equal(pod_field(root, "second", "node"), fgd ? a : b);
		assert_string_equal(pod_field(root, "pair", "node"), fgd ? b : a);
		assert_string_equal(pod_field(root, "pair", "devices"), both);
		cJSON_Delete(root);
	}
}

/*
 * The task mix of the fragmentation figure is the GPU pods' device counts:
 * one GPU (first, second: 2/3) and two GPUs (pair: 1/3). Samples every 5
 * minutes over 4 hours: 49, at 0, 5m, ..., 4h; a sample follows the binds of
 * its instant.
 *  - 0 and 5m (A: 1 free GPU, B: 2): on A the two-GPU task cannot run, 1 × 1/3;
 *    B hosts both: 0. 1/3 over 4 GPUs = 1/12, in every mode.
 *  - LeastAllocated, 10m to 1h55m (22 samples): A and B have 1 free GPU each:
 *    1/3 + 1/3 = 2/3, over 4 = 1/6. At 2h `first` ends and `pair` takes A;
 *    B keeps `second` until 2h10m: 1/3 over 4 = 1/12 at 2h and 2h05m; then
 *    0. Mean (2/12 + 22/6 + 2/12) / 49 = 4/49.
 *  - FGD, from 10m: A full, B free then full (`pair` until 1h20m) then
 *    free: 0; at 2h `first` ends, A has 1 GPU free until `second` ends at
 *    2h10m: 1/12 at 2h and 2h05m. Mean (4/12) / 49 = 1/147.
 * On main no figure at all: `-` for a cluster given as objects.
 */
static void
test_objfrag__fragmentation_by_hand(void **state)
{
	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(by_hand); i++) {
		cJSON *root = run_report(by_hand[i].file, NULL, by_hand[i].mode);
		gboolean fgd = by_hand[i].fgd;

		assert_float_equal(frag_sample(root, 0), 1.0 / 12, 1e-9);
		assert_float_equal(frag_sample(root, 1), 1.0 / 12, 1e-9);
		assert_float_equal(frag_sample(root, 3), fgd ? 0.0 : 1.0 / 6, 1e-9);
		assert_float_equal(frag_sample(root, 24), 1.0 / 12, 1e-9);
		assert_float_equal(frag_sample(root, 26), 0.0, 1e-9);
		assert_float_equal(frag_mean(root), fgd ? 1.0 / 147 : 4.0 / 49, 1e-8);
		cJSON_Delete(root);
	}
}

/*
 * data/objfrag-mig.yaml: one node given as objects, its 2 H100 in MIG layout
 * all-3g.40gb (two 3g.40gb instances each: 3 of 7 compute slices, memory
 * slices 0-3 and 4-7). Three pods take one MIG device each (two on gpu-0, one
 * on gpu-1, in device order); `whole` asks a whole GPU and never runs. Task
 * mix: a MIG device of any profile 3/4, a whole GPU 1/4. Free GPU: gpu-0
 * 1 - 6/7 = 1/7, gpu-1 1 - 3/7 = 4/7, 5/7 in all. The MIG task finds the free
 * 3g.40gb (usable 3/7): 5/7 - 3/7 = 2/7, × 3/4 = 6/28; no whole GPU is free,
 * so the whole task leaves all 5/7: × 1/4 = 5/28. 11/28 over 2 GPUs = 11/56 at
 * every sample. Mode ext: the device plugin's nvidia.com/mig-3g.40gb (derived
 * from the slices) names no parent GPU, so no figure (null), with a note.
 */
static void
test_objfrag__mig_by_hand(void **state)
{
	cJSON *root = run_report("objfrag-mig.yaml", NULL, "dra");
	const cJSON *metrics;
	char *notes;

	(void)state;
	assert_float_equal(frag_sample(root, 1), 11.0 / 56, 1e-9);
	assert_float_equal(frag_mean(root), 11.0 / 56, 1e-8);
	assert_string_equal(pod_field(root, "m-2", "devices"), "mig:node-0/gpu-1/mig-3g.40gb-0");
	assert_null(pod_field(root, "whole", "node"));
	cJSON_Delete(root);
	/* the extended world's nvidia.com/mig-3g.40gb name no GPU: no figure, and a note why */
	root = run_report("objfrag-mig.yaml", NULL, "ext");
	metrics = cJSON_GetObjectItemCaseSensitive(mode_of(root), "metrics");
	assert_true(cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(
	        cJSON_GetObjectItemCaseSensitive(metrics, "fragmentation"), "value")));
	notes = cJSON_PrintUnformatted(
	        cJSON_GetObjectItemCaseSensitive(mode_of(root), "translation"));
	assert_non_null(strstr(notes, "advertises nvidia.com/mig-3g.40gb, whose devices name no "
	                              "parent GPU nor placement: no GPU fragmentation figure"));
	free(notes);
	cJSON_Delete(root);
}

/*
 * data/objfrag-snapshot.yaml: a snapshot whose claim held-0, allocated in the
 * input, holds node-0's gpu-0 for the running pod `old` (1 cpu); `busy` (8
 * cpu, no GPU) runs on node-1; `new` (1 cpu, 1 GPU) is pending. BestFit
 * (max spec 32000 milli-CPU, 2000 milli-GPU), leftover = 0.5 (free CPU - 1000)
 * / 32000 + 0.5 (free GPU - 1000) / 2000:
 *  - node-0, gpu-0 held: 0.5 × 30000 / 32000 + 0 = 0.46875, score 53;
 *  - node-1: 0.5 × 23000 / 32000 + 0.5 × 1000 / 2000 = 0.609375, score 39.
 * So node-0, on its free gpu-1. Were the imported allocation not held in the
 * per-GPU state, node-0 would look all free (0.71875, score 28) and `new`
 * would go to node-1. On main the policy refused the objects; and `old`'s
 * claim (resourceClaimName) was refused as shared, though its pod is pinned.
 */
static void
test_objfrag__snapshot_allocations_held(void **state)
{
	cJSON *root = run_report("objfrag-snapshot.yaml", NULL, "dra-bestfit");

	(void)state;
	assert_string_equal(pod_field(root, "old", "devices"), "gpu:node-0/gpu-0");
	assert_string_equal(pod_field(root, "new", "node"), "node-0");
	assert_string_equal(pod_field(root, "new", "devices"), "gpu:node-0/gpu-1");
	cJSON_Delete(root);
}

/* Every figure, series, pod record and GPU picture of @mode equal with @cluster in @file. */
static void
expect_equal_to_pool(const char *file, const char *objects, const char *pool, const char *mode)
{
	static const char *const keys[] = { "metrics", "timeseries", "pods", "gpu_slices" };
	cJSON *a = run_report(file, objects, mode);
	cJSON *b = run_report(file, pool, mode);

	for (guint k = 0; k < G_N_ELEMENTS(keys); k++) {
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(mode_of(a), keys[k]);
		const cJSON *y = cJSON_GetObjectItemCaseSensitive(mode_of(b), keys[k]);

		if (!cJSON_Compare(x, y, TRUE)) {
			g_autofree char *xs = cJSON_PrintUnformatted(x);
			g_autofree char *ys = cJSON_PrintUnformatted(y);

			fail_msg("%s %s: %s differs\nobjects: %.600s\ncatalog: %.600s", file, mode,
			         keys[k], xs, ys);
		}
	}
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/*
 * A cluster given as objects equal to a catalog pool (the Nodes and slices
 * `drasim publish` prints for the pool's shape, nodes named as the pool names
 * them) gives the same report: objfrag.yaml's four modes, the differential
 * workload of test_policy.c (nine pods on three nodes, the paper's six in
 * both worlds, Random's draws included), and static MIG. The translation
 * notes differ (how the objects were read) and are not compared. On main
 * the paper's six refused the objects and the fragmentation was `-`.
 */
static void
test_objfrag__equals_catalog_pool(void **state)
{
	static const char *const six[] = { "Random",     "DotProd", "GpuClustering",
		                           "GpuPacking", "BestFit", "FGD" };
	static const char *const modes[] = { "ext-least", "ext-fgd", "dra-least", "dra-fgd" };

	(void)state;
	for (guint i = 0; i < G_N_ELEMENTS(modes); i++)
		expect_equal_to_pool("objfrag.yaml", NULL, POOL_2, modes[i]);
	for (guint i = 0; i < G_N_ELEMENTS(six); i++) {
		g_autofree char *ext = g_strdup_printf("ext-%s", six[i]);
		g_autofree char *dra = g_strdup_printf("dra-%s", six[i]);

		expect_equal_to_pool("policy-gpushare-diff.yaml",
		                     "{objects: [objfrag/cluster-3.yaml]}", POOL_3, ext);
		expect_equal_to_pool("policy-gpushare-diff.yaml",
		                     "{objects: [objfrag/cluster-3.yaml]}", POOL_3, dra);
	}
	expect_equal_to_pool("objfrag-mig.yaml", NULL, POOL_MIG, "dra");
}

/* Runs @mode of data/@file (spec.workload.manifests replaced by @manifests unless
 * NULL): it must fail with one diagnostic, @expected. */
static void
expect_refused(const char *file, const char *manifests, const char *mode, const char *expected)
{
	g_autofree char *path = scenario_test_data_path(file);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	ScenarioOverride o = { "spec.workload.manifests", manifests, { "--vary 1", 0, 0 } };
	g_autoptr(Scenario) sc = scenario_load_with(path, &o, manifests != NULL ? 1 : 0, diags);
	g_autoptr(GError) error = NULL;
	g_autoptr(ScenarioResult) r = NULL;
	g_autofree char *line = NULL;

	assert_non_null(sc);
	r = scenario_run(sc, scenario_lookup_mode(sc, mode), 0, 0, NULL, NULL, diags, &error);
	assert_null(r);
	assert_non_null(error);
	assert_int_equal(k8s_diag_list_count(diags), 1);
	line = k8s_diag_format(k8s_diag_list_get(diags, 0));
	if (strstr(line, expected) == NULL)
		fail_msg("%s\ndoes not contain\n%s", line, expected);
}

/*
 * What the per-GPU model cannot follow is refused at the mode's policy, as
 * on catalog nodes: GPUs the device plugin time-slices into replicas (the
 * extended world) and MIG devices (the DRA world). objfrag-refused.yaml line
 * 17 "  - {name: ext-fgd, world: extended, policy: " is 45 characters (FGD at
 * column 46); line 18 "  - {name: dra-bestfit, world: dra, policy: " 44
 * (column 45). On main: "node node-r: the mode's policy needs catalog-shape
 * nodes", with no position, path or reason. AMD's class is a GPU class like
 * NVIDIA's: allocationMode All of gpu.amd.com is refused as that of
 * gpu.nvidia.com is (objfrag-amd.yaml line 20, "  - {name: dra-fgd, world:
 * dra, policy: " 40 characters); on main the policies took such a claim for no
 * GPU at all and ran.
 */
static void
test_objfrag__refusals(void **state)
{
	(void)state;
	expect_refused("objfrag-refused.yaml", NULL, "ext-fgd",
	               "objfrag-refused.yaml:17:46: error: mode ext-fgd: policy FGD reads each "
	               "GPU's free share, and node node-r (spec.cluster.objects) shares its GPUs "
	               "through the device plugin (nvidia.com/gpu.replicas 2): a replica is an "
	               "advertised unit, not a measured share of a GPU; valid here: "
	               "kube-scheduler's policies (LeastAllocated, MostAllocated, "
	               "RequestedToCapacityRatio, BalancedAllocation), or remove the node "
	               "(docs/research/scenario-policies.md) "
	               "[spec.modes[0].policy]");
	expect_refused("objfrag-refused.yaml", NULL, "dra-bestfit",
	               "objfrag-refused.yaml:18:45: error: mode dra-bestfit: policy BestFit reads "
	               "each GPU's free share, and node node-0 (spec.cluster.objects) publishes "
	               "MIG device gpu-0-mig-3g40gb-9-0, which is not a share of one GPU; valid "
	               "here: kube-scheduler's policies (LeastAllocated, MostAllocated, "
	               "RequestedToCapacityRatio, BalancedAllocation), or remove the node "
	               "(docs/research/scenario-policies.md) [spec.modes[1].policy]");
	expect_refused("objfrag-amd.yaml", "[objfrag/amd-pods.yaml, objfrag/amd-all.yaml]",
	               "dra-fgd",
	               "objfrag-amd.yaml:20:41: error: mode dra-fgd: policy FGD reads each GPU's "
	               "free share, and pod all asks for allocationMode All of gpu.amd.com: how "
	               "many GPUs that is depends on the node, and the policy scores a known "
	               "count; use a mode without it (docs/research/scenario-policies.md) "
	               "[spec.modes[1].policy]");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objfrag__placements_by_hand),
		cmocka_unit_test(test_objfrag__fragmentation_by_hand),
		cmocka_unit_test(test_objfrag__mig_by_hand),
		cmocka_unit_test(test_objfrag__snapshot_allocations_held),
		cmocka_unit_test(test_objfrag__equals_catalog_pool),
		cmocka_unit_test(test_objfrag__refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
