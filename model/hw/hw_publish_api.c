/*
 * hw_publish_api.c: the bridge from published hardware to model/api objects.
 *
 * Encoding to YAML and decoding with api's loader keeps one source of truth for the
 * wire format (kubectl's view) and checks it on every use; publishing happens once
 * per node at start-up, so the round trip costs nothing that matters.
 */
#include <string.h>

#include "hw_api.h"

gboolean
hw_publish_objects(const HwNode *node,
                   const HwPublishOptions *options,
                   gboolean with_classes,
                   K8sObjectSet *set,
                   K8sDiagList *diags)
{
	g_autoptr(GPtrArray) nodes =
	        g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_object_free);
	g_autoptr(GPtrArray) slices = hw_publish_nvidia(node, options);
	g_autofree char *name = g_strdup_printf("<published %s>", node->name);
	g_autofree char *yaml = NULL;
	HwSlice *nics = hw_publish_dranet(node);

	g_ptr_array_add(nodes, hw_node_object_new(node));
	if (nics != NULL) {
		g_ptr_array_add(slices, nics);
	}
	yaml = hw_yaml_write_list(nodes, with_classes ? hw_nvidia_device_classes() : NULL, slices);
	return k8s_load_data(name, yaml, strlen(yaml), K8S_LOAD_DEFAULT, set, diags);
}
