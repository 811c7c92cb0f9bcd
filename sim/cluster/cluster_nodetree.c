/*
 * cluster_nodetree.c: the order in which the scheduler sees nodes, as
 * kube-scheduler's nodeTree (pkg/scheduler/backend/cache/node_tree.go) builds
 * it for the snapshot: nodes grouped by zone key (region + zone labels), zones
 * in the order they first appeared, and the list taking one node from each
 * zone in turn. With percentageOfNodesToScore this decides which nodes a cycle
 * looks at. Removal keeps the order of the zone's other nodes, as upstream.
 */
#include <string.h>

#include "cluster-private.h"
#include "cluster_types.h"

typedef struct {
	char *key;
	GPtrArray *nodes; /* ClusterNode *, borrowed */
} Zone;

struct ClusterNodeTree {
	GPtrArray *zones; /* Zone *, in order of appearance */
	guint n_nodes;
};

static void
zone_free(gpointer data)
{
	Zone *zone = data;

	g_free(zone->key);
	g_ptr_array_unref(zone->nodes);
	g_free(zone);
}

ClusterNodeTree *
cluster_nodetree_new(void)
{
	ClusterNodeTree *self = g_new0(ClusterNodeTree, 1);

	self->zones = g_ptr_array_new_with_free_func(zone_free);
	return self;
}

void
cluster_nodetree_free(ClusterNodeTree *self)
{
	if (self == NULL)
		return;
	g_ptr_array_unref(self->zones);
	g_free(self);
}

/* utilnode.GetZoneKey: topology labels first, the deprecated beta ones second. */
static char *
zone_key(const ClusterNode *node)
{
	const char *zone = cluster_node_get_label(node, "topology.kubernetes.io/zone");
	const char *region = cluster_node_get_label(node, "topology.kubernetes.io/region");

	if (zone == NULL)
		zone = cluster_node_get_label(node, "failure-domain.beta.kubernetes.io/zone");
	if (region == NULL)
		region = cluster_node_get_label(node, "failure-domain.beta.kubernetes.io/region");
	if ((region == NULL || region[0] == '\0') && (zone == NULL || zone[0] == '\0'))
		return g_strdup("");
	/* upstream joins with ":\x00:", which a C string cannot hold; \x01 cannot
	 * appear in a label value either */
	return g_strdup_printf("%s:\x01:%s", region != NULL ? region : "",
	                       zone != NULL ? zone : "");
}

static Zone *
find_zone(ClusterNodeTree *self, const char *key, guint *index)
{
	for (guint i = 0; i < self->zones->len; i++) {
		Zone *zone = self->zones->pdata[i];

		if (strcmp(zone->key, key) == 0) {
			if (index != NULL)
				*index = i;
			return zone;
		}
	}
	return NULL;
}

void
cluster_nodetree_add(ClusterNodeTree *self, ClusterNode *node)
{
	g_autofree char *key = zone_key(node);
	Zone *zone = find_zone(self, key, NULL);

	if (zone == NULL) {
		zone = g_new0(Zone, 1);
		zone->key = g_steal_pointer(&key);
		zone->nodes = g_ptr_array_new();
		g_ptr_array_add(self->zones, zone);
	}
	g_ptr_array_add(zone->nodes, node);
	self->n_nodes++;
}

gboolean
cluster_nodetree_remove(ClusterNodeTree *self, ClusterNode *node)
{
	for (guint z = 0; z < self->zones->len; z++) {
		Zone *zone = self->zones->pdata[z];
		guint i;

		if (!g_ptr_array_find(zone->nodes, node, &i))
			continue;
		g_ptr_array_remove_index(zone->nodes, i);
		if (zone->nodes->len == 0)
			g_ptr_array_remove_index(self->zones, z);
		self->n_nodes--;
		return TRUE;
	}
	return FALSE;
}

guint
cluster_nodetree_get_length(const ClusterNodeTree *self)
{
	return self->n_nodes;
}

/* nodeTree.list(): round robin over the zones; sets each node's index. */
void
cluster_nodetree_list(const ClusterNodeTree *self, GPtrArray *out)
{
	g_ptr_array_set_size(out, 0);
	for (guint depth = 0; out->len < self->n_nodes; depth++) {
		for (guint z = 0; z < self->zones->len; z++) {
			const Zone *zone = self->zones->pdata[z];

			if (depth >= zone->nodes->len)
				continue;
			((ClusterNode *)zone->nodes->pdata[depth])->index = out->len;
			g_ptr_array_add(out, zone->nodes->pdata[depth]);
		}
	}
}
