/*
 * cli_progress.c: the progress line of a long run on a terminal (`drasim run`,
 * `compare`, `explain`): simulated time out of the horizon, percent, pods
 * bound, events per second and an ETA from the wall clock. The line is built
 * by a pure function (tested) and shown at most four times a second; runs
 * read the wall clock here only, never in the engine, so reports do not move.
 */
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

/* 138099 -> "138,099": counts as people read them. */
static void
append_grouped(GString *s, guint64 n)
{
	char digits[32];
	int len = g_snprintf(digits, sizeof digits, "%" G_GUINT64_FORMAT, n);

	for (int i = 0; i < len; i++) {
		if (i > 0 && (len - i) % 3 == 0)
			g_string_append_c(s, ',');
		g_string_append_c(s, digits[i]);
	}
}

char *
cli_progress_line(const char *label,
                  SimTime now,
                  SimTime horizon,
                  guint64 pods,
                  guint64 events,
                  double wall_s)
{
	GString *s = g_string_new(NULL);
	g_autofree char *t = sim_time_format_brief(now);
	gboolean bounded = horizon > 0 && horizon != SIM_TIME_NEVER;

	g_string_append_printf(s, "%s: t=%s", label, t);
	if (bounded) {
		g_autofree char *h = sim_time_format_brief(horizon);

		g_string_append_printf(s, " of %s (%d%%)", h,
		                       (int)(100.0 * (double)MIN(now, horizon) / (double)horizon));
	}
	g_string_append(s, "  pods=");
	append_grouped(s, pods);
	g_string_append(s, "  events/s=");
	append_grouped(s, wall_s > 0 ? (guint64)((double)events / wall_s + 0.5) : 0);
	if (bounded && now > 0 && now < horizon && wall_s > 0) {
		double left_s = wall_s * (double)(horizon - now) / (double)now;
		g_autofree char *eta = sim_time_format_brief((SimTime)(left_s * SIM_TIME_S));

		g_string_append_printf(s, "  ETA %s", eta);
	}
	return g_string_free(s, FALSE);
}

gboolean
cli_progress_wanted(void)
{
	return isatty(STDERR_FILENO);
}

void
cli_progress_show(CliProgress *p, SimTime now, guint64 pods, guint64 events)
{
	gint64 at = g_get_monotonic_time();
	g_autofree char *line = NULL;

	if (p->shown_us != 0 && at - p->shown_us < G_USEC_PER_SEC / 4)
		return; /* at most four refreshes a second */
	p->shown_us = at;
	line = cli_progress_line(p->label, now, p->horizon, pods, events,
	                         (double)(at - p->start_us) / G_USEC_PER_SEC);
	/* \r and erase to the end: the line is rewritten in place */
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
}

void
cli_progress_start(CliProgress *p, const char *label, SimTime horizon)
{
	p->label = label;
	p->horizon = horizon;
	p->start_us = g_get_monotonic_time();
	p->shown_us = 0;
}

void
cli_progress_end(CliProgress *p)
{
	(void)p;
	fputs("\r\033[K", stderr);
	fflush(stderr);
}
