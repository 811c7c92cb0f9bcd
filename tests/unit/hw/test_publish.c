/*
 * test_publish.c: what the NVIDIA DRA driver and dranet publish for a node.
 *
 * Device names, attribute sets and types, capacities and counters are checked
 * against nvidia-hw.md 1.2-1.4 for every device of every mode; the p4d slices must
 * group GPUs and EFAs by PCIe root as the live data does (3.1); and the whole YAML
 * for DGX H100 (no MIG, static MIG, dynamic MIG) and p4d is compared with goldens
 * in tests/data/hw/golden (DRASIM_UPDATE_GOLDEN=1 rewrites them).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hw.h"
#include "hw_test_catalog.h"

static GPtrArray *
publish(const HwNode *node, gboolean dynamic, gboolean k8s_1_35)
{
	HwPublishOptions options;

	hw_publish_options_init(&options);
	options.dynamic_mig = dynamic;
	options.k8s_1_35 = k8s_1_35;
	return hw_publish_nvidia(node, &options);
}

static const char *
attr_string(const HwDevice *d, const char *name, HwAttrType type)
{
	const HwAttr *a = hw_device_lookup_attr(d, name);

	if (a == NULL) {
		fail_msg("%s: no attribute %s", d->name, name);
	}
	assert_int_equal(a->type, type);
	return a->str;
}

/* nvidia-hw.md 1.4: the attribute set of a v25.12+ device, exactly. */
static void
check_attribute_set(const HwDevice *d, const char *type, gboolean has_uuid)
{
	static const char *const common[] = { "type",
		                              "productName",
		                              "brand",
		                              "architecture",
		                              "cudaComputeCapability",
		                              "driverVersion",
		                              "cudaDriverVersion",
		                              "resource.kubernetes.io/pciBusID",
		                              "resource.kubernetes.io/pcieRoot" };
	guint expected = G_N_ELEMENTS(common) + (has_uuid ? 1 : 0);

	for (guint i = 0; i < G_N_ELEMENTS(common); i++) {
		assert_non_null(hw_device_lookup_attr(d, common[i]));
	}
	assert_string_equal(attr_string(d, "type", HW_ATTR_STRING), type);
	attr_string(d, "cudaComputeCapability", HW_ATTR_VERSION);
	attr_string(d, "driverVersion", HW_ATTR_VERSION);
	attr_string(d, "cudaDriverVersion", HW_ATTR_VERSION);
	if (strcmp(type, "mig") == 0) {
		attr_string(d, "parentUUID", HW_ATTR_STRING);
		attr_string(d, "profile", HW_ATTR_STRING);
		expected += 2;
	}
	if (has_uuid) {
		const char *uuid = attr_string(d, "uuid", HW_ATTR_STRING);
		assert_true(g_str_has_prefix(uuid, strcmp(type, "gpu") == 0 ? "GPU-" : "MIG-"));
		assert_int_equal(strlen(uuid), 4 + 36);
	} else {
		assert_null(hw_device_lookup_attr(d, "uuid"));
	}
	assert_int_equal(d->attrs->len, expected);
}

static void
test_publish__full_gpus(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-h100", "all-disabled");
	g_autoptr(GPtrArray) slices = publish(node, FALSE, FALSE);
	const HwSlice *s;

	assert_int_equal(slices->len, 1);
	s = g_ptr_array_index(slices, 0);
	assert_string_equal(s->driver, "gpu.nvidia.com");
	assert_string_equal(s->pool, "node-a");
	assert_string_equal(s->node_name, "node-a");
	assert_int_equal(s->slice_count, 1);
	assert_int_equal(s->devices->len, 8);
	for (guint i = 0; i < 8; i++) {
		const HwDevice *d = g_ptr_array_index(s->devices, i);
		g_autofree char *name = g_strdup_printf("gpu-%u", i);

		assert_string_equal(d->name, name);
		check_attribute_set(d, "gpu", TRUE);
		assert_string_equal(attr_string(d, "productName", HW_ATTR_STRING),
		                    "NVIDIA H100 80GB HBM3");
		assert_string_equal(attr_string(d, "architecture", HW_ATTR_STRING), "Hopper");
		assert_string_equal(attr_string(d, "cudaComputeCapability", HW_ATTR_VERSION),
		                    "9.0.0");
		assert_int_equal(d->capacity->len, 1);
		assert_int_equal(hw_device_lookup_capacity(d, "memory")->value, 81559ll << 20);
		assert_int_equal(d->consumes->len, 0);
	}
}

/* Static MIG publishes only the instances that exist, with memorySlice<i> capacity. */
static void
test_publish__static_mig(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-h100", "all-balanced");
	g_autoptr(GPtrArray) slices = publish(node, FALSE, FALSE);
	const HwSlice *s = g_ptr_array_index(slices, 0);
	static const char *const names[] = { "gpu-0-mig-2g20gb-14-0", "gpu-0-mig-1g10gb-19-2",
		                             "gpu-0-mig-1g10gb-19-3", "gpu-0-mig-3g40gb-9-4" };
	const HwDevice *d;

	assert_int_equal(s->devices->len, 32);
	for (guint i = 0; i < 4; i++) {
		d = g_ptr_array_index(s->devices, i);
		assert_string_equal(d->name, names[i]);
		check_attribute_set(d, "mig", TRUE);
		assert_string_equal(attr_string(d, "parentUUID", HW_ATTR_STRING),
		                    ((HwGpu *)g_ptr_array_index(node->gpus, 0))->uuid);
	}
	d = g_ptr_array_index(s->devices, 3);
	assert_string_equal(attr_string(d, "profile", HW_ATTR_STRING), "3g.40gb");
	assert_int_equal(hw_device_lookup_capacity(d, "multiprocessors")->value, 60);
	assert_int_equal(hw_device_lookup_capacity(d, "copyEngines")->value, 3);
	assert_int_equal(hw_device_lookup_capacity(d, "memory")->value, 40448ll << 20);
	for (guint slice = 0; slice < 8; slice++) {
		g_autofree char *cap = g_strdup_printf("memorySlice%u", slice);
		assert_int_equal(hw_device_lookup_capacity(d, cap) != NULL, slice >= 4);
	}
	/* 7 engine/memory capacities plus 4 memory slices. */
	assert_int_equal(d->capacity->len, 11);
}

/* MIG on but no instances: the GPU contributes nothing (stranded). */
static void
test_publish__stranded(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-h100", "all-enabled");
	g_autoptr(GPtrArray) slices = publish(node, FALSE, FALSE);

	assert_int_equal(slices->len, 1);
	assert_int_equal(((HwSlice *)g_ptr_array_index(slices, 0))->devices->len, 0);
}

static void
test_publish__names(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-a100-640gb", "1g.10gb+me@0,1g.20gb@2,3g.40gb@4");
	HwPublishOptions options;
	g_autoptr(GPtrArray) v12 = NULL;
	g_autoptr(GPtrArray) v3 = NULL;
	const HwSlice *s;

	hw_publish_options_init(&options);
	v12 = hw_publish_nvidia(node, &options);
	s = g_ptr_array_index(v12, 0);
	assert_string_equal(((HwDevice *)g_ptr_array_index(s->devices, 0))->name,
	                    "gpu-0-mig-1g10gb-me-20-0");
	assert_string_equal(((HwDevice *)g_ptr_array_index(s->devices, 1))->name,
	                    "gpu-0-mig-1g20gb-15-2");
	assert_string_equal(((HwDevice *)g_ptr_array_index(s->devices, 5))->name,
	                    "gpu-1-mig-3g40gb-9-4");
	options.naming = HW_NAMING_V25_3;
	v3 = hw_publish_nvidia(node, &options);
	s = g_ptr_array_index(v3, 0);
	assert_string_equal(((HwDevice *)g_ptr_array_index(s->devices, 0))->name,
	                    "gpu-0-mig-20-0-1");
	assert_string_equal(((HwDevice *)g_ptr_array_index(s->devices, 2))->name,
	                    "gpu-0-mig-9-4-4");
	/* v25.3 still had the driver's own pcieBusID and the index attributes. */
	assert_non_null(hw_device_lookup_attr(g_ptr_array_index(s->devices, 0), "pcieBusID"));
	assert_non_null(hw_device_lookup_attr(g_ptr_array_index(s->devices, 0), "parentIndex"));
}

static const HwQty *
counter(const GArray *counters, const char *name)
{
	for (guint i = 0; i < counters->len; i++) {
		if (strcmp(g_array_index(counters, HwQty, i).name, name) == 0) {
			return &g_array_index(counters, HwQty, i);
		}
	}
	return NULL;
}

static gint64
counter_value(const GArray *counters, const char *name)
{
	const HwQty *q = counter(counters, name);

	if (q == NULL) {
		fail_msg("no counter %s", name);
	}
	return q == NULL ? -1 : q->value;
}

static void
test_publish__dynamic_mig(void **state)
{
	g_autoptr(HwNode) node = catalog_node("dgx-h100", "all-disabled");
	g_autoptr(GPtrArray) slices = publish(node, TRUE, FALSE);
	const HwSlice *s = g_ptr_array_index(slices, 0);
	const HwCounterSet *set;
	guint mig_devices = 0;

	assert_int_equal(slices->len, 8); /* 1.34: one slice per GPU */
	assert_int_equal(s->slice_count, 8);
	assert_int_equal(s->counter_sets->len, 1);
	set = g_ptr_array_index(s->counter_sets, 0);
	assert_string_equal(set->name, "gpu-0-counter-set");
	assert_int_equal(counter_value(set->counters, "multiprocessors"), 132);
	assert_int_equal(counter_value(set->counters, "copy-engines"), 8);
	assert_int_equal(counter_value(set->counters, "memory-slice-7"), 1);
	assert_null(counter(set->counters, "memory-slice-8"));
	assert_int_equal(set->counters->len, 7 + 8);
	/* Full GPU first (sorted by name), consuming everything. */
	const HwDevice *full = g_ptr_array_index(s->devices, 0);
	assert_string_equal(full->name, "gpu-0");
	check_attribute_set(full, "gpu", TRUE);
	assert_int_equal(g_array_index(full->consumes, HwConsumption, 0).counters->len, 6 + 8);
	for (guint i = 1; i < s->devices->len; i++) {
		const HwDevice *d = g_ptr_array_index(s->devices, i);
		const HwConsumption *c = &g_array_index(d->consumes, HwConsumption, 0);
		const HwDevice *prev = g_ptr_array_index(s->devices, i - 1);

		assert_true(strcmp(prev->name, d->name) < 0);
		check_attribute_set(d, "mig", FALSE);
		assert_string_equal(c->counter_set, "gpu-0-counter-set");
		assert_null(hw_device_lookup_capacity(d, "memorySlice0"));
		mig_devices++;
	}
	/* Placements: 1g 7, 1g+me 7, 1g.20gb 4, 2g 3, 3g 2, 4g 1, 7g 1. */
	assert_int_equal(mig_devices, 25);
	for (guint i = 0; i < s->devices->len; i++) {
		const HwDevice *d = g_ptr_array_index(s->devices, i);
		const HwConsumption *c = &g_array_index(d->consumes, HwConsumption, 0);

		if (strcmp(d->name, "gpu-0-mig-3g40gb-9-4") == 0) {
			assert_non_null(counter(c->counters, "memory-slice-4"));
			assert_non_null(counter(c->counters, "memory-slice-7"));
			assert_null(counter(c->counters, "memory-slice-3"));
			assert_int_equal(counter_value(c->counters, "multiprocessors"), 60);
			assert_null(counter(c->counters, "encoders")); /* zero: not consumed */
			return;
		}
	}
	fail_msg("gpu-0-mig-3g40gb-9-4 missing");
}

/* >= 1.35: one counters-only slice, then one device slice per GPU. On Ampere with MIG
 * already on, the full GPU is not published (no live mode toggle). */
static void
test_publish__dynamic_layouts(void **state)
{
	g_autoptr(HwNode) h100 = catalog_node("dgx-h100", "all-disabled");
	g_autoptr(HwNode) a100_on = catalog_node("aws-p4d.24xlarge", "all-enabled");
	g_autoptr(GPtrArray) s135 = publish(h100, TRUE, TRUE);
	g_autoptr(GPtrArray) a100 = publish(a100_on, TRUE, FALSE);
	const HwSlice *first = g_ptr_array_index(s135, 0);

	assert_int_equal(s135->len, 9);
	assert_int_equal(first->devices->len, 0);
	assert_int_equal(first->counter_sets->len, 8);
	for (guint i = 1; i < 9; i++) {
		const HwSlice *s = g_ptr_array_index(s135, i);
		assert_int_equal(s->counter_sets->len, 0);
		assert_int_equal(s->slice_count, 9);
		assert_int_equal(s->devices->len, 26);
	}
	for (guint i = 0; i < a100->len; i++) {
		const HwSlice *s = g_ptr_array_index(a100, i);
		/* 25 MIG placements, no full GPU. */
		assert_int_equal(s->devices->len, 25);
		for (guint k = 0; k < s->devices->len; k++) {
			assert_non_null(strstr(((HwDevice *)g_ptr_array_index(s->devices, k))->name,
			                       "-mig-"));
		}
	}
}

/* p4d: GPUs and EFAs share pcieRoot in pairs, so matchAttribute can align them. */
static void
test_publish__p4d_nics(void **state)
{
	g_autoptr(HwNode) node = catalog_node("aws-p4d.24xlarge", "all-disabled");
	g_autoptr(GPtrArray) gpus = publish(node, FALSE, FALSE);
	g_autoptr(HwSlice) nics = hw_publish_dranet(node);
	const HwSlice *g = g_ptr_array_index(gpus, 0);
	static const char *const names[] = { "pci-0000-10-1b-0", "pci-0000-20-1b-0",
		                             "pci-0000-90-1b-0", "pci-0000-a0-1b-0" };
	static const char *const rdma[] = { "rdmap16s27", "rdmap32s27", "rdmap144s27",
		                            "rdmap160s27" };

	assert_non_null(nics);
	assert_string_equal(nics->driver, "dra.net");
	assert_int_equal(nics->devices->len, 4);
	for (guint i = 0; i < 4; i++) {
		const HwDevice *nic = g_ptr_array_index(nics->devices, i);
		const char *root =
		        attr_string(nic, "resource.kubernetes.io/pcieRoot", HW_ATTR_STRING);
		guint sharing = 0;

		assert_string_equal(nic->name, names[i]);
		assert_string_equal(attr_string(nic, "dra.net/rdmaDevice", HW_ATTR_STRING),
		                    rdma[i]);
		assert_string_equal(attr_string(nic, "dra.net/pciDevice", HW_ATTR_STRING),
		                    "Elastic Fabric Adapter (EFA)");
		assert_int_equal(hw_device_lookup_attr(nic, "dra.net/rdma")->num, 1);
		assert_null(hw_device_lookup_attr(nic, "dra.net/ifName"));
		for (guint k = 0; k < g->devices->len; k++) {
			const HwDevice *gpu = g_ptr_array_index(g->devices, k);

			if (strcmp(attr_string(gpu, "resource.kubernetes.io/pcieRoot",
			                       HW_ATTR_STRING),
			           root) == 0) {
				assert_true(k == 2 * i || k == 2 * i + 1);
				sharing++;
			}
		}
		assert_int_equal(sharing, 2);
	}
}

static void
test_publish__generic_driver(void **state)
{
	static const char doc[] = "driver: fpga.example.com\n"
	                          "devices:\n"
	                          "  - count: 2\n"
	                          "    name: \"fpga-{index}\"\n"
	                          "    attributes:\n"
	                          "      model: { string: u250 }\n"
	                          "      index: { int: \"{index}\" }\n"
	                          "      sriov: { bool: \"false\" }\n"
	                          "    capacity: { memory: 64Gi, lanes: \"16\" }\n"
	                          "  - count: 1\n"
	                          "    name: vf-pool\n";
	g_autoptr(GError) error = NULL;
	g_autoptr(HwGenericDriver) driver =
	        hw_generic_driver_parse("d.yaml", doc, sizeof(doc) - 1, &error);
	g_autoptr(HwSlice) slice = NULL;
	const HwDevice *d;

	if (driver == NULL) {
		fail_msg("%s", error->message);
	}
	slice = hw_generic_driver_publish(driver, "node-a");
	assert_int_equal(slice->devices->len, 3);
	d = g_ptr_array_index(slice->devices, 1);
	assert_string_equal(d->name, "fpga-1");
	assert_int_equal(hw_device_lookup_attr(d, "index")->num, 1);
	assert_int_equal(hw_device_lookup_capacity(d, "memory")->value, 64ll << 30);
	assert_int_equal(hw_device_lookup_capacity(d, "memory")->format, HW_QTY_BINARY);
	assert_int_equal(hw_device_lookup_capacity(d, "lanes")->value, 16);
}

static void
test_publish__quantities(void **state)
{
	static const struct {
		gint64 v;
		HwQtyFormat f;
		const char *want;
	} cases[] = {
		{ 0, HW_QTY_BINARY, "0" },
		{ 1, HW_QTY_DECIMAL, "1" },
		{ 132, HW_QTY_DECIMAL, "132" },
		{ 1000, HW_QTY_DECIMAL, "1k" },
		{ 40ll << 30, HW_QTY_BINARY, "40Gi" },
		{ 81559ll << 20, HW_QTY_BINARY, "81559Mi" },
		{ 1536, HW_QTY_BINARY, "1536" },
		{ 1ll << 40, HW_QTY_BINARY, "1Ti" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *text = hw_qty_format(cases[i].v, cases[i].f);
		assert_string_equal(text, cases[i].want);
	}
}

/* ---- goldens ---- */

static char *
render(const char *shape, const char *layout, gboolean dynamic)
{
	g_autoptr(HwNode) node = hw_node_new(hw_catalog_lookup_shape(catalog, shape), "node-a");
	g_autoptr(GPtrArray) nodes =
	        g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_object_free);
	g_autoptr(GPtrArray) slices = NULL;
	HwSlice *nics;

	assert_true(hw_node_apply_layout(node, layout, NULL));
	g_ptr_array_add(nodes, hw_node_object_new(node));
	slices = publish(node, dynamic, FALSE);
	nics = hw_publish_dranet(node);
	if (nics != NULL) {
		g_ptr_array_add(slices, nics);
	}
	return hw_yaml_write_list(nodes, hw_nvidia_device_classes(), slices);
}

static void
golden(const char *file, const char *shape, const char *layout, gboolean dynamic)
{
	g_autofree char *path = g_build_filename(HW_TEST_DATA, "golden", file, NULL);
	g_autofree char *got = render(shape, layout, dynamic);
	g_autofree char *want = NULL;

	if (g_getenv("DRASIM_UPDATE_GOLDEN") != NULL) {
		assert_true(g_file_set_contents(path, got, -1, NULL));
	}
	if (!g_file_get_contents(path, &want, NULL, NULL)) {
		fail_msg("missing golden %s (run with DRASIM_UPDATE_GOLDEN=1)", path);
	}
	if (strcmp(got, want) != 0) {
		g_autofree char *out = g_strdup_printf("%s.got", path);
		g_file_set_contents(out, got, -1, NULL);
		fail_msg("%s differs from the golden; see %s", file, out);
	}
}

static void
test_publish__golden_dgx_h100(void **state)
{
	golden("dgx-h100-no-mig.yaml", "dgx-h100", "all-disabled", FALSE);
	golden("dgx-h100-static-mig.yaml", "dgx-h100", "all-balanced", FALSE);
	golden("dgx-h100-dynamic-mig.yaml", "dgx-h100", "all-disabled", TRUE);
}

static void
test_publish__golden_p4d(void **state)
{
	golden("aws-p4d.yaml", "aws-p4d.24xlarge", "all-disabled", FALSE);
}

/* GLib's SHA-256 of @seed in drasim's uuid form: the value hw_node.c's own SHA-256
 * must give (it replaced g_compute_checksum_for_string for speed, issue 19). */
static char *
glib_uuid(const char *prefix, const char *seed)
{
	g_autofree char *hex = g_compute_checksum_for_string(G_CHECKSUM_SHA256, seed, -1);

	return g_strdup_printf("%s%.8s-%.4s-%.4s-%.4s-%.12s", prefix, hex, hex + 8, hex + 12,
	                       hex + 16, hex + 20);
}

/* Uuids, macs and MIG uuids of nodes whose seeds are one block (short names), end
 * at the padding boundary (55 to 56 bytes: the length needs a second block) or
 * take two blocks and more, against GLib's digests of the same seeds. */
static void
test_publish__hashed_names(void **state)
{
	const HwNodeShape *shape = hw_catalog_lookup_shape(catalog, "dgx-h100");
	static const guint lengths[] = { 1, 6, 45, 46, 47, 48, 50, 56, 63, 64, 119, 200 };

	for (guint l = 0; l < G_N_ELEMENTS(lengths); l++) {
		g_autofree char *name = g_strnfill(lengths[l], 'n');
		g_autoptr(HwNode) node = hw_node_new(shape, name);
		g_autoptr(GPtrArray) slices = NULL;
		const HwSlice *slice;

		assert_int_equal(node->gpus->len, 8);
		for (guint g = 0; g < node->gpus->len; g++) {
			const HwGpu *gpu = g_ptr_array_index(node->gpus, g);
			g_autofree char *seed = g_strdup_printf("%s/gpu-%u", name, g);
			g_autofree char *want = glib_uuid("GPU-", seed);

			assert_string_equal(gpu->uuid, want);
		}
		assert_true(node->nics->len > 0);
		for (guint n = 0; n < node->nics->len; n++) {
			const HwNic *nic = g_ptr_array_index(node->nics, n);
			g_autofree char *seed = g_strdup_printf("%s/%s", name, nic->bdf);
			g_autofree char *hex =
			        g_compute_checksum_for_string(G_CHECKSUM_SHA256, seed, -1);
			g_autofree char *want = g_strdup_printf("02:%.2s:%.2s:%.2s:%.2s:%.2s", hex,
			                                        hex + 2, hex + 4, hex + 6, hex + 8);

			assert_string_equal(nic->mac, want);
		}
		assert_true(hw_node_apply_layout(node, "1g.10gb@0,3g.40gb@4", NULL));
		slices = publish(node, FALSE, FALSE);
		slice = g_ptr_array_index(slices, 0);
		for (guint d = 0; d < slice->devices->len; d++) {
			const HwDevice *dev = g_ptr_array_index(slice->devices, d);
			const HwGpu *gpu = g_ptr_array_index(node->gpus, d / 2);
			guint start = d % 2 == 0 ? 0 : 4;
			g_autofree char *seed = g_strdup_printf("%s/%u", gpu->uuid, start);
			g_autofree char *want = glib_uuid("MIG-", seed);

			assert_string_equal(attr_string(dev, "uuid", HW_ATTR_STRING), want);
		}
	}
	(void)state;
}

/* The dranet slice of node-a renewed for node-b is the one node-b publishes (the
 * YAML of both, whole: names, pool, macs and every shape attribute); a node of
 * another shape (other NICs) is refused and leaves the slice as it was. */
static void
test_publish__dranet_renew(void **state)
{
	const HwNodeShape *dgx = hw_catalog_lookup_shape(catalog, "dgx-h100");
	g_autoptr(HwNode) a = hw_node_new(dgx, "node-a");
	g_autoptr(HwNode) b = hw_node_new(dgx, "a-much-longer-node-name-b");
	g_autoptr(HwNode) p4d =
	        hw_node_new(hw_catalog_lookup_shape(catalog, "aws-p4d.24xlarge"), "node-a");
	g_autoptr(HwSlice) renewed = hw_publish_dranet(a);
	g_autoptr(HwSlice) fresh = hw_publish_dranet(b);
	g_autoptr(GPtrArray) nodes = g_ptr_array_new();
	g_autoptr(GPtrArray) one = g_ptr_array_new();
	g_autoptr(GPtrArray) other = g_ptr_array_new();
	g_autofree char *before = NULL, *want = NULL, *got = NULL, *after = NULL;

	g_ptr_array_add(one, renewed);
	g_ptr_array_add(other, fresh);
	before = hw_yaml_write_list(nodes, NULL, one);
	want = hw_yaml_write_list(nodes, NULL, other);
	assert_string_not_equal(before, want);
	assert_false(hw_publish_dranet_renew(renewed, p4d));
	after = hw_yaml_write_list(nodes, NULL, one);
	assert_string_equal(after, before);
	assert_true(hw_publish_dranet_renew(renewed, b));
	got = hw_yaml_write_list(nodes, NULL, one);
	assert_string_equal(got, want);
	(void)state;
}

/* YAML of @slices alone. */
static char *
slices_yaml(const GPtrArray *slices)
{
	g_autoptr(GPtrArray) nodes = g_ptr_array_new();

	return hw_yaml_write_list(nodes, NULL, slices);
}

/* node-a's gpu.nvidia.com slice renewed for node-b is node-b's, with MIG off and
 * with static MIG (uuids, parentUUIDs, names); DynamicMIG and a node of another
 * layout are refused and leave it as it was. */
static void
test_publish__nvidia_renew(void **state)
{
	static const char *const layouts[] = { "all-disabled", "1g.10gb@0,3g.40gb@4" };

	for (guint l = 0; l < G_N_ELEMENTS(layouts); l++) {
		g_autoptr(HwNode) a = catalog_node("dgx-h100", layouts[l]);
		g_autoptr(HwNode) b = hw_node_new(hw_catalog_lookup_shape(catalog, "dgx-h100"),
		                                  "a-much-longer-node-name-b");
		g_autoptr(HwNode) other =
		        catalog_node("dgx-h100", l == 0 ? "all-balanced" : "all-disabled");
		g_autoptr(GPtrArray) renewed = publish(a, FALSE, FALSE);
		g_autoptr(GPtrArray) fresh = NULL;
		g_autofree char *before = slices_yaml(renewed), *want = NULL, *got = NULL;
		g_autofree char *after = NULL;
		HwPublishOptions options;

		assert_true(hw_node_apply_layout(b, layouts[l], NULL));
		fresh = publish(b, FALSE, FALSE);
		want = slices_yaml(fresh);
		assert_string_not_equal(before, want);
		hw_publish_options_init(&options);
		assert_false(hw_publish_nvidia_renew(renewed, other, &options));
		options.dynamic_mig = TRUE;
		assert_false(hw_publish_nvidia_renew(renewed, b, &options));
		after = slices_yaml(renewed);
		assert_string_equal(after, before);
		options.dynamic_mig = FALSE;
		assert_true(hw_publish_nvidia_renew(renewed, b, &options));
		got = slices_yaml(renewed);
		assert_string_equal(got, want);
	}
	(void)state;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_publish__full_gpus),
		cmocka_unit_test(test_publish__static_mig),
		cmocka_unit_test(test_publish__stranded),
		cmocka_unit_test(test_publish__names),
		cmocka_unit_test(test_publish__hashed_names),
		cmocka_unit_test(test_publish__dranet_renew),
		cmocka_unit_test(test_publish__nvidia_renew),
		cmocka_unit_test(test_publish__dynamic_mig),
		cmocka_unit_test(test_publish__dynamic_layouts),
		cmocka_unit_test(test_publish__p4d_nics),
		cmocka_unit_test(test_publish__generic_driver),
		cmocka_unit_test(test_publish__quantities),
		cmocka_unit_test(test_publish__golden_dgx_h100),
		cmocka_unit_test(test_publish__golden_p4d),
	};

	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
