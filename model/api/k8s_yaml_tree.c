/*
 * k8s_yaml_tree.c: queries on a finished node tree: positions (of a node, of an
 * offset inside a scalar), map lookup, deep copy into another arena, and
 * structural equality. Read-only on the tree; the builder is k8s_yaml.c.
 */
#include <string.h>

#include "k8s-private.h"

K8sPos
k8s_yaml_node_pos(const K8sYamlNode *node, const char *file)
{
	K8sPos pos = { file, 0, 0 };

	if (node != NULL) {
		pos.line = node->line;
		pos.col = node->col;
	}
	return pos;
}

const K8sYamlNode *
k8s_yaml_map_lookup(const K8sYamlNode *map, const char *key)
{
	if (map == NULL || map->kind != K8S_YAML_MAPPING) {
		return NULL;
	}
	for (guint i = 0; i < map->map.n; i++) {
		if (strcmp(map->map.pairs[i].key->scalar.text, key) == 0) {
			return map->map.pairs[i].value;
		}
	}
	return NULL;
}

static K8sYamlNode *
copy_node(const K8sYamlNode *node, BaseArena *arena, GStringChunk *strings, guint depth)
{
	K8sYamlNode *out = base_arena_dup(arena, node, sizeof(*node));

	/* depth is bounded by K8S_YAML_MAX_DEPTH when the tree came from the parser */
	g_return_val_if_fail(depth <= K8S_YAML_MAX_DEPTH + 1, out);
	if (node->tag != NULL) {
		out->tag = g_string_chunk_insert_const(strings, node->tag);
	}
	switch (node->kind) {
	case K8S_YAML_SCALAR:
		out->scalar.text = node->scalar.len <= K8S_YAML_INTERN_MAX_LEN
		                           ? g_string_chunk_insert_const(strings, node->scalar.text)
		                           : g_string_chunk_insert_len(strings, node->scalar.text,
		                                                       node->scalar.len);
		break;
	case K8S_YAML_MAPPING:
		out->map.pairs = base_arena_new0(arena, K8sYamlPair, node->map.n);
		for (guint i = 0; i < node->map.n; i++) {
			out->map.pairs[i].key =
			        copy_node(node->map.pairs[i].key, arena, strings, depth + 1);
			out->map.pairs[i].value =
			        copy_node(node->map.pairs[i].value, arena, strings, depth + 1);
		}
		break;
	case K8S_YAML_SEQUENCE:
		out->seq.items = base_arena_new0(arena, K8sYamlNode *, node->seq.n);
		for (guint i = 0; i < node->seq.n; i++) {
			out->seq.items[i] =
			        copy_node(node->seq.items[i], arena, strings, depth + 1);
		}
		break;
	default:
		break;
	}
	return out;
}

K8sYamlNode *
k8s_yaml_copy(const K8sYamlNode *node, BaseArena *arena, GStringChunk *strings)
{
	if (node == NULL) {
		return NULL;
	}
	return copy_node(node, arena, strings, 0);
}

K8sPos
k8s_yaml_text_pos(const K8sYamlNode *node, const char *file, gsize offset)
{
	K8sPos pos = k8s_yaml_node_pos(node, file);
	const char *text = node->scalar.text;
	guint indent = node->scalar.block_indent;

	switch (node->style) {
	case K8S_YAML_STYLE_LITERAL:
		pos.line++;
		pos.col = indent + 1;
		for (gsize i = 0; i < offset && text[i] != '\0';
		     i = (gsize)(g_utf8_next_char(text + i) - text)) {
			if (text[i] == '\n') {
				pos.line++;
				pos.col = indent + 1;
			} else {
				pos.col++;
			}
		}
		return pos;
	case K8S_YAML_STYLE_FOLDED:
		pos.line++;
		pos.col = indent + 1;
		return pos;
	case K8S_YAML_STYLE_SINGLE_QUOTED:
	case K8S_YAML_STYLE_DOUBLE_QUOTED:
		pos.col++; /* the opening quote */
		return k8s_pos_advance(pos, text, offset);
	default:
		return k8s_pos_advance(pos, text, offset);
	}
}

gboolean
k8s_yaml_equal(const K8sYamlNode *a, const K8sYamlNode *b)
{
	if (a == b) {
		return TRUE;
	}
	if (a == NULL || b == NULL || a->kind != b->kind) {
		return FALSE;
	}
	switch (a->kind) {
	case K8S_YAML_SCALAR:
		/* "1" and 1 differ in meaning, so compare the resolved type too */
		return strcmp(a->scalar.text, b->scalar.text) == 0 &&
		       k8s_yaml_scalar_type(a) == k8s_yaml_scalar_type(b);
	case K8S_YAML_MAPPING:
		if (a->map.n != b->map.n) {
			return FALSE;
		}
		for (guint i = 0; i < a->map.n; i++) {
			if (!k8s_yaml_equal(a->map.pairs[i].key, b->map.pairs[i].key) ||
			    !k8s_yaml_equal(a->map.pairs[i].value, b->map.pairs[i].value)) {
				return FALSE;
			}
		}
		return TRUE;
	default:
		if (a->seq.n != b->seq.n) {
			return FALSE;
		}
		for (guint i = 0; i < a->seq.n; i++) {
			if (!k8s_yaml_equal(a->seq.items[i], b->seq.items[i])) {
				return FALSE;
			}
		}
		return TRUE;
	}
}
