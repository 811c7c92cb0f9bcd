/*
 * test_import.c: a scenario's cluster given as objects and the imported
 * starting state (docs/import.md section 1, issue 16): decoding of
 * spec.cluster.objects, nodeDefaults and workload.imported with their errors
 * and warnings, and runs of a tiny cluster known only from its objects.
 *
 * The tiny cluster (data/import/): node-a and node-b, 4 GPUs each in their v1
 * ResourceSlices (gpu-0..gpu-3, 80Gi), so 8 GPUs. Claims held-a3, held-a2,
 * held-b1 and held-b3 are allocated in the input (node-a/gpu-3, node-a/gpu-2,
 * node-b/gpu-1, node-b/gpu-3); the Running pods run-1..run-3, bound to their
 * nodes, use the first three, no pod uses held-b3. 6 Pending pods
 * wait-0..wait-5 ask one GPU each through a template; done-0 Succeeded. Every
 * imported pod runs to the 1 h horizon.
 *
 * Worked by hand: the held devices are 4 of 8, so 4 are free: node-a/gpu-0,
 * gpu-1 and node-b/gpu-0, gpu-2. Of the 6 pending pods 4 are scheduled (2 on
 * each node) and 2 stay pending; submitted = 3 bound + 6 pending = 9 (done-0
 * left out), scheduled = 3 + 4 = 7. The held devices are not the allocator's
 * first choices: had the bound pods' claims been allocated anew, run-1 would
 * hold node-a/gpu-0, and held-b3's device would go to a pending pod (5 run).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "cluster_journal.h"
#include "scenario_test_util.h"

/* The BOUND entry's text of pod @name ("claim X: driver/pool/device"), or NULL. */
static const char *
bound_text(const ScenarioResult *r, const char *name)
{
	gint pod = cluster_journal_lookup_pod(r->journal, name);

	for (guint i = 0; pod >= 0 && i < cluster_journal_get_n_entries(r->journal); i++) {
		const ClusterJournalEntry *e = cluster_journal_get_entry(r->journal, i);

		if (e->kind == CLUSTER_JOURNAL_BOUND && e->pod == (guint)pod)
			return e->text;
	}
	return NULL;
}

static gboolean
has_note(const ScenarioResult *r, const char *object, const char *what)
{
	for (guint i = 0; i < r->notes->len; i++) {
		const ScenarioNote *n = r->notes->pdata[i];

		if (strstr(n->object, object) != NULL && strstr(n->what, what) != NULL)
			return TRUE;
	}
	return FALSE;
}

/* The held devices stay with their claims; the pending pods get only the 5 free ones. */
static void
check_tiny_run(const ScenarioResult *r)
{
	static const char *const held[] = { "gpu.nvidia.com/node-a/gpu-3",
		                            "gpu.nvidia.com/node-a/gpu-2",
		                            "gpu.nvidia.com/node-b/gpu-1",
		                            "gpu.nvidia.com/node-b/gpu-3" };
	static const char *const runs[] = { "run-1", "run-2", "run-3" };
	guint on_a = 0, on_b = 0, pending = 0;

	assert_int_equal(r->submitted, 9);
	assert_int_equal(r->scheduled, 7);
	assert_int_equal(r->pending, 2);
	for (guint i = 0; i < 3; i++) {
		const char *text = bound_text(r, runs[i]);

		assert_non_null(text);
		assert_non_null(strstr(text, held[i]));
		assert_string_equal(scenario_test_pod_record(r, runs[i], NULL)->node,
		                    i < 2 ? "node-a" : "node-b");
		/* running from the start: no scheduling cycle */
		assert_int_equal(scenario_test_pod_record(r, runs[i], NULL)->attempts, 0);
	}
	for (guint i = 0; i < 6; i++) {
		g_autofree char *name = g_strdup_printf("wait-%u", i);
		const ScenarioPodRecord *p = scenario_test_pod_record(r, name, NULL);
		const char *text = bound_text(r, name);

		if (p->node == NULL) {
			pending++;
			continue;
		}
		assert_non_null(text);
		for (guint k = 0; k < 4; k++)
			assert_null(strstr(text, held[k]));
		on_a += strcmp(p->node, "node-a") == 0;
		on_b += strcmp(p->node, "node-b") == 0;
	}
	assert_int_equal(pending, 2);
	assert_int_equal(on_a, 2); /* gpu-0, gpu-1 */
	assert_int_equal(on_b, 2); /* gpu-0, gpu-2 */
	assert_true(has_note(r, "spec.workload.imported", "1 Succeeded or Failed"));
	assert_true(has_note(r, "held-b3", "allocated claim without a pod"));
}

static void
test_objects_only(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_journal("import-objects.yaml", "dra");

	(void)state;
	check_tiny_run(r);
}

/* The same cluster from its slices alone: node-a and node-b are inferred. */
static void
test_slices_only(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_journal("import-slices.yaml", "dra");

	(void)state;
	check_tiny_run(r);
	assert_true(has_note(r, "node-a, node-b", "inferred nodes"));
}

/* v1beta1 slices (devices in `basic:`) make the same cluster. */
static void
test_v1beta1(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_journal("import-v1beta1.yaml", "dra");

	(void)state;
	check_tiny_run(r);
}

/*
 * Device-plugin snapshot (data/import/dp-*.yaml): dp-a and dp-b advertise
 * nvidia.com/gpu: 8 with GFD labels gpu.memory 81920 MiB. Bound pods dp-run-1,
 * dp-run-2 (dp-a) and dp-run-3 (dp-b) take 2 GPUs each: dp-a has 8 - 4 = 4 left,
 * dp-b 8 - 2 = 6, 10 in all, so of the 12 pending pods asking one GPU 10 run and
 * 2 stay pending: submitted 3 + 12 = 15, scheduled 3 + 10 = 13. Devices: 16,
 * memory 16 x 81920 MiB.
 */
static void
test_device_plugin(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("import-device-plugin.yaml", "plugin");
	guint on_a = 0, on_b = 0;

	(void)state;
	assert_int_equal(r->submitted, 15);
	assert_int_equal(r->scheduled, 13);
	assert_int_equal(r->pending, 2);
	assert_int_equal(r->n_gpus, 16);
	assert_int_equal(r->gpu_memory_capacity, (gint64)16 * 81920 << 20);
	assert_string_equal(scenario_test_pod_record(r, "dp-run-1", NULL)->node, "dp-a");
	assert_string_equal(scenario_test_pod_record(r, "dp-run-2", NULL)->node, "dp-a");
	assert_string_equal(scenario_test_pod_record(r, "dp-run-3", NULL)->node, "dp-b");
	for (guint i = 0; i < 12; i++) {
		g_autofree char *name = g_strdup_printf("dp-wait-%u", i);
		const char *node = scenario_test_pod_record(r, name, NULL)->node;

		on_a += g_strcmp0(node, "dp-a") == 0;
		on_b += g_strcmp0(node, "dp-b") == 0;
	}
	assert_int_equal(on_a, 4);
	assert_int_equal(on_b, 6);
}

/*
 * Device-plugin node with MIG, strategy mixed (data/import/dp-mig-node.yaml: the
 * real GFD labels of H100 node s4124-0073, allocatable mig-1g.10gb 2, mig-2g.20gb
 * 1, mig-3g.40gb 1, no nvidia.com/gpu). mig-run-0 is bound and holds one
 * 1g.10gb, so of mig-wait-0..2 one gets the other 1g.10gb and two stay pending;
 * mig-big gets the 3g.40gb; whole-gpu asks nvidia.com/gpu, which the node does not
 * advertise: submitted 1 + 5 = 6, scheduled 3, pending 3. Devices 4, their sizes
 * from the node's labels mig-<profile>.memory / .multiprocessors over the H100's
 * 132 SMs: memory 2 x 9984 + 20096 + 40320 MiB (the catalog says 40448 for
 * 3g.40gb: the label wins), compute (2 x 16 + 32 + 60) / 132.
 */
static void
test_mig_device_plugin(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("import-mig-plugin.yaml", "plugin");
	guint waiting = 0;

	(void)state;
	assert_int_equal(r->submitted, 6);
	assert_int_equal(r->scheduled, 3);
	assert_int_equal(r->pending, 3);
	assert_int_equal(r->n_gpus, 4);
	assert_int_equal(r->gpu_memory_capacity, (gint64)(2 * 9984 + 20096 + 40320) << 20);
	assert_true(fabs(r->gpu_compute_capacity - 124.0 / 132.0) < 1e-9);
	assert_string_equal(scenario_test_pod_record(r, "mig-run-0", NULL)->node, "s4124-0073");
	assert_string_equal(scenario_test_pod_record(r, "mig-big", NULL)->node, "s4124-0073");
	assert_null(scenario_test_pod_record(r, "whole-gpu", NULL)->node);
	for (guint i = 0; i < 3; i++) {
		g_autofree char *name = g_strdup_printf("mig-wait-%u", i);

		waiting += scenario_test_pod_record(r, name, NULL)->node == NULL;
	}
	assert_int_equal(waiting, 2);
}

/*
 * The same snapshot moved to DRA (mode dra): the node publishes the slices of its
 * labels' MIG config all-balanced (2 x 1g.10gb, 2g.20gb, 3g.40gb on its one H100)
 * and the pods keep asking nvidia.com/mig-<profile>, which KEP-5004 classes
 * mig-<profile>.nvidia.com map to those devices (world_classes.c): the same
 * placements as under the device plugin, scheduled 3, pending 3; whole-gpu
 * stays pending (the H100 is in MIG mode: no whole GPU).
 */
static void
test_mig_device_plugin_to_dra(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_mode("import-mig-plugin.yaml", "dra");

	(void)state;
	assert_int_equal(r->submitted, 6);
	assert_int_equal(r->scheduled, 3);
	assert_int_equal(r->pending, 3);
	assert_string_equal(scenario_test_pod_record(r, "mig-run-0", NULL)->node, "s4124-0073");
	assert_string_equal(scenario_test_pod_record(r, "mig-big", NULL)->node, "s4124-0073");
	assert_null(scenario_test_pod_record(r, "whole-gpu", NULL)->node);
}

/*
 * One inferred node (data/import/mixed-slices.yaml, nodeDefaults cpu 32): MIG
 * devices 3g.40gb of an A100-SXM4-80GB with 42 SMs each have compute 42/108;
 * a MIG device of an unknown GPU gets 1.0 (a note); the AMD GPU 1.0. Devices
 * 4, compute 2 x 42/108 + 1 + 1 = 2.7778, memory 2 x 40192Mi + 10Gi + 192Gi.
 * amd-0 gets the AMD GPU through the inventory's DeviceClass and runs 30 min of
 * the 1 h: allocation ratio 1/4 x 1/2 = 12.5 %; cpu-33 asks more than 32 CPUs.
 */
static void
test_mixed_devices(void **state)
{
	g_autoptr(ScenarioResult) r = scenario_test_run_journal("import-mixed.yaml", "dra");

	(void)state;
	assert_int_equal(r->n_gpus, 4);
	assert_true(fabs(r->gpu_compute_capacity - (2.0 + 84.0 / 108.0)) < 1e-9);
	assert_int_equal(r->gpu_memory_capacity,
	                 ((gint64)2 * 40192 << 20) + ((gint64)10 << 30) + ((gint64)192 << 30));
	assert_non_null(strstr(bound_text(r, "amd-0"), "gpu.amd.com/mixed-a/gpu-0"));
	assert_int_equal(r->completed, 1);
	assert_true(fabs(r->alloc_ratio_mean - 0.125) < 1e-9);
	assert_null(scenario_test_pod_record(r, "cpu-33", NULL)->node);
	assert_true(has_note(r, "gpu-1-mig-19-0-1", "MIG compute"));
}

/* Loads data/@file; returns its diagnostics, one formatted line each (and the scenario). */
static char *
load_diags(const char *file, Scenario **out)
{
	g_autofree char *path = scenario_test_data_path(file);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	GString *buf = g_string_new(NULL);

	*out = scenario_load(path, diags);
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		g_autofree char *line = k8s_diag_format(k8s_diag_list_get(diags, i));

		g_string_append_printf(buf, "%s\n", line);
	}
	return g_string_free(buf, FALSE);
}

/* Loads data/@file cleanly, runs @mode and expects it to fail with one error containing @needle. */
static void
expect_run_error(const char *file, const char *mode, const char *needle)
{
	g_autoptr(Scenario) sc = NULL;
	g_autofree char *text = load_diags(file, &sc);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(ScenarioResult) r = NULL;
	g_autofree char *line = NULL;

	assert_non_null(sc);
	assert_string_equal(text, "");
	r = scenario_run(sc, scenario_lookup_mode(sc, mode), 0, 0, NULL, NULL, diags, &error);
	assert_null(r);
	assert_non_null(error);
	assert_int_equal(k8s_diag_list_count_errors(diags), 1);
	line = k8s_diag_format(k8s_diag_list_get(diags, 0));
	if (strstr(line, needle) == NULL)
		fail_msg("expected \"%s\" in %s", needle, line);
}

/* Two claims allocated one exclusive device: an error at the second's result, no run. */
static void
test_conflict(void **state)
{
	(void)state;
	expect_run_error("import-conflict.yaml", "dra",
	                 "claims-conflict.yaml:29:9: error: ResourceClaim second: device "
	                 "gpu.nvidia.com/node-a/gpu-0 is already allocated to ResourceClaim "
	                 "first");
}

/* Runs @mode of data/@file (it must load cleanly and run); its run's diagnostics,
 * one formatted line each, in @text. */
static ScenarioResult *
run_with_diags(const char *file, const char *mode, char **text)
{
	g_autoptr(Scenario) sc = NULL;
	g_autofree char *load = load_diags(file, &sc);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(GError) error = NULL;
	ScenarioResult *r;
	GString *buf = g_string_new(NULL);

	assert_non_null(sc);
	assert_string_equal(load, "");
	r = scenario_run(sc, scenario_lookup_mode(sc, mode), 0, 0, NULL, NULL, diags, &error);
	if (r == NULL)
		fail_msg("run failed: %s", error != NULL ? error->message : "?");
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		g_autofree char *line = k8s_diag_format(k8s_diag_list_get(diags, i));

		g_string_append_printf(buf, "%s\n", line);
	}
	*text = g_string_free(buf, FALSE);
	return r;
}

/*
 * Bound pods asking 5 + 4 of dp-a's 8 GPUs: the kubelet admits big-5 (first in
 * the snapshot) and rejects big-4 (OutOfnvidia.com/gpu), a warning; big-4 is
 * pending at t = 0 and the scheduler puts it on dp-b, the only node with 4 free
 * GPUs (dp-a has 8 - 5 = 3): 2 submitted, 2 scheduled, big-5 with no attempt,
 * big-4 with one.
 */
static void
test_overbound(void **state)
{
	g_autofree char *text = NULL;
	g_autoptr(ScenarioResult) r = run_with_diags("import-overbound.yaml", "plugin", &text);

	(void)state;
	if (strstr(text, "dp-over-pods.yaml:12:3: warning: mode plugin: Pod big-4 is bound to "
	                 "node dp-a, but with the bound pods before it it requests 9 of "
	                 "nvidia.com/gpu there, more than the node's allocatable 8: the kubelet "
	                 "rejects it (OutOfnvidia.com/gpu); it is pending at t = 0") == NULL)
		fail_msg("no warning for big-4 in:\n%s", text);
	assert_int_equal(r->submitted, 2);
	assert_int_equal(r->scheduled, 2);
	assert_string_equal(scenario_test_pod_record(r, "big-5", NULL)->node, "dp-a");
	assert_int_equal(scenario_test_pod_record(r, "big-5", NULL)->attempts, 0);
	assert_string_equal(scenario_test_pod_record(r, "big-4", NULL)->node, "dp-b");
	assert_int_equal(scenario_test_pod_record(r, "big-4", NULL)->attempts, 1);
	assert_true(has_note(r, "big-4", "imported bound pod"));
}

/* Slices without their Nodes: one warning at load names the inferred nodes. */
static void
test_inferred_warning(void **state)
{
	g_autoptr(Scenario) sc = NULL;
	g_autofree char *text = load_diags("import-slices.yaml", &sc);

	(void)state;
	assert_non_null(sc);
	assert_non_null(strstr(text, "slices.yaml:8:13: warning: no Node object for node-a, "
	                             "node-b: inferred from the ResourceSlices"));
}

/* Nodes and slices in the manifests, a Pod in the inventory: each named in a warning. */
static void
test_misplaced(void **state)
{
	g_autoptr(Scenario) sc = NULL;
	g_autofree char *text = load_diags("import-misplaced.yaml", &sc);

	(void)state;
	assert_non_null(sc);
	assert_non_null(strstr(text, "misplaced.yaml:2:1: warning: not inventory, ignored: 1 Pod"));
	assert_non_null(strstr(text, "slices.yaml:3:1: warning: the manifests' 2 ResourceSlice, "
	                             "2 Node are not the cluster and are ignored: put them under "
	                             "spec.cluster.objects"));
}

#define HEAD "apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata: {name: s}\nspec:\n"

/* Every decoder error of the new fields, at its line and field path. */
static void
test_decode_errors(void **state)
{
	(void)state;
	scenario_test_expect_error(HEAD "  cluster: {catalog: []}\n",
	                           "s.yaml:5:12: error: expected at least one node pool or "
	                           "spec.cluster.objects [spec.cluster.nodePools]");
	scenario_test_expect_error(
	        HEAD "  cluster: {objects: nodes.yaml}\n",
	        "s.yaml:5:22: error: expected a list, got string [spec.cluster.objects]");
	scenario_test_expect_error(HEAD "  cluster: {objects: [nope.yaml]}\n",
	                           "s.yaml:5:23: error: expected a file or folder of Kubernetes "
	                           "objects, nothing at");
	scenario_test_expect_error(HEAD "  cluster: {objects: []}\n",
	                           "error: expected files or folders of Nodes and ResourceSlices, "
	                           "got an empty list [spec.cluster.objects]");
	scenario_test_expect_error(HEAD "  cluster:\n    nodePools: [{shape: dgx-h100}]\n"
	                                "    nodeDefaults: {cpu: lots}\n",
	                           "s.yaml:7:25: error: expected a quantity like 64, 500m or "
	                           "512Gi: ");
	scenario_test_expect_error(HEAD "  cluster:\n    nodePools: [{shape: dgx-h100}]\n"
	                                "    nodeDefaults: {memory: -1Gi}\n",
	                           "error: expected a quantity >= 0, got -1Gi "
	                           "[spec.cluster.nodeDefaults.memory]");
	scenario_test_expect_error(HEAD "  cluster:\n    nodePools: [{shape: dgx-h100}]\n"
	                                "    nodeDefaults: {gpus: 8}\n",
	                           "unknown field 'gpus'");
	scenario_test_expect_error(HEAD "  cluster:\n    nodePools: [{shape: dgx-h100}]\n"
	                                "  workload:\n    imported: {compute: 0.5}\n",
	                           "s.yaml:8:15: error: expected the files of the snapshot's Pods "
	                           "[spec.workload.imported.manifests]");
	scenario_test_expect_error(HEAD "  cluster:\n    nodePools: [{shape: dgx-h100}]\n"
	                                "  workload:\n    imported: {manifests: [], duration: "
	                                "soon}\n",
	                           "error: expected a duration like 90s or 1h30m");
	scenario_test_expect_error(HEAD "  cluster:\n    nodePools: [{shape: dgx-h100}]\n"
	                                "  workload:\n    imported: {manifests: [], pods: 3}\n",
	                           "unknown field 'pods'");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects_only),
		cmocka_unit_test(test_slices_only),
		cmocka_unit_test(test_v1beta1),
		cmocka_unit_test(test_device_plugin),
		cmocka_unit_test(test_mixed_devices),
		cmocka_unit_test(test_conflict),
		cmocka_unit_test(test_overbound),
		cmocka_unit_test(test_misplaced),
		cmocka_unit_test(test_inferred_warning),
		cmocka_unit_test(test_decode_errors),
		cmocka_unit_test(test_mig_device_plugin),
		cmocka_unit_test(test_mig_device_plugin_to_dra),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
