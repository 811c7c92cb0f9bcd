/*
 * dra_result.c: turns the internal results of a successful search into
 * DraAllocations: device results, config (FromClass once per class, then
 * FromClaim filtered for the chosen sub-requests) and the node selector, as
 * Allocate() and createNodeSelector() build them in
 * structured/internal/experimental/allocator_experimental.go (1.34).
 *
 * Everything lives in arrays owned by the allocator and reused by the next
 * call; pointers are fixed up once all arrays have stopped growing.
 */
#include <string.h>

#include "dra-private.h"

typedef DraLayout Layout;

static const DraReqData *
chosen_rd(DraAllocator *self, guint claim, guint request)
{
	guint base = g_array_index(self->claim_rd_base, guint, claim);
	guint first = g_array_index(self->rd_index, guint, base + request);
	const DraReqData *rd = &g_array_index(self->rd, DraReqData, first);
	if (rd->is_sub) {
		rd = &g_array_index(self->rd, DraReqData, first + rd->selected_sub);
	}
	return rd;
}

static void
emit_results(DraAllocator *self, guint claim, Layout *lay)
{
	GArray *results = g_ptr_array_index(self->results, claim);
	gboolean binding = self->features.device_binding && self->features.device_status;

	lay->results_base = self->out_results->len;
	for (guint i = 0; i < results->len; i++) {
		DraInternalResult *ir = &g_array_index(results, DraInternalResult, i);
		const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, ir->dev);
		const DraIdRec *id = &g_array_index(self->id_recs, DraIdRec, d->id);
		const DraReqData *rd = &g_array_index(self->rd, DraReqData, ir->rd);
		DraDeviceResult out = { 0 };

		out.request = rd->name;
		out.driver = id->driver;
		out.pool = id->pool;
		out.device = id->device;
		out.admin_access = ir->admin_access;
		if (self->result_tolerations) {
			out.tolerations = rd->req->tolerations;
			out.n_tolerations = rd->req->n_tolerations;
		}
		out.share_id = ir->has_share_id ? ir->share_id : NULL;
		out.n_consumed = ir->n_consumed;
		if (binding) {
			out.binding_conditions = d->device->binding_conditions;
			out.n_binding_conditions = d->device->n_binding_conditions;
			out.binding_failure_conditions = d->device->binding_failure_conditions;
			out.n_binding_failure_conditions = d->device->n_binding_failure_conditions;
		}
		out.device_spec = d->device;
		out.slice = g_array_index(self->slice_recs, DraSliceRec, d->slice).slice;
		g_array_append_val(self->out_results, out);
		/* consumed capacity pointer is fixed up later: remember its base */
		g_array_append_val(self->out_offsets, ir->consumed_base);
	}
	lay->n_results = results->len;
}

static gboolean
request_in(const DraClaimConfig *cfg, const char *name)
{
	for (guint i = 0; i < cfg->n_requests; i++) {
		if (strcmp(cfg->requests[i], name) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

static void
emit_config(DraAllocator *self, guint claim, Layout *lay)
{
	const DraClaim *c = self->claims[claim];

	lay->config_base = self->out_config->len;
	/* FromClass: each class once, with every request that used it */
	for (guint r = 0; r < c->n_requests; r++) {
		const DraReqData *rd = chosen_rd(self, claim, r);
		if (rd->klass == NULL) {
			continue;
		}
		gboolean seen = FALSE;
		for (guint q = 0; q < r && !seen; q++) {
			seen = chosen_rd(self, claim, q)->klass == rd->klass;
		}
		if (seen) {
			continue;
		}
		guint names_base = self->out_names->len;
		for (guint q = r; q < c->n_requests; q++) {
			const DraReqData *other = chosen_rd(self, claim, q);
			if (other->klass == rd->klass) {
				g_ptr_array_add(self->out_names, (gpointer)other->name);
			}
		}
		const DraClass *k = rd->klass->klass;
		for (guint i = 0; i < k->n_config; i++) {
			DraConfigResult cfg = { TRUE, NULL, self->out_names->len - names_base,
				                k->config[i] };
			/* requests pointer fixed up later from this offset */
			cfg.requests = GUINT_TO_POINTER(names_base + 1);
			g_array_append_val(self->out_config, cfg);
		}
	}
	/* FromClaim: kept when it names no request, a request, or the chosen sub-request */
	for (guint i = 0; i < c->n_config; i++) {
		const DraClaimConfig *cc = &c->config[i];
		DraConfigResult cfg = { FALSE, cc->requests, cc->n_requests, cc->opaque };
		if (cc->n_requests == 0) {
			g_array_append_val(self->out_config, cfg);
			continue;
		}
		for (guint r = 0; r < c->n_requests; r++) {
			if (request_in(cc, c->requests[r].name)) {
				g_array_append_val(self->out_config, cfg);
				continue;
			}
			const DraReqData *rd = chosen_rd(self, claim, r);
			if (rd->is_sub && request_in(cc, rd->name)) {
				g_array_append_val(self->out_config, cfg);
			}
		}
	}
	lay->n_config = self->out_config->len - lay->config_base;
}

static gboolean
same_values(const DraNodeSelectorRequirement *a, const DraNodeSelectorRequirement *b)
{
	/* sets.Equal: every value of each is in the other */
	for (guint i = 0; i < a->n_values; i++) {
		gboolean found = FALSE;
		for (guint j = 0; j < b->n_values && !found; j++) {
			found = strcmp(a->values[i], b->values[j]) == 0;
		}
		if (!found) {
			return FALSE;
		}
	}
	for (guint j = 0; j < b->n_values; j++) {
		gboolean found = FALSE;
		for (guint i = 0; i < a->n_values && !found; i++) {
			found = strcmp(a->values[i], b->values[j]) == 0;
		}
		if (!found) {
			return FALSE;
		}
	}
	return TRUE;
}

static void
add_requirements(DraAllocator *self,
                 const DraNodeSelectorRequirement *from,
                 guint n,
                 guint *base,
                 guint *count,
                 GArray *scratch)
{
	for (guint i = 0; i < n; i++) {
		gboolean dup = FALSE;
		for (guint j = 0; j < scratch->len && !dup; j++) {
			const DraNodeSelectorRequirement *have =
			        g_array_index(scratch, const DraNodeSelectorRequirement *, j);
			dup = strcmp(have->key, from[i].key) == 0 &&
			      g_strcmp0(have->op, from[i].op) == 0 && same_values(have, &from[i]);
		}
		if (!dup) {
			const DraNodeSelectorRequirement *p = &from[i];
			g_array_append_val(scratch, p);
		}
	}
	(void)self;
	(void)base;
	*count = scratch->len;
}

/*
 * The only way building can fail, checked without building: Filter needs yes or
 * no, and only the chosen node's answer is ever read. Same order as the build.
 */
gboolean
dra_result__check(DraAllocator *self)
{
	for (guint c = 0; c < self->n_claims; c++) {
		GArray *results = g_ptr_array_index(self->results, c);

		for (guint i = 0; i < results->len; i++) {
			DraInternalResult *ir = &g_array_index(results, DraInternalResult, i);
			const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, ir->dev);
			const DraSlice *s =
			        g_array_index(self->slice_recs, DraSliceRec, d->slice).slice;
			const char *node_name = s->node_name;
			const DraNodeSelector *sel = s->node_selector;

			if (s->per_device_node_selection) {
				node_name = d->device->node_name;
				sel = d->device->node_selector;
			}
			if ((node_name != NULL && node_name[0] != '\0') ||
			    d->device->binds_to_node) {
				break;
			}
			if (sel != NULL && sel->n_terms > 1) {
				dra_alloc__set_error(
				        self,
				        "create NodeSelector for claim %s: unsupported "
				        "ResourceSlice.NodeSelector with %u terms",
				        self->claims[c]->name, sel->n_terms);
				return FALSE;
			}
		}
	}
	return TRUE;
}

/* createNodeSelector; FALSE with self->error set for a multi-term slice selector. */
static gboolean
emit_node_selector(DraAllocator *self, guint claim, Layout *lay)
{
	GArray *results = g_ptr_array_index(self->results, claim);
	GArray *fields = self->sel_fields;
	GArray *exprs = self->sel_exprs;
	guint unused = 0;

	dra_array_clear(fields);
	dra_array_clear(exprs);

	lay->has_selector = FALSE;
	for (guint i = 0; i < results->len; i++) {
		DraInternalResult *ir = &g_array_index(results, DraInternalResult, i);
		const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, ir->dev);
		const DraSlice *s = g_array_index(self->slice_recs, DraSliceRec, d->slice).slice;
		const char *node_name = s->node_name;
		const DraNodeSelector *sel = s->node_selector;
		if (s->per_device_node_selection) {
			node_name = d->device->node_name;
			sel = d->device->node_selector;
		}
		if ((node_name != NULL && node_name[0] != '\0') || d->device->binds_to_node) {
			lay->has_selector = TRUE;
			lay->node_name_field = TRUE;
			return TRUE;
		}
		if (sel == NULL || sel->n_terms == 0) {
			continue;
		}
		if (sel->n_terms > 1) {
			dra_alloc__set_error(self,
			                     "create NodeSelector for claim %s: unsupported "
			                     "ResourceSlice.NodeSelector with %u terms",
			                     self->claims[claim]->name, sel->n_terms);
			return FALSE;
		}
		add_requirements(self, sel->terms[0].match_fields, sel->terms[0].n_match_fields,
		                 &unused, &lay->n_fields, fields);
		add_requirements(self, sel->terms[0].match_expressions,
		                 sel->terms[0].n_match_expressions, &unused, &lay->n_exprs, exprs);
	}
	if (fields->len == 0 && exprs->len == 0) {
		return TRUE;
	}
	lay->has_selector = TRUE;
	lay->fields_base = self->out_reqs->len;
	for (guint i = 0; i < fields->len; i++) {
		g_array_append_vals(self->out_reqs,
		                    g_array_index(fields, const DraNodeSelectorRequirement *, i),
		                    1);
	}
	lay->exprs_base = self->out_reqs->len;
	for (guint i = 0; i < exprs->len; i++) {
		g_array_append_vals(self->out_reqs,
		                    g_array_index(exprs, const DraNodeSelectorRequirement *, i), 1);
	}
	return TRUE;
}

static void
fix_up(DraAllocator *self, Layout *lays)
{
	guint k = 0;

	for (guint c = 0; c < self->n_claims; c++) {
		Layout *lay = &lays[c];
		DraAllocation a = { 0 };

		/* An empty GArray may have no data at all: &g_array_index() there would be
		 * NULL plus an offset, undefined in C (UBSan, tests/fuzz). None is NULL. */
		a.results = lay->n_results > 0 ? &g_array_index(self->out_results, DraDeviceResult,
		                                                lay->results_base)
		                               : NULL;
		a.n_results = lay->n_results;
		for (guint i = 0; i < lay->n_results; i++, k++) {
			DraDeviceResult *r = &g_array_index(self->out_results, DraDeviceResult,
			                                    lay->results_base + i);
			guint base = g_array_index(self->out_offsets, guint, k);
			r->consumed = r->n_consumed > 0
			                      ? &g_array_index(self->consumed, DraConsumed, base)
			                      : NULL;
		}
		a.config = lay->n_config > 0 ? &g_array_index(self->out_config, DraConfigResult,
		                                              lay->config_base)
		                             : NULL;
		a.n_config = lay->n_config;
		for (guint i = 0; i < lay->n_config; i++) {
			DraConfigResult *cfg = &g_array_index(self->out_config, DraConfigResult,
			                                      lay->config_base + i);
			if (cfg->from_class) {
				guint off = GPOINTER_TO_UINT(cfg->requests) - 1;
				cfg->requests = (const char *const *)&self->out_names->pdata[off];
			}
		}
		if (lay->has_selector) {
			DraNodeSelectorTerm *t = &g_array_index(
			        self->out_terms, DraNodeSelectorTerm, lay->terms_base);
			if (!lay->node_name_field) {
				t->match_fields =
				        &g_array_index(self->out_reqs, DraNodeSelectorRequirement,
				                       lay->fields_base);
				t->n_match_fields = lay->n_fields;
				t->match_expressions =
				        &g_array_index(self->out_reqs, DraNodeSelectorRequirement,
				                       lay->exprs_base);
				t->n_match_expressions = lay->n_exprs;
			}
			DraNodeSelector sel = { t, 1 };
			g_array_index(self->out_selectors, DraNodeSelector, c) = sel;
			a.node_selector = &g_array_index(self->out_selectors, DraNodeSelector, c);
		}
		g_array_append_val(self->out_alloc, a);
	}
}

gboolean
dra_result__build(DraAllocator *self)
{
	Layout *lays;

	dra_array_clear(self->layouts);
	g_array_set_size(self->layouts, self->n_claims);
	lays = (Layout *)(void *)self->layouts->data;

	dra_array_clear(self->out_results);
	dra_array_clear(self->out_config);
	g_ptr_array_set_size(self->out_names, 0);
	dra_array_clear(self->out_terms);
	dra_array_clear(self->out_reqs);
	dra_array_clear(self->out_offsets);
	g_array_set_size(self->out_selectors, self->n_claims);
	/* a copy: the results outlive the node's pools when the inventory changes */
	g_string_assign(self->node_name, self->pools->node_name);
	self->node_name_values[0] = self->node_name->str;
	for (guint c = 0; c < self->n_claims; c++) {
		emit_results(self, c, &lays[c]);
		emit_config(self, c, &lays[c]);
		if (!emit_node_selector(self, c, &lays[c])) {
			return FALSE;
		}
		lays[c].terms_base = self->out_terms->len;
		DraNodeSelectorTerm term = { 0 };
		if (lays[c].node_name_field) {
			term.match_fields = &self->node_name_req;
			term.n_match_fields = 1;
		}
		g_array_append_val(self->out_terms, term);
	}
	self->node_name_req.key = "metadata.name";
	self->node_name_req.op = "In";
	self->node_name_req.values = self->node_name_values;
	self->node_name_req.n_values = 1;
	fix_up(self, lays);
	return TRUE;
}
