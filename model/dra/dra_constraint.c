/*
 * dra_constraint.c: matchAttribute and distinctAttribute, checked as devices
 * are added (constraints are monotonic, so a failed add prunes the branch).
 *
 * Follows matchAttributeConstraint / distinctAttributeConstraint and
 * lookupAttribute in structured/internal/experimental (1.34). distinctAttribute
 * there compares the attribute values' pointers, not the values: two different
 * devices always count as distinct, only the same device picked twice does
 * not. drasim does the same and counts the cases where values were equal.
 */
#include <string.h>

#include "dra-private.h"

void
dra_constraint__init(DraConstraintState *st, const DraConstraint *spec)
{
	memset(st, 0, sizeof(*st));
	st->spec = spec;
	st->kind = spec->match_attribute != NULL ? DRA_CONSTRAINT_MATCH : DRA_CONSTRAINT_DISTINCT;
	st->name =
	        st->kind == DRA_CONSTRAINT_MATCH ? spec->match_attribute : spec->distinct_attribute;
	const char *slash = strchr(st->name, '/');
	st->domain_len = slash != NULL ? (gsize)(slash - st->name) : G_MAXSIZE;
}

void
dra_constraint__clear(DraConstraintState *st)
{
	st->n_devices = 0;
	st->first = NULL;
}

static gboolean
names_request(const DraConstraintState *st, const DraReqData *rd)
{
	for (guint i = 0; i < st->spec->n_requests; i++) {
		const char *n = st->spec->requests[i];
		if (strcmp(n, rd->parent->name) == 0) {
			return TRUE;
		}
		if (rd->is_sub && strcmp(n, rd->name) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

/* @d's attribute named @name, shared or its own (DraDevice.node_attributes). */
static const DraAttribute *
named_attribute(const DraDevice *d, const char *name)
{
	for (guint i = 0; i < d->n_attributes; i++) {
		if (strcmp(d->attributes[i].name, name) == 0) {
			return &d->attributes[i];
		}
	}
	for (guint i = 0; i < d->n_node_attributes; i++) {
		if (strcmp(d->node_attributes[i].name, name) == 0) {
			return &d->node_attributes[i];
		}
	}
	return NULL;
}

/* lookupAttribute: the exact name first, then the id when the domain is the driver. */
static const DraAttribute *
lookup_attribute(const DraConstraintState *st, const DraDevice *d, const char *driver)
{
	const DraAttribute *exact = named_attribute(d, st->name);

	if (exact != NULL) {
		return exact;
	}
	if (st->domain_len == G_MAXSIZE) {
		return NULL;
	}
	if (strlen(driver) != st->domain_len || strncmp(driver, st->name, st->domain_len) != 0) {
		return NULL;
	}
	return named_attribute(d, st->name + st->domain_len + 1);
}

static gboolean
values_equal(const DraAttribute *a, const DraAttribute *b)
{
	if (a->kind != b->kind) {
		return FALSE;
	}
	switch (a->kind) {
	case DRA_ATTR_INT:
		return a->int_value == b->int_value;
	case DRA_ATTR_BOOL:
		return !a->bool_value == !b->bool_value;
	case DRA_ATTR_STRING:
	case DRA_ATTR_VERSION:
		/* semver strings are minimal, so equality is string equality */
		return g_strcmp0(a->string_value, b->string_value) == 0;
	}
	return FALSE;
}

gboolean
dra_constraint__add(DraAllocator *self, DraConstraintState *st, const DraReqData *rd, guint dev)
{
	const DraDevRec *d = &g_array_index(self->dev_recs, DraDevRec, dev);
	const DraSlice *s = g_array_index(self->slice_recs, DraSliceRec, d->slice).slice;

	if (st->spec->n_requests > 0 && !names_request(st, rd)) {
		return TRUE; /* not affected */
	}
	const DraAttribute *attr = lookup_attribute(st, d->device, s->driver);
	if (attr == NULL) {
		return FALSE;
	}
	if (st->kind == DRA_CONSTRAINT_MATCH) {
		if (st->n_devices == 0) {
			st->first = attr;
			st->n_devices = 1;
			return TRUE;
		}
		if (!values_equal(st->first, attr)) {
			return FALSE;
		}
		st->n_devices++;
		return TRUE;
	}
	for (guint i = 0; i < st->n_devices; i++) {
		if (st->seen[i] == attr) {
			return FALSE;
		}
		if (values_equal(st->seen[i], attr)) {
			/* 1.34 compares pointers: equal values on different devices pass */
			self->stats.quirk_distinct_by_pointer++;
		}
	}
	if (st->n_devices >= DRA_MAX_SEEN) {
		return FALSE;
	}
	st->seen[st->n_devices++] = attr;
	return TRUE;
}

void
dra_constraint__remove(DraConstraintState *st, const DraReqData *rd)
{
	if (st->spec->n_requests > 0 && !names_request(st, rd)) {
		return;
	}
	if (st->n_devices > 0) {
		st->n_devices--;
	}
}
