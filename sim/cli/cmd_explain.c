/*
 * cmd_explain.c: `drasim explain SCENARIO --pod NAME [--mode M] [--seed N]
 * [--horizon D]` runs the scenario's modes (or one) with the journal on and
 * prints the history of one pod in each: every scheduling attempt with
 * kube-scheduler's message and the allocator's diagnosis, its binding and
 * devices, the pods it shared them with, its speed changes, OOM kills,
 * evictions and completion (measure_explain.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_run.h"
#include "world.h"

typedef struct {
	char *pod;
	char *mode;
	gint64 seed;
	char *horizon;
} ExplainArgs;

static void
explain_args_clear(ExplainArgs *a)
{
	g_free(a->pod);
	g_free(a->mode);
	g_free(a->horizon);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(ExplainArgs, explain_args_clear)

/* Levenshtein distance, two rows. */
static guint
distance(const char *a, const char *b)
{
	gsize la = strlen(a), lb = strlen(b);
	g_autofree guint *prev = g_new(guint, lb + 1);
	g_autofree guint *cur = g_new(guint, lb + 1);

	for (gsize j = 0; j <= lb; j++)
		prev[j] = (guint)j;
	for (gsize i = 1; i <= la; i++) {
		cur[0] = (guint)i;
		for (gsize j = 1; j <= lb; j++) {
			guint sub = prev[j - 1] + (a[i - 1] != b[j - 1]);

			cur[j] = MIN(MIN(prev[j] + 1, cur[j - 1] + 1), sub);
		}
		memcpy(prev, cur, (lb + 1) * sizeof(guint));
	}
	return prev[lb];
}

typedef struct {
	const char *name;
	guint score;
} Candidate;

static gint
by_score(gconstpointer a, gconstpointer b)
{
	const Candidate *x = a, *y = b;

	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The unknown pod: the closest names (substring matches first), at most 8. */
static int
unknown_pod(const ScenarioResult *r, const char *name, const char *mode)
{
	g_autoptr(GArray) cands = g_array_new(FALSE, FALSE, sizeof(Candidate));
	guint limit = MAX(2u, (guint)strlen(name) / 3);
	guint n = scenario_explain_get_n_pods(r);

	for (guint i = 0; i < n; i++) {
		Candidate c = { scenario_explain_get_pod_name(r, i), 0 };

		if (c.name == NULL)
			continue;
		c.score = strstr(c.name, name) != NULL ? 0 : 1 + distance(name, c.name);
		if (c.score <= limit + 1)
			g_array_append_val(cands, c);
	}
	g_array_sort(cands, by_score);
	fprintf(stderr, "drasim explain: mode %s has no pod named \"%s\" (%u pods)", mode, name, n);
	if (cands->len == 0) {
		fputs("; pod names look like", stderr);
		for (guint i = 0; i < MIN(n, 5u); i++)
			fprintf(stderr, "%s %s", i ? "," : "", scenario_explain_get_pod_name(r, i));
	} else {
		fputs("; did you mean", stderr);
		for (guint i = 0; i < MIN(cands->len, 8u); i++)
			fprintf(stderr, "%s %s", i ? "," : "",
			        g_array_index(cands, Candidate, i).name);
		fputc('?', stderr);
	}
	fputc('\n', stderr);
	return CLI_EXIT_USAGE;
}

static const char *
phase_text(ClusterPodPhase phase)
{
	switch (phase) {
	case CLUSTER_POD_PENDING:
		return "pending";
	case CLUSTER_POD_RUNNING:
		return "running";
	case CLUSTER_POD_RESTARTING:
		return "in crash-loop backoff after an OOM kill";
	case CLUSTER_POD_SUCCEEDED:
		return "completed";
	case CLUSTER_POD_DELETED:
		return "deleted";
	case CLUSTER_POD_LOST:
		return "on a failed node, eviction pending";
	case CLUSTER_POD_CREATING:
		return "bound, ContainerCreating: its DRA claims are not prepared yet";
	default:
		return "unknown";
	}
}

/* Where the pod stood when the run ended, from the per-pod records. */
static void
print_end(const ScenarioResult *r, guint pod)
{
	const ScenarioPodRecord *rec;

	if (r->pod_records == NULL || pod >= r->pod_records->len)
		return;
	rec = &g_array_index(r->pod_records, ScenarioPodRecord, pod);
	printf("  at the end of the run (%.3fs): %s", sim_time_to_seconds(r->end),
	       phase_text(rec->phase));
	if (rec->end >= 0)
		printf(", JCT %.3fs", sim_time_to_seconds(rec->end - rec->arrival));
	if (rec->slowdown >= 0)
		printf(", slowdown %.3f", rec->slowdown);
	putchar('\n');
}

static int
explain_mode(Scenario *sc, const ScenarioMode *m, ExplainArgs *a, SimTime horizon, K8sDiagList *d)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(ScenarioResult) r = NULL;
	g_autofree char *text = NULL;
	gint pod;

	r = scenario_run(sc, m, (guint64)a->seed, horizon, NULL, NULL, d, &error);
	if (r == NULL) {
		k8s_diag_list_sort(d);
		k8s_diag_list_print(d, stderr);
		fprintf(stderr, "drasim: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	pod = scenario_explain_lookup_pod(r, a->pod);
	if (pod < 0)
		return unknown_pod(r, a->pod, m->name);
	text = scenario_explain_pod(r, (guint)pod);
	printf("mode %s, seed %" G_GUINT64_FORMAT ": %s", m->name, r->seed, text);
	print_end(r, (guint)pod);
	return CLI_EXIT_OK;
}

static int
explain_modes(Scenario *sc, ExplainArgs *a, SimTime horizon, K8sDiagList *diags)
{
	gboolean first = TRUE;

	sc->journal = TRUE;
	for (guint i = 0; i < sc->modes->len; i++) {
		const ScenarioMode *m = &g_array_index(sc->modes, ScenarioMode, i);
		int rc;

		if (a->mode != NULL && strcmp(m->name, a->mode) != 0)
			continue;
		if (!first)
			putchar('\n');
		first = FALSE;
		if ((rc = explain_mode(sc, m, a, horizon, diags)) != CLI_EXIT_OK)
			return rc;
	}
	k8s_diag_list_print(diags, stderr);
	return CLI_EXIT_OK;
}

int
cli_explain_main(int argc, char **argv)
{
	g_auto(ExplainArgs) a = { 0 };
	GOptionEntry entries[] = {
		{ "pod", 'p', 0, G_OPTION_ARG_STRING, &a.pod, "the pod to explain (required)",
		  "NAME" },
		{ "mode", 'm', 0, G_OPTION_ARG_STRING, &a.mode,
		  "only this mode (default: every mode)", "M" },
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &a.seed, "seed (default: the scenario's)",
		  "N" },
		{ "horizon", 0, 0, G_OPTION_ARG_STRING, &a.horizon, "stop at this simulated time",
		  "D" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("SCENARIO - the history of one pod in a scenario run");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = NULL;
	SimTime horizon = 0;
	int rc;

	g_option_context_add_main_entries(context, entries, NULL);
	g_option_context_set_description(
	        context, "Prints each scheduling attempt (kube-scheduler's \"0/N nodes are "
	                 "available\" message and the DRA allocator's diagnosis), the binding, "
	                 "co-tenants on shared GPUs, speed changes, OOM kills, evictions and "
	                 "completion. Exit status: 0 printed, 1 the scenario has errors, 2 usage "
	                 "(including an unknown pod or mode).");
	if ((rc = cli_parse_options(context, &argc, &argv)) != CLI_EXIT_OK)
		return rc;
	if (argc != 2)
		return cli_usage_error("explain", "expected one scenario file");
	if (a.pod == NULL || *a.pod == '\0')
		return cli_usage_error("explain", "--pod NAME is required");
	if (a.seed < 0)
		return cli_usage_error("explain", "--seed must be >= 0");
	if (a.horizon != NULL) {
		g_autoptr(GError) error = NULL;

		if (!sim_time_parse(a.horizon, &horizon, &error) || horizon <= 0)
			return cli_usage_error("explain",
			                       "--horizon expects a duration > 0 like 2h or 7d");
	}
	sc = scenario_load(argv[1], diags);
	if (sc == NULL) {
		k8s_diag_list_sort(diags);
		k8s_diag_list_print(diags, stderr);
		return CLI_EXIT_INPUT_ERROR;
	}
	if (a.mode != NULL && (rc = cli_check_mode(sc, a.mode)) != CLI_EXIT_OK)
		return rc;
	return explain_modes(sc, &a, horizon, diags);
}
