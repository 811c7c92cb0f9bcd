/*
 * scenario-private.h: what the sibling files of sim/scenario share: the
 * strict decoder helpers over model/api's positioned YAML tree, the
 * mode-independent pod instances, and the DRA -> extended translation.
 */
#pragma once

#include "k8s_yaml.h"
#include "scenario.h"

G_BEGIN_DECLS

/* ---- decoding (scenario_dec.c) ---- */

typedef struct {
	const char *file;
	K8sDiagList *diags;
} ScenarioDec;

void scenario_dec__error(ScenarioDec *dec,
                         const K8sYamlNode *node,
                         const char *path,
                         const char *format,
                         ...) G_GNUC_PRINTF(4, 5);
/* Every key of @map must be in @known (NULL-terminated); unknown ones are errors. */
gboolean scenario_dec__check_keys(ScenarioDec *dec,
                                  const K8sYamlNode *map,
                                  const char *path,
                                  const char *const *known);
gboolean scenario_dec__map(ScenarioDec *dec, const K8sYamlNode *node, const char *path);
gboolean scenario_dec__seq(ScenarioDec *dec, const K8sYamlNode *node, const char *path);
char *scenario_dec__string(ScenarioDec *dec, const K8sYamlNode *node, const char *path);
gboolean scenario_dec__uint(
        ScenarioDec *dec, const K8sYamlNode *node, const char *path, guint64 max, guint64 *out);
gboolean
scenario_dec__double(ScenarioDec *dec, const K8sYamlNode *node, const char *path, double *out);
gboolean
scenario_dec__bool(ScenarioDec *dec, const K8sYamlNode *node, const char *path, gboolean *out);
gboolean
scenario_dec__duration(ScenarioDec *dec, const K8sYamlNode *node, const char *path, SimTime *out);
gboolean
scenario_dec__bytes(ScenarioDec *dec, const K8sYamlNode *node, const char *path, gint64 *out);
K8sPos scenario_dec__pos(ScenarioDec *dec, const K8sYamlNode *node);

/* ---- parts of the spec (scenario_spec.c) ---- */

void scenario_spec__workload(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node);
void scenario_spec__modes(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node);
void scenario_spec__run(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node);
/* spec.workload.trace.gpuModels against the catalog (after spec.cluster). */
void scenario_spec__check_gpu_models(Scenario *self, ScenarioDec *dec);
void scenario_spec__check_mode_layouts(Scenario *self, ScenarioDec *dec);

/* ---- pod instances (scenario_pods.c) ---- */

/* One pod to create, the same in every mode. */
typedef struct {
	char *name;
	const char *namespace_;
	const K8sPodSpec *spec; /* borrowed from the scenario's objects; NULL for trace pods */
	const K8sObject *obj;   /* the manifest object; NULL for trace pods */
	SimTime arrival;
	SimTime work; /* SIM_TIME_NEVER: a service */
	double compute;
	gint64 memory;
	/* trace pods: */
	guint num_gpu;
	gint64 cpu_milli, memory_mib;
	guint32 gpu_spec_mask;
} ScenarioPod;

/* All pod instances, sorted by (arrival, entry, index). */
GArray *scenario_pods__expand(const Scenario *self,
                              SimRngSet *rngs,
                              WorkloadTrace **trace_out,
                              K8sDiagList *diags);
void scenario_pods__clear(gpointer pod);
/* The manifest object of workload entry @e (NULL: none), and the pod spec it makes. */
/* The node pool named @name, or NULL (scenario_spec.c). */
const ScenarioPool *scenario_spec__find_pool(const Scenario *self, const char *name);
const K8sObject *scenario_pods__find_object(const Scenario *self, const ScenarioEntry *e);
const K8sPodSpec *scenario_pods__object_spec(const K8sObject *obj);

/* ---- run-size limits (scenario_limits.c, base.h) ---- */

/* FALSE (an error at @pos, @field) when @have + @adding pods pass the pods limit. */
gboolean scenario_limits__pods(
        guint64 have, guint64 adding, const K8sPos *pos, const char *field, K8sDiagList *diags);
guint64 scenario_limits__series(const Scenario *sc);
guint64 scenario_limits__max_samples(const Scenario *sc);
/* Before a run to @horizon: FALSE with an error naming horizon, sampling and the limit. */
gboolean scenario_limits__samples(const Scenario *sc, SimTime horizon, GError **error);
/* Without a horizon the samples ran out at @now: sets the error, returns FALSE. */
gboolean scenario_limits__samples_ran_out(const Scenario *sc, SimTime now, GError **error);

/* ---- DRA -> extended (scenario_xlate.c) ---- */

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
void scenario_note__add(GPtrArray *notes, const char *object, const char *what, const char *approx);
void scenario_note__free(gpointer note);

/* ---- the trace's gpu_spec in each world (scenario_gpuspec.c) ---- */

typedef struct ClusterDra ClusterDra;
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

/* ---- extended-world placement (scenario_place.c) ---- */

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

/* ---- node and device events (scenario_events.c) ---- */

/* Decodes spec.events (after spec.cluster: targets are checked against the pools). */
void scenario_events__decode(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node);
void scenario_event__clear(gpointer event);

typedef struct ClusterDra ClusterDra;
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
	GPtrArray *notes; /* ScenarioNote*: what a world cannot do */
	K8sDiagList *diags;
} ScenarioEventsEnv;

/* Schedules every event of the scenario on @env->loop. Free after @env->dra. */
ScenarioEvents *scenario_events__new(const ScenarioEventsEnv *env);
void scenario_events__free(ScenarioEvents *self);
/* Events that took effect on at least one node so far. */
guint64 scenario_events__get_applied(const ScenarioEvents *self);

/* scenario_run.c: the compute devices of @node as @mode shows them, with the DRA device
 * name and the device-plugin resource name of each (see node_devices()). */
void scenario_run__node_devices(const ScenarioMode *mode,
                                const HwNode *node,
                                const HwPublishOptions *opts,
                                GArray *devices,
                                GPtrArray *names,
                                GPtrArray *resources);

/* scenario_reasons.c: with Scenario.journal, the run records every pod's history. */
void scenario_reasons__begin(const Scenario *sc, ClusterSim *sim, ClusterDra *dra);
/* After the run: a ScenarioReason per pod that waited or never ran (@pods: ScenarioPod). */
void scenario_reasons__collect(ScenarioResult *result,
                               ClusterSim *sim,
                               ClusterDra *dra,
                               const ClusterResNames *names,
                               const GArray *pods);
void scenario_reason__free(gpointer reason);

G_END_DECLS
