/*
 * dra_alloc.c: the DraAllocator object: its life cycle, feature gates and
 * settings, the inventory it is given, and its statistics.
 *
 * The work is elsewhere: dra_prepare.c indexes the inventory once after it
 * changes, dra_state.c keeps what is allocated, dra_allocate.c answers one
 * Allocate call per node (validation, memo, search, result building).
 */
#include <string.h>

#include "dra-private.h"

G_DEFINE_QUARK(dra - error - quark, dra_error)

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

/* The seven allocator gates by name; gate_offsets[] is in the same order. */
static const char *const gate_names[] = {
	"DRAAdminAccess",
	"DRAPrioritizedList",
	"DRAPartitionableDevices",
	"DRADeviceTaints",
	"DRADeviceBindingConditions",
	"DRAResourceClaimDeviceStatus",
	"DRAConsumableCapacity",
	NULL,
};
static const gsize gate_offsets[] = {
	G_STRUCT_OFFSET(DraFeatures, admin_access),
	G_STRUCT_OFFSET(DraFeatures, prioritized_list),
	G_STRUCT_OFFSET(DraFeatures, partitionable_devices),
	G_STRUCT_OFFSET(DraFeatures, device_taints),
	G_STRUCT_OFFSET(DraFeatures, device_binding),
	G_STRUCT_OFFSET(DraFeatures, device_status),
	G_STRUCT_OFFSET(DraFeatures, consumable_capacity),
};
G_STATIC_ASSERT(G_N_ELEMENTS(gate_names) == G_N_ELEMENTS(gate_offsets) + 1);

const char *const *
dra_feature_names(void)
{
	return gate_names;
}

gboolean
dra_features_set(DraFeatures *self, const char *name, gboolean value)
{
	for (guint i = 0; i < G_N_ELEMENTS(gate_offsets); i++) {
		if (strcmp(gate_names[i], name) == 0) {
			G_STRUCT_MEMBER(gboolean, self, gate_offsets[i]) = value;
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
	dra_alloc__clear_prepared(self);
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
	dra_alloc__memo_replay(self); /* a pending memo answer is searched with the old ones */
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
	dra_alloc__memo_replay(self);
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
	dra_alloc__memo_replay(self); /* a pending memo answer is searched with the old budget */
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
	dra_alloc__clear_prepared(self);
}

void
dra_allocator_add_class(DraAllocator *self, const DraClass *klass)
{
	g_ptr_array_add(self->classes, (gpointer)klass);
	dra_alloc__clear_prepared(self);
}

void
dra_allocator_add_taint_rule(DraAllocator *self, const DraTaintRule *rule)
{
	g_ptr_array_add(self->taint_rules, (gpointer)rule);
	dra_alloc__clear_prepared(self);
}

void
dra_allocator_remove_taint_rule(DraAllocator *self, const DraTaintRule *rule)
{
	/* g_ptr_array_remove keeps the order of the other rules */
	if (g_ptr_array_remove(self->taint_rules, (gpointer)rule)) {
		dra_alloc__clear_prepared(self);
	}
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
