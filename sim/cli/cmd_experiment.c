/*
 * cmd_experiment.c: `drasim experiment fgd`, the FGD paper's experiment
 * (issue 15 item 3) as one command: for each openb trace, policy and seed one
 * run of sim/research's protocol, then per trace, policy and integer arrived
 * % the mean, sample SD and n over seeds of unallocated GPU, fragment amount
 * and fragment ratio, written to DIR/fgd.json and DIR/fgd.csv. Runs go to
 * --jobs child processes forked the way sim/sweep's executor forks; each
 * child sends its run's figures back through a pipe, and the parent keeps
 * them by run index, so the output is the same bytes whatever --jobs is.
 * docs/experiment.md is the user's guide.
 */
#include "drasim-config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cli.h"
#include "research.h"
#include "sweep.h"
#include "workload.h"

#define CMD "experiment fgd"

static const char *const fgd_policies[] = { "Random",     "DotProd", "GpuClustering",
	                                    "GpuPacking", "BestFit", "FGD" };

/* The openb pod lists of ../shared/traces/alibaba-gpu-v2023 (openb_pod_list_NAME.csv). */
static const char *const fgd_traces[] = {
	"default",    "cpu0",       "cpu037",      "cpu050",     "cpu072",     "cpu100",
	"cpu200",     "cpu235",     "cpu250",      "cpu300",     "gpushare20", "gpushare40",
	"gpushare60", "gpushare80", "gpushare100", "gpuspec05",  "gpuspec10",  "gpuspec20",
	"gpuspec25",  "gpuspec33",  "multigpu20",  "multigpu30", "multigpu40", "multigpu50",
};

typedef struct {
	char **traces, **policies;
	char *seeds, *output, *format, *csv_dir, *nodes;
	gint jobs;
	guint seed_lo, seed_hi;
	gboolean json, csv;
} FgdArgs;

typedef struct {
	GPtrArray *labels;   /* char*: the trace names as given (a path: its file name) */
	GPtrArray *loaded;   /* WorkloadTrace* */
	GPtrArray *policies; /* const char* */
	guint n_seeds, seed_lo;
	ResearchFgdRun *runs; /* [trace][policy][seed] */
	double *scratch;      /* n_seeds values of one statistic */
} FgdExperiment;

static char *
names_joined(const char *const *names, guint n)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < n; i++)
		g_string_append_printf(s, "%s%s", i > 0 ? ", " : "", names[i]);
	return g_string_free(s, FALSE);
}

static gboolean
name_in(const char *name, const char *const *names, guint n)
{
	for (guint i = 0; i < n; i++) {
		if (strcmp(name, names[i]) == 0)
			return TRUE;
	}
	return FALSE;
}

/* A trace given as a path (a '/' or a .csv ending) rather than a list name. */
static gboolean
trace_is_path(const char *trace)
{
	return strchr(trace, '/') != NULL || g_str_has_suffix(trace, ".csv");
}

static int
check_names(const FgdArgs *args)
{
	for (guint i = 0; args->traces != NULL && args->traces[i] != NULL; i++) {
		const char *t = args->traces[i];

		if (!trace_is_path(t) && !name_in(t, fgd_traces, G_N_ELEMENTS(fgd_traces))) {
			g_autofree char *valid = names_joined(fgd_traces, G_N_ELEMENTS(fgd_traces));
			g_autofree char *msg = g_strdup_printf(
			        "--trace %s: no such openb trace; the names are %s (or give a path "
			        "to a pod list CSV)",
			        t, valid);
			return cli_usage_error(CMD, msg);
		}
	}
	for (guint i = 0; args->policies != NULL && args->policies[i] != NULL; i++) {
		if (!name_in(args->policies[i], fgd_policies, G_N_ELEMENTS(fgd_policies))) {
			g_autofree char *valid =
			        names_joined(fgd_policies, G_N_ELEMENTS(fgd_policies));
			g_autofree char *msg =
			        g_strdup_printf("--policy %s: not a policy of the FGD experiment; "
			                        "the policies are %s",
			                        args->policies[i], valid);
			return cli_usage_error(CMD, msg);
		}
	}
	return CLI_EXIT_OK;
}

static int
check_args(FgdArgs *args)
{
	g_auto(GStrv) formats = NULL;
	const char *seeds = args->seeds != NULL ? args->seeds : "42-51";
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
	formats = g_strsplit(args->format != NULL ? args->format : "json,csv", ",", -1);
	for (guint i = 0; formats[i] != NULL; i++) {
		if (strcmp(formats[i], "json") == 0)
			args->json = TRUE;
		else if (strcmp(formats[i], "csv") == 0)
			args->csv = TRUE;
		else
			return cli_usage_error(CMD, "--format: the formats are json and csv "
			                            "(html is not built yet)");
	}
	return check_names(args);
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

/* Run @index of [trace][policy][seed], in this process. */
static gboolean
run_one(const FgdExperiment *exp, guint index, ResearchFgdRun *out, GError **error)
{
	guint per_trace = exp->policies->len * exp->n_seeds;
	ResearchFgdConfig config = {
		.policy = exp->policies->pdata[(index % per_trace) / exp->n_seeds],
		.seed = exp->seed_lo + index % exp->n_seeds,
		.tune_ratio = 1.3, /* the paper's 130 % of GPU capacity */
		.world = RESEARCH_WORLD_GPUSHARE,
	};

	return research_fgd_run(exp->loaded->pdata[index / per_trace], &config, out, error);
}

static void
run_error(const FgdExperiment *exp, guint index, const char *message)
{
	guint per_trace = exp->policies->len * exp->n_seeds;

	fprintf(stderr, "drasim " CMD ": trace %s, policy %s, seed %u: %s\n",
	        (const char *)exp->labels->pdata[index / per_trace],
	        (const char *)exp->policies->pdata[(index % per_trace) / exp->n_seeds],
	        exp->seed_lo + index % exp->n_seeds, message);
}

static gboolean
read_all(int fd, void *buf, gsize len)
{
	gsize got = 0;

	while (got < len) {
		gssize r = read(fd, (char *)buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return FALSE;
		got += (gsize)r;
	}
	return TRUE;
}

/* In a child: one run; its figures (or its error text after a 1 byte) down @fd. */
G_GNUC_NORETURN static void
child_run(const FgdExperiment *exp, guint index, int fd)
{
	g_autoptr(GError) error = NULL;
	ResearchFgdRun *out = g_new0(ResearchFgdRun, 1);
	char status = run_one(exp, index, out, &error) ? 0 : 1;
	gboolean ok = write(fd, &status, 1) == 1;

	if (ok && status == 0)
		ok = write(fd, out, sizeof(*out)) == (gssize)sizeof(*out);
	else if (ok)
		ok = write(fd, error->message, strlen(error->message)) >= 0;
	_exit(ok ? 0 : 1);
}

typedef struct {
	pid_t pid;
	int fd;
	guint index;
} FgdChild;

/* Collects the oldest child's run. */
static gboolean
child_collect(const FgdExperiment *exp, const FgdChild *child)
{
	char status = 2, message[512] = "";
	gboolean ok = read_all(child->fd, &status, 1);
	int wstatus = 0;

	if (ok && status == 0)
		ok = read_all(child->fd, &exp->runs[child->index], sizeof(ResearchFgdRun));
	else if (ok) {
		gssize r = read(child->fd, message, sizeof(message) - 1);

		message[MAX(r, 0)] = '\0';
		ok = FALSE;
	}
	close(child->fd);
	while (waitpid(child->pid, &wstatus, 0) < 0 && errno == EINTR)
		;
	if (!ok)
		run_error(exp, child->index, status == 1 ? message : "the child process died");
	return ok;
}

static gboolean
child_start(const FgdExperiment *exp, guint index, FgdChild *child)
{
	int fds[2];

	if (pipe(fds) != 0) {
		run_error(exp, index, g_strerror(errno));
		return FALSE;
	}
	fflush(stdout);
	fflush(stderr);
	child->pid = fork();
	if (child->pid < 0) {
		run_error(exp, index, g_strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return FALSE;
	}
	if (child->pid == 0) {
		close(fds[0]);
		child_run(exp, index, fds[1]);
	}
	close(fds[1]);
	child->fd = fds[0];
	child->index = index;
	return TRUE;
}

static void
progress(guint done, guint total)
{
	fprintf(stderr, "drasim " CMD ": %u/%u runs done\n", done, total);
}

/* Every run, @jobs child processes at once (1: in this process), collected oldest first. */
static gboolean
run_all(const FgdExperiment *exp, guint n_runs, guint jobs)
{
	g_autofree FgdChild *ring = g_new0(FgdChild, jobs);
	guint started = 0, done = 0;
	gboolean ok = TRUE;

	if (jobs == 1) {
		for (; done < n_runs && ok; done++) {
			g_autoptr(GError) error = NULL;

			ok = run_one(exp, done, &exp->runs[done], &error);
			if (!ok)
				run_error(exp, done, error->message);
			progress(done + 1, n_runs);
		}
		return ok;
	}
	while (done < n_runs) {
		while (ok && started < n_runs && started - done < jobs) {
			ok = child_start(exp, started, &ring[started % jobs]);
			started += ok;
		}
		if (done == started)
			break;
		ok = child_collect(exp, &ring[done % jobs]) && ok;
		done++;
		progress(done, n_runs);
	}
	return ok && done == n_runs;
}

/* ---------------------------------------------------------------- output */

static const char *const fgd_metrics[] = { "unallocated_pct", "frag_amount_pct", "frag_ratio_pct" };

static double
metric_of(const ResearchFgdRun *run, guint metric, guint point)
{
	if (!run->has[point])
		return NAN; /* left out by sweep_stat_compute */
	if (metric == 0)
		return run->unallocated_pct[point];
	return metric == 1 ? run->frag_amount_pct[point] : run->frag_ratio_pct[point];
}

/* Over the seeds of trace @t and policy @p: the statistics of @metric at @point. */
static void
stat_at(const FgdExperiment *exp, guint t, guint p, guint metric, guint point, RptStat *out)
{
	const ResearchFgdRun *runs = exp->runs + (t * exp->policies->len + p) * exp->n_seeds;
	for (guint s = 0; s < exp->n_seeds; s++)
		exp->scratch[s] = metric_of(&runs[s], metric, point);
	sweep_stat_compute(exp->scratch, exp->n_seeds, 0.95, out);
}

/* A number with 6 decimals, or @none when it is not defined. */
static void
append_number(GString *s, double v, const char *none)
{
	if (isfinite(v))
		g_string_append_printf(s, "%.6f", v);
	else
		g_string_append(s, none);
}

static void
json_point(GString *s, const FgdExperiment *exp, guint t, guint p, guint point)
{
	g_string_append_printf(s, "        {\"arrived_pct\": %u", point);
	for (guint m = 0; m < G_N_ELEMENTS(fgd_metrics); m++) {
		RptStat st;

		stat_at(exp, t, p, m, point, &st);
		g_string_append_printf(s, ", \"%s\": {\"mean\": ", fgd_metrics[m]);
		append_number(s, st.mean, "null");
		g_string_append(s, ", \"sd\": ");
		append_number(s, st.sd, "null");
		g_string_append_printf(s, ", \"n\": %u}", st.n);
	}
	g_string_append_printf(s, "}%s\n", point + 1 < RESEARCH_FGD_POINTS ? "," : "");
}

static char *
fgd_json(const FgdExperiment *exp)
{
	GString *s = g_string_new("{\n  \"apiVersion\": \"drasim.io/fgd/v1\",\n");

	g_string_append_printf(s,
	                       "  \"world\": \"extended-gpushare\",\n  \"tune_ratio\": 1.3,\n"
	                       "  \"seeds\": {\"from\": %u, \"to\": %u},\n  \"traces\": [\n",
	                       exp->seed_lo, exp->seed_lo + exp->n_seeds - 1);
	for (guint t = 0; t < exp->labels->len; t++) {
		g_string_append_printf(s, "    {\"name\": \"%s\", \"policies\": [\n",
		                       (const char *)exp->labels->pdata[t]);
		for (guint p = 0; p < exp->policies->len; p++) {
			g_string_append_printf(s, "      {\"name\": \"%s\", \"points\": [\n",
			                       (const char *)exp->policies->pdata[p]);
			for (guint point = 0; point < RESEARCH_FGD_POINTS; point++)
				json_point(s, exp, t, p, point);
			g_string_append_printf(s, "      ]}%s\n",
			                       p + 1 < exp->policies->len ? "," : "");
		}
		g_string_append_printf(s, "    ]}%s\n", t + 1 < exp->labels->len ? "," : "");
	}
	g_string_append(s, "  ]\n}\n");
	return g_string_free(s, FALSE);
}

static char *
fgd_csv(const FgdExperiment *exp)
{
	GString *s = g_string_new("trace,policy,arrived_pct,metric,mean,sd,n\n");

	for (guint t = 0; t < exp->labels->len; t++) {
		for (guint p = 0; p < exp->policies->len; p++) {
			for (guint point = 0; point < RESEARCH_FGD_POINTS; point++) {
				for (guint m = 0; m < G_N_ELEMENTS(fgd_metrics); m++) {
					RptStat st;

					stat_at(exp, t, p, m, point, &st);
					g_string_append_printf(
					        s, "%s,%s,%u,%s,",
					        (const char *)exp->labels->pdata[t],
					        (const char *)exp->policies->pdata[p], point,
					        fgd_metrics[m]);
					append_number(s, st.mean, "");
					g_string_append_c(s, ',');
					append_number(s, st.sd, "");
					g_string_append_printf(s, ",%u\n", st.n);
				}
			}
		}
	}
	return g_string_free(s, FALSE);
}

/* DIR/NAME written atomically (g_file_set_contents renames a complete temporary file). */
static gboolean
write_output(const char *dir, const char *name, char *text)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) error = NULL;
	gboolean ok = g_file_set_contents(path, text, -1, &error);

	if (!ok)
		fprintf(stderr, "drasim " CMD ": %s\n", error->message);
	g_free(text);
	return ok;
}

/* ------------------------------------------------------------------ main */

static gboolean
load_all(const FgdArgs *args, FgdExperiment *exp)
{
	static const char *const default_trace[] = { "default", NULL };
	const char *const *traces =
	        args->traces != NULL ? (const char *const *)args->traces : default_trace;

	for (guint i = 0; traces[i] != NULL; i++) {
		g_autoptr(GError) error = NULL;
		WorkloadTrace *loaded = load_trace(args, traces[i], &error);
		g_autofree char *base = g_path_get_basename(traces[i]);

		if (loaded == NULL) {
			fprintf(stderr, "drasim " CMD ": %s\n", error->message);
			return FALSE;
		}
		if (trace_is_path(traces[i]) && g_str_has_suffix(base, ".csv"))
			base[strlen(base) - 4] = '\0';
		g_ptr_array_add(exp->loaded, loaded);
		g_ptr_array_add(exp->labels, g_steal_pointer(&base));
	}
	return TRUE;
}

static int
experiment_fgd(const FgdArgs *args)
{
	FgdExperiment exp = { g_ptr_array_new_with_free_func(g_free),
		              g_ptr_array_new_with_free_func((GDestroyNotify)workload_trace_free),
		              g_ptr_array_new(),
		              args->seed_hi - args->seed_lo + 1,
		              args->seed_lo,
		              NULL,
		              NULL };
	guint jobs = args->jobs > 0 ? (guint)args->jobs : MAX(g_get_num_processors(), 1);
	int status = CLI_EXIT_INPUT_ERROR;
	guint n_runs;

	for (guint i = 0; i < G_N_ELEMENTS(fgd_policies); i++) {
		if (args->policies == NULL ||
		    g_strv_contains((const char *const *)args->policies, fgd_policies[i]))
			g_ptr_array_add(exp.policies, (gpointer)fgd_policies[i]);
	}
	if (load_all(args, &exp)) {
		n_runs = exp.labels->len * exp.policies->len * exp.n_seeds;
		exp.runs = g_new0(ResearchFgdRun, n_runs);
		exp.scratch = g_new0(double, exp.n_seeds);
		if (g_mkdir_with_parents(args->output, 0755) != 0)
			fprintf(stderr, "drasim " CMD ": %s: %s\n", args->output,
			        g_strerror(errno));
		else if (run_all(&exp, n_runs, MIN(jobs, n_runs)) &&
		         (!args->json || write_output(args->output, "fgd.json", fgd_json(&exp))) &&
		         (!args->csv || write_output(args->output, "fgd.csv", fgd_csv(&exp))))
			status = CLI_EXIT_OK;
	}
	g_free(exp.runs);
	g_free(exp.scratch);
	g_ptr_array_unref(exp.labels);
	g_ptr_array_unref(exp.loaded);
	g_ptr_array_unref(exp.policies);
	return status;
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

int
cli_experiment_main(int argc, char **argv)
{
	FgdArgs args = { .jobs = 1 }; /* option strings NULL until given: GOption overwrites */
	GOptionEntry entries[] = {
		{ "trace", 0, 0, G_OPTION_ARG_STRING_ARRAY, &args.traces,
		  "an openb trace name (default, cpu050, ...) or a pod list CSV; repeatable",
		  "NAME|PATH" },
		{ "policy", 0, 0, G_OPTION_ARG_STRING_ARRAY, &args.policies,
		  "Random, DotProd, GpuClustering, GpuPacking, BestFit or FGD; repeatable "
		  "(default: all)",
		  "NAME" },
		{ "seeds", 0, 0, G_OPTION_ARG_STRING, &args.seeds, "seeds A-B (default 42-51)",
		  "A-B" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &args.jobs,
		  "runs at once in child processes (default 1; 0: the online cores)", "N" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &args.output, "output folder", "DIR" },
		{ "format", 0, 0, G_OPTION_ARG_STRING, &args.format, "json,csv (default both)",
		  "LIST" },
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

	g_option_context_add_main_entries(context, entries, NULL);
	status = cli_parse_options(context, &argc, &argv);
	if (status == CLI_EXIT_OK && (argc != 2 || strcmp(argv[1], "fgd") != 0))
		status = cli_usage_error("experiment", "the experiments are: fgd");
	if (status == CLI_EXIT_OK)
		status = check_args(&args);
	if (status == CLI_EXIT_OK) {
		if (args.csv_dir == NULL)
			args.csv_dir = default_csv_dir();
		status = experiment_fgd(&args);
	}
	g_strfreev(args.traces);
	g_strfreev(args.policies);
	g_free(args.seeds);
	g_free(args.output);
	g_free(args.format);
	g_free(args.csv_dir);
	g_free(args.nodes);
	return status;
}
