/*
 * research-private.h: the FGD protocol's workload steps, shared by
 * research_fgd.c and its unit tests.
 */
#pragma once

#include <glib.h>

#include "cluster_gpushare.h"
#include "sim.h"
#include "workload.h"

/*
 * The task mix of FGD's fragment (GetTypicalPods, frag.go): the trace's pods
 * grouped by (CPU, per-GPU milli, GPU count, gpu_spec), the most popular
 * groups kept until they cover 95 % of the pods, popularities renormalised.
 * Sets them on @share. Returns: how many groups were kept.
 */
guint research_fgd__set_tasks(ClusterGpuShare *share, const WorkloadTrace *trace);

/*
 * The order pods are offered in, as trace row indices: sorted by name and
 * shuffled (SortClusterPods with shuffle), then tuned to @ratio × @capacity
 * milli-GPU (TunePodsByNodeTotalResource): pods drawn with replacement from
 * the name-sorted list and appended while the next one fits under the target,
 * or, for a larger list, pods removed at random until it fits.
 * Returns: (transfer full) (element-type guint)
 */
GArray *research_fgd__order(const WorkloadTrace *trace, SimRng *rng, double ratio, gint64 capacity);
