/*
 * base_strict.c: strict readers of scalar text and of mapping keys, shared by
 * every input decoder (see base_strict.h). Each check returns FALSE with a
 * message saying what was expected; the caller owns positions and paths.
 */
#include "base_strict.h"

#include <math.h>
#include <string.h>

/* Optimal string alignment distance, case-insensitive; names are short. */
static guint
osa_distance(const char *a, const char *b)
{
	gsize n = strlen(a), m = strlen(b);
	g_autofree guint *d = NULL;

	if (n > 64 || m > 64)
		return G_MAXUINT;
	d = g_new0(guint, (n + 1) * (m + 1));
#define D(i, j) d[(i) * (m + 1) + (j)]
	for (gsize i = 0; i <= n; i++)
		D(i, 0) = (guint)i;
	for (gsize j = 0; j <= m; j++)
		D(0, j) = (guint)j;
	for (gsize i = 1; i <= n; i++) {
		for (gsize j = 1; j <= m; j++) {
			guint cost = g_ascii_tolower(a[i - 1]) != g_ascii_tolower(b[j - 1]);
			guint v = MIN(D(i - 1, j) + 1, D(i, j - 1) + 1);

			v = MIN(v, D(i - 1, j - 1) + cost);
			if (i > 1 && j > 1 &&
			    g_ascii_tolower(a[i - 1]) == g_ascii_tolower(b[j - 2]) &&
			    g_ascii_tolower(a[i - 2]) == g_ascii_tolower(b[j - 1]))
				v = MIN(v, D(i - 2, j - 2) + 1);
			D(i, j) = v;
		}
	}
	return D(n, m);
#undef D
}

const char *
base_strict_closest_n(const char *word, const char *const *known, gsize n)
{
	gsize len = strlen(word);
	guint limit = len <= 4 ? 1 : len <= 8 ? 2 : 3;
	const char *best = NULL;
	guint best_d = limit + 1;

	for (gsize i = 0; i < n; i++) {
		guint d = osa_distance(word, known[i]);

		if (d < best_d) {
			best_d = d;
			best = known[i];
		}
	}
	return best;
}

const char *
base_strict_closest(const char *word, const char *const *known)
{
	return base_strict_closest_n(word, known, g_strv_length((char **)known));
}

char *
base_strict_unknown(const char *what, const char *word, const char *const *known, const char *label)
{
	GString *s = g_string_new(NULL);
	const char *near = base_strict_closest(word, known);

	g_string_append_printf(s, "%s '%s'", what, word);
	if (near != NULL)
		g_string_append_printf(s, "; did you mean '%s'?", near);
	if (label != NULL) {
		g_autofree char *names = g_strjoinv(", ", (char **)known);

		g_string_append_printf(s, "%s %s: %s", near != NULL ? "" : ";", label, names);
	}
	return g_string_free(s, FALSE);
}

gboolean
base_strict_is_known(const char *word, const char *const *known)
{
	for (guint i = 0; known[i] != NULL; i++) {
		if (strcmp(word, known[i]) == 0)
			return TRUE;
	}
	return FALSE;
}

gboolean
base_strict_key(const char *key, const char *const *known, BaseStrictHint hint, char **message)
{
	if (base_strict_is_known(key, known))
		return TRUE;
	if (hint == BASE_STRICT_HINT_LIST) {
		g_autofree char *names = g_strjoinv(", ", (char **)known);

		*message =
		        g_strdup_printf("unknown field \"%s\" (expected one of: %s)", key, names);
		return FALSE;
	}
	*message = base_strict_unknown("unknown field", key, known, NULL);
	return FALSE;
}

gboolean
base_strict_uint(const char *text, guint64 max, guint64 *out, char **message)
{
	gint64 value;

	if (!g_ascii_string_to_signed(text, 10, G_MININT64, G_MAXINT64, &value, NULL)) {
		*message = g_strdup_printf("expected an integer, got \"%s\"", text);
		return FALSE;
	}
	if (value < 0) {
		*message = g_strdup_printf("expected a non-negative integer, got %" G_GINT64_FORMAT,
		                           value);
		return FALSE;
	}
	if ((guint64)value > max) {
		*message = g_strdup_printf("%" G_GINT64_FORMAT
		                           " is too large (at most %" G_GUINT64_FORMAT ")",
		                           value, max);
		return FALSE;
	}
	*out = (guint64)value;
	return TRUE;
}

gboolean
base_strict_uint_range(gboolean negative,
                       guint64 magnitude,
                       guint64 max,
                       const char *shown,
                       guint64 *out,
                       char **message)
{
	/* -0 is 0: go-yaml reads it so */
	if ((negative && magnitude != 0) || magnitude > max) {
		*message = g_strdup_printf(
		        "expected an integer in [0, %" G_GUINT64_FORMAT "], got %s", max, shown);
		return FALSE;
	}
	*out = magnitude;
	return TRUE;
}

gboolean
base_strict_bool(const char *text, gboolean *out, char **message)
{
	if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
		*out = text[0] == 't';
		return TRUE;
	}
	*message = g_strdup_printf("expected true or false, got \"%s\"", text);
	return FALSE;
}

gboolean
base_strict_nonnegative(double value, const char *shown, char **message)
{
	if (isfinite(value) && value >= 0)
		return TRUE;
	*message = g_strdup_printf("expected a finite number >= 0, got %s", shown);
	return FALSE;
}

gboolean
base_strict_count(guint64 count, guint64 max, const char *what, char **message)
{
	if (count <= max)
		return TRUE;
	*message = g_strdup_printf("at most %" G_GUINT64_FORMAT " %s", max, what);
	return FALSE;
}
