/*
 * rpt_tolerances.c: how much each metric may move before `drasim diff`
 * calls it a regression.
 *
 * Rules are (pattern, absolute|relative, value); the last rule that matches
 * wins, so a tolerance file refines the built-in defaults. A pattern is a
 * glob on the metric name, or "unit:U" for every metric in unit U.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base.h"
#include "rpt-private.h"

typedef struct {
	char *pattern;
	GPatternSpec *spec; /* NULL for unit rules */
	gboolean relative;
	double value;
} Rule;

struct RptTolerances {
	GPtrArray *rules; /* Rule, later wins */
};

static void
rule_free(Rule *rule)
{
	g_free(rule->pattern);
	if (rule->spec != NULL) {
		g_pattern_spec_free(rule->spec);
	}
	g_free(rule);
}

RptTolerances *
rpt_tolerances_new(void)
{
	RptTolerances *self = g_new0(RptTolerances, 1);

	self->rules = g_ptr_array_new_with_free_func((GDestroyNotify)rule_free);
	rpt_tolerances_add(self, "*", FALSE, 0.0); /* counts and anything unknown: exact */
	rpt_tolerances_add(self, "unit:ratio", FALSE, 0.005);
	rpt_tolerances_add(self, "unit:s", TRUE, 0.05);
	rpt_tolerances_add(self, "unit:x", TRUE, 0.05);
	rpt_tolerances_add(self, "unit:GiB", TRUE, 0.01);
	/* the scheduler's work counters (schema v2 names each for what it counts) */
	rpt_tolerances_add(self, "unit:calls", TRUE, 0.02);
	rpt_tolerances_add(self, "unit:cycles", TRUE, 0.02);
	rpt_tolerances_add(self, "unit:evaluations", TRUE, 0.02);
	rpt_tolerances_add(self, "unit:backtracks", TRUE, 0.02);
	rpt_tolerances_add(self, "unit:instructions", TRUE, 0.05);
	rpt_tolerances_add(self, "unit:ns", TRUE, 0.25); /* wall time on a shared machine */
	rpt_tolerances_add(self, "unit:events/s", TRUE, 0.25);
	rpt_tolerances_add(self, "unit:pods/s", TRUE, 0.25);
	return self;
}

void
rpt_tolerances_free(RptTolerances *self)
{
	if (self == NULL) {
		return;
	}
	g_ptr_array_unref(self->rules);
	g_free(self);
}

void
rpt_tolerances_add(RptTolerances *self, const char *pattern, gboolean relative, double value)
{
	Rule *rule = g_new0(Rule, 1);

	rule->pattern = g_strdup(pattern);
	if (!g_str_has_prefix(pattern, "unit:")) {
		rule->spec = g_pattern_spec_new(pattern);
	}
	rule->relative = relative;
	rule->value = value;
	g_ptr_array_add(self->rules, rule);
}

const char *
rpt_tolerances__lookup(const RptTolerances *self,
                       const char *name,
                       const char *unit,
                       gboolean *relative_out,
                       double *value_out)
{
	for (guint i = self->rules->len; i-- > 0;) {
		const Rule *rule = g_ptr_array_index(self->rules, i);
		gboolean match = rule->spec ? g_pattern_spec_match_string(rule->spec, name)
		                            : g_strcmp0(rule->pattern + 5, unit) == 0;

		if (match) {
			*relative_out = rule->relative;
			*value_out = rule->value;
			return rule->pattern;
		}
	}
	*relative_out = FALSE;
	*value_out = 0.0;
	return "*";
}

static gboolean
parse_line(RptTolerances *self, const char *line, const char *path, guint lineno, GError **error)
{
	g_auto(GStrv) words = g_strsplit_set(line, " \t", -1);
	const char *parts[3];
	guint n = 0;
	char *end = NULL;
	double value;

	for (guint i = 0; words[i] != NULL; i++) {
		if (*words[i] != '\0') {
			if (n == 3) {
				g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
				            "%s:%u:1: expected `PATTERN abs|rel VALUE`", path,
				            lineno);
				return FALSE;
			}
			parts[n++] = words[i];
		}
	}
	if (n != 3 || (strcmp(parts[1], "abs") != 0 && strcmp(parts[1], "rel") != 0)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
		            "%s:%u:1: expected `PATTERN abs|rel VALUE`", path, lineno);
		return FALSE;
	}
	value = g_ascii_strtod(parts[2], &end);
	if (end == parts[2] || value < 0 || !isfinite(value) ||
	    (*end != '\0' && !(strcmp(end, "%") == 0 && parts[1][0] == 'r'))) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
		            "%s:%u:%ld: expected a non-negative number (rel may end in %%)", path,
		            lineno, (long)(strstr(line, parts[2]) - line) + 1);
		return FALSE;
	}
	if (*end == '%') {
		value /= 100.0;
	}
	rpt_tolerances_add(self, parts[0], parts[1][0] == 'r', value);
	return TRUE;
}

gboolean
rpt_tolerances_load(RptTolerances *self, const char *path, GError **error)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) local = NULL;
	g_auto(GStrv) lines = NULL;

	if (!base_read_file(path, &text, NULL, &local)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "%s: %s", path, local->message);
		return FALSE;
	}
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		char *hash = strchr(lines[i], '#');

		if (hash != NULL) {
			*hash = '\0';
		}
		if (*g_strstrip(lines[i]) == '\0') {
			continue;
		}
		if (!parse_line(self, lines[i], path, i + 1, error)) {
			return FALSE;
		}
	}
	return TRUE;
}
