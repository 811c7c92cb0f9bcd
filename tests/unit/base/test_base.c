/*
 * test_base.c: the limits table and the bounded reader (base/). Limits are
 * set low here so the over-the-limit cases are fast: a regular file one byte
 * over, /dev/zero (endless, size 0 to stat) and a FIFO fed by a thread.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "base.h"

static char *
temp_file_of(gsize n)
{
	g_autofree char *data = g_malloc(n);
	char *path = NULL;
	int fd = g_file_open_tmp("drasim-base-XXXXXX", &path, NULL);

	assert_true(fd >= 0);
	close(fd);
	memset(data, 'x', n);
	assert_true(g_file_set_contents(path, data, (gssize)n, NULL));
	return path;
}

static void
assert_limit_error(const GError *error)
{
	assert_non_null(error);
	assert_true(g_error_matches(error, BASE_ERROR, BASE_ERROR_LIMIT));
	assert_non_null(strstr(error->message, "the input size limit is 4096 bytes (set "
	                                       "DRASIM_MAX_INPUT_BYTES to raise it)"));
}

/* 4096 bytes pass at a 4096-byte limit, 4097 do not. */
static void
test_read__regular_file_at_and_over_the_limit(void **state)
{
	g_autofree char *at = temp_file_of(4096);
	g_autofree char *over = temp_file_of(4097);
	g_autofree char *data = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;

	base_limit_set(BASE_LIMIT_INPUT_BYTES, 4096);
	assert_true(base_read_file(at, &data, &len, &error));
	assert_int_equal(len, 4096);
	assert_int_equal(data[4096], '\0');
	assert_false(base_read_file(over, &data, &len, &error));
	assert_limit_error(error);
	g_unlink(at);
	g_unlink(over);
	base_limit_set(BASE_LIMIT_INPUT_BYTES, 0);
}

/* /dev/zero never ends and stats as size 0: chunked reading stops at 4097. */
static void
test_read__dev_zero(void **state)
{
	g_autofree char *data = NULL;
	g_autoptr(GError) error = NULL;

	base_limit_set(BASE_LIMIT_INPUT_BYTES, 4096);
	assert_false(base_read_file("/dev/zero", &data, NULL, &error));
	assert_limit_error(error);
	assert_null(data);
	base_limit_set(BASE_LIMIT_INPUT_BYTES, 0);
}

static gpointer
feed_fifo(gpointer path)
{
	static const char block[1000];
	FILE *f = fopen(path, "w");

	/* 10 000 bytes; the reader may close early (SIGPIPE is ignored below) */
	for (guint i = 0; f != NULL && i < 10; i++)
		if (fwrite(block, 1, sizeof(block), f) != sizeof(block))
			break;
	if (f != NULL)
		fclose(f);
	return NULL;
}

/* A FIFO is read in chunks: 10 000 bytes fail at 4096, 3000 pass. */
static void
test_read__fifo(void **state)
{
	g_autofree char *dir = g_dir_make_tmp("drasim-base-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "fifo", NULL);
	g_autofree char *data = NULL;
	g_autoptr(GError) error = NULL;
	GThread *writer;

	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(mkfifo(path, 0600), 0);
	base_limit_set(BASE_LIMIT_INPUT_BYTES, 4096);
	writer = g_thread_new("fifo", feed_fifo, path);
	assert_false(base_read_file(path, &data, NULL, &error));
	assert_limit_error(error);
	g_thread_join(writer);
	base_limit_set(BASE_LIMIT_INPUT_BYTES, 20000);
	g_clear_error(&error);
	writer = g_thread_new("fifo", feed_fifo, path);
	assert_true(base_read_file(path, &data, NULL, &error));
	g_thread_join(writer);
	base_limit_set(BASE_LIMIT_INPUT_BYTES, 0);
	g_unlink(path);
	g_rmdir(dir);
}

static void
test_read__missing_file(void **state)
{
	g_autofree char *data = NULL;
	g_autoptr(GError) error = NULL;

	assert_false(base_read_file("/nonexistent/drasim", &data, NULL, &error));
	assert_true(g_error_matches(error, BASE_ERROR, BASE_ERROR_READ));
}

/* Defaults, the environment (with binary suffixes) and a bad value. */
static void
test_limits__environment(void **state)
{
	g_autofree char *text = NULL;

	g_unsetenv("DRASIM_MAX_PODS");
	assert_int_equal(base_limit_get(BASE_LIMIT_PODS), 1000000);
	assert_int_equal(base_limit_get(BASE_LIMIT_INPUT_BYTES), 256u << 20);
	g_setenv("DRASIM_MAX_PODS", "2Ki", TRUE);
	assert_int_equal(base_limit_get(BASE_LIMIT_PODS), 2048);
	g_setenv("DRASIM_MAX_PODS", "lots", TRUE);
	assert_int_equal(base_limit_get(BASE_LIMIT_PODS), 1000000);
	g_setenv("DRASIM_MAX_PODS", "5", TRUE);
	text = base_limit_describe(BASE_LIMIT_PODS);
	assert_string_equal(text, "the pods limit is 5 (set DRASIM_MAX_PODS to raise it)");
	g_unsetenv("DRASIM_MAX_PODS");
}

/* JSON depth at the limit (3) passes and one deeper fails where the 4th
 * bracket opens: `[{"a":[[1]]}]` has it at byte 7, column 8. Brackets in
 * strings, escaped quotes included, are not nesting. */
static void
test_json__depth_at_and_over_the_limit(void **state)
{
	static const char at[] = "[{\"a\":[1]}]";
	static const char over[] = "[{\"a\":[[1]]}]";
	static const char quoted[] = "[\"[[[[\", {\"b\\\"[[\": [1]}]";
	g_autoptr(GError) error = NULL;

	(void)state;
	g_setenv("DRASIM_MAX_JSON_DEPTH", "3", TRUE);
	assert_true(base_json_check_depth("at.json", at, strlen(at), NULL));
	assert_true(base_json_check_depth("quoted.json", quoted, strlen(quoted), NULL));
	assert_false(base_json_check_depth("over.json", over, strlen(over), &error));
	assert_true(g_error_matches(error, BASE_ERROR, BASE_ERROR_LIMIT));
	assert_string_equal(
	        error->message,
	        "over.json:1:8: JSON nested deeper than 3 levels; the JSON nesting "
	        "depth limit is 3 (set DRASIM_MAX_JSON_DEPTH to raise it), at most 1000");
	g_unsetenv("DRASIM_MAX_JSON_DEPTH");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read__regular_file_at_and_over_the_limit),
		cmocka_unit_test(test_read__dev_zero),
		cmocka_unit_test(test_read__fifo),
		cmocka_unit_test(test_read__missing_file),
		cmocka_unit_test(test_limits__environment),
		cmocka_unit_test(test_json__depth_at_and_over_the_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
