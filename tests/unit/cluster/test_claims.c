/*
 * test_claims.c: the resource-claim controller's lifecycle: generated names
 * as upstream builds them (deterministic suffixes), reservedFor for every
 * consumer with its 256 limit, deallocation when the last consumer goes, and
 * deletion of a generated claim with its pod.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "cluster_claims.h"

typedef struct {
	guint n;
	GPtrArray *names;
} Dealloc;

static void
on_dealloc(gpointer data, ClusterClaim *claim)
{
	Dealloc *d = data;

	d->n++;
	g_ptr_array_add(d->names, g_strdup(claim->name));
}

static guint freed;

static void
free_allocation(gpointer allocation)
{
	freed++;
	g_free(allocation);
}

/* Claims whose deallocations are recorded in @d and whose freed allocations are
 * counted in `freed`. */
static ClusterClaims *
watched_claims(Dealloc *d)
{
	ClusterClaimsConfig config = {
		.free_allocation = free_allocation,
		.on_deallocated = on_dealloc,
		.on_deallocated_data = d,
	};

	return cluster_claims_new(&config);
}

static guint32
counting_rand(gpointer data, guint32 n)
{
	guint32 *next = data;

	return (*next)++ % n;
}

static void
test_claims__generated_names(void **state)
{
	guint32 next = 0;
	ClusterClaimsConfig config = { .rand = counting_rand, .rand_data = &next };
	g_autoptr(ClusterClaims) cc = cluster_claims_new(&config);
	g_autoptr(ClusterClaims) plain = cluster_claims_new(NULL);
	ClusterClaim *claim;
	g_autofree char *long_pod = g_strnfill(40, 'p');
	g_autofree char *long_claim = g_strnfill(30, 'c');
	g_autofree char *huge_pod = g_strnfill(60, 'q');

	claim = cluster_claims_generate(cc, "nb-0", "gpu");
	/* alphabet bcdfghjklmnpqrstvwxz2456789: indexes 0..4 */
	assert_string_equal(claim->name, "nb-0-gpu-bcdfg");
	assert_string_equal(claim->owner_pod, "nb-0");
	assert_string_equal(claim->pod_claim_name, "gpu");
	/* without a stream the suffix counts in base 27: deterministic too */
	assert_string_equal(cluster_claims_generate(plain, "nb-0", "gpu")->name, "nb-0-gpu-bbbbb");
	assert_string_equal(cluster_claims_generate(plain, "nb-0", "gpu")->name, "nb-0-gpu-cbbbb");

	/* 40 + 30 + 2 = 72 > 57: 40*57/72 = 31 and 30*57/72 = 23, no trailing '-' */
	claim = cluster_claims_generate(cc, long_pod, long_claim);
	assert_int_equal(strlen(claim->name), 31 + 1 + 23 + 5);
	assert_true(g_str_has_prefix(claim->name, "ppppppppppppppppppppppppppppppp-ccc"));
	assert_int_equal(claim->name[31], '-');
	assert_int_not_equal(claim->name[31 + 1 + 23], '-');
	/* 60 + 1 + 2 = 63: 60*57/63 = 54 and 1*57/63 = 0 */
	claim = cluster_claims_generate(cc, huge_pod, "c");
	assert_int_equal(strlen(claim->name), 54 + 1 + 5);
	assert_int_equal(cluster_claims_get_n_generated(cc), 3);
	assert_int_equal(cluster_claims_get_length(cc), 3);
	assert_ptr_equal(cluster_claims_lookup(cc, claim->name), claim);
}

static void
test_claims__name_collision_draws_again(void **state)
{
	guint32 next = 0;
	ClusterClaimsConfig config = { .rand = counting_rand, .rand_data = &next };
	g_autoptr(ClusterClaims) cc = cluster_claims_new(&config);

	assert_non_null(cluster_claims_add(cc, "a-b-bcdfg"));
	assert_null(cluster_claims_add(cc, "a-b-bcdfg"));
	assert_string_equal(cluster_claims_generate(cc, "a", "b")->name, "a-b-hjklm");
}

static void
test_claims__shared_claim_lifecycle(void **state)
{
	Dealloc d = { 0, g_ptr_array_new_with_free_func(g_free) };
	g_autoptr(ClusterClaims) cc = watched_claims(&d);
	ClusterClaim *shared = cluster_claims_add(cc, "shared-gpu");

	freed = 0;
	assert_true(cluster_claims_reserve(cc, shared, "a"));
	cluster_claims_allocate(cc, shared, g_strdup("allocation"));
	assert_true(cluster_claims_reserve(cc, shared, "b"));
	assert_true(cluster_claims_reserve(cc, shared, "b"));
	assert_int_equal(shared->reserved_for->len, 2);
	assert_true(cluster_claims_is_reserved_for(shared, "a"));

	assert_false(cluster_claims_release(cc, shared, "a"));
	assert_true(shared->allocated);
	assert_true(cluster_claims_release(cc, shared, "b"));
	assert_false(shared->allocated);
	assert_null(shared->allocation);
	assert_int_equal(freed, 1);
	assert_int_equal(d.n, 1);
	assert_string_equal(d.names->pdata[0], "shared-gpu");
	/* a user-created claim outlives its consumers */
	assert_ptr_equal(cluster_claims_lookup(cc, "shared-gpu"), shared);
	assert_int_equal(cluster_claims_get_n_deleted(cc), 0);
	g_ptr_array_unref(d.names);
}

static void
test_claims__generated_claim_dies_with_pod(void **state)
{
	Dealloc d = { 0, g_ptr_array_new_with_free_func(g_free) };
	g_autoptr(ClusterClaims) cc = watched_claims(&d);
	ClusterClaim *claim = cluster_claims_generate(cc, "train-0", "gpus");
	g_autofree char *name = g_strdup(claim->name);

	freed = 0;
	cluster_claims_reserve(cc, claim, "train-0");
	cluster_claims_allocate(cc, claim, g_strdup("allocation"));
	assert_true(cluster_claims_release(cc, claim, "train-0"));
	assert_null(cluster_claims_lookup(cc, name));
	assert_int_equal(d.n, 1);
	assert_int_equal(freed, 1);
	assert_int_equal(cluster_claims_get_n_deallocated(cc), 1);
	assert_int_equal(cluster_claims_get_n_deleted(cc), 1);
	assert_int_equal(cluster_claims_get_length(cc), 0);

	/* a generated claim never allocated (pod deleted while pending) is deleted too */
	claim = cluster_claims_generate(cc, "pending-0", "gpus");
	assert_false(cluster_claims_release(cc, claim, "pending-0"));
	assert_int_equal(cluster_claims_get_length(cc), 0);
	assert_int_equal(cluster_claims_get_n_deleted(cc), 2);
	g_ptr_array_unref(d.names);
}

static void
test_claims__reserved_for_limit(void **state)
{
	g_autoptr(ClusterClaims) cc = cluster_claims_new(NULL);
	ClusterClaim *claim = cluster_claims_add(cc, "c");

	for (guint i = 0; i < CLUSTER_CLAIM_RESERVED_FOR_MAX; i++) {
		g_autofree char *pod = g_strdup_printf("pod-%u", i);

		assert_true(cluster_claims_reserve(cc, claim, pod));
	}
	assert_false(cluster_claims_reserve(cc, claim, "one-too-many"));
	assert_true(cluster_claims_reserve(cc, claim, "pod-7"));
	assert_int_equal(claim->reserved_for->len, 256);
}

/*
 * CanBeReserved: 255 consumers leave room for a 256th; at 256 only those
 * already in reservedFor may use the claim.
 */
static void
test_claims__can_reserve(void **state)
{
	g_autoptr(ClusterClaims) cc = cluster_claims_new(NULL);
	ClusterClaim *claim = cluster_claims_add(cc, "c");

	assert_true(cluster_claims_can_reserve(claim, "new"));
	for (guint i = 0; i < CLUSTER_CLAIM_RESERVED_FOR_MAX - 1; i++) {
		g_autofree char *pod = g_strdup_printf("pod-%u", i);

		cluster_claims_reserve(cc, claim, pod);
	}
	assert_true(cluster_claims_can_reserve(claim, "new"));
	cluster_claims_reserve(cc, claim, "new");
	assert_int_equal(claim->reserved_for->len, 256);
	assert_false(cluster_claims_can_reserve(claim, "other"));
	assert_true(cluster_claims_can_reserve(claim, "new"));
	assert_true(cluster_claims_can_reserve(claim, "pod-0"));
}

static void
test_claims__postfilter_deallocates_unreserved(void **state)
{
	g_autoptr(ClusterClaims) cc = cluster_claims_new(NULL);
	ClusterClaim *claim = cluster_claims_add(cc, "c");

	assert_false(cluster_claims_deallocate_unreserved(cc, claim));
	cluster_claims_allocate(cc, claim, NULL);
	cluster_claims_reserve(cc, claim, "a");
	assert_false(cluster_claims_deallocate_unreserved(cc, claim));
	cluster_claims_release(cc, claim, "a");
	assert_false(claim->allocated);
	cluster_claims_allocate(cc, claim, NULL);
	assert_true(cluster_claims_deallocate_unreserved(cc, claim));
	assert_int_equal(cluster_claims_get_n_deallocated(cc), 2);
}

static void
collect(gpointer data, gpointer user_data)
{
	g_string_append_printf(user_data, "%s,", ((ClusterClaim *)data)->name);
}

static void
test_claims__foreach_in_creation_order(void **state)
{
	g_autoptr(ClusterClaims) cc = cluster_claims_new(NULL);
	g_autoptr(GString) names = g_string_new(NULL);
	ClusterClaim *gen;

	cluster_claims_add(cc, "z");
	gen = cluster_claims_generate(cc, "p", "c");
	cluster_claims_add(cc, "a");
	cluster_claims_release(cc, gen, "p");
	cluster_claims_foreach(cc, collect, names);
	assert_string_equal(names->str, "z,a,");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claims__generated_names),
		cmocka_unit_test(test_claims__name_collision_draws_again),
		cmocka_unit_test(test_claims__shared_claim_lifecycle),
		cmocka_unit_test(test_claims__generated_claim_dies_with_pod),
		cmocka_unit_test(test_claims__reserved_for_limit),
		cmocka_unit_test(test_claims__can_reserve),
		cmocka_unit_test(test_claims__postfilter_deallocates_unreserved),
		cmocka_unit_test(test_claims__foreach_in_creation_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
