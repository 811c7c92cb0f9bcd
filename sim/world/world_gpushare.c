/*
 * world_gpushare.c: the per-GPU state the FGD paper's six score policies read
 * (cluster_gpushare.h), built for a scenario mode whose `policy:` names one of
 * them (docs/research/scenario-policies.md). Extended world, whole GPUs: a
 * node's GPUs are its nvidia.com/gpu devices, a pod's request its
 * nvidia.com/gpu count; the scheduler's assume / release keep the state in
 * step (cluster_gpushare_node_sync). FGD's task mix is the run's pods' shapes
 * by popularity (GetTypicalPods). MIG and shared GPUs have no per-GPU free
 * share to score: the decoder refuses sharing, this file MIG layouts.
 */
#include <string.h>

#include "cluster_gpushare.h"
#include "world-private.h"

struct ScenarioGpuShare {
	const ScenarioMode *mode;
	char *policy_path; /* spec.modes[i].policy, for errors */
	ClusterGpuShare *share;
	SimRng *rng;      /* the Random policy's and the random GPU pick's draws */
	GPtrArray *nodes; /* ClusterNode*, borrowed from the simulation */
	ClusterGpuShareNode *gpu_nodes;
	ClusterGpuShareReq *reqs; /* per pod index */
	gint64 *cpu;              /* per pod index: the non-zero CPU request */
	guint n_pods;
};

static guint32
draw(gpointer rng, guint32 n)
{
	return sim_rng_uniform_int(rng, n);
}

ScenarioGpuShare *
scenario_gpushare__new(
        const Scenario *sc, const ScenarioMode *mode, guint n_pods, guint64 seed, GPtrArray *notes)
{
	ScenarioGpuShare *self;

	if (!cluster_sched_score_policy_needs_gpushare(mode->policy.name))
		return NULL;
	/* the translation section says what no production cluster runs */
	scenario_note__add(notes, "policy", mode->policy.name,
	                   "a research score policy of the FGD paper (Weng et al., ATC '23) "
	                   "over whole nvidia.com/gpu devices, not a kube-scheduler plugin: beyond "
	                   "production; the device plugin still picks the GPUs (device_pick "
	                   "production)");
	self = g_new0(ScenarioGpuShare, 1);
	self->mode = mode;
	for (guint i = 0; i < sc->modes->len; i++) {
		if (&g_array_index(sc->modes, ScenarioMode, i) == mode)
			self->policy_path = g_strdup_printf("spec.modes[%u].policy", i);
	}
	self->rng = sim_rng_new(seed, "policy");
	self->nodes = g_ptr_array_new();
	self->reqs = g_new0(ClusterGpuShareReq, MAX(n_pods, 1));
	self->cpu = g_new0(gint64, MAX(n_pods, 1));
	self->n_pods = n_pods;
	return self;
}

/*
 * A mig-reconfigure event changes a node's GPUs under a running mode, and the
 * per-GPU state here follows only pods' assume and release: refused, at the
 * mode's policy, rather than scored on a stale count.
 */
void
scenario_gpushare__check_events(const ScenarioGpuShare *self,
                                const Scenario *sc,
                                K8sDiagList *diags)
{
	for (guint i = 0; self != NULL && i < sc->events->len; i++) {
		const ScenarioEvent *e = &g_array_index(sc->events, ScenarioEvent, i);

		if (e->action != SCENARIO_EVENT_MIG_RECONFIGURE)
			continue;
		k8s_diag_list_error(diags, &self->mode->policy_pos, self->policy_path,
		                    "mode %s: policy %s reads each GPU's free share, and "
		                    "spec.events[%u] (mig-reconfigure, line %u) changes the GPUs "
		                    "under it; use a mode without MIG reconfiguration "
		                    "(docs/research/scenario-policies.md)",
		                    self->mode->name, self->mode->policy.name, i, e->pos.line);
		return;
	}
}

void
scenario_gpushare__free(ScenarioGpuShare *self)
{
	if (self == NULL)
		return;
	g_clear_pointer(&self->share, cluster_gpushare_free);
	sim_rng_free(self->rng);
	g_free(self->policy_path);
	g_ptr_array_unref(self->nodes);
	g_free(self->gpu_nodes);
	g_free(self->reqs);
	g_free(self->cpu);
	g_free(self);
}

/*
 * A node of the mode (before the run): MIG instances are not shares of one
 * GPU, and the memo key holds at most eight GPUs; either is an input error at
 * the mode's policy. Returns FALSE after such an error.
 */
gboolean
scenario_gpushare__add_node(ScenarioGpuShare *self,
                            ClusterNode *node,
                            const char *layout,
                            guint n_gpus,
                            K8sDiagList *diags)
{
	if (strcmp(layout, "all-disabled") != 0 && strcmp(layout, "dynamic") != 0) {
		k8s_diag_list_error(diags, &self->mode->policy_pos, self->policy_path,
		                    "mode %s: policy %s reads each GPU's free share, which a "
		                    "MIG instance is not (node %s has MIG layout %s); use a mode "
		                    "without MIG (docs/research/scenario-policies.md)",
		                    self->mode->name, self->mode->policy.name, node->name, layout);
		return FALSE;
	}
	if (n_gpus > CLUSTER_GPUSHARE_MAX_GPUS) {
		k8s_diag_list_error(diags, &self->mode->policy_pos, self->policy_path,
		                    "mode %s: policy %s handles nodes of at most %d GPUs; node %s "
		                    "has %u",
		                    self->mode->name, self->mode->policy.name,
		                    CLUSTER_GPUSHARE_MAX_GPUS, node->name, n_gpus);
		return FALSE;
	}
	g_ptr_array_add(self->nodes, node);
	return TRUE;
}

/* A pod of the run (index @index): its nvidia.com/gpu count as whole GPUs. */
void
scenario_gpushare__add_pod(ScenarioGpuShare *self,
                           ClusterPod *pod,
                           guint index,
                           const ClusterResNames *names)
{
	gint slot = cluster_res_names_lookup(names, "nvidia.com/gpu");
	gint64 count = slot >= 0 ? pod->requests.v[slot] : 0;

	if (index >= self->n_pods)
		return;
	self->reqs[index] = (ClusterGpuShareReq){ (guint32)CLAMP(count, 0, G_MAXUINT32),
		                                  count > 0 ? CLUSTER_GPUSHARE_MILLI : 0, 0 };
	self->cpu[index] = cluster_gpushare_cpu_request(pod);
	pod->gpushare = &self->reqs[index];
}

/* FGD's task mix: the pods' distinct (CPU, GPUs) shapes with their counts. */
static void
set_task_mix(ScenarioGpuShare *self)
{
	g_autoptr(GArray) shapes = g_array_new(FALSE, FALSE, sizeof(ClusterGpuShareTask));

	for (guint i = 0; i < self->n_pods; i++) {
		ClusterGpuShareTask t = { self->cpu[i], self->reqs[i], 1.0 };
		guint k = 0;

		while (k < shapes->len) {
			ClusterGpuShareTask *s = &g_array_index(shapes, ClusterGpuShareTask, k);

			if (s->cpu_milli == t.cpu_milli && s->req.num_gpu == t.req.num_gpu &&
			    s->req.gpu_milli == t.req.gpu_milli)
				break;
			k++;
		}
		if (k < shapes->len)
			g_array_index(shapes, ClusterGpuShareTask, k).p += 1.0;
		else
			g_array_append_val(shapes, t);
	}
	cluster_gpushare_set_popular_tasks(self->share, (ClusterGpuShareTask *)shapes->data,
	                                   shapes->len);
}

/*
 * After the nodes and pods are in, before the run: the largest node spec the
 * scores normalise by, each node's idle GPUs tracked from its nvidia.com/gpu
 * count, and the task mix.
 */
void
scenario_gpushare__start(ScenarioGpuShare *self, const ClusterResNames *names)
{
	gint slot = cluster_res_names_lookup(names, "nvidia.com/gpu");
	gint64 max_cpu = 1, max_gpu = CLUSTER_GPUSHARE_MILLI;

	for (guint i = 0; i < self->nodes->len; i++) {
		const ClusterNode *node = self->nodes->pdata[i];
		gint64 gpus = slot >= 0 ? node->allocatable.v[slot] : 0;

		max_cpu = MAX(max_cpu, node->allocatable.v[CLUSTER_RES_CPU]);
		max_gpu = MAX(max_gpu, gpus * CLUSTER_GPUSHARE_MILLI);
	}
	self->share = cluster_gpushare_new(max_cpu, max_gpu, draw, self->rng);
	self->gpu_nodes = g_new0(ClusterGpuShareNode, MAX(self->nodes->len, 1));
	for (guint i = 0; i < self->nodes->len; i++) {
		ClusterNode *node = self->nodes->pdata[i];
		gint64 gpus = slot >= 0 ? node->allocatable.v[slot] : 0;

		cluster_gpushare_node_init(&self->gpu_nodes[i], self->share, 0, (guint32)gpus);
		if (slot >= 0)
			cluster_gpushare_node_track_whole(&self->gpu_nodes[i], (guint)slot);
		node->gpushare = &self->gpu_nodes[i];
	}
	set_task_mix(self);
}
