/*
 * cel_type.c: CEL types, interned for the life of the process.
 *
 * Every type is identified by its CEL spelling ("map(string, list(int))"), so
 * two equal types are the same pointer and checks compare pointers. Named
 * library types (kubernetes.Quantity) and object types (kubernetes.DRADevice)
 * are registered here once by the libraries that define them.
 */
#include <string.h>

#include "cel-private.h"

static GMutex type_lock;
static GHashTable *type_table; /* interned name -> CelType* */

static CelType *
type_table_insert(
        CelTypeKind kind, const char *name, const CelType *p0, const CelType *p1, guint nparams)
{
	CelType *t = g_new0(CelType, 1);
	t->kind = kind;
	t->name = g_intern_string(name);
	t->params[0] = p0;
	t->params[1] = p1;
	t->nparams = nparams;
	const char *paren = strchr(name, '(');
	if (paren != NULL) {
		g_autofree char *base = g_strndup(name, paren - name);
		t->base = g_intern_string(base);
	} else {
		t->base = t->name;
	}
	g_hash_table_insert(type_table, (gpointer)t->name, t);
	return t;
}

static void
type_table_init_locked(void)
{
	if (type_table != NULL) {
		return;
	}
	type_table = g_hash_table_new(g_direct_hash, g_direct_equal);
	type_table_insert(CEL_TYPE_DYN, "dyn", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_ANY, "any", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_NULL, "null_type", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_BOOL, "bool", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_INT, "int", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_UINT, "uint", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_DOUBLE, "double", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_STRING, "string", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_BYTES, "bytes", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_TIMESTAMP, "google.protobuf.Timestamp", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_DURATION, "google.protobuf.Duration", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_ERROR, "*error*", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_LIST, "list", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_MAP, "map", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_TYPE, "type", NULL, NULL, 0);
	type_table_insert(CEL_TYPE_OPTIONAL, "optional_type", NULL, NULL, 0);
}

static const CelType *
type_get(CelTypeKind kind, const char *name, const CelType *p0, const CelType *p1, guint nparams)
{
	const char *key = g_intern_string(name);
	g_mutex_lock(&type_lock);
	type_table_init_locked();
	CelType *t = g_hash_table_lookup(type_table, key);
	if (t == NULL) {
		t = type_table_insert(kind, name, p0, p1, nparams);
	}
	g_mutex_unlock(&type_lock);
	return t;
}

static const CelType *
type_simple(const char *name)
{
	g_mutex_lock(&type_lock);
	type_table_init_locked();
	const CelType *t = g_hash_table_lookup(type_table, g_intern_static_string(name));
	g_mutex_unlock(&type_lock);
	return t;
}

#define SIMPLE(fn, spelling)                                                                       \
	const CelType *fn(void)                                                                    \
	{                                                                                          \
		static const CelType *cached;                                                      \
		if (g_once_init_enter(&cached)) {                                                  \
			g_once_init_leave(&cached, type_simple(spelling));                         \
		}                                                                                  \
		return cached;                                                                     \
	}

SIMPLE(cel_type_dyn, "dyn")
SIMPLE(cel_type_any, "any")
SIMPLE(cel_type_null, "null_type")
SIMPLE(cel_type_bool, "bool")
SIMPLE(cel_type_int, "int")
SIMPLE(cel_type_uint, "uint")
SIMPLE(cel_type_double, "double")
SIMPLE(cel_type_string, "string")
SIMPLE(cel_type_bytes, "bytes")
SIMPLE(cel_type_timestamp, "google.protobuf.Timestamp")
SIMPLE(cel_type_duration, "google.protobuf.Duration")
SIMPLE(cel_type_error, "*error*")

const CelType *
cel_type_list(const CelType *elem)
{
	if (elem == NULL) {
		return type_simple("list");
	}
	g_autofree char *name = g_strdup_printf("list(%s)", elem->name);
	return type_get(CEL_TYPE_LIST, name, elem, NULL, 1);
}

const CelType *
cel_type_map(const CelType *key, const CelType *value)
{
	if (key == NULL) {
		return type_simple("map");
	}
	g_autofree char *name = g_strdup_printf("map(%s, %s)", key->name, value->name);
	return type_get(CEL_TYPE_MAP, name, key, value, 2);
}

const CelType *
cel_type_type(const CelType *of)
{
	if (of == NULL) {
		return type_simple("type");
	}
	g_autofree char *name = g_strdup_printf("type(%s)", of->name);
	return type_get(CEL_TYPE_TYPE, name, of, NULL, 1);
}

const CelType *
cel_type_optional(const CelType *elem)
{
	if (elem == NULL) {
		return type_simple("optional_type");
	}
	g_autofree char *name = g_strdup_printf("optional_type(%s)", elem->name);
	return type_get(CEL_TYPE_OPTIONAL, name, elem, NULL, 1);
}

const CelType *
cel_type_param(const char *name)
{
	/* type parameters live in their own namespace: "~A" */
	g_autofree char *key = g_strdup_printf("~%s", name);
	const CelType *t = type_get(CEL_TYPE_PARAM, key, NULL, NULL, 0);
	return t;
}

const CelType *
cel_type_abstract(const char *base, const CelType *const *params, guint n)
{
	if (n == 0) {
		return cel_type_register_opaque(base, NULL);
	}
	GString *name = g_string_new(base);
	g_string_append_c(name, '(');
	for (guint i = 0; i < n; i++) {
		g_string_append_printf(name, "%s%s", i ? ", " : "", params[i]->name);
	}
	g_string_append_c(name, ')');
	const char *key = g_intern_string(name->str);
	g_string_free(name, TRUE);
	g_mutex_lock(&type_lock);
	type_table_init_locked();
	CelType *t = g_hash_table_lookup(type_table, key);
	if (t == NULL) {
		t = type_table_insert(CEL_TYPE_OPAQUE, key, NULL, NULL, n);
		for (guint i = 0; i < n && i < 4; i++) {
			t->params[i] = params[i];
		}
	}
	g_mutex_unlock(&type_lock);
	return t;
}

const CelType *
cel_type_with_params(const CelType *t, const CelType *const *params)
{
	switch (t->kind) {
	case CEL_TYPE_LIST:
		return cel_type_list(params[0]);
	case CEL_TYPE_MAP:
		return cel_type_map(params[0], params[1]);
	case CEL_TYPE_TYPE:
		return cel_type_type(params[0]);
	case CEL_TYPE_OPTIONAL:
		return cel_type_optional(params[0]);
	case CEL_TYPE_OPAQUE:
		return t->nparams ? cel_type_abstract(t->base, params, t->nparams) : t;
	default:
		return t;
	}
}

const CelType *
cel_type_register_opaque(const char *name, const CelObjectClass *klass)
{
	CelType *t = (CelType *)type_get(CEL_TYPE_OPAQUE, name, NULL, NULL, 0);
	if (klass != NULL) {
		t->klass = klass;
	}
	return t;
}

const CelType *
cel_type_register_object(const char *name,
                         const CelField *fields,
                         guint nfields,
                         const CelObjectClass *klass)
{
	CelType *t = (CelType *)type_get(CEL_TYPE_OBJECT, name, NULL, NULL, 0);
	g_mutex_lock(&type_lock);
	if (t->fields == NULL && nfields > 0) {
		CelField *copy = g_new0(CelField, nfields);
		for (guint i = 0; i < nfields; i++) {
			copy[i].name = g_intern_string(fields[i].name);
			copy[i].type = fields[i].type;
		}
		t->fields = copy;
		t->nfields = nfields;
	}
	if (klass != NULL) {
		t->klass = klass;
	}
	g_mutex_unlock(&type_lock);
	return t;
}

const CelType *
cel_type_lookup_named(const char *name)
{
	g_mutex_lock(&type_lock);
	type_table_init_locked();
	const CelType *t = g_hash_table_lookup(type_table, g_intern_string(name));
	g_mutex_unlock(&type_lock);
	return t;
}

const char *
cel_type_get_name(const CelType *type)
{
	if (type->kind == CEL_TYPE_PARAM) {
		return type->name + 1;
	}
	return type->name;
}

gboolean
cel_type_equal(const CelType *a, const CelType *b)
{
	return a == b;
}

/* --- spelling parser ------------------------------------------------------ */

typedef struct {
	const char *p;
} TypeParser;

static void
tp_skip(TypeParser *tp)
{
	while (*tp->p == ' ') {
		tp->p++;
	}
}

static const CelType *tp_type(TypeParser *tp);

static const CelType *
tp_type(TypeParser *tp)
{
	tp_skip(tp);
	const char *start = tp->p;
	while (g_ascii_isalnum(*tp->p) || *tp->p == '_' || *tp->p == '.') {
		tp->p++;
	}
	g_autofree char *word = g_strndup(start, tp->p - start);
	if (*word == '\0') {
		return NULL;
	}
	const CelType *args[4] = { NULL, NULL, NULL, NULL };
	guint n = 0;
	tp_skip(tp);
	if (*tp->p == '(') {
		tp->p++;
		for (;;) {
			if (n == 4) {
				return NULL;
			}
			args[n] = tp_type(tp);
			if (args[n] == NULL) {
				return NULL;
			}
			n++;
			tp_skip(tp);
			if (*tp->p == ',') {
				tp->p++;
				continue;
			}
			if (*tp->p == ')') {
				tp->p++;
				break;
			}
			return NULL;
		}
	}
	if (strcmp(word, "list") == 0) {
		return n == 1 ? cel_type_list(args[0]) : n == 0 ? cel_type_list(NULL) : NULL;
	}
	if (strcmp(word, "map") == 0) {
		return n == 2   ? cel_type_map(args[0], args[1])
		       : n == 0 ? cel_type_map(NULL, NULL)
		                : NULL;
	}
	if (strcmp(word, "type") == 0) {
		return n <= 1 ? cel_type_type(args[0]) : NULL;
	}
	if (strcmp(word, "optional_type") == 0 || strcmp(word, "optional") == 0) {
		return n <= 1 ? cel_type_optional(args[0]) : NULL;
	}
	if (n != 0) {
		return cel_type_abstract(word, args, n);
	}
	if (strcmp(word, "timestamp") == 0) {
		return cel_type_timestamp();
	}
	if (strcmp(word, "duration") == 0) {
		return cel_type_duration();
	}
	if (strcmp(word, "null") == 0) {
		return cel_type_null();
	}
	if (word[1] == '\0' && g_ascii_isupper(word[0])) {
		return cel_type_param(word);
	}
	return cel_type_lookup_named(word);
}

const CelType *
cel_type_parse(const char *spelling)
{
	TypeParser tp = { spelling };
	const CelType *t = tp_type(&tp);
	tp_skip(&tp);
	if (t == NULL || *tp.p != '\0') {
		return NULL;
	}
	return t;
}

const CelType *
cel_type_of_value(CelValue v)
{
	switch ((CelKind)v.kind) {
	case CEL_KIND_NULL:
		return cel_type_null();
	case CEL_KIND_BOOL:
		return cel_type_bool();
	case CEL_KIND_INT:
		return cel_type_int();
	case CEL_KIND_UINT:
		return cel_type_uint();
	case CEL_KIND_DOUBLE:
		return cel_type_double();
	case CEL_KIND_STRING:
		return cel_type_string();
	case CEL_KIND_BYTES:
		return cel_type_bytes();
	case CEL_KIND_LIST:
		return cel_type_list(NULL);
	case CEL_KIND_MAP:
		return cel_type_map(NULL, NULL);
	case CEL_KIND_TYPE:
		return cel_type_type(NULL);
	case CEL_KIND_TIMESTAMP:
		return cel_type_timestamp();
	case CEL_KIND_DURATION:
		return cel_type_duration();
	case CEL_KIND_OPTIONAL:
		return cel_type_optional(NULL);
	case CEL_KIND_OBJECT: {
		const CelType *t = cel_type_lookup_named(v.obj->klass->type_name);
		return t != NULL ? t : cel_type_dyn();
	}
	case CEL_KIND_ERROR:
	case CEL_KIND__COUNT:
		break;
	}
	return cel_type_error();
}
