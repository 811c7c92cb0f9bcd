/*
 * world-xlate.h: the one mapping between the NVIDIA DRA driver's requests
 * (DeviceClasses, gpu.nvidia.com attributes) and the device plugin's resources and
 * GPU Feature Discovery node labels. The extended world reads it from DRA to the
 * device plugin (world_xlate.c); `drasim convert --to dra` reads it the other way
 * (world_xlate_dra.c); lint reads selector literals with it (sim/lint).
 */
#pragma once

#include <glib.h>

#include "k8s_objects.h"

G_BEGIN_DECLS

/* A device-plugin resource and the DRA request it is. */
typedef struct {
	const char *resource;     /* "nvidia.com/gpu", or a prefix ending in '-' */
	const char *device_class; /* "gpu.nvidia.com", "mig.nvidia.com" */
	const char *attribute;    /* for a prefix: the attribute its rest names ("profile") */
} WorldXlateResource;

/* A GFD node label and the gpu.nvidia.com attribute that publishes the same fact. */
typedef struct {
	const char *label;         /* "nvidia.com/gpu.product" */
	const char *attribute;     /* "productName" */
	gboolean spaces_as_dashes; /* GFD writes ' ' of the value as '-' */
} WorldXlateLabel;

/** world_xlate_resource_for_name: the row of @resource (@rest: what follows a prefix). */
const WorldXlateResource *world_xlate_resource_for_name(const char *resource, const char **rest);
/** world_xlate_whole_gpu: the row of a whole GPU (nvidia.com/gpu, gpu.nvidia.com). */
const WorldXlateResource *world_xlate_whole_gpu(void);
/** world_xlate_resource_for_attribute: the prefix row whose rest is @attribute's value. */
const WorldXlateResource *world_xlate_resource_for_attribute(const char *attribute);
/** world_xlate_label_for_key: the row of the GFD label @label, or NULL. */
const WorldXlateLabel *world_xlate_label_for_key(const char *label);
/* The label rows in table order; NULL after the last. */
const WorldXlateLabel *world_xlate_label_nth(guint index);
/** world_xlate_label_value: @value of @row's attribute as GFD writes it. (transfer full) */
char *world_xlate_label_value(const WorldXlateLabel *row, const char *value);

/**
 * world_xlate_equality_literal:
 * The quoted literal of `device.attributes[...].ATTR == "X"` in @expr for @attribute,
 * or NULL. (transfer full)
 */
char *world_xlate_equality_literal(const char *expr, const char *attribute);

/* ---- device plugin -> DRA (world_xlate_dra.c, `drasim convert --to dra`) ---- */

/**
 * world_convert_to_dra:
 * Rewrites, in @set, every Pod and workload pod template asking device-plugin GPU
 * resources (nvidia.com/gpu, nvidia.com/mig-<profile>) into pod resourceClaims of
 * new ResourceClaimTemplates, added to @templates; GFD node selectors and required
 * node affinity on the labels of the table become CEL selectors. One line per
 * translation and per thing not carried over is appended to @report (char*); a
 * template that does not decode is an error in @diags.
 * Returns: how many objects were rewritten.
 */
guint world_convert_to_dra(K8sObjectSet *set,
                           K8sObjectSet *templates,
                           GPtrArray *report,
                           K8sDiagList *diags);

G_END_DECLS
