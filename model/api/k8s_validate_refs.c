/*
 * k8s_validate_refs.c: checks between objects, and the walk over every CEL expression.
 *
 * The API server accepts a pod whose claim does not exist, or a claim whose DeviceClass
 * does not exist; the pod then stays Pending with an event from the scheduler or the
 * resource claim controller. A simulation of such manifests would be meaningless, so lint
 * reports these as errors, worded like the cluster's events ("... not found").
 * Pods name claims and templates in their own namespace only; when the name exists in
 * another namespace, the message says so, because that is the usual mistake.
 */
#include <string.h>

#include <glib.h>

#include "k8s_validate-private.h"

typedef struct {
	const K8sObjectSet *set;
	K8sDiagList *diags;
} RefCtx;

static const char *
object_path_prefix(const K8sObject *obj)
{
	return obj->path_prefix != NULL ? obj->path_prefix : "";
}

/* The namespaces (other than @ns) that hold an object of @kind named @name, or NULL. */
static char *
other_namespaces(const K8sObjectSet *set, K8sKind kind, const char *ns, const char *name)
{
	GString *found = NULL;
	guint n = k8s_object_set_count_kind(set, kind);

	for (guint i = 0; i < n; i++) {
		const K8sObject *o = k8s_object_set_get_kind(set, kind, i);
		const char *ons = k8s_object_namespace(o);
		if (g_strcmp0(o->metadata.name, name) != 0 || g_strcmp0(ons, ns) == 0) {
			continue;
		}
		if (found == NULL) {
			found = g_string_new(NULL);
		} else if (strstr(found->str, ons) != NULL) {
			continue;
		} else {
			g_string_append(found, ", ");
		}
		g_string_append_printf(found, "\"%s\"", ons);
	}
	return found != NULL ? g_string_free(found, FALSE) : NULL;
}

static const K8sResourceClaimSpec *
claim_spec_of(const K8sObject *o)
{
	if (o == NULL) {
		return NULL;
	}
	if (o->kind == K8S_KIND_RESOURCE_CLAIM) {
		return &((const K8sResourceClaim *)o)->spec;
	}
	return &((const K8sResourceClaimTemplate *)o)->spec;
}

static gboolean
spec_has_request(const K8sResourceClaimSpec *spec, const char *request)
{
	for (guint i = 0; i < spec->n_requests; i++) {
		if (g_strcmp0(spec->requests[i].name, request) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

/* A claim or template named by a pod (or a pod template) in namespace @ns. */
static const K8sObject *
check_pod_claim_ref(RefCtx *rc,
                    const K8sObject *owner,
                    const char *ns,
                    const char *path,
                    const K8sPodResourceClaim *c)
{
	gboolean is_template = c->resource_claim_template_name != NULL;
	const char *name = is_template ? c->resource_claim_template_name : c->resource_claim_name;
	K8sKind kind = is_template ? K8S_KIND_RESOURCE_CLAIM_TEMPLATE : K8S_KIND_RESOURCE_CLAIM;
	const K8sPos *pos =
	        is_template ? &c->resource_claim_template_name_pos : &c->resource_claim_name_pos;
	const char *resource = is_template ? "resourceclaimtemplate" : "resourceclaim";
	const K8sObject *target;
	g_autofree char *elsewhere = NULL;
	g_autofree char *full = NULL;

	if (name == NULL || name[0] == '\0') {
		return NULL;
	}
	target = k8s_object_set_lookup(rc->set, kind, ns, name);
	if (target != NULL) {
		return target;
	}
	if (pos->line == 0) {
		pos = c->pos.line != 0 ? &c->pos : &owner->pos;
	}
	full = g_strconcat(object_path_prefix(owner), path,
	                   is_template ? ".resourceClaimTemplateName" : ".resourceClaimName", NULL);
	elsewhere = other_namespaces(rc->set, kind, ns, name);
	if (elsewhere != NULL) {
		k8s_diag_list_error(rc->diags, pos, full,
		                    "%s.resource.k8s.io \"%s\" not found in namespace \"%s\": it "
		                    "exists only in namespace %s, and a pod can only use %s of its "
		                    "own namespace (the pod would stay Pending)",
		                    resource, name, ns, elsewhere,
		                    is_template ? "ResourceClaimTemplates" : "ResourceClaims");
	} else {
		k8s_diag_list_error(
		        rc->diags, pos, full,
		        "%s.resource.k8s.io \"%s\" not found in namespace \"%s\" (the pod "
		        "would stay Pending)",
		        resource, name, ns);
	}
	return NULL;
}

static void
check_container_requests(RefCtx *rc,
                         const K8sObject *owner,
                         const char *path,
                         const K8sPodSpec *spec,
                         const K8sContainer *cs,
                         guint n,
                         const char *field,
                         const K8sObject *const *targets)
{
	for (guint i = 0; i < n; i++) {
		const K8sResourceRequirements *res = &cs[i].resources;
		for (guint j = 0; j < res->n_claims; j++) {
			const K8sContainerClaim *cc = &res->claims[j];
			const K8sResourceClaimSpec *cspec = NULL;
			if (cc->request == NULL || cc->request[0] == '\0') {
				continue;
			}
			for (guint k = 0; k < spec->n_resource_claims; k++) {
				if (g_strcmp0(spec->resource_claims[k].name, cc->name) == 0) {
					cspec = claim_spec_of(targets[k]);
				}
			}
			if (cspec == NULL || spec_has_request(cspec, cc->request)) {
				continue;
			}
			g_autofree char *full =
			        g_strdup_printf("%s%s.%s[%u].resources.claims[%u].request",
			                        object_path_prefix(owner), path, field, i, j);
			k8s_diag_list_error(rc->diags, &cc->pos, full,
			                    "request \"%s\" not found in the devices.requests of "
			                    "claim \"%s\"",
			                    cc->request, cc->name);
		}
	}
}

static void
check_pod_spec(RefCtx *rc, const K8sObject *owner, const K8sPodSpec *spec, const char *path)
{
	const char *ns = k8s_object_namespace(owner);
	g_autofree const K8sObject **targets =
	        g_new0(const K8sObject *, spec->n_resource_claims + 1);

	for (guint i = 0; i < spec->n_resource_claims; i++) {
		g_autofree char *p = g_strdup_printf("%s.resourceClaims[%u]", path, i);
		targets[i] = check_pod_claim_ref(rc, owner, ns, p, &spec->resource_claims[i]);
	}
	check_container_requests(rc, owner, path, spec, spec->containers, spec->n_containers,
	                         "containers", targets);
	check_container_requests(rc, owner, path, spec, spec->init_containers,
	                         spec->n_init_containers, "initContainers", targets);
}

/* "known DeviceClasses: a, b" (in set order), or that there is none. */
static char *
known_classes(const K8sObjectSet *set)
{
	guint n = k8s_object_set_count_kind(set, K8S_KIND_DEVICE_CLASS);
	GString *text;

	if (n == 0) {
		return g_strdup("no DeviceClass is known: these manifests define none");
	}
	text = g_string_new("known DeviceClasses: ");
	for (guint i = 0; i < n; i++) {
		const K8sObject *o = k8s_object_set_get_kind(set, K8S_KIND_DEVICE_CLASS, i);

		g_string_append_printf(text, "%s%s", i > 0 ? ", " : "", o->metadata.name);
	}
	return g_string_free(text, FALSE);
}

/*
 * A request naming no known DeviceClass is an error: the allocator fails the claim with
 * these words. A claim that is already allocated (status.allocation, as a kubectl dump of a
 * running cluster has it) never reaches the allocator again: the scheduler hands only the
 * claims still to allocate to it (dynamic-resource-allocation
 * structured/internal/stable/allocator_stable.go, claimsToAllocate), so there the missing
 * class is only a warning, the usual case of a dump of claims without their classes.
 */
static void
check_class(RefCtx *rc,
            const K8sObject *owner,
            const K8sExactDeviceRequest *r,
            const char *path,
            const char *request,
            gboolean allocated)
{
	const K8sPos *pos =
	        r->device_class_name_pos.line != 0 ? &r->device_class_name_pos : &r->pos;

	if (r->device_class_name == NULL || r->device_class_name[0] == '\0' ||
	    k8s_object_set_lookup(rc->set, K8S_KIND_DEVICE_CLASS, NULL, r->device_class_name) !=
	            NULL) {
		return;
	}
	g_autofree char *full =
	        g_strconcat(object_path_prefix(owner), path, ".deviceClassName", NULL);
	g_autofree char *known = known_classes(rc->set);
	if (allocated) {
		k8s_diag_list_warning(rc->diags, pos, full,
		                      "request %s: device class %s is not known (%s); the claim is "
		                      "allocated (status.allocation), so its devices are kept, but "
		                      "it could not be allocated again",
		                      request, r->device_class_name, known);
		return;
	}
	/* the allocator's words: "request %s: could not retrieve device class %s: ..." */
	k8s_diag_list_error(rc->diags, pos, full,
	                    "request %s: could not retrieve device class %s: "
	                    "deviceclass.resource.k8s.io \"%s\" not found (%s)",
	                    request, r->device_class_name, r->device_class_name, known);
}

static void
check_claim_spec(RefCtx *rc,
                 const K8sObject *owner,
                 const K8sResourceClaimSpec *spec,
                 const char *base,
                 gboolean allocated)
{
	gboolean flat =
	        owner->version == K8S_VERSION_V1BETA1 || owner->version == K8S_VERSION_V1ALPHA3;

	for (guint i = 0; i < spec->n_requests; i++) {
		const K8sDeviceRequest *r = &spec->requests[i];
		const char *rname = r->name != NULL ? r->name : "";
		if (r->has_exactly) {
			g_autofree char *p = g_strdup_printf("%s.devices.requests[%u]%s", base, i,
			                                     flat ? "" : ".exactly");
			check_class(rc, owner, &r->exactly, p, rname, allocated);
		}
		for (guint j = 0; j < r->n_first_available; j++) {
			const K8sDeviceSubRequest *sub = &r->first_available[j];
			g_autofree char *p = g_strdup_printf(
			        "%s.devices.requests[%u].firstAvailable[%u]", base, i, j);
			g_autofree char *rn =
			        g_strdup_printf("%s/%s", rname, sub->name != NULL ? sub->name : "");
			check_class(rc, owner, &sub->spec, p, rn, allocated);
		}
	}
}

void
k8s_validate_references(const K8sObjectSet *set, K8sDiagList *diags)
{
	RefCtx rc = { .set = set, .diags = diags };
	guint n = k8s_object_set_count(set);

	for (guint i = 0; i < n; i++) {
		K8sObject *o = k8s_object_set_get(set, i);
		switch (o->kind) {
		case K8S_KIND_POD:
			check_pod_spec(&rc, o, &k8s_object_as_pod(o)->spec, "spec");
			break;
		case K8S_KIND_DEPLOYMENT:
		case K8S_KIND_STATEFUL_SET:
		case K8S_KIND_REPLICA_SET:
		case K8S_KIND_JOB:
			check_pod_spec(&rc, o, &k8s_object_as_workload(o)->template_.spec,
			               "spec.template.spec");
			break;
		case K8S_KIND_RESOURCE_CLAIM: {
			const K8sResourceClaim *claim = k8s_object_as_resource_claim(o);
			check_claim_spec(&rc, o, &claim->spec, "spec",
			                 claim->status.allocation != NULL);
			break;
		}
		case K8S_KIND_RESOURCE_CLAIM_TEMPLATE:
			check_claim_spec(&rc, o, &k8s_object_as_resource_claim_template(o)->spec,
			                 "spec.spec", FALSE);
			break;
		default:
			break;
		}
	}
}

/* ---- the CEL hook -------------------------------------------------------------------- */

static void
visit_selectors(const K8sObject *obj,
                const K8sDeviceSelector *sels,
                guint n,
                GString *path,
                const char *class_name,
                K8sCelVisitFn fn,
                gpointer user_data)
{
	gsize len = path->len;

	for (guint i = 0; i < n; i++) {
		K8sCelSite site = { .obj = obj,
			            .selector = &sels[i],
			            .device_class_name = class_name };
		if (sels[i].cel_expression == NULL) {
			continue;
		}
		g_string_append_printf(path, ".selectors[%u].cel.expression", i);
		site.path = path->str;
		fn(&site, user_data);
		g_string_truncate(path, len);
	}
}

static void
visit_claim_spec(const K8sObject *obj,
                 const K8sResourceClaimSpec *spec,
                 const char *base,
                 K8sCelVisitFn fn,
                 gpointer user_data)
{
	gboolean flat = obj->version == K8S_VERSION_V1BETA1 || obj->version == K8S_VERSION_V1ALPHA3;
	GString *path = g_string_new(NULL);

	for (guint i = 0; i < spec->n_requests; i++) {
		const K8sDeviceRequest *r = &spec->requests[i];
		if (r->has_exactly) {
			g_string_printf(path, "%s%s.devices.requests[%u]%s",
			                object_path_prefix(obj), base, i, flat ? "" : ".exactly");
			visit_selectors(obj, r->exactly.selectors, r->exactly.n_selectors, path,
			                r->exactly.device_class_name, fn, user_data);
		}
		for (guint j = 0; j < r->n_first_available; j++) {
			const K8sDeviceSubRequest *sub = &r->first_available[j];
			g_string_printf(path, "%s%s.devices.requests[%u].firstAvailable[%u]",
			                object_path_prefix(obj), base, i, j);
			visit_selectors(obj, sub->spec.selectors, sub->spec.n_selectors, path,
			                sub->spec.device_class_name, fn, user_data);
		}
	}
	g_string_free(path, TRUE);
}

void
k8s_foreach_cel_expression(const K8sObjectSet *set, K8sCelVisitFn fn, gpointer user_data)
{
	guint n = k8s_object_set_count(set);

	for (guint i = 0; i < n; i++) {
		K8sObject *o = k8s_object_set_get(set, i);
		GString *path = g_string_new(object_path_prefix(o));
		switch (o->kind) {
		case K8S_KIND_DEVICE_CLASS: {
			const K8sDeviceClass *dc = k8s_object_as_device_class(o);
			g_string_append(path, "spec");
			visit_selectors(o, dc->spec.selectors, dc->spec.n_selectors, path, NULL, fn,
			                user_data);
			break;
		}
		case K8S_KIND_RESOURCE_CLAIM:
			visit_claim_spec(o, &k8s_object_as_resource_claim(o)->spec, "spec", fn,
			                 user_data);
			break;
		case K8S_KIND_RESOURCE_CLAIM_TEMPLATE:
			visit_claim_spec(o, &k8s_object_as_resource_claim_template(o)->spec,
			                 "spec.spec", fn, user_data);
			break;
		case K8S_KIND_DEVICE_TAINT_RULE: {
			const K8sDeviceTaintRule *r = k8s_object_as_device_taint_rule(o);
			g_string_append(path, "spec.deviceSelector");
			visit_selectors(o, r->spec.selectors, r->spec.n_selectors, path,
			                r->spec.device_class_name, fn, user_data);
			break;
		}
		default:
			break;
		}
		g_string_free(path, TRUE);
	}
}
