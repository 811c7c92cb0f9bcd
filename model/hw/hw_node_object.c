/*
 * hw_node_object.c: the Node object a simulated node shows: standard labels, and
 * cpu/memory/pods capacity. model/xr adds the device plugin's resources and GFD
 * labels on top. Keys are kept sorted so output never depends on insertion order.
 */
#include <string.h>

#include "hw-private.h"

static void
sorted_set(GPtrArray *keys, GPtrArray *values, const char *key, const char *value)
{
	guint at = 0;

	while (at < keys->len && strcmp(g_ptr_array_index(keys, at), key) < 0) {
		at++;
	}
	if (at < keys->len && strcmp(g_ptr_array_index(keys, at), key) == 0) {
		g_free(values->pdata[at]);
		values->pdata[at] = g_strdup(value);
		return;
	}
	g_ptr_array_insert(keys, (gint)at, g_strdup(key));
	g_ptr_array_insert(values, (gint)at, g_strdup(value));
}

void
hw_node_object_set_label(HwNodeObject *self, const char *key, const char *value)
{
	sorted_set(self->label_keys, self->label_values, key, value);
}

void
hw_node_object_set_resource(HwNodeObject *self, const char *name, const char *value)
{
	sorted_set(self->resource_names, self->resource_values, name, value);
}

HwNodeObject *
hw_node_object_new(const HwNode *node)
{
	HwNodeObject *self = g_new0(HwNodeObject, 1);
	g_autofree char *cpus = g_strdup_printf("%u", node->shape->cpus);
	g_autofree char *memory =
	        hw_qty_format((gint64)node->shape->memory_gib << 30, HW_QTY_BINARY);

	self->name = g_strdup(node->name);
	self->label_keys = g_ptr_array_new_with_free_func(g_free);
	self->label_values = g_ptr_array_new_with_free_func(g_free);
	self->resource_names = g_ptr_array_new_with_free_func(g_free);
	self->resource_values = g_ptr_array_new_with_free_func(g_free);
	hw_node_object_set_label(self, "kubernetes.io/arch", "amd64");
	hw_node_object_set_label(self, "kubernetes.io/hostname", node->name);
	hw_node_object_set_label(self, "kubernetes.io/os", "linux");
	hw_node_object_set_label(self, "node.kubernetes.io/instance-type", node->shape->id);
	hw_node_object_set_resource(self, "cpu", cpus);
	hw_node_object_set_resource(self, "memory", memory);
	hw_node_object_set_resource(self, "pods", "110");
	return self;
}

void
hw_node_object_free(HwNodeObject *self)
{
	if (self == NULL) {
		return;
	}
	g_free(self->name);
	g_ptr_array_unref(self->label_keys);
	g_ptr_array_unref(self->label_values);
	g_ptr_array_unref(self->resource_names);
	g_ptr_array_unref(self->resource_values);
	g_free(self);
}
