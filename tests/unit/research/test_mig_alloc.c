/*
 * test_mig_alloc.c: research_mig's first fit against the real allocator.
 *
 * One node of N GPUs of a MIG model is published by model/hw with DynamicMIG
 * on (as the DRA world publishes it: the api objects of hw_publish_objects(),
 * the driver's DeviceClasses), its slices go into a model/dra allocator with
 * DRAPartitionableDevices on and model/cel's selectors. Claims are the DRA
 * world's: a MIG profile is mig.nvidia.com with the CEL selector
 * `device.attributes["gpu.nvidia.com"].profile == "<profile>"` (as in
 * scenarios/mig-notebooks), the full GPU is gpu.nvidia.com. A seeded random
 * sequence of requests (random profiles, random shares through
 * research_mig_profile_for(), full GPUs) is offered to both; after every
 * step the allocator's device must be the one research_mig_first_fit()
 * names, or both must find nothing. Each allocation is committed to the
 * allocator and taken in the ResearchMigGpu state, so the two stay in step.
 * Rounds restart from idle GPUs so the sequence sees many fill levels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dra_k8s.h"
#include "hw_api.h"
#include "k8s_objects.h"
#include "research_mig.h"

#define MAX_GPUS   8
#define STEPS      300 /* per seed and node */
#define ROUND_MAX  60  /* steps before a round restarts from idle GPUs */
#define ROUND_MISS 8   /* consecutive refusals that end a round */

static const char shapes_doc[] =
        "schema: drasim.hw/v1\n"
        "node_shapes:\n"
        "  - { id: three-h100, gpu_model: h100-sxm5-80gb, cpus: 8, memory_gib: 64, "
        "numa_nodes: 1,\n"
        "      pcie_roots: [{ root: pci0000:00, numa: 0, gpus: [\"0000:01:00.0\", "
        "\"0000:02:00.0\", \"0000:03:00.0\"] }] }\n"
        "  - { id: three-b200, gpu_model: b200-180gb, cpus: 8, memory_gib: 64, numa_nodes: 1,\n"
        "      pcie_roots: [{ root: pci0000:00, numa: 0, gpus: [\"0000:01:00.0\", "
        "\"0000:02:00.0\", \"0000:03:00.0\"] }] }\n"
        "  - { id: four-a30, gpu_model: a30-24gb, cpus: 8, memory_gib: 64, numa_nodes: 1,\n"
        "      pcie_roots: [{ root: pci0000:00, numa: 0, gpus: [\"0000:01:00.0\", "
        "\"0000:02:00.0\", \"0000:03:00.0\", \"0000:04:00.0\"] }] }\n";

static HwCatalog *catalog;

typedef struct {
	const HwGpuModel *model;
	const HwNode *hw;
	ResearchMig *mig;
	K8sObjectSet *set;
	DraInput *input;
	DraCel *cel;
	DraFeatures features;
	DraAllocator *alloc;
	const DraNode *node;
	GPtrArray *claims; /* const DraClaim*: one per catalog profile, then the full GPU */
	ResearchMigGpu gpus[MAX_GPUS];
	guint n_gpus;
	guint allocated, refused; /* steps of each outcome, over the whole test */
} Session;

static char *
claim_yaml(const char *name, const char *profile)
{
	return g_strdup_printf("apiVersion: resource.k8s.io/v1\n"
	                       "kind: ResourceClaim\n"
	                       "metadata: { name: %s, namespace: default }\n"
	                       "spec:\n"
	                       "  devices:\n"
	                       "    requests:\n"
	                       "    - name: gpu\n"
	                       "      exactly:\n"
	                       "        deviceClassName: %s\n"
	                       "%s%s%s",
	                       name, profile ? "mig.nvidia.com" : "gpu.nvidia.com",
	                       profile ? "        selectors:\n        - cel:\n"
	                                 "            expression: 'device.attributes"
	                                 "[\"gpu.nvidia.com\"].profile == \""
	                               : "",
	                       profile ? profile : "", profile ? "\"'\n" : "");
}

/* A fresh allocator over the published slices and classes: every GPU idle. */
static void
session_restart(Session *s)
{
	g_clear_pointer(&s->alloc, dra_allocator_free);
	s->alloc = dra_allocator_new(&s->features, dra_cel_get_ops(), s->cel);
	for (guint i = 0; i < k8s_object_set_count(s->set); i++) {
		K8sObject *obj = k8s_object_set_get(s->set, i);

		if (obj->kind == K8S_KIND_RESOURCE_SLICE) {
			dra_allocator_add_slice(s->alloc,
			                        dra_input_slice(s->input, (K8sResourceSlice *)obj));
		} else if (obj->kind == K8S_KIND_DEVICE_CLASS) {
			dra_allocator_add_class(s->alloc,
			                        dra_input_class(s->input, (K8sDeviceClass *)obj));
		}
	}
	memset(s->gpus, 0, sizeof(s->gpus));
}

static void
load_claims(Session *s, K8sDiagList *diags)
{
	const GPtrArray *profiles = s->model->mig->profiles;

	for (guint i = 0; i <= profiles->len; i++) {
		const HwMigProfile *p = i < profiles->len ? g_ptr_array_index(profiles, i) : NULL;
		g_autofree char *name = g_strdup_printf("claim-%u", i);
		g_autofree char *yaml = claim_yaml(name, p ? p->name : NULL);

		assert_true(
		        k8s_load_data(name, yaml, strlen(yaml), K8S_LOAD_DEFAULT, s->set, diags));
	}
	for (guint i = 0; i < k8s_object_set_count(s->set); i++) {
		K8sObject *obj = k8s_object_set_get(s->set, i);

		if (obj->kind == K8S_KIND_NODE) {
			s->node = dra_input_node(s->input, (K8sNode *)obj);
		} else if (obj->kind == K8S_KIND_RESOURCE_CLAIM) {
			g_ptr_array_add(s->claims, (gpointer)dra_input_claim(
			                                   s->input, "default", obj->metadata.name,
			                                   &((K8sResourceClaim *)obj)->spec));
		}
	}
	assert_non_null(s->node);
	assert_int_equal(s->claims->len, profiles->len + 1);
}

static void
session_init(Session *s, const HwNode *hw)
{
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(GError) error = NULL;
	HwPublishOptions options;

	memset(s, 0, sizeof(*s));
	s->hw = hw;
	s->model = hw->shape->gpu_model;
	s->n_gpus = hw->gpus->len;
	assert_true(s->n_gpus <= MAX_GPUS);
	s->mig = research_mig_new(s->model->id, &error);
	if (s->mig == NULL) {
		fail_msg("%s", error->message);
	}
	s->set = k8s_object_set_new();
	s->input = dra_input_new();
	s->claims = g_ptr_array_new();
	hw_publish_options_init(&options);
	options.dynamic_mig = TRUE;
	/* Kubernetes 1.34's layout, as the DRA world publishes it: one slice per GPU
	 * holding its counter set (1.35's separate counter slice is not valid 1.34 API). */
	options.k8s_1_35 = FALSE;
	if (!hw_publish_objects(hw, &options, TRUE, s->set, diags)) {
		k8s_diag_list_print(diags, stderr);
		fail_msg("%s: the published objects are not valid", hw->name);
	}
	load_claims(s, diags);
	/* DRAPartitionableDevices is alpha in 1.34: DynamicMIG needs it on. */
	s->features = dra_features_default();
	s->features.partitionable_devices = TRUE;
	s->cel = dra_cel_new(&s->features);
	session_restart(s);
}

static void
session_clear(Session *s)
{
	dra_allocator_free(s->alloc);
	dra_cel_free(s->cel);
	dra_input_free(s->input);
	k8s_object_set_free(s->set);
	g_ptr_array_unref(s->claims);
	research_mig_free(s->mig);
}

/* The claim of research profile @profile: found by name among the catalog's. */
static const DraClaim *
claim_for(const Session *s, gint profile)
{
	const GPtrArray *profiles = s->model->mig->profiles;
	const char *name = research_mig_profile_name(s->mig, profile);

	for (guint i = 0; profile >= 0 && i < profiles->len; i++) {
		if (strcmp(((const HwMigProfile *)g_ptr_array_index(profiles, i))->name, name) ==
		    0) {
			return g_ptr_array_index(s->claims, i);
		}
	}
	assert_true(profile < 0);
	return g_ptr_array_index(s->claims, profiles->len);
}

/* The device name the driver publishes for (@gpu, @profile, @start), v25.12 naming. */
static char *
device_name(const Session *s, guint gpu, gint profile, guint start)
{
	const HwMigProfile *p;
	g_autofree char *dns = NULL;

	if (profile < 0) {
		return g_strdup_printf("gpu-%u", gpu);
	}
	p = hw_gpu_model_lookup_profile(s->model, research_mig_profile_name(s->mig, profile));
	dns = hw_mig_profile_dns_name(p);
	return g_strdup_printf("gpu-%u-mig-%s-%u-%u", gpu, dns, p->gi_profile_id, start);
}

static char *
state_text(const Session *s)
{
	GString *text = g_string_new(NULL);

	for (guint g = 0; g < s->n_gpus; g++) {
		g_string_append_printf(text, " gpu%u{mem 0x%02x compute %u n %u%s}", g,
		                       s->gpus[g].memory_used, s->gpus[g].compute_used,
		                       s->gpus[g].instances, s->gpus[g].whole ? " whole" : "");
	}
	return g_string_free(text, FALSE);
}

/* One request to both; returns whether it was placed. */
static gboolean
step(Session *s, gint profile, guint32 seed, guint index)
{
	const DraClaim *claim = claim_for(s, profile);
	guint gpu = 0, start = 0;
	gboolean fits = research_mig_first_fit(s->mig, s->gpus, s->n_gpus, profile, &gpu, &start);
	DraOutcome outcome = dra_allocator_allocate(s->alloc, s->node, &claim, 1);
	g_autofree char *state = state_text(s);

	assert_null(dra_allocator_get_error(s->alloc));
	if (fits != (outcome == DRA_OUTCOME_ALLOCATED)) {
		fail_msg("%s seed %u step %u, %s: research_mig %s, the allocator %s;%s",
		         s->model->id, seed, index, research_mig_profile_name(s->mig, profile),
		         fits ? "fits" : "refuses", fits ? "refuses" : "allocates", state);
	}
	if (!fits) {
		s->refused++;
		return FALSE;
	}
	const DraAllocation *allocation = dra_allocator_get_allocation(s->alloc, 0);
	g_autofree char *expect = device_name(s, gpu, profile, start);
	assert_int_equal(allocation->n_results, 1);
	if (strcmp(allocation->results[0].device, expect) != 0 ||
	    strcmp(allocation->results[0].pool, s->hw->name) != 0) {
		fail_msg("%s seed %u step %u: the allocator took %s/%s, research_mig %s;%s",
		         s->model->id, seed, index, allocation->results[0].pool,
		         allocation->results[0].device, expect, state);
	}
	dra_allocator_commit(s->alloc, 0);
	research_mig_take(s->mig, &s->gpus[gpu], profile, start);
	s->allocated++;
	return TRUE;
}

/*
 * A request as the dra-mig world makes it (a random share, 1..1000 milli,
 * through research_mig_profile_for()) or any plain profile or the full GPU,
 * so that profiles the share never picks (1g.10gb) are compared too.
 */
static gint
draw_profile(const Session *s, GRand *rand)
{
	const GPtrArray *profiles = s->model->mig->profiles;

	if (g_rand_boolean(rand)) {
		return research_mig_profile_for(s->mig, (guint32)g_rand_int_range(rand, 1, 1001));
	}
	for (;;) {
		gint i = g_rand_int_range(rand, -1, (gint32)profiles->len);

		if (i < 0 ||
		    !((const HwMigProfile *)g_ptr_array_index(profiles, i))->media_extensions) {
			return i;
		}
	}
}

static void
run_seeds(const char *shape)
{
	g_autoptr(HwNode) hw = hw_node_new(hw_catalog_lookup_shape(catalog, shape), "node-a");
	Session s;

	session_init(&s, hw);
	for (guint32 seed = 1; seed <= 6; seed++) {
		g_autoptr(GRand) rand = g_rand_new_with_seed(seed);
		guint in_round = 0, misses = 0;

		session_restart(&s);
		for (guint i = 0; i < STEPS; i++) {
			if (in_round == ROUND_MAX || misses == ROUND_MISS) {
				session_restart(&s);
				in_round = misses = 0;
			}
			in_round++;
			misses = step(&s, draw_profile(&s, rand), seed, i) ? 0 : misses + 1;
		}
	}
	/* Both outcomes were compared many times, not one of them only. */
	assert_true(s.allocated >= 300);
	assert_true(s.refused >= 300);
	session_clear(&s);
}

/* The DGX A100 (8 × A100-SXM4-40GB, the dra-mig world's default model). */
static void
test_mig_alloc__a100_dgx(void **state)
{
	run_seeds("dgx-a100-320gb");
}

static void
test_mig_alloc__other_models(void **state)
{
	run_seeds("three-h100");
	run_seeds("three-b200");
	run_seeds("four-a30");
}

static int
setup(void **state)
{
	catalog = hw_catalog_new_builtin(NULL);
	return catalog == NULL ||
	       !hw_catalog_load_data(catalog, "shapes", shapes_doc, sizeof(shapes_doc) - 1, NULL);
}

static int
teardown(void **state)
{
	hw_catalog_free(catalog);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mig_alloc__a100_dgx),
		cmocka_unit_test(test_mig_alloc__other_models),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
