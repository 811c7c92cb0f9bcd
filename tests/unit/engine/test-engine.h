/*
 * test-engine.h: helpers shared by the sim/engine unit tests.
 */
#pragma once

#include <math.h>
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "sim.h"

/* |a - b| <= eps, with both values printed on failure. */
#define assert_close(a, b, eps)                                                                    \
	do {                                                                                       \
		double a_ = (a), b_ = (b);                                                         \
		if (!(fabs(a_ - b_) <= (eps))) {                                                   \
			fail_msg("%s = %.17g, expected %.17g (eps %g)", #a, a_, b_,                \
			         (double)(eps));                                                   \
		}                                                                                  \
	} while (0)

/* The seed of randomised tests: SIM_TEST_SEED, default 1; printed so a
 * failure can be replayed. */
static inline uint64_t
test_seed(void)
{
	const char *s = g_getenv("SIM_TEST_SEED");
	uint64_t seed = s != NULL ? g_ascii_strtoull(s, NULL, 10) : 1;

	print_message("# SIM_TEST_SEED=%" G_GUINT64_FORMAT "\n", seed);
	return seed;
}
