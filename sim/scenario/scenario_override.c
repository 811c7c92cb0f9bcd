/*
 * scenario_override.c: the changes scenario_load_with() makes to a scenario
 * document before decoding it, one path and value each (a sweep's varied
 * parameters). The value is parsed as YAML on its own and put into the tree
 * by model/api's paths (k8s_yaml_path.h); the decoder then reads the changed
 * tree exactly as it reads a file, so every rule of the format applies to an
 * override too. Problems here are errors at the override's origin (the Sweep
 * file or the command line), since that is where the user wrote them.
 */
#include <string.h>

#include "k8s_yaml_path.h"
#include "scenario-private.h"

/* A key given twice in @node, or NULL. The data parse keeps duplicate keys for the
 * reader; the decoders assume none (k8s_yaml_keys.c says why), so refuse them. */
static const K8sYamlNode *
duplicate_key(const K8sYamlNode *node)
{
	if (node->kind == K8S_YAML_SEQUENCE) {
		for (guint i = 0; i < node->seq.n; i++) {
			const K8sYamlNode *dup = duplicate_key(node->seq.items[i]);

			if (dup != NULL)
				return dup;
		}
	} else if (node->kind == K8S_YAML_MAPPING) {
		g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

		for (guint i = 0; i < node->map.n; i++) {
			const K8sYamlNode *dup = duplicate_key(node->map.pairs[i].value);

			if (dup != NULL)
				return dup;
			if (!g_hash_table_add(seen, (gpointer)node->map.pairs[i].key->scalar.text))
				return node->map.pairs[i].key;
		}
	}
	return NULL;
}

static gboolean
is_blank(const char *text)
{
	while (g_ascii_isspace(*text))
		text++;
	return *text == '\0';
}

/* A null scalar, for a value whose one document is null. */
static K8sYamlNode *
null_value(BaseArena *arena, GStringChunk *strings)
{
	K8sYamlNode *node = base_arena_new0(arena, K8sYamlNode, 1);

	node->kind = K8S_YAML_SCALAR;
	node->size = 1;
	node->scalar.text = g_string_chunk_insert_const(strings, "null");
	node->scalar.len = 4;
	return node;
}

/* @ov's value as one YAML node, or NULL with an error at the override's origin. */
static K8sYamlNode *
parse_value(const ScenarioOverride *ov, BaseArena *arena, GStringChunk *strings, K8sDiagList *diags)
{
	g_autoptr(K8sDiagList) errors = k8s_diag_list_new();
	const char *name = ov->origin.file != NULL ? ov->origin.file : "override";
	K8sYamlInput in = { name, ov->value, strlen(ov->value), arena, strings, errors };
	K8sYamlFile file = { 0 };
	const K8sYamlNode *dup;

	if (!k8s_yaml_parse_data(&in, &file)) {
		k8s_diag_list_error(diags, &ov->origin, ov->path,
		                    "the value %s is not valid YAML: %s", ov->value,
		                    k8s_diag_list_count(errors) > 0
		                            ? k8s_diag_list_get(errors, 0)->message
		                            : "syntax error");
		return NULL;
	}
	if (file.n_docs == 0 && !is_blank(ov->value))
		return null_value(arena,
		                  strings); /* "null", "~": the parser skips such a document */
	if (file.n_docs != 1) {
		k8s_diag_list_error(diags, &ov->origin, ov->path,
		                    "expected one YAML value, got %u documents (write null for "
		                    "no value)",
		                    file.n_docs);
		return NULL;
	}
	dup = duplicate_key(file.docs[0].root);
	if (dup != NULL) {
		k8s_diag_list_error(diags, &ov->origin, ov->path,
		                    "the value %s has the key %s twice", ov->value,
		                    dup->scalar.text);
		return NULL;
	}
	return file.docs[0].root;
}

static gboolean
apply_one(K8sYamlNode *root,
          const ScenarioOverride *ov,
          BaseArena *arena,
          GStringChunk *strings,
          K8sDiagList *diags)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(K8sYamlPath) path = k8s_yaml_path_parse(ov->path, &error);
	K8sYamlNode *value;

	if (path == NULL) {
		k8s_diag_list_error(diags, &ov->origin, ov->path, "%s", error->message);
		return FALSE;
	}
	value = parse_value(ov, arena, strings, diags);
	if (value == NULL)
		return FALSE;
	if (!k8s_yaml_path_set(root, path, value, arena, strings, &error)) {
		k8s_diag_list_error(diags, &ov->origin, ov->path, "%s", error->message);
		return FALSE;
	}
	return TRUE;
}

gboolean
scenario_override__apply(K8sYamlNode *root,
                         const ScenarioOverride *overrides,
                         guint n,
                         BaseArena *arena,
                         GStringChunk *strings,
                         K8sDiagList *diags)
{
	gboolean ok = TRUE;

	/* every override is tried, so one run reports all that are wrong */
	for (guint i = 0; i < n; i++)
		ok = apply_one(root, &overrides[i], arena, strings, diags) && ok;
	return ok;
}
