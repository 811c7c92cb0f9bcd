/*
 * cel_dra_device.c: DRA device views, built once per device from its ResourceSlice entry.
 *
 * Names are split as parseQualifiedName in k8s.io/dynamic-resource-allocation/cel does
 * (first '/', bare names take the driver as domain) and interned, so evaluation compares
 * pointers. Values are stored as ready CelValues; the maps behind device.attributes and
 * device.capacity are prebuilt, so evaluating against the device allocates nothing. Next to
 * the view, the compact record that the fast path reads is rebuilt (cel_dra_rec.c); sealing
 * puts the handle and the record side by side in the device store.
 */
#include <string.h>

#include "cel-dra-private.h"

/* ---- map classes: outer (domain -> ids) and inner (id -> value) ---- */

static gboolean
string_key(CelValue key, const char **interned)
{
	if (key.kind != CEL_KIND_STRING) {
		return FALSE;
	}
	if ((key.flags & CEL_VALUE_INTERNED) != 0) {
		*interned = key.str;
		return TRUE;
	}
	/* Not interned: look it up without inserting; an unknown name matches nothing. */
	char buf[128];
	g_autofree char *heap = NULL;
	char *s = buf;
	if (key.aux >= sizeof buf) {
		s = heap = g_malloc(key.aux + 1);
	}
	memcpy(s, key.str, key.aux);
	s[key.aux] = '\0';
	GQuark q = strlen(s) == key.aux ? g_quark_try_string(s) : 0;
	*interned = q != 0 ? g_quark_to_string(q) : NULL;
	return TRUE;
}

static gboolean
domain_lookup(const CelMap *map, CelValue key, CelValue *out, CelActivation *act)
{
	const CelDraDomainMap *dm = (const CelDraDomainMap *)map;
	const char *id;
	if (!string_key(key, &id)) {
		return FALSE;
	}
	for (guint i = 0; i < dm->base.len; i++) {
		if (dm->entries[i].id == id) {
			*out = dm->entries[i].value;
			cel_dra__note_read(out);
			return TRUE;
		}
	}
	return FALSE;
}

static void
domain_entry(const CelMap *map, guint index, CelValue *key, CelValue *value, CelActivation *act)
{
	const CelDraDomainMap *dm = (const CelDraDomainMap *)map;
	const CelDraEntry *e = &dm->entries[index];
	*key = cel_value_string(e->id, strlen(e->id));
	key->flags |= CEL_VALUE_INTERNED;
	*value = e->value;
	cel_dra__note_read(value);
}

static const CelMapClass domain_map_class = { domain_lookup, domain_entry, NULL };

static gboolean
empty_lookup(const CelMap *map, CelValue key, CelValue *out, CelActivation *act)
{
	return FALSE;
}

static void
empty_entry(const CelMap *map, guint index, CelValue *key, CelValue *value, CelActivation *act)
{
	g_assert_not_reached();
}

static const CelMapClass empty_map_class = { empty_lookup, empty_entry, NULL };
const CelMap cel_dra_empty_map = { .klass = &empty_map_class, .len = 0 };

/* A missing domain reads as an empty map (compile.go newStringInterfaceMapWithDefault). */
static gboolean
outer_lookup(const CelMap *map, CelValue key, CelValue *out, CelActivation *act)
{
	const CelDraOuterMap *om = (const CelDraOuterMap *)map;
	const char *domain;
	if (!string_key(key, &domain)) {
		return FALSE;
	}
	for (guint i = 0; i < om->base.len; i++) {
		if (om->domains[i].domain == domain) {
			*out = cel_value_map(&om->domains[i].base);
			return TRUE;
		}
	}
	*out = cel_value_map(&cel_dra_empty_map);
	return TRUE;
}

static void
outer_entry(const CelMap *map, guint index, CelValue *key, CelValue *value, CelActivation *act)
{
	const CelDraOuterMap *om = (const CelDraOuterMap *)map;
	const CelDraDomainMap *dm = &om->domains[index];
	*key = cel_value_string(dm->domain, strlen(dm->domain));
	key->flags |= CEL_VALUE_INTERNED;
	*value = cel_value_map(&dm->base);
}

/* `in` (Contains) sees no default: only domains the device has. */
static gboolean
outer_contains(const CelMap *map, CelValue key, CelActivation *act)
{
	const CelDraOuterMap *om = (const CelDraOuterMap *)map;
	const char *domain;
	if (!string_key(key, &domain)) {
		return FALSE;
	}
	for (guint i = 0; i < om->base.len; i++) {
		if (om->domains[i].domain == domain) {
			return TRUE;
		}
	}
	return FALSE;
}

static const CelMapClass outer_map_class = { outer_lookup, outer_entry, outer_contains };

/* ---- the device object ---- */

static gboolean
device_select(const CelObject *self, const char *field, CelValue *out, CelActivation *act)
{
	const CelDraView *view = ((const CelDraDeviceObj *)self)->view;
	if (strcmp(field, "driver") == 0) {
		*out = cel_value_string(view->driver, view->driver_len);
	} else if (strcmp(field, "attributes") == 0) {
		*out = cel_value_map(&view->attributes.outer.base);
	} else if (strcmp(field, "capacity") == 0) {
		*out = cel_value_map(&view->capacity.outer.base);
	} else if (strcmp(field, "allowMultipleAllocations") == 0) {
		*out = cel_value_bool(view->allow_multiple_allocations);
	} else {
		return FALSE;
	}
	return TRUE;
}

const CelObjectClass cel_dra_device_class = {
	.type_name = "kubernetes.DRADevice",
	.select = device_select,
	.equal = NULL,
	.print = NULL,
};

/* ---- views: one block per device ---- */

#define ALIGN8(n) (((n) + 7) & ~(gsize)7)

/* Bytes that packing @v's payload takes (0 for scalars). */
static gsize
payload_size(CelValue v)
{
	switch (v.kind) {
	case CEL_KIND_STRING:
		return ALIGN8((gsize)v.aux + 1);
	case CEL_KIND_OBJECT:
		if (v.obj->klass == &cel_semver_class) {
			const CelSemverObj *o = (const CelSemverObj *)v.obj;
			return ALIGN8(sizeof *o) + ALIGN8((gsize)o->v.suffix_len + 1);
		}
		return ALIGN8(sizeof(CelQuantityObj));
	case CEL_KIND_LIST: {
		gsize n = ALIGN8(sizeof(CelList)) + ALIGN8(v.list->len * sizeof(CelValue));
		for (guint i = 0; i < v.list->len; i++) {
			n += payload_size(v.list->items[i]);
		}
		return n;
	}
	default:
		return 0;
	}
}

static gpointer
bump(char **cursor, gsize size)
{
	gpointer p = *cursor;
	*cursor += ALIGN8(size);
	return p;
}

/* Copies @v's payload to *cursor and returns the value pointing at the copy. */
static CelValue
pack_value(CelValue v, char **cursor)
{
	switch (v.kind) {
	case CEL_KIND_STRING: {
		char *s = bump(cursor, (gsize)v.aux + 1);
		memcpy(s, v.str, v.aux);
		s[v.aux] = '\0';
		v.str = s;
		return v;
	}
	case CEL_KIND_OBJECT:
		if (v.obj->klass == &cel_semver_class) {
			CelSemverObj *o = bump(cursor, sizeof *o);
			*o = *(const CelSemverObj *)v.obj;
			char *suffix = bump(cursor, (gsize)o->v.suffix_len + 1);
			memcpy(suffix, o->v.suffix, o->v.suffix_len);
			suffix[o->v.suffix_len] = '\0';
			o->v.suffix = suffix;
			v.obj = &o->base;
		} else {
			CelQuantityObj *o = bump(cursor, sizeof *o);
			*o = *(const CelQuantityObj *)v.obj;
			v.obj = &o->base;
		}
		return v;
	case CEL_KIND_LIST: {
		CelList *l = bump(cursor, sizeof *l);
		*l = *v.list;
		l->items = bump(cursor, v.list->len * sizeof(CelValue));
		for (guint i = 0; i < v.list->len; i++) {
			l->items[i] = pack_value(v.list->items[i], cursor);
		}
		v.list = l;
		return v;
	}
	default:
		return v;
	}
}

static gint
entry_cmp(gconstpointer a, gconstpointer b)
{
	const CelDraEntry *x = a, *y = b;
	int c = strcmp(x->domain, y->domain);
	return c != 0 ? c : strcmp(x->id, y->id);
}

static guint
count_domains(GArray *entries)
{
	guint n = 0;
	for (guint i = 0; i < entries->len; i++) {
		if (i == 0 || g_array_index(entries, CelDraEntry, i).domain !=
		                      g_array_index(entries, CelDraEntry, i - 1).domain) {
			n++;
		}
	}
	return n;
}

/* Lays out one table (domains, then entries) at *cursor; payload too when @pack. */
static void
table_build(CelDraTable *table, GArray *entries, char **cursor, char **payload, gboolean pack)
{
	g_array_sort(entries, entry_cmp);
	table->ndomains = count_domains(entries);
	table->domains = bump(cursor, table->ndomains * sizeof(CelDraDomainMap));
	table->nentries = entries->len;
	table->entries = bump(cursor, entries->len * sizeof(CelDraEntry));
	guint d = 0;
	for (guint i = 0; i < entries->len; i++) {
		CelDraEntry *e = &table->entries[i];
		*e = g_array_index(entries, CelDraEntry, i);
		if (pack) {
			e->value = pack_value(e->value, payload);
		}
		if (i == 0 || e->domain != table->entries[i - 1].domain) {
			CelDraDomainMap *dm = &table->domains[d++];
			memset(dm, 0, sizeof *dm);
			dm->base.klass = &domain_map_class;
			dm->domain = e->domain;
			dm->entries = e;
		}
		table->domains[d - 1].base.len++;
	}
	memset(&table->outer, 0, sizeof table->outer);
	table->outer.base.klass = &outer_map_class;
	table->outer.base.len = table->ndomains;
	table->outer.domains = table->domains;
}

struct CelDraBuilder {
	GArray *attributes; /* CelDraEntry, values in ->store */
	GArray *capacity;
	BaseArena store;
};

static gsize
table_size(GArray *entries, gboolean pack)
{
	gsize n = ALIGN8(count_domains(entries) * sizeof(CelDraDomainMap)) +
	          ALIGN8(entries->len * sizeof(CelDraEntry));
	for (guint i = 0; pack && i < entries->len; i++) {
		n += payload_size(g_array_index(entries, CelDraEntry, i).value);
	}
	return n;
}

/* Rebuilds the view; when @pack, the payload is copied into the block as well. */
static void
view_rebuild(CelDraDevice *self, gboolean pack)
{
	CelDraBuilder *b = self->build;
	gsize attrs = table_size(b->attributes, FALSE);
	gsize caps = table_size(b->capacity, FALSE);
	gsize total = ALIGN8(sizeof(CelDraView)) + attrs + caps;
	if (pack) {
		total = ALIGN8(sizeof(CelDraView)) + table_size(b->attributes, TRUE) +
		        table_size(b->capacity, TRUE);
	}
	char *block = g_malloc0(total);
	char *cursor = block + ALIGN8(sizeof(CelDraView));
	char *payload = cursor + attrs + caps;
	CelDraView *view = (CelDraView *)block;

	view->object.base.klass = &cel_dra_device_class;
	view->object.view = view;
	view->driver = self->driver;
	view->driver_len = (guint)strlen(self->driver);
	view->allow_multiple_allocations = self->allow_multiple_allocations;
	table_build(&view->attributes, b->attributes, &cursor, &payload, pack);
	table_build(&view->capacity, b->capacity, &cursor, &payload, pack);
	g_assert(payload <= block + total);
	g_free(self->view);
	self->view = view;
	self->sealed = pack != FALSE;
	self->stale = FALSE;
	cel_dra_rec_free((CelDraRec *)self->rec, self->rec_stored);
	self->rec = cel_dra_rec_build(view, pack, &self->rec_stored);
}

/* ---- building ---- */

G_STATIC_ASSERT(sizeof(CelDraDevice) == 48);

CelDraDevice *
cel_dra_device_new(const char *driver)
{
	/*
	 * In the device store, so the record sealed next follows it directly. Not aligned to a
	 * cache line: devices packed back to back stream best (aligning the handles to 64 bytes
	 * measured up to 3x slower at 100,000 devices in tools/bench/cel).
	 */
	CelDraDevice *self = cel_dra_store_alloc(sizeof *self, 8);
	gboolean stored = self != NULL;
	if (self == NULL) {
		self = g_new0(CelDraDevice, 1);
	}
	self->handle_stored = stored;
	self->driver = g_intern_string(driver != NULL ? driver : "");
	self->build = g_new0(CelDraBuilder, 1);
	self->build->attributes = g_array_new(FALSE, TRUE, sizeof(CelDraEntry));
	self->build->capacity = g_array_new(FALSE, TRUE, sizeof(CelDraEntry));
	base_arena_init(&self->build->store, 512); /* a device is small; chunks double */
	view_rebuild(self, FALSE);
	return self;
}

static void
builder_free(CelDraBuilder *b)
{
	if (b == NULL) {
		return;
	}
	g_clear_pointer(&b->attributes, g_array_unref);
	g_clear_pointer(&b->capacity, g_array_unref);
	base_arena_clear(&b->store);
	g_free(b);
}

void
cel_dra_device_free(CelDraDevice *self)
{
	if (self == NULL) {
		return;
	}
	builder_free(self->build);
	g_free(self->view);
	cel_dra_rec_free((CelDraRec *)self->rec, self->rec_stored);
	if (self->handle_stored) {
		cel_dra_store_free(self);
	} else {
		g_free(self);
	}
}

void
cel_dra_device_seal(CelDraDevice *self)
{
	if (self->sealed) {
		return;
	}
	view_rebuild(self, TRUE);
	/* The packed view and the record are self-contained: drop the build-time copies. */
	g_clear_pointer(&self->build, builder_free);
}

void
cel_dra_device_set_allow_multiple_allocations(CelDraDevice *self, gboolean allow)
{
	self->allow_multiple_allocations = allow;
	if (self->sealed) {
		self->view->allow_multiple_allocations = allow;
		if (self->rec != NULL) {
			((CelDraRec *)self->rec)->allow_multiple_allocations = allow;
		}
		return;
	}
	self->stale = TRUE;
}

/*
 * A device is built by a series of adds, then sealed; rebuilding the view
 * after each add made building quadratic in the attributes (half of a cold
 * selector evaluation's cost in the allocator). The view is rebuilt when read.
 */
void
cel_dra_device__fresh(const CelDraDevice *device)
{
	if (G_UNLIKELY(device->stale)) {
		/* a cache of the builder's content: refreshing it does not change the device */
		view_rebuild((CelDraDevice *)device, FALSE);
	}
}

/* Adds (or replaces) @name's value in @entries; the view is rebuilt when read (build time only). */
static void
table_put(CelDraDevice *self, GArray *entries, const char *name, CelValue value)
{
	const char *slash = strchr(name, '/');
	CelDraEntry e;

	g_return_if_fail(!self->sealed); /* a sealed device is immutable */

	if (slash == NULL) {
		e.domain = self->driver;
		e.id = g_intern_string(name);
	} else {
		g_autofree char *domain = g_strndup(name, (gsize)(slash - name));
		e.domain = g_intern_string(domain);
		e.id = g_intern_string(slash + 1);
	}
	e.atom = cel_dra_atom_interned(entries == self->build->capacity, e.domain, e.id);
	e.value = value;
	gboolean replaced = FALSE;
	for (guint i = 0; i < entries->len && !replaced; i++) {
		CelDraEntry *old = &g_array_index(entries, CelDraEntry, i);
		if (old->domain == e.domain && old->id == e.id) {
			old->value = value;
			replaced = TRUE;
		}
	}
	if (!replaced) {
		g_array_append_val(entries, e);
	}
	self->stale = TRUE;
}

static CelValue
store_string(CelDraDevice *self, const char *s, gssize len)
{
	gsize n = len < 0 ? strlen(s) : (gsize)len;
	char *copy = base_arena_strndup(&self->build->store, s, n);
	return cel_value_string(copy, n);
}

void
cel_dra_device_add_bool(CelDraDevice *self, const char *name, gboolean value)
{
	g_return_if_fail(!self->sealed); /* a sealed device is immutable */
	table_put(self, self->build->attributes, name, cel_value_bool(value));
}

void
cel_dra_device_add_int(CelDraDevice *self, const char *name, gint64 value)
{
	g_return_if_fail(!self->sealed); /* a sealed device is immutable */
	table_put(self, self->build->attributes, name, cel_value_int(value));
}

void
cel_dra_device_add_string(CelDraDevice *self, const char *name, const char *value, gssize len)
{
	g_return_if_fail(!self->sealed); /* a sealed device is immutable */
	table_put(self, self->build->attributes, name, store_string(self, value, len));
}

static gboolean
store_version(CelDraDevice *self, const char *value, gssize len, CelValue *out, GError **error)
{
	char err[CEL_K8S_ERRBUF];
	CelValue text = store_string(self, value, len);
	CelSemverObj *obj = base_arena_alloc(&self->build->store, sizeof *obj);

	if (!cel_semver_parse(&obj->v, text.str, text.aux, FALSE, NULL, err)) {
		g_set_error(error, CEL_ERROR, CEL_ERROR_TYPE, "parse semantic version: %s", err);
		return FALSE;
	}
	obj->base.klass = &cel_semver_class;
	*out = cel_value_object(&obj->base);
	return TRUE;
}

gboolean
cel_dra_device_add_version(
        CelDraDevice *self, const char *name, const char *value, gssize len, GError **error)
{
	g_return_val_if_fail(!self->sealed, FALSE); /* a sealed device is immutable */
	CelValue v;
	if (!store_version(self, value, len, &v, error)) {
		g_prefix_error(error, "attribute %s: ", name);
		return FALSE;
	}
	table_put(self, self->build->attributes, name, v);
	return TRUE;
}

static CelList *
store_list(CelDraDevice *self, guint n)
{
	CelList *list = base_arena_alloc(&self->build->store, sizeof *list);
	list->len = n;
	list->cap = n;
	list->items = n > 0 ? base_arena_alloc(&self->build->store, n * sizeof(CelValue)) : NULL;
	return list;
}

void
cel_dra_device_add_bools(CelDraDevice *self, const char *name, const gboolean *values, guint n)
{
	g_return_if_fail(!self->sealed); /* a sealed device is immutable */
	CelList *list = store_list(self, n);
	for (guint i = 0; i < n; i++) {
		list->items[i] = cel_value_bool(values[i]);
	}
	table_put(self, self->build->attributes, name, cel_value_list(list));
}

void
cel_dra_device_add_ints(CelDraDevice *self, const char *name, const gint64 *values, guint n)
{
	g_return_if_fail(!self->sealed); /* a sealed device is immutable */
	CelList *list = store_list(self, n);
	for (guint i = 0; i < n; i++) {
		list->items[i] = cel_value_int(values[i]);
	}
	table_put(self, self->build->attributes, name, cel_value_list(list));
}

void
cel_dra_device_add_strings(CelDraDevice *self, const char *name, const char *const *values, guint n)
{
	g_return_if_fail(!self->sealed); /* a sealed device is immutable */
	CelList *list = store_list(self, n);
	for (guint i = 0; i < n; i++) {
		list->items[i] = store_string(self, values[i], -1);
	}
	table_put(self, self->build->attributes, name, cel_value_list(list));
}

gboolean
cel_dra_device_add_versions(
        CelDraDevice *self, const char *name, const char *const *values, guint n, GError **error)
{
	g_return_val_if_fail(!self->sealed, FALSE); /* a sealed device is immutable */
	CelList *list = store_list(self, n);
	for (guint i = 0; i < n; i++) {
		if (!store_version(self, values[i], -1, &list->items[i], error)) {
			g_prefix_error(error, "attribute %s: ", name);
			return FALSE;
		}
	}
	table_put(self, self->build->attributes, name, cel_value_list(list));
	return TRUE;
}

/* The entry @name of @entries names, as table_put() splits it; NULL if none. */
static CelDraEntry *
table_find(CelDraDevice *self, GArray *entries, const char *name)
{
	const char *slash = strchr(name, '/');
	const char *domain = self->driver, *id;
	g_autofree char *prefix = NULL;

	if (slash != NULL) {
		prefix = g_strndup(name, (gsize)(slash - name));
		domain = g_intern_string(prefix);
	}
	id = g_intern_string(slash != NULL ? slash + 1 : name);
	for (guint i = 0; i < entries->len; i++) {
		CelDraEntry *e = &g_array_index(entries, CelDraEntry, i);
		if (e->domain == domain && e->id == id) {
			return e;
		}
	}
	return NULL;
}

void
cel_dra_device_mark_node_value(CelDraDevice *self, const char *name)
{
	g_return_if_fail(!self->sealed); /* a sealed device is immutable */
	CelDraEntry *e = table_find(self, self->build->attributes, name);
	if (e != NULL) {
		e->value.flags |= CEL_VALUE_NODE_VALUE;
		self->stale = TRUE;
	}
}

void
cel_dra_device_add_capacity(CelDraDevice *self, const char *name, const K8sQuantity *value)
{
	g_return_if_fail(!self->sealed); /* a sealed device is immutable */
	CelQuantityObj *obj = base_arena_alloc(&self->build->store, sizeof *obj);
	obj->base.klass = &cel_quantity_class;
	obj->q = *value;
	table_put(self, self->build->capacity, name, cel_value_object(&obj->base));
}

const CelDraDomainMap *
cel_dra_table_domain(const CelDraTable *table, const char *domain)
{
	for (guint i = 0; i < table->ndomains; i++) {
		if (table->domains[i].domain == domain) {
			return &table->domains[i];
		}
	}
	return NULL;
}

const CelValue *
cel_dra_table_lookup(const CelDraTable *table, const char *domain, const char *id)
{
	const CelDraDomainMap *dm = cel_dra_table_domain(table, domain);
	if (dm == NULL) {
		return NULL;
	}
	for (guint i = 0; i < dm->base.len; i++) {
		if (dm->entries[i].id == id) {
			cel_dra__note_read(&dm->entries[i].value);
			return &dm->entries[i].value;
		}
	}
	return NULL;
}
