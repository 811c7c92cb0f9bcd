/*
 * dra_memo.c: the Filter memo. A scheduler asks the allocator the same
 * question over and over: the pods of one template have claims of one shape,
 * and between two cycles only the few nodes where a pod was placed or ended
 * changed. The search is deterministic, so an answer can be reused exactly
 * when neither the claims' shape nor the node's allocated state changed.
 *
 * - The shape is the claims' specs written out canonically (everything the
 *   search and validation read; not the claims' names, which only appear in
 *   reasons and errors) and interned to a small integer once per
 *   set_claims().
 * - The node's state is the sum of the generations of the slices in its
 *   pools; a slice's generation grows whenever one of its devices is marked
 *   allocated or free (dra_allocator_mark_allocated), so equal sums mean an
 *   unchanged state. Anything else that changes answers (inventory, classes,
 *   taint rules) rebuilds the node's pools and so drops its memo; settings
 *   (quirks, pruning) bump an epoch.
 * - Each node keeps DRA_MEMO_WAYS answers, replaced round-robin, with the
 *   statistics the search added (selector evaluations too: they count what
 *   production evaluates per call, whatever the per-device caches hold).
 */
#include <string.h>

#include "dra-private.h"

/* the statistics are added and subtracted as an array of counters */
G_STATIC_ASSERT(sizeof(DraStats) % sizeof(guint64) == 0);

static guint stats_hash(gconstpointer key);
static gboolean stats_equal(gconstpointer a, gconstpointer b);

void
dra_memo__init(DraAllocator *self)
{
	self->shapes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->shape_text = g_string_new(NULL);
	self->last_shape_text = g_string_new(NULL);
	self->memo_deltas = g_array_new(FALSE, TRUE, sizeof(DraStats));
	self->memo_uses = g_array_new(FALSE, TRUE, sizeof(guint64));
	self->memo_delta_index = g_hash_table_new_full(stats_hash, stats_equal, g_free, NULL);
	self->sig_ids = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->sig_text = g_string_new(NULL);
}

void
dra_memo__free(DraAllocator *self)
{
	g_hash_table_unref(self->shapes);
	g_string_free(self->shape_text, TRUE);
	g_string_free(self->last_shape_text, TRUE);
	g_array_unref(self->memo_deltas);
	g_array_unref(self->memo_uses);
	g_hash_table_unref(self->memo_delta_index);
	g_free(self->memo_dirty);
	g_hash_table_unref(self->sig_ids);
	g_string_free(self->sig_text, TRUE);
}

void
dra_allocator_set_node_labels_func(DraAllocator *self, DraNodeLabelsFunc func, gpointer data)
{
	self->labels_func = func;
	self->labels_data = data;
}

const DraNode *
dra_alloc__labeled(DraAllocator *self, const DraNode *node)
{
	if (node == NULL || node->label_keys != NULL || self->labels_func == NULL) {
		return node;
	}
	if (node != &self->labeled) {
		self->labeled = *node;
		self->labels_func(self->labels_data, &self->labeled);
	}
	return &self->labeled;
}

void
dra_allocator_set_memo(DraAllocator *self, gboolean on)
{
	self->memo_on = on;
	self->memo_epoch++;
}

/* An integer field, in decimal then ';' (no printf: this runs once per cycle). */
void
dra_memo__put_int(GString *s, gint64 value)
{
	char buf[24];
	guint n = sizeof(buf);
	guint64 u = value < 0 ? 0 - (guint64)value : (guint64)value;

	buf[--n] = ';';
	do {
		buf[--n] = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (value < 0) {
		buf[--n] = '-';
	}
	g_string_append_len(s, buf + n, (gssize)(sizeof(buf) - n));
}

/* A string field: NULL and "" differ, and no text can run into the next field. */
void
dra_memo__put_str(GString *s, const char *text)
{
	if (text == NULL) {
		g_string_append_c(s, '\x01');
		return;
	}
	gsize len = strlen(text);
	dra_memo__put_int(s, (gint64)len);
	g_string_append_len(s, text, (gssize)len);
}

#define put_int dra_memo__put_int
#define put_str dra_memo__put_str

static void
put_exact(GString *s, const DraExactRequest *r)
{
	put_str(s, r->name);
	put_str(s, r->device_class_name);
	put_int(s, r->n_selectors);
	for (guint i = 0; i < r->n_selectors; i++) {
		put_str(s, r->selectors[i]);
	}
	put_str(s, r->allocation_mode);
	put_int(s, r->count);
	put_int(s, r->has_admin_access * 2 + (r->admin_access != 0));
	put_int(s, r->n_tolerations);
	for (guint i = 0; i < r->n_tolerations; i++) {
		put_str(s, r->tolerations[i].key);
		put_str(s, r->tolerations[i].op);
		put_str(s, r->tolerations[i].value);
		put_str(s, r->tolerations[i].effect);
	}
	put_int(s, r->has_capacity);
	put_int(s, r->n_capacity_requests);
	for (guint i = 0; i < r->n_capacity_requests; i++) {
		put_str(s, r->capacity_requests[i].name);
		put_int(s, r->capacity_requests[i].value);
	}
}

void
dra_memo__put_strs(GString *s, const char *const *names, guint n)
{
	put_int(s, n);
	for (guint i = 0; i < n; i++) {
		put_str(s, names[i]);
	}
}

static void
put_claim(GString *s, const DraClaim *c)
{
	put_int(s, c->n_requests);
	for (guint r = 0; r < c->n_requests; r++) {
		const DraRequest *req = &c->requests[r];
		put_str(s, req->name);
		put_int(s, req->has_exactly);
		if (req->has_exactly) {
			put_exact(s, &req->exactly);
		}
		put_int(s, req->n_first_available);
		for (guint i = 0; i < req->n_first_available; i++) {
			put_exact(s, &req->first_available[i]);
		}
	}
	put_int(s, c->n_constraints);
	for (guint i = 0; i < c->n_constraints; i++) {
		dra_memo__put_strs(s, c->constraints[i].requests, c->constraints[i].n_requests);
		put_str(s, c->constraints[i].match_attribute);
		put_str(s, c->constraints[i].distinct_attribute);
	}
	put_int(s, c->n_config);
	for (guint i = 0; i < c->n_config; i++) {
		const DraOpaqueConfig *o = c->config[i].opaque;
		dra_memo__put_strs(s, c->config[i].requests, c->config[i].n_requests);
		put_str(s, o != NULL ? o->driver : NULL);
		put_str(s, o != NULL ? o->parameters : NULL);
	}
}

/* The id of the current claims' shape (once per set_claims; allocates only for a new shape). */
static guint
current_shape(DraAllocator *self)
{
	GString *s = self->shape_text;

	if (self->shape != 0) {
		return self->shape;
	}
	g_string_truncate(s, 0);
	put_int(s, self->n_claims);
	for (guint c = 0; c < self->n_claims; c++) {
		put_claim(s, self->claims[c]);
	}
	/* consecutive pods mostly ask the same: a compare costs less than hashing the text */
	if (self->last_shape != 0 && s->len == self->last_shape_text->len &&
	    memcmp(s->str, self->last_shape_text->str, s->len) == 0) {
		self->shape = self->last_shape;
		return self->shape;
	}
	gpointer id = g_hash_table_lookup(self->shapes, s->str);
	if (id == NULL) {
		id = GUINT_TO_POINTER(g_hash_table_size(self->shapes) + 1);
		g_hash_table_insert(self->shapes, g_strdup(s->str), id);
	}
	self->shape = GPOINTER_TO_UINT(id);
	self->last_shape = self->shape;
	g_string_assign(self->last_shape_text, s->str);
	return self->shape;
}

/*
 * The node's state: its own slices' changes plus, when it sees slices without
 * nodeName, every change in those (shared by all nodes, so counted once).
 * The sum of two counters that only grow is equal only if neither moved.
 */
static guint64
node_gen(const DraAllocator *self, const DraNodePools *np)
{
	return np->gen + (np->shared ? self->shared_gen : 0);
}

void
dra_memo__slice_changed(DraAllocator *self, guint slice)
{
	const DraSlice *s = g_array_index(self->slice_recs, DraSliceRec, slice).slice;

	self->state_changes++;

	if (s->node_name == NULL || s->node_name[0] == '\0') {
		self->shared_gen++;
		return;
	}
	/* a node-local slice is in the pools of its node only (if gathered yet) */
	DraNodePools *np = g_hash_table_lookup(self->pools_by_node, s->node_name);
	if (np != NULL) {
		np->gen++;
	}
}

/* @times more uses of delta @id, listed in memo_dirty when they are its first since a fold. */
static void
add_uses(DraAllocator *self, guint id, guint64 times)
{
	guint64 *uses = &g_array_index(self->memo_uses, guint64, id);

	if (*uses == 0 && times > 0) {
		self->memo_dirty[self->n_memo_dirty++] = id;
	}
	*uses += times;
}

/*
 * Only the deltas used since the last fold (memo_dirty): the statistics are
 * read twice per class answer (cluster_dra__filter_shared), and a pass over
 * every distinct delta each time cost more than the answer. Integer sums: the
 * order they are added in does not matter.
 */
void
dra_memo__fold_stats(DraAllocator *self)
{
	guint64 *t = (guint64 *)(void *)&self->stats;

	for (guint j = 0; j < self->n_memo_dirty; j++) {
		guint i = self->memo_dirty[j];
		guint64 *uses = &g_array_index(self->memo_uses, guint64, i);
		const guint64 *d = (const guint64 *)(const void *)&g_array_index(self->memo_deltas,
		                                                                 DraStats, i);
		for (guint k = 0; k < sizeof(DraStats) / sizeof(guint64); k++) {
			t[k] += d[k] * *uses;
		}
		*uses = 0;
	}
	self->n_memo_dirty = 0;
}

int
dra_memo__lookup(DraAllocator *self, guint64 *gen_out)
{
	DraNodePools *np = self->pools;

	if (!self->memo_on || !np->memo_ok || !self->validated ||
	    self->features.consumable_capacity) {
		return DRA_MEMO_OFF;
	}
	guint shape = current_shape(self);
	guint64 gen = node_gen(self, np);
	*gen_out = gen;
	for (guint i = 0; i < DRA_MEMO_WAYS; i++) {
		const DraMemoEntry *e = &np->memo[i];
		if (e->shape != shape || e->gen != gen || e->epoch != self->memo_epoch) {
			continue;
		}
		/* the skipped search's counts, as if it had run (dra_memo__fold_stats) */
		add_uses(self, e->delta, 1);
		self->stats.memo_hits++;
		return (int)e->outcome;
	}
	return DRA_MEMO_MISS;
}

static guint
stats_hash(gconstpointer key)
{
	const guint64 *v = key;
	guint64 h = 0;

	for (guint k = 0; k < sizeof(DraStats) / sizeof(guint64); k++) {
		h = (h ^ v[k]) * G_GUINT64_CONSTANT(0x100000001b3);
	}
	return (guint)(h ^ (h >> 32));
}

static gboolean
stats_equal(gconstpointer a, gconstpointer b)
{
	return memcmp(a, b, sizeof(DraStats)) == 0;
}

/* The index of @delta in the table of distinct deltas (allocates only for a new one). */
guint
dra_allocator_intern_stats(DraAllocator *self, const DraStats *delta)
{
	gpointer v = g_hash_table_lookup(self->memo_delta_index, delta);

	if (v != NULL) {
		return GPOINTER_TO_UINT(v) - 1;
	}
	guint64 zero = 0;
	g_array_append_val(self->memo_deltas, *delta);
	g_array_append_val(self->memo_uses, zero);
	/* memo_dirty lists each delta at most once */
	self->memo_dirty = g_renew(guint, self->memo_dirty, self->memo_deltas->len);
	g_hash_table_insert(self->memo_delta_index, g_memdup2(delta, sizeof(*delta)),
	                    GUINT_TO_POINTER(self->memo_deltas->len));
	return self->memo_deltas->len - 1;
}

void
dra_memo__store(DraAllocator *self, guint64 gen, guint answer, const DraStats *before)
{
	DraNodePools *np = self->pools;
	DraMemoEntry *e = NULL;
	DraStats delta;

	for (guint i = 0; i < DRA_MEMO_WAYS && e == NULL; i++) {
		if (np->memo[i].shape == self->shape) {
			e = &np->memo[i]; /* a newer state of the same question */
		}
	}
	if (e == NULL) {
		e = &np->memo[np->memo_next];
		np->memo_next = (np->memo_next + 1) % DRA_MEMO_WAYS;
	}
	const guint64 *a = (const guint64 *)(const void *)&self->stats;
	const guint64 *b = (const guint64 *)(const void *)before;
	guint64 *d = (guint64 *)(void *)&delta;
	for (guint k = 0; k < sizeof(DraStats) / sizeof(guint64); k++) {
		d[k] = a[k] - b[k];
	}
	delta.allocate_calls = 0;
	delta.memo_hits = 0;
	e->shape = self->shape;
	e->epoch = self->memo_epoch;
	e->gen = gen;
	e->outcome = answer;
	e->delta = dra_allocator_intern_stats(self, &delta);
}

/* Folded into the statistics when they are read (dra_memo__fold_stats), like memo hits. */
void
dra_allocator_add_stats(DraAllocator *self, guint id, guint64 times)
{
	g_return_if_fail(id < self->memo_uses->len);
	add_uses(self, id, times);
	self->stats.class_answers += times;
}
