/*
 * cluster_k8s.h: builds the scheduler's views (ClusterPod, ClusterNode) from
 * model/api's decoded core/v1 objects. A separate header so that cluster.h
 * stays usable without model/api; it joins the build when model/api does.
 */
#pragma once

#include "cluster_types.h"
#include "k8s_diag.h"
#include "k8s_types.h"

G_BEGIN_DECLS

/**
 * cluster_k8s_pod_new:
 * @spec: a Pod's spec (or a workload's pod template spec)
 * @names: resource names; new extended resources are interned here
 * @diags: where problems go, with positions and field paths
 * @path: field path prefix of @spec, e.g. "spec." or "spec.template.spec."
 *
 * Effective requests as PodRequests computes them: per container the
 * requests, defaulted from limits where only limits are given; then the sum
 * over containers against the largest init container, resource by resource.
 * The non-zero requests apply 100m cpu / 200 MiB per container lacking them.
 *
 * Returns: (transfer full) (nullable): NULL after adding an error to @diags
 * (more than CLUSTER_RES_MAX distinct resources).
 */
ClusterPod *cluster_k8s_pod_new(const K8sPodSpec *spec,
                                const char *name,
                                guint64 uid,
                                ClusterResNames *names,
                                K8sDiagList *diags,
                                const char *path);

/* Labels, taints, cordon and allocatable (capacity where allocatable is absent). */
ClusterNode *cluster_k8s_node_new(const K8sNode *node, ClusterResNames *names, K8sDiagList *diags);

G_END_DECLS
