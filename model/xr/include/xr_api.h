/*
 * xr_api.h: the extended-resource view as model/api objects (built only when model/api is).
 */
#pragma once

#include "k8s_objects.h"
#include "xr.h"

G_BEGIN_DECLS

/**
 * xr_publish_objects:
 * Appends to @set the Node of @node as the device plugin and GFD leave it: capacity and
 * allocatable with the plugin's resources, and the GFD labels. Decoded by model/api from
 * the same YAML `drasim publish --mode extended` prints.
 * Returns: FALSE with @error (XR_ERROR_CONFIG) when the plugin would refuse @config, or
 * when model/api reported errors (in @diags).
 */
gboolean xr_publish_objects(const HwNode *node,
                            const XrConfig *config,
                            K8sObjectSet *set,
                            K8sDiagList *diags,
                            GError **error);

G_END_DECLS
