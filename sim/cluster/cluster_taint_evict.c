/*
 * cluster_taint_evict.c: the timers of the two controllers that evict pods
 * for NoExecute taints.
 *
 * Node taints follow the taint eviction controller of kubernetes 1.34
 * (pkg/controller/tainteviction/taint_eviction.go, processPodOnNode): when a
 * node's NoExecute taints change, and when a pod binds to a node that has
 * some, a pod that does not tolerate every one of them is deleted at once;
 * otherwise the tolerations used (the first that matches each taint,
 * v1helper.GetMatchingTolerations) decide: none with tolerationSeconds means
 * forever, any <= 0 means at once, else the smallest, counted from now.
 * Production quirk kept: a deletion already scheduled earlier stays as it is
 * (its time is not recomputed) as long as the taints are still tolerated.
 * Pods carry the DefaultTolerationSeconds admission plugin's tolerations for
 * not-ready and unreachable (plugin/pkg/admission/defaulttolerationseconds),
 * applied here rather than stored in the pod.
 *
 * Device taints: cluster_dra_taint.c computes when a pod must go
 * (device_taint_eviction.go) and sets the pod's device timer here.
 */
#include <string.h>

#include "cluster-private.h"
#include "cluster_plugin.h"
#include "cluster_query.h"
#include "cluster_sim.h"
#include "cluster_types.h"

#define PRIO_EVICT        1 /* with the node events */
#define TAINT_NOT_READY   "node.kubernetes.io/not-ready"
#define TAINT_UNREACHABLE "node.kubernetes.io/unreachable"

static void on_evict(SimLoop *loop, const SimEvent *ev, gpointer data);
static void on_device_evict(SimLoop *loop, const SimEvent *ev, gpointer data);

void
cluster_sim__register_evict_kinds(ClusterSim *self)
{
	self->kind_evict = sim_loop_add_kind(self->loop, "pod-evict", on_evict, self);
	self->kind_device_evict =
	        sim_loop_add_kind(self->loop, "pod-device-evict", on_device_evict, self);
}

/*
 * DefaultTolerationSeconds adds "<key>:NoExecute, Exists, 300 s" unless a
 * toleration of the pod has that key or none, and NoExecute or no effect;
 * it looks at neither operator nor value.
 */
static gboolean
has_admission_default(const ClusterPod *pod, const char *key)
{
	if (strcmp(key, TAINT_NOT_READY) != 0 && strcmp(key, TAINT_UNREACHABLE) != 0)
		return FALSE;
	for (guint i = 0; i < cluster_pod_count(pod->tolerations); i++) {
		const ClusterToleration *t = &g_array_index(pod->tolerations, ClusterToleration, i);

		if ((t->key == NULL || t->key[0] == '\0' || strcmp(t->key, key) == 0) &&
		    (t->effect == CLUSTER_EFFECT_NO_EXECUTE || t->effect == CLUSTER_EFFECT_ALL))
			return FALSE;
	}
	return TRUE;
}

/*
 * getMinTolerationTime over the tolerations used for @node's NoExecute
 * taints. Returns FALSE when one is not tolerated. *@seconds: -1 forever
 * (or no NoExecute taint: *@any FALSE), 0 at once, else the smallest.
 */
static gboolean
min_toleration(ClusterSim *self,
               const ClusterPod *pod,
               const ClusterNode *node,
               gboolean *any,
               gint64 *seconds)
{
	gint64 min = G_MAXINT64;

	*any = FALSE;
	for (guint i = 0; i < node->taints->len; i++) {
		const ClusterTaint *taint = &g_array_index(node->taints, ClusterTaint, i);
		const ClusterToleration *used = NULL;
		gboolean has;
		gint64 s;

		if (taint->effect != CLUSTER_EFFECT_NO_EXECUTE)
			continue;
		*any = TRUE;
		for (guint t = 0; t < cluster_pod_count(pod->tolerations) && used == NULL; t++) {
			const ClusterToleration *tol =
			        &g_array_index(pod->tolerations, ClusterToleration, t);

			if (cluster_toleration_tolerates(tol, taint))
				used = tol;
		}
		if (used != NULL) {
			has = used->has_seconds;
			s = used->seconds;
		} else if (has_admission_default(pod, taint->key)) {
			/* appended after the pod's own: used only when none matched */
			has = TRUE;
			s = self->config.default_toleration_seconds;
		} else {
			return FALSE;
		}
		if (has)
			min = s <= 0 ? 0 : MIN(min, s);
	}
	*seconds = min == G_MAXINT64 ? -1 : min;
	return TRUE;
}

static void
cancel_eviction(ClusterSim *self, ClusterSimPod *sp)
{
	sim_loop_cancel(self->loop, sp->eviction);
	sp->eviction = SIM_EVENT_ID_NONE;
}

/* processPodOnNode; @bound: the pod binds now (never evicted within its bind). */
static void
process_pod(ClusterSim *self, ClusterSimPod *sp, gboolean bound)
{
	SimTime now = sim_loop_get_now(self->loop);
	SimTime created = now, fire;
	gboolean any;
	gint64 secs;

	if (!min_toleration(self, sp->pod, sp->node->node, &any, &secs)) {
		cancel_eviction(self, sp);
		secs = 0;
	} else if (!any || secs < 0) {
		cancel_eviction(self, sp);
		return;
	} else if (sp->eviction != SIM_EVENT_ID_NONE) {
		/* startTime + min is before now + min: the earlier work stands */
		if (sp->eviction_created < now)
			return;
		created = sp->eviction_created;
		cancel_eviction(self, sp);
	}
	if (secs >= (SIM_TIME_NEVER - now) / SIM_TIME_S)
		return; /* past any horizon */
	fire = now + secs * SIM_TIME_S;
	if (bound)
		fire = MAX(fire, now + CLUSTER_EVICTION_REBIND_DELAY);
	if (fire <= now) {
		cluster_sim_evict_pod(self, sp->index);
		return;
	}
	sp->eviction =
	        sim_loop_schedule(self->loop, fire, self->kind_evict, PRIO_EVICT, sp->index, NULL);
	sp->eviction_created = created;
}

void
cluster_sim__noexec_changed(ClusterSim *self, ClusterSimNode *sn)
{
	for (guint i = 0; i < self->pods->len; i++) {
		ClusterSimPod *sp = self->pods->pdata[i];

		if (sp != NULL && sp->node == sn && cluster_sim__is_bound(sp))
			process_pod(self, sp, FALSE);
	}
}

void
cluster_sim__evict_on_bind(ClusterSim *self, ClusterSimPod *sp)
{
	const ClusterNode *node = sp->node->node;
	const ClusterDraOps *dra = self->config.sched.dra;

	for (guint i = 0; i < node->taints->len; i++) {
		if (g_array_index(node->taints, ClusterTaint, i).effect ==
		    CLUSTER_EFFECT_NO_EXECUTE) {
			process_pod(self, sp, TRUE);
			break;
		}
	}
	if (sp->pod->has_dra && dra != NULL && dra->bound != NULL) {
		self->in_bind = TRUE;
		dra->bound(self->config.sched.dra_data, sp->pod);
		self->in_bind = FALSE;
	}
}

void
cluster_sim__evict_on_end(ClusterSim *self, ClusterSimPod *sp)
{
	/* every pod ends here: the common case has no timer */
	if (sp->eviction != SIM_EVENT_ID_NONE)
		cancel_eviction(self, sp);
	if (sp->device_eviction != SIM_EVENT_ID_NONE) {
		sim_loop_cancel(self->loop, sp->device_eviction);
		sp->device_eviction = SIM_EVENT_ID_NONE;
	}
}

static void
on_evict(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimPod *sp = self->pods->pdata[ev->target];

	g_return_if_fail(sp != NULL);
	sp->eviction = SIM_EVENT_ID_NONE;
	if (cluster_sim__is_bound(sp))
		cluster_sim_evict_pod(self, ev->target);
}

/* ------------------------------------------------ device taint timers */

SimTime
cluster_sim_get_now(const ClusterSim *self)
{
	return sim_loop_get_now(self->loop);
}

void
cluster_sim_set_device_eviction(ClusterSim *self, guint index, SimTime when)
{
	ClusterSimPod *sp;
	SimTime now = sim_loop_get_now(self->loop);

	g_return_if_fail(index < self->pods->len);
	sp = self->pods->pdata[index];
	if (sp == NULL || !cluster_sim__is_bound(sp))
		return;
	if (self->in_bind)
		when = MAX(when, now + CLUSTER_EVICTION_REBIND_DELAY);
	else if (when <= now) {
		cluster_sim_evict_pod(self, index);
		return;
	}
	if (sp->device_eviction != SIM_EVENT_ID_NONE) {
		if (sp->device_eviction_at == when ||
		    sim_loop_reschedule(self->loop, sp->device_eviction, when)) {
			sp->device_eviction_at = when;
			return;
		}
	}
	sp->device_eviction = sim_loop_schedule(self->loop, when, self->kind_device_evict,
	                                        PRIO_EVICT, index, NULL);
	sp->device_eviction_at = when;
}

void
cluster_sim_clear_device_eviction(ClusterSim *self, guint index)
{
	ClusterSimPod *sp;

	g_return_if_fail(index < self->pods->len);
	sp = self->pods->pdata[index];
	if (sp == NULL)
		return;
	sim_loop_cancel(self->loop, sp->device_eviction);
	sp->device_eviction = SIM_EVENT_ID_NONE;
}

SimTime
cluster_sim_get_device_eviction(const ClusterSim *self, guint index)
{
	const ClusterSimPod *sp;

	g_return_val_if_fail(index < self->pods->len, SIM_TIME_NEVER);
	sp = self->pods->pdata[index];
	return sp != NULL && sp->device_eviction != SIM_EVENT_ID_NONE ? sp->device_eviction_at
	                                                              : SIM_TIME_NEVER;
}

static void
on_device_evict(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ClusterSim *self = data;
	ClusterSimPod *sp = self->pods->pdata[ev->target];

	g_return_if_fail(sp != NULL);
	sp->device_eviction = SIM_EVENT_ID_NONE;
	if (cluster_sim__is_bound(sp))
		cluster_sim_evict_pod(self, ev->target);
}
