/*
 * k8s_load.c: files and directories -> documents -> typed objects in a set.
 *
 * Each file is parsed into a node tree in its own arena; scalar text goes straight
 * into the set's string chunk, so the decoded objects point at it and the tree can
 * be freed as soon as the file is decoded. A document is one object or a `List`
 * (kind List, or <Kind>List as the API returns it) whose items are objects.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "base.h"
#include "base_strict.h"
#include "k8s-private.h"

#define MAX_DIR_DEPTH 32

static const char *
scalar_text(const K8sYamlNode *node)
{
	return node != NULL && node->kind == K8S_YAML_SCALAR ? node->scalar.text : NULL;
}

/* Splits "group/version" ("v1" has the empty group). */
static void
split_api_version(const char *api_version, char **group, const char **version)
{
	const char *slash = strrchr(api_version, '/');

	if (slash == NULL) {
		*group = g_strdup("");
		*version = api_version;
	} else {
		*group = g_strndup(api_version, (gsize)(slash - api_version));
		*version = slash + 1;
	}
}

static gboolean
parse_version(K8sKind kind, const char *version, K8sApiVersion *out)
{
	static const char *const names[] = { "v1", "v1beta2", "v1beta1", "v1alpha3" };

	if (strcmp(k8s_kind_group(kind), "resource.k8s.io") != 0) {
		*out = K8S_VERSION_V1;
		return strcmp(version, "v1") == 0;
	}
	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		if (strcmp(version, names[i]) == 0) {
			*out = (K8sApiVersion)i;
			return TRUE;
		}
	}
	return FALSE;
}

/* apiVersion and kind as strings, or an error at the object. */
static gboolean
type_meta(K8sDec *dec,
          const K8sYamlNode *node,
          const K8sYamlNode **api_node,
          const K8sYamlNode **kind_node)
{
	*api_node = k8s_yaml_map_lookup(node, "apiVersion");
	*kind_node = k8s_yaml_map_lookup(node, "kind");
	if (*kind_node == NULL || k8s_dec__is_null(*kind_node)) {
		k8s_dec__error(dec, node, "missing 'kind': every object needs apiVersion and kind");
		return FALSE;
	}
	if (*api_node == NULL || k8s_dec__is_null(*api_node)) {
		k8s_dec__error(dec, node,
		               "missing 'apiVersion': every object needs apiVersion and kind");
		return FALSE;
	}
	if (scalar_text(*api_node) == NULL ||
	    k8s_yaml_scalar_type(*api_node) != K8S_YAML_TYPE_STRING) {
		gsize mark = k8s_dec__push_field(dec, "apiVersion");

		k8s_dec__error(dec, *api_node, "apiVersion must be a string like \"v1\"");
		k8s_dec__pop(dec, mark);
		return FALSE;
	}
	if (scalar_text(*kind_node) == NULL ||
	    k8s_yaml_scalar_type(*kind_node) != K8S_YAML_TYPE_STRING) {
		gsize mark = k8s_dec__push_field(dec, "kind");

		k8s_dec__error(dec, *kind_node, "kind must be a string like \"Pod\"");
		k8s_dec__pop(dec, mark);
		return FALSE;
	}
	return TRUE;
}

/* A kind drasim does not read: an error with a suggestion when it looks like a typo,
 * a warning otherwise; drasim's own documents are left alone. */
static void
report_unknown_kind(K8sDec *dec,
                    const K8sYamlNode *kind_node,
                    const char *api_version,
                    const char *kind_name)
{
	static const char *const known[] = { "DeviceClass",
		                             "ResourceClaim",
		                             "ResourceClaimTemplate",
		                             "ResourceSlice",
		                             "DeviceTaintRule",
		                             "Pod",
		                             "Node",
		                             "Deployment",
		                             "StatefulSet",
		                             "ReplicaSet",
		                             "Job",
		                             "List" };
	const char *close = base_strict_closest_n(kind_name, known, G_N_ELEMENTS(known));
	gsize mark;

	if (g_str_has_prefix(api_version, "drasim.io/")) {
		/* drasim's own documents (a Scenario beside its manifests) are read
		 * and checked by `drasim run`, not by the Kubernetes decoder. */
		return;
	}
	mark = k8s_dec__push_field(dec, "kind");
	if (close != NULL && strcmp(close, kind_name) != 0) {
		k8s_dec__error(dec, kind_node, "unknown kind '%s'; did you mean '%s'?", kind_name,
		               close);
	} else if (dec->flags & K8S_LOAD_COUNT_SKIPPED) {
		k8s_object_set__count_skipped(dec->set, kind_name);
	} else {
		k8s_dec__warning(dec, kind_node, "kind %s (%s) is not modelled by drasim; skipped",
		                 kind_name, api_version);
	}
	k8s_dec__pop(dec, mark);
}

/* The served version of @kind that @api_version names, in *@parsed; FALSE (and an
 * error that says which apiVersion to write) for another group or an unserved version. */
static gboolean
served_version(K8sDec *dec,
               const K8sYamlNode *api_node,
               K8sKind kind,
               const char *api_version,
               const char *kind_name,
               K8sApiVersion *parsed)
{
	g_autofree char *group = NULL;
	const char *version;
	gsize mark;

	split_api_version(api_version, &group, &version);
	if (strcmp(group, k8s_kind_group(kind)) == 0 && parse_version(kind, version, parsed)) {
		return TRUE;
	}
	mark = k8s_dec__push_field(dec, "apiVersion");
	if (strcmp(group, k8s_kind_group(kind)) != 0) {
		k8s_dec__error(dec, api_node, "%s is not in API group '%s': write apiVersion: %s",
		               kind_name, group, k8s_api_version_string(kind, K8S_VERSION_V1));
	} else {
		k8s_dec__error(dec, api_node,
		               "%s %s is not served by Kubernetes 1.34 and drasim cannot read "
		               "it; write apiVersion: %s",
		               api_version, kind_name,
		               k8s_api_version_string(kind, K8S_VERSION_V1));
	}
	k8s_dec__pop(dec, mark);
	return FALSE;
}

/* A set holds at most DRASIM_MAX_OBJECTS objects (docs/scenario.md "Limits"): past it the
 * file's first further object is the error and the rest are not decoded. */
static gboolean
object_fits(K8sDec *dec, const K8sYamlNode *node)
{
	guint64 limit = base_limit_get(BASE_LIMIT_OBJECTS);

	if (k8s_object_set_count(dec->set) < limit)
		return TRUE;
	if (!dec->over_objects) {
		g_autofree char *sentence = base_limit_describe(BASE_LIMIT_OBJECTS);

		dec->over_objects = TRUE;
		k8s_dec__error(dec, node, "more than %" G_GUINT64_FORMAT " objects; %s", limit,
		               sentence);
	}
	dec->failed = TRUE;
	return FALSE;
}

static void
decode_object(K8sDec *dec, const K8sYamlNode *node)
{
	const K8sYamlNode *api_node, *kind_node;
	const char *api_version, *kind_name;
	K8sKind kind;
	K8sApiVersion parsed;
	K8sObject *obj;

	if (!object_fits(dec, node) || !type_meta(dec, node, &api_node, &kind_node)) {
		return;
	}
	api_version = scalar_text(api_node);
	kind_name = scalar_text(kind_node);
	kind = k8s_kind_from_name(kind_name);
	if (kind == K8S_KIND_UNKNOWN) {
		report_unknown_kind(dec, kind_node, api_version, kind_name);
		return;
	}
	if (!served_version(dec, api_node, kind, api_version, kind_name, &parsed)) {
		return;
	}
	obj = k8s_object_set__new_object(dec->set, kind);
	obj->version = parsed;
	obj->api_version = api_version;
	obj->kind_name = kind_name;
	obj->pos = k8s_dec__pos(dec, node);
	obj->api_version_pos = k8s_dec__pos(dec, api_node);
	obj->kind_pos = k8s_dec__pos(dec, kind_node);
	if (dec->path->len > 0) {
		g_autofree char *prefix = g_strconcat(dec->path->str, ".", NULL);

		obj->path_prefix = g_string_chunk_insert_const(dec->strings, prefix);
	}
	dec->version = parsed;
	k8s_dec__struct(dec, node, k8s_fields__object(kind, parsed), obj);
	if (!k8s_object_set__add(dec->set, obj, dec->diags)) {
		dec->failed = TRUE;
	}
}

static gboolean
is_list_kind(const char *kind_name)
{
	return kind_name != NULL && g_str_has_suffix(kind_name, "List");
}

static void
decode_list(K8sDec *dec, const K8sYamlNode *node)
{
	const K8sYamlNode *items = NULL;

	for (guint i = 0; i < node->map.n; i++) {
		const char *key = node->map.pairs[i].key->scalar.text;

		if (strcmp(key, "items") == 0) {
			items = node->map.pairs[i].value;
		} else if (strcmp(key, "apiVersion") != 0 && strcmp(key, "kind") != 0 &&
		           strcmp(key, "metadata") != 0) {
			static const char *const names[] = { "apiVersion", "kind", "metadata",
				                             "items" };
			static const K8sField no_fields[] = { { .name = NULL } };
			static const K8sStructDesc list_desc = { .name = "List",
				                                 .fields = no_fields };
			const char *close = base_strict_closest_n(key, names, G_N_ELEMENTS(names));

			if (close != NULL) {
				gsize mark = k8s_dec__push_field(dec, key);

				k8s_dec__error(dec, node->map.pairs[i].key,
				               "unknown field '%s' in List; did you mean '%s'?",
				               key, close);
				k8s_dec__pop(dec, mark);
			} else {
				k8s_dec__unknown_field(dec, node->map.pairs[i].key, &list_desc);
			}
		}
	}
	if (items == NULL || k8s_dec__is_null(items)) {
		return; /* an empty List is fine */
	}
	if (!k8s_dec__expect_seq(dec, items, "objects")) {
		return;
	}
	for (guint i = 0; i < items->seq.n; i++) {
		gsize mark;

		if (items->seq.items[i]->flags & K8S_YAML_FLAG_STREAMED) {
			continue; /* decoded while parsing (on_streamed_item) */
		}
		mark = k8s_dec__push_field(dec, "items");
		k8s_dec__push_index(dec, i);
		if (k8s_dec__expect_map(dec, items->seq.items[i], "a Kubernetes object")) {
			decode_object(dec, items->seq.items[i]);
		} else if (k8s_dec__is_null(items->seq.items[i])) {
			k8s_dec__error(dec, items->seq.items[i], "empty item in List");
		}
		k8s_dec__pop(dec, mark);
	}
}

static void
decode_document(K8sDec *dec, const K8sYamlNode *root)
{
	const K8sYamlNode *api_node, *kind_node;

	g_string_truncate(dec->path, 0);
	if (root->kind != K8S_YAML_MAPPING) {
		k8s_dec__error(dec, root,
		               "expected a Kubernetes object (a mapping with apiVersion and kind), "
		               "got a %s",
		               k8s_yaml_node_type_name(root));
		return;
	}
	kind_node = k8s_yaml_map_lookup(root, "kind");
	api_node = k8s_yaml_map_lookup(root, "apiVersion");
	if (is_list_kind(scalar_text(kind_node)) && k8s_yaml_map_lookup(root, "items") != NULL) {
		if (!type_meta(dec, root, &api_node, &kind_node)) {
			return;
		}
		decode_list(dec, root);
		return;
	}
	decode_object(dec, root);
}

/*
 * An item of a top-level `items` list, decoded while the file is still being parsed
 * so the tree of a big List never exists at once. Only mappings with apiVersion and
 * kind are objects; anything else is left for decode_list to complain about... which
 * it cannot, because the item is gone: so report here.
 */
static void
on_streamed_item(const K8sYamlNode *item, guint doc_index, guint index, gpointer user_data)
{
	K8sDec *dec = user_data;
	gsize mark;

	g_string_truncate(dec->path, 0);
	mark = k8s_dec__push_field(dec, "items");
	k8s_dec__push_index(dec, index);
	decode_object(dec, item);
	k8s_dec__pop(dec, mark);
}

/* Decode the documents of @file (their List items went to the callback already). */
static gboolean
decode_documents(K8sDec *dec, const K8sYamlFile *file, gboolean parsed)
{
	gboolean ok;

	for (guint i = 0; i < file->n_docs; i++) {
		decode_document(dec, file->docs[i].root);
	}
	ok = parsed && !dec->failed;
	k8s_dec__clear(dec);
	return ok;
}

gboolean
k8s_load_data(const char *name,
              const char *data,
              gsize len,
              K8sLoadFlags flags,
              K8sObjectSet *set,
              K8sDiagList *diags)
{
	g_autoptr(BaseArena) tree = base_arena_new();
	GStringChunk *strings = k8s_object_set_get_strings(set);
	K8sYamlFile file;
	K8sDec dec;
	gboolean parsed;

	k8s_dec__init(&dec, set, g_string_chunk_insert_const(strings, name), diags, flags);
	parsed = k8s_yaml_parse_stream(&(K8sYamlInput){ name, data, len, tree, strings, diags },
	                               on_streamed_item, &dec, &file);
	return decode_documents(&dec, &file, parsed);
}

static gboolean
has_manifest_suffix(const char *name)
{
	return g_str_has_suffix(name, ".yaml") || g_str_has_suffix(name, ".yml") ||
	       g_str_has_suffix(name, ".json");
}

static void file_error(K8sDiagList *diags, const char *path, const char *format, ...)
        G_GNUC_PRINTF(3, 4);

static void
file_error(K8sDiagList *diags, const char *path, const char *format, ...)
{
	K8sPos pos = { path, 1, 1 };
	va_list args;

	va_start(args, format);
	k8s_diag_list_addv(diags, K8S_SEVERITY_ERROR, &pos, NULL, format, args);
	va_end(args);
}

gboolean
k8s_load_file(const char *path, K8sLoadFlags flags, K8sObjectSet *set, K8sDiagList *diags)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *data = NULL;
	gsize len = 0;
	GStatBuf st;

	if (g_stat(path, &st) != 0) {
		file_error(diags, path, "cannot read: %s", g_strerror(errno));
		return FALSE;
	}
	if (S_ISDIR(st.st_mode)) {
		file_error(diags, path, "is a directory, expected a YAML or JSON file");
		return FALSE;
	}
	if (!base_read_file(path, &data, &len, &error)) {
		file_error(diags, path, "cannot read: %s", error->message);
		return FALSE;
	}
	return k8s_load_data(path, data, len, flags, set, diags);
}

static int
compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Appends the manifests under @dir, sorted, to @files (owned strings). */
static void
collect_dir(const char *dir, guint depth, GPtrArray *files, K8sDiagList *diags)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GDir) handle = g_dir_open(dir, 0, &error);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	const char *name;

	if (handle == NULL) {
		file_error(diags, dir, "cannot read directory: %s", error->message);
		return;
	}
	if (depth > MAX_DIR_DEPTH) {
		file_error(diags, dir, "directories nested deeper than %d levels", MAX_DIR_DEPTH);
		return;
	}
	while ((name = g_dir_read_name(handle)) != NULL) {
		if (name[0] != '.') {
			g_ptr_array_add(names, g_strdup(name));
		}
	}
	g_ptr_array_sort(names, compare_names);
	for (guint i = 0; i < names->len; i++) {
		g_autofree char *path = g_build_filename(dir, names->pdata[i], NULL);

		if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
			if (has_manifest_suffix(path)) {
				file_error(diags, path,
				           "is a directory, expected a YAML or JSON file");
				continue;
			}
			collect_dir(path, depth + 1, files, diags);
		} else if (has_manifest_suffix(path)) {
			g_ptr_array_add(files, g_steal_pointer(&path));
		}
	}
}

/* `-` reads standard input, as kubectl -f - does. */
static gboolean
load_stdin(K8sLoadFlags flags, K8sObjectSet *set, K8sDiagList *diags)
{
	g_autofree char *data = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;

	if (!base_read_fd(STDIN_FILENO, &data, &len, &error)) {
		file_error(diags, "<stdin>", "cannot read: %s", error->message);
		return FALSE;
	}
	return k8s_load_data("<stdin>", data, len, flags, set, diags);
}

gboolean
k8s_load_paths(const char *const *paths, K8sLoadFlags flags, K8sObjectSet *set, K8sDiagList *diags)
{
	guint errors_before = k8s_diag_list_count_errors(diags);

	for (guint i = 0; paths[i] != NULL; i++) {
		const char *path = paths[i];

		if (strcmp(path, "-") == 0) {
			load_stdin(flags, set, diags);
		} else if (g_file_test(path, G_FILE_TEST_IS_DIR) && !has_manifest_suffix(path)) {
			g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
			guint dir_errors = k8s_diag_list_count_errors(diags);

			collect_dir(path, 0, files, diags);
			if (files->len == 0 && k8s_diag_list_count_errors(diags) == dir_errors) {
				file_error(diags, path,
				           "directory has no *.yaml, *.yml or *.json files");
			}
			for (guint f = 0; f < files->len; f++) {
				k8s_load_file(files->pdata[f], flags, set, diags);
			}
		} else {
			k8s_load_file(path, flags, set, diags);
		}
	}
	return k8s_diag_list_count_errors(diags) == errors_before;
}
