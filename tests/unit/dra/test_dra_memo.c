/*
 * test_dra_memo.c: the Filter memo (dra_memo.c) is exact. Two allocators see
 * the same calls, one with the memo off and one with it on: pods of one shape
 * (a new claim name each round) tried on every node, the chosen node's devices
 * committed and, later, freed again. Every outcome, unschedulable reason,
 * allocation and statistic must be the same, and the memo must have answered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dra.h"
#include "dra_fake.h"

#define N_NODES  3
#define N_DEVS   4
#define N_ROUNDS 12

typedef struct {
	DraAttribute numa[N_DEVS];
	DraDevice devs[N_DEVS];
	char names[N_DEVS][8];
	DraSlice slices[N_NODES];
	DraNode nodes[N_NODES];
	char node_names[N_NODES][8];
	DraClass klass;
	DraRequest reqs[2];
	DraConstraint con;
} World;

static const char *const class_selectors[] = { "driver == \"driver-a\"" };

static void
world_init(World *w)
{
	memset(w, 0, sizeof(*w));
	for (guint i = 0; i < N_DEVS; i++) {
		g_snprintf(w->names[i], sizeof(w->names[i]), "d%u", i);
		w->numa[i] = (DraAttribute){ "numa", DRA_ATTR_INT, i / 2, FALSE, NULL };
		w->devs[i].name = w->names[i];
		w->devs[i].attributes = &w->numa[i];
		w->devs[i].n_attributes = 1;
	}
	for (guint n = 0; n < N_NODES; n++) {
		g_snprintf(w->node_names[n], sizeof(w->node_names[n]), "node-%u", n);
		w->nodes[n].name = w->node_names[n];
		w->slices[n].name = w->node_names[n];
		w->slices[n].driver = "driver-a";
		w->slices[n].pool = w->node_names[n];
		w->slices[n].generation = 1;
		w->slices[n].resource_slice_count = 1;
		w->slices[n].node_name = w->node_names[n];
		w->slices[n].devices = w->devs;
		w->slices[n].n_devices = n == 0 ? 1 : N_DEVS; /* node-0 never fits */
	}
	w->klass = (DraClass){ "class-a", class_selectors, 1, NULL, 0 };
	for (guint i = 0; i < 2; i++) {
		w->reqs[i].name = i == 0 ? "a" : "b";
		w->reqs[i].has_exactly = TRUE;
		w->reqs[i].exactly.device_class_name = "class-a";
		w->reqs[i].exactly.allocation_mode = "ExactCount";
		w->reqs[i].exactly.count = 1;
	}
	w->con = (DraConstraint){ NULL, 0, "driver-a/numa", NULL };
}

static DraAllocator *
allocator_new(World *w, gboolean memo)
{
	DraFeatures f = dra_features_default();
	DraAllocator *a = dra_allocator_new(&f, &fake_ops, NULL);

	dra_allocator_set_memo(a, memo);
	dra_allocator_add_class(a, &w->klass);
	for (guint n = 0; n < N_NODES; n++)
		dra_allocator_add_slice(a, &w->slices[n]);
	return a;
}

/* The devices of claim 0 of the last answer, as "pool/device ...". */
static char *
devices_of(DraAllocator *a)
{
	const DraAllocation *alloc = dra_allocator_get_allocation(a, 0);
	GString *s = g_string_new(NULL);

	for (guint i = 0; alloc != NULL && i < alloc->n_results; i++)
		g_string_append_printf(s, "%s/%s ", alloc->results[i].pool,
		                       alloc->results[i].device);
	return g_string_free(s, FALSE);
}

static void
free_devices(DraAllocator *a, const char *text)
{
	g_auto(GStrv) parts = g_strsplit(text, " ", -1);

	for (guint i = 0; parts[i] != NULL; i++) {
		g_auto(GStrv) pd = g_strsplit(parts[i], "/", 2);

		if (pd[0] != NULL && pd[1] != NULL)
			dra_allocator_mark_allocated(a, "driver-a", pd[0], pd[1], FALSE);
	}
}

static void
test_same_answers(void **state)
{
	World w;
	DraAllocator *a[2];
	char *placed[N_ROUNDS] = { NULL };

	world_init(&w);
	a[0] = allocator_new(&w, FALSE);
	a[1] = allocator_new(&w, TRUE);
	for (guint round = 0; round < N_ROUNDS; round++) {
		g_autofree char *name = g_strdup_printf("pod-%u-claim", round);
		DraClaim claim = { "default", name, w.reqs, 2, &w.con, 1, NULL, 0 };
		const DraClaim *claims[] = { &claim };
		gint chosen = -1;

		for (guint k = 0; k < 2; k++)
			dra_allocator_set_claims(a[k], claims, 1);
		/* Filter: every node, twice (the second pass is all memo answers) */
		for (guint pass = 0; pass < 2; pass++) {
			for (guint n = 0; n < N_NODES; n++) {
				DraOutcome o0 = dra_allocator_allocate_on(a[0], &w.nodes[n]);
				DraOutcome o1 = dra_allocator_allocate_on(a[1], &w.nodes[n]);

				assert_int_equal(o0, o1);
				if (o0 == DRA_OUTCOME_UNSCHEDULABLE) {
					/* the reason names this round's claim, memo or not */
					assert_string_equal(dra_allocator_get_reason(a[0]),
					                    dra_allocator_get_reason(a[1]));
					assert_non_null(
					        strstr(dra_allocator_get_reason(a[1]), name));
				} else if (o0 == DRA_OUTCOME_ALLOCATED && chosen < 0) {
					chosen = (gint)n;
				}
			}
		}
		/* Reserve on the first feasible node: allocate again, read, commit */
		if (chosen >= 0) {
			g_autofree char *d0 = NULL;
			g_autofree char *d1 = NULL;

			for (guint k = 0; k < 2; k++)
				assert_int_equal(dra_allocator_allocate_on(a[k], &w.nodes[chosen]),
				                 DRA_OUTCOME_ALLOCATED);
			d0 = devices_of(a[0]);
			d1 = devices_of(a[1]);
			assert_string_equal(d0, d1);
			for (guint k = 0; k < 2; k++)
				dra_allocator_commit(a[k], 0);
			placed[round] = g_steal_pointer(&d0);
		}
		/* every third round the oldest placed pod ends */
		if (round % 3 == 2) {
			for (guint r = 0; r < N_ROUNDS; r++) {
				if (placed[r] != NULL) {
					for (guint k = 0; k < 2; k++)
						free_devices(a[k], placed[r]);
					g_clear_pointer(&placed[r], g_free);
					break;
				}
			}
		}
	}
	const DraStats *s0 = dra_allocator_get_stats(a[0]);
	const DraStats *s1 = dra_allocator_get_stats(a[1]);
	DraStats c0 = *s0, c1 = *s1;

	assert_int_equal(c0.memo_hits, 0);
	assert_true(c1.memo_hits >= N_ROUNDS * N_NODES); /* the second passes at least */
	assert_true(c0.backtracks > 0);
	c1.memo_hits = 0;
	assert_memory_equal(&c0, &c1, sizeof(DraStats));
	for (guint r = 0; r < N_ROUNDS; r++)
		g_free(placed[r]);
	dra_allocator_free(a[0]);
	dra_allocator_free(a[1]);
}

/* A changed allocated state is never answered from the memo. */
static void
test_state_change_expires(void **state)
{
	World w;
	DraAllocator *a;
	DraClaim claim;
	const DraClaim *claims[1];

	world_init(&w);
	a = allocator_new(&w, TRUE);
	claim = (DraClaim){ "default", "c", w.reqs, 2, &w.con, 1, NULL, 0 };
	claims[0] = &claim;
	dra_allocator_set_claims(a, claims, 1);
	assert_int_equal(dra_allocator_allocate_on(a, &w.nodes[1]), DRA_OUTCOME_ALLOCATED);
	assert_int_equal(dra_allocator_allocate_on(a, &w.nodes[1]), DRA_OUTCOME_ALLOCATED);
	assert_int_equal(dra_allocator_get_stats(a)->memo_hits, 1);
	/* both numa-0 and one numa-1 device taken: no pair with equal numa is left */
	dra_allocator_mark_allocated(a, "driver-a", "node-1", "d0", TRUE);
	dra_allocator_mark_allocated(a, "driver-a", "node-1", "d2", TRUE);
	assert_int_equal(dra_allocator_allocate_on(a, &w.nodes[1]), DRA_OUTCOME_UNSCHEDULABLE);
	assert_int_equal(dra_allocator_get_stats(a)->memo_hits, 1);
	/* another node's state is its own: node-2 is still answered from before */
	assert_int_equal(dra_allocator_allocate_on(a, &w.nodes[2]), DRA_OUTCOME_ALLOCATED);
	assert_int_equal(dra_allocator_allocate_on(a, &w.nodes[2]), DRA_OUTCOME_ALLOCATED);
	assert_int_equal(dra_allocator_get_stats(a)->memo_hits, 2);
	dra_allocator_free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_answers),
		cmocka_unit_test(test_state_change_expires),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
