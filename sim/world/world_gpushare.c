/*
 * world_gpushare.c: the per-GPU state the FGD paper's six score policies read
 * (cluster_gpushare.h), built for a scenario mode whose `policy:` names one of
 * them (docs/research/scenario-policies.md). Whole GPUs in both worlds:
 * extended, a node's GPUs are its nvidia.com/gpu devices, a pod's request its
 * nvidia.com/gpu count, and the scheduler's assume / release keep the state
 * in step (cluster_gpushare_node_sync); DRA, a node's GPUs are its GPU
 * devices, a pod's request the GPU devices its claims ask for (ExactCount),
 * and DynamicResources marks the devices a claim takes
 * (cluster_dra_gpushare.c). FGD's task mix is the run's pods' shapes by
 * popularity (GetTypicalPods). MIG, shared GPUs and requests whose GPU count
 * is not known before allocation are refused: the decoder refuses the
 * extended world's sharing, this file the rest.
 */
#include <string.h>

#include "cluster_gpushare.h"
#include "world-private.h"

struct ScenarioGpuShare {
	const Scenario *sc;
	const ScenarioMode *mode;
	char *policy_path; /* spec.modes[i].policy, for errors */
	ClusterGpuShare *share;
	SimRng *rng;       /* the Random policy's and the random GPU pick's draws */
	GPtrArray *nodes;  /* ClusterNode*, borrowed from the simulation */
	GArray *node_gpus; /* guint per node: its GPU devices */
	ClusterGpuShareNode *gpu_nodes;
	ClusterGpuShareReq *reqs; /* per pod index */
	gint64 *cpu;              /* per pod index: the non-zero CPU request */
	guint n_pods;
	char *refusal; /* the first pod the policy cannot score, and why */
};

static guint32
draw(gpointer rng, guint32 n)
{
	return sim_rng_uniform_int(rng, n);
}

/*
 * The translation section says what no production cluster runs: the policy,
 * and with `devicePick: policy` the device choice, which with whole exclusive
 * GPUs is production's own (Open-Gpu-Share's AllocateExclusiveGpuId, the
 * device plugin and the allocator's first fit all take the idle GPUs of
 * lowest index, and every score reads only how many are idle).
 */
static void
add_notes(const ScenarioMode *mode, GPtrArray *notes)
{
	gboolean dra = mode->world == SCENARIO_WORLD_DRA;

	if (dra)
		scenario_note__add(
		        notes, "policy", mode->policy.name,
		        "a research score policy of the FGD paper (Weng et al., ATC '23) "
		        "over whole GPU devices of the DRA driver's ResourceSlices, not a "
		        "kube-scheduler plugin: beyond production");
	else
		scenario_note__add(
		        notes, "policy", mode->policy.name,
		        mode->device_pick_policy
		                ? "a research score policy of the FGD paper (Weng et al., "
		                  "ATC '23) over whole nvidia.com/gpu devices, not a "
		                  "kube-scheduler plugin: beyond production"
		                : "a research score policy of the FGD paper (Weng et al., "
		                  "ATC '23) over whole nvidia.com/gpu devices, not a "
		                  "kube-scheduler plugin: beyond production; the device "
		                  "plugin still picks the GPUs (device_pick production)");
	if (mode->device_pick_policy)
		scenario_note__add(
		        notes, "devicePick", "policy",
		        dra ? "beyond production: the policy picks the devices; "
		              "production's allocator takes the first fit. devicePick: "
		              "policy had no effect: whole GPUs (both take the idle GPUs "
		              "of lowest index)"
		            : "beyond production: the policy picks the devices; "
		              "production's device plugin takes the idle GPUs in index "
		              "order. devicePick: policy had no effect: whole GPUs (both "
		              "take the idle GPUs of lowest index)");
}

ScenarioGpuShare *
scenario_gpushare__new(
        const Scenario *sc, const ScenarioMode *mode, guint n_pods, guint64 seed, GPtrArray *notes)
{
	ScenarioGpuShare *self;

	if (!cluster_sched_score_policy_needs_gpushare(mode->policy.name))
		return NULL;
	add_notes(mode, notes);
	self = g_new0(ScenarioGpuShare, 1);
	self->sc = sc;
	self->mode = mode;
	for (guint i = 0; i < sc->modes->len; i++) {
		if (&g_array_index(sc->modes, ScenarioMode, i) == mode)
			self->policy_path = g_strdup_printf("spec.modes[%u].policy", i);
	}
	self->rng = sim_rng_new(seed, "policy");
	self->nodes = g_ptr_array_new();
	self->node_gpus = g_array_new(FALSE, FALSE, sizeof(guint));
	self->reqs = g_new0(ClusterGpuShareReq, MAX(n_pods, 1));
	self->cpu = g_new0(gint64, MAX(n_pods, 1));
	self->n_pods = n_pods;
	return self;
}

/*
 * A mig-reconfigure event changes a node's GPUs under a running mode, and the
 * per-GPU state here follows only pods' assume and release: refused, at the
 * mode's policy, rather than scored on a stale count.
 */
void
scenario_gpushare__check_events(const ScenarioGpuShare *self,
                                const Scenario *sc,
                                K8sDiagList *diags)
{
	for (guint i = 0; self != NULL && i < sc->events->len; i++) {
		const ScenarioEvent *e = &g_array_index(sc->events, ScenarioEvent, i);

		if (e->action != SCENARIO_EVENT_MIG_RECONFIGURE)
			continue;
		k8s_diag_list_error(diags, &self->mode->policy_pos, self->policy_path,
		                    "mode %s: policy %s reads each GPU's free share, and "
		                    "spec.events[%u] (mig-reconfigure, line %u) changes the GPUs "
		                    "under it; use a mode without MIG reconfiguration "
		                    "(docs/research/scenario-policies.md)",
		                    self->mode->name, self->mode->policy.name, i, e->pos.line);
		return;
	}
}

void
scenario_gpushare__free(ScenarioGpuShare *self)
{
	if (self == NULL)
		return;
	g_clear_pointer(&self->share, cluster_gpushare_free);
	sim_rng_free(self->rng);
	g_free(self->policy_path);
	g_ptr_array_unref(self->nodes);
	g_array_unref(self->node_gpus);
	g_free(self->refusal);
	g_free(self->gpu_nodes);
	g_free(self->reqs);
	g_free(self->cpu);
	g_free(self);
}

/*
 * A node of the mode (before the run): MIG instances are not shares of one
 * GPU, and the memo key holds at most eight GPUs; either is an input error at
 * the mode's policy. Returns FALSE after such an error.
 */
gboolean
scenario_gpushare__add_node(ScenarioGpuShare *self,
                            ClusterNode *node,
                            const char *layout,
                            guint n_gpus,
                            K8sDiagList *diags)
{
	/* DynamicMIG: the device plugin has none (MIG off), the DRA driver publishes MIG devices */
	if (strcmp(layout, "all-disabled") != 0 &&
	    (strcmp(layout, "dynamic") != 0 || self->mode->world == SCENARIO_WORLD_DRA)) {
		k8s_diag_list_error(diags, &self->mode->policy_pos, self->policy_path,
		                    "mode %s: policy %s reads each GPU's free share, which a "
		                    "MIG instance is not (node %s has MIG layout %s); use a mode "
		                    "without MIG (docs/research/scenario-policies.md)",
		                    self->mode->name, self->mode->policy.name, node->name, layout);
		return FALSE;
	}
	if (n_gpus > CLUSTER_GPUSHARE_MAX_GPUS) {
		k8s_diag_list_error(diags, &self->mode->policy_pos, self->policy_path,
		                    "mode %s: policy %s handles nodes of at most %d GPUs; node %s "
		                    "has %u",
		                    self->mode->name, self->mode->policy.name,
		                    CLUSTER_GPUSHARE_MAX_GPUS, node->name, n_gpus);
		return FALSE;
	}
	g_ptr_array_add(self->nodes, node);
	g_array_append_val(self->node_gpus, n_gpus);
	return TRUE;
}

gboolean
scenario_gpushare__add_object_node(ScenarioGpuShare *self,
                                   ClusterNode *node,
                                   guint n_gpus,
                                   const char *refused,
                                   K8sDiagList *diags)
{
	if (refused != NULL) {
		k8s_diag_list_error(diags, &self->mode->policy_pos, self->policy_path,
		                    "mode %s: policy %s reads each GPU's free share, and node %s "
		                    "(spec.cluster.objects) %s; valid here: kube-scheduler's "
		                    "policies (LeastAllocated, MostAllocated, "
		                    "RequestedToCapacityRatio, BalancedAllocation), or remove the "
		                    "node (docs/research/scenario-policies.md)",
		                    self->mode->name, self->mode->policy.name, node->name, refused);
		return FALSE;
	}
	return scenario_gpushare__add_node(self, node, "all-disabled", n_gpus, diags);
}

/* The first pod the policy cannot score is kept, and refused at start. */
static void
refuse(ScenarioGpuShare *self, const ScenarioPod *pod, const char *why)
{
	if (self->refusal == NULL)
		self->refusal = g_strdup_printf("pod %s %s", pod->name, why);
}

/* The DRA driver's MIG classes: the chart's mig.nvidia.com, drasim's mig-<profile>.nvidia.com. */
static gboolean
is_mig_class(const char *name)
{
	return g_strcmp0(name, "mig.nvidia.com") == 0 ||
	       (name != NULL && g_str_has_prefix(name, "mig-") &&
	        g_str_has_suffix(name, ".nvidia.com"));
}

/*
 * The GPU drivers' whole-GPU classes: NVIDIA's (hw_nvidia_device_classes(); a
 * manifest class of that name replaces the chart's), and AMD's and Intel's,
 * whose drivers name their class after themselves, for clusters given as
 * objects (docs/import.md, "GPUs of a node given as objects").
 */
static gboolean
is_gpu_class(const char *name)
{
	return g_strcmp0(name, "gpu.nvidia.com") == 0 || g_strcmp0(name, "gpu.amd.com") == 0 ||
	       g_strcmp0(name, "gpu.intel.com") == 0;
}

/* A request of the DRA world: the GPUs it asks for, or a refusal. */
static gint64
request_gpus(ScenarioGpuShare *self,
             const ScenarioPod *pod,
             const K8sDeviceRequest *r,
             gboolean shared)
{
	const K8sExactDeviceRequest *e = &r->exactly;

	for (guint k = 0; k < r->n_first_available; k++) {
		const char *cls = r->first_available[k].spec.device_class_name;

		if (is_gpu_class(cls) || is_mig_class(cls))
			refuse(self, pod,
			       "has a prioritized list (firstAvailable) of GPUs: how many it "
			       "takes is known only once the allocator chose a subrequest");
	}
	if (!r->has_exactly)
		return 0;
	if (is_mig_class(e->device_class_name))
		refuse(self, pod, "asks for MIG devices, which are not shares of one GPU");
	if (!is_gpu_class(e->device_class_name))
		return 0; /* NICs and other devices: not the GPUs the policy scores */
	if (g_strcmp0(e->allocation_mode, "All") == 0) {
		g_autofree char *why = g_strdup_printf(
		        "asks for allocationMode All of %s: how many GPUs that is depends on the "
		        "node, and the policy scores a known count",
		        e->device_class_name);

		refuse(self, pod, why);
	}
	/* a pod bound in an imported snapshot is pinned to its node: no score
	 * chooses for it, and its claim's devices are held as allocated */
	if (shared && pod->spec->node_name == NULL)
		refuse(self, pod,
		       "uses a shared ResourceClaim (resourceClaimName) of GPUs: its devices "
		       "are taken once for every pod, the policy charges each pod");
	return e->has_count ? e->count : 1;
}

/*
 * The GPU devices a DRA-world pod's claims ask for: the ExactCount requests of
 * a GPU driver's class (is_gpu_class()). GpuConfig sharing
 * (time-slicing, MPS) makes a GPU's tenants replicas, not measured shares.
 */
static gint64
dra_claim_gpus(ScenarioGpuShare *self, const ScenarioPod *pod)
{
	ClusterShareMode sharing = CLUSTER_SHARE_EXCLUSIVE;
	ClusterTimeSliceInterval interval;
	double threads = 0;
	gint64 mem = 0, count = 0;

	if (scenario_xlate__sharing(self->sc, pod, &sharing, &interval, &threads, &mem) &&
	    sharing != CLUSTER_SHARE_EXCLUSIVE)
		refuse(self, pod,
		       "asks for GPU sharing (GpuConfig time-slicing or MPS): a replica is "
		       "an advertised unit, not a measured share of a GPU");
	for (guint i = 0; i < pod->spec->n_resource_claims; i++) {
		gboolean shared = FALSE;
		const K8sResourceClaimSpec *spec = scenario_xlate__claim_spec(
		        self->sc, pod->namespace_, &pod->spec->resource_claims[i], &shared);

		for (guint r = 0; spec != NULL && r < spec->n_requests; r++)
			count += request_gpus(self, pod, &spec->requests[r], shared);
	}
	return count;
}

/*
 * A pod of the run (index @index): its GPU count as whole GPUs. Extended
 * world: its nvidia.com/gpu count. DRA world: that count too (KEP-5004 maps
 * nvidia.com/gpu to gpu.nvidia.com) plus its claims' GPUs; a trace pod's GPUs.
 */
void
scenario_gpushare__add_pod(ScenarioGpuShare *self,
                           const ScenarioPod *pod,
                           ClusterPod *cpod,
                           guint index,
                           const ClusterResNames *names)
{
	gint slot = cluster_res_names_lookup(names, "nvidia.com/gpu");
	gint64 count = slot >= 0 ? cpod->requests.v[slot] : 0;

	if (index >= self->n_pods)
		return;
	if (self->mode->world == SCENARIO_WORLD_DRA)
		count = pod->spec != NULL ? count + dra_claim_gpus(self, pod) : pod->num_gpu;
	self->reqs[index] = (ClusterGpuShareReq){ (guint32)CLAMP(count, 0, G_MAXUINT32),
		                                  count > 0 ? CLUSTER_GPUSHARE_MILLI : 0, 0 };
	self->cpu[index] = cluster_gpushare_cpu_request(cpod);
	cpod->gpushare = &self->reqs[index];
}

/* FGD's task mix: the pods' distinct (CPU, GPUs) shapes with their counts. */
static void
set_task_mix(ScenarioGpuShare *self)
{
	g_autoptr(GArray) shapes = g_array_new(FALSE, FALSE, sizeof(ClusterGpuShareTask));

	for (guint i = 0; i < self->n_pods; i++) {
		ClusterGpuShareTask t = { self->cpu[i], self->reqs[i], 1.0 };
		guint k = 0;

		while (k < shapes->len) {
			ClusterGpuShareTask *s = &g_array_index(shapes, ClusterGpuShareTask, k);

			if (s->cpu_milli == t.cpu_milli && s->req.num_gpu == t.req.num_gpu &&
			    s->req.gpu_milli == t.req.gpu_milli)
				break;
			k++;
		}
		if (k < shapes->len)
			g_array_index(shapes, ClusterGpuShareTask, k).p += 1.0;
		else
			g_array_append_val(shapes, t);
	}
	cluster_gpushare_set_popular_tasks(self->share, (ClusterGpuShareTask *)shapes->data,
	                                   shapes->len);
}

/*
 * After the nodes and pods are in, before the run: a pod the policy cannot
 * score is an error at the mode's policy; else the largest node spec the
 * scores normalise by, each node's idle GPUs tracked (extended: from its
 * nvidia.com/gpu count; DRA: from its devices' claims), and the task mix.
 */
void
scenario_gpushare__start(ScenarioGpuShare *self, const ClusterResNames *names, K8sDiagList *diags)
{
	gint slot = cluster_res_names_lookup(names, "nvidia.com/gpu");
	gboolean dra = self->mode->world == SCENARIO_WORLD_DRA;
	gint64 max_cpu = 1, max_gpu = CLUSTER_GPUSHARE_MILLI;

	if (self->refusal != NULL) {
		k8s_diag_list_error(diags, &self->mode->policy_pos, self->policy_path,
		                    "mode %s: policy %s reads each GPU's free share, and %s; use "
		                    "a mode without it (docs/research/scenario-policies.md)",
		                    self->mode->name, self->mode->policy.name, self->refusal);
		return;
	}
	for (guint i = 0; i < self->nodes->len; i++) {
		const ClusterNode *node = self->nodes->pdata[i];
		gint64 gpus = dra         ? g_array_index(self->node_gpus, guint, i)
		              : slot >= 0 ? node->allocatable.v[slot]
		                          : 0;

		g_array_index(self->node_gpus, guint, i) = (guint)gpus;
		max_cpu = MAX(max_cpu, node->allocatable.v[CLUSTER_RES_CPU]);
		max_gpu = MAX(max_gpu, gpus * CLUSTER_GPUSHARE_MILLI);
	}
	self->share = cluster_gpushare_new(max_cpu, max_gpu, draw, self->rng);
	self->gpu_nodes = g_new0(ClusterGpuShareNode, MAX(self->nodes->len, 1));
	for (guint i = 0; i < self->nodes->len; i++) {
		ClusterNode *node = self->nodes->pdata[i];

		cluster_gpushare_node_init(&self->gpu_nodes[i], self->share, 0,
		                           g_array_index(self->node_gpus, guint, i));
		if (dra)
			cluster_gpushare_node_track_devices(&self->gpu_nodes[i]);
		else if (slot >= 0)
			cluster_gpushare_node_track_whole(&self->gpu_nodes[i], (guint)slot);
		node->gpushare = &self->gpu_nodes[i];
	}
	set_task_mix(self);
}
