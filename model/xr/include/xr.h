/*
 * xr.h: the extended-resource world: what NVIDIA's device plugin advertises for a
 * node (integer counts per resource name) and the labels GPU Feature Discovery puts
 * on it, for the MIG strategies none/single/mixed and time-slicing or MPS replicas.
 *
 * The same HwNode drives both worlds, so a DRA run and an extended run of a scenario
 * see the same hardware (ARCHITECTURE.md, "The two worlds compared").
 */
#pragma once

#include <glib.h>

#include "hw.h"

G_BEGIN_DECLS

#define XR_ERROR (xr_error_quark())
GQuark xr_error_quark(void);

typedef enum {
	XR_ERROR_CONFIG, /* the plugin configuration is invalid for this node */
} XrErrorCode;

typedef enum {
	XR_MIG_NONE,   /* MIG ignored: every GPU is one nvidia.com/gpu */
	XR_MIG_SINGLE, /* MIG devices as nvidia.com/gpu; the node must be uniform */
	XR_MIG_MIXED,  /* nvidia.com/mig-<profile> per profile */
} XrMigStrategy;

typedef enum {
	XR_SHARING_NONE,
	XR_SHARING_TIME_SLICING,
	XR_SHARING_MPS,
} XrSharing;

typedef struct {
	XrMigStrategy mig_strategy;
	XrSharing sharing;
	guint replicas;             /* per device; 1 means no sharing */
	gboolean rename_by_default; /* <name>.shared */
	gboolean fail_requests_greater_than_one;
} XrConfig;

void xr_config_init(XrConfig *out);
gboolean xr_mig_strategy_parse(const char *text, XrMigStrategy *out);
const char *xr_mig_strategy_to_string(XrMigStrategy strategy);
gboolean xr_sharing_parse(const char *text, XrSharing *out);

typedef struct {
	char *name; /* "nvidia.com/gpu", "nvidia.com/mig-1g.10gb", "nvidia.com/gpu.shared" */
	gint64 count;
	guint replicas; /* > 1 when the count is time-sliced or MPS replicas */
} XrResource;

typedef struct XrNodeView XrNodeView;

/**
 * xr_node_view_new:
 * Computes the device plugin's resources and GFD's labels for @node.
 * Returns: (transfer full) the view, or NULL with XR_ERROR_CONFIG when the plugin
 * would refuse the configuration (MPS together with MIG devices, replicas 0).
 * An invalid single-strategy node is not an error: like production, it advertises
 * nothing and carries the -MIG-INVALID product label.
 */
XrNodeView *xr_node_view_new(const HwNode *node, const XrConfig *config, GError **error);
void xr_node_view_free(XrNodeView *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(XrNodeView, xr_node_view_free)

/* Resources sorted by name; (transfer none). */
const GPtrArray *xr_node_view_get_resources(const XrNodeView *self);
/* The count of @name (0 if the node does not advertise it). */
gint64 xr_node_view_count(const XrNodeView *self, const char *name);
/* The label's value, or NULL. */
const char *xr_node_view_label(const XrNodeView *self, const char *key);
/* Why a single-strategy node is invalid, or NULL. */
const char *xr_node_view_invalid_reason(const XrNodeView *self);

/** xr_node_view_apply: adds the resources and labels to a Node object. */
void xr_node_view_apply(const XrNodeView *self, HwNodeObject *node);

typedef enum {
	XR_ADMIT_OK,
	XR_ADMIT_REJECTED, /* kubelet admission fails: UnexpectedAdmissionError */
} XrAdmit;

/**
 * xr_node_view_admit:
 * Kubelet-side admission of a container requesting @count of @resource: with
 * failRequestsGreaterThanOne, and always under MPS, a shared resource refuses
 * requests above 1 (sim/world/world_place.c applies the same rule).
 */
XrAdmit
xr_node_view_admit(const XrNodeView *self, const char *resource, gint64 count, char **reason_out);

G_END_DECLS
