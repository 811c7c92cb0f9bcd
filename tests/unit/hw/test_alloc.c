/*
 * test_alloc.c: dynamic MIG through the real allocator (model/dra with model/cel).
 *
 * One-GPU nodes publish their DynamicMIG devices; claims for mig.nvidia.com select a
 * profile by CEL. For each profile alone and for seeded random profile mixes, claims
 * are placed until no profile fits any more; after every allocation the placements so
 * far must satisfy NVIDIA's rules (hw_mig_check), and at the end the GPU must be full:
 * no profile has a legal placement left. Allocating a MIG device also blocks the
 * full GPU and the overlapping placements.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dra_k8s.h"
#include "hw_api.h"
#include "hw_test_catalog.h"
#include "k8s_objects.h"

static const char shapes_doc[] =
        "schema: drasim.hw/v1\n"
        "node_shapes:\n"
        "  - { id: one-h100, gpu_model: h100-sxm5-80gb, cpus: 8, memory_gib: 64, numa_nodes: 1,\n"
        "      pcie_roots: [{ root: pci0000:00, numa: 0, gpus: [\"0000:01:00.0\"] }] }\n"
        "  - { id: one-a100, gpu_model: a100-sxm4-40gb, cpus: 8, memory_gib: 64, numa_nodes: 1,\n"
        "      pcie_roots: [{ root: pci0000:00, numa: 0, gpus: [\"0000:01:00.0\"] }] }\n"
        "  - { id: one-b200, gpu_model: b200-180gb, cpus: 8, memory_gib: 64, numa_nodes: 1,\n"
        "      pcie_roots: [{ root: pci0000:00, numa: 0, gpus: [\"0000:01:00.0\"] }] }\n"
        "  - { id: one-a30, gpu_model: a30-24gb, cpus: 8, memory_gib: 64, numa_nodes: 1,\n"
        "      pcie_roots: [{ root: pci0000:00, numa: 0, gpus: [\"0000:01:00.0\"] }] }\n";

/* Everything one allocation session needs, built from a published node. */
typedef struct {
	const HwGpuModel *model;
	K8sObjectSet *set;
	DraInput *input;
	DraCel *cel;
	DraAllocator *alloc;
	const DraNode *node;
	GPtrArray *claims; /* const DraClaim*, one per profile, then the full GPU */
	GArray *placed;    /* HwMigInstance */
} Session;

static char *
claim_yaml(const char *name, const char *klass, const char *profile)
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
	                       name, klass,
	                       profile ? "        selectors:\n        - cel:\n"
	                                 "            expression: \"device.attributes"
	                                 "['gpu.nvidia.com'].profile == '"
	                               : "",
	                       profile ? profile : "", profile ? "'\"\n" : "");
}

static void
session_init(Session *s, const char *shape_id)
{
	g_autoptr(HwNode) node = hw_node_new(hw_catalog_lookup_shape(catalog, shape_id), "node-a");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	DraFeatures features = dra_features_default();
	HwPublishOptions options;
	const GPtrArray *profiles;

	memset(s, 0, sizeof(*s));
	s->model = node->shape->gpu_model;
	s->set = k8s_object_set_new();
	s->input = dra_input_new();
	s->claims = g_ptr_array_new();
	s->placed = g_array_new(FALSE, TRUE, sizeof(HwMigInstance));
	hw_publish_options_init(&options);
	options.dynamic_mig = TRUE;
	assert_true(hw_publish_objects(node, &options, TRUE, s->set, diags));
	profiles = s->model->mig->profiles;
	for (guint i = 0; i <= profiles->len; i++) {
		const HwMigProfile *p = i < profiles->len ? g_ptr_array_index(profiles, i) : NULL;
		g_autofree char *name = g_strdup_printf("claim-%u", i);
		g_autofree char *yaml = claim_yaml(name, p ? "mig.nvidia.com" : "gpu.nvidia.com",
		                                   p ? p->name : NULL);

		assert_true(
		        k8s_load_data(name, yaml, strlen(yaml), K8S_LOAD_DEFAULT, s->set, diags));
	}
	/* DRAPartitionableDevices is alpha in 1.34: DynamicMIG needs it switched on. */
	features.partitionable_devices = TRUE;
	s->cel = dra_cel_new(&features);
	s->alloc = dra_allocator_new(&features, dra_cel_get_ops(), s->cel);
	for (guint i = 0; i < k8s_object_set_count(s->set); i++) {
		K8sObject *obj = k8s_object_set_get(s->set, i);

		switch (obj->kind) {
		case K8S_KIND_RESOURCE_SLICE:
			dra_allocator_add_slice(s->alloc,
			                        dra_input_slice(s->input, (K8sResourceSlice *)obj));
			break;
		case K8S_KIND_DEVICE_CLASS:
			dra_allocator_add_class(s->alloc,
			                        dra_input_class(s->input, (K8sDeviceClass *)obj));
			break;
		case K8S_KIND_NODE:
			s->node = dra_input_node(s->input, (K8sNode *)obj);
			break;
		case K8S_KIND_RESOURCE_CLAIM:
			g_ptr_array_add(s->claims, (gpointer)dra_input_claim(
			                                   s->input, "default", obj->metadata.name,
			                                   &((K8sResourceClaim *)obj)->spec));
			break;
		default:
			break;
		}
	}
	assert_non_null(s->node);
	assert_int_equal(s->claims->len, profiles->len + 1);
}

static void
session_clear(Session *s)
{
	dra_allocator_free(s->alloc);
	dra_cel_free(s->cel);
	dra_input_free(s->input);
	k8s_object_set_free(s->set);
	g_ptr_array_unref(s->claims);
	g_array_unref(s->placed);
}

/* Allocates claim @index; on success records the placement, checks the rules and
 * returns the device name. */
static const char *
allocate(Session *s, guint index)
{
	const DraClaim *claim = g_ptr_array_index(s->claims, index);
	const DraAllocation *allocation;
	const DraDeviceResult *result;
	g_autofree char *reason = NULL;
	HwMigInstance inst;

	if (dra_allocator_allocate(s->alloc, s->node, &claim, 1) != DRA_OUTCOME_ALLOCATED) {
		assert_null(dra_allocator_get_error(s->alloc));
		return NULL;
	}
	allocation = dra_allocator_get_allocation(s->alloc, 0);
	assert_int_equal(allocation->n_results, 1);
	result = &allocation->results[0];
	dra_allocator_commit(s->alloc, 0);
	if (index == s->model->mig->profiles->len) {
		return result->device; /* the full GPU */
	}
	inst.profile = g_ptr_array_index(s->model->mig->profiles, index);
	inst.start = (guint)atoi(strrchr(result->device, '-') + 1);
	g_array_append_val(s->placed, inst);
	if (hw_mig_check(s->model, (HwMigInstance *)(void *)s->placed->data, s->placed->len,
	                 &reason) != HW_MIG_OK) {
		fail_msg("%s: allocator placed %s, breaking a MIG rule: %s", s->model->id,
		         result->device, reason);
	}
	return result->device;
}

/* No profile has a legal placement left. */
static void
assert_full(const Session *s)
{
	const GPtrArray *profiles = s->model->mig->profiles;
	g_autoptr(GArray) probe = g_array_new(FALSE, TRUE, sizeof(HwMigInstance));

	for (guint p = 0; p < profiles->len; p++) {
		const HwMigProfile *profile = g_ptr_array_index(profiles, p);

		for (guint k = 0; k < profile->n_starts; k++) {
			HwMigInstance extra = { profile, profile->starts[k] };

			g_array_set_size(probe, 0);
			g_array_append_vals(probe, s->placed->data, s->placed->len);
			g_array_append_val(probe, extra);
			if (hw_mig_check(s->model, (HwMigInstance *)(void *)probe->data, probe->len,
			                 NULL) == HW_MIG_OK) {
				fail_msg("%s: the allocator refused %s but %s at %u is legal",
				         s->model->id, profile->name, profile->name, extra.start);
			}
		}
	}
}

static void
fill_with(Session *s, const GArray *sequence, GRand *rand)
{
	const guint n_profiles = s->model->mig->profiles->len;
	g_autofree gboolean *refused = g_new0(gboolean, n_profiles);
	guint n_refused = 0;

	for (guint i = 0; sequence != NULL && i < sequence->len; i++) {
		allocate(s, g_array_index(sequence, guint, i));
	}
	/* Then random profiles until every profile is refused. */
	while (n_refused < n_profiles) {
		guint index = (guint)g_rand_int_range(rand, 0, (gint32)n_profiles);

		if (refused[index]) {
			continue;
		}
		if (allocate(s, index) == NULL) {
			refused[index] = TRUE;
			n_refused++;
		}
	}
	/* Any MIG device blocks the full GPU. */
	assert_null(allocate(s, n_profiles));
	assert_full(s);
}

static void
test_alloc__each_profile_alone(void **state)
{
	static const char *const shapes[] = { "one-h100", "one-a100", "one-b200", "one-a30" };

	for (guint sh = 0; sh < G_N_ELEMENTS(shapes); sh++) {
		const HwGpuModel *model = hw_catalog_lookup_shape(catalog, shapes[sh])->gpu_model;

		for (guint p = 0; p < model->mig->profiles->len; p++) {
			const HwMigProfile *profile = g_ptr_array_index(model->mig->profiles, p);
			g_autofree char *layout = g_strdup_printf("all-%s", profile->name);
			gboolean enabled;
			g_autoptr(GArray) expect =
			        hw_mig_layout_parse(model, layout, &enabled, NULL);
			Session s;
			guint count = 0;

			session_init(&s, shapes[sh]);
			while (allocate(&s, p) != NULL) {
				count++;
			}
			/* As many as the best static layout of that profile holds. */
			assert_int_equal(count, expect->len);
			session_clear(&s);
		}
	}
}

static void
test_alloc__random_mixes(void **state)
{
	static const char *const shapes[] = { "one-h100", "one-a100", "one-b200", "one-a30" };

	for (guint sh = 0; sh < G_N_ELEMENTS(shapes); sh++) {
		for (guint32 seed = 1; seed <= 12; seed++) {
			g_autoptr(GRand) rand = g_rand_new_with_seed(seed);
			Session s;

			session_init(&s, shapes[sh]);
			fill_with(&s, NULL, rand);
			assert_true(s.placed->len >= 1);
			session_clear(&s);
		}
	}
}

/* The scheduler takes the first device in name order: 3g lands at start 0, then the
 * full GPU, 4g (start 0) and 2g at 0 and 2 are blocked; 3g at 4 still fits. */
static void
test_alloc__blocks_overlapping(void **state)
{
	Session s;
	const GPtrArray *profiles;
	guint p3g = 0, p4g = 0, p2g = 0;

	session_init(&s, "one-h100");
	profiles = s.model->mig->profiles;
	for (guint i = 0; i < profiles->len; i++) {
		const char *name = ((HwMigProfile *)g_ptr_array_index(profiles, i))->name;
		p3g = strcmp(name, "3g.40gb") == 0 ? i : p3g;
		p4g = strcmp(name, "4g.40gb") == 0 ? i : p4g;
		p2g = strcmp(name, "2g.20gb") == 0 ? i : p2g;
	}
	assert_string_equal(allocate(&s, p3g), "gpu-0-mig-3g40gb-9-0");
	assert_null(allocate(&s, profiles->len)); /* full GPU */
	assert_null(allocate(&s, p4g));
	assert_string_equal(allocate(&s, p2g), "gpu-0-mig-2g20gb-14-4");
	assert_null(allocate(&s, p3g));
	session_clear(&s);

	/* And the full GPU first blocks every MIG device. */
	session_init(&s, "one-h100");
	assert_string_equal(allocate(&s, s.model->mig->profiles->len), "gpu-0");
	for (guint i = 0; i < s.model->mig->profiles->len; i++) {
		assert_null(allocate(&s, i));
	}
	session_clear(&s);
}

static int
setup(void **state)
{
	return catalog_setup_with("shapes", shapes_doc, sizeof(shapes_doc) - 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc__each_profile_alone),
		cmocka_unit_test(test_alloc__random_mixes),
		cmocka_unit_test(test_alloc__blocks_overlapping),
	};

	return cmocka_run_group_tests(tests, setup, catalog_teardown);
}
