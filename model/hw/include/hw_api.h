/*
 * hw_api.h: published hardware as model/api objects (built only when model/api is).
 *
 * The objects are built directly, as `drasim publish` prints them, and checked with
 * api's own validation; when anything is wrong the messages carry positions in the
 * printed text (the "file" is named after the node, e.g. "<published node-a>").
 */
#pragma once

#include "hw.h"
#include "k8s_objects.h"

G_BEGIN_DECLS

/**
 * hw_publish_objects:
 * Appends to @set the Node, (if @with_classes) the NVIDIA DeviceClasses, and the
 * ResourceSlices of gpu.nvidia.com and dra.net for @node.
 * Returns: TRUE when api decoded everything without errors (problems go to @diags).
 */
gboolean hw_publish_objects(const HwNode *node,
                            const HwPublishOptions *options,
                            gboolean with_classes,
                            K8sObjectSet *set,
                            K8sDiagList *diags);

/**
 * hw_publish_objects_with:
 * hw_publish_objects() with the gpu.nvidia.com slices hw_publish_nvidia() gave for
 * @node already (borrowed): a caller that needs them too publishes once.
 */
gboolean hw_publish_objects_with(const HwNode *node,
                                 const GPtrArray *gpu_slices,
                                 gboolean with_classes,
                                 K8sObjectSet *set,
                                 K8sDiagList *diags);

/**
 * hw_load_published:
 * Appends to @set the api objects of @nodes, @classes (may be NULL) and @slices, in
 * that order (the items of hw_yaml_write_list()), built without text, and validates
 * them as the API server does on create. Only when an object fails (a quantity that
 * does not parse, a value api rejects) are they
 * printed and decoded again, so that every message @diags receives points at a line
 * and column of that text, with @name as its file. Objects whose kind and name are in
 * @set already (a node published again) are added as they were before: no error.
 * Returns: TRUE when everything was valid.
 */
gboolean hw_load_published(const char *name,
                           const GPtrArray *nodes,
                           const HwDeviceClass *classes,
                           const GPtrArray *slices,
                           K8sObjectSet *set,
                           K8sDiagList *diags);

/* ---- lint: selectors against what the drivers publish ---- */

/* The published devices selectors are checked against (`drasim lint --shape/--cluster`). */
typedef struct HwLintTarget HwLintTarget;

/** hw_lint_target_new: an empty target. (transfer full) */
HwLintTarget *hw_lint_target_new(void);
void hw_lint_target_free(HwLintTarget *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(HwLintTarget, hw_lint_target_free)

/**
 * hw_lint_target_add_shape:
 * Adds one node of @shape as the drivers would publish it: its NICs (dra.net) and,
 * with @layout NULL, every GPU both as a full GPU and as all DynamicMIG devices
 * (so every attribute and every MIG profile the driver can publish is known);
 * otherwise the static devices of @layout (hw_mig_layout_parse() syntax).
 * Returns: FALSE with @error when @layout does not apply to the shape's GPU.
 */
gboolean hw_lint_target_add_shape(HwLintTarget *self,
                                  const HwNodeShape *shape,
                                  const char *layout,
                                  GError **error);

/** hw_lint_target_add_pools: one node per node pool of @catalog (a scenario). */
gboolean hw_lint_target_add_pools(HwLintTarget *self, const HwCatalog *catalog, GError **error);

/** hw_lint_target_add_slice: adds a slice published elsewhere (takes ownership). */
void hw_lint_target_add_slice(HwLintTarget *self, HwSlice *slice);

/** hw_lint_target_add_objects: adds the devices of every ResourceSlice of @set (a
 * cluster's own slices, an imported scenario's mode). */
void hw_lint_target_add_objects(HwLintTarget *self, const K8sObjectSet *set);

/**
 * hw_lint_selectors:
 * Checks every CEL selector and opaque driver config of @set against @target and adds
 * findings to @diags, each naming the device it was checked against:
 *  - a reference to an attribute or capacity the candidate devices do not publish
 *    (an error: CEL fails with "no such key" at scheduling time), with the closest
 *    published name as suggestion;
 *  - an attribute read as capacity or the reverse;
 *  - a selector whose equality conditions no published device meets (a warning);
 *  - an opaque config whose apiVersion/kind the NVIDIA driver does not know, or whose
 *    contents it rejects (hw_lint_configs()).
 * Candidate devices of a request are those its class and its own top-level
 * `&&` conditions (device.driver == ..., attribute == literal, has(...)) do not
 * rule out; the class comes from @set, else from the NVIDIA driver's own classes.
 * Selectors with a top-level `||` are only checked for names published nowhere.
 */
void hw_lint_selectors(const HwLintTarget *target, const K8sObjectSet *set, K8sDiagList *diags);

/**
 * hw_lint_configs:
 * The opaque configs of @set's DeviceClasses, ResourceClaims and templates for the
 * NVIDIA drivers: apiVersion and kind known to the driver, and the contents of
 * GpuConfig / MigDeviceConfig as hw_gpu_config_read() validates them. Errors to @diags.
 * Part of hw_lint_selectors().
 */
void hw_lint_configs(const K8sObjectSet *set, K8sDiagList *diags);

/**
 * hw_check_gpu_configs:
 * Only the contents of @set's GpuConfig / MigDeviceConfig (hw_gpu_config_read()),
 * whatever their apiVersion: what scenario_load() rejects before a run. (A run
 * reads the sharing of a config with an old apiVersion; lint reports the version.)
 */
void hw_check_gpu_configs(const K8sObjectSet *set, K8sDiagList *diags);

typedef enum {
	HW_SHARING_NONE, /* no sharing settings (the driver's defaults apply) */
	HW_SHARING_TIME_SLICING,
	HW_SHARING_MPS,
} HwSharingStrategy;

/* timeSlicingConfig.interval, in the driver's order (TimeSliceInterval.Int()). */
typedef enum {
	HW_TIME_SLICE_DEFAULT,
	HW_TIME_SLICE_SHORT,
	HW_TIME_SLICE_MEDIUM,
	HW_TIME_SLICE_LONG,
} HwTimeSlice;

/* The sharing a GpuConfig asks for. */
typedef struct {
	HwSharingStrategy strategy;
	HwTimeSlice interval;       /* TimeSlicing; Default when not set */
	double active_threads;      /* MPS defaultActiveThreadPercentage, 0 when not set */
	gint64 pinned_memory_limit; /* MPS default limit in bytes, whole MiB; 0 when not set */
} HwGpuSharing;

/**
 * hw_gpu_config_read:
 * @opaque: one opaque device config (any driver: only gpu.nvidia.com's GpuConfig
 *   and MigDeviceConfig are read)
 * @path: the config's field path, object prefix included ("spec.config[0].opaque")
 * @diags: (nullable): receives each problem at its file:line:col and field path
 * @sharing: (out) (optional): the sharing of a valid GpuConfig; strategy NONE for
 *   anything else (another driver or kind, no sharing, a MigDeviceConfig, invalid)
 *
 * Validates the settings as the NVIDIA DRA driver does before it prepares a device
 * (strict decoding, Normalize, Validate; hw_gpu_config.c cites the rules).
 * Returns: FALSE when the driver would reject the config.
 */
gboolean hw_gpu_config_read(const K8sOpaqueDeviceConfig *opaque,
                            const char *path,
                            K8sDiagList *diags,
                            HwGpuSharing *sharing);

/**
 * hw_lint_run:
 * `drasim lint --shape NAME... --cluster FILE...` in one call: the built-in catalog plus
 * the cluster files (catalog documents whose node_pools describe the cluster), one
 * target node per shape and per pool, then hw_lint_selectors() on @set.
 * @shapes, @cluster_files: NULL-terminated, either may be NULL.
 * Returns: FALSE with @error (positioned for cluster files) when a shape is unknown or
 * a cluster file is bad; @diags then holds nothing from this call.
 */
gboolean hw_lint_run(const char *const *shapes,
                     const char *const *cluster_files,
                     const K8sObjectSet *set,
                     K8sDiagList *diags,
                     GError **error);

G_END_DECLS
