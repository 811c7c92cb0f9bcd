/*
 * lint.h: the passes `drasim lint` runs after decoding and validation, one per room
 * that has something to say about manifests (CEL compilation, allocator reach).
 */
#pragma once

#include "k8s_diag.h"
#include "k8s_objects.h"

/* Compiles every CEL selector; errors and over-limit cost estimates at their position. */
void lint_cel_selectors(K8sObjectSet *set, K8sDiagList *diags);
/* Warns for requests that can match no device of the given ResourceSlices. */
void lint_dra_requests(K8sObjectSet *set, K8sDiagList *diags);
