/*
 * dra_signature.c: a node's DRA signature, so that a scheduler may ask the
 * allocator once for all nodes of one signature in a cycle (docs/cluster.md,
 * "DynamicResources per class").
 *
 * Equal signatures must mean that a search gives the same outcome and adds
 * the same statistics on either node, for any claims. The search reads the
 * node's pools in order, their slices and devices, and the allocated state of
 * those devices; it never reads pool, slice or node names (they only appear
 * in results and messages, built for the chosen node or on demand). So the
 * signature is that content written out canonically without those names and
 * interned: equal ids are equal texts, not a hash that might collide.
 *
 * What is not keyed: device attributes are keyed by their array's identity
 * (dra_k8s.c shares one array between the same device of every node of a
 * shape) and by the names of the node's own attributes (uuid, mac), whose
 * values differ per node; whether an answer read those values is the
 * caller's question (dra_allocator_answer_reads_node_values). A node that
 * sees slices without a nodeName (their allocated state is every node's),
 * per-device node selection (the search reads labels), DeviceTaintRules or
 * consumable capacity (shareIDs draw random numbers) gets signature 0.
 *
 * The pools' part is written once per node and inventory (DraNodePools.
 * sig_shape); the state part (which devices are held, shared consumption)
 * whenever the node's allocated state moved.
 */
#include <string.h>

#include "dra-private.h"

#define put_int  dra_memo__put_int
#define put_str  dra_memo__put_str
#define put_strs dra_memo__put_strs
#define SIG_NONE G_MAXUINT /* DraNodePools.sig_shape of a node that cannot be keyed */

static guint
intern_text(DraAllocator *self)
{
	gpointer id = g_hash_table_lookup(self->sig_ids, self->sig_text->str);

	if (id == NULL) {
		id = GUINT_TO_POINTER(g_hash_table_size(self->sig_ids) + 1);
		g_hash_table_insert(self->sig_ids, g_strdup(self->sig_text->str), id);
	}
	return GPOINTER_TO_UINT(id);
}

static void
put_counters(GString *s, const DraCounter *c, guint n)
{
	put_int(s, n);
	for (guint i = 0; i < n; i++) {
		put_str(s, c[i].name);
		put_int(s, c[i].value);
	}
}

/* Everything of one device the search, validation and CEL's view read. */
static void
put_device(DraAllocator *self, GString *s, const DraDevRec *dr)
{
	const DraDevice *d = dr->device;

	put_str(s, d->name);
	/* shared by every node of a shape (dra_k8s.c): identity stands for content */
	put_int(s, (gint64)(guintptr)d->attributes);
	put_int(s, d->n_attributes);
	put_int(s, d->n_node_attributes);
	for (guint i = 0; i < d->n_node_attributes; i++) {
		put_str(s, d->node_attributes[i].name);
	}
	put_int(s, d->n_capacity);
	for (guint i = 0; i < d->n_capacity; i++) {
		put_str(s, d->capacity[i].name);
		put_int(s, d->capacity[i].value);
		put_str(s, d->capacity[i].text);
		put_int(s, d->capacity[i].policy != NULL);
	}
	put_int(s, d->n_consumes_counters);
	for (guint i = 0; i < d->n_consumes_counters; i++) {
		put_str(s, d->consumes_counters[i].counter_set);
		put_counters(s, d->consumes_counters[i].counters,
		             d->consumes_counters[i].n_counters);
	}
	put_int(s, dr->n_taints);
	for (guint i = 0; i < d->n_taints; i++) {
		put_str(s, d->taints[i].key);
		put_str(s, d->taints[i].value);
		put_str(s, d->taints[i].effect);
	}
	put_int(s, d->binds_to_node);
	put_strs(s, d->binding_conditions, d->n_binding_conditions);
	put_strs(s, d->binding_failure_conditions, d->n_binding_failure_conditions);
	put_int(s, d->allow_multiple_allocations);
	put_int(s, dr->n_cons);
}

static void
put_slice(DraAllocator *self, GString *s, guint si)
{
	const DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec, si);
	const DraSlice *sl = sr->slice;

	put_int(s, sl->n_devices);
	put_int(s, sr->has_binding);
	put_int(s, sl->n_shared_counters);
	for (guint i = 0; i < sl->n_shared_counters; i++) {
		put_str(s, sl->shared_counters[i].name);
		put_counters(s, sl->shared_counters[i].counters, sl->shared_counters[i].n_counters);
	}
	for (guint j = 0; j < sl->n_devices; j++) {
		put_device(self, s, &g_array_index(self->dev_recs, DraDevRec, sr->dev_base + j));
	}
}

/*
 * Whether devices @a and @b (their DevRecs) would be written out alike by
 * put_device(): every field it writes, the arrays by identity. A stamped node's
 * devices point at the arrays of the node before (dra_k8s.h), so a pool of
 * stamps compares in a few instructions per device where writing it costs a few
 * thousand (issue 19 item 3: 100,000 nodes keyed at the first cycle). Arrays of
 * equal content at different addresses only make this answer FALSE, and the
 * text decides.
 */
static gboolean
same_device(const DraDevRec *ra, const DraDevRec *rb)
{
	const DraDevice *a = ra->device, *b = rb->device;

	if (strcmp(a->name, b->name) != 0 || a->attributes != b->attributes ||
	    a->n_attributes != b->n_attributes || a->n_node_attributes != b->n_node_attributes ||
	    a->capacity != b->capacity || a->n_capacity != b->n_capacity ||
	    a->consumes_counters != b->consumes_counters ||
	    a->n_consumes_counters != b->n_consumes_counters || ra->n_taints != rb->n_taints ||
	    a->taints != b->taints || a->n_taints != b->n_taints ||
	    a->binds_to_node != b->binds_to_node ||
	    a->binding_conditions != b->binding_conditions ||
	    a->n_binding_conditions != b->n_binding_conditions ||
	    a->binding_failure_conditions != b->binding_failure_conditions ||
	    a->n_binding_failure_conditions != b->n_binding_failure_conditions ||
	    a->allow_multiple_allocations != b->allow_multiple_allocations ||
	    ra->n_cons != rb->n_cons)
		return FALSE;
	for (guint i = 0; i < a->n_node_attributes; i++)
		if (strcmp(a->node_attributes[i].name, b->node_attributes[i].name) != 0)
			return FALSE;
	return TRUE;
}

static gboolean
same_slice(DraAllocator *self, guint ia, guint ib)
{
	const DraSliceRec *ra = &g_array_index(self->slice_recs, DraSliceRec, ia);
	const DraSliceRec *rb = &g_array_index(self->slice_recs, DraSliceRec, ib);
	const DraSlice *a = ra->slice, *b = rb->slice;

	if (a->n_devices != b->n_devices || ra->has_binding != rb->has_binding ||
	    a->shared_counters != b->shared_counters ||
	    a->n_shared_counters != b->n_shared_counters)
		return FALSE;
	for (guint j = 0; j < a->n_devices; j++)
		if (!same_device(&g_array_index(self->dev_recs, DraDevRec, ra->dev_base + j),
		                 &g_array_index(self->dev_recs, DraDevRec, rb->dev_base + j)))
			return FALSE;
	return TRUE;
}

/* Whether shape_of() would write @a's pools as @b's (see same_device()). */
static gboolean
same_pools(DraAllocator *self, const DraNodePools *a, const DraNodePools *b)
{
	if (a->pools->len != b->pools->len)
		return FALSE;
	for (guint i = 0; i < a->pools->len; i++) {
		const DraPoolRec *pa = g_ptr_array_index(a->pools, i);
		const DraPoolRec *pb = g_ptr_array_index(b->pools, i);

		if (strcmp(pa->driver, pb->driver) != 0 || pa->incomplete != pb->incomplete ||
		    pa->invalid != pb->invalid || pa->has_binding != pb->has_binding ||
		    pa->slices->len != pb->slices->len)
			return FALSE;
		for (guint j = 0; j < pa->slices->len; j++)
			if (!same_slice(self, g_array_index(pa->slices, guint, j),
			                g_array_index(pb->slices, guint, j)))
				return FALSE;
	}
	return TRUE;
}

/* The pools' part, or SIG_NONE for a node that cannot be keyed. */
static guint
shape_of(DraAllocator *self, const DraNodePools *np)
{
	GString *s = self->sig_text;
	const DraNodePools *last =
	        self->sig_last_epoch == self->pools_epoch ? self->sig_last : NULL;

	if (np->error != NULL || !np->memo_ok || np->shared || self->taint_rules->len > 0 ||
	    self->features.consumable_capacity) {
		return SIG_NONE;
	}
	if (last != NULL && last != np && last->sig_shape != 0 && last->sig_shape != SIG_NONE &&
	    same_pools(self, np, last))
		return last->sig_shape;
	self->sig_last = np;
	self->sig_last_epoch = self->pools_epoch;
	g_string_assign(s, "P");
	put_int(s, np->pools->len);
	for (guint i = 0; i < np->pools->len; i++) {
		const DraPoolRec *p = g_ptr_array_index(np->pools, i);

		put_str(s, p->driver);
		put_int(s, p->incomplete * 4 + p->invalid * 2 + p->has_binding);
		put_int(s, p->slices->len);
		for (guint j = 0; j < p->slices->len; j++) {
			put_slice(self, s, g_array_index(p->slices, guint, j));
		}
	}
	return intern_text(self);
}

/* The allocated state of the node's devices, in the pools' order. */
static guint
state_of(DraAllocator *self, const DraNodePools *np)
{
	GString *s = self->sig_text;

	g_string_assign(s, "S");
	put_int(s, np->sig_shape);
	for (guint i = 0; i < np->pools->len; i++) {
		const DraPoolRec *p = g_ptr_array_index(np->pools, i);

		for (guint j = 0; j < p->slices->len; j++) {
			const DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec,
			                                       g_array_index(p->slices, guint, j));

			for (guint k = 0; k < sr->slice->n_devices; k++) {
				guint id =
				        g_array_index(self->dev_recs, DraDevRec, sr->dev_base + k)
				                .id;
				const GArray *agg =
				        id < self->aggregated->len
				                ? g_ptr_array_index(self->aggregated, id)
				                : NULL;

				g_string_append_c(s, (char)('a' + self->allocated->data[id]));
				if (agg == NULL) {
					continue;
				}
				put_int(s, agg->len);
				for (guint a = 0; a < agg->len; a++) {
					put_str(s, g_array_index(agg, DraConsumed, a).name);
					put_int(s, g_array_index(agg, DraConsumed, a).value);
				}
			}
		}
	}
	return intern_text(self);
}

guint
dra_allocator_node_signature(DraAllocator *self, const DraNode *node, DraNodeRef *ref)
{
	DraNodePools *np;

	g_return_val_if_fail(self != NULL && node != NULL && ref != NULL, 0);
	if (!self->prepared) {
		self->validated = FALSE;
		dra_alloc__prepare(self);
	}
	if (ref->pools == NULL || ref->epoch != self->pools_epoch) {
		ref->pools = dra_pools__for_node(self, node);
		ref->epoch = self->pools_epoch;
	}
	np = ref->pools;
	if (np->sig_shape == 0) {
		np->sig_shape = shape_of(self, np);
		np->sig = 0;
	}
	if (np->sig_shape == SIG_NONE) {
		return 0;
	}
	/* node-local pools only: np->gen counts every change of their allocated state */
	if (np->sig == 0 || np->sig_gen != np->gen) {
		np->sig = state_of(self, np);
		np->sig_gen = np->gen;
	}
	return np->sig;
}

guint64
dra_allocator_get_state_changes(const DraAllocator *self)
{
	/* two counters that only grow: equal sums mean neither moved */
	return self->state_changes + self->pools_epoch;
}

/* Whether program @prog may have read a node's own value. */
static gboolean
prog_reads_node_values(DraAllocator *self, guint prog)
{
	const DraProgRec *p;

	if (prog == G_MAXUINT) {
		return FALSE; /* an empty selector: an error, never evaluated */
	}
	p = g_ptr_array_index(self->progs, prog);
	if (p->compile_error != NULL) {
		return FALSE;
	}
	return self->ops.reads_node_values == NULL ||
	       self->ops.reads_node_values(self->ops_data, p->handle);
}

/* Some device of the last call's pools has attributes of its own. */
static gboolean
pools_have_node_values(DraAllocator *self)
{
	const DraNodePools *np = self->pools;

	for (guint i = 0; np != NULL && i < np->pools->len; i++) {
		const DraPoolRec *p = g_ptr_array_index(np->pools, i);

		for (guint j = 0; j < p->slices->len; j++) {
			const DraSlice *s = g_array_index(self->slice_recs, DraSliceRec,
			                                  g_array_index(p->slices, guint, j))
			                            .slice;

			for (guint k = 0; k < s->n_devices; k++) {
				if (s->devices[k].n_node_attributes > 0) {
					return TRUE;
				}
			}
		}
	}
	return FALSE;
}

/*
 * Why this is exact: the search reads devices' attributes only through CEL
 * (each program says whether any evaluation so far read a per-node value; the
 * flag is sticky, so one that did in an earlier call, whose result the
 * per-device cache now holds, still counts) and through constraints. An
 * evaluation that read no per-node value read only what the signature keys,
 * so it follows the same path on the same device of any node of the same
 * signature and gives the same result; then so does the whole search.
 */
gboolean
dra_allocator_answer_reads_node_values(DraAllocator *self)
{
	if (!self->validated) {
		return TRUE; /* validation per node ("All" requests) or not done */
	}
	for (guint i = 0; i < self->rd->len; i++) {
		const DraReqData *rd = &g_array_index(self->rd, DraReqData, i);

		for (guint k = 0; rd->klass != NULL && k < rd->klass->progs->len; k++) {
			if (prog_reads_node_values(self,
			                           g_array_index(rd->klass->progs, guint, k))) {
				return TRUE;
			}
		}
	}
	for (guint i = 0; i < self->req_progs->len; i++) {
		if (prog_reads_node_values(self, g_array_index(self->req_progs, guint, i))) {
			return TRUE;
		}
	}
	for (guint c = 0; c < self->n_claims; c++) {
		if (self->claims[c]->n_constraints > 0 && pools_have_node_values(self)) {
			return TRUE;
		}
	}
	return FALSE;
}
