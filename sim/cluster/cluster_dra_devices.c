/*
 * cluster_dra_devices.c: which compute device of a node (GPU, MIG device)
 * each published device name is, for the run model's placement of a bound
 * pod: the table the world gives per node, and the later names a driver's
 * republished pool gives the same hardware (spec.events republish renames).
 * Lookups scan a node's few devices and allocate nothing.
 */
#include <string.h>

#include "cluster_dra-private.h"

void
cluster_dra_set_node_devices(ClusterDra *self,
                             const char *node,
                             const char *const *names,
                             guint n_names)
{
	GPtrArray *list = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < n_names; i++)
		g_ptr_array_add(list, g_strdup(names[i]));
	g_hash_table_replace(self->node_devices, g_strdup(node), list);
	g_hash_table_remove(self->renamed, node); /* new hardware devices, their own names */
}

/* A later name of a device in the node's table: a driver republished its pool
 * with the device renamed. */
typedef struct {
	char *name;
	guint index;
} RenamedDevice;

static void
renamed_device_clear(gpointer data)
{
	g_free(((RenamedDevice *)data)->name);
}

gboolean
cluster_dra__node_device_index(ClusterDra *self, const char *node, const char *device, guint *index)
{
	GPtrArray *table = g_hash_table_lookup(self->node_devices, node);
	GArray *renamed;

	if (table == NULL)
		return FALSE;
	if (g_ptr_array_find_with_equal_func(table, device, g_str_equal, index))
		return TRUE;
	renamed = g_hash_table_lookup(self->renamed, node);
	for (guint i = 0; renamed != NULL && i < renamed->len; i++) {
		const RenamedDevice *r = &g_array_index(renamed, RenamedDevice, i);

		if (strcmp(r->name, device) == 0) {
			*index = r->index;
			return TRUE;
		}
	}
	return FALSE;
}

const char *
cluster_dra_node_device_name(ClusterDra *self, const char *node, const char *name)
{
	GPtrArray *table = g_hash_table_lookup(self->node_devices, node);
	GArray *renamed = g_hash_table_lookup(self->renamed, node);
	const char *current = name;
	guint index;

	if (table == NULL || renamed == NULL ||
	    !g_ptr_array_find_with_equal_func(table, name, g_str_equal, &index))
		return name;
	for (guint i = 0; i < renamed->len; i++) /* the last rename wins */
		if (g_array_index(renamed, RenamedDevice, i).index == index)
			current = g_array_index(renamed, RenamedDevice, i).name;
	return current;
}

gboolean
cluster_dra_rename_node_device(ClusterDra *self,
                               const char *node,
                               const char *old_name,
                               const char *new_name,
                               guint *index_out)
{
	GArray *renamed = g_hash_table_lookup(self->renamed, node);
	RenamedDevice r = { NULL, 0 };

	if (!cluster_dra__node_device_index(self, node, old_name, &r.index))
		return FALSE;
	if (renamed == NULL) {
		renamed = g_array_new(FALSE, TRUE, sizeof(RenamedDevice));
		g_array_set_clear_func(renamed, renamed_device_clear);
		g_hash_table_insert(self->renamed, g_strdup(node), renamed);
	}
	r.name = g_strdup(new_name);
	g_array_append_val(renamed, r);
	if (index_out != NULL)
		*index_out = r.index;
	return TRUE;
}
