/*
 * cluster_claim_use.h: whether a pod may use a claim, the one rule that
 * DynamicResources' PreFilter in the simulator (cluster_dra.c) and `drasim
 * allocate` (sim/cli/cmd_allocate.c) both apply before allocating. Part of the
 * claim controller (cluster_claims.c); a header of its own so that cluster.h,
 * being split into one face per subsystem, need not change.
 */
#pragma once

#include "cluster.h"

G_BEGIN_DECLS

/**
 * cluster_claims_can_reserve:
 *
 * k8s.io/dynamic-resource-allocation/resourceclaim CanBeReserved: @pod is
 * already in @claim's reservedFor, or reservedFor has room for one more
 * consumer (fewer than CLUSTER_CLAIM_RESERVED_FOR_MAX, 256). A pod whose
 * allocated claim cannot be reserved is unschedulable ("resourceclaim in use").
 */
gboolean cluster_claims_can_reserve(const ClusterClaim *claim, const char *pod);

G_END_DECLS
