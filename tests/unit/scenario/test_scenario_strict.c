/*
 * test_scenario_strict.c: scenario input that used to be accepted as something else
 * is an error at FILE:LINE:COL with the field path and what is valid: an empty
 * nodePools, integers that are not integers (.inf, .nan) or do not fit, two entries
 * for one object, two pools of one name, a MIG profile where a layout is expected,
 * a key given twice, a manifest object without a name. Lines and columns are counted by hand in the
 * texts below (line 1 is apiVersion; a column is the 1-based offset of the value in its line).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "cluster_sched.h"
#include "scenario_test_util.h"
#include "workload.h"

#define HEAD     "apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\nspec:\n"
#define ONE_POOL "  cluster:\n    nodePools: [{name: p, shape: dgx-h100}]\n"

/* The docs say "at least one"; an empty list built a cluster without nodes. */
static void
test_strict__empty_node_pools(void **state)
{
	/* line 6 "    nodePools: []": the list at column 16 */
	scenario_test_expect_error(HEAD "  cluster:\n    nodePools: []\n",
	                           "s.yaml:6:16: error: expected at least one node pool (or "
	                           "spec.cluster.objects), got an empty list "
	                           "[spec.cluster.nodePools]");
}

static void
test_strict__integers(void **state)
{
	/* line 6: ".inf" at column 51 of "    nodePools: [{name: p, shape: dgx-h100, count: " */
	scenario_test_expect_error(
	        HEAD "  cluster:\n    nodePools: [{name: p, shape: dgx-h100, count: .inf}]\n",
	        "s.yaml:6:51: error: expected an integer in [0, 100000], got .inf "
	        "[spec.cluster.nodePools[0].count]");
	/* 72 bits: strtoull saturated it to 2^64-1 and the seed was accepted */
	scenario_test_expect_error(HEAD "  seed: 0xFFFFFFFFFFFFFFFFFF\n" ONE_POOL,
	                           "s.yaml:5:9: error: expected an integer in [0, "
	                           "18446744073709551615], got 0xFFFFFFFFFFFFFFFFFF [spec.seed]");
	/* line 9 "    - {kind: Deployment, name: web, count: .nan}": .nan at 44;
	 * line 10 "    - {kind: Job, name: web, count: 9999...": the number at 37 */
	scenario_test_expect_error(HEAD ONE_POOL
	                           "  workload:\n    entries:\n"
	                           "    - {kind: Deployment, name: web, count: .nan}\n"
	                           "    - {kind: Job, name: w, count: "
	                           "99999999999999999999}\n",
	                           "s.yaml:9:44: error: expected an integer in [0, 10000000], got "
	                           ".nan [spec.workload.entries[0].count]");
	scenario_test_expect_error(HEAD ONE_POOL "  workload:\n    entries:\n"
	                                         "    - {kind: Job, name: web, count: "
	                                         "99999999999999999999}\n",
	                           "s.yaml:9:37: error: expected an integer in [0, 10000000], got "
	                           "99999999999999999999 [spec.workload.entries[0].count]");
}

/* The second entry for an object replaced the first silently. */
static void
test_strict__duplicate_entries(void **state)
{
	/* entries at lines 9, 10, 11; the third names Deployment web again, its name at
	 * column 32; the first entry's mapping starts on line 9. Job web is another object. */
	scenario_test_expect_error(HEAD ONE_POOL
	                           "  workload:\n    entries:\n"
	                           "    - {kind: Deployment, name: web, count: 2}\n"
	                           "    - {kind: Job, name: web}\n"
	                           "    - {kind: Deployment, name: web, compute: 0.5}\n",
	                           "s.yaml:11:32: error: a second entry for Deployment web (first "
	                           "at line 9): one entry per object; use count for copies "
	                           "[spec.workload.entries[2].name]");
}

/* Nodes are <pool>-<k>: two pools "a" made two nodes a-0, whose slices clashed. */
static void
test_strict__duplicate_pools(void **state)
{
	/* pools at lines 7, 8, 9; the third's name "a" at column 14 */
	scenario_test_expect_error(
	        HEAD "  cluster:\n    nodePools:\n"
	             "    - {name: a, shape: dgx-h100}\n"
	             "    - {name: b, shape: dgx-h100}\n"
	             "    - {name: a, shape: dgx-h100, count: 2}\n",
	        "s.yaml:9:14: error: duplicate node pool \"a\" (first at line 7): "
	        "pool names must be distinct [spec.cluster.nodePools[2].name]");
}

/* "mig: 1g.10gb" gave one instance per GPU; the layouts listed are the H100's. */
static void
test_strict__mig_profile_is_not_a_layout(void **state)
{
	/* line 6: the layout at column 49 */
	scenario_test_expect_error(
	        HEAD "  cluster:\n    nodePools: [{name: p, shape: dgx-h100, mig: 1g.10gb}]\n",
	        "s.yaml:6:49: error: MIG layout \"1g.10gb\": a MIG profile, not a layout: write "
	        "all-1g.10gb (as many as fit) or 1x1g.10gb (one instance); layouts for "
	        "h100-sxm5-80gb: all-disabled, all-enabled, all-balanced, all-1g.10gb, "
	        "all-1g.10gb+me, all-1g.20gb, all-2g.20gb, all-3g.40gb, all-4g.40gb, all-7g.80gb, "
	        "or a list like 2x1g.10gb [spec.cluster.nodePools[0].mig]");
}

/* spec.modes[].mig overrides: a bad layout failed only when the mode ran (no position),
 * a pool that does not exist was ignored. Checked at load now, after the cluster. */
static void
test_strict__mode_layouts(void **state)
{
	static const char text[] = HEAD ONE_POOL "  modes:\n"
	                                         "  - {name: dra, mig: {p: 1g.10gb}}\n"
	                                         "  - {name: other, mig: {q: all-1g.10gb}}\n";

	/* line 8: the layout at column 26; line 9: the layout of pool q at column 28 */
	scenario_test_expect_error(text, "s.yaml:8:26: error: MIG layout \"1g.10gb\": a MIG "
	                                 "profile, not a layout: write all-1g.10gb");
	scenario_test_expect_error(text, "s.yaml:9:28: error: expected the name of a pool of "
	                                 "spec.cluster.nodePools, got \"q\" [spec.modes[1].mig.q]");
}

/* The scenario reads model/api's tree, where a repeated key is reported and dropped. */
static void
test_strict__duplicate_key(void **state)
{
	scenario_test_expect_error(HEAD "  horizon: 1h\n  horizon: 2h\n" ONE_POOL,
	                           "s.yaml:6:3: error: duplicate key 'horizon' (first at line 5)");
}

/* `arrival.process` and its parameters come from sim/workload's tables
 * (workload_arrival.c). Line 9 is the entry; columns: "    - {" is 7 characters,
 * "kind: Job, " 11, "name: w, " 9, "arrival: {" 10, "process: " 9, so the process
 * name is at column 47; "burst, " is 7 more and "burstSize: " 11, so its value is at 65. */
static void
test_strict__arrival_process(void **state)
{
	const char *const *names = workload_arrival_names();

	assert_string_equal(names[WORKLOAD_ARRIVAL_POISSON], "poisson");
	assert_string_equal(names[WORKLOAD_ARRIVAL_DIURNAL], "diurnal");
	assert_null(names[WORKLOAD_ARRIVAL_DIURNAL + 1]);
	scenario_test_expect_error(
	        HEAD ONE_POOL "  workload:\n    entries:\n"
	                      "    - {kind: Job, name: w, arrival: {process: poison}}\n",
	        "s.yaml:9:47: error: expected poisson, fixed-rate, burst or diurnal, "
	        "got \"poison\" [spec.workload.entries[0].arrival.process]");
	scenario_test_expect_error(
	        HEAD ONE_POOL "  workload:\n    entries:\n"
	                      "    - {kind: Job, name: w, arrival: {process: burst, "
	                      "burstSize: -1}}\n",
	        "s.yaml:9:65: error: expected an integer in [0, 1000000], got -1 "
	        "[spec.workload.entries[0].arrival.burstSize]");
}

/* A manifest object without metadata.name: the world indexes objects by name, and a
 * nameless claim crashed `drasim run` (found with tests/fuzz). The claim's metadata is
 * on line 3 of m.yaml, its value at column 11. */
static void
test_strict__nameless_object(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("drasim-nameless-XXXXXX", NULL);
	g_autofree char *scenario = g_build_filename(dir, "s.yaml", NULL);
	g_autofree char *manifest = g_build_filename(dir, "m.yaml", NULL);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();

	assert_true(g_file_set_contents(
	        scenario, HEAD ONE_POOL "  workload:\n    manifests: [m.yaml]\n", -1, NULL));
	assert_true(g_file_set_contents(manifest,
	                                "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
	                                "metadata: {namespace: default}\nspec: {}\n",
	                                -1, NULL));
	assert_null(scenario_load(scenario, diags));
	const K8sDiag *d = k8s_diag_list_find(diags, "name or generateName is required");
	assert_non_null(d);
	assert_int_equal(d->pos.line, 3);
	assert_int_equal(d->pos.col, 11);
	g_remove(scenario);
	g_remove(manifest);
	g_rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strict__empty_node_pools),
		cmocka_unit_test(test_strict__integers),
		cmocka_unit_test(test_strict__duplicate_entries),
		cmocka_unit_test(test_strict__nameless_object),
		cmocka_unit_test(test_strict__duplicate_pools),
		cmocka_unit_test(test_strict__mig_profile_is_not_a_layout),
		cmocka_unit_test(test_strict__mode_layouts),
		cmocka_unit_test(test_strict__duplicate_key),
		cmocka_unit_test(test_strict__arrival_process),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
