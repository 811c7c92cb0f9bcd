/*
 * world_events_pool.c: a node's NVIDIA DRA driver publishing the next
 * generation of its gpu.nvidia.com pool (spec.events republish,
 * device-remove, pool-incomplete; mig-reconfigure's republication too).
 *
 * Kubernetes 1.34, what the allocator does with it
 * (k8s.io/dynamic-resource-allocation structured/internal/experimental/
 * pools_experimental.go, GatherPools): slices of an older generation are
 * dropped, so the devices the new generation leaves out are not offered
 * again; while fewer slices than resourceSliceCount are published the pool
 * is incomplete: its published devices are still allocated to requests of
 * an exact count, and a request for "All" devices fails ("resource pool
 * ... is currently being updated", allocator_experimental.go) until the
 * pool is complete. A claim already allocated keeps its status.allocation:
 * neither the scheduler's DynamicResources plugin (it trusts an allocated
 * claim and checks only its node selector, pkg/scheduler/framework/plugins/
 * dynamicresources/dynamicresources.go) nor the kubelet (its prepared claims
 * are checkpointed, pkg/kubelet/cm/dra) nor the device taint eviction
 * controller (it acts on taints only, pkg/controller/devicetainteviction)
 * looks at the slices again, so a pod on a removed device runs on.
 */
#include <string.h>

#include "cluster_dra.h"
#include "hw_api.h"
#include "world-private.h"

#define GPU_DRIVER "gpu.nvidia.com"

static gboolean
listed(const char *const *names, const char *name)
{
	return names != NULL && g_strv_contains(names, name);
}

/* Keeps the devices of @s that are (@keep_listed) or are not in @names; returns how many. */
static guint
filter_devices(K8sResourceSlice *s, const char *const *names, gboolean keep_listed)
{
	guint kept = 0;

	for (guint i = 0; i < s->spec.n_devices; i++)
		if (listed(names, s->spec.devices[i].name) == keep_listed)
			s->spec.devices[kept++] = s->spec.devices[i];
	s->spec.n_devices = kept;
	return kept;
}

/* The GPU slices of @set from @first on, into @out. */
static void
gpu_slices(K8sObjectSet *set, guint first, GPtrArray *out)
{
	for (guint i = first; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++) {
		K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_SLICE, i));

		if (g_strcmp0(s->spec.driver, GPU_DRIVER) == 0)
			g_ptr_array_add(out, s); /* the NICs (dra.net) do not change */
	}
}

/*
 * A device renamed in an earlier generation keeps its new name (republish
 * renames): the same hardware, published as cluster_dra_rename_node_device()
 * recorded. Upstream the allocator computes what is allocated from the claims'
 * status.allocation by device ID, driver/pool/device name
 * (structured/internal/experimental/allocator_experimental.go), and keeps only
 * the newest generation (pools_experimental.go): the old name stays allocated
 * to its claim but is no longer offered; the new name is free and offered,
 * though it is the GPU the old name's pod still runs on.
 */
static void
apply_renames(ClusterDra *dra, const char *node, const GPtrArray *slices, K8sObjectSet *set)
{
	for (guint i = 0; i < slices->len; i++) {
		K8sResourceSlice *s = slices->pdata[i];

		for (guint d = 0; d < s->spec.n_devices; d++) {
			const char *name =
			        cluster_dra_node_device_name(dra, node, s->spec.devices[d].name);

			if (name != s->spec.devices[d].name)
				s->spec.devices[d].name = k8s_object_set_intern(set, name);
		}
	}
}

/* Names of @omit that none of @slices publishes, into @missing (borrowed). */
static void
find_missing(const GPtrArray *slices, const char *const *omit, GPtrArray *missing)
{
	for (guint k = 0; omit != NULL && omit[k] != NULL; k++) {
		gboolean found = FALSE;

		for (guint i = 0; i < slices->len && !found; i++) {
			const K8sResourceSlice *s = slices->pdata[i];

			for (guint d = 0; d < s->spec.n_devices && !found; d++)
				found = g_strcmp0(s->spec.devices[d].name, omit[k]) == 0;
		}
		if (!found && missing != NULL)
			g_ptr_array_add(missing, (gpointer)omit[k]);
	}
}

static void
set_pool(K8sResourceSlice *s, gint64 generation, gint64 count)
{
	s->spec.pool.has_generation = TRUE;
	s->spec.pool.generation += generation;
	s->spec.pool.has_resource_slice_count = TRUE;
	s->spec.pool.resource_slice_count = count;
}

gboolean
scenario_events__publish_pool(const ScenarioEventsEnv *env,
                              K8sObjectSet *published,
                              const HwNode *hw,
                              const HwPublishOptions *opts,
                              gint64 generation,
                              const char *const *omit,
                              GPtrArray *late,
                              GPtrArray *missing)
{
	g_autoptr(GPtrArray) now = g_ptr_array_new();
	g_autoptr(GPtrArray) later = g_ptr_array_new();
	guint first = k8s_object_set_count_kind(published, K8S_KIND_RESOURCE_SLICE);

	if (!hw_publish_objects(hw, opts, FALSE, published, env->diags))
		return FALSE;
	gpu_slices(published, first, now);
	apply_renames(env->dra, hw->name, now, published);
	find_missing(now, omit, missing);
	if (late != NULL && omit != NULL) {
		/* the same slices once more, each keeping only the late devices */
		guint second = k8s_object_set_count_kind(published, K8S_KIND_RESOURCE_SLICE);
		g_autoptr(GPtrArray) copies = g_ptr_array_new();

		if (!hw_publish_objects(hw, opts, FALSE, published, env->diags))
			return FALSE;
		gpu_slices(published, second, copies);
		apply_renames(env->dra, hw->name, copies, published);
		for (guint i = 0; i < copies->len; i++)
			if (filter_devices(copies->pdata[i], omit, TRUE) > 0)
				g_ptr_array_add(later, copies->pdata[i]);
	}
	for (guint i = 0; i < now->len; i++) {
		filter_devices(now->pdata[i], omit, FALSE);
		set_pool(now->pdata[i], generation, (gint64)(now->len + later->len));
		cluster_dra_add_slice(env->dra, now->pdata[i]);
	}
	for (guint i = 0; i < later->len; i++) {
		set_pool(later->pdata[i], generation, (gint64)(now->len + later->len));
		g_ptr_array_add(late, later->pdata[i]);
	}
	cluster_sim_notify(env->sim, CLUSTER_EVENT_SLICE_CHANGED);
	return TRUE;
}
