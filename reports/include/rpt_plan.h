/*
 * rpt_plan.h: the result of a capacity plan (`drasim plan`) and its writers:
 * plan.txt (the answers and the table of points evaluated per mode),
 * plan.json (schema drasim.io/plan/v1) and plan.html (each SLO metric
 * against the count, with its bound, the threshold and the answer).
 * Plain data like rpt.h: sim/plan fills it while it searches, nothing here
 * runs or judges. docs/plan.md documents the fields.
 */
#pragma once

#include <stdint.h>

#include <glib.h>

#include "rpt_sweep.h"

#define RPT_PLAN_SCHEMA "drasim.io/plan/v1"

/* How one SLO fared for one mode at one point. */
typedef enum {
	RPT_PLAN_HOLDS,     /* the bound is on the right side of the threshold */
	RPT_PLAN_FAILS,     /* it is not */
	RPT_PLAN_UNDEFINED, /* the metric is undefined (NaN) in some seed: it does not hold */
	RPT_PLAN_ERROR,     /* the point's runs failed: nothing to judge */
} RptPlanVerdict;

/* "holds", "fails", "undefined", "error" (static). */
const char *rpt_plan_verdict_to_string(RptPlanVerdict verdict);

/* An SLO as parsed: METRIC OP VALUE, the value in the metric's report unit. */
typedef struct {
	char *text; /* as the user wrote it */
	char *metric;
	char *op; /* "<=", "<", ">=", ">", "==" */
	double value;
	char *unit; /* the metric's unit in reports ("s", "pods", "ratio", ...) */
} RptPlanSlo;

/*
 * One SLO's metric for one mode at one point: its statistics across the
 * @n_runs seeds that reported (stat.n counts the seeds where it is defined),
 * the bound the verdict was taken on (the mean with one seed; NaN when
 * undefined) and the verdict.
 */
typedef struct {
	RptStat stat;
	guint n_runs;
	double bound;
	RptPlanVerdict verdict;
} RptPlanMeasure;

/* An evaluated point: a count per pool, in evaluation order. */
typedef struct {
	guint *counts;            /* n_pools */
	char *error;              /* why its runs failed; NULL when they ran */
	RptPlanMeasure *measures; /* n_modes x n_slos, mode-major */
} RptPlanPoint;

/* A mode's answer. */
typedef struct {
	gboolean met;  /* some count (mix) up to max meets every SLO */
	guint *counts; /* n_pools: the answer when met */
	guint point;   /* the answer's point; when not met, the closest one */
	double cost;   /* per hour (NaN without costs) */
	gboolean monotone;
	GArray *offending; /* guint: points that contradict monotonicity */
	char *reason;      /* when not met: why (NULL otherwise) */
} RptPlanAnswer;

typedef struct {
	char *scenario;
	guint n_pools;
	char **pools;  /* pool names, in command-line order */
	char **shapes; /* each pool's node shape */
	double *costs; /* per node-hour, or NULL without --cost */
	guint n_slos;
	RptPlanSlo *slos;
	guint n_modes;
	char **modes;
	GArray *seeds; /* uint64_t */
	double confidence;
	guint min, max;
	GPtrArray *points;      /* RptPlanPoint*, in evaluation order */
	RptPlanAnswer *answers; /* n_modes */
} RptPlan;

/**
 * rpt_plan_new:
 * An empty plan (no points, every answer "not met") for @n_pools pools
 * (@shapes nullable: the pool names; @costs nullable), @n_modes modes and @n_slos SLOs (add them
 * with rpt_plan_set_slo()). Every string is copied. Returns: (transfer full) the plan.
 */
RptPlan *rpt_plan_new(const char *scenario,
                      const char *const *pools,
                      const char *const *shapes,
                      const double *costs,
                      guint n_pools,
                      const char *const *modes,
                      guint n_modes,
                      guint n_slos,
                      const uint64_t *seeds,
                      guint n_seeds,
                      double confidence,
                      guint min,
                      guint max);
void rpt_plan_free(RptPlan *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RptPlan, rpt_plan_free)

void rpt_plan_set_slo(RptPlan *self,
                      guint index,
                      const char *text,
                      const char *metric,
                      const char *op,
                      double value,
                      const char *unit);

/* Appends a point with measures all NaN / RPT_PLAN_ERROR. Returns: (transfer none) it. */
RptPlanPoint *rpt_plan_add_point(RptPlan *self, const guint *counts);
/* (transfer none) the measure of @slo for @mode at @point. */
RptPlanMeasure *
rpt_plan_point_measure(const RptPlan *self, RptPlanPoint *point, guint mode, guint slo);
/* Whether every SLO holds for @mode at @point. */
gboolean rpt_plan_point_holds(const RptPlan *self, const RptPlanPoint *point, guint mode);

/* @value in @unit for people, 4 significant digits: "60s", "0.8", "2x", "3" (NaN: "n/a"). */
char *rpt_plan_value_to_string(double value, const char *unit);

/* Writers: deterministic text ending with a newline. */
char *rpt_plan_text_to_string(const RptPlan *self);
char *rpt_plan_json_to_string(const RptPlan *self);
char *rpt_plan_html_to_string(const RptPlan *self);
