/*
 * test_dra_devices.c: what makes one device available to a request, on
 * hand-built inventories: admin access, device taints and DeviceTaintRules,
 * shared counters and consumable capacity.
 *
 * Each test pins one behaviour of k8s.io/dynamic-resource-allocation
 * structured/internal/experimental/allocator_experimental.go (release-1.34);
 * the comment on each test names the upstream code it follows. The search
 * itself (order, constraints, pools, sub-requests) is in test_dra_search.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dra.h"
#include "dra_fake.h"
#include "dra_search_fixture.h"

/* admin access ignores other claims' devices but not its own (allocatingDeviceForClaim). */
static void
test_admin_access(void **state)
{
	DraDevice devs[1] = { { 0 } };
	devs[0].name = "device-1";
	DraSlice s = slice_of("slice-1", "pool-1", devs, 1);
	DraRequest req = exact("req-0", 1);
	req.exactly.has_admin_access = TRUE;
	req.exactly.admin_access = TRUE;
	DraRequest req2 = exact("req-0", 2);
	req2.exactly.has_admin_access = TRUE;
	req2.exactly.admin_access = TRUE;
	DraClaim c = claim_of("claim-0", &req, 1);
	DraClaim c2 = claim_of("claim-1", &req2, 1);
	const DraClaim *claims[] = { &c };
	const DraClaim *claims2[] = { &c2 };
	DraFeatures f = dra_features_none();
	f.admin_access = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	dra_allocator_mark_allocated(a, "driver-a", "pool-1", "device-1", TRUE);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	assert_true(dra_allocator_get_allocation(a, 0)->results[0].admin_access);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims2, 1), DRA_OUTCOME_UNSCHEDULABLE);
	/* with the gate off, even adminAccess: false is an error */
	DraFeatures off = dra_features_none();
	g_autoptr(DraAllocator) b = new_alloc(&off);
	dra_allocator_add_slice(b, &s);
	assert_int_equal(dra_allocator_allocate(b, &node1, claims, 1), DRA_OUTCOME_ERROR);
	assert_non_null(strstr(dra_allocator_get_error(b), "admin access is requested"));
}

/* taintPreventsAllocation: NoSchedule needs a toleration; Exists with no key tolerates all. */
static void
test_taints(void **state)
{
	DraTaint taint = { "example.com/broken", "yes", "NoSchedule" };
	DraToleration tol = { .op = "Exists" };
	DraDevice devs[1] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].taints = &taint;
	devs[0].n_taints = 1;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 1);
	DraRequest req = exact("req-0", 1);
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	f.device_taints = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_UNSCHEDULABLE);
	assert_non_null(strstr(dra_allocator_get_reason(a), "untolerated taint"));
	req.exactly.tolerations = &tol;
	req.exactly.n_tolerations = 1;
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
}

/* DeviceTaintRule taints apply like slice taints (the scheduler merges them in). */
static void
test_taint_rule(void **state)
{
	DraDevice devs[2] = { { 0 } };
	devs[0].name = "device-1";
	devs[1].name = "device-2";
	DraSlice s = slice_of("slice-1", "pool-1", devs, 2);
	DraTaintRule rule = {
		NULL, "driver-a", "pool-1", "device-1", NULL, 0, { "k", "v", "NoExecute" }
	};
	DraRequest req = exact("req-0", 1);
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	f.device_taints = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	dra_allocator_add_taint_rule(a, &rule);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	assert_string_equal(dra_allocator_get_allocation(a, 0)->results[0].device, "device-2");
}

/* A DeviceTaintRule can pick devices by class and CEL selectors too. */
static void
test_taint_rule_selectors(void **state)
{
	DraDevice devs[2] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].attributes = &numa1;
	devs[0].n_attributes = 1;
	devs[1].name = "device-2";
	devs[1].attributes = &numa0;
	devs[1].n_attributes = 1;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 2);
	DraTaintRule rule = { "class-a",
		              NULL,
		              NULL,
		              NULL,
		              (const char *const[]){ "attr numa == 1" },
		              1,
		              { "k", "v", "NoSchedule" } };
	DraRequest req = exact("req-0", 1);
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	f.device_taints = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	dra_allocator_add_taint_rule(a, &rule);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	assert_string_equal(dra_allocator_get_allocation(a, 0)->results[0].device, "device-2");
}

/*
 * Quirk, checkAvailableCounters + allocateDevice: counters added for a device
 * that then fails a constraint are not released, so a later device that would
 * fit the counters is refused. Production answers "unschedulable".
 */
static void
test_counter_leak_quirk(void **state)
{
	DraCounter mem8 = { "memory", 8000 };
	DraCounterSet set = { "set-1", &mem8, 1 };
	DraCounter use8 = { "memory", 8000 };
	DraCounterConsumption cons = { "set-1", &use8, 1 };
	DraDevice devs[2] = { { 0 } };
	devs[0].name = "no-attr";
	devs[0].consumes_counters = &cons;
	devs[0].n_consumes_counters = 1;
	devs[1].name = "with-attr";
	devs[1].attributes = &numa0;
	devs[1].n_attributes = 1;
	devs[1].consumes_counters = &cons;
	devs[1].n_consumes_counters = 1;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 2);
	s.shared_counters = &set;
	s.n_shared_counters = 1;
	DraRequest req = exact("req-0", 1);
	DraConstraint con = { NULL, 0, "driver-a/numa", NULL };
	DraClaim c = claim_of("claim-0", &req, 1);
	c.constraints = &con;
	c.n_constraints = 1;
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	f.partitionable_devices = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_UNSCHEDULABLE);
	assert_true(dra_allocator_get_stats(a)->quirk_counters_leaked > 0);
}

/*
 * checkAvailableCounters runs on every allocateDevice call in release-1.34,
 * also for a multi-allocatable device that this call already picked: a device
 * consuming 3 of a counter of 6 fits twice (3 + 3 = 6) but not three times
 * (9 > 6), whatever capacity it has left. (Later upstream skips the check
 * once the device's capacity is in use; 1.34 does not.)
 */
static void
test_multi_allocatable_counters(void **state)
{
	DraCounter six = { "mem", 6000 };
	DraCounterSet set = { "parts", &six, 1 };
	DraCounter three = { "mem", 3000 };
	DraCounterConsumption cons = { "parts", &three, 1 };
	DraDevice devs[1] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].allow_multiple_allocations = TRUE;
	devs[0].consumes_counters = &cons;
	devs[0].n_consumes_counters = 1;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 1);
	s.shared_counters = &set;
	s.n_shared_counters = 1;
	DraRequest two = exact("req-0", 2);
	DraRequest three_picks = exact("req-0", 3);
	DraClaim c2 = claim_of("claim-0", &two, 1);
	DraClaim c3 = claim_of("claim-0", &three_picks, 1);
	const DraClaim *claims2[] = { &c2 };
	const DraClaim *claims3[] = { &c3 };
	DraFeatures f = dra_features_none();
	f.partitionable_devices = TRUE;
	f.consumable_capacity = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);
	/* the capacity re-check quirk would read slice devices[1] (past the end) */
	DraQuirks no_recheck = { FALSE, TRUE };

	dra_allocator_set_quirks(a, &no_recheck);
	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims2, 1), DRA_OUTCOME_ALLOCATED);
	assert_int_equal(dra_allocator_get_allocation(a, 0)->n_results, 2);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims3, 1), DRA_OUTCOME_UNSCHEDULABLE);
}

/* consumable capacity: validRange rounds up to min + k*step and results get a shareID. */
static void
test_consumable_capacity_rounding(void **state)
{
	DraRequestPolicy policy = { 0 };
	policy.has_range = TRUE;
	policy.range_min = 1000;
	policy.has_range_step = TRUE;
	policy.range_step = 2000;
	DraCapacity cap = { "bandwidth", 10000, &policy, NULL };
	DraDevice devs[1] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].capacity = &cap;
	devs[0].n_capacity = 1;
	devs[0].allow_multiple_allocations = TRUE;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 1);
	DraCapacityRequest want = { "bandwidth", 4000 };
	DraRequest req = exact("req-0", 1);
	req.exactly.has_capacity = TRUE;
	req.exactly.capacity_requests = &want;
	req.exactly.n_capacity_requests = 1;
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	f.consumable_capacity = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	const DraDeviceResult *r = &dra_allocator_get_allocation(a, 0)->results[0];
	assert_non_null(r->share_id);
	assert_int_equal(strlen(r->share_id), 36);
	assert_int_equal(r->n_consumed, 1);
	assert_int_equal(r->consumed[0].value, 5000); /* 1 + 2*2 */
	/* two more claims of 5 do not fit 10 (the second one does) */
	dra_allocator_commit(a, 0);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	dra_allocator_commit(a, 0);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_UNSCHEDULABLE);
}

/* add_shared: shares add capacity and give the device an entry; taking them back removes it. */
static void
test_shared_state(void **state)
{
	DraCapacity cap = { "mem", 4000, NULL, NULL };
	DraDevice devs[1] = { { 0 } };
	devs[0].name = "device-1";
	devs[0].capacity = &cap;
	devs[0].n_capacity = 1;
	devs[0].allow_multiple_allocations = TRUE;
	DraSlice s = slice_of("slice-1", "pool-1", devs, 1);
	DraCapacityRequest want = { "mem", 3000 };
	DraRequest req = exact("req-0", 1);
	req.exactly.has_capacity = TRUE;
	req.exactly.capacity_requests = &want;
	req.exactly.n_capacity_requests = 1;
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraConsumed other = { "mem", 2000 };
	DraFeatures f = dra_features_none();
	f.consumable_capacity = TRUE;
	g_autoptr(DraAllocator) a = new_alloc(&f);

	dra_allocator_add_slice(a, &s);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	/* another claim holds 2 of 4: 3 more do not fit */
	dra_allocator_add_shared(a, "driver-a", "pool-1", "device-1", &other, 1, TRUE);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_UNSCHEDULABLE);
	/* it is deallocated: they fit again */
	dra_allocator_add_shared(a, "driver-a", "pool-1", "device-1", &other, 1, FALSE);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_admin_access),
		cmocka_unit_test(test_taints),
		cmocka_unit_test(test_taint_rule),
		cmocka_unit_test(test_taint_rule_selectors),
		cmocka_unit_test(test_counter_leak_quirk),
		cmocka_unit_test(test_multi_allocatable_counters),
		cmocka_unit_test(test_consumable_capacity_rounding),
		cmocka_unit_test(test_shared_state),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
