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

#include "cel-private.h"
#include "cel_dra.h"
#include "cel_lib_k8s.h"

G_BEGIN_DECLS

typedef struct {
	const char *domain; /* interned */
	const char *id;     /* interned */
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

struct CelDraDevice {
	const char *driver; /* interned */
	gboolean allow_multiple_allocations;
	GArray *attributes; /* CelDraEntry, values in ->store */
	GArray *capacity;
	CelArena store;
	CelDraView *view; /* rebuilt after every change */
	gboolean sealed;
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
CelDraFast *cel_dra_fast_compile(const CelAst *root, CelArena *arena);
/* @cost (nullable): accumulates the cel-go runtime cost; NULL skips the accounting. */
gboolean
cel_dra_fast_eval(const CelDraFast *fast, const CelDraView *view, CelValue *result, guint64 *cost);

/*
 * Evaluation without cost accounting, for booleans only: FALSE means "use the generic
 * evaluator". @hints: CEL_DRA_FAST_HINTS per-thread slots, zero-initialised, that remember
 * where each lookup was found in the previous device (always verified before use).
 */
#define CEL_DRA_FAST_HINTS 16
gboolean
cel_dra_fast_test(const CelDraFast *fast, const CelDraView *view, guint *hints, gboolean *result);

/* The empty map that a missing domain gives. */
extern const CelMap cel_dra_empty_map;
extern const CelObjectClass cel_dra_device_class;

/* The domain map of interned @domain, or NULL. */
const CelDraDomainMap *cel_dra_table_domain(const CelDraTable *table, const char *domain);
/* The value of interned (@domain, @id), or NULL. */
const CelValue *cel_dra_table_lookup(const CelDraTable *table, const char *domain, const char *id);

G_END_DECLS
