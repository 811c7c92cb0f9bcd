/*
 * sweep-private.h: what the files of sim/sweep share and nobody else sees.
 */
#pragma once

#include <cjson/cJSON.h>

#include "sweep.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC(cJSON, cJSON_Delete)

/* The most runs (cells x seeds) a sweep may have: base's DRASIM_MAX_SWEEP_RUNS,
 * capped at G_MAXINT because run and cell indices are guint. */
guint64 sweep_max_runs(void);

/* The manifest's file name in a sweep's output folder. */
#define SWEEP_MANIFEST_FILE   "sweep-manifest.json"
#define SWEEP_MANIFEST_SCHEMA "drasim.io/sweep-manifest/v1"

/* A run's folder and the files in it (sweep_run.c). */
#define SWEEP_REPORT_FILE "report.json"
/* The report's metrics alone (rpt_report_copy_summary()): what the merge reads. */
#define SWEEP_SUMMARY_FILE "summary.json"
#define SWEEP_ERROR_FILE   "error.txt"
#define SWEEP_SECONDS_FILE "seconds"

/* @cells_dir/@run's id/@name (transfer full). */
char *sweep_run__file(const char *cells_dir, const SweepRun *run, const char *name);
/* Whether @run has a report under @cells_dir (finished; a resumed sweep skips it). */
gboolean sweep_run__done(const char *cells_dir, const SweepRun *run);
/* The wall time the run recorded, or 0 when it did not. */
double sweep_run__seconds(const char *cells_dir, const SweepRun *run);
/* Writes @run's error.txt: @message, atomically. */
void sweep_run__record_error(const char *cells_dir, const SweepRun *run, const char *message);
