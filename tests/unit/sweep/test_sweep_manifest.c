/*
 * test_sweep_manifest.c: a sweep expanded into runs, saved, resumed, and
 * executed (sweep_manifest*.c, sweep_run.c, sweep_exec.c).
 *
 * The grid's order is worked out by hand: parameters a = [1, 2, 3] and
 * b = [x, y] give cells (1,x) (1,y) (2,x) (2,y) (3,x) (3,y), the last
 * parameter fastest; with seeds [5, 7] run k is cell k / 2 with seed
 * [5, 7][k % 2], so run 3 is cell 1 = (1, y) with seed 7, id c0001-seed7.
 * The executed sweeps run tests/unit/sweep/data/tiny.yaml (a few ms a run).
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "sweep-private.h"

#define TINY DRASIM_TEST_DATA "/tiny.yaml"

static void
add_param(SweepSpec *spec, const char *path, const char *const *values)
{
	SweepParam p = { .path = g_strdup(path) };

	p.values = g_ptr_array_new_with_free_func(g_free);
	p.value_pos = g_array_new(FALSE, TRUE, sizeof(K8sPos));
	for (guint i = 0; values[i] != NULL; i++)
		g_ptr_array_add(p.values, g_strdup(values[i]));
	g_array_set_size(p.value_pos, p.values->len);
	g_array_append_val(spec->params, p);
}

static void
add_seeds(SweepSpec *spec, const guint64 *seeds, guint n)
{
	g_array_append_vals(spec->seeds, seeds, n);
}

static SweepSpec *
grid_spec(void)
{
	static const char *const a[] = { "1", "2", "3", NULL };
	static const char *const b[] = { "x", "y", NULL };
	static const guint64 seeds[] = { 5, 7 };
	SweepSpec *spec = sweep_spec_new("grid", "/nonexistent/scenario.yaml");

	add_param(spec, "spec.a", a);
	add_param(spec, "spec.b", b);
	add_seeds(spec, seeds, 2);
	return spec;
}

static void
test_grid_order(void **state)
{
	g_autoptr(SweepSpec) spec = grid_spec();
	g_autoptr(SweepManifest) m = sweep_manifest_new(spec, NULL);
	const SweepRun *run;

	(void)state;
	assert_non_null(m);
	assert_int_equal(sweep_manifest_get_n_cells(m), 6);
	assert_int_equal(sweep_manifest_get_n_runs(m), 12);
	assert_string_equal(sweep_manifest_cell_values(m, 1)[0], "1");
	assert_string_equal(sweep_manifest_cell_values(m, 1)[1], "y");
	assert_string_equal(sweep_manifest_cell_values(m, 4)[0], "3");
	assert_string_equal(sweep_manifest_cell_values(m, 4)[1], "x");
	run = sweep_manifest_get_run(m, 3);
	assert_int_equal(run->cell, 1);
	assert_int_equal(run->seed, 7);
	assert_string_equal(run->id, "c0001-seed7");
	assert_int_equal(run->n_overrides, 2);
	assert_string_equal(run->overrides[1].path, "spec.b");
	assert_string_equal(run->overrides[1].value, "y");
}

static void
test_bounds(void **state)
{
	g_autoptr(SweepSpec) zero = grid_spec();
	g_autoptr(SweepSpec) big = grid_spec();
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) error2 = NULL;
	SweepParam *p = &g_array_index(big->params, SweepParam, 0);

	(void)state;
	g_array_index(zero->seeds, guint64, 1) = 0;
	assert_null(sweep_manifest_new(zero, &error));
	assert_non_null(strstr(error->message, "seeds start at 1"));
	/* 3 + 4,096 values of a is beyond SWEEP_MAX_VALUES (4,096). */
	for (guint i = 0; i < SWEEP_MAX_VALUES; i++)
		g_ptr_array_add(p->values, g_strdup("9"));
	assert_null(sweep_manifest_new(big, &error2));
	assert_non_null(strstr(error2->message, "a parameter takes 1 to 4096"));
}

/* DRASIM_MAX_SWEEP_RUNS at the bound and one below it: grid_spec() is 3 x 2
 * cells x 2 seeds = 12 runs, so a limit of 12 takes it and 11 refuses it. */
static void
test_runs_limit(void **state)
{
	g_autoptr(SweepSpec) spec = grid_spec();
	g_autoptr(SweepManifest) at_bound = NULL;
	g_autoptr(GError) error = NULL;

	(void)state;
	g_setenv("DRASIM_MAX_SWEEP_RUNS", "12", TRUE);
	at_bound = sweep_manifest_new(spec, NULL);
	assert_non_null(at_bound);
	assert_int_equal(sweep_manifest_get_n_runs(at_bound), 12);
	g_setenv("DRASIM_MAX_SWEEP_RUNS", "11", TRUE);
	assert_null(sweep_manifest_new(spec, &error));
	assert_string_equal(error->message,
	                    "6 cells x 2 seeds: a sweep runs 1 to 11 runs; the sweep runs limit "
	                    "is 11 (set DRASIM_MAX_SWEEP_RUNS to raise it)");
	g_unsetenv("DRASIM_MAX_SWEEP_RUNS");
}

static char *
tmp_dir(void)
{
	char *dir = g_dir_make_tmp("test-sweep-XXXXXX", NULL);

	assert_non_null(dir);
	return dir;
}

static void
remove_tree(const char *path)
{
	g_autoptr(GDir) dir = g_dir_open(path, 0, NULL);
	const char *name;

	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		g_autofree char *child = g_build_filename(path, name, NULL);

		if (g_file_test(child, G_FILE_TEST_IS_DIR))
			remove_tree(child);
		else
			g_unlink(child);
	}
	g_rmdir(path);
}

static void
test_save_resume_refuse(void **state)
{
	g_autofree char *dir = tmp_dir();
	g_autofree char *other = tmp_dir();
	g_autofree char *user_file = g_build_filename(other, "notes.txt", NULL);
	g_autoptr(SweepSpec) spec = grid_spec();
	g_autoptr(SweepSpec) changed = grid_spec();
	g_autoptr(SweepManifest) m = sweep_manifest_new(spec, NULL);
	g_autoptr(SweepManifest) m2 = sweep_manifest_new(changed, NULL);
	g_autoptr(SweepManifest) loaded = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) error2 = NULL;
	g_autofree char *kept = NULL;

	(void)state;
	assert_true(sweep_manifest_save(m, dir, NULL));
	assert_true(sweep_manifest_save(m, dir, NULL)); /* the same sweep: resumes */
	g_array_index(changed->seeds, guint64, 1) = 8;
	g_clear_pointer(&m2, sweep_manifest_free);
	m2 = sweep_manifest_new(changed, NULL);
	assert_false(sweep_manifest_save(m2, dir, &error));
	assert_true(g_error_matches(error, SWEEP_ERROR, SWEEP_ERROR_RESUME));
	/* A folder with the user's files and no manifest is refused and left as it was. */
	assert_true(g_file_set_contents(user_file, "mine\n", -1, NULL));
	assert_false(sweep_manifest_save(m, other, &error2));
	assert_non_null(strstr(error2->message, "holds no sweep"));
	assert_true(g_file_get_contents(user_file, &kept, NULL, NULL));
	assert_string_equal(kept, "mine\n");
	loaded = sweep_manifest_load(dir, NULL);
	assert_non_null(loaded);
	assert_int_equal(sweep_manifest_get_n_runs(loaded), 12);
	assert_string_equal(sweep_manifest_get_run(loaded, 3)->id, "c0001-seed7");
	remove_tree(dir);
	remove_tree(other);
}

/* Seeds beyond 2^53 (a JSON number's precision) come back exactly. */
static void
test_big_seed_round_trip(void **state)
{
	g_autofree char *dir = tmp_dir();
	g_autoptr(SweepSpec) spec = grid_spec();
	g_autoptr(SweepManifest) m = NULL;
	g_autoptr(SweepManifest) loaded = NULL;

	(void)state;
	g_array_index(spec->seeds, guint64, 0) = G_GUINT64_CONSTANT(18446744073709551557);
	m = sweep_manifest_new(spec, NULL);
	assert_true(sweep_manifest_save(m, dir, NULL));
	loaded = sweep_manifest_load(dir, NULL);
	assert_non_null(loaded);
	assert_true(sweep_manifest_get_run(loaded, 0)->seed ==
	            G_GUINT64_CONSTANT(18446744073709551557));
	remove_tree(dir);
}

/* The manifest nests 4 levels (the root, parameters, a parameter, its values:
 * {[{[): it loads at DRASIM_MAX_JSON_DEPTH=4 and is refused at 3 with the limit
 * named, before cJSON parses it. */
static void
test_manifest_json_depth(void **state)
{
	g_autofree char *dir = tmp_dir();
	g_autoptr(SweepSpec) spec = grid_spec();
	g_autoptr(SweepManifest) m = sweep_manifest_new(spec, NULL);
	g_autoptr(SweepManifest) at = NULL;
	g_autoptr(SweepManifest) over = NULL;
	g_autoptr(GError) error = NULL;

	(void)state;
	assert_true(sweep_manifest_save(m, dir, NULL));
	g_setenv("DRASIM_MAX_JSON_DEPTH", "4", TRUE);
	at = sweep_manifest_load(dir, NULL);
	g_setenv("DRASIM_MAX_JSON_DEPTH", "3", TRUE);
	over = sweep_manifest_load(dir, &error);
	g_unsetenv("DRASIM_MAX_JSON_DEPTH");
	assert_non_null(at);
	assert_null(over);
	assert_non_null(error);
	assert_non_null(strstr(error->message, SWEEP_MANIFEST_FILE ":"));
	assert_non_null(strstr(error->message, ": JSON nested deeper than 3 levels; the JSON "
	                                       "nesting depth limit is 3 (set "
	                                       "DRASIM_MAX_JSON_DEPTH to raise it)"));
	remove_tree(dir);
}

static SweepSpec *
tiny_spec(const char *const *counts)
{
	static const guint64 seeds[] = { 1, 2 };
	SweepSpec *spec = sweep_spec_new("tiny", TINY);

	add_param(spec, "spec.cluster.nodePools[name=gpu].count", counts);
	add_seeds(spec, seeds, 2);
	return spec;
}

static char *
read_report(const char *dir, const char *id)
{
	g_autofree char *path = g_build_filename(dir, "cells", id, "report.json", NULL);
	char *text = NULL;

	if (!g_file_get_contents(path, &text, NULL, NULL))
		return NULL;
	return text;
}

/*
 * Local runs in child processes (2 at once) and the same runs as array tasks
 * (3 tasks, in this process) give byte-identical reports; a second local
 * execution skips all 4 (resume); a count of "abc" fails in its run only,
 * with the decoder's message in error.txt.
 */
static void
test_exec_local_task_resume(void **state)
{
	static const char *const counts[] = { "1", "2", NULL };
	g_autofree char *local = tmp_dir();
	g_autofree char *tasks = tmp_dir();
	g_autofree char *cells = g_build_filename(local, "cells", NULL);
	g_autoptr(SweepSpec) spec = tiny_spec(counts);
	g_autoptr(SweepManifest) m = sweep_manifest_new(spec, NULL);
	g_autoptr(GArray) runs = g_array_new(FALSE, FALSE, sizeof(SweepRun));
	SweepExecOptions options = { .jobs = 2, .label = "test" };
	SweepExecSummary sum;

	(void)state;
	assert_true(sweep_manifest_save(m, local, NULL));
	assert_true(sweep_manifest_save(m, tasks, NULL));
	for (guint i = 0; i < sweep_manifest_get_n_runs(m); i++)
		g_array_append_vals(runs, sweep_manifest_get_run(m, i), 1);
	assert_true(sweep_exec_local(TINY, 0, (SweepRun *)runs->data, runs->len, cells, &options,
	                             &sum, NULL));
	assert_int_equal(sum.done, 4);
	assert_int_equal(sum.failed, 0);
	for (guint t = 0; t < 3; t++) {
		assert_true(sweep_exec_task(m, tasks, t, 3, &sum, NULL));
		assert_int_equal(sum.done, t == 0 ? 2 : 1); /* runs 0,3 / 1 / 2 */
	}
	for (guint i = 0; i < runs->len; i++) {
		const char *id = g_array_index(runs, SweepRun, i).id;
		g_autofree char *a = read_report(local, id);
		g_autofree char *b = read_report(tasks, id);

		assert_non_null(a);
		assert_non_null(b);
		assert_string_equal(a, b);
	}
	assert_true(sweep_exec_local(TINY, 0, (SweepRun *)runs->data, runs->len, cells, &options,
	                             &sum, NULL));
	assert_int_equal(sum.skipped, 4);
	assert_int_equal(sum.done, 0);
	remove_tree(local);
	remove_tree(tasks);
}

static void
test_failed_run_recorded(void **state)
{
	static const char *const counts[] = { "abc", "1", NULL };
	g_autofree char *dir = tmp_dir();
	g_autofree char *cells = g_build_filename(dir, "cells", NULL);
	g_autoptr(SweepSpec) spec = tiny_spec(counts);
	g_autoptr(SweepManifest) m = sweep_manifest_new(spec, NULL);
	g_autoptr(GArray) runs = g_array_new(FALSE, FALSE, sizeof(SweepRun));
	SweepExecOptions options = { .jobs = 1, .label = "test" };
	SweepExecSummary sum;
	g_autofree char *why = NULL;
	RptReport *report;

	(void)state;
	assert_true(sweep_manifest_save(m, dir, NULL));
	for (guint i = 0; i < sweep_manifest_get_n_runs(m); i++)
		g_array_append_vals(runs, sweep_manifest_get_run(m, i), 1);
	assert_true(sweep_exec_local(TINY, 0, (SweepRun *)runs->data, runs->len, cells, &options,
	                             &sum, NULL));
	assert_int_equal(sum.done, 2);
	assert_int_equal(sum.failed, 2);
	report = sweep_run_load(cells, sweep_manifest_get_run(m, 0), &why);
	assert_null(report);
	assert_non_null(strstr(why, "spec.cluster.nodePools[0].count"));
	report = sweep_run_load(cells, sweep_manifest_get_run(m, 2), NULL);
	assert_non_null(report);
	rpt_report_free(report);
	remove_tree(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grid_order),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_runs_limit),
		cmocka_unit_test(test_save_resume_refuse),
		cmocka_unit_test(test_big_seed_round_trip),
		cmocka_unit_test(test_manifest_json_depth),
		cmocka_unit_test(test_exec_local_task_resume),
		cmocka_unit_test(test_failed_run_recorded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
