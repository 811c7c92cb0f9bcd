/*
 * cel_dra_rec.c: compact device records and the shapes they share (cel-dra-private.h).
 *
 * A record is built from a device view: one 16-byte typed slot per attribute and capacity,
 * in the view's (sorted) order, then the bytes of long strings and the version and quantity
 * objects. Its shape (driver + key list) is interned in a process-wide registry, so devices
 * of one kind share one shape and a selector's per-thread lookup hint stays valid from one
 * device to the next. Shapes are never freed: there are as many as distinct (driver, key
 * set) combinations, a handful per driver.
 */
#include <string.h>

#include "cel-dra-private.h"

/* ---- keys ---- */

CelDraAtom
cel_dra_atom(gboolean capacity, const char *domain, const char *id)
{
	/* the domain's length makes the spelling unambiguous whatever the names contain */
	g_autofree char *s =
	        g_strdup_printf("%c%zu:%s/%s", capacity ? 'c' : 'a', strlen(domain), domain, id);
	return g_intern_string(s);
}

/* Interned (domain, id) pointers name their strings, so they key the atom without reading the
 * text. Kept for the process like the shapes below: one entry per distinct attribute name. */
typedef struct {
	const char *domain, *id;
	gboolean capacity;
} AtomKey;

static GMutex atoms_lock;
static GHashTable *atoms; /* AtomKey * -> CelDraAtom */

static guint
atom_key_hash(gconstpointer p)
{
	const AtomKey *k = p;
	return (g_direct_hash(k->domain) * 31u + g_direct_hash(k->id)) * 2u + (guint)k->capacity;
}

static gboolean
atom_key_equal(gconstpointer a, gconstpointer b)
{
	const AtomKey *x = a, *y = b;
	return x->domain == y->domain && x->id == y->id && x->capacity == y->capacity;
}

CelDraAtom
cel_dra_atom_interned(gboolean capacity, const char *domain, const char *id)
{
	AtomKey key = { domain, id, capacity != FALSE };

	g_mutex_lock(&atoms_lock);
	if (atoms == NULL) {
		atoms = g_hash_table_new(atom_key_hash, atom_key_equal);
	}
	CelDraAtom atom = g_hash_table_lookup(atoms, &key);
	if (atom == NULL) {
		atom = cel_dra_atom(key.capacity, domain, id);
		g_hash_table_insert(atoms, g_memdup2(&key, sizeof key), (gpointer)atom);
	}
	g_mutex_unlock(&atoms_lock);
	return atom;
}

/* ---- shapes ---- */

static GMutex shapes_lock;
static GHashTable *shapes; /* CelDraShape * -> itself */

static guint
shape_hash(gconstpointer p)
{
	const CelDraShape *s = p;
	return s->hash;
}

static gboolean
shape_equal(gconstpointer a, gconstpointer b)
{
	const CelDraShape *x = a, *y = b;
	return x->driver == y->driver && x->nslots == y->nslots &&
	       memcmp(x->atoms, y->atoms, x->nslots * sizeof(CelDraAtom)) == 0;
}

/* Fills @shape (room for the view's keys) from @view. */
static void
shape_fill(CelDraShape *shape, const CelDraView *view)
{
	guint na = view->attributes.nentries;

	shape->driver = view->driver;
	shape->nslots = na + view->capacity.nentries;
	for (guint i = 0; i < na; i++) {
		shape->atoms[i] = view->attributes.entries[i].atom;
	}
	for (guint i = 0; i < view->capacity.nentries; i++) {
		shape->atoms[na + i] = view->capacity.entries[i].atom;
	}
	guint h = g_direct_hash(view->driver);
	for (guint i = 0; i < shape->nslots; i++) {
		h = h * 31 + g_direct_hash(shape->atoms[i]);
	}
	shape->hash = h;
	shape->driver_slot.v.kind = CEL_DRA_SLOT_STR;
	shape->driver_slot.v.len = view->driver_len;
	shape->driver_slot.v.str = view->driver;
}

static gsize
shape_size(const CelDraView *view)
{
	return sizeof(CelDraShape) +
	       (view->attributes.nentries + view->capacity.nentries) * sizeof(CelDraAtom);
}

static const CelDraShape *
shape_intern(const CelDraView *view)
{
	g_autofree CelDraShape *probe = g_malloc0(shape_size(view));

	shape_fill(probe, view);
	probe->shared = TRUE;
	g_mutex_lock(&shapes_lock);
	if (shapes == NULL) {
		shapes = g_hash_table_new(shape_hash, shape_equal);
	}
	const CelDraShape *shape = g_hash_table_lookup(shapes, probe);
	if (shape == NULL) {
		CelDraShape *copy = g_steal_pointer(&probe);
		g_hash_table_add(shapes, copy);
		shape = copy;
	}
	g_mutex_unlock(&shapes_lock);
	return shape;
}

gint
cel_dra_shape_find(const CelDraShape *shape, CelDraAtom atom)
{
	for (guint i = 0; i < shape->nslots; i++) {
		if (shape->atoms[i] == atom) {
			return (gint)i;
		}
	}
	return -1;
}

/* ---- records ---- */

#define ALIGN8(n) (((n) + 7) & ~(gsize)7)

static gboolean
is_long_string(CelValue v)
{
	return v.kind == CEL_KIND_STRING && v.aux > CEL_DRA_SSTR_MAX;
}

/* A version that fits CEL_DRA_SLOT_SEMVER3 exactly. */
static gboolean
semver_small(const CelSemver *v)
{
	return v != NULL && v->suffix_len == 0 && v->pre_len == 0 && v->major <= G_MAXUINT32 &&
	       v->minor <= G_MAXUINT32 && v->patch <= G_MAXUINT32;
}

/* A quantity that fits CEL_DRA_SLOT_QTY64 exactly (all other fields zero). */
static gboolean
qty_small(const K8sQuantity *q)
{
	return q != NULL && !q->slow && q->mag_lo == 0 && q->mag_hi == 0 && q->dec_scale == 0 &&
	       q->neg == 0;
}

/* Bytes of string payload (long strings, semver suffixes) and of objects. */
static void
payload_size(const CelDraTable *table, gsize *strings, gsize *objects)
{
	for (guint i = 0; i < table->nentries; i++) {
		CelValue v = table->entries[i].value;
		if ((v.flags & CEL_VALUE_NODE_VALUE) != 0) {
			continue; /* no payload: fill_slot() leaves the slot to the generic path */
		} else if (is_long_string(v)) {
			*strings += v.aux;
		} else if (cel_semver_of(v) != NULL && !semver_small(cel_semver_of(v))) {
			*strings += cel_semver_of(v)->suffix_len;
			*objects += ALIGN8(sizeof(CelSemver));
		} else if (cel_quantity_of(v) != NULL && !qty_small(cel_quantity_of(v))) {
			*objects += ALIGN8(sizeof(K8sQuantity));
		}
	}
}

static void
fill_slot(CelDraSlot *slot, CelValue v, char **strings, char **objects)
{
	const CelSemver *ver = cel_semver_of(v);
	const K8sQuantity *qty = cel_quantity_of(v);

	if ((v.flags & CEL_VALUE_NODE_VALUE) != 0) {
		/* the fast path gives up on it: the generic evaluator notes the read */
		slot->kind = CEL_DRA_SLOT_OTHER;
	} else if (v.kind == CEL_KIND_BOOL) {
		slot->v.kind = CEL_DRA_SLOT_BOOL;
		slot->v.b = v.b;
	} else if (v.kind == CEL_KIND_INT) {
		slot->v.kind = CEL_DRA_SLOT_INT;
		slot->v.i = v.i;
	} else if (v.kind == CEL_KIND_STRING && !is_long_string(v)) {
		slot->sstr.kind = CEL_DRA_SLOT_SSTR;
		slot->sstr.len = (guint8)v.aux;
		memcpy(slot->sstr.s, v.str, v.aux);
	} else if (v.kind == CEL_KIND_STRING) {
		slot->v.kind = CEL_DRA_SLOT_STR;
		slot->v.len = v.aux;
		slot->v.str = memcpy(*strings, v.str, v.aux);
		*strings += v.aux;
	} else if (semver_small(ver)) {
		slot->ver3.kind = CEL_DRA_SLOT_SEMVER3;
		slot->ver3.major = (guint32)ver->major;
		slot->ver3.minor = (guint32)ver->minor;
		slot->ver3.patch = (guint32)ver->patch;
	} else if (qty_small(qty)) {
		slot->qty64.kind = CEL_DRA_SLOT_QTY64;
		slot->qty64.format = qty->format;
		slot->qty64.string_is_input = qty->string_is_input;
		slot->qty64.scale = qty->scale;
		slot->qty64.value = qty->value;
	} else if (ver != NULL) {
		CelSemver *copy = (CelSemver *)*objects;
		*objects += ALIGN8(sizeof *copy);
		*copy = *ver;
		copy->suffix = memcpy(*strings, ver->suffix, ver->suffix_len);
		*strings += ver->suffix_len;
		slot->v.kind = CEL_DRA_SLOT_SEMVER;
		slot->v.ver = copy;
	} else if (qty != NULL) {
		K8sQuantity *copy = (K8sQuantity *)*objects;
		*objects += ALIGN8(sizeof *copy);
		*copy = *qty;
		slot->v.kind = CEL_DRA_SLOT_QTY;
		slot->v.qty = copy;
	} else {
		slot->kind = CEL_DRA_SLOT_OTHER;
	}
}

CelDraRec *
cel_dra_rec_build(const CelDraView *view, gboolean sealed, gboolean *stored)
{
	guint n = view->attributes.nentries + view->capacity.nentries;
	gsize strings = 0, objects = 0;

	payload_size(&view->attributes, &strings, &objects);
	payload_size(&view->capacity, &strings, &objects);
	/*
	 * Slots, string bytes (semver suffixes too) right after them, as a selector reading a
	 * long string reads its slot too, then objects (8-aligned) and a private shape.
	 */
	gsize private_shape = sealed ? 0 : ALIGN8(shape_size(view));
	gsize size = sizeof(CelDraRec) + n * sizeof(CelDraSlot) + ALIGN8(strings) + objects +
	             private_shape;
	if (size > G_MAXUINT32) {
		return NULL;
	}
	CelDraRec *rec = sealed ? cel_dra_store_alloc(size, 8) : NULL;
	*stored = rec != NULL;
	if (rec == NULL) {
		rec = g_malloc0(size);
	}
	char *str = (char *)&rec->slots[n];
	char *obj = str + ALIGN8(strings);
	if (sealed) {
		rec->shape = shape_intern(view);
	} else {
		CelDraShape *shape = (CelDraShape *)(obj + objects);
		shape_fill(shape, view);
		rec->shape = shape;
	}
	rec->allow_multiple_allocations = view->allow_multiple_allocations;
	rec->size = (guint32)size;
	for (guint i = 0; i < view->attributes.nentries; i++) {
		fill_slot(&rec->slots[i], view->attributes.entries[i].value, &str, &obj);
	}
	for (guint i = 0; i < view->capacity.nentries; i++) {
		fill_slot(&rec->slots[view->attributes.nentries + i],
		          view->capacity.entries[i].value, &str, &obj);
	}
	g_assert(str == (char *)&rec->slots[n] + strings);
	g_assert(obj == (char *)&rec->slots[n] + ALIGN8(strings) + objects);
	return rec;
}

void
cel_dra_rec_free(CelDraRec *rec, gboolean stored)
{
	if (stored) {
		cel_dra_store_free(rec);
	} else {
		g_free(rec);
	}
}
