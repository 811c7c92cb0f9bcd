/*
 * lint.h: the passes `drasim lint` runs after decoding and validation, one per room
 * that has something to say about manifests (CEL compilation, allocator reach), and
 * what it knows once a driver is implied: the chart's DeviceClasses (lint_classes.c)
 * and a scenario's cluster and modes (lint_scenario.c).
 */
#pragma once

#include <stdio.h>

#include "k8s_diag.h"
#include "k8s_objects.h"
#include "scenario.h"

/* Compiles every CEL selector; errors and over-limit cost estimates at their position. */
void lint_cel_selectors(K8sObjectSet *set, K8sDiagList *diags);
/* Warns for requests that can match no device of the given ResourceSlices. */
void lint_dra_requests(K8sObjectSet *set, K8sDiagList *diags);

/* ---- the NVIDIA DRA driver's DeviceClasses (lint_classes.c) ---- */

/**
 * lint_classes_add_chart:
 * Adds to @set the DeviceClasses the NVIDIA DRA driver's chart installs that @set does
 * not define, and warns for a manifest class of a chart class's name whose spec differs
 * (it replaces the chart's object). Returns: how many classes were added.
 */
guint lint_classes_add_chart(K8sObjectSet *set, K8sDiagList *diags);
/* Warns for manifest classes of @set named like a chart class but with another spec. */
void lint_classes_check_overrides(const K8sObjectSet *set, K8sDiagList *diags);
/* Appends to @diags the findings of @found, except those about the chart's own classes. */
void lint_classes_append_user(K8sDiagList *diags, const K8sDiagList *found);
/* Prints a note for each chart class @diags reports as not found (no driver implied). */
void lint_classes_print_hints(const K8sDiagList *diags, FILE *out);

/* ---- scenarios (lint_scenario.c) ---- */

/* TRUE when @path is a file holding a drasim Scenario (apiVersion drasim.io/..., kind Scenario). */
gboolean lint_is_scenario(const char *path);
/**
 * lint_scenario:
 * Lints the scenario @path as `drasim run` reads it (the same errors), then its manifests:
 * validation and cross-checks with the DRA world's classes, CEL, and in each mode the
 * checks against the cluster it builds (devices for DRA, device-plugin nodes for
 * extended). A finding of some modes only names them. Returns: the number of manifest objects (for
 * the summary).
 */
guint lint_scenario(const char *path, K8sDiagList *diags);
/* Prints a note when the directory @path holds a scenario.yaml (lint DIR skips it). */
void lint_print_dir_hint(const char *path, FILE *out);

/* ---- claims shared by many pods (lint_shared.c) ---- */

/* One pod template that names a ResourceClaim, with the pods it makes. */
typedef struct {
	const char *claim;      /* resourceClaimName */
	const char *namespace_; /* the pods' */
	guint64 pods;           /* pods that share the claim through this template */
	gint64 memory;          /* GPU memory each pod uses (bytes); 0 = not declared */
	const char *object;     /* what the message names: "Deployment notebook: 12 pods" */
	K8sPos pos;             /* of the resourceClaimName */
	const char *path;
} LintSharedUser;

/**
 * lint_shared_claims:
 * Warns, at the first user's reference, for each ResourceClaim of @set whose
 * @users' pods need more GPU memory than its devices have (the devices' memory from
 * @gpus, the HwGpuModel* the cluster has when @gpus_are_cluster, else the catalog's,
 * where a selector names the product or MIG profile), or, when no memory is declared,
 * more than 8 pods per device.
 */
void lint_shared_claims(const K8sObjectSet *set,
                        const GPtrArray *gpus,
                        gboolean gpus_are_cluster,
                        const LintSharedUser *users,
                        guint n_users,
                        K8sDiagList *diags);
/* The pass over manifests: Pods and workload templates, replicas (a Job: parallelism). */
void lint_shared_claims_manifests(K8sObjectSet *set, K8sDiagList *diags);
/* A scenario's workload entries: count x replicas pods, each of the entry's memory. */
void lint_shared_claims_scenario(const Scenario *sc, K8sDiagList *diags);
