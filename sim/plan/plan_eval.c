/*
 * plan_eval.c: the real evaluator of `drasim plan`. A point (a count per
 * pool) is the scenario with spec.cluster.nodePools[name=POOL].count set
 * for each pool, run with every seed by sim/sweep's executor (child
 * processes, atomic reports, runs already there skipped, so a plan resumes),
 * then each SLO metric of each mode is read from the reports and summarised
 * across seeds with sweep_stat_compute(). Also what a plan needs from its
 * scenario before it starts: the modes, the pools' shapes, the default seed.
 */
#include <math.h>
#include <string.h>

#include "plan.h"
#include "scenario.h"
#include "sweep.h"

struct PlanEval {
	const PlanSpec *spec;
	char *scenario; /* absolute: the executor's runs do not depend on the working folder */
	SimTime horizon;
	char *points_dir;
	guint jobs;
	gboolean progress;
};

static char *
pool_names(const Scenario *sc)
{
	GString *names = g_string_new(NULL);

	for (guint i = 0; i < sc->pools->len; i++)
		g_string_append_printf(names, "%s%s", i ? ", " : "",
		                       g_array_index(sc->pools, ScenarioPool, i).name);
	return g_string_free(names, FALSE);
}

static const ScenarioPool *
lookup_pool(const Scenario *sc, const char *name)
{
	for (guint i = 0; i < sc->pools->len; i++) {
		const ScenarioPool *pool = &g_array_index(sc->pools, ScenarioPool, i);

		if (strcmp(pool->name, name) == 0)
			return pool;
	}
	return NULL;
}

gboolean
plan_spec_fill_from_scenario(PlanSpec *self,
                             K8sDiagList *diags,
                             gboolean *pool_error,
                             GError **error)
{
	g_autoptr(Scenario) sc = scenario_load(self->scenario, diags);

	*pool_error = FALSE;
	if (sc == NULL)
		return FALSE;
	g_ptr_array_set_size(self->shapes, 0);
	for (guint p = 0; p < self->pools->len; p++) {
		const char *name = g_ptr_array_index(self->pools, p);
		const ScenarioPool *pool = lookup_pool(sc, name);

		if (pool == NULL) {
			g_autofree char *names = pool_names(sc);

			*pool_error = TRUE;
			g_set_error(error, PLAN_ERROR, PLAN_ERROR_INPUT,
			            "no node pool %s in %s; its pools are %s", name, self->scenario,
			            names);
			return FALSE;
		}
		g_ptr_array_add(self->shapes, g_strdup(pool->shape));
	}
	g_ptr_array_set_size(self->modes, 0);
	for (guint m = 0; m < sc->modes->len; m++)
		g_ptr_array_add(self->modes,
		                g_strdup(g_array_index(sc->modes, ScenarioMode, m).name));
	if (self->seeds->len == 0)
		g_array_append_val(self->seeds, sc->seed);
	return TRUE;
}

PlanEval *
plan_eval_new(const PlanSpec *spec,
              SimTime horizon,
              const char *points_dir,
              guint jobs,
              gboolean progress)
{
	PlanEval *self = g_new0(PlanEval, 1);

	self->spec = spec;
	self->scenario = g_canonicalize_filename(spec->scenario, NULL);
	self->horizon = horizon;
	self->points_dir = g_strdup(points_dir);
	self->jobs = jobs;
	self->progress = progress;
	return self;
}

void
plan_eval_free(PlanEval *self)
{
	if (self == NULL)
		return;
	g_free(self->points_dir);
	g_free(self->scenario);
	g_free(self);
}

char *
plan_eval_run_id(const PlanSpec *spec, const guint *counts, guint64 seed)
{
	GString *id = g_string_new(NULL);

	/* pool names are DNS labels (node names are POOL-K), so '_' cannot be in one */
	for (guint p = 0; p < spec->pools->len; p++)
		g_string_append_printf(id, "%s_%u-",
		                       (const char *)g_ptr_array_index(spec->pools, p), counts[p]);
	g_string_append_printf(id, "seed%" G_GUINT64_FORMAT, seed);
	return g_string_free(id, FALSE);
}

/* The runs of the point @counts, one per seed; free with free_runs(). */
static SweepRun *
point_runs(const PlanSpec *spec, const guint *counts)
{
	guint n = spec->seeds->len, n_pools = spec->pools->len;
	SweepRun *runs = g_new0(SweepRun, n);

	for (guint i = 0; i < n; i++) {
		guint64 seed = g_array_index(spec->seeds, guint64, i);

		runs[i].id = plan_eval_run_id(spec, counts, seed);
		runs[i].seed = seed;
		runs[i].n_overrides = n_pools;
		runs[i].overrides = g_new0(ScenarioOverride, n_pools);
		for (guint p = 0; p < n_pools; p++) {
			ScenarioOverride *o = &runs[i].overrides[p];

			o->path = g_strdup_printf("spec.cluster.nodePools[name=%s].count",
			                          (const char *)g_ptr_array_index(spec->pools, p));
			o->value = g_strdup_printf("%u", counts[p]);
			o->origin = (K8sPos){ .file = "--pool", .line = 0, .col = 0 };
		}
	}
	return runs;
}

static void
free_runs(SweepRun *runs, guint n)
{
	for (guint i = 0; i < n; i++) {
		for (guint p = 0; p < runs[i].n_overrides; p++) {
			g_free((char *)runs[i].overrides[p].path);
			g_free((char *)runs[i].overrides[p].value);
		}
		g_free(runs[i].overrides);
		g_free(runs[i].id);
	}
	g_free(runs);
}

/* Each SLO metric of each mode across the reports, summarised. */
static void
summarise(const PlanEval *self, RptReport **reports, guint n, RptPlanMeasure *measures)
{
	const PlanSpec *spec = self->spec;
	g_autofree double *x = g_new(double, n);

	for (guint m = 0; m < spec->modes->len; m++) {
		for (guint k = 0; k < spec->slos->len; k++) {
			const PlanSlo *slo = &g_array_index(spec->slos, PlanSlo, k);
			RptPlanMeasure *measure = &measures[m * spec->slos->len + k];

			for (guint i = 0; i < n; i++) {
				RptMode *mode = rpt_report_lookup_mode(
				        reports[i], g_ptr_array_index(spec->modes, m));

				if (mode == NULL ||
				    !rpt_mode_lookup_metric(mode, slo->metric, &x[i]))
					x[i] = NAN;
			}
			sweep_stat_compute(x, n, spec->confidence, &measure->stat);
			measure->n_runs = n;
		}
	}
}

/* Reads the point's reports; a run that failed makes *@failure_out "seed N: WHY; ...". */
static gboolean
load_reports(const PlanEval *self,
             const SweepRun *runs,
             guint n,
             RptReport **reports,
             char **failure_out)
{
	GString *failures = NULL;

	for (guint i = 0; i < n; i++) {
		g_autofree char *why = NULL;

		reports[i] = sweep_run_load(self->points_dir, &runs[i], &why);
		if (reports[i] != NULL)
			continue;
		if (failures == NULL)
			failures = g_string_new(NULL);
		g_string_append_printf(failures, "%sseed %" G_GUINT64_FORMAT ": %s",
		                       failures->len ? "; " : "", runs[i].seed,
		                       why ? g_strchomp(why) : "no report");
	}
	if (failures != NULL)
		*failure_out = g_string_free(failures, FALSE);
	return failures == NULL;
}

gboolean
plan_eval_point(const guint *counts,
                RptPlanMeasure *measures,
                char **failure_out,
                gpointer user_data,
                GError **error)
{
	PlanEval *self = user_data;
	const PlanSpec *spec = self->spec;
	guint n = spec->seeds->len;
	SweepRun *runs = point_runs(spec, counts);
	g_autofree RptReport **reports = g_new0(RptReport *, n);
	g_autoptr(GString) label = g_string_new("plan");
	SweepExecOptions options = { .jobs = self->jobs, .progress = self->progress };
	SweepExecSummary summary = { 0 };
	gboolean ok;

	for (guint p = 0; p < spec->pools->len; p++)
		g_string_append_printf(label, " %s=%u",
		                       (const char *)g_ptr_array_index(spec->pools, p), counts[p]);
	options.label = label->str;
	ok = sweep_exec_local(self->scenario, self->horizon, runs, n, self->points_dir, &options,
	                      &summary, error);
	if (ok && load_reports(self, runs, n, reports, failure_out))
		summarise(self, reports, n, measures);
	for (guint i = 0; i < n; i++)
		rpt_report_free(reports[i]);
	free_runs(runs, n);
	return ok;
}
