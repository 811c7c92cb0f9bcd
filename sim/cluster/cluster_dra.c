/*
 * cluster_dra.c: DynamicResources (pkg/scheduler/framework/plugins/
 * dynamicresources) over model/dra's allocator, as reference/dra-allocator.md
 * §6 describes it: PreFilter finds the pod's claims (generated ones through
 * the claim controller), rejects claims in use by 256 pods and unknown device
 * classes, and hands the unallocated claims to the allocator once per cycle;
 * Filter checks where allocated claims may run and calls Allocate on the
 * node; Reserve commits the node's result (the in-flight allocation), and a
 * claim's deallocation returns its devices to the allocator.
 *
 * An allocation is kept as the devices it chose plus, when its node selector
 * is set, the node it was made on (node-local slices pin a claim to its node;
 * selectors over several nodes are treated the same way, a simplification).
 */
#include <string.h>

#include "cluster_claims.h"
#include "cluster_dra-private.h"
#include "k8s_objects.h"

static void
claim_alloc_free(gpointer data)
{
	ClaimAlloc *a = data;

	for (guint i = 0; i < a->devices->len; i++) {
		DevRef *d = &g_array_index(a->devices, DevRef, i);

		g_free(d->driver);
		g_free(d->pool);
		g_free(d->device);
		g_free(d->request);
		g_free(d->consumed);
	}
	g_array_unref(a->devices);
	g_free(a->node);
	g_free(a);
}

static void fill_labels(gpointer data, DraNode *out);

void
cluster_dra_set_filter_timeout(ClusterDra *self, gint64 timeout_us)
{
	dra_allocator_set_step_budget(self->alloc, dra_filter_timeout_steps(timeout_us));
}

ClusterDra *
cluster_dra_new(const DraFeatures *features)
{
	ClusterDra *self = g_new0(ClusterDra, 1);
	DraObjectsAllocator objects;

	self->features = features != NULL ? *features : dra_features_default();
	dra_objects_allocator_init(&objects, &self->features, NULL);
	self->input = objects.input;
	self->cel = objects.cel;
	self->alloc = objects.alloc;
	/*
	 * The Filter memo answers a node's repeated question without searching,
	 * with the same outcome and statistics (docs/cluster.md "Cost").
	 * DRASIM_DRA_MEMO=0 turns it off, to check that reports do not change.
	 */
	dra_allocator_set_memo(self->alloc, g_strcmp0(g_getenv("DRASIM_DRA_MEMO"), "0") != 0);
	dra_allocator_set_node_labels_func(self->alloc, fill_labels, self);
	/* DRASchedulerFilterTimeout is on in 1.34: filterTimeout 10 s per node */
	dra_allocator_set_step_budget(self->alloc,
	                              dra_filter_timeout_steps(DRA_FILTER_TIMEOUT_DEFAULT));
	self->classes = g_hash_table_new(g_str_hash, g_str_equal);
	self->templates = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->template_claims = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->node_devices = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                           (GDestroyNotify)g_ptr_array_unref);
	self->renamed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                      (GDestroyNotify)g_array_unref);
	self->pods = g_array_new(FALSE, TRUE, sizeof(PodRef));
	self->pending = g_ptr_array_new();
	self->converted = g_ptr_array_new();
	self->pending_claims = g_ptr_array_new();
	self->allocated = g_ptr_array_new();
	self->label_keys = g_ptr_array_new();
	self->label_values = g_ptr_array_new();
	self->template_key = g_string_new(NULL);
	self->node_refs = g_array_new(FALSE, TRUE, sizeof(NodeRef));
	self->ext_classes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	self->sig_dirty = g_ptr_array_new();
	self->sig_all = TRUE;
	return self;
}

void
cluster_dra_free(ClusterDra *self)
{
	if (self == NULL)
		return;
	dra_allocator_free(self->alloc);
	g_clear_pointer(&self->held, g_hash_table_unref);
	dra_cel_free(self->cel);
	dra_input_free(self->input);
	g_hash_table_unref(self->classes);
	g_hash_table_unref(self->templates);
	g_hash_table_unref(self->template_claims);
	g_string_free(self->template_key, TRUE);
	g_hash_table_unref(self->node_devices);
	g_hash_table_unref(self->renamed);
	for (guint i = 0; i < self->pods->len; i++)
		g_clear_pointer(&g_array_index(self->pods, PodRef, i).other_devices,
		                g_ptr_array_unref);
	g_array_unref(self->pods);
	g_ptr_array_unref(self->pending);
	g_ptr_array_unref(self->converted);
	g_ptr_array_unref(self->pending_claims);
	g_ptr_array_unref(self->allocated);
	g_ptr_array_unref(self->label_keys);
	g_ptr_array_unref(self->label_values);
	g_array_unref(self->node_refs);
	g_hash_table_unref(self->ext_classes);
	g_clear_pointer(&self->evicting, g_array_unref);
	g_ptr_array_unref(self->sig_dirty);
	g_free(self);
}

/* ----------------------------------------------------------- inventory */

void
cluster_dra_add_class(ClusterDra *self, const K8sDeviceClass *klass)
{
	g_hash_table_insert(self->classes, (gpointer)klass->obj.metadata.name, (gpointer)klass);
	dra_allocator_add_class(self->alloc, dra_input_class(self->input, klass));
	cluster_dra__ext_add_class(self, klass);
}

void
cluster_dra_add_slice(ClusterDra *self, const K8sResourceSlice *slice)
{
	dra_allocator_add_slice(self->alloc, dra_input_slice(self->input, slice));
}

void
cluster_dra_convert_slice(ClusterDra *self, const K8sResourceSlice *slice)
{
	g_ptr_array_add(self->converted, (gpointer)dra_input_slice(self->input, slice));
}

const DraSlice *
cluster_dra_stamp_template(ClusterDra *self, const char *driver)
{
	return dra_input_stamp_template(self->input, driver);
}

const DraSlice *
cluster_dra_stamp_slice(ClusterDra *self, const DraSlice *tmpl, const DraStamp *stamp)
{
	return dra_input_stamp_slice(self->input, tmpl, stamp);
}

void
cluster_dra_add_stamped_slice(ClusterDra *self, const DraSlice *stamped)
{
	dra_input_stamp_add(self->input, stamped);
	g_ptr_array_add(self->converted, (gpointer)stamped);
}

void
cluster_dra_add_converted_slices(ClusterDra *self)
{
	for (guint i = 0; i < self->converted->len; i++)
		dra_allocator_add_slice(self->alloc, g_ptr_array_index(self->converted, i));
	g_ptr_array_set_size(self->converted, 0);
}

static char *
ns_key(const char *namespace_, const char *name)
{
	return g_strdup_printf("%s/%s", namespace_ != NULL ? namespace_ : "default", name);
}

void
cluster_dra_add_template(ClusterDra *self, const K8sResourceClaimTemplate *tmpl)
{
	char *key = ns_key(k8s_object_namespace(&tmpl->obj), tmpl->obj.metadata.name);

	/* a replaced template: claims generated from now on convert the new spec */
	g_hash_table_remove(self->template_claims, key);
	g_hash_table_insert(self->templates, key, (gpointer)tmpl);
}

void
cluster_dra_add_claim(ClusterDra *self, const K8sResourceClaim *claim)
{
	ClusterClaim *c;

	g_return_if_fail(self->sim != NULL);
	c = cluster_claims_add(cluster_sim_get_claims(self->sim), claim->obj.metadata.name);
	if (c == NULL)
		return; /* the name is taken: the first claim wins, as in an object set */
	c->user_data = (gpointer)dra_input_claim(self->input, k8s_object_namespace(&claim->obj),
	                                         claim->obj.metadata.name, &claim->spec);
}

void
cluster_dra_add_pod(ClusterDra *self, guint index, const char *namespace_, const K8sPodSpec *spec)
{
	PodRef ref = { namespace_, spec, NULL };

	if (index >= self->pods->len)
		g_array_set_size(self->pods, index + 1);
	g_array_index(self->pods, PodRef, index) = ref;
	cluster_dra__ext_mark_pod(self, cluster_sim_get_pod(self->sim, index));
}

void
cluster_dra_pod_claim_refs(const K8sPodSpec *spec, char ***claims, char ***templates)
{
	g_autoptr(GPtrArray) c = g_ptr_array_new();
	g_autoptr(GPtrArray) t = g_ptr_array_new();

	for (guint i = 0; i < spec->n_resource_claims; i++) {
		const K8sPodResourceClaim *rc = &spec->resource_claims[i];

		if (rc->resource_claim_name != NULL)
			g_ptr_array_add(c, g_strdup(rc->resource_claim_name));
		else if (rc->resource_claim_template_name != NULL && rc->name != NULL)
			g_ptr_array_add(t, g_strdup(rc->name));
	}
	g_ptr_array_add(c, NULL);
	g_ptr_array_add(t, NULL);
	*claims = (char **)g_ptr_array_free(g_steal_pointer(&c), FALSE);
	*templates = (char **)g_ptr_array_free(g_steal_pointer(&t), FALSE);
}

const DraStats *
cluster_dra_get_allocator_stats(ClusterDra *self)
{
	return dra_allocator_get_stats(self->alloc);
}

/* ----------------------------------------------------------- PreFilter */

/* The claim the controller generated for (pod, podClaim), if it exists yet. */
static ClusterClaim *
generated_claim(ClusterDra *self, const ClusterPod *pod, const char *pod_claim)
{
	ClusterClaims *claims = cluster_sim_get_claims(self->sim);
	GPtrArray *names = cluster_sim_get_pod_claims(self->sim, (guint)pod->uid);

	for (guint i = 0; i < names->len; i++) {
		ClusterClaim *c = cluster_claims_lookup(claims, names->pdata[i]);

		if (c != NULL && c->owner_pod != NULL && strcmp(c->owner_pod, pod->name) == 0 &&
		    g_strcmp0(c->pod_claim_name, pod_claim) == 0)
			return c;
	}
	return NULL;
}

/* The DraClaim of a claim generated from template @key (with @spec): a small
 * copy naming the claim, over the body converted once per template. It is
 * freed with the claim, so a finished pod leaves nothing in the allocator's
 * input (issue 19 item 2: the bytes of a pod over the whole run). */
static DraClaim *
template_claim(ClusterDra *self,
               const char *key,
               const char *namespace_,
               const K8sResourceClaimSpec *spec,
               const char *name)
{
	const DraClaim *body = g_hash_table_lookup(self->template_claims, key);
	DraClaim *claim;

	if (body == NULL) {
		body = dra_input_claim(self->input, namespace_, "", spec);
		g_hash_table_insert(self->template_claims, g_strdup(key), (gpointer)body);
	}
	claim = g_memdup2(body, sizeof(*body));
	claim->name = name;
	return claim;
}

/* A generated claim gets its spec from the template on first use. */
static gboolean
claim_spec(ClusterDra *self, const PodRef *ref, const K8sPodResourceClaim *rc, ClusterClaim *c)
{
	const char *key;
	const K8sResourceClaimTemplate *tmpl;

	if (c->user_data != NULL)
		return TRUE;
	if (rc->resource_claim_template_name == NULL)
		return FALSE;
	/* ns_key's spelling in a reused buffer: every pod's claims come here at its first cycle */
	g_string_assign(self->template_key, ref->namespace_ != NULL ? ref->namespace_ : "default");
	g_string_append_c(self->template_key, '/');
	g_string_append(self->template_key, rc->resource_claim_template_name);
	key = self->template_key->str;
	tmpl = g_hash_table_lookup(self->templates, key);
	if (tmpl == NULL)
		return FALSE;
	c->user_data = template_claim(self, key, ref->namespace_, &tmpl->spec, c->name);
	c->free_user_data = g_free;
	return TRUE;
}

static gboolean
classes_exist(ClusterDra *self, const DraClaim *claim)
{
	for (guint r = 0; r < claim->n_requests; r++) {
		const DraRequest *req = &claim->requests[r];

		if (req->has_exactly && req->exactly.device_class_name != NULL &&
		    !g_hash_table_contains(self->classes, req->exactly.device_class_name))
			return FALSE;
		for (guint s = 0; s < req->n_first_available; s++) {
			const char *name = req->first_available[s].device_class_name;

			if (name != NULL && !g_hash_table_contains(self->classes, name))
				return FALSE;
		}
	}
	return TRUE;
}

static ClusterStatus
unschedulable(ClusterDra *self, const char **reason, const char *format, const char *name)
{
	g_snprintf(self->message, sizeof(self->message), format, name);
	*reason = self->message;
	return CLUSTER_STATUS_UNSCHEDULABLE;
}

/* One claim reference of the pod, sorted into allocated / to allocate. */
static ClusterStatus
collect(ClusterDra *self, const ClusterPod *pod, const PodRef *ref, guint i, const char **reason)
{
	const K8sPodResourceClaim *rc = &ref->spec->resource_claims[i];
	ClusterClaim *c = NULL;

	if (rc->resource_claim_name != NULL)
		c = cluster_claims_lookup(cluster_sim_get_claims(self->sim),
		                          rc->resource_claim_name);
	else if (rc->resource_claim_template_name != NULL)
		c = generated_claim(self, pod, rc->name);
	else
		return CLUSTER_STATUS_SUCCESS;
	if (c == NULL || !claim_spec(self, ref, rc, c))
		return unschedulable(self, reason, "waiting for resource claim of %s", rc->name);
	if (c->allocated) {
		if (!cluster_claims_can_reserve(c, pod->name))
			return unschedulable(self, reason, "resourceclaim %s is in use", c->name);
		g_ptr_array_add(self->allocated, c);
		return CLUSTER_STATUS_SUCCESS;
	}
	/* classes are checked here, so a missing one waits (§7.12) */
	if (!classes_exist(self, c->user_data))
		return unschedulable(self, reason, "device class of claim %s not found", c->name);
	if (!g_ptr_array_find(self->pending_claims, c, NULL)) {
		g_ptr_array_add(self->pending, c->user_data);
		g_ptr_array_add(self->pending_claims, c);
	}
	return CLUSTER_STATUS_SUCCESS;
}

static ClusterStatus
dra_prefilter(gpointer data, const ClusterPod *pod, const char **reason)
{
	ClusterDra *self = data;
	const PodRef *ref = NULL;

	cluster_dra__sig_refresh(self);
	g_ptr_array_set_size(self->pending, 0);
	g_ptr_array_set_size(self->pending_claims, 0);
	g_ptr_array_set_size(self->allocated, 0);
	self->has_special = FALSE;
	self->special_claim = NULL;
	if (pod->uid < self->pods->len)
		ref = &g_array_index(self->pods, PodRef, pod->uid);
	if (ref == NULL || ref->spec == NULL) {
		*reason = "pod has no DRA claim references";
		return CLUSTER_STATUS_UNSCHEDULABLE;
	}
	for (guint i = 0; i < ref->spec->n_resource_claims; i++) {
		ClusterStatus status = collect(self, pod, ref, i, reason);

		if (status != CLUSTER_STATUS_SUCCESS)
			return status;
	}
	cluster_dra__ext_prefilter(self, pod);
	if (self->pending->len > 0)
		dra_allocator_set_claims(self->alloc, (const DraClaim *const *)self->pending->pdata,
		                         self->pending->len);
	return CLUSTER_STATUS_SUCCESS;
}

/* -------------------------------------------------------------- Filter */

/*
 * The allocator's view of @node: its name, and its labels on demand
 * (fill_labels), since most Filter calls need none.
 */
DraNode
cluster_dra__dra_node(ClusterDra *self, const ClusterNode *node)
{
	DraNode out = { node->name, NULL, NULL, 0 };

	self->labels_node = node;
	return out;
}

/*
 * The allocator's reference for @node, kept by the node's list index. Filter
 * walks the list in index order, so the next node's allocator state is
 * fetched ahead (memory-bound; no effect on results).
 */
DraNodeRef *
cluster_dra__node_ref(ClusterDra *self, const ClusterNode *node)
{
	NodeRef *r;

	if (node->index + 1 >= self->node_refs->len)
		g_array_set_size(self->node_refs, node->index + 2);
	r = &g_array_index(self->node_refs, NodeRef, node->index);
	if (r->node != node || r->name != node->name)
		*r = (NodeRef){ node, node->name, { NULL, 0 } };
	if (r[1].ref.pools != NULL) {
		__builtin_prefetch(r[1].ref.pools);
		__builtin_prefetch((const char *)r[1].ref.pools + 64);
	}
	return &r->ref;
}

/* DraNodeLabelsFunc: the labels of the node being asked about, in scratch arrays. */
static void
fill_labels(gpointer data, DraNode *out)
{
	ClusterDra *self = data;
	const ClusterNode *node = self->labels_node;
	const ClusterLabel *labels;
	gpointer *keys, *values;
	guint n;

	g_return_if_fail(node != NULL && strcmp(node->name, out->name) == 0);
	n = node->labels->len;
	labels = (const ClusterLabel *)(const void *)node->labels->data;
	/* set_size grows once; then plain stores */
	if (self->label_keys->len < n + 1) {
		g_ptr_array_set_size(self->label_keys, n + 1);
		g_ptr_array_set_size(self->label_values, n + 1);
	}
	keys = self->label_keys->pdata;
	values = self->label_values->pdata;
	for (guint i = 0; i < n; i++) {
		keys[i] = labels[i].key;
		values[i] = labels[i].value;
	}
	out->label_keys = (const char *const *)keys;
	out->label_values = (const char *const *)values;
	out->n_labels = n;
}

static ClusterStatus
outcome_status(ClusterDra *self, DraOutcome outcome, const char **reason)
{
	const char *why;

	switch (outcome) {
	case DRA_OUTCOME_ALLOCATED:
		return CLUSTER_STATUS_SUCCESS;
	case DRA_OUTCOME_UNSCHEDULABLE:
		/*
		 * dynamicresources.go Filter's own text; the allocator's diagnosis
		 * is built only when asked (dra_allocator_get_reason), not for each
		 * of the hundreds of nodes a cycle rejects.
		 */
		*reason = "cannot allocate all claims";
		/*
		 * Filter's context ran out (filterTimeout): the same status,
		 * UnschedulableAndUnresolvable, with its own message.
		 */
		if (dra_allocator_timed_out(self->alloc))
			*reason = DRA_TIMEOUT_REASON;
		return CLUSTER_STATUS_UNSCHEDULABLE;
	case DRA_OUTCOME_ERROR:
		why = dra_allocator_get_error(self->alloc);
		g_strlcpy(self->message, why != NULL ? why : "allocator error",
		          sizeof(self->message));
		*reason = self->message;
		return CLUSTER_STATUS_ERROR;
	}
	return CLUSTER_STATUS_ERROR;
}

ClusterStatus
cluster_dra__filter(gpointer data,
                    const ClusterPod *pod,
                    const ClusterNode *node,
                    gboolean *allocator_called,
                    const char **reason)
{
	ClusterDra *self = data;
	ClusterStatus status;
	DraNode dnode;

	for (guint i = 0; i < self->allocated->len; i++) {
		const ClusterClaim *c = self->allocated->pdata[i];
		const ClaimAlloc *a = c->allocation;

		if (a != NULL && a->node != NULL && strcmp(a->node, node->name) != 0) {
			*reason = "resourceclaim not available on the node";
			return CLUSTER_STATUS_UNSCHEDULABLE;
		}
	}
	if (self->pending->len == 0)
		return CLUSTER_STATUS_SUCCESS;
	dnode = cluster_dra__dra_node(self, node);
	if (self->has_special && cluster_dra__ext_node_has_plugin(self, pod, node)) {
		/* the node's device plugin serves the extended resources: no special claim */
		if (self->pending->len == 1)
			return CLUSTER_STATUS_SUCCESS;
		*allocator_called = TRUE;
		status = outcome_status(self, cluster_dra__ext_allocate_without(self, &dnode),
		                        reason);
		cluster_dra__ext_restore(self);
		return status;
	}
	*allocator_called = TRUE;
	return outcome_status(self,
	                      dra_allocator_allocate_on_ref(self->alloc, &dnode,
	                                                    cluster_dra__node_ref(self, node)),
	                      reason);
}

/* ------------------------------------------------------------- Reserve */

static ClaimAlloc *
claim_alloc_new(const DraAllocation *a, const ClusterNode *node)
{
	ClaimAlloc *out = g_new0(ClaimAlloc, 1);

	out->devices = g_array_new(FALSE, TRUE, sizeof(DevRef));
	if (a->node_selector != NULL)
		out->node = g_strdup(node->name);
	out->on = node;
	for (guint i = 0; i < a->n_results; i++) {
		const DraDeviceResult *r = &a->results[i];
		DevRef d = { 0 };

		d.driver = g_strdup(r->driver);
		d.pool = g_strdup(r->pool);
		d.device = g_strdup(r->device);
		d.request = g_strdup(r->request);
		d.admin_access = r->admin_access;
		d.shared = r->share_id != NULL;
		d.n_consumed = r->n_consumed;
		if (r->n_consumed > 0)
			d.consumed = g_new(DraConsumed, r->n_consumed);
		for (guint k = 0; k < r->n_consumed; k++)
			d.consumed[k] = (DraConsumed){ g_intern_string(r->consumed[k].name),
				                       r->consumed[k].value };
		g_array_append_val(out->devices, d);
	}
	return out;
}

/*
 * Upstream keeps each node's Filter result; drasim asks the allocator again
 * for the chosen node, which gives the same answer (nothing changed since).
 */
static gboolean
dra_reserve(gpointer data, const ClusterPod *pod, const ClusterNode *node)
{
	ClusterDra *self = data;
	ClusterClaims *claims = cluster_sim_get_claims(self->sim);
	gboolean plugin = self->has_special && cluster_dra__ext_node_has_plugin(self, pod, node);
	guint n = self->pending->len - (plugin ? 1 : 0);
	DraOutcome outcome;
	DraNode dnode;

	if (n == 0)
		return TRUE;
	dnode = cluster_dra__dra_node(self, node);
	outcome = plugin ? cluster_dra__ext_allocate_without(self, &dnode)
	                 : dra_allocator_allocate_on_ref(self->alloc, &dnode,
	                                                 cluster_dra__node_ref(self, node));
	if (outcome != DRA_OUTCOME_ALLOCATED)
		return FALSE;
	cluster_dra__sig_before_change(self);
	for (guint i = 0; i < n; i++) {
		ClusterClaim *claim = self->pending_claims->pdata[i];
		ClaimAlloc *a = claim_alloc_new(dra_allocator_get_allocation(self->alloc, i), node);

		/* PreBind creates the special claim of extended resources for real */
		if (claim == NULL)
			claim = cluster_dra__ext_materialize(self, pod);
		dra_allocator_commit(self->alloc, i);
		cluster_claims_allocate(claims, claim, a);
		cluster_dra__gpushare_held(self, a, TRUE);
	}
	cluster_dra__sig_after_change(self, node);
	return TRUE;
}

static void
dra_unreserve(gpointer data, const ClusterPod *pod, const ClusterNode *node)
{
	ClusterDra *self = data;

	for (guint i = 0; i < self->pending_claims->len; i++) {
		ClusterClaim *claim = self->pending_claims->pdata[i];

		if (claim == NULL)
			claim = self->special_claim;
		if (claim != NULL)
			cluster_claims_deallocate_unreserved(cluster_sim_get_claims(self->sim),
			                                     claim);
	}
}

/* PostFilter: allocated claims that nobody reserved are freed for another try. */
static void
dra_postfilter(gpointer data, const ClusterPod *pod)
{
	ClusterDra *self = data;

	for (guint i = 0; i < self->allocated->len; i++)
		cluster_claims_deallocate_unreserved(cluster_sim_get_claims(self->sim),
		                                     self->allocated->pdata[i]);
}

static const ClusterDraOps dra_ops = {
	.prefilter = dra_prefilter,
	.filter = cluster_dra__filter,
	.reserve = dra_reserve,
	.unreserve = dra_unreserve,
	.postfilter = dra_postfilter,
	.bound = cluster_dra__taint_bound,
	.check_held = cluster_dra__check_held,
	.class_invariant = cluster_dra__class_invariant,
	.filter_shared = cluster_dra__filter_shared,
	.add_answer = cluster_dra__add_answer,
};

/*
 * The claim controller cleared an allocation: its devices are free again,
 * undoing exactly what dra_allocator_commit() did (an admin-access result
 * held nothing, so freeing it must not free another claim's device; a share
 * gives back its share and the capacity it consumed).
 */
static void
on_deallocated(gpointer data, ClusterClaim *claim)
{
	ClusterDra *self = data;
	const ClaimAlloc *a = claim->allocation;

	cluster_dra__sig_before_change(self);
	for (guint i = 0; a != NULL && i < a->devices->len; i++) {
		const DevRef *d = &g_array_index(a->devices, DevRef, i);

		if (d->admin_access)
			continue;
		if (d->shared)
			dra_allocator_add_shared(self->alloc, d->driver, d->pool, d->device,
			                         d->consumed, d->n_consumed, FALSE);
		else
			dra_allocator_mark_allocated(self->alloc, d->driver, d->pool, d->device,
			                             FALSE);
	}
	cluster_dra__sig_after_change(self, a != NULL ? a->on : NULL);
	if (a != NULL)
		cluster_dra__gpushare_held(self, a, FALSE);
}

/* ------------------------------------------------------------ placement */

/* Remembers a device of the pod's allocation that the run model does not run on. */
static void
note_other_device(ClusterDra *self, guint pod, const DevRef *d)
{
	PodRef *ref;

	if (pod >= self->pods->len)
		return;
	ref = &g_array_index(self->pods, PodRef, pod);
	if (ref->other_devices == NULL)
		ref->other_devices = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(ref->other_devices,
	                g_strdup_printf("%s/%s/%s", d->driver, d->pool, d->device));
}

/*
 * The kubelet runs the pod on what its claims were allocated: every device
 * of every claim (each request and subrequest, every device of a count or of
 * allocationMode All), in the order of the pod's claims and of each
 * allocation. Compute devices (GPUs, MIG devices) become the pod's devices;
 * the others (NICs, ...) are remembered for the report. @n, the count the
 * work asked for, plays no part: the allocation decides.
 */
static gboolean
place(gpointer data,
      ClusterSim *sim,
      const ClusterPod *pod,
      const ClusterNode *node,
      guint n,
      GArray *devices)
{
	ClusterDra *self = data;
	GPtrArray *names = cluster_sim_get_pod_claims(sim, (guint)pod->uid);
	guint index = (guint)pod->uid;

	if (index < self->pods->len)
		g_clear_pointer(&g_array_index(self->pods, PodRef, index).other_devices,
		                g_ptr_array_unref);
	for (guint i = 0; i < names->len; i++) {
		ClusterClaim *c =
		        cluster_claims_lookup(cluster_sim_get_claims(sim), names->pdata[i]);
		const ClaimAlloc *a = c != NULL ? c->allocation : NULL;

		for (guint k = 0; a != NULL && k < a->devices->len; k++) {
			const DevRef *d = &g_array_index(a->devices, DevRef, k);
			guint dev;

			if (cluster_dra__node_device_index(self, node->name, d->device, &dev))
				g_array_append_val(devices, dev);
			else
				note_other_device(self, index, d);
		}
	}
	return TRUE;
}

const GPtrArray *
cluster_dra_get_pod_other_devices(const ClusterDra *self, guint pod)
{
	return pod < self->pods->len ? g_array_index(self->pods, PodRef, pod).other_devices : NULL;
}

void
cluster_dra_configure(ClusterDra *self, ClusterSimConfig *config)
{
	config->sched.dra = &dra_ops;
	config->sched.dra_data = self;
	config->claims.free_allocation = claim_alloc_free;
	config->claims.on_deallocated = on_deallocated;
	config->claims.on_deallocated_data = self;
	config->place = place;
	config->place_data = self;
}

void
cluster_dra_attach(ClusterDra *self, ClusterSim *sim)
{
	self->sim = sim;
}
