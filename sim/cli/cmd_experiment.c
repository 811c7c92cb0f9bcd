/*
 * cmd_experiment.c: `drasim experiment fgd`, the FGD paper's experiment
 * (issue 15 items 3 and 4) as one command: it checks the options (names of
 * traces, worlds and policies, with the valid ones listed on a miss), loads
 * the traces and hands the grid traces x worlds x policies x seeds to
 * sim/research's runner (research_experiment_run, which runs it on
 * sim/sweep's executor), then writes DIR/fgd.json, fgd.csv and fgd.html (the
 * page drawn from the json text by reports' rpt_fgd_html), each atomically
 * and only after every run succeeded. docs/experiment.md is
 * the user's guide.
 */
#include "drasim-config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "base_strict.h"
#include "cli.h"
#include "research.h"
#include "rpt_fgd.h"
#include "workload.h"

#define CMD "experiment fgd"

/* The openb pod lists of ../shared/traces/alibaba-gpu-v2023 (openb_pod_list_NAME.csv). */
static const char *const fgd_traces[] = {
	"default",    "cpu0",       "cpu037",     "cpu050",     "cpu072",
	"cpu100",     "cpu200",     "cpu235",     "cpu250",     "cpu300",
	"gpushare20", "gpushare40", "gpushare60", "gpushare80", "gpushare100",
	"gpuspec05",  "gpuspec10",  "gpuspec20",  "gpuspec25",  "gpuspec33",
	"multigpu20", "multigpu30", "multigpu40", "multigpu50", NULL,
};

typedef struct {
	char **traces, **policies;
	char *worlds, *seeds, *output, *format, *csv_dir, *nodes, *mig_model;
	gint jobs, replicas;
	gint64 capacity_step;
	guint seed_lo, seed_hi;
	gboolean json, csv, html;
	GArray *world_list;     /* ResearchWorld, in ResearchWorld order */
	GPtrArray *policy_list; /* const char *, in research_policy_names() order */
} FgdArgs;

/* A trace given as a path (a '/' or a .csv ending) rather than a list name. */
static gboolean
trace_is_path(const char *trace)
{
	return strchr(trace, '/') != NULL || g_str_has_suffix(trace, ".csv");
}

/* "--OPTION: WHAT 'NAME'; did you mean 'N'? LABEL: A, B, ...", exit 2. */
static int
unknown_name(const char *option,
             const char *name,
             const char *what,
             const char *label,
             const char *const *valid)
{
	g_autofree char *what_in = g_strdup_printf("--%s: %s", option, what);
	g_autofree char *msg = base_strict_unknown(what_in, name, valid, label);

	return cli_usage_error(CMD, msg);
}

static int
check_traces(const FgdArgs *args)
{
	for (guint i = 0; args->traces != NULL && args->traces[i] != NULL; i++) {
		const char *t = args->traces[i];

		if (!trace_is_path(t) && !g_strv_contains(fgd_traces, t))
			return unknown_name("trace", t, "no such openb trace",
			                    "traces (or a path to a pod list CSV)", fgd_traces);
	}
	return CLI_EXIT_OK;
}

/* --worlds LIST (default gpushare; `all`): the worlds in ResearchWorld order. */
static int
parse_worlds(FgdArgs *args)
{
	g_auto(GStrv) names = g_strsplit(args->worlds != NULL ? args->worlds : "gpushare", ",", -1);
	gboolean chosen[RESEARCH_N_WORLDS] = { FALSE };
	gboolean all = args->worlds != NULL && strcmp(args->worlds, "all") == 0;

	for (guint i = 0; !all && names[i] != NULL; i++) {
		ResearchWorld world;

		if (!research_world_parse(names[i], &world))
			return unknown_name("worlds", names[i], "no such world",
			                    "worlds (or all, alone)", research_world_names());
		chosen[world] = TRUE;
	}
	for (guint w = 0; w < RESEARCH_N_WORLDS; w++) {
		ResearchWorld world = w;

		if (all || chosen[w])
			g_array_append_val(args->world_list, world);
	}
	return CLI_EXIT_OK;
}

/* --policy NAME...: by default the paper's six without --worlds, all with it. */
static int
parse_policies(FgdArgs *args)
{
	const char *const *valid = research_policy_names();

	for (guint i = 0; args->policies != NULL && args->policies[i] != NULL; i++) {
		if (!g_strv_contains(valid, args->policies[i]))
			return unknown_name("policy", args->policies[i], "no such policy",
			                    "policies", valid);
	}
	for (guint i = 0; valid[i] != NULL; i++) {
		gboolean wanted =
		        args->policies != NULL
		                ? g_strv_contains((const char *const *)args->policies, valid[i])
		                : args->worlds != NULL ||
		                          research_policy_beyond_production(valid[i]);

		if (wanted)
			g_ptr_array_add(args->policy_list, (gpointer)valid[i]);
	}
	return CLI_EXIT_OK;
}

/* A pair named on both sides that its world refuses is a usage error; from defaults it is
 * recorded (research_experiment_refused) and said once on stderr. */
static int
check_pairs(const FgdArgs *args)
{
	gboolean explicit =
	        args->policies != NULL && args->worlds != NULL && strcmp(args->worlds, "all") != 0;

	for (guint w = 0; w < args->world_list->len; w++) {
		ResearchWorld world = g_array_index(args->world_list, ResearchWorld, w);

		for (guint p = 0; p < args->policy_list->len; p++) {
			const char *policy = args->policy_list->pdata[p];
			const char *why = research_world_refuses(world, policy);
			g_autofree char *msg = NULL;

			if (why == NULL)
				continue;
			msg = g_strdup_printf("world %s, policy %s: %s",
			                      research_world_info(world)->name, policy, why);
			if (explicit)
				return cli_usage_error(CMD, msg);
			fprintf(stderr, "drasim " CMD ": %s (recorded as refused)\n", msg);
		}
	}
	return CLI_EXIT_OK;
}

/* The values themselves (a MIG model of the catalog, replicas and step in range), before any run.
 */
static int
check_world_values(const FgdArgs *args)
{
	for (guint w = 0; w < args->world_list->len; w++) {
		ResearchFgdConfig config = {
			.world = g_array_index(args->world_list, ResearchWorld, w),
			.replicas = (guint)args->replicas,
			.capacity_step = args->capacity_step,
			.mig_model = args->mig_model,
		};
		g_autoptr(GError) error = NULL;

		if (!research_world_check(&config, &error))
			return cli_usage_error(CMD, error->message);
	}
	return CLI_EXIT_OK;
}

static int
check_world_options(const FgdArgs *args)
{
	static const struct {
		const char *option;
		ResearchWorld world;
	} owners[] = {
		{ "--replicas", RESEARCH_WORLD_TIME_SLICING },
		{ "--capacity-step", RESEARCH_WORLD_DRA_CAPACITY },
		{ "--mig-model", RESEARCH_WORLD_DRA_MIG },
	};
	gboolean given[] = { args->replicas != 0, args->capacity_step != 0,
		             args->mig_model != NULL };

	if (args->replicas < 0 || args->capacity_step < 0)
		return cli_usage_error(CMD, "--replicas and --capacity-step want a number >= 1");
	for (guint i = 0; i < G_N_ELEMENTS(owners); i++) {
		gboolean used = FALSE;

		for (guint w = 0; w < args->world_list->len; w++) {
			ResearchWorld world = g_array_index(args->world_list, ResearchWorld, w);

			used |= world == owners[i].world ||
			        (owners[i].world == RESEARCH_WORLD_DRA_CAPACITY &&
			         (world == RESEARCH_WORLD_DRA_CAPACITY_PICK ||
			          world == RESEARCH_WORLD_DRA_CAPACITY_134));
		}
		if (given[i] && !used) {
			g_autofree char *msg = g_strdup_printf(
			        "%s sets the %s world, which --worlds does not include",
			        owners[i].option, research_world_info(owners[i].world)->name);
			return cli_usage_error(CMD, msg);
		}
	}
	return check_world_values(args);
}

static int
parse_formats(FgdArgs *args)
{
	g_auto(GStrv) formats =
	        g_strsplit(args->format != NULL ? args->format : "json,csv", ",", -1);

	static const char *const known[] = { "json", "csv", "html", NULL };

	for (guint i = 0; formats[i] != NULL; i++) {
		if (strcmp(formats[i], "json") == 0)
			args->json = TRUE;
		else if (strcmp(formats[i], "csv") == 0)
			args->csv = TRUE;
		else if (strcmp(formats[i], "html") == 0)
			args->html = TRUE;
		else
			return unknown_name("format", formats[i], "unknown format", "formats",
			                    known);
	}
	return CLI_EXIT_OK;
}

/*
 * Every run's figures stay in memory until the files are written (about 4 kB a
 * run), so the grid is bounded: 100,000 runs is 400 MB and, at half a second
 * a run of the default trace, a day on two cores.
 */
#define MAX_RUNS 100000

static int
check_grid(const FgdArgs *args)
{
	guint64 traces = args->traces != NULL ? g_strv_length(args->traces) : 1;
	guint64 runs = traces * args->world_list->len * args->policy_list->len *
	               (args->seed_hi - args->seed_lo + 1);
	g_autofree char *msg = NULL;

	if (runs <= MAX_RUNS)
		return CLI_EXIT_OK;
	msg = g_strdup_printf("%" G_GUINT64_FORMAT " runs (traces x worlds x policies x seeds); "
	                      "at most %u: split the experiment",
	                      runs, MAX_RUNS);
	return cli_usage_error(CMD, msg);
}

static int
check_args(FgdArgs *args)
{
	const char *seeds = args->seeds != NULL ? args->seeds : "42-51";
	int status;
	char tail;

	if (args->output == NULL)
		return cli_usage_error(CMD, "-o DIR is required");
	if (sscanf(seeds, "%u-%u%c", &args->seed_lo, &args->seed_hi, &tail) != 2) {
		if (sscanf(seeds, "%u%c", &args->seed_lo, &tail) != 1)
			return cli_usage_error(CMD, "--seeds wants A-B or A (e.g. 42-51)");
		args->seed_hi = args->seed_lo;
	}
	if (args->seed_hi < args->seed_lo || args->seed_hi - args->seed_lo >= 10000)
		return cli_usage_error(CMD, "--seeds: the range A-B needs A <= B and at most "
		                            "10000 seeds");
	if (args->jobs < 0 || args->jobs > 1024)
		return cli_usage_error(CMD, "--jobs wants 0 (the online cores) to 1024");
	status = parse_formats(args);
	if (status == CLI_EXIT_OK)
		status = check_traces(args);
	if (status == CLI_EXIT_OK)
		status = parse_worlds(args);
	if (status == CLI_EXIT_OK)
		status = parse_policies(args);
	if (status == CLI_EXIT_OK)
		status = check_world_options(args);
	if (status == CLI_EXIT_OK)
		status = check_grid(args);
	if (status == CLI_EXIT_OK)
		status = check_pairs(args);
	return status;
}

static WorkloadTrace *
load_trace(const FgdArgs *args, const char *trace, GError **error)
{
	g_autofree char *file = g_strdup_printf("openb_pod_list_%s.csv", trace);
	g_autofree char *pods = trace_is_path(trace) ? g_strdup(trace)
	                                             : g_build_filename(args->csv_dir, file, NULL);
	g_autofree char *nodes =
	        args->nodes != NULL
	                ? g_strdup(args->nodes)
	                : g_build_filename(args->csv_dir, "openb_node_list_gpu_node.csv", NULL);
	WorkloadTrace *loaded = workload_trace_new();

	if (!workload_trace_load_nodes(loaded, nodes, error) ||
	    !workload_trace_load_pods(loaded, pods, error)) {
		workload_trace_free(loaded);
		return NULL;
	}
	return loaded;
}

/* Every trace into @loaded, its name (a path: the file name without .csv) into @names. */
static gboolean
load_all(const FgdArgs *args, GPtrArray *names, GPtrArray *loaded)
{
	static const char *const default_trace[] = { "default", NULL };
	const char *const *traces =
	        args->traces != NULL ? (const char *const *)args->traces : default_trace;

	for (guint i = 0; traces[i] != NULL; i++) {
		g_autoptr(GError) error = NULL;
		WorkloadTrace *trace = load_trace(args, traces[i], &error);
		g_autofree char *base = g_path_get_basename(traces[i]);

		if (trace == NULL) {
			fprintf(stderr, "drasim " CMD ": %s\n", error->message);
			return FALSE;
		}
		if (trace_is_path(traces[i]) && g_str_has_suffix(base, ".csv"))
			base[strlen(base) - 4] = '\0';
		g_ptr_array_add(loaded, trace);
		g_ptr_array_add(names, g_steal_pointer(&base));
	}
	return TRUE;
}

/* DIR/NAME written atomically (g_file_set_contents renames a complete temporary file). */
static gboolean
write_output(const char *dir, const char *name, const char *text)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) error = NULL;
	gboolean ok = g_file_set_contents(path, text, -1, &error);

	if (!ok)
		fprintf(stderr, "drasim " CMD ": %s\n", error->message);
	return ok;
}

/* Every file made first, then written: a failure makes none. The page is drawn from
 * fgd.json's own text (rpt_fgd.h), so a saved fgd.json redraws the same page. */
static gboolean
write_outputs(const FgdArgs *args, const ResearchExperiment *exp)
{
	g_autofree char *json = research_experiment_json(exp);
	g_autofree char *csv = args->csv ? research_experiment_csv(exp) : NULL;
	g_autoptr(GError) error = NULL;
	g_autofree char *html = args->html ? rpt_fgd_html(json, -1, &error) : NULL;

	if (args->html && html == NULL) {
		fprintf(stderr, "drasim " CMD ": fgd.html: %s\n", error->message);
		return FALSE;
	}
	return (!args->json || write_output(args->output, "fgd.json", json)) &&
	       (!args->csv || write_output(args->output, "fgd.csv", csv)) &&
	       (!args->html || write_output(args->output, "fgd.html", html));
}

static int
experiment_fgd(const FgdArgs *args)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) loaded =
	        g_ptr_array_new_with_free_func((GDestroyNotify)workload_trace_free);
	g_autoptr(ResearchExperiment) exp = NULL;
	g_autoptr(GError) error = NULL;
	gboolean tty = isatty(STDERR_FILENO);
	ResearchExperimentConfig config = { 0 };

	if (!load_all(args, names, loaded))
		return CLI_EXIT_INPUT_ERROR;
	if (g_mkdir_with_parents(args->output, 0755) != 0) {
		fprintf(stderr, "drasim " CMD ": %s: %s\n", args->output, g_strerror(errno));
		return CLI_EXIT_INPUT_ERROR;
	}
	config = (ResearchExperimentConfig){
		(const char *const *)names->pdata,
		(const WorkloadTrace *const *)loaded->pdata,
		names->len,
		(const ResearchWorld *)args->world_list->data,
		args->world_list->len,
		(const char *const *)args->policy_list->pdata,
		args->policy_list->len,
		args->seed_lo,
		args->seed_hi - args->seed_lo + 1,
		1.3, /* the paper's 130 % of GPU capacity */
		(guint)args->replicas,
		args->capacity_step,
		args->mig_model,
		(guint)args->jobs,
		tty,
		!tty,
	};
	exp = research_experiment_run(&config, &error);
	if (exp == NULL) {
		fprintf(stderr, "drasim " CMD ": %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	return write_outputs(args, exp) ? CLI_EXIT_OK : CLI_EXIT_INPUT_ERROR;
}

static char *
default_csv_dir(void)
{
	const char *env = g_getenv("DRASIM_TRACES");

	if (env != NULL)
		return g_strdup(env);
	return g_build_filename(DRASIM_SOURCE_ROOT, "..", "shared", "traces", "alibaba-gpu-v2023",
	                        "csv", NULL);
}

static void
fgd_args_clear(FgdArgs *args)
{
	g_strfreev(args->traces);
	g_strfreev(args->policies);
	g_free(args->worlds);
	g_free(args->seeds);
	g_free(args->output);
	g_free(args->format);
	g_free(args->csv_dir);
	g_free(args->nodes);
	g_free(args->mig_model);
	g_array_unref(args->world_list);
	g_ptr_array_unref(args->policy_list);
}

int
cli_experiment_main(int argc, char **argv)
{
	FgdArgs args = { .jobs = 1 }; /* option strings NULL until given: GOption overwrites */
	GOptionEntry entries[] = {
		{ "trace", 0, 0, G_OPTION_ARG_STRING_ARRAY, &args.traces,
		  "an openb trace name (default, cpu050, ...) or a pod list CSV; repeatable",
		  "NAME|PATH" },
		{ "policy", 0, 0, G_OPTION_ARG_STRING_ARRAY, &args.policies,
		  "a policy (Random, DotProd, GpuClustering, GpuPacking, BestFit, FGD, "
		  "LeastAllocated, ...); repeatable (default: the paper's six; with --worlds, all "
		  "ten)",
		  "NAME" },
		{ "worlds", 0, 0, G_OPTION_ARG_STRING, &args.worlds,
		  "worlds, comma-separated (gpushare, whole, time-slicing, dra-capacity, "
		  "dra-capacity-pick, dra-mig, dra-capacity-1.34) or all (default gpushare)",
		  "LIST" },
		{ "seeds", 0, 0, G_OPTION_ARG_STRING, &args.seeds, "seeds A-B (default 42-51)",
		  "A-B" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &args.jobs,
		  "runs at once in child processes (default 1: in this process; 0: the online "
		  "cores)",
		  "N" },
		{ "replicas", 0, 0, G_OPTION_ARG_INT, &args.replicas,
		  "time-slicing: replicas per GPU (default: the world's)", "R" },
		{ "capacity-step", 0, 0, G_OPTION_ARG_INT64, &args.capacity_step,
		  "dra-capacity: the request policy's step in milli-GPU (default: the world's)",
		  "S" },
		{ "mig-model", 0, 0, G_OPTION_ARG_STRING, &args.mig_model,
		  "dra-mig: a MIG-capable GPU model of the catalog (default: the world's)", "M" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &args.output, "output folder", "DIR" },
		{ "format", 0, 0, G_OPTION_ARG_STRING, &args.format,
		  "json,csv,html (default json,csv)", "LIST" },
		{ "csv-dir", 0, 0, G_OPTION_ARG_FILENAME, &args.csv_dir,
		  "folder of the openb CSVs (default $DRASIM_TRACES or ../shared/traces/...)",
		  "DIR" },
		{ "nodes", 0, 0, G_OPTION_ARG_FILENAME, &args.nodes,
		  "node list CSV (default: CSV-DIR/openb_node_list_gpu_node.csv)", "PATH" },
		{ NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("fgd -o DIR: the FGD paper's experiment (docs/experiment.md)");
	int status;

	args.world_list = g_array_new(FALSE, FALSE, sizeof(ResearchWorld));
	args.policy_list = g_ptr_array_new();
	g_option_context_add_main_entries(context, entries, NULL);
	status = cli_parse_options(context, &argc, &argv);
	if (status == CLI_EXIT_OK && (argc != 2 || strcmp(argv[1], "fgd") != 0)) {
		static const char *const experiments[] = { "fgd", NULL };
		g_autofree char *msg =
		        argc >= 2 ? base_strict_unknown("unknown experiment", argv[1], experiments,
		                                        "experiments")
		                  : g_strdup("expected an experiment; experiments: fgd");

		status = cli_usage_error("experiment", msg);
	}
	if (status == CLI_EXIT_OK)
		status = check_args(&args);
	if (status == CLI_EXIT_OK) {
		if (args.csv_dir == NULL)
			args.csv_dir = default_csv_dir();
		status = experiment_fgd(&args);
	}
	fgd_args_clear(&args);
	return status;
}
