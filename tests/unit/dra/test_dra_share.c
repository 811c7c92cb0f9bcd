/*
 * test_dra_share.c: DraInput shares a device's attributes with the same device
 * of the driver's previous slice (the previous node of one shape) and keeps
 * only the differing ones (DraDevice.node_attributes); CEL and the allocator
 * see every attribute as before; a stamp of such a slice for another node
 * (dra_input_stamp_slice) is what its conversion would be.
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

/* The stamp's own value: @data's text as the uuid; any other name fails. */
static gboolean
stamp_uuid(gpointer data, guint device, DraAttribute *attr)
{
	if (device != 0 || g_strcmp0(attr->name, "uuid") != 0)
		return FALSE;
	attr->string_value = data;
	return TRUE;
}

/* A node without the template's own attribute. */
static gboolean
stamp_none(gpointer data, guint device, DraAttribute *attr)
{
	(void)data;
	(void)device;
	(void)attr;
	return FALSE;
}

/*
 * Stamping (dra_input_stamp_slice): node-1 shares nothing (no node before), so it
 * is no template; node-2 shares, so it is; a stamp of it for node-9 is what
 * converting node-9's slice would give (node-3 above: node-2's shared array, its
 * own uuid), with node-2's other arrays; a stamp whose own value is missing is
 * NULL. After setup's node-4 (a100, no sharing) and the allNodes slices (not
 * node-local, no effect) the driver has no template.
 */
static void
test_share_stamp(void **state)
{
	Fixture *f = *state;
	g_autoptr(DraInput) input = dra_input_new();
	const DraSlice *s[2];
	const DraSlice *stamped;
	DraStamp st = { "s9", "node-9", "node-9", 1, 1, stamp_uuid, (gpointer) "u-9" };

	assert_null(dra_input_stamp_template(f->input, "gpu.example.com"));
	for (guint i = 0; i < 2; i++) {
		s[i] = dra_input_slice(input, k8s_object_as_resource_slice(k8s_object_set_get_kind(
		                                      f->set, K8S_KIND_RESOURCE_SLICE, i)));
		assert_ptr_equal(dra_input_stamp_template(input, "gpu.example.com"),
		                 i == 0 ? NULL : s[1]);
	}
	stamped = dra_input_stamp_slice(input, s[1], &st);
	assert_non_null(stamped);
	assert_string_equal(stamped->pool, "node-9");
	assert_string_equal(stamped->node_name, "node-9");
	assert_int_equal(stamped->n_devices, 1);
	assert_ptr_equal(stamped->devices[0].attributes, s[1]->devices[0].attributes);
	assert_ptr_equal(stamped->devices[0].capacity, s[1]->devices[0].capacity);
	assert_int_equal(stamped->devices[0].n_node_attributes, 1);
	assert_string_equal(stamped->devices[0].node_attributes[0].name, "uuid");
	assert_int_equal(stamped->devices[0].node_attributes[0].kind, DRA_ATTR_STRING);
	assert_string_equal(stamped->devices[0].node_attributes[0].string_value, "u-9");
	assert_string_equal(s[1]->devices[0].node_attributes[0].string_value, "u-2");
	/* not the template until added */
	assert_ptr_equal(dra_input_stamp_template(input, "gpu.example.com"), s[1]);
	dra_input_stamp_add(input, stamped);
	assert_ptr_equal(dra_input_stamp_template(input, "gpu.example.com"), stamped);
	st.own_value = stamp_none;
	assert_null(dra_input_stamp_slice(input, stamped, &st));
	s[0] = dra_input_slice(input, k8s_object_as_resource_slice(k8s_object_set_get_kind(
	                                      f->set, K8S_KIND_RESOURCE_SLICE, 3)));
	assert_null(dra_input_stamp_template(input, "gpu.example.com"));
}

/*
 * Node signatures (dra_signature.c) with stamps. node-2's shape is written out;
 * node-9, stamped from it, has its attributes and its own uuid's name but is keyed
 * by its text too (some of its arrays are its own) and gets node-2's shape; node-10,
 * stamped from node-9, and node-3 (node-2's shared array) point at node-9's
 * arrays, so they take its shape without writing theirs out: all four equal.
 * node-1 keeps its own three attributes, another shape (identity stands for
 * content), and node-4 (a100) another again.
 */
static void
test_share_signature(void **state)
{
	Fixture *f = *state;
	DraFeatures feat = dra_features_default();
	g_autoptr(DraCel) cel = dra_cel_new(&feat);
	g_autoptr(DraAllocator) a = dra_allocator_new(&feat, dra_cel_get_ops(), cel);
	DraStamp st9 = { "s9", "node-9", "node-9", 1, 1, stamp_uuid, (gpointer) "u-9" };
	DraStamp st10 = { "s10", "node-10", "node-10", 1, 1, stamp_uuid, (gpointer) "u-10" };
	const DraSlice *s9 = dra_input_stamp_slice(f->input, f->slices[2], &st9);
	const DraSlice *s10 = dra_input_stamp_slice(f->input, s9, &st10);
	const char *order[] = { "node-2", "node-9", "node-10", "node-3", "node-1", "node-4" };
	guint sig[G_N_ELEMENTS(order)];

	assert_non_null(s9);
	assert_non_null(s10);
	for (guint i = 0; i < 4; i++)
		dra_allocator_add_slice(a, f->slices[i]);
	dra_allocator_add_slice(a, s9);
	dra_allocator_add_slice(a, s10);
	for (guint i = 0; i < G_N_ELEMENTS(order); i++) {
		DraNodeRef ref = { 0 };

		sig[i] = dra_allocator_node_signature(
		        a, dra_input_node_new(f->input, order[i], NULL), &ref);
		assert_int_not_equal(sig[i], 0);
	}
	assert_int_equal(sig[1], sig[0]);
	assert_int_equal(sig[2], sig[0]);
	assert_int_equal(sig[3], sig[0]);
	assert_int_not_equal(sig[4], sig[0]);
	assert_int_not_equal(sig[5], sig[4]);
	assert_int_not_equal(sig[5], sig[0]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_share_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_share_cel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_share_stamp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_share_signature, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
