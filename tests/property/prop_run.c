/*
 * prop_run.c: one case through every property. The allocator runs on the
 * world as drasim runs it (1.34 semantics, quirks on, no pruning, no memo);
 * its answer is checked (prop_check.c), compared with the brute force
 * (completeness) and with its answers on permuted copies of the world
 * (permutation invariance). What production's own behaviour makes
 * uncheckable is counted as excluded with its reason, never as passed.
 */
#include "prop_run.h"

#include <string.h>

#include "dra_k8s.h"

/* --no-quirks: the two data-dependent quirks off (DraQuirks), for the intended semantics. */
static gboolean quirks_off;

void
prop_run_set_quirks(gboolean on)
{
	quirks_off = !on;
}

/*
 * The allocator's answer on @w, in an allocator the caller frees. @claims (one
 * slot per claim) must live as long: results are built when first read.
 */
static DraAllocator *
allocate(const PropWorld *w, DraCel *cel, const DraClaim **claims, DraOutcome *out)
{
	DraAllocator *a = dra_allocator_new(&w->features, dra_cel_get_ops(), cel);

	dra_allocator_set_seed(a, 1);
	if (quirks_off) {
		DraQuirks none = { FALSE, FALSE };
		dra_allocator_set_quirks(a, &none);
	}
	for (guint i = 0; i < w->n_classes; i++) {
		dra_allocator_add_class(a, &w->classes[i]);
	}
	for (guint i = 0; i < w->n_slices; i++) {
		dra_allocator_add_slice(a, &w->slices[i]);
	}
	for (guint i = 0; i < w->n_held; i++) {
		const PropHeld *h = &w->held[i];
		if (h->shared) {
			dra_allocator_add_shared(a, h->driver, h->pool, h->device, h->consumed,
			                         h->n_consumed, TRUE);
		} else {
			dra_allocator_mark_allocated(a, h->driver, h->pool, h->device, TRUE);
		}
	}
	for (guint i = 0; i < w->n_claims; i++) {
		claims[i] = &w->claims[i];
	}
	*out = dra_allocator_allocate(a, &w->node, claims, w->n_claims);
	return a;
}

/* The answer as text: outcome, error, and every result with its consumption. */
static void
answer_text(DraAllocator *a, const PropWorld *w, DraOutcome out, GString *s)
{
	static const char *const names[] = { "allocated", "unschedulable", "error" };
	g_string_append(s, names[out]);
	if (out == DRA_OUTCOME_ERROR) {
		g_string_append_printf(s, ": %s", dra_allocator_get_error(a));
	}
	for (guint k = 0; out == DRA_OUTCOME_ALLOCATED && k < w->n_claims; k++) {
		const DraAllocation *al = dra_allocator_get_allocation(a, k);
		g_string_append_printf(s, "\n  %s:", w->claims[k].name);
		for (guint i = 0; i < al->n_results; i++) {
			const DraDeviceResult *r = &al->results[i];
			g_string_append_printf(s, " %s=%s/%s/%s", r->request, r->driver, r->pool,
			                       r->device);
			for (guint j = 0; j < r->n_consumed; j++) {
				g_string_append_printf(s, "[%s:%" G_GINT64_FORMAT "]",
				                       r->consumed[j].name, r->consumed[j].value);
			}
		}
	}
}

/* Did a production quirk change a decision of the search (docs/allocator.md)? */
static const char *
quirk_fired(const DraStats *st)
{
	if (st->quirk_counters_leaked > 0) {
		return "quirk: counters kept after a failed check (allocateDevice)";
	}
	if (st->quirk_capacity_recheck > 0 || st->quirk_device_marked_on_fail > 0) {
		return "quirk: capacity re-checked on slice.Devices[r.deviceIndex] "
		       "(allocateDevice)";
	}
	if (st->quirk_stale_subrequest_key > 0) {
		return "quirk: All answers cached under the previous sub-request (Allocate)";
	}
	if (st->quirk_all_subrequest_index > 0) {
		return "quirk: All sub-request index (allocateOne)";
	}
	return NULL;
}

/* Errors production raises on valid input that the brute force does not model. */
static const char *
expected_error(const char *text)
{
	static const char *const known[][2] = {
		{ "claim constraint would not be satisfied",
		  "error: All device against a constraint" },
		{ "currently being updated", "error: All over an incomplete pool" },
		{ "index out of range", "quirk: capacity re-check past the slice (Go panic)" },
		{ "exceeds the claim limit", "error: over 32 devices" },
	};
	for (guint i = 0; i < G_N_ELEMENTS(known); i++) {
		if (strstr(text, known[i][0]) != NULL) {
			return known[i][1];
		}
	}
	return NULL;
}

void
prop_verdict_clear(PropVerdict *v)
{
	if (v->why != NULL) {
		g_string_free(v->why, TRUE);
	}
	if (v->answer != NULL) {
		g_string_free(v->answer, TRUE);
	}
	memset(v, 0, sizeof(*v));
}

static void
run_plain(const PropWorld *w, DraCel *cel, PropVerdict *v, DraOutcome *out, const char **quirk)
{
	g_autofree const DraClaim **claims = g_new0(const DraClaim *, MAX(w->n_claims, 1));
	g_autoptr(DraAllocator) a = allocate(w, cel, claims, out);
	answer_text(a, w, *out, v->answer);
	*quirk = quirk_fired(dra_allocator_get_stats(a));
}

/* Property 5: copies production cannot tell apart, and pool orders it does not fix. */
static void
check_permutations(const PropWorld *w,
                   DraCel *cel,
                   PropVerdict *v,
                   DraOutcome out,
                   const char *quirk,
                   guint salt)
{
	g_autoptr(PropWorld) same = prop_world_copy(w);
	prop_permute_unordered(same, salt);
	PropVerdict pv = { 0 };
	DraOutcome pout;
	const char *pquirk = NULL;
	pv.answer = g_string_new(NULL);
	run_plain(same, cel, &pv, &pout, &pquirk);
	if (strcmp(pv.answer->str, v->answer->str) != 0) {
		v->property = v->property != NULL ? v->property : "permutation";
		g_string_append_printf(v->why,
		                       "  permutation: classes, held devices, attributes "
		                       "and capacities reordered changed the answer\n"
		                       "    before: %s\n    after:  %s\n",
		                       v->answer->str, pv.answer->str);
	}
	prop_verdict_clear(&pv);

	g_autoptr(PropWorld) pools = prop_world_copy(w);
	prop_permute_pools(pools, salt);
	pv.answer = g_string_new(NULL);
	run_plain(pools, cel, &pv, &pout, &pquirk);
	if (pout == DRA_OUTCOME_ERROR || out == DRA_OUTCOME_ERROR) {
		v->excluded = v->excluded != NULL ? v->excluded : "permutation: error outcome";
	} else if (pout != out && (pquirk != NULL || quirk != NULL)) {
		v->excluded = v->excluded != NULL ? v->excluded : pquirk != NULL ? pquirk : quirk;
	} else if (pout != out) {
		v->property = v->property != NULL ? v->property : "permutation";
		g_string_append_printf(v->why,
		                       "  permutation: another pool order changed "
		                       "the outcome\n    before: %s\n    after:  %s\n",
		                       v->answer->str, pv.answer->str);
	}
	prop_verdict_clear(&pv);
}

/* Property 4 (and its converse): the brute force against the answer. */
static void
check_completeness(
        PropOracle *o, const PropWorld *w, PropVerdict *v, DraOutcome out, const char *quirk)
{
	PropBrute b = prop_brute_solve(o, w);
	if (b == PROP_BRUTE_TOO_BIG) {
		v->excluded = v->excluded != NULL ? v->excluded : "too big for the brute force";
	} else if (b == PROP_BRUTE_FOUND && out == DRA_OUTCOME_UNSCHEDULABLE && quirk != NULL) {
		v->excluded = v->excluded != NULL ? v->excluded : quirk;
	} else if (b == PROP_BRUTE_FOUND && out == DRA_OUTCOME_UNSCHEDULABLE) {
		v->property = v->property != NULL ? v->property : "completeness";
		g_string_append(v->why, "  completeness: the brute force finds an allocation, "
		                        "the allocator answers unschedulable\n");
	} else if (b == PROP_BRUTE_NONE && out == DRA_OUTCOME_ALLOCATED) {
		v->property = v->property != NULL ? v->property : "completeness";
		g_string_append(v->why, "  completeness: the allocator found an allocation the "
		                        "brute force says cannot exist\n");
	} else {
		v->complete_checked = TRUE;
	}
}

/*
 * A quirk that fired can make the search pick devices its selectors reject
 * (stale sub-request key: "All" answers cached for the previous sub-request)
 * or miss solutions: those properties are then production's behaviour.
 * Exclusivity, constraints, counters and capacity must hold regardless.
 */
static void
excuse_quirk(PropVerdict *v, const char *quirk)
{
	static const char *const excusable[] = { "selectors", "completeness", "permutation" };
	for (guint i = 0; quirk != NULL && v->property != NULL && i < G_N_ELEMENTS(excusable);
	     i++) {
		if (strcmp(v->property, excusable[i]) == 0) {
			v->property = NULL;
			v->excluded = quirk;
			g_string_truncate(v->why, 0);
			return;
		}
	}
}

void
prop_run_world(const PropWorld *w, guint salt, PropVerdict *v)
{
	g_autoptr(DraCel) cel = dra_cel_new(&w->features);
	g_autoptr(PropOracle) o = prop_oracle_new(w);
	DraOutcome out;

	memset(v, 0, sizeof(*v));
	v->why = g_string_new(NULL);
	v->answer = g_string_new(NULL);
	g_autofree const DraClaim **claims = g_new0(const DraClaim *, MAX(w->n_claims, 1));
	g_autoptr(DraAllocator) a = allocate(w, cel, claims, &out);
	answer_text(a, w, out, v->answer);
	v->outcome = out;
	const char *quirk = quirk_fired(dra_allocator_get_stats(a));
	if (out == DRA_OUTCOME_ERROR) {
		v->excluded = expected_error(dra_allocator_get_error(a));
		if (v->excluded == NULL) {
			v->property = "unexpected-error";
			g_string_append_printf(v->why, "  unexpected-error: %s\n",
			                       dra_allocator_get_error(a));
		}
		return;
	}
	if (out == DRA_OUTCOME_ALLOCATED) {
		prop_check_allocation(o, w, a, &v->property, &v->excluded, v->why);
	}
	check_completeness(o, w, v, out, quirk);
	check_permutations(w, cel, v, out, quirk, salt);
	excuse_quirk(v, quirk);
}
