/*
 * cel_check.c: name resolution and type checking (cel-go checker/checker.go).
 *
 * One pass over the tree: identifiers are resolved (comprehension locals
 * first, then declared variables through the container, then type names),
 * qualified names (a.b.c) are folded into one identifier when declared, calls
 * keep the overloads whose signatures accept the argument types. Type
 * parameters are unified through one substitution for the whole expression,
 * as cel-go does, so `[].map(x, x)` and `[[], [1]]` get precise types. When
 * checking is disabled (cel-spec disable_check) names are still resolved but
 * type errors are not reported.
 */
#include <string.h>

#include "cel-private.h"

typedef struct {
	const CelType *param;
	const CelType *type;
} Binding;

typedef struct {
	const char *name;
	guint local;
	const CelType *type;
} ScopeEntry;

typedef struct {
	CelEnv *env;
	CelAstTree *tree;
	gboolean report;
	GError **error;
	GArray *subst;    /* Binding, append-only; rollback by truncation */
	GArray *scope;    /* ScopeEntry */
	GPtrArray *nodes; /* every checked node, for the final substitution */
	guint nlocals;
	guint fresh;
} Checker;

static const CelType *check(Checker *c, CelAst *n);

static gboolean
is_dyn(const CelType *t)
{
	return t->kind == CEL_TYPE_DYN || t->kind == CEL_TYPE_ANY || t->kind == CEL_TYPE_ERROR;
}

static void report(Checker *c, const CelAst *n, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void
report(Checker *c, const CelAst *n, const char *fmt, ...)
{
	if (!c->report || *c->error != NULL) {
		return;
	}
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	cel_ast_tree_error(c->tree, n->offset, c->error, CEL_ERROR_TYPE, "%s", msg);
}

/* --- substitution ----------------------------------------------------- */

static const CelType *
lookup_binding(Checker *c, const CelType *param)
{
	for (guint i = c->subst->len; i-- > 0;) {
		Binding *b = &g_array_index(c->subst, Binding, i);
		if (b->param == param) {
			return b->type;
		}
	}
	return NULL;
}

static const CelType *
resolve(Checker *c, const CelType *t)
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
static const CelType *
substitute(Checker *c, const CelType *t, gboolean to_dyn)
{
	if (t == NULL) {
		return NULL;
	}
	t = resolve(c, t);
	if (t->kind == CEL_TYPE_PARAM) {
		return to_dyn ? cel_type_dyn() : t;
	}
	if (t->nparams == 0 || t->kind == CEL_TYPE_OBJECT) {
		return t;
	}
	const CelType *p[4] = { NULL };
	gboolean changed = FALSE;
	for (guint i = 0; i < t->nparams; i++) {
		p[i] = t->params[i] ? substitute(c, t->params[i], to_dyn) : NULL;
		changed |= p[i] != t->params[i];
	}
	return changed ? cel_type_with_params(t, p) : t;
}

static gboolean
occurs(Checker *c, const CelType *param, const CelType *t)
{
	t = resolve(c, t);
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
bind(Checker *c, const CelType *param, const CelType *t)
{
	Binding b = { param, t };
	g_array_append_val(c->subst, b);
}

static gboolean
nullable(const CelType *t)
{
	return t->kind == CEL_TYPE_OPTIONAL || t->kind == CEL_TYPE_OBJECT ||
	       t->kind == CEL_TYPE_OPAQUE || t->kind == CEL_TYPE_NULL;
}

static gboolean
assignable_raw(Checker *c, const CelType *t1, const CelType *t2)
{
	t1 = resolve(c, t1);
	t2 = resolve(c, t2);
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
	if (is_dyn(t1) || is_dyn(t2)) {
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
		if (!assignable_raw(c, t1->params[i], t2->params[i])) {
			return FALSE;
		}
	}
	return TRUE;
}

/* Commits bindings on success, rolls back on failure. */
static gboolean
assignable(Checker *c, const CelType *t1, const CelType *t2)
{
	guint mark = c->subst->len;
	if (assignable_raw(c, t1, t2)) {
		return TRUE;
	}
	g_array_set_size(c->subst, mark);
	return FALSE;
}

static const CelType *
most_general(Checker *c, const CelType *a, const CelType *b)
{
	a = resolve(c, a);
	b = resolve(c, b);
	if (is_dyn(a) || b->kind == CEL_TYPE_NULL || b->kind == CEL_TYPE_PARAM) {
		return a;
	}
	if (is_dyn(b) || a->kind == CEL_TYPE_NULL || a->kind == CEL_TYPE_PARAM) {
		return b;
	}
	if (a->kind == b->kind && a->nparams > 0 && a->nparams == b->nparams &&
	    a->kind != CEL_TYPE_OBJECT && a->base == b->base) {
		const CelType *p[4] = { NULL };
		for (guint i = 0; i < a->nparams; i++) {
			p[i] = a->params[i] && b->params[i]
			               ? most_general(c, a->params[i], b->params[i])
			               : a->params[i];
		}
		return cel_type_with_params(a, p);
	}
	return a;
}

static const CelType *
fresh_param(Checker *c)
{
	char name[32];
	g_snprintf(name, sizeof name, "_var%u", c->fresh++);
	return cel_type_param(name);
}

/* Renames an overload's type parameters to fresh ones (per call site). */
static const CelType *
instantiate(Checker *c, const CelType *t, const CelType **from, const CelType **to, guint *n)
{
	if (t->kind == CEL_TYPE_PARAM) {
		for (guint i = 0; i < *n; i++) {
			if (from[i] == t) {
				return to[i];
			}
		}
		from[*n] = t;
		to[*n] = fresh_param(c);
		return to[(*n)++];
	}
	if (t->nparams == 0 || t->kind == CEL_TYPE_OBJECT) {
		return t;
	}
	const CelType *p[4] = { NULL };
	for (guint i = 0; i < t->nparams; i++) {
		p[i] = t->params[i] ? instantiate(c, t->params[i], from, to, n) : NULL;
	}
	return cel_type_with_params(t, p);
}

/* --- names -------------------------------------------------------------- */

static const CelType *
type_name_lookup(const char *name)
{
	static const char *const builtin[] = { "int",       "uint",  "double",       "bool",
		                               "string",    "bytes", "list",         "map",
		                               "null_type", "type",  "optional_type" };
	for (guint i = 0; i < G_N_ELEMENTS(builtin); i++) {
		if (strcmp(name, builtin[i]) == 0) {
			return cel_type_parse(name);
		}
	}
	if (strcmp(name, "google.protobuf.Timestamp") == 0) {
		return cel_type_timestamp();
	}
	if (strcmp(name, "google.protobuf.Duration") == 0) {
		return cel_type_duration();
	}
	const CelType *t = cel_type_lookup_named(name);
	if (t != NULL && (t->kind == CEL_TYPE_OPAQUE || t->kind == CEL_TYPE_OBJECT)) {
		return t;
	}
	return NULL;
}

/* Calls @fn for each candidate spelling of @name in the container, most
 * qualified first; stops when it returns TRUE. */
static gboolean
for_each_candidate(Checker *c,
                   const char *name,
                   gboolean (*fn)(Checker *, const char *, gpointer),
                   gpointer data)
{
	if (name[0] == '.') {
		return fn(c, name + 1, data);
	}
	const char *container = c->env->container;
	if (container != NULL && *container != '\0') {
		g_autofree char *prefix = g_strdup(container);
		for (;;) {
			g_autofree char *full = g_strconcat(prefix, ".", name, NULL);
			if (fn(c, full, data)) {
				return TRUE;
			}
			char *dot = strrchr(prefix, '.');
			if (dot == NULL) {
				break;
			}
			*dot = '\0';
		}
	}
	return fn(c, name, data);
}

typedef struct {
	CelAst *node;
	gboolean found;
} IdentLookup;

static gboolean
try_ident(Checker *c, const char *name, gpointer data)
{
	IdentLookup *l = data;
	const CelVarDecl *v = cel_env_lookup_var(c->env, name);
	if (v != NULL) {
		l->node->ident.name = v->name;
		l->node->ident.ref = CEL_REF_VAR;
		l->node->ident.index = v->slot;
		l->node->type = v->type;
		return l->found = TRUE;
	}
	const CelType *t = type_name_lookup(name);
	if (t != NULL) {
		l->node->ident.name = g_intern_string(name);
		l->node->ident.ref = CEL_REF_CONST;
		l->node->ident.constant = cel_value_type(t);
		l->node->type = cel_type_type(t);
		return l->found = TRUE;
	}
	return FALSE;
}

static const ScopeEntry *
scope_lookup(Checker *c, const char *name)
{
	for (guint i = c->scope->len; i-- > 0;) {
		ScopeEntry *e = &g_array_index(c->scope, ScopeEntry, i);
		if (e->name == name) {
			return e;
		}
	}
	return NULL;
}

/* Resolves @n (IDENT) against locals, variables and type names. */
static gboolean
resolve_ident(Checker *c, CelAst *n, const char *name)
{
	if (name[0] != '.') {
		const ScopeEntry *e = scope_lookup(c, g_intern_string(name));
		if (e != NULL) {
			n->ident.ref = CEL_REF_LOCAL;
			n->ident.index = e->local;
			n->type = e->type;
			return TRUE;
		}
	}
	IdentLookup l = { n, FALSE };
	return for_each_candidate(c, name, try_ident, &l);
}

/* Dotted name of an ident/select chain whose root is not a local. */
static char *
qualified_name(Checker *c, const CelAst *n)
{
	if (n->kind == CEL_AST_IDENT) {
		if (n->ident.name[0] != '.' && scope_lookup(c, n->ident.name) != NULL) {
			return NULL;
		}
		return g_strdup(n->ident.name);
	}
	if (n->kind == CEL_AST_SELECT && !n->select.test_only) {
		char *left = qualified_name(c, n->select.operand);
		if (left == NULL) {
			return NULL;
		}
		char *r = g_strconcat(left, ".", n->select.field, NULL);
		g_free(left);
		return r;
	}
	return NULL;
}

/* --- node checks ---------------------------------------------------------- */

static const CelType *
const_type(CelValue v)
{
	switch ((CelKind)v.kind) {
	case CEL_KIND_LIST:
		return cel_type_list(cel_type_dyn());
	case CEL_KIND_MAP:
		return cel_type_map(cel_type_dyn(), cel_type_dyn());
	case CEL_KIND_TYPE:
		return cel_type_type(v.type);
	default:
		return cel_type_of_value(v);
	}
}

static const CelType *
check_ident(Checker *c, CelAst *n)
{
	if (resolve_ident(c, n, n->ident.name)) {
		return n->type;
	}
	n->ident.ref = CEL_REF_NONE;
	report(c, n, "undeclared reference to '%s' (in container '%s')",
	       n->ident.name[0] == '.' ? n->ident.name + 1 : n->ident.name, c->env->container);
	return cel_type_error();
}

static const CelType *
field_type(Checker *c, CelAst *n, const CelType *t, const char *field)
{
	t = resolve(c, t);
	switch (t->kind) {
	case CEL_TYPE_MAP:
		if (!assignable(c, t->params[0], cel_type_string())) {
			report(c, n, "type '%s' does not support field selection", t->name);
		}
		return t->params[1];
	case CEL_TYPE_OBJECT:
		for (guint i = 0; i < t->nfields; i++) {
			if (t->fields[i].name == field) {
				return t->fields[i].type;
			}
		}
		report(c, n, "undefined field '%s'", field);
		return cel_type_error();
	case CEL_TYPE_PARAM:
		assignable(c, cel_type_dyn(), t);
		return cel_type_dyn();
	default:
		if (!is_dyn(t)) {
			report(c, n, "type '%s' does not support field selection",
			       cel_type_get_name(t));
			return cel_type_error();
		}
		return cel_type_dyn();
	}
}

static const CelType *
check_select(Checker *c, CelAst *n)
{
	if (!n->select.test_only) {
		g_autofree char *q = qualified_name(c, n);
		if (q != NULL) {
			CelAst probe = *n;
			probe.kind = CEL_AST_IDENT;
			IdentLookup l = { &probe, FALSE };
			if (for_each_candidate(c, q, try_ident, &l)) {
				guint32 id = n->id, off = n->offset;
				*n = probe;
				n->id = id;
				n->offset = off;
				return n->type;
			}
		}
	}
	const CelType *t = resolve(c, check(c, n->select.operand));
	gboolean opt = FALSE;
	if (t->kind == CEL_TYPE_OPTIONAL) {
		opt = TRUE;
		t = t->params[0] ? resolve(c, t->params[0]) : cel_type_dyn();
	}
	const CelType *r = field_type(c, n, t, n->select.field);
	if (n->select.test_only) {
		return cel_type_bool();
	}
	return opt ? cel_type_optional(r) : r;
}

static void
append_type_list(GString *s, const CelType *const *types, guint n)
{
	for (guint i = 0; i < n; i++) {
		if (i) {
			g_string_append(s, ", ");
		}
		g_string_append(s, cel_type_get_name(types[i]));
	}
}

static CelSpecial
special_of(const char *fn)
{
	static const struct {
		const char *name;
		CelSpecial special;
	} table[] = {
		{ "_&&_", CEL_SPECIAL_AND },
		{ "_||_", CEL_SPECIAL_OR },
		{ "_?_:_", CEL_SPECIAL_COND },
		{ "@not_strictly_false", CEL_SPECIAL_NOT_STRICTLY_FALSE },
		{ "_[_]", CEL_SPECIAL_INDEX },
		{ "_?._", CEL_SPECIAL_OPT_SELECT },
		{ "_[?_]", CEL_SPECIAL_OPT_INDEX },
		{ "_==_", CEL_SPECIAL_EQ },
		{ "_!=_", CEL_SPECIAL_NE },
		{ "@in", CEL_SPECIAL_IN },
		{ "!_", CEL_SPECIAL_NOT },
	};
	for (guint i = 0; i < G_N_ELEMENTS(table); i++) {
		if (strcmp(fn, table[i].name) == 0) {
			return table[i].special;
		}
	}
	return CEL_SPECIAL_NONE;
}

typedef struct {
	CelFuncDecl *decl;
} FuncLookup;

static gboolean
try_func(Checker *c, const char *name, gpointer data)
{
	FuncLookup *l = data;
	l->decl = cel_env_lookup_function(c->env, name);
	return l->decl != NULL;
}

/* Whether every argument's static type guarantees the runtime kind the
 * overload's parameter needs (so the evaluator may skip the match). */
static gboolean
statically_exact(Checker *c, const CelOverloadDecl *o, const CelType *const *types, guint nargs)
{
	for (guint j = 0; j < nargs; j++) {
		const CelType *p = o->params[j];
		if (p->kind == CEL_TYPE_DYN || p->kind == CEL_TYPE_ANY ||
		    p->kind == CEL_TYPE_PARAM) {
			continue;
		}
		/* only scalar payloads: a host that binds a value of the wrong kind to a
		 * declared variable then gets a wrong number, never a bad pointer */
		gboolean scalar = p->kind == CEL_TYPE_INT || p->kind == CEL_TYPE_UINT ||
		                  p->kind == CEL_TYPE_DOUBLE || p->kind == CEL_TYPE_BOOL ||
		                  p->kind == CEL_TYPE_TIMESTAMP || p->kind == CEL_TYPE_DURATION;
		const CelType *t = substitute(c, types[j], TRUE);
		if (!scalar || t == NULL || t->kind != p->kind) {
			return FALSE;
		}
	}
	return TRUE;
}

static const CelType *
check_call(Checker *c, CelAst *n)
{
	CelFuncDecl *fd = NULL;
	/* namespaced global function: optional.of(x), cel.@mapInsert, ... */
	if (n->call.target != NULL) {
		g_autofree char *q = qualified_name(c, n->call.target);
		if (q != NULL) {
			g_autofree char *full = g_strconcat(q, ".", n->call.function, NULL);
			FuncLookup l = { NULL };
			if (for_each_candidate(c, full, try_func, &l)) {
				fd = l.decl;
				n->call.function = fd->name;
				n->call.target = NULL;
			}
		}
	}
	gboolean receiver = n->call.target != NULL;
	if (fd == NULL) {
		FuncLookup l = { NULL };
		if (!receiver && for_each_candidate(c, n->call.function, try_func, &l)) {
			fd = l.decl;
			n->call.function = fd->name;
		} else {
			fd = cel_env_lookup_function(c->env, n->call.function);
		}
	}
	guint nargs = n->call.nargs + (receiver ? 1 : 0);
	const CelType *types[16];
	CelAst *args[16];
	if (nargs > G_N_ELEMENTS(types)) {
		report(c, n, "too many arguments to '%s'", n->call.function);
		return cel_type_error();
	}
	guint k = 0;
	if (receiver) {
		args[k++] = n->call.target;
	}
	for (guint i = 0; i < n->call.nargs; i++) {
		args[k++] = n->call.args[i];
	}
	for (guint i = 0; i < nargs; i++) {
		types[i] = check(c, args[i]);
	}
	n->call.special = special_of(n->call.function);
	if (receiver && n->call.nargs == 1 && strcmp(n->call.function, "or") == 0) {
		n->call.special = CEL_SPECIAL_OR_OPT;
	} else if (receiver && n->call.nargs == 1 && strcmp(n->call.function, "orValue") == 0) {
		n->call.special = CEL_SPECIAL_OR_VALUE;
	}
	if (fd == NULL) {
		report(c, n, "undeclared reference to '%s' (in container '%s')", n->call.function,
		       c->env->container);
		return cel_type_error();
	}
	const CelOverloadDecl **kept =
	        cel_arena_alloc(&c->tree->arena, sizeof(gpointer) * MAX(fd->overloads->len, 1));
	guint nkept = 0;
	const CelType *result = NULL;
	for (guint i = 0; i < fd->overloads->len; i++) {
		const CelOverloadDecl *o = g_ptr_array_index(fd->overloads, i);
		if (o->nparams != nargs || (o->def->style == CEL_RECEIVER) != receiver) {
			continue;
		}
		const CelType *from[16], *to[16];
		guint nmap = 0;
		const CelType *params[CEL_MAX_PARAMS];
		const CelType *res = o->result;
		for (guint j = 0; j < nargs; j++) {
			params[j] = o->has_type_params
			                    ? instantiate(c, o->params[j], from, to, &nmap)
			                    : o->params[j];
		}
		if (o->has_type_params) {
			res = instantiate(c, o->result, from, to, &nmap);
		}
		guint mark = c->subst->len;
		gboolean ok = TRUE;
		for (guint j = 0; j < nargs && ok; j++) {
			ok = assignable_raw(c, types[j], params[j]);
		}
		if (!ok) {
			g_array_set_size(c->subst, mark);
			if (c->report) {
				continue;
			}
		}
		kept[nkept++] = o;
		const CelType *r = substitute(c, res, FALSE);
		if (!ok) {
			continue;
		}
		if (result == NULL) {
			result = r;
		} else if (!is_dyn(result) && result != r) {
			result = cel_type_dyn();
		}
	}
	n->call.overloads = kept;
	n->call.noverloads = nkept;
	n->call.direct = NULL;
	if (c->report && nkept == 1 && result != NULL &&
	    statically_exact(c, kept[0], types, nargs)) {
		n->call.direct = kept[0]->def->impl;
	}
	if (result == NULL) {
		if (c->report) {
			GString *s = g_string_new(NULL);
			const CelType *shown[16] = { NULL };
			for (guint i = 0; i < nargs; i++) {
				shown[i] = substitute(c, types[i], TRUE);
			}
			if (receiver) {
				g_string_append_printf(s, "%s.(", cel_type_get_name(shown[0]));
				append_type_list(s, shown + 1, nargs - 1);
			} else {
				g_string_append_c(s, '(');
				append_type_list(s, shown, nargs);
			}
			g_string_append_c(s, ')');
			report(c, n, "found no matching overload for '%s' applied to '%s'",
			       n->call.function, s->str);
			g_string_free(s, TRUE);
		}
		return cel_type_error();
	}
	return result;
}

static const CelType *
join(Checker *c, CelAst *n, const CelType *prev, const CelType *cur)
{
	if (prev == NULL) {
		return cur;
	}
	if (c->env->homogeneous) {
		/* Kubernetes ValidateHomogeneousAggregateLiterals: exact types only */
		const CelType *a = substitute(c, prev, FALSE), *b = substitute(c, cur, FALSE);
		if (a != b && !(is_dyn(a) && is_dyn(b)) && a->kind != CEL_TYPE_PARAM &&
		    b->kind != CEL_TYPE_PARAM) {
			report(c, n, "expected type '%s' but found '%s'", cel_type_get_name(a),
			       cel_type_get_name(b));
			return cel_type_error();
		}
	}
	if (assignable(c, prev, cur)) {
		return most_general(c, prev, cur);
	}
	return cel_type_dyn();
}

static const CelType *
check_list(Checker *c, CelAst *n)
{
	const CelType *elem = NULL;
	for (guint i = 0; i < n->list.n; i++) {
		const CelType *t = check(c, n->list.elems[i]);
		if (n->list.optional && n->list.optional[i]) {
			t = resolve(c, t);
			if (t->kind == CEL_TYPE_OPTIONAL && t->params[0]) {
				t = t->params[0];
			} else if (!is_dyn(t)) {
				report(c, n->list.elems[i],
				       "expected type 'optional_type' but found '%s'",
				       cel_type_get_name(t));
			}
		}
		elem = join(c, n->list.elems[i], elem, t);
	}
	return cel_type_list(elem ? elem : fresh_param(c));
}

static const CelType *
check_map(Checker *c, CelAst *n)
{
	const CelType *kt = NULL, *vt = NULL;
	for (guint i = 0; i < n->map.n; i++) {
		const CelType *k = check(c, n->map.keys[i]);
		const CelType *v = check(c, n->map.values[i]);
		if (n->map.optional && n->map.optional[i]) {
			v = resolve(c, v);
			if (v->kind == CEL_TYPE_OPTIONAL && v->params[0]) {
				v = v->params[0];
			}
		}
		kt = join(c, n->map.keys[i], kt, k);
		vt = join(c, n->map.values[i], vt, v);
	}
	return cel_type_map(kt ? kt : fresh_param(c), vt ? vt : fresh_param(c));
}

static guint
push_local(Checker *c, const char *name, const CelType *type)
{
	ScopeEntry e = { name, c->nlocals++, type };
	g_array_append_val(c->scope, e);
	return e.local;
}

static const CelType *
check_comprehension(Checker *c, CelAst *n)
{
	const CelType *range = resolve(c, check(c, n->comp.iter_range));
	const CelType *v1 = cel_type_dyn(), *v2 = cel_type_dyn();
	gboolean two = n->comp.iter_var2 != NULL;
	switch (range->kind) {
	case CEL_TYPE_LIST:
		v1 = two ? cel_type_int() : (range->params[0] ? range->params[0] : cel_type_dyn());
		v2 = range->params[0] ? range->params[0] : cel_type_dyn();
		break;
	case CEL_TYPE_MAP:
		v1 = range->params[0] ? range->params[0] : cel_type_dyn();
		v2 = range->params[1] ? range->params[1] : cel_type_dyn();
		break;
	case CEL_TYPE_DYN:
	case CEL_TYPE_ERROR:
	case CEL_TYPE_PARAM:
		break;
	default:
		report(c, n->comp.iter_range,
		       "expression of type '%s' cannot be the range of a comprehension (must be "
		       "list, map, or dynamic)",
		       cel_type_get_name(range));
		break;
	}
	const CelType *accu = check(c, n->comp.accu_init);
	guint mark = c->scope->len;
	n->comp.accu_local = push_local(c, n->comp.accu_var, accu);
	n->comp.iter_local = push_local(c, n->comp.iter_var, v1);
	if (two) {
		n->comp.iter2_local = push_local(c, n->comp.iter_var2, v2);
	}
	const CelType *cond = check(c, n->comp.loop_cond);
	if (!assignable(c, cel_type_bool(), cond)) {
		report(c, n->comp.loop_cond, "expected type 'bool' but found '%s'",
		       cel_type_get_name(cond));
	}
	const CelType *step = check(c, n->comp.loop_step);
	if (!assignable(c, accu, step)) {
		report(c, n->comp.loop_step, "expected type '%s' but found '%s'",
		       cel_type_get_name(substitute(c, accu, TRUE)),
		       cel_type_get_name(substitute(c, step, TRUE)));
	}
	g_array_set_size(c->scope, mark + 1); /* iteration variables leave scope */
	const CelType *result = check(c, n->comp.result);
	g_array_set_size(c->scope, mark);
	return result;
}

static const CelType *
check(Checker *c, CelAst *n)
{
	const CelType *t;
	switch (n->kind) {
	case CEL_AST_CONST:
		t = const_type(n->constant);
		break;
	case CEL_AST_IDENT:
		t = check_ident(c, n);
		break;
	case CEL_AST_SELECT:
		t = check_select(c, n);
		break;
	case CEL_AST_CALL:
		t = check_call(c, n);
		break;
	case CEL_AST_LIST:
		t = check_list(c, n);
		break;
	case CEL_AST_MAP:
		t = check_map(c, n);
		break;
	case CEL_AST_COMPREHENSION:
		t = check_comprehension(c, n);
		break;
	case CEL_AST_STRUCT:
		for (guint i = 0; i < n->strukt.n; i++) {
			check(c, n->strukt.values[i]);
		}
		report(c, n, "undeclared reference to '%s' (in container '%s')", n->strukt.message,
		       c->env->container);
		t = cel_type_error();
		break;
	default:
		t = n->type ? n->type : cel_type_dyn();
		break;
	}
	n->type = t;
	g_ptr_array_add(c->nodes, n);
	return t;
}

gboolean
cel_check(CelEnv *env, CelAstTree *tree, gboolean report_errors, guint *nlocals, GError **error)
{
	GError *local_error = NULL;
	Checker c = { 0 };
	c.env = env;
	c.tree = tree;
	c.report = report_errors;
	c.error = &local_error;
	c.subst = g_array_new(FALSE, FALSE, sizeof(Binding));
	c.scope = g_array_new(FALSE, FALSE, sizeof(ScopeEntry));
	c.nodes = g_ptr_array_new();
	check(&c, tree->root);
	for (guint i = 0; i < c.nodes->len; i++) {
		CelAst *n = g_ptr_array_index(c.nodes, i);
		n->type = substitute(&c, n->type, TRUE);
	}
	*nlocals = c.nlocals;
	g_array_unref(c.subst);
	g_array_unref(c.scope);
	g_ptr_array_unref(c.nodes);
	if (local_error != NULL) {
		g_propagate_error(error, local_error);
		return FALSE;
	}
	return TRUE;
}
