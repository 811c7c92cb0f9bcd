/*
 * dra_lint.c: the allocator's part of `drasim lint`: requests that no device
 * of the given ResourceSlices can ever satisfy.
 *
 * Every slice and class of the set goes into one allocator; each request (or
 * sub-request) is asked dra_allocator_count_matching(), which evaluates the
 * class and request selectors on every device, ignoring nodes and allocations.
 */
#include "dra_k8s.h"

typedef struct {
	DraAllocator *alloc;
	DraInput *input;
	K8sDiagList *diags;
	guint warnings;
} Lint;

static void
lint_exact(Lint *l,
           const K8sObject *obj,
           const char *prefix,
           const char *name,
           const DraExactRequest *req,
           const K8sPos *pos,
           const char *path)
{
	g_autofree char *error = NULL;
	g_autofree char *full_path = g_strdup_printf("%s%s", prefix, path);

	if (req->device_class_name == NULL || req->device_class_name[0] == '\0') {
		return;
	}
	gint n = dra_allocator_count_matching(l->alloc, req, &error);
	if (n == 0) {
		k8s_diag_list_warning(l->diags, pos, full_path,
		                      "%s %s: request %s can match no device in the given "
		                      "ResourceSlices (class %s and the selectors rule out every "
		                      "device)",
		                      k8s_kind_name(obj->kind), obj->metadata.name, name,
		                      req->device_class_name);
		l->warnings++;
	} else if (n < 0 && g_str_has_prefix(error, "selector")) {
		k8s_diag_list_warning(l->diags, pos, full_path,
		                      "%s %s: request %s: %s (the allocator would fail)",
		                      k8s_kind_name(obj->kind), obj->metadata.name, name, error);
		l->warnings++;
	}
}

static void
lint_spec(Lint *l, const K8sObject *obj, const char *prefix, const K8sResourceClaimSpec *spec)
{
	const DraClaim *claim =
	        dra_input_claim(l->input, obj->metadata.namespace_, obj->metadata.name, spec);

	for (guint r = 0; r < claim->n_requests; r++) {
		const DraRequest *req = &claim->requests[r];
		const K8sDeviceRequest *kreq = &spec->requests[r];
		g_autofree char *path = NULL;
		if (req->has_exactly) {
			path = g_strdup_printf("spec.devices.requests[%u].exactly", r);
			lint_exact(l, obj, prefix, req->name, &req->exactly, &kreq->exactly.pos,
			           path);
		}
		for (guint s = 0; s < req->n_first_available; s++) {
			g_autofree char *name =
			        g_strdup_printf("%s/%s", req->name, req->first_available[s].name);
			g_autofree char *sub_path = g_strdup_printf(
			        "spec.devices.requests[%u].firstAvailable[%u]", r, s);
			lint_exact(l, obj, prefix, name, &req->first_available[s],
			           &kreq->first_available[s].pos, sub_path);
		}
	}
}

guint
dra_lint_requests(K8sObjectSet *set, const DraFeatures *features, K8sDiagList *diags)
{
	guint n_slices = k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE);
	Lint l = { 0 };

	if (n_slices == 0) {
		return 0;
	}
	g_autoptr(DraCel) cel = dra_cel_new(features);
	g_autoptr(DraInput) input = dra_input_new();
	g_autoptr(DraAllocator) alloc = dra_allocator_new(features, dra_cel_get_ops(), cel);
	l.alloc = alloc;
	l.input = input;
	l.diags = diags;
	dra_input_add_slices_and_classes(input, alloc, set);
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_CLAIM); i++) {
		K8sObject *o = k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_CLAIM, i);
		lint_spec(&l, o, o->path_prefix != NULL ? o->path_prefix : "",
		          &k8s_object_as_resource_claim(o)->spec);
	}
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE);
	     i++) {
		K8sObject *o = k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE, i);
		g_autofree char *prefix =
		        g_strdup_printf("%sspec.", o->path_prefix != NULL ? o->path_prefix : "");
		lint_spec(&l, o, prefix, &k8s_object_as_resource_claim_template(o)->spec);
	}
	return l.warnings;
}
