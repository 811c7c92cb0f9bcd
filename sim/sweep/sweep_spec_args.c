/*
 * sweep_spec_args.c: the command line's half of a sweep's spec: seed lists
 * ("1-10", "7", "1-5,9"; the Sweep file's spec.seeds reads through the same
 * parser) and `--vary PATH=V1,V2,...`, whose values are split at the commas
 * between values, not those inside a [list] or {mapping}, then read as YAML
 * like the file's values (sweep_spec__add_value).
 */
#include <string.h>

#include "base.h"
#include "base_strict.h"
#include "sweep_spec-private.h"

#define SEEDS_FORMS "write seeds like 1-10, 7 or 1-5,9"

/* One seed of @item (the list item it came from, for messages). */
static gboolean
parse_seed(const char *text, const char *item, guint64 *out, GError **error)
{
	g_autofree char *message = NULL;

	if (!base_strict_uint(text, G_MAXUINT64, out, &message)) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT, "\"%s\" is not a seed (%s); %s",
		            item, message, SEEDS_FORMS);
		return FALSE;
	}
	if (*out == 0) {
		/* scenario runs read seed 0 as "the scenario's own seed" */
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
		            "seed 0 is not valid: seeds start at 1 (drasim run reads 0 as the "
		            "scenario's own seed)");
		return FALSE;
	}
	return TRUE;
}

/* "A-B" or "A" into [*@first, *@last]. */
static gboolean
parse_range(const char *item, guint64 *first, guint64 *last, GError **error)
{
	const char *dash = strchr(item, '-');
	g_autofree char *a = NULL;

	if (dash == NULL) {
		if (!parse_seed(item, item, first, error))
			return FALSE;
		*last = *first;
		return TRUE;
	}
	a = g_strndup(item, (gsize)(dash - item));
	if (!parse_seed(a, item, first, error) || !parse_seed(dash + 1, item, last, error))
		return FALSE;
	if (*first > *last) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
		            "the range %s is empty: write the smaller seed first, like %s-%s", item,
		            dash + 1, a);
		return FALSE;
	}
	return TRUE;
}

/* Appends [@first, @last] to @seeds, refusing repeats (@seen) and lists beyond the bound. */
static gboolean
append_range(GArray *seeds, GHashTable *seen, guint64 first, guint64 last, GError **error)
{
	if (last - first >= (guint64)SWEEP_MAX_SEEDS - seeds->len) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
		            "more than %d seeds (a sweep runs at most %d seeds per cell)",
		            SWEEP_MAX_SEEDS, SWEEP_MAX_SEEDS);
		return FALSE;
	}
	for (guint64 s = first;; s++) {
		if (!g_hash_table_add(seen, g_memdup2(&s, sizeof s))) {
			g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
			            "seed %" G_GUINT64_FORMAT " is given twice", s);
			return FALSE;
		}
		g_array_append_val(seeds, s);
		if (s == last)
			return TRUE;
	}
}

gboolean
sweep_seeds_parse(const char *text, GArray *seeds, GError **error)
{
	g_autoptr(GHashTable) seen =
	        g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	g_auto(GStrv) items = g_strsplit(text, ",", -1);

	for (guint i = 0; i < seeds->len; i++)
		g_hash_table_add(seen,
		                 g_memdup2(&g_array_index(seeds, guint64, i), sizeof(guint64)));
	if (items[0] == NULL) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT, "no seeds given; %s",
		            SEEDS_FORMS);
		return FALSE;
	}
	for (guint i = 0; items[i] != NULL; i++) {
		const char *item = g_strstrip(items[i]);
		guint64 first, last;

		if (item[0] == '\0') {
			g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
			            "an empty item in the seeds \"%s\"; %s", text, SEEDS_FORMS);
			return FALSE;
		}
		if (!parse_range(item, &first, &last, error) ||
		    !append_range(seeds, seen, first, last, error))
			return FALSE;
	}
	return TRUE;
}

/* ---- --vary PATH=V1,V2,... ---------------------------------------------------------- */

/*
 * The end of the next piece of @s from @start: the first @stop outside brackets,
 * braces and quotes, or the end; -1 when the brackets or quotes do not balance.
 */
static gssize
piece_end(const char *s, gsize start, char stop)
{
	int depth = 0;
	char quote = '\0';

	for (gsize i = start; s[i] != '\0'; i++) {
		char c = s[i];

		if (quote != '\0') {
			if (c == '\\' && quote == '"' && s[i + 1] != '\0')
				i++;
			else if (c == quote)
				quote = '\0';
		} else if (c == '"' || c == '\'') {
			quote = c;
		} else if (c == '[' || c == '{') {
			depth++;
		} else if (c == ']' || c == '}') {
			if (--depth < 0)
				return -1;
		} else if (c == stop && depth == 0) {
			return (gssize)i;
		}
	}
	return quote != '\0' || depth != 0 ? -1 : (gssize)strlen(s);
}

/* Reads @text as one YAML value and adds it to @param. */
static gboolean
add_vary_value(SweepParam *param, const char *text, K8sPos pos, GError **error)
{
	g_autoptr(BaseArena) arena = base_arena_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	GStringChunk *strings = g_string_chunk_new(256);
	K8sYamlFile file = { 0 };
	g_autofree char *message = NULL;
	gboolean ok;

	ok = k8s_yaml_parse_data(
	        &(K8sYamlInput){ pos.file, text, strlen(text), arena, strings, diags }, &file);
	if (!ok || file.n_docs != 1)
		message = g_strdup_printf("the value \"%s\" is not one YAML value%s%s", text,
		                          ok ? "" : ": ",
		                          ok ? "" : k8s_diag_list_get(diags, 0)->message);
	else
		sweep_spec__add_value(param, file.docs[0].root, pos, &message);
	g_string_chunk_free(strings);
	if (message != NULL) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT, "%s: %s [%s]", pos.file, message,
		            param->path);
		return FALSE;
	}
	return TRUE;
}

/* The values of `--vary PATH=VALUES` into @param. */
static gboolean
add_vary_values(SweepParam *param, const char *values, K8sPos pos, GError **error)
{
	gsize start = 0;

	for (;;) {
		gssize end = piece_end(values, start, ',');
		g_autofree char *piece = NULL;

		if (end < 0) {
			g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
			            "%s: the brackets or quotes of \"%s\" do not balance [%s]",
			            pos.file, values, param->path);
			return FALSE;
		}
		piece = g_strstrip(g_strndup(values + start, (gsize)end - start));
		if (piece[0] == '\0') {
			g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
			            "%s: an empty value in \"%s\" (write \"\" for an empty string) "
			            "[%s]",
			            pos.file, values, param->path);
			return FALSE;
		}
		if (!add_vary_value(param, piece, pos, error))
			return FALSE;
		if (values[end] == '\0')
			return TRUE;
		start = (gsize)end + 1;
	}
}

gboolean
sweep_spec_add_vary(SweepSpec *self, const char *arg, guint index, GError **error)
{
	g_autofree char *name = g_strdup_printf("--vary %u", index);
	/* interned: the positions outlive this call and copies of the spec */
	K8sPos pos = { g_intern_string(name), 0, 0 };
	gssize eq = piece_end(arg, 0, '=');
	g_autofree char *path = NULL;
	g_autofree char *message = NULL;
	SweepParam *param;

	if (eq < 0 || arg[eq] != '=') {
		g_set_error(
		        error, SWEEP_ERROR, SWEEP_ERROR_INPUT,
		        "%s: expected PATH=V1,V2,... like spec.cluster.nodePools[0].count=2,3,4, "
		        "got \"%s\"",
		        pos.file, arg);
		return FALSE;
	}
	path = g_strndup(arg, (gsize)eq);
	param = sweep_spec__add_param(self, path, pos, &message);
	if (param == NULL) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_INPUT, "%s: %s [%s]", pos.file, message,
		            path);
		return FALSE;
	}
	if (!add_vary_values(param, arg + eq + 1, pos, error)) {
		g_array_remove_index(self->params, self->params->len - 1);
		return FALSE;
	}
	return TRUE;
}
