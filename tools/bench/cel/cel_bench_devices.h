/*
 * cel_bench_devices.h: the synthetic GPUs and the selector set (issue 3) of both
 * CEL benchmarks: bench_cel.c (the peer comparison; peers.mjs mirrors the
 * devices) and tools/bench/celeval (the fixed-work family of `drasim bench`).
 */
#pragma once

#include <glib.h>

#include "cel_dra.h"

static const char *const cel_bench_products[] = { "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB",
	                                          "NVIDIA H100 NVL", "NVIDIA L4" };
static const gint64 cel_bench_memory_mib[] = { 81559, 40960, 95830, 23034 };
static const char *const cel_bench_driver_versions[] = { "580.126.9", "550.54.15", "535.161.8" };

/* Each selector under the name bench_cel (and the peers) print and the one celeval prints. */
static const struct {
	const char *peer_name;
	const char *bench_name;
	const char *expr;
} cel_bench_selectors[] = {
	{ "driver+type", "cel_driver_type",
	  "device.driver == \"gpu.nvidia.com\" && device.attributes[\"gpu.nvidia.com\"].type == "
	  "\"gpu\"" },
	{ "startsWith", "cel_startswith",
	  "device.attributes[\"gpu.nvidia.com\"].productName.startsWith(\"NVIDIA H100\")" },
	{ "int compare", "cel_int_compare",
	  "device.attributes[\"gpu.nvidia.com\"].memoryMiB >= 40960" },
	{ "matches", "cel_matches",
	  "device.attributes[\"gpu.nvidia.com\"].productName.matches(\"^.*H100.*$\")" },
	{ "quantity compare", "cel_quantity_compare",
	  "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0" },
	{ "semver compare", "cel_semver_compare",
	  "device.attributes[\"gpu.nvidia.com\"].driverVersion.isGreaterThan("
	  "semver(\"550.0.0\"))" },
};

/* Synthetic GPU @i. @full adds what only the peer comparison's devices carry
 * (cudaComputeCapability, brand, the PCIe root, as peers.mjs does); celeval's
 * devices go without, so its instruction counts stay comparable run to run. */
static inline CelDraDevice *
cel_bench_device_new(guint i, gboolean full)
{
	CelDraDevice *dev = cel_dra_device_new("gpu.nvidia.com");
	char buf[64];
	K8sQuantity mem;

	cel_dra_device_add_string(dev, "type", i % 5 == 4 ? "mig" : "gpu", -1);
	cel_dra_device_add_string(dev, "productName", cel_bench_products[i % 4], -1);
	cel_dra_device_add_int(dev, "memoryMiB", cel_bench_memory_mib[i % 4]);
	cel_dra_device_add_version(dev, "driverVersion", cel_bench_driver_versions[i % 3], -1,
	                           NULL);
	if (full)
		cel_dra_device_add_version(dev, "cudaComputeCapability", "9.0.0", -1, NULL);
	cel_dra_device_add_string(dev, "architecture", i % 4 == 3 ? "Ada Lovelace" : "Hopper", -1);
	if (full)
		cel_dra_device_add_string(dev, "brand", "Nvidia", -1);
	cel_dra_device_add_int(dev, "index", i % 8);
	g_snprintf(buf, sizeof buf, "GPU-%08u", i);
	cel_dra_device_add_string(dev, "uuid", buf, -1);
	if (full) {
		g_snprintf(buf, sizeof buf, "pci0000:%02x", i % 16);
		cel_dra_device_add_string(dev, "resource.kubernetes.io/pcieRoot", buf, -1);
	}
	g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT "Mi", cel_bench_memory_mib[i % 4]);
	k8s_quantity_parse(buf, -1, &mem, NULL);
	cel_dra_device_add_capacity(dev, "memory", &mem);
	cel_dra_device_seal(dev);
	return dev;
}
