/*
 * conformance_allocator.c: the test program `conformance-allocator DIR|FILE...` runs the
 * upstream allocator test table (../shared/conformance/allocator) in place.
 *
 * Each case file is a header document (AllocatorTestCase) plus manifests. The
 * runner loads the manifests with model/api, feeds them to a DraAllocator with
 * exactly the features the header names, runs Allocate once and compares the
 * outcome with `expect`: the error substring, "unschedulable", or per claim the
 * results (multiset unless resultsOrdered), node selector (as sets) and config.
 */
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "conformance.h"
#include "dra.h"
#include "dra_k8s.h"
#include "k8s_objects.h"

typedef struct {
	guint passed;
	guint failed;
	guint skipped;
	gboolean verbose;
	gboolean no_quirks;
	gboolean prune;
} Tally;

static const char *
scalar(const K8sYamlNode *n)
{
	return n != NULL && n->kind == K8S_YAML_SCALAR ? n->scalar.text : NULL;
}

static const K8sYamlNode *
lookup(const K8sYamlNode *map, const char *key)
{
	return map != NULL && map->kind == K8S_YAML_MAPPING ? k8s_yaml_map_lookup(map, key) : NULL;
}

static guint
seq_len(const K8sYamlNode *n)
{
	return n != NULL && n->kind == K8S_YAML_SEQUENCE ? n->seq.n : 0;
}

static gboolean
is_null(const K8sYamlNode *n)
{
	return n == NULL ||
	       (n->kind == K8S_YAML_SCALAR && k8s_yaml_scalar_type(n) == K8S_YAML_TYPE_NULL);
}

static int
cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- canonical strings for comparison and for printing ---- */

static char *
milli_text(DraMilli v)
{
	return dra_milli_format(v);
}

static void
append_list(GString *s, const char *label, const char *const *items, guint n)
{
	if (n == 0) {
		return;
	}
	g_string_append_printf(s, " %s=[", label);
	for (guint i = 0; i < n; i++) {
		g_string_append_printf(s, "%s%s", i > 0 ? "," : "", items[i]);
	}
	g_string_append_c(s, ']');
}

static char *
actual_result_text(const DraDeviceResult *r)
{
	GString *s = g_string_new(NULL);
	g_autoptr(GPtrArray) caps = g_ptr_array_new_with_free_func(g_free);

	g_string_append_printf(s, "%s %s/%s/%s", r->request, r->driver, r->pool, r->device);
	if (r->admin_access) {
		g_string_append(s, " adminAccess");
	}
	if (r->share_id != NULL) {
		g_string_append(s, " shareID");
	}
	for (guint i = 0; i < r->n_consumed; i++) {
		g_autofree char *v = milli_text(r->consumed[i].value);
		g_ptr_array_add(caps, g_strdup_printf("%s=%s", r->consumed[i].name, v));
	}
	g_ptr_array_sort(caps, cmp_str);
	append_list(s, "consumed", (const char *const *)caps->pdata, caps->len);
	append_list(s, "bindingConditions", r->binding_conditions, r->n_binding_conditions);
	append_list(s, "bindingFailureConditions", r->binding_failure_conditions,
	            r->n_binding_failure_conditions);
	return g_string_free(s, FALSE);
}

static void
yaml_strings(const K8sYamlNode *seq, GPtrArray *out)
{
	for (guint i = 0; i < seq_len(seq); i++) {
		g_ptr_array_add(out, (gpointer)scalar(seq->seq.items[i]));
	}
}

static char *
expected_result_text(const K8sYamlNode *e)
{
	GString *s = g_string_new(NULL);
	g_autoptr(GPtrArray) caps = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) bc = g_ptr_array_new();
	g_autoptr(GPtrArray) bfc = g_ptr_array_new();
	const char *admin = scalar(lookup(e, "adminAccess"));
	const K8sYamlNode *cc = lookup(e, "consumedCapacity");

	g_string_append_printf(s, "%s %s/%s/%s", scalar(lookup(e, "request")),
	                       scalar(lookup(e, "driver")), scalar(lookup(e, "pool")),
	                       scalar(lookup(e, "device")));
	if (admin != NULL && strcmp(admin, "true") == 0) {
		g_string_append(s, " adminAccess");
	}
	if (!is_null(lookup(e, "shareID"))) {
		g_string_append(s, " shareID");
	}
	for (guint i = 0; cc != NULL && cc->kind == K8S_YAML_MAPPING && i < cc->map.n; i++) {
		DraMilli v = 0;
		dra_milli_parse(cc->map.pairs[i].value->scalar.text, &v);
		g_autofree char *t = milli_text(v);
		g_ptr_array_add(caps,
		                g_strdup_printf("%s=%s", cc->map.pairs[i].key->scalar.text, t));
	}
	g_ptr_array_sort(caps, cmp_str);
	append_list(s, "consumed", (const char *const *)caps->pdata, caps->len);
	yaml_strings(lookup(e, "bindingConditions"), bc);
	yaml_strings(lookup(e, "bindingFailureConditions"), bfc);
	append_list(s, "bindingConditions", (const char *const *)bc->pdata, bc->len);
	append_list(s, "bindingFailureConditions", (const char *const *)bfc->pdata, bfc->len);
	return g_string_free(s, FALSE);
}

static char *
requirement_text(char kind, const char *key, const char *op, GPtrArray *values)
{
	GString *s = g_string_new(NULL);
	g_ptr_array_sort(values, cmp_str);
	g_string_append_printf(s, "%c:%s %s", kind, key, op);
	for (guint i = 0; i < values->len; i++) {
		g_string_append_printf(s, "%s%s", i == 0 ? " " : ",",
		                       (const char *)g_ptr_array_index(values, i));
	}
	return g_string_free(s, FALSE);
}

static char *
join_sorted(GPtrArray *parts, const char *sep)
{
	GString *s = g_string_new(NULL);
	g_ptr_array_sort(parts, cmp_str);
	for (guint i = 0; i < parts->len; i++) {
		g_string_append_printf(s, "%s%s", i > 0 ? sep : "",
		                       (const char *)g_ptr_array_index(parts, i));
	}
	return g_string_free(s, FALSE);
}

static char *
actual_selector_text(const DraNodeSelector *sel)
{
	g_autoptr(GPtrArray) terms = g_ptr_array_new_with_free_func(g_free);

	if (sel == NULL) {
		return g_strdup("nil");
	}
	for (guint t = 0; t < sel->n_terms; t++) {
		const DraNodeSelectorTerm *term = &sel->terms[t];
		g_autoptr(GPtrArray) reqs = g_ptr_array_new_with_free_func(g_free);
		for (guint pass = 0; pass < 2; pass++) {
			const DraNodeSelectorRequirement *r =
			        pass == 0 ? term->match_fields : term->match_expressions;
			guint n = pass == 0 ? term->n_match_fields : term->n_match_expressions;
			for (guint i = 0; i < n; i++) {
				g_autoptr(GPtrArray) vals = g_ptr_array_new();
				for (guint v = 0; v < r[i].n_values; v++) {
					g_ptr_array_add(vals, (gpointer)r[i].values[v]);
				}
				g_ptr_array_add(reqs, requirement_text(pass == 0 ? 'F' : 'E',
				                                       r[i].key, r[i].op, vals));
			}
		}
		g_ptr_array_add(terms, join_sorted(reqs, " & "));
	}
	g_autofree char *body = join_sorted(terms, " | ");
	return g_strdup_printf("{%s}", body);
}

static char *
expected_selector_text(const K8sYamlNode *sel)
{
	g_autoptr(GPtrArray) terms = g_ptr_array_new_with_free_func(g_free);
	const K8sYamlNode *list = lookup(sel, "nodeSelectorTerms");

	if (is_null(sel)) {
		return g_strdup("nil");
	}
	for (guint t = 0; t < seq_len(list); t++) {
		const K8sYamlNode *term = list->seq.items[t];
		g_autoptr(GPtrArray) reqs = g_ptr_array_new_with_free_func(g_free);
		for (guint pass = 0; pass < 2; pass++) {
			const K8sYamlNode *r =
			        lookup(term, pass == 0 ? "matchFields" : "matchExpressions");
			for (guint i = 0; i < seq_len(r); i++) {
				g_autoptr(GPtrArray) vals = g_ptr_array_new();
				yaml_strings(lookup(r->seq.items[i], "values"), vals);
				g_ptr_array_add(reqs,
				                requirement_text(
				                        pass == 0 ? 'F' : 'E',
				                        scalar(lookup(r->seq.items[i], "key")),
				                        scalar(lookup(r->seq.items[i], "operator")),
				                        vals));
			}
		}
		g_ptr_array_add(terms, join_sorted(reqs, " & "));
	}
	g_autofree char *body = join_sorted(terms, " | ");
	return g_strdup_printf("{%s}", body);
}

static char *
actual_config_text(const DraConfigResult *c)
{
	GString *s = g_string_new(c->from_class ? "FromClass" : "FromClaim");
	g_string_append_c(s, ' ');
	for (guint i = 0; i < c->n_requests; i++) {
		g_string_append_printf(s, "%s%s", i > 0 ? "," : "", c->requests[i]);
	}
	g_string_append_printf(s, " %s", c->opaque != NULL ? c->opaque->driver : "-");
	return g_string_free(s, FALSE);
}

static char *
expected_config_text(const K8sYamlNode *c)
{
	GString *s = g_string_new(scalar(lookup(c, "source")));
	const K8sYamlNode *reqs = lookup(c, "requests");
	g_string_append_c(s, ' ');
	for (guint i = 0; i < seq_len(reqs); i++) {
		g_string_append_printf(s, "%s%s", i > 0 ? "," : "", scalar(reqs->seq.items[i]));
	}
	const char *driver = scalar(lookup(lookup(c, "opaque"), "driver"));
	g_string_append_printf(s, " %s", driver != NULL ? driver : "-");
	return g_string_free(s, FALSE);
}

/* ---- comparison of one claim ---- */

static gboolean
compare_claim(const K8sYamlNode *exp, const DraAllocation *got, GString *why)
{
	const K8sYamlNode *results = lookup(exp, "results");
	const char *ordered = scalar(lookup(exp, "resultsOrdered"));
	gboolean keep_order = ordered != NULL && strcmp(ordered, "true") == 0;
	g_autoptr(GPtrArray) want = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) have = g_ptr_array_new_with_free_func(g_free);
	gboolean ok = TRUE;

	for (guint i = 0; i < seq_len(results); i++) {
		g_ptr_array_add(want, expected_result_text(results->seq.items[i]));
	}
	for (guint i = 0; i < got->n_results; i++) {
		g_ptr_array_add(have, actual_result_text(&got->results[i]));
	}
	if (!keep_order) {
		g_ptr_array_sort(want, cmp_str);
		g_ptr_array_sort(have, cmp_str);
	}
	gboolean same = want->len == have->len;
	for (guint i = 0; same && i < want->len; i++) {
		same = strcmp(want->pdata[i], have->pdata[i]) == 0;
	}
	if (!same) {
		ok = FALSE;
		g_string_append(why, "    results expected:\n");
		for (guint i = 0; i < want->len; i++) {
			g_string_append_printf(why, "      %s\n", (char *)want->pdata[i]);
		}
		g_string_append(why, "    results got:\n");
		for (guint i = 0; i < have->len; i++) {
			g_string_append_printf(why, "      %s\n", (char *)have->pdata[i]);
		}
	}

	g_autofree char *ws = expected_selector_text(lookup(exp, "nodeSelector"));
	g_autofree char *hs = actual_selector_text(got->node_selector);
	if (strcmp(ws, hs) != 0) {
		ok = FALSE;
		g_string_append_printf(
		        why, "    nodeSelector expected %s\n    nodeSelector got      %s\n", ws,
		        hs);
	}

	const K8sYamlNode *config = lookup(exp, "config");
	gboolean cfg_ok = seq_len(config) == got->n_config;
	for (guint i = 0; cfg_ok && i < got->n_config; i++) {
		g_autofree char *wc = expected_config_text(config->seq.items[i]);
		g_autofree char *hc = actual_config_text(&got->config[i]);
		const K8sYamlNode *wp =
		        lookup(lookup(config->seq.items[i], "opaque"), "parameters");
		const K8sOpaqueDeviceConfig *origin =
		        got->config[i].opaque != NULL ? got->config[i].opaque->origin : NULL;
		const K8sYamlNode *hp = origin != NULL ? origin->parameters.node : NULL;
		cfg_ok = strcmp(wc, hc) == 0 &&
		         (wp == NULL ? hp == NULL : hp != NULL && k8s_yaml_equal(wp, hp));
	}
	if (!cfg_ok) {
		ok = FALSE;
		g_string_append(why, "    config expected:\n");
		for (guint i = 0; i < seq_len(config); i++) {
			g_autofree char *wc = expected_config_text(config->seq.items[i]);
			g_string_append_printf(why, "      %s\n", wc);
		}
		g_string_append(why, "    config got:\n");
		for (guint i = 0; i < got->n_config; i++) {
			g_autofree char *hc = actual_config_text(&got->config[i]);
			g_string_append_printf(why, "      %s\n", hc);
		}
	}
	return ok;
}

/* Tries every assignment of expected entries to claims (claimsUnordered; n is tiny). */
static gboolean
match_unordered(const K8sYamlNode *alloc, DraAllocator *a, guint n, guint depth, guint *used)
{
	if (depth == n) {
		return TRUE;
	}
	for (guint i = 0; i < n; i++) {
		if (used[i]) {
			continue;
		}
		g_autoptr(GString) dummy = g_string_new(NULL);
		if (compare_claim(alloc->seq.items[i], dra_allocator_get_allocation(a, depth),
		                  dummy)) {
			used[i] = 1;
			if (match_unordered(alloc, a, n, depth + 1, used)) {
				return TRUE;
			}
			used[i] = 0;
		}
	}
	return FALSE;
}

/* ---- one case ---- */

typedef struct {
	char *data;
	gsize len;
	BaseArena *arena;
	GStringChunk *strings;
	K8sYamlFile file;
	const K8sYamlNode *header;
	K8sObjectSet *set;
	DraObjectsAllocator objects;
	const DraClaim **claims;
	guint n_claims;
	DraOutcome out;
} Case;

static void
case_clear(Case *c)
{
	dra_objects_allocator_clear(&c->objects);
	k8s_object_set_free(c->set);
	if (c->strings != NULL) {
		g_string_chunk_free(c->strings);
	}
	base_arena_free(c->arena);
	g_free(c->claims);
	g_free(c->data);
}

static const DraNode *
header_node(Case *c, const K8sYamlNode *node)
{
	K8sStringMap labels = { 0 };
	const K8sYamlNode *l = lookup(node, "labels");
	guint n = l != NULL && l->kind == K8S_YAML_MAPPING ? l->map.n : 0;

	if (is_null(node)) {
		return NULL;
	}
	labels.items = base_arena_alloc(c->arena, sizeof(K8sStringPair) * MAX(n, 1));
	labels.n = n;
	for (guint i = 0; i < n; i++) {
		labels.items[i].key = l->map.pairs[i].key->scalar.text;
		labels.items[i].value = scalar(l->map.pairs[i].value);
	}
	return dra_input_node_new(c->objects.input, scalar(lookup(node, "name")), &labels);
}

/* Reads the case file: its header document, and its manifests into a set. */
static gboolean
load_case(const char *path, Case *c, GString *why)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(K8sDiagList) load_diags = k8s_diag_list_new();
	gboolean ok = TRUE;

	if (!base_read_file(path, &c->data, &c->len, &error)) {
		g_string_append_printf(why, "    cannot read: %s\n", error->message);
		return FALSE;
	}
	c->arena = base_arena_new();
	c->strings = g_string_chunk_new(4096);
	if (!k8s_yaml_parse(&(K8sYamlInput){ path, c->data, c->len, c->arena, c->strings, diags },
	                    &c->file) ||
	    c->file.n_docs < 1) {
		g_string_append(why, "    the file does not parse as YAML\n");
		return FALSE;
	}
	c->header = c->file.docs[0].root;
	guint header_end = c->file.n_docs > 1 ? c->file.docs[1].root->line : G_MAXUINT;

	/* the manifests: errors inside the header document (its unknown kind) are expected */
	c->set = k8s_object_set_new();
	k8s_load_data(path, c->data, c->len, K8S_LOAD_DEFAULT, c->set, load_diags);
	for (guint i = 0; i < k8s_diag_list_count(load_diags); i++) {
		const K8sDiag *d = k8s_diag_list_get(load_diags, i);
		if (d->severity == K8S_SEVERITY_ERROR && d->pos.line >= header_end) {
			g_string_append_printf(why, "    %s:%u:%u: %s [%s]\n", path, d->pos.line,
			                       d->pos.col, d->message, d->path);
			ok = FALSE;
		}
	}
	return ok;
}

/* The allocator with exactly the features the header names. */
static gboolean
build_allocator(Case *c, const Tally *tally, GString *why)
{
	DraFeatures features = dra_features_none();
	const K8sYamlNode *fl = lookup(c->header, "features");

	for (guint i = 0; i < seq_len(fl); i++) {
		if (!dra_features_set(&features, scalar(fl->seq.items[i]), TRUE)) {
			g_string_append_printf(why, "    unknown feature %s\n",
			                       scalar(fl->seq.items[i]));
			return FALSE;
		}
	}
	dra_objects_allocator_init(&c->objects, &features, c->set);
	if (tally->no_quirks) {
		DraQuirks q = { FALSE, FALSE };
		dra_allocator_set_quirks(c->objects.alloc, &q);
	}
	dra_allocator_set_prune(c->objects.alloc, tally->prune);
	return TRUE;
}

/* The claims of claimsToAllocate, in the header's order. */
static gboolean
collect_claims(Case *c, GString *why)
{
	const K8sYamlNode *names = lookup(c->header, "claimsToAllocate");

	c->n_claims = seq_len(names);
	c->claims = g_new0(const DraClaim *, MAX(c->n_claims, 1));
	for (guint i = 0; i < c->n_claims; i++) {
		const char *name = scalar(names->seq.items[i]);
		K8sObject *o = k8s_object_set_lookup(c->set, K8S_KIND_RESOURCE_CLAIM, NULL, name);
		if (o == NULL) {
			g_string_append_printf(why, "    claim %s is not in the file\n", name);
			return FALSE;
		}
		K8sResourceClaim *rc = k8s_object_as_resource_claim(o);
		c->claims[i] =
		        dra_input_claim(c->objects.input, k8s_object_namespace(o), name, &rc->spec);
	}
	return TRUE;
}

/* expect.allocation against the allocator's answer, claim by claim. */
static gboolean
compare_allocations(Case *c, const K8sYamlNode *want_alloc, GString *why)
{
	DraAllocator *a = c->objects.alloc;
	const char *unordered = scalar(lookup(c->header, "claimsUnordered"));
	gboolean verdict = TRUE;

	if (unordered != NULL && strcmp(unordered, "true") == 0) {
		g_autofree guint *used = g_new0(guint, MAX(c->n_claims, 1));
		verdict = match_unordered(want_alloc, a, c->n_claims, 0, used);
		for (guint i = 0; !verdict && i < c->n_claims; i++) {
			compare_claim(want_alloc->seq.items[i], dra_allocator_get_allocation(a, i),
			              why);
		}
		return verdict;
	}
	for (guint i = 0; i < c->n_claims; i++) {
		if (!compare_claim(want_alloc->seq.items[i], dra_allocator_get_allocation(a, i),
		                   why)) {
			g_string_append_printf(why, "    (claim %s)\n", c->claims[i]->name);
			verdict = FALSE;
		}
	}
	return verdict;
}

/* A wrong outcome with no detail yet: what was expected and what came. */
static void
explain_outcome(Case *c, const char *want_error, const K8sYamlNode *want_alloc, GString *why)
{
	const char *want = want_error != NULL   ? "error"
	                   : want_alloc != NULL ? "allocation"
	                                        : "unschedulable";

	g_string_append_printf(why, "    expected %s%s%s\n", want, want_error != NULL ? ": " : "",
	                       want_error != NULL ? want_error : "");
	if (c->out == DRA_OUTCOME_ERROR) {
		g_string_append_printf(why, "    got      error: %s\n",
		                       dra_allocator_get_error(c->objects.alloc));
	} else if (c->out == DRA_OUTCOME_UNSCHEDULABLE) {
		const char *reason = dra_allocator_get_reason(c->objects.alloc);
		g_string_append_printf(why, "    got      unschedulable (%s)\n",
		                       reason != NULL ? reason : "no reason");
	} else {
		g_string_append(why, "    got      allocation\n");
	}
}

/* The outcome against `expect`: the error substring, unschedulable, or the allocation. */
static gboolean
check_expect(Case *c, GString *why)
{
	const K8sYamlNode *expect = lookup(c->header, "expect");
	const char *want_error = scalar(lookup(expect, "error"));
	const K8sYamlNode *want_alloc = lookup(expect, "allocation");
	gboolean verdict = FALSE;

	if (want_error != NULL) {
		verdict = c->out == DRA_OUTCOME_ERROR &&
		          strstr(dra_allocator_get_error(c->objects.alloc), want_error) != NULL;
	} else if (want_alloc == NULL) {
		verdict = c->out == DRA_OUTCOME_UNSCHEDULABLE;
	} else if (c->out == DRA_OUTCOME_ALLOCATED && seq_len(want_alloc) == c->n_claims) {
		verdict = compare_allocations(c, want_alloc, why);
	}
	if (!verdict && why->len == 0) {
		explain_outcome(c, want_error, want_alloc, why);
	}
	return verdict;
}

/* expectStats: upstream's count of allocateOne invocations (not with --prune). */
static gboolean
check_stats(Case *c, const Tally *tally, GString *why)
{
	const char *calls =
	        scalar(lookup(lookup(c->header, "expectStats"), "numAllocateOneInvocations"));

	if (calls == NULL || tally->prune) {
		return TRUE;
	}
	guint64 want_calls = g_ascii_strtoull(calls, NULL, 10);
	guint64 got_calls = dra_allocator_get_stats(c->objects.alloc)->allocate_one_calls;
	if (want_calls == got_calls) {
		return TRUE;
	}
	g_string_append_printf(why,
	                       "    numAllocateOneInvocations expected %" G_GUINT64_FORMAT
	                       ", got %" G_GUINT64_FORMAT "\n",
	                       want_calls, got_calls);
	return FALSE;
}

/* Returns 1 pass, 0 fail (why filled). */
static int
run_case(const char *path, Tally *tally, GString *why)
{
	Case c = { 0 };
	gboolean verdict = load_case(path, &c, why) && build_allocator(&c, tally, why) &&
	                   collect_claims(&c, why);

	if (verdict) {
		const DraNode *node = header_node(&c, lookup(c.header, "node"));
		c.out = dra_allocator_allocate(c.objects.alloc, node, c.claims, c.n_claims);
		verdict = check_expect(&c, why) && check_stats(&c, tally, why);
	}
	case_clear(&c);
	return verdict ? 1 : 0;
}

static void
run_path(const char *path, Tally *tally)
{
	g_autoptr(GString) why = g_string_new(NULL);
	int r = run_case(path, tally, why);

	if (r > 0) {
		tally->passed++;
		if (tally->verbose) {
			g_print("PASS %s\n", path);
		}
	} else {
		tally->failed++;
		g_print("FAIL %s\n%s", path, why->str);
		if (why->len > 0 && why->str[why->len - 1] != '\n') {
			g_print("\n");
		}
	}
}

static void
run_dir(const char *dir, Tally *tally)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	if (d == NULL) {
		g_printerr("%s: cannot open directory\n", dir);
		tally->failed++;
		return;
	}
	while ((name = g_dir_read_name(d)) != NULL) {
		if (g_str_has_suffix(name, ".yaml")) {
			g_ptr_array_add(files, g_build_filename(dir, name, NULL));
		}
	}
	g_ptr_array_sort(files, cmp_str);
	for (guint i = 0; i < files->len; i++) {
		run_path(g_ptr_array_index(files, i), tally);
	}
}

int
main(int argc, char **argv)
{
	Tally tally = { 0 };
	GOptionEntry entries[] = {
		{ "verbose", 'v', 0, G_OPTION_ARG_NONE, &tally.verbose, "print passing cases too",
		  NULL },
		{ "no-quirks", 0, 0, G_OPTION_ARG_NONE, &tally.no_quirks,
		  "switch the data-dependent production quirks off (DraQuirks)", NULL },
		{ "prune", 0, 0, G_OPTION_ARG_NONE, &tally.prune,
		  "prune the search (the results must not change; upstream's step counts are "
		  "then not compared)",
		  NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("DIR|FILE... - run the allocator "
	                                                     "conformance corpus");
	g_option_context_add_main_entries(ctx, entries, NULL);
	int rc = conformance_parse_options(ctx, &argc, &argv);
	if (rc != CONFORMANCE_EXIT_OK) {
		return rc;
	}
	if (argc < 2) {
		g_printerr("usage: conformance-allocator [--prune] [--no-quirks] DIR|FILE...\n");
		return CONFORMANCE_EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++) {
		if (g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
			run_dir(argv[i], &tally);
		} else {
			run_path(argv[i], &tally);
		}
	}
	g_print("%u passed, %u failed, %u skipped\n", tally.passed, tally.failed, tally.skipped);
	return tally.failed > 0 ? CONFORMANCE_EXIT_FAILED : CONFORMANCE_EXIT_OK;
}
