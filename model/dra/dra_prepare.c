/*
 * dra_prepare.c: indexes the inventory once after it changes.
 *
 * Device IDs are interned to ints, counters and taints (with the taint rules
 * applied) resolved to array ranges, classes and selectors compiled, and the
 * allocated state projected onto the ids (dra_state.c). A call then only
 * resets per-call arrays and searches.
 */
#include <string.h>

#include "dra-private.h"

void
dra_alloc__clear_prepared(DraAllocator *self)
{
	dra_alloc__flush_result(self); /* the pending answer reads the prepared indexes */
	for (guint i = 0; i < self->dev_recs->len; i++) {
		DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, i);
		if (d->view != NULL && self->has_ops && self->ops.free_view != NULL) {
			self->ops.free_view(self->ops_data, d->view);
		}
	}
	dra_array_clear(self->slice_recs);
	dra_array_clear(self->dev_recs);
	dra_array_clear(self->id_recs);
	g_hash_table_remove_all(self->id_by_key);
	dra_array_clear(self->cons);
	dra_array_clear(self->taints);
	dra_array_clear(self->counter_avail);
	dra_array_clear(self->counter_used);
	g_hash_table_remove_all(self->class_by_name);
	g_ptr_array_set_size(self->class_recs, 0);
	g_hash_table_remove_all(self->node_slices);
	dra_array_clear(self->shared_slices);
	g_hash_table_remove_all(self->pools_by_node);
	if (self->ptr_caches_used) {
		memset(self->pools_cache, 0, sizeof(self->pools_cache));
		memset(self->class_cache, 0, sizeof(self->class_cache));
		self->ptr_caches_used = FALSE;
	}
	self->pools_epoch++;
	self->validated = FALSE;
	/* compiled programs survive; their device caches are indexed by DevRec */
	for (guint i = 0; i < self->progs->len; i++) {
		DraProgRec *p = g_ptr_array_index(self->progs, i);
		g_byte_array_set_size(p->cache, 0);
	}
	self->prepared = FALSE;
}

static guint
intern_id(DraAllocator *self, const char *driver, const char *pool, const char *device)
{
	char *key = dra_alloc__id_key(driver, pool, device);
	gpointer v = g_hash_table_lookup(self->id_by_key, key);

	if (v != NULL) {
		g_free(key);
		return GPOINTER_TO_UINT(v) - 1;
	}
	DraIdRec rec = { driver, pool, device, G_MAXUINT };
	g_array_append_val(self->id_recs, rec);
	g_hash_table_insert(self->id_by_key, key, GUINT_TO_POINTER(self->id_recs->len));
	return self->id_recs->len - 1;
}

guint
dra_alloc__prog(DraAllocator *self, const char *expression)
{
	gpointer v = g_hash_table_lookup(self->prog_by_expr, expression);
	if (v != NULL) {
		return GPOINTER_TO_UINT(v) - 1;
	}

	DraProgRec *p = g_new0(DraProgRec, 1);
	g_autoptr(GError) error = NULL;
	p->cache = g_byte_array_new();
	if (!self->has_ops) {
		p->compile_error = g_strdup("no selector evaluator configured");
	} else {
		p->handle = self->ops.compile(self->ops_data, expression, &error);
		if (p->handle == NULL) {
			p->compile_error =
			        g_strdup(error != NULL ? error->message : "compile failed");
		}
	}
	g_ptr_array_add(self->progs, p);
	g_hash_table_insert(self->prog_by_expr, g_strdup(expression),
	                    GUINT_TO_POINTER(self->progs->len));
	return self->progs->len - 1;
}

static void
prepare_counters(DraAllocator *self, DraSliceRec *sr, DraDevRec *dr)
{
	const DraSlice *s = sr->slice;
	const DraDevice *d = dr->device;

	dr->cons_base = self->cons->len;
	for (guint c = 0; c < d->n_consumes_counters; c++) {
		const DraCounterConsumption *cc = &d->consumes_counters[c];
		guint base = sr->counter_base;
		for (guint set = 0; set < s->n_shared_counters; set++) {
			const DraCounterSet *cs = &s->shared_counters[set];
			if (g_strcmp0(cs->name, cc->counter_set) != 0) {
				base += cs->n_counters;
				continue;
			}
			/* consumption of an unknown counter is ignored (validation rejects it) */
			for (guint k = 0; k < cc->n_counters; k++) {
				for (guint j = 0; j < cs->n_counters; j++) {
					if (g_strcmp0(cs->counters[j].name, cc->counters[k].name) ==
					    0) {
						DraConsRec rec = { base + j,
							           cc->counters[k].value };
						g_array_append_val(self->cons, rec);
					}
				}
			}
			break;
		}
	}
	dr->n_cons = self->cons->len - dr->cons_base;
}

/* Evaluates @expression on a device while preparing; errors count as "no match". */
static gboolean
prepare_eval(DraAllocator *self, const char *expression, DraDevRec *dr, const char *driver)
{
	/* the index first: dra_alloc__prog may grow (move) progs->pdata, and the
	 * macro could read pdata before the call */
	guint index = dra_alloc__prog(self, expression);
	DraProgRec *p = g_ptr_array_index(self->progs, index);
	const char *message = NULL;

	if (p->compile_error != NULL) {
		return FALSE;
	}
	self->stats.selector_evaluations++;
	return self->ops.eval(self->ops_data, p->handle, dr->device, driver, &dr->view, &message) ==
	       DRA_MATCH_TRUE;
}

/*
 * The scheduler applies DeviceTaintRules to the slices it hands the allocator:
 * a rule taints the devices its selector picks (driver, pool, device, the
 * selectors of deviceClassName and its own CEL selectors).
 */
static gboolean
taint_rule_applies(DraAllocator *self, const DraTaintRule *rule, const DraSlice *s, DraDevRec *dr)
{
	const DraDevice *d = dr->device;

	if ((rule->driver != NULL && g_strcmp0(rule->driver, s->driver) != 0) ||
	    (rule->pool != NULL && g_strcmp0(rule->pool, s->pool) != 0) ||
	    (rule->device != NULL && g_strcmp0(rule->device, d->name) != 0)) {
		return FALSE;
	}
	if (rule->device_class_name != NULL) {
		DraClassRec *c = g_hash_table_lookup(self->class_by_name, rule->device_class_name);
		if (c == NULL) {
			return FALSE;
		}
		for (guint i = 0; i < c->klass->n_selectors; i++) {
			if (c->klass->selectors[i] == NULL ||
			    !prepare_eval(self, c->klass->selectors[i], dr, s->driver)) {
				return FALSE;
			}
		}
	}
	for (guint i = 0; i < rule->n_selectors; i++) {
		if (rule->selectors[i] == NULL ||
		    !prepare_eval(self, rule->selectors[i], dr, s->driver)) {
			return FALSE;
		}
	}
	return TRUE;
}

static void
prepare_slices(DraAllocator *self)
{
	for (guint i = 0; i < self->slices->len; i++) {
		const DraSlice *s = g_ptr_array_index(self->slices, i);
		DraSliceRec sr = { 0 };

		sr.slice = s;
		sr.dev_base = self->dev_recs->len;
		sr.counter_base = self->counter_avail->len;
		for (guint set = 0; set < s->n_shared_counters; set++) {
			sr.n_counters += s->shared_counters[set].n_counters;
		}
		g_array_set_size(self->counter_avail, sr.counter_base + sr.n_counters);
		g_array_set_size(self->counter_used, sr.counter_base + sr.n_counters);
		for (guint j = 0; j < s->n_devices; j++) {
			const DraDevice *d = &s->devices[j];
			DraDevRec dr = { 0 };
			dr.device = d;
			dr.slice = i;
			dr.id = intern_id(self, s->driver, s->pool, d->name);
			/* chain the DevRecs sharing an id (duplicates), newest first */
			DraIdRec *idr = &g_array_index(self->id_recs, DraIdRec, dr.id);
			dr.next_same_id = idr->first_dev;
			idr->first_dev = self->dev_recs->len;
			prepare_counters(self, &sr, &dr);
			dr.taint_base = self->taints->len;
			g_array_append_vals(self->taints, d->taints, d->n_taints);
			for (guint r = 0; r < self->taint_rules->len; r++) {
				const DraTaintRule *rule = g_ptr_array_index(self->taint_rules, r);
				if (taint_rule_applies(self, rule, s, &dr)) {
					g_array_append_val(self->taints, rule->taint);
				}
			}
			dr.n_taints = self->taints->len - dr.taint_base;
			if (d->n_binding_conditions > 0) {
				sr.has_binding = TRUE;
			}
			g_array_append_val(self->dev_recs, dr);
		}
		g_array_append_val(self->slice_recs, sr);

		if (s->node_name != NULL && s->node_name[0] != '\0') {
			GArray *list = g_hash_table_lookup(self->node_slices, s->node_name);
			if (list == NULL) {
				list = g_array_new(FALSE, FALSE, sizeof(guint));
				g_hash_table_insert(self->node_slices, (gpointer)s->node_name,
				                    list);
			}
			g_array_append_val(list, i);
		} else {
			g_array_append_val(self->shared_slices, i);
		}
	}
}

static void
prepare_classes(DraAllocator *self)
{
	for (guint i = 0; i < self->classes->len; i++) {
		const DraClass *k = g_ptr_array_index(self->classes, i);
		if (k->name == NULL || g_hash_table_contains(self->class_by_name, k->name)) {
			continue;
		}
		DraClassRec *rec = g_new0(DraClassRec, 1);
		rec->klass = k;
		rec->progs = g_array_new(FALSE, FALSE, sizeof(guint));
		for (guint j = 0; j < k->n_selectors; j++) {
			guint p = k->selectors[j] != NULL ? dra_alloc__prog(self, k->selectors[j])
			                                  : G_MAXUINT;
			g_array_append_val(rec->progs, p);
		}
		g_ptr_array_add(self->class_recs, rec);
		g_hash_table_insert(self->class_by_name, (gpointer)k->name, rec);
	}
}

void
dra_alloc__prepare(DraAllocator *self)
{
	if (self->prepared) {
		return;
	}
	dra_alloc__clear_prepared(self);
	prepare_classes(self);
	prepare_slices(self);
	for (guint i = 0; i < self->progs->len; i++) {
		DraProgRec *p = g_ptr_array_index(self->progs, i);
		g_byte_array_set_size(p->cache, self->dev_recs->len);
		if (p->cache->len > 0) {
			memset(p->cache->data, 0, p->cache->len);
		}
	}
	dra_alloc__prepare_allocated(self);
	self->prepared = TRUE;
}
