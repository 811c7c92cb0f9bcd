/*
 * cluster_dra_ext.c: extended resources backed by a DeviceClass (KEP-5004,
 * feature gate DRAExtendedResource, alpha and off in 1.34). A class maps an
 * extended resource name (spec.extendedResourceName, and implicitly
 * deviceclass.resource.kubernetes.io/<class>). Where a node does not
 * advertise the resource, DynamicResources allocates an in-memory "special"
 * claim with one ExactCount request per such resource; PreBind makes it a
 * real claim named <pod>-extended-resources-<5 chars>, owned by the pod.
 *
 * drasim keeps one special claim per cycle (all DRA-backed resources of the
 * pod); a node that advertises any of them is served by its device plugin.
 */
#include "cluster_dra-private.h"

#define IMPLICIT_PREFIX "deviceclass.resource.kubernetes.io/"

void
cluster_dra_enable_extended_resources(ClusterDra *self, ClusterResNames *names)
{
	self->extended = TRUE;
	self->names = names;
}

void
cluster_dra__ext_add_class(ClusterDra *self, const K8sDeviceClass *klass)
{
	const char *name = klass->obj.metadata.name;

	if (klass->spec.extended_resource_name != NULL)
		g_hash_table_replace(self->ext_classes,
		                     g_strdup(klass->spec.extended_resource_name), (gpointer)name);
	g_hash_table_replace(self->ext_classes, g_strconcat(IMPLICIT_PREFIX, name, NULL),
	                     (gpointer)name);
}

/* The class behind extended resource slot @slot, or NULL. */
static const char *
slot_class(ClusterDra *self, gint slot)
{
	const char *name;

	if (!self->extended || self->names == NULL || slot < CLUSTER_RES_FIRST_SCALAR)
		return NULL;
	name = cluster_res_names_get(self->names, slot);
	return name != NULL ? g_hash_table_lookup(self->ext_classes, name) : NULL;
}

void
cluster_dra__ext_mark_pod(ClusterDra *self, ClusterPod *pod)
{
	for (gint slot = CLUSTER_RES_FIRST_SCALAR; slot < CLUSTER_RES_MAX; slot++) {
		if (pod->requests.v[slot] > 0 && slot_class(self, slot) != NULL)
			pod->dra_extended |= 1u << slot;
	}
	if (pod->dra_extended != 0)
		pod->has_dra = TRUE;
}

/* Appends the special claim to this cycle's claims to allocate. */
void
cluster_dra__ext_prefilter(ClusterDra *self, const ClusterPod *pod)
{
	guint n = 0;

	if (pod->dra_extended == 0)
		return;
	for (gint slot = CLUSTER_RES_FIRST_SCALAR; slot < CLUSTER_RES_MAX; slot++) {
		DraRequest *req;

		if (!(pod->dra_extended & (1u << slot)))
			continue;
		req = &self->special_requests[n];
		*req = (DraRequest){ 0 };
		g_snprintf(self->special_names[n], sizeof(self->special_names[n]), "request-%u", n);
		req->name = self->special_names[n];
		req->has_exactly = TRUE;
		req->exactly.device_class_name = slot_class(self, slot);
		req->exactly.allocation_mode = "ExactCount";
		req->exactly.count = pod->requests.v[slot];
		n++;
	}
	self->special = (DraClaim){ 0 };
	self->special.namespace_ = "default";
	self->special.name = "extended-resources";
	self->special.requests = self->special_requests;
	self->special.n_requests = n;
	g_ptr_array_add(self->pending, &self->special);
	g_ptr_array_add(self->pending_claims, NULL);
	self->has_special = TRUE;
}

/* A node with allocatable for one of the resources uses the device plugin. */
gboolean
cluster_dra__ext_node_has_plugin(ClusterDra *self, const ClusterPod *pod, const ClusterNode *node)
{
	for (gint slot = CLUSTER_RES_FIRST_SCALAR; slot < CLUSTER_RES_MAX; slot++) {
		if ((pod->dra_extended & (1u << slot)) && node->allocatable.v[slot] > 0)
			return TRUE;
	}
	return FALSE;
}

/*
 * The pod's claims without the special one, in a one-step call. The caller
 * reads the results, then restores the cycle's claims with
 * cluster_dra__ext_restore() before the next two-step call.
 */
DraOutcome
cluster_dra__ext_allocate_without(ClusterDra *self, const DraNode *node)
{
	return dra_allocator_allocate(self->alloc, node,
	                              (const DraClaim *const *)self->pending->pdata,
	                              self->pending->len - 1);
}

void
cluster_dra__ext_restore(ClusterDra *self)
{
	dra_allocator_set_claims(self->alloc, (const DraClaim *const *)self->pending->pdata,
	                         self->pending->len);
}

ClusterClaim *
cluster_dra__ext_materialize(ClusterDra *self, const ClusterPod *pod)
{
	ClusterClaim *claim = cluster_claims_generate(cluster_sim_get_claims(self->sim), pod->name,
	                                              "extended-resources");

	cluster_sim_add_pod_claim(self->sim, (guint)pod->uid, claim->name);
	self->special_claim = claim;
	return claim;
}
