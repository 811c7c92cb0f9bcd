/*
 * cmd_import_write.c: the scenario directory of `drasim import`, all or nothing.
 *
 * Every file goes into a fresh temporary folder beside -o DIR (each file itself
 * through rpt_output_write_file(), so it is flushed before the rename); only when all
 * are written does the folder take DIR's name. An existing DIR is never touched
 * without --force, and even then only when it is empty or an earlier import: its
 * marker file lists every file in it, so nothing else is ever deleted.
 */
#include "drasim-config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "base.h"
#include "cmd_import.h"
#include "rpt.h"

/* The marker of an import's output: its first line, then the files, one a line. */
#define IMPORT_MARKER        ".drasim-import"
#define IMPORT_MARKER_HEADER "# written by drasim import; --force replaces this directory"

static gboolean
io_error(GError **error, int code, const char *path, const char *what)
{
	g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(code), "%s: %s: %s", path, what,
	            g_strerror(code));
	return FALSE;
}

/* @name (relative, may hold one '/') in @root, its folder made first. */
static gboolean
write_file(const char *root, const char *name, const char *text, GPtrArray *written, GError **error)
{
	g_autofree char *path = g_build_filename(root, name, NULL);
	g_autofree char *dir = g_path_get_dirname(path);

	if (g_mkdir_with_parents(dir, 0755) != 0) {
		return io_error(error, errno, dir, "cannot create");
	}
	if (!rpt_output_write_file(path, text, strlen(text), error)) {
		return FALSE;
	}
	g_ptr_array_add(written, g_strdup(name));
	return TRUE;
}

static char *
encode_objects(GPtrArray *objs)
{
	GString *out = g_string_new("# drasim import: objects as normalized v1 YAML "
	                            "(docs/import.md)\n");

	for (guint i = 0; i < objs->len; i++) {
		g_string_append(out, "---\n");
		k8s_object_encode(objs->pdata[i], out);
	}
	return g_string_free(out, FALSE);
}

static void
append_list(GString *out,
            const char *indent,
            const char *key,
            const ImportResult *self,
            const ImportFile *files,
            guint n)
{
	gboolean any = FALSE;

	for (guint i = 0; i < n; i++) {
		if (self->files[files[i]]->len == 0) {
			continue;
		}
		if (!any) {
			g_string_append_printf(out, "%s%s:\n", indent, key);
			any = TRUE;
		}
		g_string_append_printf(out, "%s- %s\n", indent, cmd_import_file_path(files[i]));
	}
}

/* The modes: the snapshot's world as-is, and the other world where NVIDIA GPUs make
 * the translation meaningful (docs/import.md, "What-if modes"). */
static void
append_modes(GString *out, const ImportResult *self)
{
	g_string_append(out, "  modes:\n");
	if (self->dra_world || !self->nvidia) {
		g_string_append(out, "  - {name: as-is, world: dra}\n");
		if (self->nvidia) {
			g_string_append(out, "  - {name: device-plugin, world: extended}\n");
		}
	} else {
		g_string_append(out, "  - {name: as-is, world: extended}\n");
		g_string_append(out, "  - {name: dra, world: dra}\n");
	}
}

static char *
scenario_text(const ImportResult *self)
{
	static const ImportFile cluster[] = { IMPORT_FILE_NODES, IMPORT_FILE_SLICES,
		                              IMPORT_FILE_CLASSES };
	static const ImportFile manifests[] = { IMPORT_FILE_CLAIMS, IMPORT_FILE_TAINT_RULES };
	GString *out = g_string_new(NULL);

	g_string_append(out, "# Written by `drasim import`; README.md says what was imported "
	                     "and what was left out.\n");
	g_string_append_printf(out,
	                       "apiVersion: drasim.io/v1alpha1\nkind: Scenario\nmetadata:\n"
	                       "  name: %s\nspec:\n  horizon: 1d\n  cluster:\n",
	                       self->name);
	append_list(out, "    ", "objects", self, cluster, G_N_ELEMENTS(cluster));
	if (self->node_defaults != NULL) {
		g_string_append_printf(out, "    nodeDefaults: %s\n", self->node_defaults);
	}
	g_string_append(out, "  workload:\n");
	append_list(out, "    ", "manifests", self, manifests, G_N_ELEMENTS(manifests));
	if (self->files[IMPORT_FILE_PODS]->len > 0) {
		g_string_append_printf(out, "    imported:\n      manifests: [%s]\n",
		                       cmd_import_file_path(IMPORT_FILE_PODS));
	}
	g_string_append(out, "    entries: []\n");
	append_modes(out, self);
	return g_string_free(out, FALSE);
}

/* Writes every file of the scenario into @root. */
static gboolean
write_all(const ImportResult *self, const char *root, GError **error)
{
	g_autoptr(GPtrArray) written = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *scenario = scenario_text(self);
	g_autofree char *readme = cmd_import_readme(self);
	g_autoptr(GString) marker = g_string_new(IMPORT_MARKER_HEADER "\n");

	for (guint f = 0; f < IMPORT_FILE_COUNT_; f++) {
		g_autofree char *text = NULL;

		if (self->files[f]->len == 0) {
			continue;
		}
		text = encode_objects(self->files[f]);
		if (!write_file(root, cmd_import_file_path(f), text, written, error)) {
			return FALSE;
		}
	}
	if (!write_file(root, "scenario.yaml", scenario, written, error) ||
	    !write_file(root, "README.md", readme, written, error)) {
		return FALSE;
	}
	for (guint i = 0; i < written->len; i++) {
		g_string_append_printf(marker, "%s\n", (char *)written->pdata[i]);
	}
	return write_file(root, IMPORT_MARKER, marker->str, written, error);
}

/* ---- replacing an earlier import (--force) ----------------------------------------- */

/* The files an earlier import's marker lists, or NULL when @dir has no marker. */
static GHashTable *
read_marker(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, IMPORT_MARKER, NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GHashTable *listed;

	if (!base_read_file(path, &text, NULL, NULL) ||
	    !g_str_has_prefix(text, IMPORT_MARKER_HEADER "\n")) {
		return NULL;
	}
	lines = g_strsplit(text, "\n", -1);
	listed = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint i = 1; lines[i] != NULL; i++) {
		if (lines[i][0] != '\0') {
			g_hash_table_add(listed, g_strdup(lines[i]));
		}
	}
	g_hash_table_add(listed, g_strdup(IMPORT_MARKER));
	return listed;
}

/*
 * Whether every file under @dir (@prefix: its path relative to the output) is listed,
 * so that removing the listed files and their folders removes it all. On success the
 * folders are appended to @folders, deepest first.
 */
static gboolean
only_listed(
        const char *dir, const char *prefix, GHashTable *listed, guint depth, GPtrArray *folders)
{
	g_autoptr(GDir) handle = g_dir_open(dir, 0, NULL);
	const char *name;

	if (handle == NULL || depth > 2) {
		return FALSE;
	}
	while ((name = g_dir_read_name(handle)) != NULL) {
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_autofree char *rel =
		        prefix[0] != '\0' ? g_strconcat(prefix, "/", name, NULL) : g_strdup(name);

		if (g_file_test(path, G_FILE_TEST_IS_SYMLINK) ||
		    !g_file_test(path, G_FILE_TEST_IS_DIR)) {
			if (!g_hash_table_contains(listed, rel)) {
				return FALSE;
			}
		} else if (!only_listed(path, rel, listed, depth + 1, folders)) {
			return FALSE;
		}
	}
	g_ptr_array_add(folders, g_strdup(dir));
	return TRUE;
}

/*
 * Whether -o DIR may be written: it does not exist, or --force is given and DIR is
 * empty or an earlier import with nothing but its listed files. *@listed_out gets the
 * files to remove afterwards and @folders (relative, deepest first) the folders.
 */
static gboolean
check_target(const ImportResult *self,
             gboolean *exists,
             GHashTable **listed_out,
             GPtrArray *folders,
             GError **error)
{
	const char *dir = self->out_dir;
	GStatBuf st;

	*exists = FALSE;
	if (g_lstat(dir, &st) != 0) {
		return errno == ENOENT || io_error(error, errno, dir, "cannot use as -o directory");
	}
	*exists = TRUE;
	if (!S_ISDIR(st.st_mode)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
		            "%s: exists and is not a directory; choose another -o directory", dir);
		return FALSE;
	}
	if (!self->force) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
		            "%s: already exists; drasim import never replaces a directory unless "
		            "--force is given",
		            dir);
		return FALSE;
	}
	*listed_out = read_marker(dir);
	if (*listed_out == NULL) {
		*listed_out = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	}
	if (!only_listed(dir, "", *listed_out, 0, folders)) {
		g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_EXIST,
		            "%s: holds files drasim import did not write (its %s does not list "
		            "them): --force replaces only an empty directory or an earlier import; "
		            "choose another -o directory",
		            dir, IMPORT_MARKER);
		return FALSE;
	}
	return TRUE;
}

/* Removes the folder drasim just made and filled (two levels at most). */
static void
remove_own_tree(const char *dir, guint depth)
{
	g_autoptr(GDir) handle = g_dir_open(dir, 0, NULL);
	const char *name;

	while (handle != NULL && depth < 3 && (name = g_dir_read_name(handle)) != NULL) {
		g_autofree char *path = g_build_filename(dir, name, NULL);

		if (!g_file_test(path, G_FILE_TEST_IS_SYMLINK) &&
		    g_file_test(path, G_FILE_TEST_IS_DIR)) {
			remove_own_tree(path, depth + 1);
		} else {
			g_unlink(path);
		}
	}
	g_rmdir(dir);
}

/* The replaced import, now at @old: its listed files, then its folders. */
static void
remove_previous(const char *old, const char *dir, GHashTable *listed, GPtrArray *folders)
{
	GHashTableIter iter;
	gpointer rel;

	g_hash_table_iter_init(&iter, listed);
	while (g_hash_table_iter_next(&iter, &rel, NULL)) {
		g_autofree char *path = g_build_filename(old, rel, NULL);

		g_unlink(path);
	}
	for (guint i = 0; i < folders->len; i++) {
		const char *folder = folders->pdata[i];
		g_autofree char *path = g_strconcat(old, folder + strlen(dir), NULL);

		g_rmdir(path);
	}
}

/* Puts @staging in @dir's place; the previous @dir (checked) goes after. */
static gboolean
swap_in(const char *staging,
        const char *dir,
        const char *parent,
        gboolean exists,
        GHashTable *listed,
        GPtrArray *folders,
        GError **error)
{
	g_autofree char *base = g_path_get_basename(dir);
	g_autofree char *old = NULL;

	if (exists) {
		g_autofree char *name = g_strdup_printf(".%s.old-XXXXXX", base);

		old = g_build_filename(parent, name, NULL);
		if (g_mkdtemp(old) == NULL || g_rename(dir, old) != 0) {
			return io_error(error, errno, dir, "cannot move aside");
		}
	}
	if (g_rename(staging, dir) != 0) {
		int code = errno;

		if (old != NULL) {
			g_rename(old, dir);
		}
		return io_error(error, code, dir, "cannot rename the new import into place");
	}
	if (old != NULL) {
		remove_previous(old, dir, listed, folders);
	}
	return TRUE;
}

gboolean
cmd_import_write(const ImportResult *self, GError **error)
{
	g_autoptr(GHashTable) listed = NULL;
	g_autoptr(GPtrArray) folders = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *absolute = g_canonicalize_filename(self->out_dir, NULL);
	g_autofree char *parent = g_path_get_dirname(absolute);
	g_autofree char *base = g_path_get_basename(absolute);
	g_autofree char *staging_name = g_strdup_printf(".%s.import-XXXXXX", base);
	g_autofree char *staging = g_build_filename(parent, staging_name, NULL);
	gboolean exists;

	if (!check_target(self, &exists, &listed, folders, error)) {
		return FALSE;
	}
	if (g_mkdir_with_parents(parent, 0755) != 0 || g_mkdtemp(staging) == NULL) {
		return io_error(error, errno, parent, "cannot create a folder in");
	}
	if (!write_all(self, staging, error) ||
	    !swap_in(staging, self->out_dir, parent, exists, listed, folders, error)) {
		remove_own_tree(staging, 0);
		return FALSE;
	}
	return TRUE;
}
