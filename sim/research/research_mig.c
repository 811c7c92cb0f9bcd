/*
 * research_mig.c: dynamic MIG for the FGD protocol's dra-mig world
 * (research_mig.h). A pod's share becomes the smallest MIG profile that covers
 * it, and the profile lands where Kubernetes' structured allocator would put
 * it over the NVIDIA DRA driver's DynamicMIG devices.
 *
 * A what-if: the openb trace's GPUs (P100, T4, V100, A10, ...) have no MIG.
 * The world gives every GPU of the trace the geometry of one MIG-capable
 * catalog model (default: the A100-SXM4-40GB) and keeps the trace's GPU
 * counts; only the slicing is borrowed, not the model's speed or memory.
 *
 * Production's choice, worked out from the publisher (model/hw/
 * hw_publish_nvidia.c, after the driver's cmd/gpu-kubelet-plugin with the
 * DynamicMIG gate): one ResourceSlice per GPU, in GPU order, each holding the
 * full GPU and one device per (profile, placement) sorted by name, all
 * consuming the GPU's shared counters. The allocator (model/dra, upstream
 * structured/internal/experimental at 1.34 with DRAPartitionableDevices)
 * walks slices and devices in order and takes the first device of the class
 * and profile whose counters are free. Devices of one profile differ only in
 * the placement start, the name's last field, a single digit (at most 8
 * memory slices), so name order is start order: first fit is the lowest GPU,
 * then the lowest free valid start. research_mig_new() checks once that the
 * driver's counters (engines and memory at the largest profile's values, one
 * counter per memory slice) admit exactly the layouts that disjoint memory
 * slices within the GPU's compute slices do, so two numbers per GPU are the
 * whole state; tests/unit/research/test_mig_alloc.c compares the answers with
 * the real allocator. Ampere stops publishing the full GPU once MIG mode is
 * on; with no departures such a GPU always holds an instance, whose counters
 * refuse the full GPU anyway.
 */
#include "research_mig.h"

#include <string.h>

#include "hw.h"
#include "research.h"

#define DEFAULT_MODEL "a100-sxm4-40gb"
#define NO_START      0xFFu
#define MILLI_FULL    1000u

/* The counters the driver publishes per GPU (hw_publish_nvidia.c), engines then memory. */
enum { C_SMS, C_COPY, C_DEC, C_ENC, C_JPEG, C_OFA, C_MEMORY, N_COUNTERS };

typedef struct {
	const HwMigProfile *hw;
	guint compute;    /* compute slices */
	guint32 masks[8]; /* memory slices held at each valid start, ascending starts */
	guint32 milli;    /* compute share, floor(compute / GPU's × 1000) */
	gboolean media;   /* +me: never chosen, not modelled */
	guint64 counters[N_COUNTERS];
} MigProfile;

struct ResearchMig {
	HwCatalog *catalog; /* the built-in catalog, owned; NULL for a borrowed model */
	const HwGpuModel *model;
	guint compute_slices, memory_slices;
	guint32 all_memory; /* a mask with every memory slice */
	guint n_profiles;
	MigProfile *profiles; /* catalog order; a profile index is an index here */
	guint8 *first_start;  /* [profile << memory_slices | memory_used]: start or NO_START */
	gint8 by_milli[MILLI_FULL + 1];
};

static void
profile_counters(const HwMigProfile *p, guint64 *out)
{
	out[C_SMS] = p->sms;
	out[C_COPY] = p->copy_engines;
	out[C_DEC] = p->decoders;
	out[C_ENC] = p->encoders;
	out[C_JPEG] = p->jpeg;
	out[C_OFA] = p->ofa;
	out[C_MEMORY] = p->memory_mib;
}

/* The MIG-capable models of @catalog, for messages: "a100-sxm4-40gb, ...". */
static char *
mig_capable_names(const HwCatalog *catalog)
{
	const GPtrArray *gpus = hw_catalog_get_gpus(catalog);
	GString *text = g_string_new(NULL);

	for (guint i = 0; i < gpus->len; i++) {
		const HwGpuModel *model = g_ptr_array_index(gpus, i);

		if (model->mig != NULL) {
			g_string_append_printf(text, "%s%s", text->len ? ", " : "", model->id);
		}
	}
	return g_string_free(text, FALSE);
}

static const HwGpuModel *
lookup_model(const HwCatalog *catalog, const char *name, GError **error)
{
	const HwGpuModel *model = hw_catalog_lookup_gpu(catalog, name);
	g_autofree char *valid = NULL;

	if (model != NULL && model->mig != NULL && model->mig->memory_slices <= 8) {
		return model;
	}
	valid = mig_capable_names(catalog);
	g_set_error(error, RESEARCH_FGD_ERROR, 0,
	            model == NULL ? "dra-mig: unknown GPU model \"%s\" (MIG-capable models: %s)"
	                          : "dra-mig: GPU model \"%s\" has no MIG (MIG-capable models: %s)",
	            name, valid);
	return NULL;
}

static void
fill_profiles(ResearchMig *self)
{
	const GPtrArray *hw = self->model->mig->profiles;

	self->n_profiles = hw->len;
	self->profiles = g_new0(MigProfile, hw->len);
	for (guint i = 0; i < hw->len; i++) {
		const HwMigProfile *p = g_ptr_array_index(hw, i);
		MigProfile *mp = &self->profiles[i];

		mp->hw = p;
		mp->compute = p->compute_slices;
		mp->milli = p->compute_slices * MILLI_FULL / self->compute_slices;
		mp->media = p->media_extensions;
		profile_counters(p, mp->counters);
		for (guint s = 0; s < p->n_starts; s++) {
			mp->masks[s] = ((1u << p->size) - 1u) << p->starts[s];
		}
	}
}

/* The lowest valid start of @p whose memory slices are free in @used, or NO_START. */
static guint8
lowest_free_start(const MigProfile *p, guint32 used)
{
	for (guint s = 0; s < p->hw->n_starts; s++) {
		if ((p->masks[s] & used) == 0) {
			return (guint8)p->hw->starts[s];
		}
	}
	return NO_START;
}

static void
fill_first_start(ResearchMig *self)
{
	guint n_masks = 1u << self->memory_slices;

	self->first_start = g_new(guint8, (gsize)self->n_profiles * n_masks);
	for (guint p = 0; p < self->n_profiles; p++) {
		for (guint32 used = 0; used < n_masks; used++) {
			self->first_start[p * n_masks + used] =
			        lowest_free_start(&self->profiles[p], used);
		}
	}
}

/*
 * by_milli[m]: the profile a pod of m milli takes: the fewest compute slices
 * that cover m / 1000 of the GPU, then the least memory, then catalog order;
 * never a +me profile (same compute and memory as its plain twin, and the
 * media engines are one per GPU). -1 (the full GPU) for 1000 and for shares
 * beyond every profile.
 */
static void
fill_by_milli(ResearchMig *self)
{
	for (guint m = 0; m <= MILLI_FULL; m++) {
		gint best = -1;

		for (guint i = 0; m < MILLI_FULL && i < self->n_profiles; i++) {
			const MigProfile *p = &self->profiles[i];
			const MigProfile *b = best >= 0 ? &self->profiles[best] : NULL;

			if (p->media ||
			    (guint64)p->compute * MILLI_FULL < (guint64)m * self->compute_slices) {
				continue;
			}
			if (b == NULL || p->compute < b->compute ||
			    (p->compute == b->compute && p->hw->memory_mib < b->hw->memory_mib)) {
				best = (gint)i;
			}
		}
		self->by_milli[m] = (gint8)best;
	}
}

/* ---- the counters and the slice rules agree ---- */

typedef struct {
	const ResearchMig *self;
	guint64 cap[N_COUNTERS];
	guint64 sum[N_COUNTERS];
	guint held[8]; /* the layout so far, as placement keys k (profile k / 8, start k % 8) */
	guint n_held, max_held;
	char *why;
} Agree;

static gboolean
counters_fit(const Agree *a, const MigProfile *p)
{
	for (guint c = 0; c < N_COUNTERS; c++) {
		if (a->sum[c] + p->counters[c] > a->cap[c]) {
			return FALSE;
		}
	}
	return TRUE;
}

static void
counters_add(Agree *a, const MigProfile *p, gint sign)
{
	for (guint c = 0; c < N_COUNTERS; c++) {
		a->sum[c] = sign > 0 ? a->sum[c] + p->counters[c] : a->sum[c] - p->counters[c];
	}
}

/* "adding 2g.10gb at 2 to {2g.10gb at 0}: the driver's counters refuse it, the slice rules allow
 * it" */
static char *
disagreement(const Agree *a, guint key, gboolean slices_ok)
{
	const ResearchMig *self = a->self;
	GString *text = g_string_new(NULL);
	const HwMigProfile *p = self->profiles[key / 8].hw;

	g_string_append_printf(text, "adding %s at %u to {", p->name, p->starts[key % 8]);
	for (guint i = 0; i < a->n_held; i++) {
		const HwMigProfile *h = self->profiles[a->held[i] / 8].hw;

		g_string_append_printf(text, "%s%s at %u", i ? ", " : "", h->name,
		                       h->starts[a->held[i] % 8]);
	}
	g_string_append_printf(text, "}: the driver's counters %s it, the slice rules %s it",
	                       slices_ok ? "refuse" : "allow", slices_ok ? "allow" : "refuse");
	return g_string_free(text, FALSE);
}

/*
 * Every layout reachable by adding plain placements one at a time, in
 * increasing (profile, start) order, from @from on: adding one more must fit
 * the counters exactly when it fits the slice rules. A disagreement in any
 * order shows up in this one (both rules are monotone sums).
 */
static gboolean
agree_from(Agree *a, guint32 used, guint compute, guint from)
{
	const ResearchMig *self = a->self;

	for (guint k = from; k < self->n_profiles * 8; k++) {
		const MigProfile *p = &self->profiles[k / 8];
		guint s = k % 8;

		if (p->media || s >= p->hw->n_starts || (p->masks[s] & used) != 0) {
			continue;
		}
		gboolean slices_ok = compute + p->compute <= self->compute_slices;
		if (slices_ok != counters_fit(a, p)) {
			a->why = disagreement(a, k, slices_ok);
			return FALSE;
		}
		if (!slices_ok || a->n_held == a->max_held) {
			continue;
		}
		counters_add(a, p, +1);
		a->held[a->n_held++] = k;
		gboolean ok = agree_from(a, used | p->masks[s], compute + p->compute, k + 1);
		a->n_held--;
		counters_add(a, p, -1);
		if (!ok) {
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean
check_counters(const ResearchMig *self, GError **error)
{
	Agree a = { .self = self };

	/* The counter set: each counter at its maximum over every profile. */
	for (guint i = 0; i < self->n_profiles; i++) {
		for (guint c = 0; c < N_COUNTERS; c++) {
			a.cap[c] = MAX(a.cap[c], self->profiles[i].counters[c]);
		}
	}
	/* Deepening one instance at a time, so a disagreement is reported on the
	 * smallest layout that shows it. */
	for (a.max_held = 0; a.max_held < self->memory_slices; a.max_held++) {
		if (!agree_from(&a, 0, 0, 0)) {
			g_set_error(error, RESEARCH_FGD_ERROR, 0,
			            "dra-mig: GPU model \"%s\" is not supported: %s",
			            self->model->id, a.why);
			g_free(a.why);
			return FALSE;
		}
	}
	return TRUE;
}

/* Everything but the catalog: @model is borrowed. */
static ResearchMig *
mig_new(const HwGpuModel *model, GError **error)
{
	g_autoptr(ResearchMig) self = g_new0(ResearchMig, 1);

	self->model = model;
	self->compute_slices = model->mig->compute_slices;
	self->memory_slices = model->mig->memory_slices;
	self->all_memory = (1u << self->memory_slices) - 1u;
	fill_profiles(self);
	if (!check_counters(self, error)) {
		return NULL;
	}
	fill_first_start(self);
	fill_by_milli(self);
	return g_steal_pointer(&self);
}

ResearchMig *
research_mig_new(const char *gpu_model, GError **error)
{
	g_autoptr(HwCatalog) catalog = hw_catalog_new_builtin(error);
	const HwGpuModel *model;
	ResearchMig *self;

	if (catalog == NULL) {
		return NULL;
	}
	model = lookup_model(catalog, gpu_model ? gpu_model : DEFAULT_MODEL, error);
	self = model ? mig_new(model, error) : NULL;
	if (self != NULL) {
		self->catalog = g_steal_pointer(&catalog);
	}
	return self;
}

ResearchMig *
research_mig_new_for_model(const HwGpuModel *model, GError **error)
{
	if (model->mig == NULL || model->mig->memory_slices > 8) {
		g_set_error(error, RESEARCH_FGD_ERROR, 0, "dra-mig: GPU model \"%s\" has no MIG",
		            model->id);
		return NULL;
	}
	return mig_new(model, error);
}

void
research_mig_free(ResearchMig *self)
{
	if (self == NULL) {
		return;
	}
	g_free(self->first_start);
	g_free(self->profiles);
	g_clear_pointer(&self->catalog, hw_catalog_free);
	g_free(self);
}

const char *
research_mig_model_name(const ResearchMig *self)
{
	return self->model->id;
}

gint
research_mig_profile_for(const ResearchMig *self, guint32 milli)
{
	return milli >= MILLI_FULL ? -1 : self->by_milli[milli];
}

const char *
research_mig_profile_name(const ResearchMig *self, gint profile)
{
	g_return_val_if_fail(profile < (gint)self->n_profiles, NULL);
	return profile < 0 ? "gpu" : self->profiles[profile].hw->name;
}

guint32
research_mig_profile_milli(const ResearchMig *self, gint profile)
{
	g_return_val_if_fail(profile < (gint)self->n_profiles, 0);
	return profile < 0 ? MILLI_FULL : self->profiles[profile].milli;
}

/* The start @profile takes on @gpu, or NO_START (the full GPU: 0 when idle). */
static guint
fit_on(const ResearchMig *self, const ResearchMigGpu *gpu, gint profile)
{
	if (profile < 0) {
		return gpu->instances == 0 && !gpu->whole ? 0 : NO_START;
	}
	const MigProfile *p = &self->profiles[profile];
	if (gpu->whole || gpu->compute_used + p->compute > self->compute_slices) {
		return NO_START;
	}
	return self->first_start[((guint)profile << self->memory_slices) | gpu->memory_used];
}

gboolean
research_mig_first_fit(const ResearchMig *self,
                       const ResearchMigGpu *gpus,
                       guint n_gpus,
                       gint profile,
                       guint *gpu,
                       guint *start)
{
	g_return_val_if_fail(profile < (gint)self->n_profiles, FALSE);
	g_return_val_if_fail(profile < 0 || !self->profiles[profile].media, FALSE);
	for (guint g = 0; g < n_gpus; g++) {
		guint s = fit_on(self, &gpus[g], profile);

		if (s != NO_START) {
			*gpu = g;
			*start = s;
			return TRUE;
		}
	}
	return FALSE;
}

/*
 * The full GPU holds every memory and compute slice (the driver's full
 * device consumes every counter) and counts as one tenant.
 */
void
research_mig_take(const ResearchMig *self, ResearchMigGpu *gpu, gint profile, guint start)
{
	g_return_if_fail(profile < (gint)self->n_profiles);
	if (profile < 0) {
		g_return_if_fail(gpu->instances == 0 && !gpu->whole);
		*gpu = (ResearchMigGpu){ self->all_memory, self->compute_slices, 1, TRUE };
		return;
	}
	const MigProfile *p = &self->profiles[profile];
	guint32 mask = 0;
	for (guint s = 0; s < p->hw->n_starts; s++) {
		mask = p->hw->starts[s] == start ? p->masks[s] : mask;
	}
	g_return_if_fail(!p->media && mask != 0 && (mask & gpu->memory_used) == 0 && !gpu->whole &&
	                 gpu->compute_used + p->compute <= self->compute_slices);
	gpu->memory_used |= mask;
	gpu->compute_used += p->compute;
	gpu->instances++;
}
