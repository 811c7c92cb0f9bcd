/*
 * cluster_allocate.c: "allocate these manifests", the one home of `drasim
 * allocate` (face cluster_allocate.h). One DraAllocator over every
 * ResourceSlice, DeviceClass and DeviceTaintRule of the set (claims already
 * allocated mark their devices in use); then each Pod in input order: its
 * claims found and its template claims created by the claim controller
 * (ClusterClaims, one per namespace, the simulator's own), its unallocated
 * claims allocated on the first node that fits (or the one asked for), as
 * DynamicResources' PreFilter, Filter and Reserve do, and status.allocation
 * and reservedFor written as the scheduler writes them.
 */
#include "cluster_allocate.h"

#include <string.h>

#include "cluster_claims.h"
#include "dra_k8s.h"
#include "k8s_validate.h"

struct ClusterAllocateRun {
	K8sObjectSet *set;
	DraObjectsAllocator objects;
	GHashTable *controllers; /* namespace -> ClusterClaims *: names are unique per namespace */
	guint32 suffix;          /* the random source of the next generated claim name */
	GPtrArray *nodes;        /* const DraNode* in node order */
	GPtrArray *written;      /* K8sResourceClaim* allocated by this run, in order */
	GHashTable *converted;   /* K8sResourceClaim* -> const DraClaim* */
	gboolean fatal;
};

typedef ClusterAllocateRun Run;

static gpointer
zalloc(Run *run, gsize size)
{
	gpointer p = k8s_object_set_alloc(run->set, size);
	memset(p, 0, size);
	return p;
}

static const char *
str(Run *run, const char *text)
{
	return text != NULL ? k8s_object_set_intern(run->set, text) : NULL;
}

/*
 * ClusterRandFunc for the apiserver's 5 random characters of a generated
 * name: drawn from a hash of (pod, podClaim) (set before each claim), so a
 * claim's name does not depend on the order of the inputs.
 */
static guint32
suffix_rand(gpointer data, guint32 n)
{
	guint32 *h = data;
	guint32 k = *h % n;

	*h = *h / n + *h * 2654435761u;
	return k;
}

/* The claim controller of @ns; a claim's user_data is its K8sResourceClaim. */
static ClusterClaims *
controller(Run *run, const char *ns)
{
	ClusterClaims *claims = g_hash_table_lookup(run->controllers, ns);

	if (claims == NULL) {
		ClusterClaimsConfig config = { .rand = suffix_rand, .rand_data = &run->suffix };
		claims = cluster_claims_new(&config);
		g_hash_table_insert(run->controllers, (gpointer)ns, claims);
	}
	return claims;
}

/* The input's claims join their namespace's controller, allocated and reserved as written. */
/*
 * A result without driver, pool or device names no device: the API server
 * rejects it (validateDeviceRequestAllocationResult), lint reports it, and the
 * allocator's state leaves it out (dra_input_mark_allocation). Say so here too.
 */
static void
warn_nameless_results(const K8sResourceClaim *k, K8sDiagList *diags)
{
	const K8sAllocationResult *a = k->status.allocation;

	for (guint r = 0; r < a->n_results; r++) {
		const K8sDeviceRequestAllocationResult *res = &a->results[r];
		g_autofree char *path = NULL;

		if (res->driver != NULL && res->pool != NULL && res->device != NULL)
			continue;
		path = g_strdup_printf("status.allocation.devices.results[%u]", r);
		k8s_diag_list_warning(diags, &res->pos, path,
		                      "claim %s/%s: the result names no device (driver, pool and "
		                      "device are required); it is skipped",
		                      k8s_object_namespace(&k->obj), k->obj.metadata.name);
	}
}

static void
add_input_claims(Run *run, K8sDiagList *diags)
{
	for (guint i = 0; i < k8s_object_set_count_kind(run->set, K8S_KIND_RESOURCE_CLAIM); i++) {
		K8sResourceClaim *k = k8s_object_as_resource_claim(
		        k8s_object_set_get_kind(run->set, K8S_KIND_RESOURCE_CLAIM, i));
		ClusterClaims *claims = controller(run, k8s_object_namespace(&k->obj));
		ClusterClaim *c = cluster_claims_add(claims, k->obj.metadata.name);

		if (c == NULL) {
			continue; /* a name taken twice: the first claim wins, as in an object set
			           */
		}
		c->user_data = k;
		if (k->status.allocation != NULL) {
			warn_nameless_results(k, diags);
			cluster_claims_allocate(claims, c, k->status.allocation);
		}
		for (guint r = 0; r < k->status.n_reserved_for; r++) {
			cluster_claims_reserve(claims, c, k->status.reserved_for[r].name);
		}
	}
}

/* Reserves @claim for @pod in the controller and in the claim's status.reservedFor. */
static void
add_reserved_for(Run *run, ClusterClaim *claim, const K8sPod *pod)
{
	K8sResourceClaim *k = claim->user_data;
	guint n = k->status.n_reserved_for;

	if (cluster_claims_is_reserved_for(claim, pod->obj.metadata.name)) {
		return;
	}
	K8sResourceClaimConsumerReference *refs = zalloc(run, sizeof(*refs) * (n + 1));
	cluster_claims_reserve(controller(run, k8s_object_namespace(&k->obj)), claim,
	                       pod->obj.metadata.name);
	if (n > 0) {
		memcpy(refs, k->status.reserved_for, sizeof(*refs) * n);
	}
	refs[n].resource = "pods";
	refs[n].name = pod->obj.metadata.name;
	refs[n].uid = pod->obj.metadata.uid;
	k->status.reserved_for = refs;
	k->status.n_reserved_for = n + 1;
}

/*
 * The claim the resourceclaim controller creates for a template reference
 * (kubernetes pkg/controller/resourceclaim/controller.go handleClaim): named
 * by cluster_claims_generate, the template's spec and labels, annotated with
 * the pod claim name it serves.
 */
static ClusterClaim *
generate_claim(Run *run,
               K8sPod *pod,
               const K8sPodResourceClaim *ref,
               K8sResourceClaimTemplate *tmpl)
{
	const char *ns = k8s_object_namespace(&pod->obj);
	ClusterClaim *c;

	run->suffix = g_str_hash(pod->obj.metadata.name) * 31u + g_str_hash(ref->name);
	c = cluster_claims_generate(controller(run, ns), pod->obj.metadata.name, ref->name);
	K8sObject *o = k8s_object_set_add_new(run->set, K8S_KIND_RESOURCE_CLAIM, ns, c->name);
	K8sResourceClaim *claim = k8s_object_as_resource_claim(o);
	claim->spec = tmpl->spec;
	claim->obj.metadata.labels = tmpl->template_metadata.labels;
	K8sStringPair *ann = zalloc(run, sizeof(*ann));
	ann->key = "resource.kubernetes.io/pod-claim-name";
	ann->value = ref->name;
	claim->obj.metadata.annotations.items = ann;
	claim->obj.metadata.annotations.n = 1;
	c->user_data = claim;
	return c;
}

/*
 * The claim behind one pod.spec.resourceClaims entry: a resourceClaimName, or
 * the claim generated from its template. The controller handles a pod's
 * entries in spec order, as upstream's syncPod does.
 */
static ClusterClaim *
pod_claim(Run *run, K8sPod *pod, const K8sPodResourceClaim *ref, K8sDiagList *diags)
{
	const char *ns = k8s_object_namespace(&pod->obj);

	if (ref->resource_claim_name != NULL) {
		ClusterClaim *c =
		        cluster_claims_lookup(controller(run, ns), ref->resource_claim_name);
		if (c == NULL) {
			k8s_diag_list_error(diags, &ref->resource_claim_name_pos,
			                    "spec.resourceClaims", "resource claim %s/%s not found",
			                    ns, ref->resource_claim_name);
		}
		return c;
	}
	K8sObject *t = k8s_object_set_lookup(run->set, K8S_KIND_RESOURCE_CLAIM_TEMPLATE, ns,
	                                     ref->resource_claim_template_name);
	if (t == NULL) {
		k8s_diag_list_error(diags, &ref->resource_claim_template_name_pos,
		                    "spec.resourceClaims",
		                    "resource claim template %s/%s not found", ns,
		                    ref->resource_claim_template_name);
		return NULL;
	}
	return generate_claim(run, pod, ref, k8s_object_as_resource_claim_template(t));
}

static const DraClaim *
to_dra(Run *run, K8sResourceClaim *claim)
{
	const DraClaim *c = g_hash_table_lookup(run->converted, claim);
	if (c == NULL) {
		c = dra_input_claim(run->objects.input, k8s_object_namespace(&claim->obj),
		                    claim->obj.metadata.name, &claim->spec);
		g_hash_table_insert(run->converted, claim, (gpointer)c);
	}
	return c;
}

/* An allocated claim restricts the pod to nodes its nodeSelector matches. */
static gboolean
allocated_claims_fit(GPtrArray *claims, const DraNode *node, GString *why)
{
	for (guint i = 0; i < claims->len; i++) {
		const ClusterClaim *claim = g_ptr_array_index(claims, i);
		const K8sResourceClaim *c = claim->user_data;
		const K8sNodeSelector *ks = c->status.allocation->node_selector;
		if (ks == NULL) {
			continue;
		}
		g_autoptr(DraInput) tmp = dra_input_new();
		K8sDevice none = { 0 };
		K8sResourceSlice fake = { 0 };
		fake.spec.node_selector = (K8sNodeSelector *)ks;
		fake.spec.devices = &none;
		const DraSlice *s = dra_input_slice(tmp, &fake);
		gboolean m = FALSE;
		g_autofree char *err = NULL;
		if (!dra_node_selector_matches(s->node_selector, node, &m, &err) || !m) {
			g_string_append_printf(why, "allocated claim %s does not fit node %s",
			                       c->obj.metadata.name, node->name);
			return FALSE;
		}
	}
	return TRUE;
}

/*
 * PreFilter's part: the pod's claims in spec order, sorted into allocated
 * (@done) and to allocate. FALSE when the pod cannot be placed: a claim is
 * missing (fatal) or, as DynamicResources' PreFilter says, an allocated claim
 * is in use by ResourceClaimReservedForMaxSize other pods.
 */
static gboolean
sort_pod_claims(Run *run, K8sPod *pod, GPtrArray *done, GPtrArray *unallocated, K8sDiagList *diags)
{
	for (guint i = 0; i < pod->spec.n_resource_claims; i++) {
		ClusterClaim *c = pod_claim(run, pod, &pod->spec.resource_claims[i], diags);
		if (c == NULL) {
			run->fatal = TRUE;
			return FALSE;
		}
		if (c->allocated && !cluster_claims_can_reserve(c, pod->obj.metadata.name)) {
			k8s_diag_list_warning(
			        diags, &pod->obj.pos, "spec.resourceClaims",
			        "pod %s/%s is unschedulable: resourceclaim %s is in use "
			        "by %d pods (reservedFor is full)",
			        k8s_object_namespace(&pod->obj), pod->obj.metadata.name, c->name,
			        CLUSTER_CLAIM_RESERVED_FOR_MAX);
			return FALSE;
		}
		g_ptr_array_add(c->allocated ? done : unallocated, c);
	}
	return TRUE;
}

/* Hands the unallocated claims to the allocator, once for all nodes; it borrows @dra. */
static void
set_pending(Run *run, GPtrArray *unallocated, GPtrArray *dra)
{
	for (guint i = 0; i < unallocated->len; i++) {
		const ClusterClaim *c = g_ptr_array_index(unallocated, i);
		g_ptr_array_add(dra, (gpointer)to_dra(run, c->user_data));
	}
	/* one pod, many nodes: the claims are validated once */
	dra_allocator_set_claims(run->objects.alloc, (const DraClaim *const *)dra->pdata, dra->len);
}

/* Reserve: each new allocation is written and committed; every claim gets the pod in reservedFor.
 */
static void
reserve(Run *run, const K8sPod *pod, GPtrArray *done, GPtrArray *unallocated)
{
	for (guint i = 0; i < unallocated->len; i++) {
		ClusterClaim *claim = g_ptr_array_index(unallocated, i);
		K8sResourceClaim *c = claim->user_data;
		c->status.allocation = dra_allocation_to_k8s(
		        dra_allocator_get_allocation(run->objects.alloc, i), run->set);
		dra_allocator_commit(run->objects.alloc, i);
		cluster_claims_allocate(controller(run, k8s_object_namespace(&c->obj)), claim,
		                        c->status.allocation);
		g_ptr_array_add(run->written, c);
	}
	for (guint i = 0; i < unallocated->len; i++) {
		add_reserved_for(run, g_ptr_array_index(unallocated, i), pod);
	}
	for (guint i = 0; i < done->len; i++) {
		add_reserved_for(run, g_ptr_array_index(done, i), pod);
	}
}

typedef enum { NODE_FITS, NODE_REJECTED, NODE_ERROR } NodeVerdict;

/* Filter on one node: where the allocated claims may run, then Allocate. */
static NodeVerdict
filter_node(Run *run, const K8sPod *pod, const DraNode *node, GPtrArray *done, K8sDiagList *diags)
{
	const char *ns = k8s_object_namespace(&pod->obj);
	g_autoptr(GString) why = g_string_new(NULL);

	if (!allocated_claims_fit(done, node, why)) {
		k8s_diag_list_warning(diags, &pod->obj.pos, "spec.resourceClaims",
		                      "pod %s/%s does not fit node %s: %s", ns,
		                      pod->obj.metadata.name, node->name, why->str);
		return NODE_REJECTED;
	}
	DraOutcome out = dra_allocator_allocate_on(run->objects.alloc, node);
	if (out == DRA_OUTCOME_ERROR) {
		k8s_diag_list_error(diags, &pod->obj.pos, "spec.resourceClaims", "pod %s/%s: %s",
		                    ns, pod->obj.metadata.name,
		                    dra_allocator_get_error(run->objects.alloc));
		return NODE_ERROR;
	}
	if (out == DRA_OUTCOME_UNSCHEDULABLE) {
		k8s_diag_list_warning(diags, &pod->obj.pos, "spec.resourceClaims",
		                      "pod %s/%s is unschedulable on node %s: %s", ns,
		                      pod->obj.metadata.name, node->name,
		                      dra_allocator_get_reason(run->objects.alloc));
		return NODE_REJECTED;
	}
	return NODE_FITS;
}

static void
place_pod(Run *run, K8sPod *pod, const char *only_node, K8sDiagList *diags)
{
	g_autoptr(GPtrArray) unallocated = g_ptr_array_new();
	g_autoptr(GPtrArray) done = g_ptr_array_new();
	g_autoptr(GPtrArray) dra = g_ptr_array_new();

	if (!sort_pod_claims(run, pod, done, unallocated, diags) ||
	    (unallocated->len == 0 && done->len == 0)) {
		return;
	}
	set_pending(run, unallocated, dra);
	for (guint n = 0; n < run->nodes->len; n++) {
		const DraNode *node = g_ptr_array_index(run->nodes, n);
		if (only_node != NULL && strcmp(node->name, only_node) != 0) {
			continue;
		}
		/* a pod already bound to a node is only checked there */
		if (pod->spec.node_name != NULL && strcmp(node->name, pod->spec.node_name) != 0) {
			continue;
		}
		NodeVerdict v = filter_node(run, pod, node, done, diags);
		if (v == NODE_ERROR) {
			/* the scheduler reports the error and tries no other node */
			run->fatal = TRUE;
			return;
		}
		if (v == NODE_FITS) {
			reserve(run, pod, done, unallocated);
			return;
		}
	}
	k8s_diag_list_warning(diags, &pod->obj.pos, "spec.resourceClaims", "pod %s/%s fits no node",
	                      k8s_object_namespace(&pod->obj), pod->obj.metadata.name);
}

/* Nodes in input order; without Node objects, the node names of the slices. */
static void
collect_nodes(Run *run, const char *only_node)
{
	guint n = k8s_object_set_count_kind(run->set, K8S_KIND_NODE);
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < n; i++) {
		K8sNode *node =
		        k8s_object_as_node(k8s_object_set_get_kind(run->set, K8S_KIND_NODE, i));
		g_ptr_array_add(run->nodes, (gpointer)dra_input_node(run->objects.input, node));
		g_hash_table_add(seen, (gpointer)node->obj.metadata.name);
	}
	if (n > 0) {
		return;
	}
	for (guint i = 0; i < k8s_object_set_count_kind(run->set, K8S_KIND_RESOURCE_SLICE); i++) {
		K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(run->set, K8S_KIND_RESOURCE_SLICE, i));
		if (s->spec.node_name != NULL &&
		    g_hash_table_add(seen, (gpointer)s->spec.node_name)) {
			g_ptr_array_add(run->nodes,
			                (gpointer)dra_input_node_new(run->objects.input,
			                                             s->spec.node_name, NULL));
		}
	}
	if (only_node != NULL && !g_hash_table_contains(seen, only_node)) {
		g_ptr_array_add(run->nodes, (gpointer)dra_input_node_new(
		                                    run->objects.input, str(run, only_node), NULL));
	}
}

void
cluster_allocate_free(ClusterAllocateRun *run)
{
	if (run == NULL)
		return;
	g_hash_table_unref(run->controllers);
	g_hash_table_unref(run->converted);
	g_ptr_array_unref(run->written);
	g_ptr_array_unref(run->nodes);
	dra_objects_allocator_clear(&run->objects);
	g_free(run);
}

/* The allocator over the set, the claim controllers, the nodes; then each pod in input order. */
ClusterAllocateRun *
cluster_allocate_manifests(K8sObjectSet *set,
                           const ClusterAllocateOptions *opts,
                           K8sDiagList *diags)
{
	Run *run = g_new0(Run, 1);

	run->set = set;
	dra_objects_allocator_init(&run->objects, &opts->features, run->set);
	dra_allocator_set_step_budget(run->objects.alloc, opts->step_budget);
	run->controllers = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
	                                         (GDestroyNotify)cluster_claims_free);
	run->nodes = g_ptr_array_new();
	run->written = g_ptr_array_new();
	run->converted = g_hash_table_new(NULL, NULL);
	/* objects are indexed by name: a nameless one crashed the node index (tests/fuzz,
	 * tests/data/fuzz-regress/allocate/node-without-name) */
	if (!k8s_validate_names(run->set, diags)) {
		run->fatal = TRUE;
		return run;
	}
	add_input_claims(run, diags);
	collect_nodes(run, opts->only_node);
	guint n_pods = k8s_object_set_count_kind(run->set, K8S_KIND_POD);
	for (guint i = 0; i < n_pods && !run->fatal; i++) {
		place_pod(run,
		          k8s_object_as_pod(k8s_object_set_get_kind(run->set, K8S_KIND_POD, i)),
		          opts->only_node, diags);
	}
	return run;
}

gboolean
cluster_allocate_get_failed(const ClusterAllocateRun *self)
{
	return self->fatal;
}

const GPtrArray *
cluster_allocate_get_written(const ClusterAllocateRun *self)
{
	return self->written;
}

const DraStats *
cluster_allocate_get_stats(const ClusterAllocateRun *self)
{
	return dra_allocator_get_stats(self->objects.alloc);
}
