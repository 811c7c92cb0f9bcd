/*
 * sim_time.c: SimTime conversions at the edges of the engine.
 *
 * Durations in scenarios are text ("90s", "1h30m", "2d"); reports print them
 * back. Inside the engine time is only ever an int64 count of microseconds,
 * so parsing rounds once, here, and nothing downstream sees a double time.
 */
#include <math.h>
#include <string.h>

#include "sim.h"

GQuark
sim_error_quark(void)
{
	return g_quark_from_static_string("sim-error-quark");
}

SimTime
sim_time_from_seconds(double seconds)
{
	double us = round(seconds * 1e6);

	if (isnan(us)) {
		return 0;
	}
	if (us >= 9.2e18) {
		return SIM_TIME_NEVER;
	}
	if (us <= -9.2e18) {
		return -SIM_TIME_NEVER;
	}
	return (SimTime)us;
}

typedef struct {
	const char *name;
	SimTime scale;
} TimeUnit;

/* Longest names first where one is a prefix of another ("ms" before "m"). */
static const TimeUnit units[] = {
	{ "us", SIM_TIME_US },     { "\xc2\xb5s", SIM_TIME_US }, /* µs */
	{ "ms", SIM_TIME_MS },     { "s", SIM_TIME_S },          { "min", SIM_TIME_MIN },
	{ "m", SIM_TIME_MIN },     { "h", SIM_TIME_HOUR },       { "d", SIM_TIME_DAY },
	{ "w", 7 * SIM_TIME_DAY },
};

static const TimeUnit *
match_unit(const char *p)
{
	for (guint i = 0; i < G_N_ELEMENTS(units); i++) {
		if (strncmp(p, units[i].name, strlen(units[i].name)) == 0) {
			return &units[i];
		}
	}
	return NULL;
}

static gboolean
range_error(GError **error, const char *text, const char *at)
{
	g_set_error(error, SIM_ERROR, SIM_ERROR_RANGE, "col %d: duration \"%s\" is too large",
	            (int)(at - text) + 1, text);
	return FALSE;
}

static gboolean
parse_error(GError **error, const char *text, const char *at, const char *what)
{
	g_set_error(error, SIM_ERROR, SIM_ERROR_PARSE, "col %d: %s in duration \"%s\"",
	            (int)(at - text) + 1, what, text);
	return FALSE;
}

/* One <number><unit> term; adds its value to *total. */
static gboolean
parse_term(const char *text, const char **pp, SimTime *total, GError **error)
{
	const char *p = *pp;
	SimTime whole = 0;
	double frac = 0.0;

	if (!g_ascii_isdigit(*p) && *p != '.') {
		return parse_error(error, text, p, "expected a number");
	}
	for (; g_ascii_isdigit(*p); p++) {
		if (whole > (INT64_MAX - 9) / 10) {
			return range_error(error, text, *pp);
		}
		whole = whole * 10 + (*p - '0');
	}
	if (*p == '.') {
		double scale = 0.1;
		const char *start = ++p;
		for (; g_ascii_isdigit(*p); p++, scale /= 10) {
			frac += (*p - '0') * scale;
		}
		if (p == start && p - 1 == *pp) {
			return parse_error(error, text, p, "expected a digit");
		}
	}
	const TimeUnit *unit = match_unit(p);
	if (unit == NULL) {
		return parse_error(error, text, p,
		                   "expected a unit (us, ms, s, m or min, h, d or w)");
	}
	if (whole >= INT64_MAX / unit->scale) { /* leaves room for the fraction */
		return range_error(error, text, *pp);
	}
	SimTime value = whole * unit->scale + (SimTime)llround(frac * (double)unit->scale);
	if (value > INT64_MAX - *total) {
		return range_error(error, text, *pp);
	}
	*total += value;
	*pp = p + strlen(unit->name);
	return TRUE;
}

gboolean
sim_time_parse(const char *text, SimTime *out, GError **error)
{
	const char *p = text;
	gboolean negative = FALSE;
	SimTime total = 0;

	g_return_val_if_fail(text != NULL && out != NULL, FALSE);

	if (*p == '-' || *p == '+') {
		negative = *p == '-';
		p++;
	}
	if (strcmp(p, "0") == 0) {
		*out = 0;
		return TRUE;
	}
	if (*p == '\0') {
		return parse_error(error, text, p, "expected a number");
	}
	while (*p != '\0') {
		if (!parse_term(text, &p, &total, error)) {
			return FALSE;
		}
	}
	*out = negative ? -total : total;
	return TRUE;
}

char *
sim_time_format(SimTime t)
{
	GString *s = g_string_new(NULL);
	/* Work in uint64 so -INT64_MAX-1 cannot overflow on negation. */
	uint64_t rest = t < 0 ? -(uint64_t)t : (uint64_t)t;

	if (t < 0) {
		g_string_append_c(s, '-');
	}
	if (rest >= (uint64_t)SIM_TIME_DAY) {
		g_string_append_printf(s, "%" G_GUINT64_FORMAT "d", rest / SIM_TIME_DAY);
		rest %= SIM_TIME_DAY;
	}
	if (rest >= (uint64_t)SIM_TIME_HOUR) {
		g_string_append_printf(s, "%" G_GUINT64_FORMAT "h", rest / SIM_TIME_HOUR);
		rest %= SIM_TIME_HOUR;
	}
	if (rest >= (uint64_t)SIM_TIME_MIN) {
		g_string_append_printf(s, "%" G_GUINT64_FORMAT "m", rest / SIM_TIME_MIN);
		rest %= SIM_TIME_MIN;
	}
	if (rest != 0 || t == 0) {
		g_string_append_printf(s, "%" G_GUINT64_FORMAT, rest / SIM_TIME_S);
		uint64_t us = rest % SIM_TIME_S;
		if (us != 0) {
			char frac[8];
			g_snprintf(frac, sizeof frac, "%06" G_GUINT64_FORMAT, us);
			for (int i = 5; i > 0 && frac[i] == '0'; i--) {
				frac[i] = '\0';
			}
			g_string_append_printf(s, ".%s", frac);
		}
		g_string_append_c(s, 's');
	}
	return g_string_free(s, FALSE);
}

char *
sim_time_format_brief(SimTime t)
{
	static const struct {
		const char *name;
		SimTime scale;
	} steps[] = { { "d", SIM_TIME_DAY },
		      { "h", SIM_TIME_HOUR },
		      { "m", SIM_TIME_MIN },
		      { "s", SIM_TIME_S } };
	uint64_t rest = t < 0 ? -(uint64_t)t : (uint64_t)t;
	const char *sign = t < 0 ? "-" : "";

	for (guint i = 0; i + 1 < G_N_ELEMENTS(steps); i++) {
		uint64_t big = rest / (uint64_t)steps[i].scale;
		uint64_t small = rest % (uint64_t)steps[i].scale / (uint64_t)steps[i + 1].scale;

		if (big == 0)
			continue;
		if (small == 0)
			return g_strdup_printf("%s%" G_GUINT64_FORMAT "%s", sign, big,
			                       steps[i].name);
		return g_strdup_printf("%s%" G_GUINT64_FORMAT "%s%s%" G_GUINT64_FORMAT "%s", sign,
		                       big, steps[i].name,
		                       i == 0       ? ""
		                       : small < 10 ? "0"
		                                    : "",
		                       small, steps[i + 1].name);
	}
	return g_strdup_printf("%s%" G_GUINT64_FORMAT "s", sign, rest / (uint64_t)SIM_TIME_S);
}
