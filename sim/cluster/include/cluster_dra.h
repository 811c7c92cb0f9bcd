/*
 * cluster_dra.h: the DynamicResources plugin of the simulated scheduler on top
 * of model/dra's allocator (a ClusterDraOps implementation), the claims'
 * allocated state, and the placement of a bound pod on the devices its claims
 * got. A separate header: it needs model/api, model/cel and model/dra.
 *
 * Use: cluster_dra_new(); register classes, slices, user-created claims and
 * templates; cluster_dra_configure() a ClusterSimConfig, create the
 * simulation, cluster_dra_attach() it; then for each pod cluster_sim_add_pod()
 * followed by cluster_dra_add_pod() with its spec.
 */
#pragma once

#include "cluster_query.h"
#include "cluster_sim.h"
#include "cluster_types.h"
#include "dra.h"
#include "dra_k8s.h"
#include "k8s_types.h"

G_BEGIN_DECLS

typedef struct ClusterDra ClusterDra;

/* @features: NULL = the 1.34 defaults. */
ClusterDra *cluster_dra_new(const DraFeatures *features);
void cluster_dra_free(ClusterDra *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterDra, cluster_dra_free)

/* Sets @config's DRA ops, claim hooks and placement hook to this adapter. */
void cluster_dra_configure(ClusterDra *self, ClusterSimConfig *config);
/*
 * DynamicResources' filterTimeout in microseconds (default 10 s; 0: none, as
 * with the DRASchedulerFilterTimeout gate off): a node whose search runs out
 * of the step budget is unschedulable for the pod, "timed out trying to
 * allocate devices" (docs/allocator.md, "Filter timeout").
 */
void cluster_dra_set_filter_timeout(ClusterDra *self, gint64 timeout_us);
/* The simulation built with that config; before any pod is added. */
void cluster_dra_attach(ClusterDra *self, ClusterSim *sim);

/* Inventory, borrowed (the object set must outlive the adapter); order matters. */
void cluster_dra_add_class(ClusterDra *self, const K8sDeviceClass *klass);
void cluster_dra_add_slice(ClusterDra *self, const K8sResourceSlice *slice);
/*
 * The allocator's copy of @slice, made now and added at the next
 * cluster_dra_add_converted_slices() in the order of the calls. The copy borrows
 * only the object's strings, so the object itself may go once this returns
 * (sim/world publishes each node into scratch memory, docs/cluster.md "Memory").
 */
void cluster_dra_convert_slice(ClusterDra *self, const K8sResourceSlice *slice);
void cluster_dra_add_converted_slices(ClusterDra *self);
/* Stamping a node's slices from the previous node's (dra_k8s.h): the driver's
 * template, or NULL; a stamp, or NULL; and a stamp joining the converted slices
 * (added at the next cluster_dra_add_converted_slices(), in call order). */
const DraSlice *cluster_dra_stamp_template(ClusterDra *self, const char *driver);
const DraSlice *
cluster_dra_stamp_slice(ClusterDra *self, const DraSlice *tmpl, const DraStamp *stamp);
void cluster_dra_add_stamped_slice(ClusterDra *self, const DraSlice *stamped);
/* A user-created claim: it joins the simulation's claim controller. */
void cluster_dra_add_claim(ClusterDra *self, const K8sResourceClaim *claim);
void cluster_dra_add_template(ClusterDra *self, const K8sResourceClaimTemplate *tmpl);
/*
 * cluster_dra_add_allocated_claim: a claim with status.allocation (an imported
 * cluster): its devices stay allocated to it (never allocated again) until
 * its last consumer is gone (cluster_dra_import.c). @held maps
 * "driver/pool/device" to the claim holding it, across the calls of one run
 * (g_str_hash, keys freed with g_free): a device two claims hold exclusively is
 * an error in @diags at the second claim's result, and FALSE.
 */
gboolean cluster_dra_add_allocated_claim(ClusterDra *self,
                                         const K8sResourceClaim *claim,
                                         GHashTable *held,
                                         K8sDiagList *diags);
/*
 * After the FGD paper's per-GPU state is on the nodes (world_gpushare.c):
 * claims allocated in the input (cluster_dra_add_allocated_claim) mark their
 * devices held on the node their allocation's nodeSelector names, as a
 * claim allocated at Reserve does, and free them when deallocated.
 */
void cluster_dra_gpushare_hold_imported(ClusterDra *self);
/**
 * cluster_dra_set_node_devices:
 * @names: the device names (as published in the node's slices) of the
 *   compute devices given to cluster_sim_add_node(), index for index
 */
void cluster_dra_set_node_devices(ClusterDra *self,
                                  const char *node,
                                  const char *const *names,
                                  guint n_names);
/**
 * cluster_dra_rename_node_device:
 *
 * The node's driver republished its pool with @old_name's device as
 * @new_name: the same hardware, so a pod allocated @new_name runs on the
 * compute device @old_name is (a claim still holding @old_name shares it).
 * Forgotten when cluster_dra_set_node_devices() replaces the node's table.
 * @index_out (nullable): which compute device of the node it is.
 * Returns: FALSE when the node has no compute device @old_name.
 */
gboolean cluster_dra_rename_node_device(ClusterDra *self,
                                        const char *node,
                                        const char *old_name,
                                        const char *new_name,
                                        guint *index_out);
/* The name the node's driver now publishes its device first named @name
 * under (@name when never renamed). */
const char *cluster_dra_node_device_name(ClusterDra *self, const char *node, const char *name);
/*
 * The devices of the pod's last placement that are not compute devices (not
 * in the node's cluster_dra_set_node_devices() table: NICs, ...), each as
 * "driver/pool/device"; NULL when there are none.
 */
const GPtrArray *cluster_dra_get_pod_other_devices(const ClusterDra *self, guint pod);
/* The pod's claim references (@spec borrowed); @index from cluster_sim_add_pod(). */
void
cluster_dra_add_pod(ClusterDra *self, guint index, const char *namespace_, const K8sPodSpec *spec);
/**
 * cluster_dra_pod_claim_refs:
 * @claims: (out) (transfer full): resourceClaimName references
 * @templates: (out) (transfer full): pod claim names backed by templates
 *
 * The two lists ClusterSimWork wants, from a pod spec.
 */
void cluster_dra_pod_claim_refs(const K8sPodSpec *spec, char ***claims, char ***templates);

/**
 * cluster_dra_enable_extended_resources:
 * @names: (transfer none): the resource names of the pods' request slots
 *
 * Turns on DRAExtendedResource (KEP-5004, alpha, off in 1.34): a pod's
 * request of an extended resource that a DeviceClass maps is allocated by
 * DynamicResources on nodes that do not advertise it. Call before adding pods.
 */
void cluster_dra_enable_extended_resources(ClusterDra *self, ClusterResNames *names);

const DraStats *cluster_dra_get_allocator_stats(ClusterDra *self);

/* cluster_dra_explain.c (off the hot path) */
/* (transfer full) (nullable): the allocator's diagnosis of pod @index now. */
char *cluster_dra_explain_pod(ClusterDra *self, guint index);
/* (transfer full) (nullable): the pod's claims and their allocated devices. */
char *cluster_dra_describe_pod(ClusterDra *self, guint index);

/**
 * cluster_dra_add_taint_rule:
 * @rule: (transfer none): must outlive the adapter
 *
 * A DeviceTaintRule created now (DRADeviceTaints; without the gate the API is
 * not served and nothing happens). The allocator applies it to the devices it
 * selects, so NoSchedule and NoExecute keep untolerating requests off them; a
 * NoExecute rule also evicts, as the device taint eviction controller does,
 * every bound pod with a claim allocated on a device the rule names by
 * driver, pool and device (its CEL selectors and class are not evaluated here)
 * whose request does not tolerate the taint: at once, or when the smallest
 * tolerationSeconds of the request's matching NoExecute tolerations has
 * passed since the rule was added (a matching one without it tolerates
 * forever). Returns the pods evicted at once.
 */
guint cluster_dra_add_taint_rule(ClusterDra *self, const DraTaintRule *rule);
/* The same for a DeviceTaintRule manifest (scenario_run.c passes only rules
 * without NoExecute). The converted rule lives as long as @self. */
guint cluster_dra_add_taint_rule_object(ClusterDra *self, const K8sDeviceTaintRule *rule);
/* The DeviceTaintRule was deleted: its devices may be allocated again and the
 * evictions it scheduled are recomputed (cancelled when nothing else is due). */
void cluster_dra_remove_taint_rule(ClusterDra *self, const DraTaintRule *rule);

G_END_DECLS
