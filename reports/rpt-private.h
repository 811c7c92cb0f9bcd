/*
 * rpt-private.h: the report's layout, shared by the reports/ files only.
 *
 * Every list is a GPtrArray in insertion order; lookups by name are linear
 * (a report has tens of metrics and a handful of modes), so no hash table
 * order can leak into output.
 */
#pragma once

#include "rpt.h"

typedef struct {
	char *name;
	char *unit;
	double value;
} RptMetric;

/* How JSON writes an info value (its text is the JSON token for the others). */
typedef enum {
	RPT_INFO_STRING,
	RPT_INFO_NUMBER,
	RPT_INFO_BOOL,
} RptInfoKind;

typedef struct {
	char *key;
	char *value;
	RptInfoKind kind;
} RptInfo;

typedef struct {
	char *reason;
	uint64_t pods;
} RptUnsched;

typedef struct {
	char *pod;
	RptTime at_us;
	char *message;
	char *detail;
	gboolean never_runs;
} RptReason;

typedef struct {
	char *subject;
	char *feature;
	char *expression;
	char *approximation;
} RptTranslation;

struct RptSeries {
	char *name; /* series name, or node name for a heat-map row */
	char *unit;
	guint gpus;     /* heat-map rows only */
	GArray *values; /* double */
};

typedef struct {
	char *profile;
	guint start;
	guint size;
	char *pod;
} RptSlice;

struct RptGpu {
	char *node;
	char *device;
	char *model;
	char *sharing;
	guint units;
	RptTime at_us;
	GPtrArray *slices; /* RptSlice */
};

struct RptMode {
	char *name;
	GPtrArray *info;         /* RptInfo */
	GPtrArray *metrics;      /* RptMetric */
	GPtrArray *unsched;      /* RptUnsched */
	GPtrArray *reasons;      /* RptReason */
	GPtrArray *translations; /* RptTranslation */
	RptTime sample_start_us;
	RptTime sample_interval_us;
	GPtrArray *series; /* RptSeries */
	GPtrArray *nodes;  /* RptSeries, heat-map rows */
	GPtrArray *gpus;   /* RptGpu */
	GArray *pods;      /* RptPod, strings in @strings */
	GStringChunk *strings;
	GPtrArray *placements; /* RptPlacement arrays of the pods, owned */
	gboolean has_ledger;
	RptLedger ledger;
};

struct RptReport {
	char *scenario;
	char *scenario_hash;
	uint64_t seed;
	char *version;
	RptTime horizon_us;
	char *baseline;   /* the HTML page's baseline mode, NULL: the first */
	GPtrArray *modes; /* RptMode */
};

void rpt_mode__free(RptMode *mode);

/* The time of sample @i of @mode, in µs. */
RptTime rpt_mode__sample_time(const RptMode *mode, guint i);
/* The number of samples: the longest series or heat-map row. */
guint rpt_mode__n_samples(const RptMode *mode);
/* Formats @value with the report's fixed precision into @buf ("null" for NaN/inf). */
void rpt__format_number(char *buf, gsize size, double value);
/* Formats @t_us in seconds, exact: "12", "0.5", "7362.323099" (no trailing zeros). */
void rpt__format_seconds(char *buf, gsize size, RptTime t_us);
/* Sets info @key with the JSON @kind (rpt_mode_set_info and the typed setters). */
void rpt_mode__set_info_kind(RptMode *self, const char *key, const char *value, RptInfoKind kind);
RptInfoKind rpt_mode__get_info_kind(const RptMode *self, guint index);

/* rpt_text.c: pods with the same message and detail, most pods first (ties in report
 * order); the first one stands for the rest. An array of RptReasonGroup. */
typedef struct {
	const RptReason *first;
	guint order; /* index of @first: ties keep report order */
	guint pods;
} RptReasonGroup;
GArray *rpt_text__group_reasons(const RptMode *mode);

/* rpt_csv.c: an RFC 4180 field (quoted when it holds a comma, a quote or a line break;
 * NULL is empty), preceded by a comma unless @first; a number field (empty when not
 * finite), always preceded by a comma. */
void rpt_csv__field(GString *out, const char *text, gboolean first);
void rpt_csv__number_field(GString *out, double value);
/* rpt_json.c: @value as a raw JSON number with the report's fixed precision (null for NaN). */
struct cJSON *rpt_json__number(double value);

/* rpt_sink.c: the buffer size at which the streamed writers pass their text on */
#define RPT_SINK_CHUNK (64 * 1024)
/* Passes @text to @sink and empties it once it holds @at_least bytes (any
 * text with 0); FALSE with the sink's @error. */
gboolean rpt__sink_pass(const RptSink *sink, GString *text, gsize at_least, GError **error);
/* What @produce writes from @subject, as one string (transfer full). */
char *rpt__produce_to_string(RptProduceFunc produce, gconstpointer subject);

/* The JSON array of @pods (RptPod) as cJSON_Print would print it with the
 * array at @depth, appended to @buffer and passed on to @sink a chunk at a
 * time (the last part stays in @buffer); FALSE with the sink's @error. */
gboolean rpt_json__pods_write(
        const GArray *pods, guint depth, GString *buffer, const RptSink *sink, GError **error);
/* rpt_json_load.c: a JSON number that is a whole number in [0, 2^64) */
gboolean rpt_json__whole_number(const struct cJSON *item, uint64_t *out);
/* rpt_json_load.c: @text as JSON, or NULL with an error naming path:line:col */
struct cJSON *rpt_json__parse(const char *path, const char *text, gsize length, GError **error);
/* rpt_ledger.c: the mode's "ledger" object, NULL when it has none */
struct cJSON *rpt_json__ledger(const RptMode *mode);
/* Returns: (transfer none) the pattern of the rule for @name in @unit: the last one that matches.
 */
const char *rpt_tolerances__lookup(const RptTolerances *self,
                                   const char *name,
                                   const char *unit,
                                   gboolean *relative_out,
                                   double *value_out);

/* rpt_html.c: a self-contained page's frame: the head with the report's style (and
 * @extra_style), the error counter, <body> and an <h1> of @title left open for more
 * text. Close appends the chart check script (data-check on <body>: "ok" when every
 * chart holds data and, with @charts_expected, there is at least one) and ends the page. */
/* Appends @text with HTML's special characters escaped (NULL: nothing). */
void rpt_html__escaped(GString *out, const char *text);
GString *rpt_html__page_open(const char *title, const char *extra_style);
char *rpt_html__page_close(GString *out, gboolean charts_expected);
/* rpt_html_compare.c: the page's comparing parts. The summary sentence, from the metrics
 * and pod reasons ("dra scheduled 72 of 72 pods, extended 60. ..."); what a scheduler
 * message says pods waited for ("for nvidia.com/gpu"); the metrics table with deltas
 * against the baseline mode; the per-workload breakdown. */
char *rpt_html__summary_sentence(const RptReport *report);
char *rpt_html__wait_phrase(const char *message);
void rpt_html__summary_table(GString *out, const RptReport *report);
void rpt_html__workloads(GString *out, const RptReport *report);

/* rpt_svg.c: inline SVG charts for the HTML page. Each chart is an <svg class="chart">
 * with data-points = the number of data points drawn, which the page's check reads. */
/* Opens an <svg class="chart"> of the line charts' width and @height with @title;
 * with @points == 0 it says so on the chart. The caller closes it with </svg>. */
void
rpt_svg__open_chart(GString *out, const char *id, const char *title, double height, guint points);
/* The same at @width x @height (a chart wider than the line charts). */
void rpt_svg__open_chart_sized(
        GString *out, const char *id, const char *title, double width, double height, guint points);
/* Colour @index of the charts' palette of ten (a series keeps its index on every chart). */
const char *rpt_svg__colour(guint index);
/* A point of a line with its band, in plot pixels; NaN y: a gap; NaN lo or hi: no band. */
typedef struct {
	double x, y, lo, hi;
} RptSvgPoint;
/* The bands over each run of points with lo and hi (a lone one: an error bar, class
 * "bar"), then the line (class "mean", @line_attrs added when not NULL) through the
 * points with a y, broken at the gaps. Returns the number of points on the line. */
guint rpt_svg__band_line(GString *out,
                         const RptSvgPoint *points,
                         guint n,
                         const char *colour,
                         const char *line_attrs);
/* An axis label: %.4g below 10,000, then 47.4k, 1.2M, 3.5G (rpt_svg.c). */
void rpt_svg__tick_text(char *buf, gsize size, double v);
void rpt_svg__heatmap(GString *out, const char *id, const char *title, const RptMode *mode);
void rpt_svg__gpus(GString *out, const char *id, const char *title, const RptMode *mode);
