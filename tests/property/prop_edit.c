/*
 * prop_edit.c: changing worlds. Permutations for property 5, and the
 * minimiser: delta debugging over single edits (drop one claim, slice, held
 * device, request, sub-request, constraint, class, device, selector,
 * attribute, capacity, counter; lower one count), keeping an edit whenever the
 * same property still fails, until no edit does. Edits work on deep copies
 * (prop_world_copy), whose arrays the copy owns: the const of dra.h's input
 * structs is cast away only here, on that owned memory.
 */
#include <string.h>

#include "prop_run.h"

static void
drop(gconstpointer base, guint *n, gsize size, guint i)
{
	char *p = (char *)base;
	memmove(p + i * size, p + (i + 1) * size, (*n - i - 1) * size);
	(*n)--;
}

static void
shuffle(GRand *r, gconstpointer base, guint n, gsize size)
{
	char *p = (char *)base;
	g_autofree char *tmp = g_malloc(MAX(size, 1));
	for (guint i = n; i > 1; i--) {
		guint j = (guint)g_rand_int_range(r, 0, (gint32)i);
		memcpy(tmp, p + (i - 1) * size, size);
		memcpy(p + (i - 1) * size, p + j * size, size);
		memcpy(p + j * size, tmp, size);
	}
}

void
prop_permute_unordered(PropWorld *w, guint salt)
{
	g_autoptr(GRand) r = g_rand_new_with_seed(salt);
	shuffle(r, w->classes, w->n_classes, sizeof(DraClass));
	shuffle(r, w->held, w->n_held, sizeof(PropHeld));
	for (guint s = 0; s < w->n_slices; s++) {
		for (guint d = 0; d < w->slices[s].n_devices; d++) {
			const DraDevice *dev = &w->slices[s].devices[d];
			shuffle(r, dev->attributes, dev->n_attributes, sizeof(DraAttribute));
			shuffle(r, dev->capacity, dev->n_capacity, sizeof(DraCapacity));
		}
	}
}

void
prop_permute_pools(PropWorld *w, guint salt)
{
	g_autoptr(GRand) r = g_rand_new_with_seed(salt ^ 0x5bd1e995u);
	g_autofree guint *first = g_new0(guint, MAX(w->n_slices, 1)); /* pool leaders */
	guint n_pools = 0;
	for (guint s = 0; s < w->n_slices; s++) {
		gboolean seen = FALSE;
		for (guint p = 0; p < n_pools; p++) {
			const DraSlice *l = &w->slices[first[p]];
			seen |= strcmp(l->driver, w->slices[s].driver) == 0 &&
			        strcmp(l->pool, w->slices[s].pool) == 0;
		}
		if (!seen) {
			first[n_pools++] = s;
		}
	}
	shuffle(r, first, n_pools, sizeof(guint));
	DraSlice *out = g_new0(DraSlice, MAX(w->n_slices, 1));
	guint n = 0;
	for (guint p = 0; p < n_pools; p++) {
		const DraSlice *l = &w->slices[first[p]];
		for (guint s = 0; s < w->n_slices; s++) {
			if (strcmp(l->driver, w->slices[s].driver) == 0 &&
			    strcmp(l->pool, w->slices[s].pool) == 0) {
				out[n++] = w->slices[s];
			}
		}
	}
	g_ptr_array_add(w->blocks, out);
	w->slices = out;
}

/* ---- the minimiser's edits, numbered by one walk over the world ---- */

typedef struct {
	guint n; /* the edit to make; counts down as sites pass */
} Walk;

/* TRUE exactly at the n-th site. */
static gboolean
site(Walk *k)
{
	return k->n-- == 0;
}

static gboolean
edit_claims(PropWorld *w, Walk *k)
{
	for (guint c = 0; w->n_claims > 1 && c < w->n_claims; c++) {
		if (site(k)) {
			drop(w->claims, &w->n_claims, sizeof(DraClaim), c);
			return TRUE;
		}
	}
	for (guint c = 0; c < w->n_claims; c++) {
		DraClaim *cl = &w->claims[c];
		for (guint q = 0; cl->n_requests > 1 && q < cl->n_requests; q++) {
			if (site(k)) {
				drop(cl->requests, &cl->n_requests, sizeof(DraRequest), q);
				return TRUE;
			}
		}
		for (guint q = 0; q < cl->n_constraints; q++) {
			if (site(k)) {
				drop(cl->constraints, &cl->n_constraints, sizeof(DraConstraint), q);
				return TRUE;
			}
		}
	}
	return FALSE;
}

static gboolean
edit_exact(DraExactRequest *e, Walk *k)
{
	for (guint i = 0; i < e->n_selectors; i++) {
		if (site(k)) {
			drop(e->selectors, &e->n_selectors, sizeof(char *), i);
			return TRUE;
		}
	}
	for (guint i = 0; i < e->n_capacity_requests; i++) {
		if (site(k)) {
			drop(e->capacity_requests, &e->n_capacity_requests,
			     sizeof(DraCapacityRequest), i);
			return TRUE;
		}
	}
	/* lower a count to 1, to half, by one: halving keeps a huge count cheap */
	gboolean exact = strcmp(e->allocation_mode, "ExactCount") == 0;
	if (exact && e->count > 1 && site(k)) {
		e->count = 1;
		return TRUE;
	}
	if (exact && e->count > 3 && site(k)) {
		e->count /= 2;
		return TRUE;
	}
	if (exact && e->count > 2 && site(k)) {
		e->count--;
		return TRUE;
	}
	return FALSE;
}

static gboolean
edit_requests(PropWorld *w, Walk *k)
{
	for (guint c = 0; c < w->n_claims; c++) {
		for (guint q = 0; q < w->claims[c].n_requests; q++) {
			DraRequest *r = (DraRequest *)&w->claims[c].requests[q];
			for (guint s = 0; r->n_first_available > 1 && s < r->n_first_available;
			     s++) {
				if (site(k)) {
					drop(r->first_available, &r->n_first_available,
					     sizeof(DraExactRequest), s);
					return TRUE;
				}
			}
			if (r->has_exactly && edit_exact(&r->exactly, k)) {
				return TRUE;
			}
			for (guint s = 0; s < r->n_first_available; s++) {
				if (edit_exact((DraExactRequest *)&r->first_available[s], k)) {
					return TRUE;
				}
			}
		}
	}
	return FALSE;
}

static gboolean
edit_device(DraDevice *d, Walk *k)
{
	for (guint i = 0; i < d->n_attributes; i++) {
		if (site(k)) {
			drop(d->attributes, &d->n_attributes, sizeof(DraAttribute), i);
			return TRUE;
		}
	}
	for (guint i = 0; i < d->n_capacity; i++) {
		if (site(k)) {
			drop(d->capacity, &d->n_capacity, sizeof(DraCapacity), i);
			return TRUE;
		}
	}
	for (guint i = 0; i < d->n_consumes_counters; i++) {
		if (site(k)) {
			drop(d->consumes_counters, &d->n_consumes_counters,
			     sizeof(DraCounterConsumption), i);
			return TRUE;
		}
	}
	if (d->allow_multiple_allocations && site(k)) {
		d->allow_multiple_allocations = FALSE;
		return TRUE;
	}
	return FALSE;
}

static gboolean
edit_inventory(PropWorld *w, Walk *k)
{
	for (guint s = 0; s < w->n_slices; s++) {
		if (site(k)) {
			drop(w->slices, &w->n_slices, sizeof(DraSlice), s);
			return TRUE;
		}
	}
	for (guint i = 0; i < w->n_held; i++) {
		if (site(k)) {
			drop(w->held, &w->n_held, sizeof(PropHeld), i);
			return TRUE;
		}
	}
	for (guint i = 0; i < w->n_classes; i++) {
		if (site(k)) {
			drop(w->classes, &w->n_classes, sizeof(DraClass), i);
			return TRUE;
		}
	}
	for (guint s = 0; s < w->n_slices; s++) {
		DraSlice *sl = &w->slices[s];
		for (guint d = 0; d < sl->n_devices; d++) {
			if (site(k)) {
				drop(sl->devices, &sl->n_devices, sizeof(DraDevice), d);
				return TRUE;
			}
		}
	}
	return FALSE;
}

static gboolean
edit_details(PropWorld *w, Walk *k)
{
	for (guint i = 0; i < w->n_classes; i++) {
		DraClass *c = &w->classes[i];
		for (guint j = 0; j < c->n_selectors; j++) {
			if (site(k)) {
				drop(c->selectors, &c->n_selectors, sizeof(char *), j);
				return TRUE;
			}
		}
	}
	for (guint s = 0; s < w->n_slices; s++) {
		DraSlice *sl = &w->slices[s];
		for (guint d = 0; d < sl->n_devices; d++) {
			if (edit_device((DraDevice *)&sl->devices[d], k)) {
				return TRUE;
			}
		}
		for (guint i = 0; i < sl->n_shared_counters; i++) {
			if (site(k)) {
				drop(sl->shared_counters, &sl->n_shared_counters,
				     sizeof(DraCounterSet), i);
				return TRUE;
			}
		}
	}
	return FALSE;
}

/* Makes edit number @n on @w; FALSE when there are fewer edits. */
static gboolean
edit_nth(PropWorld *w, guint n)
{
	Walk k = { n };
	return edit_claims(w, &k) || edit_inventory(w, &k) || edit_requests(w, &k) ||
	       edit_details(w, &k);
}

/* Each try runs every property once; a hostile replay must not run forever. */
#define MAX_TRIES 5000

PropWorld *
prop_minimise(const PropWorld *w, const char *property, guint salt, guint *steps)
{
	PropWorld *best = prop_world_copy(w);
	gboolean progress = TRUE;
	guint tries = 0;

	*steps = 0;
	while (progress && tries < MAX_TRIES) {
		progress = FALSE;
		for (guint n = 0; tries < MAX_TRIES; n++, tries++) {
			PropWorld *next = prop_world_copy(best);
			if (!edit_nth(next, n)) {
				prop_world_free(next);
				break;
			}
			PropVerdict v;
			prop_run_world(next, salt, &v);
			gboolean same = v.property != NULL && strcmp(v.property, property) == 0;
			prop_verdict_clear(&v);
			if (same) {
				prop_world_free(best);
				best = next;
				progress = TRUE;
				(*steps)++;
				n--; /* the same number is now another edit */
			} else {
				prop_world_free(next);
			}
		}
	}
	return best;
}
