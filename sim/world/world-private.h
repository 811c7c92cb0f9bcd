/*
 * world-private.h: what the sibling files of sim/world share: the pod
 * instances, the run-size limits, the DRA -> extended translation, the trace's
 * gpu_spec, extended-world placement and the run-time events.
 */
#pragma once

#include "world.h"

G_BEGIN_DECLS

/* ---- pod instances (world_pods.c) ---- */

/* All pod instances, sorted by (arrival, entry, index). */
GArray *scenario_pods__expand(const Scenario *self,
                              SimRngSet *rngs,
                              WorkloadTrace **trace_out,
                              K8sDiagList *diags);
void scenario_pods__clear(gpointer pod);
/* A snapshot's pod in phase Succeeded or Failed: left out. */
gboolean scenario_pods__imported_done(const K8sPod *pod);
/* The manifest object of workload entry @e (NULL: none), and the pod spec it makes. */
const K8sObject *scenario_pods__find_object(const Scenario *self, const ScenarioEntry *e);
const K8sPodSpec *scenario_pods__object_spec(const K8sObject *obj);

/* ---- run-size limits (world_limits.c, base.h) ---- */

/* FALSE (an error at @pos, @field) when @have + @adding pods pass the pods limit. */
gboolean scenario_limits__pods(
        guint64 have, guint64 adding, const K8sPos *pos, const char *field, K8sDiagList *diags);
guint64 scenario_limits__series(const Scenario *sc);
guint64 scenario_limits__max_samples(const Scenario *sc);
/* Before a run to @horizon: FALSE with an error naming horizon, sampling and the limit. */
gboolean scenario_limits__samples(const Scenario *sc, SimTime horizon, GError **error);
/* Without a horizon the samples ran out at @now: sets the error, returns FALSE. */
gboolean scenario_limits__samples_ran_out(const Scenario *sc, SimTime now, GError **error);

/* ---- DRA -> extended (world_xlate.c) ---- */

/* What a pod's claims become in the extended world. */
typedef struct {
	char *resource; /* "nvidia.com/gpu", "nvidia.com/mig-1g.10gb"; NULL = no GPU */
	gint64 count;
	GPtrArray *node_selector; /* char*, key=value pairs alternately */
	char *device_class;       /* the first GPU request's class (fragmentation) */
} ScenarioXlate;

void scenario_xlate__pod(const Scenario *self,
                         const ScenarioPod *pod,
                         ScenarioXlate *out,
                         GPtrArray *notes);
void scenario_xlate__clear(ScenarioXlate *x);
/* The GpuConfig sharing of the pod's claims (class config, then claim config);
 * under MPS also mpsConfig's thread percentage (0 = none) and pinned memory limit. */
gboolean scenario_xlate__sharing(const Scenario *self,
                                 const ScenarioPod *pod,
                                 ClusterShareMode *mode,
                                 ClusterTimeSliceInterval *interval,
                                 double *mps_threads,
                                 gint64 *mem_limit);
/* The device plugin's MPS limits for a pod asking @resource (nothing for MIG or no GPU). */
void scenario_xlate__plugin_mps(const Scenario *self,
                                const ScenarioMode *mode,
                                const char *resource,
                                double *mps_threads,
                                gint64 *mem_limit);
/* The spec of the pod's claim reference @pc in namespace @ns (the manifests'
 * ResourceClaim, @shared TRUE, or ResourceClaimTemplate), NULL if none. */
const K8sResourceClaimSpec *scenario_xlate__claim_spec(const Scenario *self,
                                                       const char *ns,
                                                       const K8sPodResourceClaim *pc,
                                                       gboolean *shared);
/* ScenarioClaimShapeFunc (measure.h) over scenario_xlate__pod(): the sampler's task mix. */
void scenario_xlate__claim_shape(const Scenario *sc,
                                 const ScenarioPod *pod,
                                 char **resource,
                                 gint64 *count,
                                 char **device_class);

/* ---- the trace's gpu_spec in each world (world_gpuspec.c) ---- */

typedef struct ScenarioGpuSpec ScenarioGpuSpec;

/* NULL without a trace. Notes go to @notes; the DRA objects' problems to @diags. */
ScenarioGpuSpec *scenario_gpuspec__new(const Scenario *sc,
                                       const ScenarioMode *mode,
                                       const WorkloadTrace *trace,
                                       const GArray *pods,
                                       GPtrArray *notes,
                                       K8sDiagList *diags);
void scenario_gpuspec__free(ScenarioGpuSpec *self);
/* DRA world: gives the claim controller the ResourceClaimTemplates (after attach). */
void scenario_gpuspec__add_templates(const ScenarioGpuSpec *self, ClusterDra *dra);
/* DRA world: the pod spec whose claim carries the trace pod's gpu_spec, or NULL. */
const K8sPodSpec *scenario_gpuspec__pod_spec(const ScenarioGpuSpec *self, const ScenarioPod *pod);
/* Extended world: adds the GFD nvidia.com/gpu.product selector (or affinity term). */
void
scenario_gpuspec__select(const ScenarioGpuSpec *self, const ScenarioPod *pod, ClusterPod *cpod);

/* ---- extended-world placement (world_place.c) ---- */

typedef struct ScenarioPlace ScenarioPlace;

ScenarioPlace *scenario_place__new(void);
void scenario_place__free(ScenarioPlace *self);
/* @resources: the resource name each device is advertised under. */
void scenario_place__add_node(ScenarioPlace *self,
                              const char *node,
                              GPtrArray *resources,
                              gboolean shared);
/* The device plugin's sharing (replicas per shared device, failRequestsGreaterThanOne). */
void scenario_place__configure(ScenarioPlace *self, const XrConfig *xr);
void scenario_place__set_pod(ScenarioPlace *self, guint index, const char *resource);
gboolean scenario_place__func(gpointer data,
                              ClusterSim *sim,
                              const ClusterPod *pod,
                              const ClusterNode *node,
                              guint n,
                              GArray *devices);

/* ---- node and device events at run time (world_events.c) ---- */

/* ---- the FGD paper's policies: per-GPU state of a mode (world_gpushare.c) ---- */

typedef struct ScenarioGpuShare ScenarioGpuShare;
void scenario_gpushare__check_events(const ScenarioGpuShare *self,
                                     const Scenario *sc,
                                     K8sDiagList *diags);

/* NULL unless the mode's policy is one of the paper's six; then a note in @notes
 * (the mode's translation section) marks it beyond production. */
ScenarioGpuShare *scenario_gpushare__new(
        const Scenario *sc, const ScenarioMode *mode, guint n_pods, guint64 seed, GPtrArray *notes);
void scenario_gpushare__free(ScenarioGpuShare *self);
/* FALSE (an error in @diags at the mode's policy) for a MIG layout or > 8 GPUs. */
gboolean scenario_gpushare__add_node(ScenarioGpuShare *self,
                                     ClusterNode *node,
                                     const char *layout,
                                     guint n_gpus,
                                     K8sDiagList *diags);
/* A pod of the run (@pod, made into @cpod): its GPU request (in the DRA world
 * from its claims; what cannot be scored is refused at start). */
/* A node given as objects (world_objects.c): @refused says why its devices
 * are no whole GPUs (NULL: they are), an error at the mode's policy. */
gboolean scenario_gpushare__add_object_node(ScenarioGpuShare *self,
                                            ClusterNode *node,
                                            guint n_gpus,
                                            const char *refused,
                                            K8sDiagList *diags);
void scenario_gpushare__add_pod(ScenarioGpuShare *self,
                                const ScenarioPod *pod,
                                ClusterPod *cpod,
                                guint index,
                                const ClusterResNames *names);
/* After the nodes and pods, before the run: node state, largest spec, task
 * mix; a pod the policy cannot score is an error in @diags at the mode's policy. */
void
scenario_gpushare__start(ScenarioGpuShare *self, const ClusterResNames *names, K8sDiagList *diags);

typedef struct ScenarioEvents ScenarioEvents;

/* What the events of one run act on; all borrowed, alive for the whole run. */
typedef struct {
	const Scenario *sc;
	const ScenarioMode *mode;
	SimLoop *loop;
	ClusterSim *sim;
	ClusterDra *dra;      /* dra world only */
	ScenarioPlace *place; /* extended world only */
	ClusterResNames *names;
	GPtrArray *nodes; /* HwNode*, as built */
	/* spec.cluster.objects as this mode sees them (NULL: none): the slices of
	 * imported nodes, whose pools device taints name */
	const K8sObjectSet *inventory;
	GPtrArray *notes; /* ScenarioNote*: what a world cannot do */
	K8sDiagList *diags;
} ScenarioEventsEnv;

/*
 * world_events_pool.c: publishes the next generation (+@generation) of @hw's
 * gpu.nvidia.com pool into @published and gives it to @env->dra, leaving out
 * the devices of @omit (nullable); with @late, those go into extra slices of
 * the same generation appended to @late (K8sResourceSlice *, to add later:
 * the pool is incomplete until then). Names of @omit the pool lacks are
 * appended to @missing (nullable; borrowed from @omit).
 */
gboolean scenario_events__publish_pool(const ScenarioEventsEnv *env,
                                       K8sObjectSet *published,
                                       const HwNode *hw,
                                       const HwPublishOptions *opts,
                                       gint64 generation,
                                       const char *const *omit,
                                       GPtrArray *late,
                                       GPtrArray *missing);

/* Schedules every event of the scenario on @env->loop. Free after @env->dra. */
ScenarioEvents *scenario_events__new(const ScenarioEventsEnv *env);
void scenario_events__free(ScenarioEvents *self);
/* Events that took effect on at least one node so far. */
guint64 scenario_events__get_applied(const ScenarioEvents *self);

/* world_run.c: the compute devices of @node as @mode shows them, with the DRA device
 * name and the device-plugin resource name of each (see node_devices()). */
void scenario_run__node_devices(const ScenarioMode *mode,
                                const HwNode *node,
                                const HwPublishOptions *opts,
                                GArray *devices,
                                GPtrArray *names,
                                GPtrArray *resources);

/* ---- one run of a mode (world_run.c) ---- */

/* What the DRA world reads of the last pod spec (its claim references and the
 * sharing scenario_xlate__sharing gives), kept for the next pod of the same
 * spec and namespace: a workload's pods share their template's spec. */
typedef struct {
	const K8sPodSpec *spec; /* NULL: nothing kept */
	const char *ns;
	GStrv claims, templates; /* cluster_dra_pod_claim_refs(spec), owned */
	gboolean found;
	ClusterShareMode mode;
	ClusterTimeSliceInterval interval;
	double mps_threads;
	gint64 mem_limit;
} WorldPodSpecMemo;

/* What scenario_run() builds and drives for one mode; all owned by the run. */
typedef struct {
	/* sc, mode, loop, sim, dra, place, names, nodes, diags; notes are the result's.
	 * The run owns what the events only borrow. */
	ScenarioEventsEnv env;
	ScenarioGpuSpec *gpuspec; /* the trace's gpu_spec in this world */
	K8sObjectSet *published;
	K8sObjectSet *scratch; /* dra world: one node's objects, their text in published's */
	/* world_stamp.c: the last stamped node's dranet slice, renewed for the next one */
	HwSlice *stamp_nics;
	const HwNodeShape *stamp_nics_shape;
	/* world_stamp.c: the last node's gpu.nvidia.com slices, what they were made for */
	GPtrArray *stamp_gpus;
	const HwNodeShape *stamp_gpus_shape;
	char *stamp_gpus_layout;
	HwPublishOptions stamp_gpus_opts;
	GArray *pods;    /* ScenarioPod */
	GArray *pending; /* guint64 samples */
	GArray *alloc;   /* double samples: busy devices / devices */
	uint32_t kind_sample;
	SimTime last_sample; /* time of the last sample, -1 before the first */
	guint64 max_samples; /* the sampled values limit over the series */
	SimTime horizon;
	gboolean dynamic;    /* some pool publishes DynamicMIG devices (they overlap) */
	guint physical_gpus; /* physical GPUs, for capacity under DynamicMIG */
	gint64 physical_mem;
	ScenarioResult *result;
	ScenarioEvents *events;     /* spec.events of this run */
	ScenarioSampler *sampler;   /* per-node occupancy, fragmentation (measure_sample.c) */
	ScenarioGpuShare *gpushare; /* the paper's policies only: per-GPU state */
	gboolean unsampled_noted;   /* world_objects.c: a node without fragmentation was noted */
	K8sObjectSet *inventory;    /* spec.cluster.objects as this mode sees them */
	GPtrArray *unpinned;        /* char*: nodes this mode removed or drains */
	GHashTable *sim_nodes;      /* world_start.c: node name -> ClusterNode* */
	GHashTable *bound_load;     /* world_start.c: node name -> ClusterResources of bound pods */
	WorldPodSpecMemo spec_memo; /* world_run_pods.c */
	K8sDiagList
	        *rebuild_diags; /* world_run_pods.c: scratch for a rebuild's notes, kept empty */
} WorldRun;

/*
 * world_stamp.c: the DRA world's publication of node @k of pool @pool (@gpu_slices:
 * its hw_publish_nvidia()): its Node object into run->scratch, its slices to the
 * allocator's converted ones (cluster_dra_convert_slice), stamped from node k-1's
 * when k >= 2 (and DRASIM_STAMP_REFERENCE is not 1). FALSE when its objects are invalid
 * (reported to run->env.diags).
 */
gboolean scenario_stamp__publish_dra(
        WorldRun *run, const HwNode *node, const GPtrArray *gpu_slices, const char *pool, guint k);

/*
 * world_stamp.c: @node's hw_publish_nvidia(@opts) slices, borrowed from the run
 * until the next node's: the last node's renewed (hw_publish_nvidia_renew) when it
 * had the same shape, MIG @layout and options, else published anew (always with
 * DRASIM_STAMP_REFERENCE=1).
 */
const GPtrArray *scenario_stamp__gpu_slices(WorldRun *run,
                                            const HwNode *node,
                                            const char *layout,
                                            const HwPublishOptions *opts);

/* world_run_pods.c: pods made at their arrival. pods_begin() before the first
 * add_pod(), which adds the pod @uid (its index in run->pods); FALSE: it has errors. */
void scenario_run__pods_begin(WorldRun *run);
gboolean scenario_run__add_pod(WorldRun *run, const ScenarioPod *pod, guint64 uid);

/* ---- a cluster given as objects (world_objects.c) ---- */

/* After the pools' nodes: the nodes, devices and slices of spec.cluster.objects. */
gboolean scenario_objects__add_nodes(WorldRun *run, GError **error);
/* The catalog GPU whose product name is @product ("NVIDIA A100-SXM4-40GB" or GFD's
 * "NVIDIA-A100-SXM4-40GB"), or NULL. */
const HwGpuModel *scenario_objects__gpu_model(const HwCatalog *catalog, const char *product);

/* ---- the imported starting state (world_start.c) ---- */

/* A snapshot's pod with spec.nodeName: @cpod->bound (running on its node from the
 * start, scenario_start__run()) unless the mode removed or drains its node or the
 * node's earlier bound pods leave no room (a warning). Returns: TRUE. */
gboolean scenario_start__pin(WorldRun *run, const ScenarioPod *pod, ClusterPod *cpod);
/* After cluster_sim_add_pod() (and cluster_dra_add_pod()) of a pod pinned above: it
 * runs on its node with no scheduling cycle, or, refused, is pending (a warning). */
void scenario_start__run(WorldRun *run, const ScenarioPod *pod, guint index);
/* DRA world: the (pod claim, claim) pairs of a snapshot pod's
 * status.resourceClaimStatuses whose claim is among the manifests: the claims
 * the controller generated from its templates, which it keeps
 * (ClusterSimWork.adopt). NULL-terminated; g_strfreev() it. */
char **scenario_start__adopted(WorldRun *run, const ScenarioPod *pod);
/* DRA world, after the pods: the allocated claims' reservedFor as read. */
void scenario_start__claims(WorldRun *run);
/* Notes on the snapshot's pods: left out, bound, held claims without a pod. */
void scenario_start__notes(WorldRun *run);

G_END_DECLS
