/*
 * hw_api.h: published hardware as model/api objects (built only when model/api is).
 *
 * The published YAML goes through api's own decoder, so the objects the simulator
 * schedules on are exactly what `drasim publish` prints, positions included (the
 * "file" is named after the node, e.g. "<published node-a>").
 */
#pragma once

#include "hw.h"
#include "k8s_objects.h"

G_BEGIN_DECLS

/**
 * hw_publish_objects:
 * Appends to @set the Node, (if @with_classes) the NVIDIA DeviceClasses, and the
 * ResourceSlices of gpu.nvidia.com and dra.net for @node.
 * Returns: TRUE when api decoded everything without errors (problems go to @diags).
 */
gboolean hw_publish_objects(const HwNode *node, const HwPublishOptions *options,
			    gboolean with_classes, K8sObjectSet *set, K8sDiagList *diags);

G_END_DECLS
