/*
 * research_world_fit.c: where a pod of the FGD protocol fits and which GPUs
 * it lands on, per world (research.h). The worlds with a per-GPU milli state
 * (gpushare, whole, dra-capacity(-pick, -1.34)) keep Open-Gpu-Share's
 * node state, so sim/cluster's filter and the paper's scores read it; the
 * others (time-slicing, dra-mig) keep their own state here and reach the
 * scheduler's filter through DynamicResources' hooks (ClusterDraOps), as a
 * plugin outside the node-local filters would. Placement happens once the
 * scheduler chose the node: the policy's GPU choice, the DRA allocator's first
 * fit or the device plugin's choice, each cited where it is done.
 */
#include <string.h>

#include "cluster_sched.h"
#include "research-private.h"

gboolean
research_world__uses_gpushare(ResearchWorld world)
{
	return world != RESEARCH_WORLD_TIME_SLICING && world != RESEARCH_WORLD_DRA_MIG;
}

/*
 * The fragment needs a per-GPU free amount that the typical pods' requests
 * are compared with. Time-slicing has none the scheduler sees (a count of
 * replicas; which GPU they are on is decided after binding), and a MIG GPU's
 * free room is a set of placements: no fragment in either.
 */
gboolean
research_world__has_frag(ResearchWorld world)
{
	/*
	 * dra-capacity-1.34 keeps per-GPU free milli, but FGD's fragment counts a
	 * GPU's free milli as usable by every task whose share it covers, and in
	 * 1.34.x only GPUs 0..k-1 serve a claim of k (a node whose GPU 0 is short
	 * takes nothing): the number would call stranded GPU usable. No fragment.
	 */
	return research_world__uses_gpushare(world) && world != RESEARCH_WORLD_DRA_CAPACITY_134;
}

void
research_world__node_init(ResearchWorldNode *node,
                          const ResearchWorldSetup *setup,
                          guint32 model,
                          guint32 n_gpus)
{
	*node = (ResearchWorldNode){ .model = model,
		                     .n_gpus = MIN(n_gpus, CLUSTER_GPUSHARE_MAX_GPUS) };
	node->free_replicas = node->n_gpus * setup->replicas;
}

/* ------------------------------------------------------- device choices */

guint
research_world__capacity_first_fit(
        const gint32 *free, guint n_gpus, guint32 num, guint32 milli, guint *gpus)
{
	gint32 left[CLUSTER_GPUSHARE_MAX_GPUS];

	n_gpus = MIN(n_gpus, CLUSTER_GPUSHARE_MAX_GPUS);
	if (num > RESEARCH_MAX_SLOTS || milli == 0)
		return 0;
	memcpy(left, free, n_gpus * sizeof(gint32));
	for (guint slot = 0; slot < num; slot++) {
		guint i = 0;

		while (i < n_gpus && left[i] < (gint32)milli)
			i++;
		if (i == n_gpus)
			return 0;
		left[i] -= (gint32)milli;
		gpus[slot] = i;
	}
	return num;
}

/* The derivation is in research-private.h; test-research-world-dra checks it against model/dra. */
guint
research_world__capacity_fit_134(
        const gint32 *free, guint n_gpus, guint32 num, guint32 milli, guint *gpus)
{
	n_gpus = MIN(n_gpus, CLUSTER_GPUSHARE_MAX_GPUS);
	if (num > n_gpus || milli == 0)
		return 0;
	for (guint j = 0; j < num; j++) {
		if (free[j] < (gint32)milli)
			return 0;
	}
	return research_world__capacity_first_fit(free, n_gpus, num, milli, gpus);
}

/*
 * NVIDIA/k8s-device-plugin internal/rm/allocate.go, the default
 * "distributed" policy of GetPreferredAllocation for replicated (time-sliced)
 * GPUs: greedily, the GPU with the fewest replicas allocated (those of this
 * pod included), ties to the GPU this pod has taken fewest from. Its last tie
 * falls to Go's map order; drasim takes the lowest index, to stay deterministic.
 */
void
research_world__replicas_pick(
        guint16 *taken, guint n_gpus, guint per_gpu, guint units, guint16 *picked)
{
	memset(picked, 0, n_gpus * sizeof(guint16));
	for (guint u = 0; u < units; u++) {
		gint best = -1;

		for (guint g = 0; g < n_gpus; g++) {
			if (taken[g] >= per_gpu)
				continue;
			if (best < 0 || taken[g] < taken[best] ||
			    (taken[g] == taken[best] && picked[g] < picked[best]))
				best = (gint)g;
		}
		if (best < 0)
			return; /* the filter checked the node's count: not reached */
		taken[best]++;
		picked[best]++;
	}
}

/* ------------------------------------------------------------ placement */

static void
count_tenants(ResearchWorldNode *wn, const guint *gpus, guint n)
{
	guint32 seen = 0;

	for (guint i = 0; i < n; i++) {
		if (!(seen & (1u << gpus[i])))
			wn->tenants[gpus[i]]++;
		seen |= 1u << gpus[i];
	}
}

/*
 * The GPUs of a pod in a world with Open-Gpu-Share's state. gpushare: the
 * policy's choice (Open-Gpu-Share's gpuSelMethod). whole: the kubelet's device
 * manager takes idle GPUs the device plugin prefers; every idle GPU is alike
 * (1000 free), so which one changes no figure: the lowest index.
 * dra-capacity: the allocator's first fit. dra-capacity-pick: the policy's
 * choice for a share of one GPU, first fit (which Open-Gpu-Share's
 * AllocateExclusiveGpuId also is) for whole GPUs. dra-capacity-1.34: the
 * 1.34.x allocator's choice, the same first fit where it fits.
 */
static guint
pick_gpus(const ResearchWorldSetup *setup,
          ClusterGpuPick policy_pick,
          const ClusterNode *node,
          const ClusterPod *pod,
          guint *gpus)
{
	const ClusterGpuShareReq *req = pod->gpushare;
	const ResearchWorldRequest *r = pod->user_data;
	gboolean fractional = r->num_gpu == 1 && req->gpu_milli < CLUSTER_GPUSHARE_MILLI;

	switch (setup->world) {
	case RESEARCH_WORLD_GPUSHARE:
		return cluster_gpushare_pick(policy_pick, pod, node, gpus);
	case RESEARCH_WORLD_WHOLE:
		return cluster_gpushare_pick(CLUSTER_GPU_PICK_BEST, pod, node, gpus);
	case RESEARCH_WORLD_DRA_CAPACITY_PICK:
		if (fractional)
			return cluster_gpushare_pick(policy_pick, pod, node, gpus);
		/* fall through */
	case RESEARCH_WORLD_DRA_CAPACITY:
		return research_world__capacity_first_fit(node->gpushare->free,
		                                          node->gpushare->n_gpus, r->num_gpu,
		                                          req->gpu_milli, gpus);
	default: /* dra-capacity-1.34: its filter said it fits */
		return research_world__capacity_fit_134(node->gpushare->free,
		                                        node->gpushare->n_gpus, r->num_gpu,
		                                        req->gpu_milli, gpus);
	}
}

/*
 * dra-mig: num_gpu devices of the pod's profile, each where the allocator's
 * first fit puts it (research_mig.h) after the ones before. On @gpus itself,
 * or on a copy to ask whether it fits. @tenants: (nullable) instances per GPU.
 */
static gboolean
mig_place(const ResearchMig *mig,
          ResearchMigGpu *gpus,
          guint n_gpus,
          const ResearchWorldRequest *r,
          guint16 *tenants)
{
	for (guint slot = 0; slot < r->num_gpu; slot++) {
		guint gpu, start;

		if (!research_mig_first_fit(mig, gpus, n_gpus, r->profile, &gpu, &start))
			return FALSE;
		research_mig_take(mig, &gpus[gpu], r->profile, start);
		if (tenants != NULL)
			tenants[gpu]++;
	}
	return TRUE;
}

static gboolean
mig_fits(const ResearchMig *mig, const ResearchWorldNode *wn, const ResearchWorldRequest *r)
{
	ResearchMigGpu scratch[CLUSTER_GPUSHARE_MAX_GPUS];
	guint gpu, start;

	if (r->num_gpu == 1) /* the common case: no copy */
		return research_mig_first_fit(mig, wn->mig, wn->n_gpus, r->profile, &gpu, &start);
	memcpy(scratch, wn->mig, wn->n_gpus * sizeof(ResearchMigGpu));
	return mig_place(mig, scratch, wn->n_gpus, r, NULL);
}

static void
place_replicas(const ResearchWorldSetup *setup, ResearchWorldNode *wn, guint units)
{
	guint16 picked[CLUSTER_GPUSHARE_MAX_GPUS];

	research_world__replicas_pick(wn->replicas, wn->n_gpus, setup->replicas, units, picked);
	wn->free_replicas -= units;
	for (guint g = 0; g < wn->n_gpus; g++)
		wn->tenants[g] += picked[g] > 0;
}

void
research_world__place(const ResearchWorldSetup *setup,
                      ClusterGpuPick policy_pick,
                      ClusterNode *node,
                      const ClusterPod *pod)
{
	ResearchWorldNode *wn = node->user_data;
	const ResearchWorldRequest *r = pod->user_data;
	guint gpus[RESEARCH_MAX_SLOTS];
	guint n;

	if (research_world__uses_gpushare(setup->world)) {
		n = r->num_gpu > 0 ? pick_gpus(setup, policy_pick, node, pod, gpus) : 0;
		cluster_gpushare_bind(node, pod, gpus, n);
		count_tenants(wn, gpus, n);
		return;
	}
	if (r->num_gpu == 0)
		return;
	if (setup->world == RESEARCH_WORLD_TIME_SLICING)
		place_replicas(setup, wn, r->units);
	else
		mig_place(setup->mig, wn->mig, wn->n_gpus, r, wn->tenants);
}

void
research_world__cotenants(const ResearchWorldNode *nodes, guint n, double *mean, double *max)
{
	guint64 pods = 0, gpus = 0;
	guint most = 0;

	for (guint i = 0; i < n; i++) {
		for (guint g = 0; g < nodes[i].n_gpus; g++) {
			if (nodes[i].tenants[g] == 0)
				continue;
			pods += nodes[i].tenants[g];
			gpus++;
			most = MAX(most, nodes[i].tenants[g]);
		}
	}
	*mean = gpus > 0 ? (double)pods / (double)gpus : 0.0;
	*max = most;
}

/* ------------------------------------------- the filter as DynamicResources */

static ClusterStatus
world_prefilter(gpointer data, const ClusterPod *pod, const char **reason)
{
	return CLUSTER_STATUS_SUCCESS;
}

static gboolean
model_allowed(guint32 model, guint32 mask)
{
	return mask == 0 || (model < 32 && (mask & (1u << model)) != 0);
}

static ClusterStatus
world_filter(gpointer data,
             const ClusterPod *pod,
             const ClusterNode *node,
             gboolean *allocator_called,
             const char **reason)
{
	const ResearchWorldSetup *setup = data;
	const ResearchWorldNode *wn = node->user_data;
	const ResearchWorldRequest *r = pod->user_data;
	gboolean fits = FALSE;

	*allocator_called = setup->world == RESEARCH_WORLD_DRA_MIG;
	if (!model_allowed(wn->model, r->req.model_mask)) {
		*reason = "GPU model not allowed";
		return CLUSTER_STATUS_UNSCHEDULABLE;
	}
	if (setup->world == RESEARCH_WORLD_TIME_SLICING) {
		/* NodeResourcesFit on the count of nvidia.com/gpu replicas */
		fits = wn->free_replicas >= r->units;
	} else if (setup->world == RESEARCH_WORLD_DRA_MIG) {
		fits = mig_fits(setup->mig, wn, r);
	} else {
		/* dra-capacity(-1.34), k shares that may stack: the allocator's own answer */
		guint gpus[RESEARCH_MAX_SLOTS];
		guint (*fit)(const gint32 *, guint, guint32, guint32, guint *) =
		        setup->world == RESEARCH_WORLD_DRA_CAPACITY_134
		                ? research_world__capacity_fit_134
		                : research_world__capacity_first_fit;

		fits = fit(node->gpushare->free, node->gpushare->n_gpus, r->num_gpu,
		           r->req.gpu_milli, gpus) > 0;
	}
	if (fits)
		return CLUSTER_STATUS_SUCCESS;
	*reason = "Insufficient GPU";
	return CLUSTER_STATUS_UNSCHEDULABLE;
}

static gboolean
world_reserve(gpointer data, const ClusterPod *pod, const ClusterNode *node)
{
	return TRUE;
}

static void
world_unreserve(gpointer data, const ClusterPod *pod, const ClusterNode *node)
{
}

static const ClusterDraOps world_ops = {
	.prefilter = world_prefilter,
	.filter = world_filter,
	.reserve = world_reserve,
	.unreserve = world_unreserve,
};

const ClusterDraOps *
research_world__dra_ops(void)
{
	return &world_ops;
}
