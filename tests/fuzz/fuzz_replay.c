/*
 * fuzz_replay.c: main() for a fuzz target in the normal build. Replays every file named,
 * or found in a folder named, through the target's LLVMFuzzerTestOneInput(), in sorted
 * order: the regression inputs of tests/data/fuzz-regress/TARGET/ and the seed corpus.
 * A replayed input fails by crashing, aborting or (under the asan test setup) by a
 * sanitizer report or a leak; the runner then never reaches its summary line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

static int
compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends @path, or the regular files of the folder @path in sorted order, to @files. */
static gboolean
collect(const char *path, GPtrArray *files)
{
	GError *error = NULL;
	GDir *dir;
	const char *name;
	GPtrArray *found;

	if (!g_file_test(path, G_FILE_TEST_IS_DIR)) {
		g_ptr_array_add(files, g_strdup(path));
		return TRUE;
	}
	if ((dir = g_dir_open(path, 0, &error)) == NULL) {
		fprintf(stderr, "fuzz-replay: %s\n", error->message);
		g_error_free(error);
		return FALSE;
	}
	found = g_ptr_array_new();
	while ((name = g_dir_read_name(dir)) != NULL) {
		char *file = g_build_filename(path, name, NULL);

		if (g_file_test(file, G_FILE_TEST_IS_REGULAR) && !g_str_has_suffix(name, ".md"))
			g_ptr_array_add(found, file);
		else
			g_free(file);
	}
	g_dir_close(dir);
	g_ptr_array_sort(found, compare_names);
	for (guint i = 0; i < found->len; i++)
		g_ptr_array_add(files, found->pdata[i]);
	g_ptr_array_unref(found);
	return TRUE;
}

int
main(int argc, char **argv)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	guint passed = 0, failed = 0;

	for (int i = 1; i < argc; i++) {
		if (!collect(argv[i], files))
			failed++;
	}
	for (guint i = 0; i < files->len; i++) {
		const char *file = files->pdata[i];
		GError *error = NULL;
		char *data = NULL;
		gsize len = 0;

		if (!g_file_get_contents(file, &data, &len, &error)) {
			fprintf(stderr, "FAIL %s: %s\n", file, error->message);
			g_error_free(error);
			failed++;
			continue;
		}
		(void)LLVMFuzzerTestOneInput((const uint8_t *)data, len);
		g_free(data);
		passed++;
	}
	if (files->len == 0) {
		fprintf(stderr, "fuzz-replay: no input to replay\n");
		failed++;
	}
	printf("%u passed, %u failed, 0 skipped\n", passed, failed);
	g_ptr_array_unref(files);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
