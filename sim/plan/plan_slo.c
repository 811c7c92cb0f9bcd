/*
 * plan_slo.c: service-level objectives, `METRIC OP VALUE[UNIT]`: parsing
 * (every error says what is wrong and what is valid) and judging one on a
 * metric's statistics across seeds. An SLO "holds" on the confidence bound
 * that is on the losing side (the upper bound of a <= objective), so a plan
 * answer says "with this confidence", not "on average"; docs/plan.md.
 */
#include <math.h>
#include <string.h>

#include "plan.h"

G_DEFINE_QUARK(plan - error - quark, plan_error)

const char *
plan_op_to_string(PlanOp op)
{
	static const char *const names[] = { "<=", "<", ">=", ">", "==" };

	g_return_val_if_fail((guint)op < G_N_ELEMENTS(names), "?");
	return names[op];
}

static gboolean slo_error(GError **error, const char *text, const char *format, ...)
        G_GNUC_PRINTF(3, 4);

static gboolean
slo_error(GError **error, const char *text, const char *format, ...)
{
	va_list args;
	g_autofree char *message = NULL;

	va_start(args, format);
	message = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(error, PLAN_ERROR, PLAN_ERROR_SLO, "bad SLO '%s': %s", text, message);
	return FALSE;
}

static const char *
skip_spaces(const char *p)
{
	while (g_ascii_isspace(*p))
		p++;
	return p;
}

/* Reads the operator at *@p. Returns: FALSE when there is none there. */
static gboolean
read_op(const char **p, PlanOp *op_out)
{
	static const struct {
		const char *text;
		PlanOp op;
	} ops[] = { { "<=", PLAN_OP_LE },
		    { ">=", PLAN_OP_GE },
		    { "==", PLAN_OP_EQ },
		    { "<", PLAN_OP_LT },
		    { ">", PLAN_OP_GT } };

	for (guint i = 0; i < G_N_ELEMENTS(ops); i++) {
		gsize n = strlen(ops[i].text);

		if (strncmp(*p, ops[i].text, n) != 0)
			continue;
		/* "<==" or "=<" is not "<=" followed by something (read only once the op matched:
		 * before that, (*p)[n] may be past the end) */
		if ((*p)[n] == '\0' || strchr("<>=!", (*p)[n]) == NULL) {
			*op_out = ops[i].op;
			*p += n;
			return TRUE;
		}
	}
	return FALSE;
}

/* The factor that turns @unit_text into @unit's report unit. Returns: FALSE when it does not fit.
 */
static gboolean
unit_factor(const char *unit, const char *unit_text, double *factor_out)
{
	static const struct {
		const char *unit;
		const char *text;
		double factor;
	} units[] = {
		{ "s", "", 1.0 },       { "s", "s", 1.0 },    { "s", "ms", 1e-3 },
		{ "s", "m", 60.0 },     { "s", "h", 3600.0 }, { "ratio", "", 1.0 },
		{ "ratio", "%", 0.01 }, { "x", "", 1.0 },     { "x", "x", 1.0 },
	};
	gboolean measured = FALSE;

	for (guint i = 0; i < G_N_ELEMENTS(units); i++) {
		measured = measured || strcmp(units[i].unit, unit) == 0;
		if (strcmp(units[i].unit, unit) == 0 && strcmp(units[i].text, unit_text) == 0) {
			*factor_out = units[i].factor;
			return TRUE;
		}
	}
	/* a count (pods, kills, evictions, cycles, calls, ...): a bare number */
	*factor_out = 1.0;
	return !measured && *unit_text == '\0';
}

/* What a value of a metric in @unit may look like, for the error. */
static const char *
unit_help(const char *unit)
{
	if (strcmp(unit, "s") == 0)
		return "a time: a number with s, ms, m or h (60s, 1.5m); a bare number is seconds";
	if (strcmp(unit, "ratio") == 0)
		return "a ratio (0..1): a number (0.8) or a percentage (80%)";
	if (strcmp(unit, "x") == 0)
		return "a slowdown factor: a plain number (2) or with x (2x)";
	return "a count: a plain number, no unit (e.g. 3)";
}

static gboolean
parse_metric(const char *text, const char **p, PlanSlo *out, GError **error)
{
	const char *start = *p;
	g_autofree char *valid = NULL;

	while (**p != '\0' && !g_ascii_isspace(**p) && strchr("<>=!", **p) == NULL)
		(*p)++;
	if (*p == start)
		return slo_error(error, text,
		                 "expected METRIC OP VALUE, e.g. 'pods_pending == 0' or "
		                 "'scheduling_latency_p99 <= 60s'");
	out->metric = g_strndup(start, (gsize)(*p - start));
	if (rpt_metric_lookup(out->metric, &out->unit))
		return TRUE;
	if (rpt_metric_renamed(out->metric) != NULL) {
		const char *renamed = rpt_metric_renamed(out->metric);

		return slo_error(error, text,
		                 "metric '%s' was renamed to '%s' in report schema v2 (it counts "
		                 "events, not pods; docs/reports.md, \"Schema history\"): write "
		                 "'%s%s'",
		                 out->metric, renamed, renamed, *p);
	}
	valid = g_strjoinv(", ", (char **)rpt_metric_names());
	return slo_error(error, text, "unknown metric '%s'; the metrics are: %s", out->metric,
	                 valid);
}

static gboolean
parse_value(const char *text, const char *p, PlanSlo *out, GError **error)
{
	char *end = NULL;
	g_autofree char *unit_text = NULL;
	double factor;

	out->value = g_ascii_strtod(p, &end);
	if (end == p || !isfinite(out->value))
		return slo_error(error, text, "expected a value after '%s': %s",
		                 plan_op_to_string(out->op), unit_help(out->unit));
	unit_text = g_strstrip(g_strdup(end));
	if (!unit_factor(out->unit, unit_text, &factor)) {
		return slo_error(error, text, "'%s' does not fit %s: it is %s", unit_text,
		                 out->metric, unit_help(out->unit));
	}
	out->value *= factor;
	return TRUE;
}

static const char valid_ops[] = "the operators are <=, <, >=, >, ==";

static gboolean
parse_parts(const char *text, PlanSlo *out, GError **error)
{
	const char *p = skip_spaces(text);

	if (!parse_metric(text, &p, out, error))
		return FALSE;
	p = skip_spaces(p);
	if (!read_op(&p, &out->op)) {
		gsize n = strspn(p, "<>=!");

		if (*p == '\0')
			return slo_error(error, text, "expected an operator after '%s': %s",
			                 out->metric, valid_ops);
		return slo_error(error, text, "'%.*s' is not an operator: %s", n ? (int)n : 1, p,
		                 valid_ops);
	}
	return parse_value(text, skip_spaces(p), out, error);
}

gboolean
plan_slo_parse(const char *text, PlanSlo *out, GError **error)
{
	memset(out, 0, sizeof(*out));
	out->text = g_strstrip(g_strdup(text));
	if (parse_parts(text, out, error))
		return TRUE;
	plan_slo_clear(out);
	return FALSE;
}

void
plan_slo_clear(PlanSlo *slo)
{
	g_clear_pointer(&slo->text, g_free);
	g_clear_pointer(&slo->metric, g_free);
	slo->unit = NULL;
}

/* Equal up to rounding (means of equal values may differ in the last bits). */
static gboolean
near(double a, double b)
{
	return fabs(a - b) <= 1e-9 * MAX(1.0, fabs(b));
}

RptPlanVerdict
plan_slo_judge(const PlanSlo *slo, const RptStat *stat, guint n_runs, double *bound_out)
{
	double low, high, bound, v = slo->value;
	gboolean holds = FALSE;

	if (bound_out != NULL)
		*bound_out = NAN;
	if (n_runs == 0)
		return RPT_PLAN_ERROR;
	if (stat->n < n_runs || !isfinite(stat->mean))
		return RPT_PLAN_UNDEFINED;
	/* one seed: no interval, the value is its own bound */
	low = stat->n >= 2 ? stat->ci_low : stat->mean;
	high = stat->n >= 2 ? stat->ci_high : stat->mean;
	switch (slo->op) {
	case PLAN_OP_LE:
		bound = high;
		holds = high <= v || near(high, v);
		break;
	case PLAN_OP_LT:
		bound = high;
		holds = high < v;
		break;
	case PLAN_OP_GE:
		bound = low;
		holds = low >= v || near(low, v);
		break;
	case PLAN_OP_GT:
		bound = low;
		holds = low > v;
		break;
	default:
		bound = fabs(high - v) >= fabs(low - v) ? high : low;
		holds = near(low, v) && near(high, v);
		break;
	}
	if (bound_out != NULL)
		*bound_out = bound;
	return holds ? RPT_PLAN_HOLDS : RPT_PLAN_FAILS;
}
