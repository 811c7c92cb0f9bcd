/*
 * rpt-sweep-private.h: the sweep results table's layout, shared by the
 * reports/rpt_sweep*.c files only.
 *
 * Strings are interned in one GStringChunk (a sweep repeats a handful of
 * modes, metrics, units and parameter values across thousands of rows), and
 * rows and failures stay in insertion order, which is the writers' order.
 */
#pragma once

#include <glib.h>

#include "rpt_sweep.h"

typedef struct {
	const char **values; /* n_params, interned */
	const char *mode;
	const char *metric;
	const char *unit;
	RptStat stat;
} RptSweepRow;

typedef struct {
	const char **values;
	uint64_t seed;
	const char *message;
} RptSweepFailure;

struct RptSweep {
	char *name;
	char *scenario;
	GPtrArray *params; /* char*, the varied paths */
	GArray *seeds;     /* uint64_t */
	double confidence;
	GArray *rows;     /* RptSweepRow */
	GArray *failures; /* RptSweepFailure */
	GStringChunk *strings;
};

/* "95" for 0.95, "90" for 0.9, "99.9" for 0.999: the level in percent, for column names. */
void rpt_sweep__level_text(char *buf, gsize size, double confidence);

/* rpt_sweep_svg.c: one chart of a metric against a parameter, one line per mode
 * (its mean) with its confidence band on @y_range; @rows are the rows of one metric whose
 * other parameters are fixed (@subtitle says at what), @param the varied one's index. */
void rpt_sweep_svg__chart(GString *out,
                          const char *id,
                          const char *title,
                          const char *subtitle,
                          const RptSweep *sweep,
                          guint param,
                          const RptSweepRow *const *rows,
                          guint n_rows,
                          const char *const *modes,
                          guint n_modes,
                          const double y_range[2]);
/* The y range that shows every mean and bound of @rows (all charts of a metric share
 * it, so panels compare at a glance); a single value gets a band of 10 % around it. */
void rpt_sweep_svg__y_range(const RptSweepRow *const *rows, guint n_rows, double range[2]);
