/*
 * test_dra.c: the scheduler with the real allocator and CEL, end to end.
 * Decoded manifests (a DeviceClass with a CEL selector, a node's
 * ResourceSlice with two GPUs, a template, a shared claim, pods) go through
 * the claim controller, DynamicResources, Reserve and placement: template
 * pods get distinct GPUs and a third waits for a deallocation; pods sharing
 * a claim share its GPU (time-sliced); a CEL runtime error is an error; the
 * FGD paper's per-GPU state follows the claims' allocations.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cluster_claims.h"
#include "cluster_dra.h"
#include "cluster_gpushare.h"
#include "cluster_k8s.h"
#include "cluster_plugin.h"
#include "cluster_query.h"
#include "cluster_run.h"
#include "cluster_sched.h"
#include "cluster_sim.h"
#include "cluster_types.h"
#include "dra_fixture.h"
#include "k8s_objects.h"

#define S SIM_TIME_S

static const char inventory[] =
        "apiVersion: resource.k8s.io/v1\n"
        "kind: DeviceClass\n"
        "metadata: {name: gpu.example.com}\n"
        "spec:\n"
        "  extendedResourceName: example.com/gpu\n"
        "  selectors:\n"
        "  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n"
        "---\n"
        "apiVersion: resource.k8s.io/v1\n"
        "kind: DeviceClass\n"
        "metadata: {name: broken.example.com}\n"
        "spec:\n"
        "  selectors:\n"
        "  - cel: {expression: 'device.attributes[\"gpu.example.com\"].missing == 1'}\n"
        "---\n"
        "apiVersion: resource.k8s.io/v1\n"
        "kind: ResourceSlice\n"
        "metadata: {name: node-a-gpu}\n"
        "spec:\n"
        "  driver: gpu.example.com\n"
        "  nodeName: node-a\n"
        "  pool: {name: node-a, generation: 1, resourceSliceCount: 1}\n"
        "  devices:\n"
        "  - name: gpu-0\n"
        "  - name: gpu-1\n"
        "---\n"
        "apiVersion: resource.k8s.io/v1\n"
        "kind: ResourceClaimTemplate\n"
        "metadata: {name: one-gpu}\n"
        "spec:\n"
        "  spec:\n"
        "    devices:\n"
        "      requests:\n"
        "      - name: gpu\n"
        "        exactly: {deviceClassName: gpu.example.com}\n"
        "---\n"
        "apiVersion: resource.k8s.io/v1\n"
        "kind: ResourceClaimTemplate\n"
        "metadata: {name: broken}\n"
        "spec:\n"
        "  spec:\n"
        "    devices:\n"
        "      requests:\n"
        "      - name: gpu\n"
        "        exactly: {deviceClassName: broken.example.com}\n"
        "---\n"
        "apiVersion: resource.k8s.io/v1\n"
        "kind: ResourceClaim\n"
        "metadata: {name: shared}\n"
        "spec:\n"
        "  devices:\n"
        "    requests:\n"
        "    - name: gpu\n"
        "      exactly: {deviceClassName: gpu.example.com}\n"
        "---\n"
        "apiVersion: v1\n"
        "kind: Node\n"
        "metadata: {name: node-a}\n"
        "status:\n"
        "  allocatable: {cpu: '64', memory: 512Gi, pods: '110'}\n";

static const char pod_format[] = "apiVersion: v1\n"
                                 "kind: Pod\n"
                                 "metadata: {name: %s}\n"
                                 "spec:\n"
                                 "  resourceClaims:\n"
                                 "  - {name: gpu, %s: %s}\n"
                                 "  containers:\n"
                                 "  - name: main\n"
                                 "    image: cuda\n"
                                 "    resources: {claims: [{name: gpu}]}\n";

static void
fixture_init(Fixture *f)
{
	ClusterSimConfig config;
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	const ClusterDevice gpu = { CLUSTER_SHARE_TIME_SLICE, CLUSTER_INTERVAL_DEFAULT, 1.0,
		                    (gint64)80 << 30, FALSE };
	const ClusterDevice devices[] = { gpu, gpu };
	const char *device_names[] = { "gpu-0", "gpu-1" };
	ClusterNode *node;

	f->set = k8s_object_set_new();
	load(f, "inventory.yaml", inventory);
	f->names = cluster_res_names_new();
	f->dra = cluster_dra_new(NULL);
	cluster_dra_enable_extended_resources(f->dra, f->names);
	for (guint i = 0; i < k8s_object_set_count_kind(f->set, K8S_KIND_DEVICE_CLASS); i++)
		cluster_dra_add_class(f->dra, k8s_object_as_device_class(k8s_object_set_get_kind(
		                                      f->set, K8S_KIND_DEVICE_CLASS, i)));
	for (guint i = 0; i < k8s_object_set_count_kind(f->set, K8S_KIND_RESOURCE_SLICE); i++)
		cluster_dra_add_slice(f->dra, k8s_object_as_resource_slice(k8s_object_set_get_kind(
		                                      f->set, K8S_KIND_RESOURCE_SLICE, i)));
	for (guint i = 0; i < k8s_object_set_count_kind(f->set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE);
	     i++)
		cluster_dra_add_template(
		        f->dra, k8s_object_as_resource_claim_template(k8s_object_set_get_kind(
		                        f->set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE, i)));
	cluster_sim_config_init(&config);
	config.run.context_switch = 0;
	cluster_dra_configure(f->dra, &config);
	f->loop = sim_loop_new();
	f->sim = cluster_sim_new(f->loop, &config);
	cluster_dra_attach(f->dra, f->sim);
	cluster_dra_add_claim(f->dra, k8s_object_as_resource_claim(k8s_object_set_get_kind(
	                                      f->set, K8S_KIND_RESOURCE_CLAIM, 0)));
	node = cluster_k8s_node_new(
	        k8s_object_as_node(k8s_object_set_get_kind(f->set, K8S_KIND_NODE, 0)), f->names,
	        diags);
	assert_non_null(node);
	cluster_sim_add_node(f->sim, node, devices, 2);
	cluster_dra_set_node_devices(f->dra, "node-a", device_names, 2);
}

static guint
add_pod(Fixture *f, const char *name, SimTime arrival, const char *ref, gboolean template_ref)
{
	g_autofree char *text = g_strdup_printf(
	        pod_format, name, template_ref ? "resourceClaimTemplateName" : "resourceClaimName",
	        ref);

	return add_pod_text(f, name, arrival, text);
}

static void
test_dra__template_pods_get_distinct_gpus(void **state)
{
	Fixture f;
	ClusterClaims *claims;

	fixture_init(&f);
	add_pod(&f, "a", 0, "one-gpu", TRUE);
	add_pod(&f, "b", 0, "one-gpu", TRUE);
	add_pod(&f, "c", 1 * S, "one-gpu", TRUE);
	sim_loop_run(f.loop);
	claims = cluster_sim_get_claims(f.sim);
	/* two GPUs, no sharing: a and b run alone; c waits for a deallocation */
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 10 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 1), 10 * S);
	assert_int_equal(cluster_sim_get_pod_latency(f.sim, 2), 9 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 2), 19 * S);
	assert_int_equal(
	        cluster_sim_get_stats(f.sim)->failed_attempts[CLUSTER_PLUGIN_DYNAMIC_RESOURCES], 1);
	assert_int_equal(cluster_claims_get_n_generated(claims), 3);
	assert_int_equal(cluster_claims_get_n_deallocated(claims), 3);
	assert_int_equal(cluster_claims_get_n_deleted(claims), 3);
	assert_true(cluster_sched_get_stats(cluster_sim_get_sched(f.sim))->allocator_calls >= 4);
	assert_true(cluster_dra_get_allocator_stats(f.dra)->selector_evaluations > 0);
	fixture_clear(&f);
}

static void
test_dra__shared_claim_shares_its_gpu(void **state)
{
	Fixture f;
	ClusterClaim *shared;

	fixture_init(&f);
	add_pod(&f, "s1", 0, "shared", FALSE);
	add_pod(&f, "s2", 0, "shared", FALSE);
	add_pod(&f, "t", 0, "one-gpu", TRUE);
	shared = cluster_claims_lookup(cluster_sim_get_claims(f.sim), "shared");
	sim_loop_set_horizon(f.loop, 5 * S);
	sim_loop_run(f.loop);
	assert_true(shared->allocated);
	assert_int_equal(shared->reserved_for->len, 2);
	sim_loop_set_horizon(f.loop, SIM_TIME_NEVER);
	sim_loop_run(f.loop);
	/* s1 and s2 are time-sliced on one GPU; t has the other alone */
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 20 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 1), 20 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 2), 10 * S);
	assert_false(shared->allocated);
	assert_non_null(cluster_claims_lookup(cluster_sim_get_claims(f.sim), "shared"));
	fixture_clear(&f);
}

static void
test_dra__cel_runtime_error_is_an_error(void **state)
{
	Fixture f;

	fixture_init(&f);
	add_pod(&f, "x", 0, "broken", TRUE);
	sim_loop_set_horizon(f.loop, 60 * S);
	sim_loop_run(f.loop);
	/* no such key: fatal for the attempt, retried with error backoff */
	assert_int_equal(cluster_sim_get_pod_phase(f.sim, 0), CLUSTER_POD_PENDING);
	assert_true(cluster_sim_get_stats(f.sim)->error_attempts >= 1);
	assert_int_equal(
	        cluster_sim_get_stats(f.sim)->failed_attempts[CLUSTER_PLUGIN_DYNAMIC_RESOURCES], 0);
	fixture_clear(&f);
}

static void
test_dra__extended_resource_backed_by_a_class(void **state)
{
	Fixture f;
	ClusterClaims *claims;
	GPtrArray *pod_claims;
	ClusterClaim *special;

	fixture_init(&f);
	for (guint i = 0; i < 3; i++) {
		g_autofree char *name = g_strdup_printf("ext-%u", i);
		g_autofree char *text = g_strdup_printf(
		        "apiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec:\n  containers:\n"
		        "  - name: main\n    image: cuda\n"
		        "    resources: {limits: {example.com/gpu: 1}}\n",
		        name);

		add_pod_text(&f, name, 0, text);
	}
	claims = cluster_sim_get_claims(f.sim);
	sim_loop_set_horizon(f.loop, 5 * S);
	sim_loop_run(f.loop);
	/* the node advertises no example.com/gpu: the class's two GPUs serve two pods */
	assert_int_equal(cluster_sim_get_stats(f.sim)->running, 2);
	assert_int_equal(cluster_sim_get_stats(f.sim)->pending, 1);
	pod_claims = cluster_sim_get_pod_claims(f.sim, 0);
	assert_int_equal(pod_claims->len, 1);
	assert_true(g_str_has_prefix(pod_claims->pdata[0], "ext-0-extended-resources-"));
	special = cluster_claims_lookup(claims, pod_claims->pdata[0]);
	assert_non_null(special);
	assert_true(special->allocated);
	assert_true(cluster_claims_is_reserved_for(special, "ext-0"));
	sim_loop_set_horizon(f.loop, SIM_TIME_NEVER);
	sim_loop_run(f.loop);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 2), 20 * S);
	assert_int_equal(cluster_claims_get_n_deleted(claims), 3);
	assert_int_equal(cluster_claims_get_length(claims), 1); /* the user's "shared" */
	fixture_clear(&f);
}

/*
 * The DRA world's per-GPU state (cluster_dra_gpushare.c): node-a's two GPUs
 * are gpu-0 and gpu-1 (indexes 0 and 1), idle: free [1000, 1000]. a and b
 * (one GPU each, 10 s of work) arrive at 0: the allocator's first fit gives
 * a gpu-0 and b gpu-1: [0, 0], two pods of class 1 (one whole GPU). c arrives
 * at 1 s and fits nowhere (no GPU with 1000 free) until a and b end at 10 s;
 * their claims are deallocated ([1000, 1000]) and c takes the first fit,
 * gpu-0: at 15 s [0, 1000], one pod of class 1. At the end c's claim is gone
 * too: [1000, 1000], no class. Without the hook the state would stay idle.
 */
static void
test_dra__gpushare_state_follows_claims(void **state)
{
	static const gint32 both[] = { 0, 0 }, first[] = { 0, 1000 }, idle[] = { 1000, 1000 };
	g_autoptr(ClusterGpuShare) share = cluster_gpushare_new(64000, 2000, NULL, NULL);
	ClusterGpuShareReq one = { 1, 1000, 0 };
	ClusterGpuShareNode g;
	Fixture f;

	fixture_init(&f);
	cluster_gpushare_node_init(&g, share, 0, 2);
	cluster_gpushare_node_track_devices(&g);
	cluster_sim_get_node(f.sim, 0)->gpushare = &g;
	cluster_sim_get_pod(f.sim, add_pod(&f, "a", 0, "one-gpu", TRUE))->gpushare = &one;
	cluster_sim_get_pod(f.sim, add_pod(&f, "b", 0, "one-gpu", TRUE))->gpushare = &one;
	cluster_sim_get_pod(f.sim, add_pod(&f, "c", 1 * S, "one-gpu", TRUE))->gpushare = &one;
	sim_loop_set_horizon(f.loop, 5 * S);
	sim_loop_run(f.loop);
	assert_memory_equal(g.free, both, sizeof(both));
	assert_int_equal(g.affinity[1], 2);
	assert_int_equal(g.n_affinity, 1);
	sim_loop_set_horizon(f.loop, 15 * S);
	sim_loop_run(f.loop);
	assert_memory_equal(g.free, first, sizeof(first));
	assert_int_equal(g.affinity[1], 1);
	assert_int_equal(cluster_sim_get_pod_latency(f.sim, 2), 9 * S);
	sim_loop_set_horizon(f.loop, SIM_TIME_NEVER);
	sim_loop_run(f.loop);
	assert_memory_equal(g.free, idle, sizeof(idle));
	assert_int_equal(g.affinity[1], 0);
	assert_int_equal(g.n_affinity, 0);
	fixture_clear(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dra__template_pods_get_distinct_gpus),
		cmocka_unit_test(test_dra__shared_claim_shares_its_gpu),
		cmocka_unit_test(test_dra__cel_runtime_error_is_an_error),
		cmocka_unit_test(test_dra__extended_resource_backed_by_a_class),
		cmocka_unit_test(test_dra__gpushare_state_follows_claims),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
