/*
 * base_limits.c: the table of drasim's resource limits, their defaults and
 * environment overrides, and the sentence errors end with.
 *
 * The defaults keep a run of a laptop-sized machine's memory: a 256 MiB input
 * file, 20 million sampled values (160 MB of doubles), a million pods (about
 * 2.5 KB each through the run), YAML 100 levels deep (also the most the
 * tree's recursive consumers allow, K8S_YAML_MAX_DEPTH), 10 million nodes
 * per file and a million runs per sweep (a manifest entry and a report folder
 * each; a million one-second runs are 11 days of one core) and JSON 100 levels
 * deep, as YAML (drasim's own reports nest 6; cJSON stops at 1000), 100,000 nodes per
 * scenario mode (20 times upstream's 5,000-node scalability target) and a million objects
 * per manifest set (as many as pods). Every limit is a process-wide setting read when it
 * is checked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"

typedef struct {
	const char *env;
	guint64 fallback;
	const char *unit; /* NULL: a count */
	const char *what;
} LimitInfo;

static const LimitInfo limits[BASE_N_LIMITS] = {
	[BASE_LIMIT_INPUT_BYTES] = { "DRASIM_MAX_INPUT_BYTES", 256u << 20, "bytes", "input size" },
	[BASE_LIMIT_SAMPLES] = { "DRASIM_MAX_SAMPLES", 20000000, NULL, "sampled values" },
	[BASE_LIMIT_PODS] = { "DRASIM_MAX_PODS", 1000000, NULL, "pods" },
	[BASE_LIMIT_YAML_DEPTH] = { "DRASIM_MAX_YAML_DEPTH", 100, NULL, "YAML nesting depth" },
	[BASE_LIMIT_YAML_NODES] = { "DRASIM_MAX_YAML_NODES", 10000000, NULL, "YAML nodes" },
	[BASE_LIMIT_SWEEP_RUNS] = { "DRASIM_MAX_SWEEP_RUNS", 1000000, NULL, "sweep runs" },
	[BASE_LIMIT_JSON_DEPTH] = { "DRASIM_MAX_JSON_DEPTH", 100, NULL, "JSON nesting depth" },
	[BASE_LIMIT_NODES] = { "DRASIM_MAX_NODES", 100000, NULL, "nodes" },
	[BASE_LIMIT_OBJECTS] = { "DRASIM_MAX_OBJECTS", 1000000, NULL, "objects" },
};

static guint64 overrides[BASE_N_LIMITS];
static gboolean warned[BASE_N_LIMITS]; /* a bad value is reported once */

G_DEFINE_QUARK(drasim - base - error - quark, base_error)

/* "123", "64Ki", "256Mi", "2Gi", "1Ti"; 0 when not a positive integer. */
static guint64
parse_amount(const char *text)
{
	static const struct {
		const char *suffix;
		guint shift;
	} suffixes[] = { { "", 0 }, { "Ki", 10 }, { "Mi", 20 }, { "Gi", 30 }, { "Ti", 40 } };
	char *end = NULL;
	guint64 value;

	if (text == NULL || !g_ascii_isdigit(*text))
		return 0;
	errno = 0;
	value = g_ascii_strtoull(text, &end, 10);
	if (errno != 0 || value == 0)
		return 0;
	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++) {
		if (strcmp(end, suffixes[i].suffix) == 0)
			return value <= (G_MAXUINT64 >> suffixes[i].shift)
			               ? value << suffixes[i].shift
			               : 0;
	}
	return 0;
}

guint64
base_limit_get(BaseLimit limit)
{
	const char *env;
	guint64 value;

	g_return_val_if_fail(limit < BASE_N_LIMITS, 0);
	if (overrides[limit] > 0)
		return overrides[limit];
	env = g_getenv(limits[limit].env);
	value = parse_amount(env);
	if (env != NULL && value == 0 && !warned[limit]) {
		warned[limit] = TRUE;
		g_printerr("drasim: ignoring %s=%s: expected a positive integer, optionally "
		           "followed by Ki, Mi, Gi or Ti\n",
		           limits[limit].env, env);
	}
	return value > 0 ? value : limits[limit].fallback;
}

const char *
base_limit_env(BaseLimit limit)
{
	g_return_val_if_fail(limit < BASE_N_LIMITS, NULL);
	return limits[limit].env;
}

void
base_limit_set(BaseLimit limit, guint64 value)
{
	g_return_if_fail(limit < BASE_N_LIMITS);
	overrides[limit] = value;
}

char *
base_limit_describe(BaseLimit limit)
{
	guint64 value = base_limit_get(limit);
	const LimitInfo *info = &limits[limit];

	if (info->unit != NULL && value >= (1u << 20) && value % (1u << 20) == 0)
		return g_strdup_printf("the %s limit is %" G_GUINT64_FORMAT " MiB (set %s to "
		                       "raise it)",
		                       info->what, value >> 20, info->env);
	return g_strdup_printf("the %s limit is %" G_GUINT64_FORMAT "%s%s (set %s to raise it)",
	                       info->what, value, info->unit ? " " : "",
	                       info->unit ? info->unit : "", info->env);
}

/* Where @offset falls in @text, 1-based. */
static void
line_col(const char *text, gsize offset, guint *line, guint *col)
{
	*line = 1;
	*col = 1;
	for (gsize i = 0; i < offset; i++) {
		*line += text[i] == '\n';
		*col = text[i] == '\n' ? 1 : *col + 1;
	}
}

gboolean
base_json_check_depth(const char *path, const char *text, gsize length, GError **error)
{
	guint64 limit = MIN(base_limit_get(BASE_LIMIT_JSON_DEPTH), BASE_JSON_MAX_DEPTH);
	gboolean in_string = FALSE;
	guint64 depth = 0;

	for (gsize i = 0; i < length; i++) {
		char c = text[i];

		if (in_string) {
			if (c == '\\')
				i++; /* the escaped character cannot end the string */
			else if (c == '"')
				in_string = FALSE;
		} else if (c == '"') {
			in_string = TRUE;
		} else if ((c == '[' || c == '{') && ++depth > limit) {
			g_autofree char *sentence = base_limit_describe(BASE_LIMIT_JSON_DEPTH);
			guint line, col;

			line_col(text, i, &line, &col);
			g_set_error(error, BASE_ERROR, BASE_ERROR_LIMIT,
			            "%s%s%u:%u: JSON nested deeper than %" G_GUINT64_FORMAT
			            " levels; %s, at most %d",
			            path != NULL ? path : "", path != NULL ? ":" : "", line, col,
			            limit, sentence, BASE_JSON_MAX_DEPTH);
			return FALSE;
		} else if ((c == ']' || c == '}') && depth > 0) {
			depth--;
		}
	}
	return TRUE;
}
