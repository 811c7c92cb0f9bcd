/*
 * cel-dra-private.h: the layout of DRA device views, shared by cel_dra.c (environment,
 * compilation, evaluation) and cel_dra_device.c (building the views).
 *
 * A device view holds every attribute and capacity as a CelValue, sorted by (domain, id),
 * with interned names, plus prebuilt map objects for generic CEL access (iteration, `in`,
 * bind). Compiled selectors resolve `device.attributes["d"].id` to a pointer-pair search
 * over these arrays.
 */
#pragma once

#include <string.h>

#include "cel-private.h"
#include "cel_dra.h"
#include "cel_lib_k8s.h"

G_BEGIN_DECLS

typedef const char *CelDraAtom; /* see cel_dra_atom() below */

typedef struct {
	const char *domain; /* interned */
	const char *id;     /* interned */
	CelDraAtom atom;    /* (table, domain, id) */
	CelValue value;
} CelDraEntry;

typedef struct CelDraDomainMap CelDraDomainMap;

/* One domain's ids: a map value over a slice of the device's entries. */
struct CelDraDomainMap {
	CelMap base;
	const char *domain; /* interned */
	const CelDraEntry *entries;
};

/* device.attributes or device.capacity: domain -> CelDraDomainMap, missing domain -> {}. */
typedef struct {
	CelMap base;
	const CelDraDomainMap *domains;
} CelDraOuterMap;

typedef struct CelDraView CelDraView;

/* The `device` variable's value. */
typedef struct {
	CelObject base;
	const CelDraView *view;
} CelDraDeviceObj;

typedef struct {
	CelDraEntry *entries; /* sorted by (domain, id) */
	guint nentries;
	CelDraDomainMap *domains;
	guint ndomains;
	CelDraOuterMap outer;
} CelDraTable;

/*
 * What evaluation reads: one block holding this header, both tables' domain and entry
 * arrays and, once sealed, the payload (strings, semver and quantity objects, lists) too, so
 * an evaluation touches one contiguous piece of memory per device.
 */
struct CelDraView {
	CelDraDeviceObj object;
	const char *driver; /* interned */
	guint driver_len;
	gboolean allow_multiple_allocations;
	CelDraTable attributes;
	CelDraTable capacity;
};

/*
 * ---- compact records: what the fast path reads (cel_dra_rec.c) ----
 *
 * A record is a device's attributes and capacities as 16-byte typed slots, in the order of
 * its shape: the device's driver and its sorted list of keys, shared by every device with the
 * same driver and key set (as a JavaScript engine's hidden class). A compiled selector leaf
 * remembers, per thread, the slot its key had in the last shape it met, so for homogeneous
 * devices a lookup is one pointer comparison and one load. Strings of up to 14 bytes sit in
 * the slot itself; longer strings, versions and quantities follow the slots in the same
 * record. Sealed devices keep the handle and the record next to each other in the device
 * store (cel_dra_store.c), so evaluating one device reads one or two consecutive cache lines
 * and devices built in order lie in order in memory.
 */

/* A (table, domain, id) key, interned: "a<len(domain)>:domain/id", or 'c' for capacity. */
CelDraAtom cel_dra_atom(gboolean capacity, const char *domain, const char *id);
/* The same for @domain and @id already interned (g_intern_string): a pointer-keyed cache in
 * front of cel_dra_atom, so building a device view does not format and hash each key again. */
CelDraAtom cel_dra_atom_interned(gboolean capacity, const char *domain, const char *id);

typedef enum {
	CEL_DRA_SLOT_OTHER = 0, /* lists and anything else: the fast path gives up */
	CEL_DRA_SLOT_BOOL,
	CEL_DRA_SLOT_INT,
	CEL_DRA_SLOT_SSTR, /* string of up to 14 bytes, in the slot */
	CEL_DRA_SLOT_STR,
	CEL_DRA_SLOT_SEMVER,
	CEL_DRA_SLOT_QTY,
	CEL_DRA_SLOT_SEMVER3, /* major.minor.patch below 2^32, no suffix: in the slot */
	CEL_DRA_SLOT_QTY64,   /* a fast-form quantity (value * 10^scale): in the slot */
} CelDraSlotKind;

#define CEL_DRA_SSTR_MAX 14

typedef union {
	guint8 kind;
	struct {
		guint8 kind;
		guint8 len;
		char s[CEL_DRA_SSTR_MAX];
	} sstr;
	struct {
		guint8 kind;
		guint8 pad[3];
		guint32 len; /* CEL_DRA_SLOT_STR */
		union {
			gboolean b;
			gint64 i;
			const char *str;
			const CelSemver *ver;
			const K8sQuantity *qty;
		};
	} v;
	struct {
		guint8 kind;
		guint8 pad[3];
		guint32 major, minor, patch;
	} ver3;
	struct {
		guint8 kind;
		guint8 format;
		guint8 string_is_input;
		guint8 pad;
		gint32 scale;
		gint64 value;
	} qty64;
} CelDraSlot;

G_STATIC_ASSERT(sizeof(CelDraSlot) == 16);

typedef struct {
	const char *driver; /* interned */
	CelDraSlot driver_slot;
	guint nslots;
	guint hash;
	/*
	 * Interned shapes live forever, so a hint naming one stays meaningful. An unsealed
	 * device's record has a private shape (its key set still changes) that hints never
	 * remember: its address may be reused by another device's private shape.
	 */
	gboolean shared;
	CelDraAtom atoms[]; /* attributes in view order, then capacities */
} CelDraShape;

typedef struct {
	const CelDraShape *shape;
	guint32 allow_multiple_allocations;
	guint32 size; /* bytes, slots and payload */
	CelDraSlot slots[];
} CelDraRec;

G_STATIC_ASSERT(sizeof(CelDraRec) == 16);

/*
 * Builds @view's record. @sealed: an interned shape, in the device store when it fits
 * (*@stored tells); otherwise a private shape and g_malloc. NULL when absurdly big.
 */
CelDraRec *cel_dra_rec_build(const CelDraView *view, gboolean sealed, gboolean *stored);
/* @device's view and record, rebuilt if a change came after them (cel_dra_device.c). */
void cel_dra_device__fresh(const CelDraDevice *device);
void cel_dra_rec_free(CelDraRec *rec, gboolean stored);
/* The slot of @atom in @shape, or -1. */
gint cel_dra_shape_find(const CelDraShape *shape, CelDraAtom atom);

/*
 * The device store: sequential allocation from 2 MiB chunks, freed when their last object
 * is, so objects allocated one after another are neighbours in memory. NULL for sizes the
 * store does not take (then use g_malloc). Thread-safe; build time only.
 */
gpointer cel_dra_store_alloc(gsize size, gsize align);
void cel_dra_store_free(gpointer p);

typedef struct CelDraBuilder CelDraBuilder;

/* The handle: 48 bytes in the device store, where a sealed record directly follows it. */
struct CelDraDevice {
	const CelDraRec *rec; /* NULL when the record could not be built (too big) */
	CelDraView *view;     /* rebuilt before use after a change; the generic evaluator's */
	CelDraBuilder *build; /* NULL once sealed */
	const char *driver;   /* interned */
	gboolean allow_multiple_allocations;
	guint8 sealed;
	/* changed since view and rec were built: cel_dra_device__fresh() rebuilds them */
	guint8 stale;
	gboolean rec_stored; /* rec is in the device store */
	gboolean handle_stored;
};

/* Host nodes that replace device lookups with constant keys (cel_dra.c). */
typedef enum {
	CEL_DRA_HOST_DRIVER,
	CEL_DRA_HOST_MULTI,
	CEL_DRA_HOST_TABLE,  /* device.attributes / device.capacity */
	CEL_DRA_HOST_DOMAIN, /* device.attributes["d"] */
	CEL_DRA_HOST_ENTRY,  /* device.attributes["d"].id */
	CEL_DRA_HOST_IN,     /* key in device.attributes: no default here (Contains) */
} CelDraHostKind;

typedef struct {
	CelDraHostKind kind;
	guint slot;
	gboolean capacity;   /* which table */
	const char *domain;  /* interned */
	const char *id;      /* interned */
	const char *missing; /* "no such key: <id>" */
	guint cost;          /* what the replaced ident/select/index nodes cost in cel-go */
	const CelAst *key;   /* CEL_DRA_HOST_IN: the key expression */
} CelDraHost;

/* The CelDraHost of @node when it is a DRA host node, else NULL. */
const CelDraHost *cel_dra_host_of(const CelAst *node);

/*
 * The fast path (cel_dra_fast.c): selectors made only of device lookups, constants, logic,
 * comparisons, prefix/suffix/contains/matches and quantity/semver comparisons against
 * constants run on a small tree of their own. On anything off the happy path (a missing key,
 * a type mismatch) it gives up and the generic evaluator runs, so results and error texts are
 * always the generic ones; runtime cost is accounted by the same rules.
 */
typedef struct CelDraFast CelDraFast;

/* ---- the fast path's internals, shared by cel_dra_fast.c and cel_dra_fast_test.c ---- */

typedef enum {
	FAST_CONST,
	FAST_LOOKUP,
	FAST_AND,
	FAST_OR,
	FAST_NOT,
	FAST_EQ,
	FAST_NE,
	FAST_LT,
	FAST_LE,
	FAST_GT,
	FAST_GE,
	FAST_STARTS,
	FAST_ENDS,
	FAST_CONTAINS,
	FAST_MATCHES,
	FAST_QTY_CMP, /* compareTo, isGreaterThan, isLessThan on kubernetes.Quantity */
	FAST_SEMVER_CMP,
} FastOp;

typedef enum {
	CMP_VALUE, /* compareTo: -1, 0, 1 */
	CMP_GT,
	CMP_LT,
} CmpMode;

typedef struct FastNode FastNode;

struct FastNode {
	FastOp op;
	const FastNode *a;
	const FastNode *b;
	CelValue k;             /* FAST_CONST value; constant operand of string/qty/semver ops */
	guint64 cost;           /* fixed part of this node's runtime cost */
	const CelDraHost *host; /* FAST_LOOKUP */
	const CelRegex *re;     /* FAST_MATCHES */
	CmpMode mode;
	guint64 k_chars;  /* code points of a constant string; FAST_MATCHES: regex cost */
	CelValue pattern; /* FAST_MATCHES: the constant pattern (kind NULL when not known) */
};

typedef struct TestNode TestNode;

struct CelDraFast {
	const FastNode *root;
	const TestNode *test; /* the same selector for evaluation without cost accounting */
};

/* Byte order of two strings: -1, 0, 1. */
static inline int
cel_dra_fast__cmp_strings(CelValue a, CelValue b)
{
	int c = memcmp(a.str, b.str, MIN(a.aux, b.aux));
	if (c != 0) {
		return c < 0 ? -1 : 1;
	}
	return a.aux == b.aux ? 0 : (a.aux < b.aux ? -1 : 1);
}

/* The tree evaluator (cel_dra_fast.c): FALSE means "use the generic evaluator". */
gboolean
cel_dra_fast__eval_node(const FastNode *n, const CelDraView *view, CelValue *out, guint64 *cost);
/* The test form of tree @n (cel_dra_fast_test.c); @nleaves counts the lookup leaves. */
const TestNode *cel_dra_fast__test_compile(const FastNode *n, BaseArena *arena, guint *nleaves);

CelDraFast *cel_dra_fast_compile(const CelAst *root, BaseArena *arena);
/* @cost (nullable): accumulates the cel-go runtime cost; NULL skips the accounting. */
gboolean
cel_dra_fast_eval(const CelDraFast *fast, const CelDraView *view, CelValue *result, guint64 *cost);

/*
 * Evaluation without cost accounting, for booleans only: 1 true, 0 false, -1 "use the generic
 * evaluator". @hints: CEL_DRA_FAST_HINTS per-thread slots, zero-initialised, that remember
 * where each lookup was found in the last shape it met (verified by shape and key).
 */
#define CEL_DRA_FAST_HINTS 16
typedef struct {
	const CelDraShape *shape;
	CelDraAtom atom;
	gint slot; /* -1: the shape lacks the key */
} CelDraHint;
int cel_dra_fast_test(const CelDraFast *fast, const CelDraDevice *device, CelDraHint *hints);

/* The empty map that a missing domain gives. */
extern const CelMap cel_dra_empty_map;
extern const CelObjectClass cel_dra_device_class;

/* The domain map of interned @domain, or NULL. */
const CelDraDomainMap *cel_dra_table_domain(const CelDraTable *table, const char *domain);
/* The value of interned (@domain, @id), or NULL. */
const CelValue *cel_dra_table_lookup(const CelDraTable *table, const char *domain, const char *id);

/*
 * Set when an evaluation reads a value marked CEL_VALUE_NODE_VALUE out of a device
 * view (the table lookups, the domain maps); cel_dra_selector_eval() clears it first
 * and turns it into the selector's sticky flag. One evaluation runs per thread.
 */
extern _Thread_local gboolean cel_dra__read_node_value;

static inline void
cel_dra__note_read(const CelValue *v)
{
	if (G_UNLIKELY((v->flags & CEL_VALUE_NODE_VALUE) != 0)) {
		cel_dra__read_node_value = TRUE;
	}
}

G_END_DECLS
