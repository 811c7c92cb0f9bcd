/*
 * cel_lib_k8s_env.c: the Kubernetes CEL base environment on top of the core environment.
 *
 * k8s.io/apiserver/pkg/cel/environment/base.go (release-1.34) enables, besides what the core
 * gives (standard library, ext.Strings v2, optional types, two-variable comprehensions,
 * cel.bind): HomogeneousAggregateLiterals, the url, regex and lists libraries, quantity,
 * ext.Sets, format, semver v1, and cost tracking with the Kubernetes cost estimator. This
 * file assembles that set and installs the hooks: constant regex patterns compiled once,
 * runtime cost per node, and an optional extra rewrite for an embedding environment (DRA).
 */
#include <string.h>

#include "cel_cost.h"
#include "cel_lib_k8s.h"
#include "cel_lib_k8s_env.h"

typedef struct {
	CelK8sRewriteFn extra;
	gpointer extra_data;
} K8sHookData;

static CelAst *
k8s_rewrite(CelEnv *env, CelAst *node, CelArena *arena, gpointer data)
{
	const K8sHookData *hooks = data;

	node = cel_regex_rewrite(node, arena);
	if (hooks->extra != NULL) {
		node = hooks->extra(env, node, arena, hooks->extra_data);
	}
	return node;
}

CelEnv *
cel_k8s_env_new(const CelK8sEnvOptions *options)
{
	return cel_k8s_env_new_full(options, NULL, NULL);
}

CelEnv *
cel_k8s_env_new_full(const CelK8sEnvOptions *options, CelK8sRewriteFn extra, gpointer extra_data)
{
	CelEnv *env = cel_env_new();
	K8sHookData *hooks = cel_arena_alloc(&env->arena, sizeof *hooks);

	cel_env_set_homogeneous_literals(env, options->homogeneous);
	if (cel_env_lookup_function(env, "matches") == NULL) {
		cel_lib_regex_register_matches(env);
	}
	if (options->base_libraries) {
		cel_lib_k8s_urls_register(env);
		cel_lib_regex_register(env);
		cel_lib_k8s_lists_register(env);
		cel_lib_k8s_quantity_register(env);
		cel_lib_k8s_sets_register(env);
		/* TODO(cel-k8s): the format library (format.dns1123Label() ...) is not ported yet. */
	}
	if (options->semver) {
		cel_lib_k8s_semver_register(env, options->semver_version);
	}
	hooks->extra = extra;
	hooks->extra_data = extra_data;
	env->hooks.rewrite = k8s_rewrite;
	env->hooks.observe = cel_cost_observe;
	env->hooks.data = hooks;
	if (options->cost_limit > 0) {
		cel_env_set_cost_limit(env, options->cost_limit);
	}
	return env;
}

gboolean
cel_k8s_value_get_quantity(CelValue v, K8sQuantity *out)
{
	const K8sQuantity *q = cel_quantity_of(v);
	if (q != NULL && out != NULL) {
		*out = *q;
	}
	return q != NULL;
}

gboolean
cel_k8s_value_semver_equal(CelValue v, const char *text)
{
	char err[CEL_K8S_ERRBUF];
	CelSemver want;
	const CelSemver *got = cel_semver_of(v);
	return got != NULL && cel_semver_parse(&want, text, strlen(text), FALSE, NULL, err) &&
	       cel_semver_compare(got, &want) == 0;
}
