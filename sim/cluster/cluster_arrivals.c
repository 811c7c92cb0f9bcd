/*
 * cluster_arrivals.c: the pods' addition, parking and arrival events.
 *
 * Arrival events one at a time. A workload of
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

static SimTime
arrival_of(const ClusterSim *self, guint index)
{
	const ClusterSimPod *sp = self->pods->pdata[index];

	return sp != NULL ? sp->work.arrival : cluster_arrivals__parked(self, index)->arrival;
}

static void
schedule(ClusterSim *self, guint index)
{
	sim_loop_schedule(self->loop, arrival_of(self, index), self->kind_arrival,
	                  CLUSTER_PRIO_ARRIVAL, index, NULL);
}

static guint
waiting(const ClusterSim *self)
{
	return self->arrivals->len - self->arrivals_head;
}

static void
chain_add(ClusterSim *self, ClusterSimPod *sp)
{
	GArray *chain = self->arrivals;

	if (!self->arrivals_direct) {
		gboolean first = waiting(self) == 0;

		if (first || arrival_of(self, g_array_index(chain, guint, chain->len - 1)) <=
		                     sp->work.arrival) {
			g_array_append_val(chain, sp->index);
			if (first)
				schedule(self, sp->index);
			return;
		}
		/* out of order: the waiting pods get their events (the first has one;
		 * a parked one's arrival is in its ClusterSimParked) */
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

/* ------------------------------------------------------------ pods */

/* The pod's records as cluster_sim_add_pod() makes them, in slot @index. */
static ClusterSimPod *
pod_new(ClusterSim *self, guint index, ClusterPod *pod, const ClusterSimWork *work)
{
	ClusterSimPod *sp = g_new0(ClusterSimPod, 1);

	sp->index = index;
	sp->pod = pod;
	pod->uid = sp->index;
	sp->work = *work;
	sp->work.claims = NULL;
	sp->work.templates = NULL;
	sp->work.adopt = NULL;
	sp->devices_size = MAX(work->n_devices, 1);
	sp->devices = g_new0(guint, sp->devices_size);
	sp->rates = g_new0(double, sp->devices_size);
	sp->bound_at = -1;
	sp->placed_at = -1;
	sp->left_at = -1;
	sp->finished_at = -1;
	sp->claims = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; work->claims != NULL && work->claims[i] != NULL; i++)
		g_ptr_array_add(sp->claims, g_strdup(work->claims[i]));
	sp->n_user_claims = sp->claims->len;
	/* template references wait for the controller at arrival */
	sp->templates = g_strdupv((char **)work->templates);
	sp->adopt = g_strdupv((char **)work->adopt);
	return sp;
}

guint
cluster_sim_add_pod(ClusterSim *self, ClusterPod *pod, const ClusterSimWork *work)
{
	ClusterSimPod *sp = pod_new(self, self->pods->len, pod, work);

	g_ptr_array_add(self->pods, sp);
	if (!work->running)
		chain_add(self, sp);
	return sp->index;
}

void
cluster_sim_set_pod_builder(ClusterSim *self,
                            ClusterSimPodBuilder build,
                            ClusterSimPodNamer name_of,
                            gpointer data)
{
	self->build = build;
	self->name_of = name_of;
	self->build_data = data;
}

gboolean
cluster_sim_park_pod(ClusterSim *self, guint index)
{
	ClusterSimPod *sp = index < self->pods->len ? self->pods->pdata[index] : NULL;
	ClusterSimParked parked;

	if (self->build == NULL || sp == NULL || sp->arrived || sp->work.running ||
	    self->arrivals_direct || (sp->adopt != NULL && sp->adopt[0] != NULL))
		return FALSE;
	if (self->parked == NULL)
		self->parked = g_array_new(FALSE, FALSE, sizeof(ClusterSimParked));
	/* by index, for the binary search of cluster_arrivals__parked */
	if (self->parked->len > 0 &&
	    g_array_index(self->parked, ClusterSimParked, self->parked->len - 1).index >= index)
		return FALSE;
	parked = (ClusterSimParked){
		.index = index,
		.dra_extended = sp->pod->dra_extended,
		.arrival = sp->work.arrival,
		.has_dra = (guint8)sp->pod->has_dra,
		.shares = sp->n_user_claims > 0 ||
		          (sp->work.set_sharing && sp->work.sharing != CLUSTER_SHARE_EXCLUSIVE),
	};
	g_array_append_val(self->parked, parked);
	self->pods->pdata[index] = NULL;
	cluster_sim__pod_free(sp);
	return TRUE;
}

static ClusterSimParked *
find_parked(const ClusterSim *self, guint index)
{
	guint lo = 0, hi = self->parked != NULL ? self->parked->len : 0;

	while (lo < hi) {
		guint mid = lo + (hi - lo) / 2;
		ClusterSimParked *p = &g_array_index(self->parked, ClusterSimParked, mid);

		if (p->index == index)
			return p;
		if (p->index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const ClusterSimParked *
cluster_arrivals__parked(const ClusterSim *self, guint index)
{
	const ClusterSimParked *p = find_parked(self, index);

	return p != NULL && !p->revived ? p : NULL;
}

void
cluster_sim_revive_pod(ClusterSim *self, guint index, ClusterPod *pod, const ClusterSimWork *work)
{
	ClusterSimParked *p = find_parked(self, index);
	ClusterSimPod *sp;

	g_return_if_fail(p != NULL && !p->revived && self->pods->pdata[index] == NULL);
	sp = pod_new(self, index, pod, work);
	pod->dra_extended = p->dra_extended;
	pod->has_dra = p->has_dra;
	p->revived = TRUE;
	self->pods->pdata[index] = sp;
}

ClusterSimPod *
cluster_arrivals__revive(ClusterSim *self, guint index)
{
	if (self->pods->pdata[index] == NULL) {
		self->build(self->build_data, index);
		/* the builder made it at set-up: it cannot fail now */
		if (self->pods->pdata[index] == NULL)
			g_error("pod %u was not made again at its arrival", index);
	}
	return self->pods->pdata[index];
}
