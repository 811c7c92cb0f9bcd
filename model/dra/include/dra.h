/*
 * dra.h: the structured DRA allocator of Kubernetes 1.34, in C.
 *
 * Inputs are plain structs (DraSlice, DraClass, DraClaim, DraNode) that the
 * caller fills from whatever it decoded; the allocator borrows them and never
 * copies. A DraAllocator is built once per scheduling cycle (inventory, classes,
 * devices in use), prepares its indexes on first use, and then answers
 * dra_allocator_allocate(node, claims) per candidate node without allocating
 * memory in steady state. Semantics follow k8s.io/dynamic-resource-allocation
 * structured/internal/experimental (release-1.34), quirks included.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Errors of the bridges (selector compilation); the allocator itself reports values. */
#define DRA_ERROR (dra_error_quark())
GQuark dra_error_quark(void);

typedef enum {
	DRA_ERROR_SELECTOR, /* a selector did not compile */
} DraErrorCode;

/* Quantities are carried as signed milli-units (1 = 0.001): 1Ti * 1000 fits. */
typedef gint64 DraMilli;

/* ---- node selection (core/v1 NodeSelector) ---- */

typedef struct {
	const char *key;
	const char *op; /* In, NotIn, Exists, DoesNotExist, Gt, Lt */
	const char *const *values;
	guint n_values;
} DraNodeSelectorRequirement;

typedef struct {
	const DraNodeSelectorRequirement *match_expressions;
	guint n_match_expressions;
	const DraNodeSelectorRequirement *match_fields;
	guint n_match_fields;
} DraNodeSelectorTerm;

typedef struct {
	const DraNodeSelectorTerm *terms;
	guint n_terms;
} DraNodeSelector;

typedef struct {
	const char *name;
	const char *const *label_keys;
	const char *const *label_values;
	guint n_labels;
} DraNode;

/* ---- ResourceSlice ---- */

typedef enum {
	DRA_ATTR_INT,
	DRA_ATTR_BOOL,
	DRA_ATTR_STRING,
	DRA_ATTR_VERSION,
} DraAttrKind;

typedef struct {
	const char *name; /* as published: "id" or "domain/id" */
	DraAttrKind kind;
	gint64 int_value;
	gboolean bool_value;
	const char *string_value; /* STRING and VERSION */
} DraAttribute;

typedef struct {
	gboolean has_default;
	DraMilli default_value;
	const DraMilli *valid_values; /* ascending */
	guint n_valid_values;
	gboolean has_range;
	DraMilli range_min;
	gboolean has_range_max;
	DraMilli range_max;
	gboolean has_range_step;
	DraMilli range_step;
} DraRequestPolicy;

typedef struct {
	const char *name;
	DraMilli value;
	const DraRequestPolicy *policy; /* NULL = none */
	const char *text;               /* the quantity as written (CEL sees it exactly), or NULL */
} DraCapacity;

typedef struct {
	const char *name;
	DraMilli value;
} DraCounter;

typedef struct {
	const char *name;
	const DraCounter *counters;
	guint n_counters;
} DraCounterSet;

typedef struct {
	const char *counter_set;
	const DraCounter *counters;
	guint n_counters;
} DraCounterConsumption;

typedef struct {
	const char *key;
	const char *value;
	const char *effect; /* NoSchedule, NoExecute, or anything else (ignored) */
} DraTaint;

typedef struct {
	const char *key;
	const char *op; /* "", Equal, Exists */
	const char *value;
	const char *effect;
	/* tolerationSeconds: only the device taint eviction controller reads it */
	gboolean has_seconds;
	gint64 seconds;
} DraToleration;

typedef struct {
	const char *name;
	const DraAttribute *attributes;
	guint n_attributes;
	const DraCapacity *capacity;
	guint n_capacity;
	const DraCounterConsumption *consumes_counters;
	guint n_consumes_counters;
	/* per-device node selection (only with slice->per_device_node_selection) */
	const char *node_name;
	gboolean all_nodes;
	const DraNodeSelector *node_selector;
	const DraTaint *taints;
	guint n_taints;
	gboolean binds_to_node;
	const char *const *binding_conditions;
	guint n_binding_conditions;
	const char *const *binding_failure_conditions;
	guint n_binding_failure_conditions;
	gboolean allow_multiple_allocations;
	/*
	 * The attributes of this device alone (uuid, mac), when `attributes` holds the
	 * rest and is shared by the same device of every node of one shape (dra_k8s.c):
	 * the device's attributes are both arrays, a name is in one of them.
	 */
	const DraAttribute *node_attributes;
	guint n_node_attributes;
} DraDevice;

typedef struct {
	const char *name;
	const char *driver;
	const char *pool;
	gint64 generation;
	gint64 resource_slice_count;
	const char *node_name; /* NULL or "" = unset */
	gboolean all_nodes;
	const DraNodeSelector *node_selector;
	gboolean per_device_node_selection_set; /* the field is present (even false) */
	gboolean per_device_node_selection;
	const DraDevice *devices;
	guint n_devices;
	const DraCounterSet *shared_counters;
	guint n_shared_counters;
} DraSlice;

/* ---- DeviceTaintRule (v1alpha3), applied to the inventory ---- */

typedef struct {
	const char *device_class_name; /* NULL = any; else the class's selectors must match */
	const char *driver;            /* NULL = any */
	const char *pool;
	const char *device;
	const char *const *selectors; /* CEL; all must match (a runtime error: no match) */
	guint n_selectors;
	DraTaint taint;
} DraTaintRule;

/* ---- DeviceClass and ResourceClaim ---- */

typedef struct {
	const char *driver;
	const char *parameters; /* canonical JSON text of the parameters */
	gconstpointer origin;   /* caller's object, handed back in results */
} DraOpaqueConfig;

typedef struct {
	const char *name;
	const char *const *selectors; /* CEL expressions; a NULL entry = selector without cel */
	guint n_selectors;
	const DraOpaqueConfig *const *config; /* a NULL entry = config without opaque */
	guint n_config;
} DraClass;

typedef struct {
	const char *name;
	DraMilli value;
} DraCapacityRequest;

/* The fields of ExactDeviceRequest, also used for sub-requests. */
typedef struct {
	const char *name; /* sub-request name; unused for the exact part of a request */
	const char *device_class_name;
	const char *const *selectors; /* a NULL entry = selector without cel */
	guint n_selectors;
	const char *allocation_mode; /* "ExactCount", "All", anything else is an error */
	gint64 count;
	gboolean has_admin_access;
	gboolean admin_access;
	const DraToleration *tolerations;
	guint n_tolerations;
	gboolean has_capacity;
	const DraCapacityRequest *capacity_requests;
	guint n_capacity_requests;
} DraExactRequest;

typedef struct {
	const char *name;
	gboolean has_exactly;
	DraExactRequest exactly;
	const DraExactRequest *first_available;
	guint n_first_available;
} DraRequest;

typedef struct {
	const char *const *requests;
	guint n_requests;
	const char *match_attribute; /* fully qualified */
	const char *distinct_attribute;
} DraConstraint;

typedef struct {
	const char *const *requests;
	guint n_requests;
	const DraOpaqueConfig *opaque;
} DraClaimConfig;

typedef struct {
	const char *namespace_; /* may be NULL or "" */
	const char *name;
	const DraRequest *requests;
	guint n_requests;
	const DraConstraint *constraints;
	guint n_constraints;
	const DraClaimConfig *config;
	guint n_config;
} DraClaim;

/* ---- features, quirks, statistics ---- */

typedef struct {
	gboolean admin_access;          /* DRAAdminAccess */
	gboolean prioritized_list;      /* DRAPrioritizedList */
	gboolean partitionable_devices; /* DRAPartitionableDevices */
	gboolean device_taints;         /* DRADeviceTaints */
	gboolean device_binding;        /* DRADeviceBindingConditions */
	gboolean device_status;         /* DRAResourceClaimDeviceStatus */
	gboolean consumable_capacity;   /* DRAConsumableCapacity */
} DraFeatures;

/* The feature-gate defaults of Kubernetes 1.34. */
DraFeatures dra_features_default(void);
/* All seven switched off (a corpus case then turns on what its header names). */
DraFeatures dra_features_none(void);
/**
 * dra_features_set:
 * Sets the gate called @name (e.g. "DRAAdminAccess") to @value.
 * Returns: FALSE if @name is not one of the seven allocator gates.
 */
gboolean dra_features_set(DraFeatures *self, const char *name, gboolean value);
/* The seven gates' names, NULL-terminated, for listing them. */
const char *const *dra_feature_names(void);

/*
 * Production quirks, all on by default. Each can be switched off to get the
 * intended semantics; the statistics count how often each one changed a decision.
 */
typedef struct {
	/* allocateDevice re-checks capacity against slice.devices[r.deviceIndex] */
	gboolean capacity_recheck_by_request_index;
	/* validation of sub-request i caches "All" matches under key i-1 */
	gboolean stale_subrequest_key;
} DraQuirks;

typedef struct {
	guint64 allocate_calls;
	guint64 allocate_one_calls; /* upstream numAllocateOneInvocations */
	guint64 devices_tried;
	guint64 selector_evaluations;
	guint64 backtracks;
	guint64 constraint_rejections;
	guint64 pruned;                /* subtrees skipped by counting (dra_allocator_set_prune) */
	guint64 quirk_counters_leaked; /* counters kept after a later failed check */
	guint64 quirk_distinct_by_pointer;  /* distinctAttribute passed on equal values */
	guint64 quirk_capacity_recheck;     /* re-check used another device than the candidate */
	guint64 quirk_stale_subrequest_key; /* cache entry written under the previous sub-request */
	guint64 quirk_device_marked_on_fail; /* device stayed marked after a failed re-check */
	guint64 quirk_all_subrequest_index;  /* "All" sub-request continued as sub-request 0 */
	/*
	 * Calls answered by the Filter memo (dra_allocator_set_memo): counted in
	 * allocate_calls like any call, and the search they skipped is added to
	 * the other counters, so allocate_calls - memo_hits searches really ran.
	 */
	guint64 memo_hits;
	/*
	 * Calls answered for a node by another node's call in the same scheduling
	 * cycle (dra_allocator_add_stats: equal node signatures), counted in
	 * allocate_calls like any call, with that call's statistics added again.
	 */
	guint64 class_answers;
} DraStats;

/* ---- selector evaluation (CEL), pluggable ---- */

typedef enum {
	DRA_MATCH_FALSE,
	DRA_MATCH_TRUE,
	DRA_MATCH_ERROR,
} DraMatch;

/*
 * DraSelectorOps: how the allocator compiles and evaluates selectors. compile
 * returns a handle or NULL with @error set; eval returns a DraMatch and, for
 * DRA_MATCH_ERROR, a message borrowed until the next eval. @view is a per-device
 * slot (initially NULL) where eval may cache a prepared view of @device; it is
 * released with free_view when the allocator is freed.
 */
typedef struct {
	gpointer (*compile)(gpointer data, const char *expression, GError **error);
	DraMatch (*eval)(gpointer data,
	                 gpointer program,
	                 const DraDevice *device,
	                 const char *driver,
	                 gpointer *view,
	                 const char **message);
	void (*free_program)(gpointer data, gpointer program);
	void (*free_view)(gpointer data, gpointer view);
	/*
	 * (nullable) TRUE once an evaluation of @program read a value particular
	 * to one node (DraDevice.node_attributes); sticky. NULL: assume it may.
	 */
	gboolean (*reads_node_values)(gpointer data, gpointer program);
} DraSelectorOps;

/* ---- results ---- */

typedef struct {
	const char *name;
	DraMilli value;
} DraConsumed;

typedef struct {
	const char *request; /* "req" or "req/sub" */
	const char *driver;
	const char *pool;
	const char *device;
	gboolean admin_access;
	const DraToleration *tolerations; /* the request's, when results carry them */
	guint n_tolerations;
	const char *share_id; /* NULL for dedicated devices */
	const DraConsumed *consumed;
	guint n_consumed;
	const char *const *binding_conditions;
	guint n_binding_conditions;
	const char *const *binding_failure_conditions;
	guint n_binding_failure_conditions;
	const DraDevice *device_spec;
	const DraSlice *slice;
} DraDeviceResult;

typedef struct {
	gboolean from_class; /* source FromClass, else FromClaim */
	const char *const *requests;
	guint n_requests;
	const DraOpaqueConfig *opaque;
} DraConfigResult;

typedef struct {
	const DraDeviceResult *results;
	guint n_results;
	const DraConfigResult *config;
	guint n_config;
	const DraNodeSelector *node_selector; /* NULL = usable on every node */
} DraAllocation;

typedef enum {
	DRA_OUTCOME_ALLOCATED,
	DRA_OUTCOME_UNSCHEDULABLE, /* no error, but no solution on this node */
	DRA_OUTCOME_ERROR,         /* fatal: upstream returns an error */
} DraOutcome;

/* ---- the allocator ---- */

typedef struct DraAllocator DraAllocator;

/**
 * dra_allocator_new:
 * @features: copied
 * @ops: (nullable): selector evaluation; without it every selector is an error
 * Returns: (transfer full): an empty allocator.
 */
DraAllocator *
dra_allocator_new(const DraFeatures *features, const DraSelectorOps *ops, gpointer ops_data);
void dra_allocator_free(DraAllocator *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DraAllocator, dra_allocator_free)

void dra_allocator_set_quirks(DraAllocator *self, const DraQuirks *quirks);
/* Seeds the generator of shareIDs (deterministic UUIDs). */
void dra_allocator_set_seed(DraAllocator *self, guint32 seed);
/*
 * Pruning: within one ExactCount request, try device sets as combinations
 * (each next device after the previous one in search order) instead of
 * permutations. Applied only where it cannot change the first solution: not
 * with DRAPartitionableDevices or DRAConsumableCapacity on, whose quirks make
 * the outcome depend on the order of failed attempts. Off by default, since it
 * changes the statistics (allocate_one_calls) that upstream's tests check.
 */
void dra_allocator_set_prune(DraAllocator *self, gboolean on);
/* Results carry the request's tolerations (newer than 1.34); off by default. */
void dra_allocator_set_result_tolerations(DraAllocator *self, gboolean on);
/*
 * Filter memo (dra_memo.c), off by default. The search is deterministic: its
 * answer on a node depends only on the claims' specs (not their names), the
 * node's pools and the allocated state of their devices. With the memo on,
 * allocate_on() remembers per node the outcome for a few claim shapes with a
 * generation of the node's allocated state, and answers a repeated question
 * without searching: same outcome, same statistics (the skipped search's
 * counts are added; memo_hits counts the calls). Results, reason and error of
 * such an answer are computed by a real search when first read. Not used with
 * DRAConsumableCapacity (shareIDs draw random numbers), per-device node
 * selection (labels) or "All" requests, and never for errors.
 */
void dra_allocator_set_memo(DraAllocator *self, gboolean on);

/*
 * The DynamicResources Filter timeout (DRASchedulerFilterTimeout, beta and on
 * in Kubernetes 1.34; DynamicResourcesArgs.filterTimeout, default 10 s per
 * Filter call, 0 disables it). Upstream runs Allocate() under a context with
 * that deadline, and allocateOne checks the context on every invocation
 * (structured/internal/experimental/allocator_experimental.go, release-1.34):
 * the search stops with "filter operation aborted: context deadline exceeded",
 * and Filter marks the node UnschedulableAndUnresolvable with the message
 * DRA_TIMEOUT_REASON (pkg/scheduler/framework/plugins/dynamicresources/
 * dynamicresources.go). drasim makes the deadline deterministic: a budget of
 * allocateOne invocations per Allocate call, DRA_FILTER_STEPS_PER_SECOND of
 * them per second of filterTimeout (docs/allocator.md, "Filter timeout",
 * for the calibration).
 */
#define DRA_TIMEOUT_REASON          "timed out trying to allocate devices"
#define DRA_FILTER_TIMEOUT_DEFAULT  (10 * G_USEC_PER_SEC) /* microseconds */
#define DRA_FILTER_STEPS_PER_SECOND 1000000
/* Steps for a filterTimeout of @timeout_us microseconds (0: 0, no bound); saturates. */
guint64 dra_filter_timeout_steps(gint64 timeout_us);
/*
 * At most @steps allocateOne invocations per allocate/allocate_on call; the
 * next one ends the search: the outcome is DRA_OUTCOME_UNSCHEDULABLE,
 * dra_allocator_timed_out() is TRUE and the reason is DRA_TIMEOUT_REASON.
 * 0 (the default) = no bound, as with the gate off or filterTimeout: 0s.
 */
void dra_allocator_set_step_budget(DraAllocator *self, guint64 steps);
/*
 * Labels on demand: for a DraNode passed with label_keys NULL, @func fills a
 * copy's three label fields (valid until the allocator's call returns) when
 * the allocator needs them (node selection of a slice or device). A scheduler
 * asks about hundreds of nodes per pod and most answers need no label.
 */
typedef void (*DraNodeLabelsFunc)(gpointer data, DraNode *node);
void dra_allocator_set_node_labels_func(DraAllocator *self, DraNodeLabelsFunc func, gpointer data);

/* Inventory. All pointers are borrowed and must outlive the allocator. Order matters. */
void dra_allocator_add_slice(DraAllocator *self, const DraSlice *slice);
void dra_allocator_add_class(DraAllocator *self, const DraClass *klass);
void dra_allocator_add_taint_rule(DraAllocator *self, const DraTaintRule *rule);
/* The DeviceTaintRule was deleted: @rule (as added) no longer applies. */
void dra_allocator_remove_taint_rule(DraAllocator *self, const DraTaintRule *rule);

/* Allocated state: a dedicated device in use by another claim. */
void dra_allocator_mark_allocated(DraAllocator *self,
                                  const char *driver,
                                  const char *pool,
                                  const char *device,
                                  gboolean allocated);
/*
 * Allocated state: one allocation result with a shareID on a multi-allocatable
 * device and the capacity it consumed; @add FALSE takes it back (the claim was
 * deallocated). A device with at least one share has an "aggregated capacity"
 * entry, as the scheduler's allocated state does.
 */
void dra_allocator_add_shared(DraAllocator *self,
                              const char *driver,
                              const char *pool,
                              const char *device,
                              const DraConsumed *consumed,
                              guint n_consumed,
                              gboolean add);
/*
 * The allocated state as it stands, for the run-model invariants: whether a
 * dedicated device is marked in use, how many are, and how many shares
 * (results with a shareID) the multi-allocatable devices hold in all.
 */
gboolean dra_allocator_is_allocated(DraAllocator *self,
                                    const char *driver,
                                    const char *pool,
                                    const char *device);
guint dra_allocator_count_allocated(const DraAllocator *self);
gint64 dra_allocator_count_shares(const DraAllocator *self);

/**
 * dra_allocator_allocate:
 * @node: (nullable): the candidate node
 * @claims: the unallocated claims of one pod, in order
 *
 * Runs the search. The allocations and the error message are owned by the
 * allocator and stay valid until the next call.
 */
DraOutcome dra_allocator_allocate(DraAllocator *self,
                                  const DraNode *node,
                                  const DraClaim *const *claims,
                                  guint n_claims);
/*
 * The same in two steps, for trying one pod on many nodes: the claims are
 * validated once and reused on every node (they, and the array, must not change
 * until the next dra_allocator_set_claims()). Same answers as the one-step call.
 */
void dra_allocator_set_claims(DraAllocator *self, const DraClaim *const *claims, guint n_claims);
DraOutcome dra_allocator_allocate_on(DraAllocator *self, const DraNode *node);
/*
 * The same with a caller-kept reference to the node's prepared pools: a
 * scheduler keeps one DraNodeRef per node object (zeroed at first) and passes
 * it with that node only, which saves finding the node by name on every call.
 */
typedef struct {
	gpointer pools;
	guint epoch;
} DraNodeRef;
DraOutcome dra_allocator_allocate_on_ref(DraAllocator *self, const DraNode *node, DraNodeRef *ref);
const DraAllocation *dra_allocator_get_allocation(DraAllocator *self, guint claim_index);
const char *dra_allocator_get_error(DraAllocator *self);
/* Why the last call was unschedulable, naming a request (NULL if unknown). */
const char *dra_allocator_get_reason(DraAllocator *self);
/* The last call ran out of its step budget (an UNSCHEDULABLE answer). */
gboolean dra_allocator_timed_out(DraAllocator *self);
/*
 * Marks the devices of the last successful call's claim @claim_index as in use
 * (dedicated devices) or adds their shares (multi-allocatable devices). To undo,
 * call dra_allocator_mark_allocated(FALSE) / dra_allocator_add_shared(FALSE)
 * with the same results.
 */
void dra_allocator_commit(DraAllocator *self, guint claim_index);

/**
 * dra_allocator_count_matching:
 * For lint: how many devices of all slices (on any node, in use or not) pass
 * the class and the selectors of @req. Returns -1 with @error (transfer full)
 * set when the class is unknown or a selector fails to evaluate.
 */
gint dra_allocator_count_matching(DraAllocator *self, const DraExactRequest *req, char **error);

/**
 * dra_allocator_explain:
 * @claims: the unallocated claims of one pod, as for dra_allocator_set_claims()
 * @nodes: the nodes DynamicResources tried
 *
 * Off the hot path (dra_explain.c): which request, and which selector or
 * constraint, ruled devices out on how many of @nodes, e.g. "request gpu:
 * selector `...` matched no device on 500 nodes, 12 nodes had matching
 * devices but all were allocated". Statistics are left unchanged; the claims
 * set with dra_allocator_set_claims() are replaced.
 * Returns: (transfer full) (nullable): NULL when every node can allocate them.
 */
char *dra_allocator_explain(DraAllocator *self,
                            const DraClaim *const *claims,
                            guint n_claims,
                            const DraNode *nodes,
                            guint n_nodes);

const DraStats *dra_allocator_get_stats(DraAllocator *self);
void dra_allocator_reset_stats(DraAllocator *self);

/*
 * ---- answers shared by nodes of one signature (dra_signature.c) ----
 *
 * A node's signature is 0 when it cannot be keyed (it sees slices without a
 * nodeName, per-device node selection, DeviceTaintRules, consumable capacity, a
 * pool it cannot gather); otherwise equal signatures mean equal pools but for
 * names and per-node attribute values (DraDevice.node_attributes), and equal
 * allocated state: exactly (an interned canonical text), not a hash.
 */
guint dra_allocator_node_signature(DraAllocator *self, const DraNode *node, DraNodeRef *ref);
/* Bumped by every change of the allocated state (and of the inventory). */
guint64 dra_allocator_get_state_changes(const DraAllocator *self);
/*
 * After a call with the current claims: TRUE when its answer may depend on a
 * node's own values (a selector of the claims read one so far, or a claim has
 * constraints and the node's devices have per-node attributes) or on anything
 * but the node's signature ("All" requests: validation per node).
 */
gboolean dra_allocator_answer_reads_node_values(DraAllocator *self);
/* An id for @delta (interned; allocates only for a new value). */
guint dra_allocator_intern_stats(DraAllocator *self, const DraStats *delta);
/* Adds the statistics interned as @id @times (as class answers of @times calls). */
void dra_allocator_add_stats(DraAllocator *self, guint id, guint64 times);

/* ---- helpers ---- */

/**
 * dra_node_selector_matches:
 * Node-affinity semantics: terms are ORed, requirements ANDed, matchFields
 * knows metadata.name. Returns FALSE with @error_out (transfer full) set when
 * the selector cannot be parsed (unknown operator, bad Gt/Lt value, ...).
 */
gboolean dra_node_selector_matches(const DraNodeSelector *selector,
                                   const DraNode *node,
                                   gboolean *matches,
                                   char **error_out);

/* Parses a Kubernetes quantity into milli-units; FALSE on syntax error or overflow. */
gboolean dra_milli_parse(const char *text, DraMilli *out);
/* Formats milli-units the way resource.Quantity prints a canonical value. */
char *dra_milli_format(DraMilli value);

G_END_DECLS
