/*
 * sched-ties.h: what the tests of the scheduling paths against the reference
 * (test_sched_class.c, test_sched_window.c) share: a seeded generator that
 * logs its draws, a scheduler on either path, and identical nodes, so that
 * ties really happen and selectHost's draws decide.
 */
#pragma once

#include <glib.h>

#include "cluster_sched.h"
#include "cluster_types.h"

#define GI ((gint64)1 << 30)

/* A seeded generator that logs what it was asked: draws and their bounds. */
typedef struct {
	guint64 state;
	guint n_draws;
	guint64 bounds_sum; /* Σ n over the draws */
	gboolean zero;      /* answer 0 every time: the last tie wins */
} LoggedRand;

static inline guint32
logged_rand(gpointer data, guint32 n)
{
	LoggedRand *r = data;

	r->state = r->state * 6364136223846793005u + 1442695040888963407u;
	r->n_draws++;
	r->bounds_sum += n;
	return r->zero ? 0 : (guint32)((r->state >> 33) % n);
}

/* The default score plugins over @nodes; @reference: DRASIM_SCHED_REFERENCE=1. */
static inline ClusterSched *
ties_sched_new(gboolean reference, gint32 percentage, LoggedRand *rand, GPtrArray *nodes)
{
	ClusterSchedConfig config = { .percentage_of_nodes_to_score = percentage,
		                      .rand = logged_rand,
		                      .rand_data = rand };
	ClusterSched *sched;

	g_setenv("DRASIM_SCHED_REFERENCE", reference ? "1" : "0", TRUE);
	sched = cluster_sched_new(&config);
	g_unsetenv("DRASIM_SCHED_REFERENCE");
	cluster_sched_add_default_score_plugins(sched);
	for (guint i = 0; i < nodes->len; i++)
		cluster_sched_add_node(sched, nodes->pdata[i]);
	return sched;
}

/* @n identical nodes node-%04u; every @cordon_every-th (from node 0) cordoned, 0: none. */
static inline GPtrArray *
ties_nodes_new(guint n, guint cordon_every)
{
	GPtrArray *nodes = g_ptr_array_new_with_free_func((GDestroyNotify)cluster_node_free);

	for (guint i = 0; i < n; i++) {
		g_autofree char *name = g_strdup_printf("node-%04u", i);
		ClusterNode *node = cluster_node_new(name);

		node->allocatable.v[CLUSTER_RES_CPU] = 64000;
		node->allocatable.v[CLUSTER_RES_MEMORY] = 512 * GI;
		node->allocatable.v[CLUSTER_RES_PODS] = 110;
		node->unschedulable = cordon_every != 0 && i % cordon_every == 0;
		g_ptr_array_add(nodes, node);
	}
	return nodes;
}
