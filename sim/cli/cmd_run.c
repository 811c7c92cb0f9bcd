/*
 * cmd_run.c: `drasim run SCENARIO` replays one mode of a scenario (or, with
 * `drasim compare`, every mode) and writes the report through reports/
 * (text or JSON on stdout; with -o DIR also CSV and HTML, the directory
 * replaced as a whole: reports/rpt_output.c). On a terminal a
 * progress line on stderr shows simulated time of the horizon, pods bound,
 * events/s and an ETA (cli_progress.c).
 */
#include "cmd_run.h"

#include <stdio.h>

#include "base_strict.h"
#include "cli.h"
#include "rpt.h"
#include "world.h"

typedef struct {
	char *mode;
	gint64 seed;
	char *horizon;
	char *output;
	char *format;
	char *baseline; /* compare: the HTML page's baseline mode */
	gboolean progress;
	CliProgress line;
} RunArgs;

static void
run_args_clear(RunArgs *a)
{
	g_free(a->mode);
	g_free(a->horizon);
	g_free(a->output);
	g_free(a->format);
	g_free(a->baseline);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(RunArgs, run_args_clear)

/* --format LIST: NULL when every name is known (and csv, html have -o), else why not. */
static char *
formats_problem(const char *formats, gboolean have_dir)
{
	static const char *const known[] = { "text", "json", "csv", "html", NULL };
	g_auto(GStrv) parts = NULL;

	if (formats == NULL)
		return NULL;
	parts = g_strsplit(formats, ",", -1);
	for (guint i = 0; parts[i] != NULL; i++) {
		gboolean file_only = g_str_equal(parts[i], "csv") || g_str_equal(parts[i], "html");

		if (!base_strict_is_known(parts[i], known))
			return base_strict_unknown("--format: unknown format", parts[i], known,
			                           "formats (a comma list)");
		if (file_only && !have_dir)
			return g_strdup_printf("--format %s writes files: it needs -o DIR",
			                       parts[i]);
	}
	return NULL;
}

/* Only on a terminal: the wall clock is read in cli_progress.c, never in the engine. */
static void
on_progress(SimTime now, guint64 pods, guint64 events, gpointer data)
{
	RunArgs *a = data;

	cli_progress_show(&a->line, now, pods, events);
}

static int
run_modes(Scenario *sc, RunArgs *a, gboolean compare, SimTime horizon, K8sDiagList *diags)
{
	g_autoptr(GPtrArray) results =
	        g_ptr_array_new_with_free_func((GDestroyNotify)scenario_result_free);
	g_autoptr(GError) error = NULL;
	RptReport *report;
	gboolean ok;

	for (guint i = 0; i < sc->modes->len; i++) {
		const ScenarioMode *m = &g_array_index(sc->modes, ScenarioMode, i);
		ScenarioResult *r;

		if (!compare && g_strcmp0(m->name, a->mode) != 0)
			continue;
		cli_progress_start(&a->line, m->name, horizon > 0 ? horizon : sc->horizon);
		r = scenario_run(sc, m, (guint64)a->seed, horizon, a->progress ? on_progress : NULL,
		                 a, diags, &error);
		if (a->progress)
			cli_progress_end(&a->line);
		if (r == NULL) {
			k8s_diag_list_sort(diags);
			k8s_diag_list_print(diags, stderr);
			fprintf(stderr, "drasim: %s\n", error->message);
			return CLI_EXIT_INPUT_ERROR;
		}
		g_ptr_array_add(results, r);
	}
	k8s_diag_list_print(diags, stderr);
	report = scenario_report_build(sc, (ScenarioResult *const *)results->pdata, results->len);
	rpt_report_set_baseline(report, a->baseline); /* checked against the modes before the run */
	ok = rpt_write_formats(report, a->format, a->output, &error);
	rpt_report_free(report);
	if (!ok) {
		fprintf(stderr, "drasim: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	return CLI_EXIT_OK;
}

/* Checked before the run: a directory drasim may not write is refused at once, not after it. */
static gboolean
output_dir_usable(const char *dir)
{
	g_autoptr(GError) error = NULL;

	if (rpt_output_dir_check(dir, &error))
		return TRUE;
	fprintf(stderr, "drasim: %s\n", error->message);
	return FALSE;
}

int
cli_check_mode(const Scenario *sc, const char *mode)
{
	g_autofree const char **names = NULL;
	g_autofree char *msg = NULL;

	if (scenario_lookup_mode(sc, mode) != NULL)
		return CLI_EXIT_OK;
	names = g_new0(const char *, sc->modes->len + 1);
	for (guint i = 0; i < sc->modes->len; i++)
		names[i] = g_array_index(sc->modes, ScenarioMode, i).name;
	msg = base_strict_unknown("no such mode", mode, names, "modes");
	return cli_usage_error(NULL, msg);
}

int
cli_run_common(int argc, char **argv, gboolean compare)
{
	g_auto(RunArgs) a = { 0 };
	GOptionEntry entries[] = {
		{ "mode", 'm', 0, G_OPTION_ARG_STRING, &a.mode, "mode to run (default: the first)",
		  "M" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &a.seed, "seed (default: the scenario's)",
		  "N" },
		{ "horizon", 0, 0, G_OPTION_ARG_STRING, &a.horizon, "stop at this simulated time",
		  "D" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output,
		  "write report.txt, report.json, ... into DIR", "DIR" },
		{ "format", 0, 0, G_OPTION_ARG_STRING, &a.format,
		  "text (default), json, csv, html, or a comma list (csv and html need -o)", "F" },
		{ "baseline", 0, 0, G_OPTION_ARG_STRING, &a.baseline,
		  "compare: the mode the HTML page's deltas are against (default: the first)",
		  "M" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new(compare ? "SCENARIO - run every mode, one side-by-side table"
	                                     : "SCENARIO - replay one mode of a scenario");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = NULL;
	g_autofree char *problem = NULL;
	SimTime horizon = 0;
	int rc;

	if (!compare) /* --baseline is compare's alone: run has one mode */
		entries[G_N_ELEMENTS(entries) - 2] = entries[G_N_ELEMENTS(entries) - 1];
	g_option_context_add_main_entries(context, compare ? entries + 1 : entries, NULL);
	if ((rc = cli_parse_options(context, &argc, &argv)) != CLI_EXIT_OK)
		return rc;
	if (argc != 2)
		return cli_usage_error(compare ? "compare" : "run", "expected one scenario file");
	if ((problem = formats_problem(a.format, a.output != NULL)) != NULL)
		return cli_usage_error(NULL, problem);
	if (a.seed < 0)
		return cli_usage_error(compare ? "compare" : "run", "--seed must be >= 0");
	if (a.horizon != NULL) {
		g_autoptr(GError) error = NULL;

		if (!sim_time_parse(a.horizon, &horizon, &error) || horizon <= 0)
			return cli_usage_error(compare ? "compare" : "run",
			                       "--horizon expects a duration > 0 like 2h or 7d");
	}
	if (a.output != NULL && !output_dir_usable(a.output))
		return CLI_EXIT_INPUT_ERROR;
	sc = scenario_load(argv[1], diags);
	if (sc == NULL) {
		k8s_diag_list_sort(diags);
		k8s_diag_list_print(diags, stderr);
		return CLI_EXIT_INPUT_ERROR;
	}
	if (compare && a.baseline != NULL && scenario_lookup_mode(sc, a.baseline) == NULL)
		return cli_compare_unknown_baseline(sc, a.baseline);
	if (!compare) {
		if (a.mode == NULL)
			a.mode = g_strdup(g_array_index(sc->modes, ScenarioMode, 0).name);
		if ((rc = cli_check_mode(sc, a.mode)) != CLI_EXIT_OK)
			return rc;
	}
	a.progress = cli_progress_wanted();
	return run_modes(sc, &a, compare, horizon, diags);
}

int
cli_run_main(int argc, char **argv)
{
	return cli_run_common(argc, argv, FALSE);
}
