/*
 * test_sweep_spec.c: a sweep as written (sim/sweep's spec): the kind: Sweep
 * file (data/capacity.yaml, and broken ones written to a temporary folder),
 * seed lists, `--vary PATH=V1,V2`, and sweep_spec_check()'s errors before
 * anything runs: an unknown path (once, at the path, listing what is valid),
 * a value of the wrong type (at the value, quoting the scenario's message),
 * a grid beyond the bounds. Lines and columns are counted in the texts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "sweep.h"

static char *
data_path(const char *name)
{
	return g_build_filename(DRASIM_TEST_DATA, name, NULL);
}

static const SweepParam *
param(const SweepSpec *spec, guint i)
{
	assert_true(i < spec->params->len);
	return &g_array_index(spec->params, SweepParam, i);
}

static const char *
value(const SweepSpec *spec, guint p, guint v)
{
	assert_true(v < param(spec, p)->values->len);
	return param(spec, p)->values->pdata[v];
}

/* Every diagnostic of @diags as printed, one per line. */
static char *
diag_text(const K8sDiagList *diags)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		g_autofree char *line = k8s_diag_format(k8s_diag_list_get(diags, i));

		g_string_append_printf(out, "%s\n", line);
	}
	return g_string_free(out, FALSE);
}

static void
test_sweep_spec__load_file(void **state)
{
	g_autofree char *path = data_path("capacity.yaml");
	g_autofree char *scenario = data_path("scenario.yaml");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(SweepSpec) spec = sweep_spec_load(path, diags);
	const guint64 seeds[] = { 1, 2, 3, 7 }; /* seeds: 1-3,7 */
	K8sPos pos;

	if (spec == NULL)
		k8s_diag_list_print(diags, stderr);
	assert_non_null(spec);
	assert_string_equal(spec->name, "capacity");
	assert_string_equal(spec->file, path);
	/* relative to the Sweep file's folder */
	assert_string_equal(spec->scenario, scenario);
	assert_int_equal(spec->seeds->len, 4);
	assert_memory_equal(spec->seeds->data, seeds, sizeof seeds);
	assert_int_equal(spec->horizon, SIM_TIME_DAY);
	assert_int_equal(spec->params->len, 2);
	assert_string_equal(param(spec, 0)->path, "spec.cluster.nodePools[name=dgx].count");
	assert_string_equal(value(spec, 0, 0), "2");
	assert_string_equal(value(spec, 0, 1), "3");
	/* line 14 "    - 3": the 3 at column 7 */
	pos = g_array_index(param(spec, 0)->value_pos, K8sPos, 1);
	assert_string_equal(pos.file, path);
	assert_int_equal(pos.line, 14);
	assert_int_equal(pos.col, 7);
	/* values are kept as flow text, whatever style they were written in */
	assert_string_equal(value(spec, 1, 0), "[{name: dra, world: dra}]");
	assert_string_equal(value(spec, 1, 1), "[{name: e, world: extended}]");
	/* and every value, put in alone, gives a scenario that loads */
	assert_true(sweep_spec_check(spec, diags));
	assert_int_equal(k8s_diag_list_count(diags), 0);
}

/* The JSON twin of capacity.yaml (the schema's test document) is the same sweep. */
static void
test_sweep_spec__load_json_twin(void **state)
{
	g_autofree char *yaml_path = data_path("capacity.yaml");
	g_autofree char *json_path = data_path("capacity.json");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(SweepSpec) yaml = sweep_spec_load(yaml_path, diags);
	g_autoptr(SweepSpec) json = sweep_spec_load(json_path, diags);

	assert_int_equal(k8s_diag_list_count(diags), 0);
	assert_string_equal(yaml->name, json->name);
	assert_string_equal(yaml->scenario, json->scenario);
	assert_int_equal(yaml->horizon, json->horizon);
	assert_int_equal(yaml->seeds->len, json->seeds->len);
	assert_memory_equal(yaml->seeds->data, json->seeds->data, yaml->seeds->len * 8);
	assert_int_equal(yaml->params->len, json->params->len);
	for (guint p = 0; p < yaml->params->len; p++) {
		assert_string_equal(param(yaml, p)->path, param(json, p)->path);
		assert_int_equal(param(yaml, p)->values->len, param(json, p)->values->len);
		for (guint v = 0; v < param(yaml, p)->values->len; v++)
			assert_string_equal(value(yaml, p, v), value(json, p, v));
	}
}

static void
test_sweep_spec__seeds(void **state)
{
	static const struct {
		const char *text;
		guint n;         /* seeds parsed, or 0 for an error */
		const char *err; /* the error's start */
	} cases[] = {
		{ "1-10", 10, NULL },
		{ "7", 1, NULL },
		{ " 1-5, 9 ", 6, NULL },
		{ "5-1", 0, "the range 5-1 is empty: write the smaller seed first, like 1-5" },
		{ "3,1-4", 0, "seed 3 is given twice" },
		{ "0-3", 0, "seed 0 is not valid: seeds start at 1" },
		{ "x", 0,
		  "\"x\" is not a seed (expected an integer, got \"x\"); write seeds like "
		  "1-10, 7 or 1-5,9" },
		{ "-3", 0, "\"-3\" is not a seed" },
		{ "", 0, "no seeds given; write seeds like 1-10, 7 or 1-5,9" },
		{ "1,,2", 0, "an empty item in the seeds \"1,,2\"" },
		/* 100,001 seeds, and 2^63 - 1 of them: refused before a single one is added */
		{ "1-100001", 0, "more than 100000 seeds" },
		{ "1-9223372036854775807", 0, "more than 100000 seeds" },
		{ "9223372036854775808", 0,
		  "\"9223372036854775808\" is not a seed (expected an "
		  "integer" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GArray) seeds = g_array_new(FALSE, FALSE, sizeof(guint64));
		g_autoptr(GError) error = NULL;
		gboolean ok = sweep_seeds_parse(cases[i].text, seeds, &error);

		if (cases[i].n > 0) {
			if (!ok)
				fail_msg("%s: %s", cases[i].text, error->message);
			assert_int_equal(seeds->len, cases[i].n);
		} else if (ok || !g_str_has_prefix(error->message, cases[i].err)) {
			fail_msg("%s: expected \"%s\", got %s", cases[i].text, cases[i].err,
			         ok ? "success" : error->message);
		} else {
			assert_true(g_error_matches(error, SWEEP_ERROR, SWEEP_ERROR_INPUT));
		}
	}
	/* 100,000 seeds is the most (100000 - 1 + 1) */
	{
		g_autoptr(GArray) seeds = g_array_new(FALSE, FALSE, sizeof(guint64));

		assert_true(sweep_seeds_parse("1-100000", seeds, NULL));
		assert_int_equal(seeds->len, SWEEP_MAX_SEEDS);
		assert_int_equal(g_array_index(seeds, guint64, 99999), 100000);
	}
}

static void
test_sweep_spec__vary(void **state)
{
	g_autoptr(SweepSpec) spec = sweep_spec_new("cli", "/nowhere/scenario.yaml");
	g_autoptr(GError) error = NULL;
	K8sPos pos;

	/* the '=' inside [name=dgx] is part of the path */
	assert_true(sweep_spec_add_vary(spec, "spec.cluster.nodePools[name=dgx].count=2,3,4", 1,
	                                &error));
	assert_string_equal(param(spec, 0)->path, "spec.cluster.nodePools[name=dgx].count");
	assert_int_equal(param(spec, 0)->values->len, 3);
	assert_string_equal(value(spec, 0, 2), "4");
	pos = param(spec, 0)->pos;
	assert_string_equal(pos.file, "--vary 1");
	assert_int_equal(pos.line, 0);
	/* commas inside brackets and braces do not split; the text is made canonical */
	assert_true(
	        sweep_spec_add_vary(spec, "spec.modes=[dra],[dra,extended],{a: [1,2]}", 2, &error));
	assert_int_equal(param(spec, 1)->values->len, 3);
	assert_string_equal(value(spec, 1, 0), "[dra]");
	assert_string_equal(value(spec, 1, 1), "[dra, extended]");
	assert_string_equal(value(spec, 1, 2), "{a: [1, 2]}");
	assert_string_equal(g_array_index(param(spec, 1)->value_pos, K8sPos, 1).file, "--vary 2");
}

static void
test_sweep_spec__vary_errors(void **state)
{
	static const struct {
		const char *arg;
		const char *err;
	} cases[] = {
		{ "spec.seed", "--vary 3: expected PATH=V1,V2,... like "
		               "spec.cluster.nodePools[0].count=2,3,4, got \"spec.seed\"" },
		{ "spec..seed=1", "--vary 3: bad path (character 6): expected a key after '.', got "
		                  "'.'" },
		{ "spec.seed=1,,2", "--vary 3: an empty value in \"1,,2\" (write \"\" for an empty "
		                    "string) [spec.seed]" },
		{ "spec.modes=[dra", "--vary 3: the brackets or quotes of \"[dra\" do not balance "
		                     "[spec.modes]" },
		{ "spec.seed=1, 1", "--vary 3: the value 1 is given twice" },
		{ "spec.seed=4,'4'", NULL }, /* an integer and a string: two values */
		{ "spec.cluster.nodePools[name=dgx].count=5",
		  "--vary 3: "
		  "spec.cluster.nodePools[name=dgx].count "
		  "is varied twice" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(SweepSpec) spec = sweep_spec_new("cli", "/nowhere/scenario.yaml");
		g_autoptr(GError) error = NULL;
		gboolean ok;

		assert_true(sweep_spec_add_vary(spec, "spec.cluster.nodePools[name=dgx].count=2", 1,
		                                NULL));
		assert_true(sweep_spec_add_vary(spec, "spec.horizon=1h", 2, NULL));
		ok = sweep_spec_add_vary(spec, cases[i].arg, 3, &error);
		if (cases[i].err == NULL) {
			assert_true(ok);
			assert_int_equal(spec->params->len, 3);
			continue;
		}
		if (ok || !g_str_has_prefix(error->message, cases[i].err))
			fail_msg("%s: expected \"%s\", got %s", cases[i].arg, cases[i].err,
			         ok ? "success" : error->message);
		assert_int_equal(spec->params->len, 2); /* nothing half-added */
	}
}

/* Writes @text as DIR/s.yaml (its scenario: "SCENARIO" is replaced by data/scenario.yaml),
 * loads and checks it; returns the spec, the diagnostics in *@out with the files named
 * s.yaml and scenario.yaml, and the temporary folder DIR. */
static SweepSpec *
load_text(const char *text, char **out)
{
	g_autofree char *dir = g_dir_make_tmp("sweep-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "s.yaml", NULL);
	g_autofree char *scenario = data_path("scenario.yaml");
	g_autoptr(GString) body = g_string_new(text);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	SweepSpec *spec;

	g_string_replace(body, "SCENARIO", scenario, 0);
	assert_true(g_file_set_contents(path, body->str, -1, NULL));
	spec = sweep_spec_load(path, diags);
	if (spec != NULL && !sweep_spec_check(spec, diags))
		g_clear_pointer(&spec, sweep_spec_free);
	g_unlink(path);
	g_rmdir(dir);
	*out = diag_text(diags);
	if (spec == NULL) {
		/* drop the temporary folder from the positions: "s.yaml:..." */
		g_autoptr(GString) text_out = g_string_new(*out);

		g_string_replace(text_out, path, "s.yaml", 0);
		g_string_replace(text_out, scenario, "scenario.yaml", 0);
		g_string_replace(text_out, dir, "DIR", 0);
		g_free(*out);
		*out = g_strdup(text_out->str);
	}
	return spec;
}

#define HEAD "apiVersion: drasim.io/v1alpha1\nkind: Sweep\nmetadata: {name: t}\nspec:\n"

/* Each broken Sweep file fails with exactly these diagnostics (lines from 1 at
 * apiVersion: spec's keys are on line 5 and on). */
static void
test_sweep_spec__file_errors(void **state)
{
	static const struct {
		const char *text;
		const char *diags;
	} cases[] = {
		/* line 5 "  scenario: SCENARIO", line 6 "  seeds: 5-1": the 5-1 at column 10 */
		{ HEAD "  scenario: SCENARIO\n  seeds: 5-1\n",
		  "s.yaml:6:10: error: the range 5-1 is empty: write the smaller seed first, like "
		  "1-5 [spec.seeds]\n" },
		{ HEAD "  scenario: SCENARIO\n  seeds: 1\n  paramters: []\n",
		  "s.yaml:7:3: error: unknown field 'paramters'; did you mean 'parameters'? "
		  "[spec.paramters]\n" },
		{ "apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: t}\nspec:\n"
		  "  scenario: SCENARIO\n  seeds: 1\n",
		  "s.yaml:2:7: error: expected kind Sweep [kind]\n" },
		{ HEAD "  scenario: nothere.yaml\n  seeds: [1, 2]\n  horizon: 0s\n",
		  "s.yaml:5:13: error: no scenario file at DIR/nothere.yaml (a path is relative to "
		  "the Sweep file) [spec.scenario]\n"
		  "s.yaml:7:12: error: expected a duration > 0 like 1d or 12h, got 0s "
		  "[spec.horizon]\n" },
		/* line 8 "  - {path: 'spec..count', values: [1]}": the path's quote at column
		 * 12; line 9 "  - {path: spec.seed, values: [2, 3, 2]}": the second 2 at 38;
		 * line 10 "  - {path: spec.horizon, values: []}": the [ at 34 */
		{ HEAD "  scenario: SCENARIO\n  seeds: 1\n  parameters:\n"
		       "  - {path: 'spec..count', values: [1]}\n"
		       "  - {path: spec.seed, values: [2, 3, 2]}\n"
		       "  - {path: spec.horizon, values: []}\n",
		  "s.yaml:8:12: error: bad path (character 6): expected a key after '.', got '.'; "
		  "write one like spec.cluster.nodePools[0].count or "
		  "spec.cluster.nodePools[name=dgx].count [spec.parameters[0].path]\n"
		  "s.yaml:9:38: error: the value 2 is given twice (first at line 9) "
		  "[spec.parameters[1].values[2]]\n"
		  "s.yaml:10:34: error: expected at least one value "
		  "[spec.parameters[2].values]\n" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *out = NULL;
		g_autoptr(SweepSpec) spec = load_text(cases[i].text, &out);

		assert_null(spec);
		if (strcmp(out, cases[i].diags) != 0)
			fail_msg("case %u: expected\n%sgot\n%s", i, cases[i].diags, out);
	}
}

/* The bad input: an unknown path (once, not once per value) and a value of
 * the wrong type (at the value, with the scenario's message and position); an added
 * key the scenario does not know fails whatever the value: once, at the path. */
static void
test_sweep_spec__check_errors(void **state)
{
	/* line 8 "  - path: spec.cluster.nodePools[name=gpu].count": the path at 11;
	 * line 10 "  - path: spec.cluster.nodePools[name=dgx].count", line 11
	 * "    values: [2, many]": many at column 17; line 12 "  - path:
	 * spec.modes[name=dra].scor": the path at 11. In scenario.yaml, line 9
	 * "    - {name: dgx, shape: dgx-h100, count: 2}" has the 2 at column 43, and
	 * line 12 "  - {name: dra, world: dra}" the mode's mapping at 5. */
	const char *text = HEAD "  scenario: SCENARIO\n  seeds: 1-2\n  parameters:\n"
	                        "  - path: spec.cluster.nodePools[name=gpu].count\n"
	                        "    values: [2, 3]\n"
	                        "  - path: spec.cluster.nodePools[name=dgx].count\n"
	                        "    values: [2, many]\n"
	                        "  - path: spec.modes[name=dra].scor\n"
	                        "    values: [MostAllocated, LeastAllocated]\n";
	g_autofree char *out = NULL;
	g_autoptr(SweepSpec) spec = load_text(text, &out);

	assert_null(spec);
	assert_string_equal(out,
	                    "s.yaml:8:11: error: spec.cluster.nodePools[name=gpu]: no item named "
	                    "gpu; the items are named dgx, a100 "
	                    "[spec.cluster.nodePools[name=gpu].count]\n"
	                    "s.yaml:11:17: error: with spec.cluster.nodePools[name=dgx].count = "
	                    "many the scenario does not load: scenario.yaml:9:43: expected an "
	                    "integer in [0, 100000], got many [spec.cluster.nodePools[0].count] "
	                    "[spec.cluster.nodePools[name=dgx].count]\n"
	                    "s.yaml:12:11: error: with spec.modes[name=dra].scor = any value the "
	                    "scenario does not load: scenario.yaml:12:5: unknown field 'scor'; "
	                    "did you mean 'score'? [spec.modes[0].scor] "
	                    "[spec.modes[name=dra].scor]\n");
}

/* From the command line: positions are "--vary N"; the grid's bound. */
static void
test_sweep_spec__check_command_line(void **state)
{
	g_autofree char *scenario = data_path("scenario.yaml");
	g_autoptr(SweepSpec) spec = sweep_spec_new("cli", scenario);
	g_autoptr(SweepSpec) big = sweep_spec_new("big", scenario);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(GString) many = g_string_new("spec.seed=1");
	g_autofree char *out = NULL;

	assert_true(sweep_spec_add_vary(spec, "spec.clustr.nodePools[0].count=1,2", 1, NULL));
	assert_true(sweep_seeds_parse("1-3", spec->seeds, NULL));
	assert_false(sweep_spec_check(spec, diags));
	out = diag_text(diags);
	assert_string_equal(out, "--vary 1: error: spec.clustr: no key clustr; did you mean "
	                         "cluster? the keys here are cluster, modes "
	                         "[spec.clustr.nodePools[0].count]\n");
	/* no seeds at all */
	g_array_set_size(spec->seeds, 0);
	k8s_diag_list_free(diags);
	diags = k8s_diag_list_new();
	assert_false(sweep_spec_check(spec, diags));
	assert_non_null(k8s_diag_list_find(diags, "no seeds: give them in spec.seeds or with "
	                                          "--seeds, like 1-10"));
	/* 1,001 values x 1,000 seeds = 1,001,000 runs > 1,000,000: refused without
	 * loading the scenario 1,001 times */
	for (guint i = 2; i <= 1001; i++)
		g_string_append_printf(many, ",%u", i);
	assert_true(sweep_spec_add_vary(big, many->str, 1, NULL));
	assert_true(sweep_seeds_parse("1-1000", big->seeds, NULL));
	k8s_diag_list_free(diags);
	diags = k8s_diag_list_new();
	assert_false(sweep_spec_check(big, diags));
	assert_int_equal(k8s_diag_list_count(diags), 1);
	assert_string_equal(k8s_diag_list_get(diags, 0)->message,
	                    "the grid is too large: 1001 cells x 1000 seeds = 1001000 runs; the "
	                    "sweep runs limit is 1000000 (set DRASIM_MAX_SWEEP_RUNS to raise it)");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sweep_spec__load_file),
		cmocka_unit_test(test_sweep_spec__load_json_twin),
		cmocka_unit_test(test_sweep_spec__seeds),
		cmocka_unit_test(test_sweep_spec__vary),
		cmocka_unit_test(test_sweep_spec__vary_errors),
		cmocka_unit_test(test_sweep_spec__file_errors),
		cmocka_unit_test(test_sweep_spec__check_errors),
		cmocka_unit_test(test_sweep_spec__check_command_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
