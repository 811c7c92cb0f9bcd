/*
 * cluster_reason.c: why a filter plugin rejected a node, as the reason codes
 * behind kube-scheduler's "0/N nodes are available: ..." message.
 *
 * cluster_sched.c counts one code per rejected node (NodeResourcesFit: one
 * per insufficient resource, as fit.go keeps every failure reason), with no
 * allocation, so every failed attempt has its histogram; the texts are built
 * only when a report or `drasim explain` asks. The strings are upstream's
 * (Kubernetes 1.34): nodeunschedulable.ErrReasonUnschedulable,
 * tainttoleration's static "node(s) had untolerated taint(s)" (1.34 no longer
 * names the taint), nodeaffinity.ErrReasonPod, noderesources' "Insufficient
 * <resource>" and "Too many pods", and DynamicResources' Filter messages.
 */
#include <string.h>

#include "cluster_plugin.h"
#include "cluster_types.h"

#define CLAIM_NOT_ON_NODE "resourceclaim not available on the node"
/* Filter's text when filterTimeout runs out (DRA_TIMEOUT_REASON of model/dra, not linked here) */
#define FILTER_TIMED_OUT "timed out trying to allocate devices"

/*
 * fit.go fitsRequest, collecting every insufficient resource instead of the
 * first: the pod count always, the rest only when the pod requests them.
 */
static void
count_insufficient(const ClusterPod *pod, const ClusterNode *node, guint times, guint *counts)
{
	const ClusterResources *alloc = &node->allocatable;
	const ClusterResources *used = &node->requested;

	if (used->v[CLUSTER_RES_PODS] + 1 > alloc->v[CLUSTER_RES_PODS])
		counts[CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_PODS] += times;
	for (gint slot = 0; slot < CLUSTER_RES_MAX; slot++) {
		gint64 want = pod->requests.v[slot];

		if (slot == CLUSTER_RES_PODS || want <= 0)
			continue;
		/* KEP-5004: left to DynamicResources where the node does not advertise it */
		if ((pod->dra_extended & (1u << slot)) && alloc->v[slot] == 0)
			continue;
		if (want > alloc->v[slot] - used->v[slot])
			counts[CLUSTER_REASON_INSUFFICIENT + slot] += times;
	}
}

void
cluster_reason_count(const ClusterPod *pod,
                     const ClusterNode *node,
                     ClusterPlugin plugin,
                     const char *dra_reason,
                     guint *counts)
{
	cluster_reason_count_times(pod, node, plugin, dra_reason, 1, counts);
}

void
cluster_reason_count_times(const ClusterPod *pod,
                           const ClusterNode *node,
                           ClusterPlugin plugin,
                           const char *dra_reason,
                           guint times,
                           guint *counts)
{
	switch (plugin) {
	case CLUSTER_PLUGIN_NODE_UNSCHEDULABLE:
		counts[CLUSTER_REASON_UNSCHEDULABLE] += times;
		break;
	case CLUSTER_PLUGIN_TAINT_TOLERATION:
		counts[CLUSTER_REASON_TAINT] += times;
		break;
	case CLUSTER_PLUGIN_NODE_AFFINITY:
		counts[CLUSTER_REASON_AFFINITY] += times;
		break;
	case CLUSTER_PLUGIN_NODE_RESOURCES_FIT:
		count_insufficient(pod, node, times, counts);
		break;
	case CLUSTER_PLUGIN_DYNAMIC_RESOURCES:
		/*
		 * dynamicresources.go Filter: an allocated claim pinned elsewhere,
		 * else Allocate() found nothing: "cannot allocate all claims"
		 * (drasim's adapter hands a more detailed allocator text, which
		 * goes into the DRA detail instead).
		 */
		if (dra_reason != NULL && strcmp(dra_reason, CLAIM_NOT_ON_NODE) == 0)
			counts[CLUSTER_REASON_CLAIM_NOT_ON_NODE] += times;
		else if (dra_reason != NULL && strcmp(dra_reason, FILTER_TIMED_OUT) == 0)
			counts[CLUSTER_REASON_DRA_TIMEOUT] += times; /* filterTimeout ran out */
		else
			counts[CLUSTER_REASON_CLAIMS] += times;
		break;
	case CLUSTER_N_PLUGINS:
	default:
		break;
	}
}

char *
cluster_reason_to_string(ClusterReason code, const ClusterResNames *names)
{
	gint slot;

	switch (code) {
	case CLUSTER_REASON_UNSCHEDULABLE:
		return g_strdup("node(s) were unschedulable");
	case CLUSTER_REASON_TAINT:
		return g_strdup("node(s) had untolerated taint(s)");
	case CLUSTER_REASON_AFFINITY:
		return g_strdup("node(s) didn't match Pod's node affinity/selector");
	case CLUSTER_REASON_CLAIMS:
		return g_strdup("cannot allocate all claims");
	case CLUSTER_REASON_CLAIM_NOT_ON_NODE:
		return g_strdup(CLAIM_NOT_ON_NODE);
	case CLUSTER_REASON_DRA_TIMEOUT:
		return g_strdup(FILTER_TIMED_OUT);
	default:
		break;
	}
	slot = (gint)code - CLUSTER_REASON_INSUFFICIENT;
	if (slot == CLUSTER_RES_PODS)
		return g_strdup("Too many pods");
	if (names != NULL && slot >= 0 && (guint)slot < cluster_res_names_get_length(names))
		return g_strdup_printf("Insufficient %s", cluster_res_names_get(names, slot));
	if (slot == CLUSTER_RES_CPU)
		return g_strdup("Insufficient cpu");
	if (slot == CLUSTER_RES_MEMORY)
		return g_strdup("Insufficient memory");
	return g_strdup_printf("Insufficient resource #%d", slot);
}

/*
 * The codes whose Filter status is UnschedulableAndUnresolvable upstream:
 * preemption's nodesWherePreemptionMightHelp skips those nodes ("Preemption
 * is not helpful for scheduling"). Only NodeResourcesFit says plain
 * Unschedulable: DynamicResources' statusUnschedulable() returns
 * UnschedulableAndUnresolvable for "cannot allocate all claims" too
 * (dynamicresources.go, 1.34), so preemption never helps a DRA pod.
 */
gboolean
cluster_reason_is_unresolvable(ClusterReason code)
{
	return code < CLUSTER_REASON_INSUFFICIENT;
}
