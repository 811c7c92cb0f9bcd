/*
 * world-inventory-private.h: what the files of world_inventory*.c share: an
 * imported node's NVIDIA GPUs as an HwNode (model/hw's node instance), read
 * from its gpu.nvidia.com devices or from its GFD labels, so that model/hw
 * publishes a MIG layout's devices for it and model/xr gives the device
 * plugin's resources and labels of it. docs/import.md, "What-if modes".
 */
#pragma once

#include "hw.h"
#include "k8s_objects.h"
#include "world-inventory.h"

G_BEGIN_DECLS

#define WORLD_INV_NVIDIA "gpu.nvidia.com"

/* An HwNode of one imported node: the shape behind it is made up (one PCIe
 * root holding every GPU; only its GPU model counts), the GPUs keep the
 * identity the devices published (UUID, PCI bus id, PCIe root, minor). */
typedef struct {
	HwNodeShape shape;
	HwPcieRoot root;
	HwNode *node; /* NULL until built */
} WorldInvNode;

/* The catalog GPU whose product name is @product, written as the driver's
 * productName ("NVIDIA H100 80GB HBM3") or as GFD's gpu.product label
 * ("NVIDIA-H100-80GB-HBM3", also with -MIG-... or -SHARED after it). */
const HwGpuModel *world_inv__gpu_model(const HwCatalog *catalog, const char *product);

/* @n_gpus GPUs of @model on a node named @name, MIG off. */
void
world_inv__node_init(WorldInvNode *out, const HwGpuModel *model, const char *name, guint n_gpus);

/*
 * The NVIDIA GPUs the gpu.nvidia.com devices of @set's slices with nodeName
 * @name publish: one GPU per full-GPU device and per distinct parentUUID of
 * MIG devices, the model from their productName, MIG instances from the MIG
 * devices that exist (a device with a uuid; DynamicMIG's possible placements
 * have none). Returns: FALSE when the node has no NVIDIA device; when the
 * model is not in the catalog, FALSE with *@unknown_product set (g_free()).
 */
gboolean world_inv__node_from_slices(WorldInvNode *out,
                                     const HwCatalog *catalog,
                                     K8sObjectSet *set,
                                     const char *name,
                                     char **unknown_product);
void world_inv__node_clear(WorldInvNode *inv);

/* The value of @node's label @key, or NULL. */
const char *world_inv__node_label(const K8sNode *node, const char *key);

/* The string value of @device's attribute @name (unqualified, or qualified by
 * @domain), or NULL. */
const char *world_inv__attr(const K8sDevice *device, const char *domain, const char *name);

/* The next slice of @set after index *@i (start at 0) with nodeName @node and,
 * unless NULL, driver @driver; NULL after the last. Loop:
 * for (guint i = 0; (s = world_inv__next_slice(set, node, driver, &i));) */
const K8sResourceSlice *
world_inv__next_slice(K8sObjectSet *set, const char *node, const char *driver, guint *i);

/* The mode's index in @sc->modes (for field paths "spec.modes[I]..."). */
guint world_inv__mode_index(const Scenario *sc, const ScenarioMode *mode);

/* ---- the world's view (world_inventory_view.c) ---- */

/* world: extended on nodes with NVIDIA slices: their Node gets the device
 * plugin's resources and GFD's labels computed from the devices. */
void world_inv__view_extended(const Scenario *sc,
                              const ScenarioMode *mode,
                              WorldInventory *inv,
                              GPtrArray *notes);
/* world: dra on device-plugin nodes (no slice of theirs, GFD labels): slices
 * published for the GPUs the labels name. Returns FALSE (diags) only when
 * model/hw's objects fail api's validation. */
gboolean world_inv__view_dra(const Scenario *sc,
                             const ScenarioMode *mode,
                             WorldInventory *inv,
                             GPtrArray *notes,
                             K8sDiagList *diags);
/* Publishes @node's gpu.nvidia.com slices (DynamicMIG or static) into @set
 * with pool generation @generation. FALSE: model/api rejected them (@diags). */
gboolean world_inv__publish(const WorldInvNode *node,
                            gboolean dynamic_mig,
                            gint64 generation,
                            K8sObjectSet *set,
                            K8sDiagList *diags);

G_END_DECLS
