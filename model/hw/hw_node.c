/*
 * hw_node.c: a node instance of a shape: its GPUs (minor, UUID, PCI address, PCIe
 * root, NUMA node, MIG state) and NICs (as dranet names them).
 *
 * GPU minors follow the shape's root order, as /dev/nvidiaN follows PCI enumeration.
 * UUIDs and MACs are hashes of the node name, so a scenario is reproducible and two
 * nodes never share one.
 */
#include <stdarg.h>
#include <string.h>

#include "hw-private.h"

char *
hw__uuid(const char *prefix, const char *seed)
{
	g_autofree char *hex = g_compute_checksum_for_string(G_CHECKSUM_SHA256, seed, -1);

	return g_strdup_printf("%s%.8s-%.4s-%.4s-%.4s-%.12s", prefix, hex, hex + 8, hex + 12,
	                       hex + 16, hex + 20);
}

char *
hw__name_suffix(const char *seed, guint length)
{
	/* The alphabet of Kubernetes' generateName suffixes (no vowels, no 0/1/3). */
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	g_autofree char *hex = g_compute_checksum_for_string(G_CHECKSUM_SHA256, seed, -1);
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < length && 2 * i + 1 < strlen(hex); i++) {
		guint byte = (guint)g_ascii_xdigit_value(hex[2 * i]) * 16u +
		             (guint)g_ascii_xdigit_value(hex[2 * i + 1]);

		g_string_append_c(out, alphabet[byte % (sizeof(alphabet) - 1)]);
	}
	return g_string_free(out, FALSE);
}

static void
gpu_free(HwGpu *gpu)
{
	g_free(gpu->uuid);
	g_array_unref(gpu->instances);
	g_free(gpu);
}

static void
nic_free(HwNic *nic)
{
	g_free(nic->mac);
	g_free(nic);
}

/* Names of the shape, made again for every node: one copy for the process. */
static const char *G_GNUC_PRINTF(1, 2) interned_printf(const char *format, ...)
{
	char buf[64];
	va_list args;

	va_start(args, format);
	g_vsnprintf(buf, sizeof(buf), format, args);
	va_end(args);
	return g_intern_string(buf);
}

static guint
bdf_field(const char *bdf, guint offset)
{
	char part[3] = { bdf[offset], bdf[offset + 1], '\0' };

	return (guint)g_ascii_strtoull(part, NULL, 16);
}

static HwNic *
nic_new(const HwNode *node, const HwShapeNic *shape_nic, const HwPcieRoot *root, guint *mlx_index)
{
	HwNic *nic = g_new0(HwNic, 1);
	guint bus = bdf_field(shape_nic->bdf, 5), dev = bdf_field(shape_nic->bdf, 8);
	g_autofree char *seed = g_strdup_printf("%s/%s", node->name, shape_nic->bdf);
	g_autofree char *hex = g_compute_checksum_for_string(G_CHECKSUM_SHA256, seed, -1);

	nic->model = shape_nic->model;
	g_autofree char *name = g_strdup_printf("pci-%s", shape_nic->bdf);

	nic->bdf = g_intern_string(shape_nic->bdf);
	nic->pcie_root = g_intern_string(root->root);
	nic->numa = root->numa;
	/* dranet names a PCI NIC after its address: 0000:10:1b.0 -> pci-0000-10-1b-0. */
	nic->name = g_intern_string(g_strdelimit(name, ":.", '-'));
	nic->mac = g_strdup_printf("02:%.2s:%.2s:%.2s:%.2s:%.2s", hex, hex + 2, hex + 4, hex + 6,
	                           hex + 8);
	switch (nic->model->link) {
	case HW_NIC_LINK_EFA:
		/* EFA has no netdev; its RDMA device is named after bus and slot, as on p4d
		 * (0000:10:1b.0 -> rdmap16s27). */
		nic->rdma_device = interned_printf("rdmap%us%u", bus, dev);
		break;
	case HW_NIC_LINK_INFINIBAND:
		nic->ifname = interned_printf("ibp%us%u", bus, dev);
		nic->rdma_device = interned_printf("mlx5_%u", (*mlx_index)++);
		break;
	case HW_NIC_LINK_ETHERNET:
		nic->ifname = interned_printf("enp%us%u", bus, dev);
		if (nic->model->rdma) {
			nic->rdma_device = interned_printf("mlx5_%u", (*mlx_index)++);
		}
		break;
	}
	return nic;
}

HwNode *
hw_node_new(const HwNodeShape *shape, const char *name)
{
	HwNode *self = g_new0(HwNode, 1);
	guint minor = 0, mlx_index = 0;

	self->name = g_strdup(name);
	self->shape = shape;
	self->gpus = g_ptr_array_new_with_free_func((GDestroyNotify)gpu_free);
	self->nics = g_ptr_array_new_with_free_func((GDestroyNotify)nic_free);
	for (guint r = 0; r < shape->roots->len; r++) {
		const HwPcieRoot *root = g_ptr_array_index(shape->roots, r);

		for (guint g = 0; g < root->gpu_bdfs->len; g++) {
			HwGpu *gpu = g_new0(HwGpu, 1);
			g_autofree char *seed = g_strdup_printf("%s/gpu-%u", name, minor);

			gpu->minor = minor++;
			gpu->uuid = hw__uuid("GPU-", seed);
			gpu->bdf = g_intern_string(g_ptr_array_index(root->gpu_bdfs, g));
			gpu->pcie_root = g_intern_string(root->root);
			gpu->numa = root->numa;
			gpu->model = shape->gpu_model;
			gpu->mig_mode = HW_MIG_MODE_OFF;
			gpu->instances = g_array_new(FALSE, TRUE, sizeof(HwMigInstance));
			g_ptr_array_add(self->gpus, gpu);
		}
		for (guint n = 0; n < root->nics->len; n++) {
			g_ptr_array_add(self->nics,
			                nic_new(self, &g_array_index(root->nics, HwShapeNic, n),
			                        root, &mlx_index));
		}
	}
	return self;
}

void
hw_node_free(HwNode *self)
{
	if (self == NULL) {
		return;
	}
	g_free(self->name);
	g_ptr_array_unref(self->gpus);
	g_ptr_array_unref(self->nics);
	g_free(self);
}

gboolean
hw_node_apply_layout(HwNode *self, const char *layout, GError **error)
{
	gboolean enabled = FALSE;
	g_autoptr(GArray) instances =
	        hw_mig_layout_parse(self->shape->gpu_model, layout, &enabled, error);

	if (instances == NULL) {
		return FALSE;
	}
	for (guint i = 0; i < self->gpus->len; i++) {
		HwGpu *gpu = g_ptr_array_index(self->gpus, i);

		gpu->mig_mode = enabled ? HW_MIG_MODE_ON : HW_MIG_MODE_OFF;
		g_array_set_size(gpu->instances, 0);
		g_array_append_vals(gpu->instances, instances->data, instances->len);
	}
	return TRUE;
}
