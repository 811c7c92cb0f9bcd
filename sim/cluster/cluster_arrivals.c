/*
 * cluster_arrivals.c: the pods' arrival events, one at a time. A workload of
 * millions of pods used to put every arrival on the event queue at set-up
 * (about 100 B per pod for the whole run, issue 19 item 2). Pods are added
 * in arrival order, so only the next one to arrive needs an event: when it
 * fires, the following pod gets its own. The loop pops events by (time,
 * priority, insertion order) and only arrivals have their priority, so the
 * chain fires them in the same order as events made up front would.
 *
 * A pod added out of arrival order ends the chain: the waiting pods get their
 * events then, in the order they were added, and every later pod gets its
 * own at once, as before.
 */
#include "cluster-private.h"

static void
schedule(ClusterSim *self, guint index)
{
	const ClusterSimPod *sp = self->pods->pdata[index];

	sim_loop_schedule(self->loop, sp->work.arrival, self->kind_arrival, CLUSTER_PRIO_ARRIVAL,
	                  index, NULL);
}

static guint
waiting(const ClusterSim *self)
{
	return self->arrivals->len - self->arrivals_head;
}

void
cluster_arrivals__add(ClusterSim *self, ClusterSimPod *sp)
{
	GArray *chain = self->arrivals;

	if (!self->arrivals_direct) {
		const ClusterSimPod *last =
		        waiting(self) > 0
		                ? self->pods->pdata[g_array_index(chain, guint, chain->len - 1)]
		                : NULL;

		if (last == NULL || last->work.arrival <= sp->work.arrival) {
			g_array_append_val(chain, sp->index);
			if (last == NULL)
				schedule(self, sp->index);
			return;
		}
		/* out of order: the waiting pods get their events (the first has one) */
		self->arrivals_direct = TRUE;
		for (guint i = self->arrivals_head + 1; i < chain->len; i++)
			schedule(self, g_array_index(chain, guint, i));
		g_array_set_size(chain, 0);
		self->arrivals_head = 0;
	}
	schedule(self, sp->index);
}

void
cluster_arrivals__arrived(ClusterSim *self, guint index)
{
	GArray *chain = self->arrivals;

	if (waiting(self) == 0 || g_array_index(chain, guint, self->arrivals_head) != index)
		return;
	self->arrivals_head++;
	if (waiting(self) > 0) {
		schedule(self, g_array_index(chain, guint, self->arrivals_head));
		return;
	}
	g_array_set_size(chain, 0);
	self->arrivals_head = 0;
}
