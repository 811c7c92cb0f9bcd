/*
 * conformance.h: what the three conformance runners (one test program per
 * corpus under tests/conformance/) share: their exit statuses and option
 * parsing, so that errors look the same in every runner. The runners read
 * ../shared/conformance in place and print each failure, each skip reason
 * and a final "N passed, N failed, N skipped" line.
 */
#pragma once

#include <glib.h>

typedef enum {
	CONFORMANCE_EXIT_OK = 0,     /* every case passed (or was skipped for a stated reason) */
	CONFORMANCE_EXIT_FAILED = 1, /* a case failed, or an input could not be read */
	CONFORMANCE_EXIT_USAGE = 2,  /* the command line itself is wrong */
} ConformanceExit;

/**
 * conformance_parse_options:
 * Parses argv with @context; on failure prints "PROG: ERROR" and a hint.
 * Returns: CONFORMANCE_EXIT_OK, or CONFORMANCE_EXIT_USAGE.
 */
int conformance_parse_options(GOptionContext *context, int *argc, char ***argv);
