/*
 * world_events.c: spec.events replayed in every mode at the same times:
 * node failure and restore, drain, cordon and uncordon, node taints, DRA
 * device taints (DeviceTaintRules, only with DRADeviceTaints on) and the
 * NVIDIA mig-manager's reconfiguration (nvidia.com/mig.config changes:
 * cordon, evict GPU pods, reconfigure for a while, relabel, the device
 * plugin advertises the new MIG devices), a node NotReady for a while (a
 * flap), a node's DRA driver unavailable for a while, the GPU pool's next
 * generation (republish, device-remove, pool-incomplete: world_events_pool.c)
 * and a kubelet restart. The mechanics live in sim/cluster;
 * this file resolves targets and builds what each world needs. The events
 * are decoded by sim/scenario (scenario_events_dec.c). A node may be a
 * pool's or an imported one (spec.cluster.objects); a node a what-if mode
 * removed is a note of that mode.
 */
#include <string.h>

#include "cluster_dra.h"
#include "cluster_k8s.h"
#include "hw_api.h"
#include "world-private.h"
#include "xr_api.h"

#define PRIO_EVENT 1 /* with sim/cluster's node events, before arrivals (5) */
#define GPU_DRIVER "gpu.nvidia.com"
/* mig-manager stops and restarts the GPU clients (device plugin, GFD, DCGM)
 * around mig-parted; nvidia-hw.md 2.3: "1-5 min, client teardown/restart
 * dominates" (UNCONFIRMED). The per-GPU mig-parted work comes on top. */
#define MIG_CLIENT_RESTART (60 * SIM_TIME_S)
#define TAINT_NOT_READY    "node.kubernetes.io/not-ready"
#define DRA_WIPING_DELAY   (30 * SIM_TIME_S) /* kubelet's defaultWipingDelay */
#define NODE_MONITOR_GRACE (40 * SIM_TIME_S) /* kube-controller-manager's default */

/* ============================================================= runtime */

/* A DeviceTaintRule drasim created: the rule and the strings it borrows. */
typedef struct {
	DraTaintRule rule;
	char *node;
	char *driver;
	char *pool;
	char *device;
	guint event; /* the device-taint event that made it */
	gboolean active;
} TaintRec;

struct ScenarioEvents {
	ScenarioEventsEnv env;
	guint32 kind;
	guint32 kind_ready; /* a not-ready event's end: the node reports Ready again */
	guint32 kind_late;  /* a pool-incomplete event's end: its late slices published */
	guint64 applied;
	GHashTable *cnodes;      /* name -> ClusterNode *, lookups only */
	GHashTable *hwnodes;     /* name -> HwNode *, lookups only */
	GPtrArray *rules;        /* TaintRec *, in creation order */
	K8sObjectSet *published; /* slices republished after a MIG change (dra world) */
	gint64 generations;      /* republications so far: each bumps the pool generation */
	/* node name -> GPtrArray of the label keys GFD has published there
	 * (extended world; what NFD lists in nfd.node.kubernetes.io/feature-labels) */
	GHashTable *gfd_keys;
	GHashTable *ready_due; /* index + 1 of the not-ready events whose end is scheduled */
	GPtrArray *late;       /* per pool-incomplete node: GPtrArray of its late slices */
};

static void
taint_rec_free(gpointer data)
{
	TaintRec *t = data;

	g_free(t->node);
	g_free(t->driver);
	g_free(t->pool);
	g_free(t->device);
	g_free(t);
}

static const char *
effect_name(ClusterTaintEffect effect)
{
	switch (effect) {
	case CLUSTER_EFFECT_NO_SCHEDULE:
		return "NoSchedule";
	case CLUSTER_EFFECT_PREFER_NO_SCHEDULE:
		return "PreferNoSchedule";
	case CLUSTER_EFFECT_NO_EXECUTE:
		return "NoExecute";
	case CLUSTER_EFFECT_ALL:
		break;
	}
	return "";
}

/* The event's targets are k = *@first .. *@last - 1 (event_node_name). */
static void
event_span(const ScenarioEvents *self, const ScenarioEvent *e, guint *first, guint *last)
{
	const ScenarioPool *pool =
	        e->pool != NULL ? scenario_lookup_pool(self->env.sc, e->pool) : NULL;

	*first = e->node != NULL ? 0 : e->index;
	*last = e->node != NULL ? 1 : (e->count > 0 ? e->index + e->count : pool->count);
}

static char *
event_node_name(const ScenarioEvent *e, guint k)
{
	return e->node != NULL ? g_strdup(e->node) : g_strdup_printf("%s-%u", e->pool, k);
}

static void
note(ScenarioEvents *self, guint index, const char *approx)
{
	const ScenarioEvent *e = &g_array_index(self->env.sc->events, ScenarioEvent, index);
	g_autofree char *object = g_strdup_printf("spec.events[%u]", index);

	scenario_note__add(self->env.notes, object, scenario_event_action_get_name(e->action),
	                   approx);
}

/* ---- device taints (dra world) ---- */

/* The rules for @node's GPUs in one pool of one driver (all devices, or each named). */
static void
taint_pool(ScenarioEvents *self,
           guint index,
           const ScenarioEvent *e,
           const char *node,
           const char *driver,
           const char *pool)
{
	guint n = e->devices != NULL ? g_strv_length(e->devices) : 1;

	for (guint i = 0; i < n; i++) {
		TaintRec *t = g_new0(TaintRec, 1);

		t->node = g_strdup(node);
		t->driver = g_strdup(driver);
		t->pool = g_strdup(pool);
		t->device = e->devices != NULL ? g_strdup(e->devices[i]) : NULL;
		t->event = index;
		t->active = TRUE;
		t->rule.driver = t->driver;
		t->rule.pool = t->pool;
		t->rule.device = t->device;
		t->rule.taint.key = e->taint_key;
		t->rule.taint.value = e->taint_value != NULL ? e->taint_value : "";
		t->rule.taint.effect = effect_name(e->taint_effect);
		g_ptr_array_add(self->rules, t);
		cluster_dra_add_taint_rule(self->env.dra, &t->rule);
	}
}

/*
 * A catalog node's GPUs are the NVIDIA driver's pool named after the node; an
 * imported node's are the pools of its slices of GPU drivers (gpu.*, as
 * world_objects.c counts compute devices), each (driver, pool) once.
 */
static gboolean
device_taint(ScenarioEvents *self, guint index, const ScenarioEvent *e, const char *node)
{
	const K8sObjectSet *set = self->env.inventory;
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (guint i = 0;
	     set != NULL && i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind((K8sObjectSet *)set, K8S_KIND_RESOURCE_SLICE, i));
		const char *driver = s->spec.driver;

		if (g_strcmp0(s->spec.node_name, node) != 0 || driver == NULL ||
		    !g_str_has_prefix(driver, "gpu.") || s->spec.pool.name == NULL ||
		    !g_hash_table_add(seen, g_strdup_printf("%s/%s", driver, s->spec.pool.name)))
			continue;
		taint_pool(self, index, e, node, driver, s->spec.pool.name);
	}
	if (g_hash_table_size(seen) == 0)
		taint_pool(self, index, e, node, GPU_DRIVER, node);
	return TRUE;
}

/* Deletes the active rules of this node with the event's key and effect (and devices). */
static gboolean
device_untaint(ScenarioEvents *self, const ScenarioEvent *e, const char *node)
{
	gboolean any = FALSE;

	for (guint i = 0; i < self->rules->len; i++) {
		TaintRec *t = self->rules->pdata[i];

		if (!t->active || g_strcmp0(t->node, node) != 0 ||
		    g_strcmp0(t->rule.taint.key, e->taint_key) != 0 ||
		    strcmp(t->rule.taint.effect, effect_name(e->taint_effect)) != 0)
			continue;
		if (e->devices != NULL &&
		    (t->device == NULL ||
		     !g_strv_contains((const char *const *)e->devices, t->device)))
			continue;
		t->active = FALSE;
		cluster_dra_remove_taint_rule(self->env.dra, &t->rule);
		any = TRUE;
	}
	return any;
}

/* ---- mig-manager (extended world; dra world with a static layout) ---- */

/* mig-parted on every GPU of @hw, once its pods are gone; returns the time it takes. */
static SimTime
apply_layout(HwNode *hw, const char *config, gboolean *ok)
{
	const HwGpuModel *model = hw->shape->gpu_model;
	g_autoptr(GArray) inst = NULL;
	HwReconfigTimes times;
	SimTime total = 0;
	gboolean on = FALSE;

	*ok = FALSE;
	inst = hw_mig_layout_parse(model, config, &on, NULL);
	if (inst == NULL)
		return 0;
	hw_reconfig_times_default(&times);
	for (guint g = 0; g < hw->gpus->len; g++) {
		HwGpu *gpu = hw->gpus->pdata[g];
		HwReconfigPlan plan;

		hw_gpu_plan_reconfigure(gpu, FALSE, on, (const HwMigInstance *)(void *)inst->data,
		                        inst->len, &times, &plan);
		if (plan.verdict != HW_RECONFIG_OK) {
			g_free(plan.reason);
			return 0;
		}
		/* mig-parted walks the GPUs one after the other */
		total += plan.duration_us;
		hw_gpu_apply_reconfigure(gpu, on, (const HwMigInstance *)(void *)inst->data,
		                         inst->len);
	}
	*ok = TRUE;
	return total;
}

/* The device plugin's allocatable and GFD's nvidia.com/ labels for @hw now. */
static gboolean
extended_node_state(ScenarioEvents *self,
                    const HwNode *hw,
                    const char *config,
                    ClusterResources *alloc,
                    GPtrArray *labels)
{
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(ClusterNode) tmp = NULL;
	K8sObject *obj;

	if (!xr_publish_objects(hw, &self->env.mode->xr, set, self->env.diags, &error) ||
	    k8s_object_set_count_kind(set, K8S_KIND_NODE) == 0)
		return FALSE;
	obj = k8s_object_set_get_kind(set, K8S_KIND_NODE, 0);
	tmp = cluster_k8s_node_new(k8s_object_as_node(obj), self->env.names, self->env.diags);
	if (tmp == NULL)
		return FALSE;
	*alloc = tmp->allocatable;
	for (guint i = 0; i < tmp->labels->len; i++) {
		const ClusterLabel *l = &g_array_index(tmp->labels, ClusterLabel, i);

		if (g_str_has_prefix(l->key, "nvidia.com/")) {
			g_ptr_array_add(labels, g_strdup(l->key));
			g_ptr_array_add(labels, g_strdup(l->value));
		}
	}
	/* mig-manager's own labels last: the requested config, applied */
	g_ptr_array_add(labels, g_strdup("nvidia.com/mig.config"));
	g_ptr_array_add(labels, g_strdup(config));
	g_ptr_array_add(labels, g_strdup("nvidia.com/mig.config.state"));
	g_ptr_array_add(labels, g_strdup("success"));
	g_ptr_array_add(labels, NULL);
	return TRUE;
}

static gboolean
pairs_have_key(const GPtrArray *pairs, const char *key)
{
	for (guint i = 0; i + 1 < pairs->len; i += 2)
		if (g_strcmp0(pairs->pdata[i], key) == 0)
			return TRUE;
	return FALSE;
}

/*
 * The label keys GFD has published on the node so far: the first time those
 * of its hardware as it is now (the node was built from the same model/xr
 * labels), later also every key a relabel set.
 */
static GPtrArray *
gfd_keys(ScenarioEvents *self, const HwNode *hw, const char *node)
{
	GPtrArray *keys = g_hash_table_lookup(self->gfd_keys, node);
	g_autoptr(GPtrArray) labels = NULL;
	ClusterResources alloc;

	if (keys != NULL)
		return keys;
	keys = g_ptr_array_new_with_free_func(g_free);
	g_hash_table_insert(self->gfd_keys, g_strdup(node), keys);
	labels = g_ptr_array_new_with_free_func(g_free);
	if (extended_node_state(self, hw, "", &alloc, labels))
		for (guint i = 0; i + 1 < labels->len; i += 2)
			g_ptr_array_add(keys, g_strdup(labels->pdata[i]));
	return keys;
}

/*
 * GFD rewrites its feature file after the reconfiguration and NFD removes the
 * labels the file no longer has: returns (NULL-terminated, strings borrowed
 * from @keys) the keys of @keys that @labels (pairs) lacks, and adds the new
 * keys of @labels to @keys.
 */
static GPtrArray *
stale_gfd_keys(GPtrArray *keys, const GPtrArray *labels)
{
	GPtrArray *stale = g_ptr_array_new();
	guint n_old = keys->len;

	for (guint i = 0; i < n_old; i++)
		if (!pairs_have_key(labels, keys->pdata[i]))
			g_ptr_array_add(stale, keys->pdata[i]);
	g_ptr_array_add(stale, NULL);
	for (guint i = 0; i + 1 < labels->len; i += 2) {
		gboolean known = FALSE;

		for (guint k = 0; k < n_old && !known; k++)
			known = strcmp(keys->pdata[k], labels->pdata[i]) == 0;
		if (!known)
			g_ptr_array_add(keys, g_strdup(labels->pdata[i]));
	}
	return stale;
}

/* The node pool's layout in this mode is "dynamic" (DynamicMIG). */
static gboolean
pool_is_dynamic(ScenarioEvents *self, const char *node)
{
	const ScenarioPool *pool = scenario_lookup_node_pool(self->env.sc, node);
	const GArray *layouts = self->env.mode->layouts;

	if (pool == NULL)
		return FALSE;
	for (guint i = 0; i < layouts->len; i++) {
		const ScenarioPoolLayout *l = &g_array_index(layouts, ScenarioPoolLayout, i);

		if (strcmp(l->pool, pool->name) == 0)
			return g_strcmp0(l->mig, "dynamic") == 0;
	}
	return g_strcmp0(pool->mig, "dynamic") == 0;
}

/*
 * DRA world, static MIG: the NVIDIA DRA driver publishes the MIG devices
 * that exist, so after mig-parted it republishes the node's gpu.nvidia.com
 * pool with a higher generation; the allocator drops the older generation.
 * The node stays cordoned until the reconfiguration ends, so nothing is
 * allocated on the new devices before the simulation installs them.
 */
static gboolean
dra_republish(ScenarioEvents *self, const HwNode *hw, const HwPublishOptions *opts)
{
	return scenario_events__publish_pool(&self->env, self->published, hw, opts,
	                                     ++self->generations, NULL, NULL, NULL);
}

static gboolean
mig_reconfigure(ScenarioEvents *self, guint index, const ScenarioEvent *e, ClusterNode *cn)
{
	HwNode *hw = g_hash_table_lookup(self->hwnodes, cn->name);
	g_autoptr(GArray) devices = g_array_new(FALSE, TRUE, sizeof(ClusterDevice));
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) resources = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) stale = NULL;
	GPtrArray *keys = NULL;
	ClusterResources alloc;
	HwPublishOptions opts;
	SimTime duration;
	gboolean ok;

	gboolean dra = self->env.mode->world == SCENARIO_WORLD_DRA;

	if (dra && pool_is_dynamic(self, cn->name)) {
		note(self, index,
		     "DynamicMIG: the DRA driver creates MIG partitions at allocation and "
		     "publishes every placement, so there is no mig-manager step: no effect");
		return FALSE;
	}
	if (hw == NULL) {
		/* the decoder refuses imported nodes (scenario_whatif__check_events) */
		note(self, index, "the node has no model/hw GPUs to reconfigure: no effect");
		return FALSE;
	}
	if (!dra)
		keys = gfd_keys(self, hw, cn->name); /* before the layout changes */
	duration = apply_layout(hw, e->mig_config, &ok);
	/* a layout refused half-way keeps the GPUs it reconfigured: the sampler reads them */
	cluster_sim_node_changed(self->env.sim, cn);
	if (!ok) {
		note(self, index, "the layout does not apply to this node's GPUs: no effect");
		return FALSE;
	}
	duration = e->duration >= 0 ? e->duration : duration + MIG_CLIENT_RESTART;
	hw_publish_options_init(&opts);
	scenario_run__node_devices(self->env.mode, hw, &opts, devices, names, resources);
	if (dra) {
		/* Node allocatable does not change; the relabel is mig-manager's. */
		alloc = cn->allocatable;
		g_ptr_array_add(labels, g_strdup("nvidia.com/mig.config"));
		g_ptr_array_add(labels, g_strdup(e->mig_config));
		g_ptr_array_add(labels, g_strdup("nvidia.com/mig.config.state"));
		g_ptr_array_add(labels, g_strdup("success"));
		g_ptr_array_add(labels, NULL);
	} else if (!extended_node_state(self, hw, e->mig_config, &alloc, labels)) {
		return FALSE;
	} else {
		stale = stale_gfd_keys(keys, labels);
	}
	if (self->env.place != NULL)
		scenario_place__add_node(self->env.place, cn->name, resources,
		                         self->env.mode->xr.replicas > 1);
	/* The label change that starts mig-manager, then its flow in sim/cluster. */
	cluster_node_set_label(cn, "nvidia.com/mig.config", e->mig_config);
	cluster_node_set_label(cn, "nvidia.com/mig.config.state", "pending");
	cluster_sim_reconfigure_node(self->env.sim, cn, duration,
	                             (const ClusterDevice *)(void *)devices->data, devices->len,
	                             &alloc, (const char *const *)labels->pdata,
	                             stale != NULL ? (const char *const *)stale->pdata : NULL);
	/* After the evictions above: their claims gave the old devices back. */
	if (dra) {
		/* the table first: its new devices drop earlier renames (republish) */
		cluster_dra_set_node_devices(self->env.dra, cn->name,
		                             (const char *const *)names->pdata, names->len);
		if (!dra_republish(self, hw, &opts))
			return FALSE;
	}
	return TRUE;
}

/* ---- a NotReady flap ---- */

/*
 * The kubelet reports Ready=False (it is alive: its pods keep running, unlike
 * `fail`, where heartbeats stop and the node becomes Unknown). The node
 * lifecycle controller taints the node node.kubernetes.io/not-ready with
 * NoSchedule (doNoScheduleTaintingPass, nodeConditionToTaintKeyStatusMap) and
 * NoExecute (doNoExecuteTaintingPass: Ready False -> NotReadyTaintTemplate);
 * pkg/controller/nodelifecycle/node_lifecycle_controller.go. drasim applies
 * both at the event, not at the next 5 s node-monitor pass. The taint eviction
 * controller then evicts with the pods' tolerations, DefaultTolerationSeconds'
 * 300 s included (cluster_taint_evict.c): a flap shorter than that evicts none.
 */
static gboolean
not_ready(ScenarioEvents *self, guint index, const ScenarioEvent *e, ClusterNode *cn, SimTime now)
{
	cluster_sim_taint_node(self->env.sim, cn, TAINT_NOT_READY, "", CLUSTER_EFFECT_NO_SCHEDULE);
	cluster_sim_taint_node(self->env.sim, cn, TAINT_NOT_READY, "", CLUSTER_EFFECT_NO_EXECUTE);
	if (e->duration >= 0 &&
	    !g_hash_table_contains(self->ready_due, GUINT_TO_POINTER(index + 1))) {
		/* one Ready event for every node of the event */
		g_hash_table_add(self->ready_due, GUINT_TO_POINTER(index + 1));
		sim_loop_schedule(self->env.loop, now + e->duration, self->kind_ready, PRIO_EVENT,
		                  index, NULL);
	}
	return TRUE;
}

/* Ready again: the controller removes both not-ready taints (evictions not due yet are cancelled).
 */
static void
on_ready(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ScenarioEvents *self = data;
	const ScenarioEvent *e = &g_array_index(self->env.sc->events, ScenarioEvent, ev->target);
	guint first, last;

	event_span(self, e, &first, &last);
	for (guint k = first; k < last; k++) {
		g_autofree char *name = event_node_name(e, k);
		ClusterNode *cn = g_hash_table_lookup(self->cnodes, name);

		if (cn == NULL)
			continue;
		cluster_sim_untaint_node(self->env.sim, cn, TAINT_NOT_READY,
		                         CLUSTER_EFFECT_NO_EXECUTE);
		cluster_sim_untaint_node(self->env.sim, cn, TAINT_NOT_READY,
		                         CLUSTER_EFFECT_NO_SCHEDULE);
	}
}

/*
 * The node's DRA drivers are unregistered for the event's duration: claims of
 * pods that bind there cannot be prepared until they are back
 * (cluster_kubelet_prepare.c). The device plugin world has no DRA driver.
 */
static gboolean
driver_down(ScenarioEvents *self, guint index, const ScenarioEvent *e, ClusterNode *cn, SimTime now)
{
	if (self->env.dra == NULL) {
		note(self, index,
		     "the device plugin world has no DRA driver to take away: no effect");
		return FALSE;
	}
	if (e->duration < 0 || e->duration > DRA_WIPING_DELAY)
		note(self, index,
		     "after 30 s away the kubelet deletes the driver's ResourceSlices of the node "
		     "(defaultWipingDelay, pkg/kubelet/cm/dra/manager.go) and new pods stop being "
		     "scheduled there; drasim keeps them published (approximation)");
	cluster_sim_dra_driver_unavailable(self->env.sim, cn,
	                                   e->duration >= 0 ? now + e->duration : SIM_TIME_NEVER);
	return TRUE;
}

/* ---- the GPU pool's next generation (world_events_pool.c) ---- */

static void
note_missing(
        ScenarioEvents *self, guint index, const char *node, const char *device, const char *what)
{
	g_autofree char *why = g_strdup_printf("node %s's pool %s has no device %s: nothing to %s",
	                                       node, GPU_DRIVER, device, what);

	note(self, index, why);
}

static gboolean
pool_event(ScenarioEvents *self, guint index, const ScenarioEvent *e, ClusterNode *cn, SimTime now)
{
	HwNode *hw = g_hash_table_lookup(self->hwnodes, cn->name);
	g_autoptr(GArray) devices = g_array_new(FALSE, TRUE, sizeof(ClusterDevice));
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) resources = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) missing = g_ptr_array_new();
	GPtrArray *late = NULL;
	HwPublishOptions opts;

	if (self->env.dra == NULL || hw == NULL) {
		note(self, index,
		     self->env.dra == NULL
		             ? "the device plugin world has no ResourceSlices: no effect"
		             : "an imported node's slices are not republished: no effect");
		return FALSE;
	}
	hw_publish_options_init(&opts);
	scenario_run__node_devices(self->env.mode, hw, &opts, devices, names, resources);
	for (guint i = 0; e->renames != NULL && e->renames[i] != NULL; i += 2) {
		guint device;

		if (cluster_dra_rename_node_device(self->env.dra, cn->name, e->renames[i],
		                                   e->renames[i + 1], &device))
			cluster_sim_device_renamed(self->env.sim, cn, device);
		else
			note_missing(self, index, cn->name, e->renames[i], "rename");
	}
	if (e->action == SCENARIO_EVENT_POOL_INCOMPLETE) {
		late = g_ptr_array_new();
		g_ptr_array_add(self->late, late);
	}
	if (!scenario_events__publish_pool(&self->env, self->published, hw, &opts,
	                                   ++self->generations, (const char *const *)e->devices,
	                                   late, missing))
		return FALSE;
	for (guint i = 0; i < missing->len; i++)
		note_missing(self, index, cn->name, missing->pdata[i], "leave out");
	if (late != NULL && e->duration >= 0)
		sim_loop_schedule(self->env.loop, now + e->duration, self->kind_late, PRIO_EVENT,
		                  self->late->len - 1, NULL);
	return TRUE;
}

/* The rest of an incomplete pool's slices: the pool is complete again. */
static void
on_late(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ScenarioEvents *self = data;
	const GPtrArray *late = self->late->pdata[ev->target];

	for (guint i = 0; i < late->len; i++)
		cluster_dra_add_slice(self->env.dra, late->pdata[i]);
	cluster_sim_notify(self->env.sim, CLUSTER_EVENT_SLICE_CHANGED);
}

/* Both worlds have a kubelet (cluster_sim_kubelet_restart). */
static gboolean
kubelet_restart(
        ScenarioEvents *self, guint index, const ScenarioEvent *e, ClusterNode *cn, SimTime now)
{
	if (e->duration < 0 || e->duration > NODE_MONITOR_GRACE)
		note(self, index,
		     "a kubelet silent over 40 s (node-monitor-grace-period) makes the node "
		     "Unknown and tainted unreachable; drasim keeps it Ready (use fail for that)");
	cluster_sim_kubelet_restart(self->env.sim, cn,
	                            e->duration >= 0 ? now + e->duration : SIM_TIME_NEVER);
	return TRUE;
}

/* ---- dispatch ---- */

static gboolean
apply_node(ScenarioEvents *self, guint index, const ScenarioEvent *e, ClusterNode *cn)
{
	SimTime now = sim_loop_get_now(self->env.loop);
	ClusterSim *sim = self->env.sim;

	switch (e->action) {
	case SCENARIO_EVENT_FAIL:
		cluster_sim_node_event(sim, now, cn, CLUSTER_NODE_FAIL);
		return TRUE;
	case SCENARIO_EVENT_RESTORE:
		cluster_sim_node_event(sim, now, cn, CLUSTER_NODE_RESTORE);
		return TRUE;
	case SCENARIO_EVENT_DRAIN:
		cluster_sim_node_event(sim, now, cn, CLUSTER_NODE_DRAIN);
		return TRUE;
	case SCENARIO_EVENT_CORDON:
		cn->unschedulable = TRUE;
		cluster_node_touch(cn);
		cluster_sim_node_changed(sim, cn);
		return TRUE;
	case SCENARIO_EVENT_UNCORDON:
		cn->unschedulable = FALSE;
		cluster_node_touch(cn);
		cluster_sim_node_changed(sim, cn);
		cluster_sim_notify(sim, CLUSTER_EVENT_NODE_UPDATED);
		return TRUE;
	case SCENARIO_EVENT_TAINT:
		cluster_sim_taint_node(sim, cn, e->taint_key, e->taint_value, e->taint_effect);
		return TRUE;
	case SCENARIO_EVENT_UNTAINT:
		cluster_sim_untaint_node(sim, cn, e->taint_key, e->taint_effect);
		return TRUE;
	case SCENARIO_EVENT_DEVICE_TAINT:
		return device_taint(self, index, e, cn->name);
	case SCENARIO_EVENT_DEVICE_UNTAINT:
		return device_untaint(self, e, cn->name);
	case SCENARIO_EVENT_MIG_RECONFIGURE:
		return mig_reconfigure(self, index, e, cn);
	case SCENARIO_EVENT_NOT_READY:
		return not_ready(self, index, e, cn, now);
	case SCENARIO_EVENT_DRIVER_DOWN:
		return driver_down(self, index, e, cn, now);
	case SCENARIO_EVENT_REPUBLISH:
	case SCENARIO_EVENT_DEVICE_REMOVE:
	case SCENARIO_EVENT_POOL_INCOMPLETE:
		return pool_event(self, index, e, cn, now);
	case SCENARIO_EVENT_KUBELET_RESTART:
		return kubelet_restart(self, index, e, cn, now);
	case SCENARIO_N_EVENT_ACTIONS:
		break;
	}
	return FALSE;
}

/* Device taints exist only in the DRA world, and only with the alpha gate. */
static gboolean
device_world_ok(ScenarioEvents *self, guint index, const ScenarioEvent *e)
{
	if (!scenario_event_action_is_device(e->action))
		return TRUE;
	if (self->env.dra == NULL) {
		note(self, index,
		     "the device plugin has no device taints (a DeviceTaintRule is DRA API): "
		     "no effect");
		return FALSE;
	}
	if (!self->env.mode->device_taints_gate) {
		note(self, index,
		     "DRADeviceTaints is off (alpha in 1.34): DeviceTaintRules are not served "
		     "and the allocator ignores device taints: no effect");
		return FALSE;
	}
	return TRUE;
}

/*
 * An event's node that this mode's cluster lacks: a what-if mode removed it,
 * or it is a clone only another mode adds. The event is the same in every
 * mode (docs/scenario.md, Events), so this is a note of the mode, not an error.
 */
static void
missing_node(ScenarioEvents *self, guint index, const char *node)
{
	const GPtrArray *removed = self->env.mode->remove_nodes;
	g_autofree char *why = NULL;

	if (removed != NULL &&
	    g_ptr_array_find_with_equal_func((GPtrArray *)removed, node, g_str_equal, NULL))
		why = g_strdup_printf("node %s is removed in this mode (removeNodes): no effect",
		                      node);
	else
		why = g_strdup_printf("node %s is not in this mode's cluster (another mode's "
		                      "addNodes makes it): no effect",
		                      node);
	note(self, index, why);
}

static void
on_event(SimLoop *loop, const SimEvent *ev, gpointer data)
{
	ScenarioEvents *self = data;
	const ScenarioEvent *e = &g_array_index(self->env.sc->events, ScenarioEvent, ev->target);
	gboolean any = FALSE;
	guint first, last;

	if (!device_world_ok(self, ev->target, e))
		return;
	event_span(self, e, &first, &last);
	for (guint k = first; k < last; k++) {
		g_autofree char *name = event_node_name(e, k);
		ClusterNode *cn = g_hash_table_lookup(self->cnodes, name);

		if (cn != NULL)
			any |= apply_node(self, ev->target, e, cn);
		else if (e->node != NULL)
			missing_node(self, ev->target, e->node);
	}
	if (any)
		self->applied++;
}

ScenarioEvents *
scenario_events__new(const ScenarioEventsEnv *env)
{
	ScenarioEvents *self = g_new0(ScenarioEvents, 1);
	ClusterSched *sched = cluster_sim_get_sched(env->sim);

	self->env = *env;
	self->cnodes = g_hash_table_new(g_str_hash, g_str_equal);
	self->hwnodes = g_hash_table_new(g_str_hash, g_str_equal);
	self->rules = g_ptr_array_new_with_free_func(taint_rec_free);
	self->published = k8s_object_set_new();
	self->gfd_keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                       (GDestroyNotify)g_ptr_array_unref);
	for (guint i = 0; i < cluster_sched_get_n_nodes(sched); i++) {
		ClusterNode *n = cluster_sched_get_node(sched, i);

		g_hash_table_insert(self->cnodes, n->name, n);
	}
	for (guint i = 0; i < env->nodes->len; i++) {
		HwNode *n = env->nodes->pdata[i];

		g_hash_table_insert(self->hwnodes, n->name, n);
	}
	self->ready_due = g_hash_table_new(NULL, NULL);
	self->kind = sim_loop_add_kind(env->loop, "scenario-event", on_event, self);
	self->kind_ready = sim_loop_add_kind(env->loop, "scenario-node-ready", on_ready, self);
	self->late = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
	self->kind_late = sim_loop_add_kind(env->loop, "scenario-pool-complete", on_late, self);
	for (guint i = 0; i < env->sc->events->len; i++)
		sim_loop_schedule(env->loop, g_array_index(env->sc->events, ScenarioEvent, i).at,
		                  self->kind, PRIO_EVENT, i, NULL);
	return self;
}

void
scenario_events__free(ScenarioEvents *self)
{
	if (self == NULL)
		return;
	g_hash_table_unref(self->cnodes);
	g_hash_table_unref(self->hwnodes);
	g_ptr_array_unref(self->rules);
	k8s_object_set_free(self->published);
	g_hash_table_unref(self->gfd_keys);
	g_hash_table_unref(self->ready_due);
	g_ptr_array_unref(self->late);
	g_free(self);
}

guint64
scenario_events__get_applied(const ScenarioEvents *self)
{
	return self->applied;
}
