/*
 * xr_labels.c: the node labels GPU Feature Discovery writes
 * (NVIDIA/k8s-device-plugin internal/lm: resource.go, mig-strategy.go).
 *
 * Full-GPU labels nvidia.com/gpu.{product,count,replicas,memory,family,compute.*}
 * come first; for MIG-enabled GPUs they are computed "without sharing" (replicas 0).
 * single then overwrites nvidia.com/gpu.* with the MIG profile's labels (or the
 * -MIG-INVALID set), mixed adds nvidia.com/mig-<profile>.* per profile. A shared
 * resource that is not renamed gets "-SHARED" appended to its product label.
 */
#include <stdarg.h>
#include <string.h>

#include "xr-private.h"

static void
label_printf(XrNodeView *self, const char *prefix, const char *suffix, const char *format, ...)
        G_GNUC_PRINTF(4, 5);

static void
label_printf(XrNodeView *self, const char *prefix, const char *suffix, const char *format, ...)
{
	va_list args;
	g_autofree char *key = g_strdup_printf("%s.%s", prefix, suffix);
	g_autofree char *value = NULL;

	va_start(args, format);
	value = g_strdup_vprintf(format, args);
	va_end(args);
	xr_view__set_label(self, key, value);
}

/* resource.go getArchFamily: by compute capability major (Pascal for the
 * trace's P100 nodes, and the older families upstream names too). */
static const char *
arch_family(guint major, guint minor)
{
	switch (major) {
	case 1:
		return "tesla";
	case 2:
		return "fermi";
	case 3:
		return "kepler";
	case 5:
		return "maxwell";
	case 6:
		return "pascal";
	case 7:
		return minor < 5 ? "volta" : "turing";
	case 8:
		return "ampere";
	case 9:
		return "hopper";
	default:
		/* Blackwell (10.x) and Ada's 8.9 aside, upstream answers "undefined" here. */
		return "undefined";
	}
}

static gboolean
is_shared(const XrNodeView *self)
{
	return self->config.sharing != XR_SHARING_NONE && self->config.replicas > 1;
}

/* "<model>[-MIG-<profile>][-SHARED]" with spaces turned into dashes (productLabel). */
static char *
product(const XrNodeView *self, const HwGpuModel *model, const char *mig, gboolean sharing)
{
	GString *text = g_string_new(model->product_name);

	g_strdelimit(text->str, " ", '-');
	if (mig != NULL) {
		g_string_append_printf(text, "-MIG-%s", mig);
	}
	if (sharing && is_shared(self) && !self->config.rename_by_default) {
		g_string_append(text, "-SHARED");
	}
	return g_string_free(text, FALSE);
}

static guint
replicas(const XrNodeView *self, gboolean sharing)
{
	if (!sharing) {
		return 0; /* labeler built with a nil config: sharing disabled */
	}
	return is_shared(self) ? self->config.replicas : 1;
}

static void
full_gpu_labels(XrNodeView *self, const HwNode *node)
{
	const HwGpuModel *model = node->shape->gpu_model;
	gboolean any_full = FALSE;
	g_autofree char *prod = NULL;

	for (guint i = 0; i < node->gpus->len; i++) {
		any_full = any_full ||
		           ((HwGpu *)g_ptr_array_index(node->gpus, i))->mig_mode != HW_MIG_MODE_ON;
	}
	/* Full GPUs override the MIG-enabled labeler of the same model (newGPULabelers). */
	prod = product(self, model, NULL, any_full);
	xr_view__set_label(self, "nvidia.com/gpu.product", prod);
	label_printf(self, "nvidia.com/gpu", "count", "%u", node->gpus->len);
	label_printf(self, "nvidia.com/gpu", "replicas", "%u", replicas(self, any_full));
	label_printf(self, "nvidia.com/gpu", "memory", "%" G_GUINT64_FORMAT, model->memory_mib);
	label_printf(self, "nvidia.com/gpu", "family", "%s",
	             arch_family(model->cc_major, model->cc_minor));
	label_printf(self, "nvidia.com/gpu", "compute.major", "%u", model->cc_major);
	label_printf(self, "nvidia.com/gpu", "compute.minor", "%u", model->cc_minor);
}

static void
mig_labels(XrNodeView *self,
           const char *prefix,
           const HwGpuModel *model,
           const HwMigProfile *p,
           guint count)
{
	g_autofree char *prod = product(self, model, p->name, TRUE);

	label_printf(self, prefix, "product", "%s", prod);
	label_printf(self, prefix, "count", "%u", count);
	label_printf(self, prefix, "replicas", "%u", replicas(self, TRUE));
	label_printf(self, prefix, "memory", "%" G_GUINT64_FORMAT, p->memory_mib);
	label_printf(self, prefix, "multiprocessors", "%u", p->sms);
	label_printf(self, prefix, "slices.gi", "%u", p->compute_slices);
	label_printf(self, prefix, "slices.ci", "%u", p->compute_slices);
	label_printf(self, prefix, "engines.copy", "%u", p->copy_engines);
	label_printf(self, prefix, "engines.decoder", "%u", p->decoders);
	label_printf(self, prefix, "engines.encoder", "%u", p->encoders);
	label_printf(self, prefix, "engines.jpeg", "%u", p->jpeg);
	label_printf(self, prefix, "engines.ofa", "%u", p->ofa);
}

/* Profiles in use, in first-seen order, with their counts. */
static void
collect_profiles(const HwNode *node, GPtrArray *profiles, GArray *counts)
{
	for (guint i = 0; i < node->gpus->len; i++) {
		const HwGpu *gpu = g_ptr_array_index(node->gpus, i);

		for (guint k = 0; gpu->mig_mode == HW_MIG_MODE_ON && k < gpu->instances->len; k++) {
			const HwMigProfile *p =
			        g_array_index(gpu->instances, HwMigInstance, k).profile;
			guint at = 0;

			while (at < profiles->len && g_ptr_array_index(profiles, at) != p) {
				at++;
			}
			if (at == profiles->len) {
				guint zero = 0;
				g_ptr_array_add(profiles, (gpointer)p);
				g_array_append_val(counts, zero);
			}
			g_array_index(counts, guint, at)++;
		}
	}
}

void
xr_labels__compute(XrNodeView *self, const HwNode *node)
{
	const HwGpuModel *model = node->shape->gpu_model;
	g_autoptr(GPtrArray) profiles = g_ptr_array_new();
	g_autoptr(GArray) counts = g_array_new(FALSE, TRUE, sizeof(guint));
	static const char *const sharing_names[] = { "none", "time-slicing", "mps" };

	full_gpu_labels(self, node);
	xr_view__set_label(self, "nvidia.com/mig.capable", model->mig != NULL ? "true" : "false");
	xr_view__set_label(self, "nvidia.com/gpu.sharing-strategy",
	                   sharing_names[is_shared(self) ? self->config.sharing : XR_SHARING_NONE]);
	if (self->config.mig_strategy == XR_MIG_NONE) {
		return; /* NewResourceLabeler: no mig.strategy label under none */
	}
	xr_view__set_label(self, "nvidia.com/mig.strategy",
	                   xr_mig_strategy_to_string(self->config.mig_strategy));
	collect_profiles(node, profiles, counts);
	if (self->config.mig_strategy == XR_MIG_SINGLE) {
		if (self->invalid_reason != NULL) {
			g_autofree char *prod = product(self, model, "INVALID", FALSE);
			xr_view__set_label(self, "nvidia.com/gpu.product", prod);
			xr_view__set_label(self, "nvidia.com/gpu.count", "0");
			xr_view__set_label(self, "nvidia.com/gpu.replicas", "0");
			xr_view__set_label(self, "nvidia.com/gpu.memory", "0");
		} else if (profiles->len == 1) {
			mig_labels(self, "nvidia.com/gpu", model, g_ptr_array_index(profiles, 0),
			           g_array_index(counts, guint, 0));
		}
		return;
	}
	for (guint i = 0; i < profiles->len; i++) {
		const HwMigProfile *p = g_ptr_array_index(profiles, i);
		g_autofree char *prefix = g_strdup_printf("nvidia.com/mig-%s", p->name);

		mig_labels(self, prefix, model, p, g_array_index(counts, guint, i));
	}
}
