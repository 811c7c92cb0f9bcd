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
 * The world is the extended one with Open-Gpu-Share's milli-GPU sharing
 * (cluster_gpushare.h), as in the paper. Plain values in and out.
 */
#pragma once

#include <glib.h>

#include "workload.h"

G_BEGIN_DECLS

#define RESEARCH_FGD_POINTS 131 /* arrived 0..130 % */

typedef struct {
	const char *policy; /* a name of cluster_sched_score_policy_names() that needs gpushare */
	guint64 seed;
	double tune_ratio; /* 1.3 in the paper; <= 0: no tuning */
} ResearchFgdConfig;

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

G_END_DECLS
