/*
 * base.h: drasim's resource limits and its one bounded file reader.
 *
 * Every input (manifests, scenarios, catalogs, traces, slice files, reports)
 * is read with base_read_file(), which never holds more than the input limit;
 * the other limits are checked where the quantity is known (docs/scenario.md,
 * "Limits"). Each limit has a default and an environment variable that
 * raises (or lowers) it; the error text names both.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
	BASE_LIMIT_INPUT_BYTES, /* bytes of one input file */
	BASE_LIMIT_SAMPLES,     /* sampled values of one run: samples x series */
	BASE_LIMIT_PODS,        /* pod instances of one run */
	BASE_LIMIT_YAML_DEPTH,  /* nesting of one YAML document */
	BASE_LIMIT_YAML_NODES,  /* scalars, sequences and mappings of one YAML file */
	BASE_LIMIT_SWEEP_RUNS,  /* runs of one sweep: grid cells x seeds */
	BASE_LIMIT_JSON_DEPTH,  /* nesting of one JSON text read with cJSON */
	BASE_LIMIT_NODES,       /* nodes of one scenario mode: pools, imported, clones */
	BASE_LIMIT_OBJECTS,     /* Kubernetes objects of one manifest set */
	BASE_N_LIMITS,
} BaseLimit;

#define BASE_ERROR (base_error_quark())
GQuark base_error_quark(void);

typedef enum {
	BASE_ERROR_LIMIT, /* a limit was exceeded */
	BASE_ERROR_READ,  /* the file could not be opened or read */
} BaseErrorCode;

/* The limit in force: the environment variable's value when set and valid
 * (a positive integer, optionally with Ki, Mi, Gi or Ti), else the default. */
guint64 base_limit_get(BaseLimit limit);
/* "DRASIM_MAX_PODS", ... (static). */
const char *base_limit_env(BaseLimit limit);
/* Overrides the limit for this process (tests, a command-line flag); 0 restores
 * the environment's or default value. */
void base_limit_set(BaseLimit limit, guint64 value);

/**
 * base_limit_describe:
 *
 * The sentence an error ends with: "the limit is 256 MiB (DRASIM_MAX_INPUT_BYTES
 * raises it)".
 *
 * Returns: (transfer full): the text.
 */
char *base_limit_describe(BaseLimit limit);

/* cJSON's own nesting bound (CJSON_NESTING_LIMIT in Debian's build): the most
 * DRASIM_MAX_JSON_DEPTH can be, since cJSON refuses deeper text as merely invalid. */
#define BASE_JSON_MAX_DEPTH 1000

/* Checks that no array or object of @text nests deeper than the JSON depth
 * limit, so the error names it ("PATH:LINE:COL: JSON nested deeper than N
 * levels; the JSON nesting depth limit is N (set ...)") instead of cJSON's
 * bare refusal. Strings are skipped; malformed text is left to the parser. A NULL
 * @path leaves out "PATH:" (the caller names the file). */
gboolean base_json_check_depth(const char *path, const char *text, gsize length, GError **error);

/**
 * base_read_file:
 * @path: a file (any kind: regular, FIFO, device)
 * @data: (out) (transfer full): the bytes, NUL-terminated
 * @length: (out) (optional): their count, without the NUL
 *
 * Reads a whole file but never more than the input limit: a regular file
 * larger than the limit fails before any byte is read; anything else (a
 * pipe, a FIFO, /dev/zero) is read in chunks and fails as soon as it passes
 * the limit. Replaces g_file_get_contents() for every input.
 *
 * Returns: TRUE, or FALSE with BASE_ERROR_LIMIT ("larger than allowed: the
 * input size limit is 256 MiB (set DRASIM_MAX_INPUT_BYTES to raise it)") or
 * BASE_ERROR_READ (strerror's text); the caller names the file.
 */
gboolean base_read_file(const char *path, char **data, gsize *length, GError **error);

/* The same for an open descriptor (standard input). */
gboolean base_read_fd(int fd, char **data, gsize *length, GError **error);

G_END_DECLS
