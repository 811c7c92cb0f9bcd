/*
 * dra_validate.c: per-claim validation before the search, and isSelectable.
 *
 * Mirrors the first half of Allocate() and validateDeviceRequest() in
 * structured/internal/experimental/allocator_experimental.go (1.34): feature
 * checks, selector and class checks, ExactCount/All, the 32-device limit and
 * constraints, each with upstream's error text. "All" requests collect their
 * device list here, which is why CEL errors can already surface here.
 */
#include <string.h>

#include "dra-private.h"

static const char *
subreq_name(DraAllocator *self, const DraRequest *parent, const DraExactRequest *sub)
{
	char *name = g_hash_table_lookup(self->subreq_names, sub);
	gsize plen = strlen(parent->name);

	/* the pointer key is checked by content: the caller may reuse claim memory */
	if (name != NULL && (strncmp(name, parent->name, plen) != 0 || name[plen] != '/' ||
	                     strcmp(name + plen + 1, sub->name) != 0)) {
		name = NULL;
	}
	if (name == NULL) {
		name = g_strdup_printf("%s/%s", parent->name, sub->name);
		g_hash_table_insert(self->subreq_names, (gpointer)sub, name);
	}
	return name;
}

/*
 * A selector's result on a device, from the per-device cache when a call
 * before this one evaluated it. The cache is drasim's speed-up; what
 * production evaluates is counted by selectors_match().
 */
static DraMatch
eval_prog(DraAllocator *self, guint prog, guint dev, const char **message)
{
	DraProgRec *p = g_ptr_array_index(self->progs, prog);
	DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);

	if (p->compile_error != NULL) {
		*message = p->compile_error;
		return DRA_MATCH_ERROR;
	}
	if (p->cache->len <= dev) {
		/* programs compiled after preparation (claim selectors) start empty */
		guint old = p->cache->len;
		g_byte_array_set_size(p->cache, self->dev_recs->len);
		if (p->cache->len > old) {
			memset(p->cache->data + old, 0, p->cache->len - old);
		}
	}
	guint8 cached = p->cache->data[dev];
	if (cached != 0) {
		return cached == DRA_CACHE_TRUE ? DRA_MATCH_TRUE : DRA_MATCH_FALSE;
	}
	const DraSlice *s = g_array_index(self->slice_recs, DraSliceRec, d->slice).slice;
	DraMatch m =
	        self->ops.eval(self->ops_data, p->handle, d->device, s->driver, &d->view, message);
	if (m != DRA_MATCH_ERROR) {
		p->cache->data[dev] = m == DRA_MATCH_TRUE ? DRA_CACHE_TRUE : DRA_CACHE_FALSE;
	}
	return m;
}

/*
 * selectorsMatch: 1 all match, 0 one does not, -1 error (self->error set).
 *
 * stats.selector_evaluations counts what production evaluates: upstream's
 * allocator caches a device's match only within one Allocate call
 * (allocator_experimental.go isSelectable: the deviceMatchesRequest map is
 * made per call; the CEL cache keeps compiled programs, not results), so each
 * miss of the per-call match cache evaluates the selectors in order up to the
 * first that does not match. Counted whether or not drasim's per-device cache
 * answered, so that two nodes asked the same question in the same state count
 * the same. A selector that does not compile is never evaluated.
 */
static int
selectors_match(DraAllocator *self, const DraReqData *rd, gboolean for_class, guint dev)
{
	guint n = for_class ? rd->klass->progs->len : rd->n_progs;

	for (guint i = 0; i < n; i++) {
		guint prog = for_class ? g_array_index(rd->klass->progs, guint, i)
		                       : g_array_index(self->req_progs, guint, rd->prog_base + i);
		const char *message = NULL;
		DraMatch m;
		gboolean compile = FALSE;
		if (prog == G_MAXUINT) {
			m = DRA_MATCH_ERROR;
			message = "CEL expression empty";
			compile = TRUE;
		} else {
			DraProgRec *p = g_ptr_array_index(self->progs, prog);
			compile = p->compile_error != NULL;
			self->stats.selector_evaluations += !compile;
			m = eval_prog(self, prog, dev, &message);
		}
		if (m == DRA_MATCH_ERROR) {
			const char *what = compile ? "CEL compile error" : "CEL runtime error";
			if (for_class) {
				dra_alloc__set_error(self, "class %s: selector #%u: %s: %s",
				                     rd->klass->klass->name, i, what, message);
			} else {
				dra_alloc__set_error(self, "claim %s: selector #%u: %s: %s",
				                     dra_alloc__claim_name(self, rd->claim), i,
				                     what, message);
			}
			return -1;
		}
		if (m == DRA_MATCH_FALSE) {
			/* for the unschedulable reason (rd lives in self->rd) */
			DraReqData *w = (DraReqData *)rd;
			w->rejected_by =
			        for_class ? rd->klass->klass->selectors[i] : rd->req->selectors[i];
			w->rejected_by_class = for_class;
			w->rejected_index = i;
			return 0;
		}
	}
	return 1;
}

int
dra_validate__selectable(DraAllocator *self, guint rd_key, const DraReqData *rd, guint dev)
{
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
	const DraSlice *s = g_array_index(self->slice_recs, DraSliceRec, d->slice).slice;

	if (!(self->features.device_binding && self->features.device_status) &&
	    d->device->n_binding_conditions > 0) {
		return 0; /* devices with binding conditions need both gates */
	}
	guint32 *slot = &g_array_index(self->match_cache, guint32,
	                               (gsize)rd_key * self->dev_recs->len + dev);
	if ((*slot >> 2) == self->stamp) {
		return (*slot & 3u) == DRA_CACHE_TRUE;
	}

	int r = 1;
	if (rd->klass != NULL) {
		r = selectors_match(self, rd, TRUE, dev);
	}
	if (r == 1) {
		r = selectors_match(self, rd, FALSE, dev);
	}
	if (r < 0) {
		return -1;
	}
	if (r == 1 && s->per_device_node_selection) {
		gboolean m = FALSE;
		char *why = NULL;
		self->node = dra_alloc__labeled(self, self->node);
		if (!dra_node__matches(self->node, d->device->node_name, d->device->all_nodes,
		                       d->device->node_selector, &m, &why)) {
			dra_alloc__set_error(self, "%s", why);
			g_free(why);
			return -1;
		}
		r = m ? 1 : 0;
	}
	*slot = (self->stamp << 2) | (r == 1 ? DRA_CACHE_TRUE : DRA_CACHE_FALSE);
	return r;
}

/* The "All" device list; FALSE with self->error set. */
static gboolean
collect_all(DraAllocator *self, DraReqData *rd, guint rd_index, guint key)
{
	const char *claim = NULL;

	rd->all_base = self->all_devices->len;
	for (guint i = 0; i < self->pools->pools->len; i++) {
		DraPoolRec *p = g_ptr_array_index(self->pools->pools, i);
		if (p->incomplete || p->invalid) {
			claim = dra_alloc__claim_name(self, rd->claim);
			dra_alloc__set_error(self,
			                     "claim %s, request %s: asks for all devices, but "
			                     "resource pool %s/%s is currently %s",
			                     claim, rd->is_sub ? rd->subname : rd->name, p->driver,
			                     p->pool, p->incomplete ? "being updated" : "invalid");
			return FALSE;
		}
		for (guint j = 0; j < p->slices->len; j++) {
			guint si = g_array_index(p->slices, guint, j);
			DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec, si);
			for (guint k = 0; k < sr->slice->n_devices; k++) {
				guint dev = sr->dev_base + k;
				if (key != rd_index) {
					self->stats.quirk_stale_subrequest_key++;
				}
				int sel = dra_validate__selectable(self, key, rd, dev);
				if (sel < 0) {
					return FALSE;
				}
				if (sel == 0) {
					continue;
				}
				if (self->features.consumable_capacity &&
				    !dra_capacity__fits(self, rd->req, dev)) {
					continue;
				}
				g_array_append_val(self->all_devices, dev);
			}
		}
	}
	rd->n_all = self->all_devices->len - rd->all_base;
	rd->num_devices = rd->n_all;
	return TRUE;
}

/* validateDeviceRequest: fills rd (already appended at @rd_index). */
static gboolean
validate_request(DraAllocator *self, guint rd_index, guint key)
{
	DraReqData *rd = &g_array_index(self->rd, DraReqData, rd_index);
	const DraExactRequest *req = rd->req;
	const char *name = rd->is_sub ? rd->subname : rd->name;

	for (guint i = 0; i < req->n_selectors; i++) {
		if (req->selectors[i] == NULL) {
			dra_alloc__set_error(self,
			                     "claim %s, request %s, selector #%u: CEL expression "
			                     "empty (unsupported selector type?)",
			                     dra_alloc__claim_name(self, rd->claim), name, i);
			return FALSE;
		}
	}
	if (!self->features.admin_access && req->has_admin_access) {
		dra_alloc__set_error(self,
		                     "claim %s, request %s: admin access is requested, but the "
		                     "feature is disabled",
		                     dra_alloc__claim_name(self, rd->claim), name);
		return FALSE;
	}
	if (req->device_class_name == NULL || req->device_class_name[0] == '\0') {
		dra_alloc__set_error(self,
		                     "claim %s, request %s: missing device class name "
		                     "(unsupported request type?)",
		                     dra_alloc__claim_name(self, rd->claim), name);
		return FALSE;
	}
	/* the pointer cache is checked by name: the caller may reuse claim memory */
	DraPtrSlot *slot = &self->class_cache[dra_ptr_slot(req)];
	rd->klass = slot->key == req ? slot->value : NULL;
	if (rd->klass != NULL && strcmp(rd->klass->klass->name, req->device_class_name) != 0) {
		rd->klass = NULL;
	}
	if (rd->klass == NULL) {
		rd->klass = g_hash_table_lookup(self->class_by_name, req->device_class_name);
		if (rd->klass != NULL) {
			slot->key = req;
			slot->value = rd->klass;
			self->ptr_caches_used = TRUE;
		}
	}
	if (rd->klass == NULL) {
		dra_alloc__set_error(self,
		                     "claim %s, request %s: could not retrieve device class %s: "
		                     "deviceclass.resource.k8s.io \"%s\" not found",
		                     dra_alloc__claim_name(self, rd->claim), name,
		                     req->device_class_name, req->device_class_name);
		return FALSE;
	}
	if (req->has_admin_access && req->admin_access) {
		self->any_admin = TRUE;
	}
	rd->prog_base = self->req_progs->len;
	for (guint i = 0; i < req->n_selectors; i++) {
		guint p = dra_alloc__prog(self, req->selectors[i]);
		g_array_append_val(self->req_progs, p);
	}
	rd->n_progs = req->n_selectors;

	const char *mode = req->allocation_mode != NULL ? req->allocation_mode : "";
	if (strcmp(mode, "ExactCount") == 0) {
		rd->num_devices = req->count > 0 ? (guint)MIN(req->count, G_MAXINT) : 0;
		return TRUE;
	}
	if (strcmp(mode, "All") == 0) {
		rd->all_mode = TRUE;
		return collect_all(self, rd, rd_index, key);
	}
	dra_alloc__set_error(self, "claim %s, request %s: unsupported count mode %s",
	                     dra_alloc__claim_name(self, rd->claim), name, mode);
	return FALSE;
}

static guint
count_rd(const DraClaim *const *claims, guint n_claims)
{
	guint n = 0;

	for (guint c = 0; c < n_claims; c++) {
		for (guint r = 0; r < claims[c]->n_requests; r++) {
			n += MAX(1u, claims[c]->requests[r].n_first_available);
		}
	}
	return n;
}

static gboolean
capacity_feature_check(DraAllocator *self, guint c, const DraRequest *req)
{
	if (self->features.consumable_capacity) {
		return TRUE;
	}
	if (req->has_exactly && req->exactly.has_capacity) {
		dra_alloc__set_error(self,
		                     "claim %s, request %s: has capacity requests, but the "
		                     "DRAConsumableCapacity feature is disabled",
		                     dra_alloc__claim_name(self, c), req->name);
		return FALSE;
	}
	for (guint s = 0; s < req->n_first_available; s++) {
		if (req->first_available[s].has_capacity) {
			dra_alloc__set_error(self,
			                     "claim %s, subrequest %s: has capacity requests, but "
			                     "the DRAConsumableCapacity feature is disabled",
			                     dra_alloc__claim_name(self, c),
			                     req->first_available[s].name);
			return FALSE;
		}
	}
	return TRUE;
}

static const DraExactRequest empty_request = { 0 };

static gboolean
validate_claim_requests(DraAllocator *self, guint c, guint *min_out)
{
	const DraClaim *claim = self->claims[c];
	guint min_claim = 0;

	for (guint r = 0; r < claim->n_requests; r++) {
		const DraRequest *req = &claim->requests[r];
		gboolean has_subs = req->n_first_available > 0;
		guint first = self->rd->len;

		g_array_append_val(self->rd_index, first);
		if (!self->features.prioritized_list && has_subs) {
			dra_alloc__set_error(self,
			                     "claim %s, request %s: has subrequests, but the "
			                     "DRAPrioritizedList feature is disabled",
			                     dra_alloc__claim_name(self, c), req->name);
			return FALSE;
		}
		if (!capacity_feature_check(self, c, req)) {
			return FALSE;
		}
		guint n_subs = has_subs ? req->n_first_available : 1;
		guint min_req = G_MAXUINT;
		for (guint s = 0; s < n_subs; s++) {
			/* filled in place: the new element is zeroed by the array */
			g_array_set_size(self->rd, first + s + 1);
			DraReqData *rd = &g_array_index(self->rd, DraReqData, first + s);
			rd->parent = req;
			rd->claim = c;
			rd->request = r;
			rd->sub = s;
			rd->n_subs = n_subs;
			rd->is_sub = has_subs;
			if (has_subs) {
				rd->req = &req->first_available[s];
				rd->subname = rd->req->name;
				rd->name = subreq_name(self, req, rd->req);
			} else {
				rd->req = req->has_exactly ? &req->exactly : &empty_request;
				rd->name = req->name;
			}
			/*
			 * Quirk (allocator_experimental.go, 1.34): the request key's
			 * subRequestIndex is updated only after validateDeviceRequest,
			 * so sub-request s caches its "All" matches under s-1.
			 */
			guint key = first + s;
			if (self->quirks.stale_subrequest_key && s > 0) {
				key = first + s - 1;
			}
			if (!validate_request(self, first + s, key)) {
				return FALSE;
			}
			min_req = MIN(min_req,
			              g_array_index(self->rd, DraReqData, first + s).num_devices);
		}
		min_claim += min_req;
	}
	*min_out = min_claim;
	return TRUE;
}

gboolean
dra_validate__claims(DraAllocator *self)
{
	guint total_rd = count_rd(self->claims, self->n_claims);
	gsize need = (gsize)total_rd * self->dev_recs->len;

	if (self->match_cache->len < need) {
		g_array_set_size(self->match_cache, need);
	}
	self->any_admin = FALSE;
	self->min_total = 0;
	for (guint c = 0; c < self->n_claims; c++) {
		const DraClaim *claim = self->claims[c];
		guint base = self->rd_index->len;
		guint min_claim = 0;

		g_array_append_val(self->claim_rd_base, base);
		if (!validate_claim_requests(self, c, &min_claim)) {
			return FALSE;
		}
		self->min_total += min_claim;
		if (min_claim > DRA_MAX_RESULTS) {
			dra_alloc__set_error(self,
			                     "claim %s: number of requested devices %u exceeds the "
			                     "claim limit of %d",
			                     dra_alloc__claim_name(self, c), min_claim,
			                     DRA_MAX_RESULTS);
			return FALSE;
		}
		if (self->constraints->len <= c) {
			g_ptr_array_add(self->constraints,
			                g_array_new(FALSE, TRUE, sizeof(DraConstraintState)));
		}
		GArray *states = g_ptr_array_index(self->constraints, c);
		for (guint i = 0; i < claim->n_constraints; i++) {
			const DraConstraint *spec = &claim->constraints[i];
			if (spec->match_attribute == NULL && spec->distinct_attribute == NULL) {
				dra_alloc__set_error(self,
				                     "claim %s, constraint #%u: empty constraint "
				                     "(unsupported constraint type?)",
				                     dra_alloc__claim_name(self, c), i);
				return FALSE;
			}
			DraConstraintState st = { 0 };
			dra_constraint__init(&st, spec);
			g_array_append_val(states, st);
		}
	}
	return TRUE;
}

gint
dra_allocator_count_matching(DraAllocator *self, const DraExactRequest *req, char **error)
{
	g_return_val_if_fail(self != NULL && req != NULL, -1);

	dra_alloc__prepare(self);
	DraClassRec *klass =
	        req->device_class_name != NULL
	                ? g_hash_table_lookup(self->class_by_name, req->device_class_name)
	                : NULL;
	if (klass == NULL) {
		*error = g_strdup_printf("device class %s not found",
		                         req->device_class_name != NULL ? req->device_class_name
		                                                        : "(none)");
		return -1;
	}
	g_autoptr(GArray) progs = g_array_new(FALSE, FALSE, sizeof(guint));
	g_array_append_vals(progs, klass->progs->data, klass->progs->len);
	for (guint i = 0; i < req->n_selectors; i++) {
		guint p = req->selectors[i] != NULL ? dra_alloc__prog(self, req->selectors[i])
		                                    : G_MAXUINT;
		g_array_append_val(progs, p);
	}
	gint count = 0;
	for (guint dev = 0; dev < self->dev_recs->len; dev++) {
		const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
		gboolean all = TRUE;
		if (!(self->features.device_binding && self->features.device_status) &&
		    d->device->n_binding_conditions > 0) {
			continue;
		}
		for (guint i = 0; i < progs->len && all; i++) {
			guint p = g_array_index(progs, guint, i);
			const char *message = NULL;
			DraMatch m = p == G_MAXUINT ? DRA_MATCH_ERROR
			                            : eval_prog(self, p, dev, &message);
			if (m == DRA_MATCH_ERROR) {
				*error = g_strdup_printf("selector #%u: %s", i,
				                         message != NULL ? message
				                                         : "CEL expression empty");
				return -1;
			}
			all = m == DRA_MATCH_TRUE;
		}
		count += all;
	}
	return count;
}
