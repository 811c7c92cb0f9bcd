/*
 * cel_k8s.h: Kubernetes CEL environments outside DRA (public).
 *
 * The conformance runner and tools use this to build the environments of the upstream
 * library tests (quantity_test.go, semver_test.go) and to inspect Kubernetes values
 * (quantity, semver) that an evaluation returns.
 */
#pragma once

#include <glib.h>

#include "cel.h"
#include "k8s_quantity.h"

G_BEGIN_DECLS

typedef struct {
	gboolean homogeneous;    /* HomogeneousAggregateLiterals (on in Kubernetes) */
	gboolean base_libraries; /* urls, regex, lists, quantity, sets, format */
	gboolean semver;
	guint semver_version; /* 0: semver(s) only; 1: also semver(s, normalize) (1.33+) */
	guint64 cost_limit;   /* 0: none */
} CelK8sEnvOptions;

/*
 * cel_k8s_env_new:
 * Returns: (transfer full): the core environment plus the selected Kubernetes libraries,
 * with constant regex patterns prepared once and runtime cost tracked as cel-go does.
 */
CelEnv *cel_k8s_env_new(const CelK8sEnvOptions *options);

/* TRUE when @v is a kubernetes.Quantity; copies it to @out (nullable). */
gboolean cel_k8s_value_get_quantity(CelValue v, K8sQuantity *out);
/*
 * cel_k8s_value_semver_equal:
 * TRUE when @v is a kubernetes.Semver equal (by precedence, as Semver.Equal) to the
 * version @text (blang semver.Parse syntax). FALSE for anything else.
 */
gboolean cel_k8s_value_semver_equal(CelValue v, const char *text);

G_END_DECLS
