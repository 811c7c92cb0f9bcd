/*
 * fgd.c: the FGD protocol's runner (sim/research), until `drasim experiment
 * fgd` exists: for one openb trace, each policy and seed, one run; prints
 * unallocated GPU, fragment amount and ratio at the chosen arrived points per
 * seed, then mean and SD over seeds, and the CPU time of each run.
 *
 *   fgd [--csv-dir DIR] [--trace NAME] [--policy NAME]... [--seeds A-B] [--points 80,90,100]
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

static void
run_policy(const WorkloadTrace *trace, const char *policy, guint lo, guint hi, char **points)
{
	guint n = hi - lo + 1, np = g_strv_length(points);
	g_autofree double *unalloc = g_new0(double, n *np), *amount = g_new0(double, n *np);
	g_autofree double *ratio = g_new0(double, n *np), *cpu = g_new0(double, n);

	for (guint s = 0; s < n; s++) {
		ResearchFgdConfig config = { .policy = policy, .seed = lo + s, .tune_ratio = 1.3 };
		ResearchFgdRun run;
		g_autoptr(GError) error = NULL;
		double t0 = cpu_seconds();

		if (!research_fgd_run(trace, &config, &run, &error)) {
			fprintf(stderr, "fgd: %s\n", error->message);
			exit(1);
		}
		cpu[s] = cpu_seconds() - t0;
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
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	const char *dir = "../shared/traces/alibaba-gpu-v2023/csv", *name = "default";
	const char *seeds = "42-51", *points_arg = "80,90,95,100,110,130";
	g_autoptr(GPtrArray) policies = g_ptr_array_new();
	g_auto(GStrv) points = NULL;
	WorkloadTrace *trace;
	guint lo, hi;

	for (int i = 1; i < argc; i += 2) {
		if (i + 1 == argc) {
			fprintf(stderr, "fgd: %s wants a value\n", argv[i]);
			return 2;
		}
		if (strcmp(argv[i], "--csv-dir") == 0)
			dir = argv[i + 1];
		else if (strcmp(argv[i], "--trace") == 0)
			name = argv[i + 1];
		else if (strcmp(argv[i], "--policy") == 0)
			g_ptr_array_add(policies, argv[i + 1]);
		else if (strcmp(argv[i], "--seeds") == 0)
			seeds = argv[i + 1];
		else if (strcmp(argv[i], "--points") == 0)
			points_arg = argv[i + 1];
		else {
			fprintf(stderr, "fgd: unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (sscanf(seeds, "%u-%u", &lo, &hi) != 2 || hi < lo) {
		fprintf(stderr, "fgd: --seeds wants A-B, got %s\n", seeds);
		return 2;
	}
	points = g_strsplit(points_arg, ",", -1);
	for (guint p = 0; points[p] != NULL; p++) {
		char *end = NULL;
		long at = strtol(points[p], &end, 10);

		if (end == points[p] || *end != '\0' || at < 0 || at >= RESEARCH_FGD_POINTS) {
			fprintf(stderr, "fgd: --points are 0..130, got %s\n", points[p]);
			return 2;
		}
	}
	if (policies->len == 0) {
		for (guint i = 0; i < G_N_ELEMENTS(all_policies); i++)
			g_ptr_array_add(policies, (gpointer)all_policies[i]);
	}
	trace = load(dir, name);
	if (trace == NULL)
		return 1;
	for (guint i = 0; i < policies->len; i++)
		run_policy(trace, policies->pdata[i], lo, hi, points);
	workload_trace_free(trace);
	return 0;
}
