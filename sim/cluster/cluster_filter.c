/*
 * cluster_filter.c: the node-local Filter plugins of the default profile,
 * NodeUnschedulable, TaintToleration, NodeAffinity and NodeResourcesFit, with
 * the semantics of kube-scheduler 1.34 (pkg/scheduler/framework/plugins/...).
 *
 * DynamicResources is not here: it reaches the allocator through
 * ClusterDraOps and runs in cluster_sched.c after these, as in the profile.
 * Every function here is pure over its inputs and allocates nothing.
 */
#include <string.h>

#include "cluster-private.h"
#include "cluster_gpushare.h"
#include "cluster_plugin.h"
#include "cluster_types.h"

static const char *const plugin_names[CLUSTER_N_PLUGINS] = {
	[CLUSTER_PLUGIN_NODE_UNSCHEDULABLE] = "NodeUnschedulable",
	[CLUSTER_PLUGIN_TAINT_TOLERATION] = "TaintToleration",
	[CLUSTER_PLUGIN_NODE_AFFINITY] = "NodeAffinity",
	[CLUSTER_PLUGIN_NODE_RESOURCES_FIT] = "NodeResourcesFit",
	[CLUSTER_PLUGIN_DYNAMIC_RESOURCES] = "DynamicResources",
};

const char *
cluster_plugin_get_name(ClusterPlugin plugin)
{
	if ((guint)plugin >= CLUSTER_N_PLUGINS)
		return "unknown";
	return plugin_names[plugin];
}

static gboolean
str_empty(const char *s)
{
	return s == NULL || s[0] == '\0';
}

static gboolean
str_eq(const char *a, const char *b)
{
	return strcmp(a != NULL ? a : "", b != NULL ? b : "") == 0;
}

/* k8s.io/api core/v1 toleration.go ToleratesTaint */
gboolean
cluster_toleration_tolerates(const ClusterToleration *toleration, const ClusterTaint *taint)
{
	if (toleration->effect != CLUSTER_EFFECT_ALL && toleration->effect != taint->effect)
		return FALSE;
	if (!str_empty(toleration->key) && !str_eq(toleration->key, taint->key))
		return FALSE;
	switch (toleration->op) {
	case CLUSTER_TOLERATION_EQUAL:
		return str_eq(toleration->value, taint->value);
	case CLUSTER_TOLERATION_EXISTS:
		return TRUE;
	}
	return FALSE;
}

static gboolean
tolerated(const ClusterPod *pod, const ClusterTaint *taint)
{
	for (guint i = 0; i < cluster_pod_count(pod->tolerations); i++) {
		if (cluster_toleration_tolerates(
		            &g_array_index(pod->tolerations, ClusterToleration, i), taint))
			return TRUE;
	}
	return FALSE;
}

/* nodeunschedulable.go: a cordoned node admits pods tolerating its taint. */
static inline gboolean
node_unschedulable(const ClusterPod *pod, const ClusterNode *node)
{
	ClusterTaint taint = { (char *)"node.kubernetes.io/unschedulable", (char *)"",
		               CLUSTER_EFFECT_NO_SCHEDULE };

	if (G_LIKELY(!node->unschedulable))
		return TRUE;
	return tolerated(pod, &taint);
}

gboolean
cluster_filter_node_unschedulable(const ClusterPod *pod, const ClusterNode *node)
{
	return node_unschedulable(pod, node);
}

/* tainttoleration.go Filter: only NoSchedule and NoExecute taints count. */
static inline gboolean
taint_toleration(const ClusterPod *pod, const ClusterNode *node, const char **reason)
{
	for (guint i = 0; i < node->taints->len; i++) {
		const ClusterTaint *taint = &g_array_index(node->taints, ClusterTaint, i);

		if (taint->effect != CLUSTER_EFFECT_NO_SCHEDULE &&
		    taint->effect != CLUSTER_EFFECT_NO_EXECUTE)
			continue;
		if (!tolerated(pod, taint)) {
			if (reason != NULL)
				/* 1.34 no longer names the taint (taint_toleration.go) */
				*reason = "node(s) had untolerated taint(s)";
			return FALSE;
		}
	}
	return TRUE;
}

gboolean
cluster_filter_taint_toleration(const ClusterPod *pod, const ClusterNode *node, const char **reason)
{
	return taint_toleration(pod, node, reason);
}

static gboolean
value_in(char *const *values, const char *value)
{
	for (guint i = 0; values != NULL && values[i] != NULL; i++) {
		if (strcmp(values[i], value) == 0)
			return TRUE;
	}
	return FALSE;
}

/* labels.Requirement.Matches, for a node's labels. */
static gboolean
label_requirement_matches(const ClusterRequirement *req, const ClusterNode *node)
{
	const char *value = cluster_node_get_label(node, req->key);
	gint64 number;
	char *end = NULL;

	switch (req->op) {
	case CLUSTER_SELECTOR_IN:
		return value != NULL && value_in(req->values, value);
	case CLUSTER_SELECTOR_NOT_IN:
		return value == NULL || !value_in(req->values, value);
	case CLUSTER_SELECTOR_EXISTS:
		return value != NULL;
	case CLUSTER_SELECTOR_DOES_NOT_EXIST:
		return value == NULL;
	case CLUSTER_SELECTOR_GT:
	case CLUSTER_SELECTOR_LT:
		/* A label value that is not an integer never matches. */
		if (value == NULL || value[0] == '\0')
			return FALSE;
		number = g_ascii_strtoll(value, &end, 10);
		if (*end != '\0')
			return FALSE;
		return req->op == CLUSTER_SELECTOR_GT ? number > req->number : number < req->number;
	}
	return FALSE;
}

static gboolean
field_requirement_matches(const ClusterRequirement *req, const ClusterNode *node)
{
	gboolean in = value_in(req->values, node->name);

	return req->op == CLUSTER_SELECTOR_IN ? in : !in;
}

/*
 * component-helpers nodeaffinity.go nodeSelectorTerm.match: an empty term
 * matches nothing, and a term with a parse error is skipped.
 */
static gboolean
term_matches(const ClusterSelectorTerm *term, const ClusterNode *node)
{
	if (term->requirements->len == 0)
		return FALSE;
	for (guint i = 0; i < term->requirements->len; i++) {
		const ClusterRequirement *req =
		        &g_array_index(term->requirements, ClusterRequirement, i);

		if (!req->valid)
			return FALSE;
		if (req->field ? !field_requirement_matches(req, node)
		               : !label_requirement_matches(req, node))
			return FALSE;
	}
	return TRUE;
}

/* nodeaffinity.go Filter: spec.nodeSelector AND (any required term). */
static inline gboolean
node_affinity(const ClusterPod *pod, const ClusterNode *node)
{
	for (guint i = 0; i < cluster_pod_count(pod->node_selector); i++) {
		const ClusterLabel *sel = &g_array_index(pod->node_selector, ClusterLabel, i);

		if (!str_eq(cluster_node_get_label(node, sel->key), sel->value) ||
		    cluster_node_get_label(node, sel->key) == NULL)
			return FALSE;
	}
	if (pod->terms == NULL)
		return TRUE;
	for (guint i = 0; i < pod->terms->len; i++) {
		if (term_matches(&g_array_index(pod->terms, ClusterSelectorTerm, i), node))
			return TRUE;
	}
	return FALSE;
}

gboolean
cluster_filter_node_affinity(const ClusterPod *pod, const ClusterNode *node)
{
	return node_affinity(pod, node);
}

/*
 * fit.go fitsRequest: the pod count always; other resources only when the pod
 * requests them, against allocatable minus what is already requested.
 */
guint32
cluster_filter__fit_mask(const ClusterPod *pod)
{
	guint32 mask = 0;

	for (gint slot = 0; slot < CLUSTER_RES_MAX; slot++) {
		if (slot != CLUSTER_RES_PODS && pod->requests.v[slot] > 0)
			mask |= 1u << slot;
	}
	return mask;
}

/* fitsRequest over the slots of @mask, in slot order (the first failure is reported). */
static inline gboolean
resources_fit_mask(const ClusterPod *pod, guint32 mask, const ClusterNode *node, gint *insufficient)
{
	const ClusterResources *alloc = &node->allocatable;
	const ClusterResources *used = &node->requested;

	if (used->v[CLUSTER_RES_PODS] + 1 > alloc->v[CLUSTER_RES_PODS]) {
		if (insufficient != NULL)
			*insufficient = CLUSTER_RES_PODS;
		return FALSE;
	}
	while (mask != 0) {
		gint slot = __builtin_ctz(mask);
		gint64 want = pod->requests.v[slot];

		mask &= mask - 1;
		/* KEP-5004: a DRA-backed extended resource the node does not
		 * advertise is left to DynamicResources. */
		if ((pod->dra_extended & (1u << slot)) && alloc->v[slot] == 0)
			continue;
		if (want > alloc->v[slot] - used->v[slot]) {
			if (insufficient != NULL)
				*insufficient = slot;
			return FALSE;
		}
	}
	return TRUE;
}

gboolean
cluster_filter_resources_fit(const ClusterPod *pod, const ClusterNode *node, gint *insufficient)
{
	return resources_fit_mask(pod, cluster_filter__fit_mask(pod), node, insufficient);
}

/*
 * RunFilterPlugins stops at the first plugin that does not succeed
 * (frameworkruntime framework.go), so plugin order decides which one a node
 * is reported under.
 */
ClusterPlugin
cluster_filter__run(const ClusterPod *pod,
                    const ClusterNode *node,
                    guint64 *plugin_calls,
                    const char **reason)
{
	return cluster_filter__run_mask(pod, cluster_filter__fit_mask(pod), node, plugin_calls,
	                                reason);
}

ClusterPlugin
cluster_filter__run_mask(const ClusterPod *pod,
                         guint32 fit_mask,
                         const ClusterNode *node,
                         guint64 *plugin_calls,
                         const char **reason)
{
	plugin_calls[CLUSTER_PLUGIN_NODE_UNSCHEDULABLE]++;
	if (!pod->bound && !node_unschedulable(pod, node)) {
		*reason = "node(s) were unschedulable";
		return CLUSTER_PLUGIN_NODE_UNSCHEDULABLE;
	}
	plugin_calls[CLUSTER_PLUGIN_TAINT_TOLERATION]++;
	if (!pod->bound && !taint_toleration(pod, node, reason))
		return CLUSTER_PLUGIN_TAINT_TOLERATION;
	plugin_calls[CLUSTER_PLUGIN_NODE_AFFINITY]++;
	if (!node_affinity(pod, node)) {
		*reason = "node(s) didn't match Pod's node affinity/selector";
		return CLUSTER_PLUGIN_NODE_AFFINITY;
	}
	plugin_calls[CLUSTER_PLUGIN_NODE_RESOURCES_FIT]++;
	if (!resources_fit_mask(pod, fit_mask, node, NULL)) {
		*reason = "Insufficient resources";
		return CLUSTER_PLUGIN_NODE_RESOURCES_FIT;
	}
	/* Open-Gpu-Share's Filter, only in the research worlds that model it
	 * (cluster_gpushare.h); reported under NodeResourcesFit. Not at a
	 * snapshot-bound pod's admission: the kubelet runs no scheduler plugin,
	 * and the GPUs its allocated claims hold are already taken in the state
	 * (cluster_dra_gpushare_hold_imported). */
	if (G_UNLIKELY(pod->gpushare != NULL) && !pod->bound &&
	    !cluster_gpushare_fits(node->gpushare, pod->gpushare)) {
		*reason = "Insufficient GPU (Open-Gpu-Share)";
		return CLUSTER_PLUGIN_NODE_RESOURCES_FIT;
	}
	return CLUSTER_N_PLUGINS;
}
