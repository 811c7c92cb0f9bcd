/*
 * scenario-private.h: what the sibling files of sim/scenario share: the
 * strict decoder helpers over model/api's positioned YAML tree and the
 * decoders of the parts of the spec.
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
/* An arrival rate, per second, with or without a unit (workload_rate_parse). */
gboolean
scenario_dec__rate(ScenarioDec *dec, const K8sYamlNode *node, const char *path, double *out);
gboolean
scenario_dec__bytes(ScenarioDec *dec, const K8sYamlNode *node, const char *path, gint64 *out);
/* @node's string must be one of the @n @names: its index goes to *@out. Otherwise an
 * error at @path lists them ("expected A, B or C, got \"X\"") and FALSE. */
gboolean scenario_dec__choice(ScenarioDec *dec,
                              const K8sYamlNode *node,
                              const char *path,
                              const char *const *names,
                              guint n,
                              guint *out);
K8sPos scenario_dec__pos(ScenarioDec *dec, const K8sYamlNode *node);

/* ---- parts of the spec (scenario_spec.c) ---- */

/* A duration: a scalar (fixed) or {distribution, ...}, checked by sim/workload. */
void
scenario_spec__dist(ScenarioDec *dec, const K8sYamlNode *node, const char *path, WorkloadDist *out);

void scenario_spec__workload(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node);
void scenario_spec__modes(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node);
void scenario_spec__run(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node);
/* spec.workload.trace.gpuModels against the catalog (after spec.cluster). */
void scenario_spec__check_gpu_models(Scenario *self, ScenarioDec *dec);
void scenario_spec__check_mode_layouts(Scenario *self, ScenarioDec *dec);

/* ---- a mode's policy: (scenario_policy_dec.c) ---- */

/* Decodes @node, a policy name or {name, resources, shape}, into @config
 * (init'ed; LeastAllocated stays after an error); @pos gets @node's place. */
void scenario_spec__policy(ScenarioDec *dec,
                           const K8sYamlNode *node,
                           const char *path,
                           ClusterScorePolicyConfig *config,
                           K8sPos *pos);
/* After the mode's world and sharing: decodes `devicePick:` into @m and
 * refuses the paper's six at the mode's policy (@mode: the mode's mapping at
 * @mode_path) where they have no per-GPU state. */
void scenario_spec__check_policy_world(ScenarioDec *dec,
                                       const K8sYamlNode *mode,
                                       const char *mode_path,
                                       ScenarioMode *m);

/* ---- the cluster as objects, the imported pods (scenario_objects_dec.c) ---- */

/* A list of file or folder paths at @path, resolved against the scenario's folder. */
GPtrArray *scenario_objects__paths(Scenario *self,
                                   ScenarioDec *dec,
                                   const K8sYamlNode *node,
                                   const char *path);
void scenario_objects__node_defaults(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node);
void scenario_objects__imported(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node);
/* After decoding: loads the inventory and the imported pods; warns about unused objects. */
void scenario_objects__load(Scenario *self, K8sDiagList *diags);
/* ---- what-if keys of a mode on an imported cluster (scenario_whatif_dec.c) ---- */

/* addNodes, removeNodes and drainNodes of the mode mapping @mode (at @path) into @m. */
void scenario_whatif__decode(ScenarioDec *dec,
                             const K8sYamlNode *mode,
                             const char *path,
                             ScenarioMode *m);
void scenario_whatif__clear(ScenarioMode *m);
/* After the inventory is loaded: what-if keys without spec.cluster.objects are
 * errors; with it, every name is checked (scenario_mode_check_nodes()). */
void scenario_whatif__check(const Scenario *self, K8sDiagList *diags);
/* The nodes of each mode (pools, imported Nodes, addNodes) against DRASIM_MAX_NODES;
 * FALSE after an error at the entry that passes it. */
gboolean scenario_whatif__check_node_count(const Scenario *self, K8sDiagList *diags);
/* After the inventory is loaded: spec.events' node names that are no pool's node
 * against the imported nodes (and the clones modes add); mig-reconfigure on an
 * imported node is an error (docs/import.md, "Events on imported nodes"). */
void scenario_whatif__check_events(const Scenario *self, K8sDiagList *diags);
/* The error message for an event's node @name that is no node: the valid names
 * (the pools' nodes, then the imported ones) and the closest (transfer full). */
char *scenario_whatif__unknown_node(const Scenario *self, const char *name);

/* ---- overrides by path (scenario_override.c) ---- */

/* Applies the @n @overrides to the document @root in order (nodes into @arena, text
 * into @strings); each problem is an error at its override's origin. Returns: TRUE
 * when all applied. */
gboolean scenario_override__apply(K8sYamlNode *root,
                                  const ScenarioOverride *overrides,
                                  guint n,
                                  BaseArena *arena,
                                  GStringChunk *strings,
                                  K8sDiagList *diags);

/* ---- spec.events (scenario_events_dec.c) ---- */

/* Decodes spec.events (after spec.cluster: targets are checked against the pools;
 * with spec.cluster.objects a node name no pool has is checked once the
 * inventory is loaded, scenario_whatif__check_events()). */
void scenario_events__decode(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node);
void scenario_event__clear(gpointer event);

G_END_DECLS
