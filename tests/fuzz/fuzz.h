/*
 * fuzz.h: what the libFuzzer targets of tests/fuzz share: the entry point libFuzzer
 * calls, the input bound, and the fixture folder that scenario and sweep inputs may name
 * files in. Each target is one fuzz_*.c; fuzz_replay.c gives the same targets a main()
 * for the normal build, which replays tests/data/fuzz-regress/TARGET/ and the seeds.
 */
#pragma once

#include "drasim-config.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <glib.h>

/* libFuzzer's entry point: one input, from memory; findings are crashes, sanitizer
 * reports and leaks, so every target frees all it made before returning. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs above this are skipped: the decoders' own bounds are far larger, and longer
 * inputs only slow the search (tools/fuzz passes -max_len below it). */
#define FUZZ_MAX_INPUT ((size_t)1 << 16)

/* Files a fuzzed scenario or sweep may name (relative paths resolve here). */
#define FUZZ_FIXTURE_DIR DRASIM_SOURCE_ROOT "/tests/fuzz/fixture"

/* A NUL-terminated copy of the input: never NULL, even for size 0. (transfer full) */
static inline char *
fuzz_text(const uint8_t *data, size_t size)
{
	char *text = g_malloc(size + 1);

	if (size > 0)
		memcpy(text, data, size);
	text[size] = '\0';
	return text;
}

/*
 * fuzz_names_outside_fixture:
 * TRUE when @text could name a file outside FUZZ_FIXTURE_DIR: an absolute path (a '/'
 * that starts a YAML scalar, or an escaped one), or "..". Such inputs are skipped: the
 * loaders would read whatever the path names (`/`, a FIFO, /dev/stdin), which is the
 * command's job, not a finding; every other path stays inside the fixture.
 */
static inline gboolean
fuzz_names_outside_fixture(const char *text, size_t size)
{
	for (size_t i = 0; i < size; i++) {
		if (text[i] == '.' && i + 1 < size && text[i + 1] == '.')
			return TRUE;
		if (text[i] == '\\')
			return TRUE; /* YAML escapes: "\/", "\x2f", "\u002F" */
		if (text[i] == '/' && (i == 0 || strchr(" \t\r\n'\"[{,:-?|>&*!", text[i - 1])))
			return TRUE;
	}
	return FALSE;
}

/* The input as text for a target that loads it as a file of FUZZ_FIXTURE_DIR, or NULL when
 * it is too long or could name a file outside that folder (then it is skipped). */
static inline char *
fuzz_fixture_text(const uint8_t *data, size_t size)
{
	char *text;

	if (size > FUZZ_MAX_INPUT)
		return NULL;
	text = fuzz_text(data, size);
	if (fuzz_names_outside_fixture(text, size)) {
		g_free(text);
		return NULL;
	}
	return text;
}
