/*
 * test_dra_lint.c: dra_lint_requests() and the bridges of dra_k8s.h with the
 * real CEL environment.
 *
 * A request whose class matches no device of the given slices gets a warning
 * with its position and field path; a satisfiable one does not; DraInput
 * converts what the decoder produced and the allocator answers through CEL.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dra_k8s.h"

static const char manifests[] =
        "apiVersion: resource.k8s.io/v1\n"
        "kind: DeviceClass\n"
        "metadata: {name: gpu}\n"
        "spec:\n"
        "  selectors:\n"
        "  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n"
        "---\n"
        "apiVersion: resource.k8s.io/v1\n"
        "kind: DeviceClass\n"
        "metadata: {name: nic}\n"
        "spec:\n"
        "  selectors:\n"
        "  - cel: {expression: 'device.driver == \"nic.example.com\"'}\n"
        "---\n"
        "apiVersion: resource.k8s.io/v1\n"
        "kind: ResourceSlice\n"
        "metadata: {name: s}\n"
        "spec:\n"
        "  driver: gpu.example.com\n"
        "  pool: {name: p, generation: 1, resourceSliceCount: 1}\n"
        "  nodeName: node-1\n"
        "  devices:\n"
        "  - name: gpu-0\n"
        "    attributes: {model: {string: h100}}\n"
        "---\n"
        "apiVersion: resource.k8s.io/v1\n"
        "kind: ResourceClaim\n"
        "metadata: {name: c, namespace: default}\n"
        "spec:\n"
        "  devices:\n"
        "    requests:\n"
        "    - name: ok\n"
        "      exactly:\n"
        "        deviceClassName: gpu\n"
        "        selectors:\n"
        "        - cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"h100\"'}\n"
        "    - name: never\n"
        "      exactly: {deviceClassName: nic}\n";

static void
test_lint_and_allocate(void **state)
{
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	DraFeatures f = dra_features_default();

	assert_true(k8s_load_data("lint.yaml", manifests, sizeof(manifests) - 1, K8S_LOAD_DEFAULT,
	                          set, diags));
	assert_int_equal(dra_lint_requests(set, &f, diags), 1);
	const K8sDiag *d = k8s_diag_list_find(diags, "request never can match no device");
	assert_non_null(d);
	assert_string_equal(d->path, "spec.devices.requests[1].exactly");
	assert_true(d->pos.line > 0);

	/* the same objects through DraInput and CEL: "ok" allocates on node-1 */
	g_autoptr(DraInput) input = dra_input_new();
	g_autoptr(DraCel) cel = dra_cel_new(&f);
	g_autoptr(DraAllocator) a = dra_allocator_new(&f, dra_cel_get_ops(), cel);
	dra_allocator_add_slice(
	        a, dra_input_slice(input, k8s_object_as_resource_slice(k8s_object_set_get_kind(
	                                          set, K8S_KIND_RESOURCE_SLICE, 0))));
	for (guint i = 0; i < 2; i++) {
		dra_allocator_add_class(
		        a,
		        dra_input_class(input, k8s_object_as_device_class(k8s_object_set_get_kind(
		                                       set, K8S_KIND_DEVICE_CLASS, i))));
	}
	K8sResourceClaim *rc = k8s_object_as_resource_claim(
	        k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_CLAIM, 0));
	K8sResourceClaimSpec only_ok = rc->spec;
	only_ok.n_requests = 1;
	const DraClaim *claim = dra_input_claim(input, NULL, "c", &only_ok);
	const DraNode *node = dra_input_node_new(input, "node-1", NULL);
	assert_int_equal(dra_allocator_allocate(a, node, &claim, 1), DRA_OUTCOME_ALLOCATED);
	assert_string_equal(dra_allocator_get_allocation(a, 0)->results[0].device, "gpu-0");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lint_and_allocate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
