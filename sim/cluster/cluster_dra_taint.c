/*
 * cluster_dra_taint.c: DeviceTaintRules at run time (DRADeviceTaints, alpha
 * in 1.34). The allocator applies the rules while it prepares the inventory,
 * so a NoSchedule or NoExecute taint keeps requests that do not tolerate it
 * off the device. A NoExecute rule also evicts: upstream's device taint
 * eviction controller (pkg/controller/devicetainteviction) deletes the pods
 * whose allocated claims use a tainted device the allocation does not
 * tolerate; the tolerations are those of the request the device was
 * allocated for. tolerationSeconds is not modelled: the eviction is at once.
 */
#include <string.h>

#include "cluster_dra-private.h"

/* resourceclaim.ToleratesTaint (k8s.io/dynamic-resource-allocation) */
static gboolean
tolerates(const DraToleration *t, const DraTaint *taint)
{
	const char *op = t->op != NULL ? t->op : "";

	if (t->key != NULL && t->key[0] != '\0' && g_strcmp0(t->key, taint->key) != 0)
		return FALSE;
	if (t->effect != NULL && t->effect[0] != '\0' && g_strcmp0(t->effect, taint->effect) != 0)
		return FALSE;
	if (op[0] == '\0' || strcmp(op, "Equal") == 0)
		return g_strcmp0(t->value != NULL ? t->value : "",
		                 taint->value != NULL ? taint->value : "") == 0;
	return strcmp(op, "Exists") == 0;
}

/* The request ("req" or "req/sub") of @claim that a result names. */
static const DraExactRequest *
find_request(const DraClaim *claim, const char *name)
{
	const char *slash = name != NULL ? strchr(name, '/') : NULL;
	gsize len = slash != NULL ? (gsize)(slash - name) : (name != NULL ? strlen(name) : 0);

	for (guint r = 0; claim != NULL && name != NULL && r < claim->n_requests; r++) {
		const DraRequest *req = &claim->requests[r];

		if (req->name == NULL || strlen(req->name) != len ||
		    strncmp(req->name, name, len) != 0)
			continue;
		if (slash == NULL)
			return req->has_exactly ? &req->exactly : NULL;
		for (guint s = 0; s < req->n_first_available; s++)
			if (g_strcmp0(req->first_available[s].name, slash + 1) == 0)
				return &req->first_available[s];
	}
	return NULL;
}

static gboolean
rule_names(const DraTaintRule *rule, const DevRef *d)
{
	return (rule->driver == NULL || g_strcmp0(rule->driver, d->driver) == 0) &&
	       (rule->pool == NULL || g_strcmp0(rule->pool, d->pool) == 0) &&
	       (rule->device == NULL || g_strcmp0(rule->device, d->device) == 0);
}

/* TRUE if one of @claim's devices carries @rule's taint without a toleration. */
static gboolean
claim_untolerated(const ClusterClaim *claim, const DraTaintRule *rule)
{
	const ClaimAlloc *a = claim->allocated ? claim->allocation : NULL;

	for (guint i = 0; a != NULL && i < a->devices->len; i++) {
		const DevRef *d = &g_array_index(a->devices, DevRef, i);
		const DraExactRequest *req;
		gboolean ok = FALSE;

		if (!rule_names(rule, d))
			continue;
		/* the special claim of KEP-5004 has no spec: nothing tolerates */
		req = find_request(claim->user_data, d->request);
		for (guint t = 0; req != NULL && t < req->n_tolerations && !ok; t++)
			ok = tolerates(&req->tolerations[t], &rule->taint);
		if (!ok)
			return TRUE;
	}
	return FALSE;
}

static gboolean
pod_untolerated(ClusterDra *self, guint index, const DraTaintRule *rule)
{
	ClusterClaims *claims = cluster_sim_get_claims(self->sim);
	GPtrArray *names = cluster_sim_get_pod_claims(self->sim, index);

	for (guint i = 0; i < names->len; i++) {
		const ClusterClaim *c = cluster_claims_lookup(claims, names->pdata[i]);

		if (c != NULL && claim_untolerated(c, rule))
			return TRUE;
	}
	return FALSE;
}

guint
cluster_dra_add_taint_rule(ClusterDra *self, const DraTaintRule *rule)
{
	guint evicted = 0;

	g_return_val_if_fail(self->sim != NULL, 0);
	if (!self->features.device_taints)
		return 0;
	dra_allocator_add_taint_rule(self->alloc, rule);
	if (g_strcmp0(rule->taint.effect, "NoExecute") != 0)
		return 0;
	/* pod index order: evictions are deterministic */
	for (guint i = 0; i < cluster_sim_get_n_pods(self->sim); i++) {
		ClusterPodPhase phase = cluster_sim_get_pod_phase(self->sim, i);

		if (phase != CLUSTER_POD_RUNNING && phase != CLUSTER_POD_RESTARTING &&
		    phase != CLUSTER_POD_LOST)
			continue;
		if (pod_untolerated(self, i, rule)) {
			cluster_sim_evict_pod(self->sim, i);
			evicted++;
		}
	}
	return evicted;
}

void
cluster_dra_remove_taint_rule(ClusterDra *self, const DraTaintRule *rule)
{
	g_return_if_fail(self->sim != NULL);
	if (!self->features.device_taints)
		return;
	dra_allocator_remove_taint_rule(self->alloc, rule);
	/* Devices came back: DynamicResources' hint for a changed inventory. */
	cluster_sim_notify(self->sim, CLUSTER_EVENT_SLICE_CHANGED);
}
