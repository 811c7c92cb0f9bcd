/*
 * plan.h: the face of sim/plan, capacity planning (`drasim plan`): the
 * smallest count of a node pool, or the cheapest mix of pools at a cost per
 * node-hour, such that service-level objectives (SLOs) hold for each mode
 * on the confidence bound across seeds. The search assumes each metric is
 * monotone in the counts, bisects, and checks what it evaluated for points
 * that contradict that. It evaluates points through a callback: the real
 * one (plan_eval_*) runs the scenario's seeds through sim/sweep's executor;
 * unit tests drive the search with synthetic ones. docs/plan.md is the
 * user's guide.
 */
#pragma once

#include <glib.h>

#include "k8s_diag.h"
#include "rpt.h"
#include "rpt_plan.h"
#include "sim.h"

G_BEGIN_DECLS

#define PLAN_ERROR (plan_error_quark())
GQuark plan_error_quark(void);

typedef enum {
	PLAN_ERROR_SLO,   /* an SLO expression is malformed */
	PLAN_ERROR_INPUT, /* the question is wrong: pools, costs, bounds */
	PLAN_ERROR_EVAL,  /* a point could not be evaluated (I/O): the plan stops */
} PlanErrorCode;

/* Bounds (docs/plan.md). */
#define PLAN_DEFAULT_MAX 64
#define PLAN_MAX_COUNT   100000 /* a pool's count, as spec.cluster.nodePools[].count */
#define PLAN_MAX_MIXES   10000  /* count combinations of all pools but the last */
#define PLAN_MAX_POOLS   8

typedef enum {
	PLAN_OP_LE, /* <= */
	PLAN_OP_LT, /* < */
	PLAN_OP_GE, /* >= */
	PLAN_OP_GT, /* > */
	PLAN_OP_EQ, /* == */
} PlanOp;

/* "<=", "<", ">=", ">", "==" (static). */
const char *plan_op_to_string(PlanOp op);

/* An SLO: a report metric, a comparison and a value in the metric's report unit. */
typedef struct {
	char *text; /* as written, trimmed */
	char *metric;
	const char *unit; /* static: the metric's unit in reports (rpt_metric_lookup) */
	PlanOp op;
	double value;
} PlanSlo;

/**
 * plan_slo_parse:
 * Parses `METRIC OP VALUE[UNIT]` (spaces optional): METRIC a report metric
 * (rpt_metric_names()), OP one of <=, <, >=, >, ==; a time in s, ms, m or h
 * (a bare number is seconds), a ratio as a number or N%, a count or a
 * slowdown factor (optionally with x) as a plain number.
 * Returns: FALSE with @error (PLAN_ERROR_SLO) saying what is wrong and what
 * is valid (the operators, the metric names, the units of the metric).
 */
gboolean plan_slo_parse(const char *text, PlanSlo *out, GError **error);
void plan_slo_clear(PlanSlo *slo);

/**
 * plan_slo_judge:
 * Whether @slo holds on @stat, the metric across @n_runs seeds (stat->n of
 * them defined): on the confidence bound (<=, <: ci_high; >=, >: ci_low;
 * ==: both equal the value), or on the value itself with one seed. A metric
 * undefined in any seed does not hold (RPT_PLAN_UNDEFINED); no runs is
 * RPT_PLAN_ERROR. @bound_out (nullable): the bound judged (for ==, the one
 * farther from the value); NaN when undefined.
 */
RptPlanVerdict
plan_slo_judge(const PlanSlo *slo, const RptStat *stat, guint n_runs, double *bound_out);

/**
 * PlanSpec:
 *
 * The question: the pools searched (in order; a mix bisects the last and
 * enumerates the others), their costs (empty: none), the SLOs, the modes of
 * the scenario (every run runs them all), the seeds, the confidence level
 * and the counts searched, [min, max] for every pool.
 */
typedef struct {
	char *scenario;
	GPtrArray *pools;  /* char* */
	GPtrArray *shapes; /* char*: each pool's node shape, for the output */
	GArray *costs;     /* double per pool, or empty */
	GArray *slos;      /* PlanSlo */
	GPtrArray *modes;  /* char* */
	GArray *seeds;     /* guint64 */
	double confidence;
	guint min, max;
} PlanSpec;

PlanSpec *plan_spec_new(const char *scenario);
void plan_spec_free(PlanSpec *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PlanSpec, plan_spec_free)

/**
 * plan_spec_check:
 * What can be checked on the command line alone, before the scenario is
 * read: a pool or SLO at all, no pool twice, min <= max <= PLAN_MAX_COUNT, costs for every pool of
 * a mix (none or all), not more than PLAN_MAX_MIXES combinations. Returns: FALSE with @error
 * (PLAN_ERROR_INPUT) naming the problem.
 */
gboolean plan_spec_check(const PlanSpec *self, GError **error);

/**
 * PlanEvalFunc:
 * Evaluates the point @counts (one per pool): fills @measures (n_modes x
 * n_slos, mode-major) with each SLO metric's statistics and the number of
 * runs that reported (the search judges them), or sets @failure_out to why
 * the point's runs failed (the point then fails). Returns FALSE with @error
 * only when the plan cannot go on.
 */
typedef gboolean (*PlanEvalFunc)(const guint *counts,
                                 RptPlanMeasure *measures,
                                 char **failure_out,
                                 gpointer user_data,
                                 GError **error);

/**
 * plan_search:
 * Answers @spec (its modes and seeds filled) per mode, evaluating each point (a count per pool) at
 * most once, all modes from the same evaluation. One pool: the max first (if it fails: not met, no
 * search), then bisection of [min, max] for the smallest count that holds, then the answer and the
 * count below it explicitly. Several pools (with costs): every combination of the others' counts,
 * the last pool bisected as above; the cheapest wins (ties: fewer nodes, then the lexically
 * smallest counts). Every evaluated point is then checked against the answer: one below it that
 * holds, or above it that fails, makes the mode "not monotone" (the answer stays). Returns:
 * (transfer full) the plan with its points and answers, or NULL with @error when @eval failed.
 */
RptPlan *plan_search(const PlanSpec *spec, PlanEvalFunc eval, gpointer user_data, GError **error);

/* ---- the real evaluator: the scenario's seeds through sim/sweep (plan_eval.c) ---------- */

/**
 * plan_spec_fill_from_scenario:
 * Loads the scenario @self names and fills what it decides: its modes, the
 * shape of each pool (every pool must be one of the scenario's: otherwise
 * "no node pool gpu in SCENARIO; its pools are dgx, a100"), and the seeds
 * when none were given (the scenario's seed alone).
 * Returns: FALSE with @diags holding the scenario's errors (*@pool_error
 * FALSE), or with @error for an unknown pool (*@pool_error TRUE).
 */
gboolean plan_spec_fill_from_scenario(PlanSpec *self,
                                      K8sDiagList *diags,
                                      gboolean *pool_error,
                                      GError **error);

typedef struct PlanEval PlanEval;

/**
 * plan_eval_new:
 * The evaluator that runs a point's seeds as sweep runs (the scenario with
 * spec.cluster.nodePools[name=POOL].count overridden, every mode) with
 * sweep_exec_local() into @points_dir (@jobs processes at a time, 0: the
 * cores; a progress line on stderr with @progress) and reads their reports
 * back. Runs already there are not run again, so an interrupted plan resumes.
 * Returns: (transfer full) the evaluator; pass it as plan_search()'s user data
 * with plan_eval_point.
 */
PlanEval *plan_eval_new(const PlanSpec *spec,
                        SimTime horizon,
                        const char *points_dir,
                        guint jobs,
                        gboolean progress);
void plan_eval_free(PlanEval *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PlanEval, plan_eval_free)

/* The PlanEvalFunc of a PlanEval (@user_data). */
gboolean plan_eval_point(const guint *counts,
                         RptPlanMeasure *measures,
                         char **failure_out,
                         gpointer user_data,
                         GError **error);

/**
 * plan_dir_prepare:
 * Makes @dir ready for a plan (plan_dir.c): new, empty, or an earlier
 * plan's output whose points belong to this plan (same scenario path and
 * text, same horizon); creates @dir/points for the runs.
 * Returns: FALSE with @error (PLAN_ERROR_INPUT: a folder that is someone
 * else's, or another plan's points; PLAN_ERROR_EVAL: I/O).
 */
gboolean plan_dir_prepare(const PlanSpec *spec, SimTime horizon, const char *dir, GError **error);
/* Writes plan.json, plan.html and plan.txt into @dir, each atomically; @text_out (nullable):
 * plan.txt. */
gboolean plan_dir_write(const RptPlan *plan, const char *dir, char **text_out, GError **error);

/* The run id of @counts and @seed: "dgx_3-seed7", "dgx_2-a100_1-seed7". */
char *plan_eval_run_id(const PlanSpec *spec, const guint *counts, guint64 seed);

G_END_DECLS
