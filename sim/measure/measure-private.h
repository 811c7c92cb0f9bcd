/*
 * measure-private.h: what a run samples besides the pending pods and the
 * allocation ratio (measure_sample.c, measure_frag.c): per physical GPU
 * occupancy, FGD fragmentation, pictures of shared and MIG GPUs at the peak
 * of occupancy, and each pod's devices at the end. docs/reports.md defines
 * every figure.
 */
#pragma once

#include "hw.h"
#include "measure.h"

G_BEGIN_DECLS

/* GPUs pictured per mode, at the sample of peak occupancy. */
#define SCENARIO_SAMPLE_MAX_PICTURES 4

/* The report side (measure_report.c): the fragmentation series, heat map and pictures. */
void scenario_sample__fill_report(const ScenarioSampler *self, RptMode *mode);
/* double per sample: the occupied fraction of all physical GPUs (the heat map's measure). */
const GArray *scenario_sample__get_occupancy(const ScenarioSampler *self);
/* The mean of the fragmentation samples (NaN: none defined). */
double scenario_sample__get_fragmentation_mean(const ScenarioSampler *self);
/*
 * Appends the stable id (docs/reports.md) of device @dev (a simulation device
 * index) of the node named @node to @out, after a comma when @out is not empty;
 * the one naming of devices for the report and for explain. Devices as the
 * sampler last read them (after a MIG reconfiguration: the new ones).
 * Returns: FALSE (nothing appended) when the node or device is unknown.
 */
gboolean scenario_sample__append_device_id(const ScenarioSampler *self,
                                           const char *node,
                                           guint dev,
                                           GString *out);

/* ---- placement history (measure_placements.c) ---- */

/* Sets @rec's shared flag and, when the row cannot tell them, its placements. */
void measure__collect_placements(const MeasureRunEnd *run, guint pod, ScenarioPodRecord *rec);
void measure__placements_clear(ScenarioPodRecord *rec);

/* ---- FGD fragmentation (measure_frag.c) ---- */

typedef enum {
	SCENARIO_TASK_WHOLE,   /* whole GPUs (nvidia.com/gpu, a DRA GPU claim) */
	SCENARIO_TASK_REPLICA, /* device-plugin replicas of a shared GPU (1/replicas each) */
	SCENARIO_TASK_MIG,     /* MIG instances of one profile */
	SCENARIO_TASK_MIG_ANY, /* DRA: a class of MIG devices, any profile */
	SCENARIO_TASK_ANY,     /* DRA: a class of every GPU device, full GPU or MIG instance */
} ScenarioTaskKind;

typedef struct {
	ScenarioTaskKind kind;
	const char *profile; /* MIG profile name (interned), else NULL */
	guint count;         /* devices per pod */
	double weight;       /* share of the mode's GPU pods */
} ScenarioTask;

/* What one physical GPU looks like now (filled by measure_sample.c each tick). */
typedef struct {
	const HwGpuModel *model;
	gboolean mig;       /* static MIG instances */
	gboolean dynamic;   /* DynamicMIG: instances placed on demand */
	gboolean unusable;  /* on a cordoned node */
	double used;        /* occupied fraction, 0..1 */
	guint replicas;     /* > 1: shared by device-plugin replicas */
	guint tenants;      /* pods on the full-GPU device */
	guint used_compute; /* MIG compute slices in use */
	guint32 used_mask;  /* MIG memory slices in use */
	gboolean full_busy; /* the full-GPU device has a tenant */
	gboolean shared;    /* the full-GPU device is time-sliced or MPS */
	guint pods;         /* tenants over all its devices */
	/* static MIG: free instances, by profile name (interned pointers) */
	const char *free_profiles[8];
	guint n_free;
} ScenarioGpuState;

/* The task mix built pod by pod (in index order), then ended into its GArray. */
typedef struct ScenarioTaskMix ScenarioTaskMix;
ScenarioTaskMix *scenario_frag__mix_new(void);
/* @requests (nullable): the pod's ClusterPod requests. */
void scenario_frag__mix_add(ScenarioTaskMix *mix,
                            const Scenario *sc,
                            const ScenarioMode *mode,
                            const ScenarioPod *pod,
                            const ClusterResources *requests,
                            const ClusterResNames *names,
                            ScenarioClaimShapeFunc shape,
                            GStringChunk *strings);
GArray *scenario_frag__mix_end(ScenarioTaskMix *mix); /* frees @mix */
void scenario_frag__mix_free(ScenarioTaskMix *mix);
/* The mode's task mix: one entry per distinct (kind, profile, count); GArray of ScenarioTask. */
GArray *scenario_frag__task_mix(const Scenario *sc,
                                const ScenarioMode *mode,
                                const ClusterSim *sim,
                                const ClusterResNames *names,
                                const GArray *pods,
                                ScenarioClaimShapeFunc shape,
                                GStringChunk *strings);
/*
 * The fragmentation of one node's GPUs @gpus[@n] (in GPUs): Σ over tasks of
 * weight × the free capacity the task cannot use (docs/reports.md).
 */
double scenario_frag__node(const ScenarioGpuState *gpus, guint n, const GArray *tasks);

G_END_DECLS
