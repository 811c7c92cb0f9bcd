/*
 * k8s_fields_resource.c: field tables of resource.k8s.io DeviceClass, ResourceClaim,
 * ResourceClaimTemplate, ResourceSlice and DeviceTaintRule, for every apiVersion.
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

#define OBJECT_HEAD(T)                                                                             \
	F_IGNORE("apiVersion"), F_IGNORE("kind"), F_STRUCT(T, "metadata", obj.metadata, META)

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

/* ---- ResourceSlice ------------------------------------------------------------------- */

/* An attribute has exactly one of int/bool/string/version; count them for validation. */
static void
attribute_finish(K8sDec *dec, const K8sYamlNode *node, void *out)
{
	static const char *const names[] = { "int", "bool", "string", "version" };
	static const K8sAttrType types[] = { K8S_ATTR_INT, K8S_ATTR_BOOL, K8S_ATTR_STRING,
		                             K8S_ATTR_VERSION };
	K8sDeviceAttribute *attr = out;

	attr->type = K8S_ATTR_NONE;
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		const K8sYamlNode *value = k8s_yaml_map_lookup(node, names[i]);

		if (value != NULL && !k8s_dec__is_null(value)) {
			if (attr->n_values == 0) {
				attr->type = types[i];
			}
			attr->n_values++;
		}
	}
}

static gboolean
attr_is_int(const void *base)
{
	return ((const K8sDeviceAttribute *)base)->type == K8S_ATTR_INT;
}

static gboolean
attr_is_bool(const void *base)
{
	return ((const K8sDeviceAttribute *)base)->type == K8S_ATTR_BOOL;
}

static gboolean
attr_is_string(const void *base)
{
	return ((const K8sDeviceAttribute *)base)->type == K8S_ATTR_STRING;
}

static gboolean
attr_is_version(const void *base)
{
	return ((const K8sDeviceAttribute *)base)->type == K8S_ATTR_VERSION;
}

static gboolean
attr_equal(const void *a, const void *b)
{
	return ((const K8sDeviceAttribute *)a)->type == ((const K8sDeviceAttribute *)b)->type;
}

static const K8sField attribute_fields[] = {
	{ .name = "int",
	  .type = K8S_F_INT64,
	  .at = K8S_AT(K8sDeviceAttribute, int_value),
	  .pos_at = K8S_AT(K8sDeviceAttribute, value_pos),
	  .present = attr_is_int },
	{ .name = "bool",
	  .type = K8S_F_BOOL,
	  .at = K8S_AT(K8sDeviceAttribute, bool_value),
	  .pos_at = K8S_AT(K8sDeviceAttribute, value_pos),
	  .present = attr_is_bool },
	{ .name = "string",
	  .type = K8S_F_STRING,
	  .at = K8S_AT(K8sDeviceAttribute, string_value),
	  .pos_at = K8S_AT(K8sDeviceAttribute, value_pos),
	  .present = attr_is_string },
	{ .name = "version",
	  .type = K8S_F_STRING,
	  .at = K8S_AT(K8sDeviceAttribute, string_value),
	  .pos_at = K8S_AT(K8sDeviceAttribute, value_pos),
	  .present = attr_is_version },
	F_END,
};
static DESC(attribute_desc,
            "DeviceAttribute",
            K8sDeviceAttribute,
            pos,
            attribute_fields,
            .finish = attribute_finish,
            .equal_extra = attr_equal);

/* validValues is a list of quantities (not of objects). */
static void
valid_values_decode(K8sDec *dec, const K8sYamlNode *node, void *out)
{
	K8sCapacityRequestPolicy *policy = out;

	if (!k8s_dec__expect_seq(dec, node, "quantities")) {
		return;
	}
	policy->valid_values = k8s_arena_new0(dec->arena, K8sQty, node->seq.n);
	policy->n_valid_values = node->seq.n;
	for (guint i = 0; i < node->seq.n; i++) {
		gsize mark = k8s_dec__push_index(dec, i);

		k8s_dec__qty(dec, node->seq.items[i], &policy->valid_values[i]);
		k8s_dec__pop(dec, mark);
	}
}

static void
valid_values_encode(GString *out, const void *value, guint indent)
{
	const K8sCapacityRequestPolicy *policy = value;

	g_string_append_printf(out, "%*svalidValues:\n", indent, "");
	for (guint i = 0; i < policy->n_valid_values; i++) {
		g_string_append_printf(
		        out, "%*s- \"%s\"\n", indent, "",
		        policy->valid_values[i].text != NULL ? policy->valid_values[i].text : "0");
	}
}

static gboolean
valid_values_present(const void *base)
{
	return ((const K8sCapacityRequestPolicy *)base)->n_valid_values > 0;
}

static gboolean
valid_values_equal(const void *a_in, const void *b_in)
{
	const K8sCapacityRequestPolicy *a = a_in, *b = b_in;

	if (a->n_valid_values != b->n_valid_values) {
		return FALSE;
	}
	for (guint i = 0; i < a->n_valid_values; i++) {
		if (g_strcmp0(a->valid_values[i].text, b->valid_values[i].text) != 0) {
			return FALSE;
		}
	}
	return TRUE;
}

static const K8sField range_fields[] = {
	F_QTY(K8sCapacityRequestPolicy, "min", range_min),
	F_QTY(K8sCapacityRequestPolicy, "max", range_max),
	F_QTY(K8sCapacityRequestPolicy, "step", range_step),
	F_END,
};
static DESC_INLINE(range_desc, "CapacityRequestPolicyRange", range_fields);

static const K8sField policy_fields[] = {
	{ .name = "default",
	  .type = K8S_F_QTY,
	  .at = K8S_AT(K8sCapacityRequestPolicy, default_),
	  .has_at = K8S_AT(K8sCapacityRequestPolicy, has_default) },
	{ .name = "validValues",
	  .type = K8S_F_CUSTOM,
	  .at = 1,
	  .decode = valid_values_decode,
	  .encode = valid_values_encode,
	  .equal = valid_values_equal,
	  .present = valid_values_present },
	F_INLINEH(K8sCapacityRequestPolicy, "validRange", has_valid_range, range_desc),
	F_END,
};
static DESC(policy_desc, "CapacityRequestPolicy", K8sCapacityRequestPolicy, pos, policy_fields);

static const K8sField capacity_fields[] = {
	F_QTY(K8sDeviceCapacity, "value", value),
	F_PTR(K8sDeviceCapacity, "requestPolicy", request_policy, policy_desc),
	F_END,
};
static DESC(capacity_desc, "DeviceCapacity", K8sDeviceCapacity, pos, capacity_fields);

/* v1alpha3 as Kubernetes 1.31 wrote it: capacity: {name: quantity}; 1.32 on: {name: {value}}. */
static void
capacity_v1alpha3_decode(K8sDec *dec, const K8sYamlNode *node, void *out)
{
	K8sDevice *device = out;

	if (!k8s_dec__expect_map(dec, node, "capacity")) {
		return;
	}
	device->capacity = k8s_arena_new0(dec->arena, K8sDeviceCapacity, node->map.n);
	device->n_capacity = node->map.n;
	for (guint i = 0; i < node->map.n; i++) {
		const K8sYamlPair *p = &node->map.pairs[i];
		K8sDeviceCapacity *cap = &device->capacity[i];
		gsize mark = k8s_dec__push_field(dec, p->key->scalar.text);

		cap->name = p->key->scalar.text;
		if (p->value->kind == K8S_YAML_MAPPING) {
			k8s_dec__struct(dec, p->value, &capacity_desc, cap);
		} else {
			k8s_dec__qty(dec, p->value, &cap->value);
		}
		cap->pos = k8s_dec__pos(dec, p->key);
		k8s_dec__pop(dec, mark);
	}
}

static const K8sField counter_fields[] = {
	F_QTY(K8sCounter, "value", value),
	F_END,
};
static DESC(counter_desc, "Counter", K8sCounter, pos, counter_fields);

static const K8sField counter_set_fields[] = {
	F_STR(K8sCounterSet, "name", name),
	F_KEYED(K8sCounterSet, "counters", counters, counter_desc, K8sCounter, name),
	F_END,
};
static DESC(counter_set_desc, "CounterSet", K8sCounterSet, pos, counter_set_fields);

static const K8sField consumption_fields[] = {
	F_STR(K8sDeviceCounterConsumption, "counterSet", counter_set),
	F_KEYED(K8sDeviceCounterConsumption, "counters", counters, counter_desc, K8sCounter, name),
	F_END,
};
static DESC(consumption_desc,
            "DeviceCounterConsumption",
            K8sDeviceCounterConsumption,
            pos,
            consumption_fields);

static const K8sField taint_fields[] = {
	F_STR(K8sDeviceTaint, "key", key),
	F_STR(K8sDeviceTaint, "value", value),
	F_STR(K8sDeviceTaint, "effect", effect),
	F_STR(K8sDeviceTaint, "timeAdded", time_added),
	F_END,
};
static DESC(taint_desc, "DeviceTaint", K8sDeviceTaint, pos, taint_fields);

/* The device fields after `name`; in v1beta1/v1alpha3 they sit under `basic`. */
#define BASIC_ROWS_ATTRIBUTES                                                                      \
	F_KEYED(K8sDevice, "attributes", attributes, attribute_desc, K8sDeviceAttribute, name)
#define BASIC_ROWS_REST                                                                            \
	F_ARR(K8sDevice, "consumesCounters", consumes_counters, consumption_desc),                 \
	        F_STR(K8sDevice, "nodeName", node_name),                                           \
	        F_PTR(K8sDevice, "nodeSelector", node_selector, NODE_SELECTOR),                    \
	        F_BOOL(K8sDevice, "allNodes", all_nodes),                                          \
	        F_ARR(K8sDevice, "taints", taints, taint_desc),                                    \
	        F_BOOL(K8sDevice, "bindsToNode", binds_to_node),                                   \
	        F_LIST(K8sDevice, "bindingConditions", binding_conditions),                        \
	        F_LIST(K8sDevice, "bindingFailureConditions", binding_failure_conditions),         \
	        F_BOOL(K8sDevice, "allowMultipleAllocations", allow_multiple_allocations)

static const K8sField basic_fields[] = {
	BASIC_ROWS_ATTRIBUTES,
	F_KEYED(K8sDevice, "capacity", capacity, capacity_desc, K8sDeviceCapacity, name),
	BASIC_ROWS_REST,
	F_END,
};
static DESC_INLINE(basic_desc, "BasicDevice", basic_fields);

static const K8sField basic_v1alpha3_fields[] = {
	BASIC_ROWS_ATTRIBUTES,
	{ .name = "capacity", .type = K8S_F_CUSTOM, .at = 1, .decode = capacity_v1alpha3_decode },
	BASIC_ROWS_REST,
	F_END,
};
static DESC_INLINE(basic_v1alpha3_desc, "BasicDevice", basic_v1alpha3_fields);

static const K8sFieldHint device_v1_hints[] = {
	{ "basic", "'basic' is the v1beta1 form; in resource.k8s.io/v1 and v1beta2 its fields go "
	           "directly on the device" },
	{ NULL, NULL },
};

static const K8sField device_name_fields[] = {
	F_STRP(K8sDevice, "name", name),
	F_END,
};
static DESC(device_desc,
            "Device",
            K8sDevice,
            pos,
            device_name_fields,
            .hints = device_v1_hints,
            .embed = &basic_desc,
            .embed_at = 1);

static const K8sFieldHint device_basic_hints[] = {
	{ "attributes", "in this apiVersion device fields go under 'basic' (the flat device is "
	                "resource.k8s.io/v1 and v1beta2)" },
	{ "capacity", "in this apiVersion device fields go under 'basic'" },
	{ "consumesCounters", "in this apiVersion device fields go under 'basic'" },
	{ "taints", "in this apiVersion device fields go under 'basic'" },
	{ NULL, NULL },
};

static const K8sField device_basic_fields[] = {
	F_STRP(K8sDevice, "name", name),
	F_INLINE("basic", basic_desc),
	F_END,
};
static DESC(device_basic_desc,
            "Device",
            K8sDevice,
            pos,
            device_basic_fields,
            .hints = device_basic_hints);

static const K8sField device_v1alpha3_fields[] = {
	F_STRP(K8sDevice, "name", name),
	F_INLINE("basic", basic_v1alpha3_desc),
	F_END,
};
static DESC(device_v1alpha3_desc,
            "Device",
            K8sDevice,
            pos,
            device_v1alpha3_fields,
            .hints = device_basic_hints);

static const K8sField pool_fields[] = {
	F_STR(K8sResourcePool, "name", name),
	F_I64(K8sResourcePool, "generation", generation),
	F_I64(K8sResourcePool, "resourceSliceCount", resource_slice_count),
	F_END,
};
static DESC(pool_desc, "ResourcePool", K8sResourcePool, pos, pool_fields);

#define SLICE_OBJECT(var, devdesc)                                                                 \
	static const K8sField var##_spec_fields[] = {                                              \
		F_STRP(K8sResourceSliceSpec, "driver", driver),                                    \
		F_STRUCT(K8sResourceSliceSpec, "pool", pool, pool_desc),                           \
		F_STRP(K8sResourceSliceSpec, "nodeName", node_name),                               \
		F_PTR(K8sResourceSliceSpec, "nodeSelector", node_selector, NODE_SELECTOR),         \
		F_BOOL(K8sResourceSliceSpec, "allNodes", all_nodes),                               \
		F_ARR(K8sResourceSliceSpec, "devices", devices, devdesc),                          \
		F_BOOL(K8sResourceSliceSpec, "perDeviceNodeSelection", per_device_node_selection), \
		F_ARR(K8sResourceSliceSpec, "sharedCounters", shared_counters, counter_set_desc),  \
		F_END,                                                                             \
	};                                                                                         \
	static DESC(var##_spec_desc, "ResourceSliceSpec", K8sResourceSliceSpec, pos,               \
	            var##_spec_fields);                                                            \
	static const K8sField var##_fields[] = {                                                   \
		OBJECT_HEAD(K8sResourceSlice),                                                     \
		F_STRUCT(K8sResourceSlice, "spec", spec, var##_spec_desc),                         \
		F_END,                                                                             \
	};                                                                                         \
	static DESC(var, "ResourceSlice", K8sResourceSlice, obj.pos, var##_fields)

SLICE_OBJECT(slice_desc, device_desc);
SLICE_OBJECT(slice_v1beta1_desc, device_basic_desc);
SLICE_OBJECT(slice_v1alpha3_desc, device_v1alpha3_desc);

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
		if (version == K8S_VERSION_V1ALPHA3) {
			return &slice_v1alpha3_desc;
		}
		return flat ? &slice_v1beta1_desc : &slice_desc;
	case K8S_KIND_DEVICE_TAINT_RULE:
		return &taint_rule_desc;
	default:
		return NULL;
	}
}
