/*
 * research.h: research protocols that run sim/cluster's scheduler outside the
 * event-driven scenario pipeline. First, the FGD paper's protocol (Weng et
 * al., "Beware of Fragmentation", USENIX ATC '23; the authors' simulator is
 * hkust-adsl/kubernetes-scheduler-simulator): the openb trace's pods shuffled
 * by seed, topped up by sampling with replacement to 130 % of the GPU
 * capacity (or trimmed), offered one at a time to kube-scheduler's cycle with
 * one of the paper's score policies, never departing; a pod no node takes is
 * recorded and dropped. After each pod: arrived GPU, allocated GPU and the
 * cluster's FGD fragment, aggregated per integer arrived percentage.
 *
 * The paper's world is the extended one with Open-Gpu-Share's milli-GPU
 * sharing (cluster_gpushare.h); the others are below. Plain values in and out.
 */
#pragma once

#include <glib.h>

#include "workload.h"

G_BEGIN_DECLS

#define RESEARCH_FGD_POINTS 131 /* arrived 0..130 % */

/*
 * The worlds the protocol runs in (issue 15 item 4). The pods and the GPU
 * capacity are the same in every world; what changes is how a pod's share
 * (gpu_milli) becomes a request, which node can take it, and which GPU
 * (device) inside the node it lands on.
 */
typedef enum {
	RESEARCH_WORLD_GPUSHARE,          /* Open-Gpu-Share milli-GPU, the paper's world */
	RESEARCH_WORLD_WHOLE,             /* extended resource nvidia.com/gpu: whole GPUs */
	RESEARCH_WORLD_TIME_SLICING,      /* device plugin time-slicing: replicas per GPU */
	RESEARCH_WORLD_DRA_CAPACITY,      /* DRA consumable capacity, the allocator's first fit
	                                     (after #133706, Kubernetes 1.35+) */
	RESEARCH_WORLD_DRA_CAPACITY_PICK, /* the same, the policy picks the device (beyond
	                                     production) */
	RESEARCH_WORLD_DRA_MIG, /* DRA dynamic MIG: the smallest profile covering the share */
	/* dra-capacity as Kubernetes 1.34.x ships it: the allocator's capacity
	 * re-check reads the device at the request's index (#133705) */
	RESEARCH_WORLD_DRA_CAPACITY_134,
	RESEARCH_N_WORLDS
} ResearchWorld;

typedef struct {
	const char *name;           /* "gpushare", "whole", "time-slicing", "dra-capacity", ... */
	const char *title;          /* one line for reports */
	const char *device_pick;    /* "policy", "device-plugin" or "first-fit" */
	gboolean beyond_production; /* the device choice is not what production does */
	gboolean memory_isolation;  /* co-tenants of a GPU cannot touch each other's memory */
} ResearchWorldInfo;

const ResearchWorldInfo *research_world_info(ResearchWorld world);
/* The world names, NULL-terminated, in ResearchWorld order. */
const char *const *research_world_names(void);
gboolean research_world_parse(const char *name, ResearchWorld *out);

/* The protocol's policies, NULL-terminated: the paper's six, then kube-scheduler's own. */
const char *const *research_policy_names(void);
/* The paper's policies are research (beyond production); kube-scheduler's are not. */
gboolean research_policy_beyond_production(const char *policy);
/* NULL when @policy runs in @world; otherwise why not (a static sentence). */
const char *research_world_refuses(ResearchWorld world, const char *policy);

typedef struct {
	const char *policy; /* a name of research_policy_names() */
	guint64 seed;
	double tune_ratio; /* 1.3 in the paper; <= 0: no tuning */
	ResearchWorld world;
	/* time-slicing: replicas per GPU; 0 = 10. A pod of k GPUs of share m asks
	 * k x ceil(m x R / 1000) of the node's n_gpus x R nvidia.com/gpu. */
	guint replicas;
	/* dra-capacity(-pick, -1.34): the request policy's step in milli (validRange
	 * {min: step, max: 1000, step}); 0 = 10. A share rounds up to it. */
	gint64 capacity_step;
	const char *mig_model; /* dra-mig: a MIG-capable catalog GPU model; NULL = default */
} ResearchFgdConfig;

/*
 * Checks @config's world options (replicas, capacity_step, mig_model) for
 * @config->world before any run, so a caller can refuse them up front.
 * Returns: FALSE with RESEARCH_FGD_ERROR saying what is valid.
 */
gboolean research_world_check(const ResearchFgdConfig *config, GError **error);

/* One run. Points without a log entry (has[i] FALSE) are left out of aggregates. */
typedef struct {
	gboolean has[RESEARCH_FGD_POINTS];
	double unallocated_pct[RESEARCH_FGD_POINTS]; /* 100 − allocated GPU / capacity */
	double frag_amount_pct[RESEARCH_FGD_POINTS]; /* fragment / capacity */
	double frag_ratio_pct[RESEARCH_FGD_POINTS];  /* fragment / idle GPU */
	guint pods_offered, pods_failed;
	guint n_tasks; /* typical pods in the fragment's task mix */
	gint64 capacity_milli;
	guint64 memo_lookups, memo_misses;
	/*
	 * When arrival first reaches 100 %: pods per GPU over the GPUs that hold
	 * at least one (mean and max), and GPU held by pods beyond their share
	 * (a whole GPU for a 0.3 pod, a 3g MIG slice for 0.35, a rounded-up
	 * replica count), as % of capacity. FALSE in has_at_100 if never reached.
	 */
	gboolean has_at_100;
	double cotenants_mean, cotenants_max;
	double stranded_pct;
	/* FALSE when the world has no FGD fragment (frag_* points then unset) */
	gboolean frag_defined;
} ResearchFgdRun;

/**
 * research_fgd_run:
 * @trace: the node list and the pod list loaded into one trace (shared model indices)
 *
 * Returns: FALSE with RESEARCH_FGD_ERROR when the policy is unknown or
 *   cannot run in this world, or the trace has no GPU node or no GPU pod.
 */
gboolean research_fgd_run(const WorkloadTrace *trace,
                          const ResearchFgdConfig *config,
                          ResearchFgdRun *out,
                          GError **error);

#define RESEARCH_FGD_ERROR (research_fgd_error_quark())
GQuark research_fgd_error_quark(void);

/*
 * Experiments (`drasim experiment fgd`, docs/experiment.md): the grid traces x
 * worlds x policies x seeds, each run a task of sim/sweep's executor
 * (sweep_pool.h, a child process each, --jobs at once), its figures filed by
 * run index so the outputs are the same bytes whatever @jobs is. A pair the
 * world refuses (research_world_refuses) is not run and is kept as refused.
 */
typedef struct {
	const char *const *trace_names;     /* the traces' names in the outputs */
	const WorkloadTrace *const *traces; /* borrowed for research_experiment_run() only */
	guint n_traces;
	const ResearchWorld *worlds;
	guint n_worlds;
	const char *const *policies; /* names of research_policy_names() */
	guint n_policies;
	guint64 seed_from;
	guint n_seeds;
	double tune_ratio; /* and the world options of ResearchFgdConfig, for every run */
	guint replicas;
	gint64 capacity_step;
	const char *mig_model;
	guint jobs;              /* runs at once; 1: in this process; 0: the online cores */
	gboolean progress;       /* a progress line rewritten on stderr (a terminal) */
	gboolean progress_lines; /* without @progress: a line per tenth of the runs (a log) */
} ResearchExperimentConfig;

typedef struct _ResearchExperiment ResearchExperiment;

/**
 * research_experiment_run:
 * Returns: (transfer full): every run's figures, or NULL with
 *   RESEARCH_FGD_ERROR when a run failed ("trace T, world W, policy P, seed
 *   S: why", the first such run in grid order) or could not be started.
 */
ResearchExperiment *research_experiment_run(const ResearchExperimentConfig *config, GError **error);
void research_experiment_free(ResearchExperiment *exp);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ResearchExperiment, research_experiment_free)

/* Why world @w refuses policy @p (indices into the config's lists), or NULL: it ran. */
const char *research_experiment_refused(const ResearchExperiment *exp, guint w, guint p);
/* One run's figures; NULL for a refused pair. */
const ResearchFgdRun *
research_experiment_get_run(const ResearchExperiment *exp, guint t, guint w, guint p, guint s);

/* fgd.json (drasim.io/fgd/v1) and fgd.csv, as docs/experiment.md describes. (transfer full) */
char *research_experiment_json(const ResearchExperiment *exp);
char *research_experiment_csv(const ResearchExperiment *exp);

G_END_DECLS
