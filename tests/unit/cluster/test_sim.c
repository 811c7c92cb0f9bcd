/*
 * test_sim.c: the control plane on engine events, end to end: time-sliced
 * co-tenants finish at twice their work, a pod waiting for a GPU is requeued
 * by the completion that frees it, OOM kills follow the crash-loop backoff,
 * MIG speed, the claim lifecycle through a scheduler with a (fake) DRA
 * driver, the 5-minute flush of unschedulable pods, and determinism of the
 * scheduler's tie-breaking stream.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "cluster_claims.h"
#include "cluster_plugin.h"
#include "cluster_query.h"
#include "cluster_run.h"
#include "cluster_sched.h"
#include "cluster_sim.h"
#include "cluster_types.h"

#define S   SIM_TIME_S
#define GB  ((gint64)1000 * 1000 * 1000)
#define GPU CLUSTER_RES_FIRST_SCALAR

typedef struct {
	SimLoop *loop;
	ClusterSim *sim;
} Fixture;

static void
fixture_init(Fixture *f, const ClusterSimConfig *config)
{
	ClusterSimConfig defaults;

	if (config == NULL) {
		cluster_sim_config_init(&defaults);
		defaults.run.context_switch = 0;
		config = &defaults;
	}
	f->loop = sim_loop_new();
	f->sim = cluster_sim_new(f->loop, config);
}

static void
fixture_clear(Fixture *f)
{
	cluster_sim_free(f->sim);
	sim_loop_free(f->loop);
}

/* A node with @n devices of one kind, advertising @per_device GPUs each. */
static void
add_gpu_node(Fixture *f, const char *name, guint n, const ClusterDevice *dev, gint64 per_device)
{
	ClusterNode *node = cluster_node_new(name);
	ClusterDevice devices[8];

	node->allocatable.v[CLUSTER_RES_CPU] = 64000;
	node->allocatable.v[CLUSTER_RES_MEMORY] = 512 * GB;
	node->allocatable.v[CLUSTER_RES_PODS] = 110;
	node->allocatable.v[GPU] = n * per_device;
	for (guint i = 0; i < n; i++)
		devices[i] = *dev;
	cluster_sim_add_node(f->sim, node, devices, n);
}

static guint
add_gpu_pod(Fixture *f, const char *name, SimTime arrival, SimTime work, double demand, gint64 mem)
{
	ClusterPod *pod = cluster_pod_new(name, 0);
	ClusterSimWork w = { .arrival = arrival,
		             .work = work,
		             .lifetime = SIM_TIME_NEVER,
		             .n_devices = 1,
		             .demand = demand,
		             .gpu_mem = mem };

	cluster_pod_set_request(pod, GPU, 1);
	return cluster_sim_add_pod(f->sim, pod, &w);
}

static const ClusterDevice shared_gpu = { CLUSTER_SHARE_TIME_SLICE, CLUSTER_INTERVAL_DEFAULT, 1.0,
	                                  80 * GB, FALSE };
static const ClusterDevice whole_gpu = { CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_DEFAULT, 1.0,
	                                 80 * GB, FALSE };

static void
test_sim__time_sliced_pair_finishes_at_twice_the_work(void **state)
{
	Fixture f;

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &shared_gpu, 2); /* two time-slicing replicas */
	add_gpu_pod(&f, "a", 0, 10 * S, 1.0, 10 * GB);
	add_gpu_pod(&f, "b", 0, 10 * S, 1.0, 10 * GB);
	assert_int_equal(sim_loop_run(f.loop), SIM_STOP_EMPTY);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 20 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 1), 20 * S);
	assert_int_equal(cluster_sim_get_stats(f.sim)->completed, 2);
	assert_int_equal(cluster_sim_get_stats(f.sim)->running, 0);
	/* one device busy for 20 s, fully used, 20 GB in use */
	assert_true(sim_gauge_mean(cluster_sim_get_busy_devices(f.sim), 20 * S) > 0.999);
	assert_true(sim_gauge_mean(cluster_sim_get_compute_gauge(f.sim), 20 * S) > 0.999);
	assert_true(sim_gauge_mean(cluster_sim_get_compute_gauge(f.sim), 20 * S) < 1.001);
	assert_true(sim_gauge_mean(cluster_sim_get_memory_gauge(f.sim), 20 * S) > 19.99 * GB);
	assert_true(cluster_sim_get_memory_gauge(f.sim)->value < 1.0);
	fixture_clear(&f);
}

static void
test_sim__completion_moves_when_a_cotenant_leaves(void **state)
{
	Fixture f;

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &shared_gpu, 4);
	add_gpu_pod(&f, "short", 0, 10 * S, 1.0, 1 * GB);
	add_gpu_pod(&f, "long", 0, 20 * S, 1.0, 1 * GB);
	add_gpu_pod(&f, "late", 25 * S, 5 * S, 1.0, 1 * GB);
	sim_loop_run(f.loop);
	/* both at half speed until 20 s; long alone until 25 s; halves again */
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 20 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 1), 35 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 2), 10 * S);
	fixture_clear(&f);
}

static void
test_sim__waiting_pod_starts_when_gpu_frees(void **state)
{
	Fixture f;

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &whole_gpu, 1);
	add_gpu_pod(&f, "first", 0, 10 * S, 1.0, 1 * GB);
	add_gpu_pod(&f, "second", 0, 10 * S, 1.0, 1 * GB);
	sim_loop_run(f.loop);
	assert_int_equal(cluster_sim_get_pod_latency(f.sim, 0), 0);
	assert_int_equal(cluster_sim_get_pod_latency(f.sim, 1), 10 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 1), 20 * S);
	assert_int_equal(
	        cluster_sim_get_stats(f.sim)->failed_attempts[CLUSTER_PLUGIN_NODE_RESOURCES_FIT],
	        1);
	fixture_clear(&f);
}

static void
test_sim__oom_kills_newest_and_crash_loops(void **state)
{
	Fixture f;

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &shared_gpu, 4);
	add_gpu_pod(&f, "old", 0, 100 * S, 0.5, 50 * GB);
	add_gpu_pod(&f, "new", 1 * S, 10 * S, 0.5, 50 * GB);
	sim_loop_run(f.loop);
	/* killed at 1, 11, 31 and 71 s (backoff 10, 20, 40, 80 s); alone from 151 s */
	assert_int_equal(cluster_sim_get_stats(f.sim)->oom_kills, 4);
	assert_int_equal(cluster_sim_get_pod_restarts(f.sim, 1), 4);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 100 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 1), 160 * S);
	fixture_clear(&f);
}

static void
test_sim__mig_slice_runs_at_profile_speed(void **state)
{
	Fixture f;
	ClusterDevice mig = { CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_DEFAULT, 16.0 / 132.0,
		              10 * GB, TRUE };

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 7, &mig, 1);
	add_gpu_pod(&f, "nb", 0, 16 * S, 33.0 / 132.0, 5 * GB);
	sim_loop_run(f.loop);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 33 * S);
	/* the slice's 16 SMs are all in use: 16/132 of a GPU for 33 s */
	assert_true(fabs(sim_gauge_mean(cluster_sim_get_compute_gauge(f.sim), 33 * S) -
	                 16.0 / 132.0) < 1e-9);
	fixture_clear(&f);
}

/*
 * A fake DRA driver with one device per node: a node can allocate a claim
 * when no other allocated claim sits there. Reserve records the allocation
 * in the controller, as the real driver wiring does.
 */
typedef struct {
	ClusterSim *sim;
	guint allocations, deallocations;
} FakeDriver;

static ClusterClaim *
first_claim(FakeDriver *drv, const ClusterPod *pod)
{
	GPtrArray *names = cluster_sim_get_pod_claims(drv->sim, (guint)pod->uid);

	if (names->len == 0)
		return NULL;
	return cluster_claims_lookup(cluster_sim_get_claims(drv->sim), names->pdata[0]);
}

static ClusterStatus
drv_prefilter(gpointer data, const ClusterPod *pod, const char **reason)
{
	if (first_claim(data, pod) != NULL)
		return CLUSTER_STATUS_SUCCESS;
	*reason = "waiting for resource claim";
	return CLUSTER_STATUS_UNSCHEDULABLE;
}

static void
node_busy(gpointer claim_data, gpointer user_data)
{
	ClusterClaim *claim = claim_data;
	gpointer *args = user_data;

	if (claim->allocated && claim->allocation == args[0] && claim != args[1])
		args[2] = GINT_TO_POINTER(1);
}

static ClusterStatus
drv_filter(gpointer data,
           const ClusterPod *pod,
           const ClusterNode *node,
           gboolean *called,
           const char **reason)
{
	FakeDriver *drv = data;
	ClusterClaim *mine = first_claim(drv, pod);
	gpointer args[3] = { (gpointer)node, mine, NULL };

	if (mine == NULL) /* PreFilter checked it */
		return CLUSTER_STATUS_ERROR;
	if (mine->allocated)
		return mine->allocation == node ? CLUSTER_STATUS_SUCCESS
		                                : CLUSTER_STATUS_UNSCHEDULABLE;
	*called = TRUE;
	cluster_claims_foreach(cluster_sim_get_claims(drv->sim), node_busy, args);
	*reason = "cannot allocate all claims";
	return args[2] != NULL ? CLUSTER_STATUS_UNSCHEDULABLE : CLUSTER_STATUS_SUCCESS;
}

static gboolean
drv_reserve(gpointer data, const ClusterPod *pod, const ClusterNode *node)
{
	FakeDriver *drv = data;
	ClusterClaim *claim = first_claim(drv, pod);

	if (claim == NULL)
		return FALSE;
	if (!claim->allocated) {
		cluster_claims_allocate(cluster_sim_get_claims(drv->sim), claim, (gpointer)node);
		drv->allocations++;
	}
	return TRUE;
}

static const ClusterDraOps driver_ops = {
	.prefilter = drv_prefilter,
	.filter = drv_filter,
	.reserve = drv_reserve,
};

static guint
add_claim_pod(
        Fixture *f, const char *name, SimTime arrival, const char *claim, const char *template_name)
{
	ClusterPod *pod = cluster_pod_new(name, 0);
	const char *claims[] = { claim, NULL };
	const char *templates[] = { template_name, NULL };
	ClusterSimWork w = { .arrival = arrival,
		             .work = 10 * S,
		             .lifetime = SIM_TIME_NEVER,
		             .n_devices = 1,
		             .demand = 1.0,
		             .gpu_mem = GB,
		             .claims = claim != NULL ? claims : NULL,
		             .templates = template_name != NULL ? templates : NULL };

	pod->has_dra = TRUE;
	return cluster_sim_add_pod(f->sim, pod, &w);
}

static void
test_sim__claim_lifecycle_end_to_end(void **state)
{
	FakeDriver drv = { 0 };
	ClusterSimConfig config;
	Fixture f;
	ClusterClaims *claims;
	ClusterClaim *shared;

	cluster_sim_config_init(&config);
	config.run.context_switch = 0;
	config.sched.dra = &driver_ops;
	config.sched.dra_data = &drv;
	fixture_init(&f, &config);
	drv.sim = f.sim;
	claims = cluster_sim_get_claims(f.sim);
	add_gpu_node(&f, "n0", 1, &shared_gpu, 0);
	/* two pods share a claim (time-sliced); a templated pod must wait for it */
	shared = cluster_claims_add(claims, "shared-gpu");
	add_claim_pod(&f, "a", 0, "shared-gpu", NULL);
	add_claim_pod(&f, "b", 0, "shared-gpu", NULL);
	add_claim_pod(&f, "c", 1 * S, NULL, "gpu");
	sim_loop_set_horizon(f.loop, 5 * S);
	sim_loop_run(f.loop);
	assert_true(shared->allocated);
	assert_int_equal(shared->reserved_for->len, 2);
	assert_int_equal(cluster_claims_get_n_generated(claims), 1);
	assert_int_equal(cluster_claims_get_length(claims), 2);
	assert_int_equal(cluster_sim_get_pod_phase(f.sim, 2), CLUSTER_POD_PENDING);
	assert_int_equal(
	        cluster_sim_get_stats(f.sim)->failed_attempts[CLUSTER_PLUGIN_DYNAMIC_RESOURCES], 1);

	sim_loop_set_horizon(f.loop, SIM_TIME_NEVER);
	sim_loop_run(f.loop);
	/* a and b share the GPU: 20 s; c starts when the shared claim is deallocated */
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 20 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 1), 20 * S);
	assert_int_equal(cluster_sim_get_pod_latency(f.sim, 2), 19 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 2), 29 * S);
	assert_false(shared->allocated);
	assert_int_equal(shared->reserved_for->len, 0);
	assert_int_equal(drv.allocations, 2);
	assert_int_equal(cluster_claims_get_n_deallocated(claims), 2);
	/* the generated claim went with its pod; the user's claim stays */
	assert_int_equal(cluster_claims_get_n_deleted(claims), 1);
	assert_int_equal(cluster_claims_get_length(claims), 1);
	fixture_clear(&f);
}

static void
test_sim__unschedulable_pod_retried_every_flush(void **state)
{
	Fixture f;

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &whole_gpu, 1);
	/* something still happens later: the flush keeps ticking */
	add_gpu_pod(&f, "long", 0, 7200 * S, 1.0, GB);
	{
		ClusterPod *pod = cluster_pod_new("too-big", 0);
		ClusterSimWork w = { .arrival = 0, .work = S, .lifetime = SIM_TIME_NEVER };

		cluster_pod_set_request(pod, GPU, 2);
		cluster_sim_add_pod(f.sim, pod, &w);
	}
	sim_loop_set_horizon(f.loop, 3600 * S);
	assert_int_equal(sim_loop_run(f.loop), SIM_STOP_HORIZON);
	/* first try at 0, then at each 30 s tick more than 300 s after the last */
	assert_int_equal(
	        cluster_sim_get_stats(f.sim)->failed_attempts[CLUSTER_PLUGIN_NODE_RESOURCES_FIT],
	        11);
	assert_int_equal(cluster_sim_get_stats(f.sim)->pending, 1);
	fixture_clear(&f);
}

static void
test_sim__deletion_frees_and_cancels(void **state)
{
	Fixture f;
	ClusterPod *pod;
	ClusterSimWork w = {
		.arrival = 0, .work = 100 * S, .lifetime = 5 * S, .n_devices = 1, .demand = 1.0
	};

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &whole_gpu, 1);
	pod = cluster_pod_new("served", 0);
	cluster_pod_set_request(pod, GPU, 1);
	cluster_sim_add_pod(f.sim, pod, &w);
	add_gpu_pod(&f, "next", 1 * S, 10 * S, 1.0, GB);
	sim_loop_run(f.loop);
	assert_int_equal(cluster_sim_get_pod_phase(f.sim, 0), CLUSTER_POD_DELETED);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), -1);
	assert_int_equal(cluster_sim_get_pod_latency(f.sim, 1), 4 * S);
	assert_int_equal(cluster_sim_get_stats(f.sim)->deleted, 1);
	assert_int_equal(cluster_sim_get_stats(f.sim)->completed, 1);
	fixture_clear(&f);
}

static void
test_sim__drain_evicts_and_reschedules(void **state)
{
	Fixture f;
	ClusterNode *first;

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &whole_gpu, 1);
	add_gpu_node(&f, "n1", 1, &whole_gpu, 1);
	add_gpu_pod(&f, "a", 0, 10 * S, 1.0, GB);
	sim_loop_set_horizon(f.loop, 1 * S);
	sim_loop_run(f.loop);
	first = cluster_sim_get_pod_node(f.sim, 0);
	assert_non_null(first);
	cluster_sim_node_event(f.sim, 5 * S, first, CLUSTER_NODE_DRAIN);
	sim_loop_set_horizon(f.loop, SIM_TIME_NEVER);
	sim_loop_run(f.loop);
	/* recreated at 5 s on the other node, work from zero */
	assert_true(first->unschedulable);
	assert_ptr_not_equal(cluster_sim_get_pod_node(f.sim, 0), first);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 15 * S);
	assert_int_equal(cluster_sim_get_stats(f.sim)->evictions, 1);
	assert_int_equal(cluster_sim_get_stats(f.sim)->bound, 2);
	fixture_clear(&f);
}

static void
test_sim__failed_node_evicts_after_delay(void **state)
{
	Fixture f;
	ClusterNode *node;

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &whole_gpu, 1);
	node = cluster_sched_get_node(cluster_sim_get_sched(f.sim), 0);
	add_gpu_pod(&f, "a", 0, 100 * S, 1.0, GB);
	cluster_sim_node_event(f.sim, 10 * S, node, CLUSTER_NODE_FAIL);
	cluster_sim_node_event(f.sim, 400 * S, node, CLUSTER_NODE_RESTORE);
	sim_loop_set_horizon(f.loop, 20 * S);
	sim_loop_run(f.loop);
	assert_int_equal(cluster_sim_get_pod_phase(f.sim, 0), CLUSTER_POD_LOST);
	assert_int_equal(cluster_sim_get_stats(f.sim)->running, 0);
	sim_loop_set_horizon(f.loop, SIM_TIME_NEVER);
	sim_loop_run(f.loop);
	/* evicted at 10 + 340 s; the tainted node takes it back only at 400 s */
	assert_int_equal(cluster_sim_get_stats(f.sim)->evictions, 1);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 500 * S);
	assert_int_equal(node->taints->len, 0);
	fixture_clear(&f);
}

static void
test_sim__restored_node_restarts_lost_pods(void **state)
{
	Fixture f;
	ClusterNode *node;

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &whole_gpu, 1);
	node = cluster_sched_get_node(cluster_sim_get_sched(f.sim), 0);
	add_gpu_pod(&f, "a", 0, 100 * S, 1.0, GB);
	cluster_sim_node_event(f.sim, 10 * S, node, CLUSTER_NODE_FAIL);
	cluster_sim_node_event(f.sim, 100 * S, node, CLUSTER_NODE_RESTORE);
	sim_loop_run(f.loop);
	assert_int_equal(cluster_sim_get_stats(f.sim)->evictions, 0);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 200 * S);
	fixture_clear(&f);
}

static void
test_sim__mig_reconfiguration_flow(void **state)
{
	Fixture f;
	ClusterNode *node;
	ClusterPod *pod;
	const gint mig = GPU + 1;
	ClusterDevice slices[7];
	ClusterResources alloc = { { 0 } };
	const char *labels[] = { "nvidia.com/mig.config", "all-1g.10gb", NULL };
	ClusterSimWork w = { .arrival = 0,
		             .work = 10 * S,
		             .lifetime = SIM_TIME_NEVER,
		             .n_devices = 1,
		             .demand = 0.1,
		             .gpu_mem = GB };

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &whole_gpu, 1);
	node = cluster_sched_get_node(cluster_sim_get_sched(f.sim), 0);
	add_gpu_pod(&f, "trainer", 0, 100 * S, 1.0, GB);
	pod = cluster_pod_new("notebook", 0);
	cluster_pod_set_request(pod, mig, 1);
	cluster_sim_add_pod(f.sim, pod, &w);
	sim_loop_set_horizon(f.loop, 10 * S);
	sim_loop_run(f.loop);
	for (guint i = 0; i < 7; i++)
		slices[i] = (ClusterDevice){ CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_DEFAULT,
			                     1.0 / 7.0, 10 * GB, TRUE };
	alloc.v[mig] = 7;
	cluster_sim_reconfigure_node(f.sim, node, 60 * S, slices, 7, &alloc, labels, NULL);
	assert_true(node->unschedulable);
	assert_int_equal(cluster_sim_get_pod_phase(f.sim, 0), CLUSTER_POD_PENDING);
	assert_null(cluster_node_get_label(node, "nvidia.com/mig.config"));
	/* the trainer stays pending; once nothing else can happen the run ends
	 * (quiescent: its retry timer is still armed, but would fail again) */
	sim_loop_set_horizon(f.loop, SIM_TIME_NEVER);
	assert_int_equal(sim_loop_run(f.loop), SIM_STOP_QUIESCENT);
	assert_false(node->unschedulable);
	assert_string_equal(cluster_node_get_label(node, "nvidia.com/mig.config"), "all-1g.10gb");
	/* the notebook waited for the new layout; the trainer has no GPU left */
	assert_int_equal(cluster_sim_get_pod_latency(f.sim, 1), 70 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 1), 80 * S);
	assert_int_equal(cluster_sim_get_pod_phase(f.sim, 0), CLUSTER_POD_PENDING);
	assert_int_equal(cluster_sim_get_stats(f.sim)->evictions, 1);
	fixture_clear(&f);
}

static void
test_sim__no_execute_taint_evicts_untolerating_pods(void **state)
{
	Fixture f;
	ClusterNode *node;
	ClusterPod *pod;
	guint64 counts[CLUSTER_N_PLUGINS];
	ClusterSimWork w = { .arrival = 0,
		             .work = 10 * S,
		             .lifetime = SIM_TIME_NEVER,
		             .n_devices = 1,
		             .demand = 1.0,
		             .gpu_mem = GB };

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 2, &whole_gpu, 1);
	node = cluster_sched_get_node(cluster_sim_get_sched(f.sim), 0);
	add_gpu_pod(&f, "plain", 0, 10 * S, 1.0, GB);
	pod = cluster_pod_new("tolerant", 0);
	cluster_pod_set_request(pod, GPU, 1);
	cluster_pod_add_toleration(pod, "maintenance", CLUSTER_TOLERATION_EXISTS, NULL,
	                           CLUSTER_EFFECT_ALL);
	cluster_sim_add_pod(f.sim, pod, &w);
	sim_loop_set_horizon(f.loop, 1 * S);
	sim_loop_run(f.loop);
	cluster_sim_taint_node(f.sim, node, "maintenance", "true", CLUSTER_EFFECT_NO_EXECUTE);
	assert_int_equal(cluster_sim_get_stats(f.sim)->evictions, 1);
	assert_int_equal(cluster_sim_get_pod_phase(f.sim, 0), CLUSTER_POD_PENDING);
	assert_int_equal(cluster_sim_get_pod_phase(f.sim, 1), CLUSTER_POD_RUNNING);
	sim_loop_set_horizon(f.loop, 5 * S);
	sim_loop_run(f.loop);
	assert_int_equal(cluster_sim_count_pending_by_plugin(f.sim, counts), 0);
	assert_int_equal(counts[CLUSTER_PLUGIN_TAINT_TOLERATION], 1);
	assert_int_equal(counts[CLUSTER_PLUGIN_NODE_RESOURCES_FIT], 0);
	cluster_sim_untaint_node(f.sim, node, "maintenance", CLUSTER_EFFECT_NO_EXECUTE);
	sim_loop_set_horizon(f.loop, SIM_TIME_NEVER);
	sim_loop_run(f.loop);
	/* evicted at 1 s, back at 5 s, 10 s of work again */
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 15 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 1), 10 * S);
	fixture_clear(&f);
}

static void
test_sim__frozen_cluster_ends_the_run(void **state)
{
	Fixture f;
	ClusterPod *pod = cluster_pod_new("never-fits", 0);
	ClusterSimWork w = { .arrival = 3 * S, .work = S, .lifetime = SIM_TIME_NEVER };

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 1, &whole_gpu, 1);
	cluster_pod_set_request(pod, GPU, 2);
	cluster_sim_add_pod(f.sim, pod, &w);
	/* quiescent after the one failed attempt at its arrival: the flush timer
	 * is armed, but no active event is left to change the node */
	assert_int_equal(sim_loop_run(f.loop), SIM_STOP_QUIESCENT);
	assert_true(sim_loop_is_quiescent(f.loop));
	assert_int_equal(sim_loop_get_now(f.loop), 3 * S);
	assert_int_equal(cluster_sim_get_stats(f.sim)->pending, 1);
	assert_int_equal(
	        cluster_sim_get_stats(f.sim)->failed_attempts[CLUSTER_PLUGIN_NODE_RESOURCES_FIT],
	        1);
	fixture_clear(&f);
}

static void
test_sim__seven_mig_notebooks_fill_an_h100(void **state)
{
	Fixture f;
	const ClusterDevice slice = { CLUSTER_SHARE_EXCLUSIVE, CLUSTER_INTERVAL_DEFAULT,
		                      16.0 / 132.0, 10 * GB, TRUE };

	fixture_init(&f, NULL);
	add_gpu_node(&f, "h100", 7, &slice, 1); /* nvidia.com/mig-1g.10gb: 7 */
	for (guint i = 0; i < 8; i++) {
		g_autofree char *name = g_strdup_printf("notebook-%u", i);

		add_gpu_pod(&f, name, 0, 100 * S, 8.0 / 132.0, 4 * GB);
	}
	sim_loop_set_horizon(f.loop, 50 * S);
	sim_loop_run(f.loop);
	assert_int_equal(cluster_sim_get_stats(f.sim)->running, 7);
	assert_int_equal(cluster_sim_get_stats(f.sim)->pending, 1);
	assert_int_equal(cluster_sim_get_pod_phase(f.sim, 7), CLUSTER_POD_PENDING);
	sim_loop_set_horizon(f.loop, SIM_TIME_NEVER);
	sim_loop_run(f.loop);
	/* the eighth gets the first slice freed, at 100 s */
	assert_int_equal(cluster_sim_get_pod_latency(f.sim, 7), 100 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 7), 200 * S);
	fixture_clear(&f);
}

static void
test_sim__claim_sharing_config_sets_the_device_mode(void **state)
{
	Fixture f;
	ClusterSimConfig config;
	ClusterSimWork w = { .arrival = 0,
		             .work = 10 * S,
		             .lifetime = SIM_TIME_NEVER,
		             .n_devices = 1,
		             .demand = 0.6,
		             .gpu_mem = GB,
		             .mps_threads = 50,
		             .set_sharing = TRUE,
		             .sharing = CLUSTER_SHARE_MPS };

	cluster_sim_config_init(&config);
	fixture_init(&f, &config);
	add_gpu_node(&f, "n0", 1, &shared_gpu, 2);
	for (guint i = 0; i < 2; i++) {
		ClusterPod *pod = cluster_pod_new(i == 0 ? "a" : "b", 0);

		cluster_pod_set_request(pod, GPU, 1);
		cluster_sim_add_pod(f.sim, pod, &w);
	}
	sim_loop_run(f.loop);
	/* MPS, 50 % threads each: 0.5 of 0.6 -> 10 s / (5/6) = 12 s, no switch overhead */
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 12 * S);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 1), 12 * S);
	fixture_clear(&f);
}

static void
run_ties(guint64 seed, GString *out)
{
	ClusterSimConfig config;
	Fixture f;

	cluster_sim_config_init(&config);
	config.seed = seed;
	fixture_init(&f, &config);
	for (guint i = 0; i < 10; i++) {
		g_autofree char *name = g_strdup_printf("n%u", i);

		add_gpu_node(&f, name, 1, &whole_gpu, 1);
	}
	for (guint i = 0; i < 5; i++) {
		g_autofree char *name = g_strdup_printf("p%u", i);

		add_gpu_pod(&f, name, i * S, 100 * S, 1.0, GB);
	}
	sim_loop_run(f.loop);
	for (guint i = 0; i < 5; i++)
		g_string_append_printf(out, "%s ", cluster_sim_get_pod_node(f.sim, i)->name);
	fixture_clear(&f);
}

static void
test_sim__same_seed_same_choices(void **state)
{
	g_autoptr(GString) a = g_string_new(NULL);
	g_autoptr(GString) b = g_string_new(NULL);

	run_ties(42, a);
	run_ties(42, b);
	assert_string_equal(a->str, b->str);
}

/* A device plugin's kubelet handing out replicas round robin: device k % node devices. */
static gboolean
place_round_robin(gpointer data,
                  ClusterSim *sim,
                  const ClusterPod *pod,
                  const ClusterNode *node,
                  guint n,
                  GArray *devices)
{
	for (guint k = 0; k < n; k++) {
		guint d = k % GPOINTER_TO_UINT(data);

		g_array_append_val(devices, d);
	}
	return TRUE;
}

static guint
add_replica_pod(Fixture *f, const char *name, guint replicas)
{
	ClusterPod *pod = cluster_pod_new(name, 0);
	ClusterSimWork w = { .arrival = 0,
		             .work = 10 * S,
		             .lifetime = SIM_TIME_NEVER,
		             .n_devices = replicas,
		             .demand = 1.0,
		             .gpu_mem = 50 * GB };

	cluster_pod_set_request(pod, GPU, replicas);
	return cluster_sim_add_pod(f->sim, pod, &w);
}

/*
 * Two time-sliced GPUs advertised as 4 replicas each; a pod holds 2 replicas
 * of each (devices 0, 1, 0, 1). Per GPU it is one process of demand 2.0: speed
 * 0.5, so 10 s of work take 20 s; it uses each GPU fully (compute 2.0 in all)
 * and its 50 GB count once per GPU (100 GB; per replica, 200 GB and an OOM
 * kill). Without a placement hook the default placement wants 4 distinct
 * devices and refuses the pod.
 */
static void
test_sim__replicas_of_one_gpu_run_as_one_process(void **state)
{
	ClusterSimConfig config;
	Fixture f;

	cluster_sim_config_init(&config);
	config.run.context_switch = 0;
	config.place = place_round_robin;
	config.place_data = GUINT_TO_POINTER(2);
	fixture_init(&f, &config);
	add_gpu_node(&f, "n0", 2, &shared_gpu, 4);
	add_replica_pod(&f, "a", 4);
	assert_int_equal(sim_loop_run(f.loop), SIM_STOP_EMPTY);
	assert_int_equal(cluster_sim_get_pod_jct(f.sim, 0), 20 * S);
	assert_int_equal(cluster_sim_get_stats(f.sim)->oom_kills, 0);
	assert_int_equal(cluster_sim_get_stats(f.sim)->placement_failures, 0);
	assert_true(fabs(sim_gauge_mean(cluster_sim_get_compute_gauge(f.sim), 20 * S) - 2.0) <
	            1e-9);
	assert_true(fabs(sim_gauge_mean(cluster_sim_get_memory_gauge(f.sim), 20 * S) - 100.0 * GB) <
	            1.0);
	fixture_clear(&f);

	fixture_init(&f, NULL);
	add_gpu_node(&f, "n0", 2, &shared_gpu, 4);
	add_replica_pod(&f, "a", 4);
	sim_loop_run(f.loop);
	assert_true(cluster_sim_get_stats(f.sim)->placement_failures > 0);
	assert_int_equal(cluster_sim_get_stats(f.sim)->completed, 0);
	fixture_clear(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim__time_sliced_pair_finishes_at_twice_the_work),
		cmocka_unit_test(test_sim__completion_moves_when_a_cotenant_leaves),
		cmocka_unit_test(test_sim__waiting_pod_starts_when_gpu_frees),
		cmocka_unit_test(test_sim__oom_kills_newest_and_crash_loops),
		cmocka_unit_test(test_sim__mig_slice_runs_at_profile_speed),
		cmocka_unit_test(test_sim__claim_lifecycle_end_to_end),
		cmocka_unit_test(test_sim__unschedulable_pod_retried_every_flush),
		cmocka_unit_test(test_sim__deletion_frees_and_cancels),
		cmocka_unit_test(test_sim__drain_evicts_and_reschedules),
		cmocka_unit_test(test_sim__failed_node_evicts_after_delay),
		cmocka_unit_test(test_sim__restored_node_restarts_lost_pods),
		cmocka_unit_test(test_sim__mig_reconfiguration_flow),
		cmocka_unit_test(test_sim__no_execute_taint_evicts_untolerating_pods),
		cmocka_unit_test(test_sim__frozen_cluster_ends_the_run),
		cmocka_unit_test(test_sim__seven_mig_notebooks_fill_an_h100),
		cmocka_unit_test(test_sim__claim_sharing_config_sets_the_device_mode),
		cmocka_unit_test(test_sim__same_seed_same_choices),
		cmocka_unit_test(test_sim__replicas_of_one_gpu_run_as_one_process),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
