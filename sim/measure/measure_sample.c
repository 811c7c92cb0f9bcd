/*
 * measure_sample.c: what one run samples at each sampling tick besides the
 * pending pods: per physical GPU, the fraction occupied (a MIG instance
 * counts its compute slices, a device-plugin replica 1/replicas); per node,
 * the busy GPUs (the heat map, first SCENARIO_SAMPLE_MAX_NODES nodes); the
 * cluster's FGD fragmentation (measure_frag.c); and, at the sample where
 * occupancy peaks, pictures of the most-shared MIG or shared GPUs. At the
 * end it names each pod's devices. Each tick walks every device of the
 * nodes that may have changed once and allocates nothing except on a new
 * occupancy peak (the pictures).
 *
 * A node whose occupancy cannot have changed since the last tick is not
 * read again: its figures (node_busy, node_frag) are reused. In a run, the
 * simulation logs the nodes whose tenants, devices or cordon changed
 * (cluster_sim_log_node_changes) and a tick reads only those, so a tick
 * costs the changed nodes plus one pass over two flat arrays of doubles
 * (the sums, in node order as ever, so the figures do not move), and
 * nothing per node when none changed: 10,000 nodes whose pods all left
 * stay unvisited for the rest of the run. Without the log (a sampler
 * used alone) a tick checks each node: the simulation's generation of the
 * node (bumped by every tenant change and reconfiguration), its cordon and
 * its GPUs' MIG modes. Building with -DSCENARIO_SAMPLE_NO_REUSE reads every
 * node at every tick (the reference the reuse must match byte for byte).
 *
 * The device table of a node mirrors node_devices() in sim/world: the
 * same hw_publish_nvidia() output in the same order, so a device index of
 * the simulation is an index here. A node whose devices change under the
 * simulation (a MIG reconfiguration) is re-read from its HwNode. A node
 * given as objects has no HwNode: sim/world names each device's GPU
 * (measure_sample_objects.c), and its devices never change.
 */
#include <math.h>
#include <string.h>

#include "cluster_sim.h"
#include "measure_sample-private.h"

#ifdef SCENARIO_SAMPLE_NO_REUSE
#define SAMPLE_REUSE FALSE
#else
#define SAMPLE_REUSE TRUE
#endif

static void
sample_node_free(gpointer data)
{
	SampleNode *n = data;

	g_array_unref(n->devs);
	g_free(n->info);
	g_free(n->gpus);
	if (n->busy != NULL)
		g_array_unref(n->busy);
	g_free(n);
}

ScenarioSampler *
scenario_sample__new(const Scenario *sc,
                     const ScenarioMode *mode,
                     const ClusterSim *sim,
                     const ClusterResNames *names,
                     const GArray *pods,
                     ScenarioClaimShapeFunc shape)
{
	ScenarioSampler *self = g_new0(ScenarioSampler, 1);

	self->sc = sc;
	self->mode = mode;
	self->sim = sim;
	self->names = names;
	self->pods = pods;
	self->shape = shape;
	self->strings = g_string_chunk_new(4096);
	self->nodes = g_ptr_array_new_with_free_func(sample_node_free);
	self->node_busy = g_array_new(FALSE, TRUE, sizeof(double));
	self->node_frag = g_array_new(FALSE, TRUE, sizeof(double));
	self->changed = g_array_new(FALSE, FALSE, sizeof(guint));
	self->frag = g_array_new(FALSE, FALSE, sizeof(double));
	self->occupancy = g_array_new(FALSE, FALSE, sizeof(double));
	self->pictures = g_ptr_array_new_with_free_func(scenario_sample__picture_free);
	self->replicas = 1;
	if (mode->world == SCENARIO_WORLD_EXTENDED && mode->xr.replicas > 1)
		self->replicas = mode->xr.replicas;
	self->peak = 0.0;
	return self;
}

void
scenario_sample__free(ScenarioSampler *self)
{
	if (self == NULL)
		return;
	g_ptr_array_unref(self->nodes);
	g_array_unref(self->node_busy);
	g_array_unref(self->node_frag);
	g_array_unref(self->changed);
	if (self->tasks != NULL)
		g_array_unref(self->tasks);
	scenario_frag__mix_free(self->mix);
	g_array_unref(self->frag);
	g_array_unref(self->occupancy);
	g_ptr_array_unref(self->pictures);
	if (self->pod_devices != NULL)
		g_ptr_array_unref(self->pod_devices);
	g_string_chunk_free(self->strings);
	g_free(self);
}

/* ------------------------------------------------------------ device table */

/* The first memory slice a MIG device occupies: memorySliceN capacities (static) or
 * memory-slice-N counters it consumes (DynamicMIG). */
static guint
mig_start(const HwDevice *dev)
{
	guint start = G_MAXUINT;

	for (guint i = 0; i < dev->capacity->len; i++) {
		const HwQty *q = &g_array_index(dev->capacity, HwQty, i);

		if (g_str_has_prefix(q->name, "memorySlice"))
			start = MIN(start, (guint)g_ascii_strtoull(q->name + 11, NULL, 10));
	}
	for (guint c = 0; c < dev->consumes->len; c++) {
		const HwConsumption *cons = &g_array_index(dev->consumes, HwConsumption, c);

		for (guint i = 0; i < cons->counters->len; i++) {
			const HwQty *q = &g_array_index(cons->counters, HwQty, i);

			if (g_str_has_prefix(q->name, "memory-slice-"))
				start = MIN(start, (guint)g_ascii_strtoull(q->name + 13, NULL, 10));
		}
	}
	return start == G_MAXUINT ? 0 : start;
}

static guint
gpu_of(const HwNode *hw, const char *uuid)
{
	for (guint g = 0; uuid != NULL && g < hw->gpus->len; g++) {
		if (strcmp(((const HwGpu *)hw->gpus->pdata[g])->uuid, uuid) == 0)
			return g;
	}
	return 0;
}

static const HwMigProfile *
find_profile(const HwGpuModel *model, const char *name)
{
	for (guint i = 0; model->mig != NULL && name != NULL && i < model->mig->profiles->len;
	     i++) {
		const HwMigProfile *p = model->mig->profiles->pdata[i];

		if (strcmp(p->name, name) == 0)
			return p;
	}
	return NULL;
}

static void
add_device(ScenarioSampler *self, SampleNode *n, const HwDevice *dev)
{
	const HwAttr *type = hw_device_lookup_attr(dev, "type");
	const HwAttr *uuid = hw_device_lookup_attr(dev, "uuid");
	const HwAttr *parent = hw_device_lookup_attr(dev, "parentUUID");
	const HwAttr *profile = hw_device_lookup_attr(dev, "profile");
	SampleDev d = { 0 };

	d.mig = type != NULL && g_strcmp0(type->str, "mig") == 0;
	d.gpu = gpu_of(n->hw, d.mig ? (parent ? parent->str : NULL) : (uuid ? uuid->str : NULL));
	d.minor = d.gpu < n->hw->gpus->len ? ((const HwGpu *)n->hw->gpus->pdata[d.gpu])->minor
	                                   : d.gpu;
	d.capacity = 1.0;
	if (d.mig && profile != NULL) {
		const HwGpu *gpu = n->hw->gpus->pdata[d.gpu];
		const HwMigProfile *p = find_profile(gpu->model, profile->str);

		d.profile = g_string_chunk_insert_const(self->strings, profile->str);
		d.start = mig_start(dev);
		d.size = p != NULL ? p->size : 1;
		d.compute = p != NULL ? p->compute_slices : 1;
	}
	g_array_append_val(n->devs, d);
}

/* Fills the node's device table from @slices, its hw_publish_nvidia() output. */
static void
fill_devices(ScenarioSampler *self, SampleNode *n, guint index, const GPtrArray *slices)
{
	guint n_sim = cluster_sim_get_node_n_devices(self->sim, index);

	g_array_set_size(n->devs, 0);
	for (guint s = 0; s < slices->len; s++) {
		const HwSlice *slice = slices->pdata[s];

		for (guint i = 0; i < slice->devices->len; i++)
			add_device(self, n, slice->devices->pdata[i]);
	}
	for (guint d = 0; d < MIN(n_sim, n->devs->len); d++)
		g_array_index(n->devs, SampleDev, d).capacity =
		        cluster_sim_get_device(self->sim, index, d)->capacity;
}

/* Re-reads the node's devices from its hardware, as node_devices() publishes them. */
static void
read_devices(ScenarioSampler *self, SampleNode *n, guint index)
{
	g_autoptr(GPtrArray) slices = hw_publish_nvidia(n->hw, &n->opts);

	fill_devices(self, n, index, slices);
}

SampleNode *
scenario_sample__node_new(ScenarioSampler *self, const char *name, guint n_gpus)
{
	SampleNode *n = g_new0(SampleNode, 1);

	n->name = g_string_chunk_insert_const(self->strings, name);
	n->devs = g_array_new(FALSE, TRUE, sizeof(SampleDev));
	n->n_gpus = n_gpus;
	n->info = g_new0(SampleGpu, MAX(n_gpus, 1));
	n->gpus = g_new0(ScenarioGpuState, MAX(n_gpus, 1));
	if (self->nodes->len < SCENARIO_SAMPLE_MAX_NODES)
		n->busy = g_array_new(FALSE, FALSE, sizeof(double));
	g_ptr_array_add(self->nodes, n);
	g_array_set_size(self->node_busy, self->nodes->len);
	g_array_set_size(self->node_frag, self->nodes->len);
	self->total_gpus += n_gpus;
	return n;
}

void
scenario_sample__add_node(ScenarioSampler *self,
                          const HwNode *node,
                          const HwPublishOptions *opts,
                          const GPtrArray *slices)
{
	SampleNode *n = scenario_sample__node_new(self, node->name, node->gpus->len);

	n->hw = node;
	n->opts = *opts;
	for (guint g = 0; g < n->n_gpus; g++) {
		const HwGpu *gpu = node->gpus->pdata[g];

		n->info[g] = (SampleGpu){ gpu->model, gpu->model->product_name, gpu->minor, FALSE };
		n->watch_mig |= gpu->model->mig != NULL && !opts->dynamic_mig;
	}
	fill_devices(self, n, self->nodes->len - 1, slices);
}

/* A reconfiguration installed other devices: the counts or capacities differ. */
static gboolean
devices_changed(const ScenarioSampler *self, const SampleNode *n, guint index)
{
	guint n_sim = cluster_sim_get_node_n_devices(self->sim, index);

	if (n_sim != n->devs->len)
		return TRUE;
	for (guint d = 0; d < n_sim; d++) {
		if (fabs(cluster_sim_get_device(self->sim, index, d)->capacity -
		         g_array_index(n->devs, SampleDev, d).capacity) > 1e-9)
			return TRUE;
	}
	return FALSE;
}

/* ------------------------------------------------------------ one tick */

static void
reset_gpus(const ScenarioSampler *self, SampleNode *n, gboolean cordoned)
{
	for (guint g = 0; g < n->n_gpus; g++) {
		const SampleGpu *info = &n->info[g];
		ScenarioGpuState *s = &n->gpus[g];

		*s = (ScenarioGpuState){ .model = info->model, .unusable = cordoned };
		/* a node given as objects: its MIG devices as published (never DynamicMIG) */
		s->dynamic = !n->objects && n->opts.dynamic_mig && info->model->mig != NULL;
		s->mig = n->objects ? info->mig
		                    : !s->dynamic &&
		                              ((const HwGpu *)n->hw->gpus->pdata[g])->mig_mode ==
		                                      HW_MIG_MODE_ON;
		s->replicas = s->mig ? 1 : self->replicas;
	}
}

static void
account_device(ScenarioGpuState *s, const SampleDev *d, const ClusterDevice *cd, guint tenants)
{
	s->pods += tenants;
	if (d->mig) {
		if (tenants > 0) {
			s->used_compute += d->compute;
			s->used_mask |= ((1u << d->size) - 1u) << d->start;
		} else if (!s->dynamic && s->n_free < G_N_ELEMENTS(s->free_profiles)) {
			s->free_profiles[s->n_free++] = d->profile;
		}
		return;
	}
	if (tenants > 0) {
		s->full_busy = TRUE;
		s->tenants = tenants;
		/* several tenants of an exclusive device: a shared claim, time-sliced */
		s->shared = cd->mode != CLUSTER_SHARE_EXCLUSIVE || tenants > 1;
	}
}

static double
gpu_used(const ScenarioGpuState *s)
{
	guint slices =
	        s->model != NULL && s->model->mig != NULL ? s->model->mig->compute_slices : 1;

	if (s->full_busy)
		return s->replicas > 1 ? MIN(1.0, (double)s->tenants / s->replicas) : 1.0;
	if (s->mig || s->dynamic)
		return MIN(1.0, (double)s->used_compute / slices);
	return 0.0;
}

/* Fills the node's GPU states from the simulation; returns its busy GPUs. */
static double
read_node(ScenarioSampler *self, SampleNode *n, guint index)
{
	const ClusterNode *cn = cluster_sim_get_node(self->sim, index);
	double busy = 0.0;
	guint n_dev;

	/* nodes given as objects are never reconfigured (mig-reconfigure cannot name them) */
	if (!n->objects && devices_changed(self, n, index))
		read_devices(self, n, index);
	reset_gpus(self, n, cn->unschedulable);
	n_dev = MIN(n->devs->len, cluster_sim_get_node_n_devices(self->sim, index));
	for (guint d = 0; d < n_dev; d++) {
		const SampleDev *sd = &g_array_index(n->devs, SampleDev, d);
		guint tenants = 0;

		cluster_sim_get_device_tenants(self->sim, index, d, &tenants);
		if (sd->gpu < n->n_gpus)
			account_device(&n->gpus[sd->gpu], sd,
			               cluster_sim_get_device(self->sim, index, d), tenants);
	}
	for (guint g = 0; g < n->n_gpus; g++) {
		n->gpus[g].used = gpu_used(&n->gpus[g]);
		busy += n->gpus[g].used;
	}
	return busy;
}

/* Nothing the last read_node() saw can have changed: same generation, cordon and MIG modes. */
static gboolean
node_unchanged(const ScenarioSampler *self, const SampleNode *n, guint index)
{
	if (!SAMPLE_REUSE || !n->read_once ||
	    cluster_sim_get_node_generation(self->sim, index) != n->generation ||
	    cluster_sim_get_node(self->sim, index)->unschedulable != n->cordoned)
		return FALSE;
	/*
	 * A MIG reconfiguration (world_events.c) changes the HwNode that
	 * reset_gpus() reads; it also bumps the generation, unless it fails
	 * half-way. GPUs without MIG (hw_gpu_plan_reconfigure refuses them) and
	 * DynamicMIG ones (never static MIG here) cannot change.
	 */
	for (guint g = 0; n->watch_mig && g < n->n_gpus; g++) {
		const HwGpu *gpu = n->hw->gpus->pdata[g];

		if (n->gpus[g].mig != (!n->gpus[g].dynamic && gpu->mig_mode == HW_MIG_MODE_ON))
			return FALSE;
	}
	return TRUE;
}

/* Reads the node's busy GPUs and fragmentation now into node_busy and node_frag. */
static void
read_and_keep(ScenarioSampler *self, SampleNode *n, guint index)
{
	n->read_once = TRUE;
	n->generation = cluster_sim_get_node_generation(self->sim, index);
	n->cordoned = cluster_sim_get_node(self->sim, index)->unschedulable;
	g_array_index(self->node_busy, double, index) = read_node(self, n, index);
	g_array_index(self->node_frag, double, index) =
	        scenario_frag__node(n->gpus, n->n_gpus, self->tasks);
	self->nodes_read++;
}

/* Every node that may have changed, found by checking each; returns whether any was read. */
static gboolean
check_every_node(ScenarioSampler *self)
{
	gboolean any = FALSE;

	for (guint i = 0; i < self->nodes->len; i++) {
		SampleNode *n = self->nodes->pdata[i];

		if (node_unchanged(self, n, i))
			continue;
		read_and_keep(self, n, i);
		any = TRUE;
	}
	return any;
}

/*
 * The nodes the simulation logged since the last tick; returns whether any
 * was read. The first tick reads every node (the log starts empty and the
 * task mix the fragmentation needs exists from then on).
 */
static gboolean
read_logged_nodes(ScenarioSampler *self, gboolean first)
{
	g_array_set_size(self->changed, 0);
	cluster_sim_take_node_changes(self->changes, self->changed);
	if (first)
		return check_every_node(self);
	for (guint k = 0; k < self->changed->len; k++) {
		guint i = g_array_index(self->changed, guint, k);

		/* the simulation's nodes past the sampler's are not sampled */
		if (i < self->nodes->len)
			read_and_keep(self, self->nodes->pdata[i], i);
	}
	return self->changed->len > 0;
}

/* The busy GPUs and fragmentation over all nodes: a left fold in node order, as ever. */
static void
sum_nodes(ScenarioSampler *self)
{
	const double *busy = (const double *)(void *)self->node_busy->data;
	const double *frag = (const double *)(void *)self->node_frag->data;
	double busy_total = 0.0, frag_total = 0.0;

	for (guint i = 0; i < self->nodes->len; i++) {
		busy_total += busy[i];
		frag_total += frag[i];
	}
	self->busy_total = busy_total;
	self->frag_total = frag_total;
}

void
scenario_sample__add_pod_task(ScenarioSampler *self, guint index)
{
	if (self->tasks != NULL || index >= self->pods->len)
		return;
	if (self->mix == NULL)
		self->mix = scenario_frag__mix_new();
	scenario_frag__mix_add(self->mix, self->sc, self->mode,
	                       &g_array_index(self->pods, ScenarioPod, index),
	                       cluster_sim_get_pod_requests(self->sim, index), self->names,
	                       self->shape, self->strings);
}

void
scenario_sample__follow_changes(ScenarioSampler *self, ClusterSim *sim)
{
	if (!SAMPLE_REUSE)
		return; /* the reference checks every node at every tick */
	cluster_sim_log_node_changes(sim);
	self->changes = sim;
}

/* Reads what changed and sums it; an unchanged cluster costs no visit to any node. */
static void
refresh_totals(ScenarioSampler *self)
{
	gboolean first = self->tasks == NULL;
	gboolean any;

	if (self->tasks == NULL && self->mix != NULL)
		self->tasks = scenario_frag__mix_end(g_steal_pointer(&self->mix));
	else if (self->tasks == NULL)
		self->tasks = scenario_frag__task_mix(self->sc, self->mode, self->sim, self->names,
		                                      self->pods, self->shape, self->strings);
	any = self->changes != NULL ? read_logged_nodes(self, first) : check_every_node(self);
	if (any || first)
		sum_nodes(self);
}

void
scenario_sample__tick(ScenarioSampler *self, SimTime now)
{
	double frag, busy_total;
	guint rows = MIN(self->nodes->len, SCENARIO_SAMPLE_MAX_NODES);

	refresh_totals(self);
	for (guint i = 0; i < rows; i++) {
		SampleNode *n = self->nodes->pdata[i];

		g_array_append_val(n->busy, g_array_index(self->node_busy, double, i));
	}
	frag = !self->partial && self->total_gpus > 0 && self->tasks->len > 0
	               ? self->frag_total / self->total_gpus
	               : (double)NAN;
	g_array_append_val(self->frag, frag);
	busy_total = self->total_gpus > 0 ? self->busy_total / self->total_gpus : 0.0;
	g_array_append_val(self->occupancy, busy_total);
	if (busy_total > self->peak) {
		self->peak = busy_total;
		scenario_sample__take_pictures(self, now);
	}
}

guint64
scenario_sample__get_nodes_read(const ScenarioSampler *self)
{
	return self->nodes_read;
}

/* ------------------------------------------------------------ the end */

/*
 * One stable id per physical device, the same in every mode so placements
 * join across modes (docs/reports.md): "gpu:<node>/gpu-<minor>" for a full
 * GPU, "mig:<node>/gpu-<minor>/mig-<profile>-<start>" for a MIG instance
 * (its profile and placement start), whatever the DRA device name or the
 * device plugin's UUID.
 */
static void
append_device_id(GString *out, const SampleNode *sn, const SampleDev *d)
{
	if (out->len > 0)
		g_string_append_c(out, ',');
	if (d->mig)
		g_string_append_printf(out, "mig:%s/gpu-%u/mig-%s-%u", sn->name, d->minor,
		                       d->profile != NULL ? d->profile : "unknown", d->start);
	else
		g_string_append_printf(out, "gpu:%s/gpu-%u", sn->name, d->minor);
}

gboolean
scenario_sample__append_device_id(const ScenarioSampler *self,
                                  const char *node,
                                  guint dev,
                                  GString *out)
{
	/* explain only: a scan of the nodes per start is cheap beside its run */
	for (guint i = 0; self != NULL && node != NULL && i < self->nodes->len; i++) {
		const SampleNode *sn = self->nodes->pdata[i];

		if (strcmp(sn->name, node) == 0 && dev < sn->devs->len) {
			append_device_id(out, sn, &g_array_index(sn->devs, SampleDev, dev));
			return TRUE;
		}
	}
	return FALSE;
}

/*
 * The compute devices of the pod's last bind (a device-plugin replica once per
 * replica held), built in @scratch and interned: pods that ran on the same
 * devices share one copy (issue 19, item 2: one string a pod was 127 bytes,
 * 250 MB at 2,000,000 pods, against 80,000 distinct lists on 10,000 nodes).
 */
static const char *
pod_devices(ScenarioSampler *self, guint pod, GString *scratch)
{
	guint n = 0;
	const guint *devs = cluster_sim_get_pod_devices(self->sim, pod, &n);
	guint node = cluster_sim_get_pod_node_index(self->sim, pod);
	const SampleNode *sn = node < self->nodes->len ? self->nodes->pdata[node] : NULL;

	if (n == 0 || sn == NULL)
		return NULL;
	g_string_truncate(scratch, 0);
	for (guint i = 0; i < n; i++) {
		if (devs[i] < sn->devs->len)
			append_device_id(scratch, sn, &g_array_index(sn->devs, SampleDev, devs[i]));
	}
	return scratch->len > 0 ? g_string_chunk_insert_const(self->strings, scratch->str) : NULL;
}

void
scenario_sample__add_pod_device(ScenarioSampler *self, guint pod, const char *kind, const char *id)
{
	const char *old;
	g_autofree char *joined = NULL;

	if (self->pod_devices == NULL || pod >= self->pod_devices->len)
		return;
	old = self->pod_devices->pdata[pod];
	joined = old != NULL ? g_strdup_printf("%s,%s:%s", old, kind, id)
	                     : g_strdup_printf("%s:%s", kind, id);
	self->pod_devices->pdata[pod] = g_string_chunk_insert_const(self->strings, joined);
}

void
scenario_sample__finish(ScenarioSampler *self)
{
	guint n = MIN(cluster_sim_get_n_pods(self->sim), self->pods->len);
	g_autoptr(GString) scratch = g_string_new(NULL);

	/* the strings live in self->strings */
	self->pod_devices = g_ptr_array_new_full(n, NULL);
	for (guint i = 0; i < n; i++)
		g_ptr_array_add(self->pod_devices, (gpointer)pod_devices(self, i, scratch));
	for (guint i = 0; i < self->nodes->len; i++)
		((SampleNode *)self->nodes->pdata[i])->hw = NULL;
	self->sim = NULL;
	self->changes = NULL;
	self->names = NULL;
	self->pods = NULL;
}

/* ------------------------------------------------------------ the report */

const char *
scenario_sample__get_pod_devices(const ScenarioSampler *self, guint pod)
{
	if (self == NULL || self->pod_devices == NULL || pod >= self->pod_devices->len)
		return NULL;
	return self->pod_devices->pdata[pod];
}

double
scenario_sample__get_fragmentation_mean(const ScenarioSampler *self)
{
	double sum = 0.0;
	guint n = 0;

	for (guint i = 0; self != NULL && i < self->frag->len; i++) {
		double v = g_array_index(self->frag, double, i);

		if (isfinite(v)) {
			sum += v;
			n++;
		}
	}
	return n > 0 ? sum / n : (double)NAN;
}

const GArray *
scenario_sample__get_occupancy(const ScenarioSampler *self)
{
	return self != NULL ? self->occupancy : NULL;
}

static void
fill_fragmentation(const ScenarioSampler *self, RptMode *mode)
{
	RptSeries *series = rpt_mode_add_series(mode, RPT_S_FRAGMENTATION, "ratio");

	for (guint i = 0; i < self->frag->len; i++)
		rpt_series_append(series, g_array_index(self->frag, double, i));
}

static void
fill_heatmap(const ScenarioSampler *self, RptMode *mode)
{
	guint rows = MIN(self->nodes->len, SCENARIO_SAMPLE_MAX_NODES);
	g_autofree char *what = rows < self->nodes->len
	                                ? g_strdup_printf("first %u of %u nodes (pool order)", rows,
	                                                  self->nodes->len)
	                                : g_strdup_printf("all %u nodes", rows);

	rpt_mode_set_info(mode, "heatmap_nodes", what);
	for (guint i = 0; i < rows; i++) {
		const SampleNode *n = self->nodes->pdata[i];
		RptSeries *row = rpt_mode_add_node(mode, n->name, n->n_gpus);

		for (guint s = 0; s < n->busy->len; s++)
			rpt_series_append(row, g_array_index(n->busy, double, s));
	}
}

/* The fragmentation series, the heat map and the pictures. */
void
scenario_sample__fill_report(const ScenarioSampler *self, RptMode *mode)
{
	if (self == NULL)
		return;
	fill_fragmentation(self, mode);
	fill_heatmap(self, mode);
	scenario_sample__fill_pictures(self, mode);
}
