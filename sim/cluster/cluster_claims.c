/*
 * cluster_claims.c: the resourceclaim controller of kube-controller-manager
 * (pkg/controller/resourceclaim/controller.go) as far as scheduling sees it:
 * one generated claim per (pod, template reference), reservedFor bookkeeping
 * for every consumer of a claim, deallocation when the last consumer is gone,
 * and deletion of generated claims with their pod.
 *
 * Names follow upstream: "<pod>-<podClaim>-" (both parts cut in proportion
 * past 57 characters, losing the trailing '-' as upstream does) plus the
 * apiserver's 5 random characters, drawn here from a named stream.
 */
#include "cluster_claims.h"

#include <string.h>

struct ClusterClaims {
	ClusterClaimsConfig config;
	GHashTable *by_name; /* name -> ClusterClaim *, lookups only */
	GQueue live;         /* ClusterClaim *, creation order */
	guint64 counter;
	guint64 n_generated;
	guint64 n_deallocated;
	guint64 n_deleted;
};

/* k8s.io/apimachinery/pkg/util/rand: no vowels, no confusable digits. */
static const char alphanums[] = "bcdfghjklmnpqrstvwxz2456789";

static void
claim_free(ClusterClaims *self, ClusterClaim *claim)
{
	if (claim->allocation != NULL && self->config.free_allocation != NULL)
		self->config.free_allocation(claim->allocation);
	if (claim->free_user_data != NULL)
		claim->free_user_data(claim->user_data);
	g_ptr_array_unref(claim->reserved_for);
	g_free(claim->name);
	g_free(claim->owner_pod);
	g_free(claim->pod_claim_name);
	g_free(claim);
}

ClusterClaims *
cluster_claims_new(const ClusterClaimsConfig *config)
{
	ClusterClaims *self = g_new0(ClusterClaims, 1);

	if (config != NULL)
		self->config = *config;
	self->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	g_queue_init(&self->live);
	return self;
}

void
cluster_claims_free(ClusterClaims *self)
{
	if (self == NULL)
		return;
	while (!g_queue_is_empty(&self->live))
		claim_free(self, g_queue_pop_head(&self->live));
	g_hash_table_unref(self->by_name);
	g_free(self);
}

/* room for generate_base: 57 bytes at most (the cut parts and one dash) */
#define GENERATED_BASE_MAX 64

static ClusterClaim *
insert(ClusterClaims *self, char *name)
{
	ClusterClaim *claim = g_new0(ClusterClaim, 1);

	claim->name = name;
	claim->reserved_for = g_ptr_array_new_with_free_func(g_free);
	g_hash_table_insert(self->by_name, claim->name, claim);
	g_queue_push_tail(&self->live, claim);
	claim->link = self->live.tail;
	return claim;
}

ClusterClaim *
cluster_claims_add(ClusterClaims *self, const char *name)
{
	if (g_hash_table_contains(self->by_name, name))
		return NULL;
	return insert(self, g_strdup(name));
}

/* handleClaim's generateName: "pod-claim-", or, past maxBaseLen (57), each part cut in
 * proportion and no trailing dash. Written into @out (at most 57 bytes, no NUL): every DRA
 * pod's claim is named here at its arrival, so no formatting and no allocation. */
static gsize
generate_base(const char *pod, const char *pod_claim, char out[GENERATED_BASE_MAX])
{
	gsize pod_len = strlen(pod), claim_len = strlen(pod_claim);
	gsize len = pod_len + claim_len + 2;
	gboolean cut = len > 57;
	gsize pod_keep = cut ? pod_len * 57 / len : pod_len;
	gsize claim_keep = cut ? claim_len * 57 / len : claim_len;
	gsize n = 0;

	memcpy(out, pod, pod_keep);
	n += pod_keep;
	out[n++] = '-';
	memcpy(out + n, pod_claim, claim_keep);
	n += claim_keep;
	if (!cut)
		out[n++] = '-';
	return n;
}

/* names.SimpleNameGenerator: base cut to 58 characters, then 5 random ones. */
static char *
generate_name(ClusterClaims *self, const char *base, gsize base_len)
{
	gsize keep = MIN(base_len, (gsize)58);
	char *name = g_malloc(keep + 6);
	guint64 counter = self->counter++;

	memcpy(name, base, keep);
	for (guint i = 0; i < 5; i++) {
		guint32 k;

		if (self->config.rand != NULL) {
			k = self->config.rand(self->config.rand_data, sizeof(alphanums) - 1);
		} else {
			k = (guint32)(counter % (sizeof(alphanums) - 1));
			counter /= sizeof(alphanums) - 1;
		}
		name[keep + i] = alphanums[k];
	}
	name[keep + 5] = '\0';
	return name;
}

ClusterClaim *
cluster_claims_generate(ClusterClaims *self, const char *pod_name, const char *pod_claim_name)
{
	char base[GENERATED_BASE_MAX];
	gsize base_len = generate_base(pod_name, pod_claim_name, base);
	char *name = generate_name(self, base, base_len);
	ClusterClaim *claim;

	/* The apiserver retries a taken generated name; so do we. */
	while (g_hash_table_contains(self->by_name, name)) {
		g_free(name);
		name = generate_name(self, base, base_len);
	}
	claim = insert(self, name);
	claim->owner_pod = g_strdup(pod_name);
	claim->pod_claim_name = g_strdup(pod_claim_name);
	self->n_generated++;
	return claim;
}

ClusterClaim *
cluster_claims_lookup(ClusterClaims *self, const char *name)
{
	return g_hash_table_lookup(self->by_name, name);
}

void
cluster_claims_allocate(ClusterClaims *self, ClusterClaim *claim, gpointer allocation)
{
	if (claim->allocation != NULL && self->config.free_allocation != NULL)
		self->config.free_allocation(claim->allocation);
	claim->allocation = allocation;
	claim->allocated = TRUE;
}

static gint
reserved_index(const ClusterClaim *claim, const char *pod)
{
	for (guint i = 0; i < claim->reserved_for->len; i++) {
		if (strcmp(claim->reserved_for->pdata[i], pod) == 0)
			return (gint)i;
	}
	return -1;
}

gboolean
cluster_claims_is_reserved_for(const ClusterClaim *claim, const char *pod)
{
	return reserved_index(claim, pod) >= 0;
}

gboolean
cluster_claims_can_reserve(const ClusterClaim *claim, const char *pod)
{
	return claim->reserved_for->len < CLUSTER_CLAIM_RESERVED_FOR_MAX ||
	       reserved_index(claim, pod) >= 0;
}

gboolean
cluster_claims_reserve(ClusterClaims *self, ClusterClaim *claim, const char *pod)
{
	if (reserved_index(claim, pod) >= 0)
		return TRUE;
	if (!cluster_claims_can_reserve(claim, pod))
		return FALSE;
	g_ptr_array_add(claim->reserved_for, g_strdup(pod));
	return TRUE;
}

/* Structured parameters need no driver to deallocate: clear status.allocation. */
static void
deallocate(ClusterClaims *self, ClusterClaim *claim)
{
	/* the callback still sees the allocation, to release its devices */
	if (self->config.on_deallocated != NULL)
		self->config.on_deallocated(self->config.on_deallocated_data, claim);
	if (claim->allocation != NULL && self->config.free_allocation != NULL)
		self->config.free_allocation(claim->allocation);
	claim->allocation = NULL;
	claim->allocated = FALSE;
	self->n_deallocated++;
}

gboolean
cluster_claims_deallocate_unreserved(ClusterClaims *self, ClusterClaim *claim)
{
	if (!claim->allocated || claim->reserved_for->len > 0)
		return FALSE;
	deallocate(self, claim);
	return TRUE;
}

gboolean
cluster_claims_release(ClusterClaims *self, ClusterClaim *claim, const char *pod)
{
	gint index = reserved_index(claim, pod);
	gboolean deallocated = FALSE;

	if (index >= 0)
		g_ptr_array_remove_index(claim->reserved_for, (guint)index);
	if (claim->allocated && claim->reserved_for->len == 0) {
		deallocate(self, claim);
		deallocated = TRUE;
	}
	if (claim->owner_pod != NULL && strcmp(claim->owner_pod, pod) == 0) {
		g_hash_table_remove(self->by_name, claim->name);
		g_queue_delete_link(&self->live, claim->link);
		self->n_deleted++;
		claim_free(self, claim);
	}
	return deallocated;
}

guint
cluster_claims_get_length(const ClusterClaims *self)
{
	return self->live.length;
}

void
cluster_claims_foreach(ClusterClaims *self, GFunc func, gpointer user_data)
{
	g_queue_foreach(&self->live, func, user_data);
}

guint64
cluster_claims_get_n_generated(const ClusterClaims *self)
{
	return self->n_generated;
}

guint64
cluster_claims_get_n_deallocated(const ClusterClaims *self)
{
	return self->n_deallocated;
}

guint64
cluster_claims_get_n_deleted(const ClusterClaims *self)
{
	return self->n_deleted;
}

ClusterClaim *
cluster_claims_adopt(ClusterClaims *self, const char *name, const char *pod, const char *pod_claim)
{
	ClusterClaim *claim = cluster_claims_lookup(self, name);

	if (claim == NULL || claim->owner_pod != NULL)
		return NULL;
	claim->owner_pod = g_strdup(pod);
	g_free(claim->pod_claim_name);
	claim->pod_claim_name = g_strdup(pod_claim);
	return claim;
}
