/*
 * hw_api_build.c: published hardware as model/api objects, built field by field in
 * the object set's memory: a Node from an HwNodeObject, a chart's DeviceClasses, a
 * ResourceSlice from an HwSlice.
 *
 * Each field holds what api's decoder made of the published `kubectl get -o yaml`
 * text when publishing still went through it (tests/unit/hw/test_api.c decodes the
 * printed text and compares): attributes, capacities and counters in name order,
 * quantities in canonical form, v1 objects numbered as the items of one List.
 * Objects have no text, so their positions name the published "file" at line 0.
 */
#include <stdlib.h>
#include <string.h>

#include "hw-private.h"

static const char *
intern(HwApiBuild *b, const char *text)
{
	return k8s_object_set_intern(b->set, text);
}

/*
 * A new object, item b->index of the published List. Its name may be in the set
 * already: republishing a node after a MIG change publishes the same objects again,
 * which the API server takes as an update of the same ResourceSlice (a higher pool
 * generation), not as a second object, so it is no error here.
 */
static K8sObject *
add_object(HwApiBuild *b, K8sKind kind, const char *name)
{
	K8sPos pos = { b->file, 0, 0 };
	char prefix[32];
	K8sObject *obj = k8s_object_set_add_built(b->set, kind, name, pos);

	g_snprintf(prefix, sizeof(prefix), "items[%u].", b->index++);
	obj->path_prefix = intern(b, prefix);
	return obj;
}

static gpointer
alloc_items(HwApiBuild *b, gsize size, guint n)
{
	return n == 0 ? NULL : k8s_object_set_alloc(b->set, size * n);
}

/* A quantity drasim computed: always valid, canonical text. */
static void
qty_from_value(HwApiBuild *b, gint64 value, HwQtyFormat format, K8sQty *out)
{
	g_autofree char *text = hw_qty_format(value, format);

	/* "0" reads as DecimalSI whatever it counts, as k8s_quantity_parse() says */
	out->text = intern(b, text);
	out->value = k8s_quantity_from_int64(value, format == HW_QTY_BINARY && value != 0
	                                                    ? K8S_QUANTITY_BINARY_SI
	                                                    : K8S_QUANTITY_DECIMAL_SI);
	out->valid = TRUE;
}

/* A quantity given as text (a Node's resources): invalid text fails the build. */
static void
qty_from_text(HwApiBuild *b, const char *text, K8sQty *out)
{
	out->text = intern(b, text);
	out->valid = k8s_quantity_parse_json(text, -1, &out->value, NULL);
	b->failed |= !out->valid;
}

static void
string_map(HwApiBuild *b, const GPtrArray *keys, const GPtrArray *values, K8sStringMap *out)
{
	out->n = keys->len;
	out->items = alloc_items(b, sizeof(K8sStringPair), keys->len);
	for (guint i = 0; i < keys->len; i++) {
		out->items[i].key = intern(b, g_ptr_array_index(keys, i));
		out->items[i].value = intern(b, g_ptr_array_index(values, i));
	}
}

static void
qty_map(HwApiBuild *b, const GPtrArray *keys, const GPtrArray *values, K8sQtyMap *out)
{
	out->n = keys->len;
	out->items = alloc_items(b, sizeof(K8sQtyPair), keys->len);
	for (guint i = 0; i < keys->len; i++) {
		out->items[i].key = intern(b, g_ptr_array_index(keys, i));
		qty_from_text(b, g_ptr_array_index(values, i), &out->items[i].value);
	}
}

void
hw_api__build_node(HwApiBuild *b, const HwNodeObject *node)
{
	K8sNode *k = k8s_object_as_node(add_object(b, K8S_KIND_NODE, node->name));

	/* the object keeps HwNodeObject's name order, the order of the text it replaced */
	string_map(b, node->label_keys, node->label_values, &k->obj.metadata.labels);
	qty_map(b, node->resource_names, node->resource_values, &k->allocatable);
	qty_map(b, node->resource_names, node->resource_values, &k->capacity);
}

void
hw_api__build_class(HwApiBuild *b, const HwDeviceClass *class_)
{
	K8sDeviceClass *k =
	        k8s_object_as_device_class(add_object(b, K8S_KIND_DEVICE_CLASS, class_->name));
	K8sDeviceSelector *selector = alloc_items(b, sizeof(K8sDeviceSelector), 1);

	selector->cel_expression = intern(b, class_->expression);
	selector->expression_style = K8S_YAML_STYLE_PLAIN;
	k->spec.selectors = selector;
	k->spec.n_selectors = 1;
	k->spec.extended_resource_name = intern(b, class_->extended_resource_name);
}

static int
compare_counters(gconstpointer a, gconstpointer b)
{
	return strcmp(((const K8sCounter *)a)->name, ((const K8sCounter *)b)->name);
}

static int
compare_capacity(gconstpointer a, gconstpointer b)
{
	return strcmp(((const K8sDeviceCapacity *)a)->name, ((const K8sDeviceCapacity *)b)->name);
}

static int
compare_attributes(gconstpointer a, gconstpointer b)
{
	return strcmp(((const K8sDeviceAttribute *)a)->name, ((const K8sDeviceAttribute *)b)->name);
}

/* Counters (GArray of HwQty) by name. */
static K8sCounter *
counters(HwApiBuild *b, const GArray *qtys, guint *n_out)
{
	K8sCounter *out = alloc_items(b, sizeof(K8sCounter), qtys->len);

	for (guint i = 0; i < qtys->len; i++) {
		const HwQty *q = &g_array_index(qtys, HwQty, i);

		out[i].name = intern(b, q->name);
		qty_from_value(b, q->value, q->format, &out[i].value);
	}
	if (qtys->len > 1) {
		qsort(out, qtys->len, sizeof(K8sCounter), compare_counters);
	}
	*n_out = qtys->len;
	return out;
}

static void
attribute(HwApiBuild *b, const HwAttr *attr, K8sDeviceAttribute *out)
{
	static const K8sAttrType types[] = {
		[HW_ATTR_STRING] = K8S_ATTR_STRING,
		[HW_ATTR_INT] = K8S_ATTR_INT,
		[HW_ATTR_BOOL] = K8S_ATTR_BOOL,
		[HW_ATTR_VERSION] = K8S_ATTR_VERSION,
	};

	out->name = intern(b, attr->name);
	out->type = types[attr->type];
	out->n_values = 1;
	if (attr->type == HW_ATTR_INT) {
		out->int_value = attr->num;
	} else if (attr->type == HW_ATTR_BOOL) {
		out->bool_value = attr->num != 0;
	} else {
		out->string_value = intern(b, attr->str);
	}
}

static void
device(HwApiBuild *b, const HwDevice *d, K8sDevice *out)
{
	out->name = intern(b, d->name);
	out->n_attributes = d->attrs->len;
	out->attributes = alloc_items(b, sizeof(K8sDeviceAttribute), d->attrs->len);
	for (guint i = 0; i < d->attrs->len; i++) {
		attribute(b, &g_array_index(d->attrs, HwAttr, i), &out->attributes[i]);
	}
	if (out->n_attributes > 1) {
		qsort(out->attributes, out->n_attributes, sizeof(K8sDeviceAttribute),
		      compare_attributes);
	}
	out->n_capacity = d->capacity->len;
	out->capacity = alloc_items(b, sizeof(K8sDeviceCapacity), d->capacity->len);
	for (guint i = 0; i < d->capacity->len; i++) {
		const HwQty *q = &g_array_index(d->capacity, HwQty, i);

		out->capacity[i].name = intern(b, q->name);
		qty_from_value(b, q->value, q->format, &out->capacity[i].value);
	}
	if (out->n_capacity > 1) {
		qsort(out->capacity, out->n_capacity, sizeof(K8sDeviceCapacity), compare_capacity);
	}
	out->n_consumes_counters = d->consumes->len;
	out->consumes_counters =
	        alloc_items(b, sizeof(K8sDeviceCounterConsumption), d->consumes->len);
	for (guint i = 0; i < d->consumes->len; i++) {
		const HwConsumption *c = &g_array_index(d->consumes, HwConsumption, i);
		K8sDeviceCounterConsumption *k = &out->consumes_counters[i];

		k->counter_set = intern(b, c->counter_set);
		k->counters = counters(b, c->counters, &k->n_counters);
	}
}

void
hw_api__build_slice(HwApiBuild *b, const HwSlice *slice)
{
	K8sResourceSlice *k =
	        k8s_object_as_resource_slice(add_object(b, K8S_KIND_RESOURCE_SLICE, slice->name));
	K8sResourceSliceSpec *spec = &k->spec;

	spec->driver = intern(b, slice->driver);
	spec->node_name = intern(b, slice->node_name);
	spec->pool.name = intern(b, slice->pool);
	spec->pool.has_generation = TRUE;
	spec->pool.generation = slice->generation;
	spec->pool.has_resource_slice_count = TRUE;
	spec->pool.resource_slice_count = slice->slice_count;
	spec->n_devices = slice->devices->len;
	spec->devices = alloc_items(b, sizeof(K8sDevice), slice->devices->len);
	for (guint i = 0; i < slice->devices->len; i++) {
		device(b, g_ptr_array_index(slice->devices, i), &spec->devices[i]);
	}
	spec->n_shared_counters = slice->counter_sets->len;
	spec->shared_counters = alloc_items(b, sizeof(K8sCounterSet), slice->counter_sets->len);
	for (guint i = 0; i < slice->counter_sets->len; i++) {
		const HwCounterSet *set = g_ptr_array_index(slice->counter_sets, i);
		K8sCounterSet *k_set = &spec->shared_counters[i];

		k_set->name = intern(b, set->name);
		k_set->counters = counters(b, set->counters, &k_set->n_counters);
	}
}
