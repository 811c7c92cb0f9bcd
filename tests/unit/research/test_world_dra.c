/*
 * test_world_dra.c: the dra-capacity world's device model (research-private.h
 * research_world__capacity_first_fit and research_world__round_capacity)
 * against model/dra's real allocator with DRAConsumableCapacity on: the same
 * node built as a ResourceSlice of multi-allocatable GPUs with a capacity
 * "share" of 1000 milli-GPU and a request policy, pods as claims of one
 * request of count k with a capacity request, allocation after allocation.
 * The dra-capacity-1.34 world's (research_world__capacity_fit_134) against
 * the same allocator with Kubernetes 1.34.x's re-check quirk on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "dra.h"
#include "research-private.h"

#define MAX_GPUS 8

/* One node's slice: gpu-0 .. gpu-(n-1), each multi-allocatable with capacity share. */
typedef struct {
	char names[MAX_GPUS][8];
	DraRequestPolicy policy;
	DraCapacity capacity[MAX_GPUS];
	DraDevice devices[MAX_GPUS];
	DraSlice slice;
	DraClass klass;
	DraNode node;
	DraAllocator *alloc;
} Node;

/*
 * requestPolicy {default: 1000, validRange: {min: step, max: 1000, step}}: a
 * claim that names no share takes the GPU; a share rounds up to the step.
 * @recheck_quirk: 1.34.0's re-check of slice.devices[r.deviceIndex]
 * (kubernetes/kubernetes#133705), off in the world, which follows the fix.
 */
static void
node_init(Node *n, guint n_gpus, gint64 step, gboolean recheck_quirk)
{
	DraFeatures features = dra_features_default();
	DraQuirks quirks = { .capacity_recheck_by_request_index = recheck_quirk,
		             .stale_subrequest_key = TRUE };

	memset(n, 0, sizeof(*n));
	n->policy = (DraRequestPolicy){ .has_default = TRUE,
		                        .default_value = 1000,
		                        .has_range = TRUE,
		                        .range_min = step,
		                        .has_range_max = TRUE,
		                        .range_max = 1000,
		                        .has_range_step = TRUE,
		                        .range_step = step };
	for (guint i = 0; i < n_gpus; i++) {
		g_snprintf(n->names[i], sizeof(n->names[i]), "gpu-%u", i);
		n->capacity[i] = (DraCapacity){ "share", 1000, &n->policy, NULL };
		n->devices[i] = (DraDevice){ .name = n->names[i],
			                     .capacity = &n->capacity[i],
			                     .n_capacity = 1,
			                     .allow_multiple_allocations = TRUE };
	}
	n->slice = (DraSlice){ .name = "n0-gpus",
		               .driver = "gpu.nvidia.com",
		               .pool = "n0",
		               .generation = 1,
		               .resource_slice_count = 1,
		               .node_name = "n0",
		               .devices = n->devices,
		               .n_devices = n_gpus };
	n->klass = (DraClass){ .name = "gpu.nvidia.com" };
	n->node = (DraNode){ .name = "n0" };
	features.consumable_capacity = TRUE;
	n->alloc = dra_allocator_new(&features, NULL, NULL);
	dra_allocator_set_quirks(n->alloc, &quirks);
	dra_allocator_add_slice(n->alloc, &n->slice);
	dra_allocator_add_class(n->alloc, &n->klass);
}

/*
 * One pod's claim: request "gpu" of @count devices with share @milli.
 * Returns: the devices chosen in @gpus (slot order) and their count, 0 when
 * the allocator finds none; commits the allocation and checks each result
 * consumed @rounded. @outcome: (nullable) the allocator's outcome.
 */
static guint
allocate_outcome(
        Node *n, gint64 count, gint64 milli, guint32 rounded, guint *gpus, DraOutcome *outcome)
{
	DraCapacityRequest share = { "share", milli };
	DraRequest request = { .name = "gpu", .has_exactly = TRUE };
	DraClaim claim = {
		.namespace_ = "default", .name = "pod", .requests = &request, .n_requests = 1
	};
	const DraClaim *claims[] = { &claim };
	const DraAllocation *a;

	request.exactly = (DraExactRequest){ .device_class_name = "gpu.nvidia.com",
		                             .allocation_mode = "ExactCount",
		                             .count = count,
		                             .has_capacity = TRUE,
		                             .capacity_requests = &share,
		                             .n_capacity_requests = 1 };
	DraOutcome got = dra_allocator_allocate(n->alloc, &n->node, claims, 1);

	if (outcome != NULL)
		*outcome = got;
	if (got != DRA_OUTCOME_ALLOCATED)
		return 0;
	a = dra_allocator_get_allocation(n->alloc, 0);
	assert_int_equal(a->n_results, count);
	for (guint i = 0; i < a->n_results; i++) {
		assert_int_equal(a->results[i].n_consumed, 1);
		assert_int_equal(a->results[i].consumed[0].value, rounded);
		assert_int_equal(sscanf(a->results[i].device, "gpu-%u", &gpus[i]), 1);
	}
	dra_allocator_commit(n->alloc, 0);
	return a->n_results;
}

static guint
allocate(Node *n, gint64 count, gint64 milli, guint32 rounded, guint *gpus)
{
	return allocate_outcome(n, count, milli, rounded, gpus, NULL);
}

/* A share: mostly one GPU's fraction, some whole GPUs, some k > 1 of either. */
static void
draw_pod(GRand *rand, gint64 *count, gint64 *milli)
{
	guint kind = g_rand_int_range(rand, 0, 10);

	*count = kind < 6 ? 1 : g_rand_int_range(rand, 1, 4);
	*milli = kind < 3 || kind >= 8 ? g_rand_int_range(rand, 1, 1001) : 1000;
}

typedef guint (*CapacityFit)(const gint32 *, guint, guint32, guint32, guint *);

typedef struct {
	guint fits, misses, errors, shared_slots, past_gpu0;
} Counts;

/*
 * 300 random nodes (1..8 GPUs, steps 1, 10, 50, 100 or 250), 40 pods each,
 * the allocator with the re-check quirk @quirk: per pod @fit's answer and
 * devices (slot by slot) equal the allocator's, and the round-up equals the
 * capacity the allocator consumed. Counts what happened, for the caller to
 * check that fits, misses and the interesting cases occur.
 */
static Counts
differential(gboolean quirk, CapacityFit fit)
{
	static const gint64 steps[] = { 1, 10, 50, 100, 250 };
	g_autoptr(GRand) rand = g_rand_new_with_seed(20261203);
	Counts c = { 0 };

	for (guint trial = 0; trial < 300; trial++) {
		guint n_gpus = g_rand_int_range(rand, 1, MAX_GPUS + 1);
		gint64 step = steps[g_rand_int_range(rand, 0, G_N_ELEMENTS(steps))];
		gint32 free[MAX_GPUS];
		Node node;

		node_init(&node, n_gpus, step, quirk);
		for (guint i = 0; i < n_gpus; i++)
			free[i] = 1000;
		for (guint p = 0; p < 40; p++) {
			gint64 count, milli;
			guint32 rounded;
			guint want[RESEARCH_MAX_SLOTS], got[16];
			guint n_want, n_got;
			DraOutcome outcome;

			draw_pod(rand, &count, &milli);
			rounded = research_world__round_capacity((guint32)milli, step);
			n_want = fit(free, n_gpus, (guint32)count, rounded, want);
			n_got = allocate_outcome(&node, count, milli, rounded, got, &outcome);
			assert_int_equal(n_want, n_got);
			for (guint i = 0; i < n_got; i++) {
				assert_int_equal(want[i], got[i]);
				free[got[i]] -= (gint32)rounded;
				c.shared_slots += i > 0 && got[i] == got[i - 1];
				c.past_gpu0 += got[i] > 0;
			}
			c.fits += n_got > 0;
			c.misses += n_got == 0;
			c.errors += outcome == DRA_OUTCOME_ERROR;
		}
		dra_allocator_free(node.alloc);
	}
	return c;
}

/* The dra-capacity world (the fix, #133706): fits and misses both occur, and some
 * fits put two slots on one device. No error: the re-check reads the candidate. */
static void
test_world_dra__capacity_first_fit_is_the_allocator(void **state)
{
	Counts c = differential(FALSE, research_world__capacity_first_fit);

	assert_true(c.fits > 1000 && c.misses > 1000 && c.shared_slots > 10);
	assert_int_equal(c.errors, 0);
}

/*
 * The dra-capacity-1.34 world (1.34.x as shipped, #133705): the same over the
 * quirky allocator. Fits, misses and stacked slots occur, some slot lands past
 * GPU 0 (a claim of k > 1), and some claims of k > n GPUs read past the slice
 * (the allocator's index error), which the world counts as no fit.
 */
static void
test_world_dra__capacity_fit_134_is_the_quirky_allocator(void **state)
{
	Counts c = differential(TRUE, research_world__capacity_fit_134);

	assert_true(c.fits > 500 && c.misses > 1000 && c.shared_slots > 10);
	assert_true(c.past_gpu0 > 100 && c.errors > 10);
}

/*
 * Kubernetes 1.34.0's quirk, which dra-capacity does not follow and
 * dra-capacity-1.34 does: the capacity re-check reads the slice's device at
 * the request's device index, so with gpu-0 full a one-GPU pod fits nowhere
 * on the node, though gpu-1 is idle (kubernetes/kubernetes#133705, fixed by
 * #133706). Without it (dra-capacity's semantics) the pod takes gpu-1, as the
 * model says; research_world__capacity_fit_134 says no fit, as the quirky
 * allocator does.
 */
static void
test_world_dra__recheck_quirk(void **state)
{
	gint32 free[] = { 0, 1000 };
	guint want[1], got[1];
	Node quirky, fixed;

	node_init(&quirky, 2, 10, TRUE);
	node_init(&fixed, 2, 10, FALSE);
	assert_int_equal(allocate(&quirky, 1, 1000, 1000, got), 1);
	assert_int_equal(got[0], 0);
	assert_int_equal(allocate(&quirky, 1, 500, 500, got), 0);
	assert_int_equal(allocate(&fixed, 1, 1000, 1000, got), 1);
	assert_int_equal(allocate(&fixed, 1, 500, 500, got), 1);
	assert_int_equal(research_world__capacity_first_fit(free, 2, 1, 500, want), 1);
	assert_int_equal(want[0], got[0]);
	assert_int_equal(got[0], 1);
	assert_int_equal(research_world__capacity_fit_134(free, 2, 1, 500, want), 0);
	dra_allocator_free(quirky.alloc);
	dra_allocator_free(fixed.alloc);
}

/*
 * Claims of k > 1 under the quirk, by hand (slot j needs room on its
 * candidate and on gpu-j). Three GPUs, 0.6 on gpu-0 (free 400, 1000, 1000):
 * 2 x 0.5 fails, slot 0 reading gpu-0's 400, though gpu-1 and gpu-2 are idle
 * (the fixed first fit puts both on gpu-1: 500 + 500). Two GPUs, 0.4 on gpu-0 (600, 1000):
 * 2 x 0.3 fits, both slots on gpu-0 (slot 1 re-checks gpu-1's 1000, takes
 * from gpu-0's 300 left); then (0, 1000) 2 x 0.3 fails on gpu-0's 0. On
 * the first node 4 x 0.1 (all four would stack on gpu-0's 400) reads device
 * 3 of a three-device slice at slot 3: the allocator's index error, no fit.
 */
static void
test_world_dra__quirk_count_by_hand(void **state)
{
	gint32 three[] = { 400, 1000, 1000 }, two[] = { 600, 1000 }, full[] = { 0, 1000 };
	guint want[4], got[4];
	DraOutcome outcome;
	Node a, b;

	node_init(&a, 3, 10, TRUE);
	assert_int_equal(allocate(&a, 1, 600, 600, got), 1);
	assert_int_equal(allocate_outcome(&a, 2, 500, 500, got, &outcome), 0);
	assert_int_equal(outcome, DRA_OUTCOME_UNSCHEDULABLE);
	assert_int_equal(research_world__capacity_fit_134(three, 3, 2, 500, want), 0);
	assert_int_equal(research_world__capacity_first_fit(three, 3, 2, 500, want), 2);
	assert_int_equal(want[0], 1);
	assert_int_equal(want[1], 1);
	assert_int_equal(allocate_outcome(&a, 4, 100, 100, got, &outcome), 0);
	assert_int_equal(outcome, DRA_OUTCOME_ERROR);
	assert_int_equal(research_world__capacity_fit_134(three, 3, 4, 100, want), 0);
	assert_int_equal(research_world__capacity_first_fit(three, 3, 4, 100, want), 4);

	node_init(&b, 2, 10, TRUE);
	assert_int_equal(allocate(&b, 1, 400, 400, got), 1);
	assert_int_equal(allocate(&b, 2, 300, 300, got), 2);
	assert_int_equal(got[0], 0);
	assert_int_equal(got[1], 0);
	assert_int_equal(research_world__capacity_fit_134(two, 2, 2, 300, want), 2);
	assert_int_equal(want[0], 0);
	assert_int_equal(want[1], 0);
	assert_int_equal(allocate(&b, 2, 300, 300, got), 0);
	assert_int_equal(research_world__capacity_fit_134(full, 2, 2, 300, want), 0);
	dra_allocator_free(a.alloc);
	dra_allocator_free(b.alloc);
}

/* KEP-5075's round-up with min = step: 1 → 10, 10 → 10, 11 → 20, 1000 → 1000; step 250: 260 → 500.
 */
static void
test_world_dra__round_up(void **state)
{
	assert_int_equal(research_world__round_capacity(1, 10), 10);
	assert_int_equal(research_world__round_capacity(10, 10), 10);
	assert_int_equal(research_world__round_capacity(11, 10), 20);
	assert_int_equal(research_world__round_capacity(1000, 10), 1000);
	assert_int_equal(research_world__round_capacity(260, 250), 500);
	assert_int_equal(research_world__round_capacity(7, 1), 7);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_world_dra__capacity_first_fit_is_the_allocator),
		cmocka_unit_test(test_world_dra__capacity_fit_134_is_the_quirky_allocator),
		cmocka_unit_test(test_world_dra__recheck_quirk),
		cmocka_unit_test(test_world_dra__quirk_count_by_hand),
		cmocka_unit_test(test_world_dra__round_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
