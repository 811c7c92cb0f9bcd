/*
 * k8s_lint.c: load, validate, cross-check; the core of `drasim lint`.
 *
 * Objects that decoded with errors are still validated: Kubernetes would report every
 * problem of a manifest at once, and so does lint.
 */
#include "k8s_lint.h"

#include <glib.h>

#include "k8s_validate.h"

void
k8s_lint_set(const K8sObjectSet *set, K8sDiagList *diags)
{
	k8s_validate_set(set, diags);
	k8s_validate_references(set, diags);
}

gboolean
k8s_lint_paths(const char *const *paths, K8sLoadFlags flags, K8sObjectSet *set, K8sDiagList *diags)
{
	guint before = k8s_diag_list_count_errors(diags);

	k8s_load_paths(paths, flags, set, diags);
	k8s_lint_set(set, diags);
	return k8s_diag_list_count_errors(diags) == before;
}
