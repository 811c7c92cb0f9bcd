/*
 * prop.h: the allocator property runner (tests/property), shared by its files.
 *
 * A PropWorld is one case: the node, the DeviceClasses, the ResourceSlices, the
 * claims to allocate and the devices other claims hold, as the plain structs of
 * dra.h in arrays the world owns (strings are borrowed from the object set the
 * case was read from, which the world keeps alive). Every case, generated or
 * replayed, is read from YAML text (prop_world.c), so a printed case replays
 * exactly. The minimiser and the permutations edit deep copies.
 */
#pragma once

#include <glib.h>

#include "dra.h"

G_BEGIN_DECLS

/* A device another claim holds: dedicated, or a share with its consumed capacity. */
typedef struct {
	const char *driver;
	const char *pool;
	const char *device;
	gboolean shared;
	DraConsumed *consumed;
	guint n_consumed;
} PropHeld;

typedef struct {
	guint64 seed;
	guint case_index;
	DraFeatures features;
	DraNode node;
	DraClass *classes;
	guint n_classes;
	DraSlice *slices;
	guint n_slices;
	DraClaim *claims;
	guint n_claims;
	PropHeld *held;
	guint n_held;
	/* owned memory (g_free'd) and the source the strings live in */
	GPtrArray *blocks;
	gpointer source;
} PropWorld;

/* ---- prop_world.c: reading, copying, writing cases ---- */

/* Reads a case file's text (header document + manifests); NULL with @error on bad input. */
PropWorld *prop_world_read(const char *name, const char *text, gsize len, GError **error);
PropWorld *prop_world_copy(const PropWorld *w);
void prop_world_free(PropWorld *w);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PropWorld, prop_world_free)
/* The case as a replayable file; @property names what failed (NULL: none). */
char *prop_world_write(const PropWorld *w, const char *property);
/* Copies @n elements of @size into memory @w owns. */
gpointer prop_world_dup(PropWorld *w, gconstpointer data, gsize size, guint n);

/* ---- prop_gen.c: random cases ---- */

/* The YAML text of case @index of @seed (small worlds, see prop_gen.c). */
char *prop_gen_case(guint64 seed, guint index);

/* ---- prop_oracle.c: semantics written from the API, independent of the search ---- */

typedef struct PropOracle PropOracle;
PropOracle *prop_oracle_new(const PropWorld *w);
void prop_oracle_free(PropOracle *o);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(PropOracle, prop_oracle_free)

/* A device the node sees: in a slice that selects the node, of its pool's newest generation. */
typedef struct {
	const DraSlice *slice;
	const DraDevice *device;
	gboolean multi; /* allowMultipleAllocations with DRAConsumableCapacity on */
} PropDevice;

const PropDevice *prop_oracle_devices(const PropOracle *o, guint *n);
/* Index of the visible device driver/pool/name, or -1. */
gint prop_oracle_find(const PropOracle *o, const char *driver, const char *pool, const char *name);
/* Class and request selectors of @req on visible device @d; FALSE on any error too. */
gboolean prop_oracle_selects(PropOracle *o, const DraExactRequest *req, guint d);
/* The request (or sub-request) a result names, or NULL. */
const DraExactRequest *
prop_oracle_request(const DraClaim *claim, const char *result_name, const DraRequest **parent);
/* Does constraint @c apply to the result called @result_name ("req" or "req/sub")? */
gboolean prop_oracle_constraint_applies(const DraConstraint *c, const char *result_name);
/* Attribute @qualified ("domain/id") of @d, or NULL. */
const DraAttribute *prop_oracle_attribute(const PropDevice *d, const char *qualified);
gboolean prop_oracle_attr_equal(const DraAttribute *a, const DraAttribute *b);
/*
 * What @req consumes of capacity @cap of a multi-allocatable device: FALSE
 * when the request cannot be met (policy, or a requested name the device lacks).
 */
gboolean prop_oracle_consumed(const DraExactRequest *req, const DraCapacity *cap, DraMilli *out);
/* Is every requested capacity name present on @dev? */
gboolean prop_oracle_has_requested(const DraExactRequest *req, const DraDevice *dev);
/* What other claims' shares of device @d consume of capacity @name. */
DraMilli prop_oracle_held_shares(const PropWorld *w, const PropDevice *d, const char *name);
/* What @dev consumes of counter @name in counter set @set. */
DraMilli prop_oracle_counter_consumption(const DraDevice *dev, const char *set, const char *name);
/*
 * With DRAConsumableCapacity: does visible device @d have what @req asks,
 * with room next to other claims' shares (CmpRequestOverCapacity)? It decides
 * which devices "All" means, too (validateDeviceRequest, release-1.34).
 */
gboolean prop_oracle_capacity_fits(const PropOracle *o, const DraExactRequest *req, guint d);

/* ---- prop_check.c: properties 1-3 on an answer ---- */

/* The devices one answer uses, in result order. */
typedef struct {
	guint claim;
	const DraDeviceResult *result;
	gint device; /* visible device index, -1 if none */
} PropPick;

/*
 * Appends to @why what is wrong with the allocation in @alloc; FALSE if
 * anything is. @excluded gets what production's own accounting let through.
 */
gboolean prop_check_allocation(PropOracle *o,
                               const PropWorld *w,
                               DraAllocator *alloc,
                               const char **property,
                               const char **excluded,
                               GString *why);

/* ---- prop_brute.c: brute force ---- */

typedef enum {
	PROP_BRUTE_FOUND,
	PROP_BRUTE_NONE,
	PROP_BRUTE_TOO_BIG,
} PropBrute;

PropBrute prop_brute_solve(PropOracle *o, const PropWorld *w);

G_END_DECLS
