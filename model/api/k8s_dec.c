/*
 * k8s_dec.c: the table-driven decoder from YAML nodes into typed objects.
 *
 * Strict like the API server's decoder: an unknown field, a scalar of the wrong
 * type or an out-of-range integer is an error with the value's position and
 * field path. Scalars follow the path kubectl takes (YAML -> JSON -> Go struct):
 * `name: 123` is a number, so it cannot fill a string field; `count: 1.0` becomes
 * JSON 1 and fills an integer. A null value is the same as an absent field.
 */
#include <math.h>
#include <string.h>

#include "base_strict.h"
#include "k8s-private.h"

void
k8s_dec__init(
        K8sDec *dec, K8sObjectSet *set, const char *file, K8sDiagList *diags, K8sLoadFlags flags)
{
	memset(dec, 0, sizeof(*dec));
	dec->set = set;
	dec->arena = k8s_object_set_get_arena(set);
	dec->strings = k8s_object_set_get_strings(set);
	dec->file = file;
	dec->diags = diags;
	dec->flags = flags;
	dec->path = g_string_sized_new(128);
}

void
k8s_dec__clear(K8sDec *dec)
{
	if (dec->path != NULL) {
		g_string_free(dec->path, TRUE);
		dec->path = NULL;
	}
}

K8sPos
k8s_dec__pos(const K8sDec *dec, const K8sYamlNode *node)
{
	return k8s_yaml_node_pos(node, dec->file);
}

void
k8s_dec__error(K8sDec *dec, const K8sYamlNode *node, const char *format, ...)
{
	K8sPos pos = k8s_dec__pos(dec, node);
	va_list args;

	va_start(args, format);
	k8s_diag_list_addv(dec->diags, K8S_SEVERITY_ERROR, &pos, dec->path->str, format, args);
	va_end(args);
	dec->failed = TRUE;
}

void
k8s_dec__warning(K8sDec *dec, const K8sYamlNode *node, const char *format, ...)
{
	K8sPos pos = k8s_dec__pos(dec, node);
	va_list args;

	va_start(args, format);
	k8s_diag_list_addv(dec->diags, K8S_SEVERITY_WARNING, &pos, dec->path->str, format, args);
	va_end(args);
}

gboolean
k8s_dec__is_null(const K8sYamlNode *node)
{
	return node == NULL ||
	       (node->kind == K8S_YAML_SCALAR && k8s_yaml_scalar_type(node) == K8S_YAML_TYPE_NULL);
}

gboolean
k8s_dec__expect_map(K8sDec *dec, const K8sYamlNode *node, const char *what)
{
	if (k8s_dec__is_null(node)) {
		return FALSE;
	}
	if (node->kind != K8S_YAML_MAPPING) {
		k8s_dec__error(dec, node, "expected a mapping (%s), got a %s", what,
		               k8s_yaml_node_type_name(node));
		return FALSE;
	}
	return TRUE;
}

gboolean
k8s_dec__expect_seq(K8sDec *dec, const K8sYamlNode *node, const char *what)
{
	if (k8s_dec__is_null(node)) {
		return FALSE;
	}
	if (node->kind != K8S_YAML_SEQUENCE) {
		k8s_dec__error(dec, node, "expected a list of %s, got a %s", what,
		               k8s_yaml_node_type_name(node));
		return FALSE;
	}
	return TRUE;
}

const char *
k8s_dec__string(K8sDec *dec, const K8sYamlNode *node)
{
	K8sYamlType type;

	if (node->kind != K8S_YAML_SCALAR) {
		k8s_dec__error(dec, node, "expected a string, got a %s",
		               k8s_yaml_node_type_name(node));
		return NULL;
	}
	type = k8s_yaml_scalar_type(node);
	if (type == K8S_YAML_TYPE_NULL) {
		return NULL;
	}
	if (type != K8S_YAML_TYPE_STRING) {
		k8s_dec__error(dec, node, "expected a string, got %s %s (quote it: \"%s\")",
		               type == K8S_YAML_TYPE_INT    ? "the integer"
		               : type == K8S_YAML_TYPE_BOOL ? "the bool"
		                                            : "the number",
		               node->scalar.text, node->scalar.text);
		return NULL;
	}
	return node->scalar.text;
}

gboolean
k8s_dec__int64(K8sDec *dec, const K8sYamlNode *node, gint64 min, gint64 max, gint64 *out)
{
	K8sYamlType type;
	gint64 value;

	if (node->kind != K8S_YAML_SCALAR) {
		k8s_dec__error(dec, node, "expected an integer, got a %s",
		               k8s_yaml_node_type_name(node));
		return FALSE;
	}
	type = k8s_yaml_scalar_type(node);
	if (type == K8S_YAML_TYPE_INT) {
		if (!k8s_yaml_parse_int64(node->scalar.text, &value)) {
			k8s_dec__error(dec, node,
			               "integer %s is out of range [%" G_GINT64_FORMAT
			               ", %" G_GINT64_FORMAT "]",
			               node->scalar.text, min, max);
			return FALSE;
		}
	} else if (type == K8S_YAML_TYPE_FLOAT) {
		double d = 0;

		if (!k8s_yaml_parse_double(node->scalar.text, &d)) {
			k8s_dec__error(dec, node, "expected an integer, got '%s'",
			               node->scalar.text);
			return FALSE;
		}
		/* kubectl fails too: JSON has no infinity or NaN (json: unsupported value) */
		if (isnan(d) || (isinf(d) && strchr(node->scalar.text, 'e') == NULL &&
		                 strchr(node->scalar.text, 'E') == NULL)) {
			k8s_dec__error(dec, node,
			               "expected an integer in [%" G_GINT64_FORMAT
			               ", %" G_GINT64_FORMAT "], got %s (%s)",
			               min, max, node->scalar.text,
			               isnan(d) ? "not a number" : "infinite");
			return FALSE;
		}
		/* kubectl turns YAML 1.0 into JSON 1; a fraction or a huge value (1e400) fails */
		if (!isfinite(d) || fabs(d) >= 9.2233720368547758e18) {
			k8s_dec__error(
			        dec, node,
			        "number %s is out of range for an integer field [%" G_GINT64_FORMAT
			        ", %" G_GINT64_FORMAT "]",
			        node->scalar.text, min, max);
			return FALSE;
		}
		if (isgreater(fabs(d - floor(d)), 0.0)) {
			k8s_dec__error(dec, node, "expected an integer, got the fraction %s",
			               node->scalar.text);
			return FALSE;
		}
		value = (gint64)d;
	} else if (type == K8S_YAML_TYPE_NULL) {
		return FALSE;
	} else {
		k8s_dec__error(dec, node, "expected an integer, got %s '%s'%s",
		               type == K8S_YAML_TYPE_BOOL ? "the bool" : "the string",
		               node->scalar.text,
		               type == K8S_YAML_TYPE_STRING && node->style != K8S_YAML_STYLE_PLAIN
		                       ? " (remove the quotes)"
		                       : "");
		return FALSE;
	}
	if (value < min || value > max) {
		k8s_dec__error(dec, node,
		               "integer %s is out of range [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT
		               "]",
		               node->scalar.text, min, max);
		return FALSE;
	}
	*out = value;
	return TRUE;
}

gboolean
k8s_dec__bool(K8sDec *dec, const K8sYamlNode *node, gboolean *out)
{
	K8sYamlType type;
	const char *t;

	if (node->kind != K8S_YAML_SCALAR) {
		k8s_dec__error(dec, node, "expected true or false, got a %s",
		               k8s_yaml_node_type_name(node));
		return FALSE;
	}
	type = k8s_yaml_scalar_type(node);
	if (type == K8S_YAML_TYPE_NULL) {
		return FALSE;
	}
	if (type != K8S_YAML_TYPE_BOOL) {
		k8s_dec__error(dec, node, "expected true or false, got %s '%s'%s",
		               k8s_yaml_node_type_name(node), node->scalar.text,
		               type == K8S_YAML_TYPE_STRING && node->style != K8S_YAML_STYLE_PLAIN
		                       ? " (remove the quotes)"
		                       : "");
		return FALSE;
	}
	t = node->scalar.text;
	*out = g_ascii_strcasecmp(t, "true") == 0 || g_ascii_strcasecmp(t, "yes") == 0 ||
	       g_ascii_strcasecmp(t, "on") == 0 || g_ascii_strcasecmp(t, "y") == 0;
	return TRUE;
}

void
k8s_dec__qty(K8sDec *dec, const K8sYamlNode *node, K8sQty *out)
{
	g_autoptr(GError) error = NULL;
	K8sYamlType type;

	memset(out, 0, sizeof(*out));
	if (node->kind != K8S_YAML_SCALAR) {
		k8s_dec__error(dec, node, "expected a quantity (like 1, 500m or 40Gi), got a %s",
		               k8s_yaml_node_type_name(node));
		return;
	}
	type = k8s_yaml_scalar_type(node);
	if (type == K8S_YAML_TYPE_NULL) {
		return;
	}
	out->text = node->scalar.text;
	out->pos = k8s_dec__pos(dec, node);
	if (type == K8S_YAML_TYPE_BOOL) {
		k8s_dec__error(dec, node,
		               "expected a quantity (like 1, 500m or 40Gi), got the bool %s",
		               node->scalar.text);
		return;
	}
	out->valid =
	        k8s_quantity_parse_json(node->scalar.text, node->scalar.len, &out->value, &error);
	if (!out->valid) {
		k8s_dec__error(dec, node, "invalid quantity '%s': %s", node->scalar.text,
		               error->message);
	}
}

/* ---- did you mean ------------------------------------------------------------------ */

void
k8s_dec__unknown_field(K8sDec *dec, const K8sYamlNode *key, const K8sStructDesc *desc)
{
	const char *name = key->scalar.text;
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	const char *suggestion;
	gsize mark = k8s_dec__push_field(dec, name);
	K8sSeverity severity =
	        (dec->flags & K8S_LOAD_LENIENT) ? K8S_SEVERITY_WARNING : K8S_SEVERITY_ERROR;
	K8sPos pos = k8s_dec__pos(dec, key);

	for (const K8sFieldHint *h = desc->hints; h != NULL && h->name != NULL; h++) {
		if (strcmp(h->name, name) == 0) {
			k8s_diag_list_add(dec->diags, severity, &pos, dec->path->str,
			                  "unknown field '%s' in %s: %s", name, desc->name,
			                  h->hint);
			dec->failed |= severity == K8S_SEVERITY_ERROR;
			k8s_dec__pop(dec, mark);
			return;
		}
	}
	for (const K8sStructDesc *d = desc; d != NULL; d = d->embed) {
		for (const K8sField *f = d->fields; f->name != NULL; f++) {
			if (f->type != K8S_F_DROPPED) {
				g_ptr_array_add(names, (gpointer)f->name);
			}
		}
		for (const char *const *ig = d->ignored; ig != NULL && *ig != NULL; ig++) {
			g_ptr_array_add(names, (gpointer)*ig);
		}
	}
	suggestion = base_strict_closest_n(name, (const char *const *)names->pdata, names->len);
	if (suggestion != NULL) {
		k8s_diag_list_add(dec->diags, severity, &pos, dec->path->str,
		                  "unknown field '%s' in %s; did you mean '%s'?", name, desc->name,
		                  suggestion);
	} else {
		k8s_diag_list_add(dec->diags, severity, &pos, dec->path->str,
		                  "unknown field '%s' in %s", name, desc->name);
	}
	dec->failed |= severity == K8S_SEVERITY_ERROR;
	k8s_dec__pop(dec, mark);
}

/* ---- fields ------------------------------------------------------------------------ */

#define AT(base, at) ((void *)((char *)(base) + (at)-1))

static void
set_pos(K8sDec *dec, void *out, gsize at, const K8sYamlNode *node)
{
	if (at != 0) {
		*(K8sPos *)AT(out, at) = k8s_dec__pos(dec, node);
	}
}

static void
set_has(void *out, gsize at)
{
	if (at != 0) {
		*(gboolean *)AT(out, at) = TRUE;
	}
}

static void
decode_string_map(K8sDec *dec, const K8sYamlNode *node, K8sStringMap *out)
{
	out->pos = k8s_dec__pos(dec, node);
	if (!k8s_dec__expect_map(dec, node, "string to string")) {
		return;
	}
	out->items = base_arena_new0(dec->arena, K8sStringPair, node->map.n);
	out->n = 0; /* a value replaces, never extends, an earlier one: items holds map.n */
	for (guint i = 0; i < node->map.n; i++) {
		const K8sYamlPair *p = &node->map.pairs[i];
		gsize mark = k8s_path_push_key(dec->path, p->key->scalar.text);
		K8sStringPair *item = &out->items[out->n++];

		item->key = p->key->scalar.text;
		item->pos = k8s_dec__pos(dec, p->key);
		item->value = k8s_dec__string(dec, p->value);
		if (item->value == NULL) {
			item->value = ""; /* null in a map[string]string is "" */
		}
		k8s_dec__pop(dec, mark);
	}
}

/* A null value in a name-to-quantity map is the key with a zero quantity: Go decodes the
 * map entry into a zero Quantity, whose UnmarshalJSON leaves null as zero
 * (apimachinery pkg/api/resource/quantity.go). A NULL text crashed `drasim convert`
 * (fuzz-manifests). */
static void
null_qty_is_zero(K8sDec *dec, const K8sYamlNode *node, K8sQty *out)
{
	out->text = "0";
	out->pos = k8s_dec__pos(dec, node);
	out->valid = k8s_quantity_parse_json("0", 1, &out->value, NULL);
}

static void
decode_qty_map(K8sDec *dec, const K8sYamlNode *node, K8sQtyMap *out)
{
	out->pos = k8s_dec__pos(dec, node);
	if (!k8s_dec__expect_map(dec, node, "name to quantity")) {
		return;
	}
	out->items = base_arena_new0(dec->arena, K8sQtyPair, node->map.n);
	out->n = 0;
	for (guint i = 0; i < node->map.n; i++) {
		const K8sYamlPair *p = &node->map.pairs[i];
		gsize mark = k8s_path_push_key(dec->path, p->key->scalar.text);
		K8sQtyPair *item = &out->items[out->n++];

		item->key = p->key->scalar.text;
		item->pos = k8s_dec__pos(dec, p->key);
		k8s_dec__qty(dec, p->value, &item->value);
		if (k8s_dec__is_null(p->value))
			null_qty_is_zero(dec, p->value, &item->value);
		k8s_dec__pop(dec, mark);
	}
}

static void
decode_string_list(K8sDec *dec, const K8sYamlNode *node, K8sStringList *out)
{
	out->pos = k8s_dec__pos(dec, node);
	if (!k8s_dec__expect_seq(dec, node, "strings")) {
		return;
	}
	out->items = base_arena_new0(dec->arena, const char *, node->seq.n);
	out->item_pos = base_arena_new0(dec->arena, K8sPos, node->seq.n);
	out->n = 0;
	for (guint i = 0; i < node->seq.n; i++) {
		gsize mark = k8s_dec__push_index(dec, i);
		const char *s = k8s_dec__string(dec, node->seq.items[i]);

		out->items[out->n] = s != NULL ? s : "";
		out->item_pos[out->n] = k8s_dec__pos(dec, node->seq.items[i]);
		out->n++;
		k8s_dec__pop(dec, mark);
	}
}

static void
decode_array(K8sDec *dec, const K8sField *f, const K8sYamlNode *node, void *out)
{
	char *items;

	if (!k8s_dec__expect_seq(dec, node, f->sub->name)) {
		return;
	}
	items = base_arena_alloc(dec->arena, f->sub->size * node->seq.n);
	for (guint i = 0; i < node->seq.n; i++) {
		gsize mark = k8s_dec__push_index(dec, i);

		k8s_dec__struct(dec, node->seq.items[i], f->sub, items + i * f->sub->size);
		k8s_dec__pop(dec, mark);
	}
	*(void **)AT(out, f->at) = items;
	*(guint *)AT(out, f->count_at) = node->seq.n;
}

static void
decode_keyed(K8sDec *dec, const K8sField *f, const K8sYamlNode *node, void *out)
{
	char *items;

	if (!k8s_dec__expect_map(dec, node, f->sub->name)) {
		return;
	}
	items = base_arena_alloc(dec->arena, f->sub->size * node->map.n);
	for (guint i = 0; i < node->map.n; i++) {
		const K8sYamlPair *p = &node->map.pairs[i];
		char *item = items + i * f->sub->size;
		gsize mark = k8s_path_push_key(dec->path, p->key->scalar.text);

		*(const char **)AT(item, f->key_at) = p->key->scalar.text;
		k8s_dec__struct(dec, p->value, f->sub, item);
		if (f->sub->pos_at != 0) {
			*(K8sPos *)AT(item, f->sub->pos_at) = k8s_dec__pos(dec, p->key);
		}
		k8s_dec__pop(dec, mark);
	}
	*(void **)AT(out, f->at) = items;
	*(guint *)AT(out, f->count_at) = node->map.n;
}

/* A string, integer or boolean field: stored, and its has-flag set, only when valid. */
static void
decode_scalar(K8sDec *dec, const K8sField *f, const K8sYamlNode *value, void *out)
{
	gint64 i64;
	gboolean b;

	switch (f->type) {
	case K8S_F_STRING: {
		const char *s = k8s_dec__string(dec, value);

		if (s != NULL) {
			*(const char **)AT(out, f->at) = s;
			set_has(out, f->has_at);
		}
		break;
	}
	case K8S_F_INT64:
		if (k8s_dec__int64(dec, value, G_MININT64, G_MAXINT64, &i64)) {
			*(gint64 *)AT(out, f->at) = i64;
			set_has(out, f->has_at);
		}
		break;
	case K8S_F_INT32:
		if (k8s_dec__int64(dec, value, G_MININT32, G_MAXINT32, &i64)) {
			*(gint32 *)AT(out, f->at) = (gint32)i64;
			set_has(out, f->has_at);
		}
		break;
	case K8S_F_BOOL:
		if (k8s_dec__bool(dec, value, &b)) {
			*(gboolean *)AT(out, f->at) = b;
			set_has(out, f->has_at);
		}
		break;
	default:
		break;
	}
}

static void
decode_field(K8sDec *dec, const K8sField *f, const K8sYamlNode *value, void *out)
{
	if (f->type == K8S_F_IGNORE) {
		return;
	}
	if (f->type == K8S_F_DROPPED) {
		k8s_dec__warning(dec, value, "%s", f->note);
		return;
	}
	if (k8s_dec__is_null(value) && f->type != K8S_F_CUSTOM) {
		return;
	}
	set_pos(dec, out, f->pos_at, value);
	switch (f->type) {
	case K8S_F_STRING:
	case K8S_F_INT64:
	case K8S_F_INT32:
	case K8S_F_BOOL:
		decode_scalar(dec, f, value, out);
		break;
	case K8S_F_QTY:
		k8s_dec__qty(dec, value, AT(out, f->at));
		set_has(out, f->has_at);
		break;
	case K8S_F_STRING_MAP:
		decode_string_map(dec, value, AT(out, f->at));
		break;
	case K8S_F_QTY_MAP:
		decode_qty_map(dec, value, AT(out, f->at));
		set_has(out, f->has_at);
		break;
	case K8S_F_STRING_LIST:
		decode_string_list(dec, value, AT(out, f->at));
		break;
	case K8S_F_STRUCT:
		set_has(out, f->has_at);
		k8s_dec__struct(dec, value, f->sub, AT(out, f->at));
		break;
	case K8S_F_PTR: {
		void *sub = base_arena_alloc(dec->arena, f->sub->size);

		k8s_dec__struct(dec, value, f->sub, sub);
		*(void **)AT(out, f->at) = sub;
		break;
	}
	case K8S_F_ARRAY:
		set_has(out, f->has_at);
		decode_array(dec, f, value, out);
		break;
	case K8S_F_KEYED:
		decode_keyed(dec, f, value, out);
		break;
	case K8S_F_RAW: {
		K8sRaw *raw = AT(out, f->at);

		raw->node = k8s_yaml_copy(value, dec->arena, dec->strings);
		raw->pos = k8s_dec__pos(dec, value);
		break;
	}
	case K8S_F_CUSTOM:
		f->decode(dec, value, AT(out, f->at));
		break;
	default:
		break;
	}
}

/* The row for @name, in @desc or its embedded descs; *base moves to the embedded struct. */
static const K8sField *
find_field(const K8sStructDesc *desc, const char *name, void **base)
{
	for (; desc != NULL; desc = desc->embed) {
		for (const K8sField *f = desc->fields; f->name != NULL; f++) {
			if (f->name[0] == name[0] && strcmp(f->name, name) == 0) {
				return f;
			}
		}
		if (desc->embed != NULL) {
			*base = AT(*base, desc->embed_at);
		}
	}
	return NULL;
}

static gboolean
is_ignored(const K8sStructDesc *desc, const char *name)
{
	for (; desc != NULL; desc = desc->embed) {
		for (const char *const *ig = desc->ignored; ig != NULL && *ig != NULL; ig++) {
			if (strcmp(*ig, name) == 0) {
				return TRUE;
			}
		}
	}
	return FALSE;
}

void
k8s_dec__struct(K8sDec *dec, const K8sYamlNode *node, const K8sStructDesc *desc, void *out)
{
	if (desc->pos_at != 0 && node != NULL) {
		*(K8sPos *)AT(out, desc->pos_at) = k8s_dec__pos(dec, node);
	}
	if (!k8s_dec__expect_map(dec, node, desc->name)) {
		return;
	}
	for (guint i = 0; i < node->map.n; i++) {
		const K8sYamlPair *p = &node->map.pairs[i];
		void *base = out;
		const K8sField *f = find_field(desc, p->key->scalar.text, &base);
		gsize mark;

		if (f == NULL) {
			if (!is_ignored(desc, p->key->scalar.text)) {
				k8s_dec__unknown_field(dec, p->key, desc);
			}
			continue;
		}
		mark = k8s_dec__push_field(dec, f->name);
		decode_field(dec, f, p->value, base);
		k8s_dec__pop(dec, mark);
	}
	if (desc->finish != NULL) {
		desc->finish(dec, node, out);
	}
}
