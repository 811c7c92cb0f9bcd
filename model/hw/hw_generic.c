/*
 * hw_generic.c: drivers drasim has no dedicated model for (FPGAs, custom
 * accelerators, SR-IOV virtual functions). A scenario declares the devices' names,
 * attributes and capacities and drasim publishes them as the driver would: one
 * ResourceSlice per node, pool = node name.
 *
 *   driver: fpga.example.com
 *   devices:
 *     - count: 4
 *       name: "fpga-{index}"
 *       attributes: { model: {string: u250}, index: {int: "{index}"} }
 *       capacity: { memory: 64Gi }
 *
 * "{index}" in a name or value is replaced by the device's index within its group.
 */
#include <errno.h>
#include <string.h>

#include "hw-private.h"

typedef struct {
	guint count;
	char *name;
	GArray *attrs;    /* HwAttr templates (str holds the text, "{index}" unexpanded) */
	GArray *capacity; /* HwQty */
} GenericGroup;

struct HwGenericDriver {
	char *driver;
	GPtrArray *groups; /* GenericGroup* */
};

static void
group_free(GenericGroup *g)
{
	g_free(g->name);
	for (guint i = 0; i < g->attrs->len; i++) {
		g_free(g_array_index(g->attrs, HwAttr, i).str);
	}
	g_array_unref(g->attrs);
	for (guint i = 0; i < g->capacity->len; i++) {
		g_free(g_array_index(g->capacity, HwQty, i).name);
	}
	g_array_unref(g->capacity);
	g_free(g);
}

void
hw_generic_driver_free(HwGenericDriver *self)
{
	if (self == NULL) {
		return;
	}
	g_free(self->driver);
	g_ptr_array_unref(self->groups);
	g_free(self);
}

/* A resource.Quantity limited to integers with an optional SI or binary suffix. */
static gboolean
parse_quantity(const char *text, gint64 *value_out, HwQtyFormat *format_out)
{
	static const struct {
		const char *suffix;
		int base, exp;
	} suffixes[] = { { "Ki", 2, 10 }, { "Mi", 2, 20 }, { "Gi", 2, 30 }, { "Ti", 2, 40 },
		         { "Pi", 2, 50 }, { "Ei", 2, 60 }, { "k", 10, 3 },  { "M", 10, 6 },
		         { "G", 10, 9 },  { "T", 10, 12 }, { "P", 10, 15 }, { "E", 10, 18 } };
	char *end = NULL;
	gint64 value;

	errno = 0;
	value = g_ascii_strtoll(text, &end, 10);
	if (end == text || value < 0 || errno == ERANGE) { /* beyond int64: not saturated */
		return FALSE;
	}
	*format_out = HW_QTY_DECIMAL;
	*value_out = value;
	if (*end == '\0') {
		return TRUE;
	}
	for (guint i = 0; i < G_N_ELEMENTS(suffixes); i++) {
		if (strcmp(end, suffixes[i].suffix) == 0) {
			for (int k = 0; k < suffixes[i].exp; k++) {
				if (value > G_MAXINT64 / suffixes[i].base) {
					return FALSE;
				}
				value *= suffixes[i].base;
			}
			*value_out = value;
			*format_out = suffixes[i].base == 2 ? HW_QTY_BINARY : HW_QTY_DECIMAL;
			return TRUE;
		}
	}
	return FALSE;
}

static gboolean
parse_attr(HwReader *r,
           const K8sYamlNode *key,
           const K8sYamlNode *value,
           const char *path,
           GArray *attrs)
{
	static const char *const kinds[] = { "string", "int", "bool", "version", NULL };
	const char *name = (const char *)key->scalar.text;
	g_autofree char *sub = g_strdup_printf("%s.%s", path, name);
	HwAttr attr = { 0 };
	const K8sYamlPair *pair;
	const char *kind, *text;

	if (!hw_reader__mapping(r, value, sub, kinds)) {
		return FALSE;
	}
	if (value->map.n != 1) {
		return hw_reader__fail(r, value, sub,
		                       "expected exactly one of string, int, bool, version");
	}
	pair = value->map.pairs;
	kind = (const char *)pair->key->scalar.text;
	text = hw_reader__scalar(r, pair->value, sub);
	if (text == NULL) {
		return FALSE;
	}
	attr.type = strcmp(kind, "string") == 0 ? HW_ATTR_STRING
	            : strcmp(kind, "int") == 0  ? HW_ATTR_INT
	            : strcmp(kind, "bool") == 0 ? HW_ATTR_BOOL
	                                        : HW_ATTR_VERSION;
	if (attr.type == HW_ATTR_BOOL && strcmp(text, "true") != 0 && strcmp(text, "false") != 0) {
		return hw_reader__fail(r, pair->value, sub, "expected true or false, got \"%s\"",
		                       text);
	}
	if (attr.type == HW_ATTR_INT && strcmp(text, "{index}") != 0 &&
	    !g_ascii_string_to_signed(text, 10, G_MININT64, G_MAXINT64, NULL, NULL)) {
		return hw_reader__fail(r, pair->value, sub,
		                       "expected an integer or \"{index}\", got \"%s\"", text);
	}
	attr.name = g_intern_string(name);
	attr.str = g_strdup(text);
	g_array_append_val(attrs, attr);
	return TRUE;
}

static gboolean
parse_group(HwReader *r, const K8sYamlNode *node, const char *path, GenericGroup *g)
{
	static const char *const keys[] = { "count", "name", "attributes", "capacity", NULL };
	const K8sYamlNode *attrs, *capacity;
	guint64 count = 0;

	if (!hw_reader__mapping(r, node, path, keys) ||
	    !hw_reader__uint(r, node, "count", path, TRUE, 128, &count) ||
	    !hw_reader__str(r, node, "name", path, TRUE, &g->name)) {
		return FALSE;
	}
	g->count = (guint)count;
	if (count > 1 && strstr(g->name, "{index}") == NULL) {
		return hw_reader__fail_key(r, node, "name", path,
		                           "%u devices need \"{index}\" in the name to be distinct",
		                           g->count);
	}
	attrs = hw_reader__get(r, node, "attributes");
	g_autofree char *apath = g_strdup_printf("%s.attributes", path);
	if (attrs != NULL) {
		if (!hw_reader__mapping(r, attrs, apath, NULL)) {
			return FALSE;
		}
		for (const K8sYamlPair *p = attrs->map.pairs; p < attrs->map.pairs + attrs->map.n;
		     p++) {
			if (!parse_attr(r, p->key, p->value, apath, g->attrs)) {
				return FALSE;
			}
		}
	}
	capacity = hw_reader__get(r, node, "capacity");
	g_autofree char *cpath = g_strdup_printf("%s.capacity", path);
	if (capacity != NULL) {
		if (!hw_reader__mapping(r, capacity, cpath, NULL)) {
			return FALSE;
		}
		for (const K8sYamlPair *p = capacity->map.pairs;
		     p < capacity->map.pairs + capacity->map.n; p++) {
			const char *name = (const char *)p->key->scalar.text;
			g_autofree char *sub = g_strdup_printf("%s.%s", cpath, name);
			const char *text = hw_reader__scalar(r, p->value, sub);
			HwQty qty = { 0 };

			if (text == NULL) {
				return FALSE;
			}
			if (!parse_quantity(text, &qty.value, &qty.format)) {
				return hw_reader__fail(
				        r, p->value, sub,
				        "expected a non-negative quantity such as 16 "
				        "or 64Gi, got \"%s\"",
				        text);
			}
			qty.name = g_strdup(name);
			g_array_append_val(g->capacity, qty);
		}
	}
	return TRUE;
}

HwGenericDriver *
hw_generic_driver_parse(const char *filename, const char *data, gsize len, GError **error)
{
	static const char *const keys[] = { "driver", "devices", NULL };
	g_autoptr(HwGenericDriver) self = g_new0(HwGenericDriver, 1);
	HwReader r;
	const K8sYamlNode *root, *devices;
	guint index = 0;
	gboolean ok;

	self->groups = g_ptr_array_new_with_free_func((GDestroyNotify)group_free);
	root = hw_reader__load(&r, filename, data, len, error);
	if (root == NULL) {
		hw_reader__clear(&r);
		return NULL;
	}
	ok = hw_reader__mapping(&r, root, "<document>", keys) &&
	     hw_reader__str(&r, root, "driver", "<document>", TRUE, &self->driver);
	devices = ok ? hw_reader__get(&r, root, "devices") : NULL;
	if (ok && (devices == NULL || devices->kind != K8S_YAML_SEQUENCE)) {
		ok = hw_reader__fail(&r, devices ? devices : root, "devices", "expected a list");
	}
	for (guint i = 0; ok && i < devices->seq.n; i++) {
		GenericGroup *g = g_new0(GenericGroup, 1);
		g_autofree char *path = g_strdup_printf("devices[%u]", index++);

		g->attrs = g_array_new(FALSE, TRUE, sizeof(HwAttr));
		g->capacity = g_array_new(FALSE, TRUE, sizeof(HwQty));
		g_ptr_array_add(self->groups, g);
		ok = parse_group(&r, devices->seq.items[i], path, g);
	}
	hw_reader__clear(&r);
	return ok ? g_steal_pointer(&self) : NULL;
}

static char *
expand(const char *text, guint index)
{
	g_autofree char *number = g_strdup_printf("%u", index);
	g_auto(GStrv) parts = g_strsplit(text, "{index}", -1);

	return g_strjoinv(number, parts);
}

HwSlice *
hw_generic_driver_publish(const HwGenericDriver *self, const char *node_name)
{
	HwSlice *slice = hw_slice__new(self->driver, node_name, 0);

	for (guint gi = 0; gi < self->groups->len; gi++) {
		const GenericGroup *g = g_ptr_array_index(self->groups, gi);

		for (guint i = 0; i < g->count; i++) {
			g_autofree char *name = expand(g->name, i);
			HwDevice *device = hw_device__new(name);

			for (guint a = 0; a < g->attrs->len; a++) {
				const HwAttr *t = &g_array_index(g->attrs, HwAttr, a);
				g_autofree char *value = expand(t->str, i);

				switch (t->type) {
				case HW_ATTR_STRING:
					hw_device__attr_string(device, t->name, value);
					break;
				case HW_ATTR_VERSION:
					hw_device__attr_version(device, t->name, value);
					break;
				case HW_ATTR_INT:
					hw_device__attr_int(device, t->name,
					                    g_ascii_strtoll(value, NULL, 10));
					break;
				case HW_ATTR_BOOL:
					hw_device__attr_bool(device, t->name,
					                     strcmp(value, "true") == 0);
					break;
				}
			}
			for (guint c = 0; c < g->capacity->len; c++) {
				const HwQty *q = &g_array_index(g->capacity, HwQty, c);
				hw_qty__append(device->capacity, q->name, q->value, q->format);
			}
			g_ptr_array_add(slice->devices, device);
		}
	}
	return slice;
}
