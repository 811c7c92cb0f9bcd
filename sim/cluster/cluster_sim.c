/*
 * cluster_sim.c: the control plane on sim/engine events. Pod arrivals enter
 * the scheduling queue (after the claim controller has generated their
 * template claims); one scheduling cycle runs per SCHEDULE event while the
 * queue can pop; backoff and unschedulable flushes run as timer events armed
 * only when something waits; completions and deletions free resources,
 * release claims and tell the queue, which requeues the pods that the event
 * may help. The kubelet side (devices, speeds, OOM) is in cluster_kubelet.c.
 *
 * Quiescence: the scheduling and flush events are passive (they retry pods)
 * and the rest active. A pending pod is settled once it failed an attempt
 * after the last change (an active event or a bind); when no active event is
 * pending and every pending pod is settled, every retry would fail again, so
 * a run without a horizon stops there (sim_loop_set_settled_func).
 *
 * Same-time events run in a fixed order (the priority column below), so the
 * freeing of resources is seen before the arrivals and attempts of that µs.
 */
#include "cluster_sim.h"

#include "cluster-private.h"
#include "cluster_claims.h"
#include "cluster_journal.h"
#include "cluster_plugin.h"
#include "cluster_query.h"
#include "cluster_queue.h"
#include "cluster_run.h"
#include "cluster_sched.h"
#include "cluster_types.h"

enum {
	PRIO_COMPLETE = 0,
	PRIO_DELETE = 1,
	PRIO_RESTART = 2,
	PRIO_BACKOFF = 3,
	PRIO_UNSCHED = 4,
	PRIO_ARRIVAL = CLUSTER_PRIO_ARRIVAL,
	PRIO_SCHEDULE = 6,
};

static void on_arrival(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_schedule(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_backoff(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_unsched(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_complete(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_restart(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_delete(SimLoop *loop, const SimEvent *ev, gpointer data);

void
cluster_sim_config_init(ClusterSimConfig *config)
{
	*config = (ClusterSimConfig){ 0 };
	cluster_queue_config_init(&config->queue);
	cluster_run_params_init(&config->run);
	config->seed = 1;
	config->default_score_plugins = TRUE;
	/* kube-controller-manager's node-monitor-grace-period; kube-apiserver's
	 * default-{not-ready,unreachable}-toleration-seconds */
	config->node_monitor_grace_period = 40 * SIM_TIME_S;
	config->default_toleration_seconds = 300;
}

static guint32
rng_below(gpointer rng, guint32 n)
{
	return sim_rng_uniform_int(rng, n);
}

static guint32
rng_reservoir(gpointer rng, guint32 ties)
{
	return sim_rng_reservoir(rng, ties);
}

static void
sim_node_free(gpointer data)
{
	ClusterSimNode *node = data;

	for (guint d = 0; d < node->n_devices; d++)
		g_array_unref(node->devices[d].tenants);
	g_free(node->devices);
	g_free(node->next_devices);
	g_strfreev(node->next_labels);
	g_strfreev(node->next_unlabels);
	cluster_node_free(node->node);
	g_free(node);
}

void
cluster_sim__pod_free(gpointer data)
{
	ClusterSimPod *sp = data;

	if (sp == NULL)
		return;
	cluster_pod_free(sp->pod);
	g_free(sp->devices);
	g_free(sp->rates);
	for (guint i = 0; i < sp->n_history; i++)
		g_free(sp->history[i].devices);
	g_free(sp->history);
	if (sp->claims != NULL)
		g_ptr_array_unref(sp->claims);
	g_strfreev(sp->templates);
	g_strfreev(sp->adopt);
	g_free(sp);
}

static void
register_kinds(ClusterSim *self)
{
	self->kind_arrival = sim_loop_add_kind(self->loop, "pod-arrival", on_arrival, self);
	self->kind_schedule = sim_loop_add_kind(self->loop, "schedule", on_schedule, self);
	self->kind_backoff = sim_loop_add_kind(self->loop, "flush-backoff", on_backoff, self);
	self->kind_unsched = sim_loop_add_kind(self->loop, "flush-unsched", on_unsched, self);
	self->kind_complete = sim_loop_add_kind(self->loop, "pod-complete", on_complete, self);
	self->kind_restart = sim_loop_add_kind(self->loop, "pod-restart", on_restart, self);
	self->kind_delete = sim_loop_add_kind(self->loop, "pod-delete", on_delete, self);
	cluster_sim__register_node_kinds(self);
	/* they only retry pods already tried: quiescence (top of the file) */
	sim_loop_set_kind_passive(self->loop, self->kind_schedule);
	sim_loop_set_kind_passive(self->loop, self->kind_backoff);
	sim_loop_set_kind_passive(self->loop, self->kind_unsched);
}

/*
 * The cluster's state changes only in active events and at binds: their
 * count names the state a failed attempt saw (+1, so 0 is "never tried").
 */
static guint64
epoch_of(const ClusterSim *self)
{
	return sim_loop_get_active_dispatched(self->loop) + self->binds + 1;
}

/* @sp failed an attempt against the current state: retrying it before the
 * next change would fail the same way (filters are deterministic). */
static void
mark_settled(ClusterSim *self, ClusterSimPod *sp)
{
	guint64 epoch = epoch_of(self);

	if (self->settled_epoch != epoch) {
		self->settled_epoch = epoch;
		self->n_settled = 0;
	}
	if (sp->tried_epoch != epoch) {
		sp->tried_epoch = epoch;
		self->n_settled++;
	}
}

/* Pods wait and every one already failed against today's state. Pending pods
 * come and go only at active events and binds, which open a new epoch. */
static gboolean
is_settled(gpointer data)
{
	ClusterSim *self = data;

	return self->stats.pending > 0 && self->settled_epoch == epoch_of(self) &&
	       self->n_settled >= self->stats.pending;
}

ClusterSim *
cluster_sim_new(SimLoop *loop, const ClusterSimConfig *config)
{
	ClusterSim *self = g_new0(ClusterSim, 1);
	ClusterClaimsConfig claims_config;

	self->loop = loop;
	if (config != NULL)
		self->config = *config;
	else
		cluster_sim_config_init(&self->config);
	self->sched_rng = sim_rng_new(self->config.seed, "scheduler");
	self->claims_rng = sim_rng_new(self->config.seed, "claims");
	if (self->config.sched.rand == NULL) {
		self->config.sched.rand = rng_below;
		self->config.sched.reservoir = rng_reservoir;
		self->config.sched.rand_data = self->sched_rng;
	}
	self->sched = cluster_sched_new(&self->config.sched);
	if (self->config.default_score_plugins)
		cluster_sched_add_default_score_plugins(self->sched);
	self->queue = cluster_queue_new(&self->config.queue);
	claims_config = self->config.claims;
	claims_config.rand = rng_below;
	claims_config.rand_data = self->claims_rng;
	self->claims = cluster_claims_new(&claims_config);
	self->nodes = g_ptr_array_new_with_free_func(sim_node_free);
	self->pods = g_ptr_array_new_with_free_func(cluster_sim__pod_free);
	self->latencies = sim_samples_new();
	self->jcts = sim_samples_new();
	self->slowdowns = sim_samples_new();
	sim_gauge_init(&self->busy, sim_loop_get_now(loop), 0.0);
	sim_gauge_init(&self->pending, sim_loop_get_now(loop), 0.0);
	sim_gauge_init(&self->compute, sim_loop_get_now(loop), 0.0);
	sim_gauge_init(&self->memory, sim_loop_get_now(loop), 0.0);
	self->tenants = g_array_new(FALSE, TRUE, sizeof(ClusterTenant));
	self->tenant_pods = g_array_new(FALSE, TRUE, sizeof(guint));
	self->rates = g_array_new(FALSE, TRUE, sizeof(double));
	self->kill = g_array_new(FALSE, TRUE, sizeof(gboolean));
	self->victims = g_array_new(FALSE, TRUE, sizeof(guint));
	self->placed = g_array_new(FALSE, TRUE, sizeof(guint));
	self->arrivals = g_array_new(FALSE, FALSE, sizeof(guint));
	self->no_claims = g_ptr_array_new();
	self->journal = cluster_journal__new();
	register_kinds(self);
	sim_loop_set_settled_func(loop, is_settled, self);
	cluster_sim__install_invariants(self);
	return self;
}

void
cluster_sim_free(ClusterSim *self)
{
	if (self == NULL)
		return;
	cluster_sched_free(self->sched);
	cluster_queue_free(self->queue);
	cluster_claims_free(self->claims);
	g_ptr_array_unref(self->pods);
	cluster_sim__retired_free(self);
	g_ptr_array_unref(self->nodes);
	sim_rng_free(self->sched_rng);
	sim_rng_free(self->claims_rng);
	sim_samples_free(self->latencies);
	sim_samples_free(self->jcts);
	sim_samples_free(self->slowdowns);
	g_array_unref(self->tenants);
	g_array_unref(self->tenant_pods);
	g_array_unref(self->rates);
	g_array_unref(self->kill);
	g_array_unref(self->victims);
	g_array_unref(self->placed);
	g_array_unref(self->arrivals);
	g_ptr_array_unref(self->no_claims);
	if (self->changed_nodes != NULL)
		g_array_unref(self->changed_nodes);
	if (self->invariant_sums != NULL)
		g_array_unref(self->invariant_sums);
	cluster_journal_free(self->journal);
	g_free(self);
}

void
cluster_sim_add_node(ClusterSim *self,
                     ClusterNode *node,
                     const ClusterDevice *devices,
                     guint n_devices)
{
	ClusterSimNode *sn = g_new0(ClusterSimNode, 1);

	sn->node = node;
	sn->index = self->nodes->len;
	sn->n_devices = n_devices;
	self->n_devices += n_devices;
	sn->devices = g_new0(ClusterSimDevice, MAX(n_devices, 1));
	for (guint d = 0; d < n_devices; d++) {
		sn->devices[d].dev = devices[d];
		sn->devices[d].tenants = g_array_new(FALSE, FALSE, sizeof(guint));
	}
	node->user_data = sn;
	g_ptr_array_add(self->nodes, sn);
	cluster_sched_add_node(self->sched, node);
	cluster_sim_notify(self, CLUSTER_EVENT_NODE_ADDED);
}

/* ------------------------------------------------------------ timers */

static SimTime
now_of(ClusterSim *self)
{
	return sim_loop_get_now(self->loop);
}

static void
kick(ClusterSim *self)
{
	SimQueue *queue = sim_loop_get_queue(self->loop);

	if (sim_queue_is_pending(queue, self->schedule_ev))
		return;
	if (!cluster_queue_can_pop(self->queue))
		return;
	self->schedule_ev = sim_loop_schedule(self->loop, now_of(self) + self->config.cycle_time,
	                                      self->kind_schedule, PRIO_SCHEDULE, 0, NULL);
}

/* One flush event, moved earlier when a pod with an earlier expiry arrives. */
static void
arm_backoff(ClusterSim *self)
{
	SimQueue *queue = sim_loop_get_queue(self->loop);
	SimTime t = cluster_queue_next_backoff_time(self->queue);

	if (t == SIM_TIME_NEVER)
		return;
	t = MAX(t, now_of(self));
	if (sim_queue_is_pending(queue, self->backoff_ev)) {
		if (sim_queue_get_event_time(queue, self->backoff_ev) > t)
			sim_loop_reschedule(self->loop, self->backoff_ev, t);
		return;
	}
	self->backoff_ev =
	        sim_loop_schedule(self->loop, t, self->kind_backoff, PRIO_BACKOFF, 0, NULL);
}

/* The 30 s ticker (wait.Until), ticking only while the pool holds pods. */
static void
arm_unsched(ClusterSim *self)
{
	SimTime period = self->config.queue.flush_unschedulable_period;
	SimTime t;

	/* Upstream ticks for ever; the loop stops at quiescence (top of the file). */
	if (cluster_queue_get_n_unschedulable(self->queue) == 0 || period <= 0)
		return;
	if (sim_queue_is_pending(sim_loop_get_queue(self->loop), self->unsched_ev))
		return;
	t = (now_of(self) / period + 1) * period;
	self->unsched_ev =
	        sim_loop_schedule(self->loop, t, self->kind_unsched, PRIO_UNSCHED, 0, NULL);
}

void
cluster_sim__after_queue_change(ClusterSim *self)
{
	arm_backoff(self);
	arm_unsched(self);
	kick(self);
}

void
cluster_sim_notify(ClusterSim *self, ClusterEvent event)
{
	cluster_queue_on_event(self->queue, event, now_of(self));
	cluster_sim__after_queue_change(self);
}

void
cluster_sim__pending_add(ClusterSim *self, gint delta)
{
	self->stats.pending += delta;
	sim_gauge_add(&self->pending, now_of(self), delta);
}

/* ------------------------------------------------------------ claims */

static void
reserve_claims(ClusterSim *self, ClusterSimPod *sp)
{
	for (guint i = 0; i < sp->claims->len; i++) {
		ClusterClaim *claim = cluster_claims_lookup(self->claims, sp->claims->pdata[i]);

		if (claim != NULL)
			cluster_claims_reserve(self->claims, claim, sp->pod->name);
	}
}

/* The pod is done: leave reservedFor, deallocate, delete generated claims. */
static gboolean
release_claims(ClusterSim *self, ClusterSimPod *sp)
{
	gboolean deallocated = FALSE;

	for (guint i = 0; i < sp->claims->len; i++) {
		ClusterClaim *claim = cluster_claims_lookup(self->claims, sp->claims->pdata[i]);

		if (claim != NULL)
			deallocated |= cluster_claims_release(self->claims, claim, sp->pod->name);
	}
	return deallocated;
}

/* ------------------------------------------------------------ events */

/* The pod exists: counted, its template claims generated, its deletion timed. */
static void
arrive(ClusterSim *self, ClusterSimPod *sp)
{
	self->stats.submitted++;
	sp->arrived = TRUE;
	cluster_sim__pending_add(self, 1);
	cluster_sim__generate_claims(self, sp);
	cluster_journal__event(self, sp, CLUSTER_JOURNAL_ARRIVED);
	if (sp->work.lifetime != SIM_TIME_NEVER)
		sp->deletion = sim_loop_schedule(self->loop, sp->work.arrival + sp->work.lifetime,
		                                 self->kind_delete, PRIO_DELETE, sp->index, NULL);
}

static void
on_arrival(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimPod *sp = cluster_arrivals__revive(self, ev->target);

	cluster_arrivals__arrived(self, sp->index);
	arrive(self, sp);
	sp->qp = cluster_queue_add(self->queue, sp->pod, now_of(self));
	cluster_sim__after_queue_change(self);
}

static void
bind(ClusterSim *self, ClusterSimPod *sp, ClusterNode *node)
{
	sp->node = node->user_data;
	sp->qp = NULL;
	reserve_claims(self, sp);
	cluster_journal__event(self, sp, CLUSTER_JOURNAL_BOUND);
	self->stats.bound++;
	self->binds++;
	cluster_sim__pending_add(self, -1);
	sp->placed_at = now_of(self);
	if (sp->bound_at < 0) {
		sp->bound_at = now_of(self);
		sim_samples_add(self->latencies,
		                sim_time_to_seconds(sp->bound_at - sp->work.arrival));
	}
	if (cluster_sim__defer_prepare(self, sp))
		sp->phase = CLUSTER_POD_CREATING;
	else
		cluster_kubelet__start(self, sp);
	cluster_sim__evict_on_bind(self, sp);
}

/* Reserve succeeded but the devices cannot be placed: undo, retry as an error. */
static void
unreserve(ClusterSim *self, ClusterSimPod *sp, ClusterNode *node)
{
	const ClusterDraOps *dra = self->config.sched.dra;

	cluster_sched_release(self->sched, sp->pod, node);
	if (sp->pod->has_dra && dra != NULL && dra->unreserve != NULL)
		dra->unreserve(self->config.sched.dra_data, sp->pod, node);
	self->stats.placement_failures++;
	self->stats.error_attempts++;
	cluster_queue_done_failed(self->queue, sp->qp, 0, now_of(self));
}

static void
count_failure(ClusterSim *self, const ClusterScheduleResult *r)
{
	if (r->rejectors == 0) {
		self->stats.error_attempts++;
		return;
	}
	for (guint p = 0; p < CLUSTER_N_PLUGINS; p++) {
		if (r->rejectors & CLUSTER_PLUGIN_BIT(p))
			self->stats.failed_attempts[p]++;
	}
}

static void
on_schedule(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterQueuedPod *qp = cluster_queue_pop(self->queue, now_of(self));
	ClusterScheduleResult r;
	ClusterSimPod *sp;

	if (qp == NULL)
		return;
	sp = self->pods->pdata[qp->pod->uid];
	cluster_sched_schedule_one(self->sched, sp->pod, &r);
	cluster_journal__attempt(self, sp, &r);
	if (r.status != CLUSTER_STATUS_SUCCESS) {
		count_failure(self, &r);
		cluster_queue_done_failed(self->queue, qp, r.rejectors, now_of(self));
		mark_settled(self, sp);
	} else if (!cluster_kubelet__place(self, sp, r.node->user_data)) {
		cluster_journal__placement_failed(self, sp);
		unreserve(self, sp, r.node);
		mark_settled(self, sp);
	} else {
		cluster_queue_done_scheduled(self->queue, qp);
		bind(self, sp, r.node);
	}
	cluster_sim__after_queue_change(self);
}

gboolean
cluster_sim_start_running(ClusterSim *self, guint index, ClusterNode *node, const char **reason)
{
	ClusterSimPod *sp = self->pods->pdata[index];
	const ClusterDraOps *dra = self->config.sched.dra;
	ClusterScheduleResult r;

	g_return_val_if_fail(sp->work.running && sp->qp == NULL && sp->bound_at < 0, FALSE);
	arrive(self, sp);
	cluster_sched_admit(self->sched, sp->pod, node, &r);
	/* the kubelet's own checks done, the pod is an ordinary one from now on:
	 * evicted, its replacement is scheduled like any pending pod */
	sp->pod->bound = FALSE;
	if (r.status == CLUSTER_STATUS_SUCCESS &&
	    cluster_kubelet__place(self, sp, node->user_data)) {
		sp->bound_at = now_of(self); /* running already: no scheduling latency */
		bind(self, sp, node);
		return TRUE;
	}
	*reason = r.reason != NULL ? r.reason : "its devices could not be placed";
	if (r.status == CLUSTER_STATUS_SUCCESS) {
		cluster_sched_release(self->sched, sp->pod, node);
		if (sp->pod->has_dra && dra != NULL && dra->unreserve != NULL)
			dra->unreserve(self->config.sched.dra_data, sp->pod, node);
	}
	sp->qp = cluster_queue_add(self->queue, sp->pod, now_of(self));
	cluster_sim__after_queue_change(self);
	return FALSE;
}

static void
on_backoff(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;

	self->backoff_ev = SIM_EVENT_ID_NONE;
	cluster_queue_flush_backoff(self->queue, now_of(self));
	cluster_sim__after_queue_change(self);
}

static void
on_unsched(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;

	self->unsched_ev = SIM_EVENT_ID_NONE;
	cluster_queue_flush_unschedulable(self->queue, now_of(self));
	cluster_sim__after_queue_change(self);
}

/* A bound pod is gone: its node, devices and claims are free again. */
void
cluster_sim__end_pod(ClusterSim *self, ClusterSimPod *sp)
{
	gboolean deallocated;

	sp->left_at = now_of(self);
	cluster_sim__evict_on_end(self, sp);
	cluster_kubelet__stop(self, sp);
	cluster_sched_release(self->sched, sp->pod, sp->node->node);
	deallocated = release_claims(self, sp);
	cluster_queue_on_event(self->queue, CLUSTER_EVENT_POD_DELETED, now_of(self));
	if (deallocated)
		cluster_queue_on_event(self->queue, CLUSTER_EVENT_CLAIM_DEALLOCATED, now_of(self));
	cluster_sim__after_queue_change(self);
}

static void
on_complete(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimPod *sp = self->pods->pdata[ev->target];
	SimTime jct;

	g_return_if_fail(sp != NULL);
	sp->completion = SIM_EVENT_ID_NONE;
	cluster_progress_advance(&sp->progress, now_of(self));
	cluster_sim__end_pod(self, sp);
	sp->phase = CLUSTER_POD_SUCCEEDED;
	sp->finished_at = now_of(self);
	cluster_journal__event(self, sp, CLUSTER_JOURNAL_COMPLETED);
	sim_loop_cancel(loop, sp->deletion);
	self->stats.completed++;
	jct = sp->finished_at - sp->work.arrival;
	sim_samples_add(self->jcts, sim_time_to_seconds(jct));
	if (sp->work.work > 0)
		sim_samples_add(self->slowdowns, (double)jct / (double)sp->work.work);
	cluster_sim__retire_pod(self, sp);
}

static void
on_restart(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimPod *sp = self->pods->pdata[ev->target];

	g_return_if_fail(sp != NULL);
	if (!cluster_sim__defer_restart(self, sp))
		cluster_kubelet__restart(self, sp);
}

static void
on_delete(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimPod *sp = self->pods->pdata[ev->target];

	g_return_if_fail(sp != NULL);
	sp->deletion = SIM_EVENT_ID_NONE;
	if (sp->phase == CLUSTER_POD_PENDING) {
		cluster_queue_delete(self->queue, sp->qp);
		sp->qp = NULL;
		cluster_sim__pending_add(self, -1);
		release_claims(self, sp);
		cluster_sim__after_queue_change(self);
	} else if (cluster_sim__is_bound(sp)) {
		sim_loop_cancel(loop, sp->eviction);
		sp->eviction = SIM_EVENT_ID_NONE;
		cluster_sim__end_pod(self, sp);
	} else {
		return;
	}
	sp->phase = CLUSTER_POD_DELETED;
	cluster_journal__event(self, sp, CLUSTER_JOURNAL_DELETED);
	self->stats.deleted++;
	cluster_sim__retire_pod(self, sp);
}

/* --------------------------------------------------------- accessors */

ClusterSched *
cluster_sim_get_sched(ClusterSim *self)
{
	return self->sched;
}

ClusterQueue *
cluster_sim_get_queue(ClusterSim *self)
{
	return self->queue;
}

ClusterClaims *
cluster_sim_get_claims(ClusterSim *self)
{
	return self->claims;
}

const ClusterSimStats *
cluster_sim_get_stats(const ClusterSim *self)
{
	return &self->stats;
}

guint
cluster_sim_get_n_pods(const ClusterSim *self)
{
	return self->pods->len;
}

static ClusterSimPod *
sim_pod(const ClusterSim *self, guint index)
{
	g_assert(index < self->pods->len);
	return self->pods->pdata[index];
}

ClusterPod *
cluster_sim_get_pod(const ClusterSim *self, guint index)
{
	ClusterSimPod *sp = sim_pod(self, index);

	return sp != NULL ? sp->pod : NULL;
}

ClusterPodPhase
cluster_sim_get_pod_phase(const ClusterSim *self, guint index)
{
	ClusterSimPod *sp = sim_pod(self, index);

	const ClusterSimRetired *r = sp == NULL ? cluster_sim__retired(self, index) : NULL;

	if (sp != NULL)
		return sp->phase;
	return r != NULL ? (ClusterPodPhase)r->phase : CLUSTER_POD_PENDING; /* parked */
}

ClusterNode *
cluster_sim_get_pod_node(const ClusterSim *self, guint index)
{
	ClusterSimPod *sp = sim_pod(self, index);
	guint node = cluster_sim_get_pod_node_index(self, index);

	if (sp != NULL)
		return sp->node != NULL ? sp->node->node : NULL;
	return node != G_MAXUINT ? ((ClusterSimNode *)self->nodes->pdata[node])->node : NULL;
}

GPtrArray *
cluster_sim_get_pod_claims(const ClusterSim *self, guint index)
{
	const ClusterSimPod *sp = sim_pod(self, index);

	return sp != NULL && sp->claims != NULL ? sp->claims : self->no_claims;
}

void
cluster_sim_add_pod_claim(ClusterSim *self, guint index, const char *name)
{
	g_ptr_array_add(sim_pod(self, index)->claims, g_strdup(name));
}

SimSamples *
cluster_sim_get_latencies(ClusterSim *self)
{
	return self->latencies;
}

SimSamples *
cluster_sim_get_jcts(ClusterSim *self)
{
	return self->jcts;
}

SimSamples *
cluster_sim_get_slowdowns(ClusterSim *self)
{
	return self->slowdowns;
}

const SimGauge *
cluster_sim_get_busy_devices(const ClusterSim *self)
{
	return &self->busy;
}

const SimGauge *
cluster_sim_get_pending_gauge(const ClusterSim *self)
{
	return &self->pending;
}

guint
cluster_sim_count_pending_by_plugin(const ClusterSim *self, guint64 *counts)
{
	guint without = 0;

	for (guint p = 0; p < CLUSTER_N_PLUGINS; p++)
		counts[p] = 0;
	for (guint i = 0; i < self->pods->len; i++) {
		const ClusterSimPod *sp = self->pods->pdata[i];

		if (sp == NULL || sp->phase != CLUSTER_POD_PENDING || sp->qp == NULL)
			continue;
		if (sp->qp->rejectors == 0)
			without++;
		for (guint p = 0; p < CLUSTER_N_PLUGINS; p++) {
			if (sp->qp->rejectors & CLUSTER_PLUGIN_BIT(p))
				counts[p]++;
		}
	}
	return without;
}

const SimGauge *
cluster_sim_get_compute_gauge(const ClusterSim *self)
{
	return &self->compute;
}

const SimGauge *
cluster_sim_get_memory_gauge(const ClusterSim *self)
{
	return &self->memory;
}

void
cluster_sim_get_capacity(const ClusterSim *self,
                         guint *n_devices,
                         double *compute,
                         gint64 *mem_bytes)
{
	guint n = 0;
	double c = 0.0;
	gint64 m = 0;

	for (guint i = 0; i < self->nodes->len; i++) {
		const ClusterSimNode *sn = self->nodes->pdata[i];

		for (guint d = 0; d < sn->n_devices; d++) {
			n++;
			c += sn->devices[d].dev.capacity;
			m += sn->devices[d].dev.mem_bytes;
		}
	}
	*n_devices = n;
	*compute = c;
	*mem_bytes = m;
}

guint
cluster_sim_get_n_devices(const ClusterSim *self)
{
	return self->n_devices;
}
