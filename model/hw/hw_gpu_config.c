/*
 * hw_gpu_config.c: the sharing settings of the NVIDIA DRA driver's opaque
 * GpuConfig and MigDeviceConfig, read and validated the way the driver does.
 *
 * The driver decodes opaque parameters strictly (unknown fields and wrong types
 * fail), then Normalize()s and Validate()s them; its kubelet plugin does this in
 * NodePrepareResources (cmd/gpu-kubelet-plugin/device_state.go) and its optional
 * admission webhook at create time (cmd/webhook/main.go). An invalid config
 * therefore never runs: the pod stays ContainerCreating with a prepare error. drasim
 * reports it as an input error before a run (scenario_load) and in `drasim lint`
 * when a driver is implied (hw_lint.c), from this one function.
 *
 * Rules, from NVIDIA/k8s-dra-driver-gpu api/nvidia.com/resource/v1beta1:
 *  - sharing.strategy is TimeSlicing or MPS (validate.go validateSharingStrategy;
 *    drasim models the driver with its TimeSlicingSettings and MPSSupport gates on);
 *  - timeSlicingConfig.interval is Default, Short, Medium or Long (validate.go);
 *  - mpsConfig.defaultActiveThreadPercentage is an integer (*int) from 0 to 100
 *    (validate.go MpsConfig.Validate);
 *  - the pinned memory limits are quantities of at least 1 MiB: the driver passes
 *    whole MiB to the MPS daemon and rejects 0 ("value set too low", sharing.go
 *    limit.Megabyte / Normalize);
 *  - mpsConfig with TimeSlicing, or timeSlicingConfig with MPS, fails
 *    (sharing.go GetTimeSlicingConfig / GetMpsConfig); MigDeviceSharing has no
 *    timeSlicingConfig field.
 * The keys of defaultPerDevicePinnedMemoryLimit (a device index or UUID of the
 * claim's allocation) are not checked: they depend on the allocation.
 */
#include <string.h>

#include "hw_api.h"
#include "k8s_quantity.h"
#include "k8s_yaml.h"

#define MIB ((gint64)1 << 20)

typedef struct {
	const char *file;
	const char *path; /* of the opaque config's parameters */
	K8sDiagList *diags;
	gboolean ok;
} Check;

static void fail(Check *c, const K8sYamlNode *at, const char *field, const char *format, ...)
        G_GNUC_PRINTF(4, 5);

/* One error at @at, path the parameters' path + @field; the config is invalid. */
static void
fail(Check *c, const K8sYamlNode *at, const char *field, const char *format, ...)
{
	g_autofree char *message = NULL;
	g_autofree char *path = g_strdup_printf("%s.%s", c->path, field);
	K8sPos pos = k8s_yaml_node_pos(at, c->file);
	va_list ap;

	c->ok = FALSE;
	if (c->diags == NULL)
		return;
	va_start(ap, format);
	message = g_strdup_vprintf(format, ap);
	va_end(ap);
	k8s_diag_list_error(c->diags, &pos, path, "%s", message);
}

static gboolean
is_null(const K8sYamlNode *v)
{
	return v == NULL ||
	       (v->kind == K8S_YAML_SCALAR && k8s_yaml_scalar_type(v) == K8S_YAML_TYPE_NULL);
}

/* A mapping at @field (NULL when absent or null); anything else is an error. */
static const K8sYamlNode *
mapping_at(Check *c, const K8sYamlNode *map, const char *key, const char *field)
{
	const K8sYamlNode *v = k8s_yaml_map_lookup(map, key);

	if (is_null(v))
		return NULL;
	if (v->kind != K8S_YAML_MAPPING) {
		fail(c, v, field, "expected a mapping, got %s", k8s_yaml_node_type_name(v));
		return NULL;
	}
	return v;
}

/* Strict decoding: a key the Go type does not have is an error. */
static void
check_keys(Check *c, const K8sYamlNode *map, const char *field, const char *const *known)
{
	for (guint i = 0; i < map->map.n; i++) {
		const char *key = map->map.pairs[i].key->scalar.text;
		gboolean found = FALSE;
		g_autofree char *list = NULL;
		g_autofree char *at = NULL;

		for (guint k = 0; known[k] != NULL && !found; k++)
			found = strcmp(key, known[k]) == 0;
		if (found)
			continue;
		list = g_strjoinv(", ", (char **)known);
		at = field[0] != '\0' ? g_strdup_printf("%s.%s", field, key) : g_strdup(key);
		fail(c, map->map.pairs[i].key, at,
		     "unknown field \"%s\": the driver decodes its config strictly (known: %s)",
		     key, list);
	}
}

/* A string scalar at @key that is one of @valid (NULL-terminated); its index, or -1. */
static int
enum_at(Check *c,
        const K8sYamlNode *map,
        const char *key,
        const char *field,
        const char *what,
        const char *const *valid)
{
	const K8sYamlNode *v = k8s_yaml_map_lookup(map, key);
	g_autofree char *list = g_strjoinv(", ", (char **)valid);

	if (is_null(v)) {
		fail(c, v != NULL ? v : map, field, "expected a %s: one of %s", what, list);
		return -1;
	}
	for (int i = 0; valid[i] != NULL; i++) {
		if (v->kind == K8S_YAML_SCALAR && k8s_yaml_scalar_type(v) == K8S_YAML_TYPE_STRING &&
		    strcmp(v->scalar.text, valid[i]) == 0)
			return i;
	}
	fail(c, v, field, "unknown %s \"%s\": valid are %s", what,
	     v->kind == K8S_YAML_SCALAR ? v->scalar.text : k8s_yaml_node_type_name(v), list);
	return -1;
}

/* A pinned memory limit: a quantity of at least 1Mi; its bytes in whole MiB. */
static gint64
limit_at(Check *c, const K8sYamlNode *v, const char *field)
{
	K8sQuantity q;
	gint64 bytes = 0;

	if (v->kind != K8S_YAML_SCALAR ||
	    !k8s_quantity_parse(v->scalar.text, v->scalar.len, &q, NULL)) {
		fail(c, v, field, "expected a memory quantity such as 10Gi, got %s%s%s",
		     v->kind == K8S_YAML_SCALAR ? "\"" : "",
		     v->kind == K8S_YAML_SCALAR ? v->scalar.text : k8s_yaml_node_type_name(v),
		     v->kind == K8S_YAML_SCALAR ? "\"" : "");
		return 0;
	}
	/* Megabyte(): Value() (rounded up to an integer) / 1Mi must be > 0 */
	if (k8s_quantity_cmp_int64(&q, MIB - 1) <= 0) {
		fail(c, v, field,
		     "pinned memory limit \"%s\" is below 1Mi: the driver gives MPS whole "
		     "MiB and rejects 0",
		     v->scalar.text);
		return 0;
	}
	return k8s_quantity_as_int64(&q, &bytes) ? bytes / MIB * MIB : 0;
}

static void
check_mps(Check *c, const K8sYamlNode *mps, HwGpuSharing *out)
{
	static const char *const known[] = { "defaultActiveThreadPercentage",
		                             "defaultPinnedDeviceMemoryLimit",
		                             "defaultPerDevicePinnedMemoryLimit", NULL };
	const K8sYamlNode *pct = k8s_yaml_map_lookup(mps, "defaultActiveThreadPercentage");
	const K8sYamlNode *limit = k8s_yaml_map_lookup(mps, "defaultPinnedDeviceMemoryLimit");
	const K8sYamlNode *per;
	gint64 n;

	check_keys(c, mps, "sharing.mpsConfig", known);
	if (!is_null(pct)) {
		const char *field = "sharing.mpsConfig.defaultActiveThreadPercentage";

		if (!k8s_yaml_scalar_as_int64(pct, &n) || n < 0 || n > 100)
			fail(c, pct, field,
			     "expected an integer from 0 to 100 (percent of the SMs), got %s%s%s",
			     pct->kind == K8S_YAML_SCALAR ? "\"" : "",
			     pct->kind == K8S_YAML_SCALAR ? pct->scalar.text
			                                  : k8s_yaml_node_type_name(pct),
			     pct->kind == K8S_YAML_SCALAR ? "\"" : "");
		else
			out->active_threads = (double)n;
	}
	if (!is_null(limit))
		out->pinned_memory_limit =
		        limit_at(c, limit, "sharing.mpsConfig.defaultPinnedDeviceMemoryLimit");
	per = mapping_at(c, mps, "defaultPerDevicePinnedMemoryLimit",
	                 "sharing.mpsConfig.defaultPerDevicePinnedMemoryLimit");
	for (guint i = 0; per != NULL && i < per->map.n; i++) {
		g_autofree char *field =
		        g_strdup_printf("sharing.mpsConfig.defaultPerDevicePinnedMemoryLimit.%s",
		                        per->map.pairs[i].key->scalar.text);

		limit_at(c, per->map.pairs[i].value, field);
	}
}

/* sharing: of a GpuConfig (@mig FALSE) or a MigDeviceConfig. */
static void
check_sharing(Check *c, const K8sYamlNode *sharing, gboolean mig, HwGpuSharing *out)
{
	static const char *const strategies[] = { "TimeSlicing", "MPS", NULL };
	static const char *const intervals[] = { "Default", "Short", "Medium", "Long", NULL };
	static const char *const gpu_known[] = { "strategy", "timeSlicingConfig", "mpsConfig",
		                                 NULL };
	static const char *const mig_known[] = { "strategy", "mpsConfig", NULL };
	const K8sYamlNode *ts, *mps;
	int strategy, interval;

	check_keys(c, sharing, "sharing", mig ? mig_known : gpu_known);
	strategy = enum_at(c, sharing, "strategy", "sharing.strategy", "GPU sharing strategy",
	                   strategies);
	ts = mig ? NULL : mapping_at(c, sharing, "timeSlicingConfig", "sharing.timeSlicingConfig");
	mps = mapping_at(c, sharing, "mpsConfig", "sharing.mpsConfig");
	if (strategy == 0) {
		out->strategy = HW_SHARING_TIME_SLICING;
		if (mps != NULL && !mig)
			fail(c, mps, "sharing.mpsConfig",
			     "mpsConfig cannot be used with strategy TimeSlicing (use "
			     "timeSlicingConfig, or strategy MPS)");
	} else if (strategy == 1) {
		out->strategy = HW_SHARING_MPS;
		if (ts != NULL)
			fail(c, ts, "sharing.timeSlicingConfig",
			     "timeSlicingConfig cannot be used with strategy MPS (use mpsConfig, "
			     "or "
			     "strategy TimeSlicing)");
		if (mps != NULL)
			check_mps(c, mps, out);
	}
	if (ts != NULL) {
		static const char *const known[] = { "interval", NULL };

		check_keys(c, ts, "sharing.timeSlicingConfig", known);
		if (!is_null(k8s_yaml_map_lookup(ts, "interval")) &&
		    (interval = enum_at(c, ts, "interval", "sharing.timeSlicingConfig.interval",
		                        "time-slice interval", intervals)) >= 0)
			out->interval = (HwTimeSlice)interval;
	}
}

gboolean
hw_gpu_config_read(const K8sOpaqueDeviceConfig *opaque,
                   const char *path,
                   K8sDiagList *diags,
                   HwGpuSharing *sharing)
{
	static const char *const known[] = { "apiVersion", "kind", "sharing", NULL };
	const K8sYamlNode *params = opaque->parameters.node, *kind, *s;
	g_autofree char *params_path = g_strdup_printf("%s.parameters", path);
	Check c = { opaque->parameters.pos.file, params_path, diags, TRUE };
	HwGpuSharing out = { HW_SHARING_NONE, HW_TIME_SLICE_DEFAULT, 0.0, 0 };
	gboolean mig;

	if (opaque->driver == NULL || strcmp(opaque->driver, "gpu.nvidia.com") != 0 ||
	    params == NULL || params->kind != K8S_YAML_MAPPING)
		goto done;
	kind = k8s_yaml_map_lookup(params, "kind");
	if (kind == NULL || kind->kind != K8S_YAML_SCALAR)
		goto done;
	mig = strcmp(kind->scalar.text, "MigDeviceConfig") == 0;
	if (!mig && strcmp(kind->scalar.text, "GpuConfig") != 0)
		goto done; /* VfioDeviceConfig, or a kind hw_lint reports */
	check_keys(&c, params, "", known);
	s = mapping_at(&c, params, "sharing", "sharing");
	if (s != NULL)
		check_sharing(&c, s, mig, &out);
	/* validated only: the run reads a claim's sharing from GpuConfig (world_xlate.c) */
	if (mig)
		out.strategy = HW_SHARING_NONE;
done:
	if (sharing != NULL)
		*sharing = c.ok ? out
		                : (HwGpuSharing){ HW_SHARING_NONE, HW_TIME_SLICE_DEFAULT, 0.0, 0 };
	return c.ok;
}
