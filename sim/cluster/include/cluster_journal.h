/*
 * cluster_journal.h: the per-pod journal, for the reports' reasons and `drasim
 * explain`: scheduling attempts, the last failed attempt (the FitError
 * histogram) and, when full, every event of every pod.
 *
 * ClusterJournal is opaque. Its entries and attempts are plain records
 * handed out read-only.
 */
#pragma once

#include <glib.h>

#include "sim.h"

G_BEGIN_DECLS

typedef struct ClusterSim ClusterSim;

/* ==================================================== per-pod journal
 * cluster_journal.c, for the reports' reasons and `drasim explain`. Every
 * simulation keeps, per pod, its scheduling attempts and its last failed
 * attempt (the FitError histogram). cluster_journal_set_full() also records
 * every event of every pod (arrival, attempts, binding, starts, speed
 * changes, OOM kills, evictions, completion). Recording allocates only
 * amortised array growth and interned strings. */

typedef struct ClusterJournal ClusterJournal;

typedef enum {
	CLUSTER_JOURNAL_ARRIVED,
	CLUSTER_JOURNAL_FAILED,     /* an attempt found no node: attempt index in @first */
	CLUSTER_JOURNAL_ERROR,      /* an attempt failed on an error (or placement) */
	CLUSTER_JOURNAL_BOUND,      /* @node, @text: its devices and claims */
	CLUSTER_JOURNAL_STARTED,    /* containers (re)started: devices [@first, +@n) */
	CLUSTER_JOURNAL_RATE,       /* its speed changed to @value (work s per s) */
	CLUSTER_JOURNAL_OOM_KILLED, /* left its devices; restarts after the backoff */
	CLUSTER_JOURNAL_STOPPED,    /* left its devices (ended, evicted, node failed) */
	CLUSTER_JOURNAL_LOST,       /* its node failed */
	CLUSTER_JOURNAL_EVICTED,    /* recreated pending */
	CLUSTER_JOURNAL_COMPLETED,
	CLUSTER_JOURNAL_DELETED,
} ClusterJournalKind;

typedef struct {
	guint16 code; /* ClusterReason */
	guint32 count;
} ClusterReasonCount;

#define CLUSTER_JOURNAL_MAX_REASONS 12

/* One failed attempt: what kube-scheduler's FitError would hold. */
typedef struct {
	SimTime at;
	guint n_nodes;
	gboolean error;      /* an error, not unschedulable (@message says which) */
	const char *message; /* PreFilter's or the error's message; NULL when Filter decided */
	gboolean has_claims; /* DynamicResources PostFilter has claims to look at */
	const char *detail;  /* the allocator's diagnosis (full journal), or NULL */
	guint n_reasons;
	ClusterReasonCount reasons[CLUSTER_JOURNAL_MAX_REASONS]; /* code order */
} ClusterAttempt;

typedef struct {
	SimTime at;
	ClusterJournalKind kind;
	guint pod;
	const char *node; /* interned; BOUND, STARTED */
	const char *text; /* interned; BOUND: devices and claims */
	double value;     /* RATE */
	guint first, n;   /* FAILED/ERROR: attempt index; STARTED: device range */
} ClusterJournalEntry;

/* The allocator's diagnosis of a failed attempt (full journal); transfer full, nullable. */
typedef char *(*ClusterJournalDetailFunc)(gpointer data, guint pod);
/* What a bound pod holds ("gpu.nvidia.com/node-0/gpu-3 via claim x"); transfer full. */
typedef char *(*ClusterJournalDescribeFunc)(gpointer data, guint pod);

/* (transfer none): the simulation's journal. */
ClusterJournal *cluster_sim_get_journal(ClusterSim *self);
/* (transfer full): the journal, kept after the simulation is freed (a new one replaces it). */
ClusterJournal *cluster_sim_steal_journal(ClusterSim *self);
void cluster_journal_free(ClusterJournal *self);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(ClusterJournal, cluster_journal_free)

void cluster_journal_set_full(ClusterJournal *self, gboolean full);
gboolean cluster_journal_get_full(const ClusterJournal *self);
void cluster_journal_set_hooks(ClusterJournal *self,
                               ClusterJournalDetailFunc detail,
                               ClusterJournalDescribeFunc describe,
                               gpointer data);
guint cluster_journal_get_n_pods(const ClusterJournal *self);
/* (nullable): the pod's name, known once it arrived. */
const char *cluster_journal_get_pod_name(const ClusterJournal *self, guint pod);
/* Returns: the pod index named @name, or -1. */
gint cluster_journal_lookup_pod(const ClusterJournal *self, const char *name);
guint cluster_journal_get_attempts(const ClusterJournal *self, guint pod);
/* (nullable): the last attempt of @pod that did not bind it. */
const ClusterAttempt *cluster_journal_get_last_failure(const ClusterJournal *self, guint pod);
/* Full journal: entries in time order, the failed attempts they point at, device indexes. */
guint cluster_journal_get_n_entries(const ClusterJournal *self);
const ClusterJournalEntry *cluster_journal_get_entry(const ClusterJournal *self, guint index);
const ClusterAttempt *cluster_journal_get_attempt(const ClusterJournal *self, guint index);
const guint *cluster_journal_get_devices(const ClusterJournal *self, guint first);

G_END_DECLS
