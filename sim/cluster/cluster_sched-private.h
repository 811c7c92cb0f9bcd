/*
 * cluster_sched-private.h: the scheduler's state, shared by the cycle
 * (cluster_sched.c) and its window over equivalence classes
 * (cluster_sched_window.c), and the class position index the window uses.
 */
#pragma once

#include "cluster-private.h"

/* ------------------------------------------------ class position index */

/*
 * Positions 0..n-1 (the node list's order), each in at most one set; a set
 * is named by a key (a class record's address) while it has members. Per
 * set a bitset of its positions and a Fenwick tree over the bitset words'
 * popcounts: rank (members before a position) and select (the k-th member)
 * over any list of sets in O(sets x log(n / 64)). Memory: about 3n/16 bytes
 * per set in use (n/8 for the bits, n/16 for the tree), at most @max_sets
 * sets; 4 bytes per position for its set.
 */
typedef struct ClusterPosIndex ClusterPosIndex;
#define CLUSTER_POS_NONE G_MAXUINT32
ClusterPosIndex *cluster_pos_index_new(guint max_sets);
void cluster_pos_index_free(ClusterPosIndex *self);
/* @n positions, none in a set. */
void cluster_pos_index_reset(ClusterPosIndex *self, guint n);
guint cluster_pos_index_get_length(const ClusterPosIndex *self);
/* Puts @pos in @key's set (NULL: in none). FALSE: @max_sets sets already in use. */
gboolean cluster_pos_index_move(ClusterPosIndex *self, guint pos, gconstpointer key);
/* The set of @pos (CLUSTER_POS_NONE: none), and a set's key and size. */
guint cluster_pos_index_set_of(const ClusterPosIndex *self, guint pos);
gconstpointer cluster_pos_index_get_key(const ClusterPosIndex *self, guint set);
guint cluster_pos_index_get_members(const ClusterPosIndex *self, guint set);
/* The sets with members, in no particular order; returns how many (@out: room for max_sets). */
guint cluster_pos_index_list_sets(const ClusterPosIndex *self, guint *out);
/* Members of @sets at positions below @pos (0 <= pos <= n). */
guint
cluster_pos_index_rank(const ClusterPosIndex *self, const guint *sets, guint n_sets, guint pos);
/*
 * The @k-th member (k >= 1) of @sets at or after @start in the cyclic order
 * start, start + 1, ..., n - 1, 0, ...; CLUSTER_POS_NONE if they have fewer.
 */
guint cluster_pos_index_select_from(
        const ClusterPosIndex *self, const guint *sets, guint n_sets, guint start, guint k);
/* Members of @set among the @len positions from @start on, cyclic (len <= n). */
guint
cluster_pos_index_count_window(const ClusterPosIndex *self, guint set, guint start, guint len);

/* ------------------------------------------------------------ scheduler */

typedef struct ClusterSchedWindow ClusterSchedWindow;

struct ClusterSched {
	ClusterSchedConfig config;
	ClusterNodeTree *tree;
	GPtrArray *nodes;   /* ClusterNode *, borrowed, snapshot order */
	gboolean dirty;     /* nodes changed: rebuild the list before the next use */
	GPtrArray *plugins; /* ClusterScorePlugin *, owned */
	guint next_start;   /* nextStartNodeIndex */
	/* DRASIM_SCHED_REFERENCE=1: one Filter and Score call per node, the path
	 * the equivalence classes are checked against (tests/scenario sched-exact) */
	gboolean reference;
	ClusterSchedClasses *classes; /* equivalence classes (cluster_sched_class.c) */
	ClusterSchedWindow *window;   /* the classes' positions (cluster_sched_window.c) */
	guint64 cycle;                /* numbers the cycles for the class memos */
	gboolean dra_by_class;        /* this cycle: DynamicResources answers once per class */
	ClusterSchedStats stats;
	GPtrArray *feasible; /* scratch */
	GPtrArray *memos;    /* scratch: the class memo of each feasible node */
	GArray *scores;      /* scratch: one plugin's scores */
	GArray *totals;      /* scratch: weighted sums */
};

/* cluster_sched.c, for the window */
/* Every filter and score that runs for @pod is answered per class this cycle. */
gboolean cluster_sched__pod_fully_classed(const ClusterSched *self, const ClusterPod *pod);
/* The class's node-local filters for @pod, once per cycle through @memo. */
void cluster_sched__class_filters(ClusterSched *self,
                                  const ClusterPod *pod,
                                  guint32 fit_mask,
                                  const ClusterNode *node,
                                  ClusterSchedClassMemo *memo);
/*
 * DynamicResources once per class when self->dra_by_class (set per cycle): the
 * first member's call, kept in @memo (dra_answer 0: not shareable, ask per
 * node), then @times more members taking it with their counters.
 */
ClusterStatus cluster_sched__class_dra_first(ClusterSched *self,
                                             const ClusterPod *pod,
                                             const ClusterNode *node,
                                             ClusterSchedClassMemo *memo);
ClusterStatus
cluster_sched__class_dra_take(ClusterSched *self, ClusterSchedClassMemo *memo, guint64 times);
/* The per-plugin filter counters from the window's nodes tallied by rejecting plugin. */
void cluster_sched__add_filter_counts(ClusterSched *self, const guint *by_rejector);

/* cluster_sched_window.c */
ClusterSchedWindow *cluster_sched_window_new(void);
void cluster_sched_window_free(ClusterSchedWindow *self);
/* The node list was rebuilt: the index is rebuilt at its next use. */
void cluster_sched_window_invalidate(ClusterSchedWindow *self);
/*
 * Filter, Score and selectHost for a fully classed pod from per-class counts
 * (what find_feasible, prioritize and select_host compute node by node).
 * FALSE: the index cannot answer this cycle (too many classes), nothing was
 * done; else @out is filled as find_feasible fills it and *@chosen is the
 * node selectHost picks (NULL: none feasible).
 */
gboolean cluster_sched__window_schedule(ClusterSched *self,
                                        const ClusterPod *pod,
                                        ClusterScheduleResult *out,
                                        ClusterNode **chosen);
