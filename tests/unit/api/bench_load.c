/*
 * bench_load.c: how fast model/api loads a big `v1 List`, next to libyaml alone.
 *
 * Generates (in memory, deterministic) a List of 10,000 ResourceSlices with 8 GPUs
 * each, shaped like the NVIDIA DRA driver's (about 60 MB), then times in the same
 * run: (1) libyaml's event parser over the text, (2) k8s_load_data (parse, tree,
 * strict decode into typed objects). The goal is (2) within 3x of (1).
 * Usage: bench-api-load [SLICES] [--write FILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "k8s_objects.h"
#include "yaml_events.h"

static void
append_device(GString *out, guint slice, guint gpu)
{
	g_string_append_printf(
	        out,
	        "    - name: gpu-%u\n"
	        "      attributes:\n"
	        "        architecture: {string: Hopper}\n"
	        "        brand: {string: Nvidia}\n"
	        "        cudaComputeCapability: {version: 9.0.0}\n"
	        "        cudaDriverVersion: {version: 12.8.0}\n"
	        "        driverVersion: {version: 570.124.6}\n"
	        "        index: {int: %u}\n"
	        "        minor: {int: %u}\n"
	        "        productName: {string: NVIDIA H100 80GB HBM3}\n"
	        "        type: {string: gpu}\n"
	        "        uuid: {string: GPU-%08x-%04x-4000-8000-%012x}\n"
	        "        resource.kubernetes.io/pcieRoot: {string: pci0000:%02x}\n"
	        "        resource.kubernetes.io/pciBusID: {string: \"0000:%02x:00.0\"}\n"
	        "      capacity:\n"
	        "        memory: {value: 80Gi}\n"
	        "        multiprocessors: {value: \"132\"}\n",
	        gpu, gpu, gpu, slice, gpu, slice * 8 + gpu, gpu / 2 * 0x10, 0x18 + gpu * 0x10);
}

static char *
generate(guint slices, gsize *len)
{
	GString *out = g_string_sized_new((gsize)slices * 7000);

	g_string_append(out,
	                "apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\nitems:\n");
	for (guint s = 0; s < slices; s++) {
		g_string_append_printf(out,
		                       "- apiVersion: resource.k8s.io/v1\n"
		                       "  kind: ResourceSlice\n"
		                       "  metadata:\n"
		                       "    name: node-%05u-gpu.nvidia.com-abcde\n"
		                       "    generateName: node-%05u-gpu.nvidia.com-\n"
		                       "    resourceVersion: \"%u\"\n"
		                       "    uid: 9b2f3c1e-0000-4000-8000-%012u\n"
		                       "  spec:\n"
		                       "    driver: gpu.nvidia.com\n"
		                       "    nodeName: node-%05u\n"
		                       "    pool:\n"
		                       "      generation: 1\n"
		                       "      name: node-%05u\n"
		                       "      resourceSliceCount: 1\n"
		                       "    devices:\n",
		                       s, s, 1000 + s, s, s, s);
		for (guint g = 0; g < 8; g++) {
			append_device(out, s, g);
		}
	}
	*len = out->len;
	return g_string_free(out, FALSE);
}

static double
libyaml_only(const char *data, gsize len, guint64 *events)
{
	gint64 start = g_get_monotonic_time();

	*events = yaml_events_count(data, len, "bench-api-load");
	return (double)(g_get_monotonic_time() - start) / 1e6;
}

int
main(int argc, char **argv)
{
	guint slices = argc > 1 && argv[1][0] != '-' ? (guint)atoi(argv[1]) : 10000;
	gsize len;
	g_autofree char *data = generate(slices, &len);
	guint64 events;
	double t_yaml, t_load;
	gint64 start;
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	gboolean ok;

	for (int i = 1; i + 1 < argc; i++) {
		if (strcmp(argv[i], "--write") == 0) {
			g_file_set_contents(argv[i + 1], data, (gssize)len, NULL);
		}
	}
	t_yaml = libyaml_only(data, len, &events);
	start = g_get_monotonic_time();
	ok = k8s_load_data("bench.yaml", data, len, K8S_LOAD_DEFAULT, set, diags);
	t_load = (double)(g_get_monotonic_time() - start) / 1e6;
	k8s_diag_list_print(diags, stderr);
	printf("input: %u ResourceSlices x 8 devices, %.1f MB, %" G_GUINT64_FORMAT " YAML events\n",
	       slices, (double)len / 1e6, events);
	printf("libyaml parse only:   %.3f s\n", t_yaml);
	printf("k8s_load_data:        %.3f s  (%.0f objects/s, %.2fx libyaml)\n", t_load,
	       (double)k8s_object_set_count(set) / t_load, t_load / t_yaml);
	printf("objects: %u, ok: %s\n", k8s_object_set_count(set), ok ? "yes" : "no");
	return ok && k8s_object_set_count(set) == slices ? 0 : 1;
}
