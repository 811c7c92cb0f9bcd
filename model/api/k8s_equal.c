/*
 * k8s_equal.c: structural equality of objects in their v1 form.
 *
 * Walks the same v1 tables as the encoder, so what is written is what is
 * compared. Positions and the apiVersion an object was written in are not part
 * of the value. Quantities compare by value (1000m equals 1), as the API does.
 */
#include <string.h>

#include "k8s-private.h"

#define AT(base, at) ((const void *)((const char *)(base) + (at)-1))

static gboolean equal_struct(const K8sStructDesc *desc, const void *a, const void *b);

static gboolean
qty_equal(const K8sQty *a, const K8sQty *b)
{
	if (a->text == NULL || b->text == NULL) {
		return a->text == b->text;
	}
	if (a->valid && b->valid) {
		return k8s_quantity_cmp(&a->value, &b->value) == 0;
	}
	return a->valid == b->valid && strcmp(a->text, b->text) == 0;
}

/* Same keys and values in the same order. */
static gboolean
string_map_equal(const void *a, const void *b)
{
	const K8sStringMap *ma = a, *mb = b;

	if (ma->n != mb->n) {
		return FALSE;
	}
	for (guint i = 0; i < ma->n; i++) {
		if (strcmp(ma->items[i].key, mb->items[i].key) != 0 ||
		    strcmp(ma->items[i].value, mb->items[i].value) != 0) {
			return FALSE;
		}
	}
	return TRUE;
}

/* Same keys and quantities in the same order. */
static gboolean
qty_map_equal(const void *a, const void *b)
{
	const K8sQtyMap *ma = a, *mb = b;

	if (ma->n != mb->n) {
		return FALSE;
	}
	for (guint i = 0; i < ma->n; i++) {
		if (strcmp(ma->items[i].key, mb->items[i].key) != 0 ||
		    !qty_equal(&ma->items[i].value, &mb->items[i].value)) {
			return FALSE;
		}
	}
	return TRUE;
}

/* Same strings in the same order. */
static gboolean
string_list_equal(const void *a, const void *b)
{
	const K8sStringList *la = a, *lb = b;

	if (la->n != lb->n) {
		return FALSE;
	}
	for (guint i = 0; i < la->n; i++) {
		if (strcmp(la->items[i], lb->items[i]) != 0) {
			return FALSE;
		}
	}
	return TRUE;
}

/* Arrays (and keyed arrays, whose keys must match too) item by item. */
static gboolean
items_equal(const K8sField *f, const void *base_a, const void *base_b, const void *a, const void *b)
{
	const char *ia = *(const char *const *)a, *ib = *(const char *const *)b;
	guint na = *(const guint *)AT(base_a, f->count_at);
	guint nb = *(const guint *)AT(base_b, f->count_at);

	if (na != nb) {
		return FALSE;
	}
	for (guint i = 0; i < na; i++) {
		const char *ea = ia + i * f->sub->size, *eb = ib + i * f->sub->size;

		if (f->type == K8S_F_KEYED &&
		    strcmp(*(const char *const *)AT(ea, f->key_at),
		           *(const char *const *)AT(eb, f->key_at)) != 0) {
			return FALSE;
		}
		if (!equal_struct(f->sub, ea, eb)) {
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean
field_equal(const K8sField *f, const void *base_a, const void *base_b)
{
	const void *a = f->at != 0 ? AT(base_a, f->at) : NULL;
	const void *b = f->at != 0 ? AT(base_b, f->at) : NULL;

	if (f->has_at != 0 &&
	    *(const gboolean *)AT(base_a, f->has_at) != *(const gboolean *)AT(base_b, f->has_at)) {
		return FALSE;
	}
	switch (f->type) {
	case K8S_F_STRING:
		return g_strcmp0(*(const char *const *)a, *(const char *const *)b) == 0;
	case K8S_F_INT64:
		return *(const gint64 *)a == *(const gint64 *)b;
	case K8S_F_INT32:
		return *(const gint32 *)a == *(const gint32 *)b;
	case K8S_F_BOOL:
		return !*(const gboolean *)a == !*(const gboolean *)b;
	case K8S_F_QTY:
		return qty_equal(a, b);
	case K8S_F_STRING_MAP:
		return string_map_equal(a, b);
	case K8S_F_QTY_MAP:
		return qty_map_equal(a, b);
	case K8S_F_STRING_LIST:
		return string_list_equal(a, b);
	case K8S_F_STRUCT:
		return equal_struct(f->sub, a, b);
	case K8S_F_PTR: {
		const void *pa = *(const void *const *)a, *pb = *(const void *const *)b;

		if (pa == NULL || pb == NULL) {
			return pa == pb;
		}
		return equal_struct(f->sub, pa, pb);
	}
	case K8S_F_ARRAY:
	case K8S_F_KEYED:
		return items_equal(f, base_a, base_b, a, b);
	case K8S_F_RAW:
		return k8s_yaml_equal(((const K8sRaw *)a)->node, ((const K8sRaw *)b)->node);
	case K8S_F_CUSTOM:
		return f->equal == NULL || f->equal(a, b);
	default:
		return TRUE;
	}
}

static gboolean
equal_struct(const K8sStructDesc *desc, const void *a, const void *b)
{
	for (; desc != NULL; desc = desc->embed) {
		for (const K8sField *f = desc->fields; f->name != NULL; f++) {
			if (!field_equal(f, a, b)) {
				return FALSE;
			}
		}
		if (desc->equal_extra != NULL && !desc->equal_extra(a, b)) {
			return FALSE;
		}
		if (desc->embed != NULL) {
			a = AT(a, desc->embed_at);
			b = AT(b, desc->embed_at);
		}
	}
	return TRUE;
}

gboolean
k8s_equal__struct(const K8sStructDesc *desc, const void *a, const void *b)
{
	return equal_struct(desc, a, b);
}

gboolean
k8s_object_equal(const K8sObject *a, const K8sObject *b)
{
	if (a->kind != b->kind) {
		return FALSE;
	}
	return equal_struct(k8s_fields__object(a->kind, K8S_VERSION_V1), a, b);
}
