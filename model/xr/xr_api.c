/*
 * xr_api.c: the bridge from the device plugin's view to model/api Node objects, through
 * the published document (hw_load_published(), the path hw_publish_objects() takes for DRA).
 */
#include "xr_api.h"

#include <string.h>

#include "hw_api.h"

gboolean
xr_publish_objects(const HwNode *node,
                   const XrConfig *config,
                   K8sObjectSet *set,
                   K8sDiagList *diags,
                   GError **error)
{
	g_autoptr(XrNodeView) view = xr_node_view_new(node, config, error);
	g_autoptr(GPtrArray) nodes = NULL;
	g_autofree char *name = NULL;
	HwNodeObject *object;

	if (view == NULL) {
		return FALSE;
	}
	nodes = g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_object_free);
	object = hw_node_object_new(node);
	xr_node_view_apply(view, object);
	g_ptr_array_add(nodes, object);
	name = g_strdup_printf("<published %s>", node->name);
	if (!hw_load_published(name, nodes, NULL, NULL, set, diags)) {
		g_set_error(error, XR_ERROR, XR_ERROR_CONFIG, "%s: model/api rejected the Node",
		            node->name);
		return FALSE;
	}
	return TRUE;
}
