/*
 * cluster_sim_nodes.c: node and device events on the simulated cluster:
 * drain (cordon, evict), failure (the node lifecycle controller taints an
 * unreachable node and evicts its pods once their default toleration of
 * 300 s runs out), restore, and the mig-manager's reconfiguration flow
 * (cordon, evict GPU pods, wait, install the new layout, relabel, uncordon).
 *
 * An evicted pod is recreated by its controller: drasim puts the same pod
 * back in the queue as new, with fresh generated claims, starting its work
 * over. Loops over pods run in index order, so evictions are deterministic.
 */
#include "cluster-private.h"

#define TAINT_UNREACHABLE "node.kubernetes.io/unreachable"
#define PRIO_NODE         1

static void on_node_fail(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_node_drain(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_node_restore(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_evict(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_reconfigured(SimLoop *loop, const SimEvent *ev, gpointer data);

void
cluster_sim__register_node_kinds(ClusterSim *self)
{
	self->kind_node_fail = sim_loop_add_kind(self->loop, "node-fail", on_node_fail, self);
	self->kind_node_drain = sim_loop_add_kind(self->loop, "node-drain", on_node_drain, self);
	self->kind_node_restore =
	        sim_loop_add_kind(self->loop, "node-restore", on_node_restore, self);
	self->kind_evict = sim_loop_add_kind(self->loop, "pod-evict", on_evict, self);
	self->kind_reconfigured =
	        sim_loop_add_kind(self->loop, "node-reconfigured", on_reconfigured, self);
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

static gboolean
is_bound(const ClusterSimPod *sp)
{
	return sp->phase == CLUSTER_POD_RUNNING || sp->phase == CLUSTER_POD_RESTARTING ||
	       sp->phase == CLUSTER_POD_LOST;
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

void
cluster_sim_evict_pod(ClusterSim *self, guint index)
{
	ClusterSimPod *sp;

	g_return_if_fail(index < self->pods->len);
	sp = self->pods->pdata[index];
	if (!is_bound(sp))
		return;
	sim_loop_cancel(self->loop, sp->eviction);
	sp->eviction = SIM_EVENT_ID_NONE;
	cluster_sim__end_pod(self, sp);
	recreate(self, sp);
	cluster_sim__after_queue_change(self);
}

/* Evicts the pods bound to @sn; with @gpu_only, only those that use devices. */
static void
evict_node_pods(ClusterSim *self, ClusterSimNode *sn, gboolean gpu_only)
{
	for (guint i = 0; i < self->pods->len; i++) {
		ClusterSimPod *sp = self->pods->pdata[i];

		if (sp->node != sn || !is_bound(sp))
			continue;
		if (gpu_only && sp->work.n_devices == 0)
			continue;
		cluster_sim_evict_pod(self, i);
	}
}

static void
on_node_drain(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimNode *sn = self->nodes->pdata[ev->target];

	sn->node->unschedulable = TRUE;
	evict_node_pods(self, sn, FALSE);
}

/* The containers die with the node; the API still binds the pods until eviction. */
static void
on_node_fail(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimNode *sn = self->nodes->pdata[ev->target];
	SimTime evict_at = sim_loop_get_now(loop) + self->config.node_eviction_delay;

	if (sn->failed)
		return;
	sn->failed = TRUE;
	cluster_node_add_taint(sn->node, TAINT_UNREACHABLE, "", CLUSTER_EFFECT_NO_SCHEDULE);
	cluster_node_add_taint(sn->node, TAINT_UNREACHABLE, "", CLUSTER_EFFECT_NO_EXECUTE);
	for (guint i = 0; i < self->pods->len; i++) {
		ClusterSimPod *sp = self->pods->pdata[i];

		if (sp->node != sn || !is_bound(sp) || sp->phase == CLUSTER_POD_LOST)
			continue;
		cluster_kubelet__stop(self, sp);
		sp->phase = CLUSTER_POD_LOST;
		cluster_journal__event(self, sp, CLUSTER_JOURNAL_LOST);
		sp->eviction =
		        sim_loop_schedule(loop, evict_at, self->kind_evict, PRIO_NODE, i, NULL);
	}
}

static void
on_evict(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimPod *sp = self->pods->pdata[ev->target];

	sp->eviction = SIM_EVENT_ID_NONE;
	if (sp->phase == CLUSTER_POD_LOST)
		cluster_sim_evict_pod(self, ev->target);
}

/* Back before the eviction: the kubelet restarts the pods' containers. */
static void
on_node_restore(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimNode *sn = self->nodes->pdata[ev->target];

	if (sn->failed) {
		sn->failed = FALSE;
		cluster_node_remove_taint(sn->node, TAINT_UNREACHABLE, CLUSTER_EFFECT_NO_SCHEDULE);
		cluster_node_remove_taint(sn->node, TAINT_UNREACHABLE, CLUSTER_EFFECT_NO_EXECUTE);
		for (guint i = 0; i < self->pods->len; i++) {
			ClusterSimPod *sp = self->pods->pdata[i];

			if (sp->node != sn || sp->phase != CLUSTER_POD_LOST)
				continue;
			sim_loop_cancel(loop, sp->eviction);
			sp->eviction = SIM_EVENT_ID_NONE;
			cluster_kubelet__restart(self, sp);
		}
	}
	sn->node->unschedulable = FALSE;
	cluster_sim_notify(self, CLUSTER_EVENT_NODE_UPDATED);
}

void
cluster_sim_reconfigure_node(ClusterSim *self,
                             ClusterNode *node,
                             SimTime duration,
                             const ClusterDevice *devices,
                             guint n_devices,
                             const ClusterResources *allocatable,
                             const char *const *labels)
{
	ClusterSimNode *sn = node->user_data;

	sn->generation++; /* the caller may have changed the node's hardware */
	node->unschedulable = TRUE;
	evict_node_pods(self, sn, TRUE);
	g_free(sn->next_devices);
	sn->next_devices = g_memdup2(devices, sizeof(ClusterDevice) * n_devices);
	sn->n_next_devices = n_devices;
	sn->next_allocatable = *allocatable;
	g_strfreev(sn->next_labels);
	sn->next_labels = g_strdupv((char **)labels);
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
	sn->generation++;
	for (guint d = 0; d < sn->n_devices; d++) {
		g_assert(sn->devices[d].tenants->len == 0);
		g_array_unref(sn->devices[d].tenants);
	}
	g_free(sn->devices);
	sn->devices = g_new0(ClusterSimDevice, MAX(sn->n_next_devices, 1));
	sn->n_devices = sn->n_next_devices;
	for (guint d = 0; d < sn->n_devices; d++) {
		sn->devices[d].dev = sn->next_devices[d];
		sn->devices[d].tenants = g_array_new(FALSE, FALSE, sizeof(guint));
	}
	g_clear_pointer(&sn->next_devices, g_free);
	for (guint slot = CLUSTER_RES_FIRST_SCALAR; slot < CLUSTER_RES_MAX; slot++)
		sn->node->allocatable.v[slot] = sn->next_allocatable.v[slot];
	/* the relabel comes last, as mig-manager's mig.config.state=success */
	for (guint i = 0; sn->next_labels != NULL && sn->next_labels[i] != NULL &&
	                  sn->next_labels[i + 1] != NULL;
	     i += 2)
		cluster_node_set_label(sn->node, sn->next_labels[i], sn->next_labels[i + 1]);
	g_clear_pointer(&sn->next_labels, g_strfreev);
	sn->node->unschedulable = FALSE;
	cluster_sim_notify(self, CLUSTER_EVENT_NODE_UPDATED);
}

void
cluster_sim_taint_node(ClusterSim *self,
                       ClusterNode *node,
                       const char *key,
                       const char *value,
                       ClusterTaintEffect effect)
{
	ClusterSimNode *sn = node->user_data;
	ClusterTaint taint = { (char *)key, (char *)(value != NULL ? value : ""), effect };

	cluster_node_add_taint(node, key, value, effect);
	if (effect != CLUSTER_EFFECT_NO_EXECUTE)
		return;
	for (guint i = 0; i < self->pods->len; i++) {
		ClusterSimPod *sp = self->pods->pdata[i];
		gboolean ok = FALSE;

		if (sp->node != sn || !is_bound(sp))
			continue;
		for (guint t = 0; t < sp->pod->tolerations->len && !ok; t++)
			ok = cluster_toleration_tolerates(
			        &g_array_index(sp->pod->tolerations, ClusterToleration, t), &taint);
		if (!ok)
			cluster_sim_evict_pod(self, i);
	}
}

void
cluster_sim_untaint_node(ClusterSim *self,
                         ClusterNode *node,
                         const char *key,
                         ClusterTaintEffect effect)
{
	if (cluster_node_remove_taint(node, key, effect))
		cluster_sim_notify(self, CLUSTER_EVENT_NODE_UPDATED);
}
