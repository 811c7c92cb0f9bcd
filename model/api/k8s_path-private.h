/*
 * k8s_path-private.h: field paths ("spec.devices.requests[0].selectors[key]") as the
 * decoder and the validator both build them, in a GString that grows and is cut back.
 */
#pragma once

#include <glib.h>

/* Appends ".name" (or "name" at the start); returns the mark to cut back to. */
gsize k8s_path_push_field(GString *path, const char *name);
/* Appends "[index]". */
gsize k8s_path_push_index(GString *path, guint index);
/* Appends "[key]" (a map key, upstream's fldPath.Key). */
gsize k8s_path_push_key(GString *path, const char *key);
/* Cuts @path back to @mark, a value one of the pushes returned. */
void k8s_path_pop(GString *path, gsize mark);
