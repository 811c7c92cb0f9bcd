/*
 * world-inventory.h: a mode's cluster when the scenario gives it as objects
 * (spec.cluster.objects, `drasim import`): the imported Nodes and
 * ResourceSlices after the mode's what-if edits (addNodes, removeNodes,
 * drainNodes, a MIG layout per node) and as the mode's world sees them (a
 * device-plugin snapshot moved to DRA gets slices derived from its GFD labels;
 * a DRA snapshot moved to the device plugin gets extended resources derived
 * from its slices). Private to sim/world; docs/import.md.
 */
#pragma once

#include "world.h"

G_BEGIN_DECLS

typedef struct {
	K8sObjectSet *set;  /* (owned) the mode's Nodes and ResourceSlices */
	GPtrArray *gone;    /* char*: imported nodes this mode removed */
	GPtrArray *drained; /* char*: nodes this mode drains (cordoned at t = 0) */
} WorldInventory;

/*
 * world_inventory__build:
 * The inventory of @mode from @sc->inventory, edited and viewed for the
 * mode's world. What was derived rather than imported goes to @notes
 * (scenario_note__add()); errors (an addNodes `like` that names no node...)
 * to @diags at the mode's field and to @error (SCENARIO_ERROR_BUILD).
 * Returns FALSE on error; @out is then cleared.
 */
gboolean world_inventory__build(const Scenario *sc,
                                const ScenarioMode *mode,
                                WorldInventory *out,
                                GPtrArray *notes,
                                K8sDiagList *diags,
                                GError **error);
void world_inventory__clear(WorldInventory *inv);

G_END_DECLS
