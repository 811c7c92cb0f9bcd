/*
 * hw_lint_objects.c: the lint target's devices taken from ResourceSlice
 * objects a cluster published (a scenario's spec.cluster.objects, after its
 * mode's what-ifs), so `drasim lint SCENARIO` checks selectors against an
 * imported cluster as it checks them against catalog nodes. The slices are
 * converted to the HwSlice form the checks read; what lint does not read
 * (taints, node selection, binding conditions) is not carried.
 */
#include "hw-private.h"
#include "hw_api.h"

static gint64
qty_int64(const K8sQty *q)
{
	gint64 v = 0;

	/* an invalid or fractional quantity was reported when the slice decoded;
	 * lint compares names and literal values, so 0 stands in for it */
	if (q->valid && !k8s_quantity_as_int64(&q->value, &v))
		v = 0;
	return v;
}

static void
add_attr(HwDevice *device, const K8sDeviceAttribute *a)
{
	switch (a->type) {
	case K8S_ATTR_INT:
		hw_device__attr_int(device, a->name, a->int_value);
		break;
	case K8S_ATTR_BOOL:
		hw_device__attr_bool(device, a->name, a->bool_value);
		break;
	case K8S_ATTR_STRING:
		hw_device__attr_string(device, a->name, a->string_value);
		break;
	case K8S_ATTR_VERSION:
		hw_device__attr_version(device, a->name, a->string_value);
		break;
	case K8S_ATTR_NONE:
		break; /* no value: validation reported it */
	}
}

static HwDevice *
convert_device(const K8sDevice *d)
{
	HwDevice *device = hw_device__new(d->name);

	for (guint i = 0; i < d->n_attributes; i++)
		add_attr(device, &d->attributes[i]);
	for (guint i = 0; i < d->n_capacity; i++)
		hw_qty__append(device->capacity, d->capacity[i].name,
		               qty_int64(&d->capacity[i].value), HW_QTY_DECIMAL);
	for (guint i = 0; i < d->n_consumes_counters; i++) {
		const K8sDeviceCounterConsumption *c = &d->consumes_counters[i];
		HwConsumption *out = hw_device__consume(device, c->counter_set);

		for (guint k = 0; k < c->n_counters; k++)
			hw_qty__append(out->counters, c->counters[k].name,
			               qty_int64(&c->counters[k].value), HW_QTY_DECIMAL);
	}
	return device;
}

static HwSlice *
convert_slice(const K8sResourceSlice *rs, guint index)
{
	const K8sResourceSliceSpec *spec = &rs->spec;
	HwSlice *slice = hw_slice__new(spec->driver != NULL ? spec->driver : "",
	                               spec->node_name != NULL ? spec->node_name : "", index);

	for (guint i = 0; i < spec->n_devices; i++)
		g_ptr_array_add(slice->devices, convert_device(&spec->devices[i]));
	for (guint i = 0; i < spec->n_shared_counters; i++) {
		const K8sCounterSet *cs = &spec->shared_counters[i];
		HwCounterSet *set = hw_counter_set__new(cs->name);

		for (guint k = 0; k < cs->n_counters; k++)
			hw_qty__append(set->counters, cs->counters[k].name,
			               qty_int64(&cs->counters[k].value), HW_QTY_DECIMAL);
		g_ptr_array_add(slice->counter_sets, set);
	}
	return slice;
}

void
hw_lint_target_add_objects(HwLintTarget *self, const K8sObjectSet *set)
{
	guint n = k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE);

	for (guint i = 0; i < n; i++) {
		K8sObject *obj = k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_SLICE, i);
		const K8sResourceSlice *rs = k8s_object_as_resource_slice(obj);

		if (rs != NULL && rs->spec.driver != NULL)
			hw_lint_target_add_slice(self, convert_slice(rs, i));
	}
}
