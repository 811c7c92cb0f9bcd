/*
 * research_world.c: the worlds the FGD protocol runs in (research.h,
 * issue 15 item 4): their names and what each means for isolation and
 * for who picks the GPU, which policies each refuses and why, and how a
 * trace pod's GPU share becomes the request of that world
 * (research_world__request). The fit and the device choice of each world
 * are in research_world_fit.c.
 */
#include <math.h>
#include <string.h>

#include "cluster_sched.h"
#include "research-private.h"
#include "research.h"

/*
 * Reads better whole: one row per world, in ResearchWorld order. The titles
 * say what the world's request is; the production ones name their source.
 */
static const ResearchWorldInfo world_info[RESEARCH_N_WORLDS] = {
	{ "gpushare",
	  "Open-Gpu-Share milli-GPU (the paper's world): a pod's share on one GPU, the policy "
	  "picks the GPU",
	  "policy", TRUE, FALSE },
	{ "whole",
	  "extended resource nvidia.com/gpu: a pod takes whole GPUs, a fractional pod a whole one",
	  "device-plugin", FALSE, TRUE },
	{ "time-slicing",
	  "device plugin time-slicing: each GPU advertised as R replicas, a pod asks "
	  "ceil(share x R) of them",
	  "device-plugin", FALSE, FALSE },
	{ "dra-capacity",
	  "DRA consumable capacity (KEP-5075, alpha in 1.34): a share of a multi-allocatable GPU, "
	  "the allocator's first fit as fixed by kubernetes#133706 (Kubernetes 1.35+); "
	  "dra-capacity-1.34 is 1.34.x as shipped",
	  "first-fit", FALSE, FALSE },
	{ "dra-capacity-pick",
	  "DRA consumable capacity with the policy's own GPU choice (beyond production)", "policy",
	  TRUE, FALSE },
	{ "dra-mig",
	  "DRA dynamic MIG (what-if: the trace's GPUs are not MIG-capable; the MIG model's "
	  "geometry): the smallest profile covering the share, the allocator's first fit",
	  "first-fit", FALSE, TRUE },
	{ "dra-capacity-1.34",
	  "DRA consumable capacity with the allocator of Kubernetes 1.34.x as shipped "
	  "(kubernetes#133705: the capacity re-check reads the device at the request's index, "
	  "so a claim's i-th GPU fits only while GPU i has room)",
	  "first-fit", FALSE, FALSE },
};

static const char *const world_names[RESEARCH_N_WORLDS + 1] = {
	"gpushare",          "whole",   "time-slicing",      "dra-capacity",
	"dra-capacity-pick", "dra-mig", "dra-capacity-1.34", NULL,
};

const ResearchWorldInfo *
research_world_info(ResearchWorld world)
{
	return world < RESEARCH_N_WORLDS ? &world_info[world] : NULL;
}

const char *const *
research_world_names(void)
{
	return world_names;
}

gboolean
research_world_parse(const char *name, ResearchWorld *out)
{
	for (guint i = 0; name != NULL && i < RESEARCH_N_WORLDS; i++) {
		if (strcmp(world_names[i], name) == 0) {
			*out = (ResearchWorld)i;
			return TRUE;
		}
	}
	return FALSE;
}

/* ------------------------------------------------------------ policies */

#define MAX_POLICIES 32

/* The scheduler's table (cluster_score_policy.c) read twice: the paper's first. */
static gpointer
build_policy_names(gpointer unused)
{
	static const char *names[MAX_POLICIES + 1];
	const char *const *all = cluster_sched_score_policy_names();
	guint n = 0;

	for (guint pass = 0; pass < 2; pass++) {
		for (guint i = 0; all[i] != NULL && n < MAX_POLICIES; i++) {
			if (cluster_sched_score_policy_needs_gpushare(all[i]) == (pass == 0))
				names[n++] = all[i];
		}
	}
	names[n] = NULL;
	return names;
}

const char *const *
research_policy_names(void)
{
	static GOnce once = G_ONCE_INIT;

	return g_once(&once, build_policy_names, NULL);
}

gboolean
research_policy_beyond_production(const char *policy)
{
	return policy != NULL && cluster_sched_score_policy_needs_gpushare(policy);
}

const char *
research_world_refuses(ResearchWorld world, const char *policy)
{
	if (!research_policy_beyond_production(policy))
		return NULL;
	if (world == RESEARCH_WORLD_TIME_SLICING)
		return "the paper's policies score each GPU's free share, and under time-slicing "
		       "the "
		       "scheduler sees only a node's count of nvidia.com/gpu replicas; which GPU "
		       "holds them is the device plugin's choice after binding";
	if (world == RESEARCH_WORLD_DRA_MIG)
		return "the paper's policies score each GPU's free milli-GPU, and a MIG GPU's free "
		       "room is a set of profile placements, not an amount";
	return NULL;
}

/* ------------------------------------------------------------ requests */

/*
 * The world's defaults. Time-slicing: 10 replicas a GPU, the example of the
 * NVIDIA device plugin's README (sharing.timeSlicing.resources[].replicas:
 * 10); tenths of a GPU, so a 0.47 pod asks 5 replicas and holds 0.5.
 * Consumable capacity: a step of 10 milli, one per cent of the GPU, the
 * granularity MPS's CUDA_MPS_ACTIVE_THREAD_PERCENTAGE offers; the openb
 * shares are multiples of 10, so by default nothing rounds.
 */
#define DEFAULT_REPLICAS      10
#define DEFAULT_CAPACITY_STEP 10
#define MAX_REPLICAS          1000

gboolean
research_world__setup(ResearchWorldSetup *setup, const ResearchFgdConfig *config, GError **error)
{
	*setup = (ResearchWorldSetup){ .world = config->world };
	if (config->world >= RESEARCH_N_WORLDS) {
		g_set_error(error, RESEARCH_FGD_ERROR, 0,
		            "world %d: not one of the protocol's worlds", (gint)config->world);
		return FALSE;
	}
	setup->replicas = config->replicas > 0 ? config->replicas : DEFAULT_REPLICAS;
	setup->step = config->capacity_step > 0 ? config->capacity_step : DEFAULT_CAPACITY_STEP;
	if (setup->replicas > MAX_REPLICAS) {
		g_set_error(error, RESEARCH_FGD_ERROR, 0,
		            "time-slicing replicas %u: expected 1..%u replicas per GPU",
		            setup->replicas, MAX_REPLICAS);
		return FALSE;
	}
	if (setup->step > CLUSTER_GPUSHARE_MILLI) {
		g_set_error(error, RESEARCH_FGD_ERROR, 0,
		            "consumable capacity step %" G_GINT64_FORMAT
		            ": expected 1..1000 milli-GPU",
		            setup->step);
		return FALSE;
	}
	if (config->world == RESEARCH_WORLD_DRA_MIG) {
		setup->mig = research_mig_new(config->mig_model, error);
		if (setup->mig == NULL)
			return FALSE;
	}
	return TRUE;
}

void
research_world__setup_clear(ResearchWorldSetup *setup)
{
	g_clear_pointer(&setup->mig, research_mig_free);
}

gboolean
research_world_check(const ResearchFgdConfig *config, GError **error)
{
	ResearchWorldSetup setup;
	gboolean ok = research_world__setup(&setup, config, error);

	research_world__setup_clear(&setup);
	return ok;
}

/* KEP-5075 round-up (model/dra dra_capacity.c round_up): min + ceil((v − min) / step) × step. */
guint32
research_world__round_capacity(guint32 milli, gint64 step)
{
	guint32 s = (guint32)step, min = s;

	if (milli <= min)
		return min;
	return min + (milli - min + s - 1) / s * s;
}

/*
 * A trace pod's request in @setup's world. share 0 (no GPU) stays a CPU pod in
 * every world. held: the milli-GPU the pod keeps once placed, for stranded.
 */
ResearchWorldRequest
research_world__request(const ResearchWorldSetup *setup,
                        guint32 num_gpu,
                        guint32 milli,
                        guint32 model_mask)
{
	ResearchWorldRequest r = { .num_gpu = num_gpu, .share = num_gpu > 0 ? milli : 0 };

	r.req = (ClusterGpuShareReq){ num_gpu, r.share, model_mask };
	if (r.share == 0) {
		r.req.num_gpu = r.num_gpu = 0;
		return r;
	}
	switch (setup->world) {
	case RESEARCH_WORLD_GPUSHARE:
		r.held = (double)num_gpu * r.share;
		break;
	case RESEARCH_WORLD_WHOLE:
		r.req.gpu_milli = CLUSTER_GPUSHARE_MILLI;
		r.held = (double)num_gpu * CLUSTER_GPUSHARE_MILLI;
		break;
	case RESEARCH_WORLD_TIME_SLICING:
		r.world_filter = TRUE;
		/* ceil(m × R / 1000) replicas per GPU's share m: k × R for k whole GPUs */
		r.units = num_gpu * ((r.share * setup->replicas + CLUSTER_GPUSHARE_MILLI - 1) /
		                     CLUSTER_GPUSHARE_MILLI);
		r.held = (double)r.units * CLUSTER_GPUSHARE_MILLI / setup->replicas;
		break;
	case RESEARCH_WORLD_DRA_CAPACITY:
	case RESEARCH_WORLD_DRA_CAPACITY_PICK:
		r.req.gpu_milli = research_world__round_capacity(r.share, setup->step);
		r.held = (double)num_gpu * r.req.gpu_milli;
		/*
		 * A multi-allocatable device is never "in use" (model/dra dra_search.c):
		 * one request of count k may take a device twice. Open-Gpu-Share's filter
		 * wants k distinct GPUs, so such a pod is filtered by the world's first
		 * fit, and its scores and task see one share (kept out of the filter's
		 * hot path; openb has no pod of k > 1 below a whole GPU).
		 */
		if (num_gpu > 1 && r.req.gpu_milli <= CLUSTER_GPUSHARE_MILLI / 2) {
			r.req.num_gpu = 1;
			r.world_filter = TRUE;
		}
		break;
	case RESEARCH_WORLD_DRA_CAPACITY_134:
		r.req.gpu_milli = research_world__round_capacity(r.share, setup->step);
		r.held = (double)num_gpu * r.req.gpu_milli;
		/*
		 * The 1.34.x fit (research_world__capacity_fit_134) is narrower than
		 * Open-Gpu-Share's: it implies k distinct GPUs with room (0..k-1), so
		 * both filters run and the world's decides.
		 */
		r.world_filter = TRUE;
		break;
	case RESEARCH_WORLD_DRA_MIG:
		r.world_filter = TRUE;
		/* the smallest profile covering the share; k whole GPUs are k full devices */
		r.profile = research_mig_profile_for(setup->mig, r.share);
		r.held = (double)num_gpu * research_mig_profile_milli(setup->mig, r.profile);
		break;
	default:
		g_assert_not_reached();
	}
	return r;
}
