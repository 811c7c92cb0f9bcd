/*
 * cluster_sched.c: one kube-scheduler 1.34 scheduling cycle (schedule_one.go):
 * PreFilter, Filter over the nodes from the rotating start index until
 * numFeasibleNodesToFind feasible ones are found, Score with weights and
 * normalisation, selectHost with random tie-breaking, and Reserve.
 *
 * Filtering is sequential here, where upstream runs 16 goroutines; with the
 * early stop at numFeasibleNodesToFind the sequential order is the one the
 * parallel search approximates, and it keeps runs deterministic. Scratch
 * arrays live in the scheduler, so a cycle allocates nothing once warm.
 */
#include "cluster_sched.h"

#include "cluster_gpushare.h"
#include "cluster_plugin.h"
#include "cluster_sched-private.h"
#include "cluster_score.h"
#include "cluster_types.h"

ClusterSched *
cluster_sched_new(const ClusterSchedConfig *config)
{
	ClusterSched *self = g_new0(ClusterSched, 1);

	if (config != NULL)
		self->config = *config;
	self->tree = cluster_nodetree_new();
	self->nodes = g_ptr_array_new();
	self->plugins = g_ptr_array_new_with_free_func((GDestroyNotify)cluster_score_plugin_free);
	self->feasible = g_ptr_array_new();
	self->memos = g_ptr_array_new();
	self->classes = cluster_sched_classes_new();
	self->window = cluster_sched_window_new();
	self->scores = g_array_new(FALSE, TRUE, sizeof(gint64));
	self->totals = g_array_new(FALSE, TRUE, sizeof(gint64));
	self->reference = g_strcmp0(g_getenv("DRASIM_SCHED_REFERENCE"), "1") == 0;
	return self;
}

void
cluster_sched_free(ClusterSched *self)
{
	if (self == NULL)
		return;
	cluster_nodetree_free(self->tree);
	g_ptr_array_unref(self->nodes);
	g_ptr_array_unref(self->plugins);
	g_ptr_array_unref(self->feasible);
	g_ptr_array_unref(self->memos);
	cluster_sched_classes_free(self->classes);
	cluster_sched_window_free(self->window);
	g_array_unref(self->scores);
	g_array_unref(self->totals);
	g_free(self);
}

void
cluster_sched_add_score_plugin(ClusterSched *self, ClusterScorePlugin *plugin)
{
	g_ptr_array_add(self->plugins, plugin);
}

/* default_plugins.go: the score plugins drasim models, with their weights. */
/*
 * The list is rebuilt lazily (UpdateSnapshot rebuilds it when nodes were
 * added or removed), so adding many nodes costs one rebuild.
 */
static void
ensure_list(ClusterSched *self)
{
	if (!self->dirty)
		return;
	cluster_nodetree_list(self->tree, self->nodes);
	cluster_sched_classes_reset(self->classes, self->nodes->len);
	cluster_sched_window_invalidate(self->window);
	self->dirty = FALSE;
	if (self->nodes->len > 0)
		self->next_start %= self->nodes->len;
	else
		self->next_start = 0;
}

void
cluster_sched_add_node(ClusterSched *self, ClusterNode *node)
{
	cluster_nodetree_add(self->tree, node);
	self->dirty = TRUE;
}

void
cluster_sched_remove_node(ClusterSched *self, ClusterNode *node)
{
	if (cluster_nodetree_remove(self->tree, node))
		self->dirty = TRUE;
}

guint
cluster_sched_get_n_nodes(const ClusterSched *self)
{
	return cluster_nodetree_get_length(self->tree);
}

/* const in the contract; the list is a cache rebuilt on demand */
ClusterNode *
cluster_sched_get_node(const ClusterSched *self, guint index)
{
	ensure_list((ClusterSched *)self);
	g_return_val_if_fail(index < self->nodes->len, NULL);
	return self->nodes->pdata[index];
}

guint
cluster_sched_get_next_start_index(const ClusterSched *self)
{
	return self->next_start;
}

const ClusterSchedStats *
cluster_sched_get_stats(const ClusterSched *self)
{
	return &self->stats;
}

/* schedule_one.go: minFeasibleNodesToFind = 100, minFeasibleNodesPercentageToFind = 5 */
guint
cluster_sched_num_feasible_nodes_to_find(gint32 percentage, guint n_nodes)
{
	gint64 n = n_nodes, num;

	if (n < 100)
		return n_nodes;
	if (percentage == 0) {
		percentage = (gint32)(50 - n / 125);
		if (percentage < 5)
			percentage = 5;
	}
	num = n * percentage / 100;
	if (num < 100)
		return 100;
	return (guint)MIN(num, n);
}

void
cluster_sched_assume(ClusterSched *self, const ClusterPod *pod, ClusterNode *node)
{
	for (guint i = 0; i < CLUSTER_RES_MAX; i++) {
		node->requested.v[i] += pod->requests.v[i];
		node->nonzero_requested.v[i] += pod->nonzero_requests.v[i];
	}
	cluster_gpushare_node_sync(node, pod, 1);
	cluster_node_touch(node);
}

void
cluster_sched_release(ClusterSched *self, const ClusterPod *pod, ClusterNode *node)
{
	for (guint i = 0; i < CLUSTER_RES_MAX; i++) {
		node->requested.v[i] -= pod->requests.v[i];
		node->nonzero_requested.v[i] -= pod->nonzero_requests.v[i];
	}
	cluster_gpushare_node_sync(node, pod, -1);
	cluster_node_touch(node);
}

/* DynamicResources' Filter, after the node-local plugins passed. */
static ClusterStatus
filter_dra(ClusterSched *self,
           const ClusterPod *pod,
           const ClusterNode *node,
           ClusterPlugin *rejector,
           const char **reason)
{
	ClusterStatus status;
	gboolean called = FALSE;

	if (!pod->has_dra)
		return CLUSTER_STATUS_SUCCESS;
	self->stats.plugin_filter_calls[CLUSTER_PLUGIN_DYNAMIC_RESOURCES]++;
	self->stats.dra_filter_calls++;
	status = self->config.dra->filter(self->config.dra_data, pod, node, &called, reason);
	if (called)
		self->stats.allocator_calls++;
	if (status == CLUSTER_STATUS_UNSCHEDULABLE)
		*rejector = CLUSTER_PLUGIN_DYNAMIC_RESOURCES;
	return status;
}

/* Filter one node: the node-local plugins, then DynamicResources. */
static ClusterStatus
filter_node(ClusterSched *self,
            const ClusterPod *pod,
            guint32 fit_mask,
            const ClusterNode *node,
            ClusterPlugin *rejector,
            const char **reason)
{
	self->stats.node_filter_calls++;
	*rejector = cluster_filter__run_mask(pod, fit_mask, node, self->stats.plugin_filter_calls,
	                                     reason);
	if (*rejector != CLUSTER_N_PLUGINS)
		return CLUSTER_STATUS_UNSCHEDULABLE;
	return filter_dra(self, pod, node, rejector, reason);
}

void
cluster_sched__class_filters(ClusterSched *self,
                             const ClusterPod *pod,
                             guint32 fit_mask,
                             const ClusterNode *node,
                             ClusterSchedClassMemo *memo)
{
	guint64 calls[CLUSTER_N_PLUGINS] = { 0 }; /* counted per node by the caller */

	if (memo->filter_cycle == self->cycle)
		return;
	memo->reason = NULL;
	memo->rejector = cluster_filter__run_mask(pod, fit_mask, node, calls, &memo->reason);
	memo->filter_cycle = self->cycle;
}

/*
 * DynamicResources for the first member of a class this cycle: the filter,
 * and whether its answer holds for the other members (memo->dra_answer).
 */
ClusterStatus
cluster_sched__class_dra_first(ClusterSched *self,
                               const ClusterPod *pod,
                               const ClusterNode *node,
                               ClusterSchedClassMemo *memo)
{
	self->stats.plugin_filter_calls[CLUSTER_PLUGIN_DYNAMIC_RESOURCES]++;
	self->stats.dra_filter_calls++;
	memo->dra_cycle = self->cycle;
	memo->dra_called = FALSE;
	memo->dra_reason = NULL;
	memo->dra_answer = 0;
	memo->dra_status =
	        self->config.dra->filter_shared(self->config.dra_data, pod, node, &memo->dra_called,
	                                        &memo->dra_reason, &memo->dra_answer);
	if (memo->dra_called)
		self->stats.allocator_calls++;
	return memo->dra_status;
}

/*
 * @times more members take the class's answer: the counters as if each had
 * called DynamicResources (and the allocator) itself, which gives the same
 * answer and statistics on equal signatures (dra_signature.c).
 */
ClusterStatus
cluster_sched__class_dra_take(ClusterSched *self, ClusterSchedClassMemo *memo, guint64 times)
{
	self->stats.plugin_filter_calls[CLUSTER_PLUGIN_DYNAMIC_RESOURCES] += times;
	self->stats.dra_filter_calls += times;
	if (memo->dra_called)
		self->stats.allocator_calls += times;
	self->config.dra->add_answer(self->config.dra_data, memo->dra_answer, times);
	return memo->dra_status;
}

/*
 * DynamicResources by class: members of one class share dra_sig, so when the
 * pod's answer depends on nothing else (dra_by_class) the first member asks
 * and the others take its answer. Otherwise, or when the first member's
 * answer turned out not to be shareable, per node as filter_dra().
 */
static ClusterStatus
filter_dra_classed(ClusterSched *self,
                   const ClusterPod *pod,
                   const ClusterNode *node,
                   ClusterSchedClassMemo *memo,
                   ClusterPlugin *rejector,
                   const char **reason)
{
	ClusterStatus status;

	if (!self->dra_by_class || node->dra_sig == 0 ||
	    (memo->dra_cycle == self->cycle && memo->dra_answer == 0))
		return filter_dra(self, pod, node, rejector, reason);
	if (memo->dra_cycle != self->cycle)
		status = cluster_sched__class_dra_first(self, pod, node, memo);
	else
		status = cluster_sched__class_dra_take(self, memo, 1);
	if (status != CLUSTER_STATUS_SUCCESS)
		*reason = memo->dra_reason;
	if (status == CLUSTER_STATUS_UNSCHEDULABLE)
		*rejector = CLUSTER_PLUGIN_DYNAMIC_RESOURCES;
	return status;
}

/*
 * The node-local filters once per class and cycle. The counters still count
 * a RunFilterPlugins per node, each plugin up to the one that rejected (the
 * gpushare check, reported as NodeResourcesFit, runs after all four): the
 * walk tallies the nodes by rejector in @by_rejector and
 * cluster_sched__add_filter_counts() turns the tally into per-plugin calls
 * once per cycle. DynamicResources goes by class too when it can
 * (filter_dra_classed).
 */
static ClusterStatus
filter_node_classed(ClusterSched *self,
                    const ClusterPod *pod,
                    guint32 fit_mask,
                    const ClusterNode *node,
                    ClusterSchedClassMemo *memo,
                    guint *by_rejector,
                    ClusterPlugin *rejector,
                    const char **reason)
{
	cluster_sched__class_filters(self, pod, fit_mask, node, memo);
	*rejector = memo->rejector;
	by_rejector[*rejector]++;
	if (*rejector != CLUSTER_N_PLUGINS) {
		*reason = memo->reason;
		return CLUSTER_STATUS_UNSCHEDULABLE;
	}
	if (!pod->has_dra)
		return CLUSTER_STATUS_SUCCESS;
	return filter_dra_classed(self, pod, node, memo, rejector, reason);
}

/*
 * A node whose node-local filters stopped at plugin r ran plugins 0..r (those
 * that passed all of them ran all, the last being NodeResourcesFit).
 * DynamicResources counts its own calls in filter_dra().
 */
void
cluster_sched__add_filter_counts(ClusterSched *self, const guint *by_rejector)
{
	guint64 ran = 0; /* nodes that reached plugin p: those stopped at p or later */

	for (gint p = CLUSTER_N_PLUGINS; p >= 0; p--) {
		ran += by_rejector[p];
		self->stats.node_filter_calls += by_rejector[p];
		if (p <= CLUSTER_PLUGIN_NODE_RESOURCES_FIT)
			self->stats.plugin_filter_calls[p] += ran;
	}
}

/* One node of the walk: its filters, by class unless the reference path or labels say not. */
static ClusterStatus
filter_one(ClusterSched *self,
           const ClusterPod *pod,
           guint32 fit_mask,
           gboolean by_class,
           const ClusterNode *node,
           ClusterSchedClassMemo **memo_out,
           guint *by_rejector,
           ClusterPlugin *rejector,
           const char **reason)
{
	if (self->reference)
		return filter_node(self, pod, fit_mask, node, rejector, reason);
	*memo_out = cluster_sched_class_get_memo(cluster_sched_classes_of(self->classes, node));
	if (!by_class)
		return filter_node(self, pod, fit_mask, node, rejector, reason);
	return filter_node_classed(self, pod, fit_mask, node, *memo_out, by_rejector, rejector,
	                           reason);
}

/* A rejected node: the result's histogram and first reason. */
static void
note_rejected(ClusterSched *self,
              const ClusterPod *pod,
              const ClusterNode *node,
              ClusterPlugin rejector,
              const char *reason,
              ClusterScheduleResult *out)
{
	out->rejected[rejector]++;
	out->rejectors |= CLUSTER_PLUGIN_BIT(rejector);
	/* the FitError histogram (cluster_journal.c); no allocation */
	if (!self->config.skip_reasons)
		cluster_reason_count(pod, node, rejector, reason, out->reasons);
	if (out->reason == NULL)
		out->reason = reason;
}

/*
 * findNodesThatPassFilters: sequential, stopping once enough feasible nodes
 * are found; every node looked at (feasible or not) advances the start index
 * of the next cycle (findNodesThatFitPod). An error returns at once and
 * leaves the index alone, as upstream returns before updating it.
 */
static ClusterStatus
find_feasible(ClusterSched *self, const ClusterPod *pod, ClusterScheduleResult *out)
{
	guint n = self->nodes->len;
	guint to_find = cluster_sched_num_feasible_nodes_to_find(
	        self->config.percentage_of_nodes_to_score, n);
	guint processed = 0, found = 0;
	guint32 fit_mask = cluster_filter__fit_mask(pod);
	/* NodeAffinity reads labels, which classes do not key: node by node then */
	gboolean by_class = cluster_pod_count(pod->node_selector) == 0 && pod->terms == NULL;
	const ClusterDraOps *dra = self->config.dra;
	guint by_rejector[CLUSTER_N_PLUGINS + 1] = { 0 };
	ClusterNode *const *nodes = (ClusterNode *const *)self->nodes->pdata;
	gpointer *feasible, *memos;
	ClusterStatus status = CLUSTER_STATUS_SUCCESS;

	/* room for every answer up front: plain stores in the loop */
	if (self->feasible->len < to_find) {
		g_ptr_array_set_size(self->feasible, to_find);
		g_ptr_array_set_size(self->memos, to_find);
	}
	feasible = self->feasible->pdata;
	memos = self->memos->pdata;
	self->dra_by_class = by_class && !self->reference && pod->has_dra && dra != NULL &&
	                     dra->class_invariant != NULL &&
	                     dra->class_invariant(self->config.dra_data, pod);
	/* pos walks the list from the start index and wraps once; no division per node */
	for (guint pos = self->next_start; processed < n && found < to_find;) {
		ClusterNode *node = nodes[pos];
		ClusterPlugin rejector = CLUSTER_N_PLUGINS;
		const char *reason = NULL;
		ClusterSchedClassMemo *memo = NULL;
		guint next = pos + 1 < n ? pos + 1 : 0;
		const ClusterNode *after = nodes[next + 1 < n ? next + 1 : 0];

		/*
		 * The filters are memory-bound (a few scattered cache lines per node):
		 * start loading the node two ahead and the taints and requests of the
		 * next one. No effect on results. Written in the loop: GCC 12 dropped
		 * these prefetches from a static inline helper.
		 */
		__builtin_prefetch(after);
		__builtin_prefetch((const char *)after + 64);
		__builtin_prefetch(nodes[next]->taints);
		__builtin_prefetch(&nodes[next]->requested);
		status = filter_one(self, pod, fit_mask, by_class, node, &memo, by_rejector,
		                    &rejector, &reason);
		processed++;
		pos = next;
		if (status == CLUSTER_STATUS_ERROR) {
			out->reason = reason != NULL ? reason : "filter error";
			break;
		}
		if (status == CLUSTER_STATUS_SUCCESS) {
			memos[found] = memo;
			feasible[found++] = node;
		} else {
			note_rejected(self, pod, node, rejector, reason, out);
		}
	}
	cluster_sched__add_filter_counts(self, by_rejector);
	out->evaluated = processed;
	if (status == CLUSTER_STATUS_ERROR) {
		self->feasible->len = 0;
		return CLUSTER_STATUS_ERROR;
	}
	/* GPtrArray.len is public: the entries past it are kept for the next cycle */
	self->feasible->len = found;
	self->next_start = (self->next_start + processed) % n;
	self->stats.nodes_evaluated += processed;
	out->feasible = self->feasible->len;
	return CLUSTER_STATUS_SUCCESS;
}

/* One Score call per class and cycle; the counter still counts one per node. */
static void
score_by_class(ClusterSched *self,
               ClusterScorePlugin *plugin,
               guint p,
               const ClusterPod *pod,
               gint64 *scores)
{
	ClusterNode *const *nodes = (ClusterNode *const *)self->feasible->pdata;
	ClusterSchedClassMemo *const *memos = (ClusterSchedClassMemo *const *)self->memos->pdata;

	for (guint i = 0; i < self->feasible->len; i++) {
		ClusterSchedClassMemo *memo = memos[i];

		if (memo->score_cycle[p] != self->cycle) {
			memo->score[p] = plugin->klass->score(plugin, pod, nodes[i]);
			memo->score_cycle[p] = self->cycle;
		}
		scores[i] = memo->score[p];
	}
}

/* Plugin @p is scored once per class (not on the reference path). */
static gboolean
scored_by_class(const ClusterSched *self, const ClusterScorePlugin *plugin, guint p)
{
	return !self->reference && plugin->klass->node_state_only &&
	       p < CLUSTER_SCHED_CLASS_PLUGINS;
}

/*
 * Everything that runs for @pod is a class's answer, so the window
 * (cluster_sched_window.c) may decide from per-class counts: not the
 * reference path; no node selector or required affinity (NodeAffinity reads
 * labels); no claims (DynamicResources answers per node); every score plugin
 * class-scored, its PreScore reading only the pod (the window has no
 * feasible list to hand it) and its normaliser only the list's extremes.
 */
gboolean
cluster_sched__pod_fully_classed(const ClusterSched *self, const ClusterPod *pod)
{
	if (self->reference || pod->has_dra || cluster_pod_count(pod->node_selector) != 0 ||
	    pod->terms != NULL)
		return FALSE;
	for (guint p = 0; p < self->plugins->len; p++) {
		const ClusterScorePlugin *plugin = self->plugins->pdata[p];
		const ClusterScorePluginClass *klass = plugin->klass;

		if (!scored_by_class(self, plugin, p) ||
		    (klass->prescore != NULL && !klass->prescore_pod_only) ||
		    (klass->normalize != NULL && !klass->normalize_by_extremes))
			return FALSE;
	}
	return TRUE;
}

/*
 * The class-scored plugins without a normaliser (@mask) add weight × score
 * to a node's total whatever the other nodes score: one sum per class and
 * cycle, added per node. Integer sums: the order of the terms is free.
 */
static void
add_fixed_totals(ClusterSched *self, const ClusterPod *pod, guint32 mask, gint64 *totals)
{
	ClusterNode *const *nodes = (ClusterNode *const *)self->feasible->pdata;
	ClusterSchedClassMemo *const *memos = (ClusterSchedClassMemo *const *)self->memos->pdata;

	if (mask == 0)
		return;
	for (guint i = 0; i < self->feasible->len; i++) {
		ClusterSchedClassMemo *memo = memos[i];

		if (memo->fixed_cycle != self->cycle) {
			memo->fixed_total = 0;
			for (guint p = 0; p < self->plugins->len; p++) {
				ClusterScorePlugin *plugin = self->plugins->pdata[p];

				if (mask & (1u << p))
					memo->fixed_total +=
					        plugin->klass->score(plugin, pod, nodes[i]) *
					        plugin->weight;
			}
			memo->fixed_cycle = self->cycle;
		}
		totals[i] += memo->fixed_total;
	}
}

/* prioritizeNodes: Σ weight × (normalised) score per feasible node. */
static void
prioritize(ClusterSched *self, const ClusterPod *pod)
{
	guint n = self->feasible->len;
	ClusterNode *const *nodes = (ClusterNode *const *)self->feasible->pdata;
	gint64 *totals, *scores;
	guint32 fixed = 0; /* class-scored plugins summed by add_fixed_totals() */

	g_array_set_size(self->totals, n);
	g_array_set_size(self->scores, n);
	totals = (gint64 *)(void *)self->totals->data;
	scores = (gint64 *)(void *)self->scores->data;
	for (guint i = 0; i < n; i++)
		totals[i] = 0;
	for (guint p = 0; p < self->plugins->len; p++) {
		ClusterScorePlugin *plugin = self->plugins->pdata[p];

		if (plugin->klass->prescore != NULL &&
		    !plugin->klass->prescore(plugin, pod, nodes, n))
			continue;
		self->stats.score_calls += n;
		/* node_state_only scores draw nothing: summing them later keeps the draws' order */
		if (scored_by_class(self, plugin, p) && plugin->klass->normalize == NULL) {
			fixed |= 1u << p;
			continue;
		}
		if (scored_by_class(self, plugin, p))
			score_by_class(self, plugin, p, pod, scores);
		else
			for (guint i = 0; i < n; i++)
				scores[i] = plugin->klass->score(plugin, pod, nodes[i]);
		if (plugin->klass->normalize != NULL)
			plugin->klass->normalize(plugin, pod, scores, n);
		for (guint i = 0; i < n; i++)
			totals[i] += scores[i] * plugin->weight;
	}
	add_fixed_totals(self, pod, fixed, totals);
}

/*
 * selectHost: the best total wins; among the nodes sharing it each is kept
 * with probability 1/count (reservoir sampling), one draw per extra tie as
 * upstream. Upstream visits the ties in heap-pop order, drasim in filter
 * order: the choice is uniform either way, and drawn from the scheduler's own
 * stream.
 */
static guint
select_host(ClusterSched *self, gint64 *best_out)
{
	const gint64 *totals = (const gint64 *)(const void *)self->totals->data;
	guint selected = 0, count = 0;
	gint64 best = totals[0];

	for (guint i = 1; i < self->feasible->len; i++)
		best = MAX(best, totals[i]);
	for (guint i = 0; i < self->feasible->len; i++) {
		if (totals[i] != best)
			continue;
		count++;
		if (count == 1)
			selected = i;
		else if (self->config.rand != NULL &&
		         self->config.rand(self->config.rand_data, count) == 0)
			selected = i;
	}
	*best_out = best;
	return selected;
}

static void
fail(ClusterSched *self, const ClusterPod *pod, ClusterScheduleResult *out, ClusterStatus status)
{
	out->status = status;
	if (status == CLUSTER_STATUS_ERROR) {
		/* an error carries no unschedulable plugins: podErrorBackoffQ */
		out->rejectors = 0;
		self->stats.errors++;
		return;
	}
	self->stats.unschedulable++;
	/* DynamicResources PostFilter: free allocated claims nobody reserved. */
	if (pod->has_dra && self->config.dra != NULL && self->config.dra->postfilter != NULL)
		self->config.dra->postfilter(self->config.dra_data, pod);
}

/* PreFilter of DynamicResources; the node-local plugins need none here. */
static gboolean
prefilter(ClusterSched *self, const ClusterPod *pod, ClusterScheduleResult *out)
{
	ClusterStatus status;
	const char *reason = "pod has resource claims but no DRA driver is configured";

	if (!pod->has_dra)
		return TRUE;
	status = CLUSTER_STATUS_UNSCHEDULABLE;
	if (self->config.dra != NULL)
		status = self->config.dra->prefilter(self->config.dra_data, pod, &reason);
	if (status == CLUSTER_STATUS_SUCCESS)
		return TRUE;
	out->reason = reason;
	if (status == CLUSTER_STATUS_UNSCHEDULABLE) {
		out->rejectors = CLUSTER_PLUGIN_BIT(CLUSTER_PLUGIN_DYNAMIC_RESOURCES);
		out->rejected[CLUSTER_PLUGIN_DYNAMIC_RESOURCES] = self->nodes->len;
	}
	fail(self, pod, out, status);
	return FALSE;
}

static void
reserve(ClusterSched *self, const ClusterPod *pod, ClusterNode *node, ClusterScheduleResult *out)
{
	if (pod->has_dra && !self->config.dra->reserve(self->config.dra_data, pod, node)) {
		out->reason = "DynamicResources reserve failed";
		fail(self, pod, out, CLUSTER_STATUS_ERROR);
		return;
	}
	cluster_sched_assume(self, pod, node);
	out->status = CLUSTER_STATUS_SUCCESS;
	out->node = node;
	self->stats.scheduled++;
}

void
cluster_sched_schedule_one(ClusterSched *self, const ClusterPod *pod, ClusterScheduleResult *out)
{
	guint chosen = 0;
	ClusterNode *node = NULL;

	*out = (ClusterScheduleResult){ 0 };
	self->stats.attempts++;
	self->cycle++;
	ensure_list(self);
	if (self->nodes->len == 0) {
		/* ErrNoNodesAvailable: unschedulable, but no plugin to wait for */
		out->reason = "no nodes available to schedule pods";
		fail(self, pod, out, CLUSTER_STATUS_UNSCHEDULABLE);
		return;
	}
	if (!prefilter(self, pod, out))
		return;
	if (cluster_sched__pod_fully_classed(self, pod) &&
	    cluster_sched__window_schedule(self, pod, out, &node)) {
		if (node == NULL) {
			fail(self, pod, out, CLUSTER_STATUS_UNSCHEDULABLE);
			return;
		}
		out->reason = NULL;
		reserve(self, pod, node, out);
		return;
	}
	if (find_feasible(self, pod, out) == CLUSTER_STATUS_ERROR) {
		fail(self, pod, out, CLUSTER_STATUS_ERROR);
		return;
	}
	if (self->feasible->len == 0) {
		fail(self, pod, out, CLUSTER_STATUS_UNSCHEDULABLE);
		return;
	}
	/* schedulePod: a single feasible node is taken without scoring. */
	if (self->feasible->len > 1) {
		prioritize(self, pod);
		chosen = select_host(self, &out->best_score);
	}
	out->reason = NULL;
	reserve(self, pod, self->feasible->pdata[chosen], out);
}

/*
 * Upstream, a scheduler that starts over a running cluster finds its pods
 * bound (spec.nodeName) and only adds them to its cache; nextStartNodeIndex
 * starts at 0 and moves only in findNodesThatFitPod (schedule_one.go). The
 * kubelet admitted them: pkg/kubelet/lifecycle/predicate.go, GeneralPredicates.
 */
void
cluster_sched_admit(ClusterSched *self,
                    const ClusterPod *pod,
                    ClusterNode *node,
                    ClusterScheduleResult *out)
{
	guint64 calls[CLUSTER_N_PLUGINS] = { 0 }; /* not the cycles' counters */
	const char *reason = NULL;
	gboolean called = FALSE;
	ClusterStatus status = CLUSTER_STATUS_SUCCESS;

	*out = (ClusterScheduleResult){ .status = CLUSTER_STATUS_UNSCHEDULABLE };
	if (cluster_filter__run(pod, node, calls, &reason) != CLUSTER_N_PLUGINS) {
		out->reason = reason;
		return;
	}
	if (pod->has_dra) {
		reason = "pod has resource claims but no DRA driver is configured";
		status = self->config.dra == NULL
		                 ? CLUSTER_STATUS_UNSCHEDULABLE
		                 : self->config.dra->prefilter(self->config.dra_data, pod, &reason);
		if (status == CLUSTER_STATUS_SUCCESS)
			status = self->config.dra->filter(self->config.dra_data, pod, node, &called,
			                                  &reason);
		if (status == CLUSTER_STATUS_SUCCESS &&
		    !self->config.dra->reserve(self->config.dra_data, pod, node)) {
			status = CLUSTER_STATUS_ERROR;
			reason = "DynamicResources reserve failed";
		}
	}
	if (status != CLUSTER_STATUS_SUCCESS) {
		out->reason = reason;
		return;
	}
	cluster_sched_assume(self, pod, node);
	out->status = CLUSTER_STATUS_SUCCESS;
	out->node = node;
}
