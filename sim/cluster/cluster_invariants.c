/*
 * cluster_invariants.c: the run model's invariants, checked after every
 * event when DRASIM_CHECK_INVARIANTS=1 (the test suites set it; release runs
 * leave it unset and the event loop pays one branch). Each check walks every
 * pod and device, so a run costs O(events × (pods + devices)) more: a test
 * build's price, not a production one. A breach is a bug in drasim, never
 * in the input, so it aborts naming the invariant, the time and the object.
 *
 * The invariants (issue 18 item 3):
 *  - every submitted pod is in exactly one state, and the running counters
 *    agree with the pods' phases: submitted = pending + creating (bound,
 *    claims not prepared yet) + running + restarting + lost + completed +
 *    deleted;
 *  - what the scheduler charged on a node equals the sum of the requests of
 *    the pods bound there (extended resources included);
 *  - the compute a device delivers is at most its capacity;
 *  - the memory of a device's running tenants is at most its memory: the
 *    OOM model kills the tenants that overflow it in the same event;
 *  - DRA worlds: the devices the allocator has in use are exactly those the
 *    allocated claims hold (cluster_dra_held.c). The extended world's devices
 *    are node charges, checked above.
 *
 * The per-node sums live in a scratch array grown once (the checker runs
 * after every event and allocates nothing per event in steady state).
 */
#include "cluster-private.h"

G_GNUC_NORETURN static void
breach(const ClusterSim *sim, const char *invariant, const char *what)
{
	g_error("run-model invariant \"%s\" broken at t=%.6f s: %s", invariant,
	        sim_time_to_seconds(sim_loop_get_now(sim->loop)), what);
}

static void
count_phase(ClusterSimLedger *c, ClusterPodPhase phase)
{
	switch (phase) {
	case CLUSTER_POD_PENDING:
		c->pending++;
		break;
	case CLUSTER_POD_RUNNING:
		c->running++;
		break;
	case CLUSTER_POD_RESTARTING:
		c->restarting++;
		break;
	case CLUSTER_POD_LOST:
		c->lost++;
		break;
	case CLUSTER_POD_SUCCEEDED:
		c->completed++;
		break;
	case CLUSTER_POD_DELETED:
		c->deleted++;
		break;
	case CLUSTER_POD_CREATING:
		c->creating++;
		break;
	}
}

void
cluster_sim_get_ledger(const ClusterSim *sim, ClusterSimLedger *out)
{
	*out = (ClusterSimLedger){ .submitted = sim->stats.submitted };
	for (guint i = 0; i < sim->pods->len; i++) {
		const ClusterSimPod *sp = sim->pods->pdata[i];

		const ClusterSimRetired *r = sp == NULL ? cluster_sim__retired(sim, i) : NULL;

		if (r != NULL) { /* arrived, succeeded or deleted */
			out->arrived++;
			count_phase(out, (ClusterPodPhase)r->phase);
			continue;
		}
		if (sp == NULL) /* parked: not arrived */
			continue;
		if (!sp->arrived)
			continue;
		out->arrived++;
		count_phase(out, sp->phase);
	}
}

static void
check_pod_ledger(const ClusterSim *sim)
{
	const ClusterSimStats *st = &sim->stats;
	ClusterSimLedger c;
	g_autofree char *what = NULL;

	cluster_sim_get_ledger(sim, &c);
	if (c.arrived == st->submitted && c.pending == st->pending && c.running == st->running &&
	    c.completed == st->completed && c.deleted == st->deleted)
		return;
	what = g_strdup_printf(
	        "counters submitted %" G_GUINT64_FORMAT " pending %u running %u completed "
	        "%" G_GUINT64_FORMAT " deleted %" G_GUINT64_FORMAT
	        "; pods arrived %" G_GUINT64_FORMAT " pending %" G_GUINT64_FORMAT
	        " creating %" G_GUINT64_FORMAT " running %" G_GUINT64_FORMAT
	        " restarting %" G_GUINT64_FORMAT " lost %" G_GUINT64_FORMAT
	        " completed %" G_GUINT64_FORMAT " deleted %" G_GUINT64_FORMAT,
	        st->submitted, st->pending, st->running, st->completed, st->deleted, c.arrived,
	        c.pending, c.creating, c.running, c.restarting, c.lost, c.completed, c.deleted);
	breach(sim, "every submitted pod accounted for once", what);
}

/* Σ requests of the pods bound to each node, into @sums (one per node). */
static void
sum_bound_requests(const ClusterSim *sim, ClusterResources *sums)
{
	for (guint i = 0; i < sim->pods->len; i++) {
		const ClusterSimPod *sp = sim->pods->pdata[i];

		if (sp == NULL || !sp->arrived || !cluster_sim__is_bound(sp) || sp->node == NULL)
			continue;
		for (guint r = 0; r < CLUSTER_RES_MAX; r++)
			sums[sp->node->index].v[r] += sp->pod->requests.v[r];
	}
}

static void
check_node_charges(const ClusterSim *sim, ClusterResources *sums)
{
	memset(sums, 0, sim->nodes->len * sizeof *sums);
	sum_bound_requests(sim, sums);
	for (guint n = 0; n < sim->nodes->len; n++) {
		const ClusterSimNode *sn = sim->nodes->pdata[n];

		for (guint r = 0; r < CLUSTER_RES_MAX; r++) {
			g_autofree char *what = NULL;

			if (sn->node->requested.v[r] == sums[n].v[r])
				continue;
			what = g_strdup_printf("node %s resource slot %u: charged %" G_GINT64_FORMAT
			                       ", its bound pods request %" G_GINT64_FORMAT,
			                       sn->node->name, r, sn->node->requested.v[r],
			                       sums[n].v[r]);
			breach(sim, "resources charged on a node = its bound pods' requests", what);
		}
	}
}

static void
check_device(const ClusterSim *sim, const ClusterSimNode *sn, guint d)
{
	const ClusterSimDevice *dev = &sn->devices[d];
	g_autofree char *what = NULL;

	if (dev->used > dev->dev.capacity * (1.0 + 1e-9) + 1e-12) {
		what = g_strdup_printf("node %s device %u delivers %.9g full GPUs, capacity %.9g",
		                       sn->node->name, d, dev->used, dev->dev.capacity);
		breach(sim, "compute delivered per device <= its capacity", what);
	}
	if (dev->dev.mem_bytes > 0 && dev->mem_used > dev->dev.mem_bytes) {
		what = g_strdup_printf("node %s device %u: tenants hold %" G_GINT64_FORMAT
		                       " bytes, it has %" G_GINT64_FORMAT,
		                       sn->node->name, d, dev->mem_used, dev->dev.mem_bytes);
		breach(sim, "memory on a device <= its memory (after OOM kills)", what);
	}
}

static void
check_devices_held(const ClusterSim *sim)
{
	const ClusterDraOps *dra = sim->config.sched.dra;
	g_autofree char *what = NULL;

	if (dra == NULL || dra->check_held == NULL ||
	    dra->check_held(sim->config.sched.dra_data, &what))
		return;
	breach(sim, "devices held = claims allocated", what);
}

static void
check_all(SimLoop *loop, gpointer data)
{
	ClusterSim *sim = data;

	if (sim->invariant_sums->len < sim->nodes->len)
		g_array_set_size(sim->invariant_sums, sim->nodes->len);
	check_pod_ledger(sim);
	check_node_charges(sim, (ClusterResources *)(gpointer)sim->invariant_sums->data);
	check_devices_held(sim);
	for (guint n = 0; n < sim->nodes->len; n++) {
		const ClusterSimNode *sn = sim->nodes->pdata[n];

		for (guint d = 0; d < sn->n_devices; d++)
			check_device(sim, sn, d);
	}
}

void
cluster_sim__install_invariants(ClusterSim *self)
{
	if (g_strcmp0(g_getenv("DRASIM_CHECK_INVARIANTS"), "1") != 0)
		return;
	self->invariant_sums = g_array_new(FALSE, TRUE, sizeof(ClusterResources));
	sim_loop_set_event_check(self->loop, check_all, self);
}
