/*
 * scenario.h: the face of sim/scenario, a drasim scenario (apiVersion
 * drasim.io/v1alpha1, kind Scenario) decoded to a plain value: a cluster of
 * node pools, a workload of Kubernetes manifests with arrivals, durations and
 * demands, the modes to compare (DRA and extended resources) and the timed
 * events, all as data. Nothing here runs: sim/world builds and drives a world
 * per mode (world.h), sim/measure measures it (measure.h). From sim/cluster
 * only value types are used (ClusterTaintEffect, ClusterRunParams, the pod
 * phase).
 */
#pragma once

#include <stdio.h>

#include <glib.h>

#include "cluster_run.h"
#include "cluster_sched.h"
#include "cluster_types.h"
#include "hw.h"
#include "k8s_diag.h"
#include "k8s_objects.h"
#include "sim.h"
#include "workload.h"
#include "xr.h"

G_BEGIN_DECLS

#define SCENARIO_ERROR (scenario_error_quark())
GQuark scenario_error_quark(void);

typedef enum {
	SCENARIO_ERROR_INVALID, /* the scenario has errors (they are in the diag list) */
	SCENARIO_ERROR_MODE,    /* no such mode */
	SCENARIO_ERROR_BUILD,   /* the cluster or workload cannot be built for a mode */
} ScenarioErrorCode;

/* One group of identical nodes. */
typedef struct {
	char *name;
	char *shape; /* hw catalog shape id */
	guint count;
	char *mig; /* hw_mig_layout_parse() layout; "dynamic" = DynamicMIG */
	K8sPos pos;
} ScenarioPool;

/* How the instances of one workload entry arrive. */
typedef enum {
	SCENARIO_ARRIVAL_AT,      /* all at one time */
	SCENARIO_ARRIVAL_PROCESS, /* a sim/workload arrival process */
} ScenarioArrivalKind;

/**
 * ScenarioEntry:
 *
 * One workload object (Pod, Deployment, Job, StatefulSet) of the manifests,
 * named by kind/name, with @count copies (each a Deployment's replicas...),
 * its arrivals, duration (seconds) and demand. @lifetime: a service runs
 * until deleted (SIM_TIME_NEVER work) for this long.
 */
typedef struct {
	char *kind;
	char *name;
	guint count;
	ScenarioArrivalKind arrival_kind;
	SimTime at;
	WorkloadArrival process;
	SimTime start, end;
	WorkloadDist duration;
	double compute;   /* GPU compute fraction when alone */
	gint64 memory;    /* GPU memory, bytes */
	gboolean service; /* runs until the horizon */
	K8sPos pos;
} ScenarioEntry;

typedef struct {
	char *path;  /* absolute or relative to the scenario */
	guint limit; /* 0 = every row */
	K8sPos pos;
	/* gpuModels: trace GPU code -> catalog GPU id, overriding
	 * workload_trace_model_catalog_id(); char* code, id alternately, and a
	 * K8sPos per pair (for the check against the catalog). NULL: none. */
	GPtrArray *gpu_models;
	GArray *gpu_model_pos;
} ScenarioTrace;

typedef enum {
	SCENARIO_WORLD_DRA,
	SCENARIO_WORLD_EXTENDED,
} ScenarioWorld;

typedef struct {
	char *pool;
	char *mig;
	K8sPos pos; /* of the layout in spec.modes[].mig */
} ScenarioPoolLayout;

/* What a node or device event does (docs/scenario.md, "Events"). */
typedef enum {
	SCENARIO_EVENT_FAIL,            /* the node stops (NotReady); pods evicted later */
	SCENARIO_EVENT_RESTORE,         /* the node is back: uncordon, lost pods resume */
	SCENARIO_EVENT_DRAIN,           /* cordon, evict every pod */
	SCENARIO_EVENT_CORDON,          /* unschedulable, pods keep running */
	SCENARIO_EVENT_UNCORDON,        /* schedulable again */
	SCENARIO_EVENT_TAINT,           /* a node taint (NoExecute evicts) */
	SCENARIO_EVENT_UNTAINT,         /* removes a node taint */
	SCENARIO_EVENT_DEVICE_TAINT,    /* DRA: a DeviceTaintRule (DRADeviceTaints) */
	SCENARIO_EVENT_DEVICE_UNTAINT,  /* DRA: deletes that DeviceTaintRule */
	SCENARIO_EVENT_MIG_RECONFIGURE, /* mig-manager: nvidia.com/mig.config changes */
	SCENARIO_EVENT_NOT_READY,       /* kubelet reports NotReady for @duration: a flap */
	SCENARIO_EVENT_DRIVER_DOWN,     /* DRA: the node's driver unregistered for @duration */
	SCENARIO_EVENT_REPUBLISH,       /* DRA: the node's GPU pool, next generation */
	SCENARIO_EVENT_DEVICE_REMOVE,   /* DRA: republished without @devices */
	SCENARIO_EVENT_POOL_INCOMPLETE, /* DRA: next generation, @devices' slice late */
	SCENARIO_EVENT_KUBELET_RESTART, /* the kubelet is down for @duration */
	SCENARIO_N_EVENT_ACTIONS
} ScenarioEventAction;

/* The action's name in a scenario ("fail", "device-taint", ...). */
const char *scenario_event_action_get_name(ScenarioEventAction action);
/* TRUE for device-taint and device-untaint (DRA devices, not nodes). */
gboolean scenario_event_action_is_device(ScenarioEventAction action);

/**
 * ScenarioEvent:
 *
 * One timed event of spec.events. Targets @node, or nodes @index ..
 * @index + @count - 1 of node pool @pool (@count 0: to the end of the pool).
 * @taint_*: the taint of taint, untaint, device-taint and device-untaint;
 * @devices: the devices device-(un)taint names (NULL: every device of the
 * node), the devices a republish or device-remove leaves out of the new
 * generation, or those a pool-incomplete publishes late (in a second
 * slice); @renames: the devices a republish publishes under a new name; @mig_config: the layout
 * mig-reconfigure installs; @duration: how long mig-manager takes (< 0: computed from the plan), or
 * how long a not-ready node stays NotReady, a node's DRA driver is unavailable, a pool stays
 * incomplete or a kubelet is down (< 0: to the end of the run).
 */
typedef struct {
	SimTime at;
	ScenarioEventAction action;
	char *node;
	char *pool;
	guint index, count;
	char *taint_key;
	char *taint_value;
	ClusterTaintEffect taint_effect;
	char **devices;
	char **renames; /* republish: old, new, old, new, ..., NULL (or NULL) */
	char *mig_config;
	SimTime duration;
	K8sPos pos;
	K8sPos node_pos; /* of @node */
} ScenarioEvent;

/* addNodes: @count more nodes like the imported node @like (issue 16, docs/import.md). */
typedef struct {
	char *like;
	guint count;
	K8sPos pos;
} ScenarioNodeClone;

typedef struct {
	char *name;
	ScenarioWorld world;
	XrConfig xr;          /* device plugin: MIG strategy, sharing, replicas */
	gboolean dynamic_mig; /* DRA: DynamicMIG */
	GArray *layouts;      /* ScenarioPoolLayout: per-pool MIG layout overrides */
	/* `policy:`: the score policy and its arguments (LeastAllocated unless set) */
	ClusterScorePolicyConfig policy;
	K8sPos policy_pos;
	/* `devicePick: policy` (only with the FGD paper's six): the policy picks
	 * the GPUs inside the node, beyond production; FALSE: production's pick */
	gboolean device_pick_policy;
	guint percentage_of_nodes_to_score;
	gboolean extended_resource_gate; /* DRAExtendedResource (default on in dra world) */
	gboolean device_taints_gate;     /* DRADeviceTaints (alpha, off) */
	/* DynamicResources filterTimeout: 10 s unless set; none with the gate off */
	gboolean filter_timeout_set;
	SimTime filter_timeout;
	gboolean filter_timeout_gate_off; /* DRASchedulerFilterTimeout: false */
	/* What-if edits of an imported cluster (spec.cluster.objects; docs/import.md).
	 * NULL when the mode has none. Node names are the imported Nodes'. */
	GArray *add_nodes;       /* ScenarioNodeClone: addNodes */
	GPtrArray *remove_nodes; /* char*: removeNodes (node and its slices gone) */
	GPtrArray *drain_nodes;  /* char*: drainNodes (cordoned; its pods pending at 0) */
	/* K8sPos of each name of remove_nodes and drain_nodes (error positions) */
	GArray *remove_pos, *drain_pos;
	K8sPos pos;
} ScenarioMode;

/* spec.cluster.nodeDefaults: CPU, memory and pods of a node known only from
 * its ResourceSlices' nodeName. Unset (or < 0): unlimited. */
typedef struct {
	gint64 cpu_milli;
	gint64 memory; /* bytes */
	gint64 pods;
	K8sPos pos;
} ScenarioNodeDefaults;

/* spec.workload.imported: the Pods of a snapshot (docs/import.md). Bound pods
 * (spec.nodeName) run on their node from t = 0 with their claims' allocations
 * kept; the others arrive at t = 0. */
typedef struct {
	GPtrArray *manifests; /* char*: resolved paths; NULL: no imported pods */
	WorkloadDist duration;
	gboolean service; /* no duration given: they run to the horizon */
	double compute;
	gint64 memory;
	K8sPos pos;
	K8sObjectSet *objects; /* the Pods of @manifests (loaded with the scenario) */
} ScenarioImported;

typedef struct {
	char *file; /* the scenario file */
	char *dir;  /* its folder: manifest and trace paths are relative to it */
	char *name;
	guint64 seed;
	SimTime horizon;  /* SIM_TIME_NEVER: until the queue empties */
	SimTime sampling; /* pending-pods sample interval */
	GArray *pools;    /* ScenarioPool */
	/* spec.cluster.objects: Nodes, ResourceSlices (and DeviceClasses) as the
	 * inventory, as a cluster published them; NULL when not given */
	GPtrArray *inventory_paths; /* char*: resolved paths */
	K8sObjectSet *inventory;
	ScenarioNodeDefaults node_defaults;
	ScenarioImported imported;
	HwCatalog *catalog;   /* built-in plus spec.cluster.catalog files */
	GPtrArray *manifests; /* char*: resolved paths */
	GArray *entries;      /* ScenarioEntry */
	SimTime default_duration;
	double default_compute;
	gint64 default_memory;
	ScenarioTrace trace; /* path NULL: none */
	GArray *modes;       /* ScenarioMode */
	ClusterRunParams run;
	GArray *events;        /* ScenarioEvent, in spec order */
	K8sObjectSet *objects; /* the manifests */
	GStringChunk *strings; /* the scenario file's name and text: positions point here */
	/* not from the file: runs record every pod's history (drasim explain) */
	gboolean journal;
} Scenario;

/**
 * scenario_load:
 *
 * Reads and checks a scenario and the manifests it names. Problems go to
 * @diags as FILE:LINE:COL with field paths.
 *
 * Returns: (transfer full) (nullable): NULL when @diags holds errors.
 */
Scenario *scenario_load(const char *path, K8sDiagList *diags);

/**
 * ScenarioOverride:
 *
 * One change to a scenario document before it is decoded, as sweeps vary it:
 * @path in k8s_yaml_path.h's syntax (`spec.cluster.nodePools[name=dgx].count`),
 * @value as YAML text ("4", "dynamic", "[dra, extended]", "{name: x, world:
 * dra}"), @origin where the override was written (a Sweep file's value; for the
 * command line, file "--vary N" and line 0).
 */
typedef struct {
	const char *path;
	const char *value;
	K8sPos origin;
} ScenarioOverride;

/**
 * scenario_load_with:
 *
 * scenario_load() with the @n @overrides applied in order to the document
 * first: each value replaces the node its path names, or is added when only the
 * path's last step names a key missing from its mapping (the decoder then
 * rejects an unknown key as if it were written in the file). A path that does
 * not resolve or a value that is not one YAML value is an error at @origin
 * with the path as field path, naming the step that failed and what is valid
 * there; nothing is decoded then. A value of the wrong type for its field is the
 * decoder's own error, at the position of the node it replaced in the scenario.
 * Paths of manifests and traces stay relative to the scenario's folder.
 * scenario_load() is scenario_load_with(@path, NULL, 0, @diags).
 *
 * Returns: (transfer full) (nullable): NULL when @diags holds errors.
 */
Scenario *scenario_load_with(const char *path,
                             const ScenarioOverride *overrides,
                             guint n,
                             K8sDiagList *diags);
/**
 * scenario_load_data:
 *
 * scenario_load() on @len bytes already in memory (the fuzz targets): @path
 * names them in positions, and the manifests and traces they name are read
 * relative to @path's folder as for a file. The caller bounds @len
 * (base_read_file() does for a file).
 *
 * Returns: (transfer full) (nullable): NULL when @diags holds errors.
 */
Scenario *scenario_load_data(const char *path, const char *data, gsize len, K8sDiagList *diags);
void scenario_free(Scenario *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Scenario, scenario_free)

const ScenarioMode *scenario_lookup_mode(const Scenario *self, const char *name);
/* The mode's DynamicResources filterTimeout in microseconds; 0: no timeout. */
gint64 scenario_mode_filter_timeout(const ScenarioMode *mode);

/* The MIG layout @pool has in @mode: the mode's override, the pool's, else "all-disabled". */
const char *scenario_mode_pool_layout(const ScenarioMode *mode, const ScenarioPool *pool);
/*
 * scenario_mode_check_nodes:
 * The what-if edits of @mode (spec.modes[@index]: addNodes, removeNodes,
 * drainNodes, mig keyed by node) against the imported Nodes of @self->inventory
 * (docs/import.md): a name that is no imported Node (nor, for mig, a pool) is
 * an error at its position listing the valid names, with the closest as
 * suggestion. Returns: FALSE when it added errors to @diags.
 */
gboolean scenario_mode_check_nodes(const Scenario *self,
                                   const ScenarioMode *mode,
                                   guint index,
                                   K8sDiagList *diags);
/* The node pool named @name, or NULL. */
const ScenarioPool *scenario_lookup_pool(const Scenario *self, const char *name);
/* The pool of a node named "<pool>-<k>" (sim/world names them so), or NULL. */
const ScenarioPool *scenario_lookup_node_pool(const Scenario *self, const char *node);

/**
 * ScenarioPod:
 *
 * One pod to create, the same in every mode: sim/world expands the workload
 * into these (sorted by arrival, entry, index), sim/measure reads them.
 */
typedef struct {
	char *name;
	const char *namespace_;
	const char *workload; /* its workload object's name, "trace" for trace pods (borrowed) */
	char *request; /* what it asks for, for reports: "nvidia.com/gpu=1" (an interned GRefString)
	                */
	const K8sPodSpec *spec; /* borrowed from the scenario's objects; NULL for trace pods */
	const K8sObject *obj;   /* the manifest object; NULL for trace pods */
	SimTime arrival;
	SimTime work; /* SIM_TIME_NEVER: a service */
	double compute;
	gint64 memory;
	/* trace pods (the two 4-byte fields side by side: 104 bytes a pod, not 112) */
	gint64 cpu_milli, memory_mib;
	guint num_gpu;
	guint32 gpu_spec_mask;
} ScenarioPod;

G_END_DECLS
