/*
 * cluster_claims.h: the resource-claim controller: user and generated ResourceClaims,
 * their allocation and reservedFor, deallocation when nobody uses them.
 *
 * ClusterClaims is opaque. ClusterClaim, one claim as the allocator adapter
 * reads it, and the configuration are plain values.
 */
#pragma once

#include <glib.h>

#include "cluster_types.h"
#include "sim.h"

G_BEGIN_DECLS

/* ============================================== resource-claim controller */

#define CLUSTER_CLAIM_RESERVED_FOR_MAX 256 /* ResourceClaimReservedForMaxSize */

typedef struct {
	char *name;
	char *owner_pod;         /* generated from a template: the owning pod; else NULL */
	char *pod_claim_name;    /* annotation resource.kubernetes.io/pod-claim-name */
	GPtrArray *reserved_for; /* pod names (char *), in reservation order */
	gboolean allocated;
	gpointer allocation; /* opaque (model/dra result), freed by the controller's free func */
	gpointer user_data;
	GDestroyNotify free_user_data; /* (nullable) frees user_data with the claim */
	GList *link; /* private: position in the controller's creation-order list */
} ClusterClaim;

typedef struct ClusterClaims ClusterClaims;

typedef struct {
	ClusterRandFunc rand; /* name suffixes; NULL = a counter-based suffix */
	gpointer rand_data;
	GDestroyNotify free_allocation;
	/* (nullable) called when a claim is deallocated, with its allocation still set */
	void (*on_deallocated)(gpointer data, ClusterClaim *claim);
	gpointer on_deallocated_data;
} ClusterClaimsConfig;

ClusterClaims *cluster_claims_new(const ClusterClaimsConfig *config);
void cluster_claims_free(ClusterClaims *self);
/* A user-created claim (resourceClaimName). Returns NULL if the name is taken. */
ClusterClaim *cluster_claims_add(ClusterClaims *self, const char *name);
/**
 * cluster_claims_generate:
 *
 * The resourceclaim controller's claim for (pod, podClaim) from a template:
 * named "<pod>-<podClaim>-<5 chars>" (truncated like upstream), owned by the pod.
 *
 * Returns: (transfer none): the new claim.
 */
ClusterClaim *
cluster_claims_generate(ClusterClaims *self, const char *pod_name, const char *pod_claim_name);
ClusterClaim *cluster_claims_lookup(ClusterClaims *self, const char *name);
/*
 * The claim the controller generated for (@pod, @pod_claim) before the run
 * started (an imported pod's status.resourceClaimStatuses names it): claim
 * @name, if it exists and no pod owns it yet, becomes owned by @pod as a
 * generated claim is. Returns: (transfer none) (nullable): the claim.
 */
ClusterClaim *
cluster_claims_adopt(ClusterClaims *self, const char *name, const char *pod, const char *pod_claim);
/* Records the allocation (takes ownership). */
void cluster_claims_allocate(ClusterClaims *self, ClusterClaim *claim, gpointer allocation);
/* Adds @pod to reservedFor. FALSE if full (256) and @pod is not yet in it. */
gboolean cluster_claims_reserve(ClusterClaims *self, ClusterClaim *claim, const char *pod);
gboolean cluster_claims_is_reserved_for(const ClusterClaim *claim, const char *pod);
/**
 * cluster_claims_release:
 *
 * @pod ended or was deleted: it leaves reservedFor; an allocated claim whose
 * reservedFor becomes empty is deallocated; a claim generated for @pod is
 * deleted (and @claim is then freed). Returns TRUE if the claim was deallocated.
 */
gboolean cluster_claims_release(ClusterClaims *self, ClusterClaim *claim, const char *pod);
/* Clears the allocation of a claim reserved by nobody (PostFilter). */
gboolean cluster_claims_deallocate_unreserved(ClusterClaims *self, ClusterClaim *claim);
guint cluster_claims_get_length(const ClusterClaims *self); /* live claims */
/* Calls @func on every live claim in creation order; @func must not delete claims. */
void cluster_claims_foreach(ClusterClaims *self, GFunc func, gpointer user_data);
guint64 cluster_claims_get_n_generated(const ClusterClaims *self);
guint64 cluster_claims_get_n_deallocated(const ClusterClaims *self);
guint64 cluster_claims_get_n_deleted(const ClusterClaims *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterClaims, cluster_claims_free)

/**
 * cluster_claims_can_reserve:
 *
 * k8s.io/dynamic-resource-allocation/resourceclaim CanBeReserved: @pod is
 * already in @claim's reservedFor, or reservedFor has room for one more
 * consumer (fewer than CLUSTER_CLAIM_RESERVED_FOR_MAX, 256). A pod whose
 * allocated claim cannot be reserved is unschedulable ("resourceclaim in use").
 * The one rule DynamicResources' PreFilter (cluster_dra.c) and `drasim
 * allocate` both apply before allocating.
 */
gboolean cluster_claims_can_reserve(const ClusterClaim *claim, const char *pod);

G_END_DECLS
