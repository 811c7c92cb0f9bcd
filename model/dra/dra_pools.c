/*
 * dra_pools.c: the resource pools visible from one node (GatherPools).
 *
 * Follows structured/internal/experimental/pools_experimental.go at 1.34:
 * slices are taken in input order, filtered by node selection, grouped by
 * (driver, pool); only the highest generation survives; a pool is incomplete
 * when its slice count differs from resourceSliceCount and invalid when a
 * device name repeats. Production iterates a Go map, so pool order is
 * unspecified; drasim uses order of first appearance, which is what the
 * upstream tests assume. With binding conditions on, slices and pools holding
 * devices with binding conditions go last. The result only depends on the
 * node, so it is cached per node name for the allocator's lifetime.
 */
#include <string.h>

#include "dra-private.h"

static void
pool_free(gpointer data)
{
	DraPoolRec *p = data;
	g_free(p->driver);
	g_free(p->pool);
	g_array_unref(p->slices);
	g_free(p->invalid_reason);
	g_free(p);
}

void
dra_pools__free(gpointer data)
{
	DraNodePools *np = data;
	if (np == NULL) {
		return;
	}
	g_ptr_array_unref(np->pools);
	g_free(np->error);
	g_free(np); /* node_name lives in the same allocation */
}

static const DraSlice *
slice_at(DraAllocator *self, guint index)
{
	return g_array_index(self->slice_recs, DraSliceRec, index).slice;
}

/* Node relevance of one slice; FALSE with np->error set on a parse error. */
static gboolean
slice_relevant(
        DraAllocator *self, DraNodePools *np, const DraNode *node, guint index, gboolean *relevant)
{
	const DraSlice *s = slice_at(self, index);
	char *why = NULL;

	*relevant = FALSE;
	/* 1.34: without DRAPartitionableDevices such slices are skipped entirely */
	if (!self->features.partitionable_devices && s->per_device_node_selection_set) {
		return TRUE;
	}
	if ((s->node_name != NULL && s->node_name[0] != '\0') || s->all_nodes ||
	    s->node_selector != NULL) {
		if (!dra_node__matches(node, s->node_name, s->all_nodes, s->node_selector, relevant,
		                       &why)) {
			np->error = g_strdup_printf("failed to perform node selection for slice "
			                            "%s: %s",
			                            s->name, why);
			g_free(why);
			return FALSE;
		}
		return TRUE;
	}
	if (s->per_device_node_selection) {
		for (guint j = 0; j < s->n_devices; j++) {
			const DraDevice *d = &s->devices[j];
			gboolean m = FALSE;
			if (!dra_node__matches(node, d->node_name, d->all_nodes, d->node_selector,
			                       &m, &why)) {
				np->error = g_strdup_printf("failed to perform node selection for "
				                            "device %s in slice %s: %s",
				                            d->name, s->name, why);
				g_free(why);
				return FALSE;
			}
			if (m) {
				*relevant = TRUE;
				return TRUE;
			}
		}
		return TRUE;
	}
	/* no node selection at all: a future extension, silently ignored */
	return TRUE;
}

static DraPoolRec *
pool_lookup(GPtrArray *pools, const DraSlice *s)
{
	for (guint i = 0; i < pools->len; i++) {
		DraPoolRec *p = g_ptr_array_index(pools, i);
		if (strcmp(p->driver, s->driver) == 0 && strcmp(p->pool, s->pool) == 0) {
			return p;
		}
	}
	return NULL;
}

static void
add_slice(DraAllocator *self, GPtrArray *pools, guint index)
{
	const DraSlice *s = slice_at(self, index);
	DraPoolRec *p = pool_lookup(pools, s);

	if (p == NULL) {
		p = g_new0(DraPoolRec, 1);
		p->driver = g_strdup(s->driver);
		p->pool = g_strdup(s->pool);
		p->slices = g_array_new(FALSE, FALSE, sizeof(guint));
		g_ptr_array_add(pools, p);
		g_array_append_val(p->slices, index);
		return;
	}
	gint64 have = slice_at(self, g_array_index(p->slices, guint, 0))->generation;
	if (s->generation < have) {
		return; /* outdated */
	}
	if (s->generation > have) {
		g_array_set_size(p->slices, 0); /* newer generation replaces all */
	}
	g_array_append_val(p->slices, index);
}

static void
check_pool(DraAllocator *self, DraPoolRec *p)
{
	g_autoptr(GHashTable) names = g_hash_table_new(g_str_hash, g_str_equal);
	const DraSlice *first = slice_at(self, g_array_index(p->slices, guint, 0));

	p->incomplete = (gint64)p->slices->len != first->resource_slice_count;
	for (guint i = 0; i < p->slices->len; i++) {
		guint si = g_array_index(p->slices, guint, i);
		const DraSlice *s = slice_at(self, si);
		if (g_array_index(self->slice_recs, DraSliceRec, si).has_binding) {
			p->has_binding = TRUE;
		}
		for (guint j = 0; j < s->n_devices && !p->invalid; j++) {
			if (!g_hash_table_add(names, (gpointer)s->devices[j].name)) {
				p->invalid = TRUE;
				p->invalid_reason = g_strdup_printf("duplicate device name %s",
				                                    s->devices[j].name);
			}
		}
	}
}

/* Stable partition: entries for which @last says TRUE move behind the others. */
static void
order_binding_slices(DraAllocator *self, DraPoolRec *p)
{
	g_autoptr(GArray) tail = g_array_new(FALSE, FALSE, sizeof(guint));
	guint keep = 0;

	for (guint i = 0; i < p->slices->len; i++) {
		guint si = g_array_index(p->slices, guint, i);
		if (g_array_index(self->slice_recs, DraSliceRec, si).has_binding) {
			g_array_append_val(tail, si);
		} else {
			g_array_index(p->slices, guint, keep++) = si;
		}
	}
	g_array_set_size(p->slices, keep);
	g_array_append_vals(p->slices, tail->data, tail->len);
}

static DraNodePools *
gather(DraAllocator *self, const DraNode *node)
{
	const char *name = node != NULL ? node->name : "";
	gsize len = strlen(name);
	DraNodePools *np = g_malloc0(sizeof(DraNodePools) + len + 1);
	np->node_name = (char *)(np + 1);
	memcpy(np->node_name, name, len + 1);
	GArray *own = node != NULL ? g_hash_table_lookup(self->node_slices, node->name) : NULL;
	GArray *shared = self->shared_slices;
	guint a = 0;
	guint b = 0;

	np->pools = g_ptr_array_new_with_free_func(pool_free);
	/* merge the node's own slices with the shared ones, keeping input order */
	while ((own != NULL && a < own->len) || b < shared->len) {
		guint index;
		if (own != NULL && a < own->len &&
		    (b >= shared->len ||
		     g_array_index(own, guint, a) < g_array_index(shared, guint, b))) {
			index = g_array_index(own, guint, a++);
		} else {
			index = g_array_index(shared, guint, b++);
		}
		gboolean relevant = FALSE;
		if (!slice_relevant(self, np, node, index, &relevant)) {
			return np;
		}
		if (relevant) {
			add_slice(self, np->pools, index);
		}
	}
	np->memo_ok = TRUE;
	for (guint i = 0; i < np->pools->len; i++) {
		DraPoolRec *p = g_ptr_array_index(np->pools, i);
		check_pool(self, p);
		for (guint j = 0; j < p->slices->len; j++) {
			const DraSlice *s = slice_at(self, g_array_index(p->slices, guint, j));
			/* per-device node selection reads the node's labels in the search */
			if (s->per_device_node_selection) {
				np->memo_ok = FALSE;
			}
			if (s->node_name == NULL || s->node_name[0] == '\0') {
				np->shared = TRUE;
			}
		}
	}
	if (self->features.device_binding && self->features.device_status) {
		g_autoptr(GPtrArray) tail = g_ptr_array_new();
		guint keep = 0;
		for (guint i = 0; i < np->pools->len; i++) {
			DraPoolRec *p = g_ptr_array_index(np->pools, i);
			order_binding_slices(self, p);
			if (p->has_binding) {
				g_ptr_array_add(tail, p);
			} else {
				np->pools->pdata[keep++] = p;
			}
		}
		for (guint i = 0; i < tail->len; i++) {
			np->pools->pdata[keep++] = tail->pdata[i];
		}
	}
	return np;
}

DraNodePools *
dra_pools__for_node(DraAllocator *self, const DraNode *node)
{
	/*
	 * Keyed by the name's pointer, not the node's: callers build a DraNode per
	 * call on the stack, while the name usually lives as long as the node.
	 */
	gconstpointer ptr = node != NULL ? (gconstpointer)node->name : NULL;
	DraPtrSlot *slot = &self->pools_cache[dra_node_slot(ptr)];
	DraNodePools *np = slot->key == ptr ? slot->value : NULL;

	/* the pointer caches are checked by name: the caller may reuse node memory */
	if (np != NULL && (node == NULL || strcmp(np->node_name, node->name) == 0)) {
		return np;
	}
	const char *key = node != NULL ? node->name : "";
	np = g_hash_table_lookup(self->pools_by_node, key);
	if (np == NULL) {
		np = gather(self, dra_alloc__labeled(self, node));
		g_hash_table_insert(self->pools_by_node, g_strdup(key), np);
	}
	slot->key = ptr;
	slot->value = np;
	self->ptr_caches_used = TRUE;
	return np;
}
