/*
 * cluster_types.h: the value types of sim/cluster's plain-C inputs: the resource
 * vector and its slot names, labels, taints, tolerations, node selectors,
 * and the scheduler's view of a node and a pod.
 *
 * Part of sim/cluster's face (cluster.h lists every part). These structs are
 * transparent on purpose: they are the inputs a world builds and the filter
 * and score plugins read field by field on every node of every cycle (the
 * hot path), so an accessor call per field would cost there. Change them
 * through the functions below, which keep derived fields (non-zero requests)
 * true. ClusterResNames, which has behaviour, is opaque.
 */
#pragma once

#include <stdint.h>

#include <glib.h>

G_BEGIN_DECLS

/* ============================================================ resources */

/*
 * Resource vector. Slots 0..2 are fixed; the rest are extended resources
 * (nvidia.com/gpu, nvidia.com/mig-1g.10gb, ...) interned in a ClusterResNames.
 */
#define CLUSTER_RES_CPU          0 /* millicores */
#define CLUSTER_RES_MEMORY       1 /* bytes */
#define CLUSTER_RES_PODS         2 /* pod count */
#define CLUSTER_RES_FIRST_SCALAR 3
#define CLUSTER_RES_MAX          16

typedef struct {
	gint64 v[CLUSTER_RES_MAX];
} ClusterResources;

typedef struct ClusterResNames ClusterResNames;

/* The three fixed names are pre-registered ("cpu", "memory", "pods"). */
ClusterResNames *cluster_res_names_new(void);
void cluster_res_names_free(ClusterResNames *self);
/* Returns: the slot of @name, registering it if new; -1 when all slots are taken. */
gint cluster_res_names_intern(ClusterResNames *self, const char *name);
/* Returns: the slot of @name or -1. */
gint cluster_res_names_lookup(const ClusterResNames *self, const char *name);
const char *cluster_res_names_get(const ClusterResNames *self, gint slot);
guint cluster_res_names_get_length(const ClusterResNames *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterResNames, cluster_res_names_free)

/* ======================================================== nodes and pods */

typedef enum {
	CLUSTER_EFFECT_ALL = 0, /* tolerations only: empty effect matches all */
	CLUSTER_EFFECT_NO_SCHEDULE,
	CLUSTER_EFFECT_PREFER_NO_SCHEDULE,
	CLUSTER_EFFECT_NO_EXECUTE,
} ClusterTaintEffect;

typedef enum {
	CLUSTER_TOLERATION_EQUAL = 0, /* also the empty operator */
	CLUSTER_TOLERATION_EXISTS,
} ClusterTolerationOp;

typedef enum {
	CLUSTER_SELECTOR_IN,
	CLUSTER_SELECTOR_NOT_IN,
	CLUSTER_SELECTOR_EXISTS,
	CLUSTER_SELECTOR_DOES_NOT_EXIST,
	CLUSTER_SELECTOR_GT,
	CLUSTER_SELECTOR_LT,
} ClusterSelectorOp;

typedef struct {
	char *key;
	char *value;
} ClusterLabel;

typedef struct {
	char *key;
	char *value;
	ClusterTaintEffect effect;
} ClusterTaint;

typedef struct {
	char *key; /* NULL/empty with EXISTS: every key */
	ClusterTolerationOp op;
	char *value;
	ClusterTaintEffect effect; /* CLUSTER_EFFECT_ALL: every effect */
	/* tolerationSeconds (NoExecute): FALSE = tolerate forever; <= 0 = evict at once */
	gboolean has_seconds;
	gint64 seconds;
} ClusterToleration;

/**
 * ClusterNode:
 *
 * The scheduler's view of a node (a NodeInfo). @requested sums the requests
 * of the pods assumed or bound there; @nonzero_requested does the same with
 * the scheduler's defaults for missing cpu/memory requests, which
 * NodeResourcesFit scoring uses. Fields are public for the plugins; change
 * them through the functions below. @state_gen is bumped by every change a
 * filter or score may read (the setters below, assume/release,
 * cluster_node_touch() after a direct write): the scheduler's equivalence
 * classes recompute a node's class when it moved. It sits beside @index,
 * which the class lookup reads too: one cache line per node. A touch also
 * queues the node once in its scheduler's @watch, so the scheduler's class
 * index learns which nodes changed without scanning them all.
 */
typedef struct {
	char *name;
	guint index;       /* position in the scheduler's node list */
	guint32 state_gen; /* moves on every change (see above) */
	/*
	 * The node's DRA signature (set by the DynamicResources wiring, which bumps
	 * state_gen when it moves): nodes with one non-zero value answer a pod's
	 * DynamicResources Filter alike (docs/cluster.md). 0: per node.
	 */
	guint dra_sig;
	GArray *labels;         /* ClusterLabel, insertion order */
	GArray *taints;         /* ClusterTaint */
	gboolean unschedulable; /* spec.unschedulable (cordon) */
	gboolean touched;       /* queued in @watch's list since the scheduler last read it */
	ClusterResources allocatable;
	ClusterResources requested;
	ClusterResources nonzero_requested;
	gpointer user_data; /* for the wiring (model node, GPUs, ...) */
	/* Open-Gpu-Share's per-GPU state (cluster_gpushare.h); NULL outside the
	 * research worlds, where no check or score reads it. */
	struct ClusterGpuShareNode *gpushare;
	/* the scheduler's list of nodes touched since its last cycle (cluster_sched_window.c) */
	struct ClusterNodeWatch *watch;
} ClusterNode;

ClusterNode *cluster_node_new(const char *name);
void cluster_node_free(ClusterNode *self);
/* Replaces the value if @key exists. */
void cluster_node_set_label(ClusterNode *self, const char *key, const char *value);
/* Returns: (transfer none) (nullable): the label's value. */
const char *cluster_node_get_label(const ClusterNode *self, const char *key);
/* Returns: TRUE if the label was there (the others keep their order). */
gboolean cluster_node_remove_label(ClusterNode *self, const char *key);
void cluster_node_add_taint(ClusterNode *self,
                            const char *key,
                            const char *value,
                            ClusterTaintEffect effect);
/* Returns: TRUE if a taint with @key and @effect was removed. */
gboolean cluster_node_remove_taint(ClusterNode *self, const char *key, ClusterTaintEffect effect);
/* Call after writing a field directly (allocatable, unschedulable, gpushare). */
void cluster_node_touch(ClusterNode *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterNode, cluster_node_free)

typedef struct {
	char *key;
	ClusterSelectorOp op;
	char **values;  /* NULL-terminated */
	gboolean field; /* matchFields (only metadata.name) instead of matchExpressions */
	gboolean valid; /* FALSE: the term never matches (bad Gt/Lt value, bad field) */
	gint64 number;  /* Gt/Lt operand */
} ClusterRequirement;

typedef struct {
	GArray *requirements; /* ClusterRequirement, ANDed */
} ClusterSelectorTerm;

/**
 * ClusterPod:
 *
 * The scheduler's view of a pod. @requests are the effective pod requests
 * (max(sum of containers, largest init container) + overhead, computed by the
 * caller); @nonzero_requests default to them with 100m cpu / 200 MiB memory
 * where they are zero (pkg/scheduler/util GetNonzeroRequests), for a pod
 * with one container. @has_dra: the pod references ResourceClaims (or a
 * DRA-backed extended resource), so DynamicResources runs.
 */
typedef struct {
	char *name;
	guint64 uid; /* stable identity, also the last tie-break */
	gint32 priority;
	ClusterResources requests;
	ClusterResources nonzero_requests;
	/* NULL = none (made by the first add: most pods have none, issue 19 item 2),
	 * and NULL again once the pod is retired (cluster_pod_drop_placement_rules);
	 * read their lengths with cluster_pod_count() */
	GArray *node_selector; /* ClusterLabel: spec.nodeSelector, ANDed */
	GArray *terms;         /* ClusterSelectorTerm: required node affinity, ORed */
	GArray *tolerations;   /* ClusterToleration */
	gboolean has_dra;
	/* Slots of extended resources backed by a DeviceClass (KEP-5004): where a
	 * node has no allocatable of them, DynamicResources decides, not Fit. */
	guint32 dra_extended;
	gpointer user_data;
	/* Open-Gpu-Share's request (cluster_gpushare.h); NULL: none. */
	const struct ClusterGpuShareReq *gpushare;
	/* Already bound when the run starts (an imported pod with spec.nodeName,
	 * docs/import.md): no scheduler placed it, so NoSchedule taints and a
	 * cordon do not keep it off its node. Only what the kubelet's admission
	 * checks applies: node selector/affinity and resources (GeneralPredicates,
	 * pkg/kubelet/lifecycle/predicate.go). */
	gboolean bound;
} ClusterPod;

ClusterPod *cluster_pod_new(const char *name, guint64 uid);
/* The length of one of a ClusterPod's arrays, NULL for none. */
static inline guint
cluster_pod_count(const GArray *array)
{
	return array != NULL ? array->len : 0;
}
void cluster_pod_free(ClusterPod *self);
void cluster_pod_drop_placement_rules(ClusterPod *self);
/* Sets one request; also recomputes the non-zero request of cpu/memory. */
void cluster_pod_set_request(ClusterPod *self, gint slot, gint64 value);
void cluster_pod_add_node_selector(ClusterPod *self, const char *key, const char *value);
/* Returns: the index of a new, empty required-affinity term. */
guint cluster_pod_add_term(ClusterPod *self);
/**
 * cluster_pod_term_add_requirement:
 * @values: (nullable): NULL-terminated; copied
 * @field: TRUE for matchFields (key must be "metadata.name", op In/NotIn)
 */
void cluster_pod_term_add_requirement(ClusterPod *self,
                                      guint term,
                                      const char *key,
                                      ClusterSelectorOp op,
                                      const char *const *values,
                                      gboolean field);
void cluster_pod_add_toleration(ClusterPod *self,
                                const char *key,
                                ClusterTolerationOp op,
                                const char *value,
                                ClusterTaintEffect effect);
/* The same with tolerationSeconds (only the taint eviction controllers read it). */
void cluster_pod_add_toleration_seconds(ClusterPod *self,
                                        const char *key,
                                        ClusterTolerationOp op,
                                        const char *value,
                                        ClusterTaintEffect effect,
                                        gint64 seconds);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterPod, cluster_pod_free)

/* Draws a uniform integer in [0, n); sim_rng_uniform_int fits. */
typedef guint32 (*ClusterRandFunc)(gpointer rng, guint32 n);
/* Reservoir sampling over @ties items: the draws of ClusterRandFunc(count)
 * for count = 2..ties and the last count that drew 0, else 1;
 * sim_rng_reservoir fits. */
typedef guint32 (*ClusterReservoirFunc)(gpointer rng, guint32 ties);

G_END_DECLS
