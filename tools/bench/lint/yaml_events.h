/*
 * yaml_events.h: libyaml alone on a buffer, the yardstick the load and lint
 * benchmarks (tests/unit/api/bench_load.c, bench_lint.c) set drasim against.
 */
#pragma once

#include <glib.h>

/* Parses @data (@len bytes) to libyaml events up to the stream's end and returns
 * how many it read; on a libyaml error it stops there, saying so on stderr after
 * @who. */
guint64 yaml_events_count(const char *data, gsize len, const char *who);
