/*
 * k8s_validate_resource.c: validation of resource.k8s.io objects: DeviceClass,
 * ResourceClaim(Template) specs and DeviceTaintRule (ResourceSlice: k8s_validate_slice.c).
 *
 * Follows pkg/apis/resource/validation/validation.go rule by rule (Kubernetes 1.34,
 * default feature gates), including its order and its short cuts: a list over its size
 * limit is reported once and its items are not looked at (DoS protection upstream).
 * CEL expressions are only measured here; compiling them is the CEL checks' job.
 */
#include <string.h>

#include <glib.h>

#include "k8s_validate-private.h"

/* ---- DeviceClass --------------------------------------------------------------------- */

static void
v_device_config_list(VCtx *ctx, const K8sDeviceClassConfig *config, guint n, const K8sPos *pos)
{
	gsize mark = vpath_push(ctx, "config");

	if (n > V_DEVICE_CONFIG_MAX) {
		vtoo_many(ctx, pos, NULL, n, V_DEVICE_CONFIG_MAX);
		vpath_pop(ctx, mark);
		return;
	}
	for (guint i = 0; i < n; i++) {
		gsize m = vpath_index(ctx, i);
		if (!config[i].has_opaque) {
			vrequired(ctx, &config[i].pos, "opaque", NULL);
		} else {
			gsize m2 = vpath_push(ctx, "opaque");
			v_opaque(ctx, &config[i].opaque);
			vpath_pop(ctx, m2);
		}
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

void
v_device_class(VCtx *ctx, const K8sDeviceClass *dc)
{
	const K8sDeviceClassSpec *spec = &dc->spec;
	gsize mark = vpath_push(ctx, "spec");
	gsize m;

	m = vpath_push(ctx, "selectors");
	v_selectors(ctx, spec->selectors, spec->n_selectors, &spec->pos);
	vpath_pop(ctx, m);
	v_device_config_list(ctx, spec->config, spec->n_config, &spec->pos);
	if (spec->extended_resource_name != NULL &&
	    !k8s_names_is_extended_resource_name(spec->extended_resource_name)) {
		vinvalid_str(ctx, &spec->extended_resource_name_pos, "extendedResourceName",
		             spec->extended_resource_name,
		             "must be a valid extended resource name");
	}
	vpath_pop(ctx, mark);
}

/* ---- claim specs --------------------------------------------------------------------- */

/* requestNames.Has: "req" or "req/sub" naming a request (and sub-request) of @spec. */
static gboolean
request_names_has(const K8sResourceClaimSpec *spec, const char *ref)
{
	const char *slash = strchr(ref, '/');
	gsize len = slash != NULL ? (gsize)(slash - ref) : strlen(ref);

	if (slash != NULL && strchr(slash + 1, '/') != NULL) {
		return FALSE;
	}
	for (guint i = 0; i < spec->n_requests; i++) {
		const K8sDeviceRequest *r = &spec->requests[i];
		if (r->name == NULL || strlen(r->name) != len || strncmp(r->name, ref, len) != 0) {
			continue;
		}
		if (slash == NULL) {
			return TRUE;
		}
		for (guint j = 0; j < r->n_first_available; j++) {
			const char *sub = r->first_available[j].name;
			if (sub != NULL && strcmp(sub, slash + 1) == 0) {
				return TRUE;
			}
		}
		return FALSE;
	}
	return FALSE;
}

void
v_request_name(VCtx *ctx, const char *name, const K8sPos *pos, const char *child)
{
	const char *n = name != NULL ? name : "";

	/* ValidateDNS1123Label: an empty name is an invalid label, not a missing field */
	vinvalid_msgs(ctx, pos, child, n, k8s_names_dns1123_label(n));
}

/* The `requests` of a constraint or config: unique references to requests of @spec. */
static void
v_request_refs(VCtx *ctx, const K8sResourceClaimSpec *spec, const K8sStringList *refs)
{
	static const char msg[] = "must be the name of a request in the claim or the name of a "
	                          "request and a subrequest separated by '/'";
	gsize mark = vpath_push(ctx, "requests");

	if (refs->n > V_DEVICE_REQUESTS_MAX) {
		vtoo_many(ctx, &refs->pos, NULL, refs->n, V_DEVICE_REQUESTS_MAX);
		vpath_pop(ctx, mark);
		return;
	}
	for (guint i = 0; i < refs->n; i++) {
		const char *ref = refs->items[i];
		const K8sPos *pos = refs->item_pos != NULL ? &refs->item_pos[i] : &refs->pos;
		gsize m = vpath_index(ctx, i);
		g_auto(GStrv) segments = g_strsplit(ref, "/", -1);

		if (g_strv_length(segments) > 2) {
			vinvalid_str(ctx, pos, NULL, ref, msg);
			vpath_pop(ctx, m);
			continue;
		}
		for (guint s = 0; segments[s] != NULL; s++) {
			vinvalid_msgs(ctx, pos, NULL, segments[s],
			              k8s_names_dns1123_label(segments[s]));
		}
		if (!request_names_has(spec, ref)) {
			vinvalid_str(ctx, pos, NULL, ref, msg);
		}
		for (guint j = 0; j < i; j++) {
			if (strcmp(refs->items[j], ref) == 0) {
				vduplicate(ctx, pos, ref);
				break;
			}
		}
		vpath_pop(ctx, m);
	}
	vpath_pop(ctx, mark);
}

/* validateDeviceAllocationMode, on the request's own path (count and allocationMode). */
static void
v_allocation_mode(VCtx *ctx, const K8sExactDeviceRequest *r)
{
	static const char *const modes[] = { "All", "ExactCount", NULL };
	const char *mode = r->allocation_mode != NULL ? r->allocation_mode : "ExactCount";
	const K8sPos *count_pos = r->count_pos.line != 0 ? &r->count_pos : &r->pos;
	char value[32];

	g_snprintf(value, sizeof(value), "%" G_GINT64_FORMAT, r->has_count ? r->count : 0);
	if (strcmp(mode, "All") == 0) {
		if (r->has_count && r->count != 0) {
			verror(ctx, count_pos, "count", K8S_FIELD_INVALID, value,
			       "must not be specified when allocationMode is 'All'");
		}
	} else if (strcmp(mode, "ExactCount") == 0) {
		/* an unset count defaults to 1 */
		if (r->has_count && r->count <= 0) {
			verror(ctx, count_pos, "count", K8S_FIELD_INVALID, value,
			       "must be greater than zero");
		}
	} else {
		vnot_supported(ctx, &r->allocation_mode_pos, "allocationMode", mode, modes);
	}
}

static void
v_exact_request(VCtx *ctx, const K8sExactDeviceRequest *r)
{
	gsize m;

	if (r->device_class_name == NULL || r->device_class_name[0] == '\0') {
		vrequired(ctx, &r->pos, "deviceClassName", NULL);
	} else {
		vinvalid_msgs(ctx, &r->device_class_name_pos, "deviceClassName",
		              r->device_class_name,
		              k8s_names_dns1123_subdomain(r->device_class_name));
	}
	m = vpath_push(ctx, "selectors");
	v_selectors(ctx, r->selectors, r->n_selectors, &r->pos);
	vpath_pop(ctx, m);
	v_allocation_mode(ctx, r);
	m = vpath_push(ctx, "tolerations");
	if (r->n_tolerations > V_DEVICE_TOLERATIONS_MAX) {
		vtoo_many(ctx, &r->pos, NULL, r->n_tolerations, V_DEVICE_TOLERATIONS_MAX);
	} else {
		for (guint i = 0; i < r->n_tolerations; i++) {
			gsize m2 = vpath_index(ctx, i);
			v_device_toleration(ctx, &r->tolerations[i]);
			vpath_pop(ctx, m2);
		}
	}
	vpath_pop(ctx, m);
	if (r->has_capacity) {
		m = vpath_push(ctx, "capacity.requests");
		for (guint i = 0; i < r->capacity_requests.n; i++) {
			const K8sQtyPair *p = &r->capacity_requests.items[i];
			v_qualified_name(ctx, p->key, &p->pos, FALSE);
		}
		vpath_pop(ctx, m);
	}
}

static void
v_device_request(VCtx *ctx, const K8sDeviceRequest *req)
{
	gsize m;

	v_request_name(ctx, req->name, &req->name_pos, "name");
	if (req->has_exactly && req->n_first_available > 0) {
		verror(ctx, &req->pos, NULL, K8S_FIELD_INVALID, "\"null\"",
		       "exactly one of `exactly` or `firstAvailable` is required, but multiple "
		       "fields are set");
		return;
	}
	if (!req->has_exactly && req->n_first_available == 0) {
		vrequired(ctx, &req->pos, NULL,
		          "exactly one of `exactly` or `firstAvailable` is required");
		return;
	}
	if (req->has_exactly) {
		m = ctx->flat_requests ? ctx->path->len : vpath_push(ctx, "exactly");
		v_exact_request(ctx, &req->exactly);
		vpath_pop(ctx, m);
		return;
	}
	m = vpath_push(ctx, "firstAvailable");
	if (req->n_first_available > V_FIRST_AVAILABLE_MAX) {
		vtoo_many(ctx, &req->first_available_pos, NULL, req->n_first_available,
		          V_FIRST_AVAILABLE_MAX);
		vpath_pop(ctx, m);
		return;
	}
	for (guint i = 0; i < req->n_first_available; i++) {
		const K8sDeviceSubRequest *sub = &req->first_available[i];
		gsize m2 = vpath_index(ctx, i);
		v_request_name(ctx, sub->name, &sub->name_pos, "name");
		v_exact_request(ctx, &sub->spec);
		for (guint j = 0; j < i; j++) {
			if (sub->name != NULL && req->first_available[j].name != NULL &&
			    strcmp(sub->name, req->first_available[j].name) == 0) {
				vduplicate(ctx, &sub->name_pos, sub->name);
				break;
			}
		}
		vpath_pop(ctx, m2);
	}
	vpath_pop(ctx, m);
}

static void
v_claim_spec(VCtx *ctx, const K8sResourceClaimSpec *spec)
{
	gsize mark = vpath_push(ctx, "devices");
	gsize m = vpath_push(ctx, "requests");

	if (spec->n_requests > V_DEVICE_REQUESTS_MAX) {
		vtoo_many(ctx, &spec->pos, NULL, spec->n_requests, V_DEVICE_REQUESTS_MAX);
	} else {
		for (guint i = 0; i < spec->n_requests; i++) {
			const K8sDeviceRequest *r = &spec->requests[i];
			gsize m2 = vpath_index(ctx, i);
			v_device_request(ctx, r);
			for (guint j = 0; j < i; j++) {
				if (r->name != NULL && spec->requests[j].name != NULL &&
				    strcmp(r->name, spec->requests[j].name) == 0) {
					vduplicate(ctx, &r->name_pos, r->name);
					break;
				}
			}
			vpath_pop(ctx, m2);
		}
	}
	vpath_pop(ctx, m);

	m = vpath_push(ctx, "constraints");
	if (spec->n_constraints > V_DEVICE_CONSTRAINTS_MAX) {
		vtoo_many(ctx, &spec->pos, NULL, spec->n_constraints, V_DEVICE_CONSTRAINTS_MAX);
	} else {
		for (guint i = 0; i < spec->n_constraints; i++) {
			const K8sDeviceConstraint *c = &spec->constraints[i];
			gsize m2 = vpath_index(ctx, i);
			v_request_refs(ctx, spec, &c->requests);
			if (c->match_attribute != NULL) {
				gsize m3 = vpath_push(ctx, "matchAttribute");
				v_qualified_name(ctx, c->match_attribute, &c->match_attribute_pos,
				                 TRUE);
				vpath_pop(ctx, m3);
			} else if (c->distinct_attribute != NULL) {
				gsize m3 = vpath_push(ctx, "distinctAttribute");
				v_qualified_name(ctx, c->distinct_attribute,
				                 &c->distinct_attribute_pos, TRUE);
				vpath_pop(ctx, m3);
			} else {
				/* DRAConsumableCapacity (distinctAttribute) is off by default */
				vrequired(ctx, &c->pos, "matchAttribute", NULL);
			}
			vpath_pop(ctx, m2);
		}
	}
	vpath_pop(ctx, m);

	m = vpath_push(ctx, "config");
	if (spec->n_config > V_DEVICE_CONFIG_MAX) {
		vtoo_many(ctx, &spec->pos, NULL, spec->n_config, V_DEVICE_CONFIG_MAX);
	} else {
		for (guint i = 0; i < spec->n_config; i++) {
			const K8sDeviceClaimConfig *c = &spec->config[i];
			gsize m2 = vpath_index(ctx, i);
			v_request_refs(ctx, spec, &c->requests);
			if (!c->has_opaque) {
				vrequired(ctx, &c->pos, "opaque", NULL);
			} else {
				gsize m3 = vpath_push(ctx, "opaque");
				v_opaque(ctx, &c->opaque);
				vpath_pop(ctx, m3);
			}
			vpath_pop(ctx, m2);
		}
	}
	vpath_pop(ctx, m);
	vpath_pop(ctx, mark);
}

/*
 * A claim's status.allocation.devices.results, as validateDeviceRequestAllocationResult
 * (pkg/apis/resource/validation/validation.go) checks them on a status update: request,
 * driver, pool and device required. The API server never stores a claim without them;
 * a hand-written or truncated dump can have one, and its result names no device.
 */
static void
v_allocation_results(VCtx *ctx, const K8sAllocationResult *allocation)
{
	gsize mark = vpath_push(ctx, "status");
	gsize m1 = vpath_push(ctx, "allocation");
	gsize m2 = vpath_push(ctx, "devices");

	if (allocation->n_results > V_ALLOCATION_RESULTS_MAX)
		vtoo_many(ctx, &allocation->results[0].pos, "results", allocation->n_results,
		          V_ALLOCATION_RESULTS_MAX);
	for (guint i = 0; i < allocation->n_results; i++) {
		const K8sDeviceRequestAllocationResult *r = &allocation->results[i];
		gsize m3 = vpath_push(ctx, "results");
		gsize m4 = vpath_index(ctx, i);

		if (r->request == NULL)
			vrequired(ctx, &r->pos, "request", NULL);
		v_driver_name(ctx, r->driver, &r->pos, "driver");
		if (r->pool == NULL)
			vrequired(ctx, &r->pos, "pool", NULL);
		if (r->device == NULL)
			vrequired(ctx, &r->pos, "device", NULL);
		vpath_pop(ctx, m4);
		vpath_pop(ctx, m3);
	}
	vpath_pop(ctx, m2);
	vpath_pop(ctx, m1);
	vpath_pop(ctx, mark);
}

void
v_resource_claim(VCtx *ctx, const K8sResourceClaim *claim)
{
	gsize mark = vpath_push(ctx, "spec");

	v_claim_spec(ctx, &claim->spec);
	vpath_pop(ctx, mark);
	if (claim->status.allocation != NULL)
		v_allocation_results(ctx, claim->status.allocation);
}

void
v_resource_claim_template(VCtx *ctx, const K8sResourceClaimTemplate *t)
{
	gsize mark = vpath_push(ctx, "spec");
	gsize m = vpath_push(ctx, "metadata");

	/* ValidateTemplateObjectMeta: labels and annotations only */
	v_labels(ctx, &t->template_metadata.labels, "labels");
	vpath_pop(ctx, m);
	m = vpath_push(ctx, "spec");
	v_claim_spec(ctx, &t->spec);
	vpath_pop(ctx, m);
	vpath_pop(ctx, mark);
}

/* ---- DeviceTaintRule ----------------------------------------------------------------- */

void
v_device_taint_rule(VCtx *ctx, const K8sDeviceTaintRule *rule)
{
	const K8sDeviceTaintRuleSpec *spec = &rule->spec;
	gsize mark = vpath_push(ctx, "spec");
	gsize m;

	if (spec->has_device_selector) {
		m = vpath_push(ctx, "deviceSelector");
		const K8sPos *pos = &spec->device_selector_pos;
		if (spec->device_class_name != NULL) {
			vinvalid_msgs(ctx, pos, "deviceClassName", spec->device_class_name,
			              k8s_names_dns1123_subdomain(spec->device_class_name));
		}
		if (spec->driver != NULL) {
			v_driver_name(ctx, spec->driver, pos, "driver");
		}
		if (spec->pool != NULL) {
			g_auto(GStrv) parts = g_strsplit(spec->pool, "/", -1);
			for (guint i = 0; parts[i] != NULL; i++) {
				vinvalid_msgs(ctx, pos, "pool", parts[i],
				              k8s_names_dns1123_subdomain(parts[i]));
			}
		}
		if (spec->device != NULL) {
			vinvalid_msgs(ctx, pos, "device", spec->device,
			              k8s_names_dns1123_label(spec->device));
		}
		gsize m2 = vpath_push(ctx, "selectors");
		v_selectors(ctx, spec->selectors, spec->n_selectors, pos);
		vpath_pop(ctx, m2);
		vpath_pop(ctx, m);
	}
	m = vpath_push(ctx, "taint");
	v_device_taint(ctx, &spec->taint);
	vpath_pop(ctx, m);
	vpath_pop(ctx, mark);
}
