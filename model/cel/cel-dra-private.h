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
	const char *id;	    /* interned */
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

/* The `device` variable's value. */
typedef struct {
	CelObject base;
	const CelDraDevice *device;
} CelDraDeviceObj;

typedef struct {
	GArray *entries; /* CelDraEntry, sorted by (domain, id) */
	CelDraDomainMap *domains;
	guint ndomains;
	CelDraOuterMap outer;
} CelDraTable;

struct CelDraDevice {
	const char *driver; /* interned */
	gboolean allow_multiple_allocations;
	CelDraTable attributes;
	CelDraTable capacity;
	CelDraDeviceObj object;
	CelArena store; /* strings, semver and quantity objects, lists */
};

/* The empty map that a missing domain gives. */
extern const CelMap cel_dra_empty_map;
extern const CelObjectClass cel_dra_device_class;

/* The domain map of interned @domain, or NULL. */
const CelDraDomainMap *cel_dra_table_domain(const CelDraTable *table, const char *domain);
/* The value of interned (@domain, @id), or NULL. */
const CelValue *cel_dra_table_lookup(const CelDraTable *table, const char *domain, const char *id);

G_END_DECLS
