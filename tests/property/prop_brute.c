/*
 * prop_brute.c: does any allocation exist? An exhaustive search written from
 * the API's semantics (prop_oracle.c), sharing no code with model/dra: every
 * request (and each alternative of a firstAvailable request) takes devices
 * its class and selectors select, ExactCount any `count` of them (a
 * multi-allocatable device possibly more than once), All every selected
 * device of the node; then dedicated devices are used at most once and not if
 * held, multi-allocatable ones within their capacity, shared counters within
 * their value as 1.34 counts them, and every claim's constraints hold. Only for small cases: beyond
 * PROP_BRUTE_LEAVES candidate device sets it answers PROP_BRUTE_TOO_BIG.
 */
#include <string.h>

#include "prop.h"

#define PROP_BRUTE_LEAVES 200000
#define MAX_DEVICES       16

typedef struct {
	const DraExactRequest *e;
	char *name; /* as results name it: "req" or "req/sub" */
	gboolean all;
	guint count;
	guint cand[MAX_DEVICES];
	guint n_cand;
} Alt;

typedef struct {
	guint claim;
	Alt alts[8];
	guint n_alts;
} Slot;

typedef struct {
	guint device;
	guint claim;
	const Alt *alt;
} Pick;

typedef struct {
	PropOracle *o;
	const PropWorld *w;
	const PropDevice *devs;
	guint n_devs;
	Slot *slots;
	guint n_slots;
	Pick picks[64];
	guint n_picks;
	guint64 leaves;
} Brute;

static gboolean
held(const PropWorld *w, const PropDevice *d, gboolean shared)
{
	for (guint i = 0; i < w->n_held; i++) {
		const PropHeld *h = &w->held[i];
		if (h->shared == shared && strcmp(h->driver, d->slice->driver) == 0 &&
		    strcmp(h->pool, d->slice->pool) == 0 &&
		    strcmp(h->device, d->device->name) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

/* Could @e use device @d at all (before looking at the others picked)? */
static gboolean
usable(Brute *b, const DraExactRequest *e, guint d)
{
	const PropDevice *pd = &b->devs[d];
	if (held(b->w, pd, FALSE) ||
	    (!b->w->features.partitionable_devices && pd->device->n_consumes_counters > 0)) {
		return FALSE;
	}
	return prop_oracle_capacity_fits(b->o, e, d);
}

static guint64
choose(guint n, guint k)
{
	guint64 r = 1;
	if (k > n) {
		return 0;
	}
	for (guint i = 1; i <= k; i++) {
		r = r * (n - k + i) / i;
	}
	return r;
}

/* The alternatives of every request and their candidate devices. */
static guint64
build_slots(Brute *b, GPtrArray *names)
{
	guint64 leaves = 1;
	for (guint k = 0; k < b->w->n_claims; k++) {
		const DraClaim *c = &b->w->claims[k];
		for (guint q = 0; q < c->n_requests; q++) {
			const DraRequest *r = &c->requests[q];
			Slot *s = &b->slots[b->n_slots++];
			guint64 ways = 0;
			s->claim = k;
			s->n_alts = r->has_exactly ? 1 : MIN(r->n_first_available, 8);
			for (guint a = 0; a < s->n_alts; a++) {
				Alt *alt = &s->alts[a];
				alt->e = r->has_exactly ? &r->exactly : &r->first_available[a];
				alt->name = r->has_exactly ? g_strdup(r->name)
				                           : g_strdup_printf("%s/%s", r->name,
				                                             alt->e->name);
				g_ptr_array_add(names, alt->name);
				alt->all = strcmp(alt->e->allocation_mode, "All") == 0;
				for (guint d = 0; d < b->n_devs; d++) {
					/* "All" means the devices that also fit the capacity asked
					 */
					if (prop_oracle_selects(b->o, alt->e, d) &&
					    (!alt->all ||
					     prop_oracle_capacity_fits(b->o, alt->e, d))) {
						alt->cand[alt->n_cand++] = d;
					}
				}
				alt->count = alt->all ? alt->n_cand : (guint)alt->e->count;
				ways += alt->all ? 1 : choose(alt->n_cand, alt->count);
			}
			leaves = leaves > G_MAXUINT64 / MAX(ways, 1) ? G_MAXUINT64
			                                             : leaves * MAX(ways, 1);
		}
	}
	return leaves;
}

/* ---- checks on the picks so far ---- */

static gboolean
picked_before(Brute *b, guint upto, guint d)
{
	for (guint i = 0; i < upto; i++) {
		if (b->picks[i].device == d) {
			return TRUE;
		}
	}
	return FALSE;
}

static gboolean
capacity_fits(Brute *b, guint d)
{
	const PropDevice *pd = &b->devs[d];
	for (guint i = 0; pd->multi && i < pd->device->n_capacity; i++) {
		const DraCapacity *cap = &pd->device->capacity[i];
		DraMilli sum = 0;
		for (guint h = 0; h < b->w->n_held; h++) {
			const PropHeld *x = &b->w->held[h];
			for (guint j = 0;
			     x->shared && strcmp(x->driver, pd->slice->driver) == 0 &&
			     strcmp(x->pool, pd->slice->pool) == 0 &&
			     strcmp(x->device, pd->device->name) == 0 && j < x->n_consumed;
			     j++) {
				sum += strcmp(x->consumed[j].name, cap->name) == 0
				               ? x->consumed[j].value
				               : 0;
			}
		}
		for (guint p = 0; p < b->n_picks; p++) {
			DraMilli one = 0;
			if (b->picks[p].device != d) {
				continue;
			}
			if (!prop_oracle_consumed(b->picks[p].alt->e, cap, &one)) {
				return FALSE;
			}
			sum += one;
		}
		if (sum > cap->value) {
			return FALSE;
		}
	}
	return TRUE;
}

/* What device @d of @slice consumes of counter @name of counter set @set. */
/*
 * Counters as release-1.34 accounts them (checkAvailableCounters in
 * allocator_experimental.go): devices other claims hold count only when held
 * whole (AllocatedDevices), and every pick in this call counts, a
 * multi-allocatable device picked twice twice.
 */
static gboolean
counters_fit(Brute *b, const DraSlice *slice)
{
	for (guint i = 0; i < slice->n_shared_counters; i++) {
		const DraCounterSet *set = &slice->shared_counters[i];
		for (guint j = 0; j < set->n_counters; j++) {
			const char *name = set->counters[j].name;
			DraMilli sum = 0;
			for (guint d = 0; d < b->n_devs; d++) {
				if (b->devs[d].slice == slice && held(b->w, &b->devs[d], FALSE)) {
					sum += prop_oracle_counter_consumption(b->devs[d].device,
					                                       set->name, name);
				}
			}
			for (guint p = 0; p < b->n_picks; p++) {
				const PropDevice *pd = &b->devs[b->picks[p].device];
				sum += pd->slice == slice ? prop_oracle_counter_consumption(
				                                    pd->device, set->name, name)
				                          : 0;
			}
			if (sum > set->counters[j].value) {
				return FALSE;
			}
		}
	}
	return TRUE;
}

/* Can device @d be added as the next pick of (@claim, @alt)? */
static gboolean
can_add(Brute *b, guint d, guint claim, const Alt *alt)
{
	const PropDevice *pd = &b->devs[d];
	if (!usable(b, alt->e, d) || (!pd->multi && picked_before(b, b->n_picks, d)) ||
	    b->n_picks >= G_N_ELEMENTS(b->picks)) {
		return FALSE;
	}
	b->picks[b->n_picks++] = (Pick){ d, claim, alt };
	/* checkAvailableCounters runs only for devices that consume counters */
	gboolean ok = capacity_fits(b, d) &&
	              (pd->device->n_consumes_counters == 0 || counters_fit(b, pd->slice));
	b->n_picks--;
	return ok;
}

static gboolean
claim_constraints_hold(Brute *b, guint k)
{
	const DraClaim *c = &b->w->claims[k];
	for (guint n = 0; n < c->n_constraints; n++) {
		const DraConstraint *con = &c->constraints[n];
		const char *attr = con->match_attribute != NULL ? con->match_attribute
		                                                : con->distinct_attribute;
		const DraAttribute *first = NULL;
		for (guint i = 0; i < b->n_picks; i++) {
			const Pick *p = &b->picks[i];
			if (p->claim != k || !prop_oracle_constraint_applies(con, p->alt->name)) {
				continue;
			}
			const DraAttribute *a = prop_oracle_attribute(&b->devs[p->device], attr);
			if (a == NULL || (con->match_attribute != NULL && first != NULL &&
			                  !prop_oracle_attr_equal(first, a))) {
				return FALSE;
			}
			for (guint j = 0; con->distinct_attribute != NULL && j < i; j++) {
				if (b->picks[j].claim == k && b->picks[j].device == p->device &&
				    prop_oracle_constraint_applies(con, b->picks[j].alt->name)) {
					return FALSE;
				}
			}
			first = first != NULL ? first : a;
		}
	}
	return TRUE;
}

/* ---- the search ---- */

static gboolean solve(Brute *b, guint slot);

/* Picks @left more devices for @alt from candidates at or after @from. */
static gboolean
pick_set(Brute *b, guint slot, const Alt *alt, guint from, guint left)
{
	if (left == 0) {
		const Slot *s = &b->slots[slot];
		gboolean claim_done =
		        slot + 1 == b->n_slots || b->slots[slot + 1].claim != s->claim;
		return (!claim_done || claim_constraints_hold(b, s->claim)) && solve(b, slot + 1);
	}
	for (guint i = from; i < alt->n_cand; i++) {
		guint d = alt->cand[i];
		if (!can_add(b, d, b->slots[slot].claim, alt)) {
			if (alt->all) {
				return FALSE; /* All takes every selected device or nothing */
			}
			continue;
		}
		b->picks[b->n_picks++] = (Pick){ d, b->slots[slot].claim, alt };
		/* 1.34 never marks a multi-allocatable device as allocating, so one
		 * request may take it again (allocateOne restarts at the first device) */
		guint next = b->devs[d].multi && !alt->all ? i : i + 1;
		gboolean found = pick_set(b, slot, alt, next, left - 1);
		b->n_picks--;
		if (found) {
			return TRUE;
		}
		if (alt->all) {
			return FALSE;
		}
	}
	return FALSE;
}

static gboolean
solve(Brute *b, guint slot)
{
	if (slot == b->n_slots) {
		b->leaves++;
		return TRUE;
	}
	const Slot *s = &b->slots[slot];
	for (guint a = 0; a < s->n_alts; a++) {
		const Alt *alt = &s->alts[a];
		/* All with no matching device is never satisfied (reference 4.3) */
		if (alt->count > 0 && pick_set(b, slot, alt, 0, alt->count)) {
			return TRUE;
		}
	}
	return FALSE;
}

PropBrute
prop_brute_solve(PropOracle *o, const PropWorld *w)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	guint n_requests = 0;
	Brute b = { o, w, NULL, 0, NULL, 0, { { 0 } }, 0, 0 };

	b.devs = prop_oracle_devices(o, &b.n_devs);
	for (guint k = 0; k < w->n_claims; k++) {
		n_requests += w->claims[k].n_requests;
	}
	if (b.n_devs > MAX_DEVICES) {
		return PROP_BRUTE_TOO_BIG;
	}
	g_autofree Slot *slots = g_new0(Slot, MAX(n_requests, 1));
	b.slots = slots;
	if (build_slots(&b, names) > PROP_BRUTE_LEAVES) {
		return PROP_BRUTE_TOO_BIG;
	}
	return solve(&b, 0) ? PROP_BRUTE_FOUND : PROP_BRUTE_NONE;
}
