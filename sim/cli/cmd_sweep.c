/*
 * cmd_sweep.c: `drasim sweep SWEEP|SCENARIO [--vary PATH=V1,V2...] --seeds
 * A-B -o DIR` expands a sweep, checks every path and value against the
 * scenario before anything runs, and runs what is not done yet in DIR as
 * child processes (--jobs at once), then merges. run-task and merge are in
 * cmd_sweep_task.c.
 */
#include "cmd_sweep.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base.h"
#include "base_arena.h"
#include "cli.h"
#include "k8s_yaml.h"

typedef struct {
	char **vary;
	char *seeds;
	char *horizon;
	char *output;
	char *name;
	gint64 jobs;
	SweepEngineArgs engine;
} SweepArgs;

static void
sweep_args_clear(SweepArgs *a)
{
	g_strfreev(a->vary);
	g_free(a->seeds);
	g_free(a->horizon);
	g_free(a->output);
	g_free(a->name);
	cli_sweep_engine_args_clear(&a->engine);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SweepArgs, sweep_args_clear)

/* A kind: Sweep document (else the file is read as a scenario). */
static gboolean
file_is_sweep(const char *path)
{
	g_autoptr(BaseArena) arena = base_arena_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	GStringChunk *strings = g_string_chunk_new(1024);
	g_autofree char *data = NULL;
	K8sYamlFile file = { 0 };
	gboolean sweep = FALSE;
	gsize len;

	if (base_read_file(path, &data, &len, NULL) &&
	    k8s_yaml_parse(&(K8sYamlInput){ path, data, len, arena, strings, diags }, &file) &&
	    file.n_docs >= 1) {
		const K8sYamlNode *kind = k8s_yaml_map_lookup(file.docs[0].root, "kind");

		sweep = kind != NULL && kind->kind == K8S_YAML_SCALAR &&
		        strcmp(kind->scalar.text, "Sweep") == 0;
	}
	g_string_chunk_free(strings);
	return sweep;
}

static SweepSpec *
spec_from_args(const char *file, const SweepArgs *a, K8sDiagList *diags, GError **error)
{
	g_autoptr(SweepSpec) spec = NULL;

	if (file_is_sweep(file)) {
		if ((spec = sweep_spec_load(file, diags)) == NULL)
			return NULL;
	} else {
		g_autofree char *scenario = g_canonicalize_filename(file, NULL);

		spec = sweep_spec_new(a->name != NULL ? a->name : "sweep", scenario);
	}
	if (a->name != NULL && spec->file != NULL) {
		g_free(spec->name);
		spec->name = g_strdup(a->name);
	}
	for (guint i = 0; a->vary != NULL && a->vary[i] != NULL; i++)
		if (!sweep_spec_add_vary(spec, a->vary[i], i + 1, error))
			return NULL;
	if (a->seeds != NULL) {
		g_array_set_size(spec->seeds, 0);
		if (!sweep_seeds_parse(a->seeds, spec->seeds, error)) {
			g_prefix_error(error, "--seeds: ");
			return NULL;
		}
	}
	if (a->horizon != NULL && !sim_time_parse(a->horizon, &spec->horizon, error)) {
		g_prefix_error(error, "--horizon: ");
		return NULL;
	}
	return g_steal_pointer(&spec);
}

static int
run_locally(const SweepManifest *manifest, const char *dir, guint jobs)
{
	const SweepSpec *spec = sweep_manifest_get_spec(manifest);
	g_autofree char *cells_dir = g_build_filename(dir, "cells", NULL);
	g_autoptr(GPtrArray) runs = g_ptr_array_new();
	g_autoptr(GArray) flat = g_array_new(FALSE, FALSE, sizeof(SweepRun));
	gboolean tty = isatty(STDERR_FILENO);
	SweepExecOptions options = { jobs, tty, !tty, spec->name };
	g_autoptr(GError) error = NULL;
	SweepExecSummary summary;
	gint64 start = g_get_monotonic_time();
	double wall;

	for (guint i = 0; i < sweep_manifest_get_n_runs(manifest); i++)
		g_array_append_vals(flat, sweep_manifest_get_run(manifest, i), 1);
	if (!sweep_exec_local(spec->scenario, spec->horizon, (const SweepRun *)flat->data,
	                      flat->len, cells_dir, &options, &summary, &error)) {
		fprintf(stderr, "drasim: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	wall = (double)(g_get_monotonic_time() - start) / 1e6;
	fprintf(stderr,
	        "%s: %u runs now (%u failed), %u already done; runs' own time %.2f s, wall %.2f "
	        "s\n",
	        spec->name, summary.done + summary.failed, summary.failed, summary.skipped,
	        summary.cell_seconds, wall);
	return cli_sweep_merge_and_report(manifest, dir);
}

static int
sweep_main(int argc, char **argv)
{
	g_auto(SweepArgs) a = { 0 };
	GOptionEntry entries[] = {
		{ "vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.vary,
		  "vary the scenario field PATH over the values (repeat for a grid)",
		  "PATH=V1,V2,..." },
		{ "seeds", 0, 0, G_OPTION_ARG_STRING, &a.seeds,
		  "the seeds each cell runs: A-B, or a comma list (1-10, 3,5,9)", "SEEDS" },
		{ "horizon", 0, 0, G_OPTION_ARG_STRING, &a.horizon,
		  "stop every run at this simulated time (default: the scenario's)", "D" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT64, &a.jobs,
		  "runs at once, each a process (default: the cores)", "N" },
		{ "name", 0, 0, G_OPTION_ARG_STRING, &a.name, "the sweep's name in its results",
		  "NAME" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output,
		  "the sweep's folder (runs, results; resumed when it holds this sweep)", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context = g_option_context_new(
	        "SWEEP|SCENARIO - run a scenario over a grid of parameters and seeds\n\n"
	        "  drasim sweep run-task DIR --task T --tasks N   one array task's runs\n"
	        "  drasim sweep merge DIR                         results from the runs in DIR");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(SweepSpec) spec = NULL;
	g_autoptr(SweepManifest) manifest = NULL;
	g_autoptr(GError) error = NULL;
	int rc;

	const char *engine_error;
	g_autofree char *engine_refusal = NULL;

	g_option_context_add_main_entries(context, entries, NULL);
	g_option_context_add_group(context, cli_sweep_engine_options(&a.engine));
	if ((rc = cli_parse_options(context, &argc, &argv)) != CLI_EXIT_OK)
		return rc;
	if (argc != 2)
		return cli_usage_error("sweep", "expected one Sweep file or scenario file");
	if ((engine_error = cli_sweep_engine_args_check(&a.engine)) != NULL)
		return cli_usage_error("sweep", engine_error);
	if (a.jobs != 0 && (a.engine.slurm || a.engine.k8s))
		return cli_usage_error("sweep",
		                       "--jobs runs locally; with --slurm or --k8s use --tasks");
	if (a.output == NULL)
		return cli_usage_error("sweep",
		                       "-o DIR is needed: the sweep's runs and results go there");
	if (a.jobs < 0 || a.jobs > 4096)
		return cli_usage_error("sweep", "--jobs takes 1 to 4096 (0 or none: the cores)");
	spec = spec_from_args(argv[1], &a, diags, &error);
	/* A malformed --vary, --seeds or --horizon is the command line's fault (as in drasim plan).
	 */
	if (spec == NULL && error != NULL)
		return cli_usage_error("sweep", error->message);
	if (spec != NULL && spec->seeds->len == 0)
		return cli_usage_error("sweep",
		                       "no seeds: give --seeds A-B (or spec.seeds in a Sweep "
		                       "file)");
	if (spec == NULL || !sweep_spec_check(spec, diags) ||
	    (manifest = sweep_manifest_new(spec, &error)) == NULL) {
		k8s_diag_list_print(diags, stderr);
		if (error != NULL)
			fprintf(stderr, "drasim sweep: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	if ((engine_refusal = cli_sweep_engine_validate(&a.engine, manifest, a.output)) != NULL)
		return cli_usage_error("sweep", engine_refusal);
	if (!sweep_manifest_save(manifest, a.output, &error)) {
		fprintf(stderr, "drasim sweep: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	rc = cli_sweep_engine_run(&a.engine, manifest, a.output);
	return rc >= 0 ? rc : run_locally(manifest, a.output, (guint)a.jobs);
}

int
cli_sweep_main(int argc, char **argv)
{
	static const CliCommand subcommands[] = {
		{ "run-task", "run one array task's slice of a sweep", cli_sweep_run_task_main,
		  "  drasim sweep run-task out/sweep --task 0 --tasks 4\n" },
		{ "merge", "merge a sweep's reports into its results", cli_sweep_merge_main,
		  "  drasim sweep merge out/sweep\n" },
		{ NULL, NULL, NULL, NULL },
	};

	for (const CliCommand *row = subcommands; argc >= 2 && row->name != NULL; row++)
		if (strcmp(argv[1], row->name) == 0)
			return cli_run_row(row, "drasim sweep", argc - 1, argv + 1);
	return sweep_main(argc, argv);
}
