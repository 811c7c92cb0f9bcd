/*
 * measure_placements.c: each pod's placement history for the report's
 * pods[].placements[] and pods[].shared (issue 18 item 3), read from the
 * simulation when the loop has stopped. A row already tells one placement
 * (node, devices, first start, completion); only pods it cannot tell get the
 * list: those evicted at least once, and those deleted while bound (the row
 * has no end for them, the placement has). So `drasim verify` can check from
 * the report alone that no device was held twice at once.
 */
#include "measure-private.h"

static char *
device_ids(const ScenarioSampler *sampler, const char *node, const guint *devs, guint n)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < n; i++)
		scenario_sample__append_device_id(sampler, node, devs[i], out);
	return g_string_free(out, out->len == 0);
}

void
measure__collect_placements(const MeasureRunEnd *run, guint pod, ScenarioPodRecord *rec)
{
	guint n_history = 0;
	const ClusterSimPlacement *history = cluster_sim_get_pod_history(run->sim, pod, &n_history);
	gboolean deleted_bound = rec->phase == CLUSTER_POD_DELETED && rec->node != NULL;
	guint n_devs = 0;
	const guint *devs;

	rec->shared =
	        cluster_sim_get_pod_shares_devices(run->sim, pod) != FALSE; /* a 1-bit field */
	if (n_history == 0 && !deleted_bound)
		return;
	rec->placements = g_new0(ScenarioPlacement, n_history + 1);
	for (guint i = 0; i < n_history; i++) {
		const ClusterSimPlacement *h = &history[i];
		const ClusterNode *node = cluster_sim_get_node(run->sim, h->node);
		ScenarioPlacement *p = &rec->placements[rec->n_placements++];

		p->node = g_strdup(node->name);
		p->devices = device_ids(run->sampler, node->name, h->devices, h->n_devices);
		p->start = h->start;
		p->end = h->end;
		p->ended = cluster_placement_end_to_string(h->why);
	}
	if (rec->node == NULL)
		return; /* pending again: its last placement ended with an eviction */
	devs = cluster_sim_get_pod_devices(run->sim, pod, &n_devs);
	rec->placements[rec->n_placements++] = (ScenarioPlacement){
		.node = g_strdup(rec->node),
		.devices = device_ids(run->sampler, rec->node, devs, n_devs),
		.start = cluster_sim_get_pod_placed_at(run->sim, pod),
		.end = deleted_bound || rec->end >= 0 ? cluster_sim_get_pod_left_at(run->sim, pod)
		                                      : -1,
		.ended = NULL, /* the pod's outcome, named by the report */
	};
}

void
measure__placements_clear(ScenarioPodRecord *rec)
{
	for (guint i = 0; i < rec->n_placements; i++) {
		g_free(rec->placements[i].node);
		g_free(rec->placements[i].devices);
	}
	g_free(rec->placements);
}
