/*
 * test_scratch.c: k8s_object_set_new_scratch() and k8s_object_set_reset(), the
 * memory sim/world publishes each node into: objects are dropped at a reset,
 * their text stays in the owner's strings and outlives the scratch set, the
 * index forgets the dropped names, and a reset reuses the memory it had.
 */
#include "api-test-util.h"
#include "base_arena.h"

/* A built ResourceSlice @name with one device, as model/hw builds them. */
static K8sResourceSlice *
add_slice(K8sObjectSet *set, const char *name)
{
	K8sPos pos = { k8s_object_set_intern(set, "<test>"), 0, 0 };
	K8sResourceSlice *s = k8s_object_as_resource_slice(
	        k8s_object_set_add_built(set, K8S_KIND_RESOURCE_SLICE, name, pos));
	K8sDevice *dev = k8s_object_set_alloc(set, sizeof(K8sDevice));

	dev->name = k8s_object_set_intern(set, "gpu-0");
	s->spec.devices = dev;
	s->spec.n_devices = 1;
	s->spec.node_name = k8s_object_set_intern(set, "node-0");
	return s;
}

static void
test_scratch__text_in_owner(void **state)
{
	(void)state;
	K8sObjectSet *owner = k8s_object_set_new();
	K8sObjectSet *scratch = k8s_object_set_new_scratch(owner);
	const K8sResourceSlice *s = add_slice(scratch, "slice-a");
	const char *device = s->spec.devices[0].name;

	/* the object is the scratch set's, its text the owner's (same pointer) */
	assert_int_equal(k8s_object_set_count(scratch), 1);
	assert_int_equal(k8s_object_set_count(owner), 0);
	assert_ptr_equal(k8s_object_set_intern(owner, "gpu-0"), device);
	assert_ptr_equal(k8s_object_set_intern(owner, "slice-a"), s->obj.metadata.name);
	k8s_object_set_free(scratch);
	/* ASan reports a use after free here if freeing the scratch set took the text */
	assert_string_equal(device, "gpu-0");
	k8s_object_set_free(owner);
}

static void
test_scratch__reset_drops_objects(void **state)
{
	(void)state;
	g_autoptr(K8sObjectSet) owner = k8s_object_set_new();
	g_autoptr(K8sObjectSet) scratch = k8s_object_set_new_scratch(owner);
	gsize capacity;

	add_slice(scratch, "slice-a");
	add_slice(scratch, "slice-b");
	capacity = base_arena_capacity(k8s_object_set_get_arena(scratch));
	assert_non_null(k8s_object_set_lookup(scratch, K8S_KIND_RESOURCE_SLICE, NULL, "slice-a"));
	k8s_object_set_reset(scratch);
	assert_int_equal(k8s_object_set_count(scratch), 0);
	assert_int_equal(k8s_object_set_count_kind(scratch, K8S_KIND_RESOURCE_SLICE), 0);
	assert_null(k8s_object_set_lookup(scratch, K8S_KIND_RESOURCE_SLICE, NULL, "slice-a"));
	/* the same name again is a new object, found by the index */
	const K8sResourceSlice *again = add_slice(scratch, "slice-a");
	add_slice(scratch, "slice-b");
	assert_ptr_equal(k8s_object_set_lookup(scratch, K8S_KIND_RESOURCE_SLICE, NULL, "slice-a"),
	                 &again->obj);
	assert_int_equal(k8s_object_set_count(scratch), 2);
	/* the second round of the same objects fits in the memory of the first */
	assert_int_equal(base_arena_capacity(k8s_object_set_get_arena(scratch)), capacity);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scratch__text_in_owner),
		cmocka_unit_test(test_scratch__reset_drops_objects),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
