/*
 * test_dra_search.c: the allocator's search on hand-built inventories.
 *
 * Each test pins one behaviour of k8s.io/dynamic-resource-allocation
 * structured/internal/experimental/allocator_experimental.go (release-1.34)
 * that the conformance corpus does not cover, or covers only indirectly; the
 * comment on each test names the upstream code it follows. What makes one
 * device available (admin access, taints, counters, consumable capacity) is
 * in test_dra_devices.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dra.h"
#include "dra_fake.h"
#include "dra_search_fixture.h"

/* allocateOne: the first device in slice order wins; a backtrack follows a constraint. */
static void
test_backtrack_match_attribute(void **state)
{
	DraDevice devs[3] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].attributes = &numa0;
	devs[0].n_attributes = 1;
	devs[1].name = "device-2";
	devs[1].attributes = &numa1;
	devs[1].n_attributes = 1;
	devs[2].name = "device-3";
	devs[2].attributes = &numa1;
	devs[2].n_attributes = 1;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 3);
	DraRequest reqs[2] = { exact("req-0", 1), exact("req-1", 1) };
	/* req-1 only takes numa 1, so req-0 must move off device-1 */
	reqs[1].exactly.selectors = (const char *const[]){ "attr numa == 1" };
	reqs[1].exactly.n_selectors = 1;
	DraConstraint con = { NULL, 0, "driver-a/numa", NULL };
	DraClaim c = claim_of("claim-0", reqs, 2);
	c.constraints = &con;
	c.n_constraints = 1;
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	const DraAllocation *r = dra_allocator_get_allocation(a, 0);
	assert_int_equal(r->n_results, 2);
	assert_string_equal(r->results[0].device, "device-2");
	assert_string_equal(r->results[1].device, "device-3");
	assert_true(dra_allocator_get_stats(a)->backtracks > 0);
	assert_true(dra_allocator_get_stats(a)->constraint_rejections > 0);
	/* the node selector of a nodeName slice pins the node (createNodeSelector) */
	assert_non_null(r->node_selector);
	assert_string_equal(r->node_selector->terms[0].match_fields[0].values[0], "node-1");
}

/* "All" with a constraint violation is a fatal error (allocateDevice, must == true). */
static void
test_all_mode_constraint_error(void **state)
{
	DraDevice devs[2] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].attributes = &numa0;
	devs[0].n_attributes = 1;
	devs[1].name = "device-2";
	devs[1].attributes = &numa1;
	devs[1].n_attributes = 1;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 2);
	DraRequest req = exact("req-0", 0);
	req.exactly.allocation_mode = "All";
	DraConstraint con = { NULL, 0, "driver-a/numa", NULL };
	DraClaim c = claim_of("claim-0", &req, 1);
	c.constraints = &con;
	c.n_constraints = 1;
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ERROR);
	assert_non_null(strstr(dra_allocator_get_error(a),
	                       "cannot add device driver-a/pool-1/device-2 because a claim "
	                       "constraint would not be satisfied"));
}

/* An invalid pool is only an error when the search reaches it (allocateOne's pool loop). */
static void
test_invalid_pool_only_when_reached(void **state)
{
	DraDevice good[1] = { { 0 } };
	good[0].name = "device-1";
	DraDevice dup[2] = { { 0 } };
	dup[0].name = "device-1";
	dup[1].name = "device-1";
	DraSlice s1 = slice_of("slice-1", "pool-1", good, 1);
	DraSlice s2 = slice_of("slice-2", "pool-2", dup, 2);
	DraRequest one = exact("req-0", 1);
	DraRequest two = exact("req-0", 2);
	DraClaim c1 = claim_of("claim-0", &one, 1);
	DraClaim c2 = claim_of("claim-0", &two, 1);
	const DraClaim *claims1[] = { &c1 };
	const DraClaim *claims2[] = { &c2 };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s1);
	dra_allocator_add_slice(a, &s2);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims1, 1), DRA_OUTCOME_ALLOCATED);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims2, 1), DRA_OUTCOME_ERROR);
	assert_string_equal(dra_allocator_get_error(a),
	                    "pool pool-2 is invalid: duplicate device name device-1");
}

/* GatherPools: a newer generation replaces the older slices of the pool. */
static void
test_generation(void **state)
{
	DraDevice old_devs[1] = { { 0 } };
	old_devs[0].name = "old";
	DraDevice new_devs[1] = { { 0 } };
	new_devs[0].name = "new";
	DraSlice s_old = slice_of("slice-old", "pool-1", old_devs, 1);
	DraSlice s_new = slice_of("slice-new", "pool-1", new_devs, 1);
	s_new.generation = 2;
	DraRequest req = exact("req-0", 1);
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s_old);
	dra_allocator_add_slice(a, &s_new);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	assert_string_equal(dra_allocator_get_allocation(a, 0)->results[0].device, "new");
}

/*
 * Quirk (Allocate in allocator_experimental.go, 1.34): validation of
 * sub-request 1 caches its "All" answers under the key of sub-request 0, so
 * its device list is sub-request 0's. Here that list holds only a device in
 * use, so production answers "unschedulable"; without the quirk the second
 * sub-request gets its own device.
 */
static void
test_stale_subrequest_key_quirk(void **state)
{
	DraDevice devs[2] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].attributes = &numa0;
	devs[0].n_attributes = 1;
	devs[1].name = "device-2";
	devs[1].attributes = &numa1;
	devs[1].n_attributes = 1;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 2);
	DraExactRequest subs[2] = { { 0 } };
	for (guint i = 0; i < 2; i++) {
		subs[i].device_class_name = "class-a";
		subs[i].allocation_mode = "All";
		subs[i].n_selectors = 1;
	}
	subs[0].name = "numa0";
	subs[0].selectors = (const char *const[]){ "attr numa == 0" };
	subs[1].name = "numa1";
	subs[1].selectors = (const char *const[]){ "attr numa == 1" };
	DraRequest req = { 0 };
	req.name = "req-0";
	req.first_available = subs;
	req.n_first_available = 2;
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	f.prioritized_list = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	dra_allocator_mark_allocated(a, "driver-a", "pool-1", "device-1", TRUE);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_UNSCHEDULABLE);
	assert_true(dra_allocator_get_stats(a)->quirk_stale_subrequest_key > 0);

	DraQuirks off = { TRUE, FALSE };
	dra_allocator_set_quirks(a, &off);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	const DraAllocation *r = dra_allocator_get_allocation(a, 0);
	assert_int_equal(r->n_results, 1);
	assert_string_equal(r->results[0].request, "req-0/numa1");
	assert_string_equal(r->results[0].device, "device-2");
}

/*
 * Upstream table cases that are not in the corpus (allocator_testing.go):
 * "empty-class" (a request without a class name is an error) and
 * "all-devices-many" (All takes the devices of every pool, here two pools
 * whose slices share a name).
 */
static void
test_upstream_empty_class(void **state)
{
	DraDevice devs[1] = { { 0 } };
	devs[0].name = "device-1";
	DraSlice s = slice_of("slice-1", "pool-1", devs, 1);
	DraRequest req = exact("req-0", 1);
	req.exactly.device_class_name = "";
	DraClaim c = claim_of("claim-0", &req, 1);
	c.namespace_ = NULL; /* upstream's claims have no namespace */
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ERROR);
	assert_non_null(strstr(dra_allocator_get_error(a),
	                       "claim claim-0, request req-0: missing device class name "
	                       "(unsupported request type?)"));
}

static void
test_upstream_all_devices_many(void **state)
{
	DraDevice d1[1] = { { 0 } };
	DraDevice d2[1] = { { 0 } };
	d1[0].name = "device-1";
	d2[0].name = "device-1";
	DraSlice s1 = slice_of("slice-1", "pool-1", d1, 1);
	DraSlice s2 = slice_of("slice-1", "pool-2", d2, 1);
	DraRequest req = exact("req-0", 0);
	req.exactly.allocation_mode = "All";
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s1);
	dra_allocator_add_slice(a, &s2);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	const DraAllocation *r = dra_allocator_get_allocation(a, 0);
	assert_int_equal(r->n_results, 2);
	assert_string_equal(r->results[0].pool, "pool-1");
	assert_string_equal(r->results[1].pool, "pool-2");
}

/*
 * Upstream "prioritized-list-multi-request" and "prioritized-list-with-backtracking"
 * (not in the corpus): an 8Gi device in pool-1 and a 4Gi device in pool-2;
 * "has gi8" stands for memory >= 8Gi and "has gi4" for memory >= 4Gi.
 */
static void
prioritized_pair(gboolean list_first, const char *want0, const char *want1)
{
	static const DraAttribute big[2] = { { "gi8", DRA_ATTR_BOOL, 0, TRUE, NULL },
		                             { "gi4", DRA_ATTR_BOOL, 0, TRUE, NULL } };
	static const DraAttribute small[1] = { { "gi4", DRA_ATTR_BOOL, 0, TRUE, NULL } };
	DraDevice d1[1] = { { 0 } };
	DraDevice d2[1] = { { 0 } };
	d1[0].name = "device-1";
	d1[0].attributes = big;
	d1[0].n_attributes = 2;
	d2[0].name = "device-2";
	d2[0].attributes = small;
	d2[0].n_attributes = 1;
	DraSlice s1 = slice_of("slice-1", "pool-1", d1, 1);
	DraSlice s2 = slice_of("slice-2", "pool-2", d2, 1);
	DraExactRequest subs[2] = { { 0 } };
	for (guint i = 0; i < 2; i++) {
		subs[i].device_class_name = "class-a";
		subs[i].allocation_mode = "ExactCount";
		subs[i].count = 1;
		subs[i].n_selectors = 1;
	}
	subs[0].name = "subReq-0";
	subs[0].selectors = (const char *const[]){ "has gi8" };
	subs[1].name = "subReq-1";
	subs[1].selectors = (const char *const[]){ "has gi4" };
	DraRequest list = { 0 };
	list.name = "req-0";
	list.first_available = subs;
	list.n_first_available = 2;
	DraRequest plain = exact("req-1", 1);
	plain.exactly.selectors = (const char *const[]){ "has gi8" };
	plain.exactly.n_selectors = 1;
	DraRequest reqs[2];
	reqs[0] = list_first ? list : plain;
	reqs[1] = list_first ? plain : list;
	DraClaim c = claim_of("claim-0", reqs, 2);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	f.prioritized_list = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s1);
	dra_allocator_add_slice(a, &s2);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	const DraAllocation *r = dra_allocator_get_allocation(a, 0);
	assert_int_equal(r->n_results, 2);
	g_autofree char *got0 = g_strdup_printf("%s=%s/%s", r->results[0].request,
	                                        r->results[0].pool, r->results[0].device);
	g_autofree char *got1 = g_strdup_printf("%s=%s/%s", r->results[1].request,
	                                        r->results[1].pool, r->results[1].device);
	assert_string_equal(got0, want0);
	assert_string_equal(got1, want1);
}

static void
test_upstream_prioritized_multi_request(void **state)
{
	prioritized_pair(FALSE, "req-1=pool-1/device-1", "req-0/subReq-1=pool-2/device-2");
}

static void
test_upstream_prioritized_backtracking(void **state)
{
	prioritized_pair(TRUE, "req-0/subReq-1=pool-2/device-2", "req-1=pool-1/device-1");
}

/* The unschedulable reason names the request and the selector that said no. */
static void
test_reason_names_selector(void **state)
{
	DraDevice devs[1] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].attributes = &numa0;
	devs[0].n_attributes = 1;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 1);
	DraRequest req = exact("gpu", 1);
	req.exactly.selectors = (const char *const[]){ "attr numa == 7" };
	req.exactly.n_selectors = 1;
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_UNSCHEDULABLE);
	const char *why = dra_allocator_get_reason(a);
	assert_non_null(strstr(why, "claim default/claim-0, request gpu:"));
	assert_non_null(strstr(why, "request selector #0 `attr numa == 7`"));
}

/* dra_allocator_count_matching: what lint needs to warn about requests that match nothing. */
static void
test_count_matching(void **state)
{
	DraDevice devs[2] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].attributes = &numa1;
	devs[0].n_attributes = 1;
	devs[1].name = "device-2";
	devs[1].attributes = &numa0;
	devs[1].n_attributes = 1;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 2);
	DraRequest req = exact("req-0", 1);
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);
	g_autofree char *error = NULL;

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_count_matching(a, &req.exactly, &error), 2);
	req.exactly.selectors = (const char *const[]){ "attr numa == 7" };
	req.exactly.n_selectors = 1;
	assert_int_equal(dra_allocator_count_matching(a, &req.exactly, &error), 0);
	req.exactly.selectors = (const char *const[]){ "error" };
	assert_int_equal(dra_allocator_count_matching(a, &req.exactly, &error), -1);
	assert_non_null(strstr(error, "no such key"));
}

/* selectorsMatch: a CEL runtime error is fatal, with the class named. */
static void
test_selector_error_is_fatal(void **state)
{
	const DraClass bad = { "bad", (const char *const[]){ "error" }, 1, NULL, 0 };
	DraDevice devs[1] = { { 0 } };
	devs[0].name = "device-1";
	DraSlice s = slice_of("slice-1", "pool-1", devs, 1);
	DraRequest req = exact("req-0", 1);
	req.exactly.device_class_name = "bad";
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_class(a, &bad);
	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ERROR);
	assert_string_equal(dra_allocator_get_error(a),
	                    "class bad: selector #0: CEL runtime error: no such key: foo");
}

/* firstAvailable: the second sub-request is chosen; results and config name it. */
static void
test_first_available(void **state)
{
	DraDevice devs[1] = { { 0 } };
	devs[0].name = "device-1";
	DraSlice s = slice_of("slice-1", "pool-1", devs, 1);
	DraExactRequest subs[2];
	DraRequest req = big_else_small(subs);
	DraOpaqueConfig op = { "driver-a", "{}", NULL };
	DraClaimConfig cfg[2] = { { (const char *const[]){ "req-0/big" }, 1, &op },
		                  { (const char *const[]){ "req-0/small" }, 1, &op } };
	DraClaim c = claim_of("claim-0", &req, 1);
	c.config = cfg;
	c.n_config = 2;
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	f.prioritized_list = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	const DraAllocation *r = dra_allocator_get_allocation(a, 0);
	assert_string_equal(r->results[0].request, "req-0/small");
	assert_int_equal(r->n_config, 1);
	assert_string_equal(r->config[0].requests[0], "req-0/small");
}

/*
 * A claim without config gets config NULL, also after a claim with config (fuzz-allocate
 * found the pointer made from the results array's end: undefined behaviour when that
 * array was still empty, and a dangling pointer past the config of the claim before).
 * Two devices, two claims of one device each: claim-0 has one config entry, claim-1 none.
 */
static void
test_no_config_is_null(void **state)
{
	DraDevice devs[2] = { { 0 } };
	devs[0].name = "device-1";
	devs[1].name = "device-2";
	DraSlice s = slice_of("slice-1", "pool-1", devs, 2);
	DraRequest req = exact("req-0", 1);
	DraOpaqueConfig op = { "driver-a", "{}", NULL };
	DraClaimConfig cfg = { (const char *const[]){ "req-0" }, 1, &op };
	DraClaim with = claim_of("claim-0", &req, 1);
	DraClaim without = claim_of("claim-1", &req, 1);
	with.config = &cfg;
	with.n_config = 1;
	const DraClaim *claims[] = { &with, &without };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 2), DRA_OUTCOME_ALLOCATED);
	assert_int_equal(dra_allocator_get_allocation(a, 0)->n_config, 1);
	assert_non_null(dra_allocator_get_allocation(a, 0)->config);
	assert_int_equal(dra_allocator_get_allocation(a, 1)->n_config, 0);
	assert_null(dra_allocator_get_allocation(a, 1)->config);
}

/* The claim limit of 32 (resourceapi.AllocationResultsMaxSize) is checked before the search. */
static void
test_claim_limit(void **state)
{
	DraRequest req = exact("req-0", 33);
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ERROR);
	assert_string_equal(dra_allocator_get_error(a),
	                    "claim default/claim-0: number of requested devices 33 exceeds the "
	                    "claim limit of 32");
}

/* distinctAttribute compares value pointers in 1.34: equal values on two devices pass. */
static void
test_distinct_by_pointer(void **state)
{
	/* each device owns its attribute, with equal values */
	DraAttribute a0 = numa0;
	DraAttribute a1 = numa0;
	DraDevice devs[2] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].attributes = &a0;
	devs[0].n_attributes = 1;
	devs[1].name = "device-2";
	devs[1].attributes = &a1;
	devs[1].n_attributes = 1;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 2);
	DraRequest req = exact("req-0", 2);
	DraConstraint con = { NULL, 0, NULL, "driver-a/numa" };
	DraClaim c = claim_of("claim-0", &req, 1);
	c.constraints = &con;
	c.n_constraints = 1;
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	f.consumable_capacity = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	assert_true(dra_allocator_get_stats(a)->quirk_distinct_by_pointer > 0);
}

/* A node-selector slice merges its term into the result (createNodeSelector). */
static void
test_node_selector_result(void **state)
{
	DraNodeSelectorRequirement req_r1 = { "region", "In", (const char *const[]){ "r1" }, 1 };
	DraNodeSelectorTerm term = { &req_r1, 1, NULL, 0 };
	DraNodeSelector sel = { &term, 1 };
	DraDevice devs[1] = { { 0 } };
	devs[0].name = "device-1";
	DraSlice s = slice_of("slice-1", "pool-1", devs, 1);
	s.node_name = NULL;
	s.node_selector = &sel;
	DraRequest req = exact("req-0", 1);
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	const DraNodeSelector *got = dra_allocator_get_allocation(a, 0)->node_selector;
	assert_non_null(got);
	assert_int_equal(got->terms[0].n_match_expressions, 1);
	assert_string_equal(got->terms[0].match_expressions[0].key, "region");
	/* another node without the label does not see the slice */
	DraNode other = { "node-2", NULL, NULL, 0 };
	assert_int_equal(dra_allocator_allocate(a, &other, claims, 1), DRA_OUTCOME_UNSCHEDULABLE);
}

/*
 * Repeated calls reuse every buffer and give the same answer. Evaluations count
 * as production's (a match cache per Allocate call): each call reaches d0, d1
 * and d2 and evaluates class-a's one selector on each, 3 per call, 9 in all,
 * though drasim's per-device cache evaluated the selector only on the first call.
 */
static void
test_repeat_is_stable(void **state)
{
	DraDevice devs[4] = { { 0 } };
	const char *names[] = { "d0", "d1", "d2", "d3" };
	for (guint i = 0; i < 4; i++) {
		devs[i].name = names[i];
	}
	DraSlice s = slice_of("slice-1", "pool-1", devs, 4);
	DraRequest req = exact("req-0", 3);
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_default();
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	for (guint i = 0; i < 3; i++) {
		assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1),
		                 DRA_OUTCOME_ALLOCATED);
		assert_string_equal(dra_allocator_get_allocation(a, 0)->results[2].device, "d2");
	}
	assert_int_equal(dra_allocator_get_stats(a)->selector_evaluations, 9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_backtrack_match_attribute),
		cmocka_unit_test(test_all_mode_constraint_error),
		cmocka_unit_test(test_invalid_pool_only_when_reached),
		cmocka_unit_test(test_generation),
		cmocka_unit_test(test_count_matching),
		cmocka_unit_test(test_reason_names_selector),
		cmocka_unit_test(test_upstream_empty_class),
		cmocka_unit_test(test_upstream_all_devices_many),
		cmocka_unit_test(test_upstream_prioritized_multi_request),
		cmocka_unit_test(test_upstream_prioritized_backtracking),
		cmocka_unit_test(test_stale_subrequest_key_quirk),
		cmocka_unit_test(test_selector_error_is_fatal),
		cmocka_unit_test(test_first_available),
		cmocka_unit_test(test_no_config_is_null),
		cmocka_unit_test(test_claim_limit),
		cmocka_unit_test(test_distinct_by_pointer),
		cmocka_unit_test(test_node_selector_result),
		cmocka_unit_test(test_repeat_is_stable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
