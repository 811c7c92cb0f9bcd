/*
 * test_explain.c: the reasons in kube-scheduler's form (counts, upstream's
 * string sort, the PostFilter messages), the per-node reason codes, the DRA
 * allocator's diagnosis of an unschedulable pod, and the history `drasim
 * explain` prints for a time-sliced pod with a co-tenant and an OOM-killed
 * one (data/explain.yaml). Expected texts are written from upstream's
 * formats, not copied from a run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "scenario.h"
#include "scenario_test_util.h"

static ClusterAttempt
attempt(guint n_nodes, gboolean has_claims)
{
	ClusterAttempt a = { 0 };

	a.n_nodes = n_nodes;
	a.has_claims = has_claims;
	return a;
}

static void
add(ClusterAttempt *a, guint code, guint count)
{
	a->reasons[a->n_reasons].code = (guint16)code;
	a->reasons[a->n_reasons].count = count;
	a->n_reasons++;
}

/* The issue's example: 120 + 380 nodes, "120 ..." sorts first as a string. */
static void
test_message_sorted_histogram(void **state)
{
	g_autoptr(ClusterResNames) names = cluster_res_names_new();
	ClusterAttempt a = attempt(500, TRUE);
	g_autofree char *text = NULL;

	add(&a, CLUSTER_REASON_CLAIMS, 380);
	add(&a, CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_CPU, 120);
	text = scenario_reason_message(&a, names);
	/* DynamicResources' rejections are UnschedulableAndUnresolvable in 1.34 */
	assert_string_equal(text, "0/500 nodes are available: 120 Insufficient cpu, 380 cannot "
	                          "allocate all claims. still not schedulable, preemption: 0/500 "
	                          "nodes are available: 120 No preemption victims found for "
	                          "incoming pod, 380 Preemption is not helpful for scheduling.");
}

/* "38 ..." sorts after "120 ..." (bytes, not numbers); unresolvable nodes
 * are not preemption candidates; a pod without claims gets DRA's "no new
 * claims to deallocate". */
static void
test_message_string_sort_and_preemption(void **state)
{
	g_autoptr(ClusterResNames) names = cluster_res_names_new();
	ClusterAttempt a = attempt(170, FALSE);
	gint gpu = cluster_res_names_intern(names, "nvidia.com/gpu");
	g_autofree char *text = NULL;

	add(&a, CLUSTER_REASON_TAINT, 38);
	add(&a, CLUSTER_REASON_AFFINITY, 12);
	add(&a, CLUSTER_REASON_INSUFFICIENT + (guint)gpu, 120);
	text = scenario_reason_message(&a, names);
	assert_string_equal(text,
	                    "0/170 nodes are available: 12 node(s) didn't match Pod's node "
	                    "affinity/selector, 120 Insufficient nvidia.com/gpu, 38 node(s) had "
	                    "untolerated taint(s). no new claims to deallocate, preemption: "
	                    "0/170 nodes are available: 120 No preemption victims found for "
	                    "incoming pod, 50 Preemption is not helpful for scheduling.");
}

/* PreFilter's message replaces the histogram; every node is unresolvable. */
static void
test_message_prefilter_error_no_nodes(void **state)
{
	ClusterAttempt pre = attempt(4, TRUE);
	ClusterAttempt err = attempt(4, TRUE);
	ClusterAttempt none = attempt(0, FALSE);
	g_autofree char *a = NULL, *b = NULL, *c = NULL;

	pre.message = "waiting for resource claim of gpu";
	a = scenario_reason_message(&pre, NULL);
	assert_string_equal(a, "0/4 nodes are available: waiting for resource claim of gpu. no "
	                       "new claims to deallocate, preemption: 0/4 nodes are available: 4 "
	                       "Preemption is not helpful for scheduling.");
	err.error = TRUE;
	err.message = "running \"DynamicResources\" filter plugin: CEL runtime error";
	b = scenario_reason_message(&err, NULL);
	assert_string_equal(b, err.message);
	none.message = "no nodes available to schedule pods";
	c = scenario_reason_message(&none, NULL);
	assert_string_equal(c, "no nodes available to schedule pods");
}

/* NodeResourcesFit keeps every failure reason of a node (fit.go). */
static void
test_reason_codes(void **state)
{
	g_autoptr(ClusterNode) node = cluster_node_new("n");
	g_autoptr(ClusterPod) pod = cluster_pod_new("p", 1);
	guint counts[CLUSTER_N_REASONS] = { 0 };

	node->allocatable.v[CLUSTER_RES_CPU] = 1000;
	node->allocatable.v[CLUSTER_RES_MEMORY] = 1 << 30;
	node->allocatable.v[CLUSTER_RES_PODS] = 1;
	node->requested.v[CLUSTER_RES_PODS] = 1;
	cluster_pod_set_request(pod, CLUSTER_RES_CPU, 2000);
	cluster_pod_set_request(pod, CLUSTER_RES_MEMORY, 2LL << 30);
	cluster_reason_count(pod, node, CLUSTER_PLUGIN_NODE_RESOURCES_FIT, NULL, counts);
	assert_int_equal(counts[CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_CPU], 1);
	assert_int_equal(counts[CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_MEMORY], 1);
	assert_int_equal(counts[CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_PODS], 1);
	cluster_reason_count(pod, node, CLUSTER_PLUGIN_DYNAMIC_RESOURCES,
	                     "resourceclaim not available on the node", counts);
	cluster_reason_count(pod, node, CLUSTER_PLUGIN_DYNAMIC_RESOURCES, "claim x, request y: ...",
	                     counts);
	assert_int_equal(counts[CLUSTER_REASON_CLAIM_NOT_ON_NODE], 1);
	assert_int_equal(counts[CLUSTER_REASON_CLAIMS], 1);
	assert_true(cluster_reason_is_unresolvable(CLUSTER_REASON_CLAIM_NOT_ON_NODE));
	assert_true(cluster_reason_is_unresolvable(CLUSTER_REASON_CLAIMS));
	assert_false(cluster_reason_is_unresolvable(CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_CPU));
	{
		g_autofree char *pods = cluster_reason_to_string(
		        CLUSTER_REASON_INSUFFICIENT + CLUSTER_RES_PODS, NULL);

		assert_string_equal(pods, "Too many pods");
	}
}

static ScenarioResult *
run_scenario(const char *path, const char *mode, gboolean journal)
{
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	g_autoptr(GError) error = NULL;
	ScenarioResult *r;

	if (sc == NULL)
		k8s_diag_list_print(diags, stderr);
	assert_non_null(sc);
	sc->journal = journal;
	r = scenario_run(sc, scenario_lookup_mode(sc, mode), 0, 0, NULL, NULL, diags, &error);
	if (r == NULL)
		fail_msg("%s", error->message);
	return r;
}

static ScenarioResult *
run_explain(gboolean journal)
{
	g_autofree char *path = g_build_filename(DRASIM_TEST_DATA, "explain.yaml", NULL);

	return run_scenario(path, "dra", journal);
}

/* A selector nothing matches: the reason names it and the node count; two
 * GPUs asked of nodes with one each: "all allocated" on node-0 (the shared
 * claim holds its GPU), "fewer than 2 free" on node-1. */
static void
test_unschedulable_detail(void **state)
{
	g_autoptr(ScenarioResult) r = run_explain(FALSE);
	const ScenarioReason *h200 = scenario_test_find_reason(r, "wants-h200");
	const ScenarioReason *two = scenario_test_find_reason(r, "wants-two");

	assert_non_null(h200);
	assert_non_null(two);
	assert_null(scenario_test_find_reason(r, "a")); /* bound at its first attempt */
	assert_null(r->journal);
	assert_string_equal(h200->message,
	                    "0/2 nodes are available: 2 cannot allocate all claims. still not "
	                    "schedulable, preemption: 0/2 nodes are available: 2 Preemption is "
	                    "not helpful for scheduling.");
	assert_string_equal(h200->detail,
	                    "request gpu: selector device.attributes[\"gpu.nvidia.com\"]."
	                    "productName == \"NVIDIA H200\" matched no device on 2 nodes");
	assert_string_equal(two->detail, "request gpus: 1 node had matching devices but all "
	                                 "were allocated, 1 node had matching devices but "
	                                 "fewer than 2 free");
	/* the per-pod records count the attempts */
	for (guint i = 0; i < r->pod_records->len; i++) {
		const ScenarioPodRecord *rec = &g_array_index(r->pod_records, ScenarioPodRecord, i);

		if (strcmp(rec->name, "a") == 0)
			assert_int_equal(rec->attempts, 1);
		if (strcmp(rec->name, "wants-h200") == 0)
			assert_true(rec->attempts > 1);
	}
}

static char *
history(const ScenarioResult *r, const char *pod)
{
	gint index = cluster_journal_lookup_pod(r->journal, pod);

	assert_true(index >= 0);
	return scenario_explain_pod(r, (guint)index);
}

/* a shares the GPU with b (time-sliced, half speed each); c joins at 60 s,
 * 90 GiB > 80 GiB kills the newest, so c dies at every start; its restarts
 * follow the crash-loop backoff 10 s, 20 s, 40 s, ... */
static void
test_explain_history(void **state)
{
	g_autoptr(ScenarioResult) r = run_explain(TRUE);
	g_autofree char *a = NULL, *c = NULL, *h200 = NULL;

	assert_non_null(r->journal);
	assert_int_equal(cluster_journal_lookup_pod(r->journal, "no-such-pod"), -1);
	a = history(r, "a");
	assert_non_null(strstr(a, "attempt 1: bound to node-0"));
	assert_non_null(strstr(a, "holds: claim shared-gpu: gpu.nvidia.com/node-0/gpu-0"));
	assert_non_null(strstr(a, "co-tenants: b (0.000s to end), c (60.000s to "));
	assert_non_null(strstr(a, "speed 0.500 of full speed"));
	assert_non_null(strstr(a, "1 scheduling attempt, 0 OOM kills"));
	c = history(r, "c");
	assert_non_null(strstr(c, "60.000s  OOM-killed (kill 1)"));
	/* devices by the report's stable ids (docs/reports.md): node-0's GPU, minor 0 */
	assert_non_null(strstr(c, "70.000s  started on node-0, device gpu:node-0/gpu-0\n"));
	assert_non_null(strstr(c, "90.000s  OOM-killed (kill 3)"));
	assert_non_null(strstr(c, "co-tenants: a (60.000s to 60.000s), b (60.000s to 60.000s)"));
	h200 = history(r, "wants-h200");
	assert_non_null(strstr(h200, "attempt 1: 0/2 nodes are available"));
	assert_non_null(strstr(h200, "DRA: request gpu: selector"));
}

/*
 * explain names devices as the report does (scenarios/dra-claims/README.md):
 * in dra, `every` (allocationMode: All on the one DGX H100) starts at 3 h =
 * 10,800 s on all eight GPUs, minors 0-7; in extended it asks one
 * nvidia.com/gpu and the device plugin gives the first, gpu-0. The ids are the
 * same strings as the report's pods[].devices.
 */
static void
test_explain_names_devices_by_stable_id(void **state)
{
	g_autofree char *path =
	        g_build_filename(DRASIM_SCENARIOS, "dra-claims", "scenario.yaml", NULL);
	g_autoptr(ScenarioResult) dra = run_scenario(path, "dra", TRUE);
	g_autoptr(ScenarioResult) ext = run_scenario(path, "extended", TRUE);
	g_autofree char *every = NULL, *every_ext = NULL;

	every = scenario_explain_pod(dra, (guint)cluster_journal_lookup_pod(dra->journal, "every"));
	assert_non_null(strstr(every, "10800.000s  started on dgx-0, devices gpu:dgx-0/gpu-0,"
	                              "gpu:dgx-0/gpu-1,gpu:dgx-0/gpu-2,gpu:dgx-0/gpu-3,"
	                              "gpu:dgx-0/gpu-4,gpu:dgx-0/gpu-5,gpu:dgx-0/gpu-6,"
	                              "gpu:dgx-0/gpu-7\n"));
	every_ext =
	        scenario_explain_pod(ext, (guint)cluster_journal_lookup_pod(ext->journal, "every"));
	assert_non_null(
	        strstr(every_ext, "10800.000s  started on dgx-0, device gpu:dgx-0/gpu-0\n"));
	assert_null(strstr(every_ext, "#"));
}

/* Recording the journal (and diagnosing at each failed attempt) changes nothing. */
static void
test_journal_changes_nothing(void **state)
{
	g_autoptr(ScenarioResult) off = run_explain(FALSE);
	g_autoptr(ScenarioResult) on = run_explain(TRUE);

	assert_int_equal(off->end, on->end);
	assert_int_equal(off->events, on->events);
	assert_int_equal(off->oom_kills, on->oom_kills);
	assert_int_equal(off->cycles, on->cycles);
	assert_int_equal(off->cel_evaluations, on->cel_evaluations);
	assert_int_equal(off->reasons->len, on->reasons->len);
	for (guint i = 0; i < off->reasons->len; i++) {
		const ScenarioReason *a = g_ptr_array_index(off->reasons, i);
		const ScenarioReason *b = g_ptr_array_index(on->reasons, i);

		assert_string_equal(a->message, b->message);
		assert_int_equal(a->at, b->at);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_message_sorted_histogram),
		cmocka_unit_test(test_message_string_sort_and_preemption),
		cmocka_unit_test(test_message_prefilter_error_no_nodes),
		cmocka_unit_test(test_reason_codes),
		cmocka_unit_test(test_unschedulable_detail),
		cmocka_unit_test(test_explain_history),
		cmocka_unit_test(test_explain_names_devices_by_stable_id),
		cmocka_unit_test(test_journal_changes_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
