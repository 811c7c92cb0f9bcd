/*
 * world_xlate_map.c: the table both translations read (world-xlate.h). The
 * device plugin's resource names are k8s-device-plugin's (nvidia.com/gpu, the
 * mixed MIG strategy's nvidia.com/mig-<profile>); the classes and attributes
 * are the NVIDIA DRA driver's (gpu.nvidia.com and mig.nvidia.com, attributes
 * productName and profile, nvidia-hw.md); the label is GPU Feature
 * Discovery's nvidia.com/gpu.product, whose value is the product name with
 * spaces written as '-' (GFD's lm/nvml.go sanitises label values).
 */
#include <string.h>

#include "world-xlate.h"

static const WorldXlateResource resources[] = {
	{ "nvidia.com/gpu", "gpu.nvidia.com", NULL },
	{ "nvidia.com/mig-", "mig.nvidia.com", "profile" },
};

static const WorldXlateLabel labels[] = {
	{ "nvidia.com/gpu.product", "productName", TRUE },
};

const WorldXlateResource *
world_xlate_resource_for_name(const char *resource, const char **rest)
{
	for (guint i = 0; i < G_N_ELEMENTS(resources); i++) {
		const WorldXlateResource *r = &resources[i];

		if (r->attribute == NULL && strcmp(resource, r->resource) == 0) {
			*rest = NULL;
			return r;
		}
		if (r->attribute != NULL && g_str_has_prefix(resource, r->resource) &&
		    resource[strlen(r->resource)] != '\0') {
			*rest = resource + strlen(r->resource);
			return r;
		}
	}
	return NULL;
}

const WorldXlateResource *
world_xlate_whole_gpu(void)
{
	return &resources[0];
}

const WorldXlateResource *
world_xlate_resource_for_attribute(const char *attribute)
{
	for (guint i = 0; i < G_N_ELEMENTS(resources); i++) {
		if (g_strcmp0(resources[i].attribute, attribute) == 0)
			return &resources[i];
	}
	return NULL;
}

const WorldXlateLabel *
world_xlate_label_for_key(const char *label)
{
	for (guint i = 0; i < G_N_ELEMENTS(labels); i++) {
		if (strcmp(labels[i].label, label) == 0)
			return &labels[i];
	}
	return NULL;
}

const WorldXlateLabel *
world_xlate_label_nth(guint index)
{
	return index < G_N_ELEMENTS(labels) ? &labels[index] : NULL;
}

char *
world_xlate_label_value(const WorldXlateLabel *row, const char *value)
{
	char *text = g_strdup(value);

	if (row->spaces_as_dashes)
		g_strdelimit(text, " ", '-');
	return text;
}

char *
world_xlate_equality_literal(const char *expr, const char *attribute)
{
	g_autofree char *pattern =
	        g_strdup_printf("\\]\\s*\\.\\s*%s\\s*==\\s*[\"']([^\"']*)[\"']", attribute);
	g_autoptr(GRegex) re = g_regex_new(pattern, 0, 0, NULL);
	g_autoptr(GMatchInfo) m = NULL;

	if (re == NULL || !g_regex_match(re, expr, 0, &m))
		return NULL;
	return g_match_info_fetch(m, 1);
}
