/*
 * measure_reasons.c: why pods waited, in kube-scheduler's words, and the
 * history `drasim explain` prints.
 *
 * The message of a failed attempt is what `kubectl describe pod` shows for a
 * 1.34 scheduler: FitError ("0/N nodes are available: <sorted histogram>.")
 * followed by the PostFilter plugins' messages joined by ", "
 * (framework/runtime RunPostFilterPlugins): DynamicResources first ("no new
 * claims to deallocate" for a pod without claims, "deallocation of
 * ResourceClaim completed" or "still not schedulable"), then DefaultPreemption
 * ("preemption: 0/N nodes are available: X Preemption is not helpful for
 * scheduling, Y No preemption victims found for incoming pod."; only
 * NodeResourcesFit's nodes are candidates, see cluster_reason_is_unresolvable).
 * drasim does not model preemption: the message assumes no node has a
 * lower-priority pod to evict, which holds when pods share a priority (the
 * default).
 */
#include <string.h>

#include "cluster_dra.h"
#include "measure-private.h"

void
scenario_reason__free(gpointer data)
{
	ScenarioReason *r = data;

	g_free(r->pod);
	g_free(r->message);
	g_free(r->detail);
	g_free(r);
}

static guint
count_of(const ClusterAttempt *a, ClusterReason code)
{
	for (guint i = 0; i < a->n_reasons; i++) {
		if (a->reasons[i].code == code)
			return a->reasons[i].count;
	}
	return 0;
}

/* DefaultPreemption's PostFilter message (default_preemption.go, preemption.go). */
static char *
preemption_message(const ClusterAttempt *a)
{
	const char *texts[2];
	guint counts[2], n = 0, unresolvable = 0;
	g_autofree char *fit = NULL;

	if (a->message != NULL) {
		/* PreFilter rejected the pod: every node has its unresolvable status */
		unresolvable = a->n_nodes;
	} else {
		/* one status per node; the unresolvable codes are one reason per node */
		for (guint i = 0; i < a->n_reasons; i++) {
			if (cluster_reason_is_unresolvable(a->reasons[i].code))
				unresolvable += a->reasons[i].count;
		}
	}
	unresolvable = MIN(unresolvable, a->n_nodes);
	if (unresolvable > 0) {
		texts[n] = "Preemption is not helpful for scheduling";
		counts[n++] = unresolvable;
	}
	if (a->n_nodes > unresolvable) {
		texts[n] = "No preemption victims found for incoming pod";
		counts[n++] = a->n_nodes - unresolvable;
	}
	fit = rpt_format_fit_error(a->n_nodes, texts, counts, n, NULL, NULL);
	return g_strconcat("preemption: ", fit, NULL);
}

/* DynamicResources' PostFilter message (dynamicresources.go PostFilter). */
static const char *
dra_postfilter_message(const ClusterAttempt *a)
{
	if (!a->has_claims || a->message != NULL)
		return "no new claims to deallocate";
	/* an allocated claim pinned to other nodes and reserved by nobody is freed */
	if (count_of(a, CLUSTER_REASON_CLAIM_NOT_ON_NODE) > 0)
		return "deallocation of ResourceClaim completed";
	return "still not schedulable";
}

char *
scenario_reason_message(const ClusterAttempt *a, const ClusterResNames *names)
{
	g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func(g_free);
	guint counts[CLUSTER_JOURNAL_MAX_REASONS];
	g_autofree char *preemption = NULL;
	g_autofree char *post = NULL;

	/* an error is not a FitError: the event shows the error's text */
	if (a->error)
		return g_strdup(a->message != NULL ? a->message : "scheduling error");
	/* ErrNoNodesAvailable: no FitError either */
	if (a->n_nodes == 0)
		return g_strdup(a->message != NULL ? a->message
		                                   : "no nodes available to schedule pods");
	for (guint i = 0; i < a->n_reasons; i++) {
		g_ptr_array_add(texts, cluster_reason_to_string(a->reasons[i].code, names));
		counts[i] = a->reasons[i].count;
	}
	preemption = preemption_message(a);
	post = g_strconcat(dra_postfilter_message(a), ", ", preemption, NULL);
	return rpt_format_fit_error(a->n_nodes, (const char *const *)texts->pdata, counts,
	                            texts->len, a->message, post);
}

/* ------------------------------------------------------ after the run */

static gboolean
wants_detail(const ClusterAttempt *a, ClusterSim *sim, guint pod)
{
	return a->detail == NULL && !a->error && a->message == NULL &&
	       count_of(a, CLUSTER_REASON_CLAIMS) > 0 &&
	       cluster_sim_get_pod_phase(sim, pod) == CLUSTER_POD_PENDING;
}

/* Diagnoses computed per run at most (each tries every node): a bound on the cost. */
#define MAX_END_DETAILS 256

/*
 * The allocator's diagnosis of the pods still pending, computed now (the end
 * state is what they wait on). Pods of one workload entry share a spec and so
 * the same answer: it is computed once per spec. Trace pods (no spec) are
 * diagnosed one by one, up to MAX_END_DETAILS per run.
 */
static char *
end_detail(ClusterDra *dra, guint pod, const GArray *pods, GHashTable *memo, guint *budget)
{
	gconstpointer key = NULL;
	char *text;

	if (pods != NULL && pod < pods->len)
		key = g_array_index(pods, ScenarioPod, pod).spec;
	if (key != NULL && g_hash_table_contains(memo, key))
		return g_strdup(g_hash_table_lookup(memo, key));
	if (*budget == 0)
		return NULL;
	(*budget)--;
	text = cluster_dra_explain_pod(dra, pod);
	if (key != NULL)
		g_hash_table_insert(memo, (gpointer)key, g_strdup(text));
	return text;
}

const char *
scenario_end_to_string(ScenarioEnd end)
{
	static const char *const names[] = { "done", "quiescent", "horizon" };

	return (guint)end < G_N_ELEMENTS(names) ? names[end] : "unknown";
}

void
scenario_reasons__collect(ScenarioResult *result,
                          ClusterSim *sim,
                          ClusterDra *dra,
                          const ClusterResNames *names,
                          const GArray *pods)
{
	ClusterJournal *journal = cluster_sim_get_journal(sim);
	g_autoptr(GHashTable) memo = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	guint budget = MAX_END_DETAILS;

	if (result->reasons == NULL)
		result->reasons = g_ptr_array_new_with_free_func(scenario_reason__free);
	for (guint i = 0; i < cluster_sim_get_n_pods(sim); i++) {
		const ClusterAttempt *a = cluster_journal_get_last_failure(journal, i);
		ScenarioReason *r;

		if (a == NULL)
			continue;
		r = g_new0(ScenarioReason, 1);
		r->pod = g_strdup(cluster_sim_get_pod_name(sim, i));
		r->at = a->at;
		r->message = scenario_reason_message(a, names);
		r->never_runs = result->pod_records != NULL && i < result->pod_records->len &&
		                g_array_index(result->pod_records, ScenarioPodRecord, i).never_runs;
		if (a->detail != NULL)
			r->detail = g_strdup(a->detail);
		else if (dra != NULL && wants_detail(a, sim, i))
			r->detail = end_detail(dra, i, pods, memo, &budget);
		g_ptr_array_add(result->reasons, r);
	}
}
