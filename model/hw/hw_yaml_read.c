/*
 * hw_yaml_read.c: positioned, strict reading of the hardware YAML files.
 *
 * The catalog and the generic-driver descriptions are parsed by model/api's
 * reader (k8s_yaml_parse_data(): the same YAML tree, positions and limits as
 * every other input; drasim's only libyaml user) and walked here. Unknown keys
 * are errors, like everywhere in drasim. What a valid scalar or key is, and the
 * message when it is not, is base's (base_strict.h), shared with the scenario
 * decoder; k8s_yaml_read.h adds the FILE:LINE:COL and the field path. The first
 * error ends the read and becomes the GError "FILE:LINE:COL: error: MSG [PATH]".
 */
#include <stdarg.h>
#include <string.h>

#include "base_strict.h"
#include "hw-private.h"

G_DEFINE_QUARK(hw - error - quark, hw_error)

/* The last diagnostic of @reader as @code. */
static void
set_error(HwReader *reader, GError **error, int code)
{
	const K8sDiagList *diags = reader->yaml.diags;
	g_autofree char *line =
	        k8s_diag_format(k8s_diag_list_get(diags, k8s_diag_list_count(diags) - 1));

	g_set_error_literal(error, HW_ERROR, code, line);
}

gboolean
hw_reader__fail(
        HwReader *reader, const K8sYamlNode *node, const char *path, const char *format, ...)
{
	va_list args;
	g_autofree char *message = NULL;

	if (reader->failed) {
		return FALSE;
	}
	reader->failed = TRUE;
	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	if (node != NULL) {
		k8s_yaml_read_error(&reader->yaml, node, path, "%s", message);
	} else {
		K8sPos start = { reader->yaml.file, 1, 1 };

		k8s_diag_list_error(reader->yaml.diags, &start, path, "%s", message);
	}
	set_error(reader, reader->error, HW_ERROR_INVALID);
	return FALSE;
}

gboolean
hw_reader__fail_key(HwReader *reader,
                    const K8sYamlNode *map,
                    const char *key,
                    const char *path,
                    const char *format,
                    ...)
{
	va_list args;
	g_autofree char *message = NULL;
	g_autofree char *sub = g_strdup_printf("%s.%s", path, key);
	const K8sYamlNode *value = hw_reader__get(reader, map, key);

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	return hw_reader__fail(reader, value ? value : map, sub, "%s", message);
}

/*
 * A key given twice is an error, as in the manifest reader: the data-file tree keeps
 * both pairs so that the error can name the field path, hw_reader__get() would take
 * the first and the walks over a map (placement tables, attributes, capacity) both,
 * so the file would mean two things. Hashed, so that a huge mapping costs linear time.
 */
static gboolean
check_unique_keys(HwReader *reader, const K8sYamlNode *map, const char *path)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

	MAP_FOREACH(map, pair)
	{
		const char *text = pair->key->scalar.text; /* the tree's keys are scalars */
		const K8sYamlNode *first = g_hash_table_lookup(seen, text);

		if (first != NULL) {
			g_autofree char *sub = strcmp(path, "<document>") == 0
			                               ? g_strdup(text)
			                               : g_strdup_printf("%s.%s", path, text);

			return hw_reader__fail(reader, pair->key, sub,
			                       "duplicate key \"%s\" (first at line %u)", text,
			                       first->line);
		}
		g_hash_table_insert(seen, (gpointer)text, (gpointer)pair->key);
	}
	return TRUE;
}

gboolean
hw_reader__mapping(HwReader *reader,
                   const K8sYamlNode *node,
                   const char *path,
                   const char *const *allowed)
{
	if (node == NULL || node->kind != K8S_YAML_MAPPING) {
		return hw_reader__fail(reader, node, path, "expected a mapping");
	}
	if (!check_unique_keys(reader, node, path)) {
		return FALSE;
	}
	if (allowed == NULL) {
		return TRUE;
	}
	MAP_FOREACH(node, pair)
	{
		g_autofree char *message = NULL;

		if (!base_strict_key(pair->key->scalar.text, allowed, BASE_STRICT_HINT_LIST,
		                     &message)) {
			return hw_reader__fail(reader, pair->key, path, "%s", message);
		}
	}
	return TRUE;
}

const K8sYamlNode *
hw_reader__get(HwReader *reader, const K8sYamlNode *node, const char *key)
{
	if (node == NULL || node->kind != K8S_YAML_MAPPING) {
		return NULL;
	}
	return k8s_yaml_map_lookup(node, key);
}

const char *
hw_reader__scalar(HwReader *reader, const K8sYamlNode *node, const char *path)
{
	if (node == NULL || node->kind != K8S_YAML_SCALAR) {
		hw_reader__fail(reader, node, path, "expected a scalar");
		return NULL;
	}
	return node->scalar.text;
}

static const K8sYamlNode *
get_required(HwReader *reader,
             const K8sYamlNode *map,
             const char *key,
             const char *path,
             gboolean required,
             gboolean *ok)
{
	const K8sYamlNode *value = hw_reader__get(reader, map, key);
	*ok = TRUE;
	if (value == NULL && required) {
		*ok = hw_reader__fail(reader, map, path, "missing required field \"%s\"", key);
	}
	return value;
}

gboolean
hw_reader__str(HwReader *reader,
               const K8sYamlNode *map,
               const char *key,
               const char *path,
               gboolean required,
               char **out)
{
	gboolean ok;
	const K8sYamlNode *value = get_required(reader, map, key, path, required, &ok);
	g_autofree char *sub = g_strdup_printf("%s.%s", path, key);
	const char *text;

	if (value == NULL) {
		return ok;
	}
	text = hw_reader__scalar(reader, value, sub);
	if (text == NULL) {
		return FALSE;
	}
	if (*text == '\0') {
		return hw_reader__fail(reader, value, sub, "expected a non-empty string");
	}
	g_free(*out);
	*out = g_strdup(text);
	return TRUE;
}

gboolean
hw_reader__scalar_uint(
        HwReader *reader, const K8sYamlNode *node, const char *path, guint64 max, guint64 *out)
{
	const char *text = hw_reader__scalar(reader, node, path);
	g_autofree char *message = NULL;

	if (text == NULL) {
		return FALSE;
	}
	if (!base_strict_uint(text, max, out, &message)) {
		return hw_reader__fail(reader, node, path, "%s", message);
	}
	return TRUE;
}

gboolean
hw_reader__uint(HwReader *reader,
                const K8sYamlNode *map,
                const char *key,
                const char *path,
                gboolean required,
                guint64 max,
                guint64 *out)
{
	gboolean ok;
	const K8sYamlNode *value = get_required(reader, map, key, path, required, &ok);
	g_autofree char *sub = g_strdup_printf("%s.%s", path, key);

	if (value == NULL) {
		return ok;
	}
	return hw_reader__scalar_uint(reader, value, sub, max, out);
}

gboolean
hw_reader__bool(HwReader *reader,
                const K8sYamlNode *map,
                const char *key,
                const char *path,
                gboolean required,
                gboolean *out)
{
	gboolean ok;
	const K8sYamlNode *value = get_required(reader, map, key, path, required, &ok);
	g_autofree char *sub = g_strdup_printf("%s.%s", path, key);
	g_autofree char *message = NULL;
	const char *text;

	if (value == NULL) {
		return ok;
	}
	text = hw_reader__scalar(reader, value, sub);
	if (text == NULL) {
		return FALSE;
	}
	if (!base_strict_bool(text, out, &message)) {
		return hw_reader__fail(reader, value, sub, "%s", message);
	}
	return TRUE;
}

const K8sYamlNode *
hw_reader__load(HwReader *reader, const char *filename, const char *data, gsize len, GError **error)
{
	K8sYamlFile file;

	*reader = (HwReader){ .error = error };
	reader->arena = base_arena_new();
	reader->strings = g_string_chunk_new(4096);
	reader->yaml.diags = k8s_diag_list_new();
	reader->yaml.file = g_string_chunk_insert_const(reader->strings, filename);
	if (!k8s_yaml_parse_data(&(K8sYamlInput){ filename, data, len, reader->arena,
	                                          reader->strings, reader->yaml.diags },
	                         &file)) {
		/* the syntax error (or limit) comes first; later ones follow from it */
		const K8sDiag *first = k8s_diag_list_get(reader->yaml.diags, 0);
		g_autofree char *line = k8s_diag_format(first);

		g_set_error(error, HW_ERROR, HW_ERROR_PARSE, "%s [<document>]", line);
		return NULL;
	}
	if (file.n_docs == 0 || file.docs[0].index != 0) {
		g_set_error(error, HW_ERROR, HW_ERROR_PARSE,
		            "%s:1:1: error: empty document [<document>]", filename);
		return NULL;
	}
	return file.docs[0].root;
}

void
hw_reader__clear(HwReader *reader)
{
	g_clear_pointer(&reader->arena, base_arena_free);
	if (reader->strings != NULL) {
		g_string_chunk_free(reader->strings);
		reader->strings = NULL;
	}
	g_clear_pointer(&reader->yaml.diags, k8s_diag_list_free);
}
