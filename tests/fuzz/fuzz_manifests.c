/*
 * fuzz_manifests.c: libFuzzer target for Kubernetes manifests, YAML and JSON, every kind
 * the decoders read, through what `drasim lint` and `drasim convert` do with them.
 *
 * The first input byte picks the load flags (lenient, skipped kinds counted); the rest is
 * the file. It is decoded with k8s_load_data() (the buffer face of k8s_load_paths()),
 * validated and cross-checked (k8s_lint_set()), put through lint's later passes (CEL
 * selectors, the allocator's reach, shared claims) and written back as v1 YAML.
 */
#include "fuzz.h"
#include "fuzz_k8s.h"
#include "k8s_lint.h"
#include "k8s_objects.h"
#include "lint.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	K8sLoadFlags flags = data[0] & (K8S_LOAD_LENIENT | K8S_LOAD_COUNT_SKIPPED);
	K8sObjectSet *set = k8s_object_set_new();
	K8sDiagList *diags = k8s_diag_list_new();

	k8s_load_data((data[0] & 4) ? "fuzz.json" : "fuzz.yaml", (const char *)data + 1, size - 1,
	              flags, set, diags);
	k8s_lint_set(set, diags);
	lint_cel_selectors(set, diags);
	lint_dra_requests(set, diags);
	lint_shared_claims_manifests(set, diags);
	g_free(k8s_object_set_encode(set));
	fuzz_print_and_free_diags(diags);
	k8s_object_set_free(set);
	return 0;
}
