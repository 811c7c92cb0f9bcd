/*
 * k8s_diag.c: the diagnostic list shared by the loader, decoder, validation,
 * lint, CEL checks and the allocator.
 *
 * Strings live in one GStringChunk per list so adding a diagnostic costs two
 * chunk copies and no per-diagnostic malloc; the list is a GArray of values.
 * Output order is insertion order unless the caller sorts, so output never
 * depends on hash order.
 */
#include "k8s_diag.h"

#include <string.h>

struct K8sDiagList {
	GArray *items; /* K8sDiag */
	GStringChunk *strings;
	guint errors;
};

K8sDiagList *
k8s_diag_list_new(void)
{
	K8sDiagList *self = g_new0(K8sDiagList, 1);

	self->items = g_array_new(FALSE, TRUE, sizeof(K8sDiag));
	self->strings = g_string_chunk_new(1024);
	return self;
}

void
k8s_diag_list_free(K8sDiagList *self)
{
	if (self == NULL) {
		return;
	}
	g_array_free(self->items, TRUE);
	g_string_chunk_free(self->strings);
	g_free(self);
}

void
k8s_diag_list_addv(K8sDiagList *self,
                   K8sSeverity severity,
                   const K8sPos *pos,
                   const char *path,
                   const char *format,
                   va_list args)
{
	K8sDiag diag = { .severity = severity };
	g_autofree char *message = g_strdup_vprintf(format, args);

	g_return_if_fail(self != NULL);
	if (pos != NULL) {
		diag.pos = *pos;
		if (pos->file != NULL) {
			diag.pos.file = g_string_chunk_insert_const(self->strings, pos->file);
		}
	}
	diag.message = g_string_chunk_insert(self->strings, message);
	diag.path = g_string_chunk_insert_const(self->strings, path != NULL ? path : "");
	g_array_append_val(self->items, diag);
	if (severity == K8S_SEVERITY_ERROR) {
		self->errors++;
	}
}

void
k8s_diag_list_add(K8sDiagList *self,
                  K8sSeverity severity,
                  const K8sPos *pos,
                  const char *path,
                  const char *format,
                  ...)
{
	va_list args;

	va_start(args, format);
	k8s_diag_list_addv(self, severity, pos, path, format, args);
	va_end(args);
}

void
k8s_diag_list_error(K8sDiagList *self, const K8sPos *pos, const char *path, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	k8s_diag_list_addv(self, K8S_SEVERITY_ERROR, pos, path, format, args);
	va_end(args);
}

void
k8s_diag_list_warning(
        K8sDiagList *self, const K8sPos *pos, const char *path, const char *format, ...)
{
	va_list args;

	va_start(args, format);
	k8s_diag_list_addv(self, K8S_SEVERITY_WARNING, pos, path, format, args);
	va_end(args);
}

void
k8s_diag_list_append(K8sDiagList *self, const K8sDiagList *other)
{
	for (guint i = 0; i < other->items->len; i++) {
		const K8sDiag *diag = &g_array_index(other->items, K8sDiag, i);

		k8s_diag_list_add(self, diag->severity, &diag->pos, diag->path, "%s",
		                  diag->message);
	}
}

guint
k8s_diag_list_count(const K8sDiagList *self)
{
	return self->items->len;
}

guint
k8s_diag_list_count_errors(const K8sDiagList *self)
{
	return self->errors;
}

guint
k8s_diag_list_count_warnings(const K8sDiagList *self)
{
	return self->items->len - self->errors;
}

const K8sDiag *
k8s_diag_list_get(const K8sDiagList *self, guint index)
{
	g_return_val_if_fail(index < self->items->len, NULL);
	return &g_array_index(self->items, K8sDiag, index);
}

static int
compare_diag(const K8sDiag *a, const K8sDiag *b)
{
	int c = g_strcmp0(a->pos.file, b->pos.file);

	if (c != 0) {
		return c;
	}
	if (a->pos.line != b->pos.line) {
		return a->pos.line < b->pos.line ? -1 : 1;
	}
	if (a->pos.col != b->pos.col) {
		return a->pos.col < b->pos.col ? -1 : 1;
	}
	return 0;
}

void
k8s_diag_list_sort(K8sDiagList *self)
{
	/* Insertion sort keeps equal keys in insertion order; lists are short. */
	K8sDiag *items = (K8sDiag *)(void *)self->items->data;

	for (guint i = 1; i < self->items->len; i++) {
		K8sDiag key = items[i];
		guint j = i;

		while (j > 0 && compare_diag(&items[j - 1], &key) > 0) {
			items[j] = items[j - 1];
			j--;
		}
		items[j] = key;
	}
}

char *
k8s_diag_format(const K8sDiag *diag)
{
	GString *out = g_string_new(NULL);
	const char *severity = diag->severity == K8S_SEVERITY_ERROR ? "error" : "warning";

	if (diag->pos.file == NULL) {
		g_string_append(out, "drasim");
	} else if (diag->pos.line == 0) {
		g_string_append(out, diag->pos.file);
	} else {
		g_string_append_printf(out, "%s:%u:%u", diag->pos.file, diag->pos.line,
		                       diag->pos.col);
	}
	g_string_append_printf(out, ": %s: %s", severity, diag->message);
	if (diag->path != NULL && diag->path[0] != '\0') {
		g_string_append_printf(out, " [%s]", diag->path);
	}
	return g_string_free(out, FALSE);
}

void
k8s_diag_list_print(const K8sDiagList *self, FILE *out)
{
	for (guint i = 0; i < self->items->len; i++) {
		g_autofree char *line = k8s_diag_format(&g_array_index(self->items, K8sDiag, i));

		fprintf(out, "%s\n", line);
	}
}

const K8sDiag *
k8s_diag_list_find(const K8sDiagList *self, const char *needle)
{
	for (guint i = 0; i < self->items->len; i++) {
		const K8sDiag *diag = &g_array_index(self->items, K8sDiag, i);

		if (strstr(diag->message, needle) != NULL) {
			return diag;
		}
	}
	return NULL;
}

K8sPos
k8s_pos_advance(K8sPos start, const char *text, gsize offset)
{
	K8sPos pos = start;

	for (gsize i = 0; i < offset && text[i] != '\0'; i = g_utf8_next_char(text + i) - text) {
		if (text[i] == '\n') {
			pos.line++;
			pos.col = 1;
		} else {
			pos.col++;
		}
	}
	return pos;
}
