/*
 * k8s_validate-private.h: the validation context shared by the k8s_validate*.c files.
 *
 * A VCtx carries the object being validated and the field path built so far. Rules push a
 * path segment, check, and pop; problems go to the diagnostic list with upstream's
 * field.Error wording.
 */
#pragma once

#include <glib.h>

#include "k8s_names.h"
#include "k8s_path-private.h"
#include "k8s_quantity.h"
#include "k8s_validate.h"

G_BEGIN_DECLS

typedef struct {
	K8sDiagList *diags;
	const K8sObject *obj;
	GString *path;
	gboolean flat_requests; /* v1beta1/v1alpha3: request fields have no `exactly.` */
	gboolean basic_devices; /* v1beta1/v1alpha3: device fields live under `basic.` */
} VCtx;

/* Kubernetes 1.34 limits (pkg/apis/resource/types.go) */
#define V_DEVICE_REQUESTS_MAX        32
#define V_DEVICE_SELECTORS_MAX       32
#define V_DEVICE_CONSTRAINTS_MAX     32
#define V_DEVICE_CONFIG_MAX          32
#define V_FIRST_AVAILABLE_MAX        8
#define V_DEVICE_TOLERATIONS_MAX     16
#define V_DEVICE_TAINTS_MAX          4
#define V_SLICE_MAX_DEVICES          128
#define V_SLICE_MAX_DEVICES_ADVANCED 64 /* with taints or consumesCounters */
#define V_ATTRS_AND_CAPACITIES_MAX   32
#define V_SHARED_COUNTERS_MAX        32
#define V_COUNTERS_PER_DEVICE_MAX    32
#define V_DEVICE_COUNTERS_PER_SLICE  1024
#define V_ATTRIBUTE_VALUE_MAX        64
#define V_DEVICE_MAX_DOMAIN          63
#define V_DEVICE_MAX_ID              32
#define V_DRIVER_NAME_MAX            63
#define V_CEL_EXPRESSION_MAX         (10 * 1024)
#define V_OPAQUE_PARAMETERS_MAX      (10 * 1024)
#define V_RESERVED_FOR_MAX           256
#define V_ALLOCATION_RESULTS_MAX     32
#define V_BINDING_CONDITIONS_MAX     4
#define V_POOL_NAME_MAX              253

/* ---- path ---------------------------------------------------------------------------- */

/* The steps of k8s_path-private.h on the context's path; each returns the mark to pop to. */
#define vpath_push(ctx, name) k8s_path_push_field((ctx)->path, (name))
#define vpath_index(ctx, i)   k8s_path_push_index((ctx)->path, (i))
#define vpath_key(ctx, key)   k8s_path_push_key((ctx)->path, (key))
#define vpath_pop(ctx, mark)  k8s_path_pop((ctx)->path, (mark))

/* ---- reporting ----------------------------------------------------------------------- */

/*
 * Reports at the current path plus @child (nullable): upstream's field.Error body built
 * from @type, the rendered bad @value (nullable: omitted) and the detail.
 */
void verror(VCtx *ctx,
            const K8sPos *pos,
            const char *child,
            K8sFieldErrorType type,
            const char *value,
            const char *detail_fmt,
            ...) G_GNUC_PRINTF(6, 7);
void vwarning(VCtx *ctx, const K8sPos *pos, const char *child, const char *fmt, ...)
        G_GNUC_PRINTF(4, 5);
/* Invalid value: "<quoted value>": <detail> */
void vinvalid_str(
        VCtx *ctx, const K8sPos *pos, const char *child, const char *value, const char *detail);
void vrequired(VCtx *ctx, const K8sPos *pos, const char *child, const char *detail);
void vtoo_many(VCtx *ctx, const K8sPos *pos, const char *child, guint actual, guint max);
void vtoo_long(VCtx *ctx, const K8sPos *pos, const char *child, guint max);
void vduplicate(VCtx *ctx, const K8sPos *pos, const char *value);
void vnot_supported(VCtx *ctx,
                    const K8sPos *pos,
                    const char *child,
                    const char *value,
                    const char *const *supported);
/* Reports each message of @msgs (consumed; NULL is fine) as Invalid value: "<value>". */
void
vinvalid_msgs(VCtx *ctx, const K8sPos *pos, const char *child, const char *value, GPtrArray *msgs);

/* A usable position: @pos when it has a line, else the object's. */
const K8sPos *vpos(const VCtx *ctx, const K8sPos *pos);

/* ---- shared rules (k8s_validate.c) --------------------------------------------------- */

void v_object_meta(VCtx *ctx, gboolean namespaced);
void v_labels(VCtx *ctx, const K8sStringMap *labels, const char *child);
/* ValidateCSIDriverName: required, <= 63, lower-cased DNS subdomain. */
void v_driver_name(VCtx *ctx, const char *name, const K8sPos *pos, const char *child);
/* resource.k8s.io QualifiedName ("domain/id" or "id"); @full requires the domain. */
void v_qualified_name(VCtx *ctx, const char *name, const K8sPos *pos, gboolean full);
void v_selectors(VCtx *ctx, const K8sDeviceSelector *selectors, guint n, const K8sPos *pos);
void v_opaque(VCtx *ctx, const K8sOpaqueDeviceConfig *opaque);
void v_device_toleration(VCtx *ctx, const K8sDeviceToleration *t);
void v_device_taint(VCtx *ctx, const K8sDeviceTaint *t);
void v_node_selector(VCtx *ctx, const K8sNodeSelector *sel);
/* The operator of a label or node selector requirement and its number of values
 * (ValidateLabelSelectorRequirement, validateNodeSelectorRequirement); Gt and Lt only
 * where @gt_lt (node selectors). */
void v_selector_operator(
        VCtx *ctx, const K8sPos *pos, const char *operator_, guint n_values, gboolean gt_lt);
/* A quantity as written: parse errors are reported. Returns TRUE with @out when valid. */
gboolean v_quantity(VCtx *ctx, const K8sQty *qty, const char *child, K8sQuantity *out);
void v_label_name(VCtx *ctx, const char *name, const K8sPos *pos, const char *child);
/* A request or device name: a DNS-1123 label (empty is invalid, not missing). */
void v_request_name(VCtx *ctx, const char *name, const K8sPos *pos, const char *child);

/* ---- per kind ------------------------------------------------------------------------ */

void v_device_class(VCtx *ctx, const K8sDeviceClass *dc);
void v_resource_claim(VCtx *ctx, const K8sResourceClaim *claim);
void v_resource_claim_template(VCtx *ctx, const K8sResourceClaimTemplate *t);
void v_resource_slice(VCtx *ctx, const K8sResourceSlice *slice);
void v_device_taint_rule(VCtx *ctx, const K8sDeviceTaintRule *rule);
void v_pod(VCtx *ctx, const K8sPod *pod);
void v_node(VCtx *ctx, const K8sNode *node);
void v_workload(VCtx *ctx, const K8sWorkload *w);

G_END_DECLS
