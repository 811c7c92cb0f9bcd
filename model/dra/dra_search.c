/*
 * dra_search.c: the depth-first backtracking search (allocateOne and
 * allocateDevice of structured/internal/experimental/allocator_experimental.go,
 * release 1.34).
 *
 * Slots are claim -> request (or one of its sub-requests) -> device number.
 * Candidates come in pool order, then slice order, then device order; the
 * first complete solution wins. Production quirks kept here, each counted in
 * DraStats: counters not released after a later failed check, devices left
 * marked when the capacity re-check fails, the re-check reading the device at
 * the request's device index, and "All" recursion dropping the sub-request index.
 * The filter timeout is a budget of allocateOne invocations, checked where
 * upstream checks its context: first thing in every invocation.
 */
#include <string.h>

#include "dra-private.h"

enum {
	SEARCH_ERROR = -1,
	SEARCH_NOT_DONE = 0,
	SEARCH_DONE = 1,
	SEARCH_MAX_SIZE = 2, /* errAllocationResultMaxSizeExceeded */
	SEARCH_TIMEOUT = 3,  /* out of steps: "filter operation aborted" */
};

typedef struct {
	guint claim;
	guint rd;
	guint dev;
	gboolean multi;
	guint prev_results;
	guint consumed_base;
	guint n_consumed;
	gboolean has_consumed;
} Undo;

static guint
rd_of(DraAllocator *self, guint claim, guint request)
{
	guint base = g_array_index(self->claim_rd_base, guint, claim);
	return g_array_index(self->rd_index, guint, base + request);
}

static GArray *
claim_results(DraAllocator *self, guint claim)
{
	return g_ptr_array_index(self->results, claim);
}

static void
touch_id(DraAllocator *self, guint id)
{
	guint64 *mask = &g_array_index(self->allocating, guint64, id);
	if (*mask == 0) {
		g_array_append_val(self->touched_ids, id);
	}
}

static gboolean
allocating_for_claim(DraAllocator *self, guint id, guint claim)
{
	return (g_array_index(self->allocating, guint64, id) >> claim) & 1u;
}

static gboolean
in_use(DraAllocator *self, guint id)
{
	return self->allocated->data[id] != 0 || g_array_index(self->allocating, guint64, id) != 0;
}

static gboolean
tolerates(const DraToleration *t, const DraTaint *taint)
{
	/* resourceclaim.ToleratesTaint */
	if (t->key != NULL && t->key[0] != '\0' && g_strcmp0(t->key, taint->key) != 0) {
		return FALSE;
	}
	if (t->effect != NULL && t->effect[0] != '\0' && g_strcmp0(t->effect, taint->effect) != 0) {
		return FALSE;
	}
	const char *op = t->op != NULL ? t->op : "";
	if (op[0] == '\0' || strcmp(op, "Equal") == 0) {
		return g_strcmp0(t->value != NULL ? t->value : "",
		                 taint->value != NULL ? taint->value : "") == 0;
	}
	return strcmp(op, "Exists") == 0;
}

static gboolean
taint_prevents(DraAllocator *self, const DraDevRec *d, const DraExactRequest *req)
{
	for (guint i = 0; i < d->n_taints; i++) {
		const DraTaint *taint = &g_array_index(self->taints, DraTaint, d->taint_base + i);
		const char *effect = taint->effect != NULL ? taint->effect : "";
		if (strcmp(effect, "NoSchedule") != 0 && strcmp(effect, "NoExecute") != 0) {
			continue; /* unknown effects (and None) do not prevent allocation */
		}
		gboolean ok = FALSE;
		for (guint j = 0; j < req->n_tolerations && !ok; j++) {
			ok = tolerates(&req->tolerations[j], taint);
		}
		if (!ok) {
			return TRUE;
		}
	}
	return FALSE;
}

static void
new_share_id(DraAllocator *self, char *out)
{
	guint32 w[4];
	for (guint i = 0; i < 4; i++) {
		w[i] = g_rand_int(self->rand);
	}
	w[1] = (w[1] & 0xffff0fffu) | 0x00004000u; /* version 4 */
	w[2] = (w[2] & 0x3fffffffu) | 0x80000000u; /* RFC 4122 variant */
	g_snprintf(out, 40, "%08x-%04x-%04x-%04x-%04x%08x", w[0], w[1] >> 16, w[1] & 0xffffu,
	           w[2] >> 16, w[2] & 0xffffu, w[3]);
}

/*
 * allocateDevice's checks before the device joins the claim: in use, counters,
 * taints. FALSE when the device is not usable; *@counted says whether
 * checkAvailableCounters added the device's counters (a quirk leaks them when
 * a later check fails).
 */
static gboolean
device_available(DraAllocator *self,
                 guint claim,
                 DraReqData *rd,
                 guint dev,
                 gboolean admin,
                 gboolean multi,
                 gboolean *counted)
{
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);

	*counted = FALSE;
	if (!multi && admin && allocating_for_claim(self, d->id, claim)) {
		rd->in_use++;
		return FALSE;
	}
	if (!admin && in_use(self, d->id)) {
		rd->in_use++;
		return FALSE;
	}
	if (!self->features.partitionable_devices && d->device->n_consumes_counters > 0) {
		rd->no_counters++;
		return FALSE;
	}
	/*
	 * Every allocation checks and adds the device's counters, a
	 * multi-allocatable device's too, each time it is picked (release-1.34
	 * allocateDevice; the skip for devices whose capacity is already in use
	 * came later upstream). Found by tests/property.
	 */
	if (d->device->n_consumes_counters > 0) {
		if (!dra_counters__check(self, dev)) {
			rd->no_counters++;
			return FALSE;
		}
		*counted = d->n_cons > 0;
	}
	if (self->features.device_taints && taint_prevents(self, d, rd->req)) {
		/* Quirk: checkAvailableCounters already added the device's counters. */
		self->stats.quirk_counters_leaked += *counted;
		rd->tainted++;
		return FALSE;
	}
	return TRUE;
}

/*
 * Adds the device to every constraint of the claim. Returns 1 added, 0 one
 * rejected it (the ones before are undone), -1 error when the device @must fit.
 */
static int
add_to_constraints(
        DraAllocator *self, guint claim, DraReqData *rd, guint dev, gboolean must, gboolean counted)
{
	GArray *states = g_ptr_array_index(self->constraints, claim);

	for (guint i = 0; i < states->len; i++) {
		DraConstraintState *st = &g_array_index(states, DraConstraintState, i);
		if (dra_constraint__add(self, st, rd, dev)) {
			continue;
		}
		self->stats.constraint_rejections++;
		rd->constraint++;
		rd->constraint_name = st->name;
		if (must) {
			const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
			const DraIdRec *id = &g_array_index(self->id_recs, DraIdRec, d->id);
			dra_alloc__set_error(
			        self,
			        "claim %s, request %s: cannot add device %s/%s/%s because "
			        "a claim constraint would not be satisfied",
			        dra_alloc__claim_name(self, claim),
			        rd->is_sub ? rd->subname : rd->name, id->driver, id->pool,
			        id->device);
			return -1;
		}
		for (guint e = 0; e < i; e++) {
			dra_constraint__remove(&g_array_index(states, DraConstraintState, e), rd);
		}
		self->stats.quirk_counters_leaked += counted;
		return 0;
	}
	return 1;
}

/*
 * Consumable capacity: re-checks that the request fits and, on a device that
 * allows multiple allocations, consumes it under a new share ID in @res.
 * Returns 1 fits, 0 does not, -1 error.
 */
static int
take_capacity(DraAllocator *self,
              DraReqData *rd,
              guint devidx,
              guint dev,
              gboolean multi,
              gboolean counted,
              DraInternalResult *res)
{
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
	guint target = dev;

	if (self->quirks.capacity_recheck_by_request_index) {
		/* Quirk: the re-check reads slice.Spec.Devices[r.deviceIndex]. */
		const DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec, d->slice);
		if (devidx >= sr->slice->n_devices) {
			dra_alloc__set_error(self,
			                     "runtime error: index out of range [%u] with "
			                     "length %u",
			                     devidx, sr->slice->n_devices);
			return -1;
		}
		target = sr->dev_base + devidx;
		self->stats.quirk_capacity_recheck += target != dev;
	}
	if (!dra_capacity__fits(self, rd->req, target)) {
		/* Quirk: the device stays marked and in the constraints. */
		self->stats.quirk_device_marked_on_fail++;
		self->stats.quirk_counters_leaked += counted;
		rd->no_capacity++;
		return 0;
	}
	if (multi) {
		res->consumed_base = dra_capacity__consume(self, rd->req, dev, &res->n_consumed);
		res->has_share_id = TRUE;
		new_share_id(self, res->share_id);
	}
	return 1;
}

/*
 * allocateDevice. Returns 1 allocated (@undo filled), 0 not usable, -1 error.
 * @devidx is the position of the device within its request (r.deviceIndex).
 */
static int
allocate_device(DraAllocator *self,
                guint claim,
                guint rdi,
                guint devidx,
                guint dev,
                gboolean must,
                Undo *undo)
{
	DraReqData *rd = &g_array_index(self->rd, DraReqData, rdi);
	const DraExactRequest *req = rd->req;
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
	gboolean admin = req->has_admin_access && req->admin_access;
	gboolean multi =
	        self->features.consumable_capacity && d->device->allow_multiple_allocations;
	gboolean counted;

	if (!device_available(self, claim, rd, dev, admin, multi, &counted)) {
		return 0;
	}
	int added = add_to_constraints(self, claim, rd, dev, must, counted);
	if (added <= 0) {
		return added;
	}
	if (!multi) {
		touch_id(self, d->id);
		g_array_index(self->allocating, guint64, d->id) |= (guint64)1 << claim;
	}

	DraInternalResult res = { 0 };
	res.dev = dev;
	res.rd = rdi;
	res.admin_access = admin;
	if (self->features.consumable_capacity) {
		int fits = take_capacity(self, rd, devidx, dev, multi, counted, &res);
		if (fits <= 0) {
			return fits;
		}
	}
	GArray *results = claim_results(self, claim);
	undo->claim = claim;
	undo->rd = rdi;
	undo->dev = dev;
	undo->multi = multi;
	undo->prev_results = results->len;
	undo->consumed_base = res.consumed_base;
	undo->n_consumed = res.n_consumed;
	undo->has_consumed = res.n_consumed > 0;
	g_array_append_val(results, res);
	return 1;
}

static void
deallocate(DraAllocator *self, const Undo *undo)
{
	const DraReqData *rd = &g_array_index(self->rd, DraReqData, undo->rd);
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, undo->dev);
	GArray *states = g_ptr_array_index(self->constraints, undo->claim);

	for (guint i = 0; i < states->len; i++) {
		dra_constraint__remove(&g_array_index(states, DraConstraintState, i), rd);
	}
	g_array_index(self->allocating, guint64, d->id) &= ~((guint64)1 << undo->claim);
	if (undo->multi) {
		if (undo->has_consumed) {
			dra_capacity__release(self, undo->dev, undo->consumed_base,
			                      undo->n_consumed);
		}
		/* Quirk: counters of multi-allocatable devices are not released. */
		self->stats.quirk_counters_leaked += d->n_cons > 0;
	} else if (self->features.partitionable_devices && d->device->n_consumes_counters > 0) {
		dra_counters__release(self, undo->dev);
	}
	g_array_set_size(claim_results(self, undo->claim), undo->prev_results);
	self->stats.backtracks++;
}

static int allocate_one(DraAllocator *self,
                        guint claim,
                        guint request,
                        guint sub,
                        guint devidx,
                        gboolean allocate_sub);

/* Is @dev consistent with every matchAttribute constraint that has a first device? */
static gboolean
fits_constraints(DraAllocator *self, GArray *states, const DraReqData *rd, guint dev)
{
	for (guint i = 0; i < states->len; i++) {
		DraConstraintState *st = &g_array_index(states, DraConstraintState, i);
		if (st->n_devices == 0) {
			continue;
		}
		/* add() on a scratch copy answers without changing the real state */
		DraConstraintState probe = *st;
		if (!dra_constraint__add(self, &probe, rd, dev)) {
			return FALSE;
		}
	}
	return TRUE;
}

/*
 * Pruning by counting (only with dra_allocator_set_prune): the devices that
 * could still serve this claim (free, selectable for a remaining request,
 * consistent with the matchAttribute constraints so far) are fewer than the
 * devices it still needs, so the subtree cannot succeed. It is used only when
 * the subtree cannot end in anything else: no admin access, no "All", no
 * invalid pool, no distinctAttribute or request-scoped constraint, no
 * counters or consumable capacity, no way to reach the 32-result limit, and
 * every (request, device) selector answer already known, so that no CEL error
 * could surface below. Returns TRUE when the subtree can be skipped.
 */
static gboolean
cannot_fit(DraAllocator *self, guint claim, guint request, guint rdi, guint devidx)
{
	const DraClaim *c = self->claims[claim];
	GArray *states = g_ptr_array_index(self->constraints, claim);
	const DraReqData *cur = &g_array_index(self->rd, DraReqData, rdi);
	guint need = cur->num_devices - devidx;
	guint most = need;
	guint first_rd = rdi;
	guint last_rd = rdi;

	if (self->any_admin || self->features.partitionable_devices ||
	    self->features.consumable_capacity) {
		return FALSE;
	}
	for (guint i = 0; i < states->len; i++) {
		const DraConstraintState *st = &g_array_index(states, DraConstraintState, i);
		if (st->kind != DRA_CONSTRAINT_MATCH || st->spec->n_requests > 0) {
			return FALSE;
		}
	}
	for (guint r = request + 1; r < c->n_requests; r++) {
		guint first = rd_of(self, claim, r);
		const DraReqData *rd = &g_array_index(self->rd, DraReqData, first);
		guint lo = G_MAXUINT;
		guint hi = 0;
		for (guint sidx = 0; sidx < rd->n_subs; sidx++) {
			const DraReqData *sub = rd + sidx;
			if (sub->all_mode) {
				return FALSE;
			}
			lo = MIN(lo, sub->num_devices);
			hi = MAX(hi, sub->num_devices);
		}
		need += lo;
		most += hi;
		last_rd = first + rd->n_subs - 1;
	}
	if (claim_results(self, claim)->len + most > DRA_MAX_RESULTS) {
		return FALSE;
	}
	guint candidates = 0;
	for (guint p = 0; p < self->pools->pools->len; p++) {
		const DraPoolRec *pool = g_ptr_array_index(self->pools->pools, p);
		if (pool->invalid) {
			return FALSE;
		}
		for (guint j = 0; j < pool->slices->len; j++) {
			guint si = g_array_index(pool->slices, guint, j);
			const DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec, si);
			for (guint k = 0; k < sr->slice->n_devices; k++) {
				guint dev = sr->dev_base + k;
				guint id = g_array_index(self->dev_recs, DraDevRec, dev).id;
				if (in_use(self, id)) {
					continue; /* the search skips it before any evaluation */
				}
				gboolean usable = FALSE;
				for (guint q = first_rd; q <= last_rd; q++) {
					guint32 v =
					        g_array_index(self->match_cache, guint32,
					                      (gsize)q * self->dev_recs->len + dev);
					if ((v >> 2) != self->stamp) {
						return FALSE; /* unknown: an error could still come
						               */
					}
					usable = usable || (v & 3u) == DRA_CACHE_TRUE;
				}
				if (usable && fits_constraints(self, states, cur, dev)) {
					candidates++;
				}
			}
		}
	}
	if (candidates >= need) {
		return FALSE;
	}
	self->stats.pruned++;
	return TRUE;
}

static int
allocate_subrequests(DraAllocator *self, guint claim, guint request, guint devidx)
{
	guint first = rd_of(self, claim, request);
	guint n_subs = g_array_index(self->rd, DraReqData, first).n_subs;
	gboolean all_exceeded = TRUE;

	for (guint s = 0; s < n_subs; s++) {
		int r = allocate_one(self, claim, request, s, devidx, TRUE);
		if (r == SEARCH_MAX_SIZE) {
			continue; /* a later sub-request may need fewer devices */
		}
		all_exceeded = FALSE;
		if (r == SEARCH_ERROR || r == SEARCH_TIMEOUT) {
			return r;
		}
		if (r == SEARCH_DONE) {
			g_array_index(self->rd, DraReqData, first).selected_sub = s;
			return r;
		}
	}
	return all_exceeded ? SEARCH_MAX_SIZE : SEARCH_NOT_DONE;
}

static int
allocate_all(DraAllocator *self,
             guint claim,
             guint request,
             guint rdi,
             guint devidx,
             gboolean allocate_sub)
{
	const DraReqData *rd = &g_array_index(self->rd, DraReqData, rdi);
	guint dev = g_array_index(self->all_devices, guint, rd->all_base + devidx);
	Undo undo;

	self->stats.devices_tried++;
	g_array_index(self->rd, DraReqData, rdi).tried++;
	int ok = allocate_device(self, claim, rdi, devidx, dev, TRUE, &undo);
	if (ok <= 0) {
		return ok < 0 ? SEARCH_ERROR : SEARCH_NOT_DONE;
	}
	/* Quirk (upstream): the recursion drops the sub-request index. */
	self->stats.quirk_all_subrequest_index += rd->is_sub && rd->sub != 0;
	int r = allocate_one(self, claim, request, 0, devidx + 1, allocate_sub);
	if (r != SEARCH_DONE) {
		deallocate(self, &undo);
		return r; /* NOT_DONE, or ERROR, MAX_SIZE, TIMEOUT: give up here */
	}
	return r;
}

static int
try_candidate(DraAllocator *self,
              guint claim,
              guint request,
              guint sub,
              guint devidx,
              gboolean allocate_sub,
              guint rdi,
              guint dev,
              guint ordinal)
{
	DraReqData *rd = &g_array_index(self->rd, DraReqData, rdi);
	const DraExactRequest *req = rd->req;
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
	gboolean admin = req->has_admin_access && req->admin_access;
	Undo undo;

	self->stats.devices_tried++;
	rd->tried++;
	/* checking "in use" is cheap and done first */
	if (admin ? allocating_for_claim(self, d->id, claim) : in_use(self, d->id)) {
		if (!admin && self->allocated->data[d->id]) {
			rd->in_use++;
		} else {
			rd->picked++;
		}
		return SEARCH_NOT_DONE;
	}
	int sel = dra_validate__selectable(self, rdi, rd, dev);
	if (sel < 0) {
		return SEARCH_ERROR;
	}
	if (sel == 0) {
		rd->no_match++;
		return SEARCH_NOT_DONE;
	}
	if (self->features.consumable_capacity && !dra_capacity__fits(self, req, dev)) {
		rd->no_capacity++;
		return SEARCH_NOT_DONE;
	}
	int ok = allocate_device(self, claim, rdi, devidx, dev, FALSE, &undo);
	if (ok < 0) {
		return SEARCH_ERROR;
	}
	if (ok == 0) {
		return SEARCH_NOT_DONE;
	}
	GArray *results = claim_results(self, claim);
	g_array_index(results, DraInternalResult, results->len - 1).ordinal = ordinal;
	int r = allocate_one(self, claim, request, sub, devidx + 1, allocate_sub);
	if (r == SEARCH_DONE) {
		return r;
	}
	deallocate(self, &undo);
	return r; /* NOT_DONE: next candidate; ERROR, MAX_SIZE or TIMEOUT: give up here */
}

/*
 * The candidates for one slot of a request that is not "All": every device of
 * the node's pools in search order, until one leads to a complete solution.
 */
static int
try_candidates(DraAllocator *self,
               guint claim,
               guint request,
               guint sub,
               guint devidx,
               gboolean allocate_sub,
               guint rdi)
{
	/*
	 * Pruning (off by default): the devices of one request are a set, so with
	 * order-independent checks only sets in search order need trying. The
	 * previous device of this request is the last result.
	 */
	guint skip_to = 0;
	if (self->prune && devidx > 0 && !self->features.partitionable_devices &&
	    !self->features.consumable_capacity) {
		GArray *results = claim_results(self, claim);
		const DraInternalResult *prev =
		        &g_array_index(results, DraInternalResult, results->len - 1);
		skip_to = prev->rd == rdi ? prev->ordinal + 1 : 0;
	}
	if (self->prune && cannot_fit(self, claim, request, rdi, devidx)) {
		return SEARCH_NOT_DONE;
	}
	guint ordinal = 0;
	GPtrArray *pools = self->pools->pools;
	for (guint p = 0; p < pools->len; p++) {
		const DraPoolRec *pool = g_ptr_array_index(pools, p);
		if (pool->invalid) {
			dra_alloc__set_error(self, "pool %s is invalid: %s", pool->pool,
			                     pool->invalid_reason);
			return SEARCH_ERROR;
		}
		for (guint j = 0; j < pool->slices->len; j++) {
			guint si = g_array_index(pool->slices, guint, j);
			const DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec, si);
			guint n = sr->slice->n_devices;
			if (ordinal + n <= skip_to) {
				ordinal += n;
				continue;
			}
			for (guint k = 0; k < n; k++, ordinal++) {
				if (ordinal < skip_to) {
					continue;
				}
				int r = try_candidate(self, claim, request, sub, devidx,
				                      allocate_sub, rdi, sr->dev_base + k, ordinal);
				if (r != SEARCH_NOT_DONE) {
					return r;
				}
			}
		}
	}
	return SEARCH_NOT_DONE;
}

static int
allocate_one(DraAllocator *self,
             guint claim,
             guint request,
             guint sub,
             guint devidx,
             gboolean allocate_sub)
{
	self->stats.allocate_one_calls++;
	/*
	 * upstream: numAllocateOneInvocations.Add(1), then ctx.Err() != nil ends
	 * the search. A compare and a decrement; no bound is G_MAXUINT64 steps.
	 */
	if (G_UNLIKELY(self->steps_left == 0)) {
		return SEARCH_TIMEOUT;
	}
	self->steps_left--;
	if (claim >= self->n_claims) {
		return SEARCH_DONE;
	}
	if (request >= self->claims[claim]->n_requests) {
		int r = allocate_one(self, claim + 1, 0, 0, 0, FALSE);
		/* a different allocation of earlier claims might still help */
		return r == SEARCH_MAX_SIZE ? SEARCH_NOT_DONE : r;
	}
	guint rdi = rd_of(self, claim, request) + sub;
	const DraReqData *rd = &g_array_index(self->rd, DraReqData, rdi);
	if (!allocate_sub && rd->is_sub) {
		return allocate_subrequests(self, claim, request, devidx);
	}
	if (rd->all_mode && rd->n_all == 0) {
		return SEARCH_NOT_DONE; /* "All" needs at least one device */
	}
	if (devidx >= rd->num_devices) {
		return allocate_one(self, claim, request + 1, 0, 0, FALSE);
	}
	if (claim_results(self, claim)->len + rd->num_devices - devidx > DRA_MAX_RESULTS) {
		return SEARCH_MAX_SIZE;
	}
	if (rd->all_mode) {
		return allocate_all(self, claim, request, rdi, devidx, allocate_sub);
	}
	return try_candidates(self, claim, request, sub, devidx, allocate_sub, rdi);
}

void
dra_search__build_reason(DraAllocator *self)
{
	const DraReqData *worst = NULL;

	/* the deepest slot that was tried is where the search got stuck */
	for (guint i = 0; i < self->rd->len; i++) {
		const DraReqData *rd = &g_array_index(self->rd, DraReqData, i);
		if (rd->tried > 0 || (rd->all_mode && rd->n_all == 0) || worst == NULL) {
			worst = rd;
		}
	}
	if (worst == NULL) {
		self->reason = g_strdup("no claims to allocate");
		return;
	}
	GString *s = g_string_new(NULL);
	g_string_append_printf(s,
	                       "claim %s, request %s: ", dra_alloc__claim_name(self, worst->claim),
	                       worst->name);
	if (worst->all_mode && worst->n_all == 0) {
		g_string_append_printf(s,
		                       "no device matches class %s and the request's "
		                       "selectors",
		                       worst->klass->klass->name);
	} else {
		g_string_append_printf(s, "%u candidates tried", worst->tried);
		if (worst->no_match > 0 && worst->rejected_by_class) {
			g_string_append_printf(
			        s, ", %u ruled out by selectors (last: class %s selector #%u `%s`)",
			        worst->no_match, worst->klass->klass->name, worst->rejected_index,
			        worst->rejected_by);
		} else if (worst->no_match > 0 && worst->rejected_by != NULL) {
			g_string_append_printf(
			        s, ", %u ruled out by selectors (last: request selector #%u `%s`)",
			        worst->no_match, worst->rejected_index, worst->rejected_by);
		} else if (worst->no_match > 0) {
			g_string_append_printf(s, ", %u ruled out by selectors or node selection",
			                       worst->no_match);
		}
		if (worst->in_use > 0) {
			g_string_append_printf(s, ", %u allocated to other claims", worst->in_use);
		}
		if (worst->picked > 0) {
			g_string_append_printf(s, ", %u already picked for this pod",
			                       worst->picked);
		}
		if (worst->constraint > 0) {
			g_string_append_printf(s, ", %u rejected by constraint on %s",
			                       worst->constraint, worst->constraint_name);
		}
		if (worst->no_counters > 0) {
			g_string_append_printf(s, ", %u without enough shared counters",
			                       worst->no_counters);
		}
		if (worst->tainted > 0) {
			g_string_append_printf(s, ", %u with an untolerated taint", worst->tainted);
		}
		if (worst->no_capacity > 0) {
			g_string_append_printf(s, ", %u without enough capacity",
			                       worst->no_capacity);
		}
		g_string_append_printf(s, "; %u needed", worst->num_devices);
	}
	self->reason = g_string_free(s, FALSE);
}

int
dra_search__run(DraAllocator *self)
{
	self->steps_left = self->step_budget > 0 ? self->step_budget : G_MAXUINT64;
	int r = allocate_one(self, 0, 0, 0, 0, FALSE);

	if (r == SEARCH_ERROR) {
		return -1;
	}
	if (r == SEARCH_TIMEOUT) {
		/* upstream: "filter operation aborted: context deadline exceeded" */
		return 2;
	}
	if (r == SEARCH_MAX_SIZE) {
		/* upstream returns errAllocationResultMaxSizeExceeded as the error */
		dra_alloc__set_error(self, "allocation max size exceeded");
		return -1;
	}
	if (r != SEARCH_DONE) {
		/* the reason is built on demand: most unschedulable answers are never read */
		self->reason_pending = TRUE;
		return 0;
	}
	return 1;
}
