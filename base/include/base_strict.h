/*
 * base_strict.h: the strict readers of scalar text and mapping keys that every
 * input decoder shares (model/api's YAML reader face k8s_yaml_read.h, the
 * hardware catalog, the scenario decoder).
 *
 * Base sits below every model, so these know nothing of YAML nodes or
 * positions: each takes plain text, returns FALSE on bad input and fills
 * @message with what was expected ("expected an integer, got \"x\""); the
 * caller adds the file:line:col and the field path.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * base_strict_closest:
 * The entry of @known (NULL-terminated) nearest to @word by case-insensitive
 * optimal-string-alignment distance, when close enough to be a typo: at most 1
 * edit for words of up to 4 characters, 2 up to 8, 3 beyond. NULL otherwise.
 */
const char *base_strict_closest(const char *word, const char *const *known);

/* base_strict_closest over the first @n entries of @known (no NULL needed). */
const char *base_strict_closest_n(const char *word, const char *const *known, gsize n);

/**
 * base_strict_unknown:
 * The one message for a name that is not one of @known (NULL-terminated), used
 * wherever a name is looked up (commands, options, modes, shapes, formats...):
 * "@what 'WORD'; did you mean 'NEAR'? @label: A, B, C", the did-you-mean only
 * when base_strict_closest finds a near name ("@what 'WORD'; @label: A, B, C"
 * otherwise), the list only with a non-NULL @label. Returns: (transfer full).
 */
char *base_strict_unknown(const char *what,
                          const char *word,
                          const char *const *known,
                          const char *label);

/* TRUE when @word is one of @known (NULL-terminated). */
gboolean base_strict_is_known(const char *word, const char *const *known);

/* How an unknown key is explained. */
typedef enum {
	BASE_STRICT_HINT_CLOSEST, /* "unknown field 'x'; did you mean 'y'?" (scenarios) */
	BASE_STRICT_HINT_LIST,    /* "unknown field \"x\" (expected one of: a, b)" (hw files) */
} BaseStrictHint;

/**
 * base_strict_key:
 * Checks that @key is one of @known. Returns: TRUE, or FALSE with @message
 * (transfer full) explaining the unknown key in the style @hint.
 */
gboolean
base_strict_key(const char *key, const char *const *known, BaseStrictHint hint, char **message);

/**
 * base_strict_uint:
 * A decimal integer in [0, @max] (optional sign, no separators, no base
 * prefixes). Returns: TRUE with *@out, or FALSE with @message (transfer full):
 * "expected an integer, got \"TEXT\"", "expected a non-negative integer, got
 * -N" or "N is too large (at most MAX)".
 */
gboolean base_strict_uint(const char *text, guint64 max, guint64 *out, char **message);

/**
 * base_strict_uint_range:
 * An already parsed integer (@negative and @magnitude) checked against [0, @max].
 * Returns: TRUE with *@out, or FALSE with @message (transfer full) "expected an
 * integer in [0, MAX], got @shown".
 */
gboolean base_strict_uint_range(gboolean negative,
                                guint64 magnitude,
                                guint64 max,
                                const char *shown,
                                guint64 *out,
                                char **message);

/**
 * base_strict_bool:
 * Exactly "true" or "false". Returns: TRUE with *@out, or FALSE with @message
 * (transfer full) "expected true or false, got \"TEXT\"".
 */
gboolean base_strict_bool(const char *text, gboolean *out, char **message);

/**
 * base_strict_nonnegative:
 * A finite number >= 0. Returns: TRUE, or FALSE with @message (transfer full)
 * "expected a finite number >= 0, got @shown".
 */
gboolean base_strict_nonnegative(double value, const char *shown, char **message);

/**
 * base_strict_count:
 * A bound on a size: @count items of @what where at most @max are allowed.
 * Returns: TRUE, or FALSE with @message (transfer full) "at most MAX WHAT".
 */
gboolean base_strict_count(guint64 count, guint64 max, const char *what, char **message);

G_END_DECLS
