/*
 * cluster_sim_nodes.c: node and device events on the simulated cluster:
 * drain (cordon, evict), failure (the node lifecycle controller taints an
 * unreachable node NoExecute after node-monitor-grace-period; the taint
 * eviction controller, cluster_taint_evict.c, evicts its pods when their
 * toleration of it runs out: 300 s by default), restore, node taints, and
 * the mig-manager's reconfiguration flow (cordon, evict GPU pods, wait,
 * install the new layout, relabel, uncordon).
 *
 * An evicted pod is recreated by its controller: drasim puts the same pod
 * back in the queue as new, with fresh generated claims, starting its work
 * over. Loops over pods run in index order, so evictions are deterministic.
 */
#include <string.h>

#include "cluster-private.h"
#include "cluster_journal.h"
#include "cluster_query.h"
#include "cluster_queue.h"
#include "cluster_run.h"
#include "cluster_sim.h"
#include "cluster_types.h"

#define TAINT_UNREACHABLE "node.kubernetes.io/unreachable"
#define PRIO_NODE         1

static void on_node_fail(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_node_drain(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_node_restore(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_unreachable(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_reconfigured(SimLoop *loop, const SimEvent *ev, gpointer data);

void
cluster_sim__register_node_kinds(ClusterSim *self)
{
	self->kind_node_fail = sim_loop_add_kind(self->loop, "node-fail", on_node_fail, self);
	self->kind_node_drain = sim_loop_add_kind(self->loop, "node-drain", on_node_drain, self);
	self->kind_node_restore =
	        sim_loop_add_kind(self->loop, "node-restore", on_node_restore, self);
	cluster_sim__register_evict_kinds(self);
	cluster_sim__register_prepare_kind(self);
	self->kind_reconfigured =
	        sim_loop_add_kind(self->loop, "node-reconfigured", on_reconfigured, self);
	self->kind_unreachable =
	        sim_loop_add_kind(self->loop, "node-unreachable", on_unreachable, self);
}

void
cluster_sim_node_event(ClusterSim *self, SimTime when, ClusterNode *node, ClusterNodeAction action)
{
	ClusterSimNode *sn = node->user_data;
	guint32 kind = 0;

	switch (action) {
	case CLUSTER_NODE_DRAIN:
		kind = self->kind_node_drain;
		break;
	case CLUSTER_NODE_FAIL:
		kind = self->kind_node_fail;
		break;
	case CLUSTER_NODE_RESTORE:
		kind = self->kind_node_restore;
		break;
	}
	sim_loop_schedule(self->loop, when, kind, PRIO_NODE, sn->index, NULL);
}

gboolean
cluster_pod_phase_is_bound(ClusterPodPhase phase)
{
	return phase == CLUSTER_POD_RUNNING || phase == CLUSTER_POD_RESTARTING ||
	       phase == CLUSTER_POD_LOST || phase == CLUSTER_POD_CREATING;
}

gboolean
cluster_sim__is_bound(const ClusterSimPod *sp)
{
	return cluster_pod_phase_is_bound(sp->phase);
}

/*
 * The resourceclaim controller runs at arrival: template -> claim. At a pod's
 * first arrival, a claim generated before the run (ClusterSimWork.adopt) is
 * the pod's; a replacement gets new claims, as upstream's controller makes.
 */
void
cluster_sim__generate_claims(ClusterSim *self, ClusterSimPod *sp)
{
	for (guint i = 0; sp->templates != NULL && sp->templates[i] != NULL; i++) {
		const char *pod_claim = sp->templates[i];
		ClusterClaim *claim = NULL;

		for (guint a = 0; sp->adopt != NULL && sp->adopt[a] != NULL &&
		                  sp->adopt[a + 1] != NULL && claim == NULL;
		     a += 2)
			if (strcmp(sp->adopt[a], pod_claim) == 0)
				claim = cluster_claims_adopt(self->claims, sp->adopt[a + 1],
				                             sp->pod->name, pod_claim);
		if (claim == NULL)
			claim = cluster_claims_generate(self->claims, sp->pod->name, pod_claim);
		g_ptr_array_add(sp->claims, g_strdup(claim->name));
	}
	g_clear_pointer(&sp->adopt, g_strfreev);
	if (sp->templates != NULL && sp->templates[0] != NULL)
		cluster_queue_on_event(self->queue, CLUSTER_EVENT_CLAIM_ADDED,
		                       sim_loop_get_now(self->loop));
}

/* The controller's replacement: pending again, as a new pod. */
static void
recreate(ClusterSim *self, ClusterSimPod *sp)
{
	g_ptr_array_set_size(sp->claims, sp->n_user_claims);
	sp->node = NULL;
	sp->phase = CLUSTER_POD_PENDING;
	cluster_journal__event(self, sp, CLUSTER_JOURNAL_EVICTED);
	self->stats.evictions++;
	cluster_sim__pending_add(self, 1);
	cluster_sim__generate_claims(self, sp);
	sp->qp = cluster_queue_add(self->queue, sp->pod, sim_loop_get_now(self->loop));
}

/*
 * The placement an eviction ends joins the pod's history, for the report's
 * placements[] (issue 18): its node, devices and times. Only pods evicted
 * at least once pay for it.
 */
static void
record_placement(ClusterSimPod *sp, SimTime now)
{
	ClusterSimPlacement *p;

	sp->history = g_renew(ClusterSimPlacement, sp->history, sp->n_history + 1);
	p = &sp->history[sp->n_history++];
	p->node = sp->node->index;
	p->n_devices = sp->n_devices;
	p->devices = g_memdup2(sp->devices, sp->n_devices * sizeof *sp->devices);
	p->start = sp->placed_at;
	p->end = now;
	p->why = sp->phase == CLUSTER_POD_LOST ? CLUSTER_PLACEMENT_NODE_FAILURE
	                                       : CLUSTER_PLACEMENT_EVICTED;
}

const char *
cluster_placement_end_to_string(ClusterPlacementEnd why)
{
	return why == CLUSTER_PLACEMENT_NODE_FAILURE ? "node-failure" : "evicted";
}

void
cluster_sim_evict_pod(ClusterSim *self, guint index)
{
	ClusterSimPod *sp;

	g_return_if_fail(index < self->pods->len);
	sp = self->pods->pdata[index];
	if (sp == NULL || !cluster_sim__is_bound(sp))
		return;
	record_placement(sp, sim_loop_get_now(self->loop));
	cluster_sim__end_pod(self, sp); /* cancels its eviction timers */
	recreate(self, sp);
	cluster_sim__after_queue_change(self);
}

/* Evicts the pods bound to @sn; with @gpu_only, only those that use devices. */
static void
evict_node_pods(ClusterSim *self, ClusterSimNode *sn, gboolean gpu_only)
{
	for (guint i = 0; i < self->pods->len; i++) {
		ClusterSimPod *sp = self->pods->pdata[i];

		if (sp == NULL || sp->node != sn || !cluster_sim__is_bound(sp))
			continue;
		if (gpu_only && sp->n_devices == 0)
			continue;
		cluster_sim_evict_pod(self, i);
	}
}

/* ------------------------------------------------------------ change log */

void
cluster_sim__node_changed(ClusterSim *self, ClusterSimNode *sn)
{
	sn->generation++;
	if (self->changed_nodes == NULL || sn->logged)
		return;
	sn->logged = TRUE;
	g_array_append_val(self->changed_nodes, sn->index);
}

void
cluster_sim_log_node_changes(ClusterSim *self)
{
	if (self->changed_nodes == NULL)
		self->changed_nodes = g_array_new(FALSE, FALSE, sizeof(guint));
}

void
cluster_sim_node_changed(ClusterSim *self, ClusterNode *node)
{
	cluster_sim__node_changed(self, node->user_data);
}

void
cluster_sim_take_node_changes(ClusterSim *self, GArray *out)
{
	if (self->changed_nodes == NULL)
		return;
	for (guint i = 0; i < self->changed_nodes->len; i++) {
		guint index = g_array_index(self->changed_nodes, guint, i);

		((ClusterSimNode *)self->nodes->pdata[index])->logged = FALSE;
	}
	g_array_append_vals(out, self->changed_nodes->data, self->changed_nodes->len);
	g_array_set_size(self->changed_nodes, 0);
}

/* ------------------------------------------------------------ node events */

static void
on_node_drain(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimNode *sn = self->nodes->pdata[ev->target];

	sn->node->unschedulable = TRUE;
	cluster_node_touch(sn->node);
	cluster_sim__node_changed(self, sn);
	evict_node_pods(self, sn, FALSE);
}

/*
 * The containers die with the node; the API still binds the pods until
 * eviction. Upstream's node lifecycle controller adds both unreachable taints
 * once node-monitor-grace-period has passed; drasim adds NoSchedule at once
 * (the scheduler stops using the node) and NoExecute, which starts the
 * eviction clocks, after the grace period.
 */
static void
on_node_fail(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimNode *sn = self->nodes->pdata[ev->target];

	if (sn->failed)
		return;
	sn->failed = TRUE;
	cluster_node_add_taint(sn->node, TAINT_UNREACHABLE, "", CLUSTER_EFFECT_NO_SCHEDULE);
	for (guint i = 0; i < self->pods->len; i++) {
		ClusterSimPod *sp = self->pods->pdata[i];

		if (sp == NULL || sp->node != sn || !cluster_sim__is_bound(sp) ||
		    sp->phase == CLUSTER_POD_LOST)
			continue;
		cluster_kubelet__stop(self, sp);
		sp->phase = CLUSTER_POD_LOST;
		cluster_journal__event(self, sp, CLUSTER_JOURNAL_LOST);
	}
	sn->unreachable = sim_loop_schedule(
	        loop, sim_loop_get_now(loop) + self->config.node_monitor_grace_period,
	        self->kind_unreachable, PRIO_NODE, sn->index, NULL);
}

static void
on_unreachable(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimNode *sn = self->nodes->pdata[ev->target];

	sn->unreachable = SIM_EVENT_ID_NONE;
	cluster_node_add_taint(sn->node, TAINT_UNREACHABLE, "", CLUSTER_EFFECT_NO_EXECUTE);
	cluster_sim__noexec_changed(self, sn);
}

/* Back before the eviction: the kubelet restarts the pods' containers. */
static void
on_node_restore(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimNode *sn = self->nodes->pdata[ev->target];

	if (sn->failed) {
		sn->failed = FALSE;
		sim_loop_cancel(loop, sn->unreachable);
		sn->unreachable = SIM_EVENT_ID_NONE;
		cluster_node_remove_taint(sn->node, TAINT_UNREACHABLE, CLUSTER_EFFECT_NO_SCHEDULE);
		/* no NoExecute taint left: the scheduled evictions are cancelled */
		if (cluster_node_remove_taint(sn->node, TAINT_UNREACHABLE,
		                              CLUSTER_EFFECT_NO_EXECUTE))
			cluster_sim__noexec_changed(self, sn);
		for (guint i = 0; i < self->pods->len; i++) {
			ClusterSimPod *sp = self->pods->pdata[i];

			if (sp != NULL && sp->node == sn && sp->phase == CLUSTER_POD_LOST)
				cluster_sim__kubelet_resume(self, sp);
		}
	}
	sn->node->unschedulable = FALSE;
	cluster_node_touch(sn->node);
	cluster_sim__node_changed(self, sn);
	cluster_sim_notify(self, CLUSTER_EVENT_NODE_UPDATED);
}

void
cluster_sim_reconfigure_node(ClusterSim *self,
                             ClusterNode *node,
                             SimTime duration,
                             const ClusterDevice *devices,
                             guint n_devices,
                             const ClusterResources *allocatable,
                             const char *const *labels,
                             const char *const *unlabels)
{
	ClusterSimNode *sn = node->user_data;

	cluster_sim__node_changed(self, sn); /* the caller may have changed its hardware */
	node->unschedulable = TRUE;
	cluster_node_touch(node);
	evict_node_pods(self, sn, TRUE);
	g_free(sn->next_devices);
	sn->next_devices = g_memdup2(devices, sizeof(ClusterDevice) * n_devices);
	sn->n_next_devices = n_devices;
	sn->next_allocatable = *allocatable;
	g_strfreev(sn->next_labels);
	sn->next_labels = g_strdupv((char **)labels);
	g_strfreev(sn->next_unlabels);
	sn->next_unlabels = g_strdupv((char **)unlabels);
	sim_loop_cancel(self->loop, sn->reconfigure);
	sn->reconfigure = sim_loop_schedule(self->loop, sim_loop_get_now(self->loop) + duration,
	                                    self->kind_reconfigured, PRIO_NODE, sn->index, NULL);
}

static void
on_reconfigured(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimNode *sn = self->nodes->pdata[ev->target];

	sn->reconfigure = SIM_EVENT_ID_NONE;
	cluster_sim__node_changed(self, sn);
	for (guint d = 0; d < sn->n_devices; d++) {
		g_assert(sn->devices[d].tenants->len == 0);
		g_array_unref(sn->devices[d].tenants);
	}
	g_free(sn->devices);
	sn->devices = g_new0(ClusterSimDevice, MAX(sn->n_next_devices, 1));
	self->n_devices = self->n_devices - sn->n_devices + sn->n_next_devices;
	sn->n_devices = sn->n_next_devices;
	for (guint d = 0; d < sn->n_devices; d++) {
		sn->devices[d].dev = sn->next_devices[d];
		sn->devices[d].tenants = g_array_new(FALSE, FALSE, sizeof(guint));
	}
	g_clear_pointer(&sn->next_devices, g_free);
	for (guint slot = CLUSTER_RES_FIRST_SCALAR; slot < CLUSTER_RES_MAX; slot++)
		sn->node->allocatable.v[slot] = sn->next_allocatable.v[slot];
	/*
	 * The relabel comes last, as mig-manager's mig.config.state=success. GFD
	 * rewrites its whole feature file and NFD deletes the labels it set
	 * before that the file no longer has (nfd-master keeps their names in
	 * the node's nfd.node.kubernetes.io/feature-labels annotation): the
	 * labels of profiles the new layout lacks go.
	 */
	for (guint i = 0; sn->next_unlabels != NULL && sn->next_unlabels[i] != NULL; i++)
		cluster_node_remove_label(sn->node, sn->next_unlabels[i]);
	g_clear_pointer(&sn->next_unlabels, g_strfreev);
	for (guint i = 0; sn->next_labels != NULL && sn->next_labels[i] != NULL &&
	                  sn->next_labels[i + 1] != NULL;
	     i += 2)
		cluster_node_set_label(sn->node, sn->next_labels[i], sn->next_labels[i + 1]);
	g_clear_pointer(&sn->next_labels, g_strfreev);
	sn->node->unschedulable = FALSE;
	cluster_node_touch(sn->node);
	cluster_sim_notify(self, CLUSTER_EVENT_NODE_UPDATED);
}

void
cluster_sim_taint_node(ClusterSim *self,
                       ClusterNode *node,
                       const char *key,
                       const char *value,
                       ClusterTaintEffect effect)
{
	cluster_node_add_taint(node, key, value, effect);
	if (effect == CLUSTER_EFFECT_NO_EXECUTE)
		cluster_sim__noexec_changed(self, node->user_data);
}

void
cluster_sim_untaint_node(ClusterSim *self,
                         ClusterNode *node,
                         const char *key,
                         ClusterTaintEffect effect)
{
	if (!cluster_node_remove_taint(node, key, effect))
		return;
	if (effect == CLUSTER_EFFECT_NO_EXECUTE)
		cluster_sim__noexec_changed(self, node->user_data);
	cluster_sim_notify(self, CLUSTER_EVENT_NODE_UPDATED);
}
