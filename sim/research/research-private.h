/*
 * research-private.h: the FGD protocol's workload steps, shared by
 * research_fgd.c and its unit tests.
 */
#pragma once

#include <glib.h>

#include "cluster_gpushare.h"
#include "cluster_plugin.h"
#include "research.h"
#include "research_mig.h"
#include "sim.h"
#include "workload.h"

/*
 * The task mix of FGD's fragment (GetTypicalPods, frag.go): the trace's pods
 * grouped by (CPU, per-GPU milli, GPU count, gpu_spec), the most popular
 * groups kept until they cover 95 % of the pods, popularities renormalised.
 * Sets them on @share. Returns: how many groups were kept.
 */
guint research_fgd__set_tasks(ClusterGpuShare *share, const WorkloadTrace *trace);

/*
 * The order pods are offered in, as trace row indices: sorted by name and
 * shuffled (SortClusterPods with shuffle), then tuned to @ratio × @capacity
 * milli-GPU (TunePodsByNodeTotalResource): pods drawn with replacement from
 * the name-sorted list and appended while the next one fits under the target,
 * or, for a larger list, pods removed at random until it fits.
 * Returns: (transfer full) (element-type guint)
 */
GArray *research_fgd__order(const WorkloadTrace *trace, SimRng *rng, double ratio, gint64 capacity);

/* ------------------------------------------------------------ worlds */

/* One run's world: research_world__setup() applies the config's defaults and checks. */
typedef struct {
	ResearchWorld world;
	guint replicas;   /* time-slicing: replicas per GPU */
	gint64 step;      /* consumable capacity: the request policy's step, milli */
	ResearchMig *mig; /* dra-mig: the MIG model */
} ResearchWorldSetup;

gboolean
research_world__setup(ResearchWorldSetup *setup, const ResearchFgdConfig *config, GError **error);
void research_world__setup_clear(ResearchWorldSetup *setup);

/*
 * A trace pod as one world asks for it. @req is what the GPU filter and the
 * paper's scores see (world units: whole GPUs, rounded capacity); @share
 * what the pod asked for per GPU (the trace's gpu_milli), which arrived and
 * allocated GPU count in every world; @held the milli-GPU it keeps once
 * placed (held − share is stranded).
 */
typedef struct {
	ClusterGpuShareReq req;
	guint32 num_gpu;
	guint32 share;
	guint32 units;  /* time-slicing: replicas asked */
	gint32 profile; /* dra-mig: the MIG profile per GPU, -1 for a full GPU */
	double held;
	/* The world's own GPU filter decides (research_world__dra_ops): always in
	 * time-slicing and dra-mig; in dra-capacity for a pod whose k shares may
	 * stack on one device, where @req (what Open-Gpu-Share's filter and the
	 * paper's scores see) is one share, a condition the stacked fit implies. */
	gboolean world_filter;
} ResearchWorldRequest;

ResearchWorldRequest research_world__request(const ResearchWorldSetup *setup,
                                             guint32 num_gpu,
                                             guint32 milli,
                                             guint32 model_mask);
/* KEP-5075's round-up of a capacity request with validRange {min: step, step: step}. */
guint32 research_world__round_capacity(guint32 milli, gint64 step);

/* research__set_tasks with each task's request in @world's terms (NULL: the trace's). */
guint research_fgd__set_world_tasks(ClusterGpuShare *share,
                                    const WorkloadTrace *trace,
                                    const ResearchWorldSetup *world);

/* ------------------------------------------------- fit and placement (research_world_fit.c) */

/* One node's GPUs beyond Open-Gpu-Share's state: who holds them, and the
 * state of the worlds that have none (replicas taken, MIG instances). */
typedef struct {
	guint32 model, n_gpus;
	guint16 tenants[CLUSTER_GPUSHARE_MAX_GPUS];    /* pods holding a part of each GPU */
	guint16 replicas[CLUSTER_GPUSHARE_MAX_GPUS];   /* time-slicing: replicas taken */
	guint32 free_replicas;                         /* time-slicing: on the node */
	ResearchMigGpu mig[CLUSTER_GPUSHARE_MAX_GPUS]; /* dra-mig: each GPU's instances */
} ResearchWorldNode;

void research_world__node_init(ResearchWorldNode *node,
                               const ResearchWorldSetup *setup,
                               guint32 model,
                               guint32 n_gpus);
/* Worlds whose GPUs are Open-Gpu-Share's per-GPU milli state (node->gpushare). */
gboolean research_world__uses_gpushare(ResearchWorld world);
/* Worlds with FGD's fragment (over that state, with the task mix in the world's terms). */
gboolean research_world__has_frag(ResearchWorld world);
/* The GPU filter of the worlds without Open-Gpu-Share state, as DynamicResources' hooks. */
const ClusterDraOps *research_world__dra_ops(void);
/* Places @pod, scheduled on @node, on GPUs the world's way, and binds it there. */
void research_world__place(const ResearchWorldSetup *setup,
                           ClusterGpuPick policy_pick,
                           ClusterNode *node,
                           const ClusterPod *pod);
/* Pods per GPU over the GPUs that hold at least one: mean and max (0 when none). */
void research_world__cotenants(const ResearchWorldNode *nodes, guint n, double *mean, double *max);
/*
 * The DRA allocator's choice for one request of @num devices asking @milli of
 * capacity each, over devices with @free milli left in slice order: slot by
 * slot the first device with room, counting what earlier slots took, since a
 * multi-allocatable device is never "in use" (model/dra dra_search.c) and may
 * serve two slots. @gpus gets the device per slot. Returns: @num, or 0 when
 * the request does not fit. With equal shares this greedy pass is the
 * allocator's depth-first search's first solution, and fails only when none
 * exists (checked against model/dra by test-research-world-dra).
 */
#define RESEARCH_MAX_SLOTS 1024 /* the trace's largest num_gpu */
guint research_world__capacity_first_fit(
        const gint32 *free, guint n_gpus, guint32 num, guint32 milli, guint *gpus);
/*
 * The same choice by the allocator of Kubernetes 1.34.x, whose capacity
 * re-check reads the device at the slot's index in the slice instead of the
 * candidate (kubernetes#133705; model/dra's quirk
 * capacity_recheck_by_request_index). Slot j then needs room on its candidate
 * and on device j. Slot j's first device with room is at most j, so no slot
 * takes from a later slot's device: @num fits iff @num <= @n_gpus (slot n
 * would read past the slice: an index error) and every device below @num has
 * @milli free; the devices are then research_world__capacity_first_fit's,
 * the depth-first search's first branch. A one-GPU claim fits only on GPU 0.
 */
guint research_world__capacity_fit_134(
        const gint32 *free, guint n_gpus, guint32 num, guint32 milli, guint *gpus);
/*
 * The NVIDIA device plugin's choice of @units replicas on a time-sliced node
 * with @taken replicas taken per GPU of @per_gpu: replica by replica the GPU
 * with the fewest taken, then the fewest taken by this pod, then the lowest
 * index. Adds them to @taken and sets @picked[g] to this pod's replicas on g.
 */
void research_world__replicas_pick(
        guint16 *taken, guint n_gpus, guint per_gpu, guint units, guint16 *picked);
