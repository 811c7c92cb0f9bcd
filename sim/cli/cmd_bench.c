/*
 * cmd_bench.c: `drasim bench [--quick] [-o FILE] [--check BASELINE] [--runs N]
 * [--all-instructions]`, the benchmark suite (CEL, allocator, PHOLD, end to
 * end) as scheduler_perf DataItems (`drasim.io/bench/v2`, docs/reports.md).
 *
 * The harness is reports/bench/run_bench.py (it runs the benchmark
 * executables of this build, under callgrind for instruction counts); this
 * command finds it in the source tree this drasim was built from and the
 * build directory this drasim lives in, so it works in a development tree,
 * not from an installed drasim. The harness's exit status is passed on:
 * 0, 1 (a benchmark failed, or --check found a regression), 77 (--check
 * cannot compare: no valgrind, or a build unlike the baseline's; meson's
 * "skipped").
 *
 * The harness writes its records into a temporary file that drasim then
 * owns: with -o FILE it is rpt_output's temporary file beside FILE, renamed
 * over FILE only once the harness has written it (an interrupted or failed
 * run leaves the previous FILE); without, its contents go to drasim's
 * checked stdout (cli_output.c).
 */
#include "drasim-config.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "base.h"
#include "cli.h"
#include "rpt.h"

int cli_bench_main(int argc, char **argv);

/* The build directory: drasim is BUILD/sim/cli/drasim. */
static char *
build_dir(void)
{
	g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
	g_autofree char *cli = exe ? g_path_get_dirname(exe) : NULL;
	g_autofree char *sim = cli ? g_path_get_dirname(cli) : NULL;

	return sim ? g_path_get_dirname(sim) : NULL;
}

/* Whether the harness wrote its records into @path (it leaves the file empty when it does not). */
static gboolean
harness_wrote(const char *path)
{
	GStatBuf st;

	return g_stat(path, &st) == 0 && st.st_size > 0;
}

/* Prints the records the harness wrote into @path on stdout. */
static gboolean
copy_to_stdout(const char *path)
{
	g_autofree char *text = NULL;
	gsize length = 0;
	g_autoptr(GError) error = NULL;

	if (!base_read_file(path, &text, &length, &error)) {
		fprintf(stderr, "drasim bench: error: %s: %s\n", path, error->message);
		return FALSE;
	}
	fwrite(text, 1, length, stdout); /* a write error is caught at exit (cli_output.c) */
	return TRUE;
}

/* The harness's exit status, or CLI_EXIT_INPUT_ERROR when it could not run. */
static int
spawn_harness(GPtrArray *args)
{
	g_autoptr(GError) error = NULL;
	int wait_status = 0;

	if (!g_spawn_sync(NULL, (char **)args->pdata, NULL,
	                  G_SPAWN_SEARCH_PATH | G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL,
	                  NULL, &wait_status, &error)) {
		fprintf(stderr, "drasim bench: error: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	if (WIFEXITED(wait_status)) {
		return WEXITSTATUS(wait_status);
	}
	fprintf(stderr, "drasim bench: error: the harness was killed by a signal\n");
	return CLI_EXIT_INPUT_ERROR;
}

/*
 * Runs the harness (@args, NULL-terminated but for -o) with its records
 * going to @output, or to stdout unless only --check (@check_only) was
 * asked for. Returns: the exit status.
 */
static int
run_harness(GPtrArray *args, const char *output, gboolean check_only)
{
	g_autoptr(RptOutputFile) file = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *scratch = NULL;
	const char *records = NULL;
	int status;

	if (output != NULL) {
		if ((file = rpt_output_file_new(output, &error)) == NULL) {
			fprintf(stderr, "drasim bench: error: %s\n", error->message);
			return CLI_EXIT_INPUT_ERROR;
		}
		records = rpt_output_file_get_temp_path(file);
	} else if (!check_only) {
		int fd = g_file_open_tmp("drasim-bench-XXXXXX.json", &scratch, &error);

		if (fd < 0) {
			fprintf(stderr, "drasim bench: error: %s\n", error->message);
			return CLI_EXIT_INPUT_ERROR;
		}
		close(fd);
		records = scratch;
	}
	if (records != NULL) {
		g_ptr_array_insert(args, (gint)args->len - 1, (gpointer) "-o");
		g_ptr_array_insert(args, (gint)args->len - 1, (gpointer)records);
	}
	status = spawn_harness(args);
	/* the harness writes its records even when a benchmark fails (status 1) */
	if (records != NULL && (status == 0 || status == 1) && harness_wrote(records)) {
		if (file != NULL && !rpt_output_file_commit(file, &error)) {
			fprintf(stderr, "drasim bench: error: %s\n", error->message);
			status = CLI_EXIT_INPUT_ERROR;
		} else if (file == NULL && !copy_to_stdout(records)) {
			status = CLI_EXIT_INPUT_ERROR;
		}
	}
	if (scratch != NULL)
		g_unlink(scratch);
	return status;
}

int
cli_bench_main(int argc, char **argv)
{
	gboolean quick = FALSE;
	gboolean all_instructions = FALSE;
	gint runs = 0;
	g_autofree char *output = NULL;
	g_autofree char *check = NULL;
	g_autofree char *family = NULL;
	GOptionEntry entries[] = {
		{ "quick", 'q', 0, G_OPTION_ARG_NONE, &quick, "the CI subset only", NULL },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "write the records to FILE",
		  "FILE" },
		{ "check", 0, 0, G_OPTION_ARG_FILENAME, &check,
		  "diff against BASELINE; exit 1 on an instruction-count regression > 5%",
		  "BASELINE" },
		{ "runs", 0, 0, G_OPTION_ARG_INT, &runs, "wall-time runs per benchmark (default 3)",
		  "N" },
		{ "all-instructions", 0, 0, G_OPTION_ARG_NONE, &all_instructions,
		  "also count e2e_1000nodes under callgrind (40+ minutes)", NULL },
		{ "family", 0, 0, G_OPTION_ARG_STRING, &family,
		  "only this family (cel, alloc, phold, e2e, fgd, api, cel_peers, import)",
		  "NAME" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("- run the benchmarks (wall time and callgrind instructions)");
	g_autofree char *script =
	        g_build_filename(DRASIM_SOURCE_ROOT, "reports", "bench", "run_bench.py", NULL);
	g_autofree char *build = build_dir();
	g_autoptr(GPtrArray) args = g_ptr_array_new();
	g_autofree char *runs_text = NULL;
	int status;

	g_option_context_add_main_entries(context, entries, NULL);
	status = cli_parse_options(context, &argc, &argv);

	if (status != CLI_EXIT_OK) {
		return status;
	}
	if (argc != 1) {
		fprintf(stderr, "drasim bench: unexpected argument '%s'\n", argv[1]);
		return CLI_EXIT_USAGE;
	}
	if (build == NULL || !g_file_test(script, G_FILE_TEST_EXISTS)) {
		fprintf(stderr,
		        "drasim bench: error: %s: not found (drasim bench runs from a build "
		        "tree)\n",
		        script);
		return CLI_EXIT_INPUT_ERROR;
	}
	g_ptr_array_add(args, (gpointer) "python3");
	g_ptr_array_add(args, script);
	g_ptr_array_add(args, (gpointer) "--build");
	g_ptr_array_add(args, build);
	if (quick) {
		g_ptr_array_add(args, (gpointer) "--quick");
	}
	if (check) {
		g_ptr_array_add(args, (gpointer) "--check");
		g_ptr_array_add(args, check);
	}
	if (runs > 0) {
		runs_text = g_strdup_printf("%d", runs);
		g_ptr_array_add(args, (gpointer) "--runs");
		g_ptr_array_add(args, runs_text);
	}
	if (all_instructions) {
		g_ptr_array_add(args, (gpointer) "--all-instructions");
	}
	if (family != NULL) {
		g_ptr_array_add(args, (gpointer) "--family");
		g_ptr_array_add(args, family);
	}
	g_ptr_array_add(args, NULL);
	return run_harness(args, output, check != NULL);
}
