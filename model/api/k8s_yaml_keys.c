/*
 * k8s_yaml_keys.c: the keys of a mapping as the builder closes it. Duplicate keys
 * are errors (Kubernetes decodes strictly) and the later pair is dropped; YAML merge
 * keys (`<<`) are expanded, as go-yaml v2 and so kubectl do.
 */
#include <string.h>

#include "k8s-private.h"

/* The pair among the first @n of @pairs whose key is @key's text, or NULL. */
static const K8sYamlPair *
find_earlier_key(const K8sYamlPair *pairs, guint n, const K8sYamlNode *key, GHashTable *seen)
{
	if (seen != NULL) {
		return g_hash_table_lookup(seen, key->scalar.text);
	}
	for (guint j = 0; j < n; j++) {
		if (pairs[j].key->scalar.text == key->scalar.text ||
		    strcmp(pairs[j].key->scalar.text, key->scalar.text) == 0) {
			return &pairs[j];
		}
	}
	return NULL;
}

/*
 * Duplicate keys are an error, as in Kubernetes' strict decoding. The later pair is
 * reported and then dropped from the mapping, so that no reader of the tree (the field
 * decoder, the scenario decoder, map lookups) ever sees one key twice: decoding a field
 * a second time into storage sized for the first value is how a duplicate `labels:`
 * overflowed the heap. The first value stays, as the message points at it.
 */
void
k8s_yaml_check_duplicates(K8sYamlBuilder *b, K8sYamlNode *map)
{
	K8sYamlPair *pairs = map->map.pairs;
	guint n = map->map.n;
	guint kept = 0;
	g_autoptr(GHashTable) seen =
	        n > 16 ? g_hash_table_new(g_str_hash, g_str_equal) : NULL; /* else: scan */

	for (guint i = 0; i < n; i++) {
		K8sYamlPair pair = pairs[i];
		const K8sYamlPair *first = find_earlier_key(pairs, kept, pair.key, seen);

		if (first != NULL) {
			K8sPos pos = k8s_yaml_node_pos(pair.key, b->file);

			k8s_diag_list_error(b->diags, &pos, NULL,
			                    "duplicate key '%s' (first at line %u)",
			                    pair.key->scalar.text, first->key->line);
			b->failed = TRUE;
			continue;
		}
		pairs[kept] = pair;
		if (seen != NULL) {
			g_hash_table_insert(seen, (gpointer)pair.key->scalar.text, &pairs[kept]);
		}
		kept++;
	}
	map->map.n = kept;
}

static gboolean
has_key(const K8sYamlPair *pairs, guint n, const char *key)
{
	for (guint i = 0; i < n; i++) {
		if (strcmp(pairs[i].key->scalar.text, key) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

static gboolean
is_merge_key(const K8sYamlNode *key)
{
	return key->style == K8S_YAML_STYLE_PLAIN && strcmp(key->scalar.text, "<<") == 0 &&
	       (key->tag == NULL || g_str_has_suffix(key->tag, ":merge"));
}

/*
 * YAML merge keys (`<<: *base` or `<<: [*a, *b]`), which go-yaml v2 and so kubectl
 * support: keys of the merged mappings are added unless the mapping has them already;
 * with a list, earlier mappings win.
 */
void
k8s_yaml_apply_merge_keys(K8sYamlBuilder *b, K8sYamlNode *map)
{
	GArray *out = NULL;

	for (guint i = 0; i < map->map.n; i++) {
		if (is_merge_key(map->map.pairs[i].key)) {
			out = g_array_new(FALSE, FALSE, sizeof(K8sYamlPair));
			break;
		}
	}
	if (out == NULL) {
		return;
	}
	for (guint i = 0; i < map->map.n; i++) {
		if (!is_merge_key(map->map.pairs[i].key)) {
			g_array_append_val(out, map->map.pairs[i]);
		}
	}
	for (guint i = 0; i < map->map.n; i++) {
		const K8sYamlNode *value = map->map.pairs[i].value;
		const K8sYamlNode *const *sources = &value;
		guint n_sources = 1;

		if (!is_merge_key(map->map.pairs[i].key)) {
			continue;
		}
		if (value->kind == K8S_YAML_SEQUENCE) {
			sources = (const K8sYamlNode *const *)value->seq.items;
			n_sources = value->seq.n;
		}
		for (guint s = 0; s < n_sources; s++) {
			if (sources[s]->kind != K8S_YAML_MAPPING) {
				K8sPos pos = k8s_yaml_node_pos(sources[s], b->file);

				k8s_diag_list_error(b->diags, &pos, NULL,
				                    "a merge key (<<) takes a mapping or a list of "
				                    "mappings, not a %s",
				                    k8s_yaml_node_type_name(sources[s]));
				b->failed = TRUE;
				continue;
			}
			for (guint k = 0; k < sources[s]->map.n; k++) {
				const K8sYamlPair *p = &sources[s]->map.pairs[k];

				if (!has_key((const K8sYamlPair *)(void *)out->data, out->len,
				             p->key->scalar.text)) {
					g_array_append_val(out, *p);
				}
			}
		}
	}
	map->map.pairs = base_arena_dup(b->arena, out->data, out->len * sizeof(K8sYamlPair));
	map->map.n = out->len;
	g_array_free(out, TRUE);
}
