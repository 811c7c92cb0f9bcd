/*
 * dra_capacity.c: consumable capacity and shared counters during the search.
 *
 * Capacity follows CmpRequestOverCapacity and friends in
 * structured/internal/experimental/consumable_capacity.go (1.34): per capacity
 * of the device, the request (or the policy default, or the whole value) is
 * rounded per requestPolicy, must satisfy the policy, and together with what
 * other claims and this call already consume must fit the capacity value.
 * Counters follow checkAvailableCounters: per slice, shared counters minus what
 * allocated devices of that slice consume, checked against what this call adds.
 */
#include <string.h>

#include "dra-private.h"

static const DraCapacityRequest *
find_request(const DraExactRequest *req, const char *name)
{
	if (!req->has_capacity) {
		return NULL;
	}
	for (guint i = 0; i < req->n_capacity_requests; i++) {
		if (strcmp(req->capacity_requests[i].name, name) == 0) {
			return &req->capacity_requests[i];
		}
	}
	return NULL;
}

static DraMilli
round_up(DraMilli requested, const DraRequestPolicy *policy)
{
	if (policy == NULL) {
		return requested;
	}
	if (policy->has_range) {
		if (requested < policy->range_min) {
			return policy->range_min;
		}
		if (!policy->has_range_step || policy->range_step <= 0) {
			return requested;
		}
		DraMilli added = requested - policy->range_min;
		DraMilli n = added / policy->range_step + (added % policy->range_step != 0);
		return policy->range_min + n * policy->range_step;
	}
	for (guint i = 0; i < policy->n_valid_values; i++) {
		if (requested <= policy->valid_values[i]) {
			return policy->valid_values[i];
		}
	}
	return requested;
}

/* calculateConsumedCapacity */
static DraMilli
consumed_value(const DraCapacityRequest *cr, const DraCapacity *cap)
{
	if (cr == NULL) {
		if (cap->policy != NULL && cap->policy->has_default) {
			return cap->policy->default_value;
		}
		return cap->value;
	}
	return round_up(cr->value, cap->policy);
}

static gboolean
violates_policy(DraMilli v, const DraRequestPolicy *policy)
{
	if (policy == NULL) {
		return FALSE;
	}
	if (policy->has_default && v == policy->default_value) {
		return FALSE;
	}
	if (policy->has_range) {
		if (policy->has_range_max && v > policy->range_max) {
			return TRUE;
		}
		if (policy->has_range_step && policy->range_step > 0 &&
		    (v - policy->range_min) % policy->range_step != 0) {
			return TRUE;
		}
		return FALSE;
	}
	if (policy->n_valid_values > 0) {
		for (guint i = 0; i < policy->n_valid_values; i++) {
			if (policy->valid_values[i] == v) {
				return FALSE;
			}
		}
		return TRUE;
	}
	return FALSE;
}

static DraMilli
aggregated_value(DraAllocator *self, guint id, const char *name)
{
	GArray *caps = id < self->aggregated->len ? g_ptr_array_index(self->aggregated, id) : NULL;

	if (caps == NULL) {
		return 0;
	}
	for (guint i = 0; i < caps->len; i++) {
		DraConsumed *c = &g_array_index(caps, DraConsumed, i);
		/* entry 0 (no name) counts the shares */
		if (c->name != NULL && strcmp(c->name, name) == 0) {
			return c->value;
		}
	}
	return 0;
}

static DraInflight *
inflight_find(DraAllocator *self, guint id, const char *name)
{
	for (guint i = 0; i < self->inflight->len; i++) {
		DraInflight *e = &g_array_index(self->inflight, DraInflight, i);
		if (e->id == id && (e->name == name || (e->name != NULL && name != NULL &&
		                                        strcmp(e->name, name) == 0))) {
			return e;
		}
	}
	return NULL;
}

gboolean
dra_capacity__fits(DraAllocator *self, const DraExactRequest *req, guint dev)
{
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
	const DraDevice *device = d->device;

	/* a request for a capacity the device lacks: error upstream, the device is skipped */
	if (req->has_capacity) {
		for (guint i = 0; i < req->n_capacity_requests; i++) {
			gboolean found = FALSE;
			for (guint j = 0; j < device->n_capacity && !found; j++) {
				found = strcmp(device->capacity[j].name,
				               req->capacity_requests[i].name) == 0;
			}
			if (!found) {
				return FALSE;
			}
		}
	}
	for (guint j = 0; j < device->n_capacity; j++) {
		const DraCapacity *cap = &device->capacity[j];
		DraMilli v = consumed_value(find_request(req, cap->name), cap);
		if (violates_policy(v, cap->policy)) {
			return FALSE;
		}
		DraMilli total = v + aggregated_value(self, d->id, cap->name);
		DraInflight *e = inflight_find(self, d->id, cap->name);
		if (e != NULL) {
			total += e->value;
		}
		if (total > cap->value) {
			return FALSE;
		}
	}
	return TRUE;
}

guint
dra_capacity__consume(DraAllocator *self, const DraExactRequest *req, guint dev, guint *n_out)
{
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
	const DraDevice *device = d->device;
	guint base = self->consumed->len;

	/* ConsumedCapacityCollection.Insert: the key exists even without capacities */
	if (inflight_find(self, d->id, NULL) == NULL) {
		DraInflight marker = { d->id, NULL, 0 };
		g_array_append_val(self->inflight, marker);
	}
	for (guint j = 0; j < device->n_capacity; j++) {
		const DraCapacity *cap = &device->capacity[j];
		DraConsumed c = { cap->name, consumed_value(find_request(req, cap->name), cap) };
		g_array_append_val(self->consumed, c);
		DraInflight *e = inflight_find(self, d->id, cap->name);
		if (e == NULL) {
			DraInflight ne = { d->id, cap->name, 0 };
			g_array_append_val(self->inflight, ne);
			e = &g_array_index(self->inflight, DraInflight, self->inflight->len - 1);
		}
		e->value += c.value;
	}
	*n_out = self->consumed->len - base;
	return base;
}

void
dra_capacity__release(DraAllocator *self, guint dev, guint consumed_base, guint n)
{
	guint id = g_array_index(self->dev_recs, DraDevRec, dev).id;
	gboolean empty = TRUE;

	for (guint i = 0; i < n; i++) {
		DraConsumed *c = &g_array_index(self->consumed, DraConsumed, consumed_base + i);
		DraInflight *e = inflight_find(self, id, c->name);
		if (e != NULL) {
			e->value -= c->value;
		}
	}
	for (guint i = 0; i < self->inflight->len; i++) {
		DraInflight *e = &g_array_index(self->inflight, DraInflight, i);
		if (e->id == id && e->name != NULL && e->value != 0) {
			empty = FALSE;
		}
	}
	if (empty) {
		/* Remove deletes the device's entry once all of it is zero */
		for (guint i = self->inflight->len; i-- > 0;) {
			if (g_array_index(self->inflight, DraInflight, i).id == id) {
				g_array_remove_index(self->inflight, i);
			}
		}
	}
	if (consumed_base + n == self->consumed->len) {
		g_array_set_size(self->consumed, consumed_base);
	}
}

gboolean
dra_capacity__in_use(DraAllocator *self, guint id)
{
	if (id < self->aggregated->len && g_ptr_array_index(self->aggregated, id) != NULL) {
		return TRUE;
	}
	return inflight_find(self, id, NULL) != NULL;
}

static void
compute_available(DraAllocator *self, DraSliceRec *sr)
{
	const DraSlice *s = sr->slice;
	DraMilli *avail = &g_array_index(self->counter_avail, DraMilli, sr->counter_base);
	guint k = 0;

	for (guint set = 0; set < s->n_shared_counters; set++) {
		for (guint j = 0; j < s->shared_counters[set].n_counters; j++) {
			avail[k++] = s->shared_counters[set].counters[j].value;
		}
	}
	/* devices of this slice that other claims hold (may go negative) */
	for (guint j = 0; j < s->n_devices; j++) {
		const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, sr->dev_base + j);
		if (!self->allocated->data[d->id]) {
			continue;
		}
		for (guint c = 0; c < d->n_cons; c++) {
			const DraConsRec *cr =
			        &g_array_index(self->cons, DraConsRec, d->cons_base + c);
			g_array_index(self->counter_avail, DraMilli, cr->counter) -= cr->value;
		}
	}
	sr->available_ready = TRUE;
}

static void
touch_slice(DraAllocator *self, guint slice)
{
	for (guint i = 0; i < self->touched_slices->len; i++) {
		if (g_array_index(self->touched_slices, guint, i) == slice) {
			return;
		}
	}
	g_array_append_val(self->touched_slices, slice);
}

gboolean
dra_counters__check(DraAllocator *self, guint dev)
{
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
	DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec, d->slice);

	if (!sr->available_ready) {
		compute_available(self, sr);
	}
	touch_slice(self, d->slice);
	for (guint c = 0; c < d->n_cons; c++) {
		const DraConsRec *cr = &g_array_index(self->cons, DraConsRec, d->cons_base + c);
		g_array_index(self->counter_used, DraMilli, cr->counter) += cr->value;
	}
	for (guint k = 0; k < sr->n_counters; k++) {
		guint idx = sr->counter_base + k;
		if (g_array_index(self->counter_avail, DraMilli, idx) <
		    g_array_index(self->counter_used, DraMilli, idx)) {
			dra_counters__release(self, dev);
			return FALSE;
		}
	}
	return TRUE;
}

void
dra_counters__release(DraAllocator *self, guint dev)
{
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);

	for (guint c = 0; c < d->n_cons; c++) {
		const DraConsRec *cr = &g_array_index(self->cons, DraConsRec, d->cons_base + c);
		g_array_index(self->counter_used, DraMilli, cr->counter) -= cr->value;
	}
}
