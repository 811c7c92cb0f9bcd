/*
 * bench_dra.c: the end-to-end benchmark shape in DRA mode: N nodes,
 * each with a ResourceSlice of 8 GPUs; P pods, each with a claim from one
 * template (one GPU, a DeviceClass with a CEL selector), arriving as a
 * Poisson process over a simulated week at 70 % load. Everything runs: the
 * claim controller, DynamicResources with the allocator and CEL, Reserve,
 * placement and the run model.
 *
 * Usage: bench-cluster-dra [NODES [PODS]] (defaults 1000, 200000). Prints
 * simulated pods per CPU second of the run (set-up excluded).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench-node.h"
#include "cluster_dra.h"
#include "cluster_k8s.h"
#include "cluster_query.h"
#include "cluster_run.h"
#include "cluster_sched.h"
#include "cluster_sim.h"
#include "cluster_types.h"
#include "k8s_objects.h"

static const char common[] = "apiVersion: resource.k8s.io/v1\n"
                             "kind: DeviceClass\n"
                             "metadata: {name: gpu.nvidia.com}\n"
                             "spec:\n"
                             "  selectors:\n"
                             "  - cel: {expression: 'device.driver == \"gpu.nvidia.com\"'}\n"
                             "---\n"
                             "apiVersion: resource.k8s.io/v1\n"
                             "kind: ResourceClaimTemplate\n"
                             "metadata: {name: one-gpu}\n"
                             "spec:\n"
                             "  spec:\n"
                             "    devices:\n"
                             "      requests:\n"
                             "      - name: gpu\n"
                             "        exactly: {deviceClassName: gpu.nvidia.com}\n"
                             "---\n"
                             "apiVersion: v1\n"
                             "kind: Pod\n"
                             "metadata: {name: template}\n"
                             "spec:\n"
                             "  resourceClaims:\n"
                             "  - {name: gpu, resourceClaimTemplateName: one-gpu}\n"
                             "  containers:\n"
                             "  - name: main\n"
                             "    image: cuda\n"
                             "    resources:\n"
                             "      requests: {cpu: '4', memory: 32Gi}\n"
                             "      claims: [{name: gpu}]\n";

static char *
slices_yaml(guint n_nodes)
{
	GString *s = g_string_new(NULL);

	for (guint i = 0; i < n_nodes; i++) {
		g_string_append_printf(s,
		                       "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\n"
		                       "metadata: {name: node-%05u-gpu}\nspec:\n"
		                       "  driver: gpu.nvidia.com\n  nodeName: node-%05u\n"
		                       "  pool: {name: node-%05u, generation: 1, "
		                       "resourceSliceCount: 1}\n  devices:\n",
		                       i, i, i);
		for (guint d = 0; d < 8; d++)
			g_string_append_printf(s, "  - name: gpu-%u\n", d);
	}
	return g_string_free(s, FALSE);
}

static K8sObject *
first(K8sObjectSet *set, K8sKind kind)
{
	return k8s_object_set_get_kind(set, kind, 0);
}

static void
add_nodes(ClusterSim *sim, ClusterDra *dra, guint n_nodes)
{
	const ClusterDevice devices[8] = { bench_gpu, bench_gpu, bench_gpu, bench_gpu,
		                           bench_gpu, bench_gpu, bench_gpu, bench_gpu };
	const char *names[8] = { "gpu-0", "gpu-1", "gpu-2", "gpu-3",
		                 "gpu-4", "gpu-5", "gpu-6", "gpu-7" };

	for (guint i = 0; i < n_nodes; i++) {
		ClusterNode *node = bench_node_new(i);

		cluster_dra_set_node_devices(dra, node->name, names, 8);
		cluster_sim_add_node(sim, node, devices, 8);
	}
}

int
main(int argc, char **argv)
{
	guint n_nodes = argc > 1 ? (guint)atoi(argv[1]) : 1000;
	guint n_pods = argc > 2 ? (guint)atoi(argv[2]) : 200000;
	const SimTime week = 7 * SIM_TIME_DAY;
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(ClusterResNames) names = cluster_res_names_new();
	g_autofree char *slices = slices_yaml(n_nodes);
	g_autoptr(ClusterDra) dra = cluster_dra_new(NULL);
	g_autoptr(SimLoop) loop = sim_loop_new();
	g_autoptr(SimRng) rng = sim_rng_new(7, "bench-workload");
	g_autoptr(ClusterSim) sim = NULL;
	g_auto(GStrv) claims = NULL;
	g_auto(GStrv) templates = NULL;
	ClusterSimConfig config;
	const K8sPod *pod;
	double rate = (double)n_pods / sim_time_to_seconds(week);
	double mean_work = 0.7 * 8.0 * n_nodes / rate;
	SimTime t = 0;
	clock_t start;
	double cpu;

	if (!k8s_load_data("common.yaml", common, strlen(common), K8S_LOAD_DEFAULT, set, diags) ||
	    !k8s_load_data("slices.yaml", slices, strlen(slices), K8S_LOAD_DEFAULT, set, diags)) {
		k8s_diag_list_print(diags, stderr);
		return 1;
	}
	cluster_dra_add_class(dra, k8s_object_as_device_class(first(set, K8S_KIND_DEVICE_CLASS)));
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++)
		cluster_dra_add_slice(dra, k8s_object_as_resource_slice(k8s_object_set_get_kind(
		                                   set, K8S_KIND_RESOURCE_SLICE, i)));
	cluster_dra_add_template(dra, k8s_object_as_resource_claim_template(
	                                      first(set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE)));
	cluster_sim_config_init(&config);
	cluster_dra_configure(dra, &config);
	sim = cluster_sim_new(loop, &config);
	cluster_dra_attach(dra, sim);
	add_nodes(sim, dra, n_nodes);
	pod = k8s_object_as_pod(first(set, K8S_KIND_POD));
	cluster_dra_pod_claim_refs(&pod->spec, &claims, &templates);
	for (guint i = 0; i < n_pods; i++) {
		g_autofree char *name = g_strdup_printf("pod-%07u", i);
		ClusterPod *cpod = cluster_k8s_pod_new(&pod->spec, name, 0, names, diags, "spec.");
		ClusterSimWork w = { .lifetime = SIM_TIME_NEVER, .n_devices = 1, .demand = 1.0 };

		t += sim_time_from_seconds(sim_rng_exponential(rng, 1.0 / rate));
		w.arrival = t;
		w.work = MAX(sim_time_from_seconds(sim_rng_exponential(rng, mean_work)), 1);
		w.templates = (const char *const *)templates;
		cluster_dra_add_pod(dra, cluster_sim_add_pod(sim, cpod, &w), "default", &pod->spec);
	}
	start = clock();
	sim_loop_set_horizon(loop, 2 * week);
	sim_loop_run(loop);
	cpu = (double)(clock() - start) / CLOCKS_PER_SEC;
	printf("dra: nodes %u pods %u: bound %" G_GUINT64_FORMAT " completed %" G_GUINT64_FORMAT
	       ", %.2f s CPU, %.0f pods/s, %" G_GUINT64_FORMAT
	       " allocator calls, %" G_GUINT64_FORMAT " selector evaluations\n",
	       n_nodes, n_pods, cluster_sim_get_stats(sim)->bound,
	       cluster_sim_get_stats(sim)->completed, cpu, (double)n_pods / cpu,
	       cluster_sched_get_stats(cluster_sim_get_sched(sim))->allocator_calls,
	       cluster_dra_get_allocator_stats(dra)->selector_evaluations);
	return 0;
}
