/*
 * research_mig.h: dynamic MIG on one GPU model for the protocol's dra-mig
 * world (research.h), private to sim/research. A GPU's state is which memory
 * and compute slices its instances hold; a pod's share becomes the smallest
 * MIG profile that covers it, and it lands where the structured allocator's
 * first fit over the NVIDIA DRA driver's published partitionable devices
 * would put it (hw_publish_nvidia.c's device order, shared counters). The
 * equivalence with the real allocator is a test, not an assumption.
 */
#pragma once

#include <glib.h>

#include "hw.h"

G_BEGIN_DECLS

typedef struct ResearchMig ResearchMig;

/* One GPU's MIG state. Zeroed = MIG on, no instance. Change it only through research_mig_take(). */
typedef struct {
	guint32 memory_used;  /* bit s: memory slice s is held */
	guint32 compute_used; /* compute slices held */
	guint32 instances;    /* instances placed (co-tenants) */
	gboolean whole;       /* the full GPU is allocated as one device (every slice held) */
} ResearchMigGpu;

/* @gpu_model: a MIG-capable catalog model (NULL: the default); the error lists the valid ones. */
ResearchMig *research_mig_new(const char *gpu_model, GError **error);
/* The same for @model of a caller's catalog (borrowed: it must outlive the result). */
ResearchMig *research_mig_new_for_model(const HwGpuModel *model, GError **error);
void research_mig_free(ResearchMig *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ResearchMig, research_mig_free)

const char *research_mig_model_name(const ResearchMig *self);
/*
 * The profile a pod of @milli (1..1000) per GPU takes: the smallest whose
 * compute share covers it (fewest compute slices, then least memory);
 * -1 for the full GPU (milli 1000, or more than the largest profile).
 */
gint research_mig_profile_for(const ResearchMig *self, guint32 milli);
const char *research_mig_profile_name(const ResearchMig *self, gint profile); /* -1: "gpu" */
/* The GPU share a profile holds, in milli: compute slices / the GPU's, × 1000. */
guint32 research_mig_profile_milli(const ResearchMig *self, gint profile);

/*
 * Where the allocator's first fit puts one device of @profile over @gpus in
 * the driver's order: the GPU index and the placement start. FALSE when no
 * GPU has room. @profile -1 takes a GPU with no instance.
 */
gboolean research_mig_first_fit(const ResearchMig *self,
                                const ResearchMigGpu *gpus,
                                guint n_gpus,
                                gint profile,
                                guint *gpu,
                                guint *start);
void research_mig_take(const ResearchMig *self, ResearchMigGpu *gpu, gint profile, guint start);

G_END_DECLS
