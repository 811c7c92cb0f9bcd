/*
 * world_classes.c: what a mode's world holds besides the manifests, in one
 * place for the run (world_run.c) and for `drasim lint` (sim/cli): the
 * DeviceClasses of the DRA world, i.e. those the NVIDIA DRA driver's chart
 * installs (hw_nvidia_device_classes()) and the KEP-5004 classes drasim adds
 * per MIG profile.
 *
 * A manifest DeviceClass of the same name wins: in a cluster, `kubectl apply`
 * of a DeviceClass the chart installed replaces the chart's object (the object
 * is one: same kind, same name), so the manifests' spec is the one in force.
 */
#include <string.h>

#include "world-inventory-private.h"
#include "world-private.h"

static gboolean
has_class(const K8sObjectSet *manifests, const char *name)
{
	return k8s_object_set_lookup(manifests, K8S_KIND_DEVICE_CLASS, NULL, name) != NULL;
}

/* The chart's classes the manifests do not define, as YAML documents. */
static void
append_chart_classes(const K8sObjectSet *manifests, GString *yaml)
{
	const HwDeviceClass *hw = hw_nvidia_device_classes();

	for (guint i = 0; hw[i].name != NULL; i++) {
		if (has_class(manifests, hw[i].name))
			continue;
		g_string_append_printf(yaml,
		                       "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
		                       "metadata: {name: %s}\nspec:\n  selectors:\n"
		                       "  - cel:\n      expression: |\n        %s\n",
		                       hw[i].name, hw[i].expression);
		if (hw[i].extended_resource_name != NULL)
			g_string_append_printf(yaml, "  extendedResourceName: %s\n",
			                       hw[i].extended_resource_name);
	}
}

/* The class mapping nvidia.com/mig-@profile, unless seen or defined by the manifests. */
static void
append_mig_class(const Scenario *sc, GHashTable *seen, const char *profile, GString *yaml)
{
	g_autofree char *cls = g_strdup_printf("mig-%s.nvidia.com", profile);

	if (g_hash_table_contains(seen, profile) || has_class(sc->objects, cls) ||
	    strchr(profile, '+') != NULL)
		return;
	g_hash_table_add(seen, (gpointer)profile);
	g_string_append_printf(yaml,
	                       "---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\n"
	                       "metadata: {name: %s}\nspec:\n  selectors:\n  - cel:\n"
	                       "      expression: |\n        device.driver == \"gpu.nvidia.com\" "
	                       "&& "
	                       "device.attributes[\"gpu.nvidia.com\"].type == \"mig\" && "
	                       "device.attributes[\"gpu.nvidia.com\"].profile == \"%s\"\n"
	                       "  extendedResourceName: nvidia.com/mig-%s\n",
	                       cls, profile, profile);
}

static void
append_model_classes(const Scenario *sc, GHashTable *seen, const HwGpuModel *model, GString *yaml)
{
	for (guint i = 0; model != NULL && model->mig != NULL && i < model->mig->profiles->len; i++)
		append_mig_class(sc, seen,
		                 ((const HwMigProfile *)model->mig->profiles->pdata[i])->name,
		                 yaml);
}

/* The imported cluster's NVIDIA GPUs: GFD's product label of its Nodes, the
 * productName (and a MIG device's profile) of its gpu.nvidia.com devices. */
static void
append_inventory_mig_classes(const Scenario *sc, GHashTable *seen, GString *yaml)
{
	const K8sObjectSet *inv = sc->inventory;

	for (guint i = 0; inv != NULL && i < k8s_object_set_count_kind(inv, K8S_KIND_NODE); i++) {
		const K8sNode *node = k8s_object_as_node(
		        (K8sObject *)k8s_object_set_get_kind(inv, K8S_KIND_NODE, i));

		append_model_classes(
		        sc, seen,
		        world_inv__gpu_model(sc->catalog,
		                             world_inv__node_label(node, "nvidia.com/gpu.product")),
		        yaml);
	}
	for (guint i = 0;
	     inv != NULL && i < k8s_object_set_count_kind(inv, K8S_KIND_RESOURCE_SLICE); i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(inv, K8S_KIND_RESOURCE_SLICE, i));

		for (guint k = 0;
		     g_strcmp0(s->spec.driver, "gpu.nvidia.com") == 0 && k < s->spec.n_devices;
		     k++) {
			const K8sDevice *dev = &s->spec.devices[k];
			const char *profile = world_inv__attr(dev, "gpu.nvidia.com", "profile");

			append_model_classes(
			        sc, seen,
			        world_inv__gpu_model(
			                sc->catalog,
			                world_inv__attr(dev, "gpu.nvidia.com", "productName")),
			        yaml);
			if (profile != NULL &&
			    g_strcmp0(world_inv__attr(dev, "gpu.nvidia.com", "type"), "mig") == 0)
				append_mig_class(sc, seen, profile, yaml);
		}
	}
}

/*
 * KEP-5004 for MIG: one class per profile of the cluster's NVIDIA GPUs (the
 * pools' shapes, then an imported cluster's), mapping the device plugin's
 * nvidia.com/mig-<profile>, so pods written for the mixed strategy run unchanged
 * in the DRA world. NVIDIA's chart installs no such classes; drasim adds them as
 * an operator would (named mig-<profile>.nvidia.com).
 */
static void
append_mig_classes(const Scenario *sc, GString *yaml)
{
	/* @seen only filters repeats; the order comes from the pools, then the objects. */
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);

	for (guint p = 0; p < sc->pools->len; p++) {
		const ScenarioPool *pool = &g_array_index(sc->pools, ScenarioPool, p);
		const HwNodeShape *shape = hw_catalog_lookup_shape(sc->catalog, pool->shape);

		append_model_classes(sc, seen, shape ? shape->gpu_model : NULL, yaml);
	}
	append_inventory_mig_classes(sc, seen, yaml);
}

static void
load_classes(const GString *yaml, K8sObjectSet *set, K8sDiagList *diags)
{
	if (yaml->len > 0)
		k8s_load_data(SCENARIO_CLASSES_FILE, yaml->str, yaml->len, K8S_LOAD_DEFAULT, set,
		              diags);
}

void
scenario_chart_classes_load(const K8sObjectSet *manifests, K8sObjectSet *set, K8sDiagList *diags)
{
	g_autoptr(GString) yaml = g_string_new(NULL);

	append_chart_classes(manifests, yaml);
	load_classes(yaml, set, diags);
}

/*
 * The DeviceClasses of spec.cluster.objects join the manifests' (docs/import.md):
 * a class the manifests define wins, and an imported class replaces the chart's
 * of its name (the cluster's object is the one in force). They were checked at
 * their own file:line:col when the scenario was loaded.
 */
static void
append_inventory_classes(const Scenario *sc, GString *yaml)
{
	const K8sObjectSet *inv = sc->inventory;

	for (guint i = 0; inv != NULL && i < k8s_object_set_count_kind(inv, K8S_KIND_DEVICE_CLASS);
	     i++) {
		const K8sObject *obj = k8s_object_set_get_kind(inv, K8S_KIND_DEVICE_CLASS, i);

		if (has_class(sc->objects, obj->metadata.name))
			continue;
		g_string_append(yaml, "---\n");
		k8s_object_encode(obj, yaml);
	}
}

/* The chart's classes neither the manifests nor the inventory define. */
static void
append_chart_classes_of(const Scenario *sc, GString *yaml)
{
	g_autoptr(GString) chart = g_string_new(NULL);
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) quiet = k8s_diag_list_new();

	append_chart_classes(sc->objects, chart);
	if (sc->inventory == NULL ||
	    k8s_object_set_count_kind(sc->inventory, K8S_KIND_DEVICE_CLASS) == 0) {
		g_string_append_len(yaml, chart->str, (gssize)chart->len);
		return;
	}
	load_classes(chart, set, quiet);
	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_DEVICE_CLASS); i++) {
		const K8sObject *obj = k8s_object_set_get_kind(set, K8S_KIND_DEVICE_CLASS, i);

		if (has_class(sc->inventory, obj->metadata.name))
			continue;
		g_string_append(yaml, "---\n");
		k8s_object_encode(obj, yaml);
	}
}

void
scenario_dra_classes_load(const Scenario *sc, K8sObjectSet *set, K8sDiagList *diags)
{
	g_autoptr(GString) yaml = g_string_new(NULL);

	append_chart_classes_of(sc, yaml);
	append_inventory_classes(sc, yaml);
	append_mig_classes(sc, yaml);
	load_classes(yaml, set, diags);
}
