/*
 * cluster_plugin.h: kube-scheduler's filter plugins as sim/cluster runs them: plugin
 * ids, the per-node rejection reasons behind "0/N nodes are available", the
 * filter status, the filters on their own, and ClusterDraOps, the hooks
 * through which DynamicResources reaches the allocator.
 *
 * Enums and a table of function pointers: plain values, transparent because
 * the adapter that implements DynamicResources (cluster_dra.c) fills them in.
 */
#pragma once

#include <glib.h>

#include "cluster_types.h"

G_BEGIN_DECLS

/* ============================================================== plugins */

/* Plugin ids, in the default profile's filter order (default_plugins.go). */
typedef enum {
	CLUSTER_PLUGIN_NODE_UNSCHEDULABLE,
	CLUSTER_PLUGIN_TAINT_TOLERATION,
	CLUSTER_PLUGIN_NODE_AFFINITY,
	CLUSTER_PLUGIN_NODE_RESOURCES_FIT,
	CLUSTER_PLUGIN_DYNAMIC_RESOURCES,
	CLUSTER_N_PLUGINS
} ClusterPlugin;

#define CLUSTER_PLUGIN_BIT(p) (1u << (p))

const char *cluster_plugin_get_name(ClusterPlugin plugin);

/* ------------------------------------------- per-node reasons (explain)
 * Why a filter rejected a node, as the reason codes behind kube-scheduler's
 * "0/N nodes are available: ..." histogram (cluster_journal.c turns them into
 * upstream's strings). NodeResourcesFit reports every insufficient resource
 * of a node, so a node may count under several codes, as upstream. */
typedef enum {
	CLUSTER_REASON_UNSCHEDULABLE,     /* "node(s) were unschedulable" */
	CLUSTER_REASON_TAINT,             /* "node(s) had untolerated taint(s)" */
	CLUSTER_REASON_AFFINITY,          /* "node(s) didn't match Pod's node affinity/selector" */
	CLUSTER_REASON_CLAIMS,            /* "cannot allocate all claims" */
	CLUSTER_REASON_CLAIM_NOT_ON_NODE, /* "resourceclaim not available on the node" */
	CLUSTER_REASON_DRA_TIMEOUT,       /* "timed out trying to allocate devices" */
	CLUSTER_REASON_INSUFFICIENT,      /* + slot: "Insufficient <name>" ("Too many pods") */
	CLUSTER_N_REASONS = CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_MAX
} ClusterReason;

/* Adds one count per reason @plugin has for rejecting @node (off the fast path). */
void cluster_reason_count(const ClusterPod *pod,
                          const ClusterNode *node,
                          ClusterPlugin plugin,
                          const char *dra_reason,
                          guint *counts);
/*
 * The same for @times nodes that state-wise equal @node (one equivalence
 * class, cluster_sched_class.c): the codes read only the pod, @dra_reason and
 * the node's allocatable and requested resources.
 */
void cluster_reason_count_times(const ClusterPod *pod,
                                const ClusterNode *node,
                                ClusterPlugin plugin,
                                const char *dra_reason,
                                guint times,
                                guint *counts);
/* (transfer full) upstream's text of @code; @names for "Insufficient <name>" (nullable). */
char *cluster_reason_to_string(ClusterReason code, const ClusterResNames *names);
/* TRUE for codes upstream marks UnschedulableAndUnresolvable (preemption cannot help). */
gboolean cluster_reason_is_unresolvable(ClusterReason code);

typedef enum {
	CLUSTER_STATUS_SUCCESS,
	CLUSTER_STATUS_UNSCHEDULABLE,
	CLUSTER_STATUS_ERROR, /* fatal for this attempt, e.g. a CEL runtime error */
} ClusterStatus;

/*
 * The filters, usable on their own (tests, the extended-resource mode).
 * @reason: (out) (optional): a static string naming the failure.
 */
gboolean cluster_filter_node_unschedulable(const ClusterPod *pod, const ClusterNode *node);
gboolean cluster_filter_taint_toleration(const ClusterPod *pod,
                                         const ClusterNode *node,
                                         const char **reason);
gboolean cluster_filter_node_affinity(const ClusterPod *pod, const ClusterNode *node);
/* @insufficient: (out) (optional): the first resource slot that does not fit. */
gboolean
cluster_filter_resources_fit(const ClusterPod *pod, const ClusterNode *node, gint *insufficient);
/* TRUE if @toleration tolerates @taint (core/v1 helper ToleratesTaint). */
gboolean cluster_toleration_tolerates(const ClusterToleration *toleration,
                                      const ClusterTaint *taint);

/**
 * ClusterDraOps:
 *
 * How DynamicResources reaches the allocator (implemented by the wiring on
 * top of model/dra). @data is passed back unchanged. Upstream semantics
 * (dynamicresources.go, see reference/dra-allocator.md §6):
 *  - @prefilter: once per attempt; UNSCHEDULABLE for a missing claim/class or a
 *    claim in use by 256 pods, ERROR for fatal problems.
 *  - @filter: per node; allocated claims' node selectors, then Allocate() for
 *    the unallocated ones. UNSCHEDULABLE = "cannot allocate all claims",
 *    ERROR = e.g. a CEL runtime error: the attempt stops at once.
 *    Sets *@allocator_called when Allocate() ran.
 *  - @reserve: commit the filter result of @node (in-flight allocation).
 *    FALSE makes the attempt an error.
 *  - @unreserve: undo @reserve.
 *  - @postfilter: (nullable) the pod was unschedulable: deallocate claims that
 *    are allocated but reserved by nobody.
 *  - @class_invariant: (nullable) after @prefilter: TRUE when this cycle's
 *    @filter may depend on a node only through ClusterNode.dra_sig (no claim
 *    allocated already, which is checked by node name, nor a special claim).
 *  - @filter_shared: @filter, and *@answer a handle of what the call added to
 *    the allocator's statistics when its answer holds for every node of the
 *    same non-zero dra_sig (0 when not: a selector read a node's own value,
 *    a timeout, an error).
 *  - @add_answer: another node took answer @answer @times: its statistics
 *    are added @times more, as if each node had called the allocator.
 */
typedef struct {
	ClusterStatus (*prefilter)(gpointer data, const ClusterPod *pod, const char **reason);
	ClusterStatus (*filter)(gpointer data,
	                        const ClusterPod *pod,
	                        const ClusterNode *node,
	                        gboolean *allocator_called,
	                        const char **reason);
	gboolean (*reserve)(gpointer data, const ClusterPod *pod, const ClusterNode *node);
	void (*unreserve)(gpointer data, const ClusterPod *pod, const ClusterNode *node);
	void (*postfilter)(gpointer data, const ClusterPod *pod);
	/* (nullable) the pod was bound: the device taint eviction controller looks at it */
	void (*bound)(gpointer data, const ClusterPod *pod);
	/* (nullable) the run-model invariant "devices held = claims allocated"
	 * (cluster_invariants.c): FALSE with @what (transfer full) on a breach */
	gboolean (*check_held)(gpointer data, char **what);
	gboolean (*class_invariant)(gpointer data, const ClusterPod *pod);
	ClusterStatus (*filter_shared)(gpointer data,
	                               const ClusterPod *pod,
	                               const ClusterNode *node,
	                               gboolean *allocator_called,
	                               const char **reason,
	                               guint *answer);
	void (*add_answer)(gpointer data, guint answer, guint64 times);
} ClusterDraOps;

G_END_DECLS
