/*
 * hw_device.c: the published-object records (HwSlice, HwDevice, HwCounterSet) and
 * canonical quantity text.
 *
 * These are the driver-side view of a ResourceSlice: what a kubelet plugin hands to
 * the API server. hw_api_build.c turns them into model/api objects.
 */
#include <string.h>

#include "hw-private.h"

static void
attr_clear(HwAttr *attr)
{
	g_free(attr->str);
}

static void
qty_clear(HwQty *qty)
{
	g_free(qty->name);
}

static void
consumption_clear(HwConsumption *c)
{
	g_free(c->counter_set);
	g_array_unref(c->counters);
}

static GArray *
qty_array_new(void)
{
	GArray *array = g_array_new(FALSE, TRUE, sizeof(HwQty));

	g_array_set_clear_func(array, (GDestroyNotify)qty_clear);
	return array;
}

HwDevice *
hw_device__new(const char *name)
{
	HwDevice *device = g_new0(HwDevice, 1);

	device->name = g_strdup(name);
	/* a GPU has about 12 attributes, a NIC 11: no growth on the way */
	device->attrs = g_array_sized_new(FALSE, TRUE, sizeof(HwAttr), 16);
	g_array_set_clear_func(device->attrs, (GDestroyNotify)attr_clear);
	device->capacity = qty_array_new();
	device->consumes = g_array_new(FALSE, TRUE, sizeof(HwConsumption));
	g_array_set_clear_func(device->consumes, (GDestroyNotify)consumption_clear);
	return device;
}

void
hw_device__free(HwDevice *device)
{
	if (device == NULL) {
		return;
	}
	g_free(device->name);
	g_array_unref(device->attrs);
	g_array_unref(device->capacity);
	g_array_unref(device->consumes);
	g_free(device);
}

static void
attr_add(HwDevice *device, const char *name, HwAttrType type, const char *str, gint64 num)
{
	HwAttr attr = { hw__intern(name), type, g_strdup(str), num };

	g_array_append_val(device->attrs, attr);
}

void
hw_device__attr_string(HwDevice *device, const char *name, const char *value)
{
	attr_add(device, name, HW_ATTR_STRING, value, 0);
}

void
hw_device__attr_version(HwDevice *device, const char *name, const char *value)
{
	attr_add(device, name, HW_ATTR_VERSION, value, 0);
}

void
hw_device__attr_int(HwDevice *device, const char *name, gint64 value)
{
	attr_add(device, name, HW_ATTR_INT, NULL, value);
}

void
hw_device__attr_bool(HwDevice *device, const char *name, gboolean value)
{
	attr_add(device, name, HW_ATTR_BOOL, NULL, value ? 1 : 0);
}

void
hw_qty__append(GArray *array, const char *name, gint64 value, HwQtyFormat format)
{
	HwQty qty = { g_strdup(name), value, format };

	g_array_append_val(array, qty);
}

HwConsumption *
hw_device__consume(HwDevice *device, const char *counter_set)
{
	HwConsumption c = { g_strdup(counter_set), qty_array_new() };

	g_array_append_val(device->consumes, c);
	return &g_array_index(device->consumes, HwConsumption, device->consumes->len - 1);
}

HwCounterSet *
hw_counter_set__new(const char *name)
{
	HwCounterSet *set = g_new0(HwCounterSet, 1);

	set->name = g_strdup(name);
	set->counters = qty_array_new();
	return set;
}

void
hw_counter_set__free(HwCounterSet *set)
{
	if (set == NULL) {
		return;
	}
	g_free(set->name);
	g_array_unref(set->counters);
	g_free(set);
}

char *
hw__slice_name(const char *driver, const char *node_name, guint index)
{
	HwText text;
	g_autofree char *suffix = NULL;
	char *name;

	hw__text_init(&text);
	hw__text_add(&text, node_name);
	hw__text_add(&text, "/");
	hw__text_add(&text, driver);
	hw__text_add(&text, "/");
	hw__text_add_uint(&text, index);
	suffix = hw__name_suffix(text.str, 5);
	/* kubectl shows <node>-<driver>-<random>: the suffix is a stable hash here. */
	hw__text_clear(&text);
	hw__text_add(&text, node_name);
	hw__text_add(&text, "-");
	hw__text_add(&text, driver);
	hw__text_add(&text, "-");
	hw__text_add(&text, suffix);
	name = g_strndup(text.str, text.len);
	hw__text_clear(&text);
	return name;
}

HwSlice *
hw_slice__new(const char *driver, const char *node_name, guint index)
{
	HwSlice *slice = g_new0(HwSlice, 1);

	slice->name = hw__slice_name(driver, node_name, index);
	slice->driver = g_strdup(driver);
	slice->node_name = g_strdup(node_name);
	slice->pool = g_strdup(node_name);
	slice->generation = 1;
	slice->slice_count = 1;
	slice->counter_sets = g_ptr_array_new_with_free_func((GDestroyNotify)hw_counter_set__free);
	slice->devices = g_ptr_array_new_with_free_func((GDestroyNotify)hw_device__free);
	return slice;
}

void
hw_slice_free(HwSlice *self)
{
	if (self == NULL) {
		return;
	}
	g_free(self->name);
	g_free(self->driver);
	g_free(self->node_name);
	g_free(self->pool);
	g_ptr_array_unref(self->counter_sets);
	g_ptr_array_unref(self->devices);
	g_free(self);
}

const HwAttr *
hw_device_lookup_attr(const HwDevice *device, const char *name)
{
	for (guint i = 0; i < device->attrs->len; i++) {
		const HwAttr *attr = &g_array_index(device->attrs, HwAttr, i);

		if (strcmp(attr->name, name) == 0) {
			return attr;
		}
	}
	return NULL;
}

const HwQty *
hw_device_lookup_capacity(const HwDevice *device, const char *name)
{
	for (guint i = 0; i < device->capacity->len; i++) {
		const HwQty *qty = &g_array_index(device->capacity, HwQty, i);

		if (strcmp(qty->name, name) == 0) {
			return qty;
		}
	}
	return NULL;
}

char *
hw_qty_format(gint64 value, HwQtyFormat format)
{
	/* resource.Quantity canonical form: the largest suffix that keeps the value an
	 * exact integer (BinarySI: Ki..Ei, DecimalSI: k..E), else the plain number. */
	static const char *const binary[] = { "Ei", "Pi", "Ti", "Gi", "Mi", "Ki" };
	static const char *const decimal[] = { "E", "P", "T", "G", "M", "k" };

	if (value == 0) {
		return g_strdup("0");
	}
	for (guint i = 0; i < 6; i++) {
		guint shift = 10u * (6u - i);
		gint64 unit = format == HW_QTY_BINARY ? (gint64)1 << shift : 1;

		if (format == HW_QTY_DECIMAL) {
			for (guint k = 0; k < 3u * (6u - i); k++) {
				unit *= 10;
			}
		}
		if (value % unit == 0) {
			return g_strdup_printf("%" G_GINT64_FORMAT "%s", value / unit,
			                       format == HW_QTY_BINARY ? binary[i] : decimal[i]);
		}
	}
	return g_strdup_printf("%" G_GINT64_FORMAT, value);
}
