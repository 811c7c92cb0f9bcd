/*
 * workload-private.h: declarations shared by the workload_*.c files only.
 */
#pragma once

#include "workload.h"

/* A checked distribution ready to draw from (empirical samples sorted). */
typedef struct {
	WorkloadDist dist;
	SimEmpirical *empirical;
} WorkloadDistState;

void workload_dist__init(WorkloadDistState *state, const WorkloadDist *dist);
void workload_dist__clear(WorkloadDistState *state);
double workload_dist__draw(const WorkloadDistState *state, SimRng *rng);

/*
 * A CSV reader over a file held in memory, with 1-based line and column of
 * every field for diagnostics. Fields may be quoted ("a,b", "" for a quote);
 * the files it is written for have no quotes, but a stray one must give an
 * error, not a crash.
 */
typedef struct {
	const char *path;
	char *data; /* the whole file (base_read_file: bounded) */
	const char *p;
	const char *end;
	guint32 line;
	guint32 row_line; /* line of the current row */
	GArray *offsets;  /* gsize: start of each field of the row in scratch */
	GArray *cols;     /* guint32: 1-based column of each field */
	GString *scratch; /* the row's fields, each NUL-terminated */
} WorkloadCsv;

gboolean workload_csv__open(WorkloadCsv *csv, const char *path, GError **error);
/* The same on @len bytes already in memory (copied); @path names them in errors. */
void workload_csv__open_data(WorkloadCsv *csv, const char *path, const char *data, gsize len);
void workload_csv__close(WorkloadCsv *csv);
/* Reads the next non-empty row. Returns FALSE at the end or on error (then
 * *error is set). */
gboolean workload_csv__next(WorkloadCsv *csv, GError **error);
static inline guint
workload_csv__n_fields(const WorkloadCsv *csv)
{
	return csv->offsets->len;
}
static inline const char *
workload_csv__field(const WorkloadCsv *csv, guint i)
{
	return csv->scratch->str + g_array_index(csv->offsets, gsize, i);
}
/* Sets a WORKLOAD_ERROR_TRACE "path:line:col: message [column]". */
gboolean workload_csv__fail(
        WorkloadCsv *csv, guint field, const char *column, GError **error, const char *format, ...)
        G_GNUC_PRINTF(5, 6);
