/*
 * base_read.c: the bounded reader every input goes through. A regular file
 * is checked by its size before a byte is read; anything else (standard
 * input, a pipe, a FIFO, a character device such as /dev/zero) is read in
 * chunks and abandoned as soon as it passes the input limit, so memory never
 * holds more than the limit plus one chunk.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base.h"

#define CHUNK ((gsize)64 << 10)

/* Messages leave the file's name to the caller, which prefixes its position. */
static gboolean
too_large(GError **error)
{
	g_autofree char *limit = base_limit_describe(BASE_LIMIT_INPUT_BYTES);

	g_set_error(error, BASE_ERROR, BASE_ERROR_LIMIT, "larger than allowed: %s", limit);
	return FALSE;
}

gboolean
base_read_fd(int fd, char **data, gsize *length, GError **error)
{
	/* a GByteArray holds at most G_MAXUINT bytes: a larger limit reads as that */
	guint64 limit = MIN(base_limit_get(BASE_LIMIT_INPUT_BYTES), (guint64)G_MAXUINT - CHUNK);
	g_autoptr(GByteArray) buf = NULL;
	guint64 hint = CHUNK;
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if ((guint64)st.st_size > limit)
			return too_large(error);
		/* the size is a hint: the file may still grow while it is read */
		hint = (guint64)st.st_size + 1;
	}
	buf = g_byte_array_sized_new((guint)MIN(hint, limit + 1));
	for (;;) {
		gsize room = (gsize)MIN((guint64)CHUNK, limit + 1 - buf->len);
		guint old = buf->len;
		gssize n;

		g_byte_array_set_size(buf, old + (guint)room);
		do
			n = read(fd, buf->data + old, room);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			int saved = errno;

			g_set_error(error, BASE_ERROR, BASE_ERROR_READ, "%s", g_strerror(saved));
			return FALSE;
		}
		g_byte_array_set_size(buf, old + (guint)n);
		if ((guint64)buf->len > limit)
			return too_large(error);
		if (n == 0)
			break;
	}
	if (length != NULL)
		*length = buf->len;
	g_byte_array_append(buf, (const guint8 *)"", 1);
	*data = (char *)g_byte_array_free(g_steal_pointer(&buf), FALSE);
	return TRUE;
}

gboolean
base_read_file(const char *path, char **data, gsize *length, GError **error)
{
	int fd;
	gboolean ok;

	do
		fd = open(path, O_RDONLY | O_CLOEXEC);
	while (fd < 0 && errno == EINTR);
	if (fd < 0) {
		int saved = errno;

		g_set_error(error, BASE_ERROR, BASE_ERROR_READ, "%s", g_strerror(saved));
		return FALSE;
	}
	ok = base_read_fd(fd, data, length, error);
	close(fd);
	return ok;
}
