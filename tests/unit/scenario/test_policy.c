/*
 * test_policy.c: a mode's `policy:` end to end and its decoder errors. The
 * name comes from sim/cluster's table; the mapping's resources and shape are
 * checked as kube-scheduler checks NodeResourcesFitArgs and
 * NodeResourcesBalancedAllocationArgs (validation_pluginargs.go), each error at
 * FILE:LINE:COL with the field path and what is valid. Lines and columns are
 * counted by hand in the texts below (line 1 is apiVersion; a column is the
 * 1-based offset of the node in its line).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "cluster_sched.h"
#include "measure.h"
#include "scenario_test_util.h"

#define HEAD     "apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\nspec:\n"
#define ONE_POOL "  cluster:\n    nodePools: [{name: p, shape: dgx-h100}]\n"
/* lines 7 to 9; the policy's own keys start on line 10 at column 7 */
#define POLICY HEAD ONE_POOL "  modes:\n  - name: dra\n    policy:\n"
/* every name of sim/cluster's table, as an error lists them */
#define VALID                                                                                      \
	"LeastAllocated, MostAllocated, RequestedToCapacityRatio, BalancedAllocation, "            \
	"Random, DotProd, GpuClustering, GpuPacking, BestFit or FGD"

/*
 * data/policy.yaml: two empty nodes alike; `first` (a quarter of a node's cpu
 * and memory) lands on either, `second` (the same) arrives once it is bound.
 * On the node of `first` the utilisation with `second` would be 2q, on the
 * other q (q the quarter, integer percent of both resources):
 *  - least (LeastAllocated): 100 - 2q < 100 - q: the other node;
 *  - binpack (RequestedToCapacityRatio, default shape (0,0),(100,10)): the
 *    score rises with utilisation: 2q > q, the node of `first`;
 *  - spread (RTCR, shape (0,10),(100,0)): falls with it: the other node;
 *  - packcpu (extended world; MostAllocated over cpu:2): 2q > q: the same node.
 * BalancedAllocation is 100 on both nodes in every case (cpu and memory grow
 * alike), so the policies decide. Without sim/world applying the mode's
 * policy, all four would spread like least.
 */
static void
test_policy__modes_place_by_policy(void **state)
{
	const struct {
		const char *mode;
		gboolean same_node;
		const char *described;
	} cases[] = {
		{ "least", FALSE, "LeastAllocated" },
		{ "binpack", TRUE, "RequestedToCapacityRatio shape 0:0, 100:10" },
		{ "spread", FALSE, "RequestedToCapacityRatio shape 0:10, 100:0" },
		{ "packcpu", TRUE, "MostAllocated resources cpu:2" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(ScenarioResult) r = scenario_test_run_mode("policy.yaml", cases[i].mode);
		const ScenarioPodRecord *first = scenario_test_pod_record(r, "first", NULL);
		const ScenarioPodRecord *second = scenario_test_pod_record(r, "second", NULL);
		g_autofree char *path = scenario_test_data_path("policy.yaml");
		g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
		g_autoptr(Scenario) sc = scenario_load(path, diags);
		g_autofree char *described = NULL;

		assert_non_null(first->node);
		assert_non_null(second->node);
		if (cases[i].same_node)
			assert_string_equal(first->node, second->node);
		else
			assert_string_not_equal(first->node, second->node);
		described = cluster_score_policy_config_describe(
		        &scenario_lookup_mode(sc, cases[i].mode)->policy);
		assert_string_equal(described, cases[i].described);
	}
}

/* `score:` was the key before: a clear error naming the new key, at the old key
 * (line 8 "  - {name: dra, score: Most}": "  - {name: dra, " is 16 characters). */
static void
test_policy__score_key_is_now_policy(void **state)
{
	scenario_test_expect_error(HEAD ONE_POOL
	                           "  modes:\n  - {name: dra, score: MostAllocated}\n",
	                           "s.yaml:8:17: error: score: is now policy: (write policy: "
	                           "MostAllocated; it takes a name or {name, resources, shape}, "
	                           "docs/scenario.md) [spec.modes[0].score]");
}

/* The names of sim/cluster's table, all listed as valid (line 8, the value at
 * column 25: "  - {name: dra, policy: " is 24 characters). */
static void
test_policy__names(void **state)
{
	const char *const *names = cluster_sched_score_policy_names();

	assert_string_equal(names[0], "LeastAllocated");
	assert_string_equal(names[1], "MostAllocated");
	assert_string_equal(names[2], "RequestedToCapacityRatio");
	assert_string_equal(names[3], "BalancedAllocation");
	assert_string_equal(names[9], "FGD");
	assert_null(names[10]);
	scenario_test_expect_error(HEAD ONE_POOL "  modes:\n  - {name: dra, policy: Most}\n",
	                           "s.yaml:8:25: error: expected " VALID ", got \"Most\" "
	                           "[spec.modes[0].policy]");
	/* the mapping's name is checked alike (line 10 "      name: Tetris": column 13) */
	scenario_test_expect_error(POLICY "      name: Tetris\n",
	                           "s.yaml:10:13: error: expected " VALID ", got \"Tetris\" "
	                           "[spec.modes[0].policy.name]");
	/* a mapping without a name: at the mapping, line 10 column 7 */
	scenario_test_expect_error(POLICY "      resources: []\n",
	                           "s.yaml:10:7: error: expected a name: " VALID
	                           " [spec.modes[0].policy]");
}

/*
 * validateResources: a weight in (0, 100], 0 or unset meaning 1 (defaults.go);
 * the name one scoring can read. Line 12 "      - {name: cpu, weight: 101}":
 * "      - {" is 9 characters, "name: " 6 (the name at 16), "cpu, " 5 and
 * "weight: " 8 (the weight at 29).
 */
static void
test_policy__resources(void **state)
{
	const char *weights = POLICY "      name: MostAllocated\n      resources:\n"
	                             "      - {name: cpu, weight: 101}\n";
	const char *gpu = POLICY "      name: LeastAllocated\n      resources:\n"
	                         "      - {name: gpu, weight: 1}\n";

	scenario_test_expect_error(weights, "s.yaml:12:29: error: expected an integer in [0, 100], "
	                                    "got 101 [spec.modes[0].policy.resources[0].weight]");
	scenario_test_expect_error(gpu, "s.yaml:12:16: error: expected cpu, memory, "
	                                "ephemeral-storage or an extended resource name "
	                                "(domain/name, e.g. nvidia.com/gpu), got \"gpu\" "
	                                "[spec.modes[0].policy.resources[0].name]");
	/* an entry without a name: at its mapping, column 9 */
	scenario_test_expect_error(POLICY "      name: MostAllocated\n      resources:\n"
	                                  "      - {weight: 2}\n",
	                           "s.yaml:12:9: error: expected a name (e.g. cpu or "
	                           "nvidia.com/gpu) [spec.modes[0].policy.resources[0]]");
}

/* ValidateNodeResourcesBalancedAllocationArgs: every weight 1, each name once
 * (line 13 repeats line 12's resource; the second entry's '{' at column 9). */
static void
test_policy__balanced_resources(void **state)
{
	const char *weight = POLICY "      name: BalancedAllocation\n      resources:\n"
	                            "      - {name: cpu, weight: 2}\n";
	const char *twice = POLICY "      name: BalancedAllocation\n      resources:\n"
	                           "      - {name: cpu}\n      - {name: cpu}\n";

	scenario_test_expect_error(weight, "s.yaml:12:29: error: must be 1: BalancedAllocation "
	                                   "weighs every resource alike "
	                                   "(NodeResourcesBalancedAllocationArgs), got 2 "
	                                   "[spec.modes[0].policy.resources[0].weight]");
	scenario_test_expect_error(twice, "s.yaml:13:9: error: duplicate resource \"cpu\" "
	                                  "(BalancedAllocation lists each resource once) "
	                                  "[spec.modes[0].policy.resources[1]]");
}

/*
 * validateFunctionShape: at least one point, utilization in [0, 100] strictly
 * increasing, score in [0, 10]; and a shape only for RequestedToCapacityRatio.
 * Line 12 "      - {utilization: 0, score: 11}": "      - {" 9, "utilization: "
 * 13 (utilization at 23), "0, " 3, "score: " 7 (score at 33). "      shape: " is
 * 13 characters: the list at column 14.
 */
static void
test_policy__shape(void **state)
{
	const char *rtcr = POLICY "      name: RequestedToCapacityRatio\n      shape:\n";
	g_autofree char *score = g_strconcat(rtcr, "      - {utilization: 0, score: 11}\n", NULL);
	g_autofree char *util = g_strconcat(rtcr, "      - {utilization: 101, score: 1}\n", NULL);
	g_autofree char *order = g_strconcat(rtcr, "      - {utilization: 50, score: 1}\n",
	                                     "      - {utilization: 50, score: 2}\n", NULL);

	scenario_test_expect_error(score, "s.yaml:12:33: error: expected an integer in [0, 10], "
	                                  "got 11 [spec.modes[0].policy.shape[0].score]");
	scenario_test_expect_error(util, "s.yaml:12:23: error: expected an integer in [0, 100], "
	                                 "got 101 [spec.modes[0].policy.shape[0].utilization]");
	scenario_test_expect_error(
	        order, "s.yaml:13:23: error: values must be sorted in increasing "
	               "order: 50 follows 50 [spec.modes[0].policy.shape[1].utilization]");
	scenario_test_expect_error(POLICY "      name: RequestedToCapacityRatio\n      shape: []\n",
	                           "s.yaml:11:14: error: expected 1 to 16 points, got 0 "
	                           "[spec.modes[0].policy.shape]");
	scenario_test_expect_error(
	        POLICY "      name: MostAllocated\n      shape: []\n",
	        "s.yaml:11:14: error: only RequestedToCapacityRatio takes a "
	        "shape; MostAllocated takes resources [spec.modes[0].policy.shape]");
}

/*
 * data/policy-gpushare.yaml: two empty nodes of 2 GPUs, 32 cpu, 256 GiB each
 * (extended world, whole nvidia.com/gpu). `first` (1 GPU, 24 cpu, 64 GiB)
 * lands on either, call it A; `second` (1 GPU, 8 cpu, 64 GiB) arrives once it
 * is bound. With `second`, A would hold 32 of 32 cpu and 128 of 256 GiB, the
 * other node B 8 cpu and 64 GiB.
 *  - least (LeastAllocated over cpu and memory): A ((0 + 50) / 2 = 25) < B
 *    ((75 + 75) / 2 = 75), and BalancedAllocation is 100 on B (25 % and 25 %),
 *    less on A: B, another node.
 *  - bestfit (best_fit_score.go; max spec 32000 milli-CPU, 2000 milli-GPU):
 *    leftover A = 0.5 (8000 - 8000) / 32000 + 0.5 (1000 - 1000) / 2000 = 0,
 *    score 100; B = 0.5 × 24000 / 32000 + 0.5 × 1000 / 2000 = 0.625, score
 *    int(37.5) = 37; min-max normalised 100 and 0: A, the node of `first`.
 *  - packing (gpu_packing_score.go): A has 1 idle GPU of 2 and the pod takes
 *    it: max(50 - 1, 33) = 49; B is all idle: max(33 - 2, 2) = 31: A.
 *  - fgd: the task mix is both shapes, p 1/2 each. A now (8000 cpu, GPUs
 *    [0, 1000]): `first`'s shape fits the GPU but not the CPU, so its idle
 *    1000 is fragment (Q4): 500; `second`'s fits (Q3): 0. A after (0 cpu, no
 *    GPU free): 0. The fragment falls by 500: int(100 sigmoid(0.5)) = 62. B
 *    now (32000, [1000, 1000]) and after (24000, one idle GPU): both shapes
 *    fit, 0 and 0: int(100 sigmoid(0)) = 50. A.
 * Each of the paper's is alone in its profile, so the policy decides. Only the
 * paper's modes get the translation note that marks them beyond production.
 * The dra-* modes are the same in the DRA world: the pods' nvidia.com/gpu is
 * backed by gpu.nvidia.com (KEP-5004), each node has two whole GPU devices,
 * and the per-GPU state follows the claims' allocations; every number above
 * is the same (a GPU is idle or held, the CPU is the same), so the same node.
 * dra-pick and ext-pick are FGD with devicePick: policy: whole GPUs, the same
 * choice. On main the decoder refused the DRA world's six and devicePick, so
 * those runs failed to load.
 */
static void
test_policy__gpushare_modes_place_by_policy(void **state)
{
	const struct {
		const char *mode;
		gboolean same_node;
	} cases[] = {
		{ "least", FALSE },      { "bestfit", TRUE },    { "packing", TRUE },
		{ "fgd", TRUE },         { "dra-least", FALSE }, { "dra-bestfit", TRUE },
		{ "dra-packing", TRUE }, { "dra-fgd", TRUE },    { "dra-pick", TRUE },
		{ "ext-pick", TRUE },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(ScenarioResult) r =
		        scenario_test_run_mode("policy-gpushare.yaml", cases[i].mode);
		const ScenarioPodRecord *first = scenario_test_pod_record(r, "first", NULL);
		const ScenarioPodRecord *second = scenario_test_pod_record(r, "second", NULL);
		gboolean marked = FALSE;

		assert_non_null(first->node);
		assert_non_null(second->node);
		if (cases[i].same_node)
			assert_string_equal(first->node, second->node);
		else
			assert_string_not_equal(first->node, second->node);
		for (guint n = 0; n < r->notes->len; n++) {
			const ScenarioNote *note = g_ptr_array_index(r->notes, n);

			marked |= strcmp(note->object, "policy") == 0 &&
			          strstr(note->approx, "beyond production") != NULL;
		}
		assert_int_equal(marked, cases[i].same_node);
	}
}

/*
 * Where the paper's six have no per-GPU state they are refused at the policy:
 * a shared GPU (line 8, "  - {name: x, world: extended, sharing: {strategy:
 * time-slicing, replicas: 2}, policy: " is 87 characters) and resources they
 * do not take (the list at column 63). `devicePick: policy` needs one of the
 * six: line 8 "  - {name: x, policy: LeastAllocated, devicePick: " is 50
 * characters (the value at column 51), "  - {name: x, devicePick: " 26 (no
 * policy: LeastAllocated, column 27); a value other than production or policy,
 * "  - {name: x, policy: FGD, devicePick: " 39 (column 40). On main the DRA
 * world refused the six and devicePick was an unknown field.
 */
static void
test_policy__gpushare_refusals(void **state)
{
	scenario_test_expect_error(
	        HEAD ONE_POOL "  modes:\n  - {name: x, world: extended, sharing: {strategy: "
	                      "time-slicing, replicas: 2}, policy: BestFit}\n",
	        "s.yaml:8:88: error: score policy BestFit reads each GPU's free share, which a "
	        "time-sliced or MPS replica is not: use it with sharing strategy none "
	        "(docs/research/scenario-policies.md) [spec.modes[0].policy]");
	scenario_test_expect_error(
	        HEAD ONE_POOL "  modes:\n  - {name: x, world: extended, policy: {name: FGD, "
	                      "resources: []}}\n",
	        "s.yaml:8:63: error: FGD takes no resources: it scores CPU and GPUs as the FGD "
	        "paper defines it [spec.modes[0].policy.resources]");
	scenario_test_expect_error(
	        HEAD ONE_POOL
	        "  modes:\n  - {name: x, policy: LeastAllocated, devicePick: policy}\n",
	        "s.yaml:8:51: error: devicePick policy needs a policy that picks GPUs: Random, "
	        "DotProd, GpuClustering, GpuPacking, BestFit or FGD (policy is LeastAllocated); "
	        "with it, the valid value is production [spec.modes[0].devicePick]");
	scenario_test_expect_error(
	        HEAD ONE_POOL "  modes:\n  - {name: x, devicePick: policy}\n",
	        "s.yaml:8:27: error: devicePick policy needs a policy that picks GPUs: Random, "
	        "DotProd, GpuClustering, GpuPacking, BestFit or FGD (policy is LeastAllocated); "
	        "with it, the valid value is production [spec.modes[0].devicePick]");
	scenario_test_expect_error(
	        HEAD ONE_POOL "  modes:\n  - {name: x, policy: FGD, devicePick: first}\n",
	        "s.yaml:8:40: error: expected production or policy, got \"first\" "
	        "[spec.modes[0].devicePick]");
}

/*
 * A MIG instance is no share of one GPU: the run refuses the mode at its policy.
 * data/policy-gpushare.yaml line 22 "  - {name: fgdmig, world: extended, policy: ":
 * 44 characters, FGD at column 45; the fifth mode.
 */
static void
test_policy__gpushare_refuses_mig(void **state)
{
	g_autofree char *path = scenario_test_data_path("policy-gpushare.yaml");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	g_autoptr(GError) error = NULL;
	g_autoptr(ScenarioResult) r = NULL;
	g_autofree char *line = NULL;

	assert_non_null(sc);
	r = scenario_run(sc, scenario_lookup_mode(sc, "fgdmig"), 0, 0, NULL, NULL, diags, &error);
	assert_null(r);
	assert_non_null(error);
	assert_int_equal(k8s_diag_list_count(diags), 1);
	line = k8s_diag_format(k8s_diag_list_get(diags, 0));
	assert_non_null(strstr(line, "policy-gpushare.yaml:22:45: error: mode fgdmig: policy FGD "
	                             "reads each GPU's free share, which a MIG instance is not "
	                             "(node node-0 has MIG layout all-1g.10gb); use a mode without "
	                             "MIG (docs/research/scenario-policies.md) "
	                             "[spec.modes[4].policy]"));
}

/* A mig-reconfigure event would change the GPUs under the per-GPU state: refused at the policy. */
static void
test_policy__gpushare_refuses_mig_events(void **state)
{
	g_autofree char *path = scenario_test_data_path("policy-gpushare.yaml");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	ScenarioOverride events = {
		"spec.events",
		"[{at: 1h, action: mig-reconfigure, node: node-0, migConfig: all-1g.10gb}]",
		{ "--vary 1", 0, 0 }
	};
	g_autoptr(Scenario) sc = scenario_load_with(path, &events, 1, diags);
	g_autoptr(GError) error = NULL;
	g_autoptr(ScenarioResult) r = NULL;
	g_autofree char *line = NULL;

	(void)state;
	assert_non_null(sc);
	r = scenario_run(sc, scenario_lookup_mode(sc, "fgd"), 0, 0, NULL, NULL, diags, &error);
	assert_null(r);
	assert_non_null(error);
	line = k8s_diag_format(k8s_diag_list_get(diags, 0));
	assert_non_null(strstr(line, "error: mode fgd: policy FGD reads each GPU's free share, and "
	                             "spec.events[0] (mig-reconfigure"));
	assert_non_null(strstr(line, "[spec.modes[3].policy]"));
}

/*
 * data/policy-gpushare-dra.yaml: policy-gpushare.yaml's two nodes and pods in
 * the DRA world, `first` and `second` asking through a claim of one
 * gpu.nvidia.com device (ExactCount, count 1). Each node's two GPU devices are
 * its per-GPU state; a pod's request is its claim's one whole GPU, its CPU the
 * same as in the extended world. So every score of the extended test above is
 * the same here (BestFit 100 vs 37, GpuPacking 49 vs 31, FGD 62 vs 50, least
 * spreading): `second` joins `first` under the paper's three, not under least.
 */
static void
test_policy__gpushare_dra_claims_place_by_policy(void **state)
{
	const struct {
		const char *mode;
		gboolean same_node;
	} cases[] = {
		{ "least", FALSE }, { "bestfit", TRUE }, { "packing", TRUE }, { "fgd", TRUE }
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(ScenarioResult) r =
		        scenario_test_run_mode("policy-gpushare-dra.yaml", cases[i].mode);
		const ScenarioPodRecord *first = scenario_test_pod_record(r, "first", NULL);
		const ScenarioPodRecord *second = scenario_test_pod_record(r, "second", NULL);

		assert_non_null(first->node);
		assert_non_null(second->node);
		if (cases[i].same_node)
			assert_string_equal(first->node, second->node);
		else
			assert_string_not_equal(first->node, second->node);
	}
}

/* Runs @mode of data/policy-gpushare-dra.yaml with @value at @path; the run must
 * fail with one diagnostic containing @needle. */
static void
expect_run_refused(const char *path, const char *value, const char *mode, const char *needle)
{
	g_autofree char *file = scenario_test_data_path("policy-gpushare-dra.yaml");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	ScenarioOverride o = { path, value, { "--vary 1", 0, 0 } };
	g_autoptr(Scenario) sc = scenario_load_with(file, &o, path != NULL ? 1 : 0, diags);
	g_autoptr(GError) error = NULL;
	g_autoptr(ScenarioResult) r = NULL;
	g_autofree char *line = NULL;

	assert_non_null(sc);
	r = scenario_run(sc, scenario_lookup_mode(sc, mode), 0, 0, NULL, NULL, diags, &error);
	assert_null(r);
	assert_non_null(error);
	assert_int_equal(k8s_diag_list_count(diags), 1);
	line = k8s_diag_format(k8s_diag_list_get(diags, 0));
	if (strstr(line, needle) == NULL)
		fail_msg("%s\ndoes not contain\n%s", line, needle);
}

#define MANIFESTS(file) "[policy-gpushare-dra-manifests.yaml, policy-gpushare-dra-refused-" file "]"
#define FGD_AT                                                                                     \
	"policy-gpushare-dra.yaml:21:37: error: mode fgd: policy FGD reads each GPU's free "       \
	"share, "
#define USE_ANOTHER                                                                                \
	"; use a mode without it (docs/research/scenario-policies.md) [spec.modes[3].policy]"

/*
 * What the paper's six cannot score in the DRA world is refused at the mode's
 * policy (mode fgd, line 21 "  - {name: fgd, world: dra, policy: " is 36
 * characters: FGD at column 37): a claim of allocationMode All (how many GPUs
 * depends on the node), a MIG device, GpuConfig time-slicing, a prioritized
 * list of GPUs, a shared ResourceClaim of a GPU, a node of 16
 * GPUs (the memo key holds 8) and DynamicMIG (mode fgdmig, line 22, "  -
 * {name: fgdmig, world: dra, policy: " 39 characters). On main every DRA mode
 * with one of the six was refused at load, for want of the state.
 */
static void
test_policy__gpushare_dra_refusals(void **state)
{
	expect_run_refused("spec.workload.manifests", MANIFESTS("all.yaml"), "fgd",
	                   FGD_AT "and pod all asks for allocationMode All of gpu.nvidia.com: how "
	                          "many GPUs that is depends on the node, and the policy scores a "
	                          "known count" USE_ANOTHER);
	expect_run_refused("spec.workload.manifests", MANIFESTS("mig.yaml"), "fgd",
	                   FGD_AT "and pod mig asks for MIG devices, which are not shares of one "
	                          "GPU" USE_ANOTHER);
	expect_run_refused("spec.workload.manifests", MANIFESTS("sliced.yaml"), "fgd",
	                   FGD_AT "and pod sliced asks for GPU sharing (GpuConfig time-slicing or "
	                          "MPS): a replica is an advertised unit, not a measured share of "
	                          "a GPU" USE_ANOTHER);
	expect_run_refused("spec.workload.manifests", MANIFESTS("prio.yaml"), "fgd",
	                   FGD_AT
	                   "and pod prio has a prioritized list (firstAvailable) of GPUs: how "
	                   "many it takes is known only once the allocator chose a "
	                   "subrequest" USE_ANOTHER);
	expect_run_refused("spec.workload.manifests", MANIFESTS("shared.yaml"), "fgd",
	                   FGD_AT
	                   "and pod shared uses a shared ResourceClaim (resourceClaimName) of "
	                   "GPUs: its devices are taken once for every pod, the policy "
	                   "charges each pod" USE_ANOTHER);
	expect_run_refused("spec.cluster.nodePools",
	                   "[{name: node, shape: test-sixteen-h100, count: 1}]", "fgd",
	                   "policy-gpushare-dra.yaml:21:37: error: mode fgd: policy FGD handles "
	                   "nodes of at most 8 GPUs; node node-0 has 16 [spec.modes[3].policy]");
	expect_run_refused(NULL, NULL, "fgdmig",
	                   "policy-gpushare-dra.yaml:22:40: error: mode fgdmig: policy FGD reads "
	                   "each GPU's free share, which a MIG instance is not (node node-0 has "
	                   "MIG layout dynamic); use a mode without MIG "
	                   "(docs/research/scenario-policies.md) [spec.modes[4].policy]");
}

/*
 * The differential check: data/policy-gpushare-diff.yaml runs one workload
 * (nine pods of 0, 1 or 2 whole GPUs on three nodes of two, pods ending and
 * arriving, so GPUs are freed and taken again) under each of the six in the
 * extended world (state from the nvidia.com/gpu count) and in the DRA world
 * (state from the claims' devices). With whole GPUs the states are equal at
 * every cycle, and so every pod's node must be. (With the DRA hook turned
 * off, GpuPacking and FGD place p2, p4 and p9 elsewhere: the check sees it.)
 */
static void
test_policy__gpushare_dra_equals_extended(void **state)
{
	static const char *const six[] = { "Random",     "DotProd", "GpuClustering",
		                           "GpuPacking", "BestFit", "FGD" };
	static const char *const pods[] = { "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9" };

	for (guint i = 0; i < G_N_ELEMENTS(six); i++) {
		g_autofree char *ext_mode = g_strdup_printf("ext-%s", six[i]);
		g_autofree char *dra_mode = g_strdup_printf("dra-%s", six[i]);
		g_autoptr(ScenarioResult) ext =
		        scenario_test_run_mode("policy-gpushare-diff.yaml", ext_mode);
		g_autoptr(ScenarioResult) dra =
		        scenario_test_run_mode("policy-gpushare-diff.yaml", dra_mode);

		for (guint k = 0; k < G_N_ELEMENTS(pods); k++) {
			const ScenarioPodRecord *e = scenario_test_pod_record(ext, pods[k], NULL);
			const ScenarioPodRecord *d = scenario_test_pod_record(dra, pods[k], NULL);

			assert_non_null(e->node);
			assert_non_null(d->node);
			if (strcmp(e->node, d->node) != 0)
				fail_msg("%s: pod %s on %s (extended) and %s (dra)", six[i],
				         pods[k], e->node, d->node);
		}
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_policy__modes_place_by_policy),
		cmocka_unit_test(test_policy__score_key_is_now_policy),
		cmocka_unit_test(test_policy__names),
		cmocka_unit_test(test_policy__resources),
		cmocka_unit_test(test_policy__balanced_resources),
		cmocka_unit_test(test_policy__shape),
		cmocka_unit_test(test_policy__gpushare_modes_place_by_policy),
		cmocka_unit_test(test_policy__gpushare_refusals),
		cmocka_unit_test(test_policy__gpushare_refuses_mig),
		cmocka_unit_test(test_policy__gpushare_refuses_mig_events),
		cmocka_unit_test(test_policy__gpushare_dra_claims_place_by_policy),
		cmocka_unit_test(test_policy__gpushare_dra_refusals),
		cmocka_unit_test(test_policy__gpushare_dra_equals_extended),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
