/*
 * hw_publish_api.c: published hardware as model/api objects, checked by api's own
 * rules, and printed by api's encoder.
 *
 * The objects are built directly in the set (hw_api_build.c) and validated with
 * k8s_validate_object(), as the API server would on create: no text is written or
 * parsed, so publishing a DGX node, or republishing it after a MIG change, costs a
 * struct build. Only when something is wrong are the objects printed and decoded
 * again, so that each message points at a line and column of what `drasim
 * publish` would show.
 */
#include <string.h>

#include "hw-private.h"
#include "hw_api.h"
#include "k8s_validate.h"

/* Appends the objects to @b->set in the order of the published List. */
static void
build_all(HwApiBuild *b,
          const GPtrArray *nodes,
          const HwDeviceClass *classes,
          const GPtrArray *slices)
{
	for (guint i = 0; nodes != NULL && i < nodes->len; i++) {
		hw_api__build_node(b, g_ptr_array_index(nodes, i));
	}
	for (guint i = 0; classes != NULL && classes[i].name != NULL; i++) {
		hw_api__build_class(b, &classes[i]);
	}
	for (guint i = 0; slices != NULL && i < slices->len; i++) {
		hw_api__build_slice(b, g_ptr_array_index(slices, i));
	}
}

/* Objects @first.. of @set as the published List text. (transfer full) */
static char *
print_from(const K8sObjectSet *set, guint first)
{
	guint n = k8s_object_set_count(set) - first;
	g_autofree K8sObject **objs = g_new(K8sObject *, MAX(n, 1));
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < n; i++) {
		objs[i] = k8s_object_set_get(set, first + i);
	}
	k8s_object_list_encode_kubectl(objs, n, out);
	return g_string_free(out, FALSE);
}

/* The problems of the objects @first.. of @set, each at its line of the printed text:
 * what api's decoder and validation say about that text. */
static void
report_positioned(const char *name, const K8sObjectSet *set, guint first, K8sDiagList *diags)
{
	g_autofree char *text = print_from(set, first);
	g_autoptr(K8sObjectSet) scratch = k8s_object_set_new();

	k8s_load_data(name, text, strlen(text), K8S_LOAD_DEFAULT, scratch, diags);
	k8s_validate_set(scratch, diags);
}

gboolean
hw_load_published(const char *name,
                  const GPtrArray *nodes,
                  const HwDeviceClass *classes,
                  const GPtrArray *slices,
                  K8sObjectSet *set,
                  K8sDiagList *diags)
{
	guint first = k8s_object_set_count(set);
	HwApiBuild b = { set, k8s_object_set_intern(set, name), 0, FALSE };
	g_autoptr(K8sDiagList) checked = k8s_diag_list_new();

	build_all(&b, nodes, classes, slices);
	for (guint i = first; i < k8s_object_set_count(set); i++) {
		k8s_validate_object(k8s_object_set_get(set, i), checked);
	}
	if (!b.failed && k8s_diag_list_count_errors(checked) == 0) {
		return TRUE;
	}
	report_positioned(name, set, first, diags);
	return FALSE;
}

gboolean
hw_publish_objects_with(const HwNode *node,
                        const GPtrArray *gpu_slices,
                        gboolean with_classes,
                        K8sObjectSet *set,
                        K8sDiagList *diags)
{
	g_autoptr(GPtrArray) nodes =
	        g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_object_free);
	g_autoptr(GPtrArray) slices = g_ptr_array_new(); /* borrowed, but for the NICs' */
	g_autoptr(HwSlice) nics = hw_publish_dranet(node);
	g_autofree char *name = g_strdup_printf("<published %s>", node->name);

	g_ptr_array_add(nodes, hw_node_object_new(node));
	for (guint i = 0; i < gpu_slices->len; i++) {
		g_ptr_array_add(slices, g_ptr_array_index(gpu_slices, i));
	}
	if (nics != NULL) {
		g_ptr_array_add(slices, nics);
	}
	return hw_load_published(name, nodes, with_classes ? hw_nvidia_device_classes() : NULL,
	                         slices, set, diags);
}

gboolean
hw_publish_objects(const HwNode *node,
                   const HwPublishOptions *options,
                   gboolean with_classes,
                   K8sObjectSet *set,
                   K8sDiagList *diags)
{
	g_autoptr(GPtrArray) gpu_slices = hw_publish_nvidia(node, options);

	return hw_publish_objects_with(node, gpu_slices, with_classes, set, diags);
}

char *
hw_yaml_write_list(const GPtrArray *nodes, const HwDeviceClass *classes, const GPtrArray *slices)
{
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	HwApiBuild b = { set, k8s_object_set_intern(set, "<published>"), 0, FALSE };

	/* printed as built, also when api would reject it: `drasim publish` shows what
	 * the drivers publish, `drasim lint` judges it */
	build_all(&b, nodes, classes, slices);
	return print_from(set, 0);
}
