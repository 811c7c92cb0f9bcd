/*
 * slices_gen.c: the ResourceSlice List generator shared by gen-slices and bench-lint.
 *
 * Devices carry the attributes and capacity the NVIDIA driver publishes for a full GPU
 * (about 790 bytes of YAML each), so 10,000 slices of 8 devices are about 60 MB. The
 * output is deterministic: the same arguments give the same bytes.
 */
#include "slices_gen.h"

gsize
slices_gen_write(FILE *out, guint n_slices, guint n_devices)
{
	gsize bytes = 0;
	int n;

	n = fprintf(out, "apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\n"
	                 "items:\n");
	bytes += (gsize)MAX(n, 0);
	for (guint s = 0; s < n_slices; s++) {
		n = fprintf(out,
		            "- apiVersion: resource.k8s.io/v1\n"
		            "  kind: ResourceSlice\n"
		            "  metadata:\n"
		            "    name: node-%05u-gpu.nvidia.com-x7k2p\n"
		            "    labels:\n"
		            "      topology.kubernetes.io/zone: zone-%u\n"
		            "  spec:\n"
		            "    driver: gpu.nvidia.com\n"
		            "    nodeName: node-%05u\n"
		            "    pool:\n"
		            "      name: node-%05u\n"
		            "      generation: 1\n"
		            "      resourceSliceCount: 1\n"
		            "    devices:\n",
		            s, s % 3, s, s);
		bytes += (gsize)MAX(n, 0);
		for (guint d = 0; d < n_devices; d++) {
			n = fprintf(out,
			            "    - name: gpu-%u\n"
			            "      attributes:\n"
			            "        architecture:\n"
			            "          string: Hopper\n"
			            "        brand:\n"
			            "          string: Nvidia\n"
			            "        cudaComputeCapability:\n"
			            "          version: 9.0.0\n"
			            "        cudaDriverVersion:\n"
			            "          version: 12.4.0\n"
			            "        driverVersion:\n"
			            "          version: 550.54.15\n"
			            "        index:\n"
			            "          int: %u\n"
			            "        minor:\n"
			            "          int: %u\n"
			            "        pcieBusID:\n"
			            "          string: 0000:%02x:00.0\n"
			            "        productName:\n"
			            "          string: NVIDIA H100 80GB HBM3\n"
			            "        type:\n"
			            "          string: gpu\n"
			            "        uuid:\n"
			            "          string: GPU-%08x-%04x-%04x-%04x-%012x\n"
			            "        resource.kubernetes.io/pcieRoot:\n"
			            "          string: pci0000:%02x\n"
			            "      capacity:\n"
			            "        memory:\n"
			            "          value: 80Gi\n",
			            d, d, d, 0x18 + d * 0x10, s, d, 0x4a1f, 0x9b3c, s * 8 + d,
			            d / 4);
			bytes += (gsize)MAX(n, 0);
		}
	}
	return bytes;
}
