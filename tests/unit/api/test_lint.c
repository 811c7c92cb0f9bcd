/*
 * test_lint.c: `drasim lint` as a user runs it, on the broken-manifest corpus and on the
 * seed tutorial.
 *
 * tests/data/bad/NAME (a file, or a directory where a file is expected) has a sibling
 * NAME.expect holding "LINE:COL: error: TEXT": lint must exit 1 (not crash, not leak:
 * under ASan a leak changes the exit status) and print a diagnostic at that position whose
 * message contains TEXT. The seed tutorial's whole output is pinned in
 * scenarios/seed-tutorial/lint.expect.
 */
#include "drasim-config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>

#include <cmocka.h>
#include <glib.h>

static const char *
drasim_bin(void)
{
	const char *bin = g_getenv("DRASIM_BIN");

	if (bin == NULL) {
		fail_msg("DRASIM_BIN is not set (run through meson test)");
	}
	return bin;
}

/* Runs `drasim lint ARG` in the source root; returns the exit status (-1: signal). */
static int
run_lint(const char *arg, char **err_out)
{
	g_autoptr(GError) error = NULL;
	const char *argv[] = { drasim_bin(), "lint", "--quiet", arg, NULL };
	int wait_status = 0;

	if (!g_spawn_sync(DRASIM_SOURCE_ROOT, (char **)argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
	                  NULL, err_out, &wait_status, &error)) {
		fail_msg("cannot run %s: %s", drasim_bin(), error->message);
	}
	if (!WIFEXITED(wait_status)) {
		return -1;
	}
	return WEXITSTATUS(wait_status);
}

/* Prints @text as TAP comments, so that a failure does not confuse the TAP reader. */
static void
print_block(const char *text)
{
	g_auto(GStrv) lines = g_strsplit(text != NULL ? text : "", "\n", -1);

	for (guint i = 0; lines[i] != NULL; i++) {
		if (lines[i][0] != '\0') {
			print_message("#   %s\n", lines[i]);
		}
	}
}

static gboolean
check_bad_case(const char *name, const char *expect)
{
	g_autofree char *arg = g_build_filename("tests", "data", "bad", name, NULL);
	g_autofree char *err = NULL;
	g_autofree char *want_prefix = NULL;
	g_auto(GStrv) lines = NULL;
	const char *text;
	int status;

	/* "LINE:COL: error: TEXT" */
	text = strstr(expect, ": error: ");
	if (text == NULL) {
		print_message("# FAIL %s: malformed expectation '%s'\n", name, expect);
		return FALSE;
	}
	want_prefix = g_strdup_printf("%s:%.*s: error: ", arg, (int)(text - expect), expect);
	text += strlen(": error: ");
	status = run_lint(arg, &err);
	if (status != 1) {
		print_message("# FAIL %s: exit status %d, expected 1\n", name, status);
		print_block(err);
		return FALSE;
	}
	lines = g_strsplit(err, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		if (g_str_has_prefix(lines[i], want_prefix) && strstr(lines[i], text) != NULL) {
			return TRUE;
		}
	}
	print_message("# FAIL %s: no line '%s...%s' in:\n", name, want_prefix, text);
	print_block(err);
	return FALSE;
}

static int
cmp_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
test_bad_corpus(void **state)
{
	g_autofree char *dir = g_build_filename(DRASIM_SOURCE_ROOT, "tests", "data", "bad", NULL);
	g_autoptr(GDir) handle = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	guint passed = 0, failed = 0;
	const char *name;

	assert_non_null(handle);
	while ((name = g_dir_read_name(handle)) != NULL) {
		if (!g_str_has_suffix(name, ".expect")) {
			g_ptr_array_add(names, g_strdup(name));
		}
	}
	g_ptr_array_sort(names, cmp_names);
	for (guint i = 0; i < names->len; i++) {
		const char *n = names->pdata[i];
		g_autofree char *path = g_strdup_printf("%s/%s.expect", dir, n);
		g_autofree char *expect = NULL;

		if (!g_file_get_contents(path, &expect, NULL, NULL)) {
			print_message("# FAIL %s: no %s.expect\n", n, n);
			failed++;
			continue;
		}
		g_strchomp(expect);
		if (check_bad_case(n, expect)) {
			passed++;
		} else {
			failed++;
		}
	}
	print_message("# %u passed, %u failed, 0 skipped\n", passed, failed);
	assert_true(passed >= 30);
	assert_int_equal(failed, 0);
}

static void
test_seed_tutorial(void **state)
{
	g_autofree char *expect_path = g_build_filename(DRASIM_SOURCE_ROOT, "scenarios",
	                                                "seed-tutorial", "lint.expect", NULL);
	g_autofree char *expect = NULL;
	g_autofree char *err = NULL;
	int status;

	assert_true(g_file_get_contents(expect_path, &expect, NULL, NULL));
	status = run_lint("scenarios/seed-tutorial", &err);
	assert_int_equal(status, 1);
	if (strcmp(err, expect) != 0) {
		print_message("drasim lint scenarios/seed-tutorial printed:\n%s\nexpected:\n%s",
		              err, expect);
		fail_msg("the seed tutorial findings changed");
	}
}

static void
test_usage(void **state)
{
	g_autoptr(GError) error = NULL;
	const char *argv[] = { drasim_bin(), "lint", NULL };
	int wait_status = 0;

	assert_true(g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
	                         NULL, NULL, &wait_status, &error));
	assert_true(WIFEXITED(wait_status));
	assert_int_equal(WEXITSTATUS(wait_status), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_corpus),
		cmocka_unit_test(test_seed_tutorial),
		cmocka_unit_test(test_usage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
