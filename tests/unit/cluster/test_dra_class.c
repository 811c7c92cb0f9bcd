/*
 * test_dra_class.c: DynamicResources answered once per equivalence class
 * (cluster_dra_class.c, dra_signature.c) against the reference path
 * (DRASIM_SCHED_REFERENCE=1, every node asks the allocator): the same
 * placements, scheduler counters and allocator statistics, with the numbers
 * of one cycle worked out by hand; a selector that reads a GPU's own uuid
 * makes the answer per node.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cluster_dra.h"
#include "cluster_k8s.h"
#include "cluster_query.h"
#include "cluster_sched.h"
#include "cluster_sim.h"
#include "cluster_types.h"
#include "dra_fixture.h"
#include "k8s_objects.h"

#define S       SIM_TIME_S
#define N_NODES 4
#define MS      (SIM_TIME_S / 1000)

/* The class selects by driver only; the templates' selectors are the test's. */
static const char objects[] =
        "apiVersion: resource.k8s.io/v1\n"
        "kind: DeviceClass\n"
        "metadata: {name: gpu.example.com}\n"
        "spec:\n"
        "  selectors:\n"
        "  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n"
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
        "metadata: {name: second-gpu}\n"
        "spec:\n"
        "  spec:\n"
        "    devices:\n"
        "      requests:\n"
        "      - name: gpu\n"
        "        exactly:\n"
        "          deviceClassName: gpu.example.com\n"
        "          selectors:\n"
        "          - cel: {expression: 'device.attributes[\"gpu.example.com\"].index == 1'}\n"
        "---\n"
        "apiVersion: resource.k8s.io/v1\n"
        "kind: ResourceClaimTemplate\n"
        "metadata: {name: by-uuid}\n"
        "spec:\n"
        "  spec:\n"
        "    devices:\n"
        "      requests:\n"
        "      - name: gpu\n"
        "        exactly:\n"
        "          deviceClassName: gpu.example.com\n"
        "          selectors:\n"
        "          - cel: {expression: 'device.attributes[\"gpu.example.com\"].uuid != "
        "\"none\"'}\n";

/* Node n<i> and its slice of two GPUs (index 0 and 1; with @uuid, one of its own each). */
static const char node_format[] = "---\n"
                                  "apiVersion: v1\n"
                                  "kind: Node\n"
                                  "metadata:\n"
                                  "  name: n%u\n"
                                  "  labels: {kubernetes.io/hostname: n%u}\n"
                                  "status:\n"
                                  "  allocatable: {cpu: '64', memory: 512Gi, pods: '110'}\n"
                                  "---\n"
                                  "apiVersion: resource.k8s.io/v1\n"
                                  "kind: ResourceSlice\n"
                                  "metadata: {name: n%u-gpu}\n"
                                  "spec:\n"
                                  "  driver: gpu.example.com\n"
                                  "  nodeName: n%u\n"
                                  "  pool: {name: n%u, generation: 1, resourceSliceCount: 1}\n"
                                  "  devices:\n"
                                  "  - name: gpu-0\n"
                                  "    attributes:\n"
                                  "      index: {int: 0}\n"
                                  "%s"
                                  "  - name: gpu-1\n"
                                  "    attributes:\n"
                                  "      index: {int: 1}\n"
                                  "%s";

static const char pod_format[] = "apiVersion: v1\n"
                                 "kind: Pod\n"
                                 "metadata: {name: %s}\n"
                                 "spec:\n"
                                 "%s"
                                 "  resourceClaims:\n"
                                 "  - {name: gpu, resourceClaimTemplateName: %s}\n"
                                 "  containers:\n"
                                 "  - name: main\n"
                                 "    image: cuda\n"
                                 "    resources: {claims: [{name: gpu}]}\n";

static void
add_nodes(Fixture *f, gboolean uuid)
{
	const ClusterDevice gpu = { CLUSTER_SHARE_TIME_SLICE, CLUSTER_INTERVAL_DEFAULT, 1.0,
		                    (gint64)80 << 30, FALSE };
	const ClusterDevice devices[] = { gpu, gpu };
	const char *device_names[] = { "gpu-0", "gpu-1" };

	for (guint i = 0; i < N_NODES; i++) {
		g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
		g_autofree char *u0 = uuid ? g_strdup_printf("      uuid: {string: GPU-%u-0}\n", i)
		                           : g_strdup("");
		g_autofree char *u1 = uuid ? g_strdup_printf("      uuid: {string: GPU-%u-1}\n", i)
		                           : g_strdup("");
		g_autofree char *text = g_strdup_printf(node_format, i, i, i, i, i, u0, u1);
		g_autofree char *name = g_strdup_printf("n%u", i);
		ClusterNode *node;

		load(f, "nodes.yaml", text);
		cluster_dra_add_slice(f->dra, k8s_object_as_resource_slice(k8s_object_set_get_kind(
		                                      f->set, K8S_KIND_RESOURCE_SLICE, i)));
		node = cluster_k8s_node_new(
		        k8s_object_as_node(k8s_object_set_get_kind(f->set, K8S_KIND_NODE, i)),
		        f->names, diags);
		assert_non_null(node);
		cluster_sim_add_node(f->sim, node, devices, 2);
		cluster_dra_set_node_devices(f->dra, name, device_names, 2);
	}
}

/* A fresh simulation; @reference: DRASIM_SCHED_REFERENCE=1 (read when the scheduler is made). */
static void
fixture_init(Fixture *f, gboolean reference, gboolean uuid)
{
	ClusterSimConfig config;

	f->set = k8s_object_set_new();
	load(f, "objects.yaml", objects);
	f->names = cluster_res_names_new();
	f->dra = cluster_dra_new(NULL);
	cluster_dra_add_class(f->dra, k8s_object_as_device_class(k8s_object_set_get_kind(
	                                      f->set, K8S_KIND_DEVICE_CLASS, 0)));
	for (guint i = 0; i < k8s_object_set_count_kind(f->set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE);
	     i++)
		cluster_dra_add_template(
		        f->dra, k8s_object_as_resource_claim_template(k8s_object_set_get_kind(
		                        f->set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE, i)));
	cluster_sim_config_init(&config);
	cluster_dra_configure(f->dra, &config);
	f->loop = sim_loop_new();
	if (reference)
		g_setenv("DRASIM_SCHED_REFERENCE", "1", TRUE);
	f->sim = cluster_sim_new(f->loop, &config);
	g_unsetenv("DRASIM_SCHED_REFERENCE");
	cluster_dra_attach(f->dra, f->sim);
	add_nodes(f, uuid);
}

/* Pod @name from template @tmpl at @arrival, pinned to node @pin unless it is NULL. */
static void
add_pod(Fixture *f, const char *name, SimTime arrival, const char *tmpl, const char *pin)
{
	g_autofree char *selector =
	        pin != NULL ? g_strdup_printf("  nodeSelector: {kubernetes.io/hostname: %s}\n", pin)
	                    : g_strdup("");
	g_autofree char *text = g_strdup_printf(pod_format, name, selector, tmpl);

	add_pod_text(f, name, arrival, text);
}

/* @a -= @b, counter by counter (statistics structs are arrays of guint64). */
static void
subtract(gpointer a, gconstpointer b, gsize size)
{
	guint64 *x = a;
	const guint64 *y = b;

	for (gsize k = 0; k < size / sizeof(guint64); k++)
		x[k] -= y[k];
}

/*
 * p0 and p1, pinned to n1 and n2 by their node selectors, take gpu-0 there
 * (0 ms); q, not pinned, from template @tmpl, is scheduled at 1 s. Returns
 * the allocator's statistics of q's cycle and its Reserve, and the
 * scheduler's counters of that cycle, in @alloc and @sched.
 */
static void
run_q(gboolean reference,
      gboolean uuid,
      const char *tmpl,
      DraStats *alloc,
      ClusterSchedStats *sched)
{
	Fixture f;
	DraStats a0;
	ClusterSchedStats s0;

	fixture_init(&f, reference, uuid);
	add_pod(&f, "p0", 0, "one-gpu", "n1");
	add_pod(&f, "p1", 0, "one-gpu", "n2");
	add_pod(&f, "q", 1 * S, tmpl, NULL);
	sim_loop_set_horizon(f.loop, 500 * MS);
	sim_loop_run(f.loop);
	assert_string_equal(cluster_sim_get_pod_node(f.sim, 0)->name, "n1");
	assert_string_equal(cluster_sim_get_pod_node(f.sim, 1)->name, "n2");
	a0 = *cluster_dra_get_allocator_stats(f.dra);
	s0 = *cluster_sched_get_stats(cluster_sim_get_sched(f.sim));
	sim_loop_set_horizon(f.loop, 2 * S);
	sim_loop_run(f.loop);
	/* q prefers a node without p0 or p1 (their default requests score it lower) */
	assert_non_null(cluster_sim_get_pod_node(f.sim, 2));
	assert_true(strcmp(cluster_sim_get_pod_node(f.sim, 2)->name, "n0") == 0 ||
	            strcmp(cluster_sim_get_pod_node(f.sim, 2)->name, "n3") == 0);
	*alloc = *cluster_dra_get_allocator_stats(f.dra);
	subtract(alloc, &a0, sizeof(a0));
	*sched = *cluster_sched_get_stats(cluster_sim_get_sched(f.sim));
	subtract(sched, &s0, sizeof(s0));
	fixture_clear(&f);
}

/* Everything the reports read is equal; memo and class answers are how it was got. */
static void
assert_same(const DraStats *a,
            const DraStats *b,
            const ClusterSchedStats *sa,
            const ClusterSchedStats *sb)
{
	assert_int_equal(a->allocate_calls, b->allocate_calls);
	assert_int_equal(a->allocate_one_calls, b->allocate_one_calls);
	assert_int_equal(a->devices_tried, b->devices_tried);
	assert_int_equal(a->selector_evaluations, b->selector_evaluations);
	assert_int_equal(a->backtracks, b->backtracks);
	assert_int_equal(a->constraint_rejections, b->constraint_rejections);
	assert_memory_equal(sa, sb, sizeof(*sa));
}

/*
 * q asks for a GPU with index 1. Worked by hand (upstream allocateOne checks
 * "in use" before the selectors, isSelectable the class's selector then the
 * request's, stopping at the first false):
 *  - n0, n3 (both GPUs free): gpu-0: class true, request false (2
 *    evaluations); gpu-1: class true, request true (2): 4 evaluations;
 *  - n1, n2 (gpu-0 held by p0, p1): gpu-0 skipped in use; gpu-1: 2.
 * Filter: 4 allocator calls, 4 + 2 + 2 + 4 = 12 evaluations; Reserve asks
 * again on the chosen node, n0 or n3: 1 call, 4 evaluations. In all 5 calls
 * and 16 evaluations, on both paths. With classes {n0, n3} and {n1, n2} (equal
 * pools and state, the devices' attribute arrays shared), two of the four
 * Filter calls are class answers.
 */
static void
test_dra_class__same_counts_as_the_reference(void **state)
{
	DraStats ref, cls;
	ClusterSchedStats sref, scls;

	run_q(TRUE, FALSE, "second-gpu", &ref, &sref);
	run_q(FALSE, FALSE, "second-gpu", &cls, &scls);
	assert_int_equal(ref.allocate_calls, 5);
	assert_int_equal(ref.selector_evaluations, 16);
	assert_int_equal(ref.class_answers, 0);
	assert_int_equal(sref.allocator_calls, 4);
	assert_int_equal(sref.dra_filter_calls, 4);
	assert_int_equal(cls.class_answers, 2);
	assert_same(&ref, &cls, &sref, &scls);
}

/*
 * With a uuid of their own on every GPU (dra_k8s.c keeps it per node from
 * n1 on; n0, converted first, holds the whole array, so it is a class of
 * its own), a request selector that reads uuid makes q's answer per node: no
 * class answer. A selector that reads only the shared part (the class's
 * driver, template one-gpu) still answers n1 and n2 together: 1 class answer.
 * Each is compared with the reference. By hand: the uuid selector is true
 * on every GPU, so each node costs 2 evaluations (class and request) on its
 * first free GPU (gpu-0 on n0 and n3; gpu-1 on n1 and n2, gpu-0 being
 * skipped in use first): Filter 4 x 2 = 8, Reserve 2, 10 in 5 calls; with
 * one-gpu, 1 evaluation (the class's) per call: 5.
 */
static void
test_dra_class__node_values_answer_per_node(void **state)
{
	DraStats ref, cls;
	ClusterSchedStats sref, scls;

	run_q(TRUE, TRUE, "by-uuid", &ref, &sref);
	run_q(FALSE, TRUE, "by-uuid", &cls, &scls);
	assert_int_equal(ref.allocate_calls, 5);
	assert_int_equal(ref.selector_evaluations, 10);
	assert_int_equal(cls.class_answers, 0);
	assert_same(&ref, &cls, &sref, &scls);

	run_q(TRUE, TRUE, "one-gpu", &ref, &sref);
	run_q(FALSE, TRUE, "one-gpu", &cls, &scls);
	assert_int_equal(ref.allocate_calls, 5);
	assert_int_equal(ref.selector_evaluations, 5);
	assert_int_equal(cls.class_answers, 1);
	assert_same(&ref, &cls, &sref, &scls);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dra_class__same_counts_as_the_reference),
		cmocka_unit_test(test_dra_class__node_values_answer_per_node),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
