/*
 * dra_k8s.h: the allocator's bridges to the rest of drasim, built only when
 * model/api and model/cel are in the build.
 *
 * DraInput converts decoded objects (K8sResourceSlice, K8sDeviceClass,
 * K8sResourceClaimSpec, K8sNode, K8sDeviceTaintRule) into the plain structs of
 * dra.h; it owns the converted structs and borrows the strings of the object
 * set. DraCel is a DraSelectorOps over model/cel's DRA environment.
 */
#pragma once

#include <glib.h>

#include "dra.h"
#include "k8s_objects.h"
#include "k8s_types.h"

G_BEGIN_DECLS

typedef struct DraInput DraInput;
typedef struct DraCel DraCel;

/* (transfer full) */
DraInput *dra_input_new(void);
void dra_input_free(DraInput *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DraInput, dra_input_free)

/* Each returns a struct owned by @self that borrows the object's strings. */
const DraSlice *dra_input_slice(DraInput *self, const K8sResourceSlice *slice);
const DraClass *dra_input_class(DraInput *self, const K8sDeviceClass *klass);
/* @namespace_ NULL means "default" (as the corpus and the API server do). */
const DraClaim *dra_input_claim(DraInput *self,
                                const char *namespace_,
                                const char *name,
                                const K8sResourceClaimSpec *spec);
const DraNode *dra_input_node(DraInput *self, const K8sNode *node);
const DraNode *dra_input_node_new(DraInput *self, const char *name, const K8sStringMap *labels);
const DraTaintRule *dra_input_taint_rule(DraInput *self, const K8sDeviceTaintRule *rule);

/*
 * Stamping (docs/cluster.md "Memory"): a node of the same shape as the previous
 * one publishes the same slices but for its names and its devices' own attributes
 * (DraDevice.node_attributes: uuid, parentUUID, mac). dra_input_stamp_template()
 * gives the driver's previous node-local slice when every device of it shares its
 * attributes with the node before (so the next node's conversion would share them
 * the same way), else NULL. dra_input_stamp_slice() copies it for another node:
 * the names and generation from @stamp, each own attribute's value from
 * @stamp->own_value (@attr holds the template's, to be overwritten; FALSE: the node
 * has no such attribute of that kind, and the stamp is NULL). The rest (shared
 * attributes, capacities, counters) is the template's own arrays, read-only. The
 * result is what dra_input_slice() makes of that node's slice, provided the caller
 * knows the other values equal the template's; dra_input_stamp_add() then makes it
 * the driver's previous slice, as dra_input_slice() would.
 */
typedef gboolean (*DraStampValueFn)(gpointer data, guint device, DraAttribute *attr);
typedef struct {
	const char *name; /* strings borrowed for the input's lifetime */
	const char *pool;
	const char *node_name;
	gint64 generation;
	gint64 resource_slice_count;
	DraStampValueFn own_value;
	gpointer data;
} DraStamp;
const DraSlice *dra_input_stamp_template(DraInput *self, const char *driver);
const DraSlice *dra_input_stamp_slice(DraInput *self, const DraSlice *tmpl, const DraStamp *stamp);
void dra_input_stamp_add(DraInput *self, const DraSlice *stamped);

/* A quantity in milli-units as the allocator reads it (0 when unparsable). */
DraMilli dra_input_qty_milli(const K8sQty *q);

/*
 * dra_input_mark_allocation:
 * Feeds the results of an already allocated claim into @alloc the way the
 * scheduler derives the allocated state: results without a shareID mark the
 * device in use (unless adminAccess), results with one add their consumedCapacity.
 */
void dra_input_mark_allocation(DraAllocator *alloc, const K8sAllocationResult *allocation);

/*
 * dra_input_add_slices_and_classes:
 * Loads every ResourceSlice and DeviceClass of @set into @alloc, in set order: the
 * inventory a request is matched against (dra_lint_requests stops here).
 */
void dra_input_add_slices_and_classes(DraInput *self, DraAllocator *alloc, K8sObjectSet *set);

/*
 * dra_input_add_objects:
 * Loads the allocator's view of @set into @alloc: its slices and classes
 * (dra_input_add_slices_and_classes), every DeviceTaintRule in set order,
 * and the devices of every claim that is already allocated
 * (dra_input_mark_allocation).
 */
void dra_input_add_objects(DraInput *self, DraAllocator *alloc, K8sObjectSet *set);

/*
 * DraObjectsAllocator: the allocator over a set of manifests, as `drasim
 * allocate`, the allocator conformance runner and the simulator's
 * DynamicResources (sim/cluster/cluster_dra.c) build it: a DraInput, the CEL
 * selector evaluator for @features and a DraAllocator over them, loaded with
 * @set's objects (dra_input_add_objects; @set NULL: none, the caller adds
 * them). The fields are owned; callers tune the allocator (step budget,
 * quirks, prune, memo) before allocating.
 */
typedef struct {
	DraInput *input;
	DraCel *cel;
	DraAllocator *alloc;
} DraObjectsAllocator;

void dra_objects_allocator_init(DraObjectsAllocator *self,
                                const DraFeatures *features,
                                K8sObjectSet *set);
void dra_objects_allocator_clear(DraObjectsAllocator *self);

/*
 * dra_allocation_to_k8s:
 * The allocator's answer for one claim as status.allocation, allocated from
 * @set (it lives as long as the set). Opaque config is the claim's or
 * class's own object; quantities are printed as the allocator computed them.
 */
K8sAllocationResult *dra_allocation_to_k8s(const DraAllocation *a, K8sObjectSet *set);

/* ---- lint ---- */

/**
 * dra_lint_requests:
 * For `drasim lint`: adds a warning to @diags for every request or sub-request
 * of a ResourceClaim or ResourceClaimTemplate in @set whose DeviceClass and
 * selectors match no device of the set's ResourceSlices (the claim can never
 * be allocated), or whose selectors fail on a device. Does nothing when @set
 * has no ResourceSlice; unknown classes are left to validation.
 * Returns: the number of warnings added.
 */
guint dra_lint_requests(K8sObjectSet *set, const DraFeatures *features, K8sDiagList *diags);

/* ---- CEL ---- */

/* A selector evaluator for @features (device.allowMultipleAllocations needs ConsumableCapacity). */
DraCel *dra_cel_new(const DraFeatures *features);
void dra_cel_free(DraCel *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DraCel, dra_cel_free)
/* The ops to hand to dra_allocator_new() with @self as ops_data. */
const DraSelectorOps *dra_cel_get_ops(void);

G_END_DECLS
