/*
 * prop_write.c: a PropWorld as a replayable case file: the header document
 * (gates, node, claims to allocate, the failed property) and the manifests
 * (resource.k8s.io/v1) the world was read from, minus whatever the minimiser
 * dropped. prop_world_read() reads it back into the same world.
 */
#include <string.h>

#include "prop.h"

/* A double-quoted YAML scalar (CEL expressions are full of quotes). */
static void
quoted(GString *s, const char *text)
{
	g_string_append_c(s, '"');
	for (const char *p = text != NULL ? text : ""; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\') {
			g_string_append_c(s, '\\');
		}
		g_string_append_c(s, *p);
	}
	g_string_append_c(s, '"');
}

static void
milli(GString *s, DraMilli v)
{
	g_autofree char *text = dra_milli_format(v);
	quoted(s, text);
}

static void
pad(GString *s, guint depth)
{
	for (guint i = 0; i < depth; i++) {
		g_string_append(s, "  ");
	}
}

static void
write_header(GString *s, const PropWorld *w, const char *property)
{
	g_string_append_printf(
	        s, "kind: AllocatorPropertyCase\nseed: %" G_GUINT64_FORMAT "\ncase: %u\n", w->seed,
	        w->case_index);
	if (property != NULL) {
		g_string_append_printf(s, "property: %s\n", property);
	}
	g_string_append(s, "features: [");
	const char *const *names = dra_feature_names();
	guint n = 0;
	for (guint i = 0; names[i] != NULL; i++) {
		DraFeatures probe = w->features;
		/* a gate is on when setting it on changes nothing */
		dra_features_set(&probe, names[i], TRUE);
		if (memcmp(&probe, &w->features, sizeof(probe)) == 0) {
			g_string_append_printf(s, "%s%s", n++ > 0 ? ", " : "", names[i]);
		}
	}
	g_string_append(s, "]\nnode:\n  name: ");
	quoted(s, w->node.name);
	g_string_append(s, "\n  labels: {");
	for (guint i = 0; i < w->node.n_labels; i++) {
		g_string_append_printf(s, "%s%s: ", i > 0 ? ", " : "", w->node.label_keys[i]);
		quoted(s, w->node.label_values[i]);
	}
	g_string_append(s, "}\nclaimsToAllocate: [");
	for (guint i = 0; i < w->n_claims; i++) {
		g_string_append_printf(s, "%s%s", i > 0 ? ", " : "", w->claims[i].name);
	}
	g_string_append(s, "]\n");
}

static void
write_selectors(GString *s, guint depth, const char *const *sel, guint n)
{
	if (n == 0) {
		return;
	}
	pad(s, depth);
	g_string_append(s, "selectors:\n");
	for (guint i = 0; i < n; i++) {
		pad(s, depth);
		g_string_append(s, "- cel: {expression: ");
		quoted(s, sel[i]);
		g_string_append(s, "}\n");
	}
}

static void
write_class(GString *s, const DraClass *c)
{
	g_string_append_printf(s,
	                       "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
	                       "metadata: {name: %s}\nspec:\n",
	                       c->name);
	if (c->n_selectors == 0) {
		g_string_append(s, "  selectors: []\n");
	}
	write_selectors(s, 1, c->selectors, c->n_selectors);
}

static void
write_node_selector(GString *s, guint depth, const DraNodeSelector *sel)
{
	pad(s, depth);
	g_string_append(s, "nodeSelector:\n");
	pad(s, depth);
	g_string_append(s, "  nodeSelectorTerms:\n");
	for (guint t = 0; t < sel->n_terms; t++) {
		const DraNodeSelectorTerm *term = &sel->terms[t];
		pad(s, depth);
		g_string_append(s, "  - matchExpressions:\n");
		for (guint i = 0; i < term->n_match_expressions; i++) {
			const DraNodeSelectorRequirement *r = &term->match_expressions[i];
			pad(s, depth);
			g_string_append_printf(s, "    - {key: %s, operator: %s, values: [", r->key,
			                       r->op);
			for (guint v = 0; v < r->n_values; v++) {
				g_string_append(s, v > 0 ? ", " : "");
				quoted(s, r->values[v]);
			}
			g_string_append(s, "]}\n");
		}
	}
}

static void
write_counters(GString *s, const DraCounter *c, guint n)
{
	g_string_append(s, "counters: {");
	for (guint i = 0; i < n; i++) {
		g_string_append_printf(s, "%s%s: {value: ", i > 0 ? ", " : "", c[i].name);
		milli(s, c[i].value);
		g_string_append(s, "}");
	}
	g_string_append(s, "}");
}

static void
write_attribute(GString *s, const DraAttribute *a)
{
	g_string_append_printf(s, "      %s: {", a->name);
	switch (a->kind) {
	case DRA_ATTR_INT:
		g_string_append_printf(s, "int: %" G_GINT64_FORMAT, a->int_value);
		break;
	case DRA_ATTR_BOOL:
		g_string_append_printf(s, "bool: %s", a->bool_value ? "true" : "false");
		break;
	case DRA_ATTR_STRING:
		g_string_append(s, "string: ");
		quoted(s, a->string_value);
		break;
	case DRA_ATTR_VERSION:
		g_string_append(s, "version: ");
		quoted(s, a->string_value);
		break;
	}
	g_string_append(s, "}\n");
}

static void
write_policy(GString *s, const DraRequestPolicy *p)
{
	g_string_append(s, ", requestPolicy: {");
	const char *sep = "";
	if (p->has_default) {
		g_string_append(s, "default: ");
		milli(s, p->default_value);
		sep = ", ";
	}
	if (p->n_valid_values > 0) {
		g_string_append_printf(s, "%svalidValues: [", sep);
		for (guint i = 0; i < p->n_valid_values; i++) {
			g_string_append(s, i > 0 ? ", " : "");
			milli(s, p->valid_values[i]);
		}
		g_string_append(s, "]");
	}
	if (p->has_range) {
		g_string_append_printf(s, "%svalidRange: {min: ", sep);
		milli(s, p->range_min);
		if (p->has_range_max) {
			g_string_append(s, ", max: ");
			milli(s, p->range_max);
		}
		if (p->has_range_step) {
			g_string_append(s, ", step: ");
			milli(s, p->range_step);
		}
		g_string_append(s, "}");
	}
	g_string_append(s, "}");
}

static void
write_device(GString *s, const DraDevice *d)
{
	g_string_append_printf(s, "  - name: %s\n", d->name);
	if (d->allow_multiple_allocations) {
		g_string_append(s, "    allowMultipleAllocations: true\n");
	}
	if (d->n_attributes > 0) {
		g_string_append(s, "    attributes:\n");
	}
	for (guint i = 0; i < d->n_attributes; i++) {
		write_attribute(s, &d->attributes[i]);
	}
	if (d->n_capacity > 0) {
		g_string_append(s, "    capacity:\n");
	}
	for (guint i = 0; i < d->n_capacity; i++) {
		g_string_append_printf(s, "      %s: {value: ", d->capacity[i].name);
		milli(s, d->capacity[i].value);
		if (d->capacity[i].policy != NULL) {
			write_policy(s, d->capacity[i].policy);
		}
		g_string_append(s, "}\n");
	}
	if (d->n_consumes_counters > 0) {
		g_string_append(s, "    consumesCounters:\n");
	}
	for (guint i = 0; i < d->n_consumes_counters; i++) {
		const DraCounterConsumption *c = &d->consumes_counters[i];
		g_string_append_printf(s, "    - {counterSet: %s, ", c->counter_set);
		write_counters(s, c->counters, c->n_counters);
		g_string_append(s, "}\n");
	}
}

static void
write_slice(GString *s, const DraSlice *sl)
{
	g_string_append_printf(
	        s,
	        "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\n"
	        "metadata: {name: %s}\nspec:\n  driver: %s\n  pool: {name: %s, "
	        "generation: %" G_GINT64_FORMAT ", resourceSliceCount: %" G_GINT64_FORMAT "}\n",
	        sl->name, sl->driver, sl->pool, sl->generation, sl->resource_slice_count);
	if (sl->node_name != NULL && sl->node_name[0] != '\0') {
		g_string_append_printf(s, "  nodeName: %s\n", sl->node_name);
	} else if (sl->all_nodes) {
		g_string_append(s, "  allNodes: true\n");
	} else if (sl->node_selector != NULL) {
		write_node_selector(s, 1, sl->node_selector);
	}
	for (guint i = 0; i < sl->n_shared_counters; i++) {
		g_string_append(s, i == 0 ? "  sharedCounters:\n" : "");
		g_string_append_printf(s, "  - {name: %s, ", sl->shared_counters[i].name);
		write_counters(s, sl->shared_counters[i].counters,
		               sl->shared_counters[i].n_counters);
		g_string_append(s, "}\n");
	}
	g_string_append(s, sl->n_devices > 0 ? "  devices:\n" : "  devices: []\n");
	for (guint i = 0; i < sl->n_devices; i++) {
		write_device(s, &sl->devices[i]);
	}
}

static void
write_exact(GString *s, guint depth, const DraExactRequest *e)
{
	pad(s, depth);
	g_string_append_printf(s, "deviceClassName: %s\n", e->device_class_name);
	pad(s, depth);
	g_string_append_printf(s, "allocationMode: %s\n", e->allocation_mode);
	if (strcmp(e->allocation_mode, "ExactCount") == 0) {
		pad(s, depth);
		g_string_append_printf(s, "count: %" G_GINT64_FORMAT "\n", e->count);
	}
	write_selectors(s, depth, e->selectors, e->n_selectors);
	if (e->n_capacity_requests > 0) {
		pad(s, depth);
		g_string_append(s, "capacity:\n");
		pad(s, depth);
		g_string_append(s, "  requests:\n");
	}
	for (guint i = 0; i < e->n_capacity_requests; i++) {
		pad(s, depth);
		g_string_append_printf(s, "    %s: ", e->capacity_requests[i].name);
		milli(s, e->capacity_requests[i].value);
		g_string_append_c(s, '\n');
	}
}

static void
write_claim(GString *s, const DraClaim *c)
{
	g_string_append_printf(s,
	                       "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
	                       "metadata: {name: %s, namespace: %s}\nspec:\n  devices:\n"
	                       "    requests:\n",
	                       c->name, c->namespace_ != NULL ? c->namespace_ : "default");
	for (guint i = 0; i < c->n_requests; i++) {
		const DraRequest *r = &c->requests[i];
		g_string_append_printf(s, "    - name: %s\n", r->name);
		if (r->has_exactly) {
			g_string_append(s, "      exactly:\n");
			write_exact(s, 4, &r->exactly);
		}
		g_string_append(s, r->n_first_available > 0 ? "      firstAvailable:\n" : "");
		for (guint j = 0; j < r->n_first_available; j++) {
			g_string_append_printf(s, "      - name: %s\n", r->first_available[j].name);
			write_exact(s, 4, &r->first_available[j]);
		}
	}
	g_string_append(s, c->n_constraints > 0 ? "    constraints:\n" : "");
	for (guint i = 0; i < c->n_constraints; i++) {
		const DraConstraint *k = &c->constraints[i];
		g_string_append(s, "    - requests: [");
		for (guint j = 0; j < k->n_requests; j++) {
			g_string_append_printf(s, "%s%s", j > 0 ? ", " : "", k->requests[j]);
		}
		g_string_append_printf(
		        s, "]\n      %s: %s\n",
		        k->match_attribute != NULL ? "matchAttribute" : "distinctAttribute",
		        k->match_attribute != NULL ? k->match_attribute : k->distinct_attribute);
	}
}

/* The held devices as one allocated claim (its spec only has to decode). */
static void
write_held(GString *s, const PropWorld *w)
{
	if (w->n_held == 0) {
		return;
	}
	g_string_append(s, "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
	                   "metadata: {name: held-by-others, namespace: default}\n"
	                   "spec:\n  devices:\n    requests:\n    - name: held\n"
	                   "      exactly: {deviceClassName: held}\nstatus:\n  allocation:\n"
	                   "    devices:\n      results:\n");
	for (guint i = 0; i < w->n_held; i++) {
		const PropHeld *h = &w->held[i];
		g_string_append_printf(s,
		                       "      - {request: held, driver: %s, pool: %s, device: %s",
		                       h->driver, h->pool, h->device);
		if (h->shared) {
			g_string_append_printf(s, ", shareID: 00000000-0000-4000-8000-%012u", i);
		}
		for (guint j = 0; j < h->n_consumed; j++) {
			g_string_append_printf(s, "%s%s: ", j == 0 ? ", consumedCapacity: {" : ", ",
			                       h->consumed[j].name);
			milli(s, h->consumed[j].value);
		}
		g_string_append(s, h->n_consumed > 0 ? "}}\n" : "}\n");
	}
}

char *
prop_world_write(const PropWorld *w, const char *property)
{
	GString *s = g_string_new(NULL);

	write_header(s, w, property);
	for (guint i = 0; i < w->n_classes; i++) {
		write_class(s, &w->classes[i]);
	}
	for (guint i = 0; i < w->n_slices; i++) {
		write_slice(s, &w->slices[i]);
	}
	write_held(s, w);
	for (guint i = 0; i < w->n_claims; i++) {
		write_claim(s, &w->claims[i]);
	}
	return g_string_free(s, FALSE);
}
