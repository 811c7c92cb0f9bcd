/*
 * hw_publish_api.c: the bridge from published hardware to model/api objects.
 *
 * Published objects go through api's own decoder, so the simulator schedules
 * on exactly what `drasim publish` prints and the wire format is checked on
 * every use. The writer's libyaml events feed api's tree builder directly
 * (k8s_yaml_feed.h): writing the text and parsing it back was most of a
 * node's set-up, ~5 M instructions per DGX node. The text is still written
 * when the decoder has anything to say, so every message has a position.
 */
#include <string.h>

#include "hw-private.h"
#include "hw_api.h"
#include "k8s_yaml_feed.h"

typedef struct {
	const GPtrArray *nodes;
	const HwDeviceClass *classes;
	const GPtrArray *slices;
	K8sYamlFeed *feed;
} Published;

static void
feed_event(yaml_event_t *event, gpointer data)
{
	Published *p = data;

	k8s_yaml_feed_event(p->feed, event);
	yaml_event_delete(event);
}

static void
produce(K8sYamlFeed *feed, gpointer data)
{
	Published *p = data;

	p->feed = feed;
	hw_yaml__write_events(p->nodes, p->classes, p->slices, feed_event, p);
}

gboolean
hw_load_published(const char *name,
                  const GPtrArray *nodes,
                  const HwDeviceClass *classes,
                  const GPtrArray *slices,
                  K8sObjectSet *set,
                  K8sDiagList *diags)
{
	Published p = { nodes, classes, slices, NULL };
	g_autoptr(K8sDiagList) quiet = k8s_diag_list_new();
	g_autoptr(K8sObjectSet) scratch = NULL;
	g_autofree char *yaml = NULL;
	gboolean ok = k8s_load_events(name, produce, &p, K8S_LOAD_DEFAULT, set, quiet);

	if (k8s_diag_list_count(quiet) == 0)
		return ok;
	/* The same objects again from the text, only for positioned messages; the
	 * ones in @set are kept, as the text path would have added them too. */
	scratch = k8s_object_set_new();
	yaml = hw_yaml_write_list(nodes, classes, slices);
	return k8s_load_data(name, yaml, strlen(yaml), K8S_LOAD_DEFAULT, scratch, diags);
}

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
	HwSlice *nics = hw_publish_dranet(node);

	g_ptr_array_add(nodes, hw_node_object_new(node));
	if (nics != NULL) {
		g_ptr_array_add(slices, nics);
	}
	return hw_load_published(name, nodes, with_classes ? hw_nvidia_device_classes() : NULL,
	                         slices, set, diags);
}
