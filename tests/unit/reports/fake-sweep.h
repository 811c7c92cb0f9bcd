/*
 * fake-sweep.h: a sweep results table filled by hand for the writers' tests.
 */
#pragma once

#include "rpt_sweep.h"

#define P_COUNT "spec.cluster.nodePools[0].count"
#define P_MODES "spec.modes"

/* (transfer full) two cells x two modes over seeds 1-3: a spread, a constant, a cell with
 * one seed, a metric never defined and one failed run (docs in fake-sweep.c). */
RptSweep *fake_sweep_new(void);
