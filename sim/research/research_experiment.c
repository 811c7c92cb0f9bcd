/*
 * research_experiment.c: the grid of an FGD experiment (research.h):
 * traces x worlds x policies x seeds, the pairs a world refuses set aside,
 * the rest run as tasks of sim/sweep's executor (sweep_pool.h). Each task
 * sends back one byte of status, then its ResearchFgdRun or its error text;
 * the parent files the figures by run index, so the results do not depend on
 * the order runs end in, nor on how many run at once.
 */
#include <string.h>

#include "research.h"
#include "research_experiment-private.h"
#include "sweep_pool.h"

enum { RUN_OK = 0, RUN_FAILED = 1 };

typedef struct {
	const ResearchExperimentConfig *config;
	ResearchExperiment *exp;
	GArray *tasks;      /* guint: the run index of each pool task */
	guint first_failed; /* run index of the first failed run in grid order; G_MAXUINT: none */
	char *failure;      /* its reason */
} Runner;

/* The trace, world, policy and seed of run @index. */
static void
run_coordinates(const ResearchExperiment *exp, guint index, guint *t, guint *w, guint *p, guint *s)
{
	*s = index % exp->n_seeds;
	index /= exp->n_seeds;
	*p = index % exp->policies->len;
	index /= exp->policies->len;
	*w = index % exp->worlds->len;
	*t = index / exp->worlds->len;
}

static gboolean
task_run(guint task, GByteArray *out, gpointer data)
{
	const Runner *runner = data;
	const ResearchExperimentConfig *c = runner->config;
	guint index = g_array_index(runner->tasks, guint, task), t, w, p, s;
	g_autoptr(GError) error = NULL;
	ResearchFgdRun *run = g_new0(ResearchFgdRun, 1);
	ResearchFgdConfig config;
	guint8 status;

	run_coordinates(runner->exp, index, &t, &w, &p, &s);
	config = (ResearchFgdConfig){ c->policies[p], c->seed_from + s, c->tune_ratio, c->worlds[w],
		                      c->replicas,    c->capacity_step, c->mig_model };
	status = research_fgd_run(c->traces[t], &config, run, &error) ? RUN_OK : RUN_FAILED;
	g_byte_array_append(out, &status, 1);
	if (status == RUN_OK)
		g_byte_array_append(out, (const guint8 *)run, sizeof(*run));
	else
		g_byte_array_append(out, (const guint8 *)error->message, strlen(error->message));
	g_free(run);
	return status == RUN_OK;
}

/* Why the run's bytes are not its figures. (transfer full) */
static char *
task_failure(const SweepPoolResult *result)
{
	if (result->len > 0 && result->data[0] == RUN_FAILED)
		return g_strndup((const char *)result->data + 1, result->len - 1);
	if (result->signal != 0)
		return g_strdup_printf("the run's process was killed by signal %d (%s)",
		                       result->signal, g_strsignal(result->signal));
	return g_strdup("the run's process ended without its figures");
}

static gboolean
task_done(guint task, const SweepPoolResult *result, gpointer data)
{
	Runner *runner = data;
	guint index = g_array_index(runner->tasks, guint, task);

	if (result->ok && result->len == 1 + sizeof(ResearchFgdRun) && result->data[0] == RUN_OK) {
		memcpy(&runner->exp->runs[index], result->data + 1, sizeof(ResearchFgdRun));
		return TRUE;
	}
	if (index < runner->first_failed) {
		g_free(runner->failure);
		runner->failure = task_failure(result);
		runner->first_failed = index;
	}
	return FALSE;
}

static ResearchExperiment *
experiment_new(const ResearchExperimentConfig *c)
{
	ResearchExperiment *exp = g_new0(ResearchExperiment, 1);

	exp->trace_names = g_ptr_array_new_with_free_func(g_free);
	for (guint t = 0; t < c->n_traces; t++)
		g_ptr_array_add(exp->trace_names, g_strdup(c->trace_names[t]));
	exp->worlds = g_array_new(FALSE, FALSE, sizeof(ResearchWorld));
	g_array_append_vals(exp->worlds, c->worlds, c->n_worlds);
	exp->policies = g_ptr_array_new_with_free_func(g_free);
	for (guint p = 0; p < c->n_policies; p++)
		g_ptr_array_add(exp->policies, g_strdup(c->policies[p]));
	exp->seed_from = c->seed_from;
	exp->n_seeds = c->n_seeds;
	exp->tune_ratio = c->tune_ratio;
	exp->replicas = c->replicas;
	exp->capacity_step = c->capacity_step;
	exp->mig_model = g_strdup(c->mig_model);
	exp->refused = g_new0(const char *, MAX(c->n_worlds * c->n_policies, 1));
	for (guint w = 0; w < c->n_worlds; w++) {
		for (guint p = 0; p < c->n_policies; p++)
			exp->refused[w * c->n_policies + p] =
			        research_world_refuses(c->worlds[w], c->policies[p]);
	}
	exp->runs = g_new0(ResearchFgdRun,
	                   MAX(c->n_traces * c->n_worlds * c->n_policies * c->n_seeds, 1));
	return exp;
}

/* The runs not refused, in grid order. */
static GArray *
runnable(const ResearchExperiment *exp)
{
	guint n = exp->trace_names->len * exp->worlds->len * exp->policies->len * exp->n_seeds;
	GArray *tasks = g_array_new(FALSE, FALSE, sizeof(guint));

	for (guint index = 0; index < n; index++) {
		guint t, w, p, s;

		run_coordinates(exp, index, &t, &w, &p, &s);
		if (research_experiment_refused(exp, w, p) == NULL)
			g_array_append_val(tasks, index);
	}
	return tasks;
}

ResearchExperiment *
research_experiment_run(const ResearchExperimentConfig *config, GError **error)
{
	ResearchExperiment *exp = experiment_new(config);
	Runner runner = { config, exp, runnable(exp), G_MAXUINT, NULL };
	SweepPoolOptions options = {
		config->jobs, config->jobs == 1, /* in this process: profilers see it */
		TRUE,         config->progress,  config->progress_lines, "experiment fgd"
	};
	SweepPoolSummary summary;
	g_autoptr(GError) pool_error = NULL;
	gboolean started = sweep_pool_run(runner.tasks->len, &options, task_run, task_done, &runner,
	                                  &summary, &pool_error);
	gboolean failed = runner.failure != NULL || !started;

	if (runner.failure != NULL) {
		guint t, w, p, s;

		run_coordinates(exp, runner.first_failed, &t, &w, &p, &s);
		g_set_error(error, RESEARCH_FGD_ERROR, 0,
		            "trace %s, world %s, policy %s, seed %" G_GUINT64_FORMAT ": %s",
		            (const char *)exp->trace_names->pdata[t],
		            research_world_info(config->worlds[w])->name,
		            (const char *)exp->policies->pdata[p], config->seed_from + s,
		            runner.failure);
	} else if (!started) {
		g_set_error(error, RESEARCH_FGD_ERROR, 0, "%s", pool_error->message);
	}
	g_free(runner.failure);
	g_array_unref(runner.tasks);
	if (failed) {
		research_experiment_free(exp);
		return NULL;
	}
	return exp;
}

void
research_experiment_free(ResearchExperiment *exp)
{
	if (exp == NULL)
		return;
	g_ptr_array_unref(exp->trace_names);
	g_array_unref(exp->worlds);
	g_ptr_array_unref(exp->policies);
	g_free(exp->refused);
	g_free(exp->runs);
	g_free(exp->mig_model);
	g_free(exp);
}

const char *
research_experiment_refused(const ResearchExperiment *exp, guint w, guint p)
{
	return exp->refused[w * exp->policies->len + p];
}

const ResearchFgdRun *
research_experiment_get_run(const ResearchExperiment *exp, guint t, guint w, guint p, guint s)
{
	if (research_experiment_refused(exp, w, p) != NULL)
		return NULL;
	return &exp->runs[research_experiment__index(exp, t, w, p, s)];
}
