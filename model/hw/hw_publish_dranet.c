/*
 * hw_publish_dranet.c: a node's NICs as dranet (kubernetes-sigs/dranet, driver
 * `dra.net`) publishes them, so that a claim can align a GPU and a NIC with
 * `matchAttribute: resource.kubernetes.io/pcieRoot` (nvidia-hw.md 3.2).
 *
 * Device names come from the PCI address (pci-0000-10-1b-0); attributes are
 * qualified with the dra.net domain as dranet writes them. A NIC without a netdev
 * (EFA) has no ifName, mac or mtu.
 */
#include <string.h>

#include "hw-private.h"

HwSlice *
hw_publish_dranet(const HwNode *node)
{
	HwSlice *slice;

	if (node->nics->len == 0) {
		return NULL;
	}
	slice = hw_slice__new("dra.net", node->name, 0);
	for (guint i = 0; i < node->nics->len; i++) {
		const HwNic *nic = g_ptr_array_index(node->nics, i);
		HwDevice *device = hw_device__new(nic->name);

		if (nic->ifname != NULL) {
			hw_device__attr_string(device, "dra.net/ifName", nic->ifname);
			hw_device__attr_string(device, "dra.net/mac", nic->mac);
			hw_device__attr_int(device, "dra.net/mtu", nic->model->mtu);
		}
		hw_device__attr_string(device, "dra.net/pciAddress", nic->bdf);
		hw_device__attr_string(device, "dra.net/pciVendor", nic->model->vendor);
		hw_device__attr_string(device, "dra.net/pciDevice", nic->model->device);
		hw_device__attr_int(device, "dra.net/numaNode", nic->numa);
		hw_device__attr_bool(device, "dra.net/rdma", nic->model->rdma);
		if (nic->rdma_device != NULL) {
			hw_device__attr_string(device, "dra.net/rdmaDevice", nic->rdma_device);
		}
		hw_device__attr_bool(device, "dra.net/sriov", FALSE);
		hw_device__attr_bool(device, "dra.net/virtual", FALSE);
		hw_device__attr_string(device, "resource.kubernetes.io/pcieRoot", nic->pcie_root);
		g_ptr_array_add(slice->devices, device);
	}
	return slice;
}

gboolean
hw_publish_dranet_renew(HwSlice *slice, const HwNode *node)
{
	/* what hw_publish_dranet() takes from the node rather than its shape */
	if (slice == NULL || strcmp(slice->driver, "dra.net") != 0 ||
	    slice->devices->len != node->nics->len)
		return FALSE;
	for (guint i = 0; i < node->nics->len; i++) {
		const HwNic *nic = g_ptr_array_index(node->nics, i);
		const HwDevice *device = g_ptr_array_index(slice->devices, i);
		const HwAttr *mac = hw_device_lookup_attr(device, "dra.net/mac");

		if (strcmp(device->name, nic->name) != 0 || (mac != NULL) != (nic->ifname != NULL))
			return FALSE;
	}
	for (guint i = 0; i < node->nics->len; i++) {
		const HwNic *nic = g_ptr_array_index(node->nics, i);
		HwAttr *mac = (HwAttr *)hw_device_lookup_attr(g_ptr_array_index(slice->devices, i),
		                                              "dra.net/mac");

		if (mac != NULL) {
			g_free(mac->str);
			mac->str = g_strdup(nic->mac);
		}
	}
	g_free(slice->name);
	g_free(slice->node_name);
	g_free(slice->pool);
	slice->name = hw__slice_name(slice->driver, node->name, 0);
	slice->node_name = g_strdup(node->name);
	slice->pool = g_strdup(node->name);
	return TRUE;
}
