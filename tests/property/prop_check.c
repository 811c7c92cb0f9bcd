/*
 * prop_check.c: properties 1-3 on an allocator's answer, re-derived from the
 * world through prop_oracle.c (never from the allocator's own state):
 *
 *   double-allocation  a dedicated device at most once and never one another
 *                      claim holds; shareIDs exactly on multi-allocatable devices
 *   selectors          every result is a visible device that its class and
 *                      request select, in the right number per request (All:
 *                      every matching device), one sub-request per request
 *   constraints        matchAttribute: all in scope have the attribute, equal;
 *                      distinctAttribute: all have it, no device twice (1.34
 *                      compares value pointers, see docs/allocator.md)
 *   counters-capacity  shared counters and device capacities are not exceeded,
 *                      consumed capacity is what the request policy gives
 */
#include <string.h>

#include "prop.h"

typedef struct {
	PropOracle *o;
	const PropWorld *w;
	DraAllocator *alloc;
	GArray *picks; /* PropPick */
	const PropDevice *devs;
	guint n_devs;
	const char **property;
	const char **excluded;
	GString *why;
} Check;

static gboolean fail(Check *c, const char *property, const char *format, ...) G_GNUC_PRINTF(3, 4);

static gboolean
fail(Check *c, const char *property, const char *format, ...)
{
	va_list ap;
	if (*c->property == NULL) {
		*c->property = property;
	}
	g_string_append_printf(c->why, "  %s: ", property);
	va_start(ap, format);
	g_string_append_vprintf(c->why, format, ap);
	va_end(ap);
	g_string_append_c(c->why, '\n');
	return FALSE;
}

static gint
held_index(const PropWorld *w, const PropDevice *d, gboolean shared)
{
	for (guint i = 0; i < w->n_held; i++) {
		const PropHeld *h = &w->held[i];
		if (h->shared == shared && strcmp(h->driver, d->slice->driver) == 0 &&
		    strcmp(h->pool, d->slice->pool) == 0 &&
		    strcmp(h->device, d->device->name) == 0) {
			return (gint)i;
		}
	}
	return -1;
}

static gboolean
collect_picks(Check *c)
{
	gboolean ok = TRUE;
	for (guint k = 0; k < c->w->n_claims; k++) {
		const DraAllocation *a = dra_allocator_get_allocation(c->alloc, k);
		for (guint i = 0; i < a->n_results; i++) {
			const DraDeviceResult *r = &a->results[i];
			PropPick p = { k, r,
				       prop_oracle_find(c->o, r->driver, r->pool, r->device) };
			if (p.device < 0) {
				ok = fail(c, "selectors",
				          "claim %s: %s/%s/%s is not a device node %s sees",
				          c->w->claims[k].name, r->driver, r->pool, r->device,
				          c->w->node.name);
				continue;
			}
			g_array_append_val(c->picks, p);
		}
	}
	return ok;
}

/* Property 1. */
static gboolean
check_exclusive(Check *c)
{
	gboolean ok = TRUE;
	for (guint i = 0; i < c->picks->len; i++) {
		const PropPick *p = &g_array_index(c->picks, PropPick, i);
		const PropDevice *d = &c->devs[p->device];
		const char *claim = c->w->claims[p->claim].name;
		if (held_index(c->w, d, FALSE) >= 0) {
			ok = fail(c, "double-allocation",
			          "claim %s got %s, which another claim holds", claim,
			          d->device->name);
		}
		if ((p->result->share_id != NULL) != d->multi) {
			ok = fail(c, "double-allocation", "claim %s: %s %s a shareID", claim,
			          d->device->name, d->multi ? "lacks" : "has");
		}
		for (guint j = 0; j < i && !d->multi; j++) {
			if (g_array_index(c->picks, PropPick, j).device == p->device) {
				ok = fail(c, "double-allocation",
				          "%s allocated twice (claims %s and %s)", d->device->name,
				          c->w->claims[g_array_index(c->picks, PropPick, j).claim]
				                  .name,
				          claim);
			}
		}
	}
	return ok;
}

/* How many results of claim @k name @name exactly. */
static guint
count_results(Check *c, guint k, const char *name)
{
	guint n = 0;
	for (guint i = 0; i < c->picks->len; i++) {
		const PropPick *p = &g_array_index(c->picks, PropPick, i);
		n += p->claim == k && strcmp(p->result->request, name) == 0;
	}
	return n;
}

static guint
count_all(Check *c, const DraExactRequest *req)
{
	guint n = 0;
	for (guint d = 0; d < c->n_devs; d++) {
		n += prop_oracle_selects(c->o, req, d) && prop_oracle_capacity_fits(c->o, req, d);
	}
	return n;
}

/* Property 2, counts: one (sub-)request chosen per request, with its number of devices. */
static gboolean
check_counts(Check *c, guint k)
{
	const DraClaim *claim = &c->w->claims[k];
	gboolean ok = TRUE;
	for (guint q = 0; q < claim->n_requests; q++) {
		const DraRequest *r = &claim->requests[q];
		guint chosen = 0;
		for (guint s = 0; s < MAX(r->n_first_available, 1); s++) {
			const DraExactRequest *e =
			        r->has_exactly ? &r->exactly : &r->first_available[s];
			g_autofree char *name =
			        r->has_exactly ? g_strdup(r->name)
			                       : g_strdup_printf("%s/%s", r->name, e->name);
			guint got = count_results(c, k, name);
			guint want = strcmp(e->allocation_mode, "All") == 0 ? count_all(c, e)
			                                                    : (guint)e->count;
			if (got == 0) {
				continue;
			}
			chosen++;
			if (got != want) {
				ok = fail(c, "selectors",
				          "claim %s request %s: %u devices, expected %u",
				          claim->name, name, got, want);
			}
		}
		if (chosen != 1) {
			ok = fail(c, "selectors", "claim %s request %s: %u alternatives chosen",
			          claim->name, r->name, chosen);
		}
	}
	return ok;
}

/* Property 2, selectors: each result's class and request select its device. */
static gboolean
check_selected(Check *c)
{
	gboolean ok = TRUE;
	for (guint i = 0; i < c->picks->len; i++) {
		const PropPick *p = &g_array_index(c->picks, PropPick, i);
		const DraClaim *claim = &c->w->claims[p->claim];
		const DraRequest *parent = NULL;
		const DraExactRequest *e = prop_oracle_request(claim, p->result->request, &parent);
		if (e == NULL) {
			ok = fail(c, "selectors", "claim %s: result names no request: %s",
			          claim->name, p->result->request);
		} else if (!prop_oracle_selects(c->o, e, (guint)p->device)) {
			ok = fail(c, "selectors", "claim %s request %s: %s is not selected",
			          claim->name, p->result->request, c->devs[p->device].device->name);
		}
	}
	return ok;
}

/* Property 2, constraints of claim @k. */
static gboolean
check_constraints(Check *c, guint k)
{
	const DraClaim *claim = &c->w->claims[k];
	gboolean ok = TRUE;
	for (guint n = 0; n < claim->n_constraints; n++) {
		const DraConstraint *con = &claim->constraints[n];
		const char *attr = con->match_attribute != NULL ? con->match_attribute
		                                                : con->distinct_attribute;
		const DraAttribute *first = NULL;
		for (guint i = 0; i < c->picks->len; i++) {
			const PropPick *p = &g_array_index(c->picks, PropPick, i);
			if (p->claim != k ||
			    !prop_oracle_constraint_applies(con, p->result->request)) {
				continue;
			}
			const DraAttribute *a = prop_oracle_attribute(&c->devs[p->device], attr);
			if (a == NULL) {
				ok = fail(c, "constraints", "claim %s: %s lacks %s", claim->name,
				          c->devs[p->device].device->name, attr);
			} else if (con->match_attribute != NULL && first != NULL &&
			           !prop_oracle_attr_equal(first, a)) {
				ok = fail(c, "constraints", "claim %s: %s of %s differs",
				          claim->name, attr, c->devs[p->device].device->name);
			}
			for (guint j = 0; j < i && con->distinct_attribute != NULL; j++) {
				const PropPick *q = &g_array_index(c->picks, PropPick, j);
				if (q->claim == k && q->device == p->device &&
				    prop_oracle_constraint_applies(con, q->result->request)) {
					ok = fail(c, "constraints",
					          "claim %s: %s twice under distinct %s",
					          claim->name, c->devs[p->device].device->name,
					          attr);
				}
			}
			first = first != NULL ? first : a;
		}
	}
	return ok;
}

static gboolean
device_picked(Check *c, guint d)
{
	for (guint i = 0; i < c->picks->len; i++) {
		if ((guint)g_array_index(c->picks, PropPick, i).device == d) {
			return TRUE;
		}
	}
	return FALSE;
}

/* Is visible device @d in use by this answer or held (each device counts once)? */
static gboolean
device_used(Check *c, guint d)
{
	return device_picked(c, d) || held_index(c->w, &c->devs[d], FALSE) >= 0 ||
	       held_index(c->w, &c->devs[d], TRUE) >= 0;
}

/*
 * Property 3, one counter of @slice. release-1.34 (checkAvailableCounters)
 * subtracts only devices held whole (AllocatedDevices) and adds every pick;
 * that accounting must hold for every counter of the slice as soon as the
 * answer took a device that consumes counters there (even another counter:
 * upstream compares them all), and says nothing otherwise. Counting each used device once, shares
 * other claims hold included (what later upstream does, IsDeviceAllocated), may exceed the counter:
 * production 1.34 allows that, so it is an exclusion.
 */
static gboolean
check_counter(Check *c, const DraSlice *slice, const DraCounterSet *set, const DraCounter *counter)
{
	DraMilli as_134 = 0;
	DraMilli each_once = 0;
	gboolean adds = FALSE; /* only a device that consumes counters is checked */
	for (guint i = 0; i < c->picks->len; i++) {
		const PropDevice *pd = &c->devs[g_array_index(c->picks, PropPick, i).device];
		adds |= pd->slice == slice && pd->device->n_consumes_counters > 0;
	}
	for (guint d = 0; adds && d < c->n_devs; d++) {
		DraMilli one = prop_oracle_counter_consumption(c->devs[d].device, set->name,
		                                               counter->name);
		if (c->devs[d].slice != slice || one == 0) {
			continue;
		}
		as_134 += held_index(c->w, &c->devs[d], FALSE) >= 0 ? one : 0;
		each_once += device_used(c, d) ? one : 0;
		for (guint i = 0; i < c->picks->len; i++) {
			as_134 += (guint)g_array_index(c->picks, PropPick, i).device == d ? one : 0;
		}
	}
	if (as_134 > counter->value) {
		return fail(c, "counters-capacity",
		            "slice %s counter %s/%s: %" G_GINT64_FORMAT
		            " consumed of %" G_GINT64_FORMAT " (milli)",
		            slice->name, set->name, counter->name, as_134, counter->value);
	}
	if (each_once > counter->value && *c->excluded == NULL) {
		*c->excluded = "production 1.34: counters of devices held through shares are not "
		               "counted (checkAvailableCounters)";
	}
	return TRUE;
}

static gboolean
check_counters(Check *c)
{
	gboolean ok = TRUE;
	for (guint s = 0; s < c->w->n_slices; s++) {
		const DraSlice *slice = &c->w->slices[s];
		for (guint i = 0; i < slice->n_shared_counters; i++) {
			const DraCounterSet *set = &slice->shared_counters[i];
			for (guint j = 0; j < set->n_counters; j++) {
				ok &= check_counter(c, slice, set, &set->counters[j]);
			}
		}
	}
	return ok;
}

/* Property 3, capacity of one picked device's capacity @cap. */
static gboolean
check_capacity(Check *c, guint d, const DraCapacity *cap)
{
	const PropDevice *dev = &c->devs[d];
	DraMilli sum = dev->multi ? prop_oracle_held_shares(c->w, dev, cap->name) : 0;
	gboolean ok = TRUE;
	for (guint i = 0; i < c->picks->len; i++) {
		const PropPick *p = &g_array_index(c->picks, PropPick, i);
		const DraRequest *parent = NULL;
		const DraExactRequest *e =
		        prop_oracle_request(&c->w->claims[p->claim], p->result->request, &parent);
		DraMilli want = 0;
		if ((guint)p->device != d || e == NULL) {
			continue;
		}
		if (!dev->multi) {
			/* a dedicated device is used whole; what is asked must fit it */
			DraMilli asked = 0;
			if (prop_oracle_consumed(e, cap, &asked) && asked > cap->value) {
				ok = fail(c, "counters-capacity",
				          "%s: request %s asks more %s than it has",
				          dev->device->name, p->result->request, cap->name);
			}
			want = cap->value;
		} else if (!prop_oracle_consumed(e, cap, &want)) {
			ok = fail(c, "counters-capacity", "%s: request %s cannot be met on %s",
			          dev->device->name, p->result->request, cap->name);
		}
		for (guint j = 0; dev->multi && j < p->result->n_consumed; j++) {
			if (strcmp(p->result->consumed[j].name, cap->name) == 0 &&
			    p->result->consumed[j].value != want) {
				ok = fail(c, "counters-capacity",
				          "%s: consumed %s %" G_GINT64_FORMAT ", the policy gives "
				          "%" G_GINT64_FORMAT " (milli)",
				          dev->device->name, cap->name,
				          p->result->consumed[j].value, want);
			}
		}
		sum += want;
	}
	if (sum > cap->value && dra_allocator_get_stats(c->alloc)->quirk_capacity_recheck > 0) {
		/* release-1.34 allocateDevice checks an "All" device's capacity on
		 * slice.Devices[r.deviceIndex], another device: production overbooks */
		*c->excluded = "production 1.34: capacity re-checked on another device lets All "
		               "overbook a multi-allocatable device (allocateDevice)";
	} else if (sum > cap->value) {
		ok = fail(c, "counters-capacity",
		          "%s capacity %s: %" G_GINT64_FORMAT " used of %" G_GINT64_FORMAT
		          " (milli)",
		          dev->device->name, cap->name, sum, cap->value);
	}
	return ok;
}

gboolean
prop_check_allocation(PropOracle *o,
                      const PropWorld *w,
                      DraAllocator *alloc,
                      const char **property,
                      const char **excluded,
                      GString *why)
{
	g_autoptr(GArray) picks = g_array_new(FALSE, TRUE, sizeof(PropPick));
	Check c = { o, w, alloc, picks, NULL, 0, property, excluded, why };
	gboolean ok = collect_picks(&c);

	c.devs = prop_oracle_devices(o, &c.n_devs);
	ok &= check_exclusive(&c);
	ok &= check_selected(&c);
	for (guint k = 0; k < w->n_claims; k++) {
		ok &= check_counts(&c, k);
		ok &= check_constraints(&c, k);
	}
	ok &= check_counters(&c);
	for (guint d = 0; d < c.n_devs; d++) {
		for (guint i = 0; device_picked(&c, d) && i < c.devs[d].device->n_capacity; i++) {
			ok &= check_capacity(&c, d, &c.devs[d].device->capacity[i]);
		}
	}
	return ok;
}
