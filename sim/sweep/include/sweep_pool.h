/*
 * sweep_pool.h: the one executor of sim/sweep's local runs and of
 * sim/research's experiments: N tasks, each in its own child process, at most
 * J at once; each child sends back a byte buffer (its figures, or the reason
 * it failed) which the parent hands to a callback with the task's index, so a
 * caller that files results by index gets the same bytes whatever J is. A
 * child that crashes or exhausts memory takes only its task down. Progress on
 * stderr: one line rewritten on a terminal, or a line per tenth in a log.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
	guint jobs;               /* child processes at once; 0: the online cores */
	gboolean in_process;      /* run the tasks here, one after another, no child (profiling) */
	gboolean stop_on_failure; /* after a failed task start nothing more (the running finish) */
	gboolean progress;        /* a progress line on stderr (done, running, failed, ETA) */
	gboolean progress_lines;  /* without @progress: a line at each tenth of the tasks */
	const char *label;        /* the progress line's prefix (NULL: "sweep") */
} SweepPoolOptions;

/* How one task ended, as the parent saw it. */
typedef struct {
	gboolean ok;        /* the task function returned TRUE and its child exited 0 */
	int signal;         /* the child was killed by this signal; 0 if not */
	const guint8 *data; /* what the task appended to its buffer (maybe cut short if !ok) */
	gsize len;
} SweepPoolResult;

/* In the child (or in this process with @in_process): run @task, append its result to @out. */
typedef gboolean (*SweepPoolRunFunc)(guint task, GByteArray *out, gpointer user_data);
/* In the parent, as each task ends (in any order). Returns whether it counts as done
 * (TRUE) or failed (FALSE), for the progress line and @stop_on_failure. */
typedef gboolean (*SweepPoolDoneFunc)(guint task,
                                      const SweepPoolResult *result,
                                      gpointer user_data);

/* What a sweep_pool_run() call did. */
typedef struct {
	guint done, failed;
	guint not_started; /* tasks never started (stop_on_failure, or a failed fork) */
} SweepPoolSummary;

/**
 * sweep_pool_run:
 * Runs tasks 0 .. @n_tasks - 1 as @options says, calling @done for each.
 * Returns: FALSE with @error only when a child could not be started (the
 *   running ones are waited for first); a failed task is not an error here.
 */
gboolean sweep_pool_run(guint n_tasks,
                        const SweepPoolOptions *options,
                        SweepPoolRunFunc run,
                        SweepPoolDoneFunc done,
                        gpointer user_data,
                        SweepPoolSummary *summary,
                        GError **error);

G_END_DECLS
