/*
 * lint_classes.c: the DeviceClasses `drasim lint` knows once a driver is implied
 * (--shape, --cluster or a scenario): those the NVIDIA DRA driver's Helm chart
 * installs, from the one list hw_nvidia_device_classes() that `drasim publish`
 * and the DRA world of a run read too (scenario_chart_classes_load()).
 *
 * A manifest DeviceClass with a chart class's name is the same object in a
 * cluster (one object per kind and name): `kubectl apply` replaces the chart's
 * spec with the manifest's, and a later `helm upgrade` puts the chart's back.
 * drasim uses the manifest's, as the run does, and warns when the specs differ.
 */
#include <string.h>

#include "hw.h"
#include "lint.h"
#include "world.h"

/* TRUE when @klass says what the chart's @hw says: one selector, same expression. */
static gboolean
same_as_chart(const K8sDeviceClass *klass, const HwDeviceClass *hw)
{
	const K8sDeviceClassSpec *spec = &klass->spec;
	g_autofree char *expression = NULL;

	if (spec->n_selectors != 1 || spec->selectors[0].cel_expression == NULL ||
	    spec->n_config != 0 ||
	    g_strcmp0(spec->extended_resource_name, hw->extended_resource_name) != 0)
		return FALSE;
	expression = g_strstrip(g_strdup(spec->selectors[0].cel_expression));
	return strcmp(expression, hw->expression) == 0;
}

void
lint_classes_check_overrides(const K8sObjectSet *set, K8sDiagList *diags)
{
	const HwDeviceClass *hw = hw_nvidia_device_classes();

	for (guint i = 0; hw[i].name != NULL; i++) {
		K8sObject *obj =
		        k8s_object_set_lookup(set, K8S_KIND_DEVICE_CLASS, NULL, hw[i].name);

		if (obj == NULL || same_as_chart(k8s_object_as_device_class(obj), &hw[i]))
			continue;
		k8s_diag_list_warning(
		        diags, &obj->metadata.name_pos, "metadata.name",
		        "DeviceClass %s is also installed by the NVIDIA DRA driver's Helm chart "
		        "(%s: selector %s%s%s) with another spec; a cluster has one object of that "
		        "name, so applying this one replaces the chart's (until the next helm "
		        "upgrade puts it back); drasim uses this one",
		        hw[i].name, hw[i].chart_template, hw[i].expression,
		        hw[i].extended_resource_name != NULL ? ", extendedResourceName " : "",
		        hw[i].extended_resource_name != NULL ? hw[i].extended_resource_name : "");
	}
}

guint
lint_classes_add_chart(K8sObjectSet *set, K8sDiagList *diags)
{
	guint before = k8s_object_set_count_kind(set, K8S_KIND_DEVICE_CLASS);

	lint_classes_check_overrides(set, diags);
	scenario_chart_classes_load(set, set, diags);
	return k8s_object_set_count_kind(set, K8S_KIND_DEVICE_CLASS) - before;
}

void
lint_classes_print_hints(const K8sDiagList *diags, FILE *out)
{
	const HwDeviceClass *hw = hw_nvidia_device_classes();

	for (guint i = 0; hw[i].name != NULL; i++) {
		g_autofree char *needle =
		        g_strdup_printf("could not retrieve device class %s:", hw[i].name);

		if (k8s_diag_list_find(diags, needle) != NULL)
			fprintf(out,
			        "drasim lint: note: the NVIDIA DRA driver's Helm chart installs "
			        "DeviceClass %s (%s); lint knows the chart's classes with --shape, "
			        "--cluster or a scenario file\n",
			        hw[i].name, hw[i].chart_template);
	}
}

void
lint_classes_append_user(K8sDiagList *diags, const K8sDiagList *found)
{
	for (guint i = 0; i < k8s_diag_list_count(found); i++) {
		const K8sDiag *d = k8s_diag_list_get(found, i);

		/* the chart's own objects (a vfio class selects nothing here) are not the
		 * user's to fix */
		if (g_strcmp0(d->pos.file, SCENARIO_CLASSES_FILE) != 0)
			k8s_diag_list_add(diags, d->severity, &d->pos, d->path, "%s", d->message);
	}
}
