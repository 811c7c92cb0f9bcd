/*
 * test_mig.c: MIG geometry. Each of NVIDIA's rules gets one legal and one illegal
 * layout; named layouts place deterministically; reconfiguration needs an idle GPU
 * and a reset only on Ampere; and the DRA driver's counter model (memory-slice-N plus
 * engine counters at the largest profile's values) accepts exactly the legal layouts:
 * every legal layout fits the counters, and every legal layout plus one more instance
 * that breaks a rule exceeds some counter.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "hw.h"
#include "hw_test_catalog.h"

static const HwGpuModel *
gpu(const char *id)
{
	const HwGpuModel *m = hw_catalog_lookup_gpu(catalog, id);

	assert_non_null(m);
	return m;
}

static HwMigInstance
inst(const HwGpuModel *m, const char *profile, guint start)
{
	const HwMigProfile *p = hw_gpu_model_lookup_profile(m, profile);

	assert_non_null(p);
	return (HwMigInstance){ p, start };
}

static HwMigVerdict
check2(const char *model, const char *p1, guint s1, const char *p2, guint s2, char **reason)
{
	const HwGpuModel *m = gpu(model);
	HwMigInstance layout[2] = { inst(m, p1, s1), inst(m, p2, s2) };

	return hw_mig_check(m, layout, 2, reason);
}

/* A two-instance layout check: the layout that keeps the rule passes, the one
 * that breaks it gets @verdict and @reason. */
typedef struct {
	const char *ok_model, *ok_p1, *ok_p2;
	guint ok_s1, ok_s2;
	const char *bad_model, *bad_p1, *bad_p2;
	guint bad_s1, bad_s2;
	HwMigVerdict verdict;
	const char *reason;
} MigRuleCase;

static void
check_rule(const MigRuleCase *c)
{
	g_autofree char *reason = NULL;

	assert_int_equal(check2(c->ok_model, c->ok_p1, c->ok_s1, c->ok_p2, c->ok_s2, NULL),
	                 HW_MIG_OK);
	assert_int_equal(check2(c->bad_model, c->bad_p1, c->bad_s1, c->bad_p2, c->bad_s2, &reason),
	                 c->verdict);
	assert_string_equal(reason, c->reason);
}

static void
test_mig__rule_valid_start(void **state)
{
	check_rule(&(MigRuleCase){ "h100-sxm5-80gb", "3g.40gb", "2g.20gb", 4, 0, "h100-sxm5-80gb",
	                           "3g.40gb", "1g.10gb", 2, 0, HW_MIG_BAD_START,
	                           "3g.40gb cannot start at memory slice 2 (valid starts: 0, 4)" });
}

static void
test_mig__rule_no_overlap(void **state)
{
	check_rule(&(MigRuleCase){ "a100-sxm4-40gb", "1g.10gb", "3g.20gb", 6, 0, "a100-sxm4-40gb",
	                           "1g.10gb", "3g.20gb", 2, 0, HW_MIG_OVERLAP,
	                           "3g.20gb at 0 overlaps 1g.10gb at 2 on memory slice 2" });
}

/* Seven compute slices: 4g + 3g is the full GPU. Over seven needs a model whose
 * geometry allows it, so a test-only GPU with a wider memory table is loaded. */
static void
test_mig__rule_compute_slices(void **state)
{
	g_autofree char *reason = NULL;
	static const char doc[] =
	        "schema: drasim.hw/v1\n"
	        "placement_tables:\n"
	        "  wide: { 4g: { compute_slices: 4, size: 2, starts: [0, 2, 4, 6] } }\n"
	        "gpu_models:\n"
	        "  - id: wide-gpu\n"
	        "    product_name: Wide\n"
	        "    architecture: Hopper\n"
	        "    compute_capability: \"9.0\"\n"
	        "    memory_mib: 1024\n"
	        "    sms: 4\n"
	        "    mig:\n"
	        "      compute_slices: 7\n"
	        "      memory_slices: 8\n"
	        "      mode_toggle_requires_reset: false\n"
	        "      placement_table: wide\n"
	        "      profiles:\n"
	        "        - { name: 4g.1gb, gi_profile_id: 5, class: 4g, memory_mib: 256, sms: 1,"
	        " copy_engines: 1, decoders: 0, encoders: 0, jpeg: 0, ofa: 0, max_count: 4 }\n";
	g_autoptr(GError) error = NULL;

	assert_int_equal(check2("h100-sxm5-80gb", "4g.40gb", 0, "3g.40gb", 4, NULL), HW_MIG_OK);
	assert_true(hw_catalog_load_data(catalog, "wide.yaml", doc, sizeof(doc) - 1, &error));
	assert_int_equal(check2("wide-gpu", "4g.1gb", 0, "4g.1gb", 2, &reason), HW_MIG_COMPUTE);
	assert_string_equal(reason, "the layout uses 8 compute slices, Wide has 7");
}

static void
test_mig__rule_one_media_extension(void **state)
{
	check_rule(&(MigRuleCase){ "h100-sxm5-80gb", "1g.10gb+me", "1g.10gb", 0, 1, "a30-24gb",
	                           "1g.6gb+me", "2g.12gb+me", 0, 2, HW_MIG_MEDIA_EXT,
	                           "the layout has 2 +me instances, at most one is allowed" });
}

static void
test_mig__rule_max_count(void **state)
{
	const HwGpuModel *m = gpu("h200-141gb");
	HwMigInstance ok[7], bad[2] = { inst(m, "1g.18gb+me", 0), inst(m, "1g.18gb+me", 1) };
	g_autofree char *reason = NULL;

	for (guint i = 0; i < 7; i++) {
		ok[i] = inst(m, "1g.18gb", i);
	}
	assert_int_equal(hw_mig_check(m, ok, 7, NULL), HW_MIG_OK);
	/* Two +me instances break both rules; the +me rule is reported first. */
	assert_int_equal(hw_mig_check(m, bad, 2, &reason), HW_MIG_MEDIA_EXT);
}

static void
test_mig__not_capable(void **state)
{
	g_autofree char *reason = NULL;
	gboolean enabled = TRUE;
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) none =
	        hw_mig_layout_parse(gpu("l4-24gb"), "all-disabled", &enabled, NULL);

	assert_int_equal(hw_mig_check(gpu("l4-24gb"), NULL, 0, &reason), HW_MIG_NOT_CAPABLE);
	assert_non_null(none);
	assert_false(enabled);
	assert_null(hw_mig_layout_parse(gpu("l4-24gb"), "all-balanced", &enabled, &error));
	assert_string_equal(error->message,
	                    "MIG layout \"all-balanced\": NVIDIA L4 does not support MIG");
}

static char *
layout_text(GArray *layout)
{
	GString *text = g_string_new(NULL);

	for (guint i = 0; i < layout->len; i++) {
		const HwMigInstance *in = &g_array_index(layout, HwMigInstance, i);

		g_string_append_printf(text, "%s%s@%u", i ? "," : "", in->profile->name, in->start);
	}
	return g_string_free(text, FALSE);
}

static void
expect_layout(const char *model, const char *name, const char *want)
{
	gboolean enabled = FALSE;
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) layout = hw_mig_layout_parse(gpu(model), name, &enabled, &error);
	g_autofree char *text = NULL;

	if (layout == NULL) {
		fail_msg("%s %s: %s", model, name, error->message);
	}
	text = layout_text(layout);
	assert_true(enabled);
	assert_string_equal(text, want);
	assert_int_equal(
	        hw_mig_check(gpu(model), (HwMigInstance *)(void *)layout->data, layout->len, NULL),
	        HW_MIG_OK);
}

static void
test_mig__named_layouts(void **state)
{
	expect_layout("a100-sxm4-80gb", "all-1g.10gb",
	              "1g.10gb@0,1g.10gb@1,1g.10gb@2,1g.10gb@3,1g.10gb@4,1g.10gb@5,1g.10gb@6");
	expect_layout("a100-sxm4-80gb", "all-1g.20gb", "1g.20gb@0,1g.20gb@2,1g.20gb@4,1g.20gb@6");
	expect_layout("h100-sxm5-80gb", "all-3g.40gb", "3g.40gb@0,3g.40gb@4");
	expect_layout("h100-sxm5-80gb", "all-7g.80gb", "7g.80gb@0");
	expect_layout("h100-sxm5-80gb", "all-1g.10gb+me", "1g.10gb+me@0");
	/* Balanced: 3g first at 0 would strand slice 7 for the second 1g, so the placer
	 * backtracks to 3g at 4. */
	expect_layout("a100-sxm4-40gb", "all-balanced", "2g.10gb@0,1g.5gb@2,1g.5gb@3,3g.20gb@4");
	expect_layout("a30-24gb", "all-balanced", "2g.12gb@0,1g.6gb@2,1g.6gb@3");
	expect_layout("h100-sxm5-80gb", "2x1g.10gb,3g.40gb", "3g.40gb@0,1g.10gb@4,1g.10gb@5");
	expect_layout("h100-sxm5-80gb", "3g.40gb@4,4g.40gb@0", "4g.40gb@0,3g.40gb@4");
}

static void
expect_layout_error(const char *model, const char *name, const char *want)
{
	gboolean enabled;
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) layout = hw_mig_layout_parse(gpu(model), name, &enabled, &error);

	assert_null(layout);
	assert_string_equal(error->message, want);
}

static void
test_mig__layout_errors(void **state)
{
	expect_layout_error("h100-sxm5-80gb", "2x1g.5gb",
	                    "MIG layout \"2x1g.5gb\": unknown MIG profile \"1g.5gb\" for "
	                    "h100-sxm5-80gb (known: 1g.10gb, 1g.10gb+me, 1g.20gb, 2g.20gb, "
	                    "3g.40gb, 4g.40gb, 7g.80gb)");
	expect_layout_error("h100-sxm5-80gb", "-1x1g.10gb",
	                    "MIG layout \"-1x1g.10gb\": count must be positive, got -1");
	expect_layout_error("h100-sxm5-80gb", "3g.40gb@0,2g.20gb@2",
	                    "MIG layout \"3g.40gb@0,2g.20gb@2\": 2g.20gb at 2 overlaps 3g.40gb "
	                    "at 0 on memory slice 2");
	expect_layout_error("h100-sxm5-80gb", "3x3g.40gb",
	                    "MIG layout \"3x3g.40gb\": the layout uses 9 compute slices, NVIDIA "
	                    "H100 80GB HBM3 has 7");
	expect_layout_error("h100-sxm5-80gb", "4g.40gb,2g.20gb,2g.20gb",
	                    "MIG layout \"4g.40gb,2g.20gb,2g.20gb\": the layout uses 8 compute "
	                    "slices, NVIDIA H100 80GB HBM3 has 7");
	expect_layout_error("h100-sxm5-80gb", "3g.40gb@4,2g.20gb",
	                    "MIG layout \"3g.40gb@4,2g.20gb\": pin every instance with @start, "
	                    "or none");
	/* Geometry alone: 3 compute slices fit, but 3g and 4g both need start 0 or 4 and
	 * 1g.20gb at 6 takes slice 7 too. */
	expect_layout_error("h100-sxm5-80gb", "4g.40gb,1g.20gb,1g.20gb,1g.20gb",
	                    "MIG layout \"4g.40gb,1g.20gb,1g.20gb,1g.20gb\": no placement puts "
	                    "every instance at a valid start without overlapping memory slices");
}

/*
 * A bare profile name where a layout is expected was a list of one: "mig: 1g.10gb" gave
 * one instance per GPU. It is refused with the layouts valid for the GPU (H100 in the
 * catalog: a balanced mix and seven profiles, so all-disabled, all-enabled, all-balanced
 * and all-<profile> for each, in catalog order). One instance stays expressible.
 */
static void
test_mig__bare_name_is_not_a_layout(void **state)
{
	static const char h100_layouts[] =
	        "all-disabled, all-enabled, all-balanced, all-1g.10gb, all-1g.10gb+me, "
	        "all-1g.20gb, all-2g.20gb, all-3g.40gb, all-4g.40gb, all-7g.80gb";
	g_autofree char *want_profile = g_strdup_printf(
	        "MIG layout \"1g.10gb\": a MIG profile, not a layout: write all-1g.10gb (as many "
	        "as fit) or 1x1g.10gb (one instance); layouts for h100-sxm5-80gb: %s, or a list "
	        "like 2x1g.10gb",
	        h100_layouts);
	g_autofree char *want_unknown =
	        g_strdup_printf("MIG layout \"balanced\": unknown layout for h100-sxm5-80gb "
	                        "(valid: %s, or a list of profiles like 2x1g.10gb,3g.40gb)",
	                        h100_layouts);

	expect_layout_error("h100-sxm5-80gb", "1g.10gb", want_profile);
	expect_layout_error("h100-sxm5-80gb", "balanced", want_unknown);
	/* A30 has no 1g.10gb and a shorter list: the message is the GPU's own. */
	expect_layout_error("a30-24gb", "1g.6gb",
	                    "MIG layout \"1g.6gb\": a MIG profile, not a layout: write all-1g.6gb "
	                    "(as many as fit) or 1x1g.6gb (one instance); layouts for a30-24gb: "
	                    "all-disabled, all-enabled, all-balanced, all-1g.6gb, all-1g.6gb+me, "
	                    "all-2g.12gb, all-2g.12gb+me, all-4g.24gb, or a list like 2x1g.6gb");
	expect_layout("h100-sxm5-80gb", "1x1g.10gb", "1g.10gb@0");
	expect_layout("h100-sxm5-80gb", "3g.40gb@4", "3g.40gb@4");
}

/* ---- the counter model (DynamicMIG) against the rules ---- */

typedef struct {
	guint sms, ce, dec, enc, jpeg, ofa;
	guint64 mib;
} Engines;

static Engines
engines_of(const HwMigProfile *p)
{
	return (Engines){ p->sms,  p->copy_engines, p->decoders,  p->encoders,
		          p->jpeg, p->ofa,          p->memory_mib };
}

static Engines
engines_max(const HwGpuModel *m)
{
	Engines max = { 0 };

	for (guint i = 0; i < m->mig->profiles->len; i++) {
		Engines e = engines_of(g_ptr_array_index(m->mig->profiles, i));

		max.sms = MAX(max.sms, e.sms);
		max.ce = MAX(max.ce, e.ce);
		max.dec = MAX(max.dec, e.dec);
		max.enc = MAX(max.enc, e.enc);
		max.jpeg = MAX(max.jpeg, e.jpeg);
		max.ofa = MAX(max.ofa, e.ofa);
		max.mib = MAX(max.mib, e.mib);
	}
	return max;
}

static gboolean
counters_fit(const HwGpuModel *m, const HwMigInstance *layout, guint n)
{
	Engines max = engines_max(m), sum = { 0 };
	guint slices = 0;

	for (guint i = 0; i < n; i++) {
		Engines e = engines_of(layout[i].profile);
		guint mask = ((1u << layout[i].profile->size) - 1u) << layout[i].start;

		if (slices & mask) {
			return FALSE;
		}
		slices |= mask;
		sum.sms += e.sms;
		sum.ce += e.ce;
		sum.dec += e.dec;
		sum.enc += e.enc;
		sum.jpeg += e.jpeg;
		sum.ofa += e.ofa;
		sum.mib += e.mib;
	}
	return sum.sms <= max.sms && sum.ce <= max.ce && sum.dec <= max.dec && sum.enc <= max.enc &&
	       sum.jpeg <= max.jpeg && sum.ofa <= max.ofa && sum.mib <= max.mib;
}

typedef struct {
	const HwGpuModel *model;
	HwMigInstance layout[16];
	guint legal, boundary, mismatches;
} Walk;

/* Depth-first over legal layouts, adding placements in (profile, start) order. */
static void
walk(Walk *w, guint n, guint from)
{
	const GPtrArray *profiles = w->model->mig->profiles;
	guint index = 0;

	w->legal++;
	if (!counters_fit(w->model, w->layout, n)) {
		print_message("# %s: legal layout of %u instances exceeds the counters\n",
		              w->model->id, n);
		w->mismatches++;
	}
	for (guint p = 0; p < profiles->len; p++) {
		const HwMigProfile *profile = g_ptr_array_index(profiles, p);

		for (guint s = 0; s < profile->n_starts; s++, index++) {
			w->layout[n] = (HwMigInstance){ profile, profile->starts[s] };
			if (hw_mig_check(w->model, w->layout, n + 1, NULL) != HW_MIG_OK) {
				w->boundary++;
				if (counters_fit(w->model, w->layout, n + 1)) {
					print_message("# %s: illegal layout fits the counters\n",
					              w->model->id);
					w->mismatches++;
				}
			} else if (index >= from) {
				walk(w, n + 1, index + 1);
			}
		}
	}
}

static void
test_mig__counter_model_matches_rules(void **state)
{
	const GPtrArray *gpus = hw_catalog_get_gpus(catalog);
	guint models = 0;

	for (guint i = 0; i < gpus->len; i++) {
		Walk w = { g_ptr_array_index(gpus, i), { { 0 } }, 0, 0, 0 };

		if (w.model->mig == NULL || strcmp(w.model->id, "wide-gpu") == 0) {
			continue;
		}
		walk(&w, 0, 0);
		assert_true(w.legal > 10 && w.boundary > 10);
		assert_int_equal(w.mismatches, 0);
		models++;
	}
	assert_int_equal(models, 8);
}

/* ---- reconfiguration ---- */

static void
test_mig__reconfigure(void **state)
{
	HwReconfigTimes t;
	HwReconfigPlan plan;
	g_autoptr(HwNode) a100 = catalog_node("aws-p4d.24xlarge", "all-disabled");
	g_autoptr(HwNode) h100 = catalog_node("dgx-h100", "all-disabled");
	g_autoptr(HwNode) h100_mig = catalog_node("dgx-h100", "all-balanced");
	const HwGpuModel *hm = gpu("h100-sxm5-80gb");
	const HwGpuModel *am = gpu("a100-sxm4-40gb");
	HwMigInstance h_target[2] = { inst(hm, "3g.40gb", 0), inst(hm, "3g.40gb", 4) };
	HwMigInstance a_target[1] = { inst(am, "7g.40gb", 0) };
	HwMigInstance bad[2] = { inst(hm, "3g.40gb", 0), inst(hm, "4g.40gb", 0) };
	HwGpu *g;

	hw_reconfig_times_default(&t);
	/* Ampere: enabling MIG needs a reset. */
	hw_gpu_plan_reconfigure(g_ptr_array_index(a100->gpus, 0), FALSE, TRUE, a_target, 1, &t,
	                        &plan);
	assert_int_equal(plan.verdict, HW_RECONFIG_OK);
	assert_true(plan.needs_reset);
	assert_int_equal(plan.duration_us, t.gpu_reset_us + t.create_instance_us);
	/* Hopper: no reset, a live toggle. */
	hw_gpu_plan_reconfigure(g_ptr_array_index(h100->gpus, 0), FALSE, TRUE, h_target, 2, &t,
	                        &plan);
	assert_int_equal(plan.verdict, HW_RECONFIG_OK);
	assert_false(plan.needs_reset);
	assert_int_equal(plan.duration_us, t.mode_toggle_us + 2 * t.create_instance_us);
	/* Busy GPU: refused. */
	hw_gpu_plan_reconfigure(g_ptr_array_index(h100->gpus, 0), TRUE, TRUE, h_target, 2, &t,
	                        &plan);
	assert_int_equal(plan.verdict, HW_RECONFIG_BUSY);
	g_free(plan.reason);
	/* Balanced (2g@0,1g@2,1g@3,3g@4 on H100) -> 2x 3g: keep 3g@4, destroy 3, create 1. */
	g = g_ptr_array_index(h100_mig->gpus, 0);
	hw_gpu_plan_reconfigure(g, FALSE, TRUE, h_target, 2, &t, &plan);
	assert_int_equal(plan.verdict, HW_RECONFIG_OK);
	assert_int_equal(plan.destroyed, 3);
	assert_int_equal(plan.created, 1);
	assert_int_equal(plan.duration_us, 3 * t.destroy_instance_us + t.create_instance_us);
	hw_gpu_apply_reconfigure(g, TRUE, h_target, 2);
	assert_int_equal(g->instances->len, 2);
	/* Infeasible target. */
	hw_gpu_plan_reconfigure(g, FALSE, TRUE, bad, 2, &t, &plan);
	assert_int_equal(plan.verdict, HW_RECONFIG_INFEASIBLE);
	assert_non_null(plan.reason);
	g_free(plan.reason);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mig__rule_valid_start),
		cmocka_unit_test(test_mig__rule_no_overlap),
		cmocka_unit_test(test_mig__rule_compute_slices),
		cmocka_unit_test(test_mig__rule_one_media_extension),
		cmocka_unit_test(test_mig__rule_max_count),
		cmocka_unit_test(test_mig__not_capable),
		cmocka_unit_test(test_mig__named_layouts),
		cmocka_unit_test(test_mig__layout_errors),
		cmocka_unit_test(test_mig__bare_name_is_not_a_layout),
		cmocka_unit_test(test_mig__counter_model_matches_rules),
		cmocka_unit_test(test_mig__reconfigure),
	};

	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
