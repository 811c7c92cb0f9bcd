/*
 * cli_output.c: the drasim command's standard output, checked once at exit.
 *
 * A command that cannot write its output must not exit 0: `drasim run >
 * /dev/full` or a full disk would otherwise lose a report silently. Rather
 * than checking every printf of every command, main() makes stdout a stream
 * whose writes record the first error (with its errno, which stdio itself
 * forgets once it drops the failed buffer), and an exit handler flushes it
 * and turns any error into a message and exit status 1, as coreutils'
 * close_stdout does. Being an exit handler, it also sees output printed by
 * paths that call exit() themselves, such as GOption's --help.
 */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"

static int first_error; /* errno of the first failed write to stdout, 0 if none */

static ssize_t
stdout_write(void *cookie, const char *buf, size_t size)
{
	size_t done = 0;

	(void)cookie;
	while (done < size) {
		ssize_t n = write(STDOUT_FILENO, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			if (first_error == 0)
				first_error = errno;
			/* fewer bytes than asked: stdio sets the stream's sticky error flag */
			return (ssize_t)done;
		}
		done += (size_t)n;
	}
	return (ssize_t)done;
}

/* The exit handler: exits 1 on a write error, else lets exit() go on. */
static void
close_stdout(void)
{
	gboolean flush_failed = fclose(stdout) != 0;
	int close_errno = close(STDOUT_FILENO) == 0 ? 0 : errno;
	gboolean failed;

	/* close(2) can report a deferred write error (NFS). EBADF: stdout was closed before
	 * drasim started, an error only if something was written, and then that write failed */
	if (close_errno != 0 && close_errno != EBADF && first_error == 0)
		first_error = close_errno;
	failed = flush_failed || first_error != 0;
	if (failed) {
		if (first_error != 0)
			fprintf(stderr, "drasim: error writing standard output: %s\n",
			        g_strerror(first_error));
		else
			fputs("drasim: error writing standard output\n", stderr);
		_exit(CLI_EXIT_INPUT_ERROR);
	}
	/* no one is left to tell about stderr, but the exit status can still say it */
	if (fflush(stderr) != 0 || ferror(stderr))
		_exit(CLI_EXIT_INPUT_ERROR);
}

void
cli_install_output_checks(void)
{
	cookie_io_functions_t io = { .write = stdout_write };
	FILE *checked = fopencookie(NULL, "w", io);

	if (checked == NULL)
		return; /* out of memory at start: keep the plain stdout */
	/* as stdio's own stdout: line-buffered on a terminal, fully buffered otherwise */
	setvbuf(checked, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	/* glibc's stdout is an ordinary variable that may be set (glibc manual, "Standard
	 * Streams"); code that needs the descriptor uses STDOUT_FILENO, never fileno(stdout) */
	stdout = checked;
	atexit(close_stdout);
}
