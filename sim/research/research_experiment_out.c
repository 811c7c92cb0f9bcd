/*
 * research_experiment_out.c: an FGD experiment's results as fgd.json
 * (drasim.io/fgd/v1) and fgd.csv (docs/experiment.md): per trace, world and
 * policy the mean, sample SD and n over seeds of each figure at each integer
 * arrived % (0..130), and the figures at 100 % arrival (unallocated GPU,
 * stranded GPU, co-tenants per GPU). A refused pair carries its reason
 * instead. Figures a run lacks (no log row at that %, no fragment in its
 * world, 100 % never reached) are left out of the statistics, and a
 * statistic over no seed is null (an empty CSV field).
 */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "research.h"
#include "research_experiment-private.h"
#include "sweep.h"

#define N_POINT_METRICS 3
#define N_AT_100        4
static const char *const point_metrics[N_POINT_METRICS] = { "unallocated_pct", "frag_amount_pct",
	                                                    "frag_ratio_pct" };
static const char *const at_100_metrics[N_AT_100] = { "unallocated_pct", "stranded_pct",
	                                              "cotenants_mean", "cotenants_max" };

typedef struct {
	const ResearchExperiment *exp;
	GString *s;
	double *scratch; /* one value per seed */
} Writer;

static double
point_value(const ResearchFgdRun *run, guint metric, guint point)
{
	if (!run->has[point] || (metric > 0 && !run->frag_defined))
		return NAN; /* left out by sweep_stat_compute */
	if (metric == 0)
		return run->unallocated_pct[point];
	return metric == 1 ? run->frag_amount_pct[point] : run->frag_ratio_pct[point];
}

/* At 100 % unallocated GPU is the point's own figure; the others are taken when 100 % is reached.
 */
static double
at_100_value(const ResearchFgdRun *run, guint metric)
{
	if (metric == 0)
		return point_value(run, 0, 100);
	if (!run->has_at_100)
		return NAN;
	if (metric == 1)
		return run->stranded_pct;
	return metric == 2 ? run->cotenants_mean : run->cotenants_max;
}

/* Over the seeds of (@t, @w, @p): the statistics of a point metric (@point < 131) or an
 * at-100 metric (@point == G_MAXUINT). */
static void
stat_of(const Writer *wr, guint t, guint w, guint p, guint metric, guint point, RptStat *out)
{
	for (guint s = 0; s < wr->exp->n_seeds; s++) {
		const ResearchFgdRun *run = research_experiment_get_run(wr->exp, t, w, p, s);

		wr->scratch[s] = point == G_MAXUINT ? at_100_value(run, metric)
		                                    : point_value(run, metric, point);
	}
	sweep_stat_compute(wr->scratch, wr->exp->n_seeds, 0.95, out);
}

/* A number with 6 decimals (never "-0.000000"), or @none when it is not defined. */
static void
append_number(GString *s, double v, const char *none)
{
	if (!isfinite(v))
		g_string_append(s, none);
	else
		g_string_append_printf(s, "%.6f", fabs(v) < 5e-7 ? 0.0 : v);
}

static void
json_string(GString *s, const char *text)
{
	cJSON *item = cJSON_CreateString(text);
	char *printed = cJSON_PrintUnformatted(item);

	g_string_append(s, printed);
	cJSON_free(printed);
	cJSON_Delete(item);
}

static void
json_stat(GString *s, const char *name, const RptStat *st)
{
	g_string_append_printf(s, "\"%s\": {\"mean\": ", name);
	append_number(s, st->mean, "null");
	g_string_append(s, ", \"sd\": ");
	append_number(s, st->sd, "null");
	g_string_append_printf(s, ", \"n\": %u}", st->n);
}

static void
json_figures(const Writer *wr, guint t, guint w, guint p)
{
	GString *s = wr->s;
	RptStat st;

	g_string_append(s, ",\n           \"at_100\": {");
	for (guint m = 0; m < N_AT_100; m++) {
		stat_of(wr, t, w, p, m, G_MAXUINT, &st);
		g_string_append(s, m > 0 ? ", " : "");
		json_stat(s, at_100_metrics[m], &st);
	}
	g_string_append(s, "},\n           \"points\": [\n");
	for (guint point = 0; point < RESEARCH_FGD_POINTS; point++) {
		g_string_append_printf(s, "            {\"arrived_pct\": %u", point);
		for (guint m = 0; m < N_POINT_METRICS; m++) {
			stat_of(wr, t, w, p, m, point, &st);
			g_string_append(s, ", ");
			json_stat(s, point_metrics[m], &st);
		}
		g_string_append_printf(s, "}%s\n", point + 1 < RESEARCH_FGD_POINTS ? "," : "");
	}
	g_string_append(s, "          ]");
}

static void
json_world(const Writer *wr, guint t, guint w)
{
	const ResearchExperiment *exp = wr->exp;
	const ResearchWorldInfo *info =
	        research_world_info(g_array_index(exp->worlds, ResearchWorld, w));
	GString *s = wr->s;

	g_string_append(s, "      {\"name\": ");
	json_string(s, info->name);
	g_string_append(s, ", \"title\": ");
	json_string(s, info->title);
	g_string_append(s, ", \"device_pick\": ");
	json_string(s, info->device_pick);
	g_string_append_printf(s,
	                       ", \"beyond_production\": %s, \"memory_isolation\": %s,\n"
	                       "       \"policies\": [\n",
	                       info->beyond_production ? "true" : "false",
	                       info->memory_isolation ? "true" : "false");
	for (guint p = 0; p < exp->policies->len; p++) {
		const char *policy = exp->policies->pdata[p];
		const char *refused = research_experiment_refused(exp, w, p);

		g_string_append(s, "          {\"name\": ");
		json_string(s, policy);
		g_string_append_printf(s, ", \"beyond_production\": %s",
		                       research_policy_beyond_production(policy) ? "true"
		                                                                 : "false");
		if (refused != NULL) {
			g_string_append(s, ", \"refused\": ");
			json_string(s, refused);
		} else {
			json_figures(wr, t, w, p);
		}
		g_string_append_printf(s, "}%s\n", p + 1 < exp->policies->len ? "," : "");
	}
	g_string_append_printf(s, "      ]}%s\n", w + 1 < exp->worlds->len ? "," : "");
}

/* The world options as given (null: the world's default), so the runs can be repeated. */
static void
json_world_options(GString *s, const ResearchExperiment *exp)
{
	g_string_append(s, "  \"world_options\": {\"replicas\": ");
	if (exp->replicas > 0)
		g_string_append_printf(s, "%u", exp->replicas);
	else
		g_string_append(s, "null");
	g_string_append(s, ", \"capacity_step\": ");
	if (exp->capacity_step > 0)
		g_string_append_printf(s, "%" G_GINT64_FORMAT, exp->capacity_step);
	else
		g_string_append(s, "null");
	g_string_append(s, ", \"mig_model\": ");
	if (exp->mig_model != NULL)
		json_string(s, exp->mig_model);
	else
		g_string_append(s, "null");
	g_string_append(s, "},\n");
}

char *
research_experiment_json(const ResearchExperiment *exp)
{
	Writer wr = { exp, g_string_new("{\n  \"apiVersion\": \"drasim.io/fgd/v1\",\n"),
		      g_new0(double, MAX(exp->n_seeds, 1)) };

	g_string_append_printf(wr.s, "  \"tune_ratio\": %g,\n", exp->tune_ratio);
	json_world_options(wr.s, exp);
	g_string_append_printf(wr.s,
	                       "  \"seeds\": {\"from\": %" G_GUINT64_FORMAT
	                       ", \"to\": %" G_GUINT64_FORMAT "},\n  \"traces\": [\n",
	                       exp->seed_from, exp->seed_from + exp->n_seeds - 1);
	for (guint t = 0; t < exp->trace_names->len; t++) {
		g_string_append(wr.s, "   {\"name\": ");
		json_string(wr.s, exp->trace_names->pdata[t]);
		g_string_append(wr.s, ", \"worlds\": [\n");
		for (guint w = 0; w < exp->worlds->len; w++)
			json_world(&wr, t, w);
		g_string_append_printf(wr.s, "   ]}%s\n", t + 1 < exp->trace_names->len ? "," : "");
	}
	g_string_append(wr.s, "  ]\n}\n");
	g_free(wr.scratch);
	return g_string_free(wr.s, FALSE);
}

/* A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180). */
static void
csv_field(GString *s, const char *text)
{
	if (strpbrk(text, ",\"\r\n") == NULL) {
		g_string_append(s, text);
		return;
	}
	g_string_append_c(s, '"');
	for (const char *c = text; *c != '\0'; c++) {
		if (*c == '"')
			g_string_append_c(s, '"');
		g_string_append_c(s, *c);
	}
	g_string_append_c(s, '"');
}

static void
csv_row(const Writer *wr,
        guint t,
        guint w,
        guint p,
        guint arrived,
        const char *metric,
        const RptStat *st)
{
	GString *s = wr->s;

	csv_field(s, wr->exp->trace_names->pdata[t]);
	g_string_append_printf(
	        s, ",%s,",
	        research_world_info(g_array_index(wr->exp->worlds, ResearchWorld, w))->name);
	csv_field(s, wr->exp->policies->pdata[p]);
	g_string_append_printf(s, ",%u,%s,", arrived, metric);
	append_number(s, st->mean, "");
	g_string_append_c(s, ',');
	append_number(s, st->sd, "");
	g_string_append_printf(s, ",%u\n", st->n);
}

/* The points, then at 100 % the figures that are not a point's (unallocated_pct is). */
static void
csv_pair(const Writer *wr, guint t, guint w, guint p)
{
	RptStat st;

	for (guint point = 0; point < RESEARCH_FGD_POINTS; point++) {
		for (guint m = 0; m < N_POINT_METRICS; m++) {
			stat_of(wr, t, w, p, m, point, &st);
			csv_row(wr, t, w, p, point, point_metrics[m], &st);
		}
	}
	for (guint m = 1; m < N_AT_100; m++) {
		stat_of(wr, t, w, p, m, G_MAXUINT, &st);
		csv_row(wr, t, w, p, 100, at_100_metrics[m], &st);
	}
}

char *
research_experiment_csv(const ResearchExperiment *exp)
{
	Writer wr = { exp, g_string_new("trace,world,policy,arrived_pct,metric,mean,sd,n\n"),
		      g_new0(double, MAX(exp->n_seeds, 1)) };

	for (guint t = 0; t < exp->trace_names->len; t++) {
		for (guint w = 0; w < exp->worlds->len; w++) {
			for (guint p = 0; p < exp->policies->len; p++) {
				if (research_experiment_refused(exp, w, p) == NULL)
					csv_pair(&wr, t, w, p);
			}
		}
	}
	g_free(wr.scratch);
	return g_string_free(wr.s, FALSE);
}
