/*
 * lint_shared.c: the shared-claim pass of `drasim lint`. Every pod that names a
 * ResourceClaim (resourceClaimName) gets the same devices: Kubernetes reserves the
 * claim for all of them (up to 256 consumers, KEP-4381) and the NVIDIA driver shares
 * the GPU among their processes without dividing its memory (time-slicing is the
 * default, nvidia-hw.md). A Deployment of 12 replicas, or a workload entry of count
 * 12, on one claim puts 12 pods on one device: when their memory passes the
 * device's, they are OOM-killed (drasim's run model kills them, 31 times in the
 * issue 17 case). This pass warns at the pod template's claim reference when the
 * pods sharing a claim hold more memory than its devices (pods' memory known: a
 * scenario entry's `memory`) or, with no memory declared, when more than
 * LINT_SHARED_MAX_PODS pods share each device.
 */
#include <string.h>

#include "hw.h"
#include "lint.h"
#include "world-xlate.h"
#include "world.h"

/* Pods per device of one claim beyond which lint warns when no memory is declared:
 * the time-slicing replicas of the device plugin's documented examples (4 and 10,
 * gpu-sharing.md of NVIDIA's k8s-device-plugin) straddle it. */
#define LINT_SHARED_MAX_PODS 8

/* The memory (MiB) of the smallest device request @x can get among @gpus, or 0. */
static guint64
request_memory(const K8sExactDeviceRequest *x, const GPtrArray *gpus, gboolean gpus_are_cluster)
{
	guint64 best = 0;

	for (guint g = 0; g < gpus->len; g++) {
		const HwGpuModel *m = gpus->pdata[g];
		guint64 mem = gpus_are_cluster ? m->memory_mib : 0;
		gboolean fits = TRUE;

		for (guint s = 0; s < x->n_selectors && fits; s++) {
			const char *e = x->selectors[s].cel_expression;
			g_autofree char *product =
			        e ? world_xlate_equality_literal(e, "productName") : NULL;
			g_autofree char *profile =
			        e ? world_xlate_equality_literal(e, "profile") : NULL;
			const HwMigProfile *p =
			        profile ? hw_gpu_model_lookup_profile(m, profile) : NULL;

			if (product != NULL) {
				fits = strcmp(product, m->product_name) == 0;
				mem = m->memory_mib;
			}
			if (profile != NULL) {
				fits = fits && p != NULL;
				mem = p != NULL ? p->memory_mib : 0;
			}
		}
		/* the smallest device the request can get */
		if (fits && mem > 0 && (best == 0 || mem < best))
			best = mem;
	}
	return best;
}

/* The claim's device memory in MiB (its smallest device) and its device count. */
static guint64
claim_memory(const K8sResourceClaimSpec *spec,
             const GPtrArray *gpus,
             gboolean gpus_are_cluster,
             guint64 *devices)
{
	guint64 mem = 0;
	gboolean unknown = FALSE;

	*devices = 0;
	for (guint r = 0; r < spec->n_requests; r++) {
		const K8sDeviceRequest *req = &spec->requests[r];
		const K8sExactDeviceRequest *x =
		        req->has_exactly
		                ? &req->exactly
		                : (req->n_first_available > 0 ? &req->first_available[0].spec
		                                              : NULL);
		guint64 m;

		if (x == NULL)
			continue;
		m = request_memory(x, gpus, gpus_are_cluster);
		*devices += x->has_count ? (guint64)MAX(x->count, 1) : 1;
		unknown |= m == 0; /* one device of unknown memory: the claim's is unknown */
		if (mem == 0 || m < mem)
			mem = m;
	}
	return unknown ? 0 : mem;
}

static void
warn_claim(const K8sResourceClaim *claim,
           const LintSharedUser *first,
           guint64 pods,
           gint64 memory,
           const GPtrArray *gpus,
           gboolean gpus_are_cluster,
           K8sDiagList *diags)
{
	guint64 devices, mib = claim_memory(&claim->spec, gpus, gpus_are_cluster, &devices);
	guint64 pod_mib = (guint64)(memory >> 20), room;
	g_autofree char *device = NULL;

	devices = MAX(devices, 1);
	device = mib > 0 ? g_strdup_printf("%" G_GUINT64_FORMAT " MiB", mib)
	                 : g_strdup("unknown memory");
	if (pod_mib > 0 && mib > 0) {
		room = devices * (mib / pod_mib);
		if (pods <= room)
			return;
		k8s_diag_list_warning(
		        diags, &first->pos, first->path,
		        "%" G_GUINT64_FORMAT
		        " pods share ResourceClaim %s (%s): its %" G_GUINT64_FORMAT
		        " device%s of %s hold%s %" G_GUINT64_FORMAT " pods of %" G_GUINT64_FORMAT
		        " MiB; the others run out of GPU memory (OOM). Give each pod its own "
		        "device with a ResourceClaimTemplate, or at most %" G_GUINT64_FORMAT
		        " pods per claim: time-slicing shares a GPU's memory, it adds none "
		        "(docs/sharing.md)",
		        pods, claim->obj.metadata.name, first->object, devices,
		        devices == 1 ? "" : "s", device, devices == 1 ? "s" : "", room, pod_mib,
		        room);
		return;
	}
	if (pods <= devices * LINT_SHARED_MAX_PODS)
		return;
	k8s_diag_list_warning(
	        diags, &first->pos, first->path,
	        "%" G_GUINT64_FORMAT " pods share ResourceClaim %s (%s): more than %d per device "
	        "(%" G_GUINT64_FORMAT " device%s of %s; the pods declare no GPU memory), all on "
	        "the same GPU memory. Give each pod its own device with a ResourceClaimTemplate, "
	        "or time-slice more devices (docs/sharing.md)",
	        pods, claim->obj.metadata.name, first->object, LINT_SHARED_MAX_PODS, devices,
	        devices == 1 ? "" : "s", device);
}

void
lint_shared_claims(const K8sObjectSet *set,
                   const GPtrArray *gpus,
                   gboolean gpus_are_cluster,
                   const LintSharedUser *users,
                   guint n_users,
                   K8sDiagList *diags)
{
	g_autoptr(GHashTable) done = g_hash_table_new(g_direct_hash, g_direct_equal);

	for (guint i = 0; i < n_users; i++) {
		const char *name = users[i].claim;
		K8sObject *obj = k8s_object_set_lookup(set, K8S_KIND_RESOURCE_CLAIM,
		                                       users[i].namespace_, name);
		guint64 pods = 0;
		gint64 memory = 0;

		if (obj == NULL || g_hash_table_contains(done, obj))
			continue; /* a missing claim is validation's finding */
		g_hash_table_add(done, obj);
		/* every user of the same claim, this one first */
		for (guint k = i; k < n_users; k++) {
			if (strcmp(users[k].claim, name) != 0 ||
			    g_strcmp0(users[k].namespace_, users[i].namespace_) != 0)
				continue;
			pods += users[k].pods;
			memory = MAX(memory, users[k].memory);
		}
		warn_claim(k8s_object_as_resource_claim(obj), &users[i], pods, memory, gpus,
		           gpus_are_cluster, diags);
	}
}

/* Appends a user per resourceClaimName reference of @spec. */
static void
add_spec_users(GArray *users,
               GPtrArray *strings,
               const K8sPodSpec *spec,
               const char *ns,
               guint64 pods,
               gint64 memory,
               const char *object,
               const char *path)
{
	for (guint i = 0; i < spec->n_resource_claims; i++) {
		const K8sPodResourceClaim *pc = &spec->resource_claims[i];
		char *p = g_strdup_printf("%sresourceClaims[%u].resourceClaimName", path, i);
		LintSharedUser u = { pc->resource_claim_name,     ns, pods, memory, object,
			             pc->resource_claim_name_pos, p };

		g_ptr_array_add(strings, p);
		if (pc->resource_claim_name != NULL)
			g_array_append_val(users, u);
	}
}

/* Pods running at once: a Pod 1, replicas (default 1), a Job's parallelism (default 1). */
static guint64
concurrent_pods(K8sObject *obj)
{
	const K8sWorkload *w = k8s_object_as_workload(obj);

	if (w == NULL)
		return 1;
	if (obj->kind == K8S_KIND_JOB)
		return w->has_parallelism ? (guint64)MAX(w->parallelism, 0) : 1;
	return w->has_replicas ? (guint64)MAX(w->replicas, 0) : 1;
}

void
lint_shared_claims_manifests(K8sObjectSet *set, K8sDiagList *diags)
{
	g_autoptr(GArray) users = g_array_new(FALSE, FALSE, sizeof(LintSharedUser));
	g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(HwCatalog) catalog = hw_catalog_new_builtin(NULL);

	if (catalog == NULL)
		return;
	for (guint i = 0; i < k8s_object_set_count(set); i++) {
		K8sObject *obj = k8s_object_set_get(set, i);
		const K8sPod *pod = k8s_object_as_pod(obj);
		const K8sWorkload *w = k8s_object_as_workload(obj);
		guint64 pods = concurrent_pods(obj);
		char *what, *path;

		if (pod == NULL && w == NULL)
			continue;
		what = w != NULL ? g_strdup_printf("%s %s: %" G_GUINT64_FORMAT " pod%s",
		                                   k8s_kind_name(obj->kind), obj->metadata.name,
		                                   pods, pods == 1 ? "" : "s")
		                 : g_strdup_printf("Pod %s", obj->metadata.name);
		path = g_strdup_printf("%s%s", obj->path_prefix ? obj->path_prefix : "",
		                       w != NULL ? "spec.template.spec." : "spec.");
		g_ptr_array_add(strings, what);
		g_ptr_array_add(strings, path);
		add_spec_users(users, strings, pod != NULL ? &pod->spec : &w->template_.spec,
		               k8s_object_namespace(obj), pods, 0, what, path);
	}
	lint_shared_claims(set, hw_catalog_get_gpus(catalog), FALSE,
	                   (const LintSharedUser *)(gpointer)users->data, users->len, diags);
}

void
lint_shared_claims_scenario(const Scenario *sc, K8sDiagList *diags)
{
	g_autoptr(GArray) users = g_array_new(FALSE, FALSE, sizeof(LintSharedUser));
	g_autoptr(GPtrArray) strings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) gpus = g_ptr_array_new();

	for (guint p = 0; p < sc->pools->len; p++) {
		const ScenarioPool *pool = &g_array_index(sc->pools, ScenarioPool, p);
		const HwNodeShape *shape = hw_catalog_lookup_shape(sc->catalog, pool->shape);

		if (shape != NULL && shape->gpu_model != NULL && pool->count > 0)
			g_ptr_array_add(gpus, (gpointer)shape->gpu_model);
	}
	for (guint i = 0; i < sc->entries->len; i++) {
		const ScenarioEntry *e = &g_array_index(sc->entries, ScenarioEntry, i);
		const K8sObject *obj = NULL;
		guint64 pods = scenario_entry_pods(sc, e, &obj);
		const K8sPod *pod = obj ? k8s_object_as_pod((K8sObject *)obj) : NULL;
		const K8sWorkload *w = obj ? k8s_object_as_workload((K8sObject *)obj) : NULL;
		char *what, *path;

		if (pod == NULL && w == NULL)
			continue; /* scenario_load() reported it */
		what = g_strdup_printf("workload entry %u, %s %s: %" G_GUINT64_FORMAT " pod%s", i,
		                       e->kind, e->name, pods, pods == 1 ? "" : "s");
		path = g_strdup_printf("%s%s", obj->path_prefix ? obj->path_prefix : "",
		                       w != NULL ? "spec.template.spec." : "spec.");
		g_ptr_array_add(strings, what);
		g_ptr_array_add(strings, path);
		add_spec_users(users, strings, pod != NULL ? &pod->spec : &w->template_.spec,
		               k8s_object_namespace(obj), pods, e->memory, what, path);
	}
	lint_shared_claims(sc->objects, gpus, TRUE, (const LintSharedUser *)(gpointer)users->data,
	                   users->len, diags);
}
