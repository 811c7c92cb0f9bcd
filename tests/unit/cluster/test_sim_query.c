/*
 * test_sim_query.c: the read-only queries samplers use (cluster_sim_query.c),
 * above all the node generation that lets scenario_sample.c reuse a node's
 * figures: it must move on every change of a device's tenants (start,
 * completion, node failure and restore) and on both ends of a MIG
 * reconfiguration, and stay put while nothing on the node changes; the
 * arrivals' one-event chain (cluster_arrivals.c), seen through the journal;
 * retired pods' records (cluster_sim_retired.c) and pods parked until they
 * arrive (cluster_sim_park_pod).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cluster_journal.h"
#include "cluster_query.h"
#include "cluster_run.h"
#include "cluster_sim.h"
#include "cluster_types.h"

#define S   SIM_TIME_S
#define GB  ((gint64)1000 * 1000 * 1000)
#define GPU CLUSTER_RES_FIRST_SCALAR

static const ClusterDevice whole_gpu = { CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_DEFAULT, 1.0,
	                                 80 * GB, FALSE };

typedef struct {
	SimLoop *loop;
	ClusterSim *sim;
	ClusterNode *node;
} Fixture;

/* One node "n0" with @n exclusive GPUs. */
static void
fixture_init(Fixture *f, guint n)
{
	ClusterSimConfig config;
	ClusterDevice devices[8];

	cluster_sim_config_init(&config);
	config.run.context_switch = 0;
	f->loop = sim_loop_new();
	f->sim = cluster_sim_new(f->loop, &config);
	f->node = cluster_node_new("n0");
	f->node->allocatable.v[CLUSTER_RES_CPU] = 64000;
	f->node->allocatable.v[CLUSTER_RES_MEMORY] = 512 * GB;
	f->node->allocatable.v[CLUSTER_RES_PODS] = 110;
	f->node->allocatable.v[GPU] = n;
	for (guint i = 0; i < n; i++)
		devices[i] = whole_gpu;
	cluster_sim_add_node(f->sim, f->node, devices, n);
}

static void
fixture_clear(Fixture *f)
{
	cluster_sim_free(f->sim);
	sim_loop_free(f->loop);
}

static void
add_gpu_pod(Fixture *f, const char *name, SimTime arrival, SimTime work)
{
	ClusterPod *pod = cluster_pod_new(name, 0);
	ClusterSimWork w = { .arrival = arrival,
		             .work = work,
		             .lifetime = SIM_TIME_NEVER,
		             .n_devices = 1,
		             .demand = 1.0,
		             .gpu_mem = GB };

	cluster_pod_set_request(pod, GPU, 1);
	cluster_sim_add_pod(f->sim, pod, &w);
}

static void
run_until(Fixture *f, SimTime t)
{
	sim_loop_set_horizon(f->loop, t);
	sim_loop_run(f->loop);
}

static guint64
gen(const Fixture *f)
{
	return cluster_sim_get_node_generation(f->sim, 0);
}

static guint
tenants(const Fixture *f, guint device)
{
	guint n = 0;

	cluster_sim_get_device_tenants(f->sim, 0, device, &n);
	return n;
}

static void
test_sim_query__generation_follows_starts_and_completions(void **state)
{
	Fixture f;
	guint64 g;

	fixture_init(&f, 2);
	add_gpu_pod(&f, "a", 10 * S, 100 * S);
	run_until(&f, 5 * S);
	g = gen(&f);
	run_until(&f, 9 * S); /* nothing happened on the node */
	assert_true(gen(&f) == g);
	run_until(&f, 20 * S);
	assert_int_equal(tenants(&f, 0), 1);
	assert_true(gen(&f) != g);
	g = gen(&f);
	run_until(&f, 100 * S); /* still running: no change */
	assert_true(gen(&f) == g);
	run_until(&f, 200 * S); /* completed at 110 s */
	assert_int_equal(tenants(&f, 0), 0);
	assert_true(gen(&f) != g);
	fixture_clear(&f);
}

static void
test_sim_query__cordon_leaves_generation_alone(void **state)
{
	Fixture f;
	guint64 g;

	fixture_init(&f, 1);
	run_until(&f, 1 * S);
	g = gen(&f);
	/* a cordon changes no tenant: samplers compare unschedulable themselves */
	f.node->unschedulable = TRUE;
	assert_true(gen(&f) == g);
	assert_true(cluster_sim_get_node(f.sim, 0)->unschedulable);
	fixture_clear(&f);
}

static void
test_sim_query__generation_follows_fail_and_restore(void **state)
{
	Fixture f;
	guint64 g;

	fixture_init(&f, 1);
	add_gpu_pod(&f, "a", 0, 1000 * S);
	cluster_sim_node_event(f.sim, 10 * S, f.node, CLUSTER_NODE_FAIL);
	cluster_sim_node_event(f.sim, 100 * S, f.node, CLUSTER_NODE_RESTORE);
	run_until(&f, 5 * S);
	g = gen(&f);
	run_until(&f, 50 * S); /* the containers died with the node */
	assert_int_equal(tenants(&f, 0), 0);
	assert_true(gen(&f) != g);
	g = gen(&f);
	run_until(&f, 150 * S); /* restored: the kubelet restarted the pod */
	assert_int_equal(tenants(&f, 0), 1);
	assert_true(gen(&f) != g);
	fixture_clear(&f);
}

static void
test_sim_query__generation_follows_reconfiguration(void **state)
{
	Fixture f;
	ClusterDevice slices[7];
	ClusterResources alloc = { { 0 } };
	const char *labels[] = { "nvidia.com/mig.config", "all-1g.10gb", NULL };
	guint64 g;

	fixture_init(&f, 1);
	run_until(&f, 1 * S);
	for (guint i = 0; i < 7; i++)
		slices[i] = (ClusterDevice){ CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_DEFAULT,
			                     1.0 / 7.0, 10 * GB, TRUE };
	alloc.v[GPU + 1] = 7;
	g = gen(&f);
	/* no tenant to evict, but the caller has changed the node's hardware */
	cluster_sim_reconfigure_node(f.sim, f.node, 60 * S, slices, 7, &alloc, labels, NULL);
	assert_true(gen(&f) != g);
	assert_int_equal(cluster_sim_get_node_n_devices(f.sim, 0), 1);
	g = gen(&f);
	run_until(&f, 100 * S);
	assert_int_equal(cluster_sim_get_node_n_devices(f.sim, 0), 7);
	assert_true(gen(&f) != g);
	fixture_clear(&f);
}

/* The arrival order of the pods, as the full journal recorded it. */
static void
arrival_order(Fixture *f, GString *out)
{
	ClusterJournal *journal = cluster_sim_get_journal(f->sim);

	for (guint i = 0; i < cluster_journal_get_n_entries(journal); i++) {
		const ClusterJournalEntry *e = cluster_journal_get_entry(journal, i);

		if (e->kind == CLUSTER_JOURNAL_ARRIVED)
			g_string_append_printf(out, "%s%u@%" G_GINT64_FORMAT, out->len ? " " : "",
			                       e->pod, e->at / S);
	}
}

/*
 * Pods added in arrival order have one arrival event at a time
 * (cluster_arrivals.c): pods at 1, 3, 3 s leave one event pending. A pod
 * added out of order ends the chain, every pod then has its event (4), and
 * they still arrive by (time, index): 10, 10, 5, 10 s arrive as 2, 0, 1, 3.
 */
static void
test_sim_query__arrivals_one_event_at_a_time_in_order(void **state)
{
	static const struct {
		gint64 at[4];
		guint n, pending;
		const char *order;
	} cases[] = {
		{ { 1, 3, 3 }, 3, 1, "0@1 1@3 2@3" },
		{ { 10, 10, 5, 10 }, 4, 4, "2@5 0@10 1@10 3@10" },
	};

	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		g_autoptr(GString) order = g_string_new(NULL);
		Fixture f;

		fixture_init(&f, 4);
		cluster_journal_set_full(cluster_sim_get_journal(f.sim), TRUE);
		for (guint i = 0; i < cases[c].n; i++)
			add_gpu_pod(&f, "p", cases[c].at[i] * S, 5 * S);
		assert_int_equal(sim_loop_get_n_active_pending(f.loop), cases[c].pending);
		assert_int_equal(sim_loop_run(f.loop), SIM_STOP_EMPTY);
		arrival_order(&f, order);
		assert_string_equal(order->str, cases[c].order);
		assert_int_equal(cluster_sim_get_stats(f.sim)->completed, cases[c].n);
		fixture_clear(&f);
	}
}

/*
 * Finished pods are retired (cluster_sim__retire_pod): what only placement
 * reads is freed, what the report reads stays. One node, two GPUs: "a"
 * (0 s, 10 s of work) completes at 10 s; "b" (0 s, lifetime 50 s) is
 * deleted at 50 s; "c" arrives at 20 s on a's freed GPU and still runs at
 * 100 s, so it keeps everything. Each has a toleration and names a user
 * claim "x-..." that does not exist (no DRA here): their arrays show the
 * freeing.
 */
static void
test_sim_query__finished_pods_keep_only_what_reports_read(void **state)
{
	/* four GPUs: a and d finish at 10 s and 30 s (their work, alone on
	 * their GPUs), b is deleted at 50 s, c runs on at 100 s */
	static const struct {
		const char *name;
		gint64 arrival, work, lifetime;
		guint gpus;
		ClusterPodPhase phase;
		gint64 jct; /* s, -1: not finished */
	} pods[] = {
		{ "a", 0, 10, -1, 1, CLUSTER_POD_SUCCEEDED, 10 },
		{ "b", 0, 1000, 50, 1, CLUSTER_POD_DELETED, -1 },
		{ "c", 20, 1000, -1, 1, CLUSTER_POD_RUNNING, -1 },
		{ "d", 0, 30, -1, 2, CLUSTER_POD_SUCCEEDED, 30 },
	};
	Fixture f;

	fixture_init(&f, 4);
	for (guint i = 0; i < G_N_ELEMENTS(pods); i++) {
		g_autofree char *claim = g_strconcat("x-", pods[i].name, NULL);
		const char *claims[] = { claim, NULL };
		ClusterPod *pod = cluster_pod_new(pods[i].name, 0);
		ClusterSimWork w = { .arrival = pods[i].arrival * S,
			             .work = pods[i].work * S,
			             .lifetime = pods[i].lifetime < 0 ? SIM_TIME_NEVER
			                                              : pods[i].lifetime * S,
			             .n_devices = pods[i].gpus,
			             .demand = 1.0,
			             .gpu_mem = GB,
			             .claims = claims };

		cluster_pod_set_request(pod, GPU, pods[i].gpus);
		cluster_pod_add_toleration(pod, "k", CLUSTER_TOLERATION_EXISTS, NULL,
		                           CLUSTER_EFFECT_NO_SCHEDULE);
		cluster_sim_add_pod(f.sim, pod, &w);
	}
	run_until(&f, 100 * S);
	for (guint i = 0; i < G_N_ELEMENTS(pods); i++) {
		gboolean retired = pods[i].phase != CLUSTER_POD_RUNNING;
		const guint *devices;
		guint n = 0;

		/* a retired pod is its record: no ClusterPod any more */
		assert_int_equal(cluster_sim_get_pod(f.sim, i) == NULL, retired);
		assert_int_equal(cluster_sim_get_pod_phase(f.sim, i), pods[i].phase);
		assert_string_equal(cluster_sim_get_pod_name(f.sim, i), pods[i].name);
		/* the sampler reads requests at set-up: a retired pod has none */
		if (retired)
			assert_null(cluster_sim_get_pod_requests(f.sim, i));
		else
			assert_int_equal(cluster_sim_get_pod_requests(f.sim, i)->v[GPU], 1);
		assert_int_equal(cluster_sim_get_pod_claims(f.sim, i)->len, retired ? 0 : 1);
		/* the last placement is still there for the report: its GPUs on n0 */
		devices = cluster_sim_get_pod_devices(f.sim, i, &n);
		assert_non_null(devices);
		assert_int_equal(n, pods[i].gpus);
		assert_true(devices[0] < 4 && devices[n - 1] < 4);
		if (n == 2)
			assert_int_not_equal(devices[0], devices[1]);
		assert_int_equal(cluster_sim_get_pod_node_index(f.sim, i), 0);
		assert_string_equal(cluster_sim_get_pod_node(f.sim, i)->name, "n0");
		assert_int_equal(cluster_sim_get_pod_latency(f.sim, i), 0);
		assert_true(cluster_sim_get_pod_jct(f.sim, i) ==
		            (pods[i].jct < 0 ? -1 : pods[i].jct * S));
		/* x-NAME is a user claim (resourceClaimName), which may be shared: kept */
		assert_true(cluster_sim_get_pod_shares_devices(f.sim, i));
		assert_int_equal(cluster_sim_get_pod_restarts(f.sim, i), 0);
	}
	assert_int_equal(cluster_sim_get_pod_left_at(f.sim, 1), 50 * S);
	assert_int_equal(cluster_sim_get_pod_placed_at(f.sim, 3), 0);
	fixture_clear(&f);
}

/* The builder of test_sim_query__parked_pods_made_at_arrival: the pods it
 * made, in order, each as add_gpu_pod() made it at set-up. */
typedef struct {
	ClusterSim *sim;
	GArray *built; /* guint */
} Builder;

static const char *const parked_names[] = { "p0", "p1", "p2", "p3" };
static const gint64 parked_arrival[] = { 0, 5, 50, 2 };

static void
build_parked(gpointer data, guint index)
{
	Builder *b = data;
	ClusterPod *pod = cluster_pod_new(parked_names[index], 0);
	ClusterSimWork w = { .arrival = parked_arrival[index] * S,
		             .work = 10 * S,
		             .lifetime = SIM_TIME_NEVER,
		             .n_devices = 1,
		             .demand = 1.0,
		             .gpu_mem = GB };

	g_array_append_val(b->built, index);
	cluster_pod_set_request(pod, GPU, 1);
	cluster_sim_revive_pod(b->sim, index, pod, &w);
}

static const char *
name_parked(gpointer data, guint index)
{
	return parked_names[index];
}

static void
test_sim_query__parked_pods_made_at_arrival(void **state)
{
	/*
	 * Two GPUs, 10 s of work each. p0, p1 and p2 are parked; p3, added after
	 * them out of arrival order, ends the chain (each waiting pod gets its
	 * event, parked or not) and is not parked. p0 runs 0-10 s, p3 2-12 s,
	 * p1 waits from 5 s for p0's GPU and runs 10-20 s, p2 50-60 s.
	 */
	Fixture f;
	Builder b = { NULL, g_array_new(FALSE, FALSE, sizeof(guint)) };
	ClusterSimLedger ledger;

	fixture_init(&f, 2);
	b.sim = f.sim;
	for (guint i = 0; i < 3; i++)
		add_gpu_pod(&f, parked_names[i], parked_arrival[i] * S, 10 * S);
	assert_false(cluster_sim_park_pod(f.sim, 0)); /* no builder yet */
	cluster_sim_set_pod_builder(f.sim, build_parked, name_parked, &b);
	for (guint i = 0; i < 3; i++)
		assert_true(cluster_sim_park_pod(f.sim, i));
	assert_false(cluster_sim_park_pod(f.sim, 1)); /* parked already */
	add_gpu_pod(&f, parked_names[3], parked_arrival[3] * S, 10 * S);
	assert_false(cluster_sim_park_pod(f.sim, 3)); /* out of order: not in the chain */
	/* a parked pod answers as one that has not arrived */
	assert_null(cluster_sim_get_pod(f.sim, 1));
	assert_string_equal(cluster_sim_get_pod_name(f.sim, 1), "p1");
	assert_int_equal(cluster_sim_get_pod_phase(f.sim, 1), CLUSTER_POD_PENDING);
	assert_int_equal(cluster_sim_get_pod_node_index(f.sim, 1), G_MAXUINT);
	assert_true(cluster_sim_get_pod_latency(f.sim, 1) == -1);
	assert_int_equal(cluster_sim_get_pod_claims(f.sim, 1)->len, 0);
	assert_false(cluster_sim_get_pod_shares_devices(f.sim, 1));

	run_until(&f, 30 * S);
	/* p0 and p1 made at their arrivals, in order; done at 10 and 20 s */
	assert_int_equal(b.built->len, 2);
	assert_int_equal(g_array_index(b.built, guint, 1), 1);
	assert_true(cluster_sim_get_pod_jct(f.sim, 0) == 10 * S);
	assert_true(cluster_sim_get_pod_jct(f.sim, 3) == 10 * S);
	assert_true(cluster_sim_get_pod_latency(f.sim, 1) == 5 * S);
	assert_true(cluster_sim_get_pod_jct(f.sim, 1) == 15 * S);
	assert_true(cluster_sim_get_pod_placed_at(f.sim, 1) == 10 * S);
	assert_null(cluster_sim_get_pod(f.sim, 2)); /* still parked */
	cluster_sim_get_ledger(f.sim, &ledger);
	assert_int_equal(ledger.arrived, 3);
	assert_int_equal(ledger.completed, 3);

	run_until(&f, 100 * S);
	assert_int_equal(b.built->len, 3);
	assert_true(cluster_sim_get_pod_latency(f.sim, 2) == 0);
	assert_true(cluster_sim_get_pod_jct(f.sim, 2) == 10 * S);
	cluster_sim_get_ledger(f.sim, &ledger);
	assert_int_equal(ledger.arrived, 4);
	assert_int_equal(ledger.completed, 4);
	/* retired, their names come from the namer (no copy kept) */
	for (guint i = 0; i < G_N_ELEMENTS(parked_names); i++)
		assert_string_equal(cluster_sim_get_pod_name(f.sim, i), parked_names[i]);
	g_array_unref(b.built);
	fixture_clear(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_query__generation_follows_starts_and_completions),
		cmocka_unit_test(test_sim_query__cordon_leaves_generation_alone),
		cmocka_unit_test(test_sim_query__generation_follows_fail_and_restore),
		cmocka_unit_test(test_sim_query__generation_follows_reconfiguration),
		cmocka_unit_test(test_sim_query__arrivals_one_event_at_a_time_in_order),
		cmocka_unit_test(test_sim_query__finished_pods_keep_only_what_reports_read),
		cmocka_unit_test(test_sim_query__parked_pods_made_at_arrival),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
