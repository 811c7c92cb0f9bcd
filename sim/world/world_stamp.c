/*
 * world_stamp.c: the DRA world's publication of a pool's node: built, validated
 * and converted in full for the first two nodes, stamped from the node before for
 * the others (issue 19 item 3, docs/cluster.md "Memory").
 *
 * Nodes of one pool have one shape and one MIG layout, so they publish the same
 * slices but for what hw_node_new() derives from the node's name: the node, pool
 * and slice names and the devices' own attributes (a GPU's uuid, a MIG device's
 * uuid and parentUUID, a NIC's mac). A stamp copies the allocator's input of the
 * node before with those replaced, the strings interned in the same place, so the
 * allocator reads what the conversion would have given (dra_k8s.h). What is left
 * per node to build is its Node object (validated as before) and hw_node_new()'s
 * HwSlices, which the simulation's devices and the sampler read anyway.
 */
#include <string.h>

#include "cluster_dra.h"
#include "hw_api.h"
#include "world-private.h"

/* A DNS subdomain's limit: the one part of a slice's validation whose outcome can
 * change from node to node (a longer node name), see stampable(). */
#define SLICE_NAME_MAX 253

/* Where a stamp's own values come from, and where their text is interned. */
typedef struct {
	const HwSlice *slice;
	K8sObjectSet *set;
} StampSource;

/* The own attribute @attr->name of the source slice's device @device. */
static gboolean
own_value(gpointer data, guint device, DraAttribute *attr)
{
	const StampSource *src = data;
	const HwAttr *a = hw_device_lookup_attr(src->slice->devices->pdata[device], attr->name);
	static const DraAttrKind kinds[] = {
		[HW_ATTR_STRING] = DRA_ATTR_STRING,
		[HW_ATTR_INT] = DRA_ATTR_INT,
		[HW_ATTR_BOOL] = DRA_ATTR_BOOL,
		[HW_ATTR_VERSION] = DRA_ATTR_VERSION,
	};
	gboolean text;

	if (a == NULL || kinds[a->type] != attr->kind)
		return FALSE;
	/* as hw_api_build.c attribute() then dra_k8s.c convert_attribute() fill it */
	text = a->type == HW_ATTR_STRING || a->type == HW_ATTR_VERSION;
	attr->int_value = a->type == HW_ATTR_INT ? a->num : 0;
	attr->bool_value = a->type == HW_ATTR_BOOL && a->num != 0;
	/* a node's own text (uuid, mac): nothing to share it with, so not looked up */
	attr->string_value = text ? k8s_object_set_copy_text(src->set, a->str) : NULL;
	return TRUE;
}

/*
 * Whether @slice of the node after @previous can be a stamp of @tmpl: the
 * template is @previous's and has the same driver, devices (by name), attribute,
 * capacity and counter counts. The values besides the own attributes come from
 * the pool's shape and layout alone (model/hw), so they equal the template's.
 * Validation cannot fail on a stamp where it passed on the first two nodes: the
 * per-node values are drasim's (uuid and mac of a fixed format and length, a
 * slice name of the node name, the driver and a suffix of fixed length), the node
 * name is checked with the Node object, and only a slice name over the limit is
 * left to the full path, which reports it.
 */
static gboolean
stampable(const DraSlice *tmpl, const HwSlice *slice, const char *previous)
{
	if (tmpl == NULL || tmpl->node_name == NULL || strcmp(tmpl->node_name, previous) != 0 ||
	    strcmp(tmpl->driver, slice->driver) != 0 || tmpl->n_devices != slice->devices->len ||
	    tmpl->n_shared_counters != slice->counter_sets->len ||
	    strlen(slice->name) > SLICE_NAME_MAX)
		return FALSE;
	for (guint i = 0; i < tmpl->n_devices; i++) {
		const DraDevice *t = &tmpl->devices[i];
		const HwDevice *d = slice->devices->pdata[i];

		if (strcmp(t->name, d->name) != 0 ||
		    t->n_attributes + t->n_node_attributes != d->attrs->len ||
		    t->n_capacity != d->capacity->len || t->n_consumes_counters != d->consumes->len)
			return FALSE;
	}
	return TRUE;
}

/* @node's Node object alone, in run->scratch; FALSE (nothing reported) if invalid. */
static gboolean
publish_node_object(WorldRun *run, const HwNode *node)
{
	g_autoptr(GPtrArray) nodes =
	        g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_object_free);
	g_autoptr(K8sDiagList) quiet = k8s_diag_list_new();
	g_autofree char *name = g_strdup_printf("<published %s>", node->name);

	g_ptr_array_add(nodes, hw_node_object_new(node));
	k8s_object_set_reset(run->scratch);
	return hw_load_published(name, nodes, NULL, NULL, run->scratch, quiet);
}

/* @node's slices (@slices: the GPUs' and the NICs') stamped from @previous's. */
static gboolean
stamp(WorldRun *run, const HwNode *node, const GPtrArray *slices, const char *previous)
{
	g_autoptr(GPtrArray) stamped = g_ptr_array_new();

	for (guint i = 0; i < slices->len; i++) {
		const HwSlice *slice = slices->pdata[i];
		const DraSlice *tmpl = cluster_dra_stamp_template(run->env.dra, slice->driver);
		StampSource src = { slice, run->scratch };
		DraStamp st = { k8s_object_set_intern(run->scratch, slice->name),
			        k8s_object_set_intern(run->scratch, slice->pool),
			        k8s_object_set_intern(run->scratch, slice->node_name),
			        slice->generation,
			        slice->slice_count,
			        own_value,
			        &src };
		const DraSlice *s;

		/* one slice per driver: a second would have the first one's template */
		for (guint j = 0; j < i; j++)
			if (strcmp(((const HwSlice *)slices->pdata[j])->driver, slice->driver) == 0)
				return FALSE;
		if (!stampable(tmpl, slice, previous))
			return FALSE;
		s = cluster_dra_stamp_slice(run->env.dra, tmpl, &st);
		if (s == NULL)
			return FALSE;
		g_ptr_array_add(stamped, (gpointer)s);
	}
	if (!publish_node_object(run, node))
		return FALSE;
	for (guint i = 0; i < stamped->len; i++)
		cluster_dra_add_stamped_slice(run->env.dra, stamped->pdata[i]);
	return TRUE;
}

/* The node's objects in full: scratch memory, and the allocator copies the slices. */
static gboolean
publish_full(WorldRun *run, const HwNode *node, const GPtrArray *slices)
{
	K8sObjectSet *set = run->scratch;

	k8s_object_set_reset(set);
	if (!hw_publish_objects_with(node, slices, FALSE, set, run->env.diags))
		return FALSE;
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++)
		cluster_dra_convert_slice(run->env.dra,
		                          k8s_object_as_resource_slice(k8s_object_set_get_kind(
		                                  set, K8S_KIND_RESOURCE_SLICE, i)));
	return TRUE;
}

/* @node's dranet slice (NULL without NICs): the last stamped node's made @node's
 * when it has the same shape (hw_publish_dranet_renew: only the names and macs
 * differ), else published anew. Owned by the run. */
static HwSlice *
node_nics(WorldRun *run, const HwNode *node)
{
	if (run->stamp_nics != NULL && run->stamp_nics_shape == node->shape &&
	    hw_publish_dranet_renew(run->stamp_nics, node))
		return run->stamp_nics;
	g_clear_pointer(&run->stamp_nics, hw_slice_free);
	run->stamp_nics = hw_publish_dranet(node);
	run->stamp_nics_shape = node->shape;
	return run->stamp_nics;
}

static gboolean
stamp_reference(void)
{
	return g_strcmp0(g_getenv("DRASIM_STAMP_REFERENCE"), "1") == 0;
}

static gboolean
same_options(const HwPublishOptions *a, const HwPublishOptions *b)
{
	return a->dynamic_mig == b->dynamic_mig && a->k8s_1_35 == b->k8s_1_35 &&
	       a->naming == b->naming && g_strcmp0(a->driver_version, b->driver_version) == 0 &&
	       g_strcmp0(a->cuda_driver_version, b->cuda_driver_version) == 0;
}

const GPtrArray *
scenario_stamp__gpu_slices(WorldRun *run,
                           const HwNode *node,
                           const char *layout,
                           const HwPublishOptions *opts)
{
	if (run->stamp_gpus != NULL && run->stamp_gpus_shape == node->shape &&
	    strcmp(run->stamp_gpus_layout, layout) == 0 &&
	    same_options(&run->stamp_gpus_opts, opts) && !stamp_reference() &&
	    hw_publish_nvidia_renew(run->stamp_gpus, node, opts))
		return run->stamp_gpus;
	g_clear_pointer(&run->stamp_gpus, g_ptr_array_unref);
	g_free(run->stamp_gpus_layout);
	run->stamp_gpus = hw_publish_nvidia(node, opts);
	run->stamp_gpus_shape = node->shape;
	run->stamp_gpus_layout = g_strdup(layout);
	run->stamp_gpus_opts = *opts;
	return run->stamp_gpus;
}

gboolean
scenario_stamp__publish_dra(
        WorldRun *run, const HwNode *node, const GPtrArray *gpu_slices, const char *pool, guint k)
{
	g_autofree char *previous = NULL;
	g_autoptr(GPtrArray) slices = NULL;
	HwSlice *nics;

	if (k < 2 || stamp_reference())
		return publish_full(run, node, gpu_slices);
	previous = g_strdup_printf("%s-%u", pool, k - 1);
	slices = g_ptr_array_new();
	nics = node_nics(run, node);
	for (guint i = 0; i < gpu_slices->len; i++)
		g_ptr_array_add(slices, gpu_slices->pdata[i]);
	if (nics != NULL)
		g_ptr_array_add(slices, nics);
	return stamp(run, node, slices, previous) || publish_full(run, node, gpu_slices);
}
