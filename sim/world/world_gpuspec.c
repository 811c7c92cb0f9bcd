/*
 * world_gpuspec.c: the trace's gpu_spec (the GPU models a pod may use) in
 * each world, written as a user would write it.
 *
 * DRA: one ResourceClaimTemplate per (model set, GPU count), its request a
 * count of gpu.nvidia.com devices with a CEL selector on the productName
 * attribute the NVIDIA DRA driver publishes; the pod references it instead of
 * asking for nvidia.com/gpu. Extended: a node selector on the GFD label
 * nvidia.com/gpu.product (several models: a required node-affinity term with
 * operator In), with the label values GFD puts on this mode's nodes (so
 * "Tesla-T4-SHARED" under time-slicing without renaming, as in production).
 *
 * Trace codes become catalog GPUs through workload_trace_model_catalog_id();
 * a code with no mapping keeps its own text, which no device or node carries.
 */
#include <string.h>

#include "cluster_dra.h"
#include "world-private.h"
#include "xr.h"

typedef struct {
	guint32 mask;
	guint num_gpu;
	char *name;             /* template and pod name: gpu-spec-<codes>-x<n> */
	const K8sPodSpec *spec; /* DRA: borrowed from objects */
	char **values;          /* extended: gpu.product values, NULL-terminated */
} SpecEntry;

struct ScenarioGpuSpec {
	gboolean dra;
	GArray *entries;       /* SpecEntry, in first-seen pod order (a few dozen at most) */
	K8sObjectSet *objects; /* DRA: the templates and pod specs */
};

static const SpecEntry *
find_entry(const GArray *entries, guint32 mask, guint num_gpu)
{
	for (guint i = 0; i < entries->len; i++) {
		const SpecEntry *e = &g_array_index(entries, SpecEntry, i);

		if (e->mask == mask && e->num_gpu == num_gpu)
			return e;
	}
	return NULL;
}

/* The catalog GPU of trace code @code (spec.workload.trace.gpuModels first), or NULL. */
static const HwGpuModel *
code_model(const Scenario *sc, const char *code)
{
	const GPtrArray *m = sc->trace.gpu_models;
	const char *id = NULL;

	for (guint i = 0; m != NULL && i + 1 < m->len && id == NULL; i += 2)
		if (strcmp(m->pdata[i], code) == 0)
			id = m->pdata[i + 1];
	if (id == NULL)
		id = workload_trace_model_catalog_id(code);

	return id != NULL ? hw_catalog_lookup_gpu(sc->catalog, id) : NULL;
}

/* GFD's nvidia.com/gpu.product on this mode's nodes of @model: from a node of
 * a pool with that GPU, else the plain productLabel rule (spaces to dashes). */
static char *
product_label(const Scenario *sc, const ScenarioMode *mode, const HwGpuModel *model)
{
	for (guint p = 0; p < sc->pools->len; p++) {
		const ScenarioPool *pool = &g_array_index(sc->pools, ScenarioPool, p);
		const HwNodeShape *shape = hw_catalog_lookup_shape(sc->catalog, pool->shape);
		g_autoptr(HwNode) node = NULL;
		g_autoptr(XrNodeView) view = NULL;
		const char *label;

		if (shape == NULL || shape->gpu_model != model)
			continue;
		node = hw_node_new(shape, "gpu-spec-probe");
		view = xr_node_view_new(node, &mode->xr, NULL);
		label = view != NULL ? xr_node_view_label(view, "nvidia.com/gpu.product") : NULL;
		if (label != NULL)
			return g_strdup(label);
	}
	return g_strdelimit(g_strdup(model->product_name), " ", '-');
}

/* The codes of @mask, in the trace's model order. */
static GPtrArray *
mask_codes(const WorkloadTrace *trace, guint32 mask)
{
	GPtrArray *codes = g_ptr_array_new();

	for (guint m = 0; m < workload_trace_get_n_models(trace); m++)
		if (mask & (1u << m))
			g_ptr_array_add(codes, (gpointer)workload_trace_get_model(trace, m));
	return codes;
}

/* `device.attributes["gpu.nvidia.com"].productName == "X"` or `in [...]`. */
static char *
cel_selector(const Scenario *sc, GPtrArray *codes)
{
	GString *list = g_string_new(NULL);

	for (guint i = 0; i < codes->len; i++) {
		const HwGpuModel *model = code_model(sc, codes->pdata[i]);

		g_string_append_printf(list, "%s\"%s\"", i > 0 ? ", " : "",
		                       model != NULL ? model->product_name
		                                     : (const char *)codes->pdata[i]);
	}
	if (codes->len == 1) {
		char *out = g_strdup_printf(
		        "device.attributes[\"gpu.nvidia.com\"].productName == %s", list->str);
		g_string_free(list, TRUE);
		return out;
	}
	char *out = g_strdup_printf("device.attributes[\"gpu.nvidia.com\"].productName in [%s]",
	                            list->str);
	g_string_free(list, TRUE);
	return out;
}

static void
append_dra_objects(const Scenario *sc, const SpecEntry *e, GPtrArray *codes, GString *yaml)
{
	g_autofree char *expr = cel_selector(sc, codes);

	g_string_append_printf(yaml,
	                       "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\n"
	                       "metadata: {name: %s, namespace: default}\nspec:\n  spec:\n"
	                       "    devices:\n      requests:\n      - name: gpu\n"
	                       "        exactly:\n          deviceClassName: gpu.nvidia.com\n"
	                       "          count: %u\n          selectors:\n          - cel:\n"
	                       "              expression: |-\n                %s\n",
	                       e->name, e->num_gpu, expr);
	g_string_append_printf(yaml,
	                       "---\napiVersion: v1\nkind: Pod\n"
	                       "metadata: {name: %s, namespace: default}\nspec:\n"
	                       "  containers:\n  - name: task\n    image: trace\n"
	                       "    resources:\n      claims:\n      - name: gpu\n"
	                       "  resourceClaims:\n  - name: gpu\n"
	                       "    resourceClaimTemplateName: %s\n",
	                       e->name, e->name);
}

static char **
extended_values(const Scenario *sc, const ScenarioMode *mode, GPtrArray *codes)
{
	GPtrArray *values = g_ptr_array_new();

	for (guint i = 0; i < codes->len; i++) {
		const HwGpuModel *model = code_model(sc, codes->pdata[i]);
		char *v =
		        model != NULL ? product_label(sc, mode, model) : g_strdup(codes->pdata[i]);
		gboolean dup = FALSE;

		/* two codes on one catalog GPU give one value */
		for (guint j = 0; j < values->len && !dup; j++)
			dup = strcmp(values->pdata[j], v) == 0;
		if (dup)
			g_free(v);
		else
			g_ptr_array_add(values, v);
	}
	g_ptr_array_add(values, NULL);
	return (char **)g_ptr_array_free(values, FALSE);
}

static char *
entry_name(GPtrArray *codes, guint num_gpu)
{
	GString *s = g_string_new("gpu-spec");

	for (guint i = 0; i < codes->len; i++) {
		g_string_append_c(s, '-');
		for (const char *p = codes->pdata[i]; *p != '\0'; p++)
			g_string_append_c(s, g_ascii_isalnum(*p) ? g_ascii_tolower(*p) : '-');
	}
	g_string_append_printf(s, "-x%u", num_gpu);
	return g_string_free(s, FALSE);
}

static void
add_notes(const Scenario *sc, const ScenarioMode *mode, GPtrArray *codes, GPtrArray *notes)
{
	for (guint i = 0; i < codes->len; i++) {
		const char *code = codes->pdata[i];
		g_autofree char *what = g_strdup_printf("gpu_spec model %s", code);

		if (code_model(sc, code) == NULL)
			scenario_note__add(notes, "trace", what,
			                   "no catalog GPU stands for it: kept as a productName "
			                   "no device carries");
	}
	if (codes->len > 1 && mode->world == SCENARIO_WORLD_EXTENDED)
		scenario_note__add(notes, "trace", "gpu_spec with several models",
		                   "required node affinity nvidia.com/gpu.product In [...] "
		                   "(a nodeSelector holds one value)");
}

ScenarioGpuSpec *
scenario_gpuspec__new(const Scenario *sc,
                      const ScenarioMode *mode,
                      const WorkloadTrace *trace,
                      const GArray *pods,
                      GPtrArray *notes,
                      K8sDiagList *diags)
{
	ScenarioGpuSpec *self;
	g_autoptr(GString) yaml = NULL;

	if (trace == NULL)
		return NULL;
	self = g_new0(ScenarioGpuSpec, 1);
	self->dra = mode->world == SCENARIO_WORLD_DRA;
	self->entries = g_array_new(FALSE, TRUE, sizeof(SpecEntry));
	yaml = g_string_new(NULL);
	for (guint i = 0; i < pods->len; i++) {
		const ScenarioPod *pod = &g_array_index(pods, ScenarioPod, i);
		g_autoptr(GPtrArray) codes = NULL;
		SpecEntry e = { pod->gpu_spec_mask, pod->num_gpu, NULL, NULL, NULL };

		if (pod->spec != NULL || pod->gpu_spec_mask == 0 || pod->num_gpu == 0 ||
		    find_entry(self->entries, pod->gpu_spec_mask, pod->num_gpu) != NULL)
			continue;
		codes = mask_codes(trace, pod->gpu_spec_mask);
		e.name = entry_name(codes, pod->num_gpu);
		if (self->dra)
			append_dra_objects(sc, &e, codes, yaml);
		else
			e.values = extended_values(sc, mode, codes);
		add_notes(sc, mode, codes, notes);
		g_array_append_val(self->entries, e);
	}
	if (self->dra && yaml->len > 0) {
		self->objects = k8s_object_set_new();
		k8s_load_data("<trace gpu_spec claims>", yaml->str, yaml->len, K8S_LOAD_DEFAULT,
		              self->objects, diags);
		for (guint i = 0; i < self->entries->len; i++) {
			SpecEntry *e = &g_array_index(self->entries, SpecEntry, i);
			K8sObject *obj = k8s_object_set_lookup(self->objects, K8S_KIND_POD,
			                                       "default", e->name);

			e->spec = obj != NULL ? &k8s_object_as_pod(obj)->spec : NULL;
		}
	}
	return self;
}

void
scenario_gpuspec__free(ScenarioGpuSpec *self)
{
	if (self == NULL)
		return;
	for (guint i = 0; i < self->entries->len; i++) {
		SpecEntry *e = &g_array_index(self->entries, SpecEntry, i);

		g_free(e->name);
		g_strfreev(e->values);
	}
	g_array_unref(self->entries);
	if (self->objects != NULL)
		k8s_object_set_free(self->objects);
	g_free(self);
}

static const SpecEntry *
lookup(const ScenarioGpuSpec *self, const ScenarioPod *pod)
{
	if (self == NULL || pod->spec != NULL || pod->gpu_spec_mask == 0 || pod->num_gpu == 0)
		return NULL;
	return find_entry(self->entries, pod->gpu_spec_mask, pod->num_gpu);
}

void
scenario_gpuspec__add_templates(const ScenarioGpuSpec *self, ClusterDra *dra)
{
	guint n;

	if (self == NULL || self->objects == NULL)
		return;
	n = k8s_object_set_count_kind(self->objects, K8S_KIND_RESOURCE_CLAIM_TEMPLATE);
	for (guint i = 0; i < n; i++)
		cluster_dra_add_template(
		        dra, k8s_object_as_resource_claim_template(k8s_object_set_get_kind(
		                     self->objects, K8S_KIND_RESOURCE_CLAIM_TEMPLATE, i)));
}

const K8sPodSpec *
scenario_gpuspec__pod_spec(const ScenarioGpuSpec *self, const ScenarioPod *pod)
{
	const SpecEntry *e = self != NULL && self->dra ? lookup(self, pod) : NULL;

	return e != NULL ? e->spec : NULL;
}

void
scenario_gpuspec__select(const ScenarioGpuSpec *self, const ScenarioPod *pod, ClusterPod *cpod)
{
	const SpecEntry *e = self != NULL && !self->dra ? lookup(self, pod) : NULL;

	if (e == NULL || e->values == NULL || e->values[0] == NULL)
		return;
	if (e->values[1] == NULL) {
		cluster_pod_add_node_selector(cpod, "nvidia.com/gpu.product", e->values[0]);
		return;
	}
	cluster_pod_term_add_requirement(cpod, cluster_pod_add_term(cpod), "nvidia.com/gpu.product",
	                                 CLUSTER_SELECTOR_IN, (const char *const *)e->values,
	                                 FALSE);
}
