/*
 * hw_publish_nvidia.c: the ResourceSlices that NVIDIA's DRA driver (gpu.nvidia.com)
 * publishes for a node, following nvidia-hw.md 1.2-1.4 and the driver sources named
 * there (cmd/gpu-kubelet-plugin, v25.12.0 and later unless HW_NAMING_V25_3).
 *
 * Classic mode: one slice, pool = node name, a full GPU `gpu-<minor>` per MIG-off GPU
 * and only the existing MIG devices of MIG-on GPUs (a MIG-on GPU without instances
 * contributes nothing). DynamicMIG: per GPU a counter set `gpu-<minor>-counter-set`,
 * the full GPU consuming every counter, and one device per (profile, placement)
 * consuming its engines and memory-slice-N counters.
 */
#include <stdlib.h>
#include <string.h>

#include "hw-private.h"

#define DRIVER     "gpu.nvidia.com"
#define PCIE_ROOT  "resource.kubernetes.io/pcieRoot"
#define PCI_BUS_ID "resource.kubernetes.io/pciBusID"

void
hw_publish_options_init(HwPublishOptions *out)
{
	/* Versions of the live p4d slice quoted in nvidia-hw.md 1.10. */
	*out = (HwPublishOptions){ FALSE, FALSE, HW_NAMING_V25_12, "580.126.9", "13.0.0" };
}

/*
 * The DeviceClasses the driver's Helm chart installs with its default values
 * (resources.gpus.enabled and resources.computeDomains.enabled both true), as of
 * v25.12.0: deployments/helm/nvidia-dra-driver-gpu/templates/deviceclass-*.yaml.
 * With resource.k8s.io/v1 served, gpu.nvidia.com also maps nvidia.com/gpu
 * (KEP-5004). drasim models no vfio or ComputeDomain devices, so the last three
 * select nothing here, but they exist and claims may name them.
 */
#define CHART_TEMPLATES "deployments/helm/nvidia-dra-driver-gpu/templates/"
static const HwDeviceClass nvidia_classes[] = {
	{ "gpu.nvidia.com",
	  "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'",
	  "nvidia.com/gpu", CHART_TEMPLATES "deviceclass-gpu.yaml" },
	{ "mig.nvidia.com",
	  "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'mig'",
	  NULL, CHART_TEMPLATES "deviceclass-mig.yaml" },
	{ "vfio.gpu.nvidia.com",
	  "device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'vfio'",
	  NULL, CHART_TEMPLATES "deviceclass-vfio-gpu.yaml" },
	{ "compute-domain-daemon.nvidia.com",
	  "device.driver == 'compute-domain.nvidia.com' && "
	  "device.attributes['compute-domain.nvidia.com'].type == 'daemon'",
	  NULL, CHART_TEMPLATES "deviceclass-compute-domain-daemon.yaml" },
	{ "compute-domain-default-channel.nvidia.com",
	  "device.driver == 'compute-domain.nvidia.com' && "
	  "device.attributes['compute-domain.nvidia.com'].type == 'channel' && "
	  "device.attributes['compute-domain.nvidia.com'].id == 0",
	  NULL, CHART_TEMPLATES "deviceclass-compute-domain-default-channel.yaml" },
	{ NULL, NULL, NULL, NULL },
};

const HwDeviceClass *
hw_nvidia_device_classes(void)
{
	return nvidia_classes;
}

/* Attributes every device of a physical GPU carries (full GPU and its MIG devices). */
static void
add_common_attrs(HwDevice *device, const HwGpu *gpu, const HwPublishOptions *options)
{
	const HwGpuModel *model = gpu->model;
	HwText cc;

	hw__text_init(&cc);
	hw__text_add_uint(&cc, model->cc_major);
	hw__text_add(&cc, ".");
	hw__text_add_uint(&cc, model->cc_minor);
	hw__text_add(&cc, ".0");
	hw_device__attr_string(device, "productName", model->product_name);
	hw_device__attr_string(device, "brand", model->brand);
	hw_device__attr_string(device, "architecture", model->architecture);
	hw_device__attr_version(device, "cudaComputeCapability", cc.str);
	hw__text_clear(&cc);
	hw_device__attr_version(device, "driverVersion", options->driver_version);
	hw_device__attr_version(device, "cudaDriverVersion", options->cuda_driver_version);
	if (options->naming == HW_NAMING_V25_3) {
		/* Before v25.12.0 the bus id was the driver's own attribute. */
		hw_device__attr_string(device, "pcieBusID", gpu->bdf);
	} else {
		hw_device__attr_string(device, PCI_BUS_ID, gpu->bdf);
	}
	hw_device__attr_string(device, PCIE_ROOT, gpu->pcie_root);
}

static HwDevice *
full_gpu_new(const HwGpu *gpu, const HwPublishOptions *options)
{
	HwText name;
	HwDevice *device;

	hw__text_init(&name);
	hw__text_add(&name, "gpu-");
	hw__text_add_uint(&name, gpu->minor);
	device = hw_device__new(name.str);
	hw__text_clear(&name);
	hw_device__attr_string(device, "type", "gpu");
	hw_device__attr_string(device, "uuid", gpu->uuid);
	add_common_attrs(device, gpu, options);
	if (options->naming == HW_NAMING_V25_3) {
		hw_device__attr_int(device, "index", gpu->minor);
		hw_device__attr_int(device, "minor", gpu->minor);
	}
	return device;
}

static char *
mig_device_name(const HwGpu *gpu, const HwMigInstance *inst, HwNaming naming)
{
	g_autofree char *dns = hw_mig_profile_dns_name(inst->profile);

	if (naming == HW_NAMING_V25_3) {
		return g_strdup_printf("gpu-%u-mig-%u-%u-%u", gpu->minor,
		                       inst->profile->gi_profile_id, inst->start,
		                       inst->profile->size);
	}
	return g_strdup_printf("gpu-%u-mig-%s-%u-%u", gpu->minor, dns, inst->profile->gi_profile_id,
	                       inst->start);
}

static void
add_profile_capacity(GArray *capacity, const HwMigProfile *p)
{
	hw_qty__append(capacity, "multiprocessors", p->sms, HW_QTY_DECIMAL);
	hw_qty__append(capacity, "copyEngines", p->copy_engines, HW_QTY_DECIMAL);
	hw_qty__append(capacity, "decoders", p->decoders, HW_QTY_DECIMAL);
	hw_qty__append(capacity, "encoders", p->encoders, HW_QTY_DECIMAL);
	hw_qty__append(capacity, "jpegEngines", p->jpeg, HW_QTY_DECIMAL);
	hw_qty__append(capacity, "ofaEngines", p->ofa, HW_QTY_DECIMAL);
	hw_qty__append(capacity, "memory", (gint64)p->memory_mib << 20, HW_QTY_BINARY);
}

/* A static MIG device's uuid: a hash of its GPU's uuid and its start slice. */
static char *
mig_uuid(const HwGpu *gpu, guint start)
{
	HwText seed;
	char *uuid;

	hw__text_init(&seed);
	hw__text_add(&seed, gpu->uuid);
	hw__text_add(&seed, "/");
	hw__text_add_uint(&seed, start);
	uuid = hw__uuid("MIG-", seed.str);
	hw__text_clear(&seed);
	return uuid;
}

static HwDevice *
mig_device_new(const HwGpu *gpu,
               const HwMigInstance *inst,
               gboolean dynamic,
               const HwPublishOptions *options)
{
	g_autofree char *name = mig_device_name(gpu, inst, options->naming);
	HwDevice *device = hw_device__new(name);

	hw_device__attr_string(device, "type", "mig");
	if (!dynamic) {
		/* A dynamic device has no UUID until it is created at prepare time. */
		g_autofree char *uuid = mig_uuid(gpu, inst->start);

		hw_device__attr_string(device, "uuid", uuid);
	}
	hw_device__attr_string(device, "parentUUID", gpu->uuid);
	hw_device__attr_string(device, "profile", inst->profile->name);
	add_common_attrs(device, gpu, options);
	if (options->naming == HW_NAMING_V25_3) {
		hw_device__attr_int(device, "parentIndex", gpu->minor);
	}
	add_profile_capacity(device->capacity, inst->profile);
	if (!dynamic) {
		for (guint s = inst->start; s < inst->start + inst->profile->size; s++) {
			g_autofree char *slice = g_strdup_printf("memorySlice%u", s);
			hw_qty__append(device->capacity, slice, 1, HW_QTY_DECIMAL);
		}
	}
	return device;
}

static void
publish_static(const HwNode *node, const HwPublishOptions *options, GPtrArray *out)
{
	HwSlice *slice = hw_slice__new(DRIVER, node->name, 0);

	for (guint i = 0; i < node->gpus->len; i++) {
		const HwGpu *gpu = g_ptr_array_index(node->gpus, i);

		if (gpu->mig_mode == HW_MIG_MODE_OFF) {
			HwDevice *device = full_gpu_new(gpu, options);

			hw_qty__append(device->capacity, "memory",
			               (gint64)gpu->model->memory_mib << 20, HW_QTY_BINARY);
			g_ptr_array_add(slice->devices, device);
			continue;
		}
		/* MIG on (or pending): only instances that exist; none means stranded. */
		for (guint k = 0; gpu->mig_mode == HW_MIG_MODE_ON && k < gpu->instances->len; k++) {
			g_ptr_array_add(
			        slice->devices,
			        mig_device_new(gpu,
			                       &g_array_index(gpu->instances, HwMigInstance, k),
			                       FALSE, options));
		}
	}
	g_ptr_array_add(out, slice);
}

/* ---- DynamicMIG ---- */

typedef struct {
	const char *counter;
	guint offset;
} EngineCounter;

/* Capacity names converted to DNS counter names, as the driver does. */
static const EngineCounter engine_counters[] = {
	{ "multiprocessors", G_STRUCT_OFFSET(HwMigProfile, sms) },
	{ "copy-engines", G_STRUCT_OFFSET(HwMigProfile, copy_engines) },
	{ "decoders", G_STRUCT_OFFSET(HwMigProfile, decoders) },
	{ "encoders", G_STRUCT_OFFSET(HwMigProfile, encoders) },
	{ "jpeg-engines", G_STRUCT_OFFSET(HwMigProfile, jpeg) },
	{ "ofa-engines", G_STRUCT_OFFSET(HwMigProfile, ofa) },
};

static guint
engine_value(const HwMigProfile *p, guint i)
{
	return G_STRUCT_MEMBER(guint, p, engine_counters[i].offset);
}

/* The counter set: each engine counter at its maximum over all profiles (the 7g
 * profile's values in practice), memory likewise, plus one memory-slice-N per slice. */
static HwMigProfile
max_profile(const HwGpuModel *model)
{
	HwMigProfile max = { 0 };

	for (guint i = 0; i < model->mig->profiles->len; i++) {
		const HwMigProfile *p = g_ptr_array_index(model->mig->profiles, i);

		for (guint e = 0; e < G_N_ELEMENTS(engine_counters); e++) {
			guint *field = &G_STRUCT_MEMBER(guint, &max, engine_counters[e].offset);
			*field = MAX(*field, engine_value(p, e));
		}
		max.memory_mib = MAX(max.memory_mib, p->memory_mib);
	}
	return max;
}

static void
consume_profile(HwConsumption *c, const HwMigProfile *p, guint first_slice, guint n_slices)
{
	for (guint e = 0; e < G_N_ELEMENTS(engine_counters); e++) {
		if (engine_value(p, e) > 0) {
			hw_qty__append(c->counters, engine_counters[e].counter, engine_value(p, e),
			               HW_QTY_DECIMAL);
		}
	}
	hw_qty__append(c->counters, "memory", (gint64)p->memory_mib << 20, HW_QTY_BINARY);
	for (guint s = first_slice; s < first_slice + n_slices; s++) {
		g_autofree char *name = g_strdup_printf("memory-slice-%u", s);
		hw_qty__append(c->counters, name, 1, HW_QTY_DECIMAL);
	}
}

static int
device_compare(gconstpointer a, gconstpointer b)
{
	const HwDevice *x = *(HwDevice *const *)a, *y = *(HwDevice *const *)b;

	return strcmp(x->name, y->name);
}

static HwCounterSet *
gpu_counter_set(const HwGpu *gpu, const HwMigProfile *max)
{
	g_autofree char *name = g_strdup_printf("gpu-%u-counter-set", gpu->minor);
	HwCounterSet *set = hw_counter_set__new(name);

	for (guint e = 0; e < G_N_ELEMENTS(engine_counters); e++) {
		hw_qty__append(set->counters, engine_counters[e].counter, engine_value(max, e),
		               HW_QTY_DECIMAL);
	}
	hw_qty__append(set->counters, "memory", (gint64)max->memory_mib << 20, HW_QTY_BINARY);
	for (guint s = 0; s < gpu->model->mig->memory_slices; s++) {
		g_autofree char *slice = g_strdup_printf("memory-slice-%u", s);
		hw_qty__append(set->counters, slice, 1, HW_QTY_DECIMAL);
	}
	return set;
}

/* Devices of one MIG-capable GPU under DynamicMIG, sorted by name: the scheduler
 * walks them in that order and takes the first that fits, so the order decides
 * which placement a claim gets (nvidia-hw.md 1.2). */
static void
dynamic_gpu_devices(const HwGpu *gpu,
                    const HwPublishOptions *options,
                    const char *set_name,
                    GPtrArray *devices)
{
	const HwMigGeometry *mig = gpu->model->mig;
	HwMigProfile max = max_profile(gpu->model);
	guint first = devices->len;

	/* Ampere cannot toggle MIG mode live: with MIG already on, the full GPU is gone. */
	if (!(gpu->mig_mode != HW_MIG_MODE_OFF && mig->mode_toggle_requires_reset)) {
		HwDevice *full = full_gpu_new(gpu, options);

		add_profile_capacity(full->capacity, &max);
		consume_profile(hw_device__consume(full, set_name), &max, 0, mig->memory_slices);
		g_ptr_array_add(devices, full);
	}
	for (guint i = 0; i < mig->profiles->len; i++) {
		const HwMigProfile *p = g_ptr_array_index(mig->profiles, i);

		for (guint s = 0; s < p->n_starts; s++) {
			HwMigInstance inst = { p, p->starts[s] };
			HwDevice *device = mig_device_new(gpu, &inst, TRUE, options);

			consume_profile(hw_device__consume(device, set_name), p, inst.start,
			                p->size);
			g_ptr_array_add(devices, device);
		}
	}
	qsort(devices->pdata + first, devices->len - first, sizeof(gpointer), device_compare);
}

static void
publish_dynamic(const HwNode *node, const HwPublishOptions *options, GPtrArray *out)
{
	guint n_gpus = node->gpus->len;
	guint count = options->k8s_1_35 ? n_gpus + 1 : n_gpus;
	HwSlice *counters = NULL;

	if (options->k8s_1_35) {
		counters = hw_slice__new(DRIVER, node->name, 0);
		g_ptr_array_add(out, counters);
	}
	for (guint i = 0; i < n_gpus; i++) {
		const HwGpu *gpu = g_ptr_array_index(node->gpus, i);
		HwSlice *slice = hw_slice__new(DRIVER, node->name, i + (options->k8s_1_35 ? 1 : 0));
		g_autofree char *set_name = g_strdup_printf("gpu-%u-counter-set", gpu->minor);

		g_ptr_array_add(out, slice);
		if (gpu->model->mig == NULL) {
			HwDevice *device = full_gpu_new(gpu, options);

			hw_qty__append(device->capacity, "memory",
			               (gint64)gpu->model->memory_mib << 20, HW_QTY_BINARY);
			g_ptr_array_add(slice->devices, device);
			continue;
		}
		HwMigProfile max = max_profile(gpu->model);
		g_ptr_array_add(counters ? counters->counter_sets : slice->counter_sets,
		                gpu_counter_set(gpu, &max));
		dynamic_gpu_devices(gpu, options, set_name, slice->devices);
	}
	for (guint i = 0; i < out->len; i++) {
		((HwSlice *)g_ptr_array_index(out, i))->slice_count = count;
	}
}

GPtrArray *
hw_publish_nvidia(const HwNode *node, const HwPublishOptions *options)
{
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)hw_slice_free);

	if (options->dynamic_mig) {
		publish_dynamic(node, options, out);
	} else {
		publish_static(node, options, out);
	}
	return out;
}

/* @device's string attribute @name set to @value, if it has one. */
static void
renew_attr(HwDevice *device, const char *name, const char *value)
{
	HwAttr *attr = (HwAttr *)hw_device_lookup_attr(device, name);

	if (attr != NULL) {
		g_free(attr->str);
		attr->str = g_strdup(value);
	}
}

/* Whether @slice has the devices publish_static() gives @node: a full GPU per
 * MIG-off GPU, the instances' profiles of a MIG-on one, nothing else. */
static gboolean
static_devices_match(const HwSlice *slice, const HwNode *node)
{
	guint d = 0;

	for (guint i = 0; i < node->gpus->len; i++) {
		const HwGpu *gpu = g_ptr_array_index(node->gpus, i);

		if (gpu->mig_mode == HW_MIG_MODE_OFF) {
			if (d >= slice->devices->len ||
			    hw_device_lookup_attr(slice->devices->pdata[d++], "parentUUID") != NULL)
				return FALSE;
			continue;
		}
		for (guint k = 0; gpu->mig_mode == HW_MIG_MODE_ON && k < gpu->instances->len; k++) {
			const HwMigInstance *inst =
			        &g_array_index(gpu->instances, HwMigInstance, k);
			const HwAttr *profile;

			if (d >= slice->devices->len)
				return FALSE;
			profile = hw_device_lookup_attr(slice->devices->pdata[d++], "profile");
			if (profile == NULL || strcmp(profile->str, inst->profile->name) != 0)
				return FALSE;
		}
	}
	return d == slice->devices->len;
}

gboolean
hw_publish_nvidia_renew(GPtrArray *slices, const HwNode *node, const HwPublishOptions *options)
{
	HwSlice *slice;
	guint d = 0;

	if (options->dynamic_mig || slices->len != 1)
		return FALSE;
	slice = slices->pdata[0];
	if (strcmp(slice->driver, DRIVER) != 0 || !static_devices_match(slice, node))
		return FALSE;
	/* what publish_static() takes from the node rather than its shape: uuids */
	for (guint i = 0; i < node->gpus->len; i++) {
		const HwGpu *gpu = g_ptr_array_index(node->gpus, i);

		if (gpu->mig_mode == HW_MIG_MODE_OFF) {
			renew_attr(slice->devices->pdata[d++], "uuid", gpu->uuid);
			continue;
		}
		for (guint k = 0; gpu->mig_mode == HW_MIG_MODE_ON && k < gpu->instances->len; k++) {
			HwDevice *device = slice->devices->pdata[d++];
			g_autofree char *uuid = mig_uuid(
			        gpu, g_array_index(gpu->instances, HwMigInstance, k).start);

			renew_attr(device, "uuid", uuid);
			renew_attr(device, "parentUUID", gpu->uuid);
		}
	}
	g_free(slice->name);
	g_free(slice->node_name);
	g_free(slice->pool);
	slice->name = hw__slice_name(DRIVER, node->name, 0);
	slice->node_name = g_strdup(node->name);
	slice->pool = g_strdup(node->name);
	return TRUE;
}
