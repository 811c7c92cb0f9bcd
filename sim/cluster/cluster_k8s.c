/*
 * cluster_k8s.c: model/api objects into the scheduler's views. A pod's
 * effective requests follow k8s.io/component-helpers resource.PodRequests
 * (containers summed, init containers as a maximum, limits defaulting missing
 * requests as the apiserver's defaulting does); a node brings its labels,
 * taints, cordon flag and allocatable. Runs once per object at scenario load.
 */
#include "cluster_k8s.h"

#include <string.h>

#include "cluster-private.h"
#include "cluster_types.h"

typedef struct {
	ClusterResources value;
	gboolean present[CLUSTER_RES_MAX];
} Requests;

static ClusterTaintEffect
effect_from(const char *effect)
{
	if (g_strcmp0(effect, "NoSchedule") == 0)
		return CLUSTER_EFFECT_NO_SCHEDULE;
	if (g_strcmp0(effect, "PreferNoSchedule") == 0)
		return CLUSTER_EFFECT_PREFER_NO_SCHEDULE;
	if (g_strcmp0(effect, "NoExecute") == 0)
		return CLUSTER_EFFECT_NO_EXECUTE;
	return CLUSTER_EFFECT_ALL;
}

/* cpu in millicores (MilliValue), everything else rounded up (Value). */
static gint64
amount(gint slot, const K8sQty *qty)
{
	if (slot == CLUSTER_RES_CPU)
		return k8s_quantity_milli_value(&qty->value);
	return k8s_quantity_value(&qty->value);
}

/* Where a resource list sits: a node's, or a container's (formatted only for an error, since
 * every pod is built again at its arrival, sim/world/world_run_pods.c). */
typedef struct {
	const char *path; /* a node's list, or the pod's prefix ("spec.") */
	const char *list; /* NULL for a node, "containers" or "initContainers" */
	guint index;
} ResourcesPath;

static gint
slot_of(ClusterResNames *names, const K8sQtyPair *pair, K8sDiagList *diags, const ResourcesPath *at)
{
	gint slot = cluster_res_names_intern(names, pair->key);

	if (slot < 0) {
		g_autofree char *path = at->list == NULL
		                                ? g_strdup(at->path)
		                                : g_strdup_printf("%s%s[%u].resources", at->path,
		                                                  at->list, at->index);
		k8s_diag_list_error(diags, &pair->pos, path,
		                    "too many distinct resource names: drasim models at most %d",
		                    CLUSTER_RES_MAX);
	}
	return slot;
}

static gboolean
has_key(const K8sQtyMap *map, const char *key)
{
	for (guint i = 0; i < map->n; i++) {
		if (strcmp(map->items[i].key, key) == 0)
			return TRUE;
	}
	return FALSE;
}

/* One container: requests, then limits for resources without a request. */
static gboolean
container_requests(const K8sContainer *c,
                   ClusterResNames *names,
                   K8sDiagList *diags,
                   const ResourcesPath *at,
                   Requests *out)
{
	const K8sQtyMap *req = &c->resources.requests, *lim = &c->resources.limits;

	memset(out, 0, sizeof(*out));
	for (guint i = 0; i < req->n + lim->n; i++) {
		gboolean is_req = i < req->n;
		const K8sQtyPair *pair = is_req ? &req->items[i] : &lim->items[i - req->n];
		gint slot;

		if (!is_req && has_key(req, pair->key))
			continue;
		slot = slot_of(names, pair, diags, at);
		if (slot < 0)
			return FALSE;
		out->value.v[slot] = amount(slot, &pair->value);
		out->present[slot] = TRUE;
	}
	return TRUE;
}

/* GetNonzeroRequests: a cpu or memory request that is absent counts as the default. */
static void
nonzero(const Requests *r, ClusterResources *out)
{
	*out = r->value;
	if (!r->present[CLUSTER_RES_CPU])
		out->v[CLUSTER_RES_CPU] = CLUSTER_DEFAULT_MILLI_CPU_REQUEST;
	if (!r->present[CLUSTER_RES_MEMORY])
		out->v[CLUSTER_RES_MEMORY] = CLUSTER_DEFAULT_MEMORY_REQUEST;
}

static gboolean
pod_requests(ClusterPod *pod,
             const K8sPodSpec *spec,
             ClusterResNames *names,
             K8sDiagList *diags,
             const char *path)
{
	ClusterResources sum = { { 0 } }, sum_nz = { { 0 } }, init = { { 0 } }, init_nz = { { 0 } };

	for (guint i = 0; i < spec->n_containers + spec->n_init_containers; i++) {
		gboolean is_init = i >= spec->n_containers;
		guint k = is_init ? i - spec->n_containers : i;
		const K8sContainer *c = is_init ? &spec->init_containers[k] : &spec->containers[k];
		ResourcesPath at = { path, is_init ? "initContainers" : "containers", k };
		Requests r;
		ClusterResources nz;

		if (!container_requests(c, names, diags, &at, &r))
			return FALSE;
		nonzero(&r, &nz);
		for (guint s = 0; s < CLUSTER_RES_MAX; s++) {
			if (is_init) {
				init.v[s] = MAX(init.v[s], r.value.v[s]);
				init_nz.v[s] = MAX(init_nz.v[s], nz.v[s]);
			} else {
				sum.v[s] += r.value.v[s];
				sum_nz.v[s] += nz.v[s];
			}
		}
	}
	for (guint s = 0; s < CLUSTER_RES_MAX; s++) {
		pod->requests.v[s] = MAX(sum.v[s], init.v[s]);
		pod->nonzero_requests.v[s] = MAX(sum_nz.v[s], init_nz.v[s]);
	}
	pod->requests.v[CLUSTER_RES_PODS] = 1;
	pod->nonzero_requests.v[CLUSTER_RES_PODS] = 1;
	return TRUE;
}

/* An unknown operator becomes "In" with no values: invalid, so the term never matches. */
static void
add_requirement(ClusterPod *pod, guint term, const K8sNodeSelectorRequirement *req, gboolean field)
{
	static const struct {
		const char *name;
		ClusterSelectorOp op;
	} ops[] = {
		{ "In", CLUSTER_SELECTOR_IN },
		{ "NotIn", CLUSTER_SELECTOR_NOT_IN },
		{ "Exists", CLUSTER_SELECTOR_EXISTS },
		{ "DoesNotExist", CLUSTER_SELECTOR_DOES_NOT_EXIST },
		{ "Gt", CLUSTER_SELECTOR_GT },
		{ "Lt", CLUSTER_SELECTOR_LT },
	};
	g_autoptr(GPtrArray) values = g_ptr_array_new();
	ClusterSelectorOp op = CLUSTER_SELECTOR_IN;
	gboolean known = FALSE;

	for (guint i = 0; i < G_N_ELEMENTS(ops); i++) {
		if (g_strcmp0(req->operator_, ops[i].name) == 0) {
			op = ops[i].op;
			known = TRUE;
		}
	}
	for (guint i = 0; known && i < req->values.n; i++)
		g_ptr_array_add(values, (gpointer)req->values.items[i]);
	g_ptr_array_add(values, NULL);
	cluster_pod_term_add_requirement(pod, term, req->key != NULL ? req->key : "", op,
	                                 (const char *const *)values->pdata, field);
}

static void
pod_affinity(ClusterPod *pod, const K8sNodeSelector *selector)
{
	for (guint t = 0; t < selector->n_terms; t++) {
		const K8sNodeSelectorTerm *term = &selector->terms[t];
		guint index = cluster_pod_add_term(pod);

		for (guint i = 0; i < term->n_match_expressions; i++)
			add_requirement(pod, index, &term->match_expressions[i], FALSE);
		for (guint i = 0; i < term->n_match_fields; i++)
			add_requirement(pod, index, &term->match_fields[i], TRUE);
	}
}

ClusterPod *
cluster_k8s_pod_new(const K8sPodSpec *spec,
                    const char *name,
                    guint64 uid,
                    ClusterResNames *names,
                    K8sDiagList *diags,
                    const char *path)
{
	g_autoptr(ClusterPod) pod = cluster_pod_new(name, uid);

	if (!pod_requests(pod, spec, names, diags, path != NULL ? path : "spec."))
		return NULL;
	pod->priority = spec->has_priority ? spec->priority : 0;
	for (guint i = 0; i < spec->node_selector.n; i++)
		cluster_pod_add_node_selector(pod, spec->node_selector.items[i].key,
		                              spec->node_selector.items[i].value);
	if (spec->required_node_affinity != NULL)
		pod_affinity(pod, spec->required_node_affinity);
	for (guint i = 0; i < spec->n_tolerations; i++) {
		const K8sToleration *t = &spec->tolerations[i];

		ClusterTolerationOp op = g_strcmp0(t->operator_, "Exists") == 0
		                                 ? CLUSTER_TOLERATION_EXISTS
		                                 : CLUSTER_TOLERATION_EQUAL;

		if (t->has_toleration_seconds)
			cluster_pod_add_toleration_seconds(pod, t->key, op, t->value,
			                                   effect_from(t->effect),
			                                   t->toleration_seconds);
		else
			cluster_pod_add_toleration(pod, t->key, op, t->value,
			                           effect_from(t->effect));
	}
	pod->has_dra = spec->n_resource_claims > 0;
	return g_steal_pointer(&pod);
}

ClusterNode *
cluster_k8s_node_new(const K8sNode *node, ClusterResNames *names, K8sDiagList *diags)
{
	g_autoptr(ClusterNode) out = cluster_node_new(node->obj.metadata.name);
	const K8sQtyMap *alloc = node->allocatable.n > 0 ? &node->allocatable : &node->capacity;
	const ResourcesPath at = { node->allocatable.n > 0 ? "status.allocatable"
		                                           : "status.capacity",
		                   NULL, 0 };

	for (guint i = 0; i < node->obj.metadata.labels.n; i++)
		cluster_node_set_label(out, node->obj.metadata.labels.items[i].key,
		                       node->obj.metadata.labels.items[i].value);
	for (guint i = 0; i < node->n_taints; i++)
		cluster_node_add_taint(out, node->taints[i].key, node->taints[i].value,
		                       effect_from(node->taints[i].effect));
	out->unschedulable = node->unschedulable;
	for (guint i = 0; i < alloc->n; i++) {
		gint slot = slot_of(names, &alloc->items[i], diags, &at);

		if (slot < 0)
			return NULL;
		out->allocatable.v[slot] = amount(slot, &alloc->items[i].value);
	}
	return g_steal_pointer(&out);
}
