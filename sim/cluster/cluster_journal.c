/*
 * cluster_journal.c: per-pod history of a simulation, for the reports'
 * "why did this pod wait" and for `drasim explain`.
 *
 * Always on, cheaply: per pod, the number of scheduling attempts and the last
 * failed one (its FitError histogram, copied from the ClusterScheduleResult
 * the scheduler filled anyway). With the journal full, every event of every
 * pod is appended to one array in time order; attempts, device lists and
 * strings live in side arrays and an interning string chunk, so recording
 * allocates only when those grow. The hooks are called from cluster_sim.c,
 * cluster_sim_nodes.c and cluster_kubelet.c.
 */
#include "cluster_journal.h"

#include <string.h>

#include "cluster-private.h"
#include "cluster_plugin.h"
#include "cluster_query.h"
#include "cluster_sched.h"

/* 8 bytes for every pod of the run (issue 19's per-pod budget): the last
 * failed attempt, which most pods never have, lives in a side array. */
typedef struct {
	guint32 attempts;
	guint32 last; /* 1 + its index in failures; 0: no failed attempt */
} JournalPod;

struct ClusterJournal {
	gboolean full;
	GArray *pods;     /* JournalPod, by pod index */
	GArray *failures; /* ClusterAttempt: each pod's last failed one */
	GPtrArray *names; /* the pods' names (interned), set when the journal is stolen */
	GArray *entries;  /* ClusterJournalEntry (full) */
	GArray *attempts; /* ClusterAttempt (full) */
	GArray *devices;  /* guint device indexes (full) */
	GStringChunk *strings;
	GHashTable *interned; /* text -> chunk copy */
	ClusterJournalDetailFunc detail;
	ClusterJournalDescribeFunc describe;
	gpointer hook_data;
};

ClusterJournal *
cluster_journal__new(void)
{
	ClusterJournal *self = g_new0(ClusterJournal, 1);

	self->pods = g_array_new(FALSE, TRUE, sizeof(JournalPod));
	self->failures = g_array_new(FALSE, TRUE, sizeof(ClusterAttempt));
	self->names = g_ptr_array_new();
	self->entries = g_array_new(FALSE, TRUE, sizeof(ClusterJournalEntry));
	self->attempts = g_array_new(FALSE, TRUE, sizeof(ClusterAttempt));
	self->devices = g_array_new(FALSE, TRUE, sizeof(guint));
	self->strings = g_string_chunk_new(4096);
	self->interned = g_hash_table_new(g_str_hash, g_str_equal);
	return self;
}

void
cluster_journal_free(ClusterJournal *self)
{
	if (self == NULL)
		return;
	g_array_unref(self->pods);
	g_array_unref(self->failures);
	g_ptr_array_unref(self->names);
	g_array_unref(self->entries);
	g_array_unref(self->attempts);
	g_array_unref(self->devices);
	g_hash_table_unref(self->interned);
	g_string_chunk_free(self->strings);
	g_free(self);
}

/* One copy per distinct text: repeated messages cost a lookup, not a copy. */
static const char *
intern(ClusterJournal *self, const char *text)
{
	char *copy;

	if (text == NULL)
		return NULL;
	copy = g_hash_table_lookup(self->interned, text);
	if (copy == NULL) {
		copy = g_string_chunk_insert(self->strings, text);
		g_hash_table_add(self->interned, copy);
	}
	return copy;
}

static JournalPod *
journal_pod(ClusterJournal *self, guint pod)
{
	if (pod >= self->pods->len)
		g_array_set_size(self->pods, pod + 1);
	return &g_array_index(self->pods, JournalPod, pod);
}

/* @pod's last failed attempt, cleared: its slot is made at its first failure. */
static ClusterAttempt *
new_failure(ClusterJournal *self, guint pod)
{
	JournalPod *jp = journal_pod(self, pod);
	ClusterAttempt *a;

	if (jp->last == 0) {
		g_array_set_size(self->failures, self->failures->len + 1);
		jp->last = self->failures->len;
	}
	a = &g_array_index(self->failures, ClusterAttempt, jp->last - 1);
	*a = (ClusterAttempt){ 0 };
	return a;
}

static ClusterJournalEntry *
append(ClusterJournal *self, SimTime at, ClusterJournalKind kind, guint pod)
{
	ClusterJournalEntry e = { .at = at, .kind = kind, .pod = pod };

	g_array_append_val(self->entries, e);
	return &g_array_index(self->entries, ClusterJournalEntry, self->entries->len - 1);
}

/* ------------------------------------------------------------ hooks */

static void
fill_reasons(ClusterAttempt *a, const ClusterScheduleResult *r)
{
	a->n_reasons = 0;
	for (guint c = 0; c < CLUSTER_N_REASONS; c++) {
		if (r->reasons[c] == 0 || a->n_reasons == CLUSTER_JOURNAL_MAX_REASONS)
			continue;
		a->reasons[a->n_reasons].code = (guint16)c;
		a->reasons[a->n_reasons].count = r->reasons[c];
		a->n_reasons++;
	}
}

/*
 * An error's text as the framework wraps it (frameworkruntime RunPreFilterPlugins
 * and RunFilterPlugins); only DynamicResources returns errors in drasim. Rare:
 * the formatting allocates.
 */
static const char *
error_message(ClusterJournal *self, const ClusterScheduleResult *r)
{
	g_autofree char *text = NULL;
	const char *reason = r->reason != NULL ? r->reason : "error";

	if (r->node != NULL || r->feasible > 0)
		return intern(self, reason); /* Reserve failed */
	if (r->evaluated == 0)
		text = g_strdup_printf("running PreFilter plugin \"DynamicResources\": %s", reason);
	else
		text = g_strdup_printf("running \"DynamicResources\" filter plugin: %s", reason);
	return intern(self, text);
}

static gboolean
has_code(const ClusterAttempt *a, ClusterReason code)
{
	for (guint i = 0; i < a->n_reasons; i++) {
		if (a->reasons[i].code == code)
			return TRUE;
	}
	return FALSE;
}

/* Full journal: the attempt joins the history, with the allocator's view. */
static void
record_failure(ClusterJournal *self, SimTime now, guint pod, ClusterAttempt *a)
{
	ClusterJournalEntry *e;

	if (self->detail != NULL && has_code(a, CLUSTER_REASON_CLAIMS)) {
		g_autofree char *detail = self->detail(self->hook_data, pod);

		a->detail = intern(self, detail);
	}
	g_array_append_val(self->attempts, *a);
	e = append(self, now, a->error ? CLUSTER_JOURNAL_ERROR : CLUSTER_JOURNAL_FAILED, pod);
	e->first = self->attempts->len - 1;
	e->n = 1;
}

void
cluster_journal__attempt(ClusterSim *sim, ClusterSimPod *sp, const ClusterScheduleResult *r)
{
	ClusterJournal *self = sim->journal;
	ClusterAttempt *a;

	journal_pod(self, sp->index)->attempts++;
	if (r->status == CLUSTER_STATUS_SUCCESS)
		return;
	a = new_failure(self, sp->index);
	a->at = sim_loop_get_now(sim->loop);
	a->n_nodes = cluster_sched_get_n_nodes(sim->sched);
	a->error = r->status == CLUSTER_STATUS_ERROR;
	a->has_claims = sp->pod->has_dra;
	/* PreFilter (or no node at all) decided when no node was filtered */
	if (a->error)
		a->message = error_message(self, r);
	else if (r->evaluated == 0)
		a->message = intern(self, r->reason);
	fill_reasons(a, r);
	if (self->full)
		record_failure(self, a->at, sp->index, a);
}

/* Reserve worked but the devices could not be placed: an error attempt. */
void
cluster_journal__placement_failed(ClusterSim *sim, ClusterSimPod *sp)
{
	ClusterJournal *self = sim->journal;
	ClusterAttempt *a = new_failure(self, sp->index);

	a->at = sim_loop_get_now(sim->loop);
	a->n_nodes = cluster_sched_get_n_nodes(sim->sched);
	a->error = TRUE;
	a->message = "the pod's devices could not be placed on the chosen node";
	if (self->full)
		record_failure(self, a->at, sp->index, a);
}

void
cluster_journal__event(ClusterSim *sim, ClusterSimPod *sp, ClusterJournalKind kind)
{
	ClusterJournal *self = sim->journal;
	ClusterJournalEntry *e;

	if (!self->full)
		return;
	e = append(self, sim_loop_get_now(sim->loop), kind, sp->index);
	if (kind == CLUSTER_JOURNAL_BOUND || kind == CLUSTER_JOURNAL_STARTED)
		e->node = sp->node != NULL ? intern(self, sp->node->node->name) : NULL;
	if (kind == CLUSTER_JOURNAL_BOUND && self->describe != NULL) {
		g_autofree char *text = self->describe(self->hook_data, sp->index);

		/* the array may not move between append() and here: no append in describe */
		e->text = intern(self, text);
	}
	if (kind == CLUSTER_JOURNAL_STARTED) {
		e->first = self->devices->len;
		e->n = sp->n_devices;
		g_array_append_vals(self->devices, sp->devices, sp->n_devices);
	}
}

void
cluster_journal__rate(ClusterSim *sim, ClusterSimPod *sp, double old_rate)
{
	ClusterJournal *self = sim->journal;

	/* unchanged (no -Wfloat-equal: the same double either way) */
	if (!self->full || (sp->progress.rate <= old_rate && sp->progress.rate >= old_rate))
		return;
	append(self, sim_loop_get_now(sim->loop), CLUSTER_JOURNAL_RATE, sp->index)->value =
	        sp->progress.rate;
}

/* ----------------------------------------------------------- access */

ClusterJournal *
cluster_sim_get_journal(ClusterSim *self)
{
	return self->journal;
}

ClusterJournal *
cluster_sim_steal_journal(ClusterSim *self)
{
	ClusterJournal *out = self->journal;

	/* the names outlive the pods */
	g_ptr_array_set_size(out->names, 0);
	for (guint i = 0; i < self->pods->len; i++) {
		journal_pod(out, i);
		g_ptr_array_add(out->names,
		                (gpointer)intern(out, cluster_sim_get_pod_name(self, i)));
	}
	self->journal = cluster_journal__new();
	return out;
}

void
cluster_journal_set_full(ClusterJournal *self, gboolean full)
{
	self->full = full;
}

gboolean
cluster_journal_get_full(const ClusterJournal *self)
{
	return self->full;
}

void
cluster_journal_set_hooks(ClusterJournal *self,
                          ClusterJournalDetailFunc detail,
                          ClusterJournalDescribeFunc describe,
                          gpointer data)
{
	self->detail = detail;
	self->describe = describe;
	self->hook_data = data;
}

guint
cluster_journal_get_n_pods(const ClusterJournal *self)
{
	return self->pods->len;
}

const char *
cluster_journal_get_pod_name(const ClusterJournal *self, guint pod)
{
	return pod < self->names->len ? g_ptr_array_index(self->names, pod) : NULL;
}

gint
cluster_journal_lookup_pod(const ClusterJournal *self, const char *name)
{
	for (guint i = 0; i < self->names->len; i++) {
		const char *n = g_ptr_array_index(self->names, i);

		if (n != NULL && strcmp(n, name) == 0)
			return (gint)i;
	}
	return -1;
}

guint
cluster_journal_get_attempts(const ClusterJournal *self, guint pod)
{
	return pod < self->pods->len ? g_array_index(self->pods, JournalPod, pod).attempts : 0;
}

const ClusterAttempt *
cluster_journal_get_last_failure(const ClusterJournal *self, guint pod)
{
	const JournalPod *jp;

	if (pod >= self->pods->len)
		return NULL;
	jp = &g_array_index(self->pods, JournalPod, pod);
	return jp->last != 0 ? &g_array_index(self->failures, ClusterAttempt, jp->last - 1) : NULL;
}

guint
cluster_journal_get_n_entries(const ClusterJournal *self)
{
	return self->entries->len;
}

const ClusterJournalEntry *
cluster_journal_get_entry(const ClusterJournal *self, guint index)
{
	g_return_val_if_fail(index < self->entries->len, NULL);
	return &g_array_index(self->entries, ClusterJournalEntry, index);
}

const ClusterAttempt *
cluster_journal_get_attempt(const ClusterJournal *self, guint index)
{
	g_return_val_if_fail(index < self->attempts->len, NULL);
	return &g_array_index(self->attempts, ClusterAttempt, index);
}

const guint *
cluster_journal_get_devices(const ClusterJournal *self, guint first)
{
	g_return_val_if_fail(first <= self->devices->len, NULL);
	return &g_array_index(self->devices, guint, first);
}
