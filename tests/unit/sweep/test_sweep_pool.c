/*
 * test_sweep_pool.c: the executor sweeps and research experiments share
 * (sweep_pool.h): buffers larger than a pipe come back whole and filed by
 * task index whatever the number of children; a child killed by a signal is
 * a failed task, not a failed pool; stop_on_failure starts nothing after a
 * failure; in_process runs in this process.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "sweep_pool.h"

#define N_TASKS 10

typedef struct {
	guint calls_here;   /* task calls seen by this process (forked ones are not) */
	guint done_calls;   /* done callbacks, in the parent */
	gsize len[N_TASKS]; /* what each task sent back */
	gboolean intact[N_TASKS];
	gboolean seen[N_TASKS];
	int signal[N_TASKS];
	guint fail_task; /* this task returns FALSE; N_TASKS: none */
	guint kill_task; /* this task's process kills itself; N_TASKS: none */
} Ctx;

/* Task i sends (i + 1) × 30,000 bytes of value i: from task 2 on more than a 64 KiB pipe. */
static gsize
task_len(guint task)
{
	return (gsize)(task + 1) * 30000;
}

static gboolean
run_task(guint task, GByteArray *out, gpointer data)
{
	Ctx *ctx = data;
	gsize len = task_len(task);

	ctx->calls_here++;
	if (task == ctx->kill_task)
		raise(SIGKILL);
	g_byte_array_set_size(out, (guint)len);
	memset(out->data, (int)task, len);
	return task != ctx->fail_task;
}

static gboolean
task_done(guint task, const SweepPoolResult *result, gpointer data)
{
	Ctx *ctx = data;

	assert_true(task < N_TASKS);
	assert_false(ctx->seen[task]);
	ctx->seen[task] = TRUE;
	ctx->done_calls++;
	ctx->len[task] = result->len;
	ctx->signal[task] = result->signal;
	ctx->intact[task] = TRUE;
	for (gsize i = 0; i < result->len; i++)
		ctx->intact[task] &= result->data[i] == (guint8)task;
	return result->ok;
}

static Ctx
ctx_new(void)
{
	Ctx ctx = { 0 };

	ctx.fail_task = N_TASKS;
	ctx.kill_task = N_TASKS;
	return ctx;
}

/* Every task's whole buffer, by its index, with 1, 3 and 16 children (more than tasks). */
static void
test_pool__buffers_whole_by_index(void **state)
{
	static const guint jobs[] = { 1, 3, 16 };

	(void)state;
	for (guint j = 0; j < G_N_ELEMENTS(jobs); j++) {
		SweepPoolOptions options = { .jobs = jobs[j], .label = "test" };
		SweepPoolSummary summary;
		Ctx ctx = ctx_new();

		assert_true(sweep_pool_run(N_TASKS, &options, run_task, task_done, &ctx, &summary,
		                           NULL));
		assert_int_equal(ctx.calls_here, 0); /* every task ran in a child */
		assert_int_equal(ctx.done_calls, N_TASKS);
		assert_int_equal(summary.done, N_TASKS);
		assert_int_equal(summary.failed, 0);
		for (guint t = 0; t < N_TASKS; t++) {
			assert_int_equal(ctx.len[t], task_len(t));
			assert_true(ctx.intact[t]);
		}
	}
}

/* Task 4's process dies by SIGKILL: it fails with the signal and the nine others finish. */
static void
test_pool__killed_child_fails_its_task_only(void **state)
{
	SweepPoolOptions options = { .jobs = 2, .label = "test" };
	SweepPoolSummary summary;
	Ctx ctx = ctx_new();

	(void)state;
	ctx.kill_task = 4;
	assert_true(sweep_pool_run(N_TASKS, &options, run_task, task_done, &ctx, &summary, NULL));
	assert_int_equal(summary.done, N_TASKS - 1);
	assert_int_equal(summary.failed, 1);
	assert_int_equal(ctx.signal[4], SIGKILL);
	assert_int_equal(ctx.len[4], 0);
	assert_int_equal(ctx.signal[5], 0);
	assert_int_equal(ctx.len[5], task_len(5));
}

/*
 * One child at a time, task 2 returns FALSE: its buffer still comes back (it is the
 * failure's text for a caller), tasks 3..9 never start: 2 done, 1 failed, 7 not started.
 */
static void
test_pool__stop_on_failure(void **state)
{
	SweepPoolOptions options = { .jobs = 1, .stop_on_failure = TRUE, .label = "test" };
	SweepPoolSummary summary;
	Ctx ctx = ctx_new();

	(void)state;
	ctx.fail_task = 2;
	assert_true(sweep_pool_run(N_TASKS, &options, run_task, task_done, &ctx, &summary, NULL));
	assert_int_equal(summary.done, 2);
	assert_int_equal(summary.failed, 1);
	assert_int_equal(summary.not_started, 7);
	assert_int_equal(ctx.done_calls, 3);
	assert_int_equal(ctx.len[2], task_len(2));
	assert_false(ctx.seen[3]);
}

/* in_process: the calls happen here (the counter moves), with the same results; a failure
 * with stop_on_failure leaves the rest unstarted there too. */
static void
test_pool__in_process(void **state)
{
	SweepPoolOptions options = { .jobs = 4, .in_process = TRUE, .stop_on_failure = TRUE };
	SweepPoolSummary summary;
	Ctx ctx = ctx_new();

	(void)state;
	ctx.fail_task = 6;
	assert_true(sweep_pool_run(N_TASKS, &options, run_task, task_done, &ctx, &summary, NULL));
	assert_int_equal(ctx.calls_here, 7);
	assert_int_equal(summary.done, 6);
	assert_int_equal(summary.failed, 1);
	assert_int_equal(summary.not_started, 3);
	assert_int_equal(ctx.len[5], task_len(5));
	assert_true(ctx.intact[5]);
}

static void
test_pool__no_tasks(void **state)
{
	SweepPoolOptions options = { .jobs = 2 };
	SweepPoolSummary summary = { 1, 1, 1 };
	Ctx ctx = ctx_new();

	(void)state;
	assert_true(sweep_pool_run(0, &options, run_task, task_done, &ctx, &summary, NULL));
	assert_int_equal(summary.done + summary.failed + summary.not_started, 0);
	assert_int_equal(ctx.done_calls, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool__buffers_whole_by_index),
		cmocka_unit_test(test_pool__killed_child_fails_its_task_only),
		cmocka_unit_test(test_pool__stop_on_failure),
		cmocka_unit_test(test_pool__in_process),
		cmocka_unit_test(test_pool__no_tasks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
