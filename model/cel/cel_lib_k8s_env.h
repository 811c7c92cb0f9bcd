/*
 * cel_lib_k8s_env.h: building a Kubernetes CEL environment with an embedder's rewrite pass
 * (internal to model/cel; cel_dra.c uses it).
 */
#pragma once

#include "cel-private.h"
#include "cel_k8s.h"

G_BEGIN_DECLS

/* An extra rewrite pass (after the regex one), e.g. the DRA device lookups. */
typedef CelAst *(*CelK8sRewriteFn)(CelEnv *env, CelAst *node, BaseArena *arena, gpointer data);

/* cel_k8s_env_new() with an extra rewrite pass; @extra_data must outlive the env. */
CelEnv *
cel_k8s_env_new_full(const CelK8sEnvOptions *options, CelK8sRewriteFn extra, gpointer extra_data);

/* TRUE when @node is a library call folded at compile time: its value and run-time cost. */
gboolean cel_k8s_const_host_value(const CelAst *node, CelValue *value, guint64 *cost);

G_END_DECLS
