/*
 * k8s_fields_resource.c: field tables of resource.k8s.io DeviceClass, ResourceClaim,
 * ResourceClaimTemplate and DeviceTaintRule, for every apiVersion (ResourceSlice:
 * k8s_fields_slice.c).
 *
 * v1 and v1beta2 share one shape. v1beta1 and v1alpha3 have flat requests (no
 * `exactly`) and devices wrapped in `basic`; their tables write into the same v1
 * structs, which is the whole conversion (upstream: pkg/apis/resource/v1beta1/
 * conversion.go). v1alpha3 as Kubernetes 1.31 wrote it also has capacities as bare
 * quantities and a few fields removed in 1.32, accepted here with a warning.
 */
#include <string.h>

#include "k8s_fields-macros.h"

#define NODE_SELECTOR k8s_fields__node_selector_desc
#define META          k8s_fields__meta_desc
#define taint_desc    k8s_fields__device_taint_desc

/* ---- selectors and config ----------------------------------------------------------- */

static void
cel_finish(K8sDec *dec, const K8sYamlNode *node, void *out)
{
	const K8sYamlNode *expr = k8s_yaml_map_lookup(node, "expression");
	K8sDeviceSelector *sel = out;

	if (expr != NULL && expr->kind == K8S_YAML_SCALAR) {
		sel->expression_style = (K8sYamlScalarStyle)expr->style;
		sel->expression_text_pos = k8s_yaml_text_pos(expr, sel->expression_pos.file, 0);
	}
}

static const K8sField cel_fields[] = {
	{ .name = "expression",
	  .type = K8S_F_STRING,
	  .at = K8S_AT(K8sDeviceSelector, cel_expression),
	  .pos_at = K8S_AT(K8sDeviceSelector, expression_pos) },
	F_END,
};
static DESC_INLINE(cel_desc, "CELDeviceSelector", cel_fields, .finish = cel_finish);

static const K8sField selector_fields[] = {
	F_INLINE("cel", cel_desc),
	F_END,
};
static DESC(selector_desc, "DeviceSelector", K8sDeviceSelector, pos, selector_fields);

static const K8sField opaque_fields[] = {
	F_STRP(K8sOpaqueDeviceConfig, "driver", driver),
	F_RAW(K8sOpaqueDeviceConfig, "parameters", parameters),
	F_END,
};
static DESC(opaque_desc, "OpaqueDeviceConfiguration", K8sOpaqueDeviceConfig, pos, opaque_fields);

static const K8sField class_config_fields[] = {
	F_STRUCTH(K8sDeviceClassConfig, "opaque", opaque, opaque_desc),
	F_END,
};
static DESC(class_config_desc,
            "DeviceClassConfiguration",
            K8sDeviceClassConfig,
            pos,
            class_config_fields);

/* ---- DeviceClass --------------------------------------------------------------------- */

static const K8sField class_spec_fields[] = {
	F_ARR(K8sDeviceClassSpec, "selectors", selectors, selector_desc),
	F_ARR(K8sDeviceClassSpec, "config", config, class_config_desc),
	F_STRP(K8sDeviceClassSpec, "extendedResourceName", extended_resource_name),
	F_END,
};
static DESC(class_spec_desc, "DeviceClassSpec", K8sDeviceClassSpec, pos, class_spec_fields);

static const K8sField class_spec_v1alpha3_fields[] = {
	F_ARR(K8sDeviceClassSpec, "selectors", selectors, selector_desc),
	F_ARR(K8sDeviceClassSpec, "config", config, class_config_desc),
	F_STRP(K8sDeviceClassSpec, "extendedResourceName", extended_resource_name),
	F_DROPPED("suitableNodes",
	          "suitableNodes was removed in Kubernetes 1.32; "
	          "resource.k8s.io/v1 has no such field and it is dropped"),
	F_END,
};
static DESC(class_spec_v1alpha3_desc,
            "DeviceClassSpec",
            K8sDeviceClassSpec,
            pos,
            class_spec_v1alpha3_fields);

static const K8sField class_fields[] = {
	OBJECT_HEAD(K8sDeviceClass),
	F_STRUCT(K8sDeviceClass, "spec", spec, class_spec_desc),
	F_END,
};
static DESC(class_desc, "DeviceClass", K8sDeviceClass, obj.pos, class_fields);

static const K8sField class_v1alpha3_fields[] = {
	OBJECT_HEAD(K8sDeviceClass),
	F_STRUCT(K8sDeviceClass, "spec", spec, class_spec_v1alpha3_desc),
	F_END,
};
static DESC(class_v1alpha3_desc, "DeviceClass", K8sDeviceClass, obj.pos, class_v1alpha3_fields);

/* ---- requests ------------------------------------------------------------------------ */

static const K8sField toleration_fields[] = {
	F_STR(K8sDeviceToleration, "key", key),
	F_STR(K8sDeviceToleration, "operator", operator_),
	F_STR(K8sDeviceToleration, "value", value),
	F_STR(K8sDeviceToleration, "effect", effect),
	F_I64(K8sDeviceToleration, "tolerationSeconds", toleration_seconds),
	F_END,
};
static DESC(toleration_desc, "DeviceToleration", K8sDeviceToleration, pos, toleration_fields);

static const K8sField capacity_req_fields[] = {
	F_QMAP(K8sExactDeviceRequest, "requests", capacity_requests),
	F_END,
};
static DESC_INLINE(capacity_req_desc, "CapacityRequirements", capacity_req_fields);

#define EXACT_HEAD_ROWS(T)                                                                         \
	F_STRP(T, "deviceClassName", device_class_name),                                           \
	        F_ARR(T, "selectors", selectors, selector_desc),                                   \
	        F_STRP(T, "allocationMode", allocation_mode), F_I64P(T, "count", count)
#define EXACT_TAIL_ROWS(T)                                                                         \
	F_ARR(T, "tolerations", tolerations, toleration_desc),                                     \
	{                                                                                          \
		.name = "capacity", .type = K8S_F_STRUCT, .at = 1,                                 \
		.has_at = K8S_AT(T, has_capacity), .sub = &capacity_req_desc                       \
	}

static const K8sField exact_fields[] = {
	EXACT_HEAD_ROWS(K8sExactDeviceRequest),
	F_BOOLP(K8sExactDeviceRequest, "adminAccess", admin_access),
	EXACT_TAIL_ROWS(K8sExactDeviceRequest),
	F_END,
};
static DESC(exact_desc, "ExactDeviceRequest", K8sExactDeviceRequest, pos, exact_fields);

static const K8sField sub_exact_fields[] = {
	EXACT_HEAD_ROWS(K8sExactDeviceRequest),
	EXACT_TAIL_ROWS(K8sExactDeviceRequest),
	F_END,
};
static DESC_INLINE(sub_exact_desc, "DeviceSubRequest", sub_exact_fields);

static void
sub_request_finish(K8sDec *dec, const K8sYamlNode *node, void *out)
{
	K8sDeviceSubRequest *sub = out;

	sub->spec.pos = sub->pos;
}

static const K8sField sub_request_fields[] = {
	F_STRP(K8sDeviceSubRequest, "name", name),
	F_END,
};
static DESC(sub_request_desc,
            "DeviceSubRequest",
            K8sDeviceSubRequest,
            pos,
            sub_request_fields,
            .embed = &sub_exact_desc,
            .embed_at = K8S_AT(K8sDeviceSubRequest, spec),
            .finish = sub_request_finish);

static const K8sFieldHint request_v1_hints[] = {
	{ "deviceClassName", "in resource.k8s.io/v1 and v1beta2 the request's deviceClassName, "
	                     "selectors, allocationMode and count go under 'exactly' (the flat "
	                     "form is v1beta1)" },
	{ "selectors", "in resource.k8s.io/v1 and v1beta2 selectors go under 'exactly'" },
	{ "allocationMode",
	  "in resource.k8s.io/v1 and v1beta2 allocationMode goes under 'exactly'" },
	{ "count", "in resource.k8s.io/v1 and v1beta2 count goes under 'exactly'" },
	{ "adminAccess", "in resource.k8s.io/v1 and v1beta2 adminAccess goes under 'exactly'" },
	{ "tolerations", "in resource.k8s.io/v1 and v1beta2 tolerations go under 'exactly'" },
	{ "capacity", "in resource.k8s.io/v1 and v1beta2 capacity goes under 'exactly'" },
	{ NULL, NULL },
};

static const K8sField request_fields[] = {
	F_STRP(K8sDeviceRequest, "name", name),
	F_STRUCTH(K8sDeviceRequest, "exactly", exactly, exact_desc),
	{ .name = "firstAvailable",
	  .type = K8S_F_ARRAY,
	  .at = K8S_AT(K8sDeviceRequest, first_available),
	  .count_at = K8S_AT(K8sDeviceRequest, n_first_available),
	  .has_at = K8S_AT(K8sDeviceRequest, has_first_available),
	  .pos_at = K8S_AT(K8sDeviceRequest, first_available_pos),
	  .sub = &sub_request_desc },
	F_END,
};
static DESC(request_desc,
            "DeviceRequest",
            K8sDeviceRequest,
            pos,
            request_fields,
            .hints = request_v1_hints);

/*
 * v1beta1/v1alpha3 requests are flat. Upstream's conversion fills `exactly` from the
 * flat fields when firstAvailable is empty; drasim also fills it when any flat field
 * is set next to firstAvailable, so validation reports "exactly one of" as the API
 * server's v1beta1 validation does ("must not be set with firstAvailable").
 */
static void
flat_request_finish(K8sDec *dec, const K8sYamlNode *node, void *out)
{
	K8sDeviceRequest *req = out;
	gboolean any_flat = FALSE;

	for (guint i = 0; node != NULL && i < node->map.n; i++) {
		const char *key = node->map.pairs[i].key->scalar.text;

		if (strcmp(key, "name") != 0 && strcmp(key, "firstAvailable") != 0 &&
		    !k8s_dec__is_null(node->map.pairs[i].value)) {
			any_flat = TRUE;
		}
	}
	if (any_flat || !req->has_first_available) {
		req->has_exactly = TRUE;
		req->exactly.pos = req->pos;
	}
}

static const K8sFieldHint request_flat_hints[] = {
	{ "exactly", "'exactly' is the resource.k8s.io/v1 and v1beta2 form; in this apiVersion "
	             "the request fields go directly on the request" },
	{ NULL, NULL },
};

static const K8sField flat_request_fields[] = {
	F_STRP(K8sDeviceRequest, "name", name),
	{ .name = "firstAvailable",
	  .type = K8S_F_ARRAY,
	  .at = K8S_AT(K8sDeviceRequest, first_available),
	  .count_at = K8S_AT(K8sDeviceRequest, n_first_available),
	  .has_at = K8S_AT(K8sDeviceRequest, has_first_available),
	  .pos_at = K8S_AT(K8sDeviceRequest, first_available_pos),
	  .sub = &sub_request_desc },
	F_END,
};
static DESC(flat_request_desc,
            "DeviceRequest",
            K8sDeviceRequest,
            pos,
            flat_request_fields,
            .hints = request_flat_hints,
            .embed = &exact_desc,
            .embed_at = K8S_AT(K8sDeviceRequest, exactly),
            .finish = flat_request_finish);

static const K8sField constraint_fields[] = {
	F_LIST(K8sDeviceConstraint, "requests", requests),
	F_STRP(K8sDeviceConstraint, "matchAttribute", match_attribute),
	F_STRP(K8sDeviceConstraint, "distinctAttribute", distinct_attribute),
	F_END,
};
static DESC(constraint_desc, "DeviceConstraint", K8sDeviceConstraint, pos, constraint_fields);

static const K8sField claim_config_fields[] = {
	F_LIST(K8sDeviceClaimConfig, "requests", requests),
	F_STRUCTH(K8sDeviceClaimConfig, "opaque", opaque, opaque_desc),
	F_END,
};
static DESC(claim_config_desc,
            "DeviceClaimConfiguration",
            K8sDeviceClaimConfig,
            pos,
            claim_config_fields);

#define DEVICE_CLAIM(var, reqdesc)                                                                 \
	static const K8sField var##_fields[] = {                                                   \
		F_ARR(K8sResourceClaimSpec, "requests", requests, reqdesc),                        \
		F_ARR(K8sResourceClaimSpec, "constraints", constraints, constraint_desc),          \
		F_ARR(K8sResourceClaimSpec, "config", config, claim_config_desc),                  \
		F_END,                                                                             \
	};                                                                                         \
	static DESC(var, "DeviceClaim", K8sResourceClaimSpec, pos, var##_fields)

DEVICE_CLAIM(device_claim_desc, request_desc);
DEVICE_CLAIM(flat_device_claim_desc, flat_request_desc);

static const K8sField claim_spec_fields[] = {
	F_INLINE("devices", device_claim_desc),
	F_END,
};
static DESC_INLINE(claim_spec_desc, "ResourceClaimSpec", claim_spec_fields);

static const K8sField flat_claim_spec_fields[] = {
	F_INLINE("devices", flat_device_claim_desc),
	F_DROPPED("controller",
	          "spec.controller (classic DRA) was removed in Kubernetes 1.32 and is "
	          "dropped"),
	F_END,
};
static DESC_INLINE(flat_claim_spec_desc, "ResourceClaimSpec", flat_claim_spec_fields);

/* ---- claim status --------------------------------------------------------------------- */

static const K8sField result_fields[] = {
	F_STR(K8sDeviceRequestAllocationResult, "request", request),
	F_STR(K8sDeviceRequestAllocationResult, "driver", driver),
	F_STR(K8sDeviceRequestAllocationResult, "pool", pool),
	F_STR(K8sDeviceRequestAllocationResult, "device", device),
	F_BOOL(K8sDeviceRequestAllocationResult, "adminAccess", admin_access),
	F_ARR(K8sDeviceRequestAllocationResult, "tolerations", tolerations, toleration_desc),
	F_LIST(K8sDeviceRequestAllocationResult, "bindingConditions", binding_conditions),
	F_LIST(K8sDeviceRequestAllocationResult,
	       "bindingFailureConditions",
	       binding_failure_conditions),
	F_STR(K8sDeviceRequestAllocationResult, "shareID", share_id),
	F_QMAP(K8sDeviceRequestAllocationResult, "consumedCapacity", consumed_capacity),
	F_END,
};
static DESC(result_desc,
            "DeviceRequestAllocationResult",
            K8sDeviceRequestAllocationResult,
            pos,
            result_fields);

static const K8sField alloc_config_fields[] = {
	F_STR(K8sDeviceAllocationConfig, "source", source),
	F_LIST(K8sDeviceAllocationConfig, "requests", requests),
	F_STRUCTH(K8sDeviceAllocationConfig, "opaque", opaque, opaque_desc),
	F_END,
};
static DESC(alloc_config_desc,
            "DeviceAllocationConfiguration",
            K8sDeviceAllocationConfig,
            pos,
            alloc_config_fields);

static const K8sField device_alloc_fields[] = {
	F_ARR(K8sAllocationResult, "results", results, result_desc),
	F_ARR(K8sAllocationResult, "config", config, alloc_config_desc),
	F_END,
};
static DESC_INLINE(device_alloc_desc, "DeviceAllocationResult", device_alloc_fields);

static const K8sField allocation_fields[] = {
	F_INLINE("devices", device_alloc_desc),
	F_PTR(K8sAllocationResult, "nodeSelector", node_selector, NODE_SELECTOR),
	F_STR(K8sAllocationResult, "allocationTimestamp", allocation_timestamp),
	F_DROPPED("controller",
	          "status.allocation.controller (classic DRA) was removed in "
	          "Kubernetes 1.32 and is dropped"),
	F_END,
};
static DESC(allocation_desc, "AllocationResult", K8sAllocationResult, pos, allocation_fields);

static const K8sField consumer_fields[] = {
	F_STR(K8sResourceClaimConsumerReference, "apiGroup", api_group),
	F_STR(K8sResourceClaimConsumerReference, "resource", resource),
	F_STR(K8sResourceClaimConsumerReference, "name", name),
	F_STR(K8sResourceClaimConsumerReference, "uid", uid),
	F_END,
};
static DESC(consumer_desc,
            "ResourceClaimConsumerReference",
            K8sResourceClaimConsumerReference,
            pos,
            consumer_fields);

static const K8sField condition_fields[] = {
	F_STR(K8sCondition, "type", type),
	F_STR(K8sCondition, "status", status),
	F_I64(K8sCondition, "observedGeneration", observed_generation),
	F_STR(K8sCondition, "lastTransitionTime", last_transition_time),
	F_STR(K8sCondition, "reason", reason),
	F_STR(K8sCondition, "message", message),
	F_END,
};
static DESC(condition_desc, "Condition", K8sCondition, pos, condition_fields);

static const K8sField network_fields[] = {
	F_STR(K8sAllocatedDeviceStatus, "interfaceName", network_interface_name),
	F_LIST(K8sAllocatedDeviceStatus, "ips", network_ips),
	F_STR(K8sAllocatedDeviceStatus, "hardwareAddress", network_hardware_address),
	F_END,
};
static DESC_INLINE(network_desc, "NetworkDeviceData", network_fields);

static const K8sField device_status_fields[] = {
	F_STR(K8sAllocatedDeviceStatus, "driver", driver),
	F_STR(K8sAllocatedDeviceStatus, "pool", pool),
	F_STR(K8sAllocatedDeviceStatus, "device", device),
	F_STR(K8sAllocatedDeviceStatus, "shareID", share_id),
	F_ARR(K8sAllocatedDeviceStatus, "conditions", conditions, condition_desc),
	F_RAW(K8sAllocatedDeviceStatus, "data", data),
	F_INLINEH(K8sAllocatedDeviceStatus, "networkData", has_network_data, network_desc),
	F_END,
};
static DESC(device_status_desc,
            "AllocatedDeviceStatus",
            K8sAllocatedDeviceStatus,
            pos,
            device_status_fields);

static const K8sField claim_status_fields[] = {
	F_PTR(K8sResourceClaimStatus, "allocation", allocation, allocation_desc),
	F_ARR(K8sResourceClaimStatus, "reservedFor", reserved_for, consumer_desc),
	F_ARR(K8sResourceClaimStatus, "devices", devices, device_status_desc),
	F_DROPPED("deallocationRequested",
	          "status.deallocationRequested (classic DRA) was "
	          "removed in Kubernetes 1.32 and is dropped"),
	F_END,
};
static DESC(
        claim_status_desc, "ResourceClaimStatus", K8sResourceClaimStatus, pos, claim_status_fields);

#define CLAIM_OBJECT(var, specdesc)                                                                \
	static const K8sField var##_fields[] = {                                                   \
		OBJECT_HEAD(K8sResourceClaim),                                                     \
		F_STRUCT(K8sResourceClaim, "spec", spec, specdesc),                                \
		F_STRUCT(K8sResourceClaim, "status", status, claim_status_desc),                   \
		F_END,                                                                             \
	};                                                                                         \
	static DESC(var, "ResourceClaim", K8sResourceClaim, obj.pos, var##_fields)

CLAIM_OBJECT(claim_desc, claim_spec_desc);
CLAIM_OBJECT(flat_claim_desc, flat_claim_spec_desc);

#define TEMPLATE_OBJECT(var, specdesc)                                                             \
	static const K8sField var##_spec_fields[] = {                                              \
		F_STRUCT(K8sResourceClaimTemplate, "metadata", template_metadata, META),           \
		F_STRUCT(K8sResourceClaimTemplate, "spec", spec, specdesc),                        \
		F_END,                                                                             \
	};                                                                                         \
	static DESC_INLINE(var##_spec_desc, "ResourceClaimTemplateSpec", var##_spec_fields);       \
	static const K8sField var##_fields[] = {                                                   \
		OBJECT_HEAD(K8sResourceClaimTemplate),                                             \
		F_INLINE("spec", var##_spec_desc),                                                 \
		F_END,                                                                             \
	};                                                                                         \
	static DESC(var, "ResourceClaimTemplate", K8sResourceClaimTemplate, obj.pos, var##_fields)

TEMPLATE_OBJECT(template_desc, claim_spec_desc);
TEMPLATE_OBJECT(flat_template_desc, flat_claim_spec_desc);

/* ---- DeviceTaintRule ------------------------------------------------------------------- */

static const K8sField taint_selector_fields[] = {
	F_STR(K8sDeviceTaintRuleSpec, "deviceClassName", device_class_name),
	F_STR(K8sDeviceTaintRuleSpec, "driver", driver),
	F_STR(K8sDeviceTaintRuleSpec, "pool", pool),
	F_STR(K8sDeviceTaintRuleSpec, "device", device),
	F_ARR(K8sDeviceTaintRuleSpec, "selectors", selectors, selector_desc),
	F_END,
};
static DESC(taint_selector_desc,
            "DeviceTaintSelector",
            K8sDeviceTaintRuleSpec,
            device_selector_pos,
            taint_selector_fields);

static const K8sField taint_rule_spec_fields[] = {
	F_INLINEH(
	        K8sDeviceTaintRuleSpec, "deviceSelector", has_device_selector, taint_selector_desc),
	F_STRUCT(K8sDeviceTaintRuleSpec, "taint", taint, taint_desc),
	F_END,
};
static DESC(taint_rule_spec_desc,
            "DeviceTaintRuleSpec",
            K8sDeviceTaintRuleSpec,
            pos,
            taint_rule_spec_fields);

static const K8sField taint_rule_fields[] = {
	OBJECT_HEAD(K8sDeviceTaintRule),
	F_STRUCT(K8sDeviceTaintRule, "spec", spec, taint_rule_spec_desc),
	F_IGNORE("status"),
	F_END,
};
static DESC(taint_rule_desc, "DeviceTaintRule", K8sDeviceTaintRule, obj.pos, taint_rule_fields);

const K8sStructDesc *
k8s_fields__resource_object(K8sKind kind, K8sApiVersion version)
{
	gboolean flat = version == K8S_VERSION_V1BETA1 || version == K8S_VERSION_V1ALPHA3;

	switch (kind) {
	case K8S_KIND_DEVICE_CLASS:
		return version == K8S_VERSION_V1ALPHA3 ? &class_v1alpha3_desc : &class_desc;
	case K8S_KIND_RESOURCE_CLAIM:
		return flat ? &flat_claim_desc : &claim_desc;
	case K8S_KIND_RESOURCE_CLAIM_TEMPLATE:
		return flat ? &flat_template_desc : &template_desc;
	case K8S_KIND_RESOURCE_SLICE:
		return k8s_fields__resource_slice(version);
	case K8S_KIND_DEVICE_TAINT_RULE:
		return &taint_rule_desc;
	default:
		return NULL;
	}
}
