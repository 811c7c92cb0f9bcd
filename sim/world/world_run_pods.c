/*
 * world_run_pods.c: the pods of one run, made at their arrival. At set-up
 * every pod is built and checked (its errors reported then, as before) and
 * handed to sim/cluster with its DRA references, its placement hook and the
 * sampler's task mix; then, unless something of the set-up keeps pointing at
 * it, it is parked: sim/cluster frees it and calls rebuild_pod() at its
 * arrival, which builds the same ClusterPod and work from its ScenarioPod
 * again (issue 19 item 2: a pod that has not arrived costs its ScenarioPod
 * and about 50 B, not 1.2 kB). The build is deterministic and draws no
 * random numbers; its notes are kept once (scenario_note__add) and the
 * diagnostics of the second build go to a scratch list (they were reported
 * at set-up).
 */
#include <string.h>

#include "cluster_dra.h"
#include "cluster_k8s.h"
#include "world-private.h"

static const K8sPodSpec empty_spec;

static void
set_request(WorldRun *run, ClusterPod *cpod, const char *resource, gint64 count)
{
	gint slot = cluster_res_names_intern(run->env.names, resource);

	if (slot >= 0)
		cluster_pod_set_request(cpod, slot, count);
}

static ClusterPod *
trace_pod(WorldRun *run, const ScenarioPod *pod, guint64 uid)
{
	ClusterPod *cpod = cluster_pod_new(pod->name, uid);

	cluster_pod_set_request(cpod, CLUSTER_RES_CPU, pod->cpu_milli);
	cluster_pod_set_request(cpod, CLUSTER_RES_MEMORY, pod->memory_mib << 20);
	if (pod->num_gpu > 0)
		set_request(run, cpod, "nvidia.com/gpu", pod->num_gpu);
	return cpod;
}

/* A trace pod whose gpu_spec the DRA world writes as a claim (world_gpuspec.c). */
static ClusterPod *
trace_claim_pod(WorldRun *run,
                const ScenarioPod *pod,
                const K8sPodSpec *spec,
                guint64 uid,
                GStrv *claims,
                GStrv *templates,
                ClusterSimWork *w)
{
	ClusterPod *cpod =
	        cluster_k8s_pod_new(spec, pod->name, uid, run->env.names, run->env.diags, "spec.");

	if (cpod == NULL)
		return NULL;
	cluster_pod_set_request(cpod, CLUSTER_RES_CPU, pod->cpu_milli);
	cluster_pod_set_request(cpod, CLUSTER_RES_MEMORY, pod->memory_mib << 20);
	cluster_dra_pod_claim_refs(spec, claims, templates);
	w->claims = (const char *const *)*claims;
	w->templates = (const char *const *)*templates;
	w->n_devices = pod->num_gpu;
	if (pod->compute < 1.0)
		scenario_note__add(run->result->notes, "trace", "gpu_milli < 1000",
		                   "no fractional DRA request: a whole GPU (demand kept for the "
		                   "run model)");
	return cpod;
}

/* The GPU resource a pod asks the device plugin for (its first nvidia.com/ request). */
static const char *
pod_gpu_resource(const WorldRun *run, const ClusterPod *cpod)
{
	for (gint slot = CLUSTER_RES_FIRST_SCALAR; slot < CLUSTER_RES_MAX; slot++) {
		const char *name = cluster_res_names_get(run->env.names, slot);

		if (cpod->requests.v[slot] > 0 && name != NULL &&
		    g_str_has_prefix(name, "nvidia.com/"))
			return name;
	}
	return NULL;
}

/*
 * The pod's claim references and the sharing its claims' GpuConfig asks for.
 * Both depend only on the scenario's objects (fixed for the run), the pod's
 * spec and its namespace, so they are kept for the last spec: the pods of one
 * workload share their template's spec, and each was otherwise worked out
 * again (claim templates and device classes looked up by name) at set-up and
 * again at arrival.
 */
static const WorldPodSpecMemo *
pod_spec_memo(WorldRun *run, const ScenarioPod *pod)
{
	WorldPodSpecMemo *m = &run->spec_memo;

	if (m->spec != NULL && m->spec == pod->spec && g_strcmp0(m->ns, pod->namespace_) == 0)
		return m;
	g_strfreev(m->claims);
	g_strfreev(m->templates);
	cluster_dra_pod_claim_refs(pod->spec, &m->claims, &m->templates);
	/* as on a work fresh from build_pod(): what scenario_xlate__sharing does not set is 0 */
	m->mode = 0;
	m->interval = 0;
	m->mps_threads = 0;
	m->mem_limit = 0;
	m->found = scenario_xlate__sharing(run->env.sc, pod, &m->mode, &m->interval,
	                                   &m->mps_threads, &m->mem_limit);
	m->spec = pod->spec;
	m->ns = pod->namespace_;
	return m;
}

/* DRA world: the pod's claims, and the sharing their GpuConfig asks for. */
static void
dra_pod_work(WorldRun *run, const ScenarioPod *pod, ClusterSimWork *w)
{
	const WorldPodSpecMemo *m = pod_spec_memo(run, pod);

	/* borrowed: the sim copies them (cluster_sim_add_pod, cluster_sim_revive_pod) */
	w->claims = (const char *const *)m->claims;
	w->templates = (const char *const *)m->templates;
	/* n_devices stays 0: the pod runs on every device its claims
	 * were allocated, whatever their number (cluster_dra.c place) */
	/* The driver prepares every claim with its config or, without
	 * one, its default (time-slicing, Default, once the device has
	 * two tenants: cluster_run.c), so a device's mode never outlives
	 * the claim that set it. */
	w->sharing = m->found ? m->mode : CLUSTER_SHARE_EXCLUSIVE;
	w->interval = m->found ? m->interval : CLUSTER_INTERVAL_DEFAULT;
	w->mps_threads = m->mps_threads;
	w->mem_limit = m->mem_limit;
	w->set_sharing = TRUE;
}

/* Extended world: the pod's claims as the device plugin's request and GFD selectors. */
static void
extended_pod_work(WorldRun *run, const ScenarioPod *pod, ClusterPod *cpod, ClusterSimWork *w)
{
	ScenarioXlate x;
	gint slot = cluster_res_names_lookup(run->env.names, "nvidia.com/gpu");

	scenario_xlate__pod(run->env.sc, pod, &x, run->result->notes);
	if (x.resource != NULL && x.count > 0)
		set_request(run, cpod, x.resource, x.count);
	for (guint i = 0; i + 1 < x.node_selector->len; i += 2)
		cluster_pod_add_node_selector(cpod, x.node_selector->pdata[i],
		                              x.node_selector->pdata[i + 1]);
	cpod->has_dra = FALSE;
	w->n_devices = (guint)CLAMP(x.count, 0, 64);
	if (x.count == 0 && slot >= 0)
		w->n_devices = (guint)CLAMP(cpod->requests.v[slot], 0, 64);
	scenario_xlate__clear(&x);
}

/* A pod as built from its ScenarioPod: its ClusterPod, its work and what the work borrows. */
typedef struct {
	ClusterPod *cpod;
	ClusterSimWork w;
	GStrv claims, templates, adopt;
	const K8sPodSpec *gpuspec;
	const char *resource; /* the device plugin's resource it asks for, or NULL */
} BuiltPod;

static void
built_pod_clear(BuiltPod *b)
{
	g_strfreev(b->claims);
	g_strfreev(b->templates);
	g_strfreev(b->adopt);
}

/* FALSE: the pod has errors (in the run's diagnostics). */
static gboolean
build_pod(WorldRun *run, const ScenarioPod *pod, guint64 uid, BuiltPod *b)
{
	ClusterSimWork *w = &b->w;

	*w = (ClusterSimWork){ .arrival = pod->arrival,
		               .work = pod->work,
		               .lifetime = SIM_TIME_NEVER,
		               .demand = pod->compute,
		               .gpu_mem = pod->memory };
	b->gpuspec = scenario_gpuspec__pod_spec(run->gpuspec, pod);
	if (b->gpuspec != NULL) {
		b->cpod = trace_claim_pod(run, pod, b->gpuspec, uid, &b->claims, &b->templates, w);
		if (b->cpod == NULL)
			return FALSE;
	} else if (pod->spec == NULL) {
		b->cpod = trace_pod(run, pod, uid);
		scenario_gpuspec__select(run->gpuspec, pod, b->cpod);
		w->n_devices = pod->num_gpu;
		if (pod->compute < 1.0 && pod->num_gpu > 0)
			scenario_note__add(run->result->notes, "trace", "gpu_milli < 1000",
			                   run->env.mode->world == SCENARIO_WORLD_DRA
			                           ? "no fractional DRA request: a whole GPU "
			                             "(demand kept for the run model)"
			                           : "a whole nvidia.com/gpu (a replica when the "
			                             "mode shares GPUs)");
	} else {
		b->cpod = cluster_k8s_pod_new(pod->spec, pod->name, uid, run->env.names,
		                              run->env.diags, "spec.");
		if (b->cpod == NULL)
			return FALSE;
		scenario_start__pin(run, pod, b->cpod);
		w->running = b->cpod->bound;
		if (run->env.mode->world == SCENARIO_WORLD_DRA) {
			dra_pod_work(run, pod, w);
			w->adopt =
			        (const char *const *)(b->adopt = scenario_start__adopted(run, pod));
		} else
			extended_pod_work(run, pod, b->cpod, w);
	}
	b->resource = pod_gpu_resource(run, b->cpod);
	if (run->env.mode->world == SCENARIO_WORLD_EXTENDED)
		scenario_xlate__plugin_mps(run->env.sc, run->env.mode, b->resource, &w->mps_threads,
		                           &w->mem_limit);
	return TRUE;
}

/* Nothing of the set-up keeps pointing at the pod: the gpushare policies keep
 * its ClusterPod, a pod bound in a snapshot runs (or was weighed) at once. */
static gboolean
may_park(const WorldRun *run, const ScenarioPod *pod, const BuiltPod *b)
{
	return run->gpushare == NULL && !b->w.running &&
	       (pod->spec == NULL || pod->spec->node_name == NULL) &&
	       strcmp(b->cpod->name, pod->name) == 0;
}

/* sim/cluster's builder: the pod @index arrives, built as at set-up. */
static void
rebuild_pod(gpointer data, guint index)
{
	WorldRun *run = data;
	const ScenarioPod *pod = &g_array_index(run->pods, ScenarioPod, index);
	K8sDiagList *diags = run->env.diags;
	BuiltPod b = { 0 };
	gboolean ok;

	/* reported at set-up already; the scratch list is reused while nothing lands in it */
	if (run->rebuild_diags == NULL)
		run->rebuild_diags = k8s_diag_list_new();
	run->env.diags = run->rebuild_diags;
	ok = build_pod(run, pod, index, &b);
	run->env.diags = diags;
	if (k8s_diag_list_count(run->rebuild_diags) > 0)
		g_clear_pointer(&run->rebuild_diags, k8s_diag_list_free);
	if (ok)
		cluster_sim_revive_pod(run->env.sim, index, b.cpod, &b.w);
	built_pod_clear(&b);
}

static const char *
pod_name(gpointer data, guint index)
{
	const WorldRun *run = data;

	return g_array_index(run->pods, ScenarioPod, index).name;
}

void
scenario_run__pods_begin(WorldRun *run)
{
	cluster_sim_set_pod_builder(run->env.sim, rebuild_pod, pod_name, run);
}

gboolean
scenario_run__add_pod(WorldRun *run, const ScenarioPod *pod, guint64 uid)
{
	BuiltPod b = { 0 };
	guint index;

	if (!build_pod(run, pod, uid, &b)) {
		built_pod_clear(&b);
		return FALSE;
	}
	if (run->gpushare != NULL)
		scenario_gpushare__add_pod(run->gpushare, pod, b.cpod, (guint)uid, run->env.names);
	index = cluster_sim_add_pod(run->env.sim, b.cpod, &b.w);
	g_assert(index == uid); /* rebuild_pod() builds it with its index */
	if (run->env.place != NULL && b.resource != NULL)
		scenario_place__set_pod(run->env.place, index, b.resource);
	/* Trace pods have no spec: an empty one lets KEP-5004 mark nvidia.com/gpu. */
	if (run->env.dra != NULL)
		cluster_dra_add_pod(run->env.dra, index, pod->namespace_,
		                    pod->spec != NULL   ? pod->spec
		                    : b.gpuspec != NULL ? b.gpuspec
		                                        : &empty_spec);
	if (b.w.running)
		scenario_start__run(run, pod, index);
	scenario_sample__add_pod_task(run->sampler, index);
	if (may_park(run, pod, &b))
		cluster_sim_park_pod(run->env.sim, index);
	built_pod_clear(&b);
	return TRUE;
}
