/*
 * hw_node.c: a node instance of a shape: its GPUs (minor, UUID, PCI address, PCIe
 * root, NUMA node, MIG state) and NICs (as dranet names them).
 *
 * GPU minors follow the shape's root order, as /dev/nvidiaN follows PCI enumeration.
 * UUIDs and MACs are hashes of the node name, so a scenario is reproducible and two
 * nodes never share one.
 */
#include <string.h>

#include "hw-private.h"

/* The SHA-256 of @seed as hex. */
static void
seed_hex(const HwText *seed, char hex[65])
{
	hw__sha256_hex(seed->str, seed->len, hex);
}

char *
hw__uuid(const char *prefix, const char *seed)
{
	/* prefix, then hex in groups of 8-4-4-4-12 */
	static const guint groups[] = { 8, 4, 4, 4, 12 };
	gsize plen = strlen(prefix);
	char hex[65], *out = g_malloc(plen + 36 + 1), *p = out + plen;
	guint from = 0;

	hw__sha256_hex(seed, strlen(seed), hex);
	memcpy(out, prefix, plen);
	for (guint i = 0; i < G_N_ELEMENTS(groups); i++) {
		if (i > 0)
			*p++ = '-';
		memcpy(p, hex + from, groups[i]);
		p += groups[i];
		from += groups[i];
	}
	*p = '\0';
	return out;
}

char *
hw__name_suffix(const char *seed, guint length)
{
	/* The alphabet of Kubernetes' generateName suffixes (no vowels, no 0/1/3). */
	static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
	char hex[65], *out;
	guint n = MIN(length, 32u);

	hw__sha256_hex(seed, strlen(seed), hex);
	out = g_malloc(n + 1);
	for (guint i = 0; i < n; i++) {
		guint byte = (guint)g_ascii_xdigit_value(hex[2 * i]) * 16u +
		             (guint)g_ascii_xdigit_value(hex[2 * i + 1]);

		out[i] = alphabet[byte % (sizeof(alphabet) - 1)];
	}
	out[n] = '\0';
	return out;
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

/* @prefix, @a, @mid, @b (decimal): a name of the shape, one copy for the process. */
static const char *
interned_name(const char *prefix, guint a, const char *mid, guint b)
{
	HwText t;
	const char *name;

	hw__text_init(&t);
	hw__text_add(&t, prefix);
	hw__text_add_uint(&t, a);
	if (mid != NULL) {
		hw__text_add(&t, mid);
		hw__text_add_uint(&t, b);
	}
	name = g_intern_string(t.str);
	hw__text_clear(&t);
	return name;
}

/* dranet names a PCI NIC after its address: 0000:10:1b.0 -> pci-0000-10-1b-0. */
static const char *
dranet_name(const char *bdf)
{
	HwText t;
	const char *name;

	hw__text_init(&t);
	hw__text_add(&t, "pci-");
	hw__text_add(&t, bdf);
	g_strdelimit(t.str, ":.", '-');
	name = g_intern_string(t.str);
	hw__text_clear(&t);
	return name;
}

/* "02:" and the first five bytes of the hash of "<node>/<bdf>": locally administered. */
static char *
nic_mac(const char *node, const char *bdf)
{
	HwText seed;
	char hex[65], *mac = g_malloc(18);

	hw__text_init(&seed);
	hw__text_add(&seed, node);
	hw__text_add(&seed, "/");
	hw__text_add(&seed, bdf);
	seed_hex(&seed, hex);
	hw__text_clear(&seed);
	memcpy(mac, "02", 2);
	for (guint i = 0; i < 5; i++) {
		mac[2 + 3 * i] = ':';
		memcpy(mac + 3 + 3 * i, hex + 2 * i, 2);
	}
	mac[17] = '\0';
	return mac;
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

	nic->model = shape_nic->model;
	nic->bdf = hw__intern(shape_nic->bdf);
	nic->pcie_root = hw__intern(root->root);
	nic->numa = root->numa;
	nic->name = dranet_name(shape_nic->bdf);
	nic->mac = nic_mac(node->name, shape_nic->bdf);
	switch (nic->model->link) {
	case HW_NIC_LINK_EFA:
		/* EFA has no netdev; its RDMA device is named after bus and slot, as on p4d
		 * (0000:10:1b.0 -> rdmap16s27). */
		nic->rdma_device = interned_name("rdmap", bus, "s", dev);
		break;
	case HW_NIC_LINK_INFINIBAND:
		nic->ifname = interned_name("ibp", bus, "s", dev);
		nic->rdma_device = interned_name("mlx5_", (*mlx_index)++, NULL, 0);
		break;
	case HW_NIC_LINK_ETHERNET:
		nic->ifname = interned_name("enp", bus, "s", dev);
		if (nic->model->rdma) {
			nic->rdma_device = interned_name("mlx5_", (*mlx_index)++, NULL, 0);
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
			HwText seed;

			hw__text_init(&seed);
			hw__text_add(&seed, name);
			hw__text_add(&seed, "/gpu-");
			hw__text_add_uint(&seed, minor);
			gpu->minor = minor++;
			gpu->uuid = hw__uuid("GPU-", seed.str);
			hw__text_clear(&seed);
			gpu->bdf = hw__intern(g_ptr_array_index(root->gpu_bdfs, g));
			gpu->pcie_root = hw__intern(root->root);
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
