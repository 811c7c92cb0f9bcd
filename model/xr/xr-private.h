/*
 * xr-private.h: the node view's layout, shared by model/xr files only.
 */
#pragma once

#include "xr.h"

struct XrNodeView {
	GPtrArray *resources;  /* XrResource*, sorted by name */
	GPtrArray *label_keys; /* char*, sorted, parallel to label_values */
	GPtrArray *label_values;
	char *invalid_reason; /* single strategy: why the node is invalid */
	XrConfig config;
};

void xr_view__set_label(XrNodeView *self, const char *key, const char *value);
void xr_view__add_resource(XrNodeView *self, const char *name, gint64 count, guint replicas);
void xr_labels__compute(XrNodeView *self, const HwNode *node);
