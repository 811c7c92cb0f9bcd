/*
 * test_k8s.c: decoded core/v1 Pods and Nodes become the scheduler's views
 * with PodRequests' arithmetic (containers summed, init containers as a
 * maximum, limits defaulting requests, non-zero defaults per container), and
 * the selectors, affinity and tolerations keep their meaning in the filters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cluster_k8s.h"
#include "cluster_plugin.h"
#include "cluster_types.h"
#include "k8s_objects.h"

static const char manifest[] =
        "apiVersion: v1\n"
        "kind: Pod\n"
        "metadata: {name: trainer}\n"
        "spec:\n"
        "  priority: 100\n"
        "  nodeSelector: {nvidia.com/gpu.product: H100}\n"
        "  affinity:\n"
        "    nodeAffinity:\n"
        "      requiredDuringSchedulingIgnoredDuringExecution:\n"
        "        nodeSelectorTerms:\n"
        "        - matchExpressions:\n"
        "          - {key: nvidia.com/gpu.count, operator: Gt, values: ['4']}\n"
        "  tolerations:\n"
        "  - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}\n"
        "  initContainers:\n"
        "  - name: fetch\n"
        "    image: busybox\n"
        "    resources: {requests: {cpu: '6', memory: 1Gi}}\n"
        "  containers:\n"
        "  - name: main\n"
        "    image: trainer\n"
        "    resources:\n"
        "      requests: {cpu: 2500m, memory: 8Gi}\n"
        "      limits: {nvidia.com/gpu: 8}\n"
        "  - name: sidecar\n"
        "    image: logger\n"
        "---\n"
        "apiVersion: v1\n"
        "kind: Node\n"
        "metadata:\n"
        "  name: dgx-0\n"
        "  labels: {nvidia.com/gpu.product: H100, nvidia.com/gpu.count: '8'}\n"
        "spec:\n"
        "  taints:\n"
        "  - {key: nvidia.com/gpu, value: present, effect: NoSchedule}\n"
        "status:\n"
        "  allocatable: {cpu: '224', memory: 2000Gi, pods: '110', nvidia.com/gpu: '8'}\n";

static void
test_k8s__pod_and_node(void **state)
{
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(ClusterResNames) names = cluster_res_names_new();
	g_autoptr(ClusterPod) pod = NULL;
	g_autoptr(ClusterNode) node = NULL;
	gint gpu;

	assert_true(
	        k8s_load_data("t.yaml", manifest, strlen(manifest), K8S_LOAD_DEFAULT, set, diags));
	assert_int_equal(k8s_object_set_count_kind(set, K8S_KIND_POD), 1);
	pod = cluster_k8s_pod_new(
	        &k8s_object_as_pod(k8s_object_set_get_kind(set, K8S_KIND_POD, 0))->spec, "trainer",
	        7, names, diags, "spec.");
	node = cluster_k8s_node_new(
	        k8s_object_as_node(k8s_object_set_get_kind(set, K8S_KIND_NODE, 0)), names, diags);
	assert_non_null(pod);
	assert_non_null(node);
	gpu = cluster_res_names_lookup(names, "nvidia.com/gpu");
	assert_true(gpu >= CLUSTER_RES_FIRST_SCALAR);

	/* cpu: max(2500m + 0, init 6) = 6000m; memory: max(8Gi, 1Gi); gpu from the limit */
	assert_int_equal(pod->requests.v[CLUSTER_RES_CPU], 6000);
	assert_int_equal(pod->requests.v[CLUSTER_RES_MEMORY], (gint64)8 << 30);
	assert_int_equal(pod->requests.v[gpu], 8);
	assert_int_equal(pod->requests.v[CLUSTER_RES_PODS], 1);
	/* non-zero: the sidecar counts 100m and 200 MiB */
	assert_int_equal(pod->nonzero_requests.v[CLUSTER_RES_CPU], 6000);
	assert_int_equal(pod->nonzero_requests.v[CLUSTER_RES_MEMORY],
	                 ((gint64)8 << 30) + 200 * 1024 * 1024);
	assert_int_equal(pod->priority, 100);
	assert_false(pod->has_dra);

	assert_int_equal(node->allocatable.v[CLUSTER_RES_CPU], 224000);
	assert_int_equal(node->allocatable.v[gpu], 8);
	assert_int_equal(node->allocatable.v[CLUSTER_RES_PODS], 110);
	assert_true(cluster_filter_taint_toleration(pod, node, NULL));
	assert_true(cluster_filter_node_affinity(pod, node));
	assert_true(cluster_filter_resources_fit(pod, node, NULL));
	/* the affinity's Gt really compares: 8 > 4, not 8 > 9 */
	cluster_node_set_label(node, "nvidia.com/gpu.count", "4");
	assert_false(cluster_filter_node_affinity(pod, node));
	assert_int_equal(k8s_diag_list_count(diags), 0);
}

static void
test_k8s__too_many_resources_is_a_positioned_error(void **state)
{
	GString *yaml = g_string_new("apiVersion: v1\nkind: Node\nmetadata: {name: node-x}\n"
	                             "status:\n  allocatable:\n");
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(ClusterResNames) names = cluster_res_names_new();

	for (guint i = 0; i < CLUSTER_RES_MAX; i++)
		g_string_append_printf(yaml, "    example.com/r%u: '1'\n", i);
	if (!k8s_load_data("n.yaml", yaml->str, yaml->len, K8S_LOAD_DEFAULT, set, diags)) {
		k8s_diag_list_print(diags, stderr);
		fail();
	}
	assert_null(cluster_k8s_node_new(
	        k8s_object_as_node(k8s_object_set_get_kind(set, K8S_KIND_NODE, 0)), names, diags));
	assert_int_equal(k8s_diag_list_count(diags), 1);
	g_string_free(yaml, TRUE);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_k8s__pod_and_node),
		cmocka_unit_test(test_k8s__too_many_resources_is_a_positioned_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
