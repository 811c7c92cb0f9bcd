/*
 * world_xlate.c: a DRA pod as a user would rewrite it by hand for the
 * device plugin: the GPUs its claims ask for become a count of nvidia.com/gpu
 * (or nvidia.com/mig-<profile> under the mixed strategy), a productName
 * equality becomes the GFD label nvidia.com/gpu.product, and everything else
 * (other selectors, constraints, shared claims, sharing configs, NICs) goes
 * into the translation report with the approximation drasim used. Also the
 * sharing a claim's GpuConfig asks for (for the DRA run model).
 */
#include <string.h>

#include "hw_api.h"
#include "world-private.h"
#include "world-xlate.h"

void
scenario_xlate__clear(ScenarioXlate *x)
{
	g_clear_pointer(&x->resource, g_free);
	g_clear_pointer(&x->node_selector, g_ptr_array_unref);
	g_clear_pointer(&x->device_class, g_free);
	x->count = 0;
}

static const K8sResourceClaimSpec *
claim_spec(const Scenario *self, const char *ns, const K8sPodResourceClaim *pc, gboolean *shared)
{
	K8sObject *obj;

	*shared = FALSE;
	if (pc->resource_claim_name != NULL) {
		obj = k8s_object_set_lookup(self->objects, K8S_KIND_RESOURCE_CLAIM, ns,
		                            pc->resource_claim_name);
		*shared = TRUE;
		return obj ? &k8s_object_as_resource_claim(obj)->spec : NULL;
	}
	if (pc->resource_claim_template_name != NULL) {
		obj = k8s_object_set_lookup(self->objects, K8S_KIND_RESOURCE_CLAIM_TEMPLATE, ns,
		                            pc->resource_claim_template_name);
		return obj ? &k8s_object_as_resource_claim_template(obj)->spec : NULL;
	}
	return NULL;
}

const K8sResourceClaimSpec *
scenario_xlate__claim_spec(const Scenario *self,
                           const char *ns,
                           const K8sPodResourceClaim *pc,
                           gboolean *shared)
{
	return claim_spec(self, ns, pc, shared);
}

static const K8sDeviceClass *
lookup_class(const Scenario *self, const char *name)
{
	K8sObject *obj = k8s_object_set_lookup(self->objects, K8S_KIND_DEVICE_CLASS, NULL, name);

	return obj ? k8s_object_as_device_class(obj) : NULL;
}

/* A class of NICs rather than GPUs: its selectors name dra.net, or its name does. */
static gboolean
class_is_nic(const Scenario *self, const char *name)
{
	const K8sDeviceClass *c = lookup_class(self, name);

	if (g_str_has_suffix(name, "dra.net"))
		return TRUE;
	for (guint i = 0; c != NULL && i < c->spec.n_selectors; i++) {
		const char *e = c->spec.selectors[i].cel_expression;

		if (e != NULL && strstr(e, "dra.net") != NULL)
			return TRUE;
	}
	return FALSE;
}

static void
xlate_selector(const char *object, const char *expr, ScenarioXlate *out, GPtrArray *notes)
{
	const WorldXlateLabel *label = world_xlate_label_nth(0);
	const WorldXlateResource *mig = world_xlate_resource_for_attribute("profile");
	g_autofree char *product = world_xlate_equality_literal(expr, label->attribute);
	g_autofree char *profile = world_xlate_equality_literal(expr, mig->attribute);
	g_autofree char *what = g_strdup_printf("selector %s", expr);

	if (profile == NULL)
		profile = world_xlate_equality_literal(expr, "migProfile");
	if (product != NULL) {
		g_ptr_array_add(out->node_selector, g_strdup(label->label));
		g_ptr_array_add(out->node_selector, world_xlate_label_value(label, product));
		if (strstr(expr, "&&") != NULL || strstr(expr, "||") != NULL)
			scenario_note__add(notes, object, what,
			                   "kept only productName == ... as the node selector "
			                   "nvidia.com/gpu.product; the rest is dropped");
	} else if (profile != NULL) {
		g_free(out->resource);
		out->resource = g_strconcat(mig->resource, profile, NULL);
		scenario_note__add(notes, object, what,
		                   "the MIG profile becomes the resource nvidia.com/mig-<profile> "
		                   "(mixed strategy)");
	} else {
		scenario_note__add(notes, object, what,
		                   "no GFD label expresses it: dropped, any GPU of the count fits");
	}
}

static void
xlate_request(const Scenario *self,
              const char *object,
              const K8sDeviceRequest *r,
              ScenarioXlate *out,
              GPtrArray *notes)
{
	const K8sExactDeviceRequest *x = r->has_exactly ? &r->exactly : NULL;
	gint64 count = 1;

	if (x == NULL && r->n_first_available > 0) {
		x = &r->first_available[0].spec;
		scenario_note__add(notes, object, "firstAvailable (prioritized list)",
		                   "only the first sub-request is kept");
	}
	if (x == NULL || x->device_class_name == NULL)
		return;
	if (class_is_nic(self, x->device_class_name)) {
		g_autofree char *what = g_strdup_printf("request %s of class %s (a NIC)", r->name,
		                                        x->device_class_name);

		scenario_note__add(notes, object, what,
		                   "NICs are not a device-plugin GPU resource: dropped");
		return;
	}
	if (x->allocation_mode != NULL && strcmp(x->allocation_mode, "All") == 0) {
		g_autofree char *what = g_strdup_printf("request %s allocationMode: All", r->name);

		scenario_note__add(notes, object, what,
		                   "no extended-resource form: asks for one GPU");
	} else if (x->has_count) {
		count = x->count;
	}
	for (guint i = 0; i < x->n_selectors; i++) {
		if (x->selectors[i].cel_expression != NULL)
			xlate_selector(object, x->selectors[i].cel_expression, out, notes);
	}
	if (strstr(x->device_class_name, "mig") != NULL && out->resource == NULL) {
		g_autofree char *what = g_strdup_printf("class %s", x->device_class_name);

		scenario_note__add(
		        notes, object, what,
		        "any MIG device has no single resource name: asks nvidia.com/gpu");
	}
	if (out->resource == NULL)
		out->resource = g_strdup(world_xlate_whole_gpu()->resource);
	if (out->device_class == NULL)
		out->device_class = g_strdup(x->device_class_name);
	out->count += count;
}

static void
note_class_config(const Scenario *self,
                  const char *object,
                  const K8sResourceClaimSpec *spec,
                  GPtrArray *notes)
{
	for (guint i = 0; i < spec->n_requests; i++) {
		const K8sDeviceRequest *r = &spec->requests[i];
		const char *cls = r->has_exactly ? r->exactly.device_class_name : NULL;
		const K8sDeviceClass *c = cls ? lookup_class(self, cls) : NULL;

		if (c != NULL && c->spec.n_config > 0) {
			g_autofree char *what = g_strdup_printf("config of class %s", cls);

			scenario_note__add(notes, object, what,
			                   "per-claim sharing has no extended form: the mode's "
			                   "device-plugin sharing applies to the whole node");
		}
	}
}

void
scenario_xlate__pod(const Scenario *self,
                    const ScenarioPod *pod,
                    ScenarioXlate *out,
                    GPtrArray *notes)
{
	g_autofree char *object = NULL;

	memset(out, 0, sizeof(*out));
	out->node_selector = g_ptr_array_new_with_free_func(g_free);
	if (pod->spec == NULL)
		return;
	object = g_strdup_printf("%s %s/%s", k8s_kind_name(pod->obj->kind), pod->namespace_,
	                         pod->obj->metadata.name);
	for (guint i = 0; i < pod->spec->n_resource_claims; i++) {
		const K8sPodResourceClaim *pc = &pod->spec->resource_claims[i];
		gboolean shared;
		const K8sResourceClaimSpec *spec = claim_spec(self, pod->namespace_, pc, &shared);

		if (spec == NULL) {
			g_autofree char *what = g_strdup_printf("claim %s", pc->name);

			scenario_note__add(notes, object, what,
			                   "the claim or template does not exist: no GPU asked");
			continue;
		}
		if (shared) {
			g_autofree char *what =
			        g_strdup_printf("shared claim %s", pc->resource_claim_name);

			scenario_note__add(notes, object, what,
			                   "a claim shared by several pods has no extended form: "
			                   "each pod asks for its own devices");
		}
		for (guint r = 0; r < spec->n_requests; r++)
			xlate_request(self, object, &spec->requests[r], out, notes);
		for (guint c = 0; c < spec->n_constraints; c++) {
			g_autofree char *what =
			        g_strdup_printf("constraint matchAttribute %s",
			                        spec->constraints[c].match_attribute
			                                ? spec->constraints[c].match_attribute
			                                : "(distinctAttribute)");

			scenario_note__add(
			        notes, object, what,
			        "the device plugin cannot align devices: dropped, devices "
			        "are taken in index order");
		}
		if (spec->n_config > 0) {
			g_autofree char *what = g_strdup_printf("config of claim %s", pc->name);

			scenario_note__add(notes, object, what,
			                   "per-claim sharing has no extended form: the mode's "
			                   "device-plugin sharing applies to the whole node");
		}
		note_class_config(self, object, spec, notes);
	}
}

/*
 * Applies one opaque config's sharing, when it is a GpuConfig with sharing
 * settings (hw_gpu_config_read(): scenario_load() has already rejected invalid
 * ones through hw_check_gpu_configs()). MPS: defaultActiveThreadPercentage caps each
 * client's SMs, defaultPinnedDeviceMemoryLimit each client's device memory (whole
 * MiB); defaultPerDevicePinnedMemoryLimit (per device index) is not modelled.
 */
static gboolean
gpu_config_sharing(const K8sOpaqueDeviceConfig *opaque,
                   ClusterShareMode *mode,
                   ClusterTimeSliceInterval *interval,
                   double *mps_threads,
                   gint64 *mem_limit)
{
	HwGpuSharing s;

	if (!hw_gpu_config_read(opaque, "", NULL, &s) || s.strategy == HW_SHARING_NONE)
		return FALSE;
	*mps_threads = s.active_threads;
	*mem_limit = s.pinned_memory_limit;
	if (s.strategy == HW_SHARING_MPS) {
		*mode = CLUSTER_SHARE_MPS;
		return TRUE;
	}
	G_STATIC_ASSERT((int)HW_TIME_SLICE_LONG == (int)CLUSTER_INTERVAL_LONG);
	*mode = CLUSTER_SHARE_TIME_SLICE;
	*interval = (ClusterTimeSliceInterval)s.interval;
	return TRUE;
}

gboolean
scenario_xlate__sharing(const Scenario *self,
                        const ScenarioPod *pod,
                        ClusterShareMode *mode,
                        ClusterTimeSliceInterval *interval,
                        double *mps_threads,
                        gint64 *mem_limit)
{
	gboolean found = FALSE;

	for (guint i = 0; pod->spec != NULL && i < pod->spec->n_resource_claims; i++) {
		gboolean shared;
		const K8sResourceClaimSpec *spec =
		        claim_spec(self, pod->namespace_, &pod->spec->resource_claims[i], &shared);

		/* The class's config first, the claim's after it (the driver applies
		 * claim config over class config). */
		for (guint r = 0; spec != NULL && r < spec->n_requests; r++) {
			const char *cls = spec->requests[r].has_exactly
			                          ? spec->requests[r].exactly.device_class_name
			                          : NULL;
			const K8sDeviceClass *c = cls ? lookup_class(self, cls) : NULL;

			for (guint k = 0; c != NULL && k < c->spec.n_config; k++)
				if (c->spec.config[k].has_opaque)
					found |= gpu_config_sharing(&c->spec.config[k].opaque, mode,
					                            interval, mps_threads,
					                            mem_limit);
		}
		for (guint k = 0; spec != NULL && k < spec->n_config; k++)
			if (spec->config[k].has_opaque)
				found |= gpu_config_sharing(&spec->config[k].opaque, mode, interval,
				                            mps_threads, mem_limit);
	}
	return found;
}

/*
 * The device plugin's MPS (sharing.mps with N replicas, nvidia-hw.md §4): its
 * per-node control daemon gives each replica 1/N of the GPU's SMs (active
 * thread percentage) and 1/N of its memory (pinned limit). Full GPUs only: the
 * plugin does not share MIG devices with MPS. With pools of different GPUs the
 * smallest GPU memory is used (the limit is per pod here, not per node).
 */
void
scenario_xlate__plugin_mps(const Scenario *self,
                           const ScenarioMode *mode,
                           const char *resource,
                           double *mps_threads,
                           gint64 *mem_limit)
{
	gint64 mem = 0;

	if (mode->xr.sharing != XR_SHARING_MPS || mode->xr.replicas <= 1 || resource == NULL ||
	    g_str_has_prefix(resource, "nvidia.com/mig-"))
		return;
	for (guint i = 0; i < self->pools->len; i++) {
		const ScenarioPool *p = &g_array_index(self->pools, ScenarioPool, i);
		const HwNodeShape *shape = hw_catalog_lookup_shape(self->catalog, p->shape);
		gint64 m = shape != NULL && shape->gpu_model != NULL
		                   ? (gint64)shape->gpu_model->memory_mib << 20
		                   : 0;

		if (m > 0 && (mem == 0 || m < mem))
			mem = m;
	}
	*mps_threads = 100.0 / mode->xr.replicas;
	*mem_limit = mem / mode->xr.replicas;
}

void
scenario_xlate__claim_shape(const Scenario *sc,
                            const ScenarioPod *pod,
                            char **resource,
                            gint64 *count,
                            char **device_class)
{
	g_autoptr(GPtrArray) scratch = g_ptr_array_new_with_free_func(scenario_note__free);
	ScenarioXlate x;

	scenario_xlate__pod(sc, pod, &x, scratch);
	*resource = g_steal_pointer(&x.resource);
	*count = x.count;
	*device_class = g_steal_pointer(&x.device_class);
	scenario_xlate__clear(&x);
}
