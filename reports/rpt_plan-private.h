/*
 * rpt_plan-private.h: helpers the plan writers (rpt_plan_*.c) share.
 */
#pragma once

#include "rpt_plan.h"

/* The answer of @mode as one line without the mode: "3 x dgx-h100 (pool dgx)",
 * "2 x dgx + 1 x a100, $196.64/h", or "not met: REASON". */
char *rpt_plan__answer_text(const RptPlan *self, guint mode);
/* "dgx=3" or "dgx=2 a100=1". */
char *rpt_plan__counts_text(const RptPlan *self, const guint *counts);
/* The points' indices sorted by their counts (lexical), for the per-mode tables and charts. */
GArray *rpt_plan__points_by_counts(const RptPlan *self);
/* Whether point @index is in @answer's offending list. */
gboolean rpt_plan__is_offending(const RptPlanAnswer *answer, guint index);
/* The seeds compactly: "7", "1-10", "1-3, 9". */
char *rpt_plan__seeds_text(const RptPlan *self);
/* One SLO cell: "0 [0, 0] holds", "12 fails" (one seed), "undefined in 1 of 3 seeds". */
char *rpt_plan__measure_text(const RptPlan *self, const RptPlanMeasure *measure, guint slo);
