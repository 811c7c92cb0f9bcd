/*
 * bench_sim.c: the control plane's cost without the allocator: N nodes with
 * 8 exclusive GPUs each, P one-GPU pods arriving as a Poisson process over a
 * simulated week with exponential durations (mean set for 70 % GPU load),
 * scheduled through the queue, filters and default score plugins.
 *
 * Usage: bench-cluster-sim [NODES [PODS]] (defaults 1000, 200000). Prints
 * simulated pods per CPU second of the run (the workload set-up excluded);
 * CPU time, not wall time, because the machine is shared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench-node.h"
#include "cluster_query.h"
#include "cluster_run.h"
#include "cluster_sched.h"
#include "cluster_sim.h"
#include "cluster_types.h"

#define GPU CLUSTER_RES_FIRST_SCALAR

int
main(int argc, char **argv)
{
	guint n_nodes = argc > 1 ? (guint)atoi(argv[1]) : 1000;
	guint n_pods = argc > 2 ? (guint)atoi(argv[2]) : 200000;
	const SimTime week = 7 * SIM_TIME_DAY;
	ClusterDevice devices[8];
	g_autoptr(SimLoop) loop = sim_loop_new();
	g_autoptr(SimRng) rng = sim_rng_new(7, "bench-workload");
	g_autoptr(ClusterSim) sim = NULL;
	ClusterSimConfig config;
	double rate = (double)n_pods / sim_time_to_seconds(week);
	double mean_work = 0.7 * 8.0 * n_nodes / rate;
	SimTime t = 0;
	clock_t start, end;
	double cpu;
	const ClusterSimStats *stats;

	cluster_sim_config_init(&config);
	sim = cluster_sim_new(loop, &config);
	for (guint i = 0; i < 8; i++)
		devices[i] = bench_gpu;
	for (guint i = 0; i < n_nodes; i++) {
		ClusterNode *node = bench_node_new(i);

		node->allocatable.v[GPU] = 8;
		cluster_sim_add_node(sim, node, devices, 8);
	}
	for (guint i = 0; i < n_pods; i++) {
		g_autofree char *name = g_strdup_printf("pod-%07u", i);
		ClusterPod *pod = cluster_pod_new(name, 0);
		ClusterSimWork w = { .lifetime = SIM_TIME_NEVER, .n_devices = 1, .demand = 1.0 };

		t += sim_time_from_seconds(sim_rng_exponential(rng, 1.0 / rate));
		w.arrival = t;
		w.work = MAX(sim_time_from_seconds(sim_rng_exponential(rng, mean_work)), 1);
		cluster_pod_set_request(pod, CLUSTER_RES_CPU, 4000);
		cluster_pod_set_request(pod, CLUSTER_RES_MEMORY, (gint64)32 << 30);
		cluster_pod_set_request(pod, GPU, 1);
		cluster_sim_add_pod(sim, pod, &w);
	}
	start = clock();
	sim_loop_set_horizon(loop, 2 * week);
	sim_loop_run(loop);
	end = clock();
	cpu = (double)(end - start) / CLOCKS_PER_SEC;
	stats = cluster_sim_get_stats(sim);
	printf("nodes %u pods %u: bound %" G_GUINT64_FORMAT " completed %" G_GUINT64_FORMAT
	       " pending %u, %" G_GUINT64_FORMAT " events, %.2f s CPU, %.0f pods/s, "
	       "%" G_GUINT64_FORMAT " filter calls, %" G_GUINT64_FORMAT " score calls\n",
	       n_nodes, n_pods, stats->bound, stats->completed, stats->pending,
	       sim_loop_get_dispatched(loop), cpu, (double)n_pods / cpu,
	       cluster_sched_get_stats(cluster_sim_get_sched(sim))->node_filter_calls,
	       cluster_sched_get_stats(cluster_sim_get_sched(sim))->score_calls);
	return 0;
}
