/*
 * dra_explain.c: why the allocator found nothing for a pod, node by node, in
 * words a user can act on ("request gpu: selector `...` matched no device on
 * 500 nodes; 12 nodes had matching devices but all were allocated").
 *
 * Off the hot path: called once per unschedulable pod (end of run, or per
 * failed attempt for `drasim explain`). On each node it runs the real search
 * once (the same answer the scheduler got), then re-evaluates, request by
 * request, the class and request selectors on every device of the node with
 * the same CEL programs, to find the stage that ruled devices out: the
 * furthest selector any device reached and failed is the one to blame (a
 * GPU that passes the class's driver check but not the request's productName
 * blames productName). When every request has enough free matching devices,
 * the search's own counters say what else failed (a constraint, shared
 * counters, taints). Statistics and selector caches are left as they were.
 */
#include <string.h>

#include "dra-private.h"

typedef enum {
	FIND_NO_DEVICES,
	FIND_SELECTOR,
	FIND_IN_USE,
	FIND_TOO_FEW,
	FIND_CONSTRAINT,
	FIND_COUNTERS,
	FIND_TAINT,
	FIND_CAPACITY,
	FIND_TOGETHER,
	FIND_ERROR,
	FIND_TIMEOUT, /* the search ran out of its step budget (filterTimeout) */
} FindKind;

typedef struct {
	guint rd;
	FindKind kind;
	const char *text; /* selector, constraint attribute, or error (owned by the allocator) */
	gboolean by_class;
	guint needed;
	guint nodes;
} Finding;

typedef struct {
	guint devices;  /* devices of the node's pools */
	guint matched;  /* passed every selector */
	guint in_use;   /* of those, allocated to other claims */
	guint furthest; /* furthest failed stage + 1 (0: none failed) */
	gboolean error; /* a selector failed to evaluate */
	const char *message;
} Scan;

static void
add_finding(GArray *findings, const Finding *f)
{
	for (guint i = 0; i < findings->len; i++) {
		Finding *g = &g_array_index(findings, Finding, i);

		if (g->rd == f->rd && g->kind == f->kind && g->text == f->text &&
		    g->needed == f->needed) {
			g->nodes++;
			return;
		}
	}
	g_array_append_val(findings, *f);
	g_array_index(findings, Finding, findings->len - 1).nodes = 1;
}

/* One selector on one device; reads the cache, never writes it or the statistics. */
static DraMatch
eval(DraAllocator *self, guint prog, guint dev, const char **message)
{
	DraProgRec *p;
	DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
	const DraSlice *s = g_array_index(self->slice_recs, DraSliceRec, d->slice).slice;

	if (prog == G_MAXUINT) {
		*message = "CEL expression empty";
		return DRA_MATCH_ERROR;
	}
	p = g_ptr_array_index(self->progs, prog);
	if (p->compile_error != NULL) {
		*message = p->compile_error;
		return DRA_MATCH_ERROR;
	}
	if (p->cache->len > dev && p->cache->data[dev] != 0)
		return p->cache->data[dev] == DRA_CACHE_TRUE ? DRA_MATCH_TRUE : DRA_MATCH_FALSE;
	return self->ops.eval(self->ops_data, p->handle, d->device, s->driver, &d->view, message);
}

static guint
n_class_progs(const DraReqData *rd)
{
	return rd->klass != NULL ? rd->klass->progs->len : 0;
}

/* Stage @stage of @rd: class selectors first, then the request's. */
static guint
stage_prog(DraAllocator *self, const DraReqData *rd, guint stage)
{
	guint nc = n_class_progs(rd);

	if (stage < nc)
		return g_array_index(rd->klass->progs, guint, stage);
	return g_array_index(self->req_progs, guint, rd->prog_base + stage - nc);
}

static const char *
stage_text(const DraReqData *rd, guint stage, gboolean *by_class)
{
	guint nc = n_class_progs(rd);

	*by_class = stage < nc;
	return stage < nc ? rd->klass->klass->selectors[stage] : rd->req->selectors[stage - nc];
}

static gboolean
device_on_node(const DraSlice *s, const DraDevice *d, const DraNode *node)
{
	gboolean match = TRUE;
	g_autofree char *error = NULL;

	if (!s->per_device_node_selection)
		return TRUE;
	if (!dra_node__matches(node, d->node_name, d->all_nodes, d->node_selector, &match, &error))
		return FALSE;
	return match;
}

static void
scan_device(DraAllocator *self, const DraReqData *rd, guint dev, Scan *out)
{
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
	guint stages = n_class_progs(rd) + rd->n_progs;

	out->devices++;
	for (guint st = 0; st < stages; st++) {
		const char *message = NULL;
		DraMatch m = eval(self, stage_prog(self, rd, st), dev, &message);

		if (m == DRA_MATCH_ERROR) {
			out->error = TRUE;
			out->message = message;
			return;
		}
		if (m == DRA_MATCH_FALSE) {
			out->furthest = MAX(out->furthest, st + 1);
			return;
		}
	}
	out->matched++;
	if (self->allocated->data[d->id])
		out->in_use++;
}

/* Every device of the node's pools, against one request's selectors. */
static void
scan_node(DraAllocator *self, const DraNode *node, const DraReqData *rd, Scan *out)
{
	*out = (Scan){ 0 };
	for (guint p = 0; p < self->pools->pools->len; p++) {
		const DraPoolRec *pool = g_ptr_array_index(self->pools->pools, p);

		for (guint j = 0; j < pool->slices->len; j++) {
			guint si = g_array_index(pool->slices, guint, j);
			const DraSliceRec *sr = &g_array_index(self->slice_recs, DraSliceRec, si);

			for (guint k = 0; k < sr->slice->n_devices; k++) {
				if (!device_on_node(sr->slice, &sr->slice->devices[k], node))
					continue;
				scan_device(self, rd, sr->dev_base + k, out);
				if (out->error)
					return;
			}
		}
	}
}

/* The request's finding on this node; FALSE when it has enough free devices. */
static gboolean
classify(DraAllocator *self, const DraNode *node, guint rdi, Finding *f)
{
	const DraReqData *rd = &g_array_index(self->rd, DraReqData, rdi);
	guint needed = rd->all_mode ? MAX(rd->n_all, 1u) : rd->num_devices;
	Scan scan;

	scan_node(self, node, rd, &scan);
	*f = (Finding){ .rd = rdi, .needed = needed };
	if (scan.error) {
		f->kind = FIND_ERROR;
		f->text = scan.message;
	} else if (scan.devices == 0) {
		f->kind = FIND_NO_DEVICES;
	} else if (scan.matched == 0 && scan.furthest > 0) {
		f->kind = FIND_SELECTOR;
		f->text = stage_text(rd, scan.furthest - 1, &f->by_class);
	} else if (scan.matched == 0) {
		f->kind = FIND_NO_DEVICES;
	} else if (scan.matched - scan.in_use == 0) {
		f->kind = FIND_IN_USE;
	} else if (scan.matched - scan.in_use < needed) {
		f->kind = FIND_TOO_FEW;
	} else {
		return FALSE;
	}
	return TRUE;
}

/* Every request could have been served alone: the search says what else failed. */
static void
classify_together(DraAllocator *self, Finding *f)
{
	guint worst = 0;

	for (guint i = 0; i < self->rd->len; i++) {
		if (g_array_index(self->rd, DraReqData, i).tried > 0)
			worst = i;
	}
	*f = (Finding){ .rd = worst, .kind = FIND_TOGETHER };
	if (self->rd->len == 0)
		return;
	const DraReqData *rd = &g_array_index(self->rd, DraReqData, worst);
	if (rd->constraint > 0) {
		f->kind = FIND_CONSTRAINT;
		f->text = rd->constraint_name;
	} else if (rd->no_counters > 0) {
		f->kind = FIND_COUNTERS;
	} else if (rd->tainted > 0) {
		f->kind = FIND_TAINT;
	} else if (rd->no_capacity > 0) {
		f->kind = FIND_CAPACITY;
	}
}

static void
explain_node(DraAllocator *self, const DraNode *node, GArray *findings)
{
	DraOutcome outcome = dra_allocator_allocate_on(self, node);
	gboolean any = FALSE;
	Finding f;

	if (outcome == DRA_OUTCOME_ALLOCATED)
		return;
	if (dra_allocator_timed_out(self)) {
		/* the search's counters are partial: say only that it ran out */
		f = (Finding){ .rd = G_MAXUINT, .kind = FIND_TIMEOUT };
		add_finding(findings, &f);
		return;
	}
	if (outcome == DRA_OUTCOME_ERROR) {
		f = (Finding){ .rd = G_MAXUINT, .kind = FIND_ERROR };
		/* the message is per call: keep one finding per distinct text */
		f.text = g_intern_string(self->error != NULL ? self->error : "allocator error");
		add_finding(findings, &f);
		return;
	}
	for (guint i = 0; i < self->rd->len; i++) {
		if (classify(self, node, i, &f)) {
			add_finding(findings, &f);
			any = TRUE;
		}
	}
	if (!any) {
		classify_together(self, &f);
		add_finding(findings, &f);
	}
}

static const char *
nodes_word(guint n)
{
	return n == 1 ? "node" : "nodes";
}

static void
phrase(GString *out, const Finding *f)
{
	guint n = f->nodes;

	switch (f->kind) {
	case FIND_NO_DEVICES:
		g_string_append_printf(out, "%u %s published no device for it", n, nodes_word(n));
		break;
	case FIND_SELECTOR:
		g_string_append_printf(out, "%sselector %s matched no device on %u %s",
		                       f->by_class ? "class " : "", f->text, n, nodes_word(n));
		break;
	case FIND_IN_USE:
		g_string_append_printf(out, "%u %s had matching devices but all were allocated", n,
		                       nodes_word(n));
		break;
	case FIND_TOO_FEW:
		g_string_append_printf(out, "%u %s had matching devices but fewer than %u free", n,
		                       nodes_word(n), f->needed);
		break;
	case FIND_CONSTRAINT:
		g_string_append_printf(out, "the constraint on %s could not be met on %u %s",
		                       f->text != NULL ? f->text : "an attribute", n,
		                       nodes_word(n));
		break;
	case FIND_COUNTERS:
		g_string_append_printf(out,
		                       "%u %s had matching devices but their shared counters "
		                       "were used up (partitions of the same GPU in use)",
		                       n, nodes_word(n));
		break;
	case FIND_TAINT:
		g_string_append_printf(out,
		                       "%u %s had matching devices only with untolerated taints", n,
		                       nodes_word(n));
		break;
	case FIND_CAPACITY:
		g_string_append_printf(out, "%u %s had matching devices without enough capacity", n,
		                       nodes_word(n));
		break;
	case FIND_TOGETHER:
		g_string_append_printf(out, "the requests could not be satisfied together on %u %s",
		                       n, nodes_word(n));
		break;
	case FIND_ERROR:
		g_string_append_printf(out, "allocator error on %u %s: %s", n, nodes_word(n),
		                       f->text != NULL ? f->text : "unknown");
		break;
	case FIND_TIMEOUT:
		g_string_append_printf(out, "%s on %u %s", DRA_TIMEOUT_REASON, n, nodes_word(n));
		break;
	}
}

/* Grouped by request in request order, findings in order of first appearance. */
static char *
render(DraAllocator *self, GArray *findings)
{
	GString *out = g_string_new(NULL);

	for (guint r = 0; r <= self->rd->len; r++) {
		gboolean first = TRUE;

		for (guint i = 0; i < findings->len; i++) {
			const Finding *f = &g_array_index(findings, Finding, i);
			const DraReqData *rd;

			if (f->rd != r || (r == self->rd->len && f->kind != FIND_ERROR &&
			                   f->kind != FIND_TIMEOUT))
				continue;
			if (!first) {
				g_string_append(out, ", ");
			} else {
				if (out->len > 0)
					g_string_append(out, "; ");
				if (r < self->rd->len) {
					rd = &g_array_index(self->rd, DraReqData, r);
					if (self->n_claims > 1)
						g_string_append_printf(
						        out, "claim %s, ",
						        dra_alloc__claim_name(self, rd->claim));
					g_string_append_printf(out, "request %s: ", rd->name);
				}
			}
			first = FALSE;
			phrase(out, f);
		}
	}
	if (out->len == 0) {
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_string_free(out, FALSE);
}

char *
dra_allocator_explain(DraAllocator *self,
                      const DraClaim *const *claims,
                      guint n_claims,
                      const DraNode *nodes,
                      guint n_nodes)
{
	DraStats saved = self->stats;
	g_autoptr(GArray) findings = g_array_new(FALSE, TRUE, sizeof(Finding));
	char *text;

	gboolean memo = self->memo_on;

	if (n_claims == 0)
		return NULL;
	dra_allocator_set_claims(self, claims, n_claims);
	/* explain_node reads the search's counters: no answers from the memo */
	self->memo_on = FALSE;
	for (guint i = 0; i < n_nodes; i++)
		explain_node(self, &nodes[i], findings);
	self->memo_on = memo;
	/* FIND_ERROR before validation has no request: file it after the requests */
	for (guint i = 0; i < findings->len; i++) {
		Finding *f = &g_array_index(findings, Finding, i);

		if ((f->kind == FIND_ERROR || f->kind == FIND_TIMEOUT) && f->rd >= self->rd->len)
			f->rd = self->rd->len;
	}
	text = render(self, findings);
	self->stats = saved;
	return text;
}
