/*
 * test_dra_prune.c: pruning never changes the answer.
 *
 * dra_allocator_set_prune() skips permutations within a request and subtrees
 * that provably cannot fit. Production (allocator_experimental.go, 1.34)
 * explores them all, so the first solution must stay the same: this test runs
 * seeded random inventories and claims (attributes, matchAttribute, several
 * requests and claims, devices in use, sub-requests) with and without pruning
 * and compares outcome, error text and every chosen device. The pruned side
 * also goes through dra_allocator_set_claims() + a repeated
 * dra_allocator_allocate_on(), whose second call reuses the validation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dra.h"
#include "dra_fake.h"

#define N_DEV 10

typedef struct {
	DraAttribute attrs[N_DEV];
	DraDevice devs[N_DEV];
	char names[N_DEV][8];
	DraSlice slice;
	DraRequest reqs[2][3];
	DraExactRequest subs[2][3][2];
	DraConstraint cons[2];
	DraClaim claims[2];
	gboolean used[N_DEV];
	guint n_claims;
} World;

static const DraClass klass = { "class-a", (const char *const[]){ "driver == \"driver-a\"" }, 1,
	                        NULL, 0 };
static const DraNode node = { "node-1", NULL, NULL, 0 };

static void
exact_into(DraExactRequest *e, gint64 count, const char *const *sel)
{
	e->device_class_name = "class-a";
	e->allocation_mode = "ExactCount";
	e->count = count;
	e->selectors = sel;
	e->n_selectors = sel != NULL ? 1 : 0;
}

static void
world_init(World *w, GRand *r)
{
	static const char *const odd[] = { "attr parity == 1" };
	static const char *const *sels[] = { NULL, odd };
	static const char *const req_names[] = { "r0", "r1", "r2" };
	static const char *const sub_names[] = { "big", "small" };

	memset(w, 0, sizeof(*w));
	for (guint i = 0; i < N_DEV; i++) {
		g_snprintf(w->names[i], sizeof(w->names[i]), "d%u", i);
		w->attrs[i].name = g_rand_boolean(r) ? "numa" : "parity";
		w->attrs[i].kind = DRA_ATTR_INT;
		w->attrs[i].int_value = g_rand_int_range(r, 0, 3);
		w->devs[i].name = w->names[i];
		w->devs[i].attributes = &w->attrs[i];
		w->devs[i].n_attributes = 1;
		w->used[i] = g_rand_int_range(r, 0, 5) == 0;
	}
	w->slice.name = "s";
	w->slice.driver = "driver-a";
	w->slice.pool = "p";
	w->slice.generation = 1;
	w->slice.resource_slice_count = 1;
	w->slice.node_name = "node-1";
	w->slice.devices = w->devs;
	w->slice.n_devices = N_DEV;
	w->n_claims = (guint)g_rand_int_range(r, 1, 3);
	for (guint c = 0; c < w->n_claims; c++) {
		guint n_req = (guint)g_rand_int_range(r, 1, 4);
		for (guint q = 0; q < n_req; q++) {
			DraRequest *rq = &w->reqs[c][q];
			rq->name = req_names[q];
			if (g_rand_int_range(r, 0, 4) == 0) {
				for (guint s = 0; s < 2; s++) {
					exact_into(&w->subs[c][q][s], s == 0 ? 3 : 1,
					           sels[g_rand_int_range(r, 0, 2)]);
					w->subs[c][q][s].name = sub_names[s];
				}
				rq->first_available = w->subs[c][q];
				rq->n_first_available = 2;
			} else {
				rq->has_exactly = TRUE;
				exact_into(&rq->exactly, g_rand_int_range(r, 1, 4),
				           sels[g_rand_int_range(r, 0, 2)]);
			}
		}
		w->claims[c].namespace_ = "default";
		w->claims[c].name = c == 0 ? "c0" : "c1";
		w->claims[c].requests = w->reqs[c];
		w->claims[c].n_requests = n_req;
		if (g_rand_boolean(r)) {
			w->cons[c].match_attribute = "driver-a/numa";
			w->claims[c].constraints = &w->cons[c];
			w->claims[c].n_constraints = 1;
		}
	}
}

static GString *
answer(World *w, gboolean prune, guint64 *steps)
{
	DraFeatures f = dra_features_default();
	g_autoptr(DraAllocator) a = dra_allocator_new(&f, &fake_ops, NULL);
	const DraClaim *claims[2] = { &w->claims[0], &w->claims[1] };
	GString *s = g_string_new(NULL);

	dra_allocator_set_prune(a, prune);
	dra_allocator_add_class(a, &klass);
	dra_allocator_add_slice(a, &w->slice);
	for (guint i = 0; i < N_DEV; i++) {
		if (w->used[i]) {
			dra_allocator_mark_allocated(a, "driver-a", "p", w->names[i], TRUE);
		}
	}
	DraOutcome out;
	if (prune) {
		/* also the two-step API: the second call reuses the validation */
		dra_allocator_set_claims(a, claims, w->n_claims);
		dra_allocator_allocate_on(a, &node);
		out = dra_allocator_allocate_on(a, &node);
	} else {
		out = dra_allocator_allocate(a, &node, claims, w->n_claims);
	}
	g_string_append_printf(s, "%d", out);
	if (out == DRA_OUTCOME_ERROR) {
		g_string_append_printf(s, " %s", dra_allocator_get_error(a));
	}
	for (guint c = 0; out == DRA_OUTCOME_ALLOCATED && c < w->n_claims; c++) {
		const DraAllocation *al = dra_allocator_get_allocation(a, c);
		for (guint i = 0; i < al->n_results; i++) {
			g_string_append_printf(s, " %s=%s", al->results[i].request,
			                       al->results[i].device);
		}
		g_string_append(s, " |");
	}
	*steps = dra_allocator_get_stats(a)->allocate_one_calls / (prune ? 2 : 1);
	return s;
}

static void
test_prune_keeps_first_solution(void **state)
{
	g_autoptr(GRand) r = g_rand_new_with_seed(20240601);
	guint64 full = 0;
	guint64 pruned = 0;
	guint allocated = 0;

	for (guint i = 0; i < 3000; i++) {
		World w;
		guint64 s1 = 0;
		guint64 s2 = 0;
		world_init(&w, r);
		g_autoptr(GString) plain = answer(&w, FALSE, &s1);
		g_autoptr(GString) fast = answer(&w, TRUE, &s2);
		if (strcmp(plain->str, fast->str) != 0) {
			fail_msg("case %u: without pruning %s, with pruning %s", i, plain->str,
			         fast->str);
		}
		allocated += plain->str[0] == '0';
		full += s1;
		pruned += s2;
	}
	/* the generator must produce both outcomes, and pruning must save work */
	assert_true(allocated > 300 && allocated < 2700);
	assert_true(pruned < full);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prune_keeps_first_solution),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
