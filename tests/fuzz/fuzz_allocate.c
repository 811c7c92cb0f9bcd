/*
 * fuzz_allocate.c: libFuzzer target for the allocator given decoded slices, classes,
 * claims and pods: what `drasim allocate` does with a manifest file.
 *
 * The input is one manifest file (YAML or JSON). It is decoded with k8s_load_data() and,
 * when it decodes without errors as for the command, handed to
 * cluster_allocate_manifests() with a step budget, so the claim controller, the
 * scheduler's filters and the allocator's search all see fuzzed objects and a search
 * always ends. The first input byte picks the feature gates (production defaults or
 * all on) and the budget.
 */
#include "cluster_allocate.h"
#include "dra.h"
#include "fuzz.h"
#include "fuzz_k8s.h"
#include "k8s_objects.h"

/* Few enough steps that one input runs in milliseconds, enough to backtrack. */
#define FUZZ_ALLOCATE_STEPS 20000

static DraFeatures
fuzz_features(uint8_t choice)
{
	DraFeatures features = dra_features_default();

	if (choice & 1) {
		for (const char *const *name = dra_feature_names(); *name != NULL; name++)
			(void)dra_features_set(&features, *name, TRUE);
	}
	return features;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	K8sObjectSet *set = k8s_object_set_new();
	K8sDiagList *diags = k8s_diag_list_new();

	if (k8s_load_data("fuzz.yaml", (const char *)data + 1, size - 1, K8S_LOAD_DEFAULT, set,
	                  diags)) {
		ClusterAllocateOptions opts = {
			.features = fuzz_features(data[0]),
			.step_budget = (data[0] & 2) ? 64 : FUZZ_ALLOCATE_STEPS,
		};
		ClusterAllocateRun *run = cluster_allocate_manifests(set, &opts, diags);

		const GPtrArray *written = cluster_allocate_get_written(run);
		GString *yaml = g_string_new(NULL);

		/* what the command prints: each allocated claim with its status */
		for (guint i = 0; !cluster_allocate_get_failed(run) && i < written->len; i++)
			k8s_object_encode(&((K8sResourceClaim *)written->pdata[i])->obj, yaml);
		g_string_free(yaml, TRUE);
		cluster_allocate_free(run);
	}
	fuzz_print_and_free_diags(diags);
	k8s_object_set_free(set);
	return 0;
}
