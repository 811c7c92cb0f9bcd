/*
 * hw.h: the hardware model: GPU/MIG/NIC catalog, node shapes, MIG geometry, node
 * instances with their PCIe topology, and what the drivers publish for them.
 *
 * Catalog records (HwGpuModel, HwMigProfile, HwNicModel, HwNodeShape) are read-only
 * data owned by their HwCatalog; their fields are public so that callers (model/xr,
 * the CLI, tests) can read them without accessors. Node instances (HwNode) and
 * published slices (HwSlice) are owned by the caller.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define HW_ERROR (hw_error_quark())
GQuark hw_error_quark(void);

typedef enum {
	HW_ERROR_PARSE,   /* the YAML itself is malformed */
	HW_ERROR_INVALID, /* well-formed YAML with a bad value, unknown field or reference */
	HW_ERROR_IO,      /* a file could not be read */
} HwErrorCode;

typedef enum {
	HW_CONFIDENCE_CONFIRMED,
	HW_CONFIDENCE_INFERRED,
	HW_CONFIDENCE_UNCONFIRMED,
} HwConfidence;

const char *hw_confidence_to_string(HwConfidence confidence);

/* One GPU-instance profile (`nvidia-smi mig -lgip` row) with its placements. */
typedef struct {
	char *name;           /* "1g.10gb", "1g.10gb+me" */
	guint gi_profile_id;  /* NVML GI profile id: 19, 20, 15, 14, 9, 5, 0 */
	guint compute_slices; /* the N of Ng */
	guint size;           /* memory slices occupied */
	guint starts[8];      /* valid placement starts, ascending */
	guint n_starts;
	guint64 memory_mib;
	guint sms, copy_engines, decoders, encoders, jpeg, ofa;
	guint max_count;
	gboolean media_extensions; /* a `+me` profile: at most one per GPU */
	HwConfidence confidence;
} HwMigProfile;

typedef struct {
	guint compute_slices;                /* 7 (A30: 4) */
	guint memory_slices;                 /* 8 (A30: 4) */
	gboolean mode_toggle_requires_reset; /* Ampere: MIG mode is pending until a reset */
	GPtrArray *profiles;                 /* HwMigProfile*, catalog order */
	GPtrArray *balanced; /* const HwMigProfile*, one entry per instance of all-balanced */
} HwMigGeometry;

typedef struct {
	char *id; /* catalog key: "h100-sxm5-80gb" */
	char *product_name;
	char *brand;
	char *architecture;
	guint cc_major, cc_minor;
	guint64 memory_mib;
	guint sms;
	HwConfidence confidence;
	HwMigGeometry *mig; /* NULL: no MIG support */
} HwGpuModel;

typedef enum {
	HW_NIC_LINK_EFA,
	HW_NIC_LINK_INFINIBAND,
	HW_NIC_LINK_ETHERNET,
} HwNicLink;

typedef struct {
	char *id;
	char *vendor; /* dranet pciVendor */
	char *device; /* dranet pciDevice */
	HwNicLink link;
	gboolean rdma;
	guint speed_gbps;
	guint mtu;
	HwConfidence confidence;
} HwNicModel;

typedef struct {
	char *bdf; /* "0000:10:1b.0" */
	char *model_id;
	const HwNicModel *model; /* resolved from model_id */
} HwShapeNic;

typedef struct {
	char *root; /* "pci0000:10" */
	int numa;
	GPtrArray *gpu_bdfs; /* char* */
	GArray *nics;        /* HwShapeNic */
} HwPcieRoot;

typedef struct {
	char *id;
	char *gpu_model_id;
	const HwGpuModel *gpu_model; /* resolved from gpu_model_id */
	guint cpus;
	guint64 memory_gib;
	guint numa_nodes;
	gboolean synthetic_topology; /* BDFs laid out by drasim, not read from a machine */
	HwConfidence confidence;
	GPtrArray *roots; /* HwPcieRoot*, in bus order; GPU minors follow it */
} HwNodeShape;

/* ---- catalog ---------------------------------------------------------------- */

typedef struct HwCatalog HwCatalog;

/**
 * hw_catalog_new_builtin:
 * Loads the catalog files built into drasim (the .yaml files of model/hw/catalog).
 * Returns: (transfer full) the catalog, or NULL with @error set.
 */
HwCatalog *hw_catalog_new_builtin(GError **error);

/** hw_catalog_new_empty: (transfer full) a catalog with nothing in it. */
HwCatalog *hw_catalog_new_empty(void);

/**
 * hw_catalog_load_data:
 * Adds the records of one catalog document to @self. A record whose id already
 * exists replaces it (a scenario overrides the built-in data); new ids extend the
 * catalog. @filename is only used in error positions.
 * Returns: FALSE with @error ("FILE:LINE:COL: message [field.path]") on bad data;
 * @self is then unchanged.
 */
gboolean hw_catalog_load_data(
        HwCatalog *self, const char *filename, const char *data, gsize len, GError **error);

/** hw_catalog_load_file: hw_catalog_load_data() on a file's contents. */
gboolean hw_catalog_load_file(HwCatalog *self, const char *path, GError **error);

void hw_catalog_free(HwCatalog *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(HwCatalog, hw_catalog_free)

/* Lookups return borrowed records (alive as long as the catalog), or NULL. */
const HwGpuModel *hw_catalog_lookup_gpu(const HwCatalog *self, const char *id);
const HwNicModel *hw_catalog_lookup_nic(const HwCatalog *self, const char *id);
const HwNodeShape *hw_catalog_lookup_shape(const HwCatalog *self, const char *id);
/* Catalog order (built-in files first, then loaded ones); (transfer none). */
const GPtrArray *hw_catalog_get_gpus(const HwCatalog *self);
const GPtrArray *hw_catalog_get_shapes(const HwCatalog *self);
/* "unknown node shape 'ID'; did you mean 'X'? shapes: A, B, ..." (base_strict_unknown);
 * (transfer full). */
char *hw_catalog_unknown_shape(const HwCatalog *self, const char *id);

const HwMigProfile *hw_gpu_model_lookup_profile(const HwGpuModel *model, const char *name);

/* A scenario's group of identical nodes (`node_pools:` in a catalog document). The
 * layout was checked against the shape's GPU model when the document was loaded. */
typedef struct {
	char *name;
	char *shape_id;
	const HwNodeShape *shape; /* resolved from shape_id */
	guint count;
	char *layout;         /* a hw_mig_layout_parse() string: "all-disabled", "3g.40gb@0,..." */
	gboolean dynamic_mig; /* mig: dynamic */
} HwNodePool;

/* Pools in document order; (transfer none). */
const GPtrArray *hw_catalog_get_pools(const HwCatalog *self);
const HwNodePool *hw_catalog_lookup_pool(const HwCatalog *self, const char *name);

/* ---- MIG geometry ------------------------------------------------------------ */

typedef struct {
	const HwMigProfile *profile;
	guint start; /* memory slice */
} HwMigInstance;

typedef enum {
	HW_MIG_OK,
	HW_MIG_NOT_CAPABLE,  /* the GPU model has no MIG */
	HW_MIG_BAD_START,    /* an instance sits at a start its profile does not allow */
	HW_MIG_OVERLAP,      /* two instances share a memory slice */
	HW_MIG_COMPUTE,      /* more compute slices than the GPU has */
	HW_MIG_MEDIA_EXT,    /* more than one +me instance */
	HW_MIG_MAX_COUNT,    /* more instances of a profile than it allows */
	HW_MIG_NO_PLACEMENT, /* (placing) no assignment of starts satisfies the rules */
} HwMigVerdict;

/**
 * hw_mig_check:
 * Checks a placed layout against NVIDIA's rules (nvidia-hw.md 2.1): valid start per
 * profile, no shared memory slice, compute slices within the GPU's, at most one +me,
 * per-profile maximum. @reason_out (optional) receives a sentence on failure.
 * Returns: HW_MIG_OK or the first rule broken.
 */
HwMigVerdict
hw_mig_check(const HwGpuModel *model, const HwMigInstance *instances, guint n, char **reason_out);

/**
 * hw_mig_place:
 * Gives each of @n unplaced profiles a start, deterministically: largest memory
 * size first, lowest free valid start, backtracking when a later profile no longer
 * fits. @out must hold @n instances; it is sorted by start on success.
 * Returns: HW_MIG_OK, or the verdict explaining why no placement exists.
 */
HwMigVerdict hw_mig_place(const HwGpuModel *model,
                          const HwMigProfile *const *profiles,
                          guint n,
                          HwMigInstance *out,
                          char **reason_out);

/**
 * hw_mig_layout_parse:
 * Parses a named layout for @model into placed instances (GArray of HwMigInstance):
 *   "all-disabled"        MIG off (returns an empty array, *@mig_enabled_out FALSE)
 *   "all-enabled"         MIG on, no instances (stranded GPU)
 *   "all-balanced"        the GPU Operator's balanced mix
 *   "all-<profile>"       as many instances of <profile> as fit
 *   "<p>[@start],..."     explicit list; "2x1g.10gb" repeats; "@start" pins a placement
 * Returns: (transfer full) the instances, or NULL with @error (HW_ERROR_INVALID) naming
 * the rule that fails.
 */
GArray *hw_mig_layout_parse(const HwGpuModel *model,
                            const char *layout,
                            gboolean *mig_enabled_out,
                            GError **error);

/* The DRA driver's device-name form of a profile: "1g.10gb+me" -> "1g10gb-me". */
char *hw_mig_profile_dns_name(const HwMigProfile *profile);

/* ---- node instances ---------------------------------------------------------- */

typedef enum {
	HW_MIG_MODE_OFF,
	HW_MIG_MODE_ON,
	HW_MIG_MODE_PENDING, /* Ampere: mode changed, waiting for a GPU reset */
} HwMigMode;

typedef struct {
	guint minor;
	char *uuid; /* "GPU-xxxxxxxx-xxxx-..." derived from node name and minor */
	/* the shape's, the same on every node: g_intern_string()'s, not freed */
	const char *bdf;
	const char *pcie_root;
	int numa;
	const HwGpuModel *model;
	HwMigMode mig_mode;
	GArray *instances; /* HwMigInstance, sorted by start */
} HwGpu;

typedef struct {
	/* the shape's names, the same on every node: g_intern_string()'s, not freed */
	const char *name; /* dranet device name: "pci-0000-10-1b-0" */
	const char *bdf;
	const char *pcie_root;
	const char *ifname;      /* NULL for EFA (no netdev) */
	const char *rdma_device; /* NULL without RDMA */
	char *mac;               /* a hash of the node name and the BDF */
	int numa;
	const HwNicModel *model;
} HwNic;

typedef struct {
	char *name;
	const HwNodeShape *shape;
	GPtrArray *gpus; /* HwGpu*, by minor */
	GPtrArray *nics; /* HwNic*, by BDF */
} HwNode;

/** hw_node_new: a node of @shape named @name, every GPU with MIG off. (transfer full) */
HwNode *hw_node_new(const HwNodeShape *shape, const char *name);
void hw_node_free(HwNode *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(HwNode, hw_node_free)

/**
 * hw_node_apply_layout:
 * Sets every GPU of @self to @layout (see hw_mig_layout_parse()). Used to build a
 * node's starting state; runtime changes go through hw_gpu_plan_reconfigure().
 * Returns: FALSE with @error if the layout is not feasible on this GPU model.
 */
gboolean hw_node_apply_layout(HwNode *self, const char *layout, GError **error);

/* ---- MIG reconfiguration ---------------------------------------------------- */

/* Durations of the steps, in microseconds. nvidia-hw.md 2.3: no published figures;
 * hw_reconfig_times_default() gives the reference's working assumptions. */
typedef struct {
	gint64 create_instance_us;  /* GI + CI creation, per instance */
	gint64 destroy_instance_us; /* per instance */
	gint64 mode_toggle_us;      /* MIG mode change without reset (Hopper and later) */
	gint64 gpu_reset_us;        /* GPU reset (Ampere mode change) */
} HwReconfigTimes;

void hw_reconfig_times_default(HwReconfigTimes *out);

typedef enum {
	HW_RECONFIG_OK,
	HW_RECONFIG_BUSY,       /* the GPU runs work: every change needs it idle */
	HW_RECONFIG_INFEASIBLE, /* the target layout breaks a MIG rule */
	HW_RECONFIG_NOT_CAPABLE,
} HwReconfigVerdict;

typedef struct {
	HwReconfigVerdict verdict;
	gint64 duration_us;
	gboolean needs_reset; /* a MIG mode change on a GPU that cannot toggle live */
	guint destroyed, created;
	char *reason; /* (transfer full) set unless HW_RECONFIG_OK */
} HwReconfigPlan;

/**
 * hw_gpu_plan_reconfigure:
 * Plans moving @gpu to (@target_enabled, @target[@n]): the instances to destroy and
 * create, whether the MIG mode change needs a reset, and how long it takes. Fills
 * @plan; free plan->reason with g_free().
 */
void hw_gpu_plan_reconfigure(const HwGpu *gpu,
                             gboolean gpu_busy,
                             gboolean target_enabled,
                             const HwMigInstance *target,
                             guint n,
                             const HwReconfigTimes *times,
                             HwReconfigPlan *plan);

/** hw_gpu_apply_reconfigure: carries out a plan that was HW_RECONFIG_OK. */
void
hw_gpu_apply_reconfigure(HwGpu *gpu, gboolean target_enabled, const HwMigInstance *target, guint n);

/* ---- published objects -------------------------------------------------------- */

typedef enum {
	HW_ATTR_STRING,
	HW_ATTR_INT,
	HW_ATTR_BOOL,
	HW_ATTR_VERSION,
} HwAttrType;

typedef struct {
	/* "type" (driver domain implied) or "resource.kubernetes.io/pcieRoot";
	 * g_intern_string()'s: a driver's few names, written for every device of every node */
	const char *name;
	HwAttrType type;
	char *str;  /* string and version values */
	gint64 num; /* int and bool values */
} HwAttr;

typedef enum {
	HW_QTY_DECIMAL, /* counts: "132" */
	HW_QTY_BINARY,  /* bytes: "80Gi" */
} HwQtyFormat;

typedef struct {
	char *name;
	gint64 value;
	HwQtyFormat format;
} HwQty;

typedef struct {
	char *counter_set;
	GArray *counters; /* HwQty */
} HwConsumption;

typedef struct {
	char *name;
	GArray *attrs;    /* HwAttr, in publication order */
	GArray *capacity; /* HwQty */
	GArray *consumes; /* HwConsumption */
} HwDevice;

typedef struct {
	char *name;
	GArray *counters; /* HwQty */
} HwCounterSet;

typedef struct {
	char *name;
	char *driver;
	char *node_name;
	char *pool;
	gint64 generation;
	guint slice_count;
	GPtrArray *counter_sets; /* HwCounterSet* */
	GPtrArray *devices;      /* HwDevice* */
} HwSlice;

void hw_slice_free(HwSlice *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(HwSlice, hw_slice_free)

const HwAttr *hw_device_lookup_attr(const HwDevice *device, const char *name);
const HwQty *hw_device_lookup_capacity(const HwDevice *device, const char *name);

typedef enum {
	HW_NAMING_V25_12, /* gpu-0-mig-1g10gb-19-0 (v25.12.0 and later) */
	HW_NAMING_V25_3,  /* gpu-0-mig-19-0-1 (v25.3.x..v25.8.x) */
} HwNaming;

typedef struct {
	gboolean dynamic_mig; /* DynamicMIG feature gate */
	gboolean k8s_1_35;    /* dynamic MIG: one counters slice + one slice per GPU */
	HwNaming naming;
	const char *driver_version;      /* "580.126.9" */
	const char *cuda_driver_version; /* "13.0.0" */
} HwPublishOptions;

void hw_publish_options_init(HwPublishOptions *out);

/**
 * hw_publish_nvidia:
 * The gpu.nvidia.com ResourceSlices of @node (nvidia-hw.md 1.2-1.4).
 * Returns: (transfer full) GPtrArray of HwSlice*, possibly empty.
 */
GPtrArray *hw_publish_nvidia(const HwNode *node, const HwPublishOptions *options);

/**
 * hw_publish_nvidia_renew:
 * Turns @slices, hw_publish_nvidia()'s with @options of another node of @node's
 * shape and MIG layout, into @node's: the slice's names and the uuids (a full
 * GPU's; a MIG device's uuid and parentUUID), the rest being the shape's (a
 * stamp, issue 19 item 3). Static slices only: FALSE, @slices unchanged, with
 * DynamicMIG or when the devices are not the ones @node publishes.
 */
gboolean
hw_publish_nvidia_renew(GPtrArray *slices, const HwNode *node, const HwPublishOptions *options);

/** hw_publish_dranet: the dra.net ResourceSlice of @node's NICs (NULL if it has none). */
HwSlice *hw_publish_dranet(const HwNode *node);

/**
 * hw_publish_dranet_renew:
 * Turns @slice, hw_publish_dranet()'s of another node of @node's shape, into
 * @node's: its name, node name, pool and the NICs' macs, the rest being the
 * shape's (a stamp, issue 19 item 3). FALSE, @slice unchanged, when the NICs'
 * names or netdevs differ.
 */
gboolean hw_publish_dranet_renew(HwSlice *slice, const HwNode *node);

/* A DeviceClass as a driver's Helm chart installs it. */
typedef struct {
	const char *name;
	const char *expression;
	const char *extended_resource_name; /* NULL if none */
	const char *chart_template;         /* the chart file that installs it (for messages) */
} HwDeviceClass;

/**
 * hw_nvidia_device_classes: the classes the NVIDIA DRA driver's chart installs,
 * terminated by a NULL name. The one list of them: `drasim publish`, the DRA
 * world of a run and `drasim lint` all read it. (dranet's chart and install.yaml
 * install no DeviceClass: users write their own for dra.net.)
 */
const HwDeviceClass *hw_nvidia_device_classes(void);

/* ---- generic drivers ------------------------------------------------------------ */

typedef struct HwGenericDriver HwGenericDriver;

/**
 * hw_generic_driver_parse:
 * Parses a generic driver description (FPGAs, custom accelerators, SR-IOV VFs):
 *   driver: fpga.example.com
 *   devices: { count: 4, name: "fpga-{index}",
 *              attributes: { model: {string: u250}, index: {int: "{index}"} },
 *              capacity: { memory: 64Gi } }
 * Returns: (transfer full) the driver, or NULL with a positioned @error.
 */
HwGenericDriver *
hw_generic_driver_parse(const char *filename, const char *data, gsize len, GError **error);
void hw_generic_driver_free(HwGenericDriver *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(HwGenericDriver, hw_generic_driver_free)
HwSlice *hw_generic_driver_publish(const HwGenericDriver *self, const char *node_name);

/* ---- output ------------------------------------------------------------------- */

/* A Node object as the publisher emits it; labels and resources are name-sorted. */
typedef struct {
	char *name;
	GPtrArray *label_keys, *label_values;        /* char*, parallel */
	GPtrArray *resource_names, *resource_values; /* capacity == allocatable */
} HwNodeObject;

HwNodeObject *hw_node_object_new(const HwNode *node);
void hw_node_object_set_label(HwNodeObject *self, const char *key, const char *value);
void hw_node_object_set_resource(HwNodeObject *self, const char *name, const char *value);
void hw_node_object_free(HwNodeObject *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(HwNodeObject, hw_node_object_free)

/**
 * hw_yaml_write_list:
 * A `kind: List` of @nodes, @classes (may be NULL) and @slices as
 * `kubectl get -o yaml` shows them (resource.k8s.io/v1): the model/api objects
 * hw_load_published() builds, printed by api's encoder in kubectl's style.
 * Returns: (transfer full) the YAML text.
 */
char *
hw_yaml_write_list(const GPtrArray *nodes, const HwDeviceClass *classes, const GPtrArray *slices);

/** hw_qty_format: canonical Kubernetes quantity text ("80Gi", "132"). */
char *hw_qty_format(gint64 value, HwQtyFormat format);

G_END_DECLS
