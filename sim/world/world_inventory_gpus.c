/*
 * world_inventory_gpus.c: an imported node's NVIDIA GPUs as model/hw's HwNode.
 *
 * The what-if edits that change GPUs (a MIG layout on a node, a move between
 * the device plugin and DRA) reuse model/hw's publisher and model/xr's view of
 * the catalog's shapes: here the node is read back from what its
 * gpu.nvidia.com devices say (productName, uuid, parentUUID, profile,
 * resource.kubernetes.io/pciBusID and pcieRoot, the `gpu-<minor>` names of
 * the NVIDIA DRA driver, cmd/gpu-kubelet-plugin/deviceinfo.go), so republished
 * devices keep the GPUs' identity.
 */
#include <stdlib.h>
#include <string.h>

#include "hw_api.h"
#include "world-inventory-private.h"

/* GFD's form of a product name: spaces become dashes (k8s-device-plugin
 * internal/lm/resource.go, productLabel). */
static gboolean
product_matches(const char *catalog_name, const char *product)
{
	gsize n = strlen(catalog_name);

	if (strncmp(product, catalog_name, n) != 0) {
		g_autofree char *dashed = g_strdelimit(g_strdup(catalog_name), " ", '-');

		if (strncmp(product, dashed, n) != 0)
			return FALSE;
	}
	return product[n] == '\0' || g_str_has_prefix(product + n, "-MIG-") ||
	       strcmp(product + n, "-SHARED") == 0;
}

const HwGpuModel *
world_inv__gpu_model(const HwCatalog *catalog, const char *product)
{
	const GPtrArray *gpus = hw_catalog_get_gpus(catalog);

	for (guint i = 0; product != NULL && i < gpus->len; i++) {
		const HwGpuModel *m = g_ptr_array_index(gpus, i);

		if (product_matches(m->product_name, product))
			return m;
	}
	return NULL;
}

const char *
world_inv__node_label(const K8sNode *node, const char *key)
{
	for (guint i = 0; i < node->obj.metadata.labels.n; i++)
		if (strcmp(node->obj.metadata.labels.items[i].key, key) == 0)
			return node->obj.metadata.labels.items[i].value;
	return NULL;
}

const char *
world_inv__attr(const K8sDevice *device, const char *domain, const char *name)
{
	for (guint i = 0; i < device->n_attributes; i++) {
		const K8sDeviceAttribute *a = &device->attributes[i];
		const char *n = a->name;

		if (domain != NULL && g_str_has_prefix(n, domain) && n[strlen(domain)] == '/')
			n += strlen(domain) + 1;
		if (strcmp(n, name) == 0)
			return a->type == K8S_ATTR_STRING || a->type == K8S_ATTR_VERSION
			               ? a->string_value
			               : NULL;
	}
	return NULL;
}

const K8sResourceSlice *
world_inv__next_slice(K8sObjectSet *set, const char *node, const char *driver, guint *i)
{
	while (*i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE)) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_SLICE, (*i)++));

		if (g_strcmp0(s->spec.node_name, node) == 0 &&
		    (driver == NULL || g_strcmp0(s->spec.driver, driver) == 0))
			return s;
	}
	return NULL;
}

guint
world_inv__mode_index(const Scenario *sc, const ScenarioMode *mode)
{
	for (guint i = 0; sc->modes != NULL && i < sc->modes->len; i++)
		if (&g_array_index(sc->modes, ScenarioMode, i) == mode)
			return i;
	return 0;
}

void
world_inv__node_init(WorldInvNode *out, const HwGpuModel *model, const char *name, guint n_gpus)
{
	memset(out, 0, sizeof(*out));
	out->shape.id = (char *)"imported";
	out->shape.gpu_model_id = model->id;
	out->shape.gpu_model = model;
	out->shape.synthetic_topology = TRUE;
	out->shape.roots = g_ptr_array_new();
	out->root.root = (char *)"pci0000:00";
	out->root.gpu_bdfs = g_ptr_array_new_with_free_func(g_free);
	out->root.nics = g_array_new(FALSE, TRUE, sizeof(HwShapeNic));
	/* Placeholder addresses, one bus per GPU; devices read from slices get theirs. */
	for (guint i = 0; i < n_gpus; i++)
		g_ptr_array_add(out->root.gpu_bdfs, g_strdup_printf("0000:%02x:00.0", i + 1));
	g_ptr_array_add(out->shape.roots, &out->root);
	out->node = hw_node_new(&out->shape, name);
}

void
world_inv__node_clear(WorldInvNode *inv)
{
	g_clear_pointer(&inv->node, hw_node_free);
	g_clear_pointer(&inv->shape.roots, g_ptr_array_unref);
	g_clear_pointer(&inv->root.gpu_bdfs, g_ptr_array_unref);
	g_clear_pointer(&inv->root.nics, g_array_unref);
}

/* One physical GPU as the devices describe it. */
typedef struct {
	const char *uuid; /* the GPU's (a MIG device's parentUUID) */
	const char *bus_id, *pcie_root;
	guint minor;
	GArray *instances; /* HwMigInstance of MIG devices that exist */
} SeenGpu;

/* "gpu-3", "gpu-3-mig-...": the minor the driver names a device by. */
static gboolean
name_minor(const char *name, guint *minor)
{
	char *end;
	guint64 v;

	if (!g_str_has_prefix(name, "gpu-") || !g_ascii_isdigit(name[4]))
		return FALSE;
	v = g_ascii_strtoull(name + 4, &end, 10);
	if (*end != '\0' && *end != '-')
		return FALSE;
	*minor = (guint)v;
	return TRUE;
}

static SeenGpu *
seen_gpu(GArray *gpus, const char *uuid)
{
	SeenGpu fresh = { uuid, NULL, NULL, gpus->len, NULL };

	for (guint i = 0; i < gpus->len; i++) {
		SeenGpu *g = &g_array_index(gpus, SeenGpu, i);

		if (g_strcmp0(g->uuid, uuid) == 0)
			return g;
	}
	fresh.instances = g_array_new(FALSE, TRUE, sizeof(HwMigInstance));
	g_array_append_val(gpus, fresh);
	return &g_array_index(gpus, SeenGpu, gpus->len - 1);
}

/* The first memory slice a static MIG device holds (its memorySliceN capacities). */
static guint
mig_start(const K8sDevice *d)
{
	guint start = G_MAXUINT;

	for (guint i = 0; i < d->n_capacity; i++)
		if (g_str_has_prefix(d->capacity[i].name, "memorySlice"))
			start = MIN(start,
			            (guint)atoi(d->capacity[i].name + strlen("memorySlice")));
	return start == G_MAXUINT ? 0 : start;
}

static void
see_device(GArray *gpus, const HwGpuModel *model, const K8sDevice *d)
{
	const char *type = world_inv__attr(d, WORLD_INV_NVIDIA, "type");
	gboolean mig = g_strcmp0(type, "mig") == 0;
	const char *uuid = world_inv__attr(d, WORLD_INV_NVIDIA, mig ? "parentUUID" : "uuid");
	SeenGpu *g;
	guint minor;

	if (!mig && g_strcmp0(type, "gpu") != 0)
		return; /* vfio and other types: not a GPU the plugin or a layout counts */
	g = seen_gpu(gpus, uuid != NULL ? uuid : d->name);
	if (name_minor(d->name, &minor))
		g->minor = minor;
	g->bus_id = world_inv__attr(d, "resource.kubernetes.io", "pciBusID");
	if (g->bus_id == NULL)
		g->bus_id = world_inv__attr(d, WORLD_INV_NVIDIA, "pcieBusID");
	g->pcie_root = world_inv__attr(d, "resource.kubernetes.io", "pcieRoot");
	/* A MIG device without a uuid is a DynamicMIG placement, not an instance. */
	if (mig && model->mig != NULL && world_inv__attr(d, WORLD_INV_NVIDIA, "uuid") != NULL) {
		HwMigInstance inst = { hw_gpu_model_lookup_profile(
			                       model,
			                       world_inv__attr(d, WORLD_INV_NVIDIA, "profile")),
			               mig_start(d) };

		if (inst.profile != NULL)
			g_array_append_val(g->instances, inst);
	}
}

static void
replace(char **field, const char *value)
{
	if (value == NULL)
		return;
	g_free(*field);
	*field = g_strdup(value);
}

static void
seen_gpus_free(GArray *gpus)
{
	for (guint i = 0; i < gpus->len; i++)
		g_array_unref(g_array_index(gpus, SeenGpu, i).instances);
	g_array_unref(gpus);
}

/* The first productName of the node's NVIDIA devices. */
static const char *
node_product(K8sObjectSet *set, const char *name)
{
	const K8sResourceSlice *s;

	for (guint i = 0; (s = world_inv__next_slice(set, name, WORLD_INV_NVIDIA, &i));) {
		for (guint d = 0; d < s->spec.n_devices; d++) {
			const char *p = world_inv__attr(&s->spec.devices[d], WORLD_INV_NVIDIA,
			                                "productName");
			if (p != NULL)
				return p;
		}
	}
	return NULL;
}

gboolean
world_inv__node_from_slices(WorldInvNode *out,
                            const HwCatalog *catalog,
                            K8sObjectSet *set,
                            const char *name,
                            char **unknown_product)
{
	const char *product = node_product(set, name);
	const HwGpuModel *model = world_inv__gpu_model(catalog, product);
	const K8sResourceSlice *s;
	GArray *gpus;

	memset(out, 0, sizeof(*out));
	*unknown_product = NULL;
	if (product == NULL)
		return FALSE;
	if (model == NULL) {
		*unknown_product = g_strdup(product);
		return FALSE;
	}
	gpus = g_array_new(FALSE, TRUE, sizeof(SeenGpu));
	for (guint i = 0; (s = world_inv__next_slice(set, name, WORLD_INV_NVIDIA, &i));)
		for (guint d = 0; d < s->spec.n_devices; d++)
			see_device(gpus, model, &s->spec.devices[d]);
	world_inv__node_init(out, model, name, gpus->len);
	for (guint i = 0; i < gpus->len; i++) {
		const SeenGpu *g = &g_array_index(gpus, SeenGpu, i);
		HwGpu *gpu = g_ptr_array_index(out->node->gpus, i);

		gpu->minor = g->minor;
		replace(&gpu->uuid, g->uuid);
		/* interned as hw_node_new() does: HwGpu does not free them */
		if (g->bus_id != NULL)
			gpu->bdf = g_intern_string(g->bus_id);
		if (g->pcie_root != NULL)
			gpu->pcie_root = g_intern_string(g->pcie_root);
		if (g->instances->len > 0) {
			gpu->mig_mode = HW_MIG_MODE_ON;
			g_array_append_vals(gpu->instances, g->instances->data, g->instances->len);
		}
	}
	seen_gpus_free(gpus);
	return out->node->gpus->len > 0;
}

gboolean
world_inv__publish(const WorldInvNode *node,
                   gboolean dynamic_mig,
                   gint64 generation,
                   K8sObjectSet *set,
                   K8sDiagList *diags)
{
	HwPublishOptions options;
	g_autoptr(GPtrArray) slices = NULL;
	g_autofree char *file = g_strdup_printf("<published %s>", node->node->name);
	guint first = k8s_object_set_count(set);

	hw_publish_options_init(&options);
	options.dynamic_mig = dynamic_mig;
	slices = hw_publish_nvidia(node->node, &options);
	if (!hw_load_published(file, NULL, NULL, slices, set, diags))
		return FALSE;
	for (guint i = first; i < k8s_object_set_count(set); i++) {
		K8sResourceSlice *s = k8s_object_as_resource_slice(k8s_object_set_get(set, i));

		if (s != NULL) {
			s->spec.pool.has_generation = TRUE;
			s->spec.pool.generation = generation;
		}
	}
	return TRUE;
}
