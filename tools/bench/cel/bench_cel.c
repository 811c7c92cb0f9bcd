/*
 * bench_cel.c: DRA selector evaluation speed and heap use, over 100,000 synthetic devices.
 *
 * Each selector is compiled once, run over every device once to warm up, then timed over
 * several passes (at least 7 and 300 ms); the figure is the median pass, which a busy machine
 * disturbs less than the mean (peers.mjs does the same). malloc/calloc/realloc are interposed (this
 * executable defines them and forwards to glibc's __libc_* entry points), so every heap allocation
 * made during the timed passes, by drasim or by GLib, is counted. Output: one tab-separated line
 * per selector: name, ns per evaluation, allocations per evaluation, number of devices matched. The
 * device generator is mirrored in peers.mjs so the Node.js peers see the same devices.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib.h>

#include "cel_dra.h"

/* ---- allocation counting ---- */

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);

static volatile gsize alloc_count;

void *
malloc(size_t size)
{
	alloc_count++;
	return __libc_malloc(size);
}

void *
calloc(size_t n, size_t size)
{
	alloc_count++;
	return __libc_calloc(n, size);
}

void *
realloc(void *p, size_t size)
{
	alloc_count++;
	return __libc_realloc(p, size);
}

void
free(void *p)
{
	__libc_free(p);
}

/* ---- synthetic devices (keep in step with peers.mjs) ---- */

#define N_DEVICES 100000

static const char *const products[] = { "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-40GB",
	                                "NVIDIA H100 NVL", "NVIDIA L4" };
static const gint64 memory_mib[] = { 81559, 40960, 95830, 23034 };
static const char *const driver_versions[] = { "580.126.9", "550.54.15", "535.161.8" };

static CelDraDevice *
make_device(guint i)
{
	CelDraDevice *dev = cel_dra_device_new("gpu.nvidia.com");
	char buf[64];
	K8sQuantity mem;

	cel_dra_device_add_string(dev, "type", i % 5 == 4 ? "mig" : "gpu", -1);
	cel_dra_device_add_string(dev, "productName", products[i % 4], -1);
	cel_dra_device_add_int(dev, "memoryMiB", memory_mib[i % 4]);
	cel_dra_device_add_version(dev, "driverVersion", driver_versions[i % 3], -1, NULL);
	cel_dra_device_add_version(dev, "cudaComputeCapability", "9.0.0", -1, NULL);
	cel_dra_device_add_string(dev, "architecture", i % 4 == 3 ? "Ada Lovelace" : "Hopper", -1);
	cel_dra_device_add_string(dev, "brand", "Nvidia", -1);
	cel_dra_device_add_int(dev, "index", i % 8);
	g_snprintf(buf, sizeof buf, "GPU-%08u", i);
	cel_dra_device_add_string(dev, "uuid", buf, -1);
	g_snprintf(buf, sizeof buf, "pci0000:%02x", i % 16);
	cel_dra_device_add_string(dev, "resource.kubernetes.io/pcieRoot", buf, -1);
	g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT "Mi", memory_mib[i % 4]);
	k8s_quantity_parse(buf, -1, &mem, NULL);
	cel_dra_device_add_capacity(dev, "memory", &mem);
	cel_dra_device_seal(dev);
	return dev;
}

static const struct {
	const char *name;
	const char *expr;
} selectors[] = {
	{ "driver+type",
	  "device.driver == \"gpu.nvidia.com\" && device.attributes[\"gpu.nvidia.com\"].type == "
	  "\"gpu\"" },
	{ "startsWith",
	  "device.attributes[\"gpu.nvidia.com\"].productName.startsWith(\"NVIDIA H100\")" },
	{ "int compare", "device.attributes[\"gpu.nvidia.com\"].memoryMiB >= 40960" },
	{ "matches", "device.attributes[\"gpu.nvidia.com\"].productName.matches(\"^.*H100.*$\")" },
	{ "quantity compare",
	  "device.capacity[\"gpu.nvidia.com\"].memory.compareTo(quantity(\"40Gi\")) >= 0" },
	{ "semver compare", "device.attributes[\"gpu.nvidia.com\"].driverVersion.isGreaterThan("
	                    "semver(\"550.0.0\"))" },
};

#define MAX_PASSES 1024

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : (x > y ? 1 : 0);
}

static gint64
now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (gint64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	guint n = argc > 1 ? (guint)atoi(argv[1]) : N_DEVICES;
	int only = argc > 2 ? atoi(argv[2]) : -1; /* run one selector (for profiling) */
	/* a fixed number of timed passes (for callgrind: evaluations = n * (1 + passes)) */
	guint fixed_passes = argc > 3 ? (guint)atoi(argv[3]) : 0;
	CelDraOptions o = CEL_DRA_OPTIONS_INIT;
	CelDraEnv *env = cel_dra_env_new(&o);
	CelDraEval *ev = cel_dra_eval_new(env);
	CelDraDevice **devs = g_new(CelDraDevice *, n);

	for (guint i = 0; i < n; i++) {
		devs[i] = make_device(i);
	}
	printf("# selector\tns/eval\tallocs/eval\tmatched\n");
	for (guint s = 0; s < G_N_ELEMENTS(selectors); s++) {
		if (only >= 0 && (guint)only != s) {
			continue;
		}
		CelDraDiag *diag = NULL;
		CelDraSelector *sel = cel_dra_selector_compile(env, selectors[s].expr, &diag);
		if (sel == NULL) {
			fprintf(stderr, "%s: %s\n", selectors[s].name, diag->text);
			return 1;
		}
		guint matched = 0, errors = 0;
		for (guint i = 0; i < n; i++) { /* warm-up: arenas reach their steady size */
			matched += cel_dra_selector_eval(sel, ev, devs[i], NULL) == CEL_DRA_TRUE;
		}
		static double pass_ns[MAX_PASSES]; /* per evaluation, one entry per pass */
		guint passes = 0;
		gsize allocs_before = alloc_count;
		gint64 start = now_ns(), elapsed;
		do {
			gint64 t0 = now_ns();
			for (guint i = 0; i < n; i++) {
				errors += cel_dra_selector_eval(sel, ev, devs[i], NULL) ==
				          CEL_DRA_ERROR;
			}
			pass_ns[passes++] = (double)(now_ns() - t0) / n;
			elapsed = now_ns() - start;
		} while (fixed_passes > 0
		                 ? passes < fixed_passes
		                 : passes < MAX_PASSES && (passes < 7 || elapsed < 300000000));
		gsize allocs = alloc_count - allocs_before;
		double evals = (double)passes * n;
		qsort(pass_ns, passes, sizeof pass_ns[0], cmp_double);
		printf("%s\t%.1f\t%.4f\t%u%s\n", selectors[s].name, pass_ns[passes / 2],
		       (double)allocs / evals, matched, errors > 0 ? "\t(errors!)" : "");
		cel_dra_selector_free(sel);
	}
	for (guint i = 0; i < n; i++) {
		cel_dra_device_free(devs[i]);
	}
	g_free(devs);
	cel_dra_eval_free(ev);
	cel_dra_env_unref(env);
	return 0;
}
