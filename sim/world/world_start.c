/*
 * world_start.c: the imported starting state (spec.workload.imported,
 * docs/import.md section 1). A Pod of the snapshot with spec.nodeName was
 * bound by the scheduler (or by whoever wrote nodeName): it arrives at t = 0
 * pinned to that node, so the one scheduling cycle it goes through can only
 * bind it there, and its claims keep the devices of their status.allocation
 * (cluster_dra_add_allocated_claim()). No scheduler placed it, so its node's
 * NoSchedule taints and cordon do not apply (ClusterPod.bound). A pod whose node this mode removed
 * or drains is pending at t = 0 instead, with a note.
 */
#include <string.h>

#include "world-private.h"

/* The kubernetes.io/hostname of node @name of the mode's inventory (Nodes, or
 * inferred from slices: the name), or NULL when the mode has no such node. */
static const char *
inventory_hostname(const WorldRun *run, const char *name)
{
	const K8sObjectSet *set = run->inventory;
	const K8sObject *obj;

	if (set == NULL)
		return NULL;
	obj = k8s_object_set_lookup(set, K8S_KIND_NODE, NULL, name);
	if (obj != NULL) {
		for (guint i = 0; i < obj->metadata.labels.n; i++)
			if (strcmp(obj->metadata.labels.items[i].key, "kubernetes.io/hostname") ==
			    0)
				return obj->metadata.labels.items[i].value;
		return obj->metadata.name;
	}
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind((K8sObjectSet *)set, K8S_KIND_RESOURCE_SLICE, i));

		if (g_strcmp0(s->spec.node_name, name) == 0)
			return s->spec.node_name;
	}
	return NULL;
}

static gboolean
listed(const GPtrArray *names, const char *name)
{
	for (guint i = 0; names != NULL && i < names->len; i++)
		if (strcmp(names->pdata[i], name) == 0)
			return TRUE;
	return FALSE;
}

/* The simulation's node named @name (a name -> node table made at the first call). */
static ClusterNode *
sim_node(WorldRun *run, const char *name)
{
	if (run->bound_load == NULL) {
		run->bound_load = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
		run->sim_nodes = g_hash_table_new(g_str_hash, g_str_equal);
		for (guint i = 0; i < cluster_sim_get_n_nodes(run->env.sim); i++) {
			ClusterNode *n = cluster_sim_get_node(run->env.sim, i);

			g_hash_table_insert(run->sim_nodes, n->name, n);
		}
	}
	return g_hash_table_lookup(run->sim_nodes, name);
}

/*
 * The bound pods of a node must fit its allocatable (the kubelet admitted
 * them): more is a conflict in the input, an error at the pod. Resources the
 * node does not advertise are left to the scheduler (a DRA node and a
 * device-plugin request: KEP-5004 or pending).
 */
static gboolean
check_fits(WorldRun *run, const ScenarioPod *pod, const ClusterPod *cpod, ClusterNode *node)
{
	ClusterResources *load = g_hash_table_lookup(run->bound_load, node->name);
	g_autofree char *field = g_strdup_printf("%sspec.nodeName", pod->obj->path_prefix);

	if (load == NULL) {
		load = g_new0(ClusterResources, 1);
		g_hash_table_insert(run->bound_load, node->name, load);
	}
	load->v[CLUSTER_RES_PODS]++;
	for (gint slot = 0; slot < CLUSTER_RES_MAX; slot++) {
		gint64 have = node->allocatable.v[slot];

		load->v[slot] += slot == CLUSTER_RES_PODS ? 0 : cpod->requests.v[slot];
		if (load->v[slot] <= have || (have == 0 && slot >= CLUSTER_RES_FIRST_SCALAR))
			continue;
		k8s_diag_list_error(
		        run->env.diags, &pod->obj->pos, "spec.nodeName",
		        "Pod %s is bound to node %s, but its bound pods request %" G_GINT64_FORMAT
		        " of %s there, more than the node's allocatable %" G_GINT64_FORMAT,
		        pod->name, node->name, load->v[slot],
		        cluster_res_names_get(run->env.names, slot), have);
		return FALSE;
	}
	return TRUE;
}

gboolean
scenario_start__pin(WorldRun *run, const ScenarioPod *pod, ClusterPod *cpod)
{
	const char *node = pod->spec != NULL ? pod->spec->node_name : NULL;
	const char *hostname;
	ClusterNode *cnode;

	if (node == NULL)
		return TRUE;
	hostname = inventory_hostname(run, node);
	if (hostname == NULL || listed(run->unpinned, node)) {
		scenario_note__add(run->result->notes, pod->name, "imported bound pod",
		                   hostname == NULL ? "its node is not in this mode's cluster: "
		                                      "pending at t = 0"
		                                    : "its node is removed or drained in this "
		                                      "mode: pending at t = 0");
		return TRUE;
	}
	cluster_pod_add_node_selector(cpod, "kubernetes.io/hostname", hostname);
	cpod->bound = TRUE;
	cnode = sim_node(run, node);
	return cnode == NULL || check_fits(run, pod, cpod, cnode);
}

/* Does any pod of the snapshot still running use claim @name (of namespace @ns)? */
static gboolean
claim_used(const K8sObjectSet *pods, const char *ns, const char *name)
{
	for (guint i = 0; pods != NULL && i < k8s_object_set_count_kind(pods, K8S_KIND_POD); i++) {
		const K8sPod *p = k8s_object_as_pod(
		        k8s_object_set_get_kind((K8sObjectSet *)pods, K8S_KIND_POD, i));

		if (scenario_pods__imported_done(p) ||
		    g_strcmp0(k8s_object_namespace(&p->obj), ns) != 0)
			continue;
		for (guint k = 0; k < p->spec.n_resource_claims; k++)
			if (g_strcmp0(p->spec.resource_claims[k].resource_claim_name, name) == 0)
				return TRUE;
		for (guint k = 0; k < p->n_resource_claim_statuses; k++)
			if (g_strcmp0(p->resource_claim_statuses[k].resource_claim_name, name) == 0)
				return TRUE;
	}
	return FALSE;
}

/* DRA world: an allocated claim of the input that no pod uses keeps its devices. */
static void
held_claim_notes(WorldRun *run)
{
	const K8sObjectSet *m = run->env.sc->objects;

	for (guint i = 0; i < k8s_object_set_count_kind(m, K8S_KIND_RESOURCE_CLAIM); i++) {
		const K8sResourceClaim *c = k8s_object_as_resource_claim(
		        k8s_object_set_get_kind((K8sObjectSet *)m, K8S_KIND_RESOURCE_CLAIM, i));

		if (c->status.allocation != NULL &&
		    !claim_used(run->env.sc->imported.objects, k8s_object_namespace(&c->obj),
		                c->obj.metadata.name))
			scenario_note__add(
			        run->result->notes, c->obj.metadata.name,
			        "allocated claim without a pod",
			        "keeps the devices of its status.allocation for the whole "
			        "run, as in a cluster (nothing deallocates it)");
	}
}

/* Notes on what of the snapshot's pods was left out or kept as is. */
void
scenario_start__notes(WorldRun *run)
{
	const K8sObjectSet *set = run->env.sc->imported.objects;
	guint done = 0, bound = 0;

	for (guint i = 0; set != NULL && i < k8s_object_set_count_kind(set, K8S_KIND_POD); i++) {
		const K8sPod *p = k8s_object_as_pod(
		        k8s_object_set_get_kind((K8sObjectSet *)set, K8S_KIND_POD, i));

		done += scenario_pods__imported_done(p);
		bound += !scenario_pods__imported_done(p) && p->spec.node_name != NULL;
	}
	if (done > 0) {
		g_autofree char *what = g_strdup_printf("%u Succeeded or Failed pods", done);

		scenario_note__add(run->result->notes, "spec.workload.imported", what,
		                   "over in the snapshot: left out");
	}
	if (run->env.dra != NULL)
		held_claim_notes(run);
	if (bound > 0) {
		g_autofree char *what = g_strdup_printf("%u bound pods", bound);

		scenario_note__add(run->result->notes, "spec.workload.imported", what,
		                   "arrive at t = 0 pinned to their spec.nodeName (one scheduling "
		                   "cycle there, claims keep status.allocation)");
	}
}
