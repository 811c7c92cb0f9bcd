/*
 * rpt_plan_json.c: plan.json (schema drasim.io/plan/v1): the question
 * (scenario, pools, SLOs, seeds, confidence, bounds), the answers as
 * {mode, pool, count} (one entry per pool of a mix; none for a mode whose
 * SLOs are not met), per mode whether it was met, why not, whether the
 * points were monotone and which were not, and every point evaluated, in
 * evaluation order. Keys in a fixed order and numbers through
 * rpt__format_rpt_json__number(), so a plan gives the same bytes every time.
 */
#include <math.h>

#include <cjson/cJSON.h>

#include "rpt-private.h"
#include "rpt_plan-private.h"

static cJSON *
counts_object(const RptPlan *self, const guint *counts)
{
	cJSON *object = cJSON_CreateObject();

	for (guint p = 0; p < self->n_pools; p++)
		cJSON_AddItemToObject(object, self->pools[p], rpt_json__number(counts[p]));
	return object;
}

static cJSON *
question(const RptPlan *self)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *pools = cJSON_AddArrayToObject(root, "pools");
	cJSON *slos;
	cJSON *seeds;

	cJSON_AddStringToObject(root, "schema", RPT_PLAN_SCHEMA);
	cJSON_AddStringToObject(root, "scenario", self->scenario);
	for (guint p = 0; p < self->n_pools; p++) {
		cJSON *pool = cJSON_CreateObject();

		cJSON_AddStringToObject(pool, "name", self->pools[p]);
		cJSON_AddStringToObject(pool, "shape", self->shapes[p]);
		cJSON_AddItemToObject(pool, "cost_per_hour",
		                      self->costs ? rpt_json__number(self->costs[p])
		                                  : cJSON_CreateNull());
		cJSON_AddItemToArray(pools, pool);
	}
	slos = cJSON_AddArrayToObject(root, "slos");
	for (guint s = 0; s < self->n_slos; s++) {
		cJSON *slo = cJSON_CreateObject();

		cJSON_AddStringToObject(slo, "text", self->slos[s].text);
		cJSON_AddStringToObject(slo, "metric", self->slos[s].metric);
		cJSON_AddStringToObject(slo, "op", self->slos[s].op);
		cJSON_AddItemToObject(slo, "value", rpt_json__number(self->slos[s].value));
		cJSON_AddStringToObject(slo, "unit", self->slos[s].unit);
		cJSON_AddItemToArray(slos, slo);
	}
	seeds = cJSON_AddArrayToObject(root, "seeds");
	for (guint i = 0; i < self->seeds->len; i++)
		cJSON_AddItemToArray(
		        seeds, rpt_json__number((double)g_array_index(self->seeds, uint64_t, i)));
	cJSON_AddItemToObject(root, "confidence", rpt_json__number(self->confidence));
	cJSON_AddItemToObject(root, "min", rpt_json__number(self->min));
	cJSON_AddItemToObject(root, "max", rpt_json__number(self->max));
	return root;
}

static void
add_answers(cJSON *root, const RptPlan *self)
{
	cJSON *answers = cJSON_AddArrayToObject(root, "answers");
	cJSON *modes = cJSON_AddArrayToObject(root, "modes");

	for (guint m = 0; m < self->n_modes; m++) {
		const RptPlanAnswer *answer = &self->answers[m];
		cJSON *mode = cJSON_CreateObject();
		cJSON *offending;

		for (guint p = 0; answer->met && p < self->n_pools; p++) {
			cJSON *entry = cJSON_CreateObject();

			cJSON_AddStringToObject(entry, "mode", self->modes[m]);
			cJSON_AddStringToObject(entry, "pool", self->pools[p]);
			cJSON_AddItemToObject(entry, "count", rpt_json__number(answer->counts[p]));
			cJSON_AddItemToArray(answers, entry);
		}
		cJSON_AddStringToObject(mode, "mode", self->modes[m]);
		cJSON_AddBoolToObject(mode, "met", answer->met);
		cJSON_AddItemToObject(mode, "counts",
		                      answer->met ? counts_object(self, answer->counts)
		                                  : cJSON_CreateNull());
		cJSON_AddItemToObject(mode, "cost_per_hour", rpt_json__number(answer->cost));
		cJSON_AddItemToObject(mode, "reason",
		                      answer->reason ? cJSON_CreateString(answer->reason)
		                                     : cJSON_CreateNull());
		cJSON_AddItemToObject(mode, answer->met ? "point" : "closest_point",
		                      rpt_json__number(answer->point));
		cJSON_AddBoolToObject(mode, "monotone", answer->monotone);
		offending = cJSON_AddArrayToObject(mode, "offending_points");
		for (guint i = 0; i < answer->offending->len; i++)
			cJSON_AddItemToArray(offending, rpt_json__number(g_array_index(
			                                        answer->offending, guint, i)));
		cJSON_AddItemToArray(modes, mode);
	}
}

static cJSON *
measure_object(const RptPlan *self, const RptPlanMeasure *measure, guint slo)
{
	cJSON *object = cJSON_CreateObject();

	cJSON_AddStringToObject(object, "metric", self->slos[slo].metric);
	cJSON_AddItemToObject(object, "runs", rpt_json__number(measure->n_runs));
	cJSON_AddItemToObject(object, "n", rpt_json__number(measure->stat.n));
	cJSON_AddItemToObject(object, "mean", rpt_json__number(measure->stat.mean));
	cJSON_AddItemToObject(object, "sd", rpt_json__number(measure->stat.sd));
	cJSON_AddItemToObject(object, "ci_low", rpt_json__number(measure->stat.ci_low));
	cJSON_AddItemToObject(object, "ci_high", rpt_json__number(measure->stat.ci_high));
	cJSON_AddItemToObject(object, "bound", rpt_json__number(measure->bound));
	cJSON_AddStringToObject(object, "verdict", rpt_plan_verdict_to_string(measure->verdict));
	return object;
}

static cJSON *
point_object(const RptPlan *self, guint index)
{
	RptPlanPoint *point = g_ptr_array_index(self->points, index);
	cJSON *object = cJSON_CreateObject();
	cJSON *modes;

	cJSON_AddItemToObject(object, "index", rpt_json__number(index));
	cJSON_AddItemToObject(object, "counts", counts_object(self, point->counts));
	cJSON_AddItemToObject(object, "error",
	                      point->error ? cJSON_CreateString(point->error) : cJSON_CreateNull());
	modes = cJSON_AddArrayToObject(object, "modes");
	for (guint m = 0; m < self->n_modes; m++) {
		cJSON *mode = cJSON_CreateObject();
		cJSON *slos;

		cJSON_AddStringToObject(mode, "mode", self->modes[m]);
		cJSON_AddBoolToObject(mode, "holds", rpt_plan_point_holds(self, point, m));
		slos = cJSON_AddArrayToObject(mode, "slos");
		for (guint s = 0; s < self->n_slos; s++) {
			cJSON_AddItemToArray(
			        slos,
			        measure_object(self, rpt_plan_point_measure(self, point, m, s), s));
		}
		cJSON_AddItemToArray(modes, mode);
	}
	return object;
}

char *
rpt_plan_json_to_string(const RptPlan *self)
{
	cJSON *root = question(self);
	cJSON *points;
	char *printed;
	char *text;

	add_answers(root, self);
	points = cJSON_AddArrayToObject(root, "points");
	for (guint i = 0; i < self->points->len; i++)
		cJSON_AddItemToArray(points, point_object(self, i));
	printed = cJSON_Print(root);
	cJSON_Delete(root);
	text = g_strconcat(printed, "\n", NULL);
	cJSON_free(printed);
	return text;
}
