/*
 * measure_sample_objects.c: the sampler's nodes given as objects
 * (spec.cluster.objects, docs/import.md section 1). sim/world derives each
 * node's physical GPUs from what it publishes (world_objects.c says the rule)
 * and names, for each simulation device, the GPU it is and, for a MIG
 * instance, its profile and first memory slice; from then on a tick reads
 * such a node as it reads a catalog node, except that its devices are never
 * re-read (no HwNode, and a mig-reconfigure event cannot name an imported
 * node: scenario_whatif__check_events).
 */
#include "measure_sample-private.h"

void
scenario_sample__add_object_node(ScenarioSampler *self,
                                 const char *name,
                                 const ScenarioObjectGpu *gpus,
                                 guint n_gpus,
                                 const ScenarioObjectDevice *devices,
                                 guint n_devices)
{
	SampleNode *n = scenario_sample__node_new(self, name, n_gpus);
	guint index = self->nodes->len - 1;

	n->objects = TRUE;
	for (guint g = 0; g < n_gpus; g++) {
		const char *product = gpus[g].product;

		n->info[g] =
		        (SampleGpu){ gpus[g].model,
			             product ? g_string_chunk_insert_const(self->strings, product)
			                     : NULL,
			             gpus[g].minor, gpus[g].mig && gpus[g].model != NULL };
	}
	for (guint d = 0; d < n_devices; d++) {
		const ScenarioObjectDevice *od = &devices[d];
		SampleDev sd = { 0 };

		sd.gpu = MIN(od->gpu, n_gpus);
		sd.minor = od->gpu < n_gpus ? gpus[od->gpu].minor : od->gpu;
		sd.capacity = d < cluster_sim_get_node_n_devices(self->sim, index)
		                      ? cluster_sim_get_device(self->sim, index, d)->capacity
		                      : 1.0;
		if (od->profile != NULL && sd.gpu < n_gpus && n->info[sd.gpu].mig) {
			const HwMigProfile *p =
			        hw_gpu_model_lookup_profile(n->info[sd.gpu].model, od->profile);

			sd.mig = TRUE;
			sd.profile = g_string_chunk_insert_const(self->strings, od->profile);
			sd.start = od->start;
			sd.size = p != NULL ? p->size : 1;
			sd.compute = p != NULL ? p->compute_slices : 1;
		}
		g_array_append_val(n->devs, sd);
	}
}

void
scenario_sample__add_unsampled_node(ScenarioSampler *self, const char *name)
{
	scenario_sample__node_new(self, name, 0)->objects = TRUE;
	self->partial = TRUE;
}
