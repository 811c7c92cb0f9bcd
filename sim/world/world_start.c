/*
 * world_start.c: the imported starting state (spec.workload.imported,
 * docs/import.md section 1). A Pod of the snapshot with spec.nodeName was
 * bound by the scheduler (or by whoever wrote nodeName): it is running on that
 * node when the run starts, with no scheduling cycle (cluster_sim_start_running()),
 * and its claims keep the devices of their status.allocation
 * (cluster_dra_add_allocated_claim()). Only the kubelet's admission applies:
 * no scheduler placed it, so its node's NoSchedule taints and cordon do not
 * (ClusterPod.bound). A pod whose node this mode removed or drains, or that
 * its node's kubelet would reject, is pending at t = 0 instead, with a note.
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
 * The bound pods of a node must fit its allocatable, counted in the snapshot's
 * order: the kubelet admits the pods it finds in creation order and rejects
 * one that does not fit (OutOfcpu, OutOfmemory, OutOf<resource>:
 * pkg/kubelet/lifecycle/predicate.go). drasim makes a rejected pod pending at
 * t = 0, as its controller's replacement is (a bare pod would stay Failed),
 * with a warning and a note naming it. Resources the node does not advertise
 * are left to the scheduler (a DRA node and a device-plugin request: KEP-5004).
 */
static gboolean
fits(WorldRun *run, const ScenarioPod *pod, const ClusterPod *cpod, ClusterNode *node)
{
	ClusterResources *load = g_hash_table_lookup(run->bound_load, node->name);

	if (load == NULL) {
		load = g_new0(ClusterResources, 1);
		g_hash_table_insert(run->bound_load, node->name, load);
	}
	for (gint slot = 0; slot < CLUSTER_RES_MAX; slot++) {
		gint64 have = node->allocatable.v[slot];
		gint64 want =
		        load->v[slot] + (slot == CLUSTER_RES_PODS ? 1 : cpod->requests.v[slot]);

		if (want <= have || (have == 0 && slot >= CLUSTER_RES_FIRST_SCALAR))
			continue;
		k8s_diag_list_warning(
		        run->env.diags, &pod->obj->pos, "spec.nodeName",
		        "mode %s: Pod %s is bound to node %s, but with the bound pods before it "
		        "it requests %" G_GINT64_FORMAT " of %s there, more than the node's "
		        "allocatable %" G_GINT64_FORMAT ": the kubelet rejects it (OutOf%s); it "
		        "is pending at t = 0, as its controller's replacement would be",
		        run->env.mode->name, pod->name, node->name, want,
		        cluster_res_names_get(run->env.names, slot), have,
		        cluster_res_names_get(run->env.names, slot));
		scenario_note__add(run->result->notes, pod->name, "imported bound pod",
		                   "over its node's allocatable (the kubelet rejects it): "
		                   "pending at t = 0");
		return FALSE;
	}
	load->v[CLUSTER_RES_PODS]++;
	for (gint slot = 0; slot < CLUSTER_RES_MAX; slot++)
		load->v[slot] += slot == CLUSTER_RES_PODS ? 0 : cpod->requests.v[slot];
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
	cnode = sim_node(run, node);
	cpod->bound = cnode != NULL && fits(run, pod, cpod, cnode);
	return TRUE;
}

void
scenario_start__run(WorldRun *run, const ScenarioPod *pod, guint index)
{
	ClusterNode *node = sim_node(run, pod->spec->node_name);
	const char *reason = "not admitted";
	g_autofree char *why = NULL;

	if (cluster_sim_start_running(run->env.sim, index, node, &reason))
		return;
	why = g_strdup_printf("the kubelet would not admit it on %s (%s): pending at t = 0",
	                      node->name, reason);
	k8s_diag_list_warning(run->env.diags, &pod->obj->pos, "spec.nodeName",
	                      "mode %s: Pod %s: %s", run->env.mode->name, pod->name, why);
	scenario_note__add(run->result->notes, pod->name, "imported bound pod", why);
}

char **
scenario_start__adopted(WorldRun *run, const ScenarioPod *pod)
{
	const K8sPod *p = pod->obj != NULL && pod->obj->kind == K8S_KIND_POD
	                          ? k8s_object_as_pod((K8sObject *)pod->obj)
	                          : NULL;
	GPtrArray *out = g_ptr_array_new();

	for (guint i = 0; p != NULL && i < p->n_resource_claim_statuses; i++) {
		const K8sPodResourceClaimStatus *st = &p->resource_claim_statuses[i];

		if (st->name == NULL || st->resource_claim_name == NULL ||
		    k8s_object_set_lookup(run->env.sc->objects, K8S_KIND_RESOURCE_CLAIM,
		                          pod->namespace_, st->resource_claim_name) == NULL)
			continue;
		g_ptr_array_add(out, g_strdup(st->name));
		g_ptr_array_add(out, g_strdup(st->resource_claim_name));
	}
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
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

/* Is @name (namespace @ns) a Pending pod of the snapshot (no spec.nodeName, not over)? */
static gboolean
pod_pending(const K8sObjectSet *pods, const char *ns, const char *name)
{
	const K8sObject *obj =
	        pods != NULL ? k8s_object_set_lookup((K8sObjectSet *)pods, K8S_KIND_POD, ns, name)
	                     : NULL;
	const K8sPod *pod = obj != NULL ? k8s_object_as_pod((K8sObject *)obj) : NULL;

	return pod != NULL && pod->spec.node_name == NULL && !scenario_pods__imported_done(pod);
}

static gboolean
pod_in_snapshot(const K8sObjectSet *pods, const char *ns, const char *name)
{
	return pods != NULL &&
	       k8s_object_set_lookup((K8sObjectSet *)pods, K8S_KIND_POD, ns, name) != NULL;
}

/*
 * DRA world, once the bound pods run: each allocated claim's reservedFor as
 * read. An entry naming a pod that runs stays (its bind reserved it again), so
 * does one naming a Pending pod of the snapshot, and one naming a pod the
 * snapshot does not have (dumps are often partial; the issue asks that
 * reservedFor be kept). The others name pods that are over or gone in this mode (its node removed
 * or drained, or the kubelet rejected it: a replacement comes, under another name): the
 * resourceclaim controller removes those, and a claim that so loses its last
 * consumer is deallocated (pkg/controller/resourceclaim/controller.go,
 * syncClaim: "deallocate the claim as soon as the last consumer stops using it").
 */
void
scenario_start__claims(WorldRun *run)
{
	const K8sObjectSet *m = run->env.sc->objects;
	const K8sObjectSet *pods = run->env.sc->imported.objects;
	ClusterClaims *claims = cluster_sim_get_claims(run->env.sim);

	for (guint i = 0; i < k8s_object_set_count_kind(m, K8S_KIND_RESOURCE_CLAIM); i++) {
		const K8sResourceClaim *k = k8s_object_as_resource_claim(
		        k8s_object_set_get_kind((K8sObjectSet *)m, K8S_KIND_RESOURCE_CLAIM, i));
		ClusterClaim *c = cluster_claims_lookup(claims, k->obj.metadata.name);
		const char *ns = k8s_object_namespace(&k->obj);

		if (k->status.allocation == NULL || k->status.n_reserved_for == 0 || c == NULL ||
		    !c->allocated)
			continue;
		for (guint r = 0; r < k->status.n_reserved_for; r++) {
			const char *name = k->status.reserved_for[r].name;

			if (name == NULL)
				continue;
			if (pod_pending(pods, ns, name)) {
				cluster_claims_reserve(claims, c, name);
			} else if (!pod_in_snapshot(pods, ns, name)) {
				/* a partial dump: the pod may well exist, so its devices stay held
				 */
				cluster_claims_reserve(claims, c, name);
				scenario_note__add(
				        run->result->notes, k->obj.metadata.name,
				        "allocated claim reserved for a pod not in the snapshot",
				        "kept allocated and reserved as read: a dump without "
				        "that pod cannot tell whether it still runs");
			}
		}
		if (c->reserved_for->len > 0)
			continue;
		cluster_claims_deallocate_unreserved(claims, c);
		scenario_note__add(run->result->notes, k->obj.metadata.name,
		                   "allocated claim reserved for pods not running",
		                   "no pod its reservedFor names runs or waits here: the "
		                   "resourceclaim controller removes them and deallocates it");
	}
}

/* DRA world: an allocated claim of the input that no pod uses keeps its devices. */
static void
held_claim_notes(WorldRun *run)
{
	const K8sObjectSet *m = run->env.sc->objects;

	for (guint i = 0; i < k8s_object_set_count_kind(m, K8S_KIND_RESOURCE_CLAIM); i++) {
		const K8sResourceClaim *c = k8s_object_as_resource_claim(
		        k8s_object_set_get_kind((K8sObjectSet *)m, K8S_KIND_RESOURCE_CLAIM, i));

		if (c->status.allocation != NULL && c->status.n_reserved_for == 0 &&
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
		                   "running on their spec.nodeName from t = 0 (no scheduling "
		                   "cycle; claims keep status.allocation and reservedFor)");
	}
}
