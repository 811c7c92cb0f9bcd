/*
 * fake-report.h: a report filled by hand for the writers' tests.
 */
#pragma once

#include "rpt.h"

/* (transfer full) a two-mode report; @scale moves a few metrics (1.0 = the reference). */
RptReport *fake_report_new(double scale);
