/*
 * cluster_gpushare.h: the extended world's milli-GPU sharing as Alibaba's
 * Open-Gpu-Share scheduler plugin models it, the one the FGD paper's simulator
 * runs (hkust-adsl/kubernetes-scheduler-simulator, pkg/type/open-gpu-share and
 * pkg/simulator/plugin/open_gpu_share.go): every GPU has a free milli-GPU
 * count (1000 when idle); a fractional pod (one GPU, gpu_milli < 1000) goes on
 * one GPU with enough free milli; a pod of k whole GPUs takes k idle GPUs. A
 * pod may be limited to GPU models (a bit mask of model indices).
 *
 * Also the FGD fragmentation measure over a task mix ("typical pods",
 * pkg/utils/frag.go), memoised by node state, and the score policies of the
 * paper built on it (cluster_score_gpushare.c), registered by name in
 * cluster_score_policy.c. These are research policies, beyond production.
 *
 * Plain values: a node carries a ClusterGpuShareNode, a pod points to a
 * ClusterGpuShareReq; the cluster-wide context (task mix, memo, largest node
 * spec, the random stream) is the opaque ClusterGpuShare every node names.
 */
#pragma once

#include <glib.h>

#include "cluster_types.h"

G_BEGIN_DECLS

#define CLUSTER_GPUSHARE_MILLI    1000 /* gpushareutils.MILLI: one whole GPU */
#define CLUSTER_GPUSHARE_MAX_GPUS 8    /* the memo key holds eight GPUs */
#define CLUSTER_GPUSHARE_CLASSES  (CLUSTER_GPUSHARE_MAX_GPUS + 1)

typedef struct ClusterGpuShare ClusterGpuShare;

/* A pod's GPU request. model_mask 0: any model. num_gpu 0: a CPU-only pod. */
typedef struct ClusterGpuShareReq {
	guint32 num_gpu;
	guint32 gpu_milli; /* per GPU: < 1000 only with num_gpu == 1 */
	guint32 model_mask;
} ClusterGpuShareReq;

/* One node's GPUs. Change it only through cluster_gpushare_bind(). */
typedef struct ClusterGpuShareNode {
	ClusterGpuShare *share; /* (transfer none) the cluster-wide context */
	guint32 model;          /* bit index into pods' model masks */
	guint32 n_gpus;
	gint32 free[CLUSTER_GPUSHARE_MAX_GPUS]; /* milli-GPU free per GPU index */
	/* GpuClustering's "affinity": GPU pods bound per class (0 = fractional,
	 * k = k whole GPUs) and how many classes are present. */
	guint32 affinity[CLUSTER_GPUSHARE_CLASSES];
	guint32 n_affinity;
	/* FGD: the fragment of the current state, valid until the next bind */
	double frag;
	gboolean frag_valid;
	/* A scenario's extended world (cluster_gpushare_node_track_whole): the
	 * GPUs are whole devices counted in resource slot @whole_res, and the
	 * scheduler's assume / release keep @free in step with that count. */
	gboolean whole;
	guint whole_res;
	/* A scenario's DRA world (cluster_gpushare_node_track_devices): GPU i is
	 * the node's i-th compute device, and DynamicResources' allocation and
	 * deallocation of a claim set @free (cluster_dra_gpushare.c). */
	gboolean devices;
} ClusterGpuShareNode;

/* How a policy picks GPUs inside the chosen node (Open-Gpu-Share's gpuSelMethod). */
typedef enum {
	CLUSTER_GPU_PICK_BEST, /* the fitting GPU with the least free milli, first index on ties */
	CLUSTER_GPU_PICK_RANDOM, /* a fitting GPU uniformly at random */
	CLUSTER_GPU_PICK_FGD,    /* the GPU whose use grows the fragment least */
} ClusterGpuPick;

/* One task shape of the mix and its popularity (sums to 1 over the mix). */
typedef struct {
	gint64 cpu_milli;
	ClusterGpuShareReq req;
	double p;
} ClusterGpuShareTask;

/*
 * @max_cpu_milli, @max_gpu_milli: the largest node spec, which DotProd,
 * BestFit and GpuClustering normalise by (gpushareutils.MaxSpecCpu = 128000,
 * MaxSpecGpu = 8000 upstream, the largest openb node). @rand draws for the
 * Random policy and the random GPU pick.
 */
ClusterGpuShare *cluster_gpushare_new(gint64 max_cpu_milli,
                                      gint64 max_gpu_milli,
                                      ClusterRandFunc rand,
                                      gpointer rand_data);
void cluster_gpushare_free(ClusterGpuShare *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterGpuShare, cluster_gpushare_free)

/* Replaces the task mix (copied) and empties the memo. */
void cluster_gpushare_set_tasks(ClusterGpuShare *self, const ClusterGpuShareTask *tasks, guint n);
gint64 cluster_gpushare_get_max_cpu(const ClusterGpuShare *self);
gint64 cluster_gpushare_get_max_gpu(const ClusterGpuShare *self);
guint32 cluster_gpushare_rand(ClusterGpuShare *self, guint32 n);
/* Memo statistics: lookups and misses (each miss computed the fragment once). */
void
cluster_gpushare_get_memo_stats(const ClusterGpuShare *self, guint64 *lookups, guint64 *misses);

/* An idle node of @n_gpus GPUs (at most CLUSTER_GPUSHARE_MAX_GPUS) of @model. */
void cluster_gpushare_node_init(ClusterGpuShareNode *node,
                                ClusterGpuShare *share,
                                guint32 model,
                                guint32 n_gpus);
guint32 cluster_gpushare_node_free_total(const ClusterGpuShareNode *node);
guint32 cluster_gpushare_node_fully_free(const ClusterGpuShareNode *node);

/* Open-Gpu-Share's Filter: model allowed and enough GPUs with enough free milli. */
gboolean cluster_gpushare_fits(const ClusterGpuShareNode *node, const ClusterGpuShareReq *req);

/*
 * FGD's node fragment F_n(M) (NodeGpuShareFragAmountScore) for a node with
 * @cpu_left free milli-CPU and free GPUs @free[0..n), memoised by the state
 * (model, which task CPU sizes fit, the sorted free list).
 */
double cluster_gpushare_frag(
        ClusterGpuShare *self, guint32 model, gint64 cpu_left, const gint32 *free, guint32 n_gpus);
/* The same for @node as it is now (cached on the node until the next bind). */
double cluster_gpushare_node_frag(const ClusterNode *node);

/* Free milli-CPU as Open-Gpu-Share sees it: allocatable minus requested. */
gint64 cluster_gpushare_cpu_left(const ClusterNode *node);
/* The pod's milli-CPU request as GetPodResource reads it (the non-zero request). */
gint64 cluster_gpushare_cpu_request(const ClusterPod *pod);

/*
 * FGD's score of @pod on @node (0..100, sigmoid of the fragment decrease),
 * and in @gpu the GPU it would use for a fractional pod (-1 otherwise).
 */
gint64 cluster_gpushare_fgd_score(const ClusterPod *pod, const ClusterNode *node, gint *gpu);

/*
 * Picks the GPUs for @pod on @node with @how into @gpus (room for
 * CLUSTER_GPUSHARE_MAX_GPUS). A multi-GPU or whole-GPU pod always takes the
 * idle GPUs of lowest index (AllocateExclusiveGpuId).
 * Returns: how many GPUs were picked (0 when the pod asks for none or none fits).
 */
guint cluster_gpushare_pick(ClusterGpuPick how,
                            const ClusterPod *pod,
                            const ClusterNode *node,
                            guint *gpus);
/* Takes the pod's milli from @gpus and counts its class; invalidates the cached fragment. */
void cluster_gpushare_bind(ClusterNode *node, const ClusterPod *pod, const guint *gpus, guint n);

/*
 * A scenario's extended world: @node's GPUs are the whole devices the device
 * plugin advertises in resource slot @slot (nvidia.com/gpu), and from now on
 * cluster_sched_assume() / cluster_sched_release() keep the node's per-GPU
 * state in step through cluster_gpushare_node_sync(). Whole GPUs are idle or
 * taken, and every score of the paper reads only how many are idle (the
 * fragment sorts the free list), so the state is derived from the node's
 * allocatable minus requested count of @slot: no per-device record.
 */
void cluster_gpushare_node_track_whole(ClusterGpuShareNode *g, guint slot);
/*
 * A scenario's DRA world: @g's GPUs are the node's compute devices, whole and
 * exclusive (drasim's NVIDIA driver publishes no allowMultipleAllocations
 * GPU), and DynamicResources keeps @free in step with the claims' allocations
 * through cluster_gpushare_node_set_held(); the scheduler's assume / release
 * keep GpuClustering's counts and the cached fragment.
 */
void cluster_gpushare_node_track_devices(ClusterGpuShareNode *g);
/*
 * GPU @index of @g is now held by an allocated claim (@held) or free again:
 * its free milli becomes 0 or a whole GPU, and the cached fragment is
 * invalidated. Out-of-range indexes are ignored. Allocates nothing.
 */
void cluster_gpushare_node_set_held(ClusterGpuShareNode *g, guint index, gboolean held);
/*
 * After the scheduler added (@delta 1) or removed (@delta -1) @pod's requests
 * on @node: nothing unless the node tracks whole GPUs; then its free list,
 * GpuClustering's class counts and the cached fragment follow. Allocates nothing.
 */
void cluster_gpushare_node_sync(ClusterNode *node, const ClusterPod *pod, gint delta);

/*
 * The cut alone, for @shapes already in the caller's order (the FGD protocol
 * orders equal counts by the trace's own shape): the most popular first until
 * 95 % of the pods are covered, renormalised. Returns: how many were kept.
 */
guint
cluster_gpushare_keep_popular_tasks(ClusterGpuShare *self, ClusterGpuShareTask *shapes, guint n);

/*
 * FGD's task mix from a workload's pod shapes (GetTypicalPods,
 * pkg/utils/frag.go): @shapes holds one task per distinct shape with its pod
 * count in .p; they are sorted most popular first (ties by CPU, milli, GPU
 * count, model mask) and kept whole until at least 95 % of the pods are
 * covered, each then with its share of the kept pods. Sorts @shapes in place.
 * Returns: the number of tasks kept.
 */
guint
cluster_gpushare_set_popular_tasks(ClusterGpuShare *self, ClusterGpuShareTask *shapes, guint n);

/* The paper's score plugins (cluster_score_gpushare.c), weight 1, each alone in its profile. */
struct ClusterScorePlugin;
/* How the named score policy picks GPUs (cluster_score_policy.c); FALSE for an unknown name. */
gboolean cluster_sched_score_policy_gpu_pick(const char *name, ClusterGpuPick *pick);
struct ClusterScorePlugin *cluster_score_gpushare_random_new(void);
struct ClusterScorePlugin *cluster_score_gpushare_dotprod_new(void);
struct ClusterScorePlugin *cluster_score_gpushare_clustering_new(void);
struct ClusterScorePlugin *cluster_score_gpushare_packing_new(void);
struct ClusterScorePlugin *cluster_score_gpushare_bestfit_new(void);
struct ClusterScorePlugin *cluster_score_gpushare_fgd_new(void);

G_END_DECLS
