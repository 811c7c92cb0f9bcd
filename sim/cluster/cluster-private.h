/*
 * cluster-private.h: declarations shared by the cluster_*.c files only.
 */
#pragma once

#include "cluster_claims.h"
#include "cluster_journal.h"
#include "cluster_plugin.h"
#include "cluster_query.h"
#include "cluster_queue.h"
#include "cluster_run.h"
#include "cluster_sched.h"
#include "cluster_sim.h"
#include "cluster_types.h"

/* Non-zero defaults of pkg/scheduler/util (DefaultMilliCPURequest, DefaultMemoryRequest). */
#define CLUSTER_DEFAULT_MILLI_CPU_REQUEST 100
#define CLUSTER_DEFAULT_MEMORY_REQUEST    (200 * 1024 * 1024)

/* Runs the filters in profile order; returns the rejecting plugin or CLUSTER_N_PLUGINS. */
ClusterPlugin cluster_filter__run(const ClusterPod *pod,
                                  const ClusterNode *node,
                                  guint64 *plugin_calls,
                                  const char **reason);
/* The resource slots NodeResourcesFit checks for @pod (one bit each, pods excluded). */
guint32 cluster_filter__fit_mask(const ClusterPod *pod);
/* cluster_filter__run with the pod's fit mask computed once per cycle. */
ClusterPlugin cluster_filter__run_mask(const ClusterPod *pod,
                                       guint32 fit_mask,
                                       const ClusterNode *node,
                                       guint64 *plugin_calls,
                                       const char **reason);

/*
 * cluster_object.c: the nodes touched (cluster_node_touch) since the
 * scheduler last read them, each once. @touched is NULL once closed.
 */
struct ClusterNodeWatch {
	guint refs; /* the scheduler's and one per attached node */
	GPtrArray *touched;
};
typedef struct ClusterNodeWatch ClusterNodeWatch;
ClusterNodeWatch *cluster_node_watch_new(void);
/* The scheduler is done with it: it records nothing more. */
void cluster_node_watch_close(ClusterNodeWatch *self);
/* Empties the list (the nodes may be queued again). */
void cluster_node_watch_clear(ClusterNodeWatch *self);
/* @node's touches go to @self from now on (detached from any other watch). */
void cluster_node_watch_attach(ClusterNodeWatch *self, ClusterNode *node);
void cluster_node_watch_detach(ClusterNode *node);

/* cluster_nodetree.c: the snapshot's node order (zones round robin). */
typedef struct ClusterNodeTree ClusterNodeTree;
ClusterNodeTree *cluster_nodetree_new(void);
void cluster_nodetree_free(ClusterNodeTree *self);
void cluster_nodetree_add(ClusterNodeTree *self, ClusterNode *node);
gboolean cluster_nodetree_remove(ClusterNodeTree *self, ClusterNode *node);
guint cluster_nodetree_get_length(const ClusterNodeTree *self);
void cluster_nodetree_list(const ClusterNodeTree *self, GPtrArray *out);

/*
 * cluster_sched_class.c: nodes grouped by what Filter and the node-state
 * scores read; a class's memo holds one cycle's answers for all its members.
 */
#define CLUSTER_SCHED_CLASS_PLUGINS 8 /* score plugins memoised per class */
typedef struct {
	guint64 filter_cycle;   /* the cycle rejector/reason are for (cycles count from 1) */
	ClusterPlugin rejector; /* CLUSTER_N_PLUGINS: the node-local filters passed */
	const char *reason;
	guint64 score_cycle[CLUSTER_SCHED_CLASS_PLUGINS];
	gint64 score[CLUSTER_SCHED_CLASS_PLUGINS];
	/* the weighted sum of the cycle's class-scored plugins without a normaliser */
	guint64 fixed_cycle;
	gint64 fixed_total;
	/* DynamicResources for the class (its members share dra_sig): the first
	 * member's answer; dra_answer 0: not shareable, each member asks itself */
	guint64 dra_cycle;
	const ClusterNode *dra_first; /* the member whose call the answer is (counted) */
	ClusterStatus dra_status;
	gboolean dra_called;
	const char *dra_reason;
	guint dra_answer;
} ClusterSchedClassMemo;
typedef struct ClusterSchedClass ClusterSchedClass;
typedef struct ClusterSchedClasses ClusterSchedClasses;
ClusterSchedClasses *cluster_sched_classes_new(void);
void cluster_sched_classes_free(ClusterSchedClasses *self);
/* The node list changed: @n_nodes slots, every class recomputed on next use. */
void cluster_sched_classes_reset(ClusterSchedClasses *self, guint n_nodes);
/* @node's class (by node->index), recomputed if the node changed since. */
ClusterSchedClass *cluster_sched_classes_of(ClusterSchedClasses *self, const ClusterNode *node);
ClusterSchedClassMemo *cluster_sched_class_get_memo(ClusterSchedClass *klass);
guint cluster_sched_classes_get_n_classes(const ClusterSchedClasses *self);

/* NodeResourcesFit's (allocatable, requested) pair for scoring one resource. */
void cluster_score__alloc_request(const ClusterPod *pod,
                                  const ClusterNode *node,
                                  gint slot,
                                  gboolean use_requested,
                                  gint64 *allocatable,
                                  gint64 *requested);

/* ------------------------------------------------ engine wiring (sim) */

typedef struct {
	ClusterDevice dev;
	GArray *tenants; /* guint pod indexes, in the order they joined */
	double used;     /* compute in use now, full-GPU units (Σ speed × demand) */
	gint64 mem_used; /* memory of the running tenants */
	/* republished under a new name (cluster_sim_device_renamed): two pods may
	 * hold it, one by each name; a reconfiguration's new devices start FALSE */
	gboolean renamed;
} ClusterSimDevice;

typedef struct {
	guint index;
	ClusterNode *node; /* owned */
	gboolean failed;
	SimEventId unreachable; /* a failed node's NoExecute taint, due after the grace period */
	SimEventId reconfigure;
	ClusterDevice *next_devices; /* the layout a reconfiguration installs */
	guint n_next_devices;
	ClusterResources next_allocatable;
	char **next_labels;      /* key, value pairs */
	char **next_unlabels;    /* keys the relabel removes */
	SimTime dra_driver_back; /* its DRA driver is registered again then (0: it is) */
	SimTime kubelet_back;    /* its kubelet runs again then (0: it runs) */
	ClusterSimDevice *devices;
	guint n_devices;
	/* bumped whenever a device's tenants (or the devices) change: lets a
	 * sampler reuse what it read last (cluster_sim_get_node_generation) */
	guint64 generation;
	gboolean logged; /* in the change log since its reader last took it */
} ClusterSimNode;

typedef struct {
	guint index;
	ClusterPod *pod; /* owned */
	ClusterSimWork work;
	ClusterPodPhase phase;
	ClusterQueuedPod *qp;
	ClusterSimNode *node;
	/* n_devices indexes into node->devices, set by the last placement: one
	 * per device-plugin unit (a pod holding several time-slicing replicas of
	 * one GPU names it again), or every compute device of the pod's claims */
	guint *devices;
	guint n_devices;
	guint devices_size; /* allocated length of devices and rates */
	double *rates;      /* speed on each of those devices */
	gboolean repeats;   /* some index appears twice in devices (set at placement) */
	ClusterProgress progress;
	gboolean started_once;
	gboolean arrived; /* counted as submitted (cluster_invariants.c) */
	SimEventId completion;
	SimEventId restart;
	SimEventId deletion;
	SimTime bound_at;
	SimTime finished_at;
	SimTime started; /* last (re)start, for the OOM "newest" rule */
	guint64 run_seq;
	guint restarts;
	/* claim names (char *): the user's first, then generated ones; NULL once retired */
	GPtrArray *claims;
	guint n_user_claims;
	/* shared a device with another pod though neither asked to: the device was
	 * republished under a new name and allocated again (cluster_kubelet.c join) */
	gboolean co_tenant;
	/* the taint eviction controller's scheduled work (cluster_taint_evict.c)
	 * and its CreatedAt; the device taint eviction controller's timer */
	SimEventId eviction;
	SimTime eviction_created;
	SimEventId device_eviction;
	SimTime device_eviction_at;
	char **templates;    /* pod claim names backed by templates */
	char **adopt;        /* (pod claim, claim) pairs generated before the run: first arrival */
	guint64 tried_epoch; /* cluster_sim__epoch() of its last failed attempt, +1 */
	SimTime placed_at;   /* its last bind (bound_at is the first) */
	SimTime left_at;     /* it last left a node (completion, deletion, eviction) */
	/* placements that ended before the last one (cluster_sim_nodes.c);
	 * NULL for the pods placed at most once, nearly all of them */
	ClusterSimPlacement *history;
	guint n_history;
} ClusterSimPod;

/*
 * A pod that succeeded or was deleted for good (cluster_sim_retired.c): what
 * the queries and the report read at the end, in place of its ClusterSimPod
 * and ClusterPod (issue 19 item 2: millions of finished pods).
 */
typedef struct {
	/* the ClusterPod's, taken over; NULL: the builder's namer gives it */
	char *name;
	union {
		guint one;   /* the last placement's device when it had one */
		guint *many; /* or its devices */
	} devices;
	ClusterSimPlacement *history;
	SimTime arrival, bound_at, finished_at, placed_at, left_at;
	guint node; /* G_MAXUINT: none */
	guint n_devices, n_history, restarts;
	guint8 phase;
	guint8 shares;  /* user claims, a co-tenant or a sharing config (query.c) */
	guint8 retired; /* FALSE: the slot is not a retired pod */
} ClusterSimRetired;

/* A pod made again at its arrival (cluster_arrivals.c): what of its set-up
 * state the builder does not make again. */
typedef struct {
	guint index;
	guint32 dra_extended; /* ClusterPod.dra_extended, as marked at set-up */
	SimTime arrival;
	guint8 has_dra; /* ClusterPod.has_dra, likewise */
	guint8 shares;  /* a user claim or a sharing config (cluster_sim_retired.c) */
	guint8 revived;
} ClusterSimParked;

struct ClusterSim {
	SimLoop *loop;
	ClusterSimConfig config;
	ClusterSched *sched;
	ClusterQueue *queue;
	ClusterClaims *claims;
	SimRng *sched_rng;
	SimRng *claims_rng;
	GPtrArray *nodes; /* ClusterSimNode * */
	GPtrArray *pods;  /* ClusterSimPod *, by index */
	guint32 kind_arrival, kind_schedule, kind_backoff, kind_unsched;
	guint32 kind_complete, kind_restart, kind_delete;
	guint32 kind_node_fail, kind_node_drain, kind_node_restore, kind_evict, kind_reconfigured;
	guint32 kind_unreachable, kind_device_evict, kind_prepare;
	SimEventId schedule_ev, backoff_ev, unsched_ev;
	ClusterSimStats stats;
	SimSamples *latencies, *jcts, *slowdowns;
	SimGauge busy, pending, compute, memory;
	guint64 run_seq;
	GArray *tenants;         /* scratch: ClusterTenant, one per distinct pod */
	GArray *tenant_pods;     /* scratch: guint pod index of each of those */
	GArray *rates;           /* scratch: double */
	GArray *kill;            /* scratch: gboolean */
	GArray *victims;         /* scratch: guint pod indexes */
	GArray *placed;          /* scratch: guint device indexes from the placement hook */
	ClusterJournal *journal; /* cluster_journal.c */
	gboolean in_bind;        /* cluster_sim__evict_on_bind is asking the DRA side */
	/* quiescence (cluster_sim.c): binds so far, and how many pending pods
	 * failed an attempt at epoch settled_epoch */
	guint64 binds, settled_epoch, n_settled;
	/* cluster_arrivals.c: pods not arrived yet, in arrival order; only the
	 * first has its arrival event (arrivals_head indexes it) */
	GArray *arrivals; /* guint pod indexes */
	guint arrivals_head;
	/* pods parked until they arrive (cluster_sim_park_pod), by index; their
	 * builder and namer */
	GArray *parked; /* ClusterSimParked */
	ClusterSimPodBuilder build;
	ClusterSimPodNamer name_of;
	gpointer build_data;
	gboolean arrivals_direct; /* an arrival came out of order: each has its event */
	GArray *invariant_sums;   /* cluster_invariants.c scratch: ClusterResources per node */
	GPtrArray *no_claims;     /* empty: the claims of a retired pod (cluster_sim__retire_pod) */
	/* cluster_sim_retired.c: the retired pods' records, by pod index (a
	 * retired pod's slot in pods is NULL) */
	GArray *retired; /* ClusterSimRetired */
	/* cluster_sim_nodes.c: the nodes changed since the log was last taken
	 * (cluster_sim_log_node_changes), each once; NULL: nobody reads it */
	GArray *changed_nodes; /* guint node indexes */
	guint n_devices;       /* over all nodes (cluster_sim_get_n_devices) */
};

#define CLUSTER_PRIO_ARRIVAL 5 /* after node, delete and backoff events at one time */
/* cluster_arrivals.c: the pod @index as it arrives, made again if it was parked. */
ClusterSimPod *cluster_arrivals__revive(ClusterSim *self, guint index);
/* The record of @index while it is parked, else NULL. */
const ClusterSimParked *cluster_arrivals__parked(const ClusterSim *self, guint index);
/* The arrival of pod @index happened: the next one gets its event. */
void cluster_arrivals__arrived(ClusterSim *self, guint index);

/* cluster_invariants.c: after every event when DRASIM_CHECK_INVARIANTS=1 */
void cluster_sim__install_invariants(ClusterSim *self);

/* cluster_sim_nodes.c: what a reader of @sn sees changed (tenants, devices,
 * cordon): bumps its generation and logs it once until the log is taken. */
void cluster_sim__node_changed(ClusterSim *self, ClusterSimNode *sn);

/* cluster_kubelet.c */
gboolean cluster_kubelet__place(ClusterSim *sim, ClusterSimPod *sp, ClusterSimNode *node);
void cluster_kubelet__start(ClusterSim *sim, ClusterSimPod *sp);
void cluster_kubelet__stop(ClusterSim *sim, ClusterSimPod *sp);
void cluster_kubelet__restart(ClusterSim *sim, ClusterSimPod *sp);

/* cluster_sim.c, for cluster_sim_nodes.c */
void cluster_sim__end_pod(ClusterSim *self, ClusterSimPod *sp);
/* cluster_sim_retired.c: @sp is replaced by its record and freed. */
void cluster_sim__retire_pod(ClusterSim *self, ClusterSimPod *sp);
/* The record of pod @index, NULL while it is not retired. */
const ClusterSimRetired *cluster_sim__retired(const ClusterSim *self, guint index);
void cluster_sim__retired_free(ClusterSim *self);
const guint *cluster_sim__retired_devices(const ClusterSimRetired *r);
/* cluster_sim.c: frees a ClusterSimPod and what it owns (NULL: nothing). */
void cluster_sim__pod_free(gpointer sp);
void cluster_sim__after_queue_change(ClusterSim *self);
void cluster_sim__generate_claims(ClusterSim *self, ClusterSimPod *sp);
void cluster_sim__pending_add(ClusterSim *self, gint delta);

/* cluster_sim_nodes.c */
void cluster_sim__register_node_kinds(ClusterSim *self);
/* cluster_kubelet_prepare.c: NodePrepareResources with the DRA driver away */
void cluster_sim__register_prepare_kind(ClusterSim *self);
gboolean cluster_sim__defer_prepare(ClusterSim *self, ClusterSimPod *sp);
/* A container restart due while the kubelet is down: TRUE, moved to its return. */
gboolean cluster_sim__defer_restart(ClusterSim *self, ClusterSimPod *sp);
/* The kubelet syncs @sp again (its node is back): prepare and start, or restart. */
void cluster_sim__kubelet_resume(ClusterSim *self, ClusterSimPod *sp);
gboolean cluster_sim__is_bound(const ClusterSimPod *sp);

/* cluster_taint_evict.c: the taint eviction controllers' timers */
void cluster_sim__register_evict_kinds(ClusterSim *self);
/* The NoExecute taints of @sn changed: every pod bound there, in index order. */
void cluster_sim__noexec_changed(ClusterSim *self, ClusterSimNode *sn);
/* A pod just bound: a tainted node's controller and the DRA one look at it. */
void cluster_sim__evict_on_bind(ClusterSim *self, ClusterSimPod *sp);
/* A bound pod ends (completion, deletion, eviction): its timers go. */
void cluster_sim__evict_on_end(ClusterSim *self, ClusterSimPod *sp);

/* cluster_journal.c: the recording hooks (a branch and nothing else unless full) */
ClusterJournal *cluster_journal__new(void);
void cluster_journal__attempt(ClusterSim *sim, ClusterSimPod *sp, const ClusterScheduleResult *r);
void cluster_journal__placement_failed(ClusterSim *sim, ClusterSimPod *sp);
void cluster_journal__event(ClusterSim *sim, ClusterSimPod *sp, ClusterJournalKind kind);
void cluster_journal__rate(ClusterSim *sim, ClusterSimPod *sp, double old_rate);
