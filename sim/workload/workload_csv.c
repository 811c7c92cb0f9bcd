/*
 * workload_csv.c: a small CSV reader for trace files, positions included.
 *
 * The file is read whole within the input limit (base_read_file: a FIFO or
 * /dev/zero cannot exhaust memory) and scanned once; each row's fields are
 * unescaped into one scratch buffer that is reused, so reading allocates
 * nothing per row. Every field keeps its line and column so the trace reader
 * can report "file:line:col" for a bad value.
 */
#include <stdarg.h>
#include <string.h>

#include "base.h"
#include "workload-private.h"

static void
start_scan(WorkloadCsv *csv, gsize length)
{
	csv->p = csv->data;
	csv->end = csv->p + length;
	csv->offsets = g_array_new(FALSE, FALSE, sizeof(gsize));
	csv->cols = g_array_new(FALSE, FALSE, sizeof(guint32));
	csv->scratch = g_string_sized_new(256);
}

gboolean
workload_csv__open(WorkloadCsv *csv, const char *path, GError **error)
{
	g_autoptr(GError) io_error = NULL;
	gsize length = 0;

	*csv = (WorkloadCsv){ .path = path, .line = 1 };
	if (!base_read_file(path, &csv->data, &length, &io_error)) {
		g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_IO, "%s: %s", path,
		            io_error->message);
		return FALSE;
	}
	start_scan(csv, length);
	return TRUE;
}

void
workload_csv__open_data(WorkloadCsv *csv, const char *path, const char *data, gsize len)
{
	*csv = (WorkloadCsv){ .path = path, .line = 1 };
	/* NUL-terminated like base_read_file()'s buffer, which the scanner relies on */
	csv->data = g_malloc(len + 1);
	memcpy(csv->data, data, len);
	csv->data[len] = '\0';
	start_scan(csv, len);
}

void
workload_csv__close(WorkloadCsv *csv)
{
	g_clear_pointer(&csv->data, g_free);
	g_clear_pointer(&csv->offsets, g_array_unref);
	g_clear_pointer(&csv->cols, g_array_unref);
	if (csv->scratch != NULL) {
		g_string_free(csv->scratch, TRUE);
		csv->scratch = NULL;
	}
}

gboolean
workload_csv__fail(
        WorkloadCsv *csv, guint field, const char *column, GError **error, const char *format, ...)
{
	va_list args;
	guint32 col = field < csv->cols->len ? g_array_index(csv->cols, guint32, field) : 1;

	va_start(args, format);
	g_autofree char *msg = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, WORKLOAD_ERROR, WORKLOAD_ERROR_TRACE, "%s:%u:%u: %s%s%s%s", csv->path,
	            csv->row_line, col, msg, column != NULL ? " [" : "",
	            column != NULL ? column : "", column != NULL ? "]" : "");
	return FALSE;
}

/* One quoted field: p is after the opening quote. Returns the position after
 * the closing quote, or NULL if the file ends first. */
static const char *
scan_quoted(WorkloadCsv *csv, const char *p)
{
	while (p < csv->end) {
		if (*p == '"') {
			if (p + 1 < csv->end && p[1] == '"') {
				g_string_append_c(csv->scratch, '"');
				p += 2;
				continue;
			}
			return p + 1;
		}
		if (*p == '\n') {
			csv->line++;
		}
		g_string_append_c(csv->scratch, *p++);
	}
	return NULL;
}

static gboolean
at_row_end(const WorkloadCsv *csv, const char *p)
{
	return p >= csv->end || *p == '\n' || (*p == '\r' && (p + 1 >= csv->end || p[1] == '\n'));
}

gboolean
workload_csv__next(WorkloadCsv *csv, GError **error)
{
	/* skip blank lines */
	while (csv->p < csv->end && (*csv->p == '\n' || *csv->p == '\r')) {
		csv->line += *csv->p == '\n';
		csv->p++;
	}
	if (csv->p >= csv->end) {
		return FALSE;
	}
	g_array_set_size(csv->offsets, 0);
	g_array_set_size(csv->cols, 0);
	g_string_truncate(csv->scratch, 0);
	csv->row_line = csv->line;

	const char *line_start = csv->p;
	const char *p = csv->p;
	for (;;) {
		gsize offset = csv->scratch->len;
		guint32 col = (guint32)(p - line_start) + 1;
		g_array_append_val(csv->offsets, offset);
		g_array_append_val(csv->cols, col);
		if (p < csv->end && *p == '"') {
			p = scan_quoted(csv, p + 1);
			if (p == NULL) {
				csv->p = csv->end;
				return workload_csv__fail(csv, csv->cols->len - 1, NULL, error,
				                          "unterminated quoted field");
			}
			if (!at_row_end(csv, p) && *p != ',') {
				return workload_csv__fail(csv, csv->cols->len - 1, NULL, error,
				                          "expected ',' after a quoted field");
			}
		} else {
			const char *start = p;
			while (!at_row_end(csv, p) && *p != ',') {
				p++;
			}
			g_string_append_len(csv->scratch, start, p - start);
		}
		g_string_append_c(csv->scratch, '\0');
		if (at_row_end(csv, p)) {
			break;
		}
		p++; /* the comma */
	}
	if (p < csv->end && *p == '\r') {
		p++;
	}
	if (p < csv->end) {
		p++; /* the newline */
		csv->line++;
	}
	csv->p = p;
	return TRUE;
}
