/*
 * cel_eval.c: the tree-walking evaluator over a checked, resolved AST.
 *
 * Runtime errors are values (CEL_KIND_ERROR). Strict calls return their
 * first erroneous argument; &&, || and ?: absorb errors as the CEL spec's
 * logic rules say (false && error == false, true || error == true).
 * Variables are slots and locals are indexes, fixed at compile time; list
 * and map accumulators of comprehensions grow in place (CEL_VALUE_MUTABLE),
 * as cel-go's mutable lists do, so map()/filter() stay linear.
 */
#include <math.h>
#include <string.h>

#include "cel-private.h"

static inline CelValue eval(CelActivation *act, const CelAst *n);

static CelValue
no_overload(CelActivation *act, const char *fn)
{
	return cel_errorf(act, "no matching overload for '%s'", fn);
}

static gboolean
value_matches(const CelType *t, CelValue v)
{
	switch (t->kind) {
	case CEL_TYPE_DYN:
	case CEL_TYPE_ANY:
	case CEL_TYPE_PARAM:
		return TRUE;
	case CEL_TYPE_NULL:
		return v.kind == CEL_KIND_NULL;
	case CEL_TYPE_BOOL:
		return v.kind == CEL_KIND_BOOL;
	case CEL_TYPE_INT:
		return v.kind == CEL_KIND_INT;
	case CEL_TYPE_UINT:
		return v.kind == CEL_KIND_UINT;
	case CEL_TYPE_DOUBLE:
		return v.kind == CEL_KIND_DOUBLE;
	case CEL_TYPE_STRING:
		return v.kind == CEL_KIND_STRING;
	case CEL_TYPE_BYTES:
		return v.kind == CEL_KIND_BYTES;
	case CEL_TYPE_LIST:
		return v.kind == CEL_KIND_LIST;
	case CEL_TYPE_MAP:
		return v.kind == CEL_KIND_MAP;
	case CEL_TYPE_TYPE:
		return v.kind == CEL_KIND_TYPE;
	case CEL_TYPE_TIMESTAMP:
		return v.kind == CEL_KIND_TIMESTAMP;
	case CEL_TYPE_DURATION:
		return v.kind == CEL_KIND_DURATION;
	case CEL_TYPE_OPTIONAL:
		return v.kind == CEL_KIND_OPTIONAL;
	case CEL_TYPE_OPAQUE:
	case CEL_TYPE_OBJECT:
		return v.kind == CEL_KIND_OBJECT && (v.obj->klass->type_name == t->name ||
		                                     strcmp(v.obj->klass->type_name, t->name) == 0);
	default:
		return FALSE;
	}
}

gboolean
cel_overload_matches_values(const CelOverloadDecl *decl, const CelValue *args, guint nargs)
{
	if (decl->nparams != nargs) {
		return FALSE;
	}
	for (guint i = 0; i < nargs; i++) {
		if (!value_matches(decl->params[i], args[i])) {
			return FALSE;
		}
	}
	return TRUE;
}

CelValue
cel_eval_dispatch(CelActivation *act, const CelAst *call, const CelValue *args, guint nargs)
{
	for (guint i = 0; i < call->call.noverloads; i++) {
		const CelOverloadDecl *d = call->call.overloads[i];
		if (cel_overload_matches_values(d, args, nargs)) {
			if (d->def->impl == NULL) {
				return cel_errorf(act, "no implementation for overload '%s'",
				                  d->def->id);
			}
			return d->def->impl(act, args, nargs);
		}
	}
	return no_overload(act, call->call.function);
}

static inline gboolean
is_false(CelValue v)
{
	return v.kind == CEL_KIND_BOOL && !v.b;
}

static inline gboolean
is_true(CelValue v)
{
	return v.kind == CEL_KIND_BOOL && v.b;
}

static CelValue
eval_and_or(CelActivation *act, const CelAst *n, gboolean is_and)
{
	CelValue l = eval(act, n->call.args[0]);
	/* short circuit on the absorbing value */
	if (is_and ? is_false(l) : is_true(l)) {
		return l;
	}
	CelValue r = eval(act, n->call.args[1]);
	if (is_and ? is_false(r) : is_true(r)) {
		return r;
	}
	if (l.kind == CEL_KIND_ERROR) {
		return l;
	}
	if (r.kind == CEL_KIND_ERROR) {
		return r;
	}
	if (l.kind != CEL_KIND_BOOL || r.kind != CEL_KIND_BOOL) {
		return no_overload(act, n->call.function);
	}
	return cel_value_bool(is_and);
}

static CelValue
map_field(CelActivation *act, CelValue m, const char *field, gsize len, gboolean *found)
{
	CelValue key = cel_value_string(field, len);
	key.flags = CEL_VALUE_INTERNED;
	CelValue out;
	*found = cel_map_lookup(m.map, key, &out, act);
	return *found ? out : cel_value_null();
}

/* Field selection on any value; @found FALSE means "no such key". */
static CelValue
select_field(CelActivation *act, CelValue v, const char *field, gsize len, gboolean *found)
{
	switch (v.kind) {
	case CEL_KIND_MAP:
		return map_field(act, v, field, len, found);
	case CEL_KIND_OBJECT:
		if (v.obj->klass->select != NULL) {
			CelValue out;
			*found = v.obj->klass->select(v.obj, field, &out, act);
			return out;
		}
		break;
	default:
		break;
	}
	*found = TRUE;
	return cel_errorf(act, "type '%s' does not support field selection",
	                  cel_type_get_name(cel_type_of_value(v)));
}

static CelValue
eval_select(CelActivation *act, const CelAst *n)
{
	CelValue v = eval(act, n->select.operand);
	if (v.kind == CEL_KIND_ERROR) {
		return v;
	}
	gboolean opt = FALSE;
	if (v.kind == CEL_KIND_OPTIONAL) {
		if (v.opt == NULL) {
			return n->select.test_only ? cel_value_bool(FALSE) : v;
		}
		opt = TRUE;
		v = *(const CelValue *)v.opt;
	}
	gboolean found;
	CelValue r = select_field(act, v, n->select.field, n->select.field_len, &found);
	if (n->select.test_only) {
		if (r.kind == CEL_KIND_ERROR && found) {
			return r;
		}
		return cel_value_bool(found);
	}
	if (opt) {
		if (!found) {
			return cel_value_optional_none();
		}
		return r.kind == CEL_KIND_ERROR ? r : cel_value_optional_of(act, r);
	}
	if (!found) {
		return cel_errorf(act, "no such key: %s", n->select.field);
	}
	return r;
}

/* Integral index from int/uint/double, or -1 with *ok FALSE. */
static gint64
list_index(CelValue k, gboolean *ok)
{
	*ok = TRUE;
	if (k.kind == CEL_KIND_INT) {
		return k.i;
	}
	if (k.kind == CEL_KIND_UINT) {
		return k.u > G_MAXINT64 ? G_MAXINT64 : (gint64)k.u;
	}
	if (k.kind == CEL_KIND_DOUBLE && CEL_DOUBLE_EQ(k.d, floor(k.d)) && fabs(k.d) < 9e18) {
		return (gint64)k.d;
	}
	*ok = FALSE;
	return -1;
}

/* c[k]; @found FALSE for a missing key/index when @optional. */
static CelValue
index_value(CelActivation *act, CelValue c, CelValue k, gboolean *found)
{
	*found = TRUE;
	if (c.kind == CEL_KIND_LIST) {
		gboolean ok;
		gint64 i = list_index(k, &ok);
		if (!ok) {
			return cel_value_error("no matching overload for '_[_]'");
		}
		if (i < 0 || i >= c.list->len) {
			*found = FALSE;
			return cel_errorf(act, "index out of bounds: %" G_GINT64_FORMAT, i);
		}
		return cel_list_get(c.list, (guint)i, act);
	}
	if (c.kind == CEL_KIND_MAP) {
		CelValue out;
		if (k.kind != CEL_KIND_STRING && k.kind != CEL_KIND_INT &&
		    k.kind != CEL_KIND_UINT && k.kind != CEL_KIND_BOOL &&
		    k.kind != CEL_KIND_DOUBLE) {
			*found = FALSE;
			return cel_value_error("no such key");
		}
		if (cel_map_lookup(c.map, k, &out, act)) {
			return out;
		}
		*found = FALSE;
		if (k.kind == CEL_KIND_STRING) {
			return cel_errorf(act, "no such key: %.*s", (int)k.aux, k.str);
		}
		return cel_value_error("no such key");
	}
	if (c.kind == CEL_KIND_OBJECT && k.kind == CEL_KIND_STRING && c.obj->klass->select) {
		char buf[256];
		gsize len = MIN(k.aux, sizeof buf - 1);
		memcpy(buf, k.str, len);
		buf[len] = '\0';
		CelValue out;
		if (c.obj->klass->select(c.obj, g_intern_string(buf), &out, act)) {
			return out;
		}
		*found = FALSE;
		return cel_errorf(act, "no such key: %s", buf);
	}
	return cel_value_error("no matching overload for '_[_]'");
}

static CelValue
eval_index(CelActivation *act, const CelAst *n, gboolean optional)
{
	CelValue c = eval(act, n->call.args[0]);
	if (c.kind == CEL_KIND_ERROR) {
		return c;
	}
	CelValue k = eval(act, n->call.args[1]);
	if (k.kind == CEL_KIND_ERROR) {
		return k;
	}
	if (c.kind == CEL_KIND_OPTIONAL) {
		if (c.opt == NULL) {
			return c;
		}
		optional = TRUE;
		c = *(const CelValue *)c.opt;
	}
	gboolean found;
	CelValue r = index_value(act, c, k, &found);
	if (!optional) {
		return r;
	}
	if (!found) {
		return cel_value_optional_none();
	}
	if (r.kind == CEL_KIND_ERROR) {
		return r;
	}
	return cel_value_optional_of(act, r);
}

static CelValue
eval_opt_select(CelActivation *act, const CelAst *n)
{
	CelValue v = eval(act, n->call.args[0]);
	if (v.kind == CEL_KIND_ERROR) {
		return v;
	}
	CelValue f = eval(act, n->call.args[1]);
	if (v.kind == CEL_KIND_OPTIONAL) {
		if (v.opt == NULL) {
			return v;
		}
		v = *(const CelValue *)v.opt;
	}
	gboolean found;
	CelValue r = select_field(act, v, f.str, f.aux, &found);
	if (!found) {
		return cel_value_optional_none();
	}
	if (r.kind == CEL_KIND_ERROR) {
		return r;
	}
	return cel_value_optional_of(act, r);
}

static CelValue
eval_in(CelActivation *act, CelValue e, CelValue c)
{
	if (c.kind == CEL_KIND_LIST) {
		for (guint i = 0; i < c.list->len; i++) {
			if (cel_value_equal(e, cel_list_get(c.list, i, act), act)) {
				return cel_value_bool(TRUE);
			}
		}
		return cel_value_bool(FALSE);
	}
	if (c.kind == CEL_KIND_MAP) {
		if (c.map->klass != NULL && c.map->klass->contains != NULL) {
			return cel_value_bool(c.map->klass->contains(c.map, e, act));
		}
		CelValue out;
		return cel_value_bool(cel_map_lookup(c.map, e, &out, act));
	}
	return no_overload(act, "@in");
}

static CelValue
eval_conditional(CelActivation *act, const CelAst *n)
{
	CelValue c = eval(act, n->call.args[0]);
	if (c.kind == CEL_KIND_BOOL) {
		return eval(act, n->call.args[c.b ? 1 : 2]);
	}
	return c.kind == CEL_KIND_ERROR ? c : no_overload(act, "_?_:_");
}

/* ==, != and in: strict in both operands. */
static CelValue
eval_equality(CelActivation *act, const CelAst *n)
{
	CelValue a = eval(act, n->call.args[0]);
	if (a.kind == CEL_KIND_ERROR) {
		return a;
	}
	CelValue b = eval(act, n->call.args[1]);
	if (b.kind == CEL_KIND_ERROR) {
		return b;
	}
	if (n->call.special == CEL_SPECIAL_IN) {
		return eval_in(act, a, b);
	}
	gboolean eq = cel_value_equal(a, b, act);
	return cel_value_bool(n->call.special == CEL_SPECIAL_EQ ? eq : !eq);
}

/* opt.or(o) and opt.orValue(v): cel-go decorates them to short-circuit on a present value. */
static CelValue
eval_or_optional(CelActivation *act, const CelAst *n)
{
	CelValue t = eval(act, n->call.target);
	if (t.kind == CEL_KIND_ERROR) {
		return t;
	}
	if (t.kind == CEL_KIND_OPTIONAL && t.opt != NULL) {
		return n->call.special == CEL_SPECIAL_OR_OPT ? t : *(const CelValue *)t.opt;
	}
	CelValue args2[2] = { t, eval(act, n->call.args[0]) };
	if (args2[1].kind == CEL_KIND_ERROR) {
		return args2[1];
	}
	return cel_eval_dispatch(act, n, args2, 2);
}

/* An ordinary call: strict in its operands, then the implementation (and the observer). */
static CelValue
eval_strict_call(CelActivation *act, const CelAst *n)
{
	CelValue args[16];
	guint k = 0;
	if (n->call.target != NULL) {
		args[k] = eval(act, n->call.target);
		if (args[k].kind == CEL_KIND_ERROR) {
			return args[k];
		}
		k++;
	}
	for (guint i = 0; i < n->call.nargs && k < G_N_ELEMENTS(args); i++) {
		args[k] = eval(act, n->call.args[i]);
		if (args[k].kind == CEL_KIND_ERROR) {
			return args[k];
		}
		k++;
	}
	CelValue r = n->call.direct != NULL ? n->call.direct(act, args, k)
	                                    : cel_eval_dispatch(act, n, args, k);
	if (G_UNLIKELY(act->observing)) {
		act->env->hooks.observe(act, n, args, k, r, act->env->hooks.data);
	}
	return r;
}

static CelValue
eval_call(CelActivation *act, const CelAst *n)
{
	switch (n->call.special) {
	case CEL_SPECIAL_AND:
		return eval_and_or(act, n, TRUE);
	case CEL_SPECIAL_OR:
		return eval_and_or(act, n, FALSE);
	case CEL_SPECIAL_COND:
		return eval_conditional(act, n);
	case CEL_SPECIAL_NOT: {
		CelValue v = eval(act, n->call.args[0]);
		if (v.kind == CEL_KIND_BOOL) {
			return cel_value_bool(!v.b);
		}
		return v.kind == CEL_KIND_ERROR ? v : no_overload(act, "!_");
	}
	case CEL_SPECIAL_NOT_STRICTLY_FALSE: {
		CelValue v = eval(act, n->call.args[0]);
		return v.kind == CEL_KIND_BOOL ? v : cel_value_bool(TRUE);
	}
	case CEL_SPECIAL_INDEX:
		return eval_index(act, n, FALSE);
	case CEL_SPECIAL_OPT_INDEX:
		return eval_index(act, n, TRUE);
	case CEL_SPECIAL_OPT_SELECT:
		return eval_opt_select(act, n);
	case CEL_SPECIAL_EQ:
	case CEL_SPECIAL_NE:
	case CEL_SPECIAL_IN:
		return eval_equality(act, n);
	case CEL_SPECIAL_OR_OPT:
	case CEL_SPECIAL_OR_VALUE:
		return eval_or_optional(act, n);
	default:
		return eval_strict_call(act, n);
	}
}

static CelValue
eval_list(CelActivation *act, const CelAst *n)
{
	CelList *l = cel_list_new(act, n->list.n);
	for (guint i = 0; i < n->list.n; i++) {
		CelValue v = eval(act, n->list.elems[i]);
		if (v.kind == CEL_KIND_ERROR) {
			return v;
		}
		if (n->list.optional && n->list.optional[i]) {
			if (v.kind != CEL_KIND_OPTIONAL) {
				return no_overload(act, "optional list element");
			}
			if (v.opt == NULL) {
				continue;
			}
			v = *(const CelValue *)v.opt;
		}
		v.flags &= ~CEL_VALUE_MUTABLE;
		l->items[l->len++] = v;
	}
	return cel_value_list(l);
}

static CelValue
eval_map(CelActivation *act, const CelAst *n)
{
	CelMap *m = cel_map_new(act, n->map.n);
	for (guint i = 0; i < n->map.n; i++) {
		CelValue k = eval(act, n->map.keys[i]);
		if (k.kind == CEL_KIND_ERROR) {
			return k;
		}
		CelValue v = eval(act, n->map.values[i]);
		if (v.kind == CEL_KIND_ERROR) {
			return v;
		}
		if (k.kind != CEL_KIND_STRING && k.kind != CEL_KIND_INT &&
		    k.kind != CEL_KIND_UINT && k.kind != CEL_KIND_BOOL) {
			return cel_value_error("unsupported key type");
		}
		if (n->map.optional && n->map.optional[i]) {
			if (v.kind != CEL_KIND_OPTIONAL) {
				return no_overload(act, "optional map entry");
			}
			if (v.opt == NULL) {
				continue;
			}
			v = *(const CelValue *)v.opt;
		}
		CelValue dummy;
		if (cel_map_lookup(m, k, &dummy, act)) {
			return cel_value_error("Failed with repeated key");
		}
		v.flags &= ~CEL_VALUE_MUTABLE;
		m->keys[m->len] = k;
		m->values[m->len++] = v;
	}
	return cel_value_map(m);
}

/* The Go type cel-go's messages print for a value (%T). */
static const char *
go_type_name(CelValue v)
{
	switch ((CelKind)v.kind) {
	case CEL_KIND_NULL:
		return "types.Null";
	case CEL_KIND_BOOL:
		return "types.Bool";
	case CEL_KIND_INT:
		return "types.Int";
	case CEL_KIND_UINT:
		return "types.Uint";
	case CEL_KIND_DOUBLE:
		return "types.Double";
	case CEL_KIND_STRING:
		return "types.String";
	case CEL_KIND_BYTES:
		return "types.Bytes";
	case CEL_KIND_TYPE:
		return "*types.Type";
	case CEL_KIND_TIMESTAMP:
		return "types.Timestamp";
	case CEL_KIND_DURATION:
		return "types.Duration";
	case CEL_KIND_OPTIONAL:
		return "*types.Optional";
	case CEL_KIND_OBJECT:
		return v.obj->klass->go_type_name ? v.obj->klass->go_type_name
		                                  : v.obj->klass->type_name;
	default:
		return "types.Err";
	}
}

static gboolean
is_empty_literal(const CelAst *n)
{
	return (n->kind == CEL_AST_LIST && n->list.n == 0) ||
	       (n->kind == CEL_AST_MAP && n->map.n == 0);
}

static CelValue
eval_comprehension(CelActivation *act, const CelAst *n)
{
	CelValue range = eval(act, n->comp.iter_range);
	if (range.kind == CEL_KIND_ERROR) {
		return range;
	}
	guint len;
	if (range.kind == CEL_KIND_LIST) {
		len = range.list->len;
	} else if (range.kind == CEL_KIND_MAP) {
		len = range.map->len;
	} else {
		/* cel-go interpreter evalFold: "got '%T', expected iterable type" */
		return cel_errorf(act, "got '%s', expected iterable type", go_type_name(range));
	}
	CelValue accu = eval(act, n->comp.accu_init);
	if (is_empty_literal(n->comp.accu_init) && accu.kind != CEL_KIND_ERROR) {
		accu.flags |= CEL_VALUE_MUTABLE;
	}
	CelValue *locals = act->locals;
	for (guint i = 0; i < len; i++) {
		locals[n->comp.accu_local] = accu;
		if (range.kind == CEL_KIND_LIST) {
			CelValue e = cel_list_get(range.list, i, act);
			if (n->comp.iter_var2) {
				locals[n->comp.iter_local] = cel_value_int(i);
				locals[n->comp.iter2_local] = e;
			} else {
				locals[n->comp.iter_local] = e;
			}
		} else {
			CelValue k, v;
			cel_map_entry(range.map, i, &k, &v, act);
			locals[n->comp.iter_local] = k;
			if (n->comp.iter_var2) {
				locals[n->comp.iter2_local] = v;
			}
		}
		CelValue cond = eval(act, n->comp.loop_cond);
		if (cond.kind == CEL_KIND_BOOL && !cond.b) {
			break;
		}
		accu = eval(act, n->comp.loop_step);
		if (act->cancelled) {
			return accu;
		}
	}
	locals[n->comp.accu_local] = accu;
	CelValue r = eval(act, n->comp.result);
	r.flags &= ~CEL_VALUE_MUTABLE;
	return r;
}

static CelValue
eval_inner(CelActivation *act, const CelAst *n)
{
	switch (n->kind) {
	case CEL_AST_CONST:
		return n->constant;
	case CEL_AST_IDENT:
		switch (n->ident.ref) {
		case CEL_REF_VAR:
			return act->vars[n->ident.index];
		case CEL_REF_LOCAL:
			return act->locals[n->ident.index];
		case CEL_REF_CONST:
			return n->ident.constant;
		default:
			return cel_errorf(act, "no such attribute: %s", n->ident.name);
		}
	case CEL_AST_SELECT:
		return eval_select(act, n);
	case CEL_AST_CALL:
		return eval_call(act, n);
	case CEL_AST_LIST:
		return eval_list(act, n);
	case CEL_AST_MAP:
		return eval_map(act, n);
	case CEL_AST_COMPREHENSION:
		return eval_comprehension(act, n);
	case CEL_AST_HOST:
		return n->host.eval(act, n);
	case CEL_AST_STRUCT:
		return cel_errorf(act, "unknown type: %s", n->strukt.message);
	}
	return cel_value_error("invalid expression");
}

/* With a cost observer: stop once cancelled, observe each node, check the limit. */
static CelValue
eval_observed(CelActivation *act, const CelAst *n)
{
	if (act->cancelled) {
		return cel_value_error("operation cancelled: actual cost limit exceeded");
	}
	CelValue v = eval_inner(act, n);
	{
		/* plain calls were observed with their arguments in eval_call() */
		if (n->kind != CEL_AST_CALL || n->call.special != CEL_SPECIAL_NONE) {
			act->env->hooks.observe(act, n, NULL, 0, v, act->env->hooks.data);
		}
		if (act->cost_limit != 0 && act->cost > act->cost_limit) {
			act->cancelled = TRUE;
			return cel_value_error("operation cancelled: actual cost limit exceeded");
		}
	}
	return v;
}

static inline CelValue
eval(CelActivation *act, const CelAst *n)
{
	if (G_UNLIKELY(act->observing)) {
		return eval_observed(act, n);
	}
	return eval_inner(act, n);
}

CelValue
cel_eval_node(CelActivation *act, const CelAst *node)
{
	return eval(act, node);
}
