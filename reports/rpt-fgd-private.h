/*
 * rpt-fgd-private.h: fgd.json (drasim.io/fgd/v1 with worlds) as the FGD
 * page reads it, shared by reports/rpt_fgd*.c and their test only.
 *
 * The loader checks every field the page draws and bounds every list, so
 * the drawing code trusts what it gets: strings are set (possibly empty),
 * numbers are finite or NaN (JSON null), curves are indexed by arrived %.
 */
#pragma once

#include <glib.h>

#include "rpt_fgd.h"

#define RPT_FGD_SCHEMA     "drasim.io/fgd/v1"
#define RPT_FGD_POINTS     131 /* arrived 0..130 % */
#define RPT_FGD_MAX_TRACES 32  /* the openb lists are 17 */
#define RPT_FGD_MAX_WORLDS 16  /* drasim has 6 */
#define RPT_FGD_MAX_POLICY 16  /* the paper's 6 and kube-scheduler's 4 */
#define RPT_FGD_MAX_TEXT   256 /* names, titles and reasons, in bytes */

typedef enum {
	RPT_FGD_ERROR_PARSE,   /* not JSON */
	RPT_FGD_ERROR_INVALID, /* a field missing, of the wrong type or out of bounds */
} RptFgdError;

/* A statistic over seeds; NaN for JSON null (n 0: both NaN, n 1: sd NaN). */
typedef struct {
	double mean, sd;
	guint n;
} RptFgdStat;

typedef enum {
	RPT_FGD_UNALLOCATED,
	RPT_FGD_FRAG_AMOUNT,
	RPT_FGD_FRAG_RATIO,
	RPT_FGD_N_CURVES
} RptFgdCurve;

typedef enum {
	RPT_FGD_AT_UNALLOCATED,
	RPT_FGD_AT_STRANDED,
	RPT_FGD_AT_COTENANTS_MEAN,
	RPT_FGD_AT_COTENANTS_MAX,
	RPT_FGD_N_AT
} RptFgdAt;

typedef struct {
	char *name;
	gboolean beyond_production;
	char *refused; /* NULL unless the world refuses the policy */
	gboolean has_at_100;
	RptFgdStat at_100[RPT_FGD_N_AT];
	/* a curve's point at arrived % i; an absent point has n 0 and NaN */
	RptFgdStat curve[RPT_FGD_N_CURVES][RPT_FGD_POINTS];
} RptFgdPolicy;

typedef struct {
	char *name, *title, *device_pick;
	gboolean beyond_production, memory_isolation;
	GPtrArray *policies; /* RptFgdPolicy */
} RptFgdWorld;

typedef struct {
	char *name;
	GPtrArray *worlds; /* RptFgdWorld */
} RptFgdTrace;

typedef struct {
	char *api_version;
	double tune_ratio;
	gint64 seed_from, seed_to;
	/* world_options (optional): 0 / NULL = the world's default */
	gint64 replicas, capacity_step;
	char *mig_model;
	GPtrArray *traces; /* RptFgdTrace */
} RptFgd;

/* rpt_fgd_load.c: parses and checks @json; NULL with RPT_FGD_ERROR naming the field path. */
RptFgd *rpt_fgd__load(const char *json, gssize len, GError **error);
void rpt_fgd__free(RptFgd *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(RptFgd, rpt_fgd__free)

/* rpt_fgd_svg.c: the charts. A RptFgdColourOf gives a policy's colour (one per policy on
 * the whole page). */
typedef const char *(*RptFgdColourOf)(const char *policy, gpointer data);

/* A curve chart: @curve against arrived % from @from to 130 % (0: the paper's whole axis;
 * 80: the knee and the policies' order up close) on the y scale [0, @y_top]. */
typedef struct {
	const char *id, *title;
	const char *subtitle; /* NULL: none */
	RptFgdCurve curve;
	guint from;
	double y_top;
} RptFgdChart;

/* The y scale's top for @curve from @from % over every policy of @worlds (a trace's worlds
 * share it). */
double rpt_fgd_svg__y_top(const GPtrArray *worlds, RptFgdCurve curve, guint from);
/* One world's chart, a line per policy with its +-SD band; returns the number of points
 * drawn (0: nothing written). */
guint rpt_fgd_svg__curves(GString *out,
                          const RptFgdChart *chart,
                          const RptFgdWorld *world,
                          RptFgdColourOf colour_of,
                          gpointer data);
/* Unallocated GPU % at 100 % arrival: a group per world, a bar per policy with SD whiskers. */
guint rpt_fgd_svg__bars(GString *out,
                        const char *id,
                        const char *title,
                        const GPtrArray *worlds,
                        RptFgdColourOf colour_of,
                        gpointer data);

/* Layout, for the test's worked coordinates: the curve chart's plot area is x
 * [CURVE_LEFT, CURVE_LEFT + CURVE_W] (arrived from..130 %), y [PLOT_TOP, PLOT_TOP + PLOT_H];
 * the bar chart's y the same. */
#define RPT_FGD_CURVE_LEFT 56.0
#define RPT_FGD_CURVE_W    455.0
#define RPT_FGD_PLOT_TOP   48.0
#define RPT_FGD_PLOT_H     200.0
#define RPT_FGD_BAR_W      14.0
#define RPT_FGD_BAR_GAP    20.0
