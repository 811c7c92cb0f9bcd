/*
 * k8s_types.h: typed Kubernetes objects, in the one internal form (resource.k8s.io/v1,
 * core/v1, apps/v1, batch/v1) that every served apiVersion decodes into.
 *
 * Consumers: validate/lint, the allocator (model/dra),
 * hardware publishing (model/hw), workloads and the cluster. The layout is stable: fields
 * are only ever added at the end of a struct.
 *
 * Ownership: every object, array and string here lives in the K8sObjectSet that decoded
 * (or built) it and dies with it; nothing is freed one by one. Arrays are plain C arrays
 * with a count (n_<field>); strings are const char * in the set's string chunk (NULL when
 * the field is absent; "" when it is present but empty). Optional scalars have a
 * has_<field> flag. Every struct has `pos`, the position of its YAML mapping (or of the
 * scalar for one-value fields); fields that diagnostics point at have a <field>_pos.
 */
#pragma once

#include <glib.h>

#include "k8s_diag.h"
#include "k8s_quantity.h"
#include "k8s_yaml.h"

G_BEGIN_DECLS

/* ---- common values ------------------------------------------------------------------- */

/* One entry of a string-to-string map (labels, annotations, nodeSelector). Input order. */
typedef struct {
	const char *key;
	const char *value;
	K8sPos pos; /* of the key */
} K8sStringPair;

typedef struct {
	K8sStringPair *items;
	guint n;
	K8sPos pos;
} K8sStringMap;

typedef struct {
	const char **items;
	K8sPos *item_pos; /* n positions, one per item */
	guint n;
	K8sPos pos;
} K8sStringList;

/*
 * A resource.Quantity: the text as written (YAML numbers such as `nvidia.com/gpu: 1`
 * keep their text), its position, and the value parsed with k8s_quantity.h. valid is
 * FALSE when the text does not parse; the decoder has then reported an error and value
 * is 0.
 */
typedef struct {
	const char *text; /* NULL when absent */
	K8sPos pos;
	K8sQuantity value;
	gboolean valid;
} K8sQty;

typedef struct {
	const char *key;
	K8sQty value;
	K8sPos pos; /* of the key */
} K8sQtyPair;

typedef struct {
	K8sQtyPair *items;
	guint n;
	K8sPos pos;
} K8sQtyMap;

/* Arbitrary data (runtime.RawExtension: opaque parameters, device status data). */
typedef struct {
	const K8sYamlNode *node; /* NULL when absent; lives in the object set */
	K8sPos pos;
} K8sRaw;

/* ---- object header ------------------------------------------------------------------- */

typedef enum {
	K8S_KIND_UNKNOWN = 0,
	K8S_KIND_DEVICE_CLASS,
	K8S_KIND_RESOURCE_CLAIM,
	K8S_KIND_RESOURCE_CLAIM_TEMPLATE,
	K8S_KIND_RESOURCE_SLICE,
	K8S_KIND_DEVICE_TAINT_RULE,
	K8S_KIND_POD,
	K8S_KIND_NODE,
	K8S_KIND_DEPLOYMENT,
	K8S_KIND_STATEFUL_SET,
	K8S_KIND_REPLICA_SET,
	K8S_KIND_JOB,
	K8S_KIND_COUNT_,
} K8sKind;

/* The apiVersion an object was written in (its group is implied by the kind). */
typedef enum {
	K8S_VERSION_V1 = 0, /* resource.k8s.io/v1, v1, apps/v1, batch/v1 */
	K8S_VERSION_V1BETA2,
	K8S_VERSION_V1BETA1,
	K8S_VERSION_V1ALPHA3,
} K8sApiVersion;

typedef struct {
	const char *name;
	const char *generate_name;
	const char *namespace_; /* NULL when not given (the default namespace applies) */
	const char *uid;
	K8sStringMap labels;
	K8sStringMap annotations;
	K8sPos pos;
	K8sPos name_pos;
	K8sPos namespace_pos;
} K8sObjectMeta;

/*
 * The first member of every object struct, so a K8sObject * can be cast to the
 * struct of its kind (use the k8s_object_as_*() accessors of k8s_objects.h).
 */
typedef struct {
	K8sKind kind;
	K8sApiVersion version;
	const char *api_version; /* as written, e.g. "resource.k8s.io/v1alpha3" */
	const char *kind_name;   /* as written, e.g. "ResourceClaim" */
	K8sObjectMeta metadata;
	K8sPos pos; /* of the object's mapping */
	K8sPos api_version_pos;
	K8sPos kind_pos;
	/* Field path prefix of this object inside its document: "" or "items[3]." */
	const char *path_prefix;
	guint index; /* position in the set, in input order */
} K8sObject;

/* ---- core/v1 shared pieces ----------------------------------------------------------- */

typedef struct {
	const char *key;
	const char *operator_; /* In, NotIn, Exists, DoesNotExist, Gt, Lt */
	K8sStringList values;
	K8sPos pos;
} K8sNodeSelectorRequirement;

typedef struct {
	K8sNodeSelectorRequirement *match_expressions;
	guint n_match_expressions;
	K8sNodeSelectorRequirement *match_fields;
	guint n_match_fields;
	K8sPos pos;
} K8sNodeSelectorTerm;

/* core/v1 NodeSelector: the terms are ORed, requirements in a term are ANDed. */
typedef struct {
	K8sNodeSelectorTerm *terms;
	guint n_terms;
	K8sPos pos;
} K8sNodeSelector;

/* core/v1 Toleration (pods). */
typedef struct {
	const char *key;
	const char *operator_; /* Exists | Equal (default Equal) */
	const char *value;
	const char *effect; /* NoSchedule | PreferNoSchedule | NoExecute | "" = all */
	gboolean has_toleration_seconds;
	gint64 toleration_seconds;
	K8sPos pos;
} K8sToleration;

/* core/v1 Taint (nodes). */
typedef struct {
	const char *key;
	const char *value;
	const char *effect;
	const char *time_added;
	K8sPos pos;
} K8sTaint;

/* metav1 LabelSelector. */
typedef struct {
	const char *key;
	const char *operator_; /* In, NotIn, Exists, DoesNotExist */
	K8sStringList values;
	K8sPos pos;
} K8sLabelSelectorRequirement;

typedef struct {
	K8sStringMap match_labels;
	K8sLabelSelectorRequirement *match_expressions;
	guint n_match_expressions;
	K8sPos pos;
} K8sLabelSelector;

/* ---- resource.k8s.io/v1 -------------------------------------------------------------- */

typedef struct {
	const char *cel_expression;          /* NULL when the selector has no `cel` */
	K8sPos expression_pos;               /* where the expression scalar starts */
	K8sPos expression_text_pos;          /* where its first character is (after `|`, quotes) */
	K8sYamlScalarStyle expression_style; /* plain, quoted, literal |, folded > */
	K8sPos pos;
} K8sDeviceSelector;

typedef struct {
	const char *driver;
	K8sPos driver_pos;
	K8sRaw parameters;
	K8sPos pos;
} K8sOpaqueDeviceConfig;

/* DeviceClass.spec.config[] (DeviceConfiguration: exactly one field, `opaque`). */
typedef struct {
	gboolean has_opaque;
	K8sOpaqueDeviceConfig opaque;
	K8sPos pos;
} K8sDeviceClassConfig;

typedef struct {
	K8sDeviceSelector *selectors;
	guint n_selectors;
	K8sDeviceClassConfig *config;
	guint n_config;
	const char *extended_resource_name; /* alpha, DRAExtendedResource */
	K8sPos extended_resource_name_pos;
	/* v1alpha3 (1.31) only, tombstoned since 1.32; kept so lint can say it is dropped */
	K8sNodeSelector *suitable_nodes;
	K8sPos pos;
} K8sDeviceClassSpec;

typedef struct {
	K8sObject obj;
	K8sDeviceClassSpec spec;
} K8sDeviceClass;

typedef struct {
	const char *key;
	const char *operator_; /* Exists | Equal; NULL = Equal */
	const char *value;
	const char *effect; /* NoSchedule | NoExecute | NULL = all */
	gboolean has_toleration_seconds;
	gint64 toleration_seconds;
	K8sPos pos;
} K8sDeviceToleration;

/*
 * The fields shared by ExactDeviceRequest and DeviceSubRequest (sub-requests never
 * have adminAccess). allocation_mode is NULL when not written (ExactCount applies),
 * count is only meaningful with has_count (default 1 for ExactCount).
 */
typedef struct {
	const char *device_class_name;
	K8sPos device_class_name_pos;
	K8sDeviceSelector *selectors;
	guint n_selectors;
	const char *allocation_mode;
	K8sPos allocation_mode_pos;
	gboolean has_count;
	gint64 count;
	K8sPos count_pos;
	gboolean has_admin_access;
	gboolean admin_access;
	K8sPos admin_access_pos;
	K8sDeviceToleration *tolerations;
	guint n_tolerations;
	gboolean has_capacity; /* capacity: {requests: {...}} */
	K8sQtyMap capacity_requests;
	K8sPos pos;
} K8sExactDeviceRequest;

typedef struct {
	const char *name;
	K8sPos name_pos;
	K8sExactDeviceRequest spec; /* spec.has_admin_access is always FALSE */
	K8sPos pos;
} K8sDeviceSubRequest;

/* Exactly one of has_exactly / n_first_available > 0 is valid (validation checks). */
typedef struct {
	const char *name;
	K8sPos name_pos;
	gboolean has_exactly;
	K8sExactDeviceRequest exactly;
	K8sDeviceSubRequest *first_available;
	guint n_first_available;
	gboolean has_first_available; /* written, even if empty */
	K8sPos first_available_pos;
	K8sPos pos;
} K8sDeviceRequest;

typedef struct {
	K8sStringList requests;
	const char *match_attribute;
	K8sPos match_attribute_pos;
	const char *distinct_attribute; /* alpha, DRAConsumableCapacity */
	K8sPos distinct_attribute_pos;
	K8sPos pos;
} K8sDeviceConstraint;

typedef struct {
	K8sStringList requests;
	gboolean has_opaque;
	K8sOpaqueDeviceConfig opaque;
	K8sPos pos;
} K8sDeviceClaimConfig;

typedef struct {
	K8sDeviceRequest *requests;
	guint n_requests;
	K8sDeviceConstraint *constraints;
	guint n_constraints;
	K8sDeviceClaimConfig *config;
	guint n_config;
	K8sPos pos; /* of spec.devices (or spec) */
} K8sResourceClaimSpec;

typedef struct {
	const char *request; /* "req" or "req/sub" */
	const char *driver;
	const char *pool;
	const char *device;
	gboolean has_admin_access;
	gboolean admin_access;
	K8sDeviceToleration *tolerations;
	guint n_tolerations;
	K8sStringList binding_conditions;
	K8sStringList binding_failure_conditions;
	const char *share_id;
	K8sQtyMap consumed_capacity;
	K8sPos pos;
} K8sDeviceRequestAllocationResult;

typedef struct {
	const char *source; /* FromClass | FromClaim */
	K8sStringList requests;
	gboolean has_opaque;
	K8sOpaqueDeviceConfig opaque;
	K8sPos pos;
} K8sDeviceAllocationConfig;

typedef struct {
	K8sDeviceRequestAllocationResult *results;
	guint n_results;
	K8sDeviceAllocationConfig *config;
	guint n_config;
	K8sNodeSelector *node_selector; /* NULL = available everywhere */
	const char *allocation_timestamp;
	K8sPos pos;
} K8sAllocationResult;

typedef struct {
	const char *api_group;
	const char *resource;
	const char *name;
	const char *uid;
	K8sPos pos;
} K8sResourceClaimConsumerReference;

/* metav1.Condition */
typedef struct {
	const char *type;
	const char *status;
	const char *reason;
	const char *message;
	const char *last_transition_time;
	gboolean has_observed_generation;
	gint64 observed_generation;
	K8sPos pos;
} K8sCondition;

typedef struct {
	const char *driver;
	const char *pool;
	const char *device;
	const char *share_id;
	K8sCondition *conditions;
	guint n_conditions;
	K8sRaw data;
	gboolean has_network_data;
	const char *network_interface_name;
	K8sStringList network_ips;
	const char *network_hardware_address;
	K8sPos pos;
} K8sAllocatedDeviceStatus;

typedef struct {
	K8sAllocationResult *allocation; /* NULL when not allocated */
	K8sResourceClaimConsumerReference *reserved_for;
	guint n_reserved_for;
	K8sAllocatedDeviceStatus *devices;
	guint n_devices;
	K8sPos pos;
} K8sResourceClaimStatus;

typedef struct {
	K8sObject obj;
	K8sResourceClaimSpec spec;
	K8sResourceClaimStatus status;
} K8sResourceClaim;

typedef struct {
	K8sObject obj;
	K8sObjectMeta template_metadata; /* spec.metadata: labels/annotations for claims */
	K8sResourceClaimSpec spec;       /* spec.spec */
} K8sResourceClaimTemplate;

typedef enum {
	K8S_ATTR_INT,
	K8S_ATTR_BOOL,
	K8S_ATTR_STRING,
	K8S_ATTR_VERSION,
	K8S_ATTR_NONE, /* no value field given: validation reports it */
} K8sAttrType;

typedef struct {
	const char *name; /* QualifiedName as written ("memory" or "gpu.nvidia.com/memory") */
	K8sAttrType type;
	gint64 int_value;
	gboolean bool_value;
	const char *string_value; /* string and version */
	guint n_values;           /* how many of int/bool/string/version were set (1 if valid) */
	K8sPos pos;               /* of the name */
	K8sPos value_pos;
} K8sDeviceAttribute;

typedef struct {
	gboolean has_default;
	K8sQty default_;
	K8sQty *valid_values;
	guint n_valid_values;
	gboolean has_valid_range;
	K8sQty range_min; /* .text NULL when absent */
	K8sQty range_max;
	K8sQty range_step;
	K8sPos pos;
} K8sCapacityRequestPolicy;

typedef struct {
	const char *name;
	K8sQty value;
	K8sCapacityRequestPolicy *request_policy; /* NULL when absent */
	K8sPos pos;
} K8sDeviceCapacity;

typedef struct {
	const char *name;
	K8sQty value;
	K8sPos pos;
} K8sCounter;

typedef struct {
	const char *name;
	K8sCounter *counters;
	guint n_counters;
	K8sPos pos;
} K8sCounterSet;

typedef struct {
	const char *counter_set;
	K8sCounter *counters;
	guint n_counters;
	K8sPos pos;
} K8sDeviceCounterConsumption;

typedef struct {
	const char *key;
	const char *value;
	const char *effect; /* None | NoSchedule | NoExecute */
	const char *time_added;
	K8sPos pos;
} K8sDeviceTaint;

typedef struct {
	const char *name;
	K8sPos name_pos;
	K8sDeviceAttribute *attributes;
	guint n_attributes;
	K8sDeviceCapacity *capacity;
	guint n_capacity;
	K8sDeviceCounterConsumption *consumes_counters;
	guint n_consumes_counters;
	const char *node_name;
	K8sNodeSelector *node_selector;
	gboolean has_all_nodes;
	gboolean all_nodes;
	K8sDeviceTaint *taints;
	guint n_taints;
	gboolean has_binds_to_node;
	gboolean binds_to_node;
	K8sStringList binding_conditions;
	K8sStringList binding_failure_conditions;
	gboolean has_allow_multiple_allocations;
	gboolean allow_multiple_allocations;
	K8sPos pos;
} K8sDevice;

typedef struct {
	const char *name;
	gboolean has_generation;
	gint64 generation;
	gboolean has_resource_slice_count;
	gint64 resource_slice_count;
	K8sPos pos;
} K8sResourcePool;

typedef struct {
	const char *driver;
	K8sPos driver_pos;
	K8sResourcePool pool;
	const char *node_name;
	K8sPos node_name_pos;
	K8sNodeSelector *node_selector;
	gboolean has_all_nodes;
	gboolean all_nodes;
	gboolean has_per_device_node_selection;
	gboolean per_device_node_selection;
	K8sDevice *devices;
	guint n_devices;
	K8sCounterSet *shared_counters;
	guint n_shared_counters;
	K8sPos pos;
} K8sResourceSliceSpec;

typedef struct {
	K8sObject obj;
	K8sResourceSliceSpec spec;
} K8sResourceSlice;

/* DeviceTaintRule (resource.k8s.io/v1alpha3 only in 1.34). */
typedef struct {
	gboolean has_device_selector;
	const char *device_class_name;
	const char *driver;
	const char *pool;
	const char *device;
	K8sDeviceSelector *selectors;
	guint n_selectors;
	K8sPos device_selector_pos;
	K8sDeviceTaint taint;
	K8sPos pos;
} K8sDeviceTaintRuleSpec;

typedef struct {
	K8sObject obj;
	K8sDeviceTaintRuleSpec spec;
} K8sDeviceTaintRule;

/* ---- core/v1 Pod and Node ------------------------------------------------------------ */

typedef struct {
	const char *name;
	const char *request; /* optional: one request of the claim */
	K8sPos pos;
} K8sContainerClaim;

typedef struct {
	K8sQtyMap requests;
	K8sQtyMap limits;
	K8sContainerClaim *claims;
	guint n_claims;
	K8sPos pos;
} K8sResourceRequirements;

typedef struct {
	const char *name;
	const char *image;
	K8sResourceRequirements resources;
	K8sPos pos;
} K8sContainer;

typedef struct {
	const char *name;
	const char *resource_claim_name;
	K8sPos resource_claim_name_pos;
	const char *resource_claim_template_name;
	K8sPos resource_claim_template_name_pos;
	K8sPos pos;
} K8sPodResourceClaim;

typedef struct {
	const char *name;
	const char *resource_claim_name; /* NULL: no claim was needed */
	K8sPos pos;
} K8sPodResourceClaimStatus;

typedef struct {
	K8sContainer *containers;
	guint n_containers;
	K8sContainer *init_containers;
	guint n_init_containers;
	K8sPodResourceClaim *resource_claims;
	guint n_resource_claims;
	K8sStringMap node_selector;
	const char *node_name;
	/* affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution */
	K8sNodeSelector *required_node_affinity;
	K8sToleration *tolerations;
	guint n_tolerations;
	gboolean has_priority;
	gint32 priority;
	const char *priority_class_name;
	const char *scheduler_name;
	const char *restart_policy;
	K8sPos pos;
} K8sPodSpec;

typedef struct {
	K8sObjectMeta metadata; /* labels/annotations of the pods */
	K8sPodSpec spec;
	K8sPos pos;
} K8sPodTemplateSpec;

typedef struct {
	K8sObject obj;
	K8sPodSpec spec;
	const char *phase; /* status.phase */
	K8sPodResourceClaimStatus *resource_claim_statuses;
	guint n_resource_claim_statuses;
} K8sPod;

typedef struct {
	K8sObject obj;
	gboolean unschedulable;
	K8sTaint *taints;
	guint n_taints;
	K8sQtyMap capacity;
	K8sQtyMap allocatable;
} K8sNode;

/* ---- apps/v1 Deployment, StatefulSet, ReplicaSet; batch/v1 Job ----------------------- */

/* One struct for the four workload kinds; obj.kind says which one it is. */
typedef struct {
	K8sObject obj;
	gboolean has_replicas; /* Deployment, StatefulSet, ReplicaSet (default 1) */
	gint32 replicas;
	gboolean has_parallelism; /* Job (default 1) */
	gint32 parallelism;
	gboolean has_completions; /* Job (unset: work queue) */
	gint32 completions;
	K8sLabelSelector *selector; /* NULL when absent */
	K8sPodTemplateSpec template_;
	K8sPos spec_pos;
} K8sWorkload;

G_END_DECLS
