/*
 * k8s_validate.h: Kubernetes' own validation of decoded objects, and the cross-checks a
 * cluster would reject or never satisfy.
 *
 * Rules and messages follow the API server:
 * pkg/apis/resource/validation/validation.go (resource.k8s.io), pkg/apis/core/validation
 * (pods, nodes, object metadata), pkg/apis/apps/validation and pkg/apis/batch/validation,
 * as of Kubernetes 1.34 with its default feature gates. Every problem becomes a K8sDiag:
 *   FILE:LINE:COL: error: Invalid value: "Gpu": a lowercase RFC 1123 label ...
 * [spec.devices.requests[0].name] The field path is written in the shape of the apiVersion the
 * object was written in (v1beta1 requests have no `exactly.`, devices have `basic.`).
 */
#pragma once

#include <glib.h>

#include "k8s_diag.h"
#include "k8s_objects.h"

G_BEGIN_DECLS

/**
 * k8s_validate_object:
 * What the API server's validation says about @obj on create, plus the apiVersion check
 * (an error when a 1.34 API server does not serve it for that kind, a warning when it is
 * deprecated or off by default), naming what to write instead.
 */
void k8s_validate_object(const K8sObject *obj, K8sDiagList *diags);

/** k8s_validate_set: k8s_validate_object() on every object, in input order. */
void k8s_validate_set(const K8sObjectSet *set, K8sDiagList *diags);

/**
 * k8s_validate_names:
 * An error for every object of @set without metadata.name (validation's message when
 * generateName is missing too). What simulates a cluster indexes objects by name, so this
 * is the part of validation it cannot run without: the rest stays lint's (drasim converts
 * objects that the API server would refuse, such as removed apiVersions).
 * Returns: TRUE when every object has a name.
 */
gboolean k8s_validate_names(const K8sObjectSet *set, K8sDiagList *diags);

/**
 * k8s_validate_references:
 * Checks between objects of @set, as the scheduler and the resource claim controller would
 * find them: claims and templates a pod (or a workload's pod template) names but which do
 * not exist in its namespace (with a note when they exist only in another one), unknown
 * DeviceClasses, container claims naming no pod claim, container claims naming a request
 * the claim does not have, and namespaces used but not created by these manifests
 * (a warning: the namespace may already exist).
 */
void k8s_validate_references(const K8sObjectSet *set, K8sDiagList *diags);

/* One CEL expression in the set, with where it is. */
typedef struct {
	const K8sObject *obj;
	const K8sDeviceSelector *selector; /* expression text and position */
	const char *path; /* e.g. "spec.devices.requests[0].exactly.selectors[1].cel.expression" */
	const char *device_class_name; /* the request's class, or NULL (DeviceClass selectors) */
} K8sCelSite;

typedef void (*K8sCelVisitFn)(const K8sCelSite *site, gpointer user_data);

/**
 * k8s_foreach_cel_expression:
 * Calls @fn for every CEL expression in @set (DeviceClass selectors, claim and template
 * request and sub-request selectors, DeviceTaintRule selectors), in input order. The site
 * and its path are valid during the call only. This is the hook the CEL checks use.
 */
void k8s_foreach_cel_expression(const K8sObjectSet *set, K8sCelVisitFn fn, gpointer user_data);

G_END_DECLS
