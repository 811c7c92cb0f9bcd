/*
 * world_objects.c: the nodes of a scenario whose cluster is given as objects
 * (spec.cluster.objects, docs/import.md section 1). Each Node of the mode's
 * inventory (world_inventory__build()) becomes a ClusterNode from its own
 * status.allocatable, labels and taints; its run-model devices come from what
 * the mode's world shows the scheduler: the node's ResourceSlices as published
 * (dra), or the Node's extended resources (extended). A slice whose nodeName
 * names no Node makes an inferred node with spec.cluster.nodeDefaults. For
 * the fragmentation sampler and the FGD paper's policies, each node's
 * physical GPUs and which GPU each device is (device_gpu,
 * extended_device_gpu; docs/import.md, "GPUs of a node given as objects").
 * Catalog-shape pools are built first (world_run.c), so the sampler's nodes,
 * which need a model/hw node, stay the first nodes of the simulation.
 */
#include <string.h>

#include "cluster_dra.h"
#include "cluster_k8s.h"
#include "world-inventory-private.h"
#include "world-inventory.h"
#include "world-private.h"

/*
 * What a node shows the run model: its devices, their DRA names and
 * device-plugin resources; and, for the fragmentation sampler and the FGD
 * paper's policies, its physical GPUs and which GPU each device is
 * (docs/import.md, "GPUs of a node given as objects").
 */
typedef struct {
	GArray *devices;      /* ClusterDevice */
	GPtrArray *names;     /* char*: DRA device names */
	GPtrArray *resources; /* char*: device-plugin resource of each device */
	GArray *gpus;         /* ScenarioObjectGpu */
	GArray *gpu_of;       /* ScenarioObjectDevice, per device */
	GHashTable *parents;  /* MIG parentUUID -> GPU index + 1 */
	char *unsampled;      /* why the sampler cannot model the GPUs (NULL: it can) */
	char *refused;        /* why the paper's policies cannot score the node (NULL: they can) */
} NodeDevs;

static void
node_devs_init(NodeDevs *d)
{
	d->devices = g_array_new(FALSE, TRUE, sizeof(ClusterDevice));
	d->names = g_ptr_array_new_with_free_func(g_free);
	d->resources = g_ptr_array_new_with_free_func(g_free);
	d->gpus = g_array_new(FALSE, TRUE, sizeof(ScenarioObjectGpu));
	d->gpu_of = g_array_new(FALSE, TRUE, sizeof(ScenarioObjectDevice));
	d->parents = g_hash_table_new(g_str_hash, g_str_equal);
	d->unsampled = NULL;
	d->refused = NULL;
}

static void
node_devs_clear(NodeDevs *d)
{
	g_array_unref(d->devices);
	g_ptr_array_unref(d->names);
	g_ptr_array_unref(d->resources);
	g_array_unref(d->gpus);
	g_array_unref(d->gpu_of);
	g_hash_table_unref(d->parents);
	g_free(d->unsampled);
	g_free(d->refused);
}

/* The first reason wins: one is enough to say why. */
static void
node_devs_unsampled(NodeDevs *d, char *why)
{
	if (d->unsampled == NULL)
		d->unsampled = why;
	else
		g_free(why);
}

static void
node_devs_refused(NodeDevs *d, char *why)
{
	if (d->refused == NULL)
		d->refused = why;
	else
		g_free(why);
}

/* "NVIDIA A100-SXM4-40GB" (driver) and "NVIDIA-A100-SXM4-40GB" (GFD) are one product. */
static gboolean
same_product(const char *a, const char *b)
{
	for (; *a != '\0' && *b != '\0'; a++, b++) {
		char x = *a == ' ' ? '-' : g_ascii_tolower(*a);
		char y = *b == ' ' ? '-' : g_ascii_tolower(*b);

		if (x != y)
			return FALSE;
	}
	return *a == '\0' && *b == '\0';
}

/* The catalog GPU whose product name is @product, or NULL. */
const HwGpuModel *
scenario_objects__gpu_model(const HwCatalog *catalog, const char *product)
{
	const GPtrArray *gpus = hw_catalog_get_gpus(catalog);

	for (guint i = 0; product != NULL && i < gpus->len; i++) {
		const HwGpuModel *m = gpus->pdata[i];

		if (m->product_name != NULL && same_product(m->product_name, product))
			return m;
	}
	return NULL;
}

/* @n names @name: bare ("memory") or qualified with the slice's driver ("gpu.nvidia.com/memory").
 */
static gboolean
names_field(const char *n, const char *driver, const char *name)
{
	gsize dl = strlen(driver);

	return strcmp(n, name) == 0 ||
	       (strncmp(n, driver, dl) == 0 && n[dl] == '/' && strcmp(n + dl + 1, name) == 0);
}

static const K8sDeviceAttribute *
device_attr(const K8sDevice *dev, const char *driver, const char *name)
{
	for (guint i = 0; i < dev->n_attributes; i++)
		if (names_field(dev->attributes[i].name, driver, name))
			return &dev->attributes[i];
	return NULL;
}

static const K8sDeviceCapacity *
device_capacity(const K8sDevice *dev, const char *driver, const char *name)
{
	for (guint i = 0; i < dev->n_capacity; i++)
		if (names_field(dev->capacity[i].name, driver, name))
			return &dev->capacity[i];
	return NULL;
}

static const char *
attr_string(const K8sDevice *dev, const char *driver, const char *name)
{
	const K8sDeviceAttribute *a = device_attr(dev, driver, name);

	return a != NULL && a->type == K8S_ATTR_STRING ? a->string_value : NULL;
}

static gint64
attr_int(const K8sDevice *dev, const char *driver, const char *name, gint64 fallback)
{
	const K8sDeviceAttribute *a = device_attr(dev, driver, name);

	return a != NULL && a->type == K8S_ATTR_INT ? a->int_value : fallback;
}

/* A static MIG instance's first memory slice: its lowest memorySlice<N> capacity. */
static gboolean
mig_first_slice(const K8sDevice *dev, const char *driver, guint *start)
{
	guint64 first = G_MAXUINT64;

	for (guint i = 0; i < dev->n_capacity; i++) {
		const char *n = dev->capacity[i].name;

		if (g_str_has_prefix(n, driver) && n[strlen(driver)] == '/')
			n += strlen(driver) + 1;
		if (g_str_has_prefix(n, "memorySlice") && g_ascii_isdigit(n[11]))
			first = MIN(first, g_ascii_strtoull(n + 11, NULL, 10));
	}
	*start = first < 32 ? (guint)first : 0;
	return first < 32;
}

/* The GPU a static MIG instance is part of (one per parentUUID), or G_MAXUINT with the reason. */
static guint
mig_parent_gpu(WorldRun *run, const char *driver, const K8sDevice *dev, NodeDevs *out)
{
	const char *parent = attr_string(dev, driver, "parentUUID");
	const char *product = attr_string(dev, driver, "productName");
	const char *profile = attr_string(dev, driver, "profile");
	const HwGpuModel *model = scenario_objects__gpu_model(run->env.sc->catalog, product);
	guint start;
	gpointer index;

	if (parent == NULL || profile == NULL || model == NULL ||
	    hw_gpu_model_lookup_profile(model, profile) == NULL ||
	    !mig_first_slice(dev, driver, &start)) {
		node_devs_unsampled(
		        out, g_strdup_printf("MIG device %s: its GPU is not known (parentUUID, a "
		                             "catalog productName with its profile, and the "
		                             "memorySlice<N> capacities are needed)",
		                             dev->name));
		return G_MAXUINT;
	}
	if (!g_hash_table_lookup_extended(out->parents, parent, NULL, &index)) {
		ScenarioObjectGpu g = { model, product,
			                (guint)attr_int(dev, driver, "parentIndex", out->gpus->len),
			                TRUE };

		index = GUINT_TO_POINTER(out->gpus->len + 1);
		g_hash_table_insert(out->parents, (gpointer)parent, index);
		g_array_append_val(out->gpus, g);
	}
	return GPOINTER_TO_UINT(index) - 1;
}

/*
 * Which physical GPU @dev is, for the fragmentation sampler and the paper's
 * policies: a device of a GPU driver that is not an NVIDIA MIG instance is one
 * whole GPU (its `minor` attribute names it, else its order; its model the
 * catalog's of `productName`, when there); a static MIG instance is part of
 * the GPU its `parentUUID` names. A device that shares counters
 * (DynamicMIG's partitionable devices) or allows several allocations
 * (consumable capacity) is no whole GPU either: the sampler leaves the
 * cluster's figure out and the policies refuse the node, each saying why.
 */
static void
device_gpu(WorldRun *run, const char *driver, const K8sDevice *dev, gboolean mig, NodeDevs *out)
{
	ScenarioObjectDevice od = { G_MAXUINT, NULL, 0 };

	if (dev->n_consumes_counters > 0 || dev->allow_multiple_allocations) {
		char *why = g_strdup_printf(
		        "device %s %s", dev->name,
		        dev->n_consumes_counters > 0
		                ? "consumes shared counters (a partitionable device, as DynamicMIG "
		                  "publishes): which GPU share it takes is known only once "
		                  "allocated"
		                : "allows multiple allocations (consumable capacity), which the "
		                  "per-GPU model does not follow");

		node_devs_refused(out, g_strdup(why));
		node_devs_unsampled(out, why);
	} else if (mig) {
		node_devs_refused(out, g_strdup_printf("publishes MIG device %s, which is not a "
		                                       "share of one GPU",
		                                       dev->name));
		od.gpu = mig_parent_gpu(run, driver, dev, out);
		od.profile = attr_string(dev, driver, "profile");
		mig_first_slice(dev, driver, &od.start);
	} else {
		const char *product = attr_string(dev, driver, "productName");
		ScenarioObjectGpu g = { scenario_objects__gpu_model(run->env.sc->catalog, product),
			                product, 0, FALSE };

		g.minor = (guint)attr_int(dev, driver, "minor", out->gpus->len);
		od.gpu = out->gpus->len;
		g_array_append_val(out->gpus, g);
	}
	g_array_append_val(out->gpu_of, od);
}

/*
 * One published device as the run model sees it: exclusive, its `memory`
 * capacity when published, compute 1.0; an NVIDIA MIG device (type=mig) has
 * the share of its parent's SMs its `multiprocessors` capacity says, the
 * parent a catalog GPU found by the `productName` attribute.
 */
static void
slice_device(WorldRun *run, const char *driver, const K8sDevice *dev, NodeDevs *out)
{
	const K8sDeviceCapacity *mem = device_capacity(dev, driver, "memory");
	const char *type = attr_string(dev, driver, "type");
	gboolean mig = strcmp(driver, "gpu.nvidia.com") == 0 && g_strcmp0(type, "mig") == 0;
	ClusterDevice d = { CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_DEFAULT, 1.0,
		            mem != NULL ? k8s_quantity_value(&mem->value.value) : 0, mig };

	if (mig) {
		const K8sDeviceCapacity *sms = device_capacity(dev, driver, "multiprocessors");
		const char *product = attr_string(dev, driver, "productName");
		const HwGpuModel *model =
		        scenario_objects__gpu_model(run->env.sc->catalog, product);

		if (sms != NULL && model != NULL && model->sms > 0)
			d.capacity = MIN(1.0, (double)k8s_quantity_value(&sms->value.value) /
			                              model->sms);
		else
			scenario_note__add(run->result->notes, dev->name, "MIG compute",
			                   "the parent GPU (productName) is not in the catalog or "
			                   "multiprocessors is not published: compute 1.0");
	}
	g_array_append_val(out->devices, d);
	g_ptr_array_add(out->names, g_strdup(dev->name));
	g_ptr_array_add(out->resources, g_strdup(driver));
	device_gpu(run, driver, dev, mig, out);
	/* physical GPUs: the whole GPUs of GPU drivers (gpu.nvidia.com, gpu.amd.com,
	 * gpu.intel.com); a MIG device's parent is counted once (count_mig_parent) */
	if (!mig && g_str_has_prefix(driver, "gpu.")) {
		run->physical_gpus++;
		run->physical_mem += d.mem_bytes;
	}
}

/* MIG parents count once each (parentUUID), with the catalog memory of their model. */
static void
count_mig_parent(WorldRun *run, GHashTable *parents, const char *driver, const K8sDevice *dev)
{
	const char *parent = attr_string(dev, driver, "parentUUID");
	const HwGpuModel *model;

	if (parent == NULL || g_strcmp0(attr_string(dev, driver, "type"), "mig") != 0 ||
	    !g_hash_table_add(parents, (gpointer)parent))
		return;
	model = scenario_objects__gpu_model(run->env.sc->catalog,
	                                    attr_string(dev, driver, "productName"));
	run->physical_gpus++;
	run->physical_mem += model != NULL ? (gint64)model->memory_mib << 20 : 0;
}

/*
 * DRA world: the devices of GPU drivers (gpu.nvidia.com, gpu.amd.com,
 * gpu.intel.com: the driver names of the gpu.* family) in the slices published
 * for @node are the run model's compute devices. Other drivers' devices (NICs of
 * dra.net, ComputeDomain channels) are still allocated by the allocator, but,
 * as the NICs of catalog shapes, they run no work and do not count as GPUs.
 */
static void
dra_node_devices(WorldRun *run, const K8sObjectSet *set, const char *node, NodeDevs *out)
{
	g_autoptr(GHashTable) parents = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_SLICE, i));

		if (g_strcmp0(s->spec.node_name, node) != 0 || s->spec.driver == NULL ||
		    !g_str_has_prefix(s->spec.driver, "gpu."))
			continue;
		for (guint k = 0; k < s->spec.n_devices; k++) {
			slice_device(run, s->spec.driver, &s->spec.devices[k], out);
			count_mig_parent(run, parents, s->spec.driver, &s->spec.devices[k]);
		}
	}
}

/*
 * Memory of one of the node's GPUs as the device plugin world knows it: GFD's
 * nvidia.com/gpu.memory (MiB), else the catalog model of nvidia.com/gpu.product,
 * else unknown (0, with a note).
 */
static gint64
gfd_gpu_memory(WorldRun *run, const K8sNode *node, const HwGpuModel **model)
{
	const char *mib = world_inv__node_label(node, "nvidia.com/gpu.memory");

	*model = scenario_objects__gpu_model(run->env.sc->catalog,
	                                     world_inv__node_label(node, "nvidia.com/gpu.product"));
	if (mib != NULL && g_ascii_strtoll(mib, NULL, 10) > 0)
		return g_ascii_strtoll(mib, NULL, 10) << 20;
	if (*model != NULL)
		return (gint64)(*model)->memory_mib << 20;
	scenario_note__add(run->result->notes, node->obj.metadata.name, "GPU memory",
	                   "no nvidia.com/gpu.memory label and nvidia.com/gpu.product is not in "
	                   "the catalog: GPU memory unknown (0)");
	return 0;
}

/*
 * A number GFD labels a MIG profile with on a mixed-strategy node
 * (nvidia.com/mig-<profile>.memory in MiB, .multiprocessors), or 0 when absent.
 * The node reports what its driver measured, so it wins over the catalog's row
 * (NVIDIA/k8s-device-plugin internal/lm/resource.go, newMigAttributeLabels: one
 * label per attribute of the MIG device).
 */
static gint64
gfd_mig_label(const K8sNode *node, const char *profile, const char *what)
{
	g_autofree char *key = g_strdup_printf("nvidia.com/mig-%s.%s", profile, what);
	const char *value = world_inv__node_label(node, key);

	return value != NULL ? MAX(g_ascii_strtoll(value, NULL, 10), 0) : 0;
}

/* A MIG device's memory and compute: GFD's labels, else the catalog profile's. */
static void
mig_device_size(WorldRun *run,
                const K8sNode *node,
                const char *resource,
                const HwGpuModel *model,
                ClusterDevice *d)
{
	const char *profile = resource + strlen("nvidia.com/mig-");
	const HwMigProfile *p = model != NULL ? hw_gpu_model_lookup_profile(model, profile) : NULL;
	gint64 mib = gfd_mig_label(node, profile, "memory");
	gint64 sms = gfd_mig_label(node, profile, "multiprocessors");

	if (mib == 0 && p != NULL)
		mib = p->memory_mib;
	if (sms == 0 && p != NULL)
		sms = p->sms;
	d->mem_bytes = mib << 20;
	if (sms > 0 && model != NULL && model->sms > 0)
		d->capacity = MIN(1.0, (double)sms / model->sms);
	if (p == NULL)
		scenario_note__add(run->result->notes, resource, "MIG profile",
		                   mib > 0 ? "not a profile of the catalog GPU of "
		                             "nvidia.com/gpu.product: compute 1.0, memory "
		                             "from the node's GFD label"
		                           : "not a profile of the catalog GPU of "
		                             "nvidia.com/gpu.product: compute 1.0, memory unknown");
}

/* One device of an extended resource: nvidia.com/gpu or nvidia.com/mig-<profile>. */
static void
extended_device(WorldRun *run,
                const K8sNode *node,
                const char *resource,
                gint64 gpu_mem,
                const HwGpuModel *model,
                NodeDevs *out)
{
	const char *profile = g_str_has_prefix(resource, "nvidia.com/mig-") ? resource + 15 : NULL;
	ClusterShareMode shared = CLUSTER_SHARE_EXCLUSIVE;
	ClusterDevice d;

	if (profile == NULL && run->env.mode->xr.replicas > 1)
		shared = run->env.mode->xr.sharing == XR_SHARING_MPS ? CLUSTER_SHARE_MPS
		                                                     : CLUSTER_SHARE_TIME_SLICE;
	d = (ClusterDevice){ shared, CLUSTER_INTERVAL_DEFAULT, 1.0, gpu_mem, profile != NULL };
	if (profile != NULL)
		mig_device_size(run, node, resource, model, &d);
	g_array_append_val(out->devices, d);
	g_ptr_array_add(out->names,
	                g_strdup_printf("%s-%u", profile ? profile : "gpu", out->devices->len - 1));
	g_ptr_array_add(out->resources, g_strdup(resource));
}

/*
 * Which GPU a device-plugin device is: each nvidia.com/gpu device one whole
 * GPU (its model the catalog's of GFD's nvidia.com/gpu.product). An
 * nvidia.com/mig-<profile> device names no parent GPU nor placement, so the
 * sampler cannot tell its GPUs' free slices (no figure, with a note), and the
 * policies refuse the node.
 */
static void
extended_device_gpu(const K8sNode *node,
                    const char *resource,
                    const HwGpuModel *model,
                    NodeDevs *out)
{
	ScenarioObjectDevice od = { G_MAXUINT, NULL, 0 };

	if (strcmp(resource, "nvidia.com/gpu") == 0) {
		ScenarioObjectGpu g = { model,
			                world_inv__node_label(node, "nvidia.com/gpu.product"),
			                out->gpus->len, FALSE };

		od.gpu = out->gpus->len;
		g_array_append_val(out->gpus, g);
	} else {
		node_devs_unsampled(out, g_strdup_printf("advertises %s, whose devices name no "
		                                         "parent GPU nor placement",
		                                         resource));
		node_devs_refused(out, g_strdup_printf("advertises MIG instances (%s), which are "
		                                       "not shares of one GPU",
		                                       resource));
	}
	g_array_append_val(out->gpu_of, od);
}

/*
 * nvidia.com/gpu.replicas (GFD, time-slicing or MPS sharing): the device plugin
 * advertises each GPU that many times, so N allocatable are N / replicas GPUs.
 * How they are shared is the mode's `sharing:` (the labels do not say it all).
 */
static gint64
gfd_replicas(WorldRun *run, const K8sNode *node, NodeDevs *out)
{
	const char *label = world_inv__node_label(node, "nvidia.com/gpu.replicas");
	gint64 r = label != NULL ? g_ascii_strtoll(label, NULL, 10) : 1;

	if (r > 1)
		node_devs_refused(out, g_strdup_printf("shares its GPUs through the device plugin "
		                                       "(nvidia.com/gpu.replicas %" G_GINT64_FORMAT
		                                       "): a replica is an advertised unit, not a "
		                                       "measured share of a GPU",
		                                       r));

	if (r > 1 && (guint)r != run->env.mode->xr.replicas)
		scenario_note__add(run->result->notes, node->obj.metadata.name,
		                   "nvidia.com/gpu.replicas",
		                   "the node's GPUs are shared by the device plugin; the mode's "
		                   "sharing.replicas differs, and the run model follows the mode");
	return MAX(r, 1);
}

/* Extended world: N of nvidia.com/gpu or nvidia.com/mig-<profile> allocatable, N devices. */
static void
extended_node_devices(WorldRun *run, const K8sNode *node, NodeDevs *out)
{
	const K8sQtyMap *alloc = node->allocatable.n > 0 ? &node->allocatable : &node->capacity;
	const HwGpuModel *model = NULL;
	gint64 gpu_mem = -1;

	for (guint i = 0; i < alloc->n; i++) {
		const char *res = alloc->items[i].key;
		gint64 n = k8s_quantity_value(&alloc->items[i].value.value);
		gboolean whole = strcmp(res, "nvidia.com/gpu") == 0;

		if (!whole && !g_str_has_prefix(res, "nvidia.com/mig-"))
			continue;
		if (gpu_mem < 0)
			gpu_mem = gfd_gpu_memory(run, node, &model);
		if (whole)
			n /= gfd_replicas(run, node, out);
		n = CLAMP(n, 0, 64); /* the run model's limit per resource and node */
		for (gint64 k = 0; k < n; k++) {
			extended_device(run, node, res, gpu_mem, model, out);
			extended_device_gpu(node, res, model, out);
		}
		if (whole) {
			run->physical_gpus += (guint)n;
			run->physical_mem += n * gpu_mem;
		}
	}
}

/* The ClusterNode of a node known only from slices' nodeName: nodeDefaults, else unlimited. */
static ClusterNode *
inferred_node(const Scenario *sc, const char *name)
{
	ClusterNode *n = cluster_node_new(name);
	const ScenarioNodeDefaults *d = &sc->node_defaults;
	/* unlimited: 2^50 (a PiB, 10^12 cores), small enough that the scorers'
	 * (capacity - requested) * 100 cannot overflow */
	const gint64 unlimited = (gint64)1 << 50;

	n->allocatable.v[CLUSTER_RES_CPU] = d->cpu_milli >= 0 ? d->cpu_milli : unlimited;
	n->allocatable.v[CLUSTER_RES_MEMORY] = d->memory >= 0 ? d->memory : unlimited;
	n->allocatable.v[CLUSTER_RES_PODS] = d->pods >= 0 ? d->pods : 110;
	cluster_node_set_label(n, "kubernetes.io/hostname", name);
	return n;
}

/* The sampler's view of the node: its GPUs, or why it has none (a note, and no figure). */
static void
sample_node(WorldRun *run, const char *name, const NodeDevs *d)
{
	if (d->unsampled != NULL) {
		g_autofree char *why = g_strdup_printf(
		        "%s: no GPU fragmentation figure for the mode (docs/import.md)",
		        d->unsampled);

		/* the first such node says why; one is enough to leave the figure out */
		if (!run->unsampled_noted)
			scenario_note__add(run->result->notes, name, "fragmentation", why);
		run->unsampled_noted = TRUE;
		scenario_sample__add_unsampled_node(run->sampler, name);
		return;
	}
	scenario_sample__add_object_node(
	        run->sampler, name, (const ScenarioObjectGpu *)d->gpus->data, d->gpus->len,
	        (const ScenarioObjectDevice *)d->gpu_of->data, d->gpu_of->len);
}

/* Adds @cnode with its devices to the simulation, the placement, the allocator and the sampler. */
static gboolean
add_node(WorldRun *run, ClusterNode *cnode, NodeDevs *d, GError **error)
{
	const char *name = cnode->name;

	/* the paper's policies: the node's GPU devices are its GPUs (DRA), or its
	 * nvidia.com/gpu count (extended), as for catalog nodes */
	if (run->gpushare != NULL &&
	    !scenario_gpushare__add_object_node(run->gpushare, cnode, d->devices->len, d->refused,
	                                        run->env.diags)) {
		g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD,
		            "node %s: the mode's policy cannot score it", name);
		cluster_node_free(cnode);
		return FALSE;
	}
	if (run->env.place != NULL)
		scenario_place__add_node(run->env.place, name, d->resources,
		                         run->env.mode->xr.replicas > 1);
	if (run->env.dra != NULL)
		cluster_dra_set_node_devices(run->env.dra, name,
		                             (const char *const *)d->names->pdata, d->names->len);
	cluster_sim_add_node(run->env.sim, cnode, (ClusterDevice *)d->devices->data,
	                     d->devices->len);
	sample_node(run, name, d);
	return TRUE;
}

/* Slices naming no Node: one inferred node per name, in slice order; one warning. */
static gboolean
add_inferred_nodes(WorldRun *run, const K8sObjectSet *set, GHashTable *known, GError **error)
{
	g_autoptr(GString) names = g_string_new(NULL);
	guint n = 0;

	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_SLICE, i));
		const char *node = s->spec.node_name;
		NodeDevs d;
		gboolean ok;

		if (node == NULL || node[0] == '\0' || !g_hash_table_add(known, (gpointer)node))
			continue;
		node_devs_init(&d);
		if (run->env.dra != NULL)
			dra_node_devices(run, set, node, &d);
		ok = add_node(run, inferred_node(run->env.sc, node), &d, error);
		node_devs_clear(&d);
		if (!ok)
			return FALSE;
		g_string_append_printf(names, "%s%s", n++ > 0 ? ", " : "", node);
	}
	if (n > 0)
		scenario_note__add(run->result->notes, names->str, "inferred nodes",
		                   "no Node object: nodes made from the ResourceSlices' nodeName "
		                   "with spec.cluster.nodeDefaults (unlimited CPU and memory when "
		                   "unset; docs/import.md section 1)");
	return TRUE;
}

/* DRA world: every slice of the inventory goes to the allocator as written. */
static void
add_slices(WorldRun *run, const K8sObjectSet *set)
{
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_SLICE, i));

		/*
		 * Pools keep generation and resourceSliceCount: per node, the
		 * allocator keeps the highest generation of a pool and treats a pool
		 * with fewer slices than resourceSliceCount as incomplete, as 1.34
		 * does (model/dra/dra_pools.c, after k8s.io/dynamic-resource-
		 * allocation structured/internal/experimental/pools_experimental.go).
		 */
		cluster_dra_add_slice(run->env.dra, s);
		if (s->spec.node_name == NULL && s->spec.n_devices > 0)
			scenario_note__add(run->result->notes, s->obj.metadata.name,
			                   "node-independent pool",
			                   "allocatable on the nodes its selector names; the run "
			                   "model runs no work on its devices (reported as other "
			                   "devices)");
	}
	/* the inventory's DeviceClasses join the run's with the chart's (world_classes.c) */
}

gboolean
scenario_objects__add_nodes(WorldRun *run, GError **error)
{
	g_autoptr(GHashTable) known = g_hash_table_new(g_str_hash, g_str_equal);
	WorldInventory inv = { 0 };
	gboolean ok = TRUE;

	if (run->env.sc->inventory_paths == NULL)
		return TRUE;
	if (!world_inventory__build(run->env.sc, run->env.mode, &inv, run->result->notes,
	                            run->env.diags, error))
		return FALSE;
	for (guint i = 0; ok && i < k8s_object_set_count_kind(inv.set, K8S_KIND_NODE); i++) {
		const K8sNode *kn =
		        k8s_object_as_node(k8s_object_set_get_kind(inv.set, K8S_KIND_NODE, i));
		ClusterNode *cnode = cluster_k8s_node_new(kn, run->env.names, run->env.diags);
		NodeDevs d;

		if (cnode == NULL || !g_hash_table_add(known, (gpointer)kn->obj.metadata.name)) {
			g_clear_pointer(&cnode, cluster_node_free);
			continue; /* its error is in the diagnostics; populate() fails */
		}
		/* what kubelet sets; bound imported pods are pinned by it (world_start.c) */
		if (cluster_node_get_label(cnode, "kubernetes.io/hostname") == NULL)
			cluster_node_set_label(cnode, "kubernetes.io/hostname", cnode->name);
		node_devs_init(&d);
		if (run->env.dra != NULL)
			dra_node_devices(run, inv.set, kn->obj.metadata.name, &d);
		else
			extended_node_devices(run, kn, &d);
		ok = add_node(run, cnode, &d, error);
		node_devs_clear(&d);
	}
	if (ok)
		ok = add_inferred_nodes(run, inv.set, known, error);
	if (ok && run->env.dra != NULL)
		add_slices(run, inv.set);
	/* the allocator borrows the slices: the run keeps them */
	if (ok) {
		run->inventory = g_steal_pointer(&inv.set);
		run->unpinned = g_ptr_array_new_with_free_func(g_free);
		for (guint i = 0; i < inv.gone->len; i++)
			g_ptr_array_add(run->unpinned, g_strdup(inv.gone->pdata[i]));
		for (guint i = 0; i < inv.drained->len; i++)
			g_ptr_array_add(run->unpinned, g_strdup(inv.drained->pdata[i]));
	}
	world_inventory__clear(&inv);
	return ok;
}
