/*
 * cel_program.c: compile = parse + check + host rewrites + constant folding,
 * and the activation (variables plus the scratch arena of evaluations).
 *
 * Folding evaluates, once, every call whose arguments are all constants and
 * every list/map literal of constants, so e.g. `x in ['a', 'b']` does not
 * rebuild its list per evaluation. It is skipped when a cost observer is set,
 * because cel-go charges those calls at runtime and costs must match.
 */
#include <string.h>

#include "cel-private.h"

static CelAst *
rewrite(CelEnv *env, CelAst *n, BaseArena *arena)
{
	switch (n->kind) {
	case CEL_AST_SELECT:
		n->select.operand = rewrite(env, n->select.operand, arena);
		break;
	case CEL_AST_CALL:
		if (n->call.target) {
			n->call.target = rewrite(env, n->call.target, arena);
		}
		for (guint i = 0; i < n->call.nargs; i++) {
			n->call.args[i] = rewrite(env, n->call.args[i], arena);
		}
		break;
	case CEL_AST_LIST:
		for (guint i = 0; i < n->list.n; i++) {
			n->list.elems[i] = rewrite(env, n->list.elems[i], arena);
		}
		break;
	case CEL_AST_MAP:
		for (guint i = 0; i < n->map.n; i++) {
			n->map.keys[i] = rewrite(env, n->map.keys[i], arena);
			n->map.values[i] = rewrite(env, n->map.values[i], arena);
		}
		break;
	case CEL_AST_COMPREHENSION:
		n->comp.iter_range = rewrite(env, n->comp.iter_range, arena);
		n->comp.accu_init = rewrite(env, n->comp.accu_init, arena);
		n->comp.loop_cond = rewrite(env, n->comp.loop_cond, arena);
		n->comp.loop_step = rewrite(env, n->comp.loop_step, arena);
		n->comp.result = rewrite(env, n->comp.result, arena);
		break;
	default:
		break;
	}
	return env->hooks.rewrite(env, n, arena, env->hooks.data);
}

static gboolean
is_const(const CelAst *n)
{
	return n->kind == CEL_AST_CONST;
}

static void
make_const(CelAst *n, CelValue v)
{
	v.flags &= ~CEL_VALUE_MUTABLE;
	n->kind = CEL_AST_CONST;
	n->constant = v;
}

static void
fold(CelActivation *act, CelAst *n)
{
	switch (n->kind) {
	case CEL_AST_IDENT:
		if (n->ident.ref == CEL_REF_CONST) {
			make_const(n, n->ident.constant);
		}
		return;
	case CEL_AST_SELECT:
		fold(act, n->select.operand);
		return;
	case CEL_AST_CALL: {
		gboolean all = TRUE;
		if (n->call.target) {
			fold(act, n->call.target);
			all = is_const(n->call.target);
		}
		for (guint i = 0; i < n->call.nargs; i++) {
			fold(act, n->call.args[i]);
			all = all && is_const(n->call.args[i]);
		}
		if (!all || n->call.noverloads == 0 || n->call.special == CEL_SPECIAL_OR_VALUE ||
		    n->call.special == CEL_SPECIAL_OR_OPT) {
			return;
		}
		break;
	}
	case CEL_AST_LIST:
		for (guint i = 0; i < n->list.n; i++) {
			fold(act, n->list.elems[i]);
			if (!is_const(n->list.elems[i])) {
				return;
			}
		}
		if (n->list.n == 0) {
			return; /* may be a comprehension accumulator */
		}
		break;
	case CEL_AST_MAP:
		for (guint i = 0; i < n->map.n; i++) {
			fold(act, n->map.keys[i]);
			fold(act, n->map.values[i]);
			if (!is_const(n->map.keys[i]) || !is_const(n->map.values[i])) {
				return;
			}
		}
		if (n->map.n == 0) {
			return;
		}
		break;
	case CEL_AST_COMPREHENSION:
		fold(act, n->comp.iter_range);
		fold(act, n->comp.accu_init);
		fold(act, n->comp.loop_cond);
		fold(act, n->comp.loop_step);
		fold(act, n->comp.result);
		return;
	default:
		return;
	}
	CelValue v = cel_eval_node(act, n);
	if (v.kind != CEL_KIND_ERROR) {
		make_const(n, v);
	}
}

CelProgram *
cel_program_compile(CelEnv *env, const char *source, GError **error)
{
	g_return_val_if_fail(source != NULL, NULL);
	return cel_program_compile_len(env, source, strlen(source), error);
}

CelProgram *
cel_program_compile_len(CelEnv *env, const char *source, gsize len, GError **error)
{
	g_return_val_if_fail(source != NULL, NULL);
	CelProgram *self = g_new0(CelProgram, 1);
	self->env = cel_env_ref(env);
	if (!cel_parse(&self->tree, source, len, !env->disable_macros, error) ||
	    !cel_check(env, &self->tree, !env->disable_check, &self->nlocals, error)) {
		cel_program_free(self);
		return NULL;
	}
	if (env->hooks.checked != NULL &&
	    !env->hooks.checked(env, &self->tree, env->hooks.data, error)) {
		cel_program_free(self);
		return NULL;
	}
	if (env->hooks.rewrite != NULL) {
		self->tree.root = rewrite(env, self->tree.root, &self->tree.arena);
	}
	self->type = self->tree.root->type;
	if (env->hooks.observe == NULL) {
		CelActivation *act = cel_activation_new(env);
		act->alloc = &self->tree.arena;
		act->locals = g_new0(CelValue, MAX(self->nlocals, 1));
		act->nlocals = self->nlocals;
		fold(act, self->tree.root);
		cel_activation_free(act);
	}
	return self;
}

void
cel_program_free(CelProgram *self)
{
	if (self == NULL) {
		return;
	}
	cel_ast_tree_clear(&self->tree);
	cel_env_unref(self->env);
	g_free(self);
}

const CelType *
cel_program_get_type(const CelProgram *self)
{
	return self->type ? self->type : cel_type_dyn();
}

const CelAst *
cel_program_get_ast(const CelProgram *self)
{
	return self->tree.root;
}

CelActivation *
cel_activation_new(CelEnv *env)
{
	CelActivation *self = g_new0(CelActivation, 1);
	self->env = cel_env_ref(env);
	base_arena_init(&self->scratch, 8192);
	self->alloc = &self->scratch;
	self->nvars = MAX(env->nslots, 1);
	self->vars = g_new0(CelValue, self->nvars);
	for (guint i = 0; i < self->nvars; i++) {
		self->vars[i] = cel_value_error("no such attribute");
	}
	self->cost_limit = env->cost_limit;
	self->observing = env->hooks.observe != NULL;
	return self;
}

void
cel_activation_free(CelActivation *self)
{
	if (self == NULL) {
		return;
	}
	base_arena_clear(&self->scratch);
	g_free(self->vars);
	g_free(self->locals);
	cel_env_unref(self->env);
	g_free(self);
}

void
cel_activation_set(CelActivation *self, guint slot, CelValue value)
{
	if (slot >= self->nvars) {
		guint n = MAX(slot + 1, self->env->nslots);
		self->vars = g_renew(CelValue, self->vars, n);
		for (guint i = self->nvars; i < n; i++) {
			self->vars[i] = cel_value_error("no such attribute");
		}
		self->nvars = n;
	}
	self->vars[slot] = value;
}

void
cel_activation_reset(CelActivation *self)
{
	base_arena_reset(&self->scratch);
	self->cost = 0;
	self->cancelled = FALSE;
}

guint64
cel_activation_get_cost(const CelActivation *self)
{
	return self->cost;
}

gpointer
cel_activation_alloc(CelActivation *self, gsize size)
{
	return base_arena_alloc(self->alloc, size);
}

CelValue
cel_program_eval(const CelProgram *self, CelActivation *act)
{
	if (act->nlocals < self->nlocals) {
		act->locals = g_renew(CelValue, act->locals, self->nlocals);
		act->nlocals = self->nlocals;
	}
	act->cost_limit = self->env->cost_limit;
	act->observing = self->env->hooks.observe != NULL;
	CelValue v = cel_eval_node(act, self->tree.root);
	if (act->cancelled) {
		return cel_value_error("operation cancelled: actual cost limit exceeded");
	}
	v.flags &= ~CEL_VALUE_MUTABLE;
	return v;
}
