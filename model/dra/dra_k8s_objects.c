/*
 * dra_k8s_objects.c: the allocator over a set of decoded manifests, for the
 * callers that allocate "these manifests" (drasim allocate and the allocator
 * conformance runner): the allocator built over a set's objects, and
 * writing an answer back as the ResourceClaim's status.allocation, the form
 * the scheduler writes (k8s.io/api/resource/v1 AllocationResult).
 */
#include <string.h>

#include "dra_k8s.h"

void
dra_input_add_slices_and_classes(DraInput *self, DraAllocator *alloc, K8sObjectSet *set)
{
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++) {
		K8sObject *o = k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_SLICE, i);
		dra_allocator_add_slice(alloc,
		                        dra_input_slice(self, k8s_object_as_resource_slice(o)));
	}
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_DEVICE_CLASS); i++) {
		K8sObject *o = k8s_object_set_get_kind(set, K8S_KIND_DEVICE_CLASS, i);
		dra_allocator_add_class(alloc,
		                        dra_input_class(self, k8s_object_as_device_class(o)));
	}
}

void
dra_input_add_objects(DraInput *self, DraAllocator *alloc, K8sObjectSet *set)
{
	dra_input_add_slices_and_classes(self, alloc, set);
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_DEVICE_TAINT_RULE); i++) {
		K8sObject *o = k8s_object_set_get_kind(set, K8S_KIND_DEVICE_TAINT_RULE, i);
		dra_allocator_add_taint_rule(
		        alloc, dra_input_taint_rule(self, k8s_object_as_device_taint_rule(o)));
	}
	/* claims already allocated mark their devices in use */
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_CLAIM); i++) {
		K8sResourceClaim *c = k8s_object_as_resource_claim(
		        k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_CLAIM, i));
		if (c->status.allocation != NULL) {
			dra_input_mark_allocation(alloc, c->status.allocation);
		}
	}
}

void
dra_objects_allocator_init(DraObjectsAllocator *self,
                           const DraFeatures *features,
                           K8sObjectSet *set)
{
	self->input = dra_input_new();
	self->cel = dra_cel_new(features);
	self->alloc = dra_allocator_new(features, dra_cel_get_ops(), self->cel);
	if (set != NULL) {
		dra_input_add_objects(self->input, self->alloc, set);
	}
}

void
dra_objects_allocator_clear(DraObjectsAllocator *self)
{
	g_clear_pointer(&self->alloc, dra_allocator_free);
	g_clear_pointer(&self->cel, dra_cel_free);
	g_clear_pointer(&self->input, dra_input_free);
}

static gpointer
zalloc(K8sObjectSet *set, gsize size)
{
	gpointer p = k8s_object_set_alloc(set, size);
	memset(p, 0, size);
	return p;
}

static const char *
str(K8sObjectSet *set, const char *text)
{
	return text != NULL ? k8s_object_set_intern(set, text) : NULL;
}

static void
copy_strv(K8sObjectSet *set, K8sStringList *out, const char *const *items, guint n)
{
	out->n = n;
	out->items = zalloc(set, sizeof(char *) * MAX(n, 1));
	out->item_pos = zalloc(set, sizeof(K8sPos) * MAX(n, 1));
	for (guint i = 0; i < n; i++) {
		out->items[i] = str(set, items[i]);
	}
}

static void
copy_requirements(K8sObjectSet *set,
                  const DraNodeSelectorRequirement *in,
                  guint n,
                  K8sNodeSelectorRequirement **out,
                  guint *n_out)
{
	K8sNodeSelectorRequirement *r = zalloc(set, sizeof(*r) * MAX(n, 1));
	for (guint i = 0; i < n; i++) {
		r[i].key = str(set, in[i].key);
		r[i].operator_ = str(set, in[i].op);
		copy_strv(set, &r[i].values, in[i].values, in[i].n_values);
	}
	*out = r;
	*n_out = n;
}

K8sAllocationResult *
dra_allocation_to_k8s(const DraAllocation *a, K8sObjectSet *set)
{
	K8sAllocationResult *res = zalloc(set, sizeof(*res));

	res->n_results = a->n_results;
	res->results = zalloc(set, sizeof(*res->results) * MAX(a->n_results, 1));
	for (guint i = 0; i < a->n_results; i++) {
		const DraDeviceResult *r = &a->results[i];
		K8sDeviceRequestAllocationResult *o = &res->results[i];
		o->request = str(set, r->request);
		o->driver = str(set, r->driver);
		o->pool = str(set, r->pool);
		o->device = str(set, r->device);
		o->has_admin_access = r->admin_access;
		o->admin_access = r->admin_access;
		copy_strv(set, &o->binding_conditions, r->binding_conditions,
		          r->n_binding_conditions);
		copy_strv(set, &o->binding_failure_conditions, r->binding_failure_conditions,
		          r->n_binding_failure_conditions);
		o->share_id = str(set, r->share_id);
		o->consumed_capacity.n = r->n_consumed;
		o->consumed_capacity.items =
		        zalloc(set, sizeof(K8sQtyPair) * MAX(r->n_consumed, 1));
		for (guint j = 0; j < r->n_consumed; j++) {
			K8sQtyPair *q = &o->consumed_capacity.items[j];
			g_autofree char *text = dra_milli_format(r->consumed[j].value);
			q->key = str(set, r->consumed[j].name);
			q->value.text = str(set, text);
			q->value.valid = k8s_quantity_parse(text, -1, &q->value.value, NULL);
		}
	}
	res->n_config = a->n_config;
	res->config = zalloc(set, sizeof(*res->config) * MAX(a->n_config, 1));
	for (guint i = 0; i < a->n_config; i++) {
		const DraConfigResult *c = &a->config[i];
		K8sDeviceAllocationConfig *o = &res->config[i];
		o->source = c->from_class ? "FromClass" : "FromClaim";
		copy_strv(set, &o->requests, c->requests, c->n_requests);
		if (c->opaque != NULL && c->opaque->origin != NULL) {
			o->has_opaque = TRUE;
			o->opaque = *(const K8sOpaqueDeviceConfig *)c->opaque->origin;
		}
	}
	if (a->node_selector != NULL) {
		K8sNodeSelector *ns = zalloc(set, sizeof(*ns));
		ns->n_terms = a->node_selector->n_terms;
		ns->terms = zalloc(set, sizeof(*ns->terms) * MAX(ns->n_terms, 1));
		for (guint t = 0; t < ns->n_terms; t++) {
			const DraNodeSelectorTerm *in = &a->node_selector->terms[t];
			copy_requirements(set, in->match_expressions, in->n_match_expressions,
			                  &ns->terms[t].match_expressions,
			                  &ns->terms[t].n_match_expressions);
			copy_requirements(set, in->match_fields, in->n_match_fields,
			                  &ns->terms[t].match_fields, &ns->terms[t].n_match_fields);
		}
		res->node_selector = ns;
	}
	return res;
}
