/*
 * prop_oracle.c: what the API says a correct answer is, written from the
 * resource.k8s.io/v1 types and ../shared/reference/dra-allocator.md without
 * looking at model/dra's search: which devices a node sees (node selection,
 * newest pool generation), attribute lookup by fully qualified name, which
 * requests a constraint names, and what a capacity request consumes. Selectors
 * are evaluated with model/cel's DRA environment directly, one device at a
 * time, not through the allocator's caches. The checks (prop_check.c) and the
 * brute force (prop_brute.c) both stand on this file.
 */
#include <string.h>

#include "dra_k8s.h"
#include "prop.h"

struct PropOracle {
	const PropWorld *w;
	DraCel *cel;
	GHashTable *programs; /* expression -> compiled program (NULL: did not compile) */
	GArray *devices;      /* PropDevice */
	gpointer *views;      /* one CEL view per visible device */
};

static gboolean
requirement_matches(const DraNodeSelectorRequirement *r, const DraNode *node)
{
	const char *value = NULL;
	for (guint i = 0; i < node->n_labels; i++) {
		if (strcmp(node->label_keys[i], r->key) == 0) {
			value = node->label_values[i];
		}
	}
	gboolean listed = FALSE;
	for (guint i = 0; value != NULL && i < r->n_values; i++) {
		listed |= strcmp(r->values[i], value) == 0;
	}
	if (strcmp(r->op, "In") == 0) {
		return listed;
	}
	if (strcmp(r->op, "NotIn") == 0) {
		return !listed;
	}
	if (strcmp(r->op, "Exists") == 0) {
		return value != NULL;
	}
	return strcmp(r->op, "DoesNotExist") == 0 && value == NULL;
}

/* Terms are ORed, the expressions of a term ANDed (the generator writes only these). */
static gboolean
selector_matches(const DraNodeSelector *s, const DraNode *node)
{
	for (guint t = 0; t < s->n_terms; t++) {
		gboolean all = s->terms[t].n_match_expressions > 0;
		for (guint i = 0; i < s->terms[t].n_match_expressions; i++) {
			all &= requirement_matches(&s->terms[t].match_expressions[i], node);
		}
		if (all) {
			return TRUE;
		}
	}
	return FALSE;
}

static gboolean
slice_on_node(const DraSlice *s, const DraNode *node)
{
	if (s->node_name != NULL && s->node_name[0] != '\0') {
		return strcmp(s->node_name, node->name) == 0;
	}
	if (s->all_nodes) {
		return TRUE;
	}
	return s->node_selector != NULL && selector_matches(s->node_selector, node);
}

static gboolean
same_pool(const DraSlice *a, const DraSlice *b)
{
	return strcmp(a->driver, b->driver) == 0 && strcmp(a->pool, b->pool) == 0;
}

/* Visible devices: slices on the node, of their pool's newest generation there. */
static void
gather(PropOracle *o)
{
	const PropWorld *w = o->w;
	for (guint i = 0; i < w->n_slices; i++) {
		const DraSlice *s = &w->slices[i];
		gboolean newest = slice_on_node(s, &w->node);
		for (guint j = 0; newest && j < w->n_slices; j++) {
			const DraSlice *t = &w->slices[j];
			newest = !(slice_on_node(t, &w->node) && same_pool(s, t) &&
			           t->generation > s->generation);
		}
		for (guint d = 0; newest && d < s->n_devices; d++) {
			PropDevice pd = { s, &s->devices[d],
				          w->features.consumable_capacity &&
				                  s->devices[d].allow_multiple_allocations };
			g_array_append_val(o->devices, pd);
		}
	}
	o->views = g_new0(gpointer, MAX(o->devices->len, 1));
}

PropOracle *
prop_oracle_new(const PropWorld *w)
{
	PropOracle *o = g_new0(PropOracle, 1);
	o->w = w;
	o->cel = dra_cel_new(&w->features);
	o->programs = g_hash_table_new(g_str_hash, g_str_equal);
	o->devices = g_array_new(FALSE, TRUE, sizeof(PropDevice));
	gather(o);
	return o;
}

static void
free_program(gpointer key, gpointer value, gpointer data)
{
	PropOracle *o = data;
	if (value != NULL) {
		dra_cel_get_ops()->free_program(o->cel, value);
	}
}

void
prop_oracle_free(PropOracle *o)
{
	if (o == NULL) {
		return;
	}
	for (guint i = 0; i < o->devices->len; i++) {
		if (o->views[i] != NULL) {
			dra_cel_get_ops()->free_view(o->cel, o->views[i]);
		}
	}
	g_hash_table_foreach(o->programs, free_program, o);
	g_hash_table_unref(o->programs);
	g_array_unref(o->devices);
	g_free(o->views);
	dra_cel_free(o->cel);
	g_free(o);
}

const PropDevice *
prop_oracle_devices(const PropOracle *o, guint *n)
{
	*n = o->devices->len;
	return (const PropDevice *)o->devices->data;
}

gint
prop_oracle_find(const PropOracle *o, const char *driver, const char *pool, const char *name)
{
	for (guint i = 0; i < o->devices->len; i++) {
		const PropDevice *d = &g_array_index(o->devices, PropDevice, i);
		if (strcmp(d->slice->driver, driver) == 0 && strcmp(d->slice->pool, pool) == 0 &&
		    strcmp(d->device->name, name) == 0) {
			return (gint)i;
		}
	}
	return -1;
}

static gboolean
eval(PropOracle *o, const char *expression, guint d)
{
	gpointer program = NULL;
	if (expression == NULL) {
		return FALSE;
	}
	if (!g_hash_table_lookup_extended(o->programs, expression, NULL, &program)) {
		g_autoptr(GError) error = NULL;
		program = dra_cel_get_ops()->compile(o->cel, expression, &error);
		g_hash_table_insert(o->programs, (gpointer)expression, program);
	}
	if (program == NULL) {
		return FALSE;
	}
	const PropDevice *pd = &g_array_index(o->devices, PropDevice, d);
	const char *message = NULL;
	return dra_cel_get_ops()->eval(o->cel, program, pd->device, pd->slice->driver, &o->views[d],
	                               &message) == DRA_MATCH_TRUE;
}

gboolean
prop_oracle_selects(PropOracle *o, const DraExactRequest *req, guint d)
{
	const DraClass *klass = NULL;
	for (guint i = 0; i < o->w->n_classes; i++) {
		if (strcmp(o->w->classes[i].name, req->device_class_name) == 0) {
			klass = &o->w->classes[i];
		}
	}
	if (klass == NULL) {
		return FALSE;
	}
	for (guint i = 0; i < klass->n_selectors; i++) {
		if (!eval(o, klass->selectors[i], d)) {
			return FALSE;
		}
	}
	for (guint i = 0; i < req->n_selectors; i++) {
		if (!eval(o, req->selectors[i], d)) {
			return FALSE;
		}
	}
	return TRUE;
}

const DraExactRequest *
prop_oracle_request(const DraClaim *claim, const char *result_name, const DraRequest **parent)
{
	const char *slash = strchr(result_name, '/');
	gsize len = slash != NULL ? (gsize)(slash - result_name) : strlen(result_name);
	for (guint i = 0; i < claim->n_requests; i++) {
		const DraRequest *r = &claim->requests[i];
		if (strlen(r->name) != len || strncmp(r->name, result_name, len) != 0) {
			continue;
		}
		*parent = r;
		if (slash == NULL) {
			return r->has_exactly ? &r->exactly : NULL;
		}
		for (guint j = 0; j < r->n_first_available; j++) {
			if (strcmp(r->first_available[j].name, slash + 1) == 0) {
				return &r->first_available[j];
			}
		}
	}
	return NULL;
}

/* An empty list names every request; "req" covers its sub-requests too. */
gboolean
prop_oracle_constraint_applies(const DraConstraint *c, const char *result_name)
{
	const char *slash = strchr(result_name, '/');
	gsize len = slash != NULL ? (gsize)(slash - result_name) : strlen(result_name);
	if (c->n_requests == 0) {
		return TRUE;
	}
	for (guint i = 0; i < c->n_requests; i++) {
		if (strcmp(c->requests[i], result_name) == 0 ||
		    (strlen(c->requests[i]) == len &&
		     strncmp(c->requests[i], result_name, len) == 0)) {
			return TRUE;
		}
	}
	return FALSE;
}

/* A bare id is published in the driver's domain (API: QualifiedName). */
const DraAttribute *
prop_oracle_attribute(const PropDevice *d, const char *qualified)
{
	const char *slash = strchr(qualified, '/');
	for (guint i = 0; i < d->device->n_attributes; i++) {
		const DraAttribute *a = &d->device->attributes[i];
		if (strcmp(a->name, qualified) == 0) {
			return a;
		}
		if (slash != NULL && strchr(a->name, '/') == NULL &&
		    strcmp(a->name, slash + 1) == 0 &&
		    strlen(d->slice->driver) == (gsize)(slash - qualified) &&
		    strncmp(d->slice->driver, qualified, (gsize)(slash - qualified)) == 0) {
			return a;
		}
	}
	return NULL;
}

gboolean
prop_oracle_attr_equal(const DraAttribute *a, const DraAttribute *b)
{
	if (a->kind != b->kind) {
		return FALSE;
	}
	switch (a->kind) {
	case DRA_ATTR_INT:
		return a->int_value == b->int_value;
	case DRA_ATTR_BOOL:
		return a->bool_value == b->bool_value;
	default:
		return g_strcmp0(a->string_value, b->string_value) == 0;
	}
}

static const DraCapacityRequest *
requested(const DraExactRequest *req, const char *name)
{
	for (guint i = 0; i < req->n_capacity_requests; i++) {
		if (strcmp(req->capacity_requests[i].name, name) == 0) {
			return &req->capacity_requests[i];
		}
	}
	return NULL;
}

gboolean
prop_oracle_has_requested(const DraExactRequest *req, const DraDevice *dev)
{
	for (guint i = 0; i < req->n_capacity_requests; i++) {
		gboolean found = FALSE;
		for (guint j = 0; j < dev->n_capacity; j++) {
			found |= strcmp(dev->capacity[j].name, req->capacity_requests[i].name) == 0;
		}
		if (!found) {
			return FALSE;
		}
	}
	return TRUE;
}

/*
 * KEP-5075 (consumable capacity): no request takes the policy's default, or the
 * whole capacity without a default; a request is raised to the smallest valid
 * value (validValues) or to min + k*step within validRange.
 */
gboolean
prop_oracle_consumed(const DraExactRequest *req, const DraCapacity *cap, DraMilli *out)
{
	const DraCapacityRequest *r = requested(req, cap->name);
	const DraRequestPolicy *p = cap->policy;
	if (r == NULL) {
		*out = p != NULL && p->has_default ? p->default_value : cap->value;
		return TRUE;
	}
	*out = r->value;
	if (p == NULL) {
		return TRUE;
	}
	if (p->n_valid_values > 0) {
		for (guint i = 0; i < p->n_valid_values; i++) {
			if (p->valid_values[i] >= r->value) {
				*out = p->valid_values[i];
				return TRUE;
			}
		}
		return FALSE;
	}
	if (p->has_range) {
		if (r->value <= p->range_min) {
			*out = p->range_min;
		} else if (p->has_range_step && p->range_step > 0) {
			DraMilli k = (r->value - p->range_min + p->range_step - 1) / p->range_step;
			*out = p->range_min + k * p->range_step;
		}
		return !(p->has_range_max && *out > p->range_max);
	}
	return TRUE;
}

/* What other claims' shares of visible device @d consume of capacity @name. */
DraMilli
prop_oracle_held_shares(const PropWorld *w, const PropDevice *d, const char *name)
{
	DraMilli sum = 0;
	for (guint i = 0; i < w->n_held; i++) {
		const PropHeld *h = &w->held[i];
		if (!h->shared || strcmp(h->driver, d->slice->driver) != 0 ||
		    strcmp(h->pool, d->slice->pool) != 0 ||
		    strcmp(h->device, d->device->name) != 0) {
			continue;
		}
		for (guint j = 0; j < h->n_consumed; j++) {
			sum += strcmp(h->consumed[j].name, name) == 0 ? h->consumed[j].value : 0;
		}
	}
	return sum;
}

gboolean
prop_oracle_capacity_fits(const PropOracle *o, const DraExactRequest *req, guint d)
{
	const PropDevice *pd = &g_array_index(o->devices, PropDevice, d);
	if (!o->w->features.consumable_capacity) {
		return TRUE;
	}
	if (!prop_oracle_has_requested(req, pd->device)) {
		return FALSE;
	}
	for (guint i = 0; i < pd->device->n_capacity; i++) {
		const DraCapacity *cap = &pd->device->capacity[i];
		DraMilli want = 0;
		if (!prop_oracle_consumed(req, cap, &want)) {
			return !pd->multi; /* a dedicated device is not held to the policy */
		}
		if (want + (pd->multi ? prop_oracle_held_shares(o->w, pd, cap->name) : 0) >
		    cap->value) {
			return FALSE;
		}
	}
	return TRUE;
}

/* What @dev consumes of counter @name in counter set @set (summed over its entries). */
DraMilli
prop_oracle_counter_consumption(const DraDevice *dev, const char *set, const char *name)
{
	DraMilli sum = 0;

	for (guint u = 0; u < dev->n_consumes_counters; u++) {
		const DraCounterConsumption *cc = &dev->consumes_counters[u];

		for (guint v = 0; strcmp(cc->counter_set, set) == 0 && v < cc->n_counters; v++)
			sum += strcmp(cc->counters[v].name, name) == 0 ? cc->counters[v].value : 0;
	}
	return sum;
}
