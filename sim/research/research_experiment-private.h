/*
 * research_experiment-private.h: an experiment's results as its runner
 * (research_experiment.c) files them and its writers
 * (research_experiment_out.c) read them.
 */
#pragma once

#include "research.h"

struct _ResearchExperiment {
	GPtrArray *trace_names; /* char * */
	GArray *worlds;         /* ResearchWorld */
	GPtrArray *policies;    /* char * */
	guint64 seed_from;
	guint n_seeds;
	double tune_ratio;
	guint replicas; /* the world options as given: 0 / NULL is the world's default */
	gint64 capacity_step;
	char *mig_model;
	const char **refused; /* [world][policy]: the world's static reason, or NULL */
	ResearchFgdRun *runs; /* [trace][world][policy][seed]; zero for a refused pair */
};

/* The index of run (@t, @w, @p, @s) in exp->runs. */
static inline guint
research_experiment__index(const ResearchExperiment *exp, guint t, guint w, guint p, guint s)
{
	return ((t * exp->worlds->len + w) * exp->policies->len + p) * exp->n_seeds + s;
}
