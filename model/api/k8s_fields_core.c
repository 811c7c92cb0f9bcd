/*
 * k8s_fields_core.c: field tables of metav1 ObjectMeta and LabelSelector, core/v1
 * (Pod, Node, NodeSelector, tolerations, taints), apps/v1 and batch/v1 workloads.
 *
 * Rows follow the Go struct order of k8s.io/api 1.34, which is also the order the
 * encoder writes. Fields drasim does not model are listed by their real names in
 * the `ignored` lists, so valid manifests load and typos are still caught.
 */
#include "k8s_fields-macros.h"

/* ---- metav1 ------------------------------------------------------------------------ */

static const K8sField meta_fields[] = {
	F_STRP(K8sObjectMeta, "name", name),
	F_STR(K8sObjectMeta, "generateName", generate_name),
	{ .name = "namespace",
	  .type = K8S_F_STRING,
	  .at = K8S_AT(K8sObjectMeta, namespace_),
	  .pos_at = K8S_AT(K8sObjectMeta, namespace_pos) },
	F_STR(K8sObjectMeta, "uid", uid),
	F_SMAP(K8sObjectMeta, "labels", labels),
	F_SMAP(K8sObjectMeta, "annotations", annotations),
	F_END,
};
static const char *const meta_ignored[] = {
	"selfLink",          "resourceVersion",
	"generation",        "creationTimestamp",
	"deletionTimestamp", "deletionGracePeriodSeconds",
	"ownerReferences",   "finalizers",
	"managedFields",     NULL,
};
DESC(k8s_fields__meta_desc, "ObjectMeta", K8sObjectMeta, pos, meta_fields, .ignored = meta_ignored);
#define meta_desc k8s_fields__meta_desc

static const K8sField label_req_fields[] = {
	F_STR(K8sLabelSelectorRequirement, "key", key),
	F_STR(K8sLabelSelectorRequirement, "operator", operator_),
	F_LIST(K8sLabelSelectorRequirement, "values", values),
	F_END,
};
static DESC(label_req_desc,
            "LabelSelectorRequirement",
            K8sLabelSelectorRequirement,
            pos,
            label_req_fields);

static const K8sField label_selector_fields[] = {
	F_SMAP(K8sLabelSelector, "matchLabels", match_labels),
	F_ARR(K8sLabelSelector, "matchExpressions", match_expressions, label_req_desc),
	F_END,
};
static DESC(label_selector_desc, "LabelSelector", K8sLabelSelector, pos, label_selector_fields);

/* ---- core/v1 shared ---------------------------------------------------------------- */

static const K8sField ns_req_fields[] = {
	F_STR(K8sNodeSelectorRequirement, "key", key),
	F_STR(K8sNodeSelectorRequirement, "operator", operator_),
	F_LIST(K8sNodeSelectorRequirement, "values", values),
	F_END,
};
static DESC(ns_req_desc, "NodeSelectorRequirement", K8sNodeSelectorRequirement, pos, ns_req_fields);

static const K8sField ns_term_fields[] = {
	F_ARR(K8sNodeSelectorTerm, "matchExpressions", match_expressions, ns_req_desc),
	F_ARR(K8sNodeSelectorTerm, "matchFields", match_fields, ns_req_desc),
	F_END,
};
static DESC(ns_term_desc, "NodeSelectorTerm", K8sNodeSelectorTerm, pos, ns_term_fields);

static const K8sField node_selector_fields[] = {
	F_ARR(K8sNodeSelector, "nodeSelectorTerms", terms, ns_term_desc),
	F_END,
};
DESC(k8s_fields__node_selector_desc, "NodeSelector", K8sNodeSelector, pos, node_selector_fields);
#define node_selector_desc k8s_fields__node_selector_desc

static const K8sField toleration_fields[] = {
	F_STR(K8sToleration, "key", key),
	F_STR(K8sToleration, "operator", operator_),
	F_STR(K8sToleration, "value", value),
	F_STR(K8sToleration, "effect", effect),
	F_I64(K8sToleration, "tolerationSeconds", toleration_seconds),
	F_END,
};
static DESC(toleration_desc, "Toleration", K8sToleration, pos, toleration_fields);

static const K8sField taint_fields[] = {
	F_STR(K8sTaint, "key", key),
	F_STR(K8sTaint, "value", value),
	F_STR(K8sTaint, "effect", effect),
	F_STR(K8sTaint, "timeAdded", time_added),
	F_END,
};
static DESC(taint_desc, "Taint", K8sTaint, pos, taint_fields);

/* ---- Pod ----------------------------------------------------------------------------- */

static const K8sField container_claim_fields[] = {
	F_STR(K8sContainerClaim, "name", name),
	F_STR(K8sContainerClaim, "request", request),
	F_END,
};
static DESC(container_claim_desc, "ResourceClaim", K8sContainerClaim, pos, container_claim_fields);

static const K8sField resources_fields[] = {
	F_QMAP(K8sResourceRequirements, "limits", limits),
	F_QMAP(K8sResourceRequirements, "requests", requests),
	F_ARR(K8sResourceRequirements, "claims", claims, container_claim_desc),
	F_END,
};
static DESC(resources_desc, "ResourceRequirements", K8sResourceRequirements, pos, resources_fields);

static const K8sField container_fields[] = {
	F_STR(K8sContainer, "name", name),
	F_STR(K8sContainer, "image", image),
	F_STRUCT(K8sContainer, "resources", resources, resources_desc),
	F_END,
};
static const char *const container_ignored[] = {
	"command",
	"args",
	"workingDir",
	"ports",
	"envFrom",
	"env",
	"resizePolicy",
	"restartPolicy",
	"restartPolicyRules",
	"volumeMounts",
	"volumeDevices",
	"livenessProbe",
	"readinessProbe",
	"startupProbe",
	"lifecycle",
	"terminationMessagePath",
	"terminationMessagePolicy",
	"imagePullPolicy",
	"securityContext",
	"stdin",
	"stdinOnce",
	"tty",
	NULL,
};
static DESC(container_desc,
            "Container",
            K8sContainer,
            pos,
            container_fields,
            .ignored = container_ignored);

static const K8sField pod_claim_fields[] = {
	F_STR(K8sPodResourceClaim, "name", name),
	F_STRP(K8sPodResourceClaim, "resourceClaimName", resource_claim_name),
	F_STRP(K8sPodResourceClaim, "resourceClaimTemplateName", resource_claim_template_name),
	F_END,
};
static DESC(pod_claim_desc, "PodResourceClaim", K8sPodResourceClaim, pos, pod_claim_fields);

static const K8sField node_affinity_fields[] = {
	F_PTR(K8sPodSpec,
	      "requiredDuringSchedulingIgnoredDuringExecution",
	      required_node_affinity,
	      node_selector_desc),
	F_IGNORE("preferredDuringSchedulingIgnoredDuringExecution"),
	F_END,
};
static DESC_INLINE(node_affinity_desc, "NodeAffinity", node_affinity_fields);

static const K8sField affinity_fields[] = {
	F_INLINE("nodeAffinity", node_affinity_desc),
	F_IGNORE("podAffinity"),
	F_IGNORE("podAntiAffinity"),
	F_END,
};
static DESC_INLINE(affinity_desc, "Affinity", affinity_fields);

static const K8sField pod_spec_fields[] = {
	F_ARR(K8sPodSpec, "initContainers", init_containers, container_desc),
	F_ARR(K8sPodSpec, "containers", containers, container_desc),
	F_STR(K8sPodSpec, "restartPolicy", restart_policy),
	F_SMAP(K8sPodSpec, "nodeSelector", node_selector),
	F_STR(K8sPodSpec, "nodeName", node_name),
	F_INLINE("affinity", affinity_desc),
	F_STR(K8sPodSpec, "schedulerName", scheduler_name),
	F_ARR(K8sPodSpec, "tolerations", tolerations, toleration_desc),
	F_STR(K8sPodSpec, "priorityClassName", priority_class_name),
	F_I32(K8sPodSpec, "priority", priority),
	F_ARR(K8sPodSpec, "resourceClaims", resource_claims, pod_claim_desc),
	F_END,
};
static const char *const pod_spec_ignored[] = {
	"volumes",
	"ephemeralContainers",
	"terminationGracePeriodSeconds",
	"activeDeadlineSeconds",
	"dnsPolicy",
	"serviceAccountName",
	"serviceAccount",
	"automountServiceAccountToken",
	"hostNetwork",
	"hostPID",
	"hostIPC",
	"shareProcessNamespace",
	"securityContext",
	"imagePullSecrets",
	"hostname",
	"subdomain",
	"hostAliases",
	"dnsConfig",
	"readinessGates",
	"runtimeClassName",
	"enableServiceLinks",
	"preemptionPolicy",
	"overhead",
	"topologySpreadConstraints",
	"setHostnameAsFQDN",
	"os",
	"hostUsers",
	"schedulingGates",
	"resources",
	"hostnameOverride",
	NULL,
};
static DESC(
        pod_spec_desc, "PodSpec", K8sPodSpec, pos, pod_spec_fields, .ignored = pod_spec_ignored);

static const K8sField pod_claim_status_fields[] = {
	F_STR(K8sPodResourceClaimStatus, "name", name),
	F_STR(K8sPodResourceClaimStatus, "resourceClaimName", resource_claim_name),
	F_END,
};
static DESC(pod_claim_status_desc,
            "PodResourceClaimStatus",
            K8sPodResourceClaimStatus,
            pos,
            pod_claim_status_fields);

static const K8sField pod_status_fields[] = {
	F_STR(K8sPod, "phase", phase),
	F_ARR(K8sPod, "resourceClaimStatuses", resource_claim_statuses, pod_claim_status_desc),
	F_END,
};
static const char *const pod_status_ignored[] = {
	"observedGeneration",
	"conditions",
	"message",
	"reason",
	"nominatedNodeName",
	"hostIP",
	"hostIPs",
	"podIP",
	"podIPs",
	"startTime",
	"initContainerStatuses",
	"containerStatuses",
	"qosClass",
	"ephemeralContainerStatuses",
	"resize",
	"extendedResourceClaimStatus",
	NULL,
};
static DESC_INLINE(pod_status_desc, "PodStatus", pod_status_fields, .ignored = pod_status_ignored);

static const K8sField pod_fields[] = {
	F_IGNORE("apiVersion"),
	F_IGNORE("kind"),
	F_STRUCT(K8sPod, "metadata", obj.metadata, meta_desc),
	F_STRUCT(K8sPod, "spec", spec, pod_spec_desc),
	F_INLINE("status", pod_status_desc),
	F_END,
};
static DESC(pod_desc, "Pod", K8sPod, obj.pos, pod_fields);

/* ---- Node ---------------------------------------------------------------------------- */

static const K8sField node_spec_fields[] = {
	F_BOOL0(K8sNode, "unschedulable", unschedulable),
	F_ARR(K8sNode, "taints", taints, taint_desc),
	F_END,
};
static const char *const node_spec_ignored[] = {
	"podCIDR", "podCIDRs", "providerID", "configSource", "externalID", NULL,
};
static DESC_INLINE(node_spec_desc, "NodeSpec", node_spec_fields, .ignored = node_spec_ignored);

static const K8sField node_status_fields[] = {
	F_QMAP(K8sNode, "capacity", capacity),
	F_QMAP(K8sNode, "allocatable", allocatable),
	F_END,
};
static const char *const node_status_ignored[] = {
	"phase",        "conditions",      "addresses", "daemonEndpoints", "nodeInfo", "images",
	"volumesInUse", "volumesAttached", "config",    "runtimeHandlers", "features", NULL,
};
static DESC_INLINE(node_status_desc,
                   "NodeStatus",
                   node_status_fields,
                   .ignored = node_status_ignored);

static const K8sField node_fields[] = {
	F_IGNORE("apiVersion"),
	F_IGNORE("kind"),
	F_STRUCT(K8sNode, "metadata", obj.metadata, meta_desc),
	F_INLINE("spec", node_spec_desc),
	F_INLINE("status", node_status_desc),
	F_END,
};
static DESC(node_desc, "Node", K8sNode, obj.pos, node_fields);

/* ---- workloads ------------------------------------------------------------------------ */

static const K8sField pod_template_fields[] = {
	F_STRUCT(K8sPodTemplateSpec, "metadata", metadata, meta_desc),
	F_STRUCT(K8sPodTemplateSpec, "spec", spec, pod_spec_desc),
	F_END,
};
static DESC(pod_template_desc, "PodTemplateSpec", K8sPodTemplateSpec, pos, pod_template_fields);

#define WORKLOAD_COMMON                                                                            \
	F_PTR(K8sWorkload, "selector", selector, label_selector_desc),                             \
	        F_STRUCT(K8sWorkload, "template", template_, pod_template_desc)

static const K8sField deployment_spec_fields[] = {
	F_I32(K8sWorkload, "replicas", replicas),
	WORKLOAD_COMMON,
	F_END,
};
static const char *const deployment_spec_ignored[] = {
	"strategy", "minReadySeconds",         "revisionHistoryLimit",
	"paused",   "progressDeadlineSeconds", NULL,
};
static DESC(deployment_spec_desc,
            "DeploymentSpec",
            K8sWorkload,
            spec_pos,
            deployment_spec_fields,
            .ignored = deployment_spec_ignored);

static const char *const statefulset_spec_ignored[] = {
	"volumeClaimTemplates",
	"serviceName",
	"podManagementPolicy",
	"updateStrategy",
	"revisionHistoryLimit",
	"minReadySeconds",
	"persistentVolumeClaimRetentionPolicy",
	"ordinals",
	NULL,
};
static DESC(statefulset_spec_desc,
            "StatefulSetSpec",
            K8sWorkload,
            spec_pos,
            deployment_spec_fields,
            .ignored = statefulset_spec_ignored);

static const char *const replicaset_spec_ignored[] = { "minReadySeconds", NULL };
static DESC(replicaset_spec_desc,
            "ReplicaSetSpec",
            K8sWorkload,
            spec_pos,
            deployment_spec_fields,
            .ignored = replicaset_spec_ignored);

static const K8sField job_spec_fields[] = {
	F_I32(K8sWorkload, "parallelism", parallelism),
	F_I32(K8sWorkload, "completions", completions),
	WORKLOAD_COMMON,
	F_END,
};
static const char *const job_spec_ignored[] = {
	"activeDeadlineSeconds",
	"podFailurePolicy",
	"successPolicy",
	"backoffLimit",
	"backoffLimitPerIndex",
	"maxFailedIndexes",
	"manualSelector",
	"ttlSecondsAfterFinished",
	"completionMode",
	"suspend",
	"podReplacementPolicy",
	"managedBy",
	NULL,
};
static DESC(job_spec_desc,
            "JobSpec",
            K8sWorkload,
            spec_pos,
            job_spec_fields,
            .ignored = job_spec_ignored);

#define WORKLOAD_OBJECT(var, goname, spec)                                                         \
	static const K8sField var##_fields[] = {                                                   \
		F_IGNORE("apiVersion"),                                                            \
		F_IGNORE("kind"),                                                                  \
		F_STRUCT(K8sWorkload, "metadata", obj.metadata, meta_desc),                        \
		F_INLINE("spec", spec),                                                            \
		F_IGNORE("status"),                                                                \
		F_END,                                                                             \
	};                                                                                         \
	static DESC(var, goname, K8sWorkload, obj.pos, var##_fields)

WORKLOAD_OBJECT(deployment_desc, "Deployment", deployment_spec_desc);
WORKLOAD_OBJECT(statefulset_desc, "StatefulSet", statefulset_spec_desc);
WORKLOAD_OBJECT(replicaset_desc, "ReplicaSet", replicaset_spec_desc);
WORKLOAD_OBJECT(job_desc, "Job", job_spec_desc);

const K8sStructDesc *
k8s_fields__meta(void)
{
	return &meta_desc;
}

const K8sStructDesc *
k8s_fields__node_selector(void)
{
	return &node_selector_desc;
}

const K8sStructDesc *
k8s_fields__object(K8sKind kind, K8sApiVersion version)
{
	switch (kind) {
	case K8S_KIND_POD:
		return &pod_desc;
	case K8S_KIND_NODE:
		return &node_desc;
	case K8S_KIND_DEPLOYMENT:
		return &deployment_desc;
	case K8S_KIND_STATEFUL_SET:
		return &statefulset_desc;
	case K8S_KIND_REPLICA_SET:
		return &replicaset_desc;
	case K8S_KIND_JOB:
		return &job_desc;
	default:
		return k8s_fields__resource_object(kind, version);
	}
}
