/*
 * cel_macro.c: macro expansion at parse time, in cel-go's shape.
 *
 * has(), all/exists/exists_one/map/filter (cel-go parser/macro.go), the
 * two-variable forms of ext.TwoVarComprehensions (all, exists, existsOne,
 * transformList, transformMap, transformMapEntry), cel.bind (ext.Bindings)
 * and optMap/optFlatMap (cel.OptionalTypes). The accumulator is "@result".
 */
#include <string.h>

#include "cel-ast.h"

#define ACCU "@result"

static CelAst *
accu(CelAstTree *t, guint32 off)
{
	return cel_ast__ident(t, off, ACCU);
}

static const char *
simple_name(const CelAst *a)
{
	if (a->kind == CEL_AST_IDENT && a->ident.name[0] != '.') {
		return a->ident.name;
	}
	return NULL;
}

static CelAst *
bool_const(CelAstTree *t, guint32 off, gboolean b)
{
	return cel_ast__const(t, off, cel_value_bool(b));
}

static CelAst *
empty_list(CelAstTree *t, guint32 off)
{
	return cel_ast__list(t, off, NULL, 0);
}

static CelAst *
empty_map(CelAstTree *t, guint32 off)
{
	CelAst *n = cel_ast__new(t, CEL_AST_MAP, off);
	n->map.keys = NULL;
	n->map.values = NULL;
	n->map.n = 0;
	return n;
}

/* cond ? then : otherwise */
static CelAst *
ternary(CelAstTree *t, guint32 off, CelAst *cond, CelAst *then, CelAst *otherwise)
{
	CelAst *args[3] = { cond, then, otherwise };
	return cel_ast__call(t, off, "_?_:_", NULL, args, 3);
}

/* all / exists / exists_one over one or two iteration variables */
static CelAst *
quantifier(CelAstTree *t,
           guint32 off,
           const char *kind,
           CelAst *range,
           const char *v1,
           const char *v2,
           CelAst *pred)
{
	CelAst *init, *cond, *step, *result;
	if (strcmp(kind, "all") == 0) {
		init = bool_const(t, off, TRUE);
		cond = cel_ast__call2(t, off, "@not_strictly_false", accu(t, off), NULL);
		step = cel_ast__call2(t, off, "_&&_", accu(t, off), pred);
		result = accu(t, off);
	} else if (strcmp(kind, "exists") == 0) {
		init = bool_const(t, off, FALSE);
		cond = cel_ast__call2(t, off, "@not_strictly_false",
		                      cel_ast__call2(t, off, "!_", accu(t, off), NULL), NULL);
		step = cel_ast__call2(t, off, "_||_", accu(t, off), pred);
		result = accu(t, off);
	} else {
		init = cel_ast__const(t, off, cel_value_int(0));
		cond = bool_const(t, off, TRUE);
		CelAst *inc = cel_ast__call2(t, off, "_+_", accu(t, off),
		                             cel_ast__const(t, off, cel_value_int(1)));
		step = ternary(t, off, pred, inc, accu(t, off));
		result = cel_ast__call2(t, off, "_==_", accu(t, off),
		                        cel_ast__const(t, off, cel_value_int(1)));
	}
	return cel_ast__comprehension(t, off, v1, v2, range, ACCU, init, cond, step, result);
}

/* What a builder accumulates: a list (map, filter, transformList), or a map through
 * cel.@mapInsert (transformMap: key and value; transformMapEntry: a whole entry). */
typedef enum { BUILD_LIST, BUILD_MAP, BUILD_MAP_ENTRY } BuildKind;

/* The accumulating macros: each element's @value is added, where @filter (if any) holds. */
static CelAst *
builder(CelAstTree *t,
        guint32 off,
        CelAst *range,
        const char *v1,
        const char *v2,
        CelAst *filter,
        CelAst *value,
        BuildKind kind)
{
	CelAst *step;
	if (kind == BUILD_LIST) {
		CelAst *one = cel_ast__list(t, off, &value, 1);
		step = cel_ast__call2(t, off, "_+_", accu(t, off), one);
	} else if (kind == BUILD_MAP_ENTRY) {
		step = cel_ast__call2(t, off, "cel.@mapInsert", accu(t, off), value);
	} else {
		CelAst *args[3] = { accu(t, off), cel_ast__ident(t, off, v1), value };
		step = cel_ast__call(t, off, "cel.@mapInsert", NULL, args, 3);
	}
	if (filter != NULL) {
		step = ternary(t, off, filter, step, accu(t, off));
	}
	return cel_ast__comprehension(t, off, v1, v2, range, ACCU,
	                              kind == BUILD_LIST ? empty_list(t, off) : empty_map(t, off),
	                              bool_const(t, off, TRUE), step, accu(t, off));
}

/* cel.bind(name, init, body): a comprehension over nothing whose accumulator is name */
static CelAst *
bind(CelAstTree *t, guint32 off, const char *name, CelAst *init, CelAst *body)
{
	return cel_ast__comprehension(t, off, "#unused", NULL, empty_list(t, off), name, init,
	                              bool_const(t, off, FALSE), cel_ast__ident(t, off, name),
	                              body);
}

static CelAst *
opt_map(CelAstTree *t, guint32 off, CelAst *target, const char *v, CelAst *expr, gboolean flat)
{
	CelAst *has = cel_ast__call(t, off, "hasValue", target, NULL, 0);
	CelAst *val = cel_ast__call(t, off, "value", target, NULL, 0);
	CelAst *body = bind(t, off, v, val, expr);
	if (!flat) {
		body = cel_ast__call2(t, off, "optional.of", body, NULL);
	}
	CelAst *none = cel_ast__call(t, off, "optional.none", NULL, NULL, 0);
	return ternary(t, off, has, body, none);
}

/* has(a.f): the select, marked as a presence test. */
static CelAst *
expand_has(guint32 off, CelAst *a, const char **error_msg)
{
	if (a->kind != CEL_AST_SELECT || a->select.test_only) {
		*error_msg = "invalid argument to has() macro";
		return NULL;
	}
	a->select.test_only = TRUE;
	a->offset = off;
	return a;
}

static gboolean
is_quantifier(const char *fn)
{
	return strcmp(fn, "all") == 0 || strcmp(fn, "exists") == 0 || strcmp(fn, "exists_one") == 0;
}

/* The one-variable forms: all, exists, exists_one, map, filter, optMap, optFlatMap. */
static CelAst *
expand_one(CelAstTree *t,
           guint32 off,
           const char *fn,
           CelAst *target,
           const char *v1,
           CelAst **args,
           guint nargs)
{
	if (strcmp(fn, "optMap") == 0 || strcmp(fn, "optFlatMap") == 0) {
		return opt_map(t, off, target, v1, args[1], strcmp(fn, "optFlatMap") == 0);
	}
	if (is_quantifier(fn)) {
		return quantifier(t, off, fn, target, v1, NULL, args[1]);
	}
	if (strcmp(fn, "filter") == 0) {
		return builder(t, off, target, v1, NULL, args[1], cel_ast__ident(t, off, v1),
		               BUILD_LIST);
	}
	return builder(t, off, target, v1, NULL, nargs == 3 ? args[1] : NULL, args[nargs - 1],
	               BUILD_LIST);
}

/* The two-variable forms: the quantifiers (and existsOne), transformList/Map/MapEntry. */
static CelAst *
expand_two(CelAstTree *t,
           guint32 off,
           const char *fn,
           CelAst *target,
           const char *v1,
           CelAst **args,
           guint nargs,
           const char **error_msg)
{
	const char *v2 = simple_name(args[1]);
	if (v2 == NULL) {
		*error_msg = "argument must be a simple name";
		return NULL;
	}
	if (strcmp(v1, v2) == 0) {
		*error_msg = "duplicate variable name";
		return NULL;
	}
	if (is_quantifier(fn) || strcmp(fn, "existsOne") == 0) {
		return quantifier(t, off, strcmp(fn, "existsOne") == 0 ? "exists_one" : fn, target,
		                  v1, v2, args[2]);
	}
	CelAst *filter = nargs == 4 ? args[2] : NULL;
	BuildKind kind = strcmp(fn, "transformList") == 0       ? BUILD_LIST
	                 : strcmp(fn, "transformMapEntry") == 0 ? BUILD_MAP_ENTRY
	                                                        : BUILD_MAP;
	return builder(t, off, target, v1, v2, filter, args[nargs - 1], kind);
}

CelAst *
cel_macro__expand(CelAstTree *t,
                  guint32 off,
                  const char *fn,
                  CelAst *target,
                  CelAst **args,
                  guint nargs,
                  const char **error_msg)
{
	if (target == NULL) {
		return strcmp(fn, "has") == 0 && nargs == 1 ? expand_has(off, args[0], error_msg)
		                                            : NULL;
	}
	if (target->kind == CEL_AST_IDENT && strcmp(target->ident.name, "cel") == 0 &&
	    strcmp(fn, "bind") == 0 && nargs == 3) {
		const char *v = simple_name(args[0]);
		if (v == NULL) {
			*error_msg = "cel.bind() variable names must be simple identifiers";
			return NULL;
		}
		return bind(t, off, v, args[1], args[2]);
	}
	gboolean q1 = is_quantifier(fn);
	gboolean q2 = q1 || strcmp(fn, "existsOne") == 0;
	gboolean transform = strcmp(fn, "transformList") == 0 || strcmp(fn, "transformMap") == 0 ||
	                     strcmp(fn, "transformMapEntry") == 0;
	gboolean opt = strcmp(fn, "optMap") == 0 || strcmp(fn, "optFlatMap") == 0;
	gboolean two = (q2 && nargs == 3) || (transform && (nargs == 3 || nargs == 4));
	gboolean one = (q1 && nargs == 2) ||
	               (strcmp(fn, "map") == 0 && (nargs == 2 || nargs == 3)) ||
	               (strcmp(fn, "filter") == 0 && nargs == 2) || (opt && nargs == 2);
	if (!one && !two) {
		return NULL;
	}
	const char *v1 = simple_name(args[0]);
	if (v1 == NULL) {
		*error_msg = "argument must be a simple name";
		return NULL;
	}
	if (strcmp(v1, ACCU) == 0) {
		*error_msg = "iteration variable overwrites accumulator variable";
		return NULL;
	}
	return one ? expand_one(t, off, fn, target, v1, args, nargs)
	           : expand_two(t, off, fn, target, v1, args, nargs, error_msg);
}
