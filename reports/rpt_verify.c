/*
 * rpt_verify.c: `drasim verify REPORT.json`, checks a drasim.io/report/v2
 * report from its own contents (issue 18 item 3), so a report proves what it
 * claims without the simulation that wrote it:
 *  - each mode's ledger: submitted = pending + creating + running +
 *    restarting + lost + completed + deleted, and its `holds` says so; with
 *    pod rows, the rows' outcomes agree with the ledger's running,
 *    restarting, lost, completed and deleted counts;
 *  - no device was held by two pods at overlapping times, unless both are
 *    marked `shared`. A pod's stays are its `placements[]` when it has them,
 *    else its row (node, devices, start_s to end_s; no end: to the end of
 *    the run). Times are compared in whole microseconds, as written; a stay
 *    that ends when another begins does not overlap it.
 * The sweep over each device's stays sorted by start is O(n log n).
 */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base.h"
#include "rpt-private.h"

typedef struct {
	const char *device; /* points into @ids of the walk */
	gint64 start, end;  /* µs; end G_MAXINT64: still held at the end */
	const char *pod;
	gboolean shared;
} Stay;

typedef struct {
	GString *out;
	guint checked, violations;
	GArray *stays;  /* Stay */
	GPtrArray *ids; /* char *, the device ids the stays point at */
	const char *mode;
	const char *path;
} Walk;

static void G_GNUC_PRINTF(2, 3) violation(Walk *w, const char *format, ...)
{
	va_list args;

	w->violations++;
	g_string_append_printf(w->out, "%s: mode %s: ", w->path, w->mode);
	va_start(args, format);
	g_string_append_vprintf(w->out, format, args);
	va_end(args);
	g_string_append_c(w->out, '\n');
}

static gboolean
count_of(const cJSON *object, const char *key, guint64 *out)
{
	uint64_t v = 0;

	if (!rpt_json__whole_number(cJSON_GetObjectItemCaseSensitive(object, key), &v))
		return FALSE;
	*out = v;
	return TRUE;
}

/* The ledger's parts; the pod rows' outcomes tell those from RUNNING on (a
 * creating pod's row says pending, as its API phase). */
static const char *const ledger_parts[] = { "pending", "creating",  "running", "restarting",
	                                    "lost",    "completed", "deleted" };
#define FIRST_ROW_PART 2

static gboolean
check_ledger(Walk *w, const cJSON *ledger, guint64 *counts, GError **error)
{
	const cJSON *holds = cJSON_GetObjectItemCaseSensitive(ledger, "holds");
	guint64 submitted, sum = 0;

	if (!count_of(ledger, "submitted", &submitted) || !cJSON_IsBool(holds))
		goto bad;
	for (guint i = 0; i < G_N_ELEMENTS(ledger_parts); i++) {
		if (!count_of(ledger, ledger_parts[i], &counts[i]))
			goto bad;
		sum += counts[i];
	}
	w->checked += 2;
	if (sum != submitted)
		violation(w,
		          "ledger: %" G_GUINT64_FORMAT " submitted but %" G_GUINT64_FORMAT
		          " pending + running + restarting + lost + completed + deleted",
		          submitted, sum);
	if (cJSON_IsTrue(holds) != (sum == submitted))
		violation(w, "ledger: holds is %s but the identity %s",
		          cJSON_IsTrue(holds) ? "true" : "false",
		          sum == submitted ? "holds" : "does not hold");
	return TRUE;
bad:
	g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
	            "%s: modes[%s].ledger: expected whole numbers submitted, pending, creating, "
	            "running, restarting, lost, completed, deleted and a boolean holds",
	            w->path, w->mode);
	return FALSE;
}

/* The ledger part a row's outcome counts under, or -1 (pending, unrunnable, not yet arrived). */
static gint
outcome_part(const char *outcome)
{
	static const char *const outcomes[] = { "running", "oom-killed", "evicted", "completed",
		                                "deleted" };

	for (guint i = 0; outcome != NULL && i < G_N_ELEMENTS(outcomes); i++)
		if (strcmp(outcome, outcomes[i]) == 0)
			return (gint)i + FIRST_ROW_PART;
	return -1;
}

/* Seconds as written (at most 6 decimals) to whole µs; null: @none. */
static gboolean
time_of(const cJSON *object, const char *key, gint64 none, gint64 *out)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

	if (cJSON_IsNull(item)) {
		*out = none;
		return TRUE;
	}
	if (!cJSON_IsNumber(item) || !(item->valuedouble >= 0.0 && item->valuedouble < 1e12))
		return FALSE;
	*out = llround(item->valuedouble * 1e6);
	return TRUE;
}

static const char *
string_of(const cJSON *object, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, key);

	return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* One stay per device id of @place ("kind:id,kind:id"); FALSE on a malformed time. */
static gboolean
add_stays(Walk *w, const cJSON *place, const char *pod, gboolean shared)
{
	const char *devices = string_of(place, "devices");
	Stay stay = { NULL, 0, 0, pod, shared };
	g_auto(GStrv) ids = NULL;

	if (!time_of(place, "start_s", -1, &stay.start) ||
	    !time_of(place, "end_s", G_MAXINT64, &stay.end))
		return FALSE;
	if (devices == NULL || string_of(place, "node") == NULL || stay.start < 0)
		return TRUE;
	ids = g_strsplit(devices, ",", -1);
	for (guint i = 0; ids[i] != NULL; i++) {
		stay.device = ids[i];
		g_ptr_array_add(w->ids, g_steal_pointer(&ids[i]));
		g_array_append_val(w->stays, stay);
	}
	return TRUE;
}

/* The pod's stays (its placements, else its row); counts its outcome. */
static gboolean
pod_stays(Walk *w, const cJSON *pod, guint index, guint64 *outcomes, GError **error)
{
	const char *name = string_of(pod, "name");
	const cJSON *places = cJSON_GetObjectItemCaseSensitive(pod, "placements");
	gboolean shared = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pod, "shared"));
	gint part = outcome_part(string_of(pod, "outcome"));
	gboolean ok = name != NULL && (places == NULL || cJSON_IsArray(places));
	const cJSON *list, *place;

	if (ok && places == NULL)
		ok = add_stays(w, pod, name, shared);
	list = ok ? places : NULL;
	cJSON_ArrayForEach(place, list)
	{
		ok = ok && cJSON_IsObject(place) && add_stays(w, place, name, shared);
	}
	if (!ok) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
		            "%s: modes[%s].pods[%u]: expected a name, times in seconds or null "
		            "(start_s, end_s) and placements[] of {node, devices, start_s, end_s}",
		            w->path, w->mode, index);
		return FALSE;
	}
	if (part >= 0)
		outcomes[part]++;
	return TRUE;
}

static gint
by_device_then_start(gconstpointer a, gconstpointer b)
{
	const Stay *x = a, *y = b;
	int c = strcmp(x->device, y->device);

	if (c != 0)
		return c;
	return x->start < y->start ? -1 : x->start > y->start;
}

static char *
end_text(gint64 end)
{
	return end == G_MAXINT64 ? g_strdup("the end")
	                         : g_strdup_printf("%.6f s", (double)end / 1e6);
}

/*
 * Per device, in start order: a stay overlaps an earlier one when it starts
 * before the latest end so far (of any stay if it is exclusive, of the
 * exclusive ones if it is shared).
 */
static void
check_overlaps(Walk *w)
{
	const Stay *any = NULL, *exclusive = NULL;

	g_array_sort(w->stays, by_device_then_start);
	for (guint i = 0; i < w->stays->len; i++) {
		const Stay *s = &g_array_index(w->stays, Stay, i);
		const Stay *hit;

		if (i > 0 && strcmp(s->device, g_array_index(w->stays, Stay, i - 1).device) != 0)
			any = exclusive = NULL;
		w->checked++;
		hit = s->shared ? exclusive : any;
		if (hit != NULL && s->start < hit->end) {
			g_autofree char *end = end_text(hit->end);

			violation(w, "device %s held by %s from %.6f s to %s and by %s from %.6f s",
			          s->device, hit->pod, (double)hit->start / 1e6, end, s->pod,
			          (double)s->start / 1e6);
		}
		if (any == NULL || s->end > any->end)
			any = s;
		if (!s->shared && (exclusive == NULL || s->end > exclusive->end))
			exclusive = s;
	}
}

static void
check_outcomes(Walk *w, const guint64 *ledger, const guint64 *rows)
{
	for (guint i = FIRST_ROW_PART; i < G_N_ELEMENTS(ledger_parts); i++) {
		w->checked++;
		if (ledger[i] != rows[i])
			violation(w,
			          "ledger: %" G_GUINT64_FORMAT " %s, but %" G_GUINT64_FORMAT
			          " pod rows say so",
			          ledger[i], ledger_parts[i], rows[i]);
	}
}

static gboolean
verify_mode(Walk *w, const cJSON *mode, guint index, GError **error)
{
	const cJSON *ledger = cJSON_GetObjectItemCaseSensitive(mode, "ledger");
	const cJSON *pods = cJSON_GetObjectItemCaseSensitive(mode, "pods");
	g_autofree char *fallback = g_strdup_printf("%u", index);
	guint64 counts[G_N_ELEMENTS(ledger_parts)] = { 0 };
	guint64 outcomes[G_N_ELEMENTS(ledger_parts)] = { 0 };
	const cJSON *pod;
	guint i = 0;

	w->mode = string_of(mode, "name") != NULL ? string_of(mode, "name") : fallback;
	if (!cJSON_IsObject(ledger) || !cJSON_IsArray(pods)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_PARSE,
		            "%s: modes[%s]: expected a ledger object and a pods array (a report "
		            "written before the ledger: run the scenario again)",
		            w->path, w->mode);
		return FALSE;
	}
	if (!check_ledger(w, ledger, counts, error))
		return FALSE;
	g_array_set_size(w->stays, 0);
	cJSON_ArrayForEach(pod, pods)
	{
		if (!pod_stays(w, pod, i++, outcomes, error))
			return FALSE;
	}
	if (i > 0)
		check_outcomes(w, counts, outcomes);
	check_overlaps(w);
	return TRUE;
}

gboolean
rpt_verify_file(const char *path, GString *out, guint *checked, guint *violations, GError **error)
{
	g_autofree char *text = NULL;
	gsize length = 0;
	g_autoptr(GError) local = NULL;
	g_autoptr(GArray) stays = g_array_new(FALSE, FALSE, sizeof(Stay));
	g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func(g_free);
	Walk w = { out, 0, 0, stays, ids, NULL, path };
	cJSON *root;
	const cJSON *modes, *list, *mode;
	gboolean ok = TRUE;
	guint i = 0;

	if (!base_read_file(path, &text, &length, &local)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_IO, "%s: %s", path, local->message);
		return FALSE;
	}
	root = rpt_json__parse(path, text, length, error);
	if (root == NULL)
		return FALSE;
	modes = cJSON_GetObjectItemCaseSensitive(root, "modes");
	if (g_strcmp0(string_of(root, "schema"), RPT_SCHEMA) != 0 || !cJSON_IsArray(modes)) {
		g_set_error(error, RPT_ERROR, RPT_ERROR_VERSION,
		            "%s: expected a %s report (schema and modes[])", path, RPT_SCHEMA);
		ok = FALSE;
	}
	list = ok ? modes : NULL;
	cJSON_ArrayForEach(mode, list)
	{
		ok = ok && verify_mode(&w, mode, i++, error);
	}
	cJSON_Delete(root);
	*checked = w.checked;
	*violations = w.violations;
	return ok;
}
