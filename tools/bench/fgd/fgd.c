/*
 * fgd.c: the FGD protocol's runner (sim/research), the quick bench beside
 * `drasim experiment fgd`: for one openb trace, each world, policy and seed,
 * one run; prints unallocated GPU, fragment amount and ratio at the chosen
 * arrived points per seed, then mean and SD over seeds, the figures taken at
 * 100 % arrival (stranded GPU, co-tenants per GPU) and the CPU time per run.
 * A policy a world refuses prints the reason and is skipped.
 *
 *   fgd [--csv-dir DIR] [--trace NAME] [--world NAME|all]... [--policy NAME|all]...
 *       [--seeds A-B] [--points 80,90,100] [--replicas R] [--capacity-step MILLI]
 *       [--mig-model MODEL]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "research.h"
#include "workload.h"

static const char *const all_policies[] = { "Random",     "DotProd", "GpuClustering",
	                                    "GpuPacking", "BestFit", "FGD" };

static double
cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
mean_sd(const double *v, guint n, double *mean, double *sd)
{
	double sum = 0, sq = 0;

	for (guint i = 0; i < n; i++)
		sum += v[i];
	*mean = n > 0 ? sum / n : 0.0;
	for (guint i = 0; i < n; i++)
		sq += (v[i] - *mean) * (v[i] - *mean);
	*sd = n > 1 ? sqrt(sq / (n - 1)) : 0.0;
}

static WorkloadTrace *
load(const char *dir, const char *name)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *nodes = g_build_filename(dir, "openb_node_list_gpu_node.csv", NULL);
	g_autofree char *file = g_strdup_printf("openb_pod_list_%s.csv", name);
	g_autofree char *pods = g_build_filename(dir, file, NULL);
	WorkloadTrace *trace = workload_trace_new();

	if (!workload_trace_load_nodes(trace, nodes, &error) ||
	    !workload_trace_load_pods(trace, pods, &error)) {
		fprintf(stderr, "fgd: %s\n", error->message);
		workload_trace_free(trace);
		return NULL;
	}
	return trace;
}

/* What every run shares beyond the policy and the seed. */
static ResearchFgdConfig base_config = { .tune_ratio = 1.3 };

/* At 100 % arrival, over the seeds: stranded GPU and co-tenants per GPU. */
static void
print_at_100(const char *policy, const double *at100, guint n, const double *cpu)
{
	double sm, ss, cm, cs, xm, xs, tm, ts;

	mean_sd(at100, n, &sm, &ss);
	mean_sd(at100 + n, n, &cm, &cs);
	mean_sd(at100 + 2 * n, n, &xm, &xs);
	mean_sd(cpu, n, &tm, &ts);
	printf("%-13s world %s at 100%%: stranded %.2f ± %.2f, co-tenants mean %.2f ± %.2f, "
	       "max %.1f ± %.1f (CPU %.3f s/run)\n",
	       policy, research_world_info(base_config.world)->name, sm, ss, cm, cs, xm, xs, tm);
}

static void
run_policy(const WorkloadTrace *trace, const char *policy, guint lo, guint hi, char **points)
{
	guint n = hi - lo + 1, np = g_strv_length(points);
	g_autofree double *unalloc = g_new0(double, n *np), *amount = g_new0(double, n *np);
	g_autofree double *ratio = g_new0(double, n *np), *cpu = g_new0(double, n);
	g_autofree double *at100 = g_new0(double, n * 3);
	const char *refused = research_world_refuses(base_config.world, policy);

	if (refused != NULL) {
		printf("%-13s world %s: refused: %s\n", policy,
		       research_world_info(base_config.world)->name, refused);
		return;
	}
	for (guint s = 0; s < n; s++) {
		ResearchFgdConfig config = base_config;
		ResearchFgdRun run;
		g_autoptr(GError) error = NULL;
		double t0 = cpu_seconds();

		config.policy = policy;
		config.seed = lo + s;

		if (!research_fgd_run(trace, &config, &run, &error)) {
			fprintf(stderr, "fgd: %s\n", error->message);
			exit(1);
		}
		cpu[s] = cpu_seconds() - t0;
		at100[s] = run.stranded_pct;
		at100[n + s] = run.cotenants_mean;
		at100[2 * n + s] = run.cotenants_max;
		printf("%-13s seed %u: %u pods, %u failed, %u tasks, memo %" G_GUINT64_FORMAT
		       "/%" G_GUINT64_FORMAT " misses, %.3f s CPU;",
		       policy, lo + s, run.pods_offered, run.pods_failed, run.n_tasks,
		       run.memo_misses, run.memo_lookups, cpu[s]);
		for (guint p = 0; p < np; p++) {
			guint at = (guint)atoi(points[p]);

			unalloc[p * n + s] = run.unallocated_pct[at];
			amount[p * n + s] = run.frag_amount_pct[at];
			ratio[p * n + s] = run.frag_ratio_pct[at];
			printf(" @%u %.2f", at, run.unallocated_pct[at]);
		}
		printf("\n");
	}
	for (guint p = 0; p < np; p++) {
		double um, us, am, as, rm, rs, cm, cs;

		mean_sd(unalloc + p * n, n, &um, &us);
		mean_sd(amount + p * n, n, &am, &as);
		mean_sd(ratio + p * n, n, &rm, &rs);
		mean_sd(cpu, n, &cm, &cs);
		printf("%-13s arrived %3s%%: unallocated %.2f ± %.2f, frag amount %.2f ± %.2f, "
		       "frag ratio %.2f ± %.2f (n %u; CPU %.3f ± %.3f s/run)\n",
		       policy, points[p], um, us, am, as, rm, rs, n, cm, cs);
	}
	print_at_100(policy, at100, n, cpu);
	fflush(stdout);
}

typedef struct {
	const char *dir, *name, *seeds, *points;
	GPtrArray *policies, *worlds; /* names */
} Args;

/* Adds @value to @list, or every name of @all for "all". */
static void
add_names(GPtrArray *list, const char *value, const char *const *all)
{
	if (strcmp(value, "all") != 0) {
		g_ptr_array_add(list, (gpointer)value);
		return;
	}
	for (guint i = 0; all[i] != NULL; i++)
		g_ptr_array_add(list, (gpointer)all[i]);
}

static gboolean
parse_option(Args *args, const char *option, const char *value)
{
	if (strcmp(option, "--csv-dir") == 0)
		args->dir = value;
	else if (strcmp(option, "--trace") == 0)
		args->name = value;
	else if (strcmp(option, "--policy") == 0)
		add_names(args->policies, value, research_policy_names());
	else if (strcmp(option, "--world") == 0)
		add_names(args->worlds, value, research_world_names());
	else if (strcmp(option, "--seeds") == 0)
		args->seeds = value;
	else if (strcmp(option, "--points") == 0)
		args->points = value;
	else if (strcmp(option, "--replicas") == 0)
		base_config.replicas = (guint)atoi(value);
	else if (strcmp(option, "--capacity-step") == 0)
		base_config.capacity_step = atoll(value);
	else if (strcmp(option, "--mig-model") == 0)
		base_config.mig_model = value;
	else
		return FALSE;
	return TRUE;
}

static gboolean
check_points(char **points)
{
	for (guint p = 0; points[p] != NULL; p++) {
		char *end = NULL;
		long at = strtol(points[p], &end, 10);

		if (end == points[p] || *end != '\0' || at < 0 || at >= RESEARCH_FGD_POINTS) {
			fprintf(stderr, "fgd: --points are 0..130, got %s\n", points[p]);
			return FALSE;
		}
	}
	return TRUE;
}

static int
run_all(const Args *args, guint lo, guint hi, char **points)
{
	WorkloadTrace *trace = load(args->dir, args->name);

	if (trace == NULL)
		return 1;
	for (guint w = 0; w < args->worlds->len; w++) {
		if (!research_world_parse(args->worlds->pdata[w], &base_config.world)) {
			fprintf(stderr, "fgd: no world %s\n", (char *)args->worlds->pdata[w]);
			workload_trace_free(trace);
			return 2;
		}
		for (guint i = 0; i < args->policies->len; i++)
			run_policy(trace, args->policies->pdata[i], lo, hi, points);
	}
	workload_trace_free(trace);
	return 0;
}

int
main(int argc, char **argv)
{
	Args args = { .dir = "../shared/traces/alibaba-gpu-v2023/csv",
		      .name = "default",
		      .seeds = "42-51",
		      .points = "80,90,95,100,110,130" };
	g_autoptr(GPtrArray) policies = g_ptr_array_new();
	g_autoptr(GPtrArray) worlds = g_ptr_array_new();
	g_auto(GStrv) points = NULL;
	guint lo, hi;

	args.policies = policies;
	args.worlds = worlds;
	for (int i = 1; i < argc; i += 2) {
		if (i + 1 == argc) {
			fprintf(stderr, "fgd: %s wants a value\n", argv[i]);
			return 2;
		}
		if (!parse_option(&args, argv[i], argv[i + 1])) {
			fprintf(stderr, "fgd: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (sscanf(args.seeds, "%u-%u", &lo, &hi) != 2 || hi < lo) {
		fprintf(stderr, "fgd: --seeds wants A-B, got %s\n", args.seeds);
		return 2;
	}
	points = g_strsplit(args.points, ",", -1);
	if (!check_points(points))
		return 2;
	if (policies->len == 0) {
		for (guint i = 0; i < G_N_ELEMENTS(all_policies); i++)
			g_ptr_array_add(policies, (gpointer)all_policies[i]);
	}
	if (worlds->len == 0)
		g_ptr_array_add(worlds, (gpointer) "gpushare");
	return run_all(&args, lo, hi, points);
}
