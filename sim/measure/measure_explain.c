/*
 * measure_explain.c: the history of one pod from a full journal, as
 * `drasim explain` prints it: arrival, each scheduling attempt with
 * kube-scheduler's message and the allocator's diagnosis, the binding and
 * what it holds, every run on its devices with the pods that shared them
 * (co-tenants: other pods running on one of the same physical devices at the
 * same time), speed changes, OOM kills, evictions and the end.
 */
#include <string.h>

#include "measure-private.h"

/* One stay of a pod on its devices, from a start to a kill or a stop. */
typedef struct {
	guint pod;
	const char *node;
	guint first, n; /* device indexes in the journal */
	SimTime start, end;
} Stay;

static GArray *
collect_stays(const ClusterJournal *j)
{
	GArray *stays = g_array_new(FALSE, TRUE, sizeof(Stay));
	g_autoptr(GHashTable) open = g_hash_table_new(NULL, NULL); /* pod+1 -> stay+1 */

	for (guint i = 0; i < cluster_journal_get_n_entries(j); i++) {
		const ClusterJournalEntry *e = cluster_journal_get_entry(j, i);
		gpointer key = GUINT_TO_POINTER(e->pod + 1);
		guint at;

		if (e->kind == CLUSTER_JOURNAL_STARTED) {
			Stay s = { e->pod, e->node, e->first, e->n, e->at, SIM_TIME_NEVER };

			g_array_append_val(stays, s);
			g_hash_table_insert(open, key, GUINT_TO_POINTER(stays->len));
		} else if (e->kind == CLUSTER_JOURNAL_OOM_KILLED ||
		           e->kind == CLUSTER_JOURNAL_STOPPED) {
			at = GPOINTER_TO_UINT(g_hash_table_lookup(open, key));
			if (at > 0)
				g_array_index(stays, Stay, at - 1).end = e->at;
			g_hash_table_remove(open, key);
		}
	}
	return stays;
}

static gboolean
share_device(const ClusterJournal *j, const Stay *a, const Stay *b)
{
	const guint *da = cluster_journal_get_devices(j, a->first);
	const guint *db = cluster_journal_get_devices(j, b->first);

	if (g_strcmp0(a->node, b->node) != 0)
		return FALSE;
	for (guint x = 0; x < a->n; x++) {
		for (guint y = 0; y < b->n; y++) {
			if (da[x] == db[y])
				return TRUE;
		}
	}
	return FALSE;
}

static void
append_time(GString *out, SimTime t)
{
	if (t == SIM_TIME_NEVER)
		g_string_append(out, "end");
	else
		g_string_append_printf(out, "%.3fs", sim_time_to_seconds(t));
}

/* Continuation lines line up with the text after the time column. */
#define INDENT "\n                 "

/*
 * Did @o run on one of @stay's devices while @stay did? A stay that ended the
 * instant it began (killed on arrival by memory overcommit) still met the
 * pods running at that instant.
 */
static gboolean
overlaps(const ClusterJournal *j, const Stay *stay, const Stay *o, SimTime *from, SimTime *to)
{
	*from = MAX(o->start, stay->start);
	*to = MIN(o->end, stay->end);
	if (o->pod == stay->pod || !share_device(j, stay, o))
		return FALSE;
	if (*from < *to)
		return TRUE;
	if (stay->start == stay->end)
		return o->start <= stay->start && stay->start < o->end;
	return o->start == o->end && stay->start <= o->start && o->start < stay->end;
}

typedef struct {
	guint pod;
	SimTime from, to;
	guint stays;
} Mate;

/* The pods that met @stay on one of its devices, once each, in order of meeting. */
static void
append_cotenants(GString *out, const ClusterJournal *j, const GArray *stays, const Stay *stay)
{
	g_autoptr(GArray) mates = g_array_new(FALSE, TRUE, sizeof(Mate));

	for (guint i = 0; i < stays->len; i++) {
		const Stay *o = &g_array_index(stays, Stay, i);
		SimTime from, to;
		guint k;

		if (!overlaps(j, stay, o, &from, &to))
			continue;
		for (k = 0; k < mates->len && g_array_index(mates, Mate, k).pod != o->pod; k++)
			;
		if (k == mates->len) {
			Mate m = { o->pod, from, to, 0 };

			g_array_append_val(mates, m);
		}
		g_array_index(mates, Mate, k).to = MAX(g_array_index(mates, Mate, k).to, to);
		g_array_index(mates, Mate, k).stays++;
	}
	g_string_append(out, INDENT "co-tenants: ");
	if (mates->len == 0)
		g_string_append(out, "none (alone on its devices)");
	for (guint k = 0; k < mates->len; k++) {
		const Mate *m = &g_array_index(mates, Mate, k);

		g_string_append_printf(out, "%s%s (", k ? ", " : "",
		                       cluster_journal_get_pod_name(j, m->pod));
		append_time(out, m->from);
		g_string_append(out, " to ");
		append_time(out, m->to);
		if (m->stays > 1)
			g_string_append_printf(out, ", %u runs", m->stays);
		g_string_append_c(out, ')');
	}
}

/* Devices named in @dev (time-slicing replicas name a GPU once per replica). */
static guint
distinct_devices(const guint *dev, guint n)
{
	guint distinct = 0;

	for (guint k = 0; k < n; k++) {
		guint j = 0;

		while (j < k && dev[j] != dev[k])
			j++;
		distinct += j == k;
	}
	return distinct;
}

/* The devices by the report's stable ids (the sampler names them; a device it does
 * not know keeps its node-local index, #i). */
static void
append_device_ids(
        GString *out, const ScenarioSampler *sampler, const char *node, const guint *dev, guint n)
{
	g_autoptr(GString) ids = g_string_new(NULL);

	for (guint k = 0; k < n; k++) {
		if (!scenario_sample__append_device_id(sampler, node, dev[k], ids))
			g_string_append_printf(ids, "%s#%u", ids->len > 0 ? "," : "", dev[k]);
	}
	g_string_append(out, n > 0 ? ids->str : "none");
}

static void
append_started(GString *out,
               const ScenarioResult *r,
               const GArray *stays,
               const ClusterJournalEntry *e)
{
	const ClusterJournal *j = r->journal;
	const guint *dev = cluster_journal_get_devices(j, e->first);

	g_string_append_printf(out, "started on %s, device%s ", e->node != NULL ? e->node : "?",
	                       e->n == 1 ? "" : "s");
	append_device_ids(out, r->sampler, e->node, dev, e->n);
	if (e->n > 0 && distinct_devices(dev, e->n) < e->n)
		g_string_append_printf(out,
		                       INDENT
		                       "%u device-plugin replicas on %u GPUs: one process per "
		                       "GPU does the work of its replicas there",
		                       e->n, distinct_devices(dev, e->n));
	for (guint i = 0; i < stays->len; i++) {
		const Stay *s = &g_array_index(stays, Stay, i);

		if (s->pod == e->pod && s->start == e->at && s->first == e->first)
			append_cotenants(out, j, stays, s);
	}
}

static void
append_attempt(GString *out,
               const ClusterJournal *j,
               const ClusterJournalEntry *e,
               guint number,
               const ClusterResNames *names)
{
	const ClusterAttempt *a = cluster_journal_get_attempt(j, e->first);
	g_autofree char *message = scenario_reason_message(a, names);

	g_string_append_printf(out, "attempt %u: %s%s", number, a->error ? "error: " : "", message);
	if (a->detail != NULL)
		g_string_append_printf(out, INDENT "DRA: %s", a->detail);
}

/* One line (and its continuation lines) for entry @e; FALSE to skip it. */
static gboolean
append_entry(GString *out,
             const ScenarioResult *r,
             const GArray *stays,
             const ClusterJournalEntry *e,
             guint *attempt,
             guint *kills)
{
	const ClusterJournal *j = r->journal;

	switch (e->kind) {
	case CLUSTER_JOURNAL_ARRIVED:
		g_string_append(out, "arrived");
		break;
	case CLUSTER_JOURNAL_FAILED:
	case CLUSTER_JOURNAL_ERROR:
		append_attempt(out, j, e, ++*attempt, r->names);
		break;
	case CLUSTER_JOURNAL_BOUND:
		g_string_append_printf(out, "attempt %u: bound to %s", ++*attempt, e->node);
		if (e->text != NULL)
			g_string_append_printf(out, INDENT "holds: %s", e->text);
		break;
	case CLUSTER_JOURNAL_STARTED:
		append_started(out, r, stays, e);
		break;
	case CLUSTER_JOURNAL_RATE:
		g_string_append_printf(out, "speed %.3f of full speed%s", e->value,
		                       e->value < 1.0
		                               ? " (slowed down: sharing or too small a device)"
		                               : " (full speed)");
		break;
	case CLUSTER_JOURNAL_OOM_KILLED:
		g_string_append_printf(
		        out, "OOM-killed (kill %u): restarts after the crash-loop backoff",
		        ++*kills);
		break;
	case CLUSTER_JOURNAL_LOST:
		g_string_append(out, "its node failed: containers stopped, eviction pending");
		break;
	case CLUSTER_JOURNAL_EVICTED:
		g_string_append(out, "evicted: recreated by its controller, pending again");
		break;
	case CLUSTER_JOURNAL_COMPLETED:
		g_string_append(out, "completed");
		break;
	case CLUSTER_JOURNAL_DELETED:
		g_string_append(out, "deleted by its workload");
		break;
	case CLUSTER_JOURNAL_STOPPED:
	default:
		return FALSE; /* leaving the devices shows in the next line */
	}
	return TRUE;
}

/* A speed that changed again at the same instant (co-tenants joining one by one). */
static gboolean
superseded(const ClusterJournal *j, guint index)
{
	const ClusterJournalEntry *e = cluster_journal_get_entry(j, index);

	for (guint i = index + 1; i < cluster_journal_get_n_entries(j); i++) {
		const ClusterJournalEntry *next = cluster_journal_get_entry(j, i);

		if (next->at != e->at)
			return FALSE;
		if (next->pod == e->pod && next->kind == CLUSTER_JOURNAL_RATE)
			return TRUE;
	}
	return FALSE;
}

char *
scenario_explain_pod(const ScenarioResult *r, guint pod)
{
	const ClusterJournal *j = r->journal;
	g_autoptr(GArray) stays = collect_stays(j);
	GString *out = g_string_new(NULL);
	guint attempt = 0, kills = 0;

	g_string_append_printf(out, "pod %s\n", cluster_journal_get_pod_name(j, pod));
	for (guint i = 0; i < cluster_journal_get_n_entries(j); i++) {
		const ClusterJournalEntry *e = cluster_journal_get_entry(j, i);
		gsize mark = out->len;

		if (e->pod != pod || (e->kind == CLUSTER_JOURNAL_RATE && superseded(j, i)))
			continue;
		g_string_append_printf(out, "  %12.3fs  ", sim_time_to_seconds(e->at));
		if (!append_entry(out, r, stays, e, &attempt, &kills))
			g_string_truncate(out, mark);
		else
			g_string_append_c(out, '\n');
	}
	g_string_append_printf(out, "  %u scheduling attempt%s, %u OOM kill%s\n", attempt,
	                       attempt == 1 ? "" : "s", kills, kills == 1 ? "" : "s");
	return g_string_free(out, FALSE);
}

guint
scenario_explain_get_n_pods(const ScenarioResult *result)
{
	return result->journal != NULL ? cluster_journal_get_n_pods(result->journal) : 0;
}

const char *
scenario_explain_get_pod_name(const ScenarioResult *result, guint pod)
{
	return cluster_journal_get_pod_name(result->journal, pod);
}

gint
scenario_explain_lookup_pod(const ScenarioResult *result, const char *name)
{
	return result->journal != NULL ? cluster_journal_lookup_pod(result->journal, name) : -1;
}
