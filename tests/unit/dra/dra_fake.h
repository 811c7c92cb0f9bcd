/*
 * dra_fake.h: a tiny selector language for allocator tests without CEL.
 *
 * Expressions: "true", "false", "error", `driver == "NAME"`,
 * `attr NAME == VALUE` (the attribute's value printed as text; a missing
 * attribute is a runtime error) and `has NAME`. Enough to
 * drive the search with hand-built inventories.
 */
#pragma once

#include <stdio.h>
#include <string.h>

#include "dra.h"

static gpointer
fake_compile(gpointer data, const char *expression, GError **error)
{
	if (strcmp(expression, "syntax error") == 0) {
		g_set_error(error, DRA_ERROR, DRA_ERROR_SELECTOR, "undeclared reference to x");
		return NULL;
	}
	return g_strdup(expression);
}

static DraMatch
fake_eval(gpointer data,
          gpointer program,
          const DraDevice *device,
          const char *driver,
          gpointer *view,
          const char **message)
{
	const char *e = program;
	char name[64];
	char value[64];

	if (strcmp(e, "true") == 0) {
		return DRA_MATCH_TRUE;
	}
	if (strcmp(e, "false") == 0) {
		return DRA_MATCH_FALSE;
	}
	if (strcmp(e, "error") == 0) {
		*message = "no such key: foo";
		return DRA_MATCH_ERROR;
	}
	if (sscanf(e, "driver == \"%63[^\"]\"", value) == 1) {
		return strcmp(driver, value) == 0 ? DRA_MATCH_TRUE : DRA_MATCH_FALSE;
	}
	if (sscanf(e, "has %63s", name) == 1) {
		for (guint i = 0; i < device->n_attributes; i++) {
			if (strcmp(device->attributes[i].name, name) == 0) {
				return DRA_MATCH_TRUE;
			}
		}
		return DRA_MATCH_FALSE;
	}
	if (sscanf(e, "attr %63s == %63s", name, value) == 2) {
		for (guint i = 0; i < device->n_attributes; i++) {
			const DraAttribute *a = &device->attributes[i];
			char text[64];
			if (strcmp(a->name, name) != 0) {
				continue;
			}
			if (a->kind == DRA_ATTR_INT) {
				g_snprintf(text, sizeof(text), "%" G_GINT64_FORMAT, a->int_value);
			} else if (a->kind == DRA_ATTR_BOOL) {
				g_snprintf(text, sizeof(text), "%s",
				           a->bool_value ? "true" : "false");
			} else {
				g_snprintf(text, sizeof(text), "%s", a->string_value);
			}
			return strcmp(text, value) == 0 ? DRA_MATCH_TRUE : DRA_MATCH_FALSE;
		}
		*message = "no such key";
		return DRA_MATCH_ERROR;
	}
	*message = "unsupported fake expression";
	return DRA_MATCH_ERROR;
}

static void
fake_free_program(gpointer data, gpointer program)
{
	g_free(program);
}

/* reads_node_values NULL: the allocator assumes any selector may read per-node values */
static const DraSelectorOps fake_ops = { fake_compile, fake_eval, fake_free_program, NULL, NULL };
