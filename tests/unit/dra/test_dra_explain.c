/*
 * test_dra_explain.c: dra_allocator_explain() on hand-built inventories (the
 * fake selector language of dra_fake.h): the selector that ruled devices
 * out, class or request, devices held by other claims, a constraint no
 * device pair meets, and the statistics left untouched.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dra.h"
#include "dra_fake.h"
#include "dra_search_fixture.h"

static const DraNode bare_node1 = { .name = "node-1" };
static const DraNode bare_node2 = { .name = "node-2" };

/* The fixture's ExactCount request with one @selector (NULL: none). */
static DraRequest
exact_sel(const char *name, gint64 count, const char *selector)
{
	DraRequest r = exact(name, count);

	if (selector != NULL) {
		const char **selectors = g_new0(const char *, 1);

		selectors[0] = selector;
		r.exactly.selectors = selectors;
		r.exactly.n_selectors = 1;
	}
	return r;
}

static void
free_request(DraRequest *r)
{
	g_free((gpointer)r->exactly.selectors);
}

/* Two devices on numa 0 and 1 on @node, published by @driver. */
static void
fill(DraDevice *devs, DraSlice *s, const char *node, const char *driver)
{
	memset(devs, 0, 2 * sizeof(*devs));
	devs[0].name = "device-0";
	devs[0].attributes = &numa0;
	devs[0].n_attributes = 1;
	devs[1].name = "device-1";
	devs[1].attributes = &numa1;
	devs[1].n_attributes = 1;
	memset(s, 0, sizeof(*s));
	s->name = node;
	s->driver = driver;
	s->pool = node;
	s->generation = 1;
	s->resource_slice_count = 1;
	s->node_name = node;
	s->devices = devs;
	s->n_devices = 2;
}

static DraAllocator *
new_two_pools(DraDevice *d1, DraSlice *s1, DraDevice *d2, DraSlice *s2, const char *driver2)
{
	DraFeatures f = dra_features_none();
	DraAllocator *a = new_alloc(&f);

	fill(d1, s1, "node-1", "driver-a");
	fill(d2, s2, "node-2", driver2);
	dra_allocator_add_slice(a, s1);
	dra_allocator_add_slice(a, s2);
	return a;
}

/* The request's selector fails on node-1; node-2's devices are another
 * driver's, so the class selector is the furthest any of them got. */
static void
test_explain_selectors(void **state)
{
	DraDevice d1[2], d2[2];
	DraSlice s1, s2;
	g_autoptr(DraAllocator) a = new_two_pools(d1, &s1, d2, &s2, "driver-b");
	DraRequest req = exact_sel("gpu", 1, "attr numa == 7");
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	const DraNode nodes[] = { bare_node1, bare_node2 };
	DraStats before;
	g_autofree char *text = NULL;

	/* some work first, so the statistics are not all zero */
	assert_int_equal(dra_allocator_allocate(a, &bare_node1, claims, 1),
	                 DRA_OUTCOME_UNSCHEDULABLE);
	before = *dra_allocator_get_stats(a);
	text = dra_allocator_explain(a, claims, 1, nodes, 2);
	assert_string_equal(text,
	                    "request gpu: selector attr numa == 7 matched no device on 1 "
	                    "node, class selector driver == \"driver-a\" matched no device on "
	                    "1 node");
	assert_memory_equal(&before, dra_allocator_get_stats(a), sizeof(before));
	free_request(&req);
}

/* Held devices: node-1's both allocated, node-2's one of the two needed. */
static void
test_explain_in_use(void **state)
{
	DraDevice d1[2], d2[2];
	DraSlice s1, s2;
	g_autoptr(DraAllocator) a = new_two_pools(d1, &s1, d2, &s2, "driver-a");
	DraRequest req = exact_sel("gpus", 2, NULL);
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	const DraNode nodes[] = { bare_node1, bare_node2 };
	g_autofree char *text = NULL;
	g_autofree char *none = NULL;

	/* nothing held yet: both nodes can allocate, nothing to explain */
	none = dra_allocator_explain(a, claims, 1, nodes, 2);
	assert_null(none);
	dra_allocator_mark_allocated(a, "driver-a", "node-1", "device-0", TRUE);
	dra_allocator_mark_allocated(a, "driver-a", "node-1", "device-1", TRUE);
	dra_allocator_mark_allocated(a, "driver-a", "node-2", "device-1", TRUE);
	text = dra_allocator_explain(a, claims, 1, nodes, 2);
	assert_string_equal(text, "request gpus: 1 node had matching devices but all were "
	                          "allocated, 1 node had matching devices but fewer than 2 free");
	free_request(&req);
}

/* Each request alone has a free device, but matchAttribute numa cannot hold
 * for numa 0 and numa 1 together: the search's constraint counter says so. */
static void
test_explain_constraint(void **state)
{
	DraDevice d1[2], d2[2];
	DraSlice s1, s2;
	g_autoptr(DraAllocator) a = new_two_pools(d1, &s1, d2, &s2, "driver-b");
	DraRequest reqs[2] = { exact_sel("left", 1, "attr numa == 0"),
		               exact_sel("right", 1, "attr numa == 1") };
	DraConstraint con = { NULL, 0, "driver-a/numa", NULL };
	DraClaim c = claim_of("claim-0", reqs, 2);
	const DraClaim *claims[] = { &c };
	g_autofree char *text = NULL;

	c.constraints = &con;
	c.n_constraints = 1;
	text = dra_allocator_explain(a, claims, 1, &bare_node1, 1);
	assert_string_equal(text, "request right: the constraint on driver-a/numa could not be met "
	                          "on 1 node");
	free_request(&reqs[0]);
	free_request(&reqs[1]);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_explain_selectors),
		cmocka_unit_test(test_explain_in_use),
		cmocka_unit_test(test_explain_constraint),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
