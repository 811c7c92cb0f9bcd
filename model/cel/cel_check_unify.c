/*
 * cel_check_unify.c: the type checker's unifier (cel-go checker/types.go): one substitution
 * of type parameters for the whole expression, assignability that binds parameters as it
 * goes (rolled back when a candidate fails), the most general of two types, and the fresh
 * parameters each call site gets for an overload's own.
 */
#include "cel-private.h"

gboolean
cel_check__is_dyn(const CelType *t)
{
	return t->kind == CEL_TYPE_DYN || t->kind == CEL_TYPE_ANY || t->kind == CEL_TYPE_ERROR;
}

static const CelType *
lookup_binding(CelChecker *c, const CelType *param)
{
	for (guint i = c->subst->len; i-- > 0;) {
		CelCheckBinding *b = &g_array_index(c->subst, CelCheckBinding, i);
		if (b->param == param) {
			return b->type;
		}
	}
	return NULL;
}

const CelType *
cel_check__resolve(CelChecker *c, const CelType *t)
{
	while (t->kind == CEL_TYPE_PARAM) {
		const CelType *b = lookup_binding(c, t);
		if (b == NULL) {
			break;
		}
		t = b;
	}
	return t;
}

/* Applies the substitution; free parameters become dyn when @to_dyn. */
const CelType *
cel_check__substitute(CelChecker *c, const CelType *t, gboolean to_dyn)
{
	if (t == NULL) {
		return NULL;
	}
	t = cel_check__resolve(c, t);
	if (t->kind == CEL_TYPE_PARAM) {
		return to_dyn ? cel_type_dyn() : t;
	}
	if (t->nparams == 0 || t->kind == CEL_TYPE_OBJECT) {
		return t;
	}
	const CelType *p[4] = { NULL };
	gboolean changed = FALSE;
	for (guint i = 0; i < t->nparams; i++) {
		p[i] = t->params[i] ? cel_check__substitute(c, t->params[i], to_dyn) : NULL;
		changed |= p[i] != t->params[i];
	}
	return changed ? cel_type_with_params(t, p) : t;
}

static gboolean
occurs(CelChecker *c, const CelType *param, const CelType *t)
{
	t = cel_check__resolve(c, t);
	if (t == param) {
		return TRUE;
	}
	for (guint i = 0; i < t->nparams; i++) {
		if (t->params[i] && occurs(c, param, t->params[i])) {
			return TRUE;
		}
	}
	return FALSE;
}

static void
bind(CelChecker *c, const CelType *param, const CelType *t)
{
	CelCheckBinding b = { param, t };
	g_array_append_val(c->subst, b);
}

static gboolean
nullable(const CelType *t)
{
	return t->kind == CEL_TYPE_OPTIONAL || t->kind == CEL_TYPE_OBJECT ||
	       t->kind == CEL_TYPE_OPAQUE || t->kind == CEL_TYPE_NULL;
}

gboolean
cel_check__assignable_raw(CelChecker *c, const CelType *t1, const CelType *t2)
{
	t1 = cel_check__resolve(c, t1);
	t2 = cel_check__resolve(c, t2);
	if (t1 == t2) {
		return TRUE;
	}
	if (t1->kind == CEL_TYPE_PARAM) {
		if (occurs(c, t1, t2)) {
			return FALSE;
		}
		bind(c, t1, t2);
		return TRUE;
	}
	if (t2->kind == CEL_TYPE_PARAM) {
		if (occurs(c, t2, t1)) {
			return FALSE;
		}
		bind(c, t2, t1);
		return TRUE;
	}
	if (cel_check__is_dyn(t1) || cel_check__is_dyn(t2)) {
		return TRUE;
	}
	if (t1->kind == CEL_TYPE_NULL && nullable(t2)) {
		return TRUE;
	}
	if (t2->kind == CEL_TYPE_NULL && nullable(t1)) {
		return TRUE;
	}
	if (t1->kind != t2->kind) {
		return FALSE;
	}
	if (t1->kind == CEL_TYPE_OBJECT || (t1->kind == CEL_TYPE_OPAQUE && t1->nparams == 0)) {
		return t1->name == t2->name;
	}
	if (t1->kind == CEL_TYPE_OPAQUE && t1->base != t2->base) {
		return FALSE;
	}
	if (t1->kind == CEL_TYPE_TYPE) {
		return TRUE; /* cel-go: type values compare across their parameters */
	}
	if (t1->nparams != t2->nparams) {
		/* unparameterised list/map/type accept any parameterisation */
		return t1->nparams == 0 || t2->nparams == 0;
	}
	for (guint i = 0; i < t1->nparams; i++) {
		if (t1->params[i] == NULL || t2->params[i] == NULL) {
			continue;
		}
		if (!cel_check__assignable_raw(c, t1->params[i], t2->params[i])) {
			return FALSE;
		}
	}
	return TRUE;
}

/* Commits bindings on success, rolls back on failure. */
gboolean
cel_check__assignable(CelChecker *c, const CelType *t1, const CelType *t2)
{
	guint mark = c->subst->len;
	if (cel_check__assignable_raw(c, t1, t2)) {
		return TRUE;
	}
	g_array_set_size(c->subst, mark);
	return FALSE;
}

const CelType *
cel_check__most_general(CelChecker *c, const CelType *a, const CelType *b)
{
	a = cel_check__resolve(c, a);
	b = cel_check__resolve(c, b);
	if (cel_check__is_dyn(a) || b->kind == CEL_TYPE_NULL || b->kind == CEL_TYPE_PARAM) {
		return a;
	}
	if (cel_check__is_dyn(b) || a->kind == CEL_TYPE_NULL || a->kind == CEL_TYPE_PARAM) {
		return b;
	}
	if (a->kind == b->kind && a->nparams > 0 && a->nparams == b->nparams &&
	    a->kind != CEL_TYPE_OBJECT && a->base == b->base) {
		const CelType *p[4] = { NULL };
		for (guint i = 0; i < a->nparams; i++) {
			p[i] = a->params[i] && b->params[i]
			               ? cel_check__most_general(c, a->params[i], b->params[i])
			               : a->params[i];
		}
		return cel_type_with_params(a, p);
	}
	return a;
}

const CelType *
cel_check__fresh_param(CelChecker *c)
{
	char name[32];
	g_snprintf(name, sizeof name, "_var%u", c->fresh++);
	return cel_type_param(name);
}

/* Renames an overload's type parameters to fresh ones (per call site). */
const CelType *
cel_check__instantiate(
        CelChecker *c, const CelType *t, const CelType **from, const CelType **to, guint *n)
{
	if (t->kind == CEL_TYPE_PARAM) {
		for (guint i = 0; i < *n; i++) {
			if (from[i] == t) {
				return to[i];
			}
		}
		from[*n] = t;
		to[*n] = cel_check__fresh_param(c);
		return to[(*n)++];
	}
	if (t->nparams == 0 || t->kind == CEL_TYPE_OBJECT) {
		return t;
	}
	const CelType *p[4] = { NULL };
	for (guint i = 0; i < t->nparams; i++) {
		p[i] = t->params[i] ? cel_check__instantiate(c, t->params[i], from, to, n) : NULL;
	}
	return cel_type_with_params(t, p);
}
