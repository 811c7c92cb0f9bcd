/*
 * measure_frag.c: GPU fragmentation as FGD measures it (Weng et al.,
 * "Beware of Fragmentation: Scheduling GPU-Sharing Workloads with
 * Fragmentation Gradient Descent", USENIX ATC '23; the reference code is
 * kubernetes-scheduler-simulator pkg/utils/frag.go, NodeGpuShareFragAmount):
 * the expected free GPU capacity that a task drawn from the workload's task
 * mix cannot use. For a task that a node cannot host at all, every free
 * GPU of the node counts; for one it can host, the free capacity of each GPU
 * beyond what the task could use there (a partly used GPU for a whole-GPU
 * task, MIG instances of another profile for a MIG task). The definition
 * and its choices are in docs/reports.md ("Fragmentation").
 *
 * The task mix is computed once per mode from the run's own pods; each
 * sample then costs one pass over the GPUs per distinct task shape.
 */
#include <string.h>

#include "measure-private.h"

/* ------------------------------------------------------------ the task mix */

static ScenarioTaskKind
resource_kind(const char *resource, guint replicas, const char **profile)
{
	*profile = NULL;
	if (g_str_has_prefix(resource, "nvidia.com/mig-")) {
		*profile = resource + strlen("nvidia.com/mig-");
		return SCENARIO_TASK_MIG;
	}
	return replicas > 1 ? SCENARIO_TASK_REPLICA : SCENARIO_TASK_WHOLE;
}

/* Which devices a DRA class selects, read from its CEL: the device type it pins, if any. */
static ScenarioTaskKind
class_kind(const Scenario *sc, const char *name)
{
	K8sObject *obj = k8s_object_set_lookup(sc->objects, K8S_KIND_DEVICE_CLASS, NULL, name);
	const K8sDeviceClass *c = obj != NULL ? k8s_object_as_device_class(obj) : NULL;
	const HwDeviceClass *hw = hw_nvidia_device_classes();
	gboolean gpu = FALSE, mig = FALSE;

	for (guint i = 0; c != NULL && i < c->spec.n_selectors; i++) {
		const char *e = c->spec.selectors[i].cel_expression;

		gpu |= e != NULL && (strstr(e, "type == \"gpu\"") || strstr(e, "type == 'gpu'"));
		mig |= e != NULL && (strstr(e, "type == \"mig\"") || strstr(e, "type == 'mig'"));
	}
	/* the driver's own classes, unless the manifests define one of that name */
	for (guint i = 0; c == NULL && hw[i].name != NULL; i++) {
		if (strcmp(hw[i].name, name) == 0) {
			gpu = strstr(hw[i].expression, "'gpu'") != NULL;
			mig = strstr(hw[i].expression, "'mig'") != NULL;
		}
	}
	return gpu ? SCENARIO_TASK_WHOLE : mig ? SCENARIO_TASK_MIG_ANY : SCENARIO_TASK_ANY;
}

/* Counts one pod of the shape; returns the shape's index in @tasks. */
static guint
count_task(GArray *tasks,
           GStringChunk *strings,
           const char *resource,
           gint64 count,
           guint replicas,
           const ScenarioTaskKind *kind)
{
	ScenarioTask t = { 0 };

	t.kind = resource_kind(resource, replicas, &t.profile);
	if (kind != NULL && t.kind == SCENARIO_TASK_WHOLE)
		t.kind = *kind;
	t.count = (guint)CLAMP(count, 1, 64);
	t.profile = t.profile != NULL ? g_string_chunk_insert_const(strings, t.profile) : NULL;
	for (guint i = 0; i < tasks->len; i++) {
		ScenarioTask *seen = &g_array_index(tasks, ScenarioTask, i);

		/* profiles are interned: pointer equality is string equality */
		if (seen->kind == t.kind && seen->profile == t.profile && seen->count == t.count) {
			seen->weight += 1.0;
			return i;
		}
	}
	t.weight = 1.0;
	g_array_append_val(tasks, t);
	return tasks->len - 1;
}

#define NO_CLAIM_GPU G_MAXUINT

/* The shape of a DRA pod's claims (NO_CLAIM_GPU: none). Pods of one manifest object
 * share its spec, so the translation runs once per object (@cache: lookups only). */
static guint
claim_task(const Scenario *sc,
           const ScenarioPod *pod,
           GArray *tasks,
           GStringChunk *strings,
           GHashTable *cache,
           ScenarioClaimShapeFunc shape)
{
	gpointer hit;
	g_autofree char *resource = NULL, *device_class = NULL;
	gint64 count = 0;
	guint index = NO_CLAIM_GPU;

	if (g_hash_table_lookup_extended(cache, pod->spec, NULL, &hit)) {
		index = GPOINTER_TO_UINT(hit);
		if (index != NO_CLAIM_GPU)
			g_array_index(tasks, ScenarioTask, index).weight += 1.0;
		return index;
	}
	shape(sc, pod, &resource, &count, &device_class);
	if (resource != NULL && count > 0) {
		ScenarioTaskKind kind = class_kind(sc, device_class);

		index = count_task(tasks, strings, resource, count, 1, &kind);
	}
	g_hash_table_insert(cache, (gpointer)pod->spec, GUINT_TO_POINTER(index));
	return index;
}

/* The pod's first nvidia.com/ request (the device plugin's resource, or KEP-5004's). */
static gboolean
request_of(const ClusterResources *requests,
           const ClusterResNames *names,
           const char **res,
           gint64 *n)
{
	for (gint slot = CLUSTER_RES_FIRST_SCALAR; requests != NULL && slot < CLUSTER_RES_MAX;
	     slot++) {
		const char *name = cluster_res_names_get(names, slot);

		if (requests->v[slot] > 0 && name != NULL &&
		    g_str_has_prefix(name, "nvidia.com/")) {
			*res = name;
			*n = requests->v[slot];
			return TRUE;
		}
	}
	return FALSE;
}

struct ScenarioTaskMix {
	GArray *tasks;
	GHashTable *cache; /* claim_task's */
	double total;
};

ScenarioTaskMix *
scenario_frag__mix_new(void)
{
	ScenarioTaskMix *mix = g_new0(ScenarioTaskMix, 1);

	mix->tasks = g_array_new(FALSE, TRUE, sizeof(ScenarioTask));
	mix->cache = g_hash_table_new(g_direct_hash, g_direct_equal);
	return mix;
}

void
scenario_frag__mix_add(ScenarioTaskMix *mix,
                       const Scenario *sc,
                       const ScenarioMode *mode,
                       const ScenarioPod *pod,
                       const ClusterResources *requests,
                       const ClusterResNames *names,
                       ScenarioClaimShapeFunc shape,
                       GStringChunk *strings)
{
	guint replicas = mode->world == SCENARIO_WORLD_EXTENDED ? MAX(mode->xr.replicas, 1) : 1;
	const char *res = NULL;
	gint64 count = 0;

	/* DRA world: what the pod's claims ask for, in the extended world's terms
	 * (the same translation the extended mode runs the pod with). */
	if (mode->world == SCENARIO_WORLD_DRA && pod->spec != NULL &&
	    claim_task(sc, pod, mix->tasks, strings, mix->cache, shape) != NO_CLAIM_GPU) {
		mix->total += 1.0;
		return;
	}
	if (request_of(requests, names, &res, &count)) {
		count_task(mix->tasks, strings, res, count, replicas, NULL);
		mix->total += 1.0;
	}
}

void
scenario_frag__mix_free(ScenarioTaskMix *mix)
{
	if (mix == NULL)
		return;
	g_array_unref(mix->tasks);
	g_hash_table_unref(mix->cache);
	g_free(mix);
}

GArray *
scenario_frag__mix_end(ScenarioTaskMix *mix)
{
	GArray *tasks = g_array_ref(mix->tasks);

	for (guint i = 0; i < tasks->len; i++)
		g_array_index(tasks, ScenarioTask, i).weight /= mix->total;
	scenario_frag__mix_free(mix);
	return tasks;
}

GArray *
scenario_frag__task_mix(const Scenario *sc,
                        const ScenarioMode *mode,
                        const ClusterSim *sim,
                        const ClusterResNames *names,
                        const GArray *pods,
                        ScenarioClaimShapeFunc shape,
                        GStringChunk *strings)
{
	ScenarioTaskMix *mix = scenario_frag__mix_new();
	guint n = MIN(cluster_sim_get_n_pods(sim), pods->len);

	for (guint i = 0; i < n; i++)
		scenario_frag__mix_add(mix, sc, mode, &g_array_index(pods, ScenarioPod, i),
		                       cluster_sim_get_pod_requests(sim, i), names, shape, strings);
	return scenario_frag__mix_end(mix);
}

/* ------------------------------------------------------------ one node */

/* NULL too for a GPU given as objects whose product is not in the catalog (no model) */
static const HwMigProfile *
profile_of(const HwGpuModel *model, const char *name)
{
	for (guint i = 0; model != NULL && model->mig != NULL && i < model->mig->profiles->len;
	     i++) {
		const HwMigProfile *p = model->mig->profiles->pdata[i];

		if (strcmp(p->name, name) == 0)
			return p;
	}
	return NULL;
}

/* Instances of @p that DynamicMIG could still create: lowest free valid starts first
 * (for equal sizes the earliest start leaves the most room), within the compute slices. */
static guint
dynamic_fit(const ScenarioGpuState *s, const HwMigProfile *p)
{
	guint32 mask = s->used_mask;
	guint compute = s->used_compute, n = 0;
	guint slices = s->model->mig->compute_slices;

	for (guint i = 0; i < p->n_starts; i++) {
		guint32 want = ((1u << p->size) - 1u) << p->starts[i];

		if ((mask & want) != 0 || compute + p->compute_slices > slices)
			continue;
		mask |= want;
		compute += p->compute_slices;
		n++;
		if (p->max_count > 0 && n >= p->max_count)
			break;
	}
	return n;
}

/* The smallest MIG profile of the GPU (what "any MIG device" can still get). */
static const HwMigProfile *
smallest_profile(const HwGpuModel *model)
{
	const HwMigProfile *best = NULL;

	for (guint i = 0; model->mig != NULL && i < model->mig->profiles->len; i++) {
		const HwMigProfile *p = model->mig->profiles->pdata[i];

		if (!p->media_extensions &&
		    (best == NULL || p->compute_slices < best->compute_slices))
			best = p;
	}
	return best;
}

/* Any MIG instance: the free ones (static), or the smallest profile's room (DynamicMIG). */
static guint
any_mig(const ScenarioGpuState *s, double *usable)
{
	guint slices = s->model->mig->compute_slices, n = 0, compute = 0;

	if (s->dynamic) {
		const HwMigProfile *p = smallest_profile(s->model);

		n = p != NULL ? dynamic_fit(s, p) : 0;
		compute = p != NULL ? n * p->compute_slices : 0;
	} else {
		for (guint i = 0; i < s->n_free; i++) {
			const HwMigProfile *p = profile_of(s->model, s->free_profiles[i]);

			compute += p != NULL ? p->compute_slices : 0;
			n++;
		}
	}
	*usable = (double)compute / slices;
	return n;
}

/*
 * Devices of @t that GPU @s offers now (a multi-device pod needs that many
 * distinct devices, except replicas: the device plugin may give one pod
 * several replicas of one GPU, so each free replica counts), and in *@usable
 * the part of its free capacity (GPUs) that tasks of that shape could fill.
 */
static guint
units(const ScenarioGpuState *s, const ScenarioTask *t, double *usable)
{
	const HwMigProfile *p;
	guint n = 0;

	*usable = 0.0;
	if (s->unusable)
		return 0;
	switch (t->kind) {
	case SCENARIO_TASK_WHOLE:
		if (s->mig || s->full_busy || s->used_compute > 0)
			return 0;
		*usable = 1.0;
		return 1;
	case SCENARIO_TASK_REPLICA:
		if (s->mig || s->dynamic || s->replicas <= 1 || s->tenants >= s->replicas)
			return 0;
		*usable = 1.0 - s->used;
		return s->replicas - s->tenants;
	case SCENARIO_TASK_MIG:
		p = profile_of(s->model, t->profile);
		if (p == NULL || !(s->mig || s->dynamic) || s->full_busy)
			return 0;
		if (s->dynamic) {
			n = dynamic_fit(s, p);
		} else {
			for (guint i = 0; i < s->n_free; i++)
				n += s->free_profiles[i] == t->profile ||
				     strcmp(s->free_profiles[i], t->profile) == 0;
		}
		*usable = (double)(n * p->compute_slices) / s->model->mig->compute_slices;
		return n;
	case SCENARIO_TASK_ANY:
		if (!s->mig && !s->full_busy && s->used_compute == 0) {
			*usable = 1.0; /* a whole free GPU */
			return 1;
		}
		/* a partitioned GPU offers its MIG instances */
		G_GNUC_FALLTHROUGH;
	case SCENARIO_TASK_MIG_ANY:
		if (!(s->mig || s->dynamic) || s->full_busy)
			return 0;
		return any_mig(s, usable);
	}
	return 0;
}

double
scenario_frag__node(const ScenarioGpuState *gpus, guint n, const GArray *tasks)
{
	double free_total = 0.0, frag = 0.0;

	for (guint g = 0; g < n; g++)
		free_total += 1.0 - gpus[g].used;
	if (free_total <= 0.0)
		return 0.0;
	for (guint i = 0; i < tasks->len; i++) {
		const ScenarioTask *t = &g_array_index(tasks, ScenarioTask, i);
		double usable = 0.0;
		guint offered = 0;

		for (guint g = 0; g < n; g++) {
			double u;

			offered += units(&gpus[g], t, &u);
			usable += u;
		}
		/* FGD: a node that cannot host the task wastes all its free GPU for it */
		frag += t->weight * (offered >= t->count ? free_total - usable : free_total);
	}
	return frag;
}
