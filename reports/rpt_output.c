/*
 * rpt_output.c: every file drasim writes goes through here, so that no run
 * leaves output that looks current but is not.
 *
 * A file is written atomically: its bytes go to a temporary file beside it
 * (NAME.tmp-XXXXXX), which is flushed to disk and renamed over NAME only
 * when every write, the fsync and the close succeeded. An output directory
 * (-o DIR) is replaced as a whole: the new files are written into a sibling
 * DIR.tmp-XXXXXX, which then takes DIR's place. DIR may be new, empty, or an
 * earlier drasim output (it carries the marker file .drasim-output listing
 * what drasim wrote there); anything else is refused, so drasim never mixes
 * its files with someone else's nor deletes files it did not write.
 *
 * The swap is one renameat2(RENAME_EXCHANGE) where the file system has it,
 * else two renames (DIR -> DIR.old-XXXXXX, DIR.tmp-XXXXXX -> DIR). The crash
 * windows are documented in docs/reports.md ("Output directories").
 */
#define _GNU_SOURCE /* renameat2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "base.h"
#include "rpt-private.h"

/* The marker's first line; the lines after it name the files drasim wrote. */
#define MARKER_HEADER "# drasim output directory"

struct RptOutputFile {
	char *path;      /* where the file ends up */
	char *shown;     /* the name messages give it */
	char *temp_path; /* where its bytes go until the commit */
	int fd;
	gsize written;
};

struct RptOutputDir {
	char *shown;      /* DIR as given, for messages */
	char *target;     /* DIR, with symlinks resolved */
	char *staging;    /* DIR.tmp-XXXXXX until the commit */
	GPtrArray *names; /* the files written, in order */
};

/* --- Fault injection (test seam) ------------------------------------------------------------ */

/*
 * DRASIM_TEST_WRITE_FAIL=NAME:BYTES[:kill] makes the write of a file whose
 * base name is NAME stop after BYTES bytes: with ENOSPC, as a full disk
 * would, or with :kill by SIGKILL, as an interrupted run. Tests use it to
 * check that the previous output survives (tests/unit/cli/output_dir.sh).
 */
static gboolean
fault_hits(const char *path, gsize offset, gsize *allowed_out, gboolean *kill_out)
{
	const char *spec = g_getenv("DRASIM_TEST_WRITE_FAIL");
	g_auto(GStrv) parts = NULL;
	g_autofree char *base = NULL;

	if (spec == NULL || *spec == '\0')
		return FALSE;
	parts = g_strsplit(spec, ":", 3);
	base = g_path_get_basename(path);
	if (parts[0] == NULL || parts[1] == NULL || g_strcmp0(parts[0], base) != 0)
		return FALSE;
	*allowed_out = (gsize)g_ascii_strtoull(parts[1], NULL, 10);
	*kill_out = g_strcmp0(parts[2], "kill") == 0;
	if (*allowed_out < offset)
		*allowed_out = offset;
	return TRUE;
}

/* --- One file, atomically --------------------------------------------------------------------- */

static gboolean
set_io_error(GError **error, int err, const char *path, const char *what)
{
	g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "%s: %s: %s", path, what, g_strerror(err));
	return FALSE;
}

/* A file written to @path whose messages call it @shown. */
static RptOutputFile *
output_file_new(const char *path, const char *shown, GError **error)
{
	RptOutputFile *self;
	char *temp_path = g_strdup_printf("%s.tmp-XXXXXX", path);
	/* 0666 less the umask, as a file created by open(2) or g_file_set_contents() */
	int fd = g_mkstemp_full(temp_path, O_WRONLY | O_CLOEXEC, 0666);

	if (fd < 0) {
		int err = errno;

		g_free(temp_path);
		set_io_error(error, err, shown, "cannot create a temporary file beside it");
		return NULL;
	}
	self = g_new0(RptOutputFile, 1);
	self->path = g_strdup(path);
	self->shown = g_strdup(shown);
	self->temp_path = temp_path;
	self->fd = fd;
	return self;
}

RptOutputFile *
rpt_output_file_new(const char *path, GError **error)
{
	return output_file_new(path, path, error);
}

const char *
rpt_output_file_get_temp_path(const RptOutputFile *self)
{
	return self->temp_path;
}

static gboolean
write_all(int fd, const char *data, gsize length, int *errno_out)
{
	while (length > 0) {
		ssize_t n = write(fd, data, length);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*errno_out = errno;
			return FALSE;
		}
		data += n;
		length -= (gsize)n;
	}
	return TRUE;
}

gboolean
rpt_output_file_write(RptOutputFile *self, const void *data, gsize length, GError **error)
{
	gsize allowed = 0;
	gboolean kill_at_fault = FALSE;
	gboolean fault = fault_hits(self->path, self->written, &allowed, &kill_at_fault) &&
	                 allowed < self->written + length;
	gsize n = fault ? allowed - self->written : length;
	int err = 0;

	g_return_val_if_fail(self->fd >= 0, FALSE);
	if (!write_all(self->fd, data, n, &err))
		return set_io_error(error, err, self->shown, "cannot write");
	self->written += n;
	if (fault) {
		if (kill_at_fault)
			raise(SIGKILL);
		return set_io_error(error, ENOSPC, self->shown, "cannot write");
	}
	return TRUE;
}

/* Makes a rename or a new entry in @dir durable; file systems without it are not an error. */
static void
sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

gboolean
rpt_output_file_commit(RptOutputFile *self, GError **error)
{
	g_autofree char *dir = g_path_get_dirname(self->path);
	int fd = self->fd;

	g_return_val_if_fail(fd >= 0, FALSE);
	self->fd = -1;
	/* fsync first: a rename that reaches the disk before the data would leave an empty file */
	if (fsync(fd) != 0 && errno != EINVAL) {
		int err = errno;

		close(fd);
		return set_io_error(error, err, self->shown, "cannot write");
	}
	if (close(fd) != 0)
		return set_io_error(error, errno, self->shown, "cannot write");
	if (rename(self->temp_path, self->path) != 0)
		return set_io_error(error, errno, self->shown, "cannot replace");
	g_clear_pointer(&self->temp_path, g_free);
	sync_dir(dir);
	return TRUE;
}

void
rpt_output_file_free(RptOutputFile *self)
{
	if (self == NULL)
		return;
	if (self->fd >= 0)
		close(self->fd);
	if (self->temp_path != NULL)
		g_unlink(self->temp_path); /* not committed: the previous file stays */
	g_free(self->temp_path);
	g_free(self->path);
	g_free(self->shown);
	g_free(self);
}

static gboolean
write_file_shown(
        const char *path, const char *shown, const char *contents, gsize length, GError **error)
{
	g_autoptr(RptOutputFile) file = output_file_new(path, shown, error);

	return file != NULL && rpt_output_file_write(file, contents, length, error) &&
	       rpt_output_file_commit(file, error);
}

gboolean
rpt_output_write_file(const char *path, const char *contents, gsize length, GError **error)
{
	return write_file_shown(path, path, contents, length, error);
}

/* --- What an output directory holds ------------------------------------------------------ */

/* The names listed in @dir's marker, or NULL when it has none (or not drasim's). */
static GPtrArray *
read_marker(const char *dir)
{
	g_autofree char *path = g_build_filename(dir, RPT_OUTPUT_MARKER, NULL);
	g_autofree char *text = NULL;
	g_auto(GStrv) lines = NULL;
	GPtrArray *names;

	if (!g_file_test(path, G_FILE_TEST_IS_REGULAR) ||
	    !base_read_file(path, &text, NULL, NULL) || !g_str_has_prefix(text, MARKER_HEADER))
		return NULL;
	names = g_ptr_array_new_with_free_func(g_free);
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 1; lines[i] != NULL; i++) {
		if (lines[i][0] != '\0' && lines[i][0] != '#')
			g_ptr_array_add(names, g_strdup(lines[i]));
	}
	return names;
}

static gboolean
listed(GPtrArray *names, const char *name)
{
	return g_ptr_array_find_with_equal_func(names, name, g_str_equal, NULL);
}

static int
compare_names(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of @dir, sorted (so messages do not depend on the file system's order). */
static GPtrArray *
list_entries(const char *dir, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(GDir) handle = g_dir_open(dir, 0, &local);
	GPtrArray *entries;
	const char *name;

	if (handle == NULL) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "%s", local->message);
		return NULL;
	}
	entries = g_ptr_array_new_with_free_func(g_free);
	while ((name = g_dir_read_name(handle)) != NULL)
		g_ptr_array_add(entries, g_strdup(name));
	g_ptr_array_sort(entries, compare_names);
	return entries;
}

/* "a, b and 3 more": the first few of @names for a message. */
static char *
name_some(GPtrArray *names)
{
	GString *out = g_string_new(NULL);
	guint shown = MIN(names->len, 3u);

	for (guint i = 0; i < shown; i++) {
		const char *sep =
		        i == 0 ? "" : (i + 1 == shown && names->len == shown ? " and " : ", ");

		g_string_append_printf(out, "%s%s", sep, (char *)names->pdata[i]);
	}
	if (names->len > shown)
		g_string_append_printf(out, " and %u more", names->len - shown);
	return g_string_free(out, FALSE);
}

static gboolean
refuse_foreign(const char *dir, GPtrArray *entries, GError **error)
{
	g_autofree char *some = name_some(entries);

	g_set_error(error, RPT_ERROR, RPT_ERROR_OUTPUT_DIR,
	            "%s: not empty and not a drasim output directory (it holds %s, and no %s): "
	            "drasim writes only into a new or empty directory, or replaces one it wrote "
	            "before; choose another -o directory, or empty this one",
	            dir, some, RPT_OUTPUT_MARKER);
	return FALSE;
}

static gboolean
refuse_strangers(const char *dir, GPtrArray *strangers, GError **error)
{
	g_autofree char *some = name_some(strangers);

	g_set_error(error, RPT_ERROR, RPT_ERROR_OUTPUT_DIR,
	            "%s: a drasim output directory, but it also holds %s, which drasim did not "
	            "write (%s does not list %s); drasim replaces its output directory as a whole: "
	            "move %s away or choose another -o directory",
	            dir, some, RPT_OUTPUT_MARKER, strangers->len == 1 ? "it" : "them",
	            strangers->len == 1 ? "it" : "them");
	return FALSE;
}

/*
 * Whether drasim may write @dir: it does not exist (*exists_out FALSE), is an
 * empty directory, or holds only what its marker lists (*names_out, the
 * previous output's files; NULL when there is no marker).
 */
static gboolean
inspect_dir(const char *dir, gboolean *exists_out, GPtrArray **names_out, GError **error)
{
	g_autoptr(GPtrArray) entries = NULL;
	g_autoptr(GPtrArray) names = NULL;
	g_autoptr(GPtrArray) strangers = g_ptr_array_new();
	GStatBuf st;

	*exists_out = FALSE;
	*names_out = NULL;
	if (g_stat(dir, &st) != 0) {
		return errno == ENOENT ||
		       set_io_error(error, errno, dir, "cannot use as -o directory");
	}
	if (!S_ISDIR(st.st_mode)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_OUTPUT_DIR,
		            "%s: exists and is not a directory (-o names a directory); choose "
		            "another -o directory",
		            dir);
		return FALSE;
	}
	*exists_out = TRUE;
	if ((entries = list_entries(dir, error)) == NULL)
		return FALSE;
	if (entries->len == 0)
		return TRUE;
	if ((names = read_marker(dir)) == NULL)
		return refuse_foreign(dir, entries, error);
	for (guint i = 0; i < entries->len; i++) {
		const char *name = entries->pdata[i];

		if (strcmp(name, RPT_OUTPUT_MARKER) != 0 && !listed(names, name))
			g_ptr_array_add(strangers, (gpointer)name);
	}
	if (strangers->len > 0)
		return refuse_strangers(dir, strangers, error);
	*names_out = g_steal_pointer(&names);
	return TRUE;
}

gboolean
rpt_output_dir_check(const char *dir, GError **error)
{
	g_autoptr(GPtrArray) names = NULL;
	gboolean exists;

	return inspect_dir(dir, &exists, &names, error);
}

/* --- Replacing an output directory ---------------------------------------------------------- */

/* @dir with symlinks resolved; a new directory's parents are created. */
static char *
resolve_target(const char *dir, GError **error)
{
	g_autofree char *absolute = NULL;
	g_autofree char *parent = NULL;
	g_autofree char *base = NULL;
	char *real = realpath(dir, NULL);
	char *result;

	if (real == NULL && errno != ENOENT) {
		set_io_error(error, errno, dir, "cannot use as -o directory");
		return NULL;
	}
	if (real == NULL) {
		absolute = g_canonicalize_filename(dir, NULL);
		parent = g_path_get_dirname(absolute);
		base = g_path_get_basename(absolute);
		if (g_mkdir_with_parents(parent, 0755) != 0 ||
		    (real = realpath(parent, NULL)) == NULL) {
			set_io_error(error, errno, parent, "cannot create");
			return NULL;
		}
	}
	result = base != NULL ? g_build_filename(real, base, NULL) : g_strdup(real);
	free(real);
	return result;
}

RptOutputDir *
rpt_output_dir_new(const char *dir, GError **error)
{
	g_autoptr(RptOutputDir) self = g_new0(RptOutputDir, 1);

	if (!rpt_output_dir_check(dir, error))
		return NULL;
	self->shown = g_strdup(dir);
	self->names = g_ptr_array_new_with_free_func(g_free);
	if ((self->target = resolve_target(dir, error)) == NULL)
		return NULL;
	self->staging = g_strdup_printf("%s.tmp-XXXXXX", self->target);
	if (g_mkdtemp_full(self->staging, 0755) == NULL) {
		set_io_error(error, errno, self->staging, "cannot create");
		g_clear_pointer(&self->staging, g_free);
		return NULL;
	}
	return g_steal_pointer(&self);
}

static gboolean
file_sink_write(gpointer data, const char *bytes, gsize length, GError **error)
{
	return rpt_output_file_write(data, bytes, length, error);
}

gboolean
rpt_output_dir_add_streamed(RptOutputDir *self,
                            const char *name,
                            RptProduceFunc produce,
                            gconstpointer subject,
                            GError **error)
{
	g_autofree char *path = NULL;
	g_autofree char *shown = NULL;
	g_autoptr(RptOutputFile) file = NULL;

	g_return_val_if_fail(self->staging != NULL, FALSE);
	g_return_val_if_fail(strchr(name, '/') == NULL && strcmp(name, RPT_OUTPUT_MARKER) != 0,
	                     FALSE);
	path = g_build_filename(self->staging, name, NULL);
	shown = g_build_filename(self->shown, name, NULL);
	file = output_file_new(path, shown, error);
	if (file == NULL)
		return FALSE;
	if (!produce(subject, &(RptSink){ file_sink_write, file }, error) ||
	    !rpt_output_file_commit(file, error))
		return FALSE;
	g_ptr_array_add(self->names, g_strdup(name));
	return TRUE;
}

static gboolean
write_text(gconstpointer text, const RptSink *sink, GError **error)
{
	return sink->write(sink->data, text, strlen(text), error);
}

gboolean
rpt_output_dir_add(RptOutputDir *self, const char *name, const char *contents, GError **error)
{
	return rpt_output_dir_add_streamed(self, name, write_text, contents, error);
}

static gboolean
write_marker(RptOutputDir *self, GError **error)
{
	GString *text = g_string_new(MARKER_HEADER
	                             ": drasim wrote the files below. "
	                             "It replaces this directory as a whole when it writes "
	                             "here again, and refuses a directory without this file.\n");
	g_autofree char *contents = NULL;
	g_autofree char *path = g_build_filename(self->staging, RPT_OUTPUT_MARKER, NULL);
	g_autofree char *shown = g_build_filename(self->shown, RPT_OUTPUT_MARKER, NULL);

	for (guint i = 0; i < self->names->len; i++)
		g_string_append_printf(text, "%s\n", (char *)self->names->pdata[i]);
	contents = g_string_free(text, FALSE);
	return write_file_shown(path, shown, contents, strlen(contents), error);
}

/* Removes a drasim output directory: the files of @names, the marker, then @dir itself. */
static gboolean
remove_output(const char *dir, GPtrArray *names, GError **error)
{
	g_autofree char *marker = g_build_filename(dir, RPT_OUTPUT_MARKER, NULL);

	for (guint i = 0; names != NULL && i < names->len; i++) {
		g_autofree char *path = g_build_filename(dir, names->pdata[i], NULL);

		(void)g_unlink(path);
	}
	(void)g_unlink(marker);
	if (g_rmdir(dir) != 0)
		return set_io_error(error, errno, dir, "cannot remove the previous output");
	return TRUE;
}

/* Two renames, where the file system cannot exchange: *@old_out gets the previous output. */
static gboolean
swap_by_two_renames(RptOutputDir *self, char **old_out, GError **error)
{
	g_autofree char *old = g_strdup_printf("%s.old-XXXXXX", self->target);

	if (g_mkdtemp_full(old, 0700) == NULL)
		return set_io_error(error, errno, old, "cannot create");
	if (rename(self->target, old) != 0) {
		int err = errno;

		(void)g_rmdir(old);
		return set_io_error(error, err, self->shown,
		                    "cannot move the previous output away");
	}
	/* crash window: DIR is missing; DIR.old-XXXXXX and DIR.tmp-XXXXXX are both whole */
	if (rename(self->staging, self->target) != 0) {
		int err = errno;

		(void)rename(old, self->target);
		return set_io_error(error, err, self->shown, "cannot replace");
	}
	*old_out = g_steal_pointer(&old);
	return TRUE;
}

/* Puts the staging directory in DIR's place; *@old_out gets the previous output, if any. */
static gboolean
swap_in(RptOutputDir *self, gboolean exists, char **old_out, GError **error)
{
	GStatBuf st;

	*old_out = NULL;
	if (!exists) {
		if (rename(self->staging, self->target) != 0)
			return set_io_error(error, errno, self->shown, "cannot create");
		return TRUE;
	}
	/* the new directory keeps the old one's permissions */
	if (g_stat(self->target, &st) == 0)
		(void)g_chmod(self->staging, st.st_mode & 07777);
	/* test seam: DRASIM_TEST_NO_EXCHANGE=1 takes the path of a file system without it */
	if (g_getenv("DRASIM_TEST_NO_EXCHANGE") != NULL)
		return swap_by_two_renames(self, old_out, error);
	if (renameat2(AT_FDCWD, self->staging, AT_FDCWD, self->target, RENAME_EXCHANGE) == 0) {
		*old_out = g_strdup(self->staging);
		return TRUE;
	}
	if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
		return set_io_error(error, errno, self->shown, "cannot replace");
	return swap_by_two_renames(self, old_out, error);
}

gboolean
rpt_output_dir_commit(RptOutputDir *self, GError **error)
{
	g_autoptr(GPtrArray) old_names = NULL;
	g_autofree char *old = NULL;
	g_autofree char *parent = g_path_get_dirname(self->target);
	g_autoptr(GError) local = NULL;
	gboolean exists;

	g_return_val_if_fail(self->staging != NULL, FALSE);
	if (!write_marker(self, error))
		return FALSE;
	sync_dir(self->staging);
	/* again: the directory may have changed during the run */
	if (!inspect_dir(self->target, &exists, &old_names, error) ||
	    !swap_in(self, exists, &old, error))
		return FALSE;
	g_clear_pointer(&self->staging, g_free);
	sync_dir(parent);
	/* crash window: the new output is in place; the previous one lingers beside it */
	if (old != NULL && !remove_output(old, old_names, &local)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO,
		            "the new output is in %s, but %s; remove it by hand", self->shown,
		            local->message);
		return FALSE;
	}
	return TRUE;
}

void
rpt_output_dir_free(RptOutputDir *self)
{
	if (self == NULL)
		return;
	if (self->staging != NULL) /* not committed: DIR was not touched */
		(void)remove_output(self->staging, self->names, NULL);
	if (self->names != NULL)
		g_ptr_array_unref(self->names);
	g_free(self->staging);
	g_free(self->target);
	g_free(self->shown);
	g_free(self);
}
