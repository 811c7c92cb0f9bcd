/*
 * test_import.c: a scenario's cluster given as objects and the imported
 * starting state (docs/import.md section 1, issue 16): decoding of
 * spec.cluster.objects, nodeDefaults and workload.imported with their errors
 * and warnings, and runs of a tiny cluster known only from its objects.
 *
 * The tiny cluster (data/import/): node-a and node-b, 4 GPUs each in their v1
 * ResourceSlices (gpu-0..gpu-3, 80Gi), so 8 GPUs. Claims held-a0, held-a1
 * and held-b0 are allocated in the input (node-a/gpu-0, node-a/gpu-1,
 * node-b/gpu-0) and used by the Running pods run-1..run-3 bound to their
 * nodes; 6 Pending pods wait-0..wait-5 ask one GPU each through a template;
 * done-0 Succeeded. Every imported pod runs to the 1 h horizon.
 *
 * Worked by hand: the held devices are 3 of 8, so 5 are free: node-a has 2
 * (gpu-2, gpu-3) and node-b 3 (gpu-1..gpu-3). Of the 6 pending pods 5 are
 * scheduled and 1 stays pending; submitted = 3 bound + 6 pending = 9 (done-0
 * left out), scheduled = 3 + 5 = 8. Had the held devices been allocatable
 * again, all 6 would have run (8 - 3 bound = 5 only if held; 8 otherwise).
 */
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
	static const char *const held[] = { "gpu.nvidia.com/node-a/gpu-0",
		                            "gpu.nvidia.com/node-a/gpu-1",
		                            "gpu.nvidia.com/node-b/gpu-0" };
	static const char *const runs[] = { "run-1", "run-2", "run-3" };
	guint on_a = 0, on_b = 0, pending = 0;

	assert_int_equal(r->submitted, 9);
	assert_int_equal(r->scheduled, 8);
	assert_int_equal(r->pending, 1);
	for (guint i = 0; i < 3; i++) {
		const char *text = bound_text(r, runs[i]);

		assert_non_null(text);
		assert_non_null(strstr(text, held[i]));
		assert_string_equal(scenario_test_pod_record(r, runs[i], NULL)->node,
		                    i < 2 ? "node-a" : "node-b");
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
		for (guint k = 0; k < 3; k++)
			assert_null(strstr(text, held[k]));
		on_a += strcmp(p->node, "node-a") == 0;
		on_b += strcmp(p->node, "node-b") == 0;
	}
	assert_int_equal(pending, 1);
	assert_int_equal(on_a, 2); /* gpu-2, gpu-3 */
	assert_int_equal(on_b, 3); /* gpu-1..gpu-3 */
	assert_true(has_note(r, "spec.workload.imported", "1 Succeeded or Failed"));
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

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects_only),
		cmocka_unit_test(test_slices_only),
		cmocka_unit_test(test_v1beta1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
