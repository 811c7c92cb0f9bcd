/*
 * limit-edge.h: the edge test every base.h limit gets (test_yaml_limits.c,
 * tests/unit/scenario/test_run_end.c): the same input passes at the limit and
 * fails one under it. Include after cmocka.h.
 */
#pragma once

#include <glib.h>

#include "base.h"

/* Returns (transfer full) the error text of @attempt(@input), or NULL when it passes. */
typedef char *(*LimitAttempt)(const char *input);

/* Tries @input with limit @which at @limit, then at @limit - 1, and restores the
 * default. Fails the test unless the first passes and the second does not.
 * Returns: (transfer full): the second attempt's error text. */
static inline char *
limit_edge(BaseLimit which, guint64 limit, LimitAttempt attempt, const char *input)
{
	g_autofree char *at = NULL;
	char *over;

	base_limit_set(which, limit);
	at = attempt(input);
	base_limit_set(which, limit - 1);
	over = attempt(input);
	base_limit_set(which, 0);
	assert_null(at);
	assert_non_null(over);
	return over;
}
