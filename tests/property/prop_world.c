/*
 * prop_world.c: reading a property case (a header document plus manifests)
 * into a PropWorld, deep copies for the minimiser and the permutations.
 *
 * The manifests go through model/api's loader and DraInput, the path every
 * drasim command takes, so a generated case and its printed replay are the
 * same input. The header says what the manifests cannot: the gates, the node,
 * which claims to allocate. Claims with status.allocation are "held": their
 * devices are in use (the scheduler's allocated state).
 */
#include <string.h>

#include "base.h"
#include "dra_k8s.h"
#include "k8s_objects.h"
#include "k8s_yaml_read.h"
#include "prop.h"

/* What the strings of a world live in; shared by its copies. */
typedef struct {
	char *data;
	BaseArena *arena;
	GStringChunk *strings;
	K8sObjectSet *set;
	DraInput *input;
} Source;

static void
source_clear(gpointer p)
{
	Source *s = p;
	dra_input_free(s->input);
	k8s_object_set_free(s->set);
	if (s->strings != NULL) {
		g_string_chunk_free(s->strings);
	}
	base_arena_free(s->arena);
	g_free(s->data);
}

gpointer
prop_world_dup(PropWorld *w, gconstpointer data, gsize size, guint n)
{
	if (n == 0 || data == NULL) {
		return NULL;
	}
	gpointer p = g_memdup2(data, size * n);
	g_ptr_array_add(w->blocks, p);
	return p;
}

#define DUP(w, field, n) prop_world_dup((w), (field), sizeof(*(field)), (n))

static PropWorld *
world_new(gpointer source)
{
	PropWorld *w = g_new0(PropWorld, 1);
	w->blocks = g_ptr_array_new_with_free_func(g_free);
	w->source = g_rc_box_acquire(source);
	return w;
}

void
prop_world_free(PropWorld *w)
{
	if (w == NULL) {
		return;
	}
	g_ptr_array_unref(w->blocks);
	g_rc_box_release_full(w->source, source_clear);
	g_free(w);
}

/* ---- deep copies (strings stay borrowed) ---- */

static const DraNodeSelector *
copy_selector(PropWorld *w, const DraNodeSelector *s)
{
	if (s == NULL) {
		return NULL;
	}
	DraNodeSelector *c = DUP(w, s, 1);
	DraNodeSelectorTerm *terms = DUP(w, s->terms, s->n_terms);
	for (guint i = 0; i < s->n_terms; i++) {
		terms[i].match_expressions =
		        DUP(w, terms[i].match_expressions, terms[i].n_match_expressions);
		terms[i].match_fields = DUP(w, terms[i].match_fields, terms[i].n_match_fields);
	}
	c->terms = terms;
	return c;
}

static void
copy_device(PropWorld *w, DraDevice *d)
{
	d->attributes = DUP(w, d->attributes, d->n_attributes);
	DraCapacity *caps = DUP(w, d->capacity, d->n_capacity);
	for (guint i = 0; i < d->n_capacity; i++) {
		caps[i].policy = DUP(w, caps[i].policy, caps[i].policy != NULL ? 1 : 0);
	}
	d->capacity = caps;
	DraCounterConsumption *cc = DUP(w, d->consumes_counters, d->n_consumes_counters);
	for (guint i = 0; i < d->n_consumes_counters; i++) {
		cc[i].counters = DUP(w, cc[i].counters, cc[i].n_counters);
	}
	d->consumes_counters = cc;
	d->node_selector = copy_selector(w, d->node_selector);
}

static void
copy_slice(PropWorld *w, DraSlice *s)
{
	s->node_selector = copy_selector(w, s->node_selector);
	DraDevice *devs = DUP(w, s->devices, s->n_devices);
	for (guint i = 0; i < s->n_devices; i++) {
		copy_device(w, &devs[i]);
	}
	s->devices = devs;
	DraCounterSet *sets = DUP(w, s->shared_counters, s->n_shared_counters);
	for (guint i = 0; i < s->n_shared_counters; i++) {
		sets[i].counters = DUP(w, sets[i].counters, sets[i].n_counters);
	}
	s->shared_counters = sets;
}

static void
copy_exact(PropWorld *w, DraExactRequest *e)
{
	e->selectors = DUP(w, e->selectors, e->n_selectors);
	e->capacity_requests = DUP(w, e->capacity_requests, e->n_capacity_requests);
}

static void
copy_claim(PropWorld *w, DraClaim *c)
{
	DraRequest *reqs = DUP(w, c->requests, c->n_requests);
	for (guint i = 0; i < c->n_requests; i++) {
		copy_exact(w, &reqs[i].exactly);
		DraExactRequest *subs = DUP(w, reqs[i].first_available, reqs[i].n_first_available);
		for (guint j = 0; j < reqs[i].n_first_available; j++) {
			copy_exact(w, &subs[j]);
		}
		reqs[i].first_available = subs;
	}
	c->requests = reqs;
	DraConstraint *cons = DUP(w, c->constraints, c->n_constraints);
	for (guint i = 0; i < c->n_constraints; i++) {
		cons[i].requests = DUP(w, cons[i].requests, cons[i].n_requests);
	}
	c->constraints = cons;
}

/* Everything but the strings into memory of @w (whose top-level fields are set). */
static void
copy_arrays(PropWorld *w)
{
	w->node.label_keys = DUP(w, w->node.label_keys, w->node.n_labels);
	w->node.label_values = DUP(w, w->node.label_values, w->node.n_labels);
	w->classes = DUP(w, w->classes, w->n_classes);
	for (guint i = 0; i < w->n_classes; i++) {
		w->classes[i].selectors =
		        DUP(w, w->classes[i].selectors, w->classes[i].n_selectors);
	}
	w->slices = DUP(w, w->slices, w->n_slices);
	for (guint i = 0; i < w->n_slices; i++) {
		copy_slice(w, &w->slices[i]);
	}
	w->claims = DUP(w, w->claims, w->n_claims);
	for (guint i = 0; i < w->n_claims; i++) {
		copy_claim(w, &w->claims[i]);
	}
	w->held = DUP(w, w->held, w->n_held);
	for (guint i = 0; i < w->n_held; i++) {
		w->held[i].consumed = DUP(w, w->held[i].consumed, w->held[i].n_consumed);
	}
}

PropWorld *
prop_world_copy(const PropWorld *src)
{
	PropWorld *w = world_new(src->source);
	GPtrArray *blocks = w->blocks;
	gpointer source = w->source;

	*w = *src;
	w->blocks = blocks;
	w->source = source;
	copy_arrays(w);
	return w;
}

/* ---- reading ---- */

static const K8sYamlNode *
map_get(const K8sYamlNode *map, const char *key)
{
	return map != NULL && map->kind == K8S_YAML_MAPPING ? k8s_yaml_map_lookup(map, key) : NULL;
}

static gboolean
read_features(K8sYamlReader *r, const K8sYamlNode *list, DraFeatures *out)
{
	*out = dra_features_none();
	if (list == NULL) {
		return TRUE;
	}
	if (!k8s_yaml_read_seq(r, list, "features")) {
		return FALSE;
	}
	for (guint i = 0; i < list->seq.n; i++) {
		g_autofree char *path = g_strdup_printf("features[%u]", i);
		g_autofree char *name = k8s_yaml_read_string(r, list->seq.items[i], path);
		if (name == NULL) {
			return FALSE;
		}
		if (!dra_features_set(out, name, TRUE)) {
			g_autofree char *valid = g_strjoinv(", ", (char **)dra_feature_names());
			k8s_yaml_read_error(r, list->seq.items[i], path,
			                    "unknown gate %s (valid: %s)", name, valid);
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean
read_node(K8sYamlReader *r, const K8sYamlNode *node, PropWorld *w)
{
	if (node == NULL || !k8s_yaml_read_map(r, node, "node")) {
		k8s_yaml_read_error(r, node, "node", "expected the node: {name, labels}");
		return FALSE;
	}
	const char *name = k8s_yaml_map_lookup(node, "name") != NULL
	                           ? k8s_yaml_read_string(r, map_get(node, "name"), "node.name")
	                           : NULL;
	if (name == NULL) {
		return FALSE;
	}
	g_ptr_array_add(w->blocks, (gpointer)name);
	w->node.name = name;
	const K8sYamlNode *labels = map_get(node, "labels");
	if (labels == NULL) {
		return TRUE;
	}
	if (!k8s_yaml_read_map(r, labels, "node.labels")) {
		return FALSE;
	}
	const char **keys = g_new0(const char *, labels->map.n + 1);
	const char **values = g_new0(const char *, labels->map.n + 1);
	g_ptr_array_add(w->blocks, keys);
	g_ptr_array_add(w->blocks, values);
	for (guint i = 0; i < labels->map.n; i++) {
		keys[i] = labels->map.pairs[i].key->scalar.text;
		g_autofree char *path = g_strdup_printf("node.labels.%s", keys[i]);
		char *v = k8s_yaml_read_string(r, labels->map.pairs[i].value, path);
		if (v == NULL) {
			return FALSE;
		}
		g_ptr_array_add(w->blocks, v);
		values[i] = v;
	}
	w->node.label_keys = keys;
	w->node.label_values = values;
	w->node.n_labels = labels->map.n;
	return TRUE;
}

static const char *const header_keys[] = {
	"kind", "seed", "case", "property", "features", "node", "claimsToAllocate", NULL
};

static gboolean
read_header(K8sYamlReader *r, const K8sYamlNode *h, PropWorld *w, GPtrArray *claim_names)
{
	const K8sYamlNode *kind_node = map_get(h, "kind");
	const char *kind = kind_node != NULL && kind_node->kind == K8S_YAML_SCALAR
	                           ? kind_node->scalar.text
	                           : NULL;
	if (kind == NULL || strcmp(kind, "AllocatorPropertyCase") != 0) {
		k8s_yaml_read_error(r, h, "kind",
		                    "the first document must be the header, kind: "
		                    "AllocatorPropertyCase");
		return FALSE;
	}
	if (!k8s_yaml_read_keys(r, h, "", header_keys, BASE_STRICT_HINT_LIST)) {
		return FALSE;
	}
	guint64 v = 0;
	if (map_get(h, "seed") != NULL &&
	    k8s_yaml_read_uint(r, map_get(h, "seed"), "seed", G_MAXUINT64, &v)) {
		w->seed = v;
	}
	if (map_get(h, "case") != NULL &&
	    k8s_yaml_read_uint(r, map_get(h, "case"), "case", G_MAXUINT, &v)) {
		w->case_index = (guint)v;
	}
	const K8sYamlNode *names = map_get(h, "claimsToAllocate");
	if (!read_features(r, map_get(h, "features"), &w->features) ||
	    !read_node(r, map_get(h, "node"), w) || names == NULL ||
	    !k8s_yaml_read_seq(r, names, "claimsToAllocate")) {
		return FALSE;
	}
	for (guint i = 0; i < names->seq.n; i++) {
		g_autofree char *path = g_strdup_printf("claimsToAllocate[%u]", i);
		char *name = k8s_yaml_read_string(r, names->seq.items[i], path);
		if (name == NULL) {
			return FALSE;
		}
		g_ptr_array_add(claim_names, name);
	}
	return TRUE;
}

/* Held devices: the results of every claim that is already allocated. */
static void
read_held(PropWorld *w, K8sResourceClaim *rc, GArray *held)
{
	const K8sAllocationResult *a = rc->status.allocation;
	for (guint i = 0; a != NULL && i < a->n_results; i++) {
		const K8sDeviceRequestAllocationResult *r = &a->results[i];
		PropHeld h = { r->driver, r->pool, r->device, r->share_id != NULL, NULL, 0 };
		const K8sQtyMap *cc = &r->consumed_capacity;
		DraConsumed *consumed = g_new0(DraConsumed, MAX(cc->n, 1));
		g_ptr_array_add(w->blocks, consumed);
		for (guint j = 0; j < cc->n; j++) {
			consumed[j].name = cc->items[j].key;
			if (cc->items[j].value.text != NULL) {
				dra_milli_parse(cc->items[j].value.text, &consumed[j].value);
			}
		}
		h.consumed = consumed;
		h.n_consumed = cc->n;
		g_array_append_val(held, h);
	}
}

/* The manifests as dra.h structs, in input order, into @w (arrays not yet owned). */
static gboolean
read_objects(PropWorld *w, Source *s, GPtrArray *claim_names, GString *why)
{
	g_autoptr(GArray) classes = g_array_new(FALSE, TRUE, sizeof(DraClass));
	g_autoptr(GArray) slices = g_array_new(FALSE, TRUE, sizeof(DraSlice));
	g_autoptr(GArray) claims = g_array_new(FALSE, TRUE, sizeof(DraClaim));
	g_autoptr(GArray) held = g_array_new(FALSE, TRUE, sizeof(PropHeld));

	for (guint i = 0; i < k8s_object_set_count(s->set); i++) {
		K8sObject *o = k8s_object_set_get(s->set, i);
		if (o->kind == K8S_KIND_DEVICE_CLASS) {
			g_array_append_val(
			        classes, *dra_input_class(s->input, k8s_object_as_device_class(o)));
		} else if (o->kind == K8S_KIND_RESOURCE_SLICE) {
			g_array_append_val(
			        slices,
			        *dra_input_slice(s->input, k8s_object_as_resource_slice(o)));
		} else if (o->kind == K8S_KIND_RESOURCE_CLAIM) {
			read_held(w, k8s_object_as_resource_claim(o), held);
		} else {
			g_string_append_printf(why,
			                       "%s %s: the property runner reads only "
			                       "DeviceClass, ResourceSlice and ResourceClaim",
			                       k8s_kind_name(o->kind), o->metadata.name);
			return FALSE;
		}
	}
	for (guint i = 0; i < classes->len; i++) {
		if (g_array_index(classes, DraClass, i).n_config > 0) {
			g_string_append_printf(why,
			                       "DeviceClass %s: spec.config is not read by the "
			                       "property runner (remove it)",
			                       g_array_index(classes, DraClass, i).name);
			return FALSE;
		}
	}
	for (guint i = 0; i < claim_names->len; i++) {
		const char *name = claim_names->pdata[i];
		K8sObject *o = k8s_object_set_lookup(s->set, K8S_KIND_RESOURCE_CLAIM, NULL, name);
		if (o == NULL) {
			g_string_append_printf(why,
			                       "claimsToAllocate[%u]: no ResourceClaim %s in the "
			                       "file",
			                       i, name);
			return FALSE;
		}
		K8sResourceClaim *rc = k8s_object_as_resource_claim(o);
		if (rc->spec.n_config > 0) {
			g_string_append_printf(why,
			                       "ResourceClaim %s: spec.devices.config is not read "
			                       "by the property runner (remove it)",
			                       name);
			return FALSE;
		}
		g_array_append_val(claims, *dra_input_claim(s->input, k8s_object_namespace(o),
		                                            o->metadata.name, &rc->spec));
	}
	w->n_classes = classes->len;
	w->classes = (DraClass *)classes->data;
	w->n_slices = slices->len;
	w->slices = (DraSlice *)slices->data;
	w->n_claims = claims->len;
	w->claims = (DraClaim *)claims->data;
	w->n_held = held->len;
	w->held = (PropHeld *)held->data;
	copy_arrays(w);
	return TRUE;
}

/* The errors of @diags from line @from on, as @error. */
static void
fail_with_diags(K8sDiagList *diags, guint from, const char *what, GError **error)
{
	GString *s = g_string_new(what);
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		const K8sDiag *d = k8s_diag_list_get(diags, i);
		if (d->severity == K8S_SEVERITY_ERROR && d->pos.line >= from) {
			g_autofree char *text = k8s_diag_format(d);
			g_string_append_printf(s, "%s%s", s->len > 0 ? "\n" : "", text);
		}
	}
	g_set_error_literal(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, s->str);
	g_string_free(s, TRUE);
}

PropWorld *
prop_world_read(const char *name, const char *text, gsize len, GError **error)
{
	Source *s = g_rc_box_new0(Source);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(K8sDiagList) load_diags = k8s_diag_list_new();
	g_autoptr(GPtrArray) claim_names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GString) why = g_string_new(NULL);
	K8sYamlFile file = { 0 };

	s->data = g_strndup(text, len);
	s->arena = base_arena_new();
	s->strings = g_string_chunk_new(4096);
	s->set = k8s_object_set_new();
	s->input = dra_input_new();
	g_autoptr(PropWorld) w = world_new(s);
	g_rc_box_release_full(s, source_clear);
	K8sYamlReader r = { name, diags };
	if (!k8s_yaml_parse(&(K8sYamlInput){ name, s->data, len, s->arena, s->strings, diags },
	                    &file) ||
	    file.n_docs < 2 || !read_header(&r, file.docs[0].root, w, claim_names)) {
		fail_with_diags(diags, 0,
		                file.n_docs < 2 ? "a case is a header document and manifests" : "",
		                error);
		return NULL;
	}
	guint header_end = file.docs[1].root->line;
	k8s_load_data(name, s->data, len, K8S_LOAD_DEFAULT, s->set, load_diags);
	for (guint i = 0; i < k8s_diag_list_count(load_diags); i++) {
		const K8sDiag *d = k8s_diag_list_get(load_diags, i);
		/* the header is not a manifest: the loader's complaints about it do not count */
		if (d->severity == K8S_SEVERITY_ERROR && d->pos.line >= header_end) {
			fail_with_diags(load_diags, header_end, "", error);
			return NULL;
		}
	}
	if (!read_objects(w, s, claim_names, why)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s: %s", name, why->str);
		return NULL;
	}
	return g_steal_pointer(&w);
}
