/*
 * cluster_dra-private.h: the state of the DynamicResources adapter, shared by
 * cluster_dra.c and cluster_dra_ext.c only.
 */
#pragma once

#include "cluster-private.h"
#include "cluster_dra.h"
#include "dra_k8s.h"

typedef struct {
	char *driver;
	char *pool;
	char *device;
	char *request; /* "req" or "req/sub": whose tolerations apply (device taints) */
	/* how the allocator's state holds it (dra_allocator_commit): an
	 * admin-access result blocks nobody; a result with a shareID is one share
	 * of a multi-allocatable device, with the capacity it consumed */
	gboolean admin_access;
	gboolean shared;
	DraConsumed *consumed; /* names interned */
	guint n_consumed;
} DevRef;

typedef struct {
	char *node;      /* NULL: usable on every node */
	GArray *devices; /* DevRef */
	/* the node it was made on (ClusterNodes outlive every claim): whose
	 * per-GPU state the devices are (cluster_dra_gpushare.c) */
	const ClusterNode *on;
} ClaimAlloc;

typedef struct {
	const char *namespace_;
	const K8sPodSpec *spec;
	/* "driver/pool/device" of the allocated devices of its last placement
	 * that are not compute devices (NICs, ...); NULL until it has one */
	GPtrArray *other_devices;
} PodRef;

/* ClusterNodes live until the simulation ends: node and name pointers identify one. */
typedef struct {
	const ClusterNode *node;
	const char *name;
	DraNodeRef ref;
} NodeRef;

struct ClusterDra {
	DraFeatures features;
	DraCel *cel;
	DraAllocator *alloc;
	DraInput *input;
	GPtrArray *converted; /* const DraSlice *, waiting for cluster_dra_add_converted_slices */
	ClusterSim *sim;
	GHashTable *classes;   /* name -> K8sDeviceClass *, lookups only */
	GHashTable *templates; /* "ns/name" -> K8sResourceClaimTemplate *, lookups only */
	/* "ns/name" -> the template's DraClaim (in input's arena, no name): every
	 * claim generated from it shares its requests, constraints and config */
	GHashTable *template_claims;
	GHashTable *node_devices;  /* node name -> GPtrArray of device names, lookups only */
	GHashTable *renamed;       /* node name -> GArray of RenamedDevice (pool republish) */
	GArray *pods;              /* PodRef, by pod index */
	GPtrArray *pending;        /* per cycle: const DraClaim * to allocate */
	GPtrArray *pending_claims; /* per cycle: their ClusterClaim * */
	GPtrArray *allocated;      /* per cycle: the pod's allocated ClusterClaim * */
	GPtrArray *label_keys;     /* scratch for the DraNode of a filter call */
	GPtrArray *label_values;
	GString *template_key; /* scratch "namespace/name" of a claim's template (claim_spec) */
	const ClusterNode *labels_node; /* the node of the current allocator call */
	GArray *node_refs; /* NodeRef by ClusterNode.index: the allocator's per-node state */
	/* the last reason; a fixed buffer, so reasons handed out never dangle */
	char message[256];
	/* DRAExtendedResource (KEP-5004) */
	gboolean extended;
	ClusterResNames *names;  /* borrowed */
	GHashTable *ext_classes; /* extended resource name -> class name, lookups only */
	gboolean has_special;    /* this cycle: pending's last entry is the special claim */
	DraClaim special;
	DraRequest special_requests[CLUSTER_RES_MAX];
	char special_names[CLUSTER_RES_MAX][24];
	ClusterClaim *special_claim; /* made real at Reserve */
	/* cluster_dra_taint.c: EvictingRule, the NoExecute rules now (NULL until one) */
	GArray *evicting;
	/* cluster_dra_held.c: scratch, DevRef * -> the claim holding it */
	GHashTable *held;
	/* cluster_dra_class.c: nodes whose dra_sig may have moved, and the
	 * allocator's change count when the signatures were last made current */
	GPtrArray *sig_dirty; /* ClusterNode * */
	gboolean sig_all;     /* every node's */
	guint64 sig_synced;
};

/* cluster_dra_taint.c: a pod was bound (ClusterDraOps.bound) */
void cluster_dra__taint_bound(gpointer data, const ClusterPod *pod);

/* cluster_dra_ext.c: extended resources backed by a DeviceClass (KEP-5004) */
void cluster_dra__ext_add_class(ClusterDra *self, const K8sDeviceClass *klass);
void cluster_dra__ext_prefilter(ClusterDra *self, const ClusterPod *pod);
gboolean
cluster_dra__ext_node_has_plugin(ClusterDra *self, const ClusterPod *pod, const ClusterNode *node);
DraOutcome cluster_dra__ext_allocate_without(ClusterDra *self, const DraNode *node);
void cluster_dra__ext_restore(ClusterDra *self);
void cluster_dra__ext_mark_pod(ClusterDra *self, ClusterPod *pod);
ClusterClaim *cluster_dra__ext_materialize(ClusterDra *self, const ClusterPod *pod);

/* cluster_dra.c, for the other parts of the wiring */
DraNode cluster_dra__dra_node(ClusterDra *self, const ClusterNode *node);
DraNodeRef *cluster_dra__node_ref(ClusterDra *self, const ClusterNode *node);
ClusterStatus cluster_dra__filter(gpointer data,
                                  const ClusterPod *pod,
                                  const ClusterNode *node,
                                  gboolean *allocator_called,
                                  const char **reason);

/* cluster_dra_class.c: DynamicResources answered once per class (ClusterNode.dra_sig) */
/* Around a change of the allocated state on @node (NULL: unknown node). */
void cluster_dra__sig_before_change(ClusterDra *self);
void cluster_dra__sig_after_change(ClusterDra *self, const ClusterNode *node);
/* Makes every node's dra_sig current (PreFilter, before the nodes are filtered). */
void cluster_dra__sig_refresh(ClusterDra *self);
gboolean cluster_dra__class_invariant(gpointer data, const ClusterPod *pod);
ClusterStatus cluster_dra__filter_shared(gpointer data,
                                         const ClusterPod *pod,
                                         const ClusterNode *node,
                                         gboolean *allocator_called,
                                         const char **reason,
                                         guint *answer);
void cluster_dra__add_answer(gpointer data, guint answer, guint64 times);

/* cluster_dra_held.c: the invariant "devices held = claims allocated" */
gboolean cluster_dra__check_held(gpointer data, char **what);

/* cluster_dra_gpushare.c: the FGD paper's per-GPU state follows the claims */
/* The index in the node's compute device table of @device, by its name or a
 * name it was published under later (cluster_dra_rename_node_device). */
gboolean cluster_dra__node_device_index(ClusterDra *self,
                                        const char *node,
                                        const char *device,
                                        guint *index);
void cluster_dra__gpushare_held(ClusterDra *self, const ClaimAlloc *a, gboolean held);
