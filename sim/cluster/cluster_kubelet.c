/*
 * cluster_kubelet.c: the kubelet side of the simulation. A bound pod joins
 * the tenant lists of its devices; every change of a device's tenants
 * recomputes their speeds with the run model and moves their completion
 * events (cancel or reschedule, never a duplicate). A start can overcommit an
 * unisolated GPU's memory: the run model names the victims, which leave,
 * count as OOM kills and come back after the crash-loop backoff.
 *
 * A pod on several devices runs at the speed of its slowest one (the ranks of
 * a data-parallel job wait for each other).
 *
 * Under the device plugin's time-slicing a pod can hold several replicas of
 * one GPU (scenario_place.c): it joins the device's tenant list once per
 * replica, so replica counts stay exact, but the run model sees it once per
 * device, as one process carrying the work of all its replicas there
 * (fill_tenants; docs/cluster.md, "Several replicas of one GPU").
 */
#include "cluster-private.h"
#include "cluster_journal.h"
#include "cluster_query.h"
#include "cluster_run.h"

static ClusterSimPod *
pod_at(ClusterSim *sim, guint index)
{
	return sim->pods->pdata[index];
}

/*
 * A second pod on an exclusive device: its DRA device was republished under
 * a new name (world_events_pool.c) and the new name allocated; both pods
 * share the GPU, which the report marks (pods[].shared, drasim verify).
 */
static void
mark_co_tenants(ClusterSim *sim, ClusterSimDevice *dev, ClusterSimPod *sp, guint pod)
{
	for (guint i = 0; i < dev->tenants->len; i++) {
		guint other = g_array_index(dev->tenants, guint, i);

		if (other != pod) {
			pod_at(sim, other)->co_tenant = TRUE;
			sp->co_tenant = TRUE;
		}
	}
}

/* The busy-device gauge moves when a device gains its first or loses its last tenant. */
static void
join(ClusterSim *sim, ClusterSimDevice *dev, guint pod)
{
	ClusterSimPod *sp = sim->pods->pdata[pod];

	if (dev->tenants->len == 0) {
		sim_gauge_add(&sim->busy, sim_loop_get_now(sim->loop), 1.0);
		/* the first tenant's claim config decides how the device is shared */
		if (sp->work.set_sharing) {
			dev->dev.mode = sp->work.sharing;
			dev->dev.interval = sp->work.interval;
		}
	} else if (dev->dev.mode == CLUSTER_SHARE_EXCLUSIVE && dev->renamed) {
		mark_co_tenants(sim, dev, sp, pod);
	}
	g_array_append_val(dev->tenants, pod);
}

static void
leave(ClusterSim *sim, ClusterSimDevice *dev, guint pod)
{
	for (guint i = 0; i < dev->tenants->len; i++) {
		if (g_array_index(dev->tenants, guint, i) == pod) {
			g_array_remove_index(dev->tenants, i);
			if (dev->tenants->len == 0)
				sim_gauge_add(&sim->busy, sim_loop_get_now(sim->loop), -1.0);
			return;
		}
	}
}

/*
 * Default placement: free devices first, in index order; then, for shared
 * devices only, the least-loaded ones. Exclusive devices never take a second
 * tenant.
 */
static gboolean
place_default(ClusterSimNode *node, guint *out, guint n)
{
	guint found = 0;

	for (guint d = 0; d < node->n_devices && found < n; d++) {
		if (node->devices[d].tenants->len == 0)
			out[found++] = d;
	}
	while (found < n) {
		gint best = -1;

		for (guint d = 0; d < node->n_devices; d++) {
			gboolean taken = FALSE;

			if (node->devices[d].dev.mode == CLUSTER_SHARE_EXCLUSIVE)
				continue;
			for (guint k = 0; k < found; k++)
				taken = taken || out[k] == d;
			if (taken)
				continue;
			if (best < 0 ||
			    node->devices[d].tenants->len < node->devices[best].tenants->len)
				best = (gint)d;
		}
		if (best < 0)
			return FALSE;
		out[found++] = (guint)best;
	}
	return TRUE;
}

/* Room for @n devices (a placement may name more than the work asked for). */
static void
reserve_devices(ClusterSimPod *sp, guint n)
{
	if (n <= sp->devices_size)
		return;
	sp->devices_size = MAX(n, 2 * sp->devices_size);
	sp->devices = g_renew(guint, sp->devices, sp->devices_size);
	sp->rates = g_renew(double, sp->rates, sp->devices_size);
}

/*
 * The hook may name a device more than once (time-slicing replicas of one
 * GPU), so a pod may ask more devices than the node has; the default
 * placement wants distinct devices. The hook decides how many devices the pod
 * runs on (in the DRA world, all that its claims were allocated).
 */
gboolean
cluster_kubelet__place(ClusterSim *sim, ClusterSimPod *sp, ClusterSimNode *node)
{
	guint n = sp->work.n_devices;
	GArray *placed = sim->placed;
	gboolean repeats = FALSE;

	sp->repeats = FALSE;
	sp->n_devices = 0;
	if (sim->config.place == NULL) {
		if (n > node->n_devices || !place_default(node, sp->devices, n))
			return FALSE;
		sp->n_devices = n;
		return TRUE;
	}
	g_array_set_size(placed, 0);
	if (!sim->config.place(sim->config.place_data, sim, sp->pod, node->node, n, placed))
		return FALSE;
	reserve_devices(sp, placed->len);
	for (guint i = 0; i < placed->len; i++) {
		sp->devices[i] = g_array_index(placed, guint, i);
		if (sp->devices[i] >= node->n_devices)
			return FALSE;
		for (guint j = 0; j < i; j++)
			repeats = repeats || sp->devices[j] == sp->devices[i];
	}
	sp->n_devices = placed->len;
	sp->repeats = repeats;
	return TRUE;
}

/* Is devices[k] the first mention of its device? (joined per replica, run per device) */
static gboolean
first_mention(const ClusterSimPod *sp, guint k)
{
	for (guint j = 0; sp->repeats && j < k; j++) {
		if (sp->devices[j] == sp->devices[k])
			return FALSE;
	}
	return TRUE;
}

static void
update_completion(ClusterSim *sim, ClusterSimPod *sp)
{
	SimTime t = cluster_progress_finish_time(&sp->progress);

	if (t == SIM_TIME_NEVER) {
		sim_loop_cancel(sim->loop, sp->completion);
		sp->completion = SIM_EVENT_ID_NONE;
	} else if (!sim_loop_reschedule(sim->loop, sp->completion, t)) {
		sp->completion =
		        sim_loop_schedule(sim->loop, t, sim->kind_complete, 0, sp->index, NULL);
	}
}

static void
update_pod_rate(ClusterSim *sim, ClusterSimPod *sp)
{
	double rate = 1.0, old = sp->progress.rate;

	for (guint i = 0; i < sp->n_devices; i++)
		rate = MIN(rate, sp->rates[i]);
	cluster_progress_set_rate(&sp->progress, sim_loop_get_now(sim->loop), rate);
	cluster_journal__rate(sim, sp, old);
	update_completion(sim, sp);
}

/*
 * The run model's tenants of @dev, one per distinct pod (in joining order),
 * with their pod indexes in sim->tenant_pods; returns how many. A pod holding
 * r replicas of the device is one CUDA process there (its container sees the
 * GPU once) doing the work of r: demand r × its demand, its memory once.
 */
static guint
fill_tenants(ClusterSim *sim, ClusterSimDevice *dev)
{
	guint m = 0;

	g_array_set_size(sim->tenants, dev->tenants->len);
	g_array_set_size(sim->tenant_pods, dev->tenants->len);
	for (guint i = 0; i < dev->tenants->len; i++) {
		guint pod = g_array_index(dev->tenants, guint, i);
		ClusterSimPod *sp = pod_at(sim, pod);
		ClusterTenant *t;
		guint s = 0;

		while (sp->repeats && s < m && g_array_index(sim->tenant_pods, guint, s) != pod)
			s++;
		if (sp->repeats && s < m) {
			g_array_index(sim->tenants, ClusterTenant, s).demand += sp->work.demand;
			continue;
		}
		g_array_index(sim->tenant_pods, guint, m) = pod;
		t = &g_array_index(sim->tenants, ClusterTenant, m++);
		t->demand = sp->work.demand;
		t->mem_bytes = sp->work.gpu_mem;
		t->mps_threads = sp->work.mps_threads;
		t->mem_limit = sp->work.mem_limit;
		t->start = sp->started;
		t->seq = sp->run_seq;
	}
	g_array_set_size(sim->tenants, m);
	g_array_set_size(sim->tenant_pods, m);
	g_array_set_size(sim->rates, m);
	g_array_set_size(sim->kill, m);
	return m;
}

/* The utilisation gauges follow the device's tenants and speeds. */
static void
account(ClusterSim *sim, ClusterSimDevice *dev, guint m)
{
	SimTime now = sim_loop_get_now(sim->loop);
	double used = 0.0;
	gint64 mem = 0;

	for (guint i = 0; i < m; i++) {
		const ClusterTenant *t = &g_array_index(sim->tenants, ClusterTenant, i);

		used += g_array_index(sim->rates, double, i) * MAX(t->demand, 0.0);
		mem += t->mem_bytes;
	}
	cluster_run_check_delivered(&dev->dev, used);
	sim_gauge_add(&sim->compute, now, used - dev->used);
	sim_gauge_add(&sim->memory, now, (double)(mem - dev->mem_used));
	dev->used = used;
	dev->mem_used = mem;
}

/* New speeds for every tenant of @dev, and their completions moved. */
static void
recompute(ClusterSim *sim, ClusterSimNode *node, guint d)
{
	ClusterSimDevice *dev = &node->devices[d];
	guint m = fill_tenants(sim, dev);

	cluster_run_rates(&sim->config.run, &dev->dev,
	                  (const ClusterTenant *)(const void *)sim->tenants->data, m,
	                  (double *)(void *)sim->rates->data);
	for (guint i = 0; i < m; i++) {
		ClusterSimPod *sp = pod_at(sim, g_array_index(sim->tenant_pods, guint, i));

		for (guint k = 0; k < sp->n_devices; k++) {
			if (sp->devices[k] == d)
				sp->rates[k] = g_array_index(sim->rates, double, i);
		}
	}
	for (guint i = 0; i < m; i++)
		update_pod_rate(sim, pod_at(sim, g_array_index(sim->tenant_pods, guint, i)));
	account(sim, dev, m);
}

/* Recomputes each device of @sp once. */
static void
recompute_pod(ClusterSim *sim, ClusterSimPod *sp)
{
	for (guint k = 0; k < sp->n_devices; k++) {
		if (first_mention(sp, k))
			recompute(sim, sp->node, sp->devices[k]);
	}
}

static void
leave_devices(ClusterSim *sim, ClusterSimPod *sp)
{
	cluster_sim__node_changed(sim, sp->node);
	for (guint k = 0; k < sp->n_devices; k++)
		leave(sim, &sp->node->devices[sp->devices[k]], sp->index);
}

/* An OOM kill: the pod leaves its devices and restarts after the backoff. */
static void
oom_kill(ClusterSim *sim, ClusterSimPod *sp)
{
	SimTime now = sim_loop_get_now(sim->loop);

	leave_devices(sim, sp);
	sim_loop_cancel(sim->loop, sp->completion);
	sp->completion = SIM_EVENT_ID_NONE;
	cluster_progress_advance(&sp->progress, now);
	sp->phase = CLUSTER_POD_RESTARTING;
	cluster_journal__event(sim, sp, CLUSTER_JOURNAL_OOM_KILLED);
	sp->restarts++;
	sim->stats.oom_kills++;
	sim->stats.running--;
	sp->restart = sim_loop_schedule(
	        sim->loop, now + cluster_run_restart_backoff(&sim->config.run, sp->restarts),
	        sim->kind_restart, 2, sp->index, NULL);
	recompute_pod(sim, sp);
}

/* Kills the run model's victims on device @d; returns how many died. */
static guint
check_memory(ClusterSim *sim, ClusterSimNode *node, guint d)
{
	ClusterSimDevice *dev = &node->devices[d];
	GArray *victims = sim->victims;
	guint m = fill_tenants(sim, dev);
	guint killed = cluster_run_oom_victims(
	        &dev->dev, (const ClusterTenant *)(const void *)sim->tenants->data, m,
	        (gboolean *)(void *)sim->kill->data);

	g_array_set_size(victims, 0);
	for (guint i = 0; i < m && killed > 0; i++) {
		if (g_array_index(sim->kill, gboolean, i))
			g_array_append_val(victims, g_array_index(sim->tenant_pods, guint, i));
	}
	/* collected first: oom_kill refills the tenant scratch arrays */
	for (guint i = 0; i < victims->len; i++)
		oom_kill(sim, pod_at(sim, g_array_index(victims, guint, i)));
	return killed;
}

/* Joins the devices, lets memory overcommit kill, then shares the compute. */
static void
run(ClusterSim *sim, ClusterSimPod *sp)
{
	sp->started = sim_loop_get_now(sim->loop);
	sp->run_seq = ++sim->run_seq;
	sp->phase = CLUSTER_POD_RUNNING;
	cluster_journal__event(sim, sp, CLUSTER_JOURNAL_STARTED);
	sim->stats.running++;
	cluster_sim__node_changed(sim, sp->node);
	for (guint k = 0; k < sp->n_devices; k++) {
		sp->rates[k] = 1.0;
		join(sim, &sp->node->devices[sp->devices[k]], sp->index);
	}
	for (guint k = 0; k < sp->n_devices; k++) {
		if (first_mention(sp, k))
			check_memory(sim, sp->node, sp->devices[k]);
		if (sp->phase != CLUSTER_POD_RUNNING)
			return; /* the newcomer itself died (oom_kill recomputed) */
	}
	recompute_pod(sim, sp);
	if (sp->n_devices == 0)
		update_pod_rate(sim, sp);
}

void
cluster_kubelet__start(ClusterSim *sim, ClusterSimPod *sp)
{
	cluster_progress_init(&sp->progress, sp->work.work, sim_loop_get_now(sim->loop));
	sp->started_once = TRUE;
	run(sim, sp);
}

void
cluster_kubelet__restart(ClusterSim *sim, ClusterSimPod *sp)
{
	SimTime now = sim_loop_get_now(sim->loop);

	sp->restart = SIM_EVENT_ID_NONE;
	if (!sim->config.run.restart_keeps_progress)
		cluster_progress_init(&sp->progress, sp->work.work, now);
	sp->progress.since = now;
	run(sim, sp);
}

void
cluster_kubelet__stop(ClusterSim *sim, ClusterSimPod *sp)
{
	sim_loop_cancel(sim->loop, sp->completion);
	sp->completion = SIM_EVENT_ID_NONE;
	sim_loop_cancel(sim->loop, sp->restart);
	sp->restart = SIM_EVENT_ID_NONE;
	if (sp->phase != CLUSTER_POD_RUNNING)
		return;
	cluster_journal__event(sim, sp, CLUSTER_JOURNAL_STOPPED);
	sim->stats.running--;
	leave_devices(sim, sp);
	recompute_pod(sim, sp);
}
