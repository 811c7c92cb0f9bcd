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
#include "cel_lib_k8s_env.h"

#include <string.h>

#include "cel_cost.h"
#include "cel_lib_k8s.h"

typedef struct {
	CelK8sRewriteFn extra;
	gpointer extra_data;
} K8sHookData;

/* A library call on constants, evaluated once at compile time (cel-go folds these too). */
typedef struct {
	CelValue value;
	guint64 cost; /* what the call costs at run time */
} ConstHost;

static CelValue
const_host_eval(CelActivation *act, const CelAst *self)
{
	const ConstHost *h = self->host.data;
	act->cost += h->cost;
	return h->value;
}

gboolean
cel_k8s_const_host_value(const CelAst *node, CelValue *value, guint64 *cost)
{
	if (node->kind != CEL_AST_HOST || node->host.eval != const_host_eval) {
		return FALSE;
	}
	*value = ((const ConstHost *)node->host.data)->value;
	*cost = ((const ConstHost *)node->host.data)->cost;
	return TRUE;
}

/* quantity("1Gi"), semver("1.2.3"[, true]): parse now; errors stay run-time errors. */
static CelAst *
fold_constructor(CelAst *node, BaseArena *arena)
{
	K8sQuantity q;
	CelSemver v;
	char err[CEL_K8S_ERRBUF];
	ConstHost h = { 0 };

	if (node->kind != CEL_AST_CALL || node->call.target != NULL || node->call.nargs < 1 ||
	    node->call.noverloads != 1) {
		return node;
	}
	const char *id = node->call.overloads[0]->def->id;
	const CelAst *arg = node->call.args[0];
	if (arg->kind != CEL_AST_CONST || arg->constant.kind != CEL_KIND_STRING) {
		return node;
	}
	if (strcmp(id, "string_to_quantity") == 0) {
		if (!k8s_quantity_parse(arg->constant.str, arg->constant.aux, &q, NULL)) {
			return node;
		}
		CelQuantityObj *obj = base_arena_alloc(arena, sizeof *obj);
		obj->base.klass = &cel_quantity_class;
		obj->q = q;
		h.value = cel_value_object(&obj->base);
		/* library CallCost: ceil(size(arg) * StringTraversalCostFactor) */
		h.cost = (cel_utf8_length(arg->constant.str, arg->constant.aux) + 9) / 10;
	} else if (strcmp(id, "string_to_semver") == 0 ||
	           strcmp(id, "string_bool_to_semver") == 0) {
		gboolean normalize = FALSE;
		if (node->call.nargs == 2) {
			const CelAst *flag = node->call.args[1];
			if (flag->kind != CEL_AST_CONST || flag->constant.kind != CEL_KIND_BOOL) {
				return node;
			}
			normalize = flag->constant.b;
		}
		gsize len = arg->constant.aux;
		char *text = base_arena_strndup(arena, arg->constant.str, len);
		char *buf = base_arena_alloc(arena, len + 8);
		if (!cel_semver_parse(&v, text, len, normalize, buf, err)) {
			return node;
		}
		CelSemverObj *obj = base_arena_alloc(arena, sizeof *obj);
		obj->base.klass = &cel_semver_class;
		obj->v = v;
		h.value = cel_value_object(&obj->base);
		h.cost = 1;
	} else {
		return node;
	}
	ConstHost *data = base_arena_alloc(arena, sizeof *data);
	*data = h;
	CelAst *host = base_arena_alloc(arena, sizeof *host);
	*host = *node;
	host->kind = CEL_AST_HOST;
	host->host.eval = const_host_eval;
	host->host.data = data;
	host->host.original = node;
	return host;
}

static CelAst *
k8s_rewrite(CelEnv *env, CelAst *node, BaseArena *arena, gpointer data)
{
	const K8sHookData *hooks = data;

	node = cel_regex_rewrite(node, arena);
	node = fold_constructor(node, arena);
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
	K8sHookData *hooks = base_arena_alloc(&env->arena, sizeof *hooks);

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
		cel_lib_k8s_ip_register(env);
		cel_lib_k8s_format_register(env);
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
