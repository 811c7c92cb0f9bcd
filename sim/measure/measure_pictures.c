/*
 * measure_pictures.c: at the sample where GPU occupancy peaks, pictures of
 * the most-shared GPUs (MIG instances with their memory slices, replicas or
 * time-sliced tenants of a full GPU), for the report's GPU slices
 * (docs/reports.md). Allocates only on a new peak.
 */
#include <string.h>

#include "measure_sample-private.h"

static void
pic_slice_clear(gpointer data)
{
	PicSlice *s = data;

	g_free(s->profile);
	g_free(s->pod);
}

void
scenario_sample__picture_free(gpointer data)
{
	Picture *p = data;

	g_free(p->node);
	g_free(p->device);
	g_free(p->model);
	g_free(p->sharing);
	g_array_unref(p->slices);
	g_free(p);
}

static gboolean
pictured(const ScenarioGpuState *s)
{
	return s->pods > 0 && (s->mig || s->dynamic || s->replicas > 1 || s->shared);
}

/* The most-shared GPUs now (most pods, then node and GPU order), best first. */
static guint
choose(const ScenarioSampler *self, Candidate *best)
{
	guint n_best = 0;

	for (guint i = 0; i < self->nodes->len; i++) {
		const SampleNode *n = self->nodes->pdata[i];

		for (guint g = 0; g < n->n_gpus; g++) {
			Candidate c = { i, g, n->gpus[g].pods };
			guint at = n_best;

			if (!pictured(&n->gpus[g]))
				continue;
			while (at > 0 && best[at - 1].pods < c.pods)
				at--;
			if (at >= SCENARIO_SAMPLE_MAX_PICTURES)
				continue;
			n_best = MIN(n_best + 1, SCENARIO_SAMPLE_MAX_PICTURES);
			memmove(&best[at + 1], &best[at], (n_best - 1 - at) * sizeof(Candidate));
			best[at] = c;
		}
	}
	return n_best;
}

static void
add_slice(Picture *p, const char *profile, guint start, guint size, const char *pod)
{
	PicSlice s = { g_strdup(profile), start, size, g_strdup(pod) };

	g_array_append_val(p->slices, s);
}

static const char *
pod_name(const ScenarioSampler *self, guint pod)
{
	return pod < self->pods->len ? g_array_index(self->pods, ScenarioPod, pod).name : "?";
}

/* Instances in use (and free ones) on a MIG GPU; free memory slices under DynamicMIG. */
static void
picture_mig(const ScenarioSampler *self, Picture *p, const SampleNode *n, guint index, guint g)
{
	const ScenarioGpuState *s = &n->gpus[g];
	guint n_dev = MIN(n->devs->len, cluster_sim_get_node_n_devices(self->sim, index));
	guint slices = s->model->mig->memory_slices;

	p->sharing = g_strdup("mig");
	p->units = slices;
	for (guint d = 0; d < n_dev; d++) {
		const SampleDev *sd = &g_array_index(n->devs, SampleDev, d);
		guint k = 0;
		const guint *t = cluster_sim_get_device_tenants(self->sim, index, d, &k);

		if (sd->gpu != g)
			continue;
		for (guint i = 0; i < k; i++)
			add_slice(p, sd->mig ? sd->profile : "gpu", sd->mig ? sd->start : 0,
			          sd->mig ? sd->size : slices, pod_name(self, t[i]));
		if (k == 0 && sd->mig && !s->dynamic)
			add_slice(p, sd->profile, sd->start, sd->size, NULL);
	}
	for (guint a = 0; s->dynamic && !s->full_busy && a < slices;) {
		guint b = a;

		while (b < slices && !(s->used_mask & (1u << b)))
			b++;
		if (b > a)
			add_slice(p, "free", a, b - a, NULL);
		a = b + 1;
	}
}

/* Tenants of a shared full GPU: a replica each (device plugin), or overlapping time slices. */
static void
picture_shared(const ScenarioSampler *self, Picture *p, const SampleNode *n, guint index, guint g)
{
	const ScenarioGpuState *s = &n->gpus[g];
	guint n_dev = MIN(n->devs->len, cluster_sim_get_node_n_devices(self->sim, index));

	for (guint d = 0; d < n_dev; d++) {
		const SampleDev *sd = &g_array_index(n->devs, SampleDev, d);
		const ClusterDevice *cd = cluster_sim_get_device(self->sim, index, d);
		guint k = 0;
		const guint *t = cluster_sim_get_device_tenants(self->sim, index, d, &k);

		if (sd->gpu != g || sd->mig)
			continue;
		/* the run model time-slices an exclusive device's several tenants */
		p->sharing =
		        g_strdup(cd->mode == CLUSTER_SHARE_MPS                   ? "mps"
		                 : cd->mode == CLUSTER_SHARE_TIME_SLICE || k > 1 ? "time-slicing"
		                                                                 : "exclusive");
		p->units = 100;
		for (guint i = 0; i < MAX(k, s->replicas); i++) {
			g_autofree char *label = g_strdup_printf("replica %u", i);

			if (s->replicas <= 1)
				add_slice(p, p->sharing, 0, 100, pod_name(self, t[i]));
			else if (i < s->replicas)
				add_slice(p, label, i * 100 / s->replicas, 100 / s->replicas,
				          i < k ? pod_name(self, t[i]) : NULL);
		}
		return;
	}
}

void
scenario_sample__take_pictures(ScenarioSampler *self, SimTime now)
{
	Candidate best[SCENARIO_SAMPLE_MAX_PICTURES];
	guint n_best = choose(self, best);

	g_ptr_array_set_size(self->pictures, 0);
	for (guint i = 0; i < n_best; i++) {
		const SampleNode *n = self->nodes->pdata[best[i].node];
		const SampleGpu *gpu = &n->info[best[i].gpu];
		Picture *p = g_new0(Picture, 1);

		p->node = g_strdup(n->name);
		p->device = g_strdup_printf("gpu-%u", gpu->minor);
		p->model = g_strdup(gpu->product != NULL ? gpu->product : "unknown");
		p->at = now;
		p->slices = g_array_new(FALSE, TRUE, sizeof(PicSlice));
		g_array_set_clear_func(p->slices, pic_slice_clear);
		if (n->gpus[best[i].gpu].mig || n->gpus[best[i].gpu].dynamic)
			picture_mig(self, p, n, best[i].node, best[i].gpu);
		else
			picture_shared(self, p, n, best[i].node, best[i].gpu);
		if (p->sharing == NULL)
			p->sharing = g_strdup("exclusive");
		g_ptr_array_add(self->pictures, p);
	}
}

void
scenario_sample__fill_pictures(const ScenarioSampler *self, RptMode *mode)
{
	for (guint i = 0; i < self->pictures->len; i++) {
		const Picture *p = self->pictures->pdata[i];
		RptGpu *gpu = rpt_mode_add_gpu(mode, p->node, p->device, p->model, p->sharing,
		                               p->units, p->at);

		for (guint s = 0; s < p->slices->len; s++) {
			const PicSlice *slice = &g_array_index(p->slices, PicSlice, s);

			rpt_gpu_add_slice(gpu, slice->profile, slice->start, slice->size,
			                  slice->pod);
		}
	}
}
