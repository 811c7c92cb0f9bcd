/*
 * api-test-util.h: helpers shared by the model/api unit tests.
 */
#pragma once

#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <glib.h>

#include "k8s_objects.h"

typedef struct {
	K8sObjectSet *set;
	K8sDiagList *diags;
	gboolean ok;
} Loaded;

static inline Loaded
load_text(const char *name, const char *text, K8sLoadFlags flags)
{
	Loaded l = { k8s_object_set_new(), k8s_diag_list_new(), FALSE };

	l.ok = k8s_load_data(name, text, strlen(text), flags, l.set, l.diags);
	return l;
}

static inline Loaded
load_path(const char *path, K8sLoadFlags flags)
{
	const char *paths[] = { path, NULL };
	Loaded l = { k8s_object_set_new(), k8s_diag_list_new(), FALSE };

	l.ok = k8s_load_paths(paths, flags, l.set, l.diags);
	return l;
}

static inline void
loaded_clear(Loaded *l)
{
	k8s_object_set_free(l->set);
	k8s_diag_list_free(l->diags);
}

/* The path of a file in tests/unit/api/data. (transfer full) */
static inline char *
data_path(const char *name)
{
	const char *dir = g_getenv("DRASIM_TEST_DATA");

	return g_build_filename(dir != NULL ? dir : "tests/unit/api/data", name, NULL);
}

/* Prints every diagnostic, each on a line that starts with @prefix (on failure). */
static inline void
print_diags_with(const K8sDiagList *diags, const char *prefix)
{
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		g_autofree char *s = k8s_diag_format(k8s_diag_list_get(diags, i));

		print_message("%s%s\n", prefix, s);
	}
}

/* Asserts one diagnostic contains @needle and sits at @line:@col; prints all on failure. */
static inline const K8sDiag *
expect_diag(const K8sDiagList *diags, const char *needle, guint line, guint col)
{
	const K8sDiag *d = k8s_diag_list_find(diags, needle);

	if (d == NULL || (line != 0 && (d->pos.line != line || d->pos.col != col))) {
		print_message("# expected '%s' at %u:%u; got:\n", needle, line, col);
		print_diags_with(diags, "#   ");
		fail();
	}
	return d;
}
