/*
 * dra_allocate.c: one Allocate call on one node.
 *
 * The memo answers first when it can; otherwise the call resets the per-call
 * arrays (touching only what the last call touched), gathers the node's pools,
 * validates the claims (once for all nodes when no request depends on the
 * node), searches, and leaves results and reason to be built when read.
 */
#include <string.h>

#include "dra-private.h"

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
 * (dra_alloc__memo_replay); an answer that ran out of steps has neither to replay.
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
	 * The memo first: a hit needs no per-call reset (dra_alloc__replay resets
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
void
dra_alloc__replay(DraAllocator *self)
{
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
	dra_alloc__memo_replay(self);
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
dra_allocator_get_reason(DraAllocator *self)
{
	if (dra_allocator_timed_out(self)) {
		return DRA_TIMEOUT_REASON;
	}
	dra_alloc__memo_replay(self);
	if (self->reason_pending) {
		self->reason_pending = FALSE;
		dra_search__build_reason(self);
	}
	return self->reason;
}
