/*
 * k8s_encode.c: objects -> normalized resource.k8s.io/v1 (and core/apps/batch v1) YAML.
 *
 * Walks the v1 field tables, so fields come out in Go struct order whatever order
 * the input had; map entries keep input order. Empty fields are left out as Go's
 * omitempty does. Quantities are written in canonical form as strings, which is
 * how the API server returns them. Decoding the output gives equal objects
 * (k8s_object_equal), which the unit tests check for every kind.
 *
 * The kubectl style (k8s_object_list_encode_kubectl) writes the same fields the
 * way `kubectl get -o yaml` shows them: every mapping in go-yaml's key order and
 * kubectl's scalar styles (k8s_encode_kubectl.c).
 */
#include <string.h>

#include "k8s-private.h"

#define AT(base, at) ((const void *)((const char *)(base) + (at)-1))

/* Where the text goes and in which style: drasim's normalized form (Go field order,
 * maps in input order) or kubectl's (k8s_encode_kubectl.c). */
typedef struct {
	GString *out;
	gboolean kubectl;
} Enc;

static void encode_struct(Enc *e, const K8sStructDesc *desc, const void *base, guint indent);

static void
pad(Enc *e, guint indent)
{
	for (guint i = 0; i < indent; i++) {
		g_string_append_c(e->out, ' ');
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
append_double_quoted(Enc *e, const char *s)
{
	g_string_append_c(e->out, '"');
	for (const char *p = s; *p != '\0'; p++) {
		switch (*p) {
		case '"':
			g_string_append(e->out, "\\\"");
			break;
		case '\\':
			g_string_append(e->out, "\\\\");
			break;
		case '\n':
			g_string_append(e->out, "\\n");
			break;
		case '\t':
			g_string_append(e->out, "\\t");
			break;
		case '\r':
			g_string_append(e->out, "\\r");
			break;
		default:
			if ((guchar)*p < 0x20 || *p == 0x7f) {
				g_string_append_printf(e->out, "\\x%02x", (guint)(guchar)*p);
			} else {
				g_string_append_c(e->out, *p);
			}
		}
	}
	g_string_append_c(e->out, '"');
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
append_string(Enc *e, const char *s, guint indent)
{
	if (e->kubectl && strchr(s, '\n') == NULL) {
		k8s_kubectl__append_scalar(e->out, s);
	} else if (!e->kubectl && plain_safe(s)) {
		g_string_append(e->out, s);
	} else if (literal_ok(s)) {
		gsize len = strlen(s);
		const char *line = s;

		if (s[len - 1] != '\n') {
			g_string_append(e->out, "|-");
		} else if (len >= 2 && s[len - 2] == '\n') {
			g_string_append(e->out, "|+");
		} else {
			g_string_append(e->out, "|");
		}
		while (*line != '\0') {
			const char *nl = strchr(line, '\n');
			gsize n = nl != NULL ? (gsize)(nl - line) : strlen(line);

			g_string_append_c(e->out, '\n');
			if (n > 0) {
				pad(e, indent + 2);
				g_string_append_len(e->out, line, (gssize)n);
			}
			line += n + (nl != NULL ? 1 : 0);
		}
	} else {
		append_double_quoted(e, s);
	}
}

static void
key_line(Enc *e, const char *key, guint indent)
{
	pad(e, indent);
	if (e->kubectl && strchr(key, '\n') == NULL) {
		k8s_kubectl__append_scalar(e->out, key);
	} else if (plain_safe(key)) {
		g_string_append(e->out, key);
	} else {
		append_double_quoted(e, key);
	}
	g_string_append_c(e->out, ':');
}

static void
append_qty(Enc *e, const K8sQty *q)
{
	if (q->valid) {
		char buf[K8S_QUANTITY_STRING_MAX];

		k8s_quantity_to_string(&q->value, buf);
		if (e->kubectl) {
			k8s_kubectl__append_scalar(e->out, buf); /* a string in JSON */
		} else {
			g_string_append_printf(e->out, "\"%s\"", buf);
		}
	} else if (e->kubectl) {
		k8s_kubectl__append_scalar(e->out, q->text);
	} else {
		append_double_quoted(e, q->text);
	}
}

/* Arbitrary YAML (opaque parameters) in block style. */
static void
encode_node(Enc *e, const K8sYamlNode *node, guint indent)
{
	switch (node->kind) {
	case K8S_YAML_MAPPING:
		if (node->map.n == 0) {
			g_string_append(e->out, " {}\n");
			return;
		}
		g_string_append_c(e->out, '\n');
		for (guint i = 0; i < node->map.n; i++) {
			key_line(e, node->map.pairs[i].key->scalar.text, indent);
			encode_node(e, node->map.pairs[i].value, indent + 2);
		}
		return;
	case K8S_YAML_SEQUENCE:
		if (node->seq.n == 0) {
			g_string_append(e->out, " []\n");
			return;
		}
		g_string_append_c(e->out, '\n');
		for (guint i = 0; i < node->seq.n; i++) {
			pad(e, indent);
			g_string_append(e->out, "-");
			encode_node(e, node->seq.items[i], indent + 2);
		}
		return;
	default:
		g_string_append_c(e->out, ' ');
		if (k8s_yaml_scalar_type(node) != K8S_YAML_TYPE_STRING) {
			g_string_append(e->out,
			                node->scalar.text); /* null, bool, number as written */
		} else {
			append_string(e, node->scalar.text, indent);
		}
		g_string_append_c(e->out, '\n');
	}
}

static void
encode_struct_item(Enc *e, const K8sStructDesc *desc, const void *item, guint indent)
{
	gsize start = e->out->len;

	encode_struct(e, desc, item, indent + 2);
	if (e->out->len == start) {
		pad(e, indent);
		g_string_append(e->out, "- {}\n");
		return;
	}
	e->out->str[start + indent] = '-';
}

static gboolean
has_flag(const K8sField *f, const void *base)
{
	return f->has_at != 0 && *(const gboolean *)AT(base, f->has_at);
}

/* Entries of a map, or of a keyed array: @n items of @stride bytes, each with its key
 * (a const char *) at @key_off. */
typedef struct {
	const char *items;
	gsize stride;
	gsize key_off;
} Entries;

static const char *
entry_key(const Entries *entries, guint i)
{
	return *(const char *const *)(entries->items + i * entries->stride + entries->key_off);
}

static int
compare_entries(gconstpointer a, gconstpointer b, gpointer data)
{
	return k8s_kubectl__key_compare(entry_key(data, *(const guint *)a),
	                                entry_key(data, *(const guint *)b));
}

/* The order to write @n entries in: as they are, or kubectl's key order. (transfer full) */
static guint *
entry_order(const Enc *e, const void *items, gsize stride, gsize key_off, guint n)
{
	Entries entries = { items, stride, key_off };
	guint *order = g_new(guint, MAX(n, 1));

	for (guint i = 0; i < n; i++) {
		order[i] = i;
	}
	if (e->kubectl) {
		g_qsort_with_data(order, (gint)n, sizeof(guint), compare_entries, &entries);
	}
	return order;
}

/* A string map as a nested mapping; nothing when empty */
static void
encode_string_map(Enc *e, const K8sField *f, const void *base, const void *value, guint indent)
{
	const K8sStringMap *m = value;
	g_autofree guint *order = NULL;

	if (m->n == 0) {
		return;
	}
	order = entry_order(e, m->items, sizeof(*m->items), G_STRUCT_OFFSET(K8sStringPair, key),
	                    m->n);
	key_line(e, f->name, indent);
	g_string_append_c(e->out, '\n');
	for (guint k = 0; k < m->n; k++) {
		guint i = order[k];

		key_line(e, m->items[i].key, indent + 2);
		g_string_append_c(e->out, ' ');
		append_string(e, m->items[i].value, indent + 2);
		g_string_append_c(e->out, '\n');
	}
}

/* A quantity map as a nested mapping; nothing when empty */
static void
encode_qty_map(Enc *e, const K8sField *f, const void *base, const void *value, guint indent)
{
	const K8sQtyMap *m = value;
	g_autofree guint *order = NULL;

	if (m->n == 0) {
		return;
	}
	order = entry_order(e, m->items, sizeof(*m->items), G_STRUCT_OFFSET(K8sQtyPair, key), m->n);
	key_line(e, f->name, indent);
	g_string_append_c(e->out, '\n');
	for (guint k = 0; k < m->n; k++) {
		guint i = order[k];

		key_line(e, m->items[i].key, indent + 2);
		g_string_append_c(e->out, ' ');
		append_qty(e, &m->items[i].value);
		g_string_append_c(e->out, '\n');
	}
}

/* A string list as a block sequence; nothing when empty */
static void
encode_string_list(Enc *e, const K8sField *f, const void *base, const void *value, guint indent)
{
	const K8sStringList *l = value;

	if (l->n == 0) {
		return;
	}
	key_line(e, f->name, indent);
	g_string_append_c(e->out, '\n');
	for (guint i = 0; i < l->n; i++) {
		pad(e, indent);
		g_string_append(e->out, "- ");
		append_string(e, l->items[i], indent + 2);
		g_string_append_c(e->out, '\n');
	}
}

/* An embedded or pointed-to struct; `{}` when set but empty */
static void
encode_sub_struct(Enc *e, const K8sField *f, const void *base, const void *value, guint indent)
{
	const void *sub = f->type == K8S_F_PTR ? *(const void *const *)value : value;
	g_autoptr(GString) inner = g_string_new(NULL);
	Enc sub_enc = { inner, e->kubectl };

	if (sub == NULL || (f->has_at != 0 && !has_flag(f, base))) {
		return;
	}
	encode_struct(&sub_enc, f->sub, sub, indent + 2);
	if (inner->len == 0 && f->type == K8S_F_STRUCT && f->has_at == 0) {
		return;
	}
	key_line(e, f->name, indent);
	if (inner->len == 0) {
		g_string_append(e->out, " {}\n");
	} else {
		g_string_append_c(e->out, '\n');
		g_string_append_len(e->out, inner->str, (gssize)inner->len);
	}
}

/* An array of structs; `[]` only when explicitly set and empty */
static void
encode_array(Enc *e, const K8sField *f, const void *base, const void *value, guint indent)
{
	const char *items = *(const char *const *)value;
	guint n = *(const guint *)AT(base, f->count_at);

	if (n == 0) {
		if (has_flag(f, base)) {
			key_line(e, f->name, indent);
			g_string_append(e->out, " []\n");
		}
		return;
	}
	key_line(e, f->name, indent);
	g_string_append_c(e->out, '\n');
	for (guint i = 0; i < n; i++) {
		encode_struct_item(e, f->sub, items + i * f->sub->size, indent);
	}
}

/* A keyed array as a mapping from each item's key to the item */
static void
encode_keyed(Enc *e, const K8sField *f, const void *base, const void *value, guint indent)
{
	const char *items = *(const char *const *)value;
	guint n = *(const guint *)AT(base, f->count_at);
	g_autofree guint *order = NULL;

	if (n == 0) {
		return;
	}
	order = entry_order(e, items, f->sub->size, f->key_at - 1, n);
	key_line(e, f->name, indent);
	g_string_append_c(e->out, '\n');
	for (guint k = 0; k < n; k++) {
		const char *item = items + order[k] * f->sub->size;
		g_autoptr(GString) inner = g_string_new(NULL);
		Enc item_enc = { inner, e->kubectl };

		key_line(e, *(const char *const *)AT(item, f->key_at), indent + 2);
		encode_struct(&item_enc, f->sub, item, indent + 4);
		if (inner->len == 0) {
			g_string_append(e->out, " {}\n");
		} else {
			g_string_append_c(e->out, '\n');
			g_string_append_len(e->out, inner->str, (gssize)inner->len);
		}
	}
}

/* A string field; nothing when unset (NULL). */
static void
encode_string(Enc *e, const K8sField *f, const void *value, guint indent)
{
	const char *s = *(const char *const *)value;

	if (s != NULL) {
		key_line(e, f->name, indent);
		g_string_append_c(e->out, ' ');
		append_string(e, s, indent);
		g_string_append_c(e->out, '\n');
	}
}

/* A quantity as written; nothing when unset. */
static void
encode_qty(Enc *e, const K8sField *f, const void *value, guint indent)
{
	const K8sQty *q = value;

	if (q->text != NULL) {
		key_line(e, f->name, indent);
		g_string_append_c(e->out, ' ');
		append_qty(e, q);
		g_string_append_c(e->out, '\n');
	}
}

/* Writes "name: value" for one field, or nothing when the field is empty. */
static void
encode_field(Enc *e, const K8sField *f, const void *base, guint indent)
{
	const void *value = f->at != 0 ? AT(base, f->at) : NULL;

	if (f->present != NULL && !f->present(base)) {
		return;
	}
	switch (f->type) {
	case K8S_F_STRING:
		encode_string(e, f, value, indent);
		break;
	case K8S_F_INT64:
	case K8S_F_INT32: {
		gint64 v = f->type == K8S_F_INT64 ? *(const gint64 *)value : *(const gint32 *)value;

		if (f->has_at != 0 ? has_flag(f, base) : (v != 0 || f->present != NULL)) {
			key_line(e, f->name, indent);
			g_string_append_printf(e->out, " %" G_GINT64_FORMAT "\n", v);
		}
		break;
	}
	case K8S_F_BOOL: {
		gboolean v = *(const gboolean *)value;

		if (f->has_at != 0 ? has_flag(f, base) : (v || f->present != NULL)) {
			key_line(e, f->name, indent);
			g_string_append(e->out, v ? " true\n" : " false\n");
		}
		break;
	}
	case K8S_F_QTY:
		encode_qty(e, f, value, indent);
		break;
	case K8S_F_STRING_MAP:
		encode_string_map(e, f, base, value, indent);
		break;
	case K8S_F_QTY_MAP:
		encode_qty_map(e, f, base, value, indent);
		break;
	case K8S_F_STRING_LIST:
		encode_string_list(e, f, base, value, indent);
		break;
	case K8S_F_STRUCT:
	case K8S_F_PTR:
		encode_sub_struct(e, f, base, value, indent);
		break;
	case K8S_F_ARRAY:
		encode_array(e, f, base, value, indent);
		break;
	case K8S_F_KEYED:
		encode_keyed(e, f, base, value, indent);
		break;
	case K8S_F_RAW: {
		const K8sRaw *raw = value;

		if (raw->node != NULL) {
			key_line(e, f->name, indent);
			encode_node(e, raw->node, indent + 2);
		}
		break;
	}
	case K8S_F_CUSTOM:
		if (f->encode != NULL) {
			f->encode(e->out, value, indent);
		}
		break;
	default:
		break;
	}
}

/* One field of a struct (or of a struct it embeds) with the struct it is read from. */
typedef struct {
	const K8sField *field;
	const void *base;
} BoundField;

static int
compare_bound_fields(gconstpointer a, gconstpointer b)
{
	return k8s_kubectl__key_compare(((const BoundField *)a)->field->name,
	                                ((const BoundField *)b)->field->name);
}

/* kubectl's order: every field of the struct and its embedded ones, by name. */
static void
encode_struct_sorted(Enc *e, const K8sStructDesc *desc, const void *base, guint indent)
{
	g_autoptr(GArray) fields = g_array_new(FALSE, FALSE, sizeof(BoundField));

	for (; desc != NULL; desc = desc->embed) {
		for (const K8sField *f = desc->fields; f->name != NULL; f++) {
			BoundField bound = { f, base };

			g_array_append_val(fields, bound);
		}
		if (desc->embed != NULL) {
			base = AT(base, desc->embed_at);
		}
	}
	g_array_sort(fields, compare_bound_fields);
	for (guint i = 0; i < fields->len; i++) {
		const BoundField *bound = &g_array_index(fields, BoundField, i);

		encode_field(e, bound->field, bound->base, indent);
	}
}

static void
encode_struct(Enc *e, const K8sStructDesc *desc, const void *base, guint indent)
{
	if (e->kubectl) {
		encode_struct_sorted(e, desc, base, indent);
		return;
	}
	for (; desc != NULL; desc = desc->embed) {
		for (const K8sField *f = desc->fields; f->name != NULL; f++) {
			encode_field(e, f, base, indent);
		}
		if (desc->embed != NULL) {
			base = AT(base, desc->embed_at);
		}
	}
}

void
k8s_encode__struct(GString *out, const K8sStructDesc *desc, const void *value, guint indent)
{
	Enc e = { out, FALSE };

	encode_struct(&e, desc, value, indent);
}

static void
encode_object(Enc *e, const K8sObject *obj, guint indent)
{
	/* apiVersion and kind come first in both orders: the other top-level fields of
	 * every kind (metadata, spec, status) sort after them */
	pad(e, indent);
	g_string_append_printf(e->out, "apiVersion: %s\n",
	                       k8s_api_version_string(obj->kind, K8S_VERSION_V1));
	pad(e, indent);
	g_string_append_printf(e->out, "kind: %s\n", k8s_kind_name(obj->kind));
	encode_struct(e, k8s_fields__object(obj->kind, K8S_VERSION_V1), obj, indent);
}

void
k8s_object_encode(const K8sObject *obj, GString *out)
{
	Enc e = { out, FALSE };

	encode_object(&e, obj, 0);
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

void
k8s_object_list_encode_kubectl(K8sObject *const *objs, guint n, GString *out)
{
	Enc e = { out, TRUE };

	g_string_append(out, n == 0 ? "apiVersion: v1\nitems: []\n" : "apiVersion: v1\nitems:\n");
	for (guint i = 0; i < n; i++) {
		gsize start = out->len;

		/* a block sequence item: "- " in place of the object's indentation */
		encode_object(&e, objs[i], 2);
		out->str[start] = '-';
	}
	g_string_append(out, "kind: List\nmetadata:\n  resourceVersion: \"\"\n");
}
