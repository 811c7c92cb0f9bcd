/*
 * rpt_ledger.c: a mode's pod ledger (issue 18 item 3): where every submitted
 * pod is when the run ends, and whether the identity
 *     submitted = pending + creating + running + restarting + lost + completed
 *                 + deleted
 * holds. `holds` is computed from the numbers each time it is written, never
 * stored, so a report whose counts disagree says so (and `drasim verify`
 * recomputes it from the JSON alone).
 */
#include <cjson/cJSON.h>

#include "rpt-private.h"

gboolean
rpt_ledger_holds(const RptLedger *l)
{
	return l->submitted == l->pending + l->creating + l->running + l->restarting + l->lost +
	                               l->completed + l->deleted;
}

char *
rpt_ledger_describe(const RptLedger *l)
{
	return g_strdup_printf(
	        "%" G_GUINT64_FORMAT " submitted = %" G_GUINT64_FORMAT
	        " pending + %" G_GUINT64_FORMAT " creating + %" G_GUINT64_FORMAT
	        " running + %" G_GUINT64_FORMAT " restarting + %" G_GUINT64_FORMAT
	        " lost + %" G_GUINT64_FORMAT " completed + %" G_GUINT64_FORMAT
	        " deleted (%s); %" G_GUINT64_FORMAT
	        " evictions sent pods back to pending, %" G_GUINT64_FORMAT " OOM kills",
	        l->submitted, l->pending, l->creating, l->running, l->restarting, l->lost,
	        l->completed, l->deleted, rpt_ledger_holds(l) ? "holds" : "DOES NOT HOLD",
	        l->evictions, l->oom_kills);
}

void
rpt_mode_set_ledger(RptMode *self, const RptLedger *ledger)
{
	self->ledger = *ledger;
	self->has_ledger = TRUE;
}

const RptLedger *
rpt_mode_get_ledger(const RptMode *self)
{
	return self->has_ledger ? &self->ledger : NULL;
}

/* The counts in the report's key order (the JSON writer and the schema's). */
static const struct {
	const char *key;
	glong offset;
} ledger_keys[] = {
	{ "submitted", G_STRUCT_OFFSET(RptLedger, submitted) },
	{ "pending", G_STRUCT_OFFSET(RptLedger, pending) },
	{ "creating", G_STRUCT_OFFSET(RptLedger, creating) },
	{ "running", G_STRUCT_OFFSET(RptLedger, running) },
	{ "restarting", G_STRUCT_OFFSET(RptLedger, restarting) },
	{ "lost", G_STRUCT_OFFSET(RptLedger, lost) },
	{ "completed", G_STRUCT_OFFSET(RptLedger, completed) },
	{ "deleted", G_STRUCT_OFFSET(RptLedger, deleted) },
	{ "evictions", G_STRUCT_OFFSET(RptLedger, evictions) },
	{ "oom_kills", G_STRUCT_OFFSET(RptLedger, oom_kills) },
};

cJSON *
rpt_json__ledger(const RptMode *mode)
{
	cJSON *object;

	if (!mode->has_ledger)
		return NULL;
	object = cJSON_CreateObject();
	for (guint i = 0; i < G_N_ELEMENTS(ledger_keys); i++)
		cJSON_AddItemToObject(object, ledger_keys[i].key,
		                      rpt_json__number((double)G_STRUCT_MEMBER(
		                              uint64_t, &mode->ledger, ledger_keys[i].offset)));
	cJSON_AddBoolToObject(object, "holds", rpt_ledger_holds(&mode->ledger));
	return object;
}
