/*
 * world_pods.c: turns the workload (entries over the manifests' Pods,
 * Deployments, StatefulSets, ReplicaSets and Jobs, plus the trace) into pod
 * instances with arrival, work and demand. This happens once per run, before
 * any mode is built, from streams named after each entry, so every mode sees
 * the same arrivals and durations.
 */
#include <string.h>

#include "world-private.h"

typedef struct {
	ScenarioPod pod;
	guint64 seq;
} Keyed;

void
scenario_pods__clear(gpointer data)
{
	ScenarioPod *p = data;

	g_free(p->name);
	if (p->request != NULL)
		g_ref_string_release(p->request);
}

/* Pods one object makes: replicas, completions (else parallelism), or 1. */
static guint
pods_per_object(const K8sObject *obj)
{
	const K8sWorkload *w;

	if (obj->kind == K8S_KIND_POD)
		return 1;
	w = k8s_object_as_workload((K8sObject *)obj);
	if (obj->kind == K8S_KIND_JOB) {
		if (w->has_completions)
			return (guint)MAX(w->completions, 0);
		return w->has_parallelism ? (guint)MAX(w->parallelism, 0) : 1;
	}
	return w->has_replicas ? (guint)MAX(w->replicas, 0) : 1;
}

const K8sPodSpec *
scenario_pods__object_spec(const K8sObject *obj)
{
	if (obj->kind == K8S_KIND_POD)
		return &k8s_object_as_pod((K8sObject *)obj)->spec;
	return &k8s_object_as_workload((K8sObject *)obj)->template_.spec;
}

static gboolean
is_workload_kind(K8sKind kind)
{
	return kind == K8S_KIND_POD || kind == K8S_KIND_DEPLOYMENT ||
	       kind == K8S_KIND_STATEFUL_SET || kind == K8S_KIND_REPLICA_SET ||
	       kind == K8S_KIND_JOB;
}

const K8sObject *
scenario_pods__find_object(const Scenario *self, const ScenarioEntry *e)
{
	for (guint i = 0; i < k8s_object_set_count(self->objects); i++) {
		const K8sObject *obj = k8s_object_set_get(self->objects, i);

		if (is_workload_kind(obj->kind) && strcmp(k8s_kind_name(obj->kind), e->kind) == 0 &&
		    g_strcmp0(obj->metadata.name, e->name) == 0)
			return obj;
	}
	return NULL;
}

guint64
scenario_entry_pods(const Scenario *self, const ScenarioEntry *e, const K8sObject **obj)
{
	*obj = scenario_pods__find_object(self, e);
	return *obj != NULL ? pods_per_object(*obj) * e->count : 0;
}

static const ScenarioEntry *
entry_for(const Scenario *self, const K8sObject *obj)
{
	for (guint i = 0; i < self->entries->len; i++) {
		const ScenarioEntry *e = &g_array_index(self->entries, ScenarioEntry, i);

		if (strcmp(k8s_kind_name(obj->kind), e->kind) == 0 &&
		    g_strcmp0(obj->metadata.name, e->name) == 0)
			return e;
	}
	return NULL;
}

/* "nvidia.com/gpu=1" for each extended resource (a name with a domain) a container limits. */
static void
describe_extended(GString *out, const K8sPodSpec *spec)
{
	for (guint c = 0; c < spec->n_containers; c++) {
		const K8sQtyMap *limits = &spec->containers[c].resources.limits;

		for (guint i = 0; i < limits->n; i++) {
			if (strchr(limits->items[i].key, '/') == NULL)
				continue; /* cpu, memory, ephemeral-storage */
			g_string_append_printf(
			        out, "%s%s=%s", out->len ? " " : "", limits->items[i].key,
			        limits->items[i].value.text ? limits->items[i].value.text : "?");
		}
	}
}

/* "[gpu.nvidia.com x1]" per request of a claim's spec: its device class and count. */
static void
describe_claim_spec(GString *out, const K8sResourceClaimSpec *spec)
{
	for (guint r = 0; r < spec->n_requests; r++) {
		const K8sDeviceRequest *req = &spec->requests[r];
		const K8sExactDeviceRequest *exact = req->has_exactly ? &req->exactly
		                                     : req->n_first_available > 0
		                                             ? &req->first_available[0].spec
		                                             : NULL;

		if (exact == NULL)
			continue;
		if (g_strcmp0(exact->allocation_mode, "All") == 0)
			g_string_append_printf(out, "[%s all]", exact->device_class_name);
		else
			g_string_append_printf(out, "[%s x%" G_GINT64_FORMAT "]",
			                       exact->device_class_name,
			                       exact->has_count ? exact->count : 1);
	}
}

/*
 * What a pod of @obj asks for, for the reports' `request` column: its extended
 * resources, then "claim=NAME[class xN]" per resource claim (a template's or a
 * claim's requests; the first alternative of a firstAvailable list). The same
 * in every mode: it is the manifest, not a world's translation of it.
 */
static char *
describe_request(const Scenario *self, const K8sObject *obj)
{
	const K8sPodSpec *spec = scenario_pods__object_spec(obj);
	const char *ns = k8s_object_namespace(obj);
	GString *out = g_string_new(NULL);

	describe_extended(out, spec);
	for (guint i = 0; i < spec->n_resource_claims; i++) {
		const K8sPodResourceClaim *pc = &spec->resource_claims[i];
		const char *name = pc->resource_claim_template_name
		                           ? pc->resource_claim_template_name
		                           : pc->resource_claim_name;
		K8sObject *found =
		        name == NULL ? NULL
		        : pc->resource_claim_template_name
		                ? k8s_object_set_lookup(self->objects,
		                                        K8S_KIND_RESOURCE_CLAIM_TEMPLATE, ns, name)
		                : k8s_object_set_lookup(self->objects, K8S_KIND_RESOURCE_CLAIM, ns,
		                                        name);

		g_string_append_printf(out, "%sclaim=%s", out->len ? " " : "", name ? name : "?");
		if (found != NULL && pc->resource_claim_template_name != NULL)
			describe_claim_spec(out,
			                    &k8s_object_as_resource_claim_template(found)->spec);
		else if (found != NULL)
			describe_claim_spec(out, &k8s_object_as_resource_claim(found)->spec);
	}
	return g_string_free(out, FALSE);
}

static gboolean
expand_object(const Scenario *self,
              const K8sObject *obj,
              const ScenarioEntry *e,
              SimRngSet *rngs,
              GArray *out,
              K8sDiagList *diags)
{
	guint64 per = pods_per_object(obj);
	guint64 total = per * e->count;
	g_autofree char *source = g_strdup_printf("%s/%s/%s", k8s_kind_name(obj->kind),
	                                          k8s_object_namespace(obj), obj->metadata.name);
	g_autoptr(WorkloadSynth) synth = NULL;
	g_autoptr(GError) error = NULL;
	WorkloadSynthSpec spec = { .name = source,
		                   .start = e->start,
		                   .end = e->end,
		                   .max_items = total,
		                   .duration = e->duration };
	WorkloadItem item;
	guint k = 0;
	g_autofree char *request = NULL;

	if (total == 0)
		return TRUE;
	request = describe_request(self, obj);
	/* every pod arrives at `at`: the count is exact, check it before making any */
	if (e->arrival_kind == SCENARIO_ARRIVAL_AT &&
	    !scenario_limits__pods(out->len, total, &e->pos, "spec.workload.entries", diags))
		return FALSE;
	spec.demand.kind = WORKLOAD_DIST_FIXED;
	spec.demand.value = e->compute;
	if (e->arrival_kind == SCENARIO_ARRIVAL_AT) {
		spec.arrival.kind = WORKLOAD_ARRIVAL_BURST;
		spec.arrival.burst_size = (guint)MIN(total, G_MAXUINT);
		spec.arrival.burst_period = SIM_TIME_DAY;
		spec.start = e->at;
		spec.end = SIM_TIME_NEVER;
	} else {
		spec.arrival = e->process;
		if (spec.end == SIM_TIME_NEVER && self->horizon != SIM_TIME_NEVER)
			spec.end = self->horizon;
	}
	synth = workload_synth_new(&spec, rngs, &error);
	if (synth == NULL) {
		k8s_diag_list_error(diags, &e->pos, "spec.workload.entries", "%s", error->message);
		return FALSE;
	}
	while (workload_synth_next(synth, &item)) {
		Keyed kp = { .seq = out->len };

		/* a process: its arrivals within the window are known only as drawn */
		if (!scenario_limits__pods(out->len, 1, &e->pos, "spec.workload.entries", diags))
			return FALSE;
		kp.pod.name = total == 1 && obj->kind == K8S_KIND_POD
		                      ? g_strdup(obj->metadata.name)
		                      : g_strdup_printf("%s-%u", obj->metadata.name, k);
		kp.pod.namespace_ = k8s_object_namespace(obj);
		kp.pod.workload = obj->metadata.name;
		/* one copy for the entry's pods, not one each (issue 19: bytes per pod) */
		kp.pod.request = g_ref_string_new_intern(request);
		kp.pod.spec = scenario_pods__object_spec(obj);
		kp.pod.obj = obj;
		kp.pod.arrival = item.arrival;
		kp.pod.work = e->service ? SIM_TIME_NEVER : MAX(item.duration, 1);
		kp.pod.compute = e->compute;
		kp.pod.memory = e->memory;
		g_array_append_val(out, kp);
		k++;
	}
	return TRUE;
}

static gboolean
expand_trace(const Scenario *self, GArray *out, WorkloadTrace **trace_out, K8sDiagList *diags)
{
	g_autoptr(WorkloadTrace) trace = workload_trace_new();
	g_autoptr(GError) error = NULL;
	g_autoptr(GArray) items = NULL;
	guint n;

	if (!workload_trace_load_pods(trace, self->trace.path, &error)) {
		k8s_diag_list_error(diags, &self->trace.pos, "spec.workload.trace.path", "%s",
		                    error->message);
		return FALSE;
	}
	items = workload_trace_to_items(trace);
	n = self->trace.limit > 0 ? MIN(self->trace.limit, items->len) : items->len;
	if (!scenario_limits__pods(out->len, n, &self->trace.pos, "spec.workload.trace", diags))
		return FALSE;
	for (guint i = 0; i < n; i++) {
		const WorkloadItem *it = &g_array_index(items, WorkloadItem, i);
		const WorkloadTracePod *tp = workload_trace_get_pod(trace, it->template_index);
		Keyed kp = { .seq = out->len };
		char request[64];

		kp.pod.name = g_strdup(tp->name);
		kp.pod.namespace_ = "default";
		kp.pod.workload = "trace";
		/* the trace's own terms: GPUs and the thousandths of each it uses */
		g_snprintf(request, sizeof(request), "gpus=%u gpu_milli=%u", tp->num_gpu,
		           (guint)tp->gpu_milli);
		kp.pod.request = g_ref_string_new_intern(request);
		kp.pod.arrival = it->arrival;
		/* No deletion time: the pod was still running when the trace ended. */
		kp.pod.work = it->duration > 0 ? it->duration : SIM_TIME_NEVER;
		kp.pod.num_gpu = tp->num_gpu;
		kp.pod.compute = tp->num_gpu > 0 ? tp->gpu_milli / 1000.0 : 0.0;
		kp.pod.cpu_milli = tp->cpu_milli;
		kp.pod.memory_mib = tp->memory_mib;
		kp.pod.gpu_spec_mask = tp->gpu_spec_mask;
		g_array_append_val(out, kp);
	}
	*trace_out = g_steal_pointer(&trace);
	return TRUE;
}

/* Succeeded and Failed pods of a snapshot are over: left out (world_start.c counts them). */
gboolean
scenario_pods__imported_done(const K8sPod *pod)
{
	return g_strcmp0(pod->phase, "Succeeded") == 0 || g_strcmp0(pod->phase, "Failed") == 0;
}

/*
 * spec.workload.imported: every Pod of the snapshot arrives at t = 0, the
 * bound ones (spec.nodeName) first so they take their nodes before the pending
 * ones are scheduled (world_start.c pins them); the snapshot's order within each.
 */
static gboolean
expand_imported(const Scenario *self, SimRngSet *rngs, GArray *out, K8sDiagList *diags)
{
	const ScenarioImported *im = &self->imported;
	ScenarioEntry e = { .count = 1,
		            .arrival_kind = SCENARIO_ARRIVAL_AT,
		            .end = SIM_TIME_NEVER,
		            .duration = im->duration,
		            .compute = im->compute,
		            .memory = im->memory,
		            .service = im->service,
		            .pos = im->pos };
	guint n = im->objects != NULL ? k8s_object_set_count_kind(im->objects, K8S_KIND_POD) : 0;

	if (e.service) { /* runs to the horizon: the synthesizer still wants a duration */
		e.duration.kind = WORKLOAD_DIST_FIXED;
		e.duration.value = 1.0;
	}

	for (guint bound = 2; bound-- > 0;) {
		for (guint i = 0; i < n; i++) {
			const K8sObject *obj =
			        k8s_object_set_get_kind(im->objects, K8S_KIND_POD, i);
			const K8sPod *pod = k8s_object_as_pod((K8sObject *)obj);

			if (scenario_pods__imported_done(pod) ||
			    (pod->spec.node_name != NULL) != bound)
				continue;
			if (!expand_object(self, obj, &e, rngs, out, diags))
				return FALSE;
		}
	}
	return TRUE;
}

static gint
keyed_cmp(gconstpointer a, gconstpointer b)
{
	const Keyed *x = a, *y = b;

	if (x->pod.arrival != y->pod.arrival)
		return x->pod.arrival < y->pod.arrival ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

GArray *
scenario_pods__expand(const Scenario *self,
                      SimRngSet *rngs,
                      WorkloadTrace **trace_out,
                      K8sDiagList *diags)
{
	g_autoptr(GArray) keyed = g_array_new(FALSE, TRUE, sizeof(Keyed));
	GArray *out;
	gboolean ok = TRUE;

	*trace_out = NULL;
	for (guint i = 0; i < self->entries->len; i++) {
		const ScenarioEntry *e = &g_array_index(self->entries, ScenarioEntry, i);

		if (scenario_pods__find_object(self, e) == NULL) {
			g_autofree char *field = g_strdup_printf("spec.workload.entries[%u]", i);

			k8s_diag_list_error(diags, &e->pos, field,
			                    "no %s named \"%s\" in the manifests", e->kind,
			                    e->name);
			ok = FALSE;
		}
	}
	if (ok)
		ok = expand_imported(self, rngs, keyed, diags);
	/* Every workload object runs, in manifest order; an entry only sets how. */
	for (guint i = 0; ok && i < k8s_object_set_count(self->objects); i++) {
		const K8sObject *obj = k8s_object_set_get(self->objects, i);
		const ScenarioEntry *e;
		ScenarioEntry defaults = { .count = 1, .end = SIM_TIME_NEVER };

		if (!is_workload_kind(obj->kind))
			continue;
		e = entry_for(self, obj);
		if (e == NULL) {
			defaults.duration.kind = WORKLOAD_DIST_FIXED;
			defaults.duration.value = sim_time_to_seconds(self->default_duration);
			defaults.compute = self->default_compute;
			defaults.memory = self->default_memory;
			defaults.pos = obj->pos;
			e = &defaults;
		}
		ok = expand_object(self, obj, e, rngs, keyed, diags);
	}
	if (ok && self->trace.path != NULL)
		ok = expand_trace(self, keyed, trace_out, diags);
	if (!ok) {
		for (guint i = 0; i < keyed->len; i++)
			scenario_pods__clear(&g_array_index(keyed, Keyed, i).pod);
		return NULL;
	}
	g_array_sort(keyed, keyed_cmp);
	out = g_array_sized_new(FALSE, TRUE, sizeof(ScenarioPod), keyed->len);
	g_array_set_clear_func(out, scenario_pods__clear);
	for (guint i = 0; i < keyed->len; i++)
		g_array_append_val(out, g_array_index(keyed, Keyed, i).pod);
	return out;
}
