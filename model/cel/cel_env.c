/*
 * cel_env.c: environments: options, variable declarations and the function
 * overload tables that libraries register.
 *
 * Signatures are written as text ("string, string -> bool") in the library
 * tables and parsed once here, so a library is a static array of rows.
 */
#include <string.h>

#include "cel-private.h"

static void
func_decl_free(gpointer p)
{
	CelFuncDecl *f = p;
	g_ptr_array_unref(f->overloads);
	g_free(f);
}

CelEnv *
cel_env_new(void)
{
	CelEnv *self = g_new0(CelEnv, 1);
	self->ref_count = 1;
	self->container = g_strdup("");
	self->vars = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	self->funcs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, func_decl_free);
	base_arena_init(&self->arena, 4096);
	cel_lib_std_register(self);
	cel_lib_strings_register(self);
	cel_lib_time_register(self);
	cel_lib_optional_register(self);
	return self;
}

CelEnv *
cel_env_ref(CelEnv *self)
{
	g_atomic_int_inc(&self->ref_count);
	return self;
}

void
cel_env_unref(CelEnv *self)
{
	if (self == NULL || !g_atomic_int_dec_and_test(&self->ref_count)) {
		return;
	}
	g_hash_table_unref(self->vars);
	g_hash_table_unref(self->funcs);
	base_arena_clear(&self->arena);
	g_free(self->container);
	g_free(self);
}

void
cel_env_set_container(CelEnv *self, const char *container)
{
	g_free(self->container);
	self->container = g_strdup(container ? container : "");
}

void
cel_env_set_homogeneous_literals(CelEnv *self, gboolean on)
{
	self->homogeneous = on;
}

void
cel_env_set_disable_macros(CelEnv *self, gboolean on)
{
	self->disable_macros = on;
}

void
cel_env_set_disable_check(CelEnv *self, gboolean on)
{
	self->disable_check = on;
}

void
cel_env_set_cost_limit(CelEnv *self, guint64 limit)
{
	self->cost_limit = limit;
}

guint
cel_env_declare_var(CelEnv *self, const char *name, const CelType *type)
{
	const char *key = g_intern_string(name);
	CelVarDecl *v = g_hash_table_lookup(self->vars, key);
	if (v == NULL) {
		v = g_new0(CelVarDecl, 1);
		v->name = key;
		v->slot = self->nslots++;
		g_hash_table_insert(self->vars, (gpointer)key, v);
	}
	v->type = type ? type : cel_type_dyn();
	return v->slot;
}

const CelVarDecl *
cel_env_lookup_var(const CelEnv *self, const char *name)
{
	return g_hash_table_lookup(self->vars, g_intern_string(name));
}

CelFuncDecl *
cel_env_lookup_function(const CelEnv *self, const char *name)
{
	return g_hash_table_lookup(self->funcs, g_intern_string(name));
}

static CelFuncDecl *
func_get(CelEnv *self, const char *name)
{
	const char *key = g_intern_string(name);
	CelFuncDecl *f = g_hash_table_lookup(self->funcs, key);
	if (f == NULL) {
		f = g_new0(CelFuncDecl, 1);
		f->name = key;
		f->overloads = g_ptr_array_new_with_free_func(g_free);
		g_hash_table_insert(self->funcs, (gpointer)key, f);
	}
	return f;
}

static gboolean
type_has_params(const CelType *t)
{
	if (t == NULL) {
		return FALSE;
	}
	if (t->kind == CEL_TYPE_PARAM) {
		return TRUE;
	}
	for (guint i = 0; i < t->nparams; i++) {
		if (type_has_params(t->params[i])) {
			return TRUE;
		}
	}
	return FALSE;
}

static void
func_add(CelFuncDecl *f, CelOverloadDecl *d)
{
	/* replace an overload with the same id */
	for (guint i = 0; i < f->overloads->len; i++) {
		CelOverloadDecl *old = g_ptr_array_index(f->overloads, i);
		if (strcmp(old->def->id, d->def->id) == 0) {
			g_ptr_array_index(f->overloads, i) = d;
			g_free(old);
			return;
		}
	}
	g_ptr_array_add(f->overloads, d);
}

/* Splits "a, map(b, c) -> d" at top-level commas. */
static gboolean
parse_signature(const char *sig, CelOverloadDecl *d)
{
	const char *arrow = strstr(sig, "->");
	if (arrow == NULL) {
		return FALSE;
	}
	g_autofree char *params = g_strndup(sig, arrow - sig);
	char *r = g_strstrip(g_strdup(arrow + 2));
	d->result = cel_type_parse(r);
	g_free(r);
	if (d->result == NULL) {
		return FALSE;
	}
	d->nparams = 0;
	int depth = 0;
	char *start = params;
	for (char *p = params;; p++) {
		if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			depth--;
		} else if ((*p == ',' && depth == 0) || *p == '\0') {
			gboolean end = *p == '\0';
			*p = '\0';
			char *one = g_strstrip(start);
			if (*one != '\0') {
				if (d->nparams == CEL_MAX_PARAMS) {
					return FALSE;
				}
				d->params[d->nparams] = cel_type_parse(one);
				if (d->params[d->nparams] == NULL) {
					return FALSE;
				}
				d->nparams++;
			}
			if (end) {
				break;
			}
			start = p + 1;
		}
	}
	d->has_type_params = type_has_params(d->result);
	for (guint i = 0; i < d->nparams; i++) {
		d->has_type_params |= type_has_params(d->params[i]);
	}
	return TRUE;
}

void
cel_env_add_overloads(CelEnv *self, const CelOverload *overloads, guint n)
{
	for (guint i = 0; i < n; i++) {
		CelOverloadDecl *d = g_new0(CelOverloadDecl, 1);
		d->def = &overloads[i];
		if (!parse_signature(overloads[i].signature, d)) {
			g_error("cel: bad signature '%s' for overload %s", overloads[i].signature,
			        overloads[i].id);
		}
		func_add(func_get(self, overloads[i].function), d);
	}
}

gboolean
cel_env_declare_function(CelEnv *self,
                         const char *name,
                         const char *id,
                         gboolean receiver,
                         const CelType *const *params,
                         guint nparams,
                         const CelType *result,
                         GError **error)
{
	if (nparams > CEL_MAX_PARAMS) {
		g_set_error(error, CEL_ERROR, CEL_ERROR_TYPE, "too many parameters for %s", name);
		return FALSE;
	}
	/* declarations without implementation: the row lives in the env arena */
	CelOverload *row = base_arena_alloc(&self->arena, sizeof(CelOverload));
	row->function = g_intern_string(name);
	row->id = g_intern_string(id);
	row->style = receiver ? CEL_RECEIVER : CEL_GLOBAL;
	row->signature = "";
	CelOverloadDecl *d = g_new0(CelOverloadDecl, 1);
	d->def = row;
	d->nparams = nparams;
	for (guint i = 0; i < nparams; i++) {
		d->params[i] = params[i];
		d->has_type_params |= type_has_params(params[i]);
	}
	d->result = result;
	d->has_type_params |= type_has_params(result);
	func_add(func_get(self, name), d);
	return TRUE;
}
