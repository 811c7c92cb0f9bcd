/*
 * hw_yaml_read.c: positioned, strict reading of the hardware YAML files.
 *
 * The catalog and the generic-driver descriptions are small, so they are loaded as
 * libyaml documents and walked; every node keeps its start mark, which gives the
 * FILE:LINE:COL of each error. Unknown keys are errors, like everywhere in drasim.
 * What a valid scalar or key is, and the message when it is not, is base's
 * (base_strict.h), shared with the scenario decoder.
 */
#include <stdarg.h>
#include <string.h>

#include "base_strict.h"
#include "hw-private.h"

G_DEFINE_QUARK(hw - error - quark, hw_error)

gboolean
hw_reader__fail(
        HwReader *reader, const yaml_node_t *node, const char *path, const char *format, ...)
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
	g_set_error(reader->error, HW_ERROR, HW_ERROR_INVALID, "%s:%zu:%zu: error: %s [%s]",
	            reader->filename, node ? node->start_mark.line + 1 : 1,
	            node ? node->start_mark.column + 1 : 1, message, path);
	return FALSE;
}

gboolean
hw_reader__fail_key(HwReader *reader,
                    yaml_node_t *map,
                    const char *key,
                    const char *path,
                    const char *format,
                    ...)
{
	va_list args;
	g_autofree char *message = NULL;
	g_autofree char *sub = g_strdup_printf("%s.%s", path, key);
	yaml_node_t *value = hw_reader__get(reader, map, key);

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	return hw_reader__fail(reader, value ? value : map, sub, "%s", message);
}

yaml_node_t *
hw_reader__node(HwReader *reader, int id)
{
	return yaml_document_get_node(reader->doc, id);
}

/*
 * A key given twice is an error, as in the manifest reader: libyaml keeps both pairs,
 * hw_reader__get() would take the first and the walks over a map (placement tables,
 * attributes, capacity) both, so the file would mean two things. Hashed, so that a
 * huge mapping costs linear time.
 */
static gboolean
check_unique_keys(HwReader *reader, yaml_node_t *map, const char *path)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

	for (yaml_node_pair_t *pair = map->data.mapping.pairs.start;
	     pair < map->data.mapping.pairs.top; pair++) {
		yaml_node_t *key = hw_reader__node(reader, pair->key);
		const char *text;
		yaml_node_t *first;

		if (key->type != YAML_SCALAR_NODE) {
			return hw_reader__fail(reader, key, path, "expected a scalar key");
		}
		text = (const char *)key->data.scalar.value;
		first = g_hash_table_lookup(seen, text);
		if (first != NULL) {
			g_autofree char *sub = strcmp(path, "<document>") == 0
			                               ? g_strdup(text)
			                               : g_strdup_printf("%s.%s", path, text);

			return hw_reader__fail(reader, key, sub,
			                       "duplicate key \"%s\" (first at line %zu)", text,
			                       first->start_mark.line + 1);
		}
		g_hash_table_insert(seen, (gpointer)text, key);
	}
	return TRUE;
}

gboolean
hw_reader__mapping(HwReader *reader,
                   yaml_node_t *node,
                   const char *path,
                   const char *const *allowed)
{
	if (node == NULL || node->type != YAML_MAPPING_NODE) {
		return hw_reader__fail(reader, node, path, "expected a mapping");
	}
	if (!check_unique_keys(reader, node, path)) {
		return FALSE;
	}
	if (allowed == NULL) {
		return TRUE;
	}
	for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
	     pair < node->data.mapping.pairs.top; pair++) {
		yaml_node_t *key = hw_reader__node(reader, pair->key); /* a scalar: checked */
		g_autofree char *message = NULL;

		if (!base_strict_key((const char *)key->data.scalar.value, allowed,
		                     BASE_STRICT_HINT_LIST, &message)) {
			return hw_reader__fail(reader, key, path, "%s", message);
		}
	}
	return TRUE;
}

yaml_node_t *
hw_reader__get(HwReader *reader, yaml_node_t *node, const char *key)
{
	if (node == NULL || node->type != YAML_MAPPING_NODE) {
		return NULL;
	}
	for (yaml_node_pair_t *pair = node->data.mapping.pairs.start;
	     pair < node->data.mapping.pairs.top; pair++) {
		yaml_node_t *k = hw_reader__node(reader, pair->key);

		if (k->type == YAML_SCALAR_NODE &&
		    strcmp((const char *)k->data.scalar.value, key) == 0) {
			return hw_reader__node(reader, pair->value);
		}
	}
	return NULL;
}

const char *
hw_reader__scalar(HwReader *reader, yaml_node_t *node, const char *path)
{
	if (node == NULL || node->type != YAML_SCALAR_NODE) {
		hw_reader__fail(reader, node, path, "expected a scalar");
		return NULL;
	}
	return (const char *)node->data.scalar.value;
}

static yaml_node_t *
get_required(HwReader *reader,
             yaml_node_t *map,
             const char *key,
             const char *path,
             gboolean required,
             gboolean *ok)
{
	yaml_node_t *value = hw_reader__get(reader, map, key);

	*ok = TRUE;
	if (value == NULL && required) {
		*ok = hw_reader__fail(reader, map, path, "missing required field \"%s\"", key);
	}
	return value;
}

gboolean
hw_reader__str(HwReader *reader,
               yaml_node_t *map,
               const char *key,
               const char *path,
               gboolean required,
               char **out)
{
	gboolean ok;
	yaml_node_t *value = get_required(reader, map, key, path, required, &ok);
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
        HwReader *reader, yaml_node_t *node, const char *path, guint64 max, guint64 *out)
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
                yaml_node_t *map,
                const char *key,
                const char *path,
                gboolean required,
                guint64 max,
                guint64 *out)
{
	gboolean ok;
	yaml_node_t *value = get_required(reader, map, key, path, required, &ok);
	g_autofree char *sub = g_strdup_printf("%s.%s", path, key);

	if (value == NULL) {
		return ok;
	}
	return hw_reader__scalar_uint(reader, value, sub, max, out);
}

gboolean
hw_reader__bool(HwReader *reader,
                yaml_node_t *map,
                const char *key,
                const char *path,
                gboolean required,
                gboolean *out)
{
	gboolean ok;
	yaml_node_t *value = get_required(reader, map, key, path, required, &ok);
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

gboolean
hw_reader__load(
        yaml_document_t *doc, const char *filename, const char *data, gsize len, GError **error)
{
	yaml_parser_t parser;
	gboolean ok;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)data, len);
	ok = yaml_parser_load(&parser, doc) != 0;
	if (!ok) {
		g_set_error(error, HW_ERROR, HW_ERROR_PARSE, "%s:%zu:%zu: error: %s [<document>]",
		            filename, parser.problem_mark.line + 1, parser.problem_mark.column + 1,
		            parser.problem ? parser.problem : "malformed YAML");
	} else if (yaml_document_get_root_node(doc) == NULL) {
		yaml_document_delete(doc);
		g_set_error(error, HW_ERROR, HW_ERROR_PARSE,
		            "%s:1:1: error: empty document [<document>]", filename);
		ok = FALSE;
	}
	yaml_parser_delete(&parser);
	return ok;
}
