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
 * type errors are not reported. The unifier (the substitution and the type relations) is
 * cel_check_unify.c.
 */
#include <string.h>

#include "cel-ast.h"
#include "cel-private.h"

typedef struct {
	const char *name;
	guint local;
	const CelType *type;
} ScopeEntry;

static const CelType *check(CelChecker *c, CelAst *n);

static void report(CelChecker *c, const CelAst *n, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void
report(CelChecker *c, const CelAst *n, const char *fmt, ...)
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
for_each_candidate(CelChecker *c,
                   const char *name,
                   gboolean (*fn)(CelChecker *, const char *, gpointer),
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
try_ident(CelChecker *c, const char *name, gpointer data)
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
scope_lookup(CelChecker *c, const char *name)
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
resolve_ident(CelChecker *c, CelAst *n, const char *name)
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

/* cel_ast__qualified_name's test: @name is a variable in scope. */
static gboolean
is_local(gpointer data, const char *name)
{
	return scope_lookup(data, name) != NULL;
}

/* Dotted name of an ident/select chain whose root is not a local. */
static char *
qualified_name(CelChecker *c, const CelAst *n)
{
	return cel_ast__qualified_name(n, is_local, c);
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
check_ident(CelChecker *c, CelAst *n)
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
field_type(CelChecker *c, CelAst *n, const CelType *t, const char *field)
{
	t = cel_check__resolve(c, t);
	switch (t->kind) {
	case CEL_TYPE_MAP:
		if (!cel_check__assignable(c, t->params[0], cel_type_string())) {
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
		cel_check__assignable(c, cel_type_dyn(), t);
		return cel_type_dyn();
	default:
		if (!cel_check__is_dyn(t)) {
			report(c, n, "type '%s' does not support field selection",
			       cel_type_get_name(t));
			return cel_type_error();
		}
		return cel_type_dyn();
	}
}

static const CelType *
check_select(CelChecker *c, CelAst *n)
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
	const CelType *t = cel_check__resolve(c, check(c, n->select.operand));
	gboolean opt = FALSE;
	if (t->kind == CEL_TYPE_OPTIONAL) {
		opt = TRUE;
		t = t->params[0] ? cel_check__resolve(c, t->params[0]) : cel_type_dyn();
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
try_func(CelChecker *c, const char *name, gpointer data)
{
	FuncLookup *l = data;
	l->decl = cel_env_lookup_function(c->env, name);
	return l->decl != NULL;
}

/* Whether every argument's static type guarantees the runtime kind the
 * overload's parameter needs (so the evaluator may skip the match). */
static gboolean
statically_exact(CelChecker *c, const CelOverloadDecl *o, const CelType *const *types, guint nargs)
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
		const CelType *t = cel_check__substitute(c, types[j], TRUE);
		if (!scalar || t == NULL || t->kind != p->kind) {
			return FALSE;
		}
	}
	return TRUE;
}

/* The declaration a call names: a namespaced global (optional.of(x)), then by container. */
static CelFuncDecl *
call_function(CelChecker *c, CelAst *n)
{
	/* namespaced global function: optional.of(x), cel.@mapInsert, ... */
	if (n->call.target != NULL) {
		g_autofree char *q = qualified_name(c, n->call.target);
		if (q != NULL) {
			g_autofree char *full = g_strconcat(q, ".", n->call.function, NULL);
			FuncLookup l = { NULL };
			if (for_each_candidate(c, full, try_func, &l)) {
				n->call.function = l.decl->name;
				n->call.target = NULL;
				return l.decl;
			}
		}
	}
	FuncLookup l = { NULL };
	if (n->call.target == NULL && for_each_candidate(c, n->call.function, try_func, &l)) {
		n->call.function = l.decl->name;
		return l.decl;
	}
	return cel_env_lookup_function(c->env, n->call.function);
}

/* The evaluator's special forms: operators, and x.or(y) / x.orValue(y) on optionals. */
static void
mark_special(CelAst *n, gboolean receiver)
{
	n->call.special = special_of(n->call.function);
	if (receiver && n->call.nargs == 1 && strcmp(n->call.function, "or") == 0) {
		n->call.special = CEL_SPECIAL_OR_OPT;
	} else if (receiver && n->call.nargs == 1 && strcmp(n->call.function, "orValue") == 0) {
		n->call.special = CEL_SPECIAL_OR_VALUE;
	}
}

/*
 * Does overload @o accept argument @types: its type parameters renamed afresh, each argument
 * assignable to its parameter (the bindings rolled back when not). @res: the result type.
 */
static gboolean
overload_accepts(CelChecker *c,
                 const CelOverloadDecl *o,
                 const CelType *const *types,
                 guint nargs,
                 const CelType **res)
{
	const CelType *from[16], *to[16];
	guint nmap = 0;
	const CelType *params[CEL_MAX_PARAMS];
	*res = o->result;
	for (guint j = 0; j < nargs; j++) {
		params[j] = o->has_type_params
		                    ? cel_check__instantiate(c, o->params[j], from, to, &nmap)
		                    : o->params[j];
	}
	if (o->has_type_params) {
		*res = cel_check__instantiate(c, o->result, from, to, &nmap);
	}
	guint mark = c->subst->len;
	gboolean ok = TRUE;
	for (guint j = 0; j < nargs && ok; j++) {
		ok = cel_check__assignable_raw(c, types[j], params[j]);
	}
	if (!ok) {
		g_array_set_size(c->subst, mark);
	}
	return ok;
}

/*
 * Keeps the overloads of @fd that accept the arguments (all of the call's shape when not
 * reporting: the runtime then dispatches) in n->call.overloads; returns the result type
 * (dyn when the accepting overloads disagree), NULL when none accepts.
 */
static const CelType *
keep_overloads(CelChecker *c,
               CelAst *n,
               const CelFuncDecl *fd,
               const CelType *const *types,
               guint nargs,
               gboolean receiver)
{
	const CelOverloadDecl **kept =
	        base_arena_alloc(&c->tree->arena, sizeof(gpointer) * MAX(fd->overloads->len, 1));
	guint nkept = 0;
	const CelType *result = NULL;
	for (guint i = 0; i < fd->overloads->len; i++) {
		const CelOverloadDecl *o = g_ptr_array_index(fd->overloads, i);
		const CelType *res;
		if (o->nparams != nargs || (o->def->style == CEL_RECEIVER) != receiver) {
			continue;
		}
		gboolean ok = overload_accepts(c, o, types, nargs, &res);
		if (!ok && c->report) {
			continue;
		}
		kept[nkept++] = o;
		const CelType *r = cel_check__substitute(c, res, FALSE);
		if (!ok) {
			continue;
		}
		if (result == NULL) {
			result = r;
		} else if (!cel_check__is_dyn(result) && result != r) {
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
	return result;
}

static void
report_no_overload(
        CelChecker *c, const CelAst *n, const CelType *const *types, guint nargs, gboolean receiver)
{
	GString *s = g_string_new(NULL);
	const CelType *shown[16] = { NULL };
	for (guint i = 0; i < nargs; i++) {
		shown[i] = cel_check__substitute(c, types[i], TRUE);
	}
	if (receiver) {
		g_string_append_printf(s, "%s.(", cel_type_get_name(shown[0]));
		append_type_list(s, shown + 1, nargs - 1);
	} else {
		g_string_append_c(s, '(');
		append_type_list(s, shown, nargs);
	}
	g_string_append_c(s, ')');
	report(c, n, "found no matching overload for '%s' applied to '%s'", n->call.function,
	       s->str);
	g_string_free(s, TRUE);
}

static const CelType *
check_call(CelChecker *c, CelAst *n)
{
	CelFuncDecl *fd = call_function(c, n);
	gboolean receiver = n->call.target != NULL;
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
	mark_special(n, receiver);
	if (fd == NULL) {
		report(c, n, "undeclared reference to '%s' (in container '%s')", n->call.function,
		       c->env->container);
		return cel_type_error();
	}
	const CelType *result = keep_overloads(c, n, fd, types, nargs, receiver);
	if (result == NULL) {
		if (c->report) {
			report_no_overload(c, n, types, nargs, receiver);
		}
		return cel_type_error();
	}
	return result;
}

static const CelType *
join(CelChecker *c, CelAst *n, const CelType *prev, const CelType *cur)
{
	if (prev == NULL) {
		return cur;
	}
	if (c->env->homogeneous) {
		/* Kubernetes ValidateHomogeneousAggregateLiterals: exact types only */
		const CelType *a = cel_check__substitute(c, prev, FALSE),
		              *b = cel_check__substitute(c, cur, FALSE);
		if (a != b && !(cel_check__is_dyn(a) && cel_check__is_dyn(b)) &&
		    a->kind != CEL_TYPE_PARAM && b->kind != CEL_TYPE_PARAM) {
			report(c, n, "expected type '%s' but found '%s'", cel_type_get_name(a),
			       cel_type_get_name(b));
			return cel_type_error();
		}
	}
	if (cel_check__assignable(c, prev, cur)) {
		return cel_check__most_general(c, prev, cur);
	}
	return cel_type_dyn();
}

static const CelType *
check_list(CelChecker *c, CelAst *n)
{
	const CelType *elem = NULL;
	for (guint i = 0; i < n->list.n; i++) {
		const CelType *t = check(c, n->list.elems[i]);
		if (n->list.optional && n->list.optional[i]) {
			t = cel_check__resolve(c, t);
			if (t->kind == CEL_TYPE_OPTIONAL && t->params[0]) {
				t = t->params[0];
			} else if (!cel_check__is_dyn(t)) {
				report(c, n->list.elems[i],
				       "expected type 'optional_type' but found '%s'",
				       cel_type_get_name(t));
			}
		}
		elem = join(c, n->list.elems[i], elem, t);
	}
	return cel_type_list(elem ? elem : cel_check__fresh_param(c));
}

static const CelType *
check_map(CelChecker *c, CelAst *n)
{
	const CelType *kt = NULL, *vt = NULL;
	for (guint i = 0; i < n->map.n; i++) {
		const CelType *k = check(c, n->map.keys[i]);
		const CelType *v = check(c, n->map.values[i]);
		if (n->map.optional && n->map.optional[i]) {
			v = cel_check__resolve(c, v);
			if (v->kind == CEL_TYPE_OPTIONAL && v->params[0]) {
				v = v->params[0];
			}
		}
		kt = join(c, n->map.keys[i], kt, k);
		vt = join(c, n->map.values[i], vt, v);
	}
	return cel_type_map(kt ? kt : cel_check__fresh_param(c),
	                    vt ? vt : cel_check__fresh_param(c));
}

static guint
push_local(CelChecker *c, const char *name, const CelType *type)
{
	ScopeEntry e = { name, c->nlocals++, type };
	g_array_append_val(c->scope, e);
	return e.local;
}

static const CelType *
check_comprehension(CelChecker *c, CelAst *n)
{
	const CelType *range = cel_check__resolve(c, check(c, n->comp.iter_range));
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
	if (!cel_check__assignable(c, cel_type_bool(), cond)) {
		report(c, n->comp.loop_cond, "expected type 'bool' but found '%s'",
		       cel_type_get_name(cond));
	}
	const CelType *step = check(c, n->comp.loop_step);
	if (!cel_check__assignable(c, accu, step)) {
		report(c, n->comp.loop_step, "expected type '%s' but found '%s'",
		       cel_type_get_name(cel_check__substitute(c, accu, TRUE)),
		       cel_type_get_name(cel_check__substitute(c, step, TRUE)));
	}
	g_array_set_size(c->scope, mark + 1); /* iteration variables leave scope */
	const CelType *result = check(c, n->comp.result);
	g_array_set_size(c->scope, mark);
	return result;
}

static const CelType *
check(CelChecker *c, CelAst *n)
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
	CelChecker c = { 0 };
	c.env = env;
	c.tree = tree;
	c.report = report_errors;
	c.error = &local_error;
	c.subst = g_array_new(FALSE, FALSE, sizeof(CelCheckBinding));
	c.scope = g_array_new(FALSE, FALSE, sizeof(ScopeEntry));
	c.nodes = g_ptr_array_new();
	check(&c, tree->root);
	for (guint i = 0; i < c.nodes->len; i++) {
		CelAst *n = g_ptr_array_index(c.nodes, i);
		n->type = cel_check__substitute(&c, n->type, TRUE);
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
