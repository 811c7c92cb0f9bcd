/*
 * measure_sample-private.h: the sampler's state, shared by measure_sample.c
 * (ticks, device ids, the report), measure_pictures.c (pictures of shared and
 * MIG GPUs at peak occupancy) and measure_sample_objects.c (nodes given as
 * objects). See measure_sample.c for what each tick reads.
 */
#pragma once

#include "measure-private.h"

G_BEGIN_DECLS

typedef struct {
	guint gpu;           /* node-local GPU index */
	guint minor;         /* its GPU's minor number (the stable id's gpu-<minor>) */
	gboolean mig;        /* a MIG instance */
	const char *profile; /* interned; NULL for a full GPU */
	guint start, size;   /* memory slices (MIG) */
	guint compute;       /* compute slices (MIG) */
	double capacity;     /* as the simulation has it: a change means a reconfiguration */
} SampleDev;

/* What never changes about one physical GPU of a node. */
typedef struct {
	const HwGpuModel
	        *model;      /* NULL: a GPU given as objects whose product is not in the catalog */
	const char *product; /* interned; for the pictures */
	guint minor;         /* the stable id's gpu-<minor> */
	gboolean mig;        /* objects only: a GPU whose published devices are MIG instances */
} SampleGpu;

typedef struct {
	const char *name;
	const HwNode *hw; /* borrowed until finish; NULL for a node given as objects */
	gboolean objects; /* given as objects (measure_sample_objects.c): no HwNode to re-read */
	SampleGpu *info;  /* n_gpus */
	HwPublishOptions opts;
	GArray *devs; /* SampleDev */
	ScenarioGpuState *gpus;
	guint n_gpus;
	GArray *busy; /* double per sample (heat-map rows only) */
	/* what the last read saw (its figures are the sampler's node_busy and
	 * node_frag, reused while nothing changed) */
	gboolean read_once;
	gboolean watch_mig; /* has static-MIG-capable GPUs (their MIG mode can change) */
	guint64 generation;
	gboolean cordoned;
} SampleNode;

typedef struct {
	char *profile;
	guint start, size;
	char *pod;
} PicSlice;

typedef struct {
	char *node, *device, *model, *sharing;
	guint units;
	SimTime at;
	GArray *slices; /* PicSlice */
} Picture;

typedef struct {
	guint node, gpu, pods;
} Candidate;

struct ScenarioSampler {
	const Scenario *sc;
	const ScenarioMode *mode;
	const ClusterSim *sim; /* read through its queries only */
	const ClusterResNames *names;
	const GArray *pods;
	ScenarioClaimShapeFunc shape; /* the DRA pods' shapes for the task mix */
	GStringChunk *strings;
	GPtrArray *nodes; /* SampleNode* */
	/* each node's busy GPUs and fragmentation at its last read, by node
	 * index: a tick sums them in index order (flat, so the sum is cheap) */
	GArray *node_busy, *node_frag; /* double */
	/* the simulation's change log (cluster_sim_log_node_changes) this sampler
	 * takes at each tick, NULL: each tick checks every node */
	ClusterSim *changes;
	GArray *changed;               /* scratch: guint node indexes */
	double busy_total, frag_total; /* the sums at the last tick that read a node */
	guint64 nodes_read;            /* read_node() calls so far (tests) */
	GArray *tasks;                 /* ScenarioTask; NULL until the first tick */
	/* the task mix fed pod by pod at set-up (scenario_sample__add_pod_task) */
	ScenarioTaskMix *mix;
	guint total_gpus;
	/* some node given as objects has GPUs it cannot model: no fragmentation figure */
	gboolean partial;
	guint replicas;    /* device-plugin replicas of full GPUs (extended world), 1 = none */
	GArray *frag;      /* double per sample */
	GArray *occupancy; /* double per sample: occupied fraction of all physical GPUs */
	double peak;
	GPtrArray *pictures;    /* Picture* */
	GPtrArray *pod_devices; /* const char * per pod, interned in @strings; NULL: none */
};

/* measure_pictures.c */
void scenario_sample__picture_free(gpointer data);
void scenario_sample__take_pictures(ScenarioSampler *self, SimTime now);
void scenario_sample__fill_pictures(const ScenarioSampler *self, RptMode *mode);

/* measure_sample.c: a new node of @n_gpus GPUs (info zeroed), appended to the sampler's */
SampleNode *scenario_sample__node_new(ScenarioSampler *self, const char *name, guint n_gpus);

G_END_DECLS
