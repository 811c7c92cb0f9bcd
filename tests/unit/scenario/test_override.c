/*
 * test_override.c: scenario_load_with(), a scenario changed by path before it
 * is decoded (what a sweep varies): a count, a pool picked by name, the mode
 * list, an added key; and the errors: a path that does not resolve (at the
 * override's origin, listing what is valid), a value that is not YAML, a value
 * of the wrong type (the decoder's error, at the replaced node in the scenario),
 * an added key the decoder does not know. data/override.yaml is the scenario;
 * its lines are quoted where a test counts columns.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "scenario_test_util.h"

/* A Sweep file's value at line 9, column 11 (the origin of most overrides here). */
#define ORIGIN                                                                                     \
	{                                                                                          \
		"sweep.yaml", 9, 11                                                                \
	}

/* data/override.yaml loaded with @n @ov; fails the test when it does not load. */
static Scenario *
load_with(const ScenarioOverride *ov, guint n)
{
	g_autofree char *path = scenario_test_data_path("override.yaml");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	Scenario *sc = scenario_load_with(path, ov, n, diags);

	if (sc == NULL)
		k8s_diag_list_print(diags, stderr);
	assert_non_null(sc);
	return sc;
}

/* The first error of loading data/override.yaml with @n @ov, as printed, with the
 * data folder cut from the file name. */
static char *
load_error(const ScenarioOverride *ov, guint n)
{
	g_autofree char *path = scenario_test_data_path("override.yaml");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load_with(path, ov, n, diags);
	g_autofree char *line = NULL;
	g_autofree char *dir = g_path_get_dirname(path);

	assert_null(sc);
	assert_true(k8s_diag_list_count_errors(diags) > 0);
	line = k8s_diag_format(k8s_diag_list_get(diags, 0));
	if (g_str_has_prefix(line, dir) && line[strlen(dir)] == G_DIR_SEPARATOR)
		return g_strdup(line + strlen(dir) + 1);
	return g_steal_pointer(&line);
}

static void
test_override__count_by_index_and_by_name(void **state)
{
	/* the file has dgx count 2 and small count 1 */
	const ScenarioOverride ov[] = {
		{ "spec.cluster.nodePools[0].count", "4", ORIGIN },
		{ "spec.cluster.nodePools[name=small].count", "3", ORIGIN },
	};
	g_autoptr(Scenario) plain = load_with(NULL, 0);
	g_autoptr(Scenario) sc = load_with(ov, 2);
	g_autoptr(Scenario) dgx_only = load_with(ov, 1);

	assert_int_equal(g_array_index(plain->pools, ScenarioPool, 0).count, 2);
	assert_int_equal(g_array_index(plain->pools, ScenarioPool, 1).count, 1);
	assert_int_equal(g_array_index(sc->pools, ScenarioPool, 0).count, 4);
	assert_int_equal(g_array_index(sc->pools, ScenarioPool, 1).count, 3);
	assert_int_equal(g_array_index(dgx_only->pools, ScenarioPool, 1).count, 1);
	/* the catalog and the manifests are still read from the scenario's folder:
	 * test-one-h100 is in data/one-h100.hw.yaml, the claims in explain-manifests */
	assert_non_null(hw_catalog_lookup_shape(sc->catalog, "test-one-h100"));
	assert_true(k8s_object_set_count(sc->objects) > 0);
}

static void
test_override__applied_in_order(void **state)
{
	const ScenarioOverride ov[] = {
		{ "spec.cluster.nodePools[0].count", "4", ORIGIN },
		{ "spec.cluster.nodePools[name=dgx].count", "5", ORIGIN },
	};
	g_autoptr(Scenario) sc = load_with(ov, 2);

	assert_int_equal(g_array_index(sc->pools, ScenarioPool, 0).count, 5);
}

static void
test_override__mode_list_replaced(void **state)
{
	const ScenarioOverride ov[] = {
		{ "spec.modes", "[{name: ext, world: extended}]", ORIGIN },
	};
	g_autoptr(Scenario) sc = load_with(ov, 1);

	assert_int_equal(sc->modes->len, 1);
	assert_string_equal(g_array_index(sc->modes, ScenarioMode, 0).name, "ext");
	assert_int_equal(g_array_index(sc->modes, ScenarioMode, 0).world, SCENARIO_WORLD_EXTENDED);
}

/* spec.modes[0] has no policy: the last step adds the key, and the decoder reads it:
 * a name, or a mapping given as YAML text (how a sweep varies a policy's shape). */
static void
test_override__added_key(void **state)
{
	const ScenarioOverride ov[] = {
		{ "spec.modes[0].policy", "MostAllocated", ORIGIN },
		{ "spec.modes[1].policy",
		  "{name: RequestedToCapacityRatio, shape: [{utilization: 0, score: 10}, "
		  "{utilization: 50, score: 0}]}",
		  ORIGIN },
	};
	g_autoptr(Scenario) plain = load_with(NULL, 0);
	g_autoptr(Scenario) sc = load_with(ov, 2);
	const ScenarioMode *rtcr = &g_array_index(sc->modes, ScenarioMode, 1);

	assert_string_equal(g_array_index(plain->modes, ScenarioMode, 0).policy.name,
	                    "LeastAllocated");
	assert_string_equal(g_array_index(sc->modes, ScenarioMode, 0).policy.name, "MostAllocated");
	assert_string_equal(rtcr->policy.name, "RequestedToCapacityRatio");
	assert_int_equal(rtcr->policy.n_shape, 2);
	assert_int_equal(rtcr->policy.shape[1].utilization, 50);
	assert_int_equal(rtcr->policy.shape[1].score, 0);
}

/* An added key the decoder does not know is its own error, at the mapping the key
 * was added to: line 18 "  - {name: dra, world: dra}", the '{' at column 5. */
static void
test_override__unknown_added_key(void **state)
{
	const ScenarioOverride ov[] = {
		{ "spec.modes[0].scor", "MostAllocated", ORIGIN },
	};
	g_autofree char *line = load_error(ov, 1);

	assert_string_equal(line, "override.yaml:18:5: error: unknown field 'scor'; did you mean "
	                          "'score'? [spec.modes[0].scor]");
}

/* A path that does not resolve: an error at the origin, naming the step and what is
 * there; the command line's origin has no line. */
static void
test_override__unknown_path(void **state)
{
	const ScenarioOverride ov[] = {
		{ "spec.clustr.nodePools[0].count", "4", ORIGIN },
		{ "spec.cluster.nodePools[name=gpu].count", "4", { "--vary 2", 0, 0 } },
		{ "spec.cluster.nodePools[2].count", "4", ORIGIN },
	};
	g_autofree char *typo = load_error(&ov[0], 1);
	g_autofree char *name = load_error(&ov[1], 1);
	g_autofree char *index = load_error(&ov[2], 1);

	assert_string_equal(typo, "sweep.yaml:9:11: error: spec.clustr: no key clustr; did you "
	                          "mean cluster? the keys here are horizon, cluster, workload, "
	                          "modes [spec.clustr.nodePools[0].count]");
	assert_string_equal(name, "--vary 2: error: spec.cluster.nodePools[name=gpu]: no item "
	                          "named gpu; the items are named dgx, small "
	                          "[spec.cluster.nodePools[name=gpu].count]");
	assert_string_equal(index, "sweep.yaml:9:11: error: spec.cluster.nodePools[2]: index out "
	                           "of range, the list has 2 items (0-1) "
	                           "[spec.cluster.nodePools[2].count]");
}

static void
test_override__bad_path_and_value_text(void **state)
{
	const ScenarioOverride ov[] = {
		{ "spec..count", "4", ORIGIN },
		{ "spec.horizon", "[1h", ORIGIN },
		{ "spec.horizon", "", ORIGIN },
		{ "spec.modes", "[{name: a, name: b}]", ORIGIN },
	};
	g_autofree char *path = load_error(&ov[0], 1);
	g_autofree char *yaml = load_error(&ov[1], 1);
	g_autofree char *empty = load_error(&ov[2], 1);
	g_autofree char *twice = load_error(&ov[3], 1);

	assert_true(g_str_has_prefix(path, "sweep.yaml:9:11: error: bad path (character 6): "
	                                   "expected a key after '.', got '.'"));
	assert_true(g_str_has_prefix(yaml, "sweep.yaml:9:11: error: the value [1h is not valid "
	                                   "YAML: "));
	assert_string_equal(empty, "sweep.yaml:9:11: error: expected one YAML value, got 0 "
	                           "documents (write null for no value) [spec.horizon]");
	assert_string_equal(twice, "sweep.yaml:9:11: error: the value [{name: a, name: b}] has "
	                           "the key name twice [spec.modes]");
}

/* A value of the wrong type is the decoder's error at the node it replaced: line 11
 * "    - {name: dgx, shape: dgx-h100, count: 2}", the 2 at column 43. */
static void
test_override__wrong_type(void **state)
{
	const ScenarioOverride ov[] = {
		{ "spec.cluster.nodePools[name=dgx].count", "many", ORIGIN },
		/* a document that is only null has no node of its own: null is put there */
		{ "spec.cluster.nodePools[name=dgx].count", "~", ORIGIN },
	};
	g_autofree char *line = load_error(&ov[0], 1);
	g_autofree char *null = load_error(&ov[1], 1);

	assert_string_equal(line, "override.yaml:11:43: error: expected an integer in [0, "
	                          "100000], got many [spec.cluster.nodePools[0].count]");
	assert_string_equal(null, "override.yaml:11:43: error: expected an integer in [0, "
	                          "100000], got null [spec.cluster.nodePools[0].count]");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_override__count_by_index_and_by_name),
		cmocka_unit_test(test_override__applied_in_order),
		cmocka_unit_test(test_override__mode_list_replaced),
		cmocka_unit_test(test_override__added_key),
		cmocka_unit_test(test_override__unknown_added_key),
		cmocka_unit_test(test_override__unknown_path),
		cmocka_unit_test(test_override__bad_path_and_value_text),
		cmocka_unit_test(test_override__wrong_type),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
