/*
 * k8s_fields_slice.c: field tables of resource.k8s.io ResourceSlice for every
 * apiVersion: devices with their attributes, capacities, counters and taints.
 *
 * v1 and v1beta2 share one shape; v1beta1 and v1alpha3 wrap the device fields in
 * `basic`, and their tables write into the same v1 structs (upstream:
 * pkg/apis/resource/v1beta1/conversion.go). v1alpha3 as Kubernetes 1.31 wrote it
 * has capacities as bare quantities.
 */
#include <string.h>

#include "k8s_fields-macros.h"

#define NODE_SELECTOR k8s_fields__node_selector_desc

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
	policy->valid_values = base_arena_new0(dec->arena, K8sQty, node->seq.n);
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
	device->capacity = base_arena_new0(dec->arena, K8sDeviceCapacity, node->map.n);
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
DESC(k8s_fields__device_taint_desc, "DeviceTaint", K8sDeviceTaint, pos, taint_fields);
#define taint_desc k8s_fields__device_taint_desc

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

const K8sStructDesc *
k8s_fields__resource_slice(K8sApiVersion version)
{
	if (version == K8S_VERSION_V1ALPHA3) {
		return &slice_v1alpha3_desc;
	}
	return version == K8S_VERSION_V1BETA1 ? &slice_v1beta1_desc : &slice_desc;
}
