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

/* ---- DRA -> extended (scenario_xlate.c) ---- */

/* What a pod's claims become in the extended world. */
typedef struct {
	char *resource; /* "nvidia.com/gpu", "nvidia.com/mig-1g.10gb"; NULL = no GPU */
	gint64 count;
	GPtrArray *node_selector; /* char*, key=value pairs alternately */
} ScenarioXlate;

void scenario_xlate__pod(const Scenario *self,
                         const ScenarioPod *pod,
                         ScenarioXlate *out,
                         GPtrArray *notes);
void scenario_xlate__clear(ScenarioXlate *x);
/* The GpuConfig sharing of the pod's claims (class config, then claim config). */
gboolean scenario_xlate__sharing(const Scenario *self,
                                 const ScenarioPod *pod,
                                 ClusterShareMode *mode,
                                 ClusterTimeSliceInterval *interval);
void scenario_note__add(GPtrArray *notes, const char *object, const char *what, const char *approx);
void scenario_note__free(gpointer note);

/* ---- extended-world placement (scenario_place.c) ---- */

typedef struct ScenarioPlace ScenarioPlace;

ScenarioPlace *scenario_place__new(void);
void scenario_place__free(ScenarioPlace *self);
/* @resources: the resource name each device is advertised under. */
void scenario_place__add_node(ScenarioPlace *self,
                              const char *node,
                              GPtrArray *resources,
                              gboolean shared);
void scenario_place__set_pod(ScenarioPlace *self, guint index, const char *resource);
gboolean scenario_place__func(gpointer data,
                              ClusterSim *sim,
                              const ClusterPod *pod,
                              const ClusterNode *node,
                              guint *devices,
                              guint n);

G_END_DECLS
