/*
 * cluster_allocate.h: "allocate these manifests" (`drasim allocate`): the
 * claims of a set's Pods allocated as the scheduler would, node by node, with
 * the simulator's own claim controller and the allocator adapter's allocator.
 */
#pragma once

#include <glib.h>

#include "dra.h"
#include "k8s_diag.h"
#include "k8s_objects.h"

G_BEGIN_DECLS

typedef struct {
	DraFeatures features;
	guint64 step_budget;   /* DynamicResources filterTimeout as steps (dra.h); 0 = none */
	const char *only_node; /* (nullable) allocate on this node only */
} ClusterAllocateOptions;

typedef struct ClusterAllocateRun ClusterAllocateRun;

/**
 * cluster_allocate_manifests:
 * @set: the manifests; new claims (from templates) and their status are written
 *   into it, so it must outlive the run.
 *
 * Places each Pod of @set in input order. Why a pod fits no node goes to @diags
 * as a warning per node; a missing claim or template, or an allocator error, is
 * an error that stops the run (cluster_allocate_get_failed()). An object without a
 * name (k8s_validate_names()) stops it before any pod is placed.
 */
ClusterAllocateRun *cluster_allocate_manifests(K8sObjectSet *set,
                                               const ClusterAllocateOptions *opts,
                                               K8sDiagList *diags);
void cluster_allocate_free(ClusterAllocateRun *self);
/* TRUE when an error stopped the run (nothing should be printed as a result). */
gboolean cluster_allocate_get_failed(const ClusterAllocateRun *self);
/* (element-type K8sResourceClaim*): the claims allocated by the run, in order. */
const GPtrArray *cluster_allocate_get_written(const ClusterAllocateRun *self);
const DraStats *cluster_allocate_get_stats(const ClusterAllocateRun *self);

G_END_DECLS
