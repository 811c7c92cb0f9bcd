/*
 * sweep_pool.c: N tasks in up to J child processes, each sending a byte
 * buffer back through a pipe (sweep_pool.h). The parent polls the running
 * children's pipes, so a child with more to say than a pipe holds never
 * blocks; at end of file it reaps that child and hands the buffer and the
 * task's index to the caller. sweep_exec.c (a sweep's scenario runs) and
 * sim/research's experiments both run on it.
 */
#include "sweep_pool.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep-private.h"

typedef struct {
	pid_t pid;
	int fd;
	guint task;
	GByteArray *data;
} PoolChild;

typedef struct {
	const SweepPoolOptions *options;
	SweepPoolRunFunc run;
	SweepPoolDoneFunc done;
	gpointer user_data;
	SweepPoolSummary *summary;
	guint n_tasks;
	GArray *running;    /* PoolChild */
	guint tenths_shown; /* progress_lines: tenths of the tasks already reported */
	gint64 start_us;
} Pool;

/*
 * On a terminal one line rewritten in place; in a log (progress_lines) a line
 * each time another tenth of the tasks has finished, so a long sweep in CI
 * says where it is without flooding the log.
 */
static void
show_progress(Pool *pool, gboolean final)
{
	const SweepPoolOptions *o = pool->options;
	guint finished = pool->summary->done + pool->summary->failed;
	double elapsed = (double)(g_get_monotonic_time() - pool->start_us) / 1e6;
	guint tenth = pool->n_tasks > 0 ? finished * 10 / pool->n_tasks : 10;
	g_autofree char *eta = NULL;

	if (!o->progress && !(o->progress_lines && tenth > pool->tenths_shown))
		return;
	if (finished > 0 && finished < pool->n_tasks)
		eta = sim_time_format_brief(
		        (SimTime)(elapsed / finished * (pool->n_tasks - finished) * SIM_TIME_S));
	fprintf(stderr, "%s%s: %u/%u runs done, %u running, %u failed, ETA %s%s",
	        o->progress ? "\r" : "", o->label != NULL ? o->label : "sweep", finished,
	        pool->n_tasks, pool->running->len, pool->summary->failed, eta != NULL ? eta : "-",
	        o->progress ? "   " : "\n");
	pool->tenths_shown = tenth;
	if (final && o->progress)
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

/* Books a task's end with the caller. */
static void
finish(Pool *pool, guint task, const SweepPoolResult *result)
{
	if (pool->done(task, result, pool->user_data))
		pool->summary->done++;
	else
		pool->summary->failed++;
}

static gboolean
write_all(int fd, const guint8 *data, gsize len)
{
	while (len > 0) {
		gssize w = write(fd, data, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return FALSE;
		data += w;
		len -= (gsize)w;
	}
	return TRUE;
}

/* The child's whole life: no return into the parent's code, no exit handlers. */
static G_GNUC_NORETURN void
child_main(const Pool *pool, guint task, int fd)
{
	GByteArray *out = g_byte_array_new();
	gboolean ok;

	for (guint i = 0; i < pool->running->len; i++) /* the siblings' pipes are not ours */
		close(g_array_index(pool->running, PoolChild, i).fd);
	ok = pool->run(task, out, pool->user_data);
	ok = write_all(fd, out->data, out->len) && ok;
	fflush(NULL);
	_exit(ok ? 0 : 1);
}

static gboolean
start_child(Pool *pool, guint task, GError **error)
{
	PoolChild child = { 0, -1, task, NULL };
	int fds[2];

	if (pipe(fds) != 0) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_IO, "cannot start a run: pipe: %s",
		            g_strerror(errno));
		return FALSE;
	}
	fflush(NULL);
	child.pid = fork();
	if (child.pid < 0) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_IO, "cannot start a run: fork: %s",
		            g_strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return FALSE;
	}
	if (child.pid == 0) {
		close(fds[0]);
		child_main(pool, task, fds[1]);
	}
	close(fds[1]);
	child.fd = fds[0];
	child.data = g_byte_array_new();
	g_array_append_val(pool->running, child);
	return TRUE;
}

/* Child @i's pipe reached end of file: reap it, book its task, forget it. */
static void
reap_child(Pool *pool, guint i)
{
	PoolChild child = g_array_index(pool->running, PoolChild, i);
	int status = 0;
	SweepPoolResult result = { FALSE, 0, child.data->data, child.data->len };

	close(child.fd);
	while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR)
		;
	result.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	g_array_remove_index(pool->running, i);
	finish(pool, child.task, &result);
	g_byte_array_unref(child.data);
	show_progress(pool, FALSE);
}

/* Waits until a child has written something or ended; reads it, reaps the ended. */
static void
wait_some(Pool *pool)
{
	guint n = pool->running->len;
	g_autofree struct pollfd *fds = g_new0(struct pollfd, n);
	guint8 buf[65536];

	for (guint i = 0; i < n; i++)
		fds[i] =
		        (struct pollfd){ g_array_index(pool->running, PoolChild, i).fd, POLLIN, 0 };
	if (poll(fds, n, -1) < 0)
		return;               /* EINTR: the caller polls again */
	for (guint i = n; i-- > 0;) { /* from the end: reaping removes entry i */
		PoolChild *child = &g_array_index(pool->running, PoolChild, i);
		gssize r;

		if (fds[i].revents == 0)
			continue;
		r = read(child->fd, buf, sizeof buf);
		if (r > 0)
			g_byte_array_append(child->data, buf, (guint)r);
		else if (r == 0 || errno != EINTR)
			reap_child(pool, i);
	}
}

static void
run_in_process(Pool *pool)
{
	for (guint task = 0; task < pool->n_tasks; task++) {
		GByteArray *out = g_byte_array_new();
		SweepPoolResult result = { FALSE, 0, NULL, 0 };

		result.ok = pool->run(task, out, pool->user_data);
		result.data = out->data;
		result.len = out->len;
		finish(pool, task, &result);
		g_byte_array_unref(out);
		show_progress(pool, FALSE);
		if (!result.ok && pool->options->stop_on_failure) {
			pool->summary->not_started = pool->n_tasks - task - 1;
			break;
		}
	}
}

gboolean
sweep_pool_run(guint n_tasks,
               const SweepPoolOptions *options,
               SweepPoolRunFunc run,
               SweepPoolDoneFunc done,
               gpointer user_data,
               SweepPoolSummary *summary,
               GError **error)
{
	Pool pool = { options, run, done, user_data, summary, n_tasks, NULL, 0, 0 };
	guint jobs = options->jobs > 0 ? options->jobs : MAX(g_get_num_processors(), 1);
	gboolean ok = TRUE;
	guint next = 0;

	*summary = (SweepPoolSummary){ 0 };
	pool.running = g_array_new(FALSE, FALSE, sizeof(PoolChild));
	pool.start_us = g_get_monotonic_time();
	show_progress(&pool, FALSE);
	if (options->in_process)
		run_in_process(&pool);
	while (!options->in_process && (next < n_tasks || pool.running->len > 0)) {
		gboolean stop = options->stop_on_failure && summary->failed > 0;

		while (ok && !stop && next < n_tasks && pool.running->len < jobs) {
			ok = start_child(&pool, next, error);
			next += ok;
		}
		if (next < n_tasks && (!ok || stop)) {
			summary->not_started = n_tasks - next;
			next = n_tasks; /* start nothing more; wait for what runs */
		}
		if (pool.running->len > 0)
			wait_some(&pool);
	}
	show_progress(&pool, TRUE);
	g_array_unref(pool.running);
	return ok;
}
