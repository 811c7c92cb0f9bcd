/*
 * k8s_version.c: kinds, API groups, and which apiVersion a Kubernetes 1.34 API
 * server serves for each kind.
 *
 * 1.34 serves resource.k8s.io/v1 for the four DRA kinds (GA). v1beta1 and v1beta2
 * are still compiled in but, like every beta API added after 1.24, only served
 * when enabled with --runtime-config. v1alpha3 holds only DeviceTaintRule (alpha,
 * also off by default); the 1.31-era v1alpha3 DeviceClass/ResourceClaim/... are
 * gone (upstream: k8s.io/api resource/v1alpha3/types.go in release-1.34).
 */
#include <string.h>

#include "k8s_objects.h"

typedef struct {
	const char *name;
	const char *group;
	gboolean namespaced;
} KindInfo;

/* Indexed by K8sKind. */
static const KindInfo kinds[K8S_KIND_COUNT_] = {
	[K8S_KIND_UNKNOWN] = { "Unknown", "", FALSE },
	[K8S_KIND_DEVICE_CLASS] = { "DeviceClass", "resource.k8s.io", FALSE },
	[K8S_KIND_RESOURCE_CLAIM] = { "ResourceClaim", "resource.k8s.io", TRUE },
	[K8S_KIND_RESOURCE_CLAIM_TEMPLATE] = { "ResourceClaimTemplate", "resource.k8s.io", TRUE },
	[K8S_KIND_RESOURCE_SLICE] = { "ResourceSlice", "resource.k8s.io", FALSE },
	[K8S_KIND_DEVICE_TAINT_RULE] = { "DeviceTaintRule", "resource.k8s.io", FALSE },
	[K8S_KIND_POD] = { "Pod", "", TRUE },
	[K8S_KIND_NODE] = { "Node", "", FALSE },
	[K8S_KIND_DEPLOYMENT] = { "Deployment", "apps", TRUE },
	[K8S_KIND_STATEFUL_SET] = { "StatefulSet", "apps", TRUE },
	[K8S_KIND_REPLICA_SET] = { "ReplicaSet", "apps", TRUE },
	[K8S_KIND_JOB] = { "Job", "batch", TRUE },
};

const char *
k8s_kind_name(K8sKind kind)
{
	g_return_val_if_fail(kind < K8S_KIND_COUNT_, "Unknown");
	return kinds[kind].name;
}

const char *
k8s_kind_group(K8sKind kind)
{
	g_return_val_if_fail(kind < K8S_KIND_COUNT_, "");
	return kinds[kind].group;
}

gboolean
k8s_kind_is_namespaced(K8sKind kind)
{
	g_return_val_if_fail(kind < K8S_KIND_COUNT_, FALSE);
	return kinds[kind].namespaced;
}

K8sKind
k8s_kind_from_name(const char *kind_name)
{
	for (guint k = 1; k < K8S_KIND_COUNT_; k++) {
		if (g_strcmp0(kinds[k].name, kind_name) == 0) {
			return (K8sKind)k;
		}
	}
	return K8S_KIND_UNKNOWN;
}

const char *
k8s_api_version_string(K8sKind kind, K8sApiVersion version)
{
	static const char *const resource[] = { "resource.k8s.io/v1", "resource.k8s.io/v1beta2",
		                                "resource.k8s.io/v1beta1",
		                                "resource.k8s.io/v1alpha3" };
	const char *group = k8s_kind_group(kind);

	if (strcmp(group, "resource.k8s.io") == 0) {
		return resource[version];
	}
	if (strcmp(group, "apps") == 0) {
		return "apps/v1";
	}
	if (strcmp(group, "batch") == 0) {
		return "batch/v1";
	}
	return "v1";
}

K8sServed
k8s_version_served(const K8sObject *obj, const char **instead, const char **why)
{
	const char *dummy_instead, *dummy_why;

	instead = instead != NULL ? instead : &dummy_instead;
	why = why != NULL ? why : &dummy_why;
	*instead = k8s_api_version_string(obj->kind, K8S_VERSION_V1);
	*why = NULL;
	if (strcmp(k8s_kind_group(obj->kind), "resource.k8s.io") != 0) {
		return K8S_SERVED; /* the decoder only accepts v1, apps/v1, batch/v1 for these */
	}
	if (obj->kind == K8S_KIND_DEVICE_TAINT_RULE) {
		*instead = "resource.k8s.io/v1alpha3";
		if (obj->version == K8S_VERSION_V1ALPHA3) {
			*why = "DeviceTaintRule is alpha in Kubernetes 1.34: served only with the "
			       "DRADeviceTaints feature gate and resource.k8s.io/v1alpha3 enabled";
			return K8S_SERVED_DISABLED;
		}
		*why = "Kubernetes 1.34 serves DeviceTaintRule only in resource.k8s.io/v1alpha3";
		return K8S_NOT_SERVED;
	}
	switch (obj->version) {
	case K8S_VERSION_V1:
		return K8S_SERVED;
	case K8S_VERSION_V1BETA2:
	case K8S_VERSION_V1BETA1:
		*why = "this beta version is off by default in Kubernetes 1.34 (needs "
		       "--runtime-config) and deprecated in favour of the GA version";
		return K8S_SERVED_DISABLED;
	default:
		*why = "Kubernetes 1.34 serves only DeviceTaintRule in resource.k8s.io/v1alpha3 "
		       "(the 1.31 alpha API was removed in 1.32)";
		return K8S_NOT_SERVED;
	}
}
