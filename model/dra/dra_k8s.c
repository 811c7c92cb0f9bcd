/*
 * dra_k8s.c: converts decoded Kubernetes objects into the allocator's structs.
 *
 * The allocator reads plain arrays; the decoder keeps positions and "as written"
 * details the allocator does not need. Conversion copies array shapes into a
 * DraInput-owned arena (GPtrArray of blocks) and borrows every string from the
 * object set, so it is cheap and done once per object.
 *
 * Nodes of one shape publish the same devices but for a few attributes (the GPUs'
 * uuid, the NICs' mac): a device whose attributes match the same device of the
 * driver's previous slice but for those shares that slice's array and keeps only
 * them (DraDevice.node_attributes), so a node costs a few hundred bytes of
 * attributes instead of 7 kB (docs/cluster.md "Memory").
 */
#include "dra_k8s.h"

#include <string.h>

struct DraInput {
	GPtrArray *blocks;     /* g_free'd */
	GHashTable *recent;    /* driver -> the last DraSlice converted (borrowed keys) */
	GHashTable *stampable; /* driver -> its recent slice, if every device shares */
	GArray *stamp_own;     /* DraAttribute: a stamp's own attributes being made */
};

DraInput *
dra_input_new(void)
{
	DraInput *self = g_new0(DraInput, 1);
	self->blocks = g_ptr_array_new_with_free_func(g_free);
	self->recent = g_hash_table_new(g_str_hash, g_str_equal);
	self->stampable = g_hash_table_new(g_str_hash, g_str_equal);
	self->stamp_own = g_array_new(FALSE, FALSE, sizeof(DraAttribute));
	return self;
}

void
dra_input_free(DraInput *self)
{
	if (self == NULL) {
		return;
	}
	g_ptr_array_unref(self->blocks);
	g_hash_table_unref(self->recent);
	g_hash_table_unref(self->stampable);
	g_array_unref(self->stamp_own);
	g_free(self);
}

/* Every empty array: never written (a loop over 0 items), a NULL-terminated strv. */
static const gint64 empty_array[8];

static gpointer
alloc0(DraInput *self, gsize n, gsize size)
{
	if (n == 0)
		return (gpointer)empty_array;
	gpointer p = g_malloc0(MAX(n, 1) * size);
	g_ptr_array_add(self->blocks, p);
	return p;
}

#define NEW0(self, type, n) ((type *)alloc0((self), (n), sizeof(type)))

static DraMilli
qty_milli(const K8sQty *q)
{
	DraMilli v = 0;

	if (q->valid) {
		return k8s_quantity_milli_value(&q->value);
	}
	if (q->text != NULL && dra_milli_parse(q->text, &v)) {
		return v;
	}
	return 0;
}

static const char *const *
strv(DraInput *self, const K8sStringList *list)
{
	const char **out = NEW0(self, const char *, list->n + 1);
	for (guint i = 0; i < list->n; i++) {
		out[i] = list->items[i];
	}
	return out;
}

static void
convert_requirements(DraInput *self,
                     const K8sNodeSelectorRequirement *in,
                     guint n,
                     const DraNodeSelectorRequirement **out,
                     guint *n_out)
{
	DraNodeSelectorRequirement *reqs = NEW0(self, DraNodeSelectorRequirement, n);
	for (guint i = 0; i < n; i++) {
		reqs[i].key = in[i].key != NULL ? in[i].key : "";
		reqs[i].op = in[i].operator_ != NULL ? in[i].operator_ : "";
		reqs[i].values = strv(self, &in[i].values);
		reqs[i].n_values = in[i].values.n;
	}
	*out = reqs;
	*n_out = n;
}

static const DraNodeSelector *
node_selector(DraInput *self, const K8sNodeSelector *in)
{
	if (in == NULL) {
		return NULL;
	}
	DraNodeSelector *sel = NEW0(self, DraNodeSelector, 1);
	DraNodeSelectorTerm *terms = NEW0(self, DraNodeSelectorTerm, in->n_terms);
	for (guint i = 0; i < in->n_terms; i++) {
		convert_requirements(self, in->terms[i].match_expressions,
		                     in->terms[i].n_match_expressions, &terms[i].match_expressions,
		                     &terms[i].n_match_expressions);
		convert_requirements(self, in->terms[i].match_fields, in->terms[i].n_match_fields,
		                     &terms[i].match_fields, &terms[i].n_match_fields);
	}
	sel->terms = terms;
	sel->n_terms = in->n_terms;
	return sel;
}

static const DraRequestPolicy *
request_policy(DraInput *self, const K8sCapacityRequestPolicy *in)
{
	if (in == NULL) {
		return NULL;
	}
	DraRequestPolicy *p = NEW0(self, DraRequestPolicy, 1);
	p->has_default = in->has_default;
	p->default_value = in->has_default ? qty_milli(&in->default_) : 0;
	DraMilli *vals = NEW0(self, DraMilli, in->n_valid_values);
	for (guint i = 0; i < in->n_valid_values; i++) {
		vals[i] = qty_milli(&in->valid_values[i]);
	}
	p->valid_values = vals;
	p->n_valid_values = in->n_valid_values;
	/* validRange without min is treated as no range (upstream checks Min != nil) */
	p->has_range = in->has_valid_range && in->range_min.text != NULL;
	p->range_min = p->has_range ? qty_milli(&in->range_min) : 0;
	p->has_range_max = in->has_valid_range && in->range_max.text != NULL;
	p->range_max = p->has_range_max ? qty_milli(&in->range_max) : 0;
	p->has_range_step = in->has_valid_range && in->range_step.text != NULL;
	p->range_step = p->has_range_step ? qty_milli(&in->range_step) : 0;
	return p;
}

static const DraCounter *
counters(DraInput *self, const K8sCounter *in, guint n)
{
	DraCounter *out = NEW0(self, DraCounter, n);
	for (guint i = 0; i < n; i++) {
		out[i].name = in[i].name;
		out[i].value = qty_milli(&in[i].value);
	}
	return out;
}

static void
convert_attribute(const K8sDeviceAttribute *a, DraAttribute *out)
{
	out->name = a->name;
	out->int_value = a->int_value;
	out->bool_value = a->bool_value;
	out->string_value = a->string_value;
	switch (a->type) {
	case K8S_ATTR_INT:
		out->kind = DRA_ATTR_INT;
		break;
	case K8S_ATTR_BOOL:
		out->kind = DRA_ATTR_BOOL;
		break;
	case K8S_ATTR_VERSION:
		out->kind = DRA_ATTR_VERSION;
		break;
	default:
		out->kind = DRA_ATTR_STRING;
		break;
	}
}

/* Every field, so that a shared attribute reads exactly as the device's own. */
static gboolean
same_attribute(const DraAttribute *a, const DraAttribute *b)
{
	return g_strcmp0(a->name, b->name) == 0 && a->kind == b->kind &&
	       a->int_value == b->int_value && a->bool_value == b->bool_value &&
	       g_strcmp0(a->string_value, b->string_value) == 0;
}

/* @d's attribute @name, in either of its arrays; NULL if none. */
static const DraAttribute *
device_attribute(const DraDevice *d, const char *name)
{
	for (guint i = 0; i < d->n_attributes; i++)
		if (g_strcmp0(d->attributes[i].name, name) == 0)
			return &d->attributes[i];
	for (guint i = 0; i < d->n_node_attributes; i++)
		if (g_strcmp0(d->node_attributes[i].name, name) == 0)
			return &d->node_attributes[i];
	return NULL;
}

/* Whether @name is among @d's own attributes. */
static gboolean
is_node_attribute(const DraDevice *d, const char *name)
{
	for (guint i = 0; i < d->n_node_attributes; i++)
		if (g_strcmp0(d->node_attributes[i].name, name) == 0)
			return TRUE;
	return FALSE;
}

/*
 * Which of @in's @n attributes (@attrs, converted) are @d's own against @prev, the
 * same device of the previous node: the names @prev keeps as its own, or, when
 * @prev keeps none, those whose values differ. FALSE when the names differ, or a
 * value differs outside @prev's own, or too many differ to be worth it, or the
 * names are not in strict order.
 */
static gboolean
own_attributes(const DraAttribute *attrs, guint n, const DraDevice *prev, gboolean *own)
{
	guint n_own = 0;

	if (prev->n_attributes + prev->n_node_attributes != n)
		return FALSE;
	for (guint i = 0; i < n; i++) {
		const DraAttribute *p = device_attribute(prev, attrs[i].name);

		/* in strict name order, so that a reader can merge the two (dra_cel.c) */
		if (p == NULL || attrs[i].name == NULL ||
		    (i > 0 && g_strcmp0(attrs[i - 1].name, attrs[i].name) >= 0))
			return FALSE;
		own[i] = prev->n_node_attributes > 0 ? is_node_attribute(prev, attrs[i].name)
		                                     : !same_attribute(&attrs[i], p);
		if (!own[i] && !same_attribute(&attrs[i], p))
			return FALSE;
		n_own += own[i];
	}
	return n_own > 0 ? 2 * n_own <= n : prev->n_node_attributes == 0;
}

/* @n attributes of @from in a new array of the input; NULL for none. */
static const DraAttribute *
copy_attributes(DraInput *self, const DraAttribute *from, guint n)
{
	DraAttribute *out;

	if (n == 0)
		return NULL;
	out = NEW0(self, DraAttribute, n);
	memcpy(out, from, n * sizeof(DraAttribute));
	return out;
}

/* @attrs whose @own is @which, in their (name) order, into @out; how many. */
static guint
pick_attributes(
        const DraAttribute *attrs, const gboolean *own, guint n, gboolean which, DraAttribute *out)
{
	guint k = 0;

	for (guint i = 0; i < n; i++)
		if (own[i] == which)
			out[k++] = attrs[i];
	return k;
}

/* The device's attributes: its own array, or @prev's shared one and its own few
 * (then TRUE). */
static gboolean
convert_attributes(DraInput *self, const K8sDevice *in, const DraDevice *prev, DraDevice *d)
{
	enum { MAX_SHARED = 64 }; /* a longer list is copied whole */
	DraAttribute attrs[MAX_SHARED], picked[MAX_SHARED];
	gboolean own[MAX_SHARED];
	guint n = in->n_attributes;
	guint k;

	if (n == 0 || n > MAX_SHARED) {
		DraAttribute *all = NEW0(self, DraAttribute, n);

		for (guint i = 0; i < n; i++)
			convert_attribute(&in->attributes[i], &all[i]);
		d->attributes = all;
		d->n_attributes = n;
		return FALSE;
	}
	for (guint i = 0; i < n; i++)
		convert_attribute(&in->attributes[i], &attrs[i]);
	if (prev == NULL || !own_attributes(attrs, n, prev, own)) {
		d->attributes = copy_attributes(self, attrs, n);
		d->n_attributes = n;
		return FALSE;
	}
	if (prev->n_node_attributes > 0) {
		d->attributes = prev->attributes;
		d->n_attributes = prev->n_attributes;
	} else {
		/* the first node keeps its whole array; the shared part is made for the second */
		k = pick_attributes(attrs, own, n, FALSE, picked);
		d->attributes = k == n ? prev->attributes : copy_attributes(self, picked, k);
		d->n_attributes = k;
	}
	k = pick_attributes(attrs, own, n, TRUE, picked);
	d->node_attributes = copy_attributes(self, picked, k);
	d->n_node_attributes = k;
	return TRUE;
}

/*
 * Whether @s's devices are seen by node @s->node_name alone. Only those share:
 * distinctAttribute compares attribute pointers (the 1.34 quirk in
 * dra_constraint.c), so two devices one node can pick must not share one.
 */
static gboolean
node_local(const DraSlice *s)
{
	return s->node_name != NULL && s->node_name[0] != '\0' && !s->per_device_node_selection &&
	       !s->all_nodes && s->node_selector == NULL;
}

/* The same device of the driver's previous slice if another node's, or NULL. */
static const DraDevice *
previous_device(const DraSlice *recent, const DraSlice *s, guint i, const K8sDevice *in)
{
	if (recent == NULL || strcmp(recent->node_name, s->node_name) == 0 ||
	    i >= recent->n_devices || in->name == NULL)
		return NULL;
	return strcmp(recent->devices[i].name, in->name) == 0 ? &recent->devices[i] : NULL;
}

/* TRUE when the device shares @prev's attributes and is seen by its slice's node
 * alone: a stamp of it for the next node is then what its conversion would be. */
static gboolean
convert_device(DraInput *self, const K8sDevice *in, const DraDevice *prev, DraDevice *d)
{
	d->name = in->name != NULL ? in->name : "";
	gboolean shares = convert_attributes(self, in, prev, d);
	DraCapacity *caps = NEW0(self, DraCapacity, in->n_capacity);
	for (guint i = 0; i < in->n_capacity; i++) {
		caps[i].name = in->capacity[i].name;
		caps[i].value = qty_milli(&in->capacity[i].value);
		caps[i].text = in->capacity[i].value.text;
		caps[i].policy = request_policy(self, in->capacity[i].request_policy);
	}
	d->capacity = caps;
	d->n_capacity = in->n_capacity;
	DraCounterConsumption *cons = NEW0(self, DraCounterConsumption, in->n_consumes_counters);
	for (guint i = 0; i < in->n_consumes_counters; i++) {
		cons[i].counter_set = in->consumes_counters[i].counter_set;
		cons[i].counters = counters(self, in->consumes_counters[i].counters,
		                            in->consumes_counters[i].n_counters);
		cons[i].n_counters = in->consumes_counters[i].n_counters;
	}
	d->consumes_counters = cons;
	d->n_consumes_counters = in->n_consumes_counters;
	d->node_name = in->node_name;
	d->all_nodes = in->has_all_nodes && in->all_nodes;
	d->node_selector = node_selector(self, in->node_selector);
	DraTaint *taints = NEW0(self, DraTaint, in->n_taints);
	for (guint i = 0; i < in->n_taints; i++) {
		taints[i].key = in->taints[i].key;
		taints[i].value = in->taints[i].value;
		taints[i].effect = in->taints[i].effect;
	}
	d->taints = taints;
	d->n_taints = in->n_taints;
	d->binds_to_node = in->has_binds_to_node && in->binds_to_node;
	d->binding_conditions = strv(self, &in->binding_conditions);
	d->n_binding_conditions = in->binding_conditions.n;
	d->binding_failure_conditions = strv(self, &in->binding_failure_conditions);
	d->n_binding_failure_conditions = in->binding_failure_conditions.n;
	d->allow_multiple_allocations =
	        in->has_allow_multiple_allocations && in->allow_multiple_allocations;
	return shares && d->node_name == NULL && !d->all_nodes && d->node_selector == NULL;
}

const DraSlice *
dra_input_slice(DraInput *self, const K8sResourceSlice *in)
{
	const K8sResourceSliceSpec *spec = &in->spec;
	DraSlice *s = NEW0(self, DraSlice, 1);

	s->name = in->obj.metadata.name != NULL ? in->obj.metadata.name : "";
	s->driver = spec->driver != NULL ? spec->driver : "";
	s->pool = spec->pool.name != NULL ? spec->pool.name : "";
	s->generation = spec->pool.generation;
	s->resource_slice_count = spec->pool.resource_slice_count;
	s->node_name = spec->node_name;
	s->all_nodes = spec->has_all_nodes && spec->all_nodes;
	s->node_selector = node_selector(self, spec->node_selector);
	s->per_device_node_selection_set = spec->has_per_device_node_selection;
	s->per_device_node_selection =
	        spec->has_per_device_node_selection && spec->per_device_node_selection;
	const DraSlice *recent =
	        node_local(s) ? g_hash_table_lookup(self->recent, s->driver) : NULL;
	DraDevice *devs = NEW0(self, DraDevice, spec->n_devices);
	gboolean stampable = spec->n_devices > 0;
	for (guint i = 0; i < spec->n_devices; i++) {
		const DraDevice *prev = previous_device(recent, s, i, &spec->devices[i]);

		stampable &= convert_device(self, &spec->devices[i], prev, &devs[i]);
	}
	s->devices = devs;
	s->n_devices = spec->n_devices;
	DraCounterSet *sets = NEW0(self, DraCounterSet, spec->n_shared_counters);
	for (guint i = 0; i < spec->n_shared_counters; i++) {
		sets[i].name = spec->shared_counters[i].name;
		sets[i].counters = counters(self, spec->shared_counters[i].counters,
		                            spec->shared_counters[i].n_counters);
		sets[i].n_counters = spec->shared_counters[i].n_counters;
	}
	s->shared_counters = sets;
	s->n_shared_counters = spec->n_shared_counters;
	if (node_local(s)) {
		g_hash_table_insert(self->recent, (gpointer)s->driver, s);
		if (stampable)
			g_hash_table_insert(self->stampable, (gpointer)s->driver, s);
		else
			g_hash_table_remove(self->stampable, s->driver);
	}
	return s;
}

const DraSlice *
dra_input_stamp_template(DraInput *self, const char *driver)
{
	return g_hash_table_lookup(self->stampable, driver);
}

/* The own attributes of every device of @tmpl, valued for the stamp, into
 * self->stamp_own in device order; FALSE when one has no value. */
static gboolean
stamp_own_values(DraInput *self, const DraSlice *tmpl, const DraStamp *stamp)
{
	g_array_set_size(self->stamp_own, 0);
	for (guint i = 0; i < tmpl->n_devices; i++) {
		const DraDevice *d = &tmpl->devices[i];

		for (guint j = 0; j < d->n_node_attributes; j++) {
			DraAttribute a = d->node_attributes[j];

			if (!stamp->own_value(stamp->data, i, &a))
				return FALSE;
			g_array_append_val(self->stamp_own, a);
		}
	}
	return TRUE;
}

const DraSlice *
dra_input_stamp_slice(DraInput *self, const DraSlice *tmpl, const DraStamp *stamp)
{
	DraSlice *s;
	DraDevice *devs;
	DraAttribute *own;

	if (!stamp_own_values(self, tmpl, stamp))
		return NULL;
	s = NEW0(self, DraSlice, 1);
	*s = *tmpl;
	s->name = stamp->name;
	s->pool = stamp->pool;
	s->node_name = stamp->node_name;
	s->generation = stamp->generation;
	s->resource_slice_count = stamp->resource_slice_count;
	devs = NEW0(self, DraDevice, tmpl->n_devices);
	memcpy(devs, tmpl->devices, tmpl->n_devices * sizeof(DraDevice));
	s->devices = devs;
	/* one block for every device's own attributes: a slice's share of malloc */
	own = NEW0(self, DraAttribute, self->stamp_own->len);
	memcpy(own, self->stamp_own->data, self->stamp_own->len * sizeof(DraAttribute));
	for (guint i = 0; i < tmpl->n_devices; i++) {
		devs[i].node_attributes = devs[i].n_node_attributes > 0 ? own : NULL;
		own += devs[i].n_node_attributes;
	}
	return s;
}

void
dra_input_stamp_add(DraInput *self, const DraSlice *stamped)
{
	g_hash_table_insert(self->recent, (gpointer)stamped->driver, (gpointer)stamped);
	g_hash_table_insert(self->stampable, (gpointer)stamped->driver, (gpointer)stamped);
}

static const char *const *
selectors(DraInput *self, const K8sDeviceSelector *in, guint n)
{
	const char **out = NEW0(self, const char *, n + 1);
	for (guint i = 0; i < n; i++) {
		out[i] = in[i].cel_expression; /* NULL: a selector without cel */
	}
	return out;
}

static const DraOpaqueConfig *
opaque(DraInput *self, gboolean has, const K8sOpaqueDeviceConfig *in)
{
	if (!has) {
		return NULL;
	}
	DraOpaqueConfig *o = NEW0(self, DraOpaqueConfig, 1);
	o->driver = in->driver;
	o->origin = in;
	return o;
}

const DraClass *
dra_input_class(DraInput *self, const K8sDeviceClass *in)
{
	DraClass *k = NEW0(self, DraClass, 1);

	k->name = in->obj.metadata.name;
	k->selectors = selectors(self, in->spec.selectors, in->spec.n_selectors);
	k->n_selectors = in->spec.n_selectors;
	const DraOpaqueConfig **cfg = NEW0(self, const DraOpaqueConfig *, in->spec.n_config);
	for (guint i = 0; i < in->spec.n_config; i++) {
		cfg[i] = opaque(self, in->spec.config[i].has_opaque, &in->spec.config[i].opaque);
	}
	k->config = cfg;
	k->n_config = in->spec.n_config;
	return k;
}

static void
convert_exact(DraInput *self, const K8sExactDeviceRequest *in, DraExactRequest *out)
{
	out->device_class_name = in->device_class_name;
	out->selectors = selectors(self, in->selectors, in->n_selectors);
	out->n_selectors = in->n_selectors;
	/* API defaulting: ExactCount, count 1 */
	out->allocation_mode = in->allocation_mode != NULL ? in->allocation_mode : "ExactCount";
	out->count = in->has_count ? in->count : 1;
	out->has_admin_access = in->has_admin_access;
	out->admin_access = in->admin_access;
	DraToleration *tol = NEW0(self, DraToleration, in->n_tolerations);
	for (guint i = 0; i < in->n_tolerations; i++) {
		tol[i].key = in->tolerations[i].key;
		tol[i].op = in->tolerations[i].operator_;
		tol[i].value = in->tolerations[i].value;
		tol[i].effect = in->tolerations[i].effect;
		tol[i].has_seconds = in->tolerations[i].has_toleration_seconds;
		tol[i].seconds = in->tolerations[i].toleration_seconds;
	}
	out->tolerations = tol;
	out->n_tolerations = in->n_tolerations;
	out->has_capacity = in->has_capacity;
	DraCapacityRequest *cr = NEW0(self, DraCapacityRequest, in->capacity_requests.n);
	for (guint i = 0; i < in->capacity_requests.n; i++) {
		cr[i].name = in->capacity_requests.items[i].key;
		cr[i].value = qty_milli(&in->capacity_requests.items[i].value);
	}
	out->capacity_requests = cr;
	out->n_capacity_requests = in->capacity_requests.n;
}

const DraClaim *
dra_input_claim(DraInput *self,
                const char *namespace_,
                const char *name,
                const K8sResourceClaimSpec *spec)
{
	DraClaim *c = NEW0(self, DraClaim, 1);

	c->namespace_ = namespace_ != NULL ? namespace_ : "default";
	c->name = name;
	DraRequest *reqs = NEW0(self, DraRequest, spec->n_requests);
	for (guint i = 0; i < spec->n_requests; i++) {
		const K8sDeviceRequest *r = &spec->requests[i];
		reqs[i].name = r->name != NULL ? r->name : "";
		reqs[i].has_exactly = r->has_exactly;
		if (r->has_exactly) {
			convert_exact(self, &r->exactly, &reqs[i].exactly);
		}
		DraExactRequest *subs = NEW0(self, DraExactRequest, r->n_first_available);
		for (guint j = 0; j < r->n_first_available; j++) {
			convert_exact(self, &r->first_available[j].spec, &subs[j]);
			subs[j].name = r->first_available[j].name != NULL
			                       ? r->first_available[j].name
			                       : "";
		}
		reqs[i].first_available = subs;
		reqs[i].n_first_available = r->n_first_available;
	}
	c->requests = reqs;
	c->n_requests = spec->n_requests;
	DraConstraint *cons = NEW0(self, DraConstraint, spec->n_constraints);
	for (guint i = 0; i < spec->n_constraints; i++) {
		cons[i].requests = strv(self, &spec->constraints[i].requests);
		cons[i].n_requests = spec->constraints[i].requests.n;
		cons[i].match_attribute = spec->constraints[i].match_attribute;
		cons[i].distinct_attribute = spec->constraints[i].distinct_attribute;
	}
	c->constraints = cons;
	c->n_constraints = spec->n_constraints;
	DraClaimConfig *cfg = NEW0(self, DraClaimConfig, spec->n_config);
	for (guint i = 0; i < spec->n_config; i++) {
		cfg[i].requests = strv(self, &spec->config[i].requests);
		cfg[i].n_requests = spec->config[i].requests.n;
		cfg[i].opaque = opaque(self, spec->config[i].has_opaque, &spec->config[i].opaque);
	}
	c->config = cfg;
	c->n_config = spec->n_config;
	return c;
}

const DraNode *
dra_input_node_new(DraInput *self, const char *name, const K8sStringMap *labels)
{
	DraNode *n = NEW0(self, DraNode, 1);
	guint count = labels != NULL ? labels->n : 0;
	const char **keys = NEW0(self, const char *, count + 1);
	const char **values = NEW0(self, const char *, count + 1);

	for (guint i = 0; i < count; i++) {
		keys[i] = labels->items[i].key;
		values[i] = labels->items[i].value != NULL ? labels->items[i].value : "";
	}
	n->name = name != NULL ? name : "";
	n->label_keys = keys;
	n->label_values = values;
	n->n_labels = count;
	return n;
}

const DraNode *
dra_input_node(DraInput *self, const K8sNode *node)
{
	return dra_input_node_new(self, node->obj.metadata.name, &node->obj.metadata.labels);
}

const DraTaintRule *
dra_input_taint_rule(DraInput *self, const K8sDeviceTaintRule *in)
{
	DraTaintRule *r = NEW0(self, DraTaintRule, 1);

	r->device_class_name = in->spec.device_class_name;
	r->driver = in->spec.driver;
	r->pool = in->spec.pool;
	r->device = in->spec.device;
	r->selectors = selectors(self, in->spec.selectors, in->spec.n_selectors);
	r->n_selectors = in->spec.n_selectors;
	r->taint.key = in->spec.taint.key;
	r->taint.value = in->spec.taint.value;
	r->taint.effect = in->spec.taint.effect;
	return r;
}

DraMilli
dra_input_qty_milli(const K8sQty *q)
{
	return qty_milli(q);
}

void
dra_input_mark_allocation(DraAllocator *alloc, const K8sAllocationResult *allocation)
{
	for (guint i = 0; i < allocation->n_results; i++) {
		const K8sDeviceRequestAllocationResult *r = &allocation->results[i];
		if (r->has_admin_access && r->admin_access) {
			continue; /* the scheduler leaves admin-access results out */
		}
		if (r->driver == NULL || r->pool == NULL || r->device == NULL)
			continue; /* no device named: validation reports the missing field */
		if (r->share_id == NULL || r->share_id[0] == '\0') {
			dra_allocator_mark_allocated(alloc, r->driver, r->pool, r->device, TRUE);
			continue;
		}
		DraConsumed *caps = g_new0(DraConsumed, MAX(r->consumed_capacity.n, 1));
		for (guint j = 0; j < r->consumed_capacity.n; j++) {
			caps[j].name = r->consumed_capacity.items[j].key;
			caps[j].value = qty_milli(&r->consumed_capacity.items[j].value);
		}
		dra_allocator_add_shared(alloc, r->driver, r->pool, r->device, caps,
		                         r->consumed_capacity.n, TRUE);
		g_free(caps);
	}
}
