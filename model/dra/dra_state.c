/*
 * dra_state.c: what is allocated, as callers change it between calls.
 *
 * Devices held by claims (and the capacity shared devices have given out) are
 * kept keyed by "driver/pool/device" strings, so they survive a new inventory;
 * once prepared they are also projected onto the interned device ids the
 * search reads. A change expires the memo answers of the nodes it touches.
 */
#include <string.h>

#include "dra-private.h"

char *
dra_alloc__id_key(const char *driver, const char *pool, const char *device)
{
	return g_strconcat(driver, "\x1f", pool, "\x1f", device, NULL);
}

/*
 * dra_alloc__id_key() into @buf when it fits (else a new string left in *@heap): every
 * allocation and release looks its devices up, and printf plus malloc cost
 * more than the lookup.
 */
static const char *
id_key_into(char *buf,
            gsize size,
            const char *driver,
            const char *pool,
            const char *device,
            char **heap)
{
	gsize lens[3] = { strlen(driver), strlen(pool), strlen(device) };
	char *out = buf;

	*heap = NULL;
	if (lens[0] + lens[1] + lens[2] + 3 > size)
		return *heap = dra_alloc__id_key(driver, pool, device);
	memcpy(out, driver, lens[0]);
	out[lens[0]] = '\x1f';
	memcpy(out + lens[0] + 1, pool, lens[1]);
	out[lens[0] + 1 + lens[1]] = '\x1f';
	memcpy(out + lens[0] + lens[1] + 2, device, lens[2] + 1);
	return out;
}

static guint
lookup_key(DraAllocator *self, const char *key)
{
	gpointer v = g_hash_table_lookup(self->id_by_key, key);
	return v == NULL ? G_MAXUINT : GPOINTER_TO_UINT(v) - 1;
}

guint
dra_alloc__lookup_id(DraAllocator *self, const char *driver, const char *pool, const char *device)
{
	char buf[256];
	g_autofree char *heap = NULL;

	return lookup_key(self, id_key_into(buf, sizeof(buf), driver, pool, device, &heap));
}

/*
 * Adds one entry to a device's aggregated capacity. The entry without a name
 * counts the shares (allocation results with a shareID); when it drops to zero
 * the device has no entry any more (upstream: the map key disappears).
 */
static void
agg_apply(DraAllocator *self, guint id, const char *name, DraMilli value)
{
	GArray *caps = g_ptr_array_index(self->aggregated, id);
	gboolean found = FALSE;

	if (caps == NULL) {
		caps = g_array_new(FALSE, TRUE, sizeof(DraConsumed));
		DraConsumed shares = { NULL, 0 };
		g_array_append_val(caps, shares);
		g_ptr_array_index(self->aggregated, id) = caps;
	}
	for (guint j = 0; j < caps->len && !found; j++) {
		DraConsumed *c = &g_array_index(caps, DraConsumed, j);
		if (g_strcmp0(c->name, name) == 0) {
			c->value += value;
			found = TRUE;
		}
	}
	if (!found) {
		DraConsumed c = { name, value };
		g_array_append_val(caps, c);
	}
	if (g_array_index(caps, DraConsumed, 0).value <= 0) {
		g_array_unref(caps);
		g_ptr_array_index(self->aggregated, id) = NULL;
	}
}

/* Projects the string-keyed allocated state onto the interned ids. */
void
dra_alloc__prepare_allocated(DraAllocator *self)
{
	GHashTableIter it;
	gpointer key;

	g_byte_array_set_size(self->allocated, self->id_recs->len);
	if (self->allocated->len > 0) {
		memset(self->allocated->data, 0, self->allocated->len);
	}
	g_hash_table_iter_init(&it, self->allocated_keys);
	while (g_hash_table_iter_next(&it, &key, NULL)) {
		gpointer v = g_hash_table_lookup(self->id_by_key, key);
		if (v != NULL) {
			self->allocated->data[GPOINTER_TO_UINT(v) - 1] = 1;
		}
	}
	g_ptr_array_set_size(self->aggregated, 0);
	g_ptr_array_set_size(self->aggregated, self->id_recs->len);
	for (guint i = 0; i < self->aggregated_list->len; i++) {
		DraAggEntry *e = &g_array_index(self->aggregated_list, DraAggEntry, i);
		gpointer v = g_hash_table_lookup(self->id_by_key, e->key);
		if (v == NULL) {
			continue;
		}
		agg_apply(self, GPOINTER_TO_UINT(v) - 1, e->name, e->value);
	}
	g_array_set_size(self->allocating, self->id_recs->len);
	for (guint i = 0; i < self->slice_recs->len; i++) {
		DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec, i);
		sr->available_ready = FALSE;
		sr->n_allocated = 0;
		for (guint j = 0; j < sr->slice->n_devices; j++) {
			guint id = g_array_index(self->dev_recs, DraDevRec, sr->dev_base + j).id;
			sr->n_allocated += self->allocated->data[id];
		}
	}
}

void
dra_allocator_mark_allocated(DraAllocator *self,
                             const char *driver,
                             const char *pool,
                             const char *device,
                             gboolean allocated)
{
	char buf[256];
	g_autofree char *heap = NULL;
	const char *key = id_key_into(buf, sizeof(buf), driver, pool, device, &heap);

	dra_alloc__memo_replay(self); /* a pending memo answer needs the state before */
	if (!allocated)
		g_hash_table_remove(self->allocated_keys, key);
	else if (!g_hash_table_contains(self->allocated_keys, key))
		g_hash_table_add(self->allocated_keys, g_strdup(key));
	if (self->prepared) {
		guint id = lookup_key(self, key);
		if (id != G_MAXUINT && self->allocated->data[id] != (allocated ? 1 : 0)) {
			self->allocated->data[id] = allocated ? 1 : 0;
			guint dev = g_array_index(self->id_recs, DraIdRec, id).first_dev;
			for (; dev != G_MAXUINT;
			     dev = g_array_index(self->dev_recs, DraDevRec, dev).next_same_id) {
				guint slice = g_array_index(self->dev_recs, DraDevRec, dev).slice;
				DraSliceRec *sr =
				        &g_array_index(self->slice_recs, DraSliceRec, slice);
				if (allocated) {
					sr->n_allocated++;
				} else {
					sr->n_allocated--;
				}
				dra_memo__slice_changed(self, slice);
				/* the available counters of this slice change */
				sr->available_ready = FALSE;
			}
		}
	}
}

static void
agg_record(DraAllocator *self,
           const char *driver,
           const char *pool,
           const char *device,
           const char *name,
           DraMilli value)
{
	DraAggEntry e = { dra_alloc__id_key(driver, pool, device), name, value };

	g_array_append_val(self->aggregated_list, e);
	if (self->prepared) {
		gpointer v = g_hash_table_lookup(self->id_by_key, e.key);
		if (v != NULL) {
			agg_apply(self, GPOINTER_TO_UINT(v) - 1, name, value);
		}
	}
}

void
dra_allocator_add_shared(DraAllocator *self,
                         const char *driver,
                         const char *pool,
                         const char *device,
                         const DraConsumed *consumed,
                         guint n_consumed,
                         gboolean add)
{
	dra_alloc__memo_replay(self);
	/* the share first: capacities of a device whose last share left are dropped */
	if (add) {
		agg_record(self, driver, pool, device, NULL, 1);
	}
	for (guint i = 0; i < n_consumed; i++) {
		agg_record(self, driver, pool, device, g_intern_string(consumed[i].name),
		           add ? consumed[i].value : -consumed[i].value);
	}
	if (!add) {
		agg_record(self, driver, pool, device, NULL, -1);
	}
}

gboolean
dra_allocator_is_allocated(DraAllocator *self,
                           const char *driver,
                           const char *pool,
                           const char *device)
{
	char buf[256];
	g_autofree char *heap = NULL;

	return g_hash_table_contains(self->allocated_keys,
	                             id_key_into(buf, sizeof(buf), driver, pool, device, &heap));
}

guint
dra_allocator_count_allocated(const DraAllocator *self)
{
	return g_hash_table_size(self->allocated_keys);
}

/* The share entries (name NULL) of the change list add up to the shares held. */
gint64
dra_allocator_count_shares(const DraAllocator *self)
{
	gint64 shares = 0;

	for (guint i = 0; i < self->aggregated_list->len; i++) {
		const DraAggEntry *e = &g_array_index(self->aggregated_list, DraAggEntry, i);

		if (e->name == NULL)
			shares += e->value;
	}
	return shares;
}

void
dra_allocator_commit(DraAllocator *self, guint claim_index)
{
	const DraAllocation *a = dra_allocator_get_allocation(self, claim_index);

	if (a == NULL) {
		return;
	}
	for (guint i = 0; i < a->n_results; i++) {
		const DraDeviceResult *r = &a->results[i];
		if (r->admin_access) {
			continue; /* admin-access allocations block nobody */
		}
		if (r->share_id == NULL) {
			dra_allocator_mark_allocated(self, r->driver, r->pool, r->device, TRUE);
			continue;
		}
		dra_allocator_add_shared(self, r->driver, r->pool, r->device, r->consumed,
		                         r->n_consumed, TRUE);
	}
}
