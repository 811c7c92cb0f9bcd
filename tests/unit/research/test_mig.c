/*
 * test_mig.c: the dra-mig world's dynamic MIG (sim/research/research_mig.c),
 * worked by hand from NVIDIA's tables (../shared/reference/nvidia-hw.md 2.1,
 * model/hw/catalog/gpus.yaml). The A100-SXM4-40GB has 7 compute and 8 memory
 * slices; its profiles, in catalog order (index: name, compute slices,
 * memory slices, valid starts):
 *   0: 1g.5gb     1  1  0,1,2,3,4,5,6
 *   1: 1g.5gb+me  1  1  0..6 (never chosen)
 *   2: 1g.10gb    1  2  0,2,4,6
 *   3: 2g.10gb    2  2  0,2,4
 *   4: 3g.20gb    3  4  0,4
 *   5: 4g.20gb    4  4  0
 *   6: 7g.40gb    7  8  0
 * The differential test against the real allocator is test_mig_alloc.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "research_mig.h"

enum { P1G5, P1G5ME, P1G10, P2G, P3G, P4G, P7G };

static ResearchMig *
a100(void)
{
	g_autoptr(GError) error = NULL;
	ResearchMig *mig = research_mig_new(NULL, &error);

	if (mig == NULL) {
		fail_msg("%s", error->message);
	}
	assert_string_equal(research_mig_model_name(mig), "a100-sxm4-40gb");
	return mig;
}

/*
 * A pod of m milli needs k compute slices with k / 7 >= m / 1000, i.e.
 * 1000 k >= 7 m:
 *   100 -> 700 <= 1000: 1g (1g.5gb, less memory than 1g.10gb)
 *   142 -> 994 <= 1000: 1g;   143 -> 1001 > 1000: 2g
 *   150 -> 1050: 2g;  285 -> 1995: 2g;  286 -> 2002: 3g;  300 -> 2100: 3g
 *   428 -> 2996: 3g;  429 -> 3003 > 3000: 4g;  430 -> 3010: 4g
 *   571 -> 3997: 4g;  572 -> 4004 > 4000: 7g;  600, 999: 7g
 *   1000: the full GPU (-1), as is anything larger.
 */
static void
test_mig__profile_for(void **state)
{
	static const struct {
		guint32 milli;
		gint profile;
	} cases[] = {
		{ 1, P1G5 },  { 100, P1G5 }, { 142, P1G5 }, { 143, P2G }, { 150, P2G },
		{ 285, P2G }, { 286, P3G },  { 300, P3G },  { 428, P3G }, { 429, P4G },
		{ 430, P4G }, { 571, P4G },  { 572, P7G },  { 600, P7G }, { 999, P7G },
		{ 1000, -1 }, { 2000, -1 },
	};
	g_autoptr(ResearchMig) mig = a100();

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		gint got = research_mig_profile_for(mig, cases[i].milli);

		if (got != cases[i].profile) {
			fail_msg("milli %u: got %s, expected %s", cases[i].milli,
			         research_mig_profile_name(mig, got),
			         research_mig_profile_name(mig, cases[i].profile));
		}
	}
}

/* Names and shares: floor(k / 7 * 1000) for k = 1, 2, 3, 4, 7; the full GPU 1000. */
static void
test_mig__profile_milli(void **state)
{
	g_autoptr(ResearchMig) mig = a100();

	assert_string_equal(research_mig_profile_name(mig, -1), "gpu");
	assert_string_equal(research_mig_profile_name(mig, P1G5), "1g.5gb");
	assert_string_equal(research_mig_profile_name(mig, P1G10), "1g.10gb");
	assert_string_equal(research_mig_profile_name(mig, P3G), "3g.20gb");
	assert_string_equal(research_mig_profile_name(mig, P7G), "7g.40gb");
	assert_int_equal(research_mig_profile_milli(mig, -1), 1000);
	assert_int_equal(research_mig_profile_milli(mig, P1G5), 142);
	assert_int_equal(research_mig_profile_milli(mig, P1G10), 142);
	assert_int_equal(research_mig_profile_milli(mig, P2G), 285);
	assert_int_equal(research_mig_profile_milli(mig, P3G), 428);
	assert_int_equal(research_mig_profile_milli(mig, P4G), 571);
	assert_int_equal(research_mig_profile_milli(mig, P7G), 1000);
}

/* First fit on @gpus (@n of them), then take; returns the start, checks the GPU. */
static guint
place(const ResearchMig *mig, ResearchMigGpu *gpus, guint n, gint profile, guint expect_gpu)
{
	guint gpu = 99, start = 99;

	if (!research_mig_first_fit(mig, gpus, n, profile, &gpu, &start)) {
		fail_msg("%s found no room", research_mig_profile_name(mig, profile));
	}
	assert_int_equal(gpu, expect_gpu);
	research_mig_take(mig, &gpus[gpu], profile, start);
	return start;
}

static gboolean
fits(const ResearchMig *mig, const ResearchMigGpu *gpus, guint n, gint profile)
{
	guint gpu, start;

	return research_mig_first_fit(mig, gpus, n, profile, &gpu, &start);
}

/*
 * One GPU. 4g.20gb: start 0 is its only one, slices 0-3. 3g.20gb: start 0
 * overlaps, so 4, slices 4-7; compute 4 + 3 = 7. A 1g.5gb then has no free
 * memory slice (and no compute slice): refused.
 */
static void
test_mig__sequence_4g_3g_1g(void **state)
{
	g_autoptr(ResearchMig) mig = a100();
	ResearchMigGpu gpu = { 0 };

	assert_int_equal(place(mig, &gpu, 1, P4G, 0), 0);
	assert_int_equal(gpu.memory_used, 0x0f);
	assert_int_equal(place(mig, &gpu, 1, P3G, 0), 4);
	assert_int_equal(gpu.memory_used, 0xff);
	assert_int_equal(gpu.compute_used, 7);
	assert_int_equal(gpu.instances, 2);
	assert_false(fits(mig, &gpu, 1, P1G5));
	assert_false(fits(mig, &gpu, 1, -1));
}

/*
 * Memory strands compute. 3g.20gb at 0 (slices 0-3). 4g.20gb: start 0 only,
 * taken: refused. 2g.10gb: starts 0, 2 overlap, 4 is free (slices 4-5).
 * 1g.10gb: starts 0, 2, 4 overlap, 6 free (slices 6-7). Compute 3+2+1 = 6 of
 * 7, yet a 1g.5gb finds no free memory slice: refused.
 */
static void
test_mig__sequence_memory_strands_compute(void **state)
{
	g_autoptr(ResearchMig) mig = a100();
	ResearchMigGpu gpu = { 0 };

	assert_int_equal(place(mig, &gpu, 1, P3G, 0), 0);
	assert_false(fits(mig, &gpu, 1, P4G));
	assert_int_equal(place(mig, &gpu, 1, P2G, 0), 4);
	assert_int_equal(place(mig, &gpu, 1, P1G10, 0), 6);
	assert_int_equal(gpu.compute_used, 6);
	assert_int_equal(gpu.memory_used, 0xff);
	assert_false(fits(mig, &gpu, 1, P1G5));
}

/*
 * Compute binds with a memory slice free: seven 1g.5gb take starts 0..6
 * (slices 0-6, compute 7); slice 7 is free but no 1g starts there, and the
 * compute slices are gone.
 */
static void
test_mig__seven_1g(void **state)
{
	g_autoptr(ResearchMig) mig = a100();
	ResearchMigGpu gpu = { 0 };

	for (guint i = 0; i < 7; i++) {
		assert_int_equal(place(mig, &gpu, 1, P1G5, 0), i);
	}
	assert_int_equal(gpu.memory_used, 0x7f);
	assert_int_equal(gpu.compute_used, 7);
	assert_false(fits(mig, &gpu, 1, P1G5));
	assert_false(fits(mig, &gpu, 1, P1G10));
}

/*
 * The full GPU is refused once an instance exists, and an instance once the
 * full GPU is taken; first fit goes to the lowest GPU with room.
 */
static void
test_mig__full_gpu_and_instances_exclude(void **state)
{
	g_autoptr(ResearchMig) mig = a100();
	ResearchMigGpu gpus[3] = { { 0 } };

	/* 1g.5gb on GPU 0, start 0. The full GPU skips GPU 0 and takes GPU 1. */
	assert_int_equal(place(mig, gpus, 3, P1G5, 0), 0);
	assert_int_equal(place(mig, gpus, 3, -1, 1), 0);
	assert_true(gpus[1].whole);
	assert_int_equal(gpus[1].instances, 1);
	assert_int_equal(gpus[1].memory_used, 0xff);
	/* Another 1g.5gb stays on GPU 0 (start 1); a 7g.40gb needs an idle GPU: GPU 2. */
	assert_int_equal(place(mig, gpus, 3, P1G5, 0), 1);
	assert_int_equal(place(mig, gpus, 3, P7G, 2), 0);
	/* GPU 0 holds slices 0-1, GPU 1 is whole, GPU 2 holds a 7g: no full GPU
	 * left, no 4g (start 0 only); a 3g fits GPU 0 at 4, nothing fits GPUs 1-2. */
	assert_false(fits(mig, gpus, 3, -1));
	assert_false(fits(mig, gpus, 3, P4G));
	assert_int_equal(place(mig, gpus, 3, P3G, 0), 4);
	assert_false(fits(mig, &gpus[1], 2, P1G5));
}

/* Unknown and non-MIG models are refused, naming the MIG-capable ones. */
static void
test_mig__bad_model(void **state)
{
	g_autoptr(GError) error = NULL;
	ResearchMig *mig = research_mig_new("t4-16gb", &error);

	assert_null(mig);
	assert_non_null(strstr(error->message, "\"t4-16gb\" has no MIG"));
	assert_non_null(strstr(error->message, "a100-sxm4-40gb"));
	assert_non_null(strstr(error->message, "h100-sxm5-80gb"));
	assert_non_null(strstr(error->message, "a30-24gb"));
	g_clear_error(&error);
	mig = research_mig_new("a100", &error);
	assert_null(mig);
	assert_non_null(strstr(error->message, "unknown GPU model \"a100\""));
	assert_non_null(strstr(error->message, "a100-sxm4-40gb"));
}

/*
 * A30: 4 compute, 4 memory slices. 1g.6gb covers 250 milli, 2g.12gb 500,
 * 4g.24gb 1000; so 251 -> 2g, 501 -> 4g, 1000 -> the full GPU.
 */
static void
test_mig__other_model(void **state)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(ResearchMig) mig = research_mig_new("a30-24gb", &error);

	assert_non_null(mig);
	assert_string_equal(research_mig_profile_name(mig, research_mig_profile_for(mig, 250)),
	                    "1g.6gb");
	assert_string_equal(research_mig_profile_name(mig, research_mig_profile_for(mig, 251)),
	                    "2g.12gb");
	assert_string_equal(research_mig_profile_name(mig, research_mig_profile_for(mig, 501)),
	                    "4g.24gb");
	assert_int_equal(research_mig_profile_for(mig, 1000), -1);
	assert_int_equal(research_mig_profile_milli(mig, research_mig_profile_for(mig, 250)), 250);
}

/*
 * Two made-up models on the eight-slice geometry (1g, 2g, 7g), differing in
 * the 2g's decoders. The driver's counter set holds each engine at its
 * largest profile value: 5 decoders (7g). With 1 decoder per 2g, three 2g
 * (the most the slices allow) take 3: the counters agree with the slice
 * rules. With 3 per 2g, two 2g (compute 4, disjoint slices) need 6 > 5: the
 * counters refuse what the slices allow, and the model is refused with why.
 */
static const char odd_doc[] =
        "schema: drasim.hw/v1\n"
        "placement_tables:\n"
        "  small-eight:\n"
        "    1g: { compute_slices: 1, size: 1, starts: [0, 1, 2, 3, 4, 5, 6] }\n"
        "    2g: { compute_slices: 2, size: 2, starts: [0, 2, 4] }\n"
        "    7g: { compute_slices: 7, size: 8, starts: [0] }\n"
        "gpu_models:\n"
        "%s";
static const char odd_model[] =
        "  - id: %s\n"
        "    product_name: %s\n"
        "    brand: Nvidia\n"
        "    architecture: Ampere\n"
        "    compute_capability: \"8.0\"\n"
        "    memory_mib: 40960\n"
        "    sms: 108\n"
        "    confidence: inferred\n"
        "    mig:\n"
        "      compute_slices: 7\n"
        "      memory_slices: 8\n"
        "      mode_toggle_requires_reset: true\n"
        "      placement_table: small-eight\n"
        "      profiles:\n"
        "        - { name: 1g.5gb, gi_profile_id: 19, class: 1g, memory_mib: 4864, sms: 14, "
        "copy_engines: 1, decoders: 0, encoders: 0, jpeg: 0, ofa: 0, max_count: 7, "
        "confidence: inferred }\n"
        "        - { name: 2g.10gb, gi_profile_id: 14, class: 2g, memory_mib: 9856, sms: 28, "
        "copy_engines: 2, decoders: %u, encoders: 0, jpeg: 0, ofa: 0, max_count: 3, "
        "confidence: inferred }\n"
        "        - { name: 7g.40gb, gi_profile_id: 0, class: 7g, memory_mib: 40192, sms: 98, "
        "copy_engines: 7, decoders: 5, encoders: 0, jpeg: 1, ofa: 1, max_count: 1, "
        "confidence: inferred }\n";

static void
test_mig__counters_must_agree(void **state)
{
	g_autofree char *even = g_strdup_printf(odd_model, "even-gpu", "Even GPU", 1u);
	g_autofree char *odd = g_strdup_printf(odd_model, "odd-gpu", "Odd GPU", 3u);
	g_autofree char *models = g_strconcat(even, odd, NULL);
	g_autofree char *doc = g_strdup_printf(odd_doc, models);
	g_autoptr(HwCatalog) catalog = hw_catalog_new_empty();
	g_autoptr(GError) error = NULL;
	g_autoptr(ResearchMig) good = NULL;
	ResearchMig *bad;

	if (!hw_catalog_load_data(catalog, "odd.yaml", doc, strlen(doc), &error)) {
		fail_msg("%s", error->message);
	}
	good = research_mig_new_for_model(hw_catalog_lookup_gpu(catalog, "even-gpu"), &error);
	assert_non_null(good);
	assert_string_equal(research_mig_model_name(good), "even-gpu");
	bad = research_mig_new_for_model(hw_catalog_lookup_gpu(catalog, "odd-gpu"), &error);
	assert_null(bad);
	assert_non_null(strstr(error->message, "\"odd-gpu\" is not supported"));
	assert_non_null(strstr(error->message, "adding 2g.10gb at 2 to {"));
	assert_non_null(strstr(error->message, "2g.10gb at 0}: the driver's counters refuse it, "
	                                       "the slice rules allow it"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mig__profile_for),
		cmocka_unit_test(test_mig__profile_milli),
		cmocka_unit_test(test_mig__sequence_4g_3g_1g),
		cmocka_unit_test(test_mig__sequence_memory_strands_compute),
		cmocka_unit_test(test_mig__seven_1g),
		cmocka_unit_test(test_mig__full_gpu_and_instances_exclude),
		cmocka_unit_test(test_mig__bad_model),
		cmocka_unit_test(test_mig__other_model),
		cmocka_unit_test(test_mig__counters_must_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
