/*
 * cmd_plan.c: `drasim plan SCENARIO --pool NAME ... --slo 'METRIC OP VALUE'
 * ... -o DIR`: the smallest count of a node pool, or the cheapest mix of
 * pools, such that the SLOs hold on the confidence bound across seeds, per
 * mode (sim/plan). This file reads the command line into a PlanSpec, checks
 * everything it can before anything runs, and prints plan.txt.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "plan.h"
#include "sweep.h"

typedef struct {
	char **pools;
	char **costs;
	char **slos;
	char *seeds;
	double confidence;
	gint min, max, jobs;
	char *horizon;
	char *output;
} PlanArgs;

static void
plan_args_clear(PlanArgs *a)
{
	g_strfreev(a->pools);
	g_strfreev(a->costs);
	g_strfreev(a->slos);
	g_free(a->seeds);
	g_free(a->horizon);
	g_free(a->output);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(PlanArgs, plan_args_clear)

static int
usage(const char *message)
{
	return cli_usage_error("plan", message);
}

/* --cost NAME=PRICE for pools of --pool, into @spec->costs in pool order. */
static int
read_costs(PlanSpec *spec, char **costs)
{
	guint n = costs ? g_strv_length(costs) : 0;

	if (n == 0)
		return CLI_EXIT_OK;
	g_array_set_size(spec->costs, spec->pools->len);
	for (guint p = 0; p < spec->pools->len; p++)
		g_array_index(spec->costs, double, p) = -1.0;
	for (guint i = 0; i < n; i++) {
		const char *eq = strchr(costs[i], '=');
		g_autofree char *name = eq ? g_strndup(costs[i], (gsize)(eq - costs[i])) : NULL;
		char *end = NULL;
		double price = eq ? g_ascii_strtod(eq + 1, &end) : 0.0;
		guint p;

		if (eq == NULL || end == eq + 1 || *end != '\0' || !(price >= 0.0))
			return usage("--cost expects NAME=PRICE, a price per node-hour >= 0 "
			             "(e.g. --cost dgx=98.32)");
		if (!g_ptr_array_find_with_equal_func(spec->pools, name, g_str_equal, &p)) {
			g_autofree char *message = g_strdup_printf(
			        "--cost %s: %s is not one of the --pool pools", costs[i], name);
			return usage(message);
		}
		g_array_index(spec->costs, double, p) = price;
	}
	for (guint p = 0; p < spec->pools->len; p++) {
		if (g_array_index(spec->costs, double, p) < 0.0) {
			g_autofree char *message = g_strdup_printf(
			        "no --cost for pool %s: give every pool a cost, or none",
			        (const char *)g_ptr_array_index(spec->pools, p));
			return usage(message);
		}
	}
	return CLI_EXIT_OK;
}

/* The command line into @spec: pools, costs, SLOs, seeds, bounds. */
static int
read_spec(PlanSpec *spec, const PlanArgs *a)
{
	g_autoptr(GError) error = NULL;
	int rc;

	for (guint i = 0; a->pools && a->pools[i]; i++)
		g_ptr_array_add(spec->pools, g_strdup(a->pools[i]));
	if (spec->pools->len == 0)
		return usage("name the pool to plan with --pool NAME (several for a mix)");
	for (guint i = 0; a->slos && a->slos[i]; i++) {
		PlanSlo slo;

		if (!plan_slo_parse(a->slos[i], &slo, &error))
			return usage(error->message);
		g_array_append_val(spec->slos, slo);
	}
	if (spec->slos->len == 0)
		return usage("give the SLOs to meet with --slo 'METRIC OP VALUE', e.g. "
		             "--slo 'pods_pending == 0'");
	if ((rc = read_costs(spec, a->costs)) != CLI_EXIT_OK)
		return rc;
	if (a->seeds != NULL && !sweep_seeds_parse(a->seeds, spec->seeds, &error))
		return usage(error->message);
	if (a->min < -1 || a->max < -1 || a->jobs < 0)
		return usage("--min, --max and --jobs take numbers >= 0");
	spec->min = a->min >= 0 ? (guint)a->min : spec->pools->len > 1 ? 0 : 1;
	spec->max = a->max >= 0 ? (guint)a->max : PLAN_DEFAULT_MAX;
	spec->confidence = a->confidence;
	if (!plan_spec_check(spec, &error))
		return usage(error->message);
	return CLI_EXIT_OK;
}

/* The scenario's modes, pool shapes and default seed; an unknown pool is a usage error. */
static int
check_spec(PlanSpec *spec)
{
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(GError) error = NULL;
	gboolean pool_error = FALSE;

	if (!plan_spec_fill_from_scenario(spec, diags, &pool_error, &error)) {
		if (pool_error)
			return usage(error->message);
		k8s_diag_list_sort(diags);
		k8s_diag_list_print(diags, stderr);
		return CLI_EXIT_INPUT_ERROR;
	}
	return CLI_EXIT_OK;
}

static int
run_plan(const PlanSpec *spec, const PlanArgs *a, SimTime horizon)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *points = g_build_filename(a->output, "points", NULL);
	g_autoptr(PlanEval) eval = NULL;
	g_autoptr(RptPlan) plan = NULL;
	g_autofree char *text = NULL;

	if (!plan_dir_prepare(spec, horizon, a->output, &error)) {
		fprintf(stderr, "drasim plan: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	eval = plan_eval_new(spec, horizon, points, (guint)a->jobs, isatty(STDERR_FILENO));
	plan = plan_search(spec, plan_eval_point, eval, &error);
	if (plan == NULL || !plan_dir_write(plan, a->output, &text, &error)) {
		fprintf(stderr, "drasim plan: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	fputs(text, stdout);
	return CLI_EXIT_OK;
}

int
cli_plan_main(int argc, char **argv)
{
	g_auto(PlanArgs) a = { .confidence = 0.95, .min = -1, .max = -1 };
	GOptionEntry entries[] = {
		{ "pool", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.pools,
		  "the node pool to size (several: the cheapest mix, needs --cost)", "NAME" },
		{ "cost", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.costs,
		  "the price of one node of a pool per hour", "NAME=PRICE" },
		{ "slo", 0, 0, G_OPTION_ARG_STRING_ARRAY, &a.slos,
		  "an objective every mode must meet: 'METRIC OP VALUE' (docs/plan.md)", "SLO" },
		{ "seeds", 0, 0, G_OPTION_ARG_STRING, &a.seeds,
		  "the seeds of every point: A-B, A or a comma list (default: the scenario's)",
		  "A-B" },
		{ "confidence", 0, 0, G_OPTION_ARG_DOUBLE, &a.confidence,
		  "the level of the intervals SLOs are judged on (default 0.95)", "C" },
		{ "min", 0, 0, G_OPTION_ARG_INT, &a.min, "smallest count (default 1; 0 for a mix)",
		  "N" },
		{ "max", 0, 0, G_OPTION_ARG_INT, &a.max, "largest count (default 64)", "N" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &a.jobs, "runs at once (default: the cores)",
		  "N" },
		{ "horizon", 0, 0, G_OPTION_ARG_STRING, &a.horizon, "stop every run at this time",
		  "D" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &a.output,
		  "write points/, plan.txt, plan.json, plan.html into DIR", "DIR" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context = g_option_context_new(
	        "SCENARIO - the smallest pool (or cheapest mix) that meets SLOs, per mode");
	g_autoptr(PlanSpec) spec = NULL;
	SimTime horizon = 0;
	int rc;

	g_option_context_add_main_entries(context, entries, NULL);
	if ((rc = cli_parse_options(context, &argc, &argv)) != CLI_EXIT_OK)
		return rc;
	if (argc != 2)
		return usage("expected one scenario file");
	if (a.output == NULL)
		return usage("-o DIR is required: the runs of every point are kept there");
	if (a.horizon != NULL && (!sim_time_parse(a.horizon, &horizon, NULL) || horizon <= 0))
		return usage("--horizon expects a duration > 0 like 2h or 7d");
	spec = plan_spec_new(argv[1]);
	if ((rc = read_spec(spec, &a)) != CLI_EXIT_OK || (rc = check_spec(spec)) != CLI_EXIT_OK)
		return rc;
	return run_plan(spec, &a, horizon);
}
