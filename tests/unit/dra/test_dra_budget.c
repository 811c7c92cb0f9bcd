/*
 * test_dra_budget.c: the filter timeout as a budget of search steps.
 *
 * Kubernetes 1.34's DynamicResources Filter runs Allocate() under a context
 * with filterTimeout (DRASchedulerFilterTimeout), and allocateOne checks that
 * context right after counting itself (numAllocateOneInvocations.Add(1), then
 * ctx.Err(): structured/internal/experimental/allocator_experimental.go). So a
 * search that needs k allocateOne invocations finishes with a budget of k and
 * is cut off with k-1, the k-th invocation counted. Each k below is worked out
 * by hand from the search order and checked against the unbounded search's
 * allocate_one_calls.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dra.h"
#include "dra_fake.h"
#include "dra_search_fixture.h"

/*
 * Case "match": devices d1 (numa 0), d2 (numa 1), d3 (numa 1); one request for
 * 2 devices with matchAttribute numa. The search, one step per allocateOne:
 *   1  (device #0) takes d1
 *   2  (device #1) d1 picked, d2 and d3 rejected by the constraint: back off d1;
 *      step 1 goes on with d2
 *   3  (device #1) d1 rejected, d2 picked, takes d3
 *   4  (device #2) the request is complete: next request
 *   5  (request #1) the claim is complete: next claim
 *   6  (claim #1) done
 * k = 6, result d2 + d3.
 */
typedef struct {
	DraDevice devs[3];
	DraSlice slice;
	DraRequest req;
	DraConstraint con;
	DraClaim claim;
	const DraClaim *claims[1];
} MatchCase;

static void
match_case_init(MatchCase *m)
{
	memset(m, 0, sizeof(*m));
	const char *names[] = { "d1", "d2", "d3" };
	const DraAttribute *attrs[] = { &numa0, &numa1, &numa1 };
	for (guint i = 0; i < 3; i++) {
		m->devs[i].name = names[i];
		m->devs[i].attributes = attrs[i];
		m->devs[i].n_attributes = 1;
	}
	m->slice = slice_of("slice-1", "pool-1", m->devs, 3);
	m->req = exact("req-0", 2);
	m->con.match_attribute = "driver-a/numa";
	m->claim = claim_of("claim-0", &m->req, 1);
	m->claim.constraints = &m->con;
	m->claim.n_constraints = 1;
	m->claims[0] = &m->claim;
}

/* The fixture's allocator (class-a) with @slice published. */
static DraAllocator *
new_alloc_with(const DraFeatures *f, const DraSlice *slice)
{
	DraAllocator *a = new_alloc(f);
	dra_allocator_add_slice(a, slice);
	return a;
}

/* filterTimeout -> steps: 1 per microsecond; 0 (and below) is "no bound". */
static void
test_timeout_to_steps(void **state)
{
	assert_int_equal(dra_filter_timeout_steps(DRA_FILTER_TIMEOUT_DEFAULT), 10000000);
	assert_int_equal(dra_filter_timeout_steps(1000), 1000); /* 1ms */
	assert_int_equal(dra_filter_timeout_steps(1), 1);
	assert_int_equal(dra_filter_timeout_steps(0), 0);
	assert_int_equal(dra_filter_timeout_steps(-5), 0);
	assert_true(dra_filter_timeout_steps(G_MAXINT64) == G_MAXUINT64 ||
	            dra_filter_timeout_steps(G_MAXINT64) == (guint64)G_MAXINT64);
}

static void
test_exact_budget(void **state)
{
	MatchCase m;
	DraFeatures f = dra_features_none();

	match_case_init(&m);
	/* unbounded: the hand count is production's step count */
	g_autoptr(DraAllocator) free_run = new_alloc_with(&f, &m.slice);
	assert_int_equal(dra_allocator_allocate(free_run, &node1, m.claims, 1),
	                 DRA_OUTCOME_ALLOCATED);
	assert_int_equal(dra_allocator_get_stats(free_run)->allocate_one_calls, 6);
	assert_false(dra_allocator_timed_out(free_run));

	/* budget k = 6: the same answer */
	g_autoptr(DraAllocator) a = new_alloc_with(&f, &m.slice);
	dra_allocator_set_step_budget(a, 6);
	assert_int_equal(dra_allocator_allocate(a, &node1, m.claims, 1), DRA_OUTCOME_ALLOCATED);
	assert_false(dra_allocator_timed_out(a));
	const DraAllocation *r = dra_allocator_get_allocation(a, 0);
	assert_int_equal(r->n_results, 2);
	assert_string_equal(r->results[0].device, "d2");
	assert_string_equal(r->results[1].device, "d3");

	/* budget k - 1 = 5: the 6th invocation is counted, then stops the search */
	g_autoptr(DraAllocator) b = new_alloc_with(&f, &m.slice);
	dra_allocator_set_step_budget(b, 5);
	assert_int_equal(dra_allocator_allocate(b, &node1, m.claims, 1), DRA_OUTCOME_UNSCHEDULABLE);
	assert_true(dra_allocator_timed_out(b));
	assert_string_equal(dra_allocator_get_reason(b), "timed out trying to allocate devices");
	assert_null(dra_allocator_get_allocation(b, 0));
	assert_int_equal(dra_allocator_get_stats(b)->allocate_one_calls, 6);

	/* the budget is per call: budget 0 again means no bound */
	dra_allocator_set_step_budget(b, 0);
	assert_int_equal(dra_allocator_allocate(b, &node1, m.claims, 1), DRA_OUTCOME_ALLOCATED);
	assert_false(dra_allocator_timed_out(b));
}

/*
 * Case "firstAvailable": one device; request req-0 = firstAvailable [big: 2
 * devices, small: 1 device]. Steps:
 *   1  (req-0) a request with sub-requests: try them in order
 *   2  (big, device #0) takes device-1
 *   3  (big, device #1) device-1 picked, nothing else: back off; big fails
 *   4  (small, device #0) takes device-1
 *   5  (small, device #1) the sub-request is complete: next request
 *   6  (request #1) the claim is complete: next claim
 *   7  (claim #1) done
 * k = 7, result req-0/small.
 */
static void
test_first_available_budget(void **state)
{
	DraDevice dev = { 0 };
	dev.name = "device-1";
	DraSlice s = slice_of("slice-1", "pool-1", &dev, 1);
	DraExactRequest subs[2];
	DraRequest req = big_else_small(subs);
	DraClaim c = claim_of("claim-0", &req, 1);
	const DraClaim *claims[] = { &c };
	DraFeatures f = dra_features_none();
	f.prioritized_list = TRUE;

	g_autoptr(DraAllocator) free_run = new_alloc_with(&f, &s);
	assert_int_equal(dra_allocator_allocate(free_run, &node1, claims, 1),
	                 DRA_OUTCOME_ALLOCATED);
	assert_int_equal(dra_allocator_get_stats(free_run)->allocate_one_calls, 7);

	g_autoptr(DraAllocator) a = new_alloc_with(&f, &s);
	dra_allocator_set_step_budget(a, 7);
	assert_int_equal(dra_allocator_allocate(a, &node1, claims, 1), DRA_OUTCOME_ALLOCATED);
	assert_string_equal(dra_allocator_get_allocation(a, 0)->results[0].request, "req-0/small");

	g_autoptr(DraAllocator) b = new_alloc_with(&f, &s);
	dra_allocator_set_step_budget(b, 6);
	assert_int_equal(dra_allocator_allocate(b, &node1, claims, 1), DRA_OUTCOME_UNSCHEDULABLE);
	assert_true(dra_allocator_timed_out(b));
	assert_string_equal(dra_allocator_get_reason(b), DRA_TIMEOUT_REASON);
	assert_int_equal(dra_allocator_get_stats(b)->allocate_one_calls, 7);
}

/*
 * The Filter memo remembers a timed-out answer like any other (the search is
 * deterministic and the budget is part of the memo's epoch): a repeated call
 * answers "timed out" again without searching, with the same statistics as a
 * search (6 more steps each time), and a new budget asks again.
 */
static void
test_memo_keeps_timeout(void **state)
{
	MatchCase m;
	DraFeatures f = dra_features_none();

	match_case_init(&m);
	g_autoptr(DraAllocator) a = new_alloc_with(&f, &m.slice);
	g_autoptr(DraAllocator) plain = new_alloc_with(&f, &m.slice);
	dra_allocator_set_memo(a, TRUE);
	dra_allocator_set_step_budget(a, 5);
	dra_allocator_set_step_budget(plain, 5);
	dra_allocator_set_claims(a, m.claims, 1);
	dra_allocator_set_claims(plain, m.claims, 1);
	for (guint i = 0; i < 3; i++) {
		assert_int_equal(dra_allocator_allocate_on(a, &node1), DRA_OUTCOME_UNSCHEDULABLE);
		assert_int_equal(dra_allocator_allocate_on(plain, &node1),
		                 DRA_OUTCOME_UNSCHEDULABLE);
		assert_true(dra_allocator_timed_out(a));
		assert_string_equal(dra_allocator_get_reason(a), DRA_TIMEOUT_REASON);
		assert_null(dra_allocator_get_allocation(a, 0));
	}
	const DraStats *sa = dra_allocator_get_stats(a);
	const DraStats *sp = dra_allocator_get_stats(plain);
	assert_int_equal(sa->memo_hits, 2);
	assert_int_equal(sa->allocate_one_calls, 18);
	assert_int_equal(sa->allocate_one_calls, sp->allocate_one_calls);
	assert_int_equal(sa->backtracks, sp->backtracks);

	/* the allocated state changing after a remembered timeout replays nothing */
	dra_allocator_mark_allocated(a, "driver-a", "pool-1", "d1", TRUE);
	dra_allocator_mark_allocated(a, "driver-a", "pool-1", "d1", FALSE);

	/* a larger budget is a new question: searched, allocated, then remembered */
	dra_allocator_set_step_budget(a, 6);
	assert_int_equal(dra_allocator_allocate_on(a, &node1), DRA_OUTCOME_ALLOCATED);
	assert_false(dra_allocator_timed_out(a));
	assert_int_equal(dra_allocator_allocate_on(a, &node1), DRA_OUTCOME_ALLOCATED);
	assert_false(dra_allocator_timed_out(a));
	assert_string_equal(dra_allocator_get_allocation(a, 0)->results[1].device, "d3");
	assert_int_equal(dra_allocator_get_stats(a)->memo_hits, 3);
}

/* The diagnosis of a node that ran out says so instead of reading partial counters. */
static void
test_explain_timeout(void **state)
{
	MatchCase m;
	DraFeatures f = dra_features_none();

	match_case_init(&m);
	g_autoptr(DraAllocator) a = new_alloc_with(&f, &m.slice);
	dra_allocator_set_step_budget(a, 5);
	g_autofree char *text = dra_allocator_explain(a, m.claims, 1, &node1, 1);
	assert_non_null(text);
	assert_string_equal(text, "timed out trying to allocate devices on 1 node");
	/* with room for its 6 steps the node allocates: nothing to explain */
	dra_allocator_set_step_budget(a, 6);
	g_autofree char *none = dra_allocator_explain(a, m.claims, 1, &node1, 1);
	assert_null(none);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeout_to_steps),
		cmocka_unit_test(test_exact_budget),
		cmocka_unit_test(test_first_available_budget),
		cmocka_unit_test(test_memo_keeps_timeout),
		cmocka_unit_test(test_explain_timeout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
