/*
 * lint_dra.c: the allocator pass of `drasim lint`: a request whose DeviceClass and
 * selectors match no device of the ResourceSlices given alongside can never be
 * allocated, so the pod would stay Pending. Runs with Kubernetes 1.34's default gates.
 */
#include "dra_k8s.h"
#include "lint.h"

void
lint_dra_requests(K8sObjectSet *set, K8sDiagList *diags)
{
	DraFeatures features = dra_features_default();

	dra_lint_requests(set, &features, diags);
}
