/*
 * k8s_encode.c: objects -> normalized resource.k8s.io/v1 (and core/apps/batch v1) YAML.
 *
 * Walks the v1 field tables, so fields come out in Go struct order whatever order
 * the input had; map entries keep input order. Empty fields are left out as Go's
 * omitempty does. Quantities are written in canonical form as strings, which is
 * how the API server returns them. Decoding the output gives equal objects
 * (k8s_object_equal), which the unit tests check for every kind.
 */
#include <string.h>

#include "k8s-private.h"

#define AT(base, at) ((const void *)((const char *)(base) + (at)-1))

static void encode_struct(GString *out, const K8sStructDesc *desc, const void *base, guint indent);

static void
pad(GString *out, guint indent)
{
	for (guint i = 0; i < indent; i++) {
		g_string_append_c(out, ' ');
	}
}

static gboolean
plain_safe(const char *s)
{
	K8sYamlNode probe = { .kind = K8S_YAML_SCALAR, .style = K8S_YAML_STYLE_PLAIN };
	gsize len = strlen(s);

	if (len == 0 || strchr("-?:,[]{}#&*!|>'\"%@`~ ", s[0]) != NULL || s[len - 1] == ' ' ||
	    s[len - 1] == ':') {
		return FALSE;
	}
	/* 2025-01-01T00:00:00Z or 12:30 would be read back as a timestamp or sexagesimal */
	if (g_ascii_isdigit(s[0]) && strpbrk(s, "-:") != NULL) {
		return FALSE;
	}
	for (const char *p = s; *p != '\0'; p++) {
		if ((guchar)*p < 0x20 || *p == 0x7f || (*p == ':' && p[1] == ' ') ||
		    (*p == ' ' && p[1] == '#') || *p == '\t') {
			return FALSE;
		}
	}
	probe.scalar.text = s;
	probe.scalar.len = (guint32)len;
	return k8s_yaml_scalar_type(&probe) == K8S_YAML_TYPE_STRING;
}

static void
append_double_quoted(GString *out, const char *s)
{
	g_string_append_c(out, '"');
	for (const char *p = s; *p != '\0'; p++) {
		switch (*p) {
		case '"':
			g_string_append(out, "\\\"");
			break;
		case '\\':
			g_string_append(out, "\\\\");
			break;
		case '\n':
			g_string_append(out, "\\n");
			break;
		case '\t':
			g_string_append(out, "\\t");
			break;
		case '\r':
			g_string_append(out, "\\r");
			break;
		default:
			if ((guchar)*p < 0x20 || *p == 0x7f) {
				g_string_append_printf(out, "\\x%02x", (guint)(guchar)*p);
			} else {
				g_string_append_c(out, *p);
			}
		}
	}
	g_string_append_c(out, '"');
}

/* Multi-line text (CEL expressions) as a literal block when that is exact. */
static gboolean
literal_ok(const char *s)
{
	if (strchr(s, '\n') == NULL || s[0] == ' ' || s[0] == '\n') {
		return FALSE;
	}
	for (const char *p = s; *p != '\0'; p++) {
		if (*p == '\r' || *p == '\t' || ((guchar)*p < 0x20 && *p != '\n') ||
		    (*p == ' ' && (p[1] == '\n' || p[1] == '\0'))) {
			return FALSE;
		}
		if (*p == '\n' && p[1] == ' ') {
			return FALSE; /* would need an indentation indicator */
		}
	}
	return TRUE;
}

static void
append_string(GString *out, const char *s, guint indent)
{
	if (plain_safe(s)) {
		g_string_append(out, s);
	} else if (literal_ok(s)) {
		gsize len = strlen(s);
		const char *line = s;

		if (s[len - 1] != '\n') {
			g_string_append(out, "|-");
		} else if (len >= 2 && s[len - 2] == '\n') {
			g_string_append(out, "|+");
		} else {
			g_string_append(out, "|");
		}
		while (*line != '\0') {
			const char *nl = strchr(line, '\n');
			gsize n = nl != NULL ? (gsize)(nl - line) : strlen(line);

			g_string_append_c(out, '\n');
			if (n > 0) {
				pad(out, indent + 2);
				g_string_append_len(out, line, (gssize)n);
			}
			line += n + (nl != NULL ? 1 : 0);
		}
	} else {
		append_double_quoted(out, s);
	}
}

static void
key_line(GString *out, const char *key, guint indent)
{
	pad(out, indent);
	if (plain_safe(key)) {
		g_string_append(out, key);
	} else {
		append_double_quoted(out, key);
	}
	g_string_append_c(out, ':');
}

static void
append_qty(GString *out, const K8sQty *q)
{
	if (q->valid) {
		char buf[K8S_QUANTITY_STRING_MAX];

		k8s_quantity_to_string(&q->value, buf);
		g_string_append_printf(out, "\"%s\"", buf);
	} else {
		append_double_quoted(out, q->text);
	}
}

/* Arbitrary YAML (opaque parameters) in block style. */
static void
encode_node(GString *out, const K8sYamlNode *node, guint indent)
{
	switch (node->kind) {
	case K8S_YAML_MAPPING:
		if (node->map.n == 0) {
			g_string_append(out, " {}\n");
			return;
		}
		g_string_append_c(out, '\n');
		for (guint i = 0; i < node->map.n; i++) {
			key_line(out, node->map.pairs[i].key->scalar.text, indent);
			encode_node(out, node->map.pairs[i].value, indent + 2);
		}
		return;
	case K8S_YAML_SEQUENCE:
		if (node->seq.n == 0) {
			g_string_append(out, " []\n");
			return;
		}
		g_string_append_c(out, '\n');
		for (guint i = 0; i < node->seq.n; i++) {
			pad(out, indent);
			g_string_append(out, "-");
			encode_node(out, node->seq.items[i], indent + 2);
		}
		return;
	default:
		g_string_append_c(out, ' ');
		if (k8s_yaml_scalar_type(node) != K8S_YAML_TYPE_STRING) {
			g_string_append(out, node->scalar.text); /* null, bool, number as written */
		} else {
			append_string(out, node->scalar.text, indent);
		}
		g_string_append_c(out, '\n');
	}
}

static void
encode_struct_item(GString *out, const K8sStructDesc *desc, const void *item, guint indent)
{
	gsize start = out->len;

	encode_struct(out, desc, item, indent + 2);
	if (out->len == start) {
		pad(out, indent);
		g_string_append(out, "- {}\n");
		return;
	}
	out->str[start + indent] = '-';
}

static gboolean
has_flag(const K8sField *f, const void *base)
{
	return f->has_at != 0 && *(const gboolean *)AT(base, f->has_at);
}

/* A string map as a nested mapping; nothing when empty */
static void
encode_string_map(
        GString *out, const K8sField *f, const void *base, const void *value, guint indent)
{
	const K8sStringMap *m = value;

	if (m->n == 0) {
		return;
	}
	key_line(out, f->name, indent);
	g_string_append_c(out, '\n');
	for (guint i = 0; i < m->n; i++) {
		key_line(out, m->items[i].key, indent + 2);
		g_string_append_c(out, ' ');
		append_string(out, m->items[i].value, indent + 2);
		g_string_append_c(out, '\n');
	}
}

/* A quantity map as a nested mapping; nothing when empty */
static void
encode_qty_map(GString *out, const K8sField *f, const void *base, const void *value, guint indent)
{
	const K8sQtyMap *m = value;

	if (m->n == 0) {
		return;
	}
	key_line(out, f->name, indent);
	g_string_append_c(out, '\n');
	for (guint i = 0; i < m->n; i++) {
		key_line(out, m->items[i].key, indent + 2);
		g_string_append_c(out, ' ');
		append_qty(out, &m->items[i].value);
		g_string_append_c(out, '\n');
	}
}

/* A string list as a block sequence; nothing when empty */
static void
encode_string_list(
        GString *out, const K8sField *f, const void *base, const void *value, guint indent)
{
	const K8sStringList *l = value;

	if (l->n == 0) {
		return;
	}
	key_line(out, f->name, indent);
	g_string_append_c(out, '\n');
	for (guint i = 0; i < l->n; i++) {
		pad(out, indent);
		g_string_append(out, "- ");
		append_string(out, l->items[i], indent + 2);
		g_string_append_c(out, '\n');
	}
}

/* An embedded or pointed-to struct; `{}` when set but empty */
static void
encode_sub_struct(
        GString *out, const K8sField *f, const void *base, const void *value, guint indent)
{
	const void *sub = f->type == K8S_F_PTR ? *(const void *const *)value : value;
	g_autoptr(GString) inner = g_string_new(NULL);

	if (sub == NULL || (f->has_at != 0 && !has_flag(f, base))) {
		return;
	}
	encode_struct(inner, f->sub, sub, indent + 2);
	if (inner->len == 0 && f->type == K8S_F_STRUCT && f->has_at == 0) {
		return;
	}
	key_line(out, f->name, indent);
	if (inner->len == 0) {
		g_string_append(out, " {}\n");
	} else {
		g_string_append_c(out, '\n');
		g_string_append_len(out, inner->str, (gssize)inner->len);
	}
}

/* An array of structs; `[]` only when explicitly set and empty */
static void
encode_array(GString *out, const K8sField *f, const void *base, const void *value, guint indent)
{
	const char *items = *(const char *const *)value;
	guint n = *(const guint *)AT(base, f->count_at);

	if (n == 0) {
		if (has_flag(f, base)) {
			key_line(out, f->name, indent);
			g_string_append(out, " []\n");
		}
		return;
	}
	key_line(out, f->name, indent);
	g_string_append_c(out, '\n');
	for (guint i = 0; i < n; i++) {
		encode_struct_item(out, f->sub, items + i * f->sub->size, indent);
	}
}

/* A keyed array as a mapping from each item's key to the item */
static void
encode_keyed(GString *out, const K8sField *f, const void *base, const void *value, guint indent)
{
	const char *items = *(const char *const *)value;
	guint n = *(const guint *)AT(base, f->count_at);

	if (n == 0) {
		return;
	}
	key_line(out, f->name, indent);
	g_string_append_c(out, '\n');
	for (guint i = 0; i < n; i++) {
		const char *item = items + i * f->sub->size;
		g_autoptr(GString) inner = g_string_new(NULL);

		key_line(out, *(const char *const *)AT(item, f->key_at), indent + 2);
		encode_struct(inner, f->sub, item, indent + 4);
		if (inner->len == 0) {
			g_string_append(out, " {}\n");
		} else {
			g_string_append_c(out, '\n');
			g_string_append_len(out, inner->str, (gssize)inner->len);
		}
	}
}

/* A string field; nothing when unset (NULL). */
static void
encode_string(GString *out, const K8sField *f, const void *value, guint indent)
{
	const char *s = *(const char *const *)value;

	if (s != NULL) {
		key_line(out, f->name, indent);
		g_string_append_c(out, ' ');
		append_string(out, s, indent);
		g_string_append_c(out, '\n');
	}
}

/* A quantity as written; nothing when unset. */
static void
encode_qty(GString *out, const K8sField *f, const void *value, guint indent)
{
	const K8sQty *q = value;

	if (q->text != NULL) {
		key_line(out, f->name, indent);
		g_string_append_c(out, ' ');
		append_qty(out, q);
		g_string_append_c(out, '\n');
	}
}

/* Writes "name: value" for one field, or nothing when the field is empty. */
static void
encode_field(GString *out, const K8sField *f, const void *base, guint indent)
{
	const void *value = f->at != 0 ? AT(base, f->at) : NULL;

	if (f->present != NULL && !f->present(base)) {
		return;
	}
	switch (f->type) {
	case K8S_F_STRING:
		encode_string(out, f, value, indent);
		break;
	case K8S_F_INT64:
	case K8S_F_INT32: {
		gint64 v = f->type == K8S_F_INT64 ? *(const gint64 *)value : *(const gint32 *)value;

		if (f->has_at != 0 ? has_flag(f, base) : (v != 0 || f->present != NULL)) {
			key_line(out, f->name, indent);
			g_string_append_printf(out, " %" G_GINT64_FORMAT "\n", v);
		}
		break;
	}
	case K8S_F_BOOL: {
		gboolean v = *(const gboolean *)value;

		if (f->has_at != 0 ? has_flag(f, base) : (v || f->present != NULL)) {
			key_line(out, f->name, indent);
			g_string_append(out, v ? " true\n" : " false\n");
		}
		break;
	}
	case K8S_F_QTY:
		encode_qty(out, f, value, indent);
		break;
	case K8S_F_STRING_MAP:
		encode_string_map(out, f, base, value, indent);
		break;
	case K8S_F_QTY_MAP:
		encode_qty_map(out, f, base, value, indent);
		break;
	case K8S_F_STRING_LIST:
		encode_string_list(out, f, base, value, indent);
		break;
	case K8S_F_STRUCT:
	case K8S_F_PTR:
		encode_sub_struct(out, f, base, value, indent);
		break;
	case K8S_F_ARRAY:
		encode_array(out, f, base, value, indent);
		break;
	case K8S_F_KEYED:
		encode_keyed(out, f, base, value, indent);
		break;
	case K8S_F_RAW: {
		const K8sRaw *raw = value;

		if (raw->node != NULL) {
			key_line(out, f->name, indent);
			encode_node(out, raw->node, indent + 2);
		}
		break;
	}
	case K8S_F_CUSTOM:
		if (f->encode != NULL) {
			f->encode(out, value, indent);
		}
		break;
	default:
		break;
	}
}

static void
encode_struct(GString *out, const K8sStructDesc *desc, const void *base, guint indent)
{
	for (; desc != NULL; desc = desc->embed) {
		for (const K8sField *f = desc->fields; f->name != NULL; f++) {
			encode_field(out, f, base, indent);
		}
		if (desc->embed != NULL) {
			base = AT(base, desc->embed_at);
		}
	}
}

void
k8s_encode__struct(GString *out, const K8sStructDesc *desc, const void *value, guint indent)
{
	encode_struct(out, desc, value, indent);
}

void
k8s_object_encode(const K8sObject *obj, GString *out)
{
	g_string_append_printf(out, "apiVersion: %s\nkind: %s\n",
	                       k8s_api_version_string(obj->kind, K8S_VERSION_V1),
	                       k8s_kind_name(obj->kind));
	encode_struct(out, k8s_fields__object(obj->kind, K8S_VERSION_V1), obj, 0);
}

char *
k8s_object_set_encode(const K8sObjectSet *self)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < k8s_object_set_count(self); i++) {
		g_string_append(out, "---\n");
		k8s_object_encode(k8s_object_set_get(self, i), out);
	}
	return g_string_free(out, FALSE);
}
