/*
 * bench_lint.c: how fast lint reads ResourceSlices, next to libyaml alone on the same bytes.
 *
 * Generates (or reads) a `v1 List` of ResourceSlices, holds it in memory, and times, in the
 * same run and alternating, (a) libyaml parsing it to events and (b) drasim's lint of it:
 * strict decoding into typed objects, Kubernetes validation and the cross-checks
 * (k8s_load_data + k8s_lint_set). Reading the file is not timed. Times are the thread's
 * CPU time, so other processes on a shared machine do not skew the ratio; the best of
 * --runs is reported for each. The goal is lint within 3x of libyaml's own parse time.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "k8s_lint.h"
#include "slices_gen.h"
#include "yaml_events.h"

/* CPU time of this thread, in microseconds. */
static gint64
cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (gint64)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static gint64
time_libyaml(const char *data, gsize len, guint64 *events)
{
	gint64 start = cpu_now();

	*events = yaml_events_count(data, len, "bench-lint");
	return cpu_now() - start;
}

static gint64
time_lint(const char *data, gsize len, guint *objects, guint *diagnostics)
{
	K8sObjectSet *set = k8s_object_set_new();
	K8sDiagList *diags = k8s_diag_list_new();
	gint64 start = cpu_now(), elapsed;

	k8s_load_data("slices.yaml", data, len, K8S_LOAD_DEFAULT, set, diags);
	k8s_lint_set(set, diags);
	elapsed = cpu_now() - start;
	*objects = k8s_object_set_count(set);
	*diagnostics = k8s_diag_list_count(diags);
	if (*diagnostics > 0) {
		k8s_diag_list_print(diags, stderr);
	}
	k8s_diag_list_free(diags);
	k8s_object_set_free(set);
	return elapsed;
}

int
main(int argc, char **argv)
{
	gint n_slices = 10000, n_devices = 8, runs = 3;
	g_autofree char *input = NULL;
	GOptionEntry entries[] = {
		{ "slices", 0, 0, G_OPTION_ARG_INT, &n_slices, "ResourceSlices to generate", "N" },
		{ "devices", 0, 0, G_OPTION_ARG_INT, &n_devices, "devices per slice", "M" },
		{ "runs", 0, 0, G_OPTION_ARG_INT, &runs, "timed runs of each (best counts)", "R" },
		{ "input", 0, 0, G_OPTION_ARG_FILENAME, &input, "lint this file instead", "FILE" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context = g_option_context_new("- lint throughput");
	g_autoptr(GError) error = NULL;
	g_autofree char *data = NULL;
	gint64 best_yaml = G_MAXINT64, best_lint = G_MAXINT64;
	guint objects = 0, diagnostics = 0;
	guint64 events = 0;
	gsize len = 0;

	g_option_context_add_main_entries(context, entries, NULL);
	if (!g_option_context_parse(context, &argc, &argv, &error) || runs < 1 || n_slices < 0 ||
	    n_devices < 0) {
		fprintf(stderr, "bench-lint: %s\n", error != NULL ? error->message : "bad option");
		return 2;
	}
	if (input == NULL) {
		g_autofree char *path = NULL;
		int fd = g_file_open_tmp("drasim-bench-lint-XXXXXX.yaml", &path, &error);
		FILE *out = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (out == NULL) {
			fprintf(stderr, "bench-lint: cannot create a temporary file\n");
			return 1;
		}
		slices_gen_write(out, (guint)n_slices, (guint)n_devices);
		fclose(out);
		if (!g_file_get_contents(path, &data, &len, &error)) {
			fprintf(stderr, "bench-lint: %s\n", error->message);
			return 1;
		}
		g_unlink(path);
	} else if (!g_file_get_contents(input, &data, &len, &error)) {
		fprintf(stderr, "bench-lint: %s\n", error->message);
		return 1;
	}
	for (gint r = 0; r < runs; r++) {
		best_yaml = MIN(best_yaml, time_libyaml(data, len, &events));
		best_lint = MIN(best_lint, time_lint(data, len, &objects, &diagnostics));
	}
	double ys = (double)best_yaml / 1e6, ls = (double)best_lint / 1e6;
	printf("input: %u objects (%d ResourceSlices x %d devices), %.1f MB, %" G_GUINT64_FORMAT
	       " libyaml events\n",
	       objects, n_slices, n_devices, (double)len / 1e6, events);
	printf("libyaml parse (events only):           %8.3f s CPU  %8.1f MB/s\n", ys,
	       (double)len / 1e6 / ys);
	printf("drasim lint (decode+validate+xcheck):  %8.3f s CPU  %8.0f objects/s  %8.0f "
	       "devices/s\n",
	       ls, (double)objects / ls, (double)objects * n_devices / ls);
	printf("lint / libyaml: %.2fx (goal: at most 3x); %u diagnostics; best of %d runs\n",
	       ls / ys, diagnostics, runs);
	return diagnostics == 0 ? 0 : 1;
}
