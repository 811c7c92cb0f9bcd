/*
 * cluster_dra_taint.c: DeviceTaintRules at run time (DRADeviceTaints, alpha
 * in 1.34). The allocator applies the rules while it prepares the inventory,
 * so a NoSchedule or NoExecute taint keeps requests that do not tolerate it
 * off the device. A NoExecute rule also evicts, as upstream's device taint
 * eviction controller does (pkg/controller/devicetainteviction/
 * device_taint_eviction.go, claimEvictionTime): for each allocated device of
 * a claim and each NoExecute rule naming it, the request's tolerations with
 * effect NoExecute that match the taint decide: one without tolerationSeconds
 * tolerates forever; otherwise the pod goes at the time the taint was added
 * plus the smallest tolerationSeconds (negative counts as 0), or at once when
 * none matches. A pod goes at the earliest such time over its claims.
 * Production quirk kept: a toleration with an empty effect lets the allocator
 * use the device but does not hold off the eviction.
 */
#include <string.h>

#include "cluster_dra-private.h"

typedef struct {
	const DraTaintRule *rule;
	SimTime added; /* the taint's TimeAdded */
} EvictingRule;

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

/* When @er's taint on a device allocated for @req evicts; SIM_TIME_NEVER: tolerated forever. */
static SimTime
device_eviction(const EvictingRule *er, const DraExactRequest *req)
{
	gint64 secs = G_MAXINT64;

	/* the special claim of KEP-5004 has no spec: nothing tolerates */
	for (guint t = 0; req != NULL && t < req->n_tolerations; t++) {
		const DraToleration *tol = &req->tolerations[t];

		if (g_strcmp0(tol->effect, "NoExecute") != 0 || !tolerates(tol, &er->rule->taint))
			continue;
		if (!tol->has_seconds)
			return SIM_TIME_NEVER;
		secs = MIN(secs, MAX(tol->seconds, 0));
	}
	if (secs == G_MAXINT64)
		return er->added;
	if (secs >= (SIM_TIME_NEVER - er->added) / SIM_TIME_S)
		return SIM_TIME_NEVER - 1; /* past any horizon, but not "tolerated" */
	return er->added + secs * SIM_TIME_S;
}

/* claimEvictionTime: the earliest over its devices and the rules naming them. */
static SimTime
claim_eviction(const ClusterDra *self, const ClusterClaim *claim)
{
	const ClaimAlloc *a = claim->allocated ? claim->allocation : NULL;
	SimTime when = SIM_TIME_NEVER;

	for (guint i = 0; a != NULL && i < a->devices->len; i++) {
		const DevRef *d = &g_array_index(a->devices, DevRef, i);
		const DraExactRequest *req = NULL;
		gboolean looked = FALSE;

		for (guint r = 0; r < self->evicting->len; r++) {
			const EvictingRule *er = &g_array_index(self->evicting, EvictingRule, r);

			if (!rule_names(er->rule, d))
				continue;
			if (!looked) {
				req = find_request(claim->user_data, d->request);
				looked = TRUE;
			}
			when = MIN(when, device_eviction(er, req));
		}
	}
	return when;
}

/* podEvictionTime: the earliest over the pod's claims. */
static SimTime
pod_eviction(ClusterDra *self, guint index)
{
	ClusterClaims *claims = cluster_sim_get_claims(self->sim);
	GPtrArray *names = cluster_sim_get_pod_claims(self->sim, index);
	SimTime when = SIM_TIME_NEVER;

	for (guint i = 0; i < names->len; i++) {
		const ClusterClaim *c = cluster_claims_lookup(claims, names->pdata[i]);

		if (c != NULL)
			when = MIN(when, claim_eviction(self, c));
	}
	return when;
}

static gboolean
is_bound(ClusterDra *self, guint index)
{
	return cluster_pod_phase_is_bound(cluster_sim_get_pod_phase(self->sim, index));
}

/* Sets, moves or cancels the pod's eviction; returns TRUE if it was evicted now. */
static gboolean
sync_pod(ClusterDra *self, guint index)
{
	SimTime when = pod_eviction(self, index);

	if (when == SIM_TIME_NEVER) {
		cluster_sim_clear_device_eviction(self->sim, index);
		return FALSE;
	}
	cluster_sim_set_device_eviction(self->sim, index, when);
	return !is_bound(self, index);
}

/* Every bound pod, in index order: evictions are deterministic. */
static guint
sync_all(ClusterDra *self)
{
	guint evicted = 0;

	for (guint i = 0; i < cluster_sim_get_n_pods(self->sim); i++)
		if (is_bound(self, i) && sync_pod(self, i))
			evicted++;
	return evicted;
}

guint
cluster_dra_add_taint_rule(ClusterDra *self, const DraTaintRule *rule)
{
	EvictingRule er = { rule, 0 };

	g_return_val_if_fail(self->sim != NULL, 0);
	if (!self->features.device_taints)
		return 0;
	dra_allocator_add_taint_rule(self->alloc, rule);
	if (g_strcmp0(rule->taint.effect, "NoExecute") != 0)
		return 0;
	if (self->evicting == NULL)
		self->evicting = g_array_new(FALSE, FALSE, sizeof(EvictingRule));
	er.added = cluster_sim_get_now(self->sim);
	g_array_append_val(self->evicting, er);
	return sync_all(self);
}

guint
cluster_dra_add_taint_rule_object(ClusterDra *self, const K8sDeviceTaintRule *rule)
{
	/* the converted rule lives as long as the input (dra_input_taint_rule) */
	return cluster_dra_add_taint_rule(self, dra_input_taint_rule(self->input, rule));
}

void
cluster_dra_remove_taint_rule(ClusterDra *self, const DraTaintRule *rule)
{
	g_return_if_fail(self->sim != NULL);
	if (!self->features.device_taints)
		return;
	dra_allocator_remove_taint_rule(self->alloc, rule);
	for (guint r = 0; self->evicting != NULL && r < self->evicting->len; r++) {
		if (g_array_index(self->evicting, EvictingRule, r).rule == rule) {
			g_array_remove_index(self->evicting, r);
			sync_all(self);
			break;
		}
	}
	/* Devices came back: DynamicResources' hint for a changed inventory. */
	cluster_sim_notify(self->sim, CLUSTER_EVENT_SLICE_CHANGED);
}

void
cluster_dra__taint_bound(gpointer data, const ClusterPod *pod)
{
	ClusterDra *self = data;

	/* the common case: no NoExecute rule, nothing to look at */
	if (self->evicting != NULL && self->evicting->len > 0)
		sync_pod(self, (guint)pod->uid);
}
