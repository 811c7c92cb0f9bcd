/*
 * k8s_lint.h: what `drasim lint` does with the manifests it is given, as a library call.
 *
 * Loading (strict decoding), Kubernetes'
 * validation of each object and the checks between objects, in that order, all into one
 * diagnostic list. The CLI adds the passes of later rooms (CEL) on the same set; the
 * benchmark calls this directly.
 */
#pragma once

#include <glib.h>

#include "k8s_diag.h"
#include "k8s_objects.h"

G_BEGIN_DECLS

/**
 * k8s_lint_paths:
 * Loads @paths (files and directories) into @set with @flags, validates every object and
 * cross-checks the set. Diagnostics are appended to @diags in the order found (sort them
 * with k8s_diag_list_sort() before printing).
 * Returns: TRUE when no error was found (warnings are fine).
 */
gboolean
k8s_lint_paths(const char *const *paths, K8sLoadFlags flags, K8sObjectSet *set, K8sDiagList *diags);

/** k8s_lint_set: validation and cross-checks of an already loaded @set. */
void k8s_lint_set(const K8sObjectSet *set, K8sDiagList *diags);

G_END_DECLS
