/*
 * cluster_sched_window.c: the scheduling cycle of a pod whose filters and
 * scores are all answered per equivalence class (cluster_sched_class.c),
 * decided from per-class counts instead of a walk over the window's nodes.
 *
 * Upstream findNodesThatPassFilters examines nodes from nextStartNodeIndex,
 * wrapping, until numFeasibleNodesToFind pass; selectHost then keeps one of
 * the best-scored nodes by reservoir sampling. With one Filter answer per
 * class, the window's end is the to_find-th member of the feasible classes
 * after the start, each class's share of the window gives every counter the
 * walk would add, the scores and their normalisation need one value per
 * class, and the selected tie is the k-th member of the tied classes after
 * the start: rank and select over a bitset per class with a Fenwick tree over
 * its words (ClusterPosIndex), O(classes x log n) per cycle.
 *
 * The index follows the classes through the nodes' watch (the nodes touched
 * since the last cycle, cluster_object.c) and is rebuilt when the node list
 * is. Past CLUSTER_SCHED_WINDOW_MAX_CLASSES classes with members the walk
 * (cluster_sched.c find_feasible) decides, and the index is rebuilt after a
 * growing number of cycles.
 */
#include <string.h>

#include "cluster_sched-private.h"

/* ------------------------------------------------ class position index */

typedef struct {
	gconstpointer key; /* NULL: free */
	guint members;
	gboolean stale;  /* bits and tree not zeroed since the last reset */
	guint64 *words;  /* one bit per position */
	guint32 *tree;   /* Fenwick tree over the words' popcounts, 1-based */
	guint use_index; /* where it sits in in_use */
} PosSet;

struct ClusterPosIndex {
	guint n, n_words, top; /* top: the highest power of two <= n_words */
	guint max_sets, capacity_words;
	PosSet *sets;
	guint *in_use; /* the sets with members */
	guint n_in_use;
	guint *free_sets;
	guint n_free;
	guint32 *pos_set; /* n: the set of each position */
};

ClusterPosIndex *
cluster_pos_index_new(guint max_sets)
{
	ClusterPosIndex *self = g_new0(ClusterPosIndex, 1);

	self->max_sets = max_sets;
	self->sets = g_new0(PosSet, max_sets);
	self->in_use = g_new(guint, max_sets);
	self->free_sets = g_new(guint, max_sets);
	cluster_pos_index_reset(self, 0);
	return self;
}

void
cluster_pos_index_free(ClusterPosIndex *self)
{
	if (self == NULL)
		return;
	for (guint i = 0; i < self->max_sets; i++) {
		g_free(self->sets[i].words);
		g_free(self->sets[i].tree);
	}
	g_free(self->sets);
	g_free(self->in_use);
	g_free(self->free_sets);
	g_free(self->pos_set);
	g_free(self);
}

void
cluster_pos_index_reset(ClusterPosIndex *self, guint n)
{
	self->n = n;
	self->n_words = (n + 63) / 64;
	for (self->top = 1; self->top * 2 <= self->n_words;)
		self->top *= 2;
	g_free(self->pos_set);
	self->pos_set = g_new(guint32, MAX(n, 1));
	for (guint i = 0; i < n; i++)
		self->pos_set[i] = CLUSTER_POS_NONE;
	if (self->n_words > self->capacity_words) {
		/* the sets' arrays grow when taken next */
		for (guint i = 0; i < self->max_sets; i++) {
			g_clear_pointer(&self->sets[i].words, g_free);
			g_clear_pointer(&self->sets[i].tree, g_free);
		}
		self->capacity_words = self->n_words;
	}
	self->n_in_use = 0;
	/* taken from the end: set 0 first, so small tests see small numbers */
	self->n_free = self->max_sets;
	for (guint i = 0; i < self->max_sets; i++) {
		self->free_sets[i] = self->max_sets - 1 - i;
		self->sets[i].key = NULL;
		self->sets[i].members = 0;
		self->sets[i].stale = TRUE;
	}
}

guint
cluster_pos_index_get_length(const ClusterPosIndex *self)
{
	return self->n;
}

/* A free set for @key, zeroed; CLUSTER_POS_NONE when all are in use. */
static guint
take_set(ClusterPosIndex *self, gconstpointer key)
{
	guint id;
	PosSet *set;

	if (self->n_free == 0)
		return CLUSTER_POS_NONE;
	id = self->free_sets[--self->n_free];
	set = &self->sets[id];
	if (set->words == NULL) {
		set->words = g_new(guint64, MAX(self->capacity_words, 1));
		set->tree = g_new(guint32, self->capacity_words + 1);
		set->stale = TRUE;
	}
	if (set->stale) {
		memset(set->words, 0, sizeof(guint64) * self->n_words);
		memset(set->tree, 0, sizeof(guint32) * (self->n_words + 1));
		set->stale = FALSE;
	}
	set->key = key;
	set->use_index = self->n_in_use;
	self->in_use[self->n_in_use++] = id;
	return id;
}

static void
release_set(ClusterPosIndex *self, guint id)
{
	PosSet *set = &self->sets[id];
	guint last = self->in_use[--self->n_in_use];

	/* an empty set's bits and tree are all zero again: no clearing */
	self->in_use[set->use_index] = last;
	self->sets[last].use_index = set->use_index;
	set->key = NULL;
	self->free_sets[self->n_free++] = id;
}

static void
flip(ClusterPosIndex *self, guint id, guint pos, gint delta)
{
	PosSet *set = &self->sets[id];

	set->words[pos / 64] ^= (guint64)1 << (pos % 64);
	for (guint i = pos / 64 + 1; i <= self->n_words; i += i & -i)
		set->tree[i] += (guint32)delta;
	set->members += (guint)delta;
}

/*
 * The set in use for @key, or CLUSTER_POS_NONE. A scan: a few moves per
 * cycle over tens of sets, and no table to resize (nothing allocated).
 */
static guint
find_set(const ClusterPosIndex *self, gconstpointer key)
{
	for (guint i = 0; i < self->n_in_use; i++)
		if (self->sets[self->in_use[i]].key == key)
			return self->in_use[i];
	return CLUSTER_POS_NONE;
}

gboolean
cluster_pos_index_move(ClusterPosIndex *self, guint pos, gconstpointer key)
{
	guint old, to = CLUSTER_POS_NONE;

	g_return_val_if_fail(pos < self->n, FALSE);
	old = self->pos_set[pos];
	if (key != NULL)
		to = find_set(self, key);
	if (old == to && (key == NULL || to != CLUSTER_POS_NONE))
		return TRUE;
	/* leave first: the set it empties may be the one a new key takes */
	if (old != CLUSTER_POS_NONE) {
		flip(self, old, pos, -1);
		if (self->sets[old].members == 0)
			release_set(self, old);
		self->pos_set[pos] = CLUSTER_POS_NONE;
	}
	if (key == NULL)
		return TRUE;
	if (to == CLUSTER_POS_NONE)
		to = take_set(self, key);
	if (to == CLUSTER_POS_NONE)
		return FALSE;
	flip(self, to, pos, 1);
	self->pos_set[pos] = to;
	return TRUE;
}

guint
cluster_pos_index_set_of(const ClusterPosIndex *self, guint pos)
{
	return pos < self->n ? self->pos_set[pos] : CLUSTER_POS_NONE;
}

gconstpointer
cluster_pos_index_get_key(const ClusterPosIndex *self, guint set)
{
	return self->sets[set].key;
}

guint
cluster_pos_index_get_members(const ClusterPosIndex *self, guint set)
{
	return self->sets[set].members;
}

guint
cluster_pos_index_list_sets(const ClusterPosIndex *self, guint *out)
{
	memcpy(out, self->in_use, sizeof(guint) * self->n_in_use);
	return self->n_in_use;
}

/* Members of one set below @pos. */
static guint
rank_one(const ClusterPosIndex *self, guint id, guint pos)
{
	const PosSet *set = &self->sets[id];
	guint word = pos / 64, r = 0;

	for (guint i = word; i > 0; i -= i & -i)
		r += set->tree[i];
	if (pos % 64 != 0)
		r += (guint)__builtin_popcountll(set->words[word] &
		                                 (((guint64)1 << (pos % 64)) - 1));
	return r;
}

guint
cluster_pos_index_rank(const ClusterPosIndex *self, const guint *sets, guint n_sets, guint pos)
{
	guint r = 0;

	for (guint s = 0; s < n_sets; s++)
		r += rank_one(self, sets[s], pos);
	return r;
}

/* The @k-th (k >= 1) set bit of @word. */
static guint
select_in_word(guint64 word, guint k)
{
	while (--k > 0)
		word &= word - 1;
	return (guint)__builtin_ctzll(word);
}

/* The @k-th member (1 <= k <= their members) of @sets from position 0: one descent over all trees.
 */
static guint
select_all(const ClusterPosIndex *self, const guint *sets, guint n_sets, guint k)
{
	guint word = 0; /* words before the answer's */
	guint64 bits = 0;

	for (guint step = self->top; step > 0; step /= 2) {
		guint sum = 0;

		if (word + step > self->n_words)
			continue;
		for (guint s = 0; s < n_sets; s++)
			sum += self->sets[sets[s]].tree[word + step];
		if (sum < k) {
			word += step;
			k -= sum;
		}
	}
	for (guint s = 0; s < n_sets; s++)
		bits |= self->sets[sets[s]].words[word];
	return word * 64 + select_in_word(bits, k);
}

guint
cluster_pos_index_select_from(
        const ClusterPosIndex *self, const guint *sets, guint n_sets, guint start, guint k)
{
	guint total = 0, before, after;

	for (guint s = 0; s < n_sets; s++)
		total += self->sets[sets[s]].members;
	if (k == 0 || k > total || start >= self->n)
		return CLUSTER_POS_NONE;
	before = cluster_pos_index_rank(self, sets, n_sets, start);
	after = total - before;
	return select_all(self, sets, n_sets, k <= after ? before + k : k - after);
}

guint
cluster_pos_index_count_window(const ClusterPosIndex *self, guint set, guint start, guint len)
{
	guint end = start + len;

	if (len >= self->n)
		return self->sets[set].members;
	if (end <= self->n)
		return rank_one(self, set, end) - rank_one(self, set, start);
	return self->sets[set].members - rank_one(self, set, start) +
	       rank_one(self, set, end - self->n);
}

/* ------------------------------------------------------------- window */

/* Classes with members the index follows (about 3n/16 bytes each: 4.7 MB at 100,000 nodes). */
#define CLUSTER_SCHED_WINDOW_MAX_CLASSES 256
/* After an overflow, cycles until the next rebuild: doubles per failure up to the cap. */
#define WINDOW_RETRY_FIRST 8
#define WINDOW_RETRY_MAX   1024

struct ClusterSchedWindow {
	ClusterPosIndex *index;
	ClusterNodeWatch *watch; /* the nodes touched since the index last read them */
	gboolean stale;          /* the node list was rebuilt */
	gboolean overflow;       /* more classes than the index holds */
	guint retry_in, retry_every;
	/* scratch, one entry per class listed (CLUSTER_SCHED_WINDOW_MAX_CLASSES) */
	guint *sets;               /* the classes with members */
	const ClusterNode **reps;  /* a member of each */
	guint *in_window;          /* its members in this cycle's window */
	guint *feasible, *present; /* feasible classes; those with members in the window */
	const ClusterNode **present_reps;
	gint64 *scores, *totals; /* per present class */
	guint *tied;
	guint *dist; /* a feasible class's first member: its distance from the start */
};

ClusterSchedWindow *
cluster_sched_window_new(void)
{
	ClusterSchedWindow *self = g_new0(ClusterSchedWindow, 1);
	guint max = CLUSTER_SCHED_WINDOW_MAX_CLASSES;

	self->index = cluster_pos_index_new(max);
	self->watch = cluster_node_watch_new();
	self->stale = TRUE;
	self->sets = g_new(guint, max);
	self->reps = g_new(const ClusterNode *, max);
	self->in_window = g_new(guint, max);
	self->feasible = g_new(guint, max);
	self->present = g_new(guint, max);
	self->present_reps = g_new(const ClusterNode *, max);
	self->scores = g_new(gint64, max);
	self->totals = g_new(gint64, max);
	self->tied = g_new(guint, max);
	self->dist = g_new(guint, max);
	return self;
}

void
cluster_sched_window_free(ClusterSchedWindow *self)
{
	if (self == NULL)
		return;
	cluster_pos_index_free(self->index);
	cluster_node_watch_close(self->watch);
	g_free(self->sets);
	g_free(self->reps);
	g_free(self->in_window);
	g_free(self->feasible);
	g_free(self->present);
	g_free(self->present_reps);
	g_free(self->scores);
	g_free(self->totals);
	g_free(self->tied);
	g_free(self->dist);
	g_free(self);
}

void
cluster_sched_window_invalidate(ClusterSchedWindow *self)
{
	self->stale = TRUE;
	self->overflow = FALSE;
	self->retry_in = 0;
	self->retry_every = 0;
}

/* Every node's class from scratch; FALSE past the class bound. */
static gboolean
rebuild(ClusterSched *sched, ClusterSchedWindow *self)
{
	ClusterNode *const *nodes = (ClusterNode *const *)sched->nodes->pdata;
	guint n = sched->nodes->len;

	cluster_pos_index_reset(self->index, n);
	if (self->stale) {
		for (guint pos = 0; pos < n; pos++)
			cluster_node_watch_attach(self->watch, nodes[pos]);
		self->stale = FALSE;
	}
	cluster_node_watch_clear(self->watch);
	for (guint pos = 0; pos < n; pos++) {
		ClusterSchedClass *klass = cluster_sched_classes_of(sched->classes, nodes[pos]);

		if (!cluster_pos_index_move(self->index, pos, klass))
			return FALSE;
	}
	return TRUE;
}

/* The nodes touched since the last cycle move to their classes now. */
static gboolean
follow_touched(ClusterSched *sched, ClusterSchedWindow *self)
{
	GPtrArray *touched = self->watch->touched;
	gboolean ok = TRUE;

	for (guint i = 0; i < touched->len && ok; i++) {
		ClusterNode *node = touched->pdata[i];

		/* a node removed from the list stays attached until freed: skip it */
		if (node->index >= sched->nodes->len || sched->nodes->pdata[node->index] != node)
			continue;
		ok = cluster_pos_index_move(self->index, node->index,
		                            cluster_sched_classes_of(sched->classes, node));
	}
	cluster_node_watch_clear(self->watch);
	return ok;
}

/* The index up to date, or FALSE (too many classes: the walk decides this cycle). */
static gboolean
window_sync(ClusterSched *sched, ClusterSchedWindow *self)
{
	if (self->overflow && self->retry_in > 0) {
		self->retry_in--;
		return FALSE;
	}
	if (self->stale || self->overflow ? rebuild(sched, self) : follow_touched(sched, self)) {
		self->overflow = FALSE;
		self->retry_every = 0;
		return TRUE;
	}
	self->overflow = TRUE;
	self->retry_every = self->retry_every == 0 ? WINDOW_RETRY_FIRST
	                                           : MIN(self->retry_every * 2, WINDOW_RETRY_MAX);
	self->retry_in = self->retry_every;
	return FALSE;
}

/*
 * Each class's node-local filters (once per cycle through its memo, as the
 * walk's filter_node_classed), the feasible ones listed; returns how many
 * nodes are feasible.
 */
static guint
class_verdicts(ClusterSched *sched, const ClusterPod *pod, guint n_sets, guint *n_feasible)
{
	ClusterSchedWindow *self = sched->window;
	guint32 fit_mask = cluster_filter__fit_mask(pod);
	guint total = 0;

	*n_feasible = 0;
	for (guint i = 0; i < n_sets; i++) {
		ClusterSchedClass *klass =
		        (ClusterSchedClass *)cluster_pos_index_get_key(self->index, self->sets[i]);
		ClusterSchedClassMemo *memo = cluster_sched_class_get_memo(klass);
		guint first = cluster_pos_index_select_from(self->index, &self->sets[i], 1, 0, 1);

		self->reps[i] = sched->nodes->pdata[first];
		cluster_sched__class_filters(sched, pod, fit_mask, self->reps[i], memo);
		if (memo->rejector == CLUSTER_N_PLUGINS) {
			self->feasible[(*n_feasible)++] = self->sets[i];
			total += cluster_pos_index_get_members(self->index, self->sets[i]);
		}
	}
	return total;
}

static ClusterSchedClassMemo *
memo_of(const ClusterSchedWindow *self, guint set)
{
	return cluster_sched_class_get_memo(
	        (ClusterSchedClass *)cluster_pos_index_get_key(self->index, set));
}

/*
 * self->feasible[0..@m) with self->dist ordered by the distance of each
 * class's first member from @start (insertion sort: a few classes, no
 * allocation). FALSE when one has no DRA signature (answers per node).
 */
static gboolean
order_by_first_member(ClusterSched *sched, guint start, guint m)
{
	ClusterSchedWindow *self = sched->window;
	guint n = sched->nodes->len;

	for (guint i = 0; i < m; i++) {
		guint set = self->feasible[i];
		guint pos = cluster_pos_index_select_from(self->index, &set, 1, start, 1);
		guint dist = (pos + n - start) % n, j = i;

		if (((const ClusterNode *)sched->nodes->pdata[pos])->dra_sig == 0)
			return FALSE;
		for (; j > 0 && self->dist[j - 1] > dist; j--) {
			self->dist[j] = self->dist[j - 1];
			self->feasible[j] = self->feasible[j - 1];
		}
		self->dist[j] = dist;
		self->feasible[j] = set;
	}
	return TRUE;
}

/*
 * DynamicResources for a pod with claims, class by class as the walk meets
 * them. The walk asks a class when it reaches the class's first member, so
 * the classes are asked in the order of their first members after the start,
 * and a class only while the feasible classes asked before it have fewer
 * than @to_find members ahead of its first member (then that member is in
 * the window; the classes not asked have none in it). Leaves in
 * self->feasible the @n_feasible classes both filters pass and returns their
 * members. FALSE sends the cycle to the walk: a class without a signature
 * (before any call), or a first answer that cannot be shared (an error, a
 * timeout, a selector that read a per-node value); the walk then takes the
 * calls already made as they are (ClusterSchedClassMemo.dra_first).
 */
static gboolean
dra_verdicts(
        ClusterSched *sched, const ClusterPod *pod, guint to_find, guint *n_feasible, guint *total)
{
	ClusterSchedWindow *self = sched->window;
	guint start = sched->next_start, m = *n_feasible, kept = 0;

	*total = 0;
	if (!order_by_first_member(sched, start, m))
		return FALSE;
	for (guint k = 0; k < m; k++) {
		guint set = self->feasible[k], ahead = 0;
		ClusterSchedClassMemo *memo = memo_of(self, set);
		ClusterNode *first =
		        sched->nodes->pdata[(start + self->dist[k]) % sched->nodes->len];

		for (guint j = 0; j < kept && ahead < to_find; j++)
			ahead += cluster_pos_index_count_window(self->index, self->feasible[j],
			                                        start, self->dist[k]);
		if (ahead >= to_find)
			break;
		if (cluster_sched__class_dra_first(sched, pod, first, memo) ==
		            CLUSTER_STATUS_ERROR ||
		    memo->dra_answer == 0)
			return FALSE;
		if (memo->dra_status != CLUSTER_STATUS_SUCCESS)
			continue;
		self->feasible[kept++] = set; /* kept <= k: entry k was read above */
		*total += cluster_pos_index_get_members(self->index, set);
	}
	*n_feasible = kept;
	return TRUE;
}

/*
 * What the walk's note_rejected adds for the @count window nodes of class
 * @i, rejected by @memo's plugin; the first reason is the one of the rejected
 * node nearest the start (cyclic distance *@first_at).
 */
static void
note_rejected_class(ClusterSched *sched,
                    const ClusterPod *pod,
                    guint i,
                    ClusterPlugin rejector,
                    const char *reason,
                    guint count,
                    guint *first_at,
                    ClusterScheduleResult *out)
{
	ClusterSchedWindow *self = sched->window;
	guint n = sched->nodes->len, pos, at;

	out->rejected[rejector] += count;
	out->rejectors |= CLUSTER_PLUGIN_BIT(rejector);
	if (!sched->config.skip_reasons)
		cluster_reason_count_times(pod, self->reps[i], rejector, reason, count,
		                           out->reasons);
	if (reason == NULL)
		return;
	pos = cluster_pos_index_select_from(self->index, &self->sets[i], 1, sched->next_start, 1);
	at = (pos + n - sched->next_start) % n;
	if (at < *first_at) {
		*first_at = at;
		out->reason = reason;
	}
}

/*
 * One class's @count nodes in the window, as the walk adds them: rejected by
 * a node-local plugin or by DynamicResources (whose first call is counted,
 * the others take it), else listed as present. Returns the feasible ones.
 */
static guint
tally_class(ClusterSched *sched,
            const ClusterPod *pod,
            guint i,
            guint count,
            guint *n_present,
            guint *first_at,
            ClusterScheduleResult *out)
{
	ClusterSchedWindow *self = sched->window;
	ClusterSchedClassMemo *memo = memo_of(self, self->sets[i]);

	if (memo->rejector != CLUSTER_N_PLUGINS) {
		note_rejected_class(sched, pod, i, memo->rejector, memo->reason, count, first_at,
		                    out);
		return 0;
	}
	if (pod->has_dra) {
		/* dra_verdicts() asked every class with a member in the window */
		cluster_sched__class_dra_take(sched, memo, count - 1);
		if (memo->dra_status != CLUSTER_STATUS_SUCCESS) {
			note_rejected_class(sched, pod, i, CLUSTER_PLUGIN_DYNAMIC_RESOURCES,
			                    memo->dra_reason, count, first_at, out);
			return 0;
		}
	}
	self->in_window[*n_present] = count;
	self->present_reps[*n_present] = self->reps[i];
	self->present[(*n_present)++] = self->sets[i];
	return count;
}

/*
 * findNodesThatPassFilters from the counts: the window ends at the
 * to_find-th feasible node after the start (or holds every node); each
 * class's share of it is tallied as the walk tallies its nodes. Lists the
 * feasible classes present in the window and counts their nodes in
 * *@found. FALSE: DynamicResources left the cycle to the walk (dra_verdicts).
 */
static gboolean
window_counts(ClusterSched *sched,
              const ClusterPod *pod,
              guint *n_present,
              guint *found,
              ClusterScheduleResult *out)
{
	ClusterSchedWindow *self = sched->window;
	guint n = sched->nodes->len, start = sched->next_start;
	guint to_find = cluster_sched_num_feasible_nodes_to_find(
	        sched->config.percentage_of_nodes_to_score, n);
	guint n_sets = cluster_pos_index_list_sets(self->index, self->sets);
	guint n_feasible, total, processed = n, first_at = G_MAXUINT;
	guint by_rejector[CLUSTER_N_PLUGINS + 1] = { 0 };

	total = class_verdicts(sched, pod, n_sets, &n_feasible);
	if (pod->has_dra && !dra_verdicts(sched, pod, to_find, &n_feasible, &total))
		return FALSE;
	if (total >= to_find) {
		guint end = cluster_pos_index_select_from(self->index, self->feasible, n_feasible,
		                                          start, to_find);
		processed = (end + n - start) % n + 1;
	}
	*n_present = 0;
	*found = 0;
	for (guint i = 0; i < n_sets; i++) {
		guint count = cluster_pos_index_count_window(self->index, self->sets[i], start,
		                                             processed);

		by_rejector[memo_of(self, self->sets[i])->rejector] += count;
		if (count > 0)
			*found += tally_class(sched, pod, i, count, n_present, &first_at, out);
	}
	cluster_sched__add_filter_counts(sched, by_rejector);
	out->evaluated = processed;
	sched->feasible->len = 0;
	sched->next_start = (start + processed) % n;
	sched->stats.nodes_evaluated += processed;
	out->feasible = *found;
	return TRUE;
}

/* prioritizeNodes with one score per class: the normalisers read only the extremes. */
static void
prioritize_classes(ClusterSched *sched, const ClusterPod *pod, guint found, guint n_present)
{
	ClusterSchedWindow *self = sched->window;

	for (guint i = 0; i < n_present; i++)
		self->totals[i] = 0;
	for (guint p = 0; p < sched->plugins->len; p++) {
		ClusterScorePlugin *plugin = sched->plugins->pdata[p];

		if (plugin->klass->prescore != NULL &&
		    !plugin->klass->prescore(plugin, pod, NULL, found))
			continue;
		sched->stats.score_calls += found;
		for (guint i = 0; i < n_present; i++)
			self->scores[i] = plugin->klass->score(plugin, pod, self->present_reps[i]);
		if (plugin->klass->normalize != NULL)
			plugin->klass->normalize(plugin, pod, self->scores, n_present);
		for (guint i = 0; i < n_present; i++)
			self->totals[i] += self->scores[i] * plugin->weight;
	}
}

/*
 * selectHost: the walk's reservoir over the T tied nodes draws rand(count)
 * for count = 2..T in order and keeps the last count that drew 0 (else the
 * first); the same draws here, then that tied node by select.
 */
static guint
select_tied(ClusterSched *sched, guint start, guint n_present, gint64 *best_out)
{
	ClusterSchedWindow *self = sched->window;
	gint64 best = self->totals[0];
	guint n_tied = 0, ties = 0, selected = 1;

	for (guint i = 1; i < n_present; i++)
		best = MAX(best, self->totals[i]);
	for (guint i = 0; i < n_present; i++) {
		if (self->totals[i] != best)
			continue;
		self->tied[n_tied++] = self->present[i];
		ties += self->in_window[i];
	}
	if (sched->config.reservoir != NULL && sched->config.rand != NULL)
		selected = sched->config.reservoir(sched->config.rand_data, ties);
	else
		for (guint count = 2; count <= ties && sched->config.rand != NULL; count++)
			if (sched->config.rand(sched->config.rand_data, count) == 0)
				selected = count;
	*best_out = best;
	return cluster_pos_index_select_from(self->index, self->tied, n_tied, start, selected);
}

gboolean
cluster_sched__window_schedule(ClusterSched *sched,
                               const ClusterPod *pod,
                               ClusterScheduleResult *out,
                               ClusterNode **chosen)
{
	ClusterSchedWindow *self = sched->window;
	guint start = sched->next_start; /* window_counts() moves it */
	guint n_present, found, pos;

	/* a pod with claims comes here only when DynamicResources answers per class */
	if (!window_sync(sched, self))
		return FALSE;
	sched->dra_by_class = pod->has_dra;
	if (!window_counts(sched, pod, &n_present, &found, out))
		return FALSE;
	sched->stats.window_cycles++;
	*chosen = NULL;
	if (found == 0)
		return TRUE;
	/* the feasible and tied nodes are counted from the window's start, where the walk met them
	 */
	if (found == 1) {
		pos = cluster_pos_index_select_from(self->index, self->present, n_present, start,
		                                    1);
	} else {
		prioritize_classes(sched, pod, found, n_present);
		pos = select_tied(sched, start, n_present, &out->best_score);
	}
	*chosen = sched->nodes->pdata[pos];
	return TRUE;
}
