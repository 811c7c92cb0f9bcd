/*
 * dra_alloc.c: the DraAllocator object: inventory, prepared indexes, allocated
 * state and the per-call entry point.
 *
 * Preparation happens once after the inventory changes: device IDs are
 * interned to ints, counters and taints resolved to array ranges, classes and
 * selectors compiled. dra_allocator_allocate() then only resets per-call arrays
 * (kept between calls) and runs validation, search and result building.
 */
#include <string.h>

#include "dra-private.h"

G_DEFINE_QUARK(dra - error - quark, dra_error)

static void memo_replay(DraAllocator *self);

DraFeatures
dra_features_default(void)
{
	/* Kubernetes 1.34: beta gates on, alpha gates off (reference section 1) */
	DraFeatures f = {
		.admin_access = TRUE,
		.prioritized_list = TRUE,
		.partitionable_devices = FALSE,
		.device_taints = FALSE,
		.device_binding = FALSE,
		.device_status = TRUE,
		.consumable_capacity = FALSE,
	};
	return f;
}

DraFeatures
dra_features_none(void)
{
	DraFeatures f = { 0 };
	return f;
}

gboolean
dra_features_set(DraFeatures *self, const char *name, gboolean value)
{
	static const struct {
		const char *name;
		gsize offset;
	} gates[] = {
		{ "DRAAdminAccess", G_STRUCT_OFFSET(DraFeatures, admin_access) },
		{ "DRAPrioritizedList", G_STRUCT_OFFSET(DraFeatures, prioritized_list) },
		{ "DRAPartitionableDevices", G_STRUCT_OFFSET(DraFeatures, partitionable_devices) },
		{ "DRADeviceTaints", G_STRUCT_OFFSET(DraFeatures, device_taints) },
		{ "DRADeviceBindingConditions", G_STRUCT_OFFSET(DraFeatures, device_binding) },
		{ "DRAResourceClaimDeviceStatus", G_STRUCT_OFFSET(DraFeatures, device_status) },
		{ "DRAConsumableCapacity", G_STRUCT_OFFSET(DraFeatures, consumable_capacity) },
	};

	for (guint i = 0; i < G_N_ELEMENTS(gates); i++) {
		if (strcmp(gates[i].name, name) == 0) {
			G_STRUCT_MEMBER(gboolean, self, gates[i].offset) = value;
			return TRUE;
		}
	}
	return FALSE;
}

static void
prog_free(gpointer data)
{
	DraProgRec *p = data;
	g_free(p->compile_error);
	g_byte_array_unref(p->cache);
	g_free(p);
}

static void
class_rec_free(gpointer data)
{
	DraClassRec *c = data;
	g_array_unref(c->progs);
	g_free(c);
}

static void
agg_clear(gpointer data)
{
	g_free(((DraAggEntry *)data)->key);
}

static void
garray_unref0(gpointer data)
{
	if (data != NULL) {
		g_array_unref(data);
	}
}

DraAllocator *
dra_allocator_new(const DraFeatures *features, const DraSelectorOps *ops, gpointer ops_data)
{
	DraAllocator *self = g_new0(DraAllocator, 1);

	self->features = *features;
	self->quirks.capacity_recheck_by_request_index = TRUE;
	self->quirks.stale_subrequest_key = TRUE;
	if (ops != NULL) {
		self->ops = *ops;
		self->has_ops = TRUE;
	}
	self->ops_data = ops_data;
	self->rand = g_rand_new_with_seed(1);
	self->slices = g_ptr_array_new();
	self->classes = g_ptr_array_new();
	self->taint_rules = g_ptr_array_new();
	self->slice_recs = g_array_new(FALSE, TRUE, sizeof(DraSliceRec));
	self->dev_recs = g_array_new(FALSE, TRUE, sizeof(DraDevRec));
	self->id_recs = g_array_new(FALSE, TRUE, sizeof(DraIdRec));
	self->id_by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->cons = g_array_new(FALSE, TRUE, sizeof(DraConsRec));
	self->taints = g_array_new(FALSE, TRUE, sizeof(DraTaint));
	self->counter_avail = g_array_new(FALSE, TRUE, sizeof(DraMilli));
	self->counter_used = g_array_new(FALSE, TRUE, sizeof(DraMilli));
	self->class_by_name = g_hash_table_new(g_str_hash, g_str_equal);
	self->class_recs = g_ptr_array_new_with_free_func(class_rec_free);
	self->prog_by_expr = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->progs = g_ptr_array_new_with_free_func(prog_free);
	self->node_slices = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, garray_unref0);
	self->shared_slices = g_array_new(FALSE, FALSE, sizeof(guint));
	self->pools_by_node =
	        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, dra_pools__free);
	self->subreq_names = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	self->allocated = g_byte_array_new();
	self->allocated_keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->aggregated_list = g_array_new(FALSE, TRUE, sizeof(DraAggEntry));
	g_array_set_clear_func(self->aggregated_list, agg_clear);
	self->aggregated = g_ptr_array_new_with_free_func(garray_unref0);
	self->rd = g_array_new(FALSE, TRUE, sizeof(DraReqData));
	self->rd_index = g_array_new(FALSE, TRUE, sizeof(guint));
	self->claim_rd_base = g_array_new(FALSE, TRUE, sizeof(guint));
	self->req_progs = g_array_new(FALSE, TRUE, sizeof(guint));
	self->all_devices = g_array_new(FALSE, TRUE, sizeof(guint));
	self->match_cache = g_array_new(FALSE, TRUE, sizeof(guint32));
	self->allocating = g_array_new(FALSE, TRUE, sizeof(guint64));
	self->touched_ids = g_array_new(FALSE, TRUE, sizeof(guint));
	self->inflight = g_array_new(FALSE, TRUE, sizeof(DraInflight));
	self->touched_slices = g_array_new(FALSE, TRUE, sizeof(guint));
	self->constraints = g_ptr_array_new();
	self->results = g_ptr_array_new();
	self->consumed = g_array_new(FALSE, TRUE, sizeof(DraConsumed));
	self->out_alloc = g_array_new(FALSE, TRUE, sizeof(DraAllocation));
	self->out_results = g_array_new(FALSE, TRUE, sizeof(DraDeviceResult));
	self->out_config = g_array_new(FALSE, TRUE, sizeof(DraConfigResult));
	self->out_names = g_ptr_array_new();
	self->out_terms = g_array_new(FALSE, TRUE, sizeof(DraNodeSelectorTerm));
	self->out_reqs = g_array_new(FALSE, TRUE, sizeof(DraNodeSelectorRequirement));
	self->out_selectors = g_array_new(FALSE, TRUE, sizeof(DraNodeSelector));
	self->out_offsets = g_array_new(FALSE, TRUE, sizeof(guint));
	self->layouts = g_array_new(FALSE, TRUE, sizeof(DraLayout));
	self->sel_fields = g_array_new(FALSE, FALSE, sizeof(gpointer));
	self->sel_exprs = g_array_new(FALSE, FALSE, sizeof(gpointer));
	self->scratch = g_string_new(NULL);
	self->node_name = g_string_new(NULL);
	dra_memo__init(self);
	return self;
}

static void
clear_prepared(DraAllocator *self)
{
	dra_alloc__flush_result(self); /* the pending answer reads the prepared indexes */
	for (guint i = 0; i < self->dev_recs->len; i++) {
		DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, i);
		if (d->view != NULL && self->has_ops && self->ops.free_view != NULL) {
			self->ops.free_view(self->ops_data, d->view);
		}
	}
	for (guint i = 0; i < self->id_recs->len; i++) {
		g_free(g_array_index(self->id_recs, DraIdRec, i).text);
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
	memset(self->pools_cache, 0, sizeof(self->pools_cache));
	self->pools_epoch++;
	memset(self->class_cache, 0, sizeof(self->class_cache));
	self->validated = FALSE;
	/* compiled programs survive; their device caches are indexed by DevRec */
	for (guint i = 0; i < self->progs->len; i++) {
		DraProgRec *p = g_ptr_array_index(self->progs, i);
		g_byte_array_set_size(p->cache, 0);
	}
	self->prepared = FALSE;
}

static void
constraints_free(DraAllocator *self)
{
	for (guint c = 0; c < self->constraints->len; c++) {
		g_array_unref(g_ptr_array_index(self->constraints, c));
	}
	g_ptr_array_set_size(self->constraints, 0);
}

void
dra_allocator_free(DraAllocator *self)
{
	if (self == NULL) {
		return;
	}
	self->result_pending = FALSE;
	self->memo_pending = FALSE;
	clear_prepared(self);
	dra_memo__free(self);
	for (guint i = 0; i < self->progs->len; i++) {
		DraProgRec *p = g_ptr_array_index(self->progs, i);
		if (p->handle != NULL && self->ops.free_program != NULL) {
			self->ops.free_program(self->ops_data, p->handle);
		}
	}
	constraints_free(self);
	for (guint c = 0; c < self->results->len; c++) {
		g_array_unref(g_ptr_array_index(self->results, c));
	}
	g_ptr_array_unref(self->results);
	g_ptr_array_unref(self->constraints);
	g_rand_free(self->rand);
	g_ptr_array_unref(self->slices);
	g_ptr_array_unref(self->classes);
	g_ptr_array_unref(self->taint_rules);
	g_array_unref(self->slice_recs);
	g_array_unref(self->dev_recs);
	g_array_unref(self->id_recs);
	g_hash_table_unref(self->id_by_key);
	g_array_unref(self->cons);
	g_array_unref(self->taints);
	g_array_unref(self->counter_avail);
	g_array_unref(self->counter_used);
	g_hash_table_unref(self->class_by_name);
	g_ptr_array_unref(self->class_recs);
	g_hash_table_unref(self->prog_by_expr);
	g_ptr_array_unref(self->progs);
	g_hash_table_unref(self->node_slices);
	g_array_unref(self->shared_slices);
	g_hash_table_unref(self->pools_by_node);
	g_hash_table_unref(self->subreq_names);
	g_byte_array_unref(self->allocated);
	g_hash_table_unref(self->allocated_keys);
	g_array_unref(self->aggregated_list);
	g_ptr_array_unref(self->aggregated);
	g_array_unref(self->rd);
	g_array_unref(self->rd_index);
	g_array_unref(self->claim_rd_base);
	g_array_unref(self->req_progs);
	g_array_unref(self->all_devices);
	g_array_unref(self->match_cache);
	g_array_unref(self->allocating);
	g_array_unref(self->touched_ids);
	g_array_unref(self->inflight);
	g_array_unref(self->touched_slices);
	g_array_unref(self->consumed);
	g_array_unref(self->out_alloc);
	g_array_unref(self->out_results);
	g_array_unref(self->out_config);
	g_ptr_array_unref(self->out_names);
	g_array_unref(self->out_terms);
	g_array_unref(self->out_reqs);
	g_array_unref(self->out_selectors);
	g_array_unref(self->out_offsets);
	g_array_unref(self->layouts);
	g_array_unref(self->sel_fields);
	g_array_unref(self->sel_exprs);
	g_string_free(self->scratch, TRUE);
	g_string_free(self->node_name, TRUE);
	g_free(self->error);
	g_free(self->reason);
	g_free(self);
}

void
dra_allocator_set_quirks(DraAllocator *self, const DraQuirks *quirks)
{
	memo_replay(self); /* a pending memo answer is searched with the old ones */
	self->quirks = *quirks;
	self->memo_epoch++;
}

void
dra_allocator_set_seed(DraAllocator *self, guint32 seed)
{
	g_rand_set_seed(self->rand, seed);
}

void
dra_allocator_set_prune(DraAllocator *self, gboolean on)
{
	memo_replay(self);
	self->prune = on;
	self->memo_epoch++;
}

guint64
dra_filter_timeout_steps(gint64 timeout_us)
{
	if (timeout_us <= 0) {
		return 0;
	}
	if ((guint64)timeout_us > G_MAXUINT64 / DRA_FILTER_STEPS_PER_SECOND) {
		return G_MAXUINT64;
	}
	/* at least one step: a positive timeout is a bound, never "no bound" */
	return MAX((guint64)timeout_us * DRA_FILTER_STEPS_PER_SECOND / G_USEC_PER_SEC, 1);
}

void
dra_allocator_set_step_budget(DraAllocator *self, guint64 steps)
{
	memo_replay(self); /* a pending memo answer is searched with the old budget */
	self->step_budget = steps;
	self->memo_epoch++; /* answers depend on the budget */
}

void
dra_allocator_set_result_tolerations(DraAllocator *self, gboolean on)
{
	self->result_tolerations = on;
}

void
dra_allocator_add_slice(DraAllocator *self, const DraSlice *slice)
{
	g_ptr_array_add(self->slices, (gpointer)slice);
	clear_prepared(self);
}

void
dra_allocator_add_class(DraAllocator *self, const DraClass *klass)
{
	g_ptr_array_add(self->classes, (gpointer)klass);
	clear_prepared(self);
}

void
dra_allocator_add_taint_rule(DraAllocator *self, const DraTaintRule *rule)
{
	g_ptr_array_add(self->taint_rules, (gpointer)rule);
	clear_prepared(self);
}

void
dra_allocator_remove_taint_rule(DraAllocator *self, const DraTaintRule *rule)
{
	/* g_ptr_array_remove keeps the order of the other rules */
	if (g_ptr_array_remove(self->taint_rules, (gpointer)rule)) {
		clear_prepared(self);
	}
}

static char *
id_key(const char *driver, const char *pool, const char *device)
{
	return g_strconcat(driver, "\x1f", pool, "\x1f", device, NULL);
}

/*
 * id_key() into @buf when it fits (else a new string left in *@heap): every
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
		return *heap = id_key(driver, pool, device);
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

static guint
intern_id(DraAllocator *self, const char *driver, const char *pool, const char *device)
{
	char *key = id_key(driver, pool, device);
	gpointer v = g_hash_table_lookup(self->id_by_key, key);

	if (v != NULL) {
		g_free(key);
		return GPOINTER_TO_UINT(v) - 1;
	}
	DraIdRec rec = { driver, pool, device, g_strdup_printf("%s/%s/%s", driver, pool, device),
		         G_MAXUINT };
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
static void
prepare_allocated(DraAllocator *self)
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
dra_alloc__prepare(DraAllocator *self)
{
	if (self->prepared) {
		return;
	}
	clear_prepared(self);
	prepare_classes(self);
	prepare_slices(self);
	for (guint i = 0; i < self->progs->len; i++) {
		DraProgRec *p = g_ptr_array_index(self->progs, i);
		g_byte_array_set_size(p->cache, self->dev_recs->len);
		if (p->cache->len > 0) {
			memset(p->cache->data, 0, p->cache->len);
		}
	}
	prepare_allocated(self);
	self->prepared = TRUE;
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

	memo_replay(self); /* a pending memo answer needs the state before */
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
	DraAggEntry e = { id_key(driver, pool, device), name, value };

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
	memo_replay(self);
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

void
dra_alloc__set_error(DraAllocator *self, const char *format, ...)
{
	va_list args;

	g_free(self->error);
	va_start(args, format);
	self->error = g_strdup_vprintf(format, args);
	va_end(args);
}

const char *
dra_alloc__claim_name(DraAllocator *self, guint claim)
{
	const DraClaim *c = self->claims[claim];

	/* klog.KObj: "namespace/name", or just the name without a namespace */
	g_string_truncate(self->scratch, 0);
	if (c->namespace_ != NULL && c->namespace_[0] != '\0') {
		g_string_append_printf(self->scratch, "%s/", c->namespace_);
	}
	g_string_append(self->scratch, c->name != NULL ? c->name : "");
	return self->scratch->str;
}

/* Resets what one call changed, touching only what was touched. */
static void
reset_call(DraAllocator *self)
{
	for (guint i = 0; i < self->touched_ids->len; i++) {
		guint id = g_array_index(self->touched_ids, guint, i);
		g_array_index(self->allocating, guint64, id) = 0;
	}
	dra_array_clear(self->touched_ids);
	dra_array_clear(self->inflight);
	for (guint i = 0; i < self->touched_slices->len; i++) {
		guint s = g_array_index(self->touched_slices, guint, i);
		DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec, s);
		for (guint k = 0; k < sr->n_counters; k++) {
			g_array_index(self->counter_used, DraMilli, sr->counter_base + k) = 0;
		}
	}
	dra_array_clear(self->touched_slices);
	dra_array_clear(self->consumed);
	if (self->validated) {
		/* same claims, node-independent validation: only reset what the search changes */
		for (guint i = 0; i < self->rd->len; i++) {
			DraReqData *rd = &g_array_index(self->rd, DraReqData, i);
			memset(&rd->selected_sub, 0,
			       sizeof(*rd) - G_STRUCT_OFFSET(DraReqData, selected_sub));
		}
		for (guint c = 0; c < self->constraints->len; c++) {
			GArray *states = g_ptr_array_index(self->constraints, c);
			for (guint i = 0; i < states->len; i++) {
				dra_constraint__clear(
				        &g_array_index(states, DraConstraintState, i));
			}
		}
	} else {
		dra_array_clear(self->rd);
		dra_array_clear(self->rd_index);
		dra_array_clear(self->claim_rd_base);
		dra_array_clear(self->req_progs);
		dra_array_clear(self->all_devices);
		for (guint c = 0; c < self->constraints->len; c++) {
			dra_array_clear(g_ptr_array_index(self->constraints, c));
		}
	}
	g_clear_pointer(&self->error, g_free);
	g_clear_pointer(&self->reason, g_free);
	self->reason_pending = FALSE;
	self->stamp++;
	if (self->stamp >= (G_MAXUINT32 >> 2)) {
		if (self->match_cache->len > 0) {
			memset(self->match_cache->data, 0,
			       self->match_cache->len * sizeof(guint32));
		}
		self->stamp = 1;
	}
}

/*
 * Pruning: when every device the node sees is held by another claim, no
 * request without admin access can succeed, and the search would skip every
 * candidate on its in-use check before evaluating anything, so the answer is
 * "unschedulable" without searching. Not with invalid pools (the search would
 * report them) nor with consumable capacity (shared devices are not "in use").
 */
static gboolean
node_is_full(DraAllocator *self)
{
	if (self->any_admin || self->min_total == 0 || self->features.consumable_capacity) {
		return FALSE;
	}
	for (guint p = 0; p < self->pools->pools->len; p++) {
		const DraPoolRec *pool = g_ptr_array_index(self->pools->pools, p);
		if (pool->invalid) {
			return FALSE;
		}
		for (guint j = 0; j < pool->slices->len; j++) {
			guint si = g_array_index(pool->slices, guint, j);
			const DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec, si);
			if (sr->n_allocated < sr->slice->n_devices) {
				return FALSE;
			}
		}
	}
	return TRUE;
}

void
dra_allocator_set_claims(DraAllocator *self, const DraClaim *const *claims, guint n_claims)
{
	/* the last answer's claims may be gone: its results end here */
	self->result_pending = FALSE;
	self->memo_pending = FALSE;
	dra_array_clear(self->out_alloc);
	self->claims = claims;
	self->n_claims = n_claims;
	self->validated = FALSE;
	self->shape = 0;
}

DraOutcome
dra_allocator_allocate(DraAllocator *self,
                       const DraNode *node,
                       const DraClaim *const *claims,
                       guint n_claims)
{
	dra_allocator_set_claims(self, claims, n_claims);
	return dra_allocator_allocate_on(self, node);
}

/* Validation depends on the node only through "All" requests (their device lists). */
static gboolean
validation_is_node_independent(DraAllocator *self)
{
	for (guint i = 0; i < self->rd->len; i++) {
		if (g_array_index(self->rd, DraReqData, i).all_mode) {
			return FALSE;
		}
	}
	return TRUE;
}

/* The search part of a call, after the pools are gathered and the claims validated. */
static DraOutcome
search_pools(DraAllocator *self)
{
	if (self->prune && node_is_full(self)) {
		self->reason_pending = TRUE;
		return DRA_OUTCOME_UNSCHEDULABLE;
	}
	int done = dra_search__run(self);
	if (done < 0) {
		return DRA_OUTCOME_ERROR;
	}
	if (done == 2) {
		/* a flag without a store per call: this call's number */
		self->timeout_call = self->stats.allocate_calls;
		return DRA_OUTCOME_UNSCHEDULABLE;
	}
	if (done == 0) {
		return DRA_OUTCOME_UNSCHEDULABLE;
	}
	if (!dra_result__check(self)) {
		return DRA_OUTCOME_ERROR;
	}
	self->result_pending = TRUE;
	return DRA_OUTCOME_ALLOCATED;
}

DraOutcome
dra_allocator_allocate_on(DraAllocator *self, const DraNode *node)
{
	return dra_allocator_allocate_on_ref(self, node, NULL);
}

/* The node's pools, through the caller's reference when it is still current. */
static DraNodePools *
pools_for(DraAllocator *self, const DraNode *node, DraNodeRef *ref)
{
	if (ref == NULL) {
		return dra_pools__for_node(self, node);
	}
	if (ref->pools == NULL || ref->epoch != self->pools_epoch) {
		ref->pools = dra_pools__for_node(self, node);
		ref->epoch = self->pools_epoch;
	}
	return ref->pools;
}

/*
 * Answers from the memo. Results and reason are searched for when read
 * (memo_replay); an answer that ran out of steps has neither to replay.
 */
static DraOutcome
memo_hit(DraAllocator *self, int memo)
{
	if (memo == DRA_ANSWER_TIMEOUT) {
		self->timeout_call = self->stats.allocate_calls;
		self->memo_pending = FALSE;
		self->reason_pending = FALSE;
		return DRA_OUTCOME_UNSCHEDULABLE;
	}
	self->memo_pending = TRUE;
	self->memo_outcome = (DraOutcome)memo;
	return self->memo_outcome;
}

DraOutcome
dra_allocator_allocate_on_ref(DraAllocator *self, const DraNode *node, DraNodeRef *ref)
{
	guint n_claims = self->n_claims;

	g_return_val_if_fail(self != NULL, DRA_OUTCOME_ERROR);

	/*
	 * The memo first: a hit needs no per-call reset (memo_replay resets
	 * before it searches), only claims validated for any node and the pools.
	 */
	int memo = DRA_MEMO_OFF;
	guint64 gen = 0;
	if (self->prepared && self->validated && self->memo_on) {
		DraNodePools *np = pools_for(self, node, ref);
		if (np->error == NULL) {
			self->pools = np;
			memo = dra_memo__lookup(self, &gen);
			if (memo >= 0) {
				self->stats.allocate_calls++;
				g_clear_pointer(&self->error, g_free);
				self->result_pending = FALSE;
				dra_array_clear(self->out_alloc);
				return memo_hit(self, memo);
			}
		}
	}
	if (!self->prepared) {
		self->validated = FALSE;
		dra_alloc__prepare(self);
	}
	self->memo_pending = FALSE;
	reset_call(self);
	self->stats.allocate_calls++;
	self->node = node;
	self->result_pending = FALSE;
	dra_array_clear(self->out_alloc);

	if (n_claims > DRA_MAX_CLAIMS) {
		dra_alloc__set_error(self, "drasim supports at most %d claims per Allocate call",
		                     DRA_MAX_CLAIMS);
		return DRA_OUTCOME_ERROR;
	}
	while (self->results->len < n_claims) {
		g_ptr_array_add(self->results, g_array_new(FALSE, TRUE, sizeof(DraInternalResult)));
	}
	for (guint c = 0; c < n_claims; c++) {
		dra_array_clear(g_ptr_array_index(self->results, c));
	}

	self->pools = pools_for(self, node, ref);
	if (self->pools->error != NULL) {
		dra_alloc__set_error(self, "gather pool information: %s", self->pools->error);
		return DRA_OUTCOME_ERROR;
	}
	if (!self->validated) {
		if (!dra_validate__claims(self)) {
			return DRA_OUTCOME_ERROR;
		}
		self->validated = validation_is_node_independent(self);
	}
	if (memo == DRA_MEMO_OFF) {
		memo = dra_memo__lookup(self, &gen);
	}
	if (memo >= 0) {
		return memo_hit(self, memo);
	}
	DraStats before = self->stats;
	DraOutcome outcome = search_pools(self);
	if (memo == DRA_MEMO_MISS && outcome != DRA_OUTCOME_ERROR) {
		/* deterministic like any answer: the budget is part of the memo epoch */
		dra_memo__store(self, gen,
		                dra_allocator_timed_out(self) ? DRA_ANSWER_TIMEOUT : outcome,
		                &before);
	}
	return outcome;
}

/*
 * The last answer came from the memo: run the search it stands for, on the
 * same pools with the same claims and allocated state, for its per-call
 * state (results, the reason's counters). Statistics were counted already.
 */
static void
memo_replay(DraAllocator *self)
{
	if (!self->memo_pending) {
		return;
	}
	self->memo_pending = FALSE;
	DraStats saved = self->stats;
	reset_call(self);
	for (guint c = 0; c < self->n_claims; c++) {
		dra_array_clear(g_ptr_array_index(self->results, c));
	}
	self->node = NULL; /* read only by per-device node selection, never memoised */
	DraOutcome outcome = search_pools(self);
	self->stats = saved;
	g_warn_if_fail(outcome == self->memo_outcome);
}

/*
 * Builds the last answer's results if nobody asked yet: Filter tries hundreds
 * of nodes and only reads the chosen one. Cannot fail: dra_result__check() passed.
 */
void
dra_alloc__flush_result(DraAllocator *self)
{
	memo_replay(self);
	if (self->result_pending) {
		self->result_pending = FALSE;
		(void)dra_result__build(self);
	}
}

const DraAllocation *
dra_allocator_get_allocation(DraAllocator *self, guint claim_index)
{
	dra_alloc__flush_result(self);
	if (claim_index >= self->out_alloc->len) {
		return NULL;
	}
	return &g_array_index(self->out_alloc, DraAllocation, claim_index);
}

const char *
dra_allocator_get_error(DraAllocator *self)
{
	return self->error;
}

gboolean
dra_allocator_timed_out(DraAllocator *self)
{
	return self->timeout_call != 0 && self->timeout_call == self->stats.allocate_calls;
}

const char *
dra_allocator_get_reason(DraAllocator *self)
{
	if (dra_allocator_timed_out(self)) {
		return DRA_TIMEOUT_REASON;
	}
	memo_replay(self);
	if (self->reason_pending) {
		self->reason_pending = FALSE;
		dra_search__build_reason(self);
	}
	return self->reason;
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

const DraStats *
dra_allocator_get_stats(DraAllocator *self)
{
	dra_memo__fold_stats(self);
	return &self->stats;
}

void
dra_allocator_reset_stats(DraAllocator *self)
{
	dra_memo__fold_stats(self);
	memset(&self->stats, 0, sizeof(self->stats));
	self->timeout_call = 0;
}
