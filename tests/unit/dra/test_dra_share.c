/*
 * test_dra_share.c: DraInput shares a device's attributes with the same device
 * of the driver's previous slice (the previous node of one shape) and keeps
 * only the differing ones (DraDevice.node_attributes); CEL and the allocator
 * see every attribute as before.
 *
 * Four nodes publish gpu-0 with index 0, model h100 and uuid u-N; node-4's
 * model is a100. Expected, by the rule in dra_k8s.c: node-1 keeps its three
 * attributes; node-2 gets a new shared array {index, model} and owns {uuid};
 * node-3 reuses node-2's shared array and owns {uuid}; node-4 differs outside
 * uuid, so it keeps its three attributes again. Two allNodes slices with the
 * same devices share nothing: every node sees both, and distinctAttribute
 * tells devices apart by their attributes' addresses (dra_constraint.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dra_k8s.h"

#define SLICE(N, MODEL)                                                                            \
	"apiVersion: resource.k8s.io/v1\n"                                                         \
	"kind: ResourceSlice\n"                                                                    \
	"metadata: {name: s" N "}\n"                                                               \
	"spec:\n"                                                                                  \
	"  driver: gpu.example.com\n"                                                              \
	"  pool: {name: node-" N ", generation: 1, resourceSliceCount: 1}\n"                       \
	"  nodeName: node-" N "\n"                                                                 \
	"  devices:\n"                                                                             \
	"  - name: gpu-0\n"                                                                        \
	"    attributes: {index: {int: 0}, model: {string: " MODEL "}, uuid: {string: u-" N "}}\n" \
	"---\n"

#define ALL_NODES(N)                                                                               \
	"apiVersion: resource.k8s.io/v1\n"                                                         \
	"kind: ResourceSlice\n"                                                                    \
	"metadata: {name: net" N "}\n"                                                             \
	"spec:\n"                                                                                  \
	"  driver: gpu.example.com\n"                                                              \
	"  pool: {name: net-" N ", generation: 1, resourceSliceCount: 1}\n"                        \
	"  allNodes: true\n"                                                                       \
	"  devices:\n"                                                                             \
	"  - name: gpu-0\n"                                                                        \
	"    attributes: {index: {int: 0}, model: {string: h100}, uuid: {string: n-" N "}}\n"      \
	"---\n"

#define CLASS_AND_CLAIM                                                                            \
	"apiVersion: resource.k8s.io/v1\n"                                                         \
	"kind: DeviceClass\n"                                                                      \
	"metadata: {name: gpu}\n"                                                                  \
	"spec:\n"                                                                                  \
	"  selectors:\n"                                                                           \
	"  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n"                          \
	"---\n"                                                                                    \
	"apiVersion: resource.k8s.io/v1\n"                                                         \
	"kind: ResourceClaim\n"                                                                    \
	"metadata: {name: c, namespace: default}\n"                                                \
	"spec:\n"                                                                                  \
	"  devices:\n"                                                                             \
	"    requests:\n"                                                                          \
	"    - name: r\n"                                                                          \
	"      exactly:\n"                                                                         \
	"        deviceClassName: gpu\n"                                                           \
	"        selectors:\n"                                                                     \
	"        - cel: {expression: 'device.attributes[\"gpu.example.com\"].uuid == \"u-3\" "     \
	"&& device.attributes[\"gpu.example.com\"].model == \"h100\" && "                          \
	"device.attributes[\"gpu.example.com\"].index == 0'}\n"

static const char manifests[] = SLICE("1", "h100") SLICE("2", "h100") SLICE("3", "h100")
        SLICE("4", "a100") ALL_NODES("1") ALL_NODES("2") CLASS_AND_CLAIM;

typedef struct {
	K8sObjectSet *set;
	DraInput *input;
	const DraSlice *slices[6];
} Fixture;

static int
setup(void **state)
{
	Fixture *f = g_new0(Fixture, 1);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();

	f->set = k8s_object_set_new();
	f->input = dra_input_new();
	assert_true(k8s_load_data("share.yaml", manifests, sizeof(manifests) - 1, K8S_LOAD_DEFAULT,
	                          f->set, diags));
	for (guint i = 0; i < 6; i++)
		f->slices[i] = dra_input_slice(f->input,
		                               k8s_object_as_resource_slice(k8s_object_set_get_kind(
		                                       f->set, K8S_KIND_RESOURCE_SLICE, i)));
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	Fixture *f = *state;

	dra_input_free(f->input);
	k8s_object_set_free(f->set);
	g_free(f);
	return 0;
}

static void
test_share_layout(void **state)
{
	Fixture *f = *state;
	const DraDevice *d[6];

	for (guint i = 0; i < 6; i++)
		d[i] = &f->slices[i]->devices[0];
	assert_int_equal(d[0]->n_attributes, 3);
	assert_int_equal(d[0]->n_node_attributes, 0);
	assert_int_equal(d[1]->n_attributes, 2);
	assert_string_equal(d[1]->attributes[0].name, "index");
	assert_string_equal(d[1]->attributes[1].name, "model");
	assert_int_equal(d[1]->n_node_attributes, 1);
	assert_string_equal(d[1]->node_attributes[0].string_value, "u-2");
	assert_ptr_equal(d[2]->attributes, d[1]->attributes);
	assert_int_equal(d[2]->n_node_attributes, 1);
	assert_string_equal(d[2]->node_attributes[0].name, "uuid");
	assert_string_equal(d[2]->node_attributes[0].string_value, "u-3");
	assert_int_equal(d[3]->n_attributes, 3);
	assert_int_equal(d[3]->n_node_attributes, 0);
	assert_string_equal(d[3]->attributes[1].string_value, "a100");
	assert_int_equal(d[5]->n_attributes, 3);
	assert_int_equal(d[5]->n_node_attributes, 0);
	assert_ptr_not_equal(d[5]->attributes, d[4]->attributes);
}

/* The selector needs the shared model and index and node-3's own uuid. */
static void
test_share_cel(void **state)
{
	Fixture *f = *state;
	DraFeatures feat = dra_features_default();
	g_autoptr(DraCel) cel = dra_cel_new(&feat);
	g_autoptr(DraAllocator) a = dra_allocator_new(&feat, dra_cel_get_ops(), cel);
	const DraClaim *claim = dra_input_claim(
	        f->input, NULL, "c",
	        &k8s_object_as_resource_claim(
	                 k8s_object_set_get_kind(f->set, K8S_KIND_RESOURCE_CLAIM, 0))
	                 ->spec);
	const char *nodes[] = { "node-1", "node-2", "node-3", "node-4" };
	const DraOutcome expected[] = { DRA_OUTCOME_UNSCHEDULABLE, DRA_OUTCOME_UNSCHEDULABLE,
		                        DRA_OUTCOME_ALLOCATED, DRA_OUTCOME_UNSCHEDULABLE };

	for (guint i = 0; i < 4; i++)
		dra_allocator_add_slice(a, f->slices[i]);
	dra_allocator_add_class(
	        a, dra_input_class(f->input, k8s_object_as_device_class(k8s_object_set_get_kind(
	                                             f->set, K8S_KIND_DEVICE_CLASS, 0))));
	for (guint i = 0; i < 4; i++) {
		const DraNode *node = dra_input_node_new(f->input, nodes[i], NULL);

		assert_int_equal(dra_allocator_allocate(a, node, &claim, 1), expected[i]);
		if (expected[i] == DRA_OUTCOME_ALLOCATED)
			assert_string_equal(dra_allocator_get_allocation(a, 0)->results[0].pool,
			                    "node-3");
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_share_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_share_cel, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
