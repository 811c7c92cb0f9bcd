/*
 * test_catalog.c: the built-in hardware catalog loads and holds what issue 5 lists,
 * scenario documents override and extend it, and every kind of bad data gives one
 * positioned error (tests/data/hw/bad/: each file names its expected error on its
 * first line as "# expect: LINE:COL: error: message [path]").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "base.h"
#include "hw.h"

static HwCatalog *
builtin(void)
{
	g_autoptr(GError) error = NULL;
	HwCatalog *catalog = hw_catalog_new_builtin(&error);

	if (catalog == NULL) {
		fail_msg("builtin catalog: %s", error->message);
	}
	return catalog;
}

static void
test_catalog__models_listed_in_issue(void **state)
{
	g_autoptr(HwCatalog) catalog = builtin();
	static const struct {
		const char *id, *product, *arch;
		guint cc_major, cc_minor;
		gboolean mig;
	} want[] = {
		{ "a100-sxm4-40gb", "NVIDIA A100-SXM4-40GB", "Ampere", 8, 0, TRUE },
		{ "a100-sxm4-80gb", "NVIDIA A100-SXM4-80GB", "Ampere", 8, 0, TRUE },
		{ "h100-sxm5-80gb", "NVIDIA H100 80GB HBM3", "Hopper", 9, 0, TRUE },
		{ "h100-nvl-94gb", "NVIDIA H100 NVL", "Hopper", 9, 0, TRUE },
		{ "h200-141gb", "NVIDIA H200", "Hopper", 9, 0, TRUE },
		{ "gh200-144gb", "NVIDIA GH200 144G HBM3e", "Hopper", 9, 0, TRUE },
		{ "b200-180gb", "NVIDIA B200", "Blackwell", 10, 0, TRUE },
		{ "a30-24gb", "NVIDIA A30", "Ampere", 8, 0, TRUE },
		{ "l4-24gb", "NVIDIA L4", "Ada Lovelace", 8, 9, FALSE },
		{ "t4-16gb", "Tesla T4", "Turing", 7, 5, FALSE },
		{ "a10-24gb", "NVIDIA A10", "Ampere", 8, 6, FALSE },
		{ "v100-sxm2-32gb", "Tesla V100-SXM2-32GB", "Volta", 7, 0, FALSE },
	};

	for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
		const HwGpuModel *m = hw_catalog_lookup_gpu(catalog, want[i].id);

		assert_non_null(m);
		assert_string_equal(m->product_name, want[i].product);
		assert_string_equal(m->architecture, want[i].arch);
		assert_int_equal(m->cc_major, want[i].cc_major);
		assert_int_equal(m->cc_minor, want[i].cc_minor);
		assert_int_equal(m->mig != NULL, want[i].mig);
		assert_true(m->memory_mib > 0 && m->sms > 0);
	}
}

/* nvidia-hw.md 2.1: the 8-slice placement table and GI profile ids. */
static void
test_catalog__a100_profiles(void **state)
{
	g_autoptr(HwCatalog) catalog = builtin();
	const HwGpuModel *m = hw_catalog_lookup_gpu(catalog, "a100-sxm4-40gb");
	static const struct {
		const char *name;
		guint id, cs, size, n_starts, first, last, max, sms, dec, jpeg, ofa;
		guint64 mib;
	} want[] = {
		{ "1g.5gb", 19, 1, 1, 7, 0, 6, 7, 14, 0, 0, 0, 4864 },
		{ "1g.5gb+me", 20, 1, 1, 7, 0, 6, 1, 14, 1, 1, 1, 4864 },
		{ "1g.10gb", 15, 1, 2, 4, 0, 6, 4, 14, 1, 0, 0, 9856 },
		{ "2g.10gb", 14, 2, 2, 3, 0, 4, 3, 28, 1, 0, 0, 9856 },
		{ "3g.20gb", 9, 3, 4, 2, 0, 4, 2, 42, 2, 0, 0, 19968 },
		{ "4g.20gb", 5, 4, 4, 1, 0, 0, 1, 56, 2, 0, 0, 19968 },
		{ "7g.40gb", 0, 7, 8, 1, 0, 0, 1, 98, 5, 1, 1, 40192 },
	};

	assert_int_equal(m->mig->compute_slices, 7);
	assert_int_equal(m->mig->memory_slices, 8);
	assert_true(m->mig->mode_toggle_requires_reset);
	assert_int_equal(m->mig->profiles->len, G_N_ELEMENTS(want));
	for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
		const HwMigProfile *p = hw_gpu_model_lookup_profile(m, want[i].name);

		assert_non_null(p);
		assert_int_equal(p->gi_profile_id, want[i].id);
		assert_int_equal(p->compute_slices, want[i].cs);
		assert_int_equal(p->size, want[i].size);
		assert_int_equal(p->n_starts, want[i].n_starts);
		assert_int_equal(p->starts[0], want[i].first);
		assert_int_equal(p->starts[p->n_starts - 1], want[i].last);
		assert_int_equal(p->max_count, want[i].max);
		assert_int_equal(p->sms, want[i].sms);
		assert_int_equal(p->decoders, want[i].dec);
		assert_int_equal(p->jpeg, want[i].jpeg);
		assert_int_equal(p->ofa, want[i].ofa);
		assert_int_equal(p->memory_mib, want[i].mib);
		assert_int_equal(p->media_extensions, g_str_has_suffix(want[i].name, "+me"));
	}
	assert_int_equal(m->mig->balanced->len, 4); /* 2x 1g.5gb + 2g.10gb + 3g.20gb */
}

/* Facts the reference marks UNCONFIRMED keep their mark. */
static void
test_catalog__confidence_kept(void **state)
{
	g_autoptr(HwCatalog) catalog = builtin();
	const HwGpuModel *b200 = hw_catalog_lookup_gpu(catalog, "b200-180gb");
	const HwGpuModel *h200 = hw_catalog_lookup_gpu(catalog, "h200-141gb");

	assert_int_equal(b200->confidence, HW_CONFIDENCE_UNCONFIRMED);
	assert_int_equal(hw_gpu_model_lookup_profile(b200, "7g.180gb")->confidence,
	                 HW_CONFIDENCE_UNCONFIRMED);
	assert_int_equal(hw_gpu_model_lookup_profile(b200, "1g.23gb")->confidence,
	                 HW_CONFIDENCE_CONFIRMED);
	assert_int_equal(hw_gpu_model_lookup_profile(h200, "3g.71gb")->confidence,
	                 HW_CONFIDENCE_CONFIRMED);
	assert_int_equal(hw_catalog_lookup_shape(catalog, "dgx-h100")->confidence,
	                 HW_CONFIDENCE_UNCONFIRMED);
	assert_int_equal(hw_catalog_lookup_shape(catalog, "aws-p4d.24xlarge")->confidence,
	                 HW_CONFIDENCE_CONFIRMED);
}

static void
test_catalog__shapes_listed_in_issue(void **state)
{
	g_autoptr(HwCatalog) catalog = builtin();
	static const char *const ids[] = { "dgx-a100-640gb",    "dgx-h100",
		                           "dgx-b200",          "aws-p4d.24xlarge",
		                           "aws-p4de.24xlarge", "aws-p5.48xlarge",
		                           "aws-p5e.48xlarge",  "gcp-a2-highgpu-8g",
		                           "gcp-a3-highgpu-8g", "azure-nd96isr-h100-v5" };

	for (guint i = 0; i < G_N_ELEMENTS(ids); i++) {
		const HwNodeShape *s = hw_catalog_lookup_shape(catalog, ids[i]);
		guint gpus = 0;

		assert_non_null(s);
		assert_non_null(s->gpu_model);
		for (guint r = 0; r < s->roots->len; r++) {
			gpus += ((HwPcieRoot *)g_ptr_array_index(s->roots, r))->gpu_bdfs->len;
		}
		assert_int_equal(gpus, 8);
		assert_true(s->cpus > 0 && s->memory_gib > 0);
	}
}

/* p4d: the live grouping, 4 roots of 2 GPUs and 1 EFA each (nvidia-hw.md 3.1). */
static void
test_catalog__p4d_roots(void **state)
{
	g_autoptr(HwCatalog) catalog = builtin();
	const HwNodeShape *s = hw_catalog_lookup_shape(catalog, "aws-p4d.24xlarge");
	static const char *const roots[] = { "pci0000:10", "pci0000:20", "pci0000:90",
		                             "pci0000:a0" };

	assert_false(s->synthetic_topology);
	assert_int_equal(s->roots->len, 4);
	for (guint r = 0; r < 4; r++) {
		const HwPcieRoot *root = g_ptr_array_index(s->roots, r);

		assert_string_equal(root->root, roots[r]);
		assert_int_equal(root->gpu_bdfs->len, 2);
		assert_int_equal(root->nics->len, 1);
		assert_string_equal(g_array_index(root->nics, HwShapeNic, 0).model->id, "aws-efa");
	}
}

static const char override_doc[] = "schema: drasim.hw/v1\n"
                                   "gpu_models:\n"
                                   "  - id: h100-sxm5-80gb\n"
                                   "    product_name: NVIDIA H100 OVERRIDDEN\n"
                                   "    architecture: Hopper\n"
                                   "    compute_capability: \"9.0\"\n"
                                   "    memory_mib: 81920\n"
                                   "    sms: 132\n"
                                   "node_shapes:\n"
                                   "  - id: my-box\n"
                                   "    gpu_model: l4-24gb\n"
                                   "    cpus: 32\n"
                                   "    memory_gib: 128\n"
                                   "    numa_nodes: 1\n"
                                   "    pcie_roots: [{ root: pci0000:00, numa: 0, gpus: "
                                   "[\"0000:01:00.0\", \"0000:02:00.0\"] }]\n";

/* A scenario document replaces a model by id (shapes follow it) and adds a shape. */
static void
test_catalog__override_and_extend(void **state)
{
	g_autoptr(HwCatalog) catalog = builtin();
	g_autoptr(GError) error = NULL;
	const HwNodeShape *before = hw_catalog_lookup_shape(catalog, "dgx-h100");
	guint n_gpus = hw_catalog_get_gpus(catalog)->len;

	assert_true(hw_catalog_load_data(catalog, "scenario.yaml", override_doc,
	                                 sizeof(override_doc) - 1, &error));
	assert_int_equal(hw_catalog_get_gpus(catalog)->len, n_gpus);
	assert_string_equal(hw_catalog_lookup_gpu(catalog, "h100-sxm5-80gb")->product_name,
	                    "NVIDIA H100 OVERRIDDEN");
	assert_null(hw_catalog_lookup_gpu(catalog, "h100-sxm5-80gb")->mig);
	assert_ptr_equal(hw_catalog_lookup_shape(catalog, "dgx-h100"), before);
	assert_string_equal(before->gpu_model->product_name, "NVIDIA H100 OVERRIDDEN");
	assert_non_null(hw_catalog_lookup_shape(catalog, "my-box"));
}

/* A failed load leaves the catalog exactly as it was. */
static void
test_catalog__failed_load_changes_nothing(void **state)
{
	g_autoptr(HwCatalog) catalog = builtin();
	g_autoptr(GError) error = NULL;
	static const char doc[] =
	        "schema: drasim.hw/v1\n"
	        "node_shapes:\n"
	        "  - { id: box-a, gpu_model: l4-24gb, cpus: 1, memory_gib: 1, numa_nodes: 1,\n"
	        "      pcie_roots: [{ root: pci0000:00, numa: 0, gpus: [\"0000:01:00.0\"] }] }\n"
	        "  - { id: box-b, gpu_model: nope, cpus: 1, memory_gib: 1, numa_nodes: 1,\n"
	        "      pcie_roots: [{ root: pci0000:00, numa: 0, gpus: [\"0000:01:00.0\"] }] }\n";

	assert_false(hw_catalog_load_data(catalog, "s.yaml", doc, sizeof(doc) - 1, &error));
	assert_null(hw_catalog_lookup_shape(catalog, "box-a"));
}

static void
test_catalog__pools(void **state)
{
	g_autoptr(HwCatalog) catalog = builtin();
	g_autoptr(GError) error = NULL;
	static const char doc[] =
	        "schema: drasim.hw/v1\n"
	        "node_pools:\n"
	        "  - { name: a, shape: dgx-h100, count: 2, mig: all-balanced }\n"
	        "  - { name: b, shape: dgx-h100, count: 1, mig: dynamic }\n"
	        "  - name: c\n"
	        "    shape: aws-p4d.24xlarge\n"
	        "    count: 3\n"
	        "    mig: [{ profile: 3g.20gb, start: 4 }, { profile: 4g.20gb, start: 0 }]\n";

	if (!hw_catalog_load_data(catalog, "pools.yaml", doc, sizeof(doc) - 1, &error)) {
		fail_msg("%s", error->message);
	}
	assert_int_equal(hw_catalog_get_pools(catalog)->len, 3);
	assert_string_equal(hw_catalog_lookup_pool(catalog, "a")->layout, "all-balanced");
	assert_true(hw_catalog_lookup_pool(catalog, "b")->dynamic_mig);
	assert_string_equal(hw_catalog_lookup_pool(catalog, "c")->layout, "3g.20gb@4,4g.20gb@0");
	assert_int_equal(hw_catalog_lookup_pool(catalog, "c")->count, 3);
}

static char *
expected_error(const char *data)
{
	const char *start = strstr(data, "# expect: ");
	const char *end;

	assert_non_null(start);
	start += strlen("# expect: ");
	end = strchr(start, '\n');
	return g_strndup(start, (gsize)(end - start));
}

static void
test_catalog__bad_data(void **state)
{
	g_autofree char *dir_path = g_build_filename(HW_TEST_DATA, "bad", NULL);
	g_autoptr(GDir) dir = g_dir_open(dir_path, 0, NULL);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *name;
	guint failures = 0;

	assert_non_null(dir);
	while ((name = g_dir_read_name(dir)) != NULL) {
		g_ptr_array_add(names, g_strdup(name));
	}
	assert_true(names->len >= 10);
	for (guint i = 0; i < names->len; i++) {
		g_autofree char *path = g_build_filename(dir_path, names->pdata[i], NULL);
		g_autofree char *data = NULL;
		g_autofree char *expect = NULL;
		g_autofree char *want = NULL;
		g_autoptr(GError) error = NULL;
		g_autoptr(HwCatalog) catalog = builtin();
		gsize len = 0;
		gboolean ok;

		assert_true(g_file_get_contents(path, &data, &len, NULL));
		expect = expected_error(data);
		if (g_str_has_prefix(names->pdata[i], "generic-")) {
			g_autoptr(HwGenericDriver) driver =
			        hw_generic_driver_parse(path, data, len, &error);
			ok = driver != NULL;
		} else {
			ok = hw_catalog_load_data(catalog, path, data, len, &error);
		}
		want = g_strdup_printf("%s:%s", path, expect);
		if (ok || strcmp(error->message, want) != 0) {
			print_message("# %s\n#   want: %s\n#   got:  %s\n", (char *)names->pdata[i],
			              want, ok ? "(loaded)" : error->message);
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

/*
 * The catalog reader is held to the same YAML limits as every input (base.h). Depth 3:
 * the root mapping, gpu_models' list and its first item are three open collections, so
 * the '[' at line 3, column 9 ("  - id: [" : the bracket is the 9th character) is the
 * fourth level. Nodes 5: root mapping, "schema", its value, "gpu_models", "[]" are
 * five; the sixth, the key "nic_models" at 3:1, is over.
 */
static void
test_catalog__yaml_limits(void **state)
{
	static const char deep[] = "schema: drasim.hw/v1\n"
	                           "gpu_models:\n"
	                           "  - id: [[[x]]]\n";
	static const char many[] = "schema: drasim.hw/v1\n"
	                           "gpu_models: []\n"
	                           "nic_models: []\n";
	g_autoptr(HwCatalog) catalog = builtin();
	g_autoptr(GError) error = NULL;

	base_limit_set(BASE_LIMIT_YAML_DEPTH, 3);
	assert_false(hw_catalog_load_data(catalog, "d.yaml", deep, sizeof(deep) - 1, &error));
	assert_string_equal(error->message,
	                    "d.yaml:3:9: error: nesting deeper than 3 levels (the YAML nesting "
	                    "depth limit; DRASIM_MAX_YAML_DEPTH sets it, up to 100) [<document>]");
	base_limit_set(BASE_LIMIT_YAML_DEPTH, 0);
	g_clear_error(&error);
	base_limit_set(BASE_LIMIT_YAML_NODES, 5);
	assert_false(hw_catalog_load_data(catalog, "n.yaml", many, sizeof(many) - 1, &error));
	assert_string_equal(error->message,
	                    "n.yaml:3:1: error: more than 5 YAML nodes in the file: the YAML "
	                    "nodes limit is 5 (set DRASIM_MAX_YAML_NODES to raise it) "
	                    "[<document>]");
	base_limit_set(BASE_LIMIT_YAML_NODES, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalog__models_listed_in_issue),
		cmocka_unit_test(test_catalog__a100_profiles),
		cmocka_unit_test(test_catalog__confidence_kept),
		cmocka_unit_test(test_catalog__shapes_listed_in_issue),
		cmocka_unit_test(test_catalog__p4d_roots),
		cmocka_unit_test(test_catalog__override_and_extend),
		cmocka_unit_test(test_catalog__failed_load_changes_nothing),
		cmocka_unit_test(test_catalog__pools),
		cmocka_unit_test(test_catalog__bad_data),
		cmocka_unit_test(test_catalog__yaml_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
