/*
 * world_run.c: replays one mode of a scenario. It builds the nodes of
 * every pool with model/hw, shows them to the scheduler as the mode's world
 * does (ResourceSlices and the allocator for dra; the device plugin's counts
 * and GFD labels for extended), adds the same pod instances to sim/cluster
 * (translated for the extended world) and runs the engine; sim/measure (measure_collect())
 * collects the metrics of docs/scenario.md.
 */
#include <math.h>
#include <string.h>

#include "cluster_dra.h"
#include "cluster_k8s.h"
#include "hw_api.h"
#include "world-private.h"
#include "xr_api.h"

/* Compute devices of a node, named as the DRA driver publishes them
 * (@slices: hw_publish_nvidia() of the node). */
static void
node_devices(const WorldRun *run,
             const HwNode *node,
             const GPtrArray *slices,
             GArray *devices,
             GPtrArray *names,
             GPtrArray *resources)
{
	const XrConfig *xr = &run->env.mode->xr;
	const HwGpuModel *model = node->shape->gpu_model;
	ClusterShareMode shared = CLUSTER_SHARE_EXCLUSIVE;

	if (run->env.mode->world == SCENARIO_WORLD_EXTENDED && run->env.mode->xr.replicas > 1)
		shared = run->env.mode->xr.sharing == XR_SHARING_MPS ? CLUSTER_SHARE_MPS
		                                                     : CLUSTER_SHARE_TIME_SLICE;
	for (guint s = 0; s < slices->len; s++) {
		const HwSlice *slice = slices->pdata[s];

		for (guint i = 0; i < slice->devices->len; i++) {
			const HwDevice *dev = slice->devices->pdata[i];
			const HwAttr *type = hw_device_lookup_attr(dev, "type");
			const HwQty *mem = hw_device_lookup_capacity(dev, "memory");
			const HwQty *sms = hw_device_lookup_capacity(dev, "multiprocessors");
			gboolean mig = type != NULL && g_strcmp0(type->str, "mig") == 0;
			ClusterDevice d = { mig ? CLUSTER_SHARE_EXCLUSIVE : shared,
				            CLUSTER_INTERVAL_DEFAULT, 1.0,
				            mem ? mem->value : (gint64)model->memory_mib << 20,
				            mig };

			if (mig && sms != NULL && model->sms > 0)
				d.capacity = MIN(1.0, (double)sms->value / model->sms);
			g_array_append_val(devices, d);
			g_ptr_array_add(names, g_strdup(dev->name));
			/* The resource the device plugin advertises this device under. */
			if (mig && xr->mig_strategy == XR_MIG_MIXED)
				g_ptr_array_add(
				        resources,
				        g_strdup_printf(
				                "nvidia.com/mig-%s",
				                hw_device_lookup_attr(dev, "profile")->str));
			else if (!mig && xr->rename_by_default && xr->replicas > 1)
				g_ptr_array_add(resources, g_strdup("nvidia.com/gpu.shared"));
			else
				g_ptr_array_add(resources, g_strdup("nvidia.com/gpu"));
		}
	}
}

void
scenario_run__node_devices(const ScenarioMode *mode,
                           const HwNode *node,
                           const HwPublishOptions *opts,
                           GArray *devices,
                           GPtrArray *names,
                           GPtrArray *resources)
{
	WorldRun run = { .env.mode = mode };
	g_autoptr(GPtrArray) slices = hw_publish_nvidia(node, opts);

	node_devices(&run, node, slices, devices, names, resources);
}

/* The last Node object of @set: the one a publish call just appended. */
static const K8sNode *
last_node(K8sObjectSet *set)
{
	guint n = k8s_object_set_count_kind(set, K8S_KIND_NODE);

	return n > 0 ? k8s_object_as_node(k8s_object_set_get_kind(set, K8S_KIND_NODE, n - 1))
	             : NULL;
}

static gboolean
add_node(WorldRun *run, const ScenarioPool *pool, const HwNodeShape *shape, guint k, GError **error)
{
	g_autofree char *name = g_strdup_printf("%s-%u", pool->name, k);
	HwNode *node = hw_node_new(shape, name);
	const char *layout = scenario_mode_pool_layout(run->env.mode, pool);
	gboolean dynamic = strcmp(layout, "dynamic") == 0;
	g_autoptr(GArray) devices = g_array_new(FALSE, TRUE, sizeof(ClusterDevice));
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) resources = g_ptr_array_new_with_free_func(g_free);
	const GPtrArray *slices;
	HwPublishOptions opts;
	ClusterNode *cnode;
	const K8sNode *knode;

	g_ptr_array_add(run->env.nodes, node);
	hw_publish_options_init(&opts);
	if (dynamic && run->env.mode->world == SCENARIO_WORLD_EXTENDED) {
		scenario_note__add(run->result->notes, pool->name, "mig: dynamic",
		                   "the device plugin has no dynamic MIG: MIG off in this mode");
		dynamic = FALSE;
	} else if (!dynamic && !hw_node_apply_layout(node, layout, error)) {
		return FALSE;
	}
	opts.dynamic_mig = dynamic;
	run->dynamic |= dynamic;
	run->physical_gpus += node->gpus->len;
	for (guint g = 0; g < node->gpus->len; g++)
		run->physical_mem +=
		        (gint64)((const HwGpu *)node->gpus->pdata[g])->model->memory_mib << 20;
	/* one publish for the api objects, the simulation's devices and the sampler */
	slices = scenario_stamp__gpu_slices(run, node, dynamic ? "dynamic" : layout, &opts);
	if (run->env.mode->world == SCENARIO_WORLD_DRA) {
		if (!scenario_stamp__publish_dra(run, node, slices, pool->name, k)) {
			g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD,
			            "node %s: the published objects are not valid", name);
			return FALSE;
		}
	} else if (!xr_publish_objects(node, &run->env.mode->xr, run->published, run->env.diags,
	                               error)) {
		return FALSE;
	}
	knode = last_node(run->env.dra != NULL ? run->scratch : run->published);
	cnode = knode ? cluster_k8s_node_new(knode, run->env.names, run->env.diags) : NULL;
	if (cnode == NULL) {
		g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD, "node %s: no Node object",
		            name);
		return FALSE;
	}
	node_devices(run, node, slices, devices, names, resources);
	if (run->env.place != NULL)
		scenario_place__add_node(run->env.place, name, resources,
		                         run->env.mode->xr.replicas > 1);
	if (run->gpushare != NULL &&
	    !scenario_gpushare__add_node(run->gpushare, cnode, dynamic ? "dynamic" : layout,
	                                 devices->len, run->env.diags)) {
		cluster_node_free(cnode);
		g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD,
		            "node %s: the mode's policy cannot score it", name);
		return FALSE;
	}
	cluster_sim_add_node(run->env.sim, cnode, (ClusterDevice *)devices->data, devices->len);
	scenario_sample__add_node(run->sampler, node, &opts, slices);
	if (run->env.dra != NULL)
		cluster_dra_set_node_devices(run->env.dra, name, (const char *const *)names->pdata,
		                             names->len);
	return TRUE;
}

static gboolean
add_nodes(WorldRun *run, GError **error)
{
	const HwCatalog *catalog = run->env.sc->catalog;

	for (guint p = 0; p < run->env.sc->pools->len; p++) {
		const ScenarioPool *pool = &g_array_index(run->env.sc->pools, ScenarioPool, p);
		const HwNodeShape *shape = hw_catalog_lookup_shape(catalog, pool->shape);

		for (guint k = 0; shape != NULL && k < pool->count; k++) {
			if (!add_node(run, pool, shape, k, error)) {
				g_prefix_error(error, "%s: node pool %s: ", run->env.mode->name,
				               pool->name);
				return FALSE;
			}
		}
	}
	/* after the pools: the sampler's nodes are the first of the simulation */
	return scenario_objects__add_nodes(run, error);
}

/* DRA world: the manifests' classes, then the driver's and drasim's (world_classes.c). */
static void
add_dra_inventory(WorldRun *run)
{
	const K8sObjectSet *m = run->env.sc->objects;
	guint before = k8s_object_set_count_kind(run->published, K8S_KIND_DEVICE_CLASS);

	for (guint i = 0; i < k8s_object_set_count_kind(m, K8S_KIND_DEVICE_CLASS); i++)
		cluster_dra_add_class(run->env.dra,
		                      k8s_object_as_device_class(k8s_object_set_get_kind(
		                              m, K8S_KIND_DEVICE_CLASS, i)));
	scenario_dra_classes_load(run->env.sc, run->published, run->env.diags);
	for (guint i = before; i < k8s_object_set_count_kind(run->published, K8S_KIND_DEVICE_CLASS);
	     i++)
		cluster_dra_add_class(run->env.dra,
		                      k8s_object_as_device_class(k8s_object_set_get_kind(
		                              run->published, K8S_KIND_DEVICE_CLASS, i)));
}

/* After cluster_dra_attach(): claims join the simulation's claim controller. */
static void
add_dra_claims(WorldRun *run)
{
	const K8sObjectSet *m = run->env.sc->objects;
	g_autoptr(GHashTable) held = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	for (guint i = 0; i < k8s_object_set_count_kind(m, K8S_KIND_RESOURCE_CLAIM); i++) {
		const K8sResourceClaim *c = k8s_object_as_resource_claim(
		        k8s_object_set_get_kind(m, K8S_KIND_RESOURCE_CLAIM, i));

		/* an imported claim keeps its allocation (docs/import.md) */
		if (c->status.allocation != NULL)
			cluster_dra_add_allocated_claim(run->env.dra, c, held, run->env.diags);
		else
			cluster_dra_add_claim(run->env.dra, c);
	}
	for (guint i = 0; i < k8s_object_set_count_kind(m, K8S_KIND_RESOURCE_CLAIM_TEMPLATE); i++)
		cluster_dra_add_template(
		        run->env.dra, k8s_object_as_resource_claim_template(k8s_object_set_get_kind(
		                              m, K8S_KIND_RESOURCE_CLAIM_TEMPLATE, i)));
	scenario_gpuspec__add_templates(run->gpuspec, run->env.dra);
}

/*
 * DeviceTaintRule manifests (resource.k8s.io/v1alpha3, KEP-5055): in force
 * from the start in the dra world when the mode turns DRADeviceTaints on. The
 * gate is alpha and off by default in 1.34, and then the API is not served
 * (a kubectl apply of the rule fails), so the rule has no effect; the
 * extended world has no device taints. Either way the report says so.
 */
static void
add_taint_rules(WorldRun *run)
{
	const K8sObjectSet *m = run->env.sc->objects;

	for (guint i = 0; i < k8s_object_set_count_kind(m, K8S_KIND_DEVICE_TAINT_RULE); i++) {
		K8sObject *obj = k8s_object_set_get_kind(m, K8S_KIND_DEVICE_TAINT_RULE, i);
		g_autofree char *object = g_strdup_printf("DeviceTaintRule %s", obj->metadata.name);

		const K8sDeviceTaintRule *rule = k8s_object_as_device_taint_rule(obj);

		if (run->env.dra != NULL && run->env.mode->device_taints_gate &&
		    g_strcmp0(rule->spec.taint.effect, "NoExecute") == 0)
			/* eviction matching by class and CEL is not modelled for manifests */
			scenario_note__add(
			        run->result->notes, object, "device taint",
			        "NoExecute DeviceTaintRule manifests are not simulated: no "
			        "effect (use a device-taint event)");
		else if (run->env.dra != NULL && run->env.mode->device_taints_gate)
			cluster_dra_add_taint_rule_object(run->env.dra, rule);
		else if (run->env.dra != NULL)
			scenario_note__add(
			        run->result->notes, object, "device taint",
			        "DRADeviceTaints is off (alpha in 1.34): DeviceTaintRules are "
			        "not served and the allocator ignores device taints: no effect");
		else
			scenario_note__add(
			        run->result->notes, object, "device taint",
			        "the device plugin has no device taints (a DeviceTaintRule is "
			        "DRA API): no effect");
	}
}

/* The GPU allocation ratio now; none under DynamicMIG, where devices overlap (see
 * measure_collect()). */
static void
append_alloc_sample(WorldRun *run)
{
	guint n_devices;
	double ratio;

	if (run->dynamic)
		return;
	n_devices = cluster_sim_get_n_devices(run->env.sim);
	ratio = n_devices > 0 ? cluster_sim_get_busy_devices(run->env.sim)->value / n_devices : 0.0;
	g_array_append_val(run->alloc, ratio);
}

static void
take_sample(WorldRun *run, SimTime now)
{
	guint64 pending = cluster_sim_get_stats(run->env.sim)->pending;

	g_array_append_val(run->pending, pending);
	append_alloc_sample(run);
	scenario_sample__tick(run->sampler, now);
	run->last_sample = now;
}

/* Samples the pending pods every interval while anything else is scheduled. */
static void
on_sample(SimLoop *loop, const SimEvent *event, gpointer data)
{
	WorldRun *run = data;
	SimTime now = sim_loop_get_now(loop);
	SimTime next = now + run->env.sc->sampling;

	/* without a horizon nothing else bounds the series: stop at the limit */
	if (run->pending->len >= run->max_samples) {
		sim_loop_stop(loop);
		return;
	}
	take_sample(run, now);
	/* With a horizon, sample up to it (the last sample closes the run there, so
	 * time-weighted figures cover the whole horizon); without one, while the
	 * cluster still has events. */
	if (run->horizon != SIM_TIME_NEVER) {
		if (now < run->horizon)
			sim_loop_schedule(loop, MIN(next, run->horizon), run->kind_sample, 255, 0,
			                  NULL);
	} else if (sim_queue_get_length(sim_loop_get_queue(loop)) > 0) {
		sim_loop_schedule(loop, next, run->kind_sample, 255, 0, NULL);
	}
}

/*
 * Why the loop stopped (FALSE: the samples ran out). At quiescence (no horizon, pods that can never
 * run) the series close with a sample at the stop time, as a horizon closes them at the horizon.
 */
static gboolean
end_of_run(WorldRun *run, SimStopReason stop, ScenarioEnd *end, GError **error)
{
	SimTime now = sim_loop_get_now(run->env.loop);
	gboolean closing = stop == SIM_STOP_QUIESCENT && run->last_sample < now;

	/* on_sample stopped the loop, or the closing sample is one too many */
	if (stop == SIM_STOP_REQUESTED || (closing && run->pending->len >= run->max_samples))
		return scenario_limits__samples_ran_out(run->env.sc, now, error);
	if (stop == SIM_STOP_QUIESCENT) {
		if (closing)
			take_sample(run, now);
		*end = SCENARIO_END_QUIESCENT;
	} else {
		*end = run->horizon != SIM_TIME_NEVER && now >= run->horizon ? SCENARIO_END_HORIZON
		                                                             : SCENARIO_END_DONE;
	}
	return TRUE;
}

typedef struct {
	WorldRun *run;
	ScenarioProgressFunc func;
	gpointer data;
} Progress;

static void
on_progress(SimLoop *loop, gpointer data)
{
	Progress *p = data;

	p->func(sim_loop_get_now(loop), cluster_sim_get_stats(p->run->env.sim)->bound,
	        sim_loop_get_dispatched(loop), p->data);
}

static void
configure(WorldRun *run, ClusterSimConfig *config, guint64 seed)
{
	cluster_sim_config_init(config);
	config->seed = seed;
	config->run = run->env.sc->run;
	config->sched.percentage_of_nodes_to_score =
	        (gint32)run->env.mode->percentage_of_nodes_to_score;
	/* the mode's policy replaces the default profile: build_world adds it */
	config->default_score_plugins = FALSE;
}

/* At the end of the run: sim/measure reads the metrics; the sampler goes to the result. */
static void
collect(WorldRun *run)
{
	MeasureRunEnd end = {
		.loop = run->env.loop,
		.sim = run->env.sim,
		.dra = run->env.dra,
		.pods = run->pods,
		.pending = run->pending,
		.alloc = run->alloc,
		.sampler = g_steal_pointer(&run->sampler),
		.events_applied =
		        run->events != NULL ? scenario_events__get_applied(run->events) : 0,
		.dynamic = run->dynamic,
		.physical_gpus = run->physical_gpus,
		.physical_mem = run->physical_mem,
		.sampling = run->env.sc->sampling,
	};

	measure_collect(run->result, &end);
}

static void
run_clear(WorldRun *run)
{
	g_clear_pointer(&run->pods, g_array_unref);
	g_clear_pointer(&run->env.sim, cluster_sim_free);
	g_clear_pointer(&run->env.dra, cluster_dra_free);
	g_clear_pointer(&run->gpuspec, scenario_gpuspec__free); /* after dra: it borrowed them */
	g_clear_pointer(&run->env.place, scenario_place__free);
	g_clear_pointer(&run->env.loop, sim_loop_free);
	g_clear_pointer(&run->env.names, cluster_res_names_free);
	g_clear_pointer(&run->scratch, k8s_object_set_free); /* before the set it borrows from */
	g_clear_pointer(&run->stamp_nics, hw_slice_free);
	g_clear_pointer(&run->stamp_gpus, g_ptr_array_unref);
	g_clear_pointer(&run->stamp_gpus_layout, g_free);
	g_clear_pointer(&run->published, k8s_object_set_free);
	g_clear_pointer(&run->inventory, k8s_object_set_free);
	g_clear_pointer(&run->unpinned, g_ptr_array_unref);
	g_clear_pointer(&run->sim_nodes, g_hash_table_unref);
	g_clear_pointer(&run->bound_load, g_hash_table_unref);
	g_clear_pointer(&run->spec_memo.claims, g_strfreev);
	g_clear_pointer(&run->spec_memo.templates, g_strfreev);
	g_clear_pointer(&run->rebuild_diags, k8s_diag_list_free);
	g_clear_pointer(&run->env.nodes, g_ptr_array_unref);
	g_clear_pointer(&run->pending, g_array_unref);
	g_clear_pointer(&run->alloc, g_array_unref);
	g_clear_pointer(&run->sampler, scenario_sample__free);
	g_clear_pointer(&run->gpushare, scenario_gpushare__free);
	/* last: the allocator borrowed the DeviceTaintRules the events own */
	g_clear_pointer(&run->events, scenario_events__free);
}

/* The run's containers and the pod instances (the same in every mode). */
static gboolean
run_begin(WorldRun *run, SimRngSet *rngs, WorkloadTrace **trace, GError **error)
{
	run->pods = scenario_pods__expand(run->env.sc, rngs, trace, run->env.diags);
	if (run->pods == NULL) {
		g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD, "the workload has errors");
		return FALSE;
	}
	run->env.loop = sim_loop_new();
	run->env.names = cluster_res_names_new();
	run->published = k8s_object_set_new();
	run->scratch = k8s_object_set_new_scratch(run->published);
	run->env.nodes = g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_free);
	run->pending = g_array_new(FALSE, TRUE, sizeof(guint64));
	run->alloc = g_array_new(FALSE, TRUE, sizeof(double));
	return TRUE;
}

static char *
detail_hook(gpointer data, guint pod)
{
	return cluster_dra_explain_pod(data, pod);
}

static char *
describe_hook(gpointer data, guint pod)
{
	return cluster_dra_describe_pod(data, pod);
}

/* With Scenario.journal (drasim explain), the run records every pod's history
 * and, in the dra world, the allocator's diagnosis of each failed attempt. */
static void
record_journal(WorldRun *run)
{
	ClusterJournal *journal = cluster_sim_get_journal(run->env.sim);

	if (!run->env.sc->journal)
		return;
	cluster_journal_set_full(journal, TRUE);
	if (run->env.dra != NULL)
		cluster_journal_set_hooks(journal, detail_hook, describe_hook, run->env.dra);
}

/* The mode's world: the allocator (dra) or the device plugin's placement
 * (extended), the simulation, its sampler, scoring and claims. */
static void
build_world(WorldRun *run, ClusterSimConfig *config)
{
	const ScenarioMode *mode = run->env.mode;

	if (mode->world == SCENARIO_WORLD_DRA) {
		DraFeatures features = dra_features_default();

		/* DynamicMIG devices share counters: the allocator must honour them. */
		features.partitionable_devices = TRUE;
		/* DeviceTaintRules and device taints count only with the alpha gate on. */
		features.device_taints = mode->device_taints_gate;
		run->env.dra = cluster_dra_new(&features);
		cluster_dra_set_filter_timeout(run->env.dra, scenario_mode_filter_timeout(mode));
		cluster_dra_configure(run->env.dra, config);
		add_dra_inventory(run);
	} else {
		run->env.place = scenario_place__new();
		scenario_place__configure(run->env.place, &mode->xr);
		config->place = scenario_place__func;
		config->place_data = run->env.place;
	}
	run->env.sim = cluster_sim_new(run->env.loop, config);
	/* The decoder checked the name and arguments; what can still fail is a
	 * resource name past the run's CLUSTER_RES_MAX slots (populate() stops). */
	if (!cluster_sched_add_score_policy_config(cluster_sim_get_sched(run->env.sim),
	                                           &mode->policy, run->env.names))
		k8s_diag_list_error(run->env.diags, &mode->policy_pos, NULL,
		                    "mode %s: the policy's resources need more than the %d "
		                    "resource names drasim tracks per run",
		                    mode->name, CLUSTER_RES_MAX);
	run->sampler = scenario_sample__new(run->env.sc, mode, run->env.sim, run->env.names,
	                                    run->pods, scenario_xlate__claim_shape);
	scenario_sample__follow_changes(run->sampler, run->env.sim);
	if (run->env.dra != NULL) {
		cluster_dra_attach(run->env.dra, run->env.sim);
		add_dra_claims(run);
		if (mode->extended_resource_gate)
			cluster_dra_enable_extended_resources(run->env.dra, run->env.names);
	}
	record_journal(run);
}

/* Nodes, slices, DeviceTaintRules and pods; FALSE (@error) when any has errors
 * (more than @before errors in the run's diagnostics). */
static gboolean
populate(WorldRun *run, guint before, GError **error)
{
	gboolean ok = add_nodes(run, error);

	if (ok && run->env.dra != NULL)
		cluster_dra_add_converted_slices(run->env.dra); /* publish_dra's */
	if (ok)
		add_taint_rules(run);
	if (ok)
		scenario_start__notes(run);
	if (ok)
		scenario_run__pods_begin(run);
	for (guint i = 0; ok && i < run->pods->len; i++)
		ok = scenario_run__add_pod(run, &g_array_index(run->pods, ScenarioPod, i), i);
	if (ok && run->env.dra != NULL)
		scenario_start__claims(run);
	if (ok && run->gpushare != NULL) {
		scenario_gpushare__start(run->gpushare, run->env.names, run->env.diags);
		if (run->env.dra != NULL)
			cluster_dra_gpushare_hold_imported(run->env.dra);
	}
	if ((ok || (error != NULL && *error == NULL)) &&
	    k8s_diag_list_count_errors(run->env.diags) > before) {
		g_set_error(error, SCENARIO_ERROR, SCENARIO_ERROR_BUILD,
		            "%s: the cluster or the pods have errors", run->env.mode->name);
		ok = FALSE;
	}
	return ok;
}

/* The events, the sampling tick and progress on the loop, then the loop to its end. */
static gboolean
drive(WorldRun *run, SimTime horizon, Progress *prog, GError **error)
{
	run->env.inventory = run->inventory;
	run->events = scenario_events__new(&run->env);
	run->kind_sample = sim_loop_add_kind(run->env.loop, "scenario-sample", on_sample, run);
	/* a sample only observes: it cannot keep a quiescent run going */
	sim_loop_set_kind_passive(run->env.loop, run->kind_sample);
	sim_loop_schedule(run->env.loop, 0, run->kind_sample, 255, 0, NULL);
	if (prog->func != NULL)
		sim_loop_set_progress(run->env.loop, 20000, on_progress, prog);
	run->horizon = horizon;
	run->last_sample = -1;
	run->max_samples = scenario_limits__max_samples(run->env.sc);
	sim_loop_set_horizon(run->env.loop, horizon);
	return end_of_run(run, sim_loop_run(run->env.loop), &run->result->end_reason, error);
}

ScenarioResult *
scenario_run(const Scenario *self,
             const ScenarioMode *mode,
             guint64 seed,
             SimTime horizon,
             ScenarioProgressFunc progress,
             gpointer progress_data,
             K8sDiagList *diags,
             GError **error)
{
	WorldRun run = { .env = { .sc = self, .mode = mode, .diags = diags } };
	g_autoptr(SimRngSet) rngs = NULL;
	g_autoptr(ScenarioResult) result = g_new0(ScenarioResult, 1);
	g_autoptr(WorkloadTrace) trace = NULL;
	ClusterSimConfig config;
	Progress prog = { &run, progress, progress_data };
	guint before = k8s_diag_list_count_errors(diags);

	seed = seed != 0 ? seed : self->seed;
	horizon = horizon > 0 ? horizon : self->horizon;
	result->mode = g_strdup(mode->name);
	result->world = mode->world;
	result->seed = seed;
	result->horizon = horizon;
	result->notes = g_ptr_array_new_with_free_func(scenario_note__free);
	run.result = result;
	run.env.notes = result->notes;
	if (!scenario_limits__samples(self, horizon, error))
		return NULL;
	rngs = sim_rng_set_new(seed);
	if (!run_begin(&run, rngs, &trace, error))
		return NULL;
	run.gpuspec = scenario_gpuspec__new(self, mode, trace, run.pods, result->notes, diags);
	run.gpushare = scenario_gpushare__new(self, mode, run.pods->len, seed, result->notes);
	scenario_gpushare__check_events(run.gpushare, self, diags);
	configure(&run, &config, seed);
	build_world(&run, &config);
	if (!populate(&run, before, error) || !drive(&run, horizon, &prog, error)) {
		run_clear(&run);
		return NULL;
	}
	collect(&run);
	/* after collect(): the diagnosis must not touch the metrics */
	scenario_reasons__collect(result, run.env.sim, run.env.dra, run.env.names, run.pods);
	if (self->journal) {
		result->journal = cluster_sim_steal_journal(run.env.sim);
		result->names = g_steal_pointer(&run.env.names);
	}
	run_clear(&run);
	return g_steal_pointer(&result);
}
