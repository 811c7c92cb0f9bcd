/*
 * cluster_kubelet_prepare.c: the kubelet's NodePrepareResources while a
 * node's DRA driver is unavailable (its plugin is not registered).
 *
 * Kubernetes 1.34: the kubelet's DRA manager (pkg/kubelet/cm/dra/manager.go,
 * PrepareResources) finds no registered plugin for the claim's driver and
 * fails; the pod's sync fails, it stays ContainerCreating on its node (the
 * scheduler does not move it) and the pod worker retries after
 * backOffPeriod, 10 s (pkg/kubelet/kubelet.go; pod_workers.go adds up to
 * 50 % jitter, which drasim leaves out to stay deterministic). Running pods
 * are not touched: their claims are prepared already. Pods without DRA
 * claims start as usual. The waiting pod is CLUSTER_POD_CREATING: bound,
 * holding its node's resources and its allocated claims, so a drain, a node
 * failure or an eviction handles it like any bound pod.
 */
#include "cluster-private.h"
#include "cluster_sim.h"

#define PREPARE_RETRY (10 * SIM_TIME_S) /* kubelet backOffPeriod */
#define PRIO_PREPARE  2                 /* with container restarts */

static void
on_prepare_retry(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimPod *sp = self->pods->pdata[ev->target];

	g_return_if_fail(sp != NULL);
	sp->restart = SIM_EVENT_ID_NONE;
	if (!cluster_sim__defer_prepare(self, sp))
		cluster_kubelet__start(self, sp);
}

void
cluster_sim__register_prepare_kind(ClusterSim *self)
{
	self->kind_prepare =
	        sim_loop_add_kind(self->loop, "pod-prepare-retry", on_prepare_retry, self);
}

/*
 * TRUE when @sp, just bound (or retrying), cannot start now: its kubelet is
 * down (it syncs the pod when it is back), or its claims cannot be prepared:
 * the retry that first finds the driver back is scheduled (the retries in
 * between fail alike, so they are not simulated one by one).
 */
gboolean
cluster_sim__defer_prepare(ClusterSim *self, ClusterSimPod *sp)
{
	SimTime now = sim_loop_get_now(self->loop);
	SimTime back = sp->node->dra_driver_back;
	SimTime tries;

	if (sp->node->kubelet_back > now) {
		if (sp->node->kubelet_back != SIM_TIME_NEVER)
			sp->restart = sim_loop_schedule(self->loop, sp->node->kubelet_back,
			                                self->kind_prepare, PRIO_PREPARE, sp->index,
			                                NULL);
		return TRUE;
	}
	if (!sp->pod->has_dra || back <= now)
		return FALSE;
	if (back == SIM_TIME_NEVER)
		return TRUE; /* never prepared: ContainerCreating to the end */
	tries = (back - now + PREPARE_RETRY - 1) / PREPARE_RETRY;
	sp->restart = sim_loop_schedule(self->loop, now + tries * PREPARE_RETRY, self->kind_prepare,
	                                PRIO_PREPARE, sp->index, NULL);
	return TRUE;
}

/*
 * A pod whose containers ran restarts them (its claims were prepared: the
 * kubelet's checkpoint keeps them, pkg/kubelet/cm/dra/state); one that never
 * started still needs NodePrepareResources, which may fail again.
 */
void
cluster_sim__kubelet_resume(ClusterSim *self, ClusterSimPod *sp)
{
	if (sp->started_once)
		cluster_kubelet__restart(self, sp);
	else if (cluster_sim__defer_prepare(self, sp))
		sp->phase = CLUSTER_POD_CREATING;
	else
		cluster_kubelet__start(self, sp);
}

void
cluster_sim_dra_driver_unavailable(ClusterSim *self, ClusterNode *node, SimTime until)
{
	ClusterSimNode *sn = node->user_data;

	sn->dra_driver_back = until;
}

gboolean
cluster_sim__defer_restart(ClusterSim *self, ClusterSimPod *sp)
{
	SimTime back = sp->node->kubelet_back;

	if (back <= sim_loop_get_now(self->loop))
		return FALSE;
	sp->restart = back == SIM_TIME_NEVER
	                      ? SIM_EVENT_ID_NONE
	                      : sim_loop_schedule(self->loop, back, self->kind_restart,
	                                          PRIO_PREPARE, sp->index, NULL);
	return TRUE;
}

/*
 * pkg/kubelet/cm/dra/manager.go: the DRA manager restores its claim info
 * cache from the checkpoint (state/checkpoint.go) at start, so a prepared
 * claim is not prepared again; the containers (CRI) outlive the kubelet.
 */
void
cluster_sim_kubelet_restart(ClusterSim *self, ClusterNode *node, SimTime until)
{
	ClusterSimNode *sn = node->user_data;

	sn->kubelet_back = until;
}

void
cluster_sim_device_renamed(ClusterSim *self, ClusterNode *node, guint device)
{
	ClusterSimNode *sn = node->user_data;

	(void)self;
	if (device < sn->n_devices)
		sn->devices[device].renamed = TRUE;
}
