/*
 * xr_view.c: the device plugin's advertised resources for a node
 * (NVIDIA/k8s-device-plugin v0.20: internal/rm and internal/lm/mig-strategy.go).
 *
 * none: each GPU is one nvidia.com/gpu, MIG or not. single: the MIG devices are
 * nvidia.com/gpu, provided every GPU has MIG on with devices of one single profile;
 * otherwise the node is invalid and advertises nothing. mixed: nvidia.com/mig-<profile>
 * per profile, nvidia.com/gpu for MIG-off GPUs, MIG-on GPUs without devices ignored.
 * Time-slicing and MPS multiply each count by `replicas`, renamed to <name>.shared
 * with renameByDefault.
 */
#include <string.h>

#include "xr-private.h"

G_DEFINE_QUARK(xr - error - quark, xr_error)

void
xr_config_init(XrConfig *out)
{
	*out = (XrConfig){ XR_MIG_NONE, XR_SHARING_NONE, 1, FALSE, FALSE };
}

gboolean
xr_mig_strategy_parse(const char *text, XrMigStrategy *out)
{
	static const char *const names[] = { "none", "single", "mixed" };

	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		if (g_strcmp0(text, names[i]) == 0) {
			*out = (XrMigStrategy)i;
			return TRUE;
		}
	}
	return FALSE;
}

const char *
xr_mig_strategy_to_string(XrMigStrategy strategy)
{
	switch (strategy) {
	case XR_MIG_NONE:
		return "none";
	case XR_MIG_SINGLE:
		return "single";
	case XR_MIG_MIXED:
		return "mixed";
	}
	return "none";
}

gboolean
xr_sharing_parse(const char *text, XrSharing *out)
{
	if (g_strcmp0(text, "none") == 0) {
		*out = XR_SHARING_NONE;
	} else if (g_strcmp0(text, "time-slicing") == 0) {
		*out = XR_SHARING_TIME_SLICING;
	} else if (g_strcmp0(text, "mps") == 0) {
		*out = XR_SHARING_MPS;
	} else {
		return FALSE;
	}
	return TRUE;
}

static void
resource_free(XrResource *r)
{
	g_free(r->name);
	g_free(r);
}

void
xr_view__add_resource(XrNodeView *self, const char *name, gint64 count, guint replicas)
{
	XrResource *r = g_new0(XrResource, 1);
	guint at = 0;

	while (at < self->resources->len &&
	       strcmp(((XrResource *)g_ptr_array_index(self->resources, at))->name, name) < 0) {
		at++;
	}
	r->name = g_strdup(name);
	r->count = count;
	r->replicas = replicas;
	g_ptr_array_insert(self->resources, (gint)at, r);
}

void
xr_view__set_label(XrNodeView *self, const char *key, const char *value)
{
	guint at = 0;

	while (at < self->label_keys->len &&
	       strcmp(g_ptr_array_index(self->label_keys, at), key) < 0) {
		at++;
	}
	if (at < self->label_keys->len &&
	    strcmp(g_ptr_array_index(self->label_keys, at), key) == 0) {
		g_free(self->label_values->pdata[at]);
		self->label_values->pdata[at] = g_strdup(value);
		return;
	}
	g_ptr_array_insert(self->label_keys, (gint)at, g_strdup(key));
	g_ptr_array_insert(self->label_values, (gint)at, g_strdup(value));
}

/* A shared resource's name and count; unshared resources pass through. */
static void
add_shared(XrNodeView *self, const char *name, gint64 devices)
{
	guint replicas = self->config.sharing == XR_SHARING_NONE ? 1 : self->config.replicas;

	if (replicas > 1 && self->config.rename_by_default) {
		g_autofree char *renamed = g_strdup_printf("%s.shared", name);
		xr_view__add_resource(self, renamed, devices * replicas, replicas);
		return;
	}
	xr_view__add_resource(self, name, devices * replicas, replicas);
}

/* Why a node fails mig-strategy=single, or NULL. The checks run in production's
 * order (mig-strategy.go newMigStrategySingleLabeler): an empty MIG-enabled GPU, then
 * a mix of MIG on and off, then more than one profile. */
static char *
single_invalid_reason(const HwNode *node)
{
	const HwMigProfile *profile = NULL;
	guint on = 0, off = 0;

	for (guint i = 0; i < node->gpus->len; i++) {
		const HwGpu *gpu = g_ptr_array_index(node->gpus, i);

		if (gpu->mig_mode != HW_MIG_MODE_ON) {
			off++;
		} else if (gpu->instances->len == 0) {
			return g_strdup("at least one MIG device is enabled but empty");
		} else {
			on++;
		}
	}
	if (on > 0 && off > 0) {
		return g_strdup("devices with MIG enabled and disable detected");
	}
	for (guint i = 0; i < node->gpus->len; i++) {
		const HwGpu *gpu = g_ptr_array_index(node->gpus, i);

		for (guint k = 0; gpu->mig_mode == HW_MIG_MODE_ON && k < gpu->instances->len; k++) {
			const HwMigInstance *inst =
			        &g_array_index(gpu->instances, HwMigInstance, k);

			if (profile != NULL && profile != inst->profile) {
				return g_strdup("more than one MIG device type present on node");
			}
			profile = inst->profile;
		}
	}
	return NULL;
}

static gboolean
any_mig_on(const HwNode *node)
{
	for (guint i = 0; i < node->gpus->len; i++) {
		if (((HwGpu *)g_ptr_array_index(node->gpus, i))->mig_mode == HW_MIG_MODE_ON) {
			return TRUE;
		}
	}
	return FALSE;
}

static void
compute_resources(XrNodeView *self, const HwNode *node)
{
	gint64 full = 0, mig_devices = 0;
	g_autoptr(GHashTable) per_profile = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GPtrArray) profile_order = g_ptr_array_new();

	for (guint i = 0; i < node->gpus->len; i++) {
		const HwGpu *gpu = g_ptr_array_index(node->gpus, i);

		if (self->config.mig_strategy == XR_MIG_NONE || gpu->mig_mode != HW_MIG_MODE_ON) {
			full++;
			continue;
		}
		for (guint k = 0; k < gpu->instances->len; k++) {
			const HwMigProfile *p =
			        g_array_index(gpu->instances, HwMigInstance, k).profile;
			gint64 n = GPOINTER_TO_SIZE(g_hash_table_lookup(per_profile, p->name));

			if (n == 0) {
				g_ptr_array_add(profile_order, p->name);
			}
			g_hash_table_insert(per_profile, p->name, GSIZE_TO_POINTER((gsize)n + 1));
			mig_devices++;
		}
	}
	if (self->config.mig_strategy == XR_MIG_SINGLE && any_mig_on(node)) {
		if (self->invalid_reason != NULL) {
			xr_view__add_resource(self, "nvidia.com/gpu", 0, 1);
			return;
		}
		add_shared(self, "nvidia.com/gpu", mig_devices);
		return;
	}
	if (full > 0 || self->config.mig_strategy != XR_MIG_MIXED) {
		add_shared(self, "nvidia.com/gpu", full);
	}
	/* Iterate in first-seen order; add_resource keeps the output name-sorted. */
	for (guint i = 0; i < profile_order->len; i++) {
		const char *name = g_ptr_array_index(profile_order, i);
		g_autofree char *resource = g_strdup_printf("nvidia.com/mig-%s", name);

		add_shared(self, resource,
		           GPOINTER_TO_SIZE(g_hash_table_lookup(per_profile, name)));
	}
}

XrNodeView *
xr_node_view_new(const HwNode *node, const XrConfig *config, GError **error)
{
	g_autoptr(XrNodeView) self = g_new0(XrNodeView, 1);

	self->config = *config;
	self->resources = g_ptr_array_new_with_free_func((GDestroyNotify)resource_free);
	self->label_keys = g_ptr_array_new_with_free_func(g_free);
	self->label_values = g_ptr_array_new_with_free_func(g_free);
	if (config->sharing != XR_SHARING_NONE && config->replicas == 0) {
		g_set_error(error, XR_ERROR, XR_ERROR_CONFIG, "replicas must be at least 1");
		return NULL;
	}
	if (config->sharing == XR_SHARING_MPS && config->mig_strategy != XR_MIG_NONE &&
	    any_mig_on(node)) {
		/* MPS sharing covers full GPUs only (device plugin v0.15+ docs). */
		g_set_error(error, XR_ERROR, XR_ERROR_CONFIG,
		            "MPS sharing is not supported with MIG devices (node %s)", node->name);
		return NULL;
	}
	if (config->mig_strategy == XR_MIG_SINGLE) {
		self->invalid_reason = single_invalid_reason(node);
	}
	compute_resources(self, node);
	xr_labels__compute(self, node);
	return g_steal_pointer(&self);
}

void
xr_node_view_free(XrNodeView *self)
{
	if (self == NULL) {
		return;
	}
	g_ptr_array_unref(self->resources);
	g_ptr_array_unref(self->label_keys);
	g_ptr_array_unref(self->label_values);
	g_free(self->invalid_reason);
	g_free(self);
}

const GPtrArray *
xr_node_view_get_resources(const XrNodeView *self)
{
	return self->resources;
}

gint64
xr_node_view_count(const XrNodeView *self, const char *name)
{
	for (guint i = 0; i < self->resources->len; i++) {
		const XrResource *r = g_ptr_array_index(self->resources, i);

		if (strcmp(r->name, name) == 0) {
			return r->count;
		}
	}
	return 0;
}

const char *
xr_node_view_label(const XrNodeView *self, const char *key)
{
	for (guint i = 0; i < self->label_keys->len; i++) {
		if (strcmp(g_ptr_array_index(self->label_keys, i), key) == 0) {
			return g_ptr_array_index(self->label_values, i);
		}
	}
	return NULL;
}

const char *
xr_node_view_invalid_reason(const XrNodeView *self)
{
	return self->invalid_reason;
}

void
xr_node_view_apply(const XrNodeView *self, HwNodeObject *node)
{
	for (guint i = 0; i < self->resources->len; i++) {
		const XrResource *r = g_ptr_array_index(self->resources, i);
		g_autofree char *count = g_strdup_printf("%" G_GINT64_FORMAT, r->count);

		hw_node_object_set_resource(node, r->name, count);
	}
	for (guint i = 0; i < self->label_keys->len; i++) {
		hw_node_object_set_label(node, g_ptr_array_index(self->label_keys, i),
		                         g_ptr_array_index(self->label_values, i));
	}
}

XrAdmit
xr_node_view_admit(const XrNodeView *self, const char *resource, gint64 count, char **reason_out)
{
	for (guint i = 0; i < self->resources->len; i++) {
		const XrResource *r = g_ptr_array_index(self->resources, i);

		if (strcmp(r->name, resource) != 0 || r->replicas <= 1) {
			continue;
		}
		/* the plugin forces the option under MPS (NVIDIA/k8s-device-plugin
		 * api/config/v1/config.go, v0.15.0 and later) */
		if ((self->config.fail_requests_greater_than_one ||
		     self->config.sharing == XR_SHARING_MPS) &&
		    count > 1) {
			if (reason_out != NULL) {
				*reason_out = g_strdup_printf(
				        "UnexpectedAdmissionError: request for %" G_GINT64_FORMAT
				        " %s with failRequestsGreaterThanOne",
				        count, resource);
			}
			return XR_ADMIT_REJECTED;
		}
	}
	return XR_ADMIT_OK;
}
