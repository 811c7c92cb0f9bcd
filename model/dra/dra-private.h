/*
 * dra-private.h: the allocator's prepared indexes and per-call state, shared by
 * the dra_*.c files only.
 *
 * Index space: every device of every slice is a DevRec; every distinct
 * (driver, pool, device) triple is a DeviceID int ("id"). Per-id arrays hold
 * the allocated state (persistent) and the in-flight state of one call.
 */
#pragma once

#include "dra.h"

#define DRA_MAX_RESULTS 32 /* resourceapi.AllocationResultsMaxSize */
#define DRA_MAX_CLAIMS  64 /* claims per call: one bit each in DraAllocator.allocating */
#define DRA_MAX_SEEN    128
#define DRA_CACHE_FALSE 1u
#define DRA_CACHE_TRUE  2u

typedef struct {
	guint counter; /* global counter index (SliceRec.counter_base + i) */
	DraMilli value;
} DraConsRec;

typedef struct {
	const DraSlice *slice;
	guint dev_base;     /* first DevRec */
	guint counter_base; /* first counter in DraAllocator.counter_* arrays */
	guint n_counters;
	gboolean has_binding; /* some device has binding conditions */
	gboolean available_ready;
	guint n_allocated; /* devices whose id is in the allocated set */
} DraSliceRec;

typedef struct {
	const DraDevice *device;
	guint slice; /* DraSliceRec index */
	guint id;
	guint cons_base; /* DraConsRec range in DraAllocator.cons */
	guint n_cons;
	guint taint_base; /* range in DraAllocator.taints (device taints + rules) */
	guint n_taints;
	guint next_same_id; /* next DevRec with this id, or G_MAXUINT */
	gpointer view;      /* DraSelectorOps view slot */
} DraDevRec;

typedef struct {
	const char *driver;
	const char *pool;
	const char *device;
	guint first_dev; /* first DevRec with this id */
} DraIdRec;

typedef struct {
	gpointer handle;
	char *compile_error; /* NULL when compiled */
	GByteArray *cache;   /* per DevRec: 0 unknown, DRA_CACHE_FALSE, DRA_CACHE_TRUE */
} DraProgRec;

typedef struct {
	const DraClass *klass;
	GArray *progs; /* guint: DraProgRec index per selector, G_MAXUINT for "no cel" */
} DraClassRec;

typedef struct {
	char *driver;
	char *pool;
	GArray *slices; /* guint DraSliceRec indexes, input order */
	gboolean incomplete;
	gboolean invalid;
	char *invalid_reason;
	gboolean has_binding;
} DraPoolRec;

/*
 * One remembered answer of the Filter memo (dra_memo.c): the outcome of the
 * search for claim shape @shape when the node's slices summed to @gen, and
 * what that search added to the statistics.
 */
#define DRA_MEMO_WAYS 4
typedef struct {
	guint shape; /* 0: empty */
	guint epoch;
	guint64 gen;
	guint outcome; /* DraOutcome, or DRA_ANSWER_TIMEOUT */
	guint delta;   /* index in DraAllocator.memo_deltas: the search's statistics */
} DraMemoEntry;

/*
 * Kept small and in one allocation with the node's name: a scheduler's Filter
 * reads it for hundreds of nodes per pod.
 */
typedef struct {
	char *node_name;  /* points into this allocation */
	gboolean memo_ok; /* no per-device node selection: answers depend on state only */
	gboolean shared;  /* some slice has no nodeName: DraAllocator.shared_gen counts */
	guint64 gen;      /* allocated-state changes in the node's own slices */
	guint memo_next;  /* round-robin victim */
	/* node signature (dra_signature.c): the pools' shape id (0: not yet, G_MAXUINT:
	 * cannot be keyed), and the signature for allocated state @sig_gen */
	guint sig_shape;
	guint sig;
	guint64 sig_gen;
	DraMemoEntry memo[DRA_MEMO_WAYS];
	GPtrArray *pools; /* DraPoolRec*, search order */
	char *error;      /* gather error (fatal), or NULL */
} DraNodePools;

/* Per-call data of one request, or of one sub-request. */
typedef struct {
	const DraExactRequest *req;
	const DraRequest *parent; /* the DraRequest holding req */
	gboolean is_sub;
	guint claim;
	guint request;
	guint sub;
	guint n_subs;        /* sub-requests of the parent (1 if none) */
	const char *name;    /* "req" or "req/sub" */
	const char *subname; /* NULL or sub-request name */
	DraClassRec *klass;
	guint prog_base; /* request selector programs in DraAllocator.req_progs */
	guint n_progs;
	gboolean all_mode;
	guint num_devices;
	guint all_base; /* DevRec indexes in DraAllocator.all_devices */
	guint n_all;
	guint selected_sub; /* on the sub 0 entry */
	/* why candidates were rejected, for the unschedulable reason */
	guint tried;
	guint no_match;
	guint in_use; /* held by other claims */
	guint picked; /* already picked in this search */
	guint no_counters;
	guint tainted;
	guint no_capacity;
	guint constraint;
	const char *constraint_name;
	const char *rejected_by; /* the last selector that said no */
	gboolean rejected_by_class;
	guint rejected_index;
} DraReqData;

typedef enum {
	DRA_CONSTRAINT_MATCH,
	DRA_CONSTRAINT_DISTINCT,
} DraConstraintKind;

typedef struct {
	const DraConstraint *spec;
	DraConstraintKind kind;
	const char *name;          /* fully qualified attribute name */
	gsize domain_len;          /* bytes before the '/', or G_MAXSIZE without one */
	const DraAttribute *first; /* matchAttribute: value of the first device */
	guint n_devices;
	const DraAttribute *seen[DRA_MAX_SEEN]; /* distinctAttribute stack */
} DraConstraintState;

typedef struct {
	guint dev;     /* DevRec */
	guint rd;      /* DraReqData */
	guint ordinal; /* position in this call's candidate order (pruning) */
	gboolean admin_access;
	char share_id[40];
	gboolean has_share_id;
	guint consumed_base; /* DraConsumed range in DraAllocator.consumed */
	guint n_consumed;
} DraInternalResult;

/* allocated capacity of another claim, keyed like the allocated set */
typedef struct {
	char *key;
	const char *name; /* interned */
	DraMilli value;
} DraAggEntry;

/*
 * In-flight capacity of one call (upstream allocatingCapacity): an entry with
 * name == NULL marks that the device has a map entry at all.
 */
typedef struct {
	guint id;
	const char *name;
	DraMilli value;
} DraInflight;

/* Where one claim's output sits in the output arrays, before pointer fix-up. */
typedef struct {
	guint results_base, n_results;
	guint config_base, n_config;
	gboolean has_selector;
	guint terms_base; /* one term */
	guint fields_base, n_fields;
	guint exprs_base, n_exprs;
	gboolean node_name_field;
} DraLayout;

/* Direct-mapped pointer caches in front of the hash tables (hot path). */
#define DRA_PTR_CACHE 1024
typedef struct {
	gconstpointer key;
	gpointer value;
} DraPtrSlot;

static inline guint
dra_ptr_slot(gconstpointer p)
{
	return (guint)(((guintptr)p >> 4) ^ ((guintptr)p >> 14)) & (DRA_PTR_CACHE - 1);
}

/*
 * Node pools: one slot per node of a large cluster. Fibonacci hashing, because
 * node names are small strings allocated at a regular stride.
 */
#define DRA_NODE_CACHE_BITS 13
static inline guint
dra_node_slot(gconstpointer p)
{
	return (guint)(((guint64)(guintptr)p * G_GUINT64_CONSTANT(0x9E3779B97F4A7C15)) >>
	               (64 - DRA_NODE_CACHE_BITS));
}

struct DraAllocator {
	DraFeatures features;
	DraQuirks quirks;
	DraSelectorOps ops;
	gboolean has_ops;
	gpointer ops_data;
	gboolean result_tolerations;
	gboolean prune;
	GRand *rand;
	DraStats stats;

	/* inventory (borrowed) */
	GPtrArray *slices; /* const DraSlice* */
	GPtrArray *classes;
	GPtrArray *taint_rules;
	gboolean prepared;

	/* prepared indexes */
	GArray *slice_recs;        /* DraSliceRec */
	GArray *dev_recs;          /* DraDevRec */
	GArray *id_recs;           /* DraIdRec */
	GHashTable *id_by_key;     /* "driver\0pool\0device" -> id+1 */
	GArray *cons;              /* DraConsRec */
	GArray *taints;            /* DraTaint */
	GArray *counter_avail;     /* DraMilli per counter */
	GArray *counter_used;      /* DraMilli per counter (this call) */
	GHashTable *class_by_name; /* name -> DraClassRec* */
	GPtrArray *class_recs;
	GHashTable *prog_by_expr;  /* expression -> index+1 */
	GPtrArray *progs;          /* DraProgRec* */
	GHashTable *node_slices;   /* node name -> GArray of slice indexes */
	GArray *shared_slices;     /* slices without nodeName */
	GHashTable *pools_by_node; /* node name ("" for none) -> DraNodePools* */
	DraPtrSlot pools_cache[1u << DRA_NODE_CACHE_BITS]; /* node name pointer -> DraNodePools* */
	guint pools_epoch; /* bumped when every DraNodePools is dropped (DraNodeRef) */
	DraPtrSlot class_cache[DRA_PTR_CACHE]; /* request pointer -> DraClassRec* */
	/* a slot of either cache written since the last clear: set-up adds a slice per
	 * node and clears each time, and 144 KiB of memset per slice was a fifth of it */
	gboolean ptr_caches_used;
	GHashTable *subreq_names; /* const DraExactRequest* -> "parent/sub" */

	/* allocated state (persistent) */
	GHashTable *allocated_keys; /* id keys of dedicated devices in use */
	GArray *aggregated_list;    /* DraAggEntry */
	GByteArray *allocated;      /* per id */
	GPtrArray *aggregated;      /* per id: GArray of DraConsumed, or NULL */

	/* per call */
	const DraNode *node;
	const DraClaim *const *claims;
	guint n_claims;
	DraNodePools *pools;
	GArray *rd;            /* DraReqData */
	GArray *rd_index;      /* per claim: first rd of each request, flattened */
	GArray *claim_rd_base; /* per claim: index into rd_index */
	GArray *req_progs;     /* guint prog indexes of request selectors */
	GArray *all_devices;   /* guint DevRec */
	GArray *match_cache;   /* guint32 per (rd, DevRec): stamp * 4 + value */
	guint match_stride;
	guint32 stamp;
	GArray *allocating;     /* guint64 claim mask per id */
	GArray *touched_ids;    /* guint */
	GArray *inflight;       /* DraInflight */
	GArray *touched_slices; /* guint */
	GPtrArray *constraints; /* per claim: GArray of DraConstraintState */
	GPtrArray *results;     /* per claim: GArray of DraInternalResult */
	GArray *consumed;       /* DraConsumed */
	char *error;
	char *reason;
	gboolean reason_pending;
	gboolean validated; /* rd & co. are valid for self->claims on any node */
	gboolean any_admin; /* some request asks for admin access (this call) */
	guint min_total;    /* minimum devices over all claims (this call) */

	/* output (valid until the next call) */
	GArray *out_alloc;     /* DraAllocation per claim */
	GArray *out_results;   /* DraDeviceResult */
	GArray *out_config;    /* DraConfigResult */
	GPtrArray *out_names;  /* request names of FromClass config, node names */
	GArray *out_terms;     /* DraNodeSelectorTerm */
	GArray *out_reqs;      /* DraNodeSelectorRequirement */
	GArray *out_selectors; /* DraNodeSelector */
	GArray *out_offsets;   /* guint scratch for pointer fix-ups */
	GArray *layouts;       /* DraLayout per claim */
	GArray *sel_fields;    /* const DraNodeSelectorRequirement* scratch */
	GArray *sel_exprs;
	DraNodeSelectorRequirement node_name_req;
	const char *node_name_values[1];
	GString *node_name; /* the node of the last answer: results are built on demand */
	gboolean result_pending;
	GString *scratch;

	/* Filter memo (dra_memo.c) */
	gboolean memo_on;
	guint memo_epoch;         /* bumped when a setting changes the search */
	guint shape;              /* id of the current claims' shape; 0: not computed */
	GHashTable *shapes;       /* canonical claim text -> id */
	GString *shape_text;      /* scratch */
	GString *last_shape_text; /* the text of last_shape, compared before the table */
	guint last_shape;
	gboolean memo_pending; /* the last answer came from the memo: no search state */
	DraOutcome memo_outcome;
	guint64 shared_gen;           /* allocated-state changes in slices without nodeName */
	GArray *memo_deltas;          /* DraStats, distinct values (few: one per kind of answer) */
	GArray *memo_uses;            /* guint64 per delta: hits not yet added to stats */
	GHashTable *memo_delta_index; /* DraStats bytes -> index + 1 */
	guint *memo_dirty; /* the deltas whose uses are not 0, each once (room for every delta) */
	guint n_memo_dirty;
	DraNodeLabelsFunc labels_func;
	gpointer labels_data;
	guint64 state_changes; /* allocated-state changes, every slice
	                          (dra_allocator_get_state_changes) */

	/* node signatures (dra_signature.c) */
	GHashTable *sig_ids; /* canonical text -> id (1, 2, ...) */
	GString *sig_text;   /* scratch */
	/* dra_signature.c: the node whose pools' shape was keyed last, in pools_epoch */
	const DraNodePools *sig_last;
	guint sig_last_epoch;
	DraNode labeled; /* the current node with its labels filled in */

	/* Filter timeout (dra_allocator_set_step_budget) */
	guint64 step_budget;  /* allocateOne invocations per call; 0: no bound */
	guint64 steps_left;   /* of this call's search (G_MAXUINT64 without a bound) */
	guint64 timeout_call; /* stats.allocate_calls of the last call out of steps; 0: none */
};

/*
 * Empties a GArray without g_array_set_size(), which shrinks through
 * g_array_remove_range(); only for arrays without a clear function.
 */
static inline void
dra_array_clear(GArray *array)
{
	array->len = 0;
}

/* dra_prepare.c: the indexes over the inventory, built once after it changes */
void dra_alloc__prepare(DraAllocator *self);
void dra_alloc__clear_prepared(DraAllocator *self);
guint dra_alloc__prog(DraAllocator *self, const char *expression);

/* dra_state.c: the allocated state, keyed by "driver\x1fpool\x1fdevice" */
char *dra_alloc__id_key(const char *driver, const char *pool, const char *device);
guint
dra_alloc__lookup_id(DraAllocator *self, const char *driver, const char *pool, const char *device);
/* Projects the string-keyed allocated state onto the interned ids (while preparing). */
void dra_alloc__prepare_allocated(DraAllocator *self);

/* dra_allocate.c */
void dra_alloc__set_error(DraAllocator *self, const char *format, ...) G_GNUC_PRINTF(2, 3);
const char *dra_alloc__claim_name(DraAllocator *self, guint claim);
/* Runs the search a pending memo answer stands for; only through dra_alloc__memo_replay(). */
void dra_alloc__replay(DraAllocator *self);

/*
 * The last answer came from the memo: search now, before anything it read
 * changes or anyone reads its results or reason. Inline: every change of the
 * allocated state checks it.
 */
static inline void
dra_alloc__memo_replay(DraAllocator *self)
{
	if (self->memo_pending) {
		dra_alloc__replay(self);
	}
}

/* dra_pools.c */
DraNodePools *dra_pools__for_node(DraAllocator *self, const DraNode *node);
void dra_pools__free(gpointer pools);

/* dra_validate.c: builds self->rd; FALSE with self->error set on a fatal error */
gboolean dra_validate__claims(DraAllocator *self);
/* isSelectable; returns -1 on a fatal error (self->error set), else 0/1 */
int dra_validate__selectable(DraAllocator *self, guint rd_key, const DraReqData *rd, guint dev);

/* dra_capacity.c */
gboolean dra_capacity__fits(DraAllocator *self, const DraExactRequest *req, guint dev);
guint
dra_capacity__consume(DraAllocator *self, const DraExactRequest *req, guint dev, guint *n_out);
void dra_capacity__release(DraAllocator *self, guint dev, guint consumed_base, guint n);
gboolean dra_capacity__in_use(DraAllocator *self, guint id);
gboolean dra_counters__check(DraAllocator *self, guint dev);
void dra_counters__release(DraAllocator *self, guint dev);

/* dra_constraint.c */
void dra_constraint__init(DraConstraintState *st, const DraConstraint *spec);
void dra_constraint__clear(DraConstraintState *st);
gboolean
dra_constraint__add(DraAllocator *self, DraConstraintState *st, const DraReqData *rd, guint dev);
void dra_constraint__remove(DraConstraintState *st, const DraReqData *rd);

/* dra_search.c: allocateOne from the first slot; -1 error, 0 not done, 1 done, 2 out of steps */
int dra_search__run(DraAllocator *self);
void dra_search__build_reason(DraAllocator *self);

/* dra_result.c */
gboolean dra_result__check(DraAllocator *self);
void dra_alloc__flush_result(DraAllocator *self);
gboolean dra_result__build(DraAllocator *self);

/* dra_memo.c */
void dra_memo__init(DraAllocator *self);
void dra_memo__free(DraAllocator *self);
/*
 * The memo's answer (a DraOutcome or DRA_ANSWER_TIMEOUT) for the claims on self->pools;
 * DRA_MEMO_MISS: search, then dra_memo__store() with the statistics from
 * before the search; DRA_MEMO_OFF: the memo cannot answer this call.
 */
#define DRA_MEMO_MISS (-1)
#define DRA_MEMO_OFF  (-2)
/*
 * What the memo stores for an answer that ran out of steps: an UNSCHEDULABLE
 * outcome with nothing to replay (no results, a fixed reason).
 */
#define DRA_ANSWER_TIMEOUT (DRA_OUTCOME_ERROR + 1)
int dra_memo__lookup(DraAllocator *self, guint64 *gen_out);
void dra_memo__store(DraAllocator *self, guint64 gen, guint answer, const DraStats *before);
/* Adds the memo hits' skipped searches to self->stats (before anyone reads them). */
void dra_memo__fold_stats(DraAllocator *self);
/* A device of slice @slice changed its allocated state: its nodes' answers expire. */
void dra_memo__slice_changed(DraAllocator *self, guint slice);
/* Canonical text fields (the memo's claim shapes, dra_signature.c's node signatures). */
void dra_memo__put_int(GString *s, gint64 value);
void dra_memo__put_str(GString *s, const char *text);
void dra_memo__put_strs(GString *s, const char *const *texts, guint n);

/* @node, or a copy with its labels filled in on demand */
const DraNode *dra_alloc__labeled(DraAllocator *self, const DraNode *node);

/* dra_node.c */
gboolean dra_node__matches(const DraNode *node,
                           const char *node_name,
                           gboolean all_nodes,
                           const DraNodeSelector *selector,
                           gboolean *match,
                           char **error);
