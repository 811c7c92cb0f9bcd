/*
 * test_loop.c: SimLoop dispatch, stop conditions and the periodic sampler.
 *
 * Invariants under test: each event reaches the handler of its kind with its
 * own payload; time never goes back; a run stops at the horizon with the
 * clock on it and the later events still pending; the dispatch budget and
 * sim_loop_stop() stop exactly where asked; progress fires every N events and
 * once at the end; a sample at tick t sees all other events of tick t.
 */
#include "test-engine.h"

typedef struct {
	GArray *seen; /* SimTime of each dispatched event */
	uint32_t echo_kind;
	guint echoes_left;
	guint progress_calls;
	guint stop_after;
	double level;
} Ctx;

static void
on_echo(SimLoop *loop, const SimEvent *event, gpointer user_data)
{
	Ctx *ctx = user_data;

	assert_true(event->time == sim_loop_get_now(loop));
	g_array_append_val(ctx->seen, event->time);
	/* payload d[0] is the delay to the next echo */
	if (ctx->echoes_left > 0) {
		ctx->echoes_left--;
		sim_loop_schedule(loop, event->time + (SimTime)event->data.d[0], ctx->echo_kind, 0,
		                  event->target, &event->data);
	}
	if (ctx->stop_after > 0 && ctx->seen->len == ctx->stop_after) {
		sim_loop_stop(loop);
	}
}

static void
on_level(SimLoop *loop, const SimEvent *event, gpointer user_data)
{
	Ctx *ctx = user_data;

	ctx->level = event->data.d[0];
}

static void
on_progress(SimLoop *loop, gpointer user_data)
{
	((Ctx *)user_data)->progress_calls++;
}

static void
ctx_init(Ctx *ctx)
{
	*ctx = (Ctx){ .seen = g_array_new(FALSE, FALSE, sizeof(SimTime)) };
}

static void
test_loop__dispatch_by_kind(void **state)
{
	g_autoptr(SimLoop) loop = sim_loop_new();
	Ctx ctx;

	ctx_init(&ctx);
	uint32_t level = sim_loop_add_kind(loop, "level", on_level, &ctx);
	ctx.echo_kind = sim_loop_add_kind(loop, "echo", on_echo, &ctx);
	assert_int_equal(level, 0);
	assert_int_equal(ctx.echo_kind, 1);
	assert_string_equal(sim_loop_get_kind_name(loop, 1), "echo");

	SimPayload p = { .d = { 10.0 } };
	ctx.echoes_left = 4;
	sim_loop_schedule(loop, 5, ctx.echo_kind, 0, 0, &p);
	SimPayload lv = { .d = { 3.5 } };
	sim_loop_schedule(loop, 100, level, 0, 0, &lv);

	assert_int_equal(sim_loop_run(loop), SIM_STOP_EMPTY);
	static const SimTime expect[] = { 5, 15, 25, 35, 45 };
	assert_int_equal(ctx.seen->len, G_N_ELEMENTS(expect));
	for (guint i = 0; i < ctx.seen->len; i++) {
		assert_int_equal(g_array_index(ctx.seen, SimTime, i), expect[i]);
	}
	assert_close(ctx.level, 3.5, 0.0);
	assert_int_equal(sim_loop_get_now(loop), 100);
	assert_int_equal(sim_loop_get_dispatched(loop), 6);
	g_array_unref(ctx.seen);
}

static void
test_loop__horizon(void **state)
{
	g_autoptr(SimLoop) loop = sim_loop_new();
	Ctx ctx;

	ctx_init(&ctx);
	ctx.echo_kind = sim_loop_add_kind(loop, "echo", on_echo, &ctx);
	SimPayload p = { .d = { 10.0 } };
	ctx.echoes_left = 100;
	sim_loop_schedule(loop, 0, ctx.echo_kind, 0, 0, &p);
	sim_loop_set_horizon(loop, 35);

	assert_int_equal(sim_loop_run(loop), SIM_STOP_HORIZON);
	assert_int_equal(ctx.seen->len, 4); /* 0, 10, 20, 30 */
	assert_int_equal(sim_loop_get_now(loop), 35);
	assert_int_equal(sim_queue_get_length(sim_loop_get_queue(loop)), 1);
	assert_int_equal(sim_queue_peek_time(sim_loop_get_queue(loop)), 40);

	/* an event exactly at the horizon runs */
	sim_loop_set_horizon(loop, 40);
	assert_int_equal(sim_loop_run(loop), SIM_STOP_HORIZON);
	assert_int_equal(ctx.seen->len, 5);
	g_array_unref(ctx.seen);
}

static void
test_loop__max_events_stop_progress(void **state)
{
	g_autoptr(SimLoop) loop = sim_loop_new();
	Ctx ctx;

	ctx_init(&ctx);
	ctx.echo_kind = sim_loop_add_kind(loop, "echo", on_echo, &ctx);
	SimPayload p = { .d = { 1.0 } };
	ctx.echoes_left = 1000;
	sim_loop_schedule(loop, 0, ctx.echo_kind, 0, 0, &p);
	sim_loop_set_progress(loop, 10, on_progress, &ctx);

	sim_loop_set_max_events(loop, 25);
	assert_int_equal(sim_loop_run(loop), SIM_STOP_MAX_EVENTS);
	assert_int_equal(ctx.seen->len, 25);
	assert_int_equal(ctx.progress_calls, 2 + 1); /* at 10, 20, and the end */

	sim_loop_set_max_events(loop, 0);
	ctx.stop_after = 40;
	assert_int_equal(sim_loop_run(loop), SIM_STOP_REQUESTED);
	assert_int_equal(ctx.seen->len, 40);
	assert_int_equal(sim_loop_get_now(loop), 39);
	g_array_unref(ctx.seen);
}

static double
probe_level(gpointer user_data, SimTime now)
{
	return ((Ctx *)user_data)->level;
}

static void
test_loop__sampler(void **state)
{
	g_autoptr(SimLoop) loop = sim_loop_new();
	Ctx ctx;

	ctx_init(&ctx);
	uint32_t level = sim_loop_add_kind(loop, "level", on_level, &ctx);
	g_autoptr(SimSampler) sampler = sim_sampler_new(loop, 10);
	assert_int_equal(sim_sampler_add_probe(sampler, "level", probe_level, &ctx), 0);
	assert_int_equal(sim_sampler_add_probe(sampler, "twice", probe_level, &ctx), 1);

	/* set at 10 (same tick as a sample: the sample must see it), 25 */
	SimPayload a = { .d = { 1.0 } }, b = { .d = { 2.0 } };
	sim_sampler_start(sampler, 0);
	sim_loop_schedule(loop, 10, level, 0, 0, &a);
	sim_loop_schedule(loop, 25, level, 0, 0, &b);
	sim_loop_set_horizon(loop, 40);
	assert_int_equal(sim_loop_run(loop), SIM_STOP_HORIZON);

	static const double expect[] = { 0.0, 1.0, 1.0, 2.0, 2.0 };
	assert_int_equal(sim_sampler_get_n_points(sampler), G_N_ELEMENTS(expect));
	assert_int_equal(sim_sampler_get_n_probes(sampler), 2);
	assert_string_equal(sim_sampler_get_probe_name(sampler, 1), "twice");
	for (guint i = 0; i < G_N_ELEMENTS(expect); i++) {
		assert_int_equal(sim_sampler_get_time(sampler, i), 10 * (SimTime)i);
		assert_close(sim_sampler_get_value(sampler, 0, i), expect[i], 0.0);
		assert_close(sim_sampler_get_value(sampler, 1, i), expect[i], 0.0);
	}
	sim_sampler_stop(sampler);
	assert_int_equal(sim_queue_get_length(sim_loop_get_queue(loop)), 0);
	g_array_unref(ctx.seen);
}

/* A retry kind re-arms itself every 10 s for ever (passive); one active event
 * at 25 s. The model says "settled" once the retry at or after the active
 * event has run. Without a horizon the loop must stop at 30 s (the first retry
 * after 25 s), quiescent; a cancelled active event must not count. With a
 * horizon it runs to the horizon instead (60 s) and reports quiescence. */
typedef struct {
	uint32_t retry, active;
	SimTime changed, retried;
} Retry;

static void
on_retry(SimLoop *loop, const SimEvent *event, gpointer user_data)
{
	Retry *r = user_data;

	r->retried = event->time;
	sim_loop_schedule(loop, event->time + 10 * SIM_TIME_S, r->retry, 0, 0, NULL);
}

static void
on_active(SimLoop *loop, const SimEvent *event, gpointer user_data)
{
	((Retry *)user_data)->changed = event->time;
}

static gboolean
retry_settled(gpointer user_data)
{
	Retry *r = user_data;

	return r->retried >= r->changed;
}

static void
run_retries(SimTime horizon, SimTime expect_end, SimStopReason expect_reason)
{
	g_autoptr(SimLoop) loop = sim_loop_new();
	Retry r = { 0, 0, -1, -1 };
	SimEventId cancelled;

	r.retry = sim_loop_add_kind(loop, "retry", on_retry, &r);
	r.active = sim_loop_add_kind(loop, "change", on_active, &r);
	sim_loop_set_kind_passive(loop, r.retry);
	sim_loop_set_settled_func(loop, retry_settled, &r);
	sim_loop_set_horizon(loop, horizon);
	sim_loop_schedule(loop, 0, r.retry, 0, 0, NULL);
	sim_loop_schedule(loop, 25 * SIM_TIME_S, r.active, 0, 0, NULL);
	cancelled = sim_loop_schedule(loop, 45 * SIM_TIME_S, r.active, 0, 0, NULL);
	assert_int_equal(sim_loop_get_n_active_pending(loop), 2);
	assert_true(sim_loop_cancel(loop, cancelled));
	assert_false(sim_loop_cancel(loop, cancelled));
	assert_int_equal(sim_loop_get_n_active_pending(loop), 1);
	assert_int_equal(sim_loop_run(loop), expect_reason);
	assert_int_equal(sim_loop_get_now(loop), expect_end);
	assert_int_equal(sim_loop_get_active_dispatched(loop), 1);
	assert_true(sim_loop_is_quiescent(loop));
}

static void
test_loop__quiescence(void **state)
{
	run_retries(SIM_TIME_NEVER, 30 * SIM_TIME_S, SIM_STOP_QUIESCENT);
	run_retries(60 * SIM_TIME_S, 60 * SIM_TIME_S, SIM_STOP_HORIZON);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_loop__dispatch_by_kind),
		cmocka_unit_test(test_loop__horizon),
		cmocka_unit_test(test_loop__max_events_stop_progress),
		cmocka_unit_test(test_loop__sampler),
		cmocka_unit_test(test_loop__quiescence),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
