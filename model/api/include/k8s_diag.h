/*
 * k8s_diag.h: source positions and diagnostics for everything drasim reads.
 *
 * Every decoded value carries a K8sPos; every
 * problem found by the loader, the decoder, validation, lint, CEL checks or the
 * allocator is a K8sDiag in a K8sDiagList, printed as
 *   FILE:LINE:COL: error|warning: message [field.path]
 * Lines and columns are 1-based; line 0 means "no position" (e.g. a whole file).
 */
#pragma once

#include <stdio.h>

#include <glib.h>

G_BEGIN_DECLS

/* A position in an input file. @file is interned (borrowed from whoever loaded
 * the file, normally a K8sObjectSet) and outlives the values that point to it. */
typedef struct {
	const char *file;
	guint32 line; /* 1-based; 0 = unknown */
	guint32 col;  /* 1-based, in characters of the line (tabs count as 1) */
} K8sPos;

typedef enum {
	K8S_SEVERITY_ERROR,
	K8S_SEVERITY_WARNING,
} K8sSeverity;

/* One diagnostic. All strings are owned by the list that holds it. */
typedef struct {
	K8sSeverity severity;
	K8sPos pos;
	const char *message;
	const char *path; /* field path like "spec.devices.requests[0].name"; may be "" */
} K8sDiag;

typedef struct K8sDiagList K8sDiagList;

/** k8s_diag_list_new: an empty list. (transfer full) */
K8sDiagList *k8s_diag_list_new(void);
/** k8s_diag_list_free: frees the list and its strings; NULL is a no-op. */
void k8s_diag_list_free(K8sDiagList *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(K8sDiagList, k8s_diag_list_free)

/**
 * k8s_diag_list_add:
 * Appends a diagnostic. @pos may be NULL (no position); @path may be NULL.
 * All strings are copied, so callers may pass temporaries.
 */
void k8s_diag_list_add(K8sDiagList *self,
                       K8sSeverity severity,
                       const K8sPos *pos,
                       const char *path,
                       const char *format,
                       ...) G_GNUC_PRINTF(5, 6);
void k8s_diag_list_addv(K8sDiagList *self,
                        K8sSeverity severity,
                        const K8sPos *pos,
                        const char *path,
                        const char *format,
                        va_list args) G_GNUC_PRINTF(5, 0);

/* Shorthands for k8s_diag_list_add() with a fixed severity. */
void
k8s_diag_list_error(K8sDiagList *self, const K8sPos *pos, const char *path, const char *format, ...)
        G_GNUC_PRINTF(4, 5);
void k8s_diag_list_warning(K8sDiagList *self,
                           const K8sPos *pos,
                           const char *path,
                           const char *format,
                           ...) G_GNUC_PRINTF(4, 5);

/** k8s_diag_list_append: copies every diagnostic of @other to the end of @self. */
void k8s_diag_list_append(K8sDiagList *self, const K8sDiagList *other);

guint k8s_diag_list_count(const K8sDiagList *self);
guint k8s_diag_list_count_errors(const K8sDiagList *self);
guint k8s_diag_list_count_warnings(const K8sDiagList *self);
/** k8s_diag_list_get: the @index-th diagnostic, borrowed until the list changes. */
const K8sDiag *k8s_diag_list_get(const K8sDiagList *self, guint index);

/**
 * k8s_diag_list_sort:
 * Stable sort by (file, line, col); diagnostics without a position keep their
 * place relative to each other and come first for their file.
 */
void k8s_diag_list_sort(K8sDiagList *self);

/**
 * k8s_diag_format:
 * Returns "FILE:LINE:COL: error|warning: message [path]" (no newline).
 * Without a position the location is "FILE" alone, or "drasim" without a file.
 * (transfer full)
 */
char *k8s_diag_format(const K8sDiag *diag);

/** k8s_diag_list_print: writes every diagnostic, one per line, to @out. */
void k8s_diag_list_print(const K8sDiagList *self, FILE *out);

/** k8s_diag_list_find: the first diagnostic whose message contains @needle, or NULL. */
const K8sDiag *k8s_diag_list_find(const K8sDiagList *self, const char *needle);

/**
 * k8s_pos_advance:
 * The position of byte @offset inside a scalar whose text starts at @start and
 * whose source was plain or quoted on one line. Used to point at a character
 * inside a CEL expression. Block scalars need k8s_pos_in_scalar() from the
 * node API, which knows the indentation.
 */
K8sPos k8s_pos_advance(K8sPos start, const char *text, gsize offset);

G_END_DECLS
