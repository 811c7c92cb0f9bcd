/*
 * test_experiment.c: an FGD experiment's grid (research_experiment.c) and its
 * writers (research_experiment_out.c): statistics over seeds worked by hand,
 * what a run lacks left out, refused pairs kept with their reason and not
 * run, names quoted in CSV and escaped in JSON, the same bytes with one
 * process or two, and a failed run named by trace, world, policy and seed
 * (the first in grid order, whatever ends first).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include "fgd-trace.h"
#include "research.h"
#include "research_experiment-private.h"

/*
 * One trace named "t,1" (a comma: quoted in CSV), world gpushare, policies
 * BestFit and FGD (FGD marked refused by hand), seeds 7 and 8, their runs
 * filled by hand:
 *   seed 7: at 100 % unallocated 10, fragment 4, ratio 40; at 50 % unallocated 30;
 *           stranded 1, co-tenants mean 2, max 3;
 *   seed 8: at 100 % unallocated 20, no fragment in its world (frag_defined FALSE);
 *           stranded 3, co-tenants mean 4, max 5.
 * At 100 %: unallocated mean 15, sample SD sqrt((25 + 25) / 1) = 7.071068, n 2;
 * fragment 4 and ratio 40 with n 1 and SD null; stranded 2, SD sqrt(2) = 1.414214;
 * co-tenants mean 3 and max 4, SD 1.414214 each. At 50 %: 30, n 1. At 0 %: n 0.
 */
static ResearchExperiment *
experiment_by_hand(void)
{
	ResearchExperiment *exp = g_new0(ResearchExperiment, 1);
	ResearchWorld world = RESEARCH_WORLD_GPUSHARE;
	ResearchFgdRun *r;

	exp->trace_names = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(exp->trace_names, g_strdup("t,1"));
	exp->worlds = g_array_new(FALSE, FALSE, sizeof(ResearchWorld));
	g_array_append_val(exp->worlds, world);
	exp->policies = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(exp->policies, g_strdup("BestFit"));
	g_ptr_array_add(exp->policies, g_strdup("FGD"));
	exp->seed_from = 7;
	exp->n_seeds = 2;
	exp->tune_ratio = 1.3;
	exp->replicas = 4; /* given; capacity_step and mig_model left to their worlds */
	exp->refused = g_new0(const char *, 2);
	exp->refused[1] = "refused \"by hand\"";
	exp->runs = g_new0(ResearchFgdRun, 4);
	r = &exp->runs[0];
	*r = (ResearchFgdRun){ .has_at_100 = TRUE,
		               .frag_defined = TRUE,
		               .stranded_pct = 1,
		               .cotenants_mean = 2,
		               .cotenants_max = 3 };
	r->has[100] = r->has[50] = TRUE;
	r->unallocated_pct[100] = 10, r->frag_amount_pct[100] = 4, r->frag_ratio_pct[100] = 40;
	r->unallocated_pct[50] = 30;
	r = &exp->runs[1];
	*r = (ResearchFgdRun){
		.has_at_100 = TRUE, .stranded_pct = 3, .cotenants_mean = 4, .cotenants_max = 5
	};
	r->has[100] = TRUE;
	r->unallocated_pct[100] = 20, r->frag_amount_pct[100] = 99; /* undefined: left out */
	return exp;
}

static const cJSON *
at(const cJSON *node, const char *path)
{
	g_auto(GStrv) keys = g_strsplit(path, ".", -1);

	for (guint i = 0; keys[i] != NULL && node != NULL; i++) {
		if (g_ascii_isdigit(keys[i][0]))
			node = cJSON_GetArrayItem(node, atoi(keys[i]));
		else
			node = cJSON_GetObjectItemCaseSensitive(node, keys[i]);
	}
	assert_non_null(node);
	return node;
}

static void
assert_stat(const cJSON *stat, double mean, double sd, int n)
{
	const cJSON *m = at(stat, "mean"), *s = at(stat, "sd");

	assert_int_equal(at(stat, "n")->valueint, n);
	assert_true(isnan(mean) ? cJSON_IsNull(m) : fabs(m->valuedouble - mean) < 1e-6);
	assert_true(isnan(sd) ? cJSON_IsNull(s) : fabs(s->valuedouble - sd) < 1e-6);
}

static void
test_experiment__json_by_hand(void **state)
{
	g_autoptr(ResearchExperiment) exp = experiment_by_hand();
	g_autofree char *text = research_experiment_json(exp);
	cJSON *root = cJSON_Parse(text);
	const cJSON *world, *fit, *fgd;

	(void)state;
	assert_non_null(root);
	assert_string_equal(at(root, "apiVersion")->valuestring, "drasim.io/fgd/v1");
	assert_true(fabs(at(root, "tune_ratio")->valuedouble - 1.3) < 1e-12);
	assert_int_equal(at(root, "seeds.from")->valueint, 7);
	assert_int_equal(at(root, "seeds.to")->valueint, 8);
	assert_int_equal(at(root, "world_options.replicas")->valueint, 4);
	assert_true(cJSON_IsNull(at(root, "world_options.capacity_step")));
	assert_true(cJSON_IsNull(at(root, "world_options.mig_model")));
	assert_string_equal(at(root, "traces.0.name")->valuestring, "t,1");
	world = at(root, "traces.0.worlds.0");
	assert_string_equal(at(world, "name")->valuestring, "gpushare");
	assert_string_equal(at(world, "device_pick")->valuestring,
	                    research_world_info(RESEARCH_WORLD_GPUSHARE)->device_pick);
	assert_true(cJSON_IsBool(at(world, "beyond_production")));
	assert_true(cJSON_IsBool(at(world, "memory_isolation")));
	assert_true(cJSON_IsString(at(world, "title")));
	fit = at(world, "policies.0");
	assert_true(cJSON_IsTrue(at(fit, "beyond_production")));
	assert_int_equal(cJSON_GetArraySize(at(fit, "points")), RESEARCH_FGD_POINTS);
	assert_int_equal(at(fit, "points.130.arrived_pct")->valueint, 130);
	assert_stat(at(fit, "points.100.unallocated_pct"), 15, 7.0710678, 2);
	assert_stat(at(fit, "points.100.frag_amount_pct"), 4, NAN, 1);
	assert_stat(at(fit, "points.100.frag_ratio_pct"), 40, NAN, 1);
	assert_stat(at(fit, "points.50.unallocated_pct"), 30, NAN, 1);
	assert_stat(at(fit, "points.0.unallocated_pct"), NAN, NAN, 0);
	assert_stat(at(fit, "at_100.unallocated_pct"), 15, 7.0710678, 2);
	assert_stat(at(fit, "at_100.stranded_pct"), 2, 1.4142136, 2);
	assert_stat(at(fit, "at_100.cotenants_mean"), 3, 1.4142136, 2);
	assert_stat(at(fit, "at_100.cotenants_max"), 4, 1.4142136, 2);
	fgd = at(world, "policies.1");
	assert_string_equal(at(fgd, "refused")->valuestring, "refused \"by hand\"");
	assert_null(cJSON_GetObjectItem(fgd, "points"));
	assert_null(cJSON_GetObjectItem(fgd, "at_100"));
	cJSON_Delete(root);
}

/* Long form: 131 points x 3 metrics + 3 at-100 rows for BestFit, none for refused FGD. */
static void
test_experiment__csv_by_hand(void **state)
{
	g_autoptr(ResearchExperiment) exp = experiment_by_hand();
	g_autofree char *text = research_experiment_csv(exp);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);

	(void)state;
	assert_int_equal(g_strv_length(lines), 1 + 131 * 3 + 3 + 1); /* + the empty tail */
	assert_string_equal(lines[0], "trace,world,policy,arrived_pct,metric,mean,sd,n");
	assert_string_equal(lines[1], "\"t,1\",gpushare,BestFit,0,unallocated_pct,,,0");
	assert_string_equal(lines[1 + 100 * 3],
	                    "\"t,1\",gpushare,BestFit,100,unallocated_pct,15.000000,7.071068,2");
	assert_string_equal(lines[2 + 100 * 3],
	                    "\"t,1\",gpushare,BestFit,100,frag_amount_pct,4.000000,,1");
	assert_string_equal(lines[1 + 131 * 3],
	                    "\"t,1\",gpushare,BestFit,100,stranded_pct,2.000000,1.414214,2");
	assert_string_equal(lines[3 + 131 * 3],
	                    "\"t,1\",gpushare,BestFit,100,cotenants_max,4.000000,1.414214,2");
	assert_null(strstr(text, ",FGD,"));
}

/*
 * One node, one GPU; three pods of 1 CPU and 0.4 GPU (experiment_fgd.sh's hand case):
 * every seed allocates 40 % then 80 %; the third fails. At 80 %: unallocated 20.
 */
static WorkloadTrace *
three_pods(void)
{
	return trace_new(NODES_HEADER "n0,8000,1024,1,T4\n",
	                 PODS_HEADER "p0,1000,1,1,400,\np1,1000,1,1,400,\np2,1000,1,1,400,\n");
}

/* World time-slicing refuses the paper's BestFit (research_world_refuses): not run. */
static void
test_experiment__runs_same_bytes_any_jobs(void **state)
{
	g_autoptr(WorkloadTrace) trace = three_pods();
	const WorkloadTrace *traces[] = { trace };
	const char *names[] = { "three" };
	const ResearchWorld worlds[] = { RESEARCH_WORLD_GPUSHARE, RESEARCH_WORLD_TIME_SLICING };
	const char *policies[] = { "BestFit" };
	ResearchExperimentConfig config = { .trace_names = names,
		                            .traces = traces,
		                            .n_traces = 1,
		                            .worlds = worlds,
		                            .n_worlds = 2,
		                            .policies = policies,
		                            .n_policies = 1,
		                            .seed_from = 1,
		                            .n_seeds = 3,
		                            .tune_ratio = 1.3 };
	g_autoptr(ResearchExperiment) one = NULL, two = NULL;
	g_autofree char *json1 = NULL, *json2 = NULL, *csv1 = NULL, *csv2 = NULL;

	(void)state;
	config.jobs = 1;
	one = research_experiment_run(&config, NULL);
	config.jobs = 2;
	two = research_experiment_run(&config, NULL);
	assert_non_null(one);
	assert_non_null(two);
	assert_non_null(research_experiment_refused(one, 1, 0));
	assert_null(research_experiment_get_run(one, 0, 1, 0, 0));
	assert_null(research_experiment_refused(one, 0, 0));
	for (guint s = 0; s < 3; s++) {
		const ResearchFgdRun *run = research_experiment_get_run(two, 0, 0, 0, s);

		assert_true(run->has[80]);
		assert_true(fabs(run->unallocated_pct[80] - 20.0) < 1e-9);
		assert_int_equal(run->pods_failed, 1);
	}
	json1 = research_experiment_json(one);
	json2 = research_experiment_json(two);
	csv1 = research_experiment_csv(one);
	csv2 = research_experiment_csv(two);
	assert_string_equal(json1, json2);
	assert_string_equal(csv1, csv2);
}

/*
 * Traces good, bad, bad (a CPU pod only: "no GPU pod"): whichever run ends first, the
 * error names the first failed run in grid order, trace "b" at seed 5, and no results.
 */
static void
test_experiment__first_failure_in_grid_order(void **state)
{
	g_autoptr(WorkloadTrace) good = three_pods();
	g_autoptr(WorkloadTrace) bad =
	        trace_new(NODES_HEADER "n0,8000,1024,1,T4\n", PODS_HEADER "p0,1000,1,0,0,\n");
	const WorkloadTrace *traces[] = { good, bad, bad };
	const char *names[] = { "a", "b", "c" };
	const ResearchWorld worlds[] = { RESEARCH_WORLD_GPUSHARE };
	const char *policies[] = { "FGD" };
	ResearchExperimentConfig config = { .trace_names = names,
		                            .traces = traces,
		                            .n_traces = 3,
		                            .worlds = worlds,
		                            .n_worlds = 1,
		                            .policies = policies,
		                            .n_policies = 1,
		                            .seed_from = 5,
		                            .n_seeds = 2,
		                            .tune_ratio = 1.3 };

	(void)state;
	for (guint jobs = 1; jobs <= 3; jobs++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(ResearchExperiment) exp = NULL;

		config.jobs = jobs;
		exp = research_experiment_run(&config, &error);
		assert_null(exp);
		assert_non_null(error);
		assert_non_null(g_strstr_len(error->message, -1,
		                             "trace b, world gpushare, policy FGD, seed 5: "));
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_experiment__json_by_hand),
		cmocka_unit_test(test_experiment__csv_by_hand),
		cmocka_unit_test(test_experiment__runs_same_bytes_any_jobs),
		cmocka_unit_test(test_experiment__first_failure_in_grid_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
