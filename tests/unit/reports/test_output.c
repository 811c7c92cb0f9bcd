/*
 * test_output.c: rpt_output.c, the one writer of drasim's files.
 *
 * Invariants: a file is either its previous contents or the whole new ones
 * (never a mix, never a truncated file), with no temporary file left after a
 * commit or a failure; an output directory is replaced as a whole and holds
 * exactly the files of the last output plus the marker listing them; a
 * directory drasim did not write is refused and left alone. Each case sets
 * up its files by hand in a fresh temporary directory.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "fake-report.h"

static int
setup_tmp(void **state)
{
	*state = g_dir_make_tmp("test-output-XXXXXX", NULL);
	return *state == NULL ? -1 : 0;
}

static void
remove_tree(const char *path)
{
	g_autoptr(GDir) dir = g_dir_open(path, 0, NULL);
	const char *name;

	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		g_autofree char *child = g_build_filename(path, name, NULL);

		if (g_file_test(child, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(child, G_FILE_TEST_IS_SYMLINK))
			remove_tree(child);
		else
			g_unlink(child);
	}
	g_rmdir(path);
}

static int
teardown_tmp(void **state)
{
	g_unsetenv("DRASIM_TEST_WRITE_FAIL");
	g_unsetenv("DRASIM_TEST_NO_EXCHANGE");
	remove_tree(*state);
	g_free(*state);
	return 0;
}

static int
compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of @dir, sorted, joined with spaces: "" for an empty directory. */
static char *
entries(const char *dir)
{
	g_autoptr(GDir) handle = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	assert_non_null(handle);
	while ((name = g_dir_read_name(handle)) != NULL)
		g_ptr_array_add(names, g_strdup(name));
	g_ptr_array_sort(names, compare_names);
	g_ptr_array_add(names, NULL);
	return g_strjoinv(" ", (char **)names->pdata);
}

static char *
slurp(const char *path)
{
	char *text = NULL;

	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	return text;
}

static void
test_output__file_replaced_whole(void **state)
{
	g_autofree char *path = g_build_filename(*state, "bench.json", NULL);
	g_autofree char *listing = NULL;
	g_autofree char *text = NULL;

	assert_true(g_file_set_contents(path, "old", -1, NULL));
	assert_true(rpt_output_write_file(path, "new contents", 12, NULL));
	text = slurp(path);
	assert_string_equal(text, "new contents");
	listing = entries(*state);
	assert_string_equal(listing, "bench.json"); /* no bench.json.tmp-* left */
}

/* A write failing after 3 of 6 bytes (the test seam's ENOSPC): the old file stays whole. */
static void
test_output__failed_write_keeps_previous(void **state)
{
	g_autofree char *path = g_build_filename(*state, "bench.json", NULL);
	g_autoptr(GError) error = NULL;
	g_autofree char *listing = NULL;
	g_autofree char *text = NULL;
	g_autofree char *want = g_strdup_printf("%s: cannot write: %s", path, g_strerror(ENOSPC));

	assert_true(g_file_set_contents(path, "old", -1, NULL));
	g_setenv("DRASIM_TEST_WRITE_FAIL", "bench.json:3", TRUE);
	assert_false(rpt_output_write_file(path, "abcdef", 6, &error));
	g_unsetenv("DRASIM_TEST_WRITE_FAIL");
	assert_string_equal(error->message, want);
	text = slurp(path);
	assert_string_equal(text, "old");
	listing = entries(*state);
	assert_string_equal(listing, "bench.json");
}

/* drasim bench: another process writes the temporary file, the commit publishes it. */
static void
test_output__external_writer(void **state)
{
	g_autofree char *path = g_build_filename(*state, "bench.json", NULL);
	g_autoptr(RptOutputFile) file = rpt_output_file_new(path, NULL);
	g_autofree char *text = NULL;
	FILE *writer;

	assert_non_null(file);
	assert_true(g_file_set_contents(path, "old", -1, NULL));
	writer = fopen(rpt_output_file_get_temp_path(file), "w"); /* as run_bench.py opens it */
	assert_non_null(writer);
	fputs("{\"records\": 1}\n", writer);
	assert_int_equal(fclose(writer), 0);
	text = slurp(path);
	assert_string_equal(text, "old"); /* nothing published before the commit */
	g_free(g_steal_pointer(&text));
	assert_true(rpt_output_file_commit(file, NULL));
	text = slurp(path);
	assert_string_equal(text, "{\"records\": 1}\n");
}

/* json+html then text only: the directory holds report.txt and the marker, nothing else. */
static void
test_output__dir_replaced_whole(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	g_autofree char *dir = g_build_filename(*state, "out", NULL);
	g_autofree char *marker = g_build_filename(dir, RPT_OUTPUT_MARKER, NULL);
	g_autofree char *first = NULL;
	g_autofree char *second = NULL;
	g_autofree char *listed = NULL;
	g_autofree char *siblings = NULL;

	assert_true(rpt_write_formats(report, "json,html", dir, NULL));
	first = entries(dir);
	assert_string_equal(first, ".drasim-output report.html report.json");
	assert_true(rpt_write_formats(report, "text", dir, NULL));
	second = entries(dir);
	assert_string_equal(second, ".drasim-output report.txt");
	listed = slurp(marker);
	assert_non_null(strstr(listed, "\nreport.txt\n"));
	assert_null(strstr(listed, "report.html"));
	siblings = entries(*state);
	assert_string_equal(siblings, "out"); /* no out.tmp-* or out.old-* left */
}

/*
 * report.json and pods.csv are streamed in chunks of 64 KiB: 2,000 more pods
 * (about 330 bytes of JSON each) make report.json about 700 KB, so a write
 * failing after 200,000 bytes fails in its fourth chunk. The error names the
 * file, and the previous output stays whole.
 */
static void
test_output__streamed_write_fails_midway(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	RptMode *mode = rpt_mode_add(report, "dra"); /* the fake's first mode */
	g_autofree char *dir = g_build_filename(*state, "out", NULL);
	g_autofree char *json = g_build_filename(dir, "report.json", NULL);
	g_autofree char *want = g_strdup_printf("%s: cannot write: %s", json, g_strerror(ENOSPC));
	g_autoptr(GError) error = NULL;
	g_autofree char *listing = NULL;
	g_autofree char *siblings = NULL;
	g_autofree char *text = NULL;
	gboolean ok;

	assert_true(rpt_write_formats(report, "text", dir, NULL));
	for (guint i = 0; i < 2000; i++) {
		g_autofree char *name = g_strdup_printf("many-%u", i);
		RptPod pod = { .name = name,
			       .workload = "many",
			       .request = "claim=one-gpu[gpu.nvidia.com x1]",
			       .arrival_us = i,
			       .start_us = i + 1,
			       .end_us = i + 2,
			       .node = "node-0",
			       .devices = "gpu:node-0/gpu-0",
			       .slowdown = 1,
			       .outcome = RPT_OUTCOME_COMPLETED,
			       .attempts = 1 };

		rpt_mode_add_pod(mode, &pod);
	}
	g_setenv("DRASIM_TEST_WRITE_FAIL", "report.json:200000", TRUE);
	ok = rpt_write_formats(report, "json,csv", dir, &error);
	g_unsetenv("DRASIM_TEST_WRITE_FAIL");
	assert_false(ok);
	assert_string_equal(error->message, want);
	listing = entries(dir);
	assert_string_equal(listing, ".drasim-output report.txt");
	siblings = entries(*state);
	assert_string_equal(siblings, "out"); /* no out.tmp-* left */
	assert_true(rpt_write_formats(report, "json,csv", dir, NULL));
	text = slurp(json);
	assert_true(strlen(text) > 2000 * 300);
	assert_non_null(strstr(text, "\"name\":\t\"many-1999\""));
}

/* The same where the file system has no RENAME_EXCHANGE: two renames, no DIR.old-* left. */
static void
test_output__dir_replaced_by_two_renames(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	g_autofree char *dir = g_build_filename(*state, "out", NULL);
	g_autofree char *listing = NULL;
	g_autofree char *siblings = NULL;
	gboolean ok;

	assert_true(rpt_write_formats(report, "json,html", dir, NULL));
	g_setenv("DRASIM_TEST_NO_EXCHANGE", "1", TRUE);
	ok = rpt_write_formats(report, "text", dir, NULL);
	g_unsetenv("DRASIM_TEST_NO_EXCHANGE");
	assert_true(ok);
	listing = entries(dir);
	assert_string_equal(listing, ".drasim-output report.txt");
	siblings = entries(*state);
	assert_string_equal(siblings, "out");
}

static void
test_output__foreign_dir_refused(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	g_autofree char *dir = g_build_filename(*state, "out", NULL);
	g_autofree char *notes = g_build_filename(dir, "notes.txt", NULL);
	g_autofree char *marker = g_build_filename(dir, RPT_OUTPUT_MARKER, NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) error2 = NULL;
	g_autofree char *listing = NULL;

	assert_int_equal(g_mkdir(dir, 0755), 0);
	assert_true(g_file_set_contents(notes, "mine", -1, NULL));
	assert_false(rpt_write_formats(report, "json", dir, &error));
	assert_true(g_error_matches(error, RPT_ERROR, RPT_ERROR_OUTPUT_DIR));
	assert_non_null(strstr(error->message, "it holds notes.txt"));
	/* a marker that is not drasim's does not make it drasim's */
	assert_true(g_file_set_contents(marker, "notes.txt\n", -1, NULL));
	assert_false(rpt_output_dir_check(dir, &error2));
	listing = entries(dir);
	assert_string_equal(listing, ".drasim-output notes.txt");
}

/* An empty directory is accepted, and the replacement keeps its permission bits. */
static void
test_output__empty_dir_keeps_mode(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	g_autofree char *dir = g_build_filename(*state, "out", NULL);
	GStatBuf st;

	assert_int_equal(g_mkdir(dir, 0700), 0);
	assert_true(rpt_write_formats(report, "json", dir, NULL));
	assert_int_equal(g_stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
}

/* Freed uncommitted (an error in a later file): the previous output and its siblings stay. */
static void
test_output__uncommitted_dir_leaves_previous(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	g_autofree char *dir = g_build_filename(*state, "out", NULL);
	g_autofree char *before = NULL;
	g_autofree char *after = NULL;
	g_autofree char *siblings = NULL;
	RptOutputDir *out;

	assert_true(rpt_write_formats(report, "json,html", dir, NULL));
	before = entries(dir);
	out = rpt_output_dir_new(dir, NULL);
	assert_non_null(out);
	assert_true(rpt_output_dir_add(out, "report.txt", "new", NULL));
	rpt_output_dir_free(out);
	after = entries(dir);
	assert_string_equal(after, before);
	siblings = entries(*state);
	assert_string_equal(siblings, "out");
}

/* -o LINK where LINK points at a drasim output: the target is replaced, the link stays. */
static void
test_output__symlink_followed(void **state)
{
	g_autoptr(RptReport) report = fake_report_new(1.0);
	g_autofree char *real = g_build_filename(*state, "real", NULL);
	g_autofree char *link = g_build_filename(*state, "link", NULL);
	g_autofree char *listing = NULL;
	g_autofree char *siblings = NULL;

	assert_true(rpt_write_formats(report, "json", real, NULL));
	assert_int_equal(symlink(real, link), 0);
	assert_true(rpt_write_formats(report, "text", link, NULL));
	assert_true(g_file_test(link, G_FILE_TEST_IS_SYMLINK));
	listing = entries(real);
	assert_string_equal(listing, ".drasim-output report.txt");
	siblings = entries(*state);
	assert_string_equal(siblings, "link real");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_output__file_replaced_whole, setup_tmp,
		                                teardown_tmp),
		cmocka_unit_test_setup_teardown(test_output__failed_write_keeps_previous, setup_tmp,
		                                teardown_tmp),
		cmocka_unit_test_setup_teardown(test_output__external_writer, setup_tmp,
		                                teardown_tmp),
		cmocka_unit_test_setup_teardown(test_output__dir_replaced_whole, setup_tmp,
		                                teardown_tmp),
		cmocka_unit_test_setup_teardown(test_output__streamed_write_fails_midway, setup_tmp,
		                                teardown_tmp),
		cmocka_unit_test_setup_teardown(test_output__dir_replaced_by_two_renames, setup_tmp,
		                                teardown_tmp),
		cmocka_unit_test_setup_teardown(test_output__foreign_dir_refused, setup_tmp,
		                                teardown_tmp),
		cmocka_unit_test_setup_teardown(test_output__empty_dir_keeps_mode, setup_tmp,
		                                teardown_tmp),
		cmocka_unit_test_setup_teardown(test_output__uncommitted_dir_leaves_previous,
		                                setup_tmp, teardown_tmp),
		cmocka_unit_test_setup_teardown(test_output__symlink_followed, setup_tmp,
		                                teardown_tmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
