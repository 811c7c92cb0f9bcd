/*
 * rpt_fgd_load.c: reads fgd.json (drasim.io/fgd/v1 with worlds, the schema
 * in docs/experiment.md) for the FGD page, checking as it goes.
 *
 * The page is drawn from a file a user may have edited or written by hand,
 * so every field it uses is checked here and a bad one is named by its path
 * (traces[0].worlds[1].policies[2].points[5].unallocated_pct.mean) with what
 * was expected. Lists are bounded (rpt-fgd-private.h) so a huge file fails
 * with a message instead of a page no browser opens. Optional sections
 * (at_100, points, refused) may be missing.
 */
#include <math.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base.h"
#include "rpt-fgd-private.h"

G_DEFINE_QUARK(rpt - fgd - error - quark, rpt_fgd_error)

typedef struct {
	GString *path; /* the field being read, "traces[0].worlds[1]" */
	GError **error;
} Reader;

static gboolean G_GNUC_PRINTF(3, 4) fail(Reader *r, const char *key, const char *format, ...)
{
	g_autofree char *what = NULL;
	va_list args;

	va_start(args, format);
	what = g_strdup_vprintf(format, args);
	va_end(args);
	g_set_error(r->error, RPT_FGD_ERROR, RPT_FGD_ERROR_INVALID, "%s%s%s: %s",
	            r->path->len ? r->path->str : (key ? "" : "(top level)"),
	            r->path->len && key ? "." : "", key ? key : "", what);
	return FALSE;
}

/* Enters @key (an object member) or, with @key NULL, element @index; returns the old length. */
static gsize
enter(Reader *r, const char *key, guint index)
{
	gsize len = r->path->len;

	if (key != NULL) {
		g_string_append_printf(r->path, "%s%s", len ? "." : "", key);
	} else {
		g_string_append_printf(r->path, "[%u]", index);
	}
	return len;
}

static void
leave(Reader *r, gsize len)
{
	g_string_truncate(r->path, len);
}

static gboolean
read_string(Reader *r, const cJSON *obj, const char *key, gboolean optional, char **out)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (item == NULL && optional) {
		return TRUE;
	}
	if (!cJSON_IsString(item) || strlen(item->valuestring) > RPT_FGD_MAX_TEXT ||
	    !g_utf8_validate(item->valuestring, -1, NULL)) {
		return fail(r, key, "expected a string (UTF-8, at most %d bytes)",
		            RPT_FGD_MAX_TEXT);
	}
	*out = g_strdup(item->valuestring);
	return TRUE;
}

static gboolean
read_bool(Reader *r, const cJSON *obj, const char *key, gboolean *out)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsBool(item)) {
		return fail(r, key, "expected true or false");
	}
	*out = cJSON_IsTrue(item);
	return TRUE;
}

/* A finite number; with @nullable, JSON null reads as NaN. */
static gboolean
read_number(Reader *r, const cJSON *obj, const char *key, gboolean nullable, double *out)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (nullable && cJSON_IsNull(item)) {
		*out = (double)NAN;
		return TRUE;
	}
	if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble)) {
		return fail(r, key, nullable ? "expected a number or null" : "expected a number");
	}
	*out = item->valuedouble;
	return TRUE;
}

static gboolean
read_integer(Reader *r, const cJSON *obj, const char *key, double lo, double hi, gint64 *out)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
	double value = cJSON_IsNumber(item) ? item->valuedouble : (double)NAN;

	if (value >= lo && value <= hi && !(value > floor(value))) { /* NaN fails */
		*out = (gint64)value;
		return TRUE;
	}
	return fail(r, key, "expected an integer from %.0f to %.0f", lo, hi);
}

static gboolean
read_stat(Reader *r, const cJSON *obj, const char *key, RptFgdStat *out)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
	gint64 n = 0;
	gsize len;
	gboolean ok;

	if (!cJSON_IsObject(item)) {
		return fail(r, key, "expected an object {\"mean\", \"sd\", \"n\"}");
	}
	len = enter(r, key, 0);
	ok = read_number(r, item, "mean", TRUE, &out->mean) &&
	     read_number(r, item, "sd", TRUE, &out->sd) &&
	     read_integer(r, item, "n", 0, G_MAXINT32, &n);
	if (ok && out->sd < 0) {
		ok = fail(r, "sd", "expected a standard deviation >= 0 or null");
	} else if (ok && n == 0 && (isfinite(out->mean) || isfinite(out->sd))) {
		ok = fail(r, "mean", "expected null with n 0 (no seed has the value)");
	}
	out->n = (guint)n;
	leave(r, len);
	return ok;
}

/* The array at @key (NULL: absent and @optional) of at most @max elements. */
static gboolean
read_array(
        Reader *r, const cJSON *obj, const char *key, int max, gboolean optional, const cJSON **out)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (item == NULL && optional) {
		return TRUE;
	}
	if (!cJSON_IsArray(item)) {
		return fail(r, key, "expected an array");
	}
	if (cJSON_GetArraySize(item) > max) {
		return fail(r, key, "%d entries, at most %d on one page", cJSON_GetArraySize(item),
		            max);
	}
	*out = item;
	return TRUE;
}

static gboolean
expect_object(Reader *r, const cJSON *item)
{
	return cJSON_IsObject(item) ? TRUE : fail(r, NULL, "expected an object");
}

typedef gpointer (*ReadItem)(Reader *r, const cJSON *item);

/* Reads each element of the array @key of @obj (at most @max) with @read into @into; FALSE
 * at the first that fails. */
static gboolean
read_list(Reader *r, const cJSON *obj, const char *key, int max, ReadItem read, GPtrArray *into)
{
	const cJSON *array = NULL, *item;
	gsize len;
	guint i = 0;

	if (!read_array(r, obj, key, max, FALSE, &array)) {
		return FALSE;
	}
	len = enter(r, key, 0);

	cJSON_ArrayForEach(item, array)
	{
		gsize at = enter(r, NULL, i++);
		gpointer read_item = read(r, item);

		if (read_item == NULL) {
			return FALSE;
		}
		g_ptr_array_add(into, read_item);
		leave(r, at);
	}
	leave(r, len);
	return TRUE;
}

static const char *const curve_keys[RPT_FGD_N_CURVES] = { "unallocated_pct", "frag_amount_pct",
	                                                  "frag_ratio_pct" };
static const char *const at_keys[RPT_FGD_N_AT] = { "unallocated_pct", "stranded_pct",
	                                           "cotenants_mean", "cotenants_max" };

static gboolean
read_point(Reader *r, const cJSON *item, RptFgdPolicy *policy, gboolean *seen)
{
	gint64 arrived = 0;
	RptFgdStat stats[RPT_FGD_N_CURVES];

	if (!expect_object(r, item) ||
	    !read_integer(r, item, "arrived_pct", 0, RPT_FGD_POINTS - 1, &arrived)) {
		return FALSE;
	}
	if (seen[arrived]) {
		return fail(r, "arrived_pct", "%" G_GINT64_FORMAT " appears twice in points",
		            arrived);
	}
	seen[arrived] = TRUE;
	for (guint c = 0; c < RPT_FGD_N_CURVES; c++) {
		if (!read_stat(r, item, curve_keys[c], &stats[c])) {
			return FALSE;
		}
		policy->curve[c][arrived] = stats[c];
	}
	return TRUE;
}

static gboolean
read_policy_data(Reader *r, const cJSON *item, RptFgdPolicy *policy)
{
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(item, "at_100");
	const cJSON *points = NULL, *point;
	gboolean seen[RPT_FGD_POINTS] = { FALSE };
	gsize len;
	guint i = 0;

	if (at != NULL) {
		if (!cJSON_IsObject(at)) {
			return fail(r, "at_100", "expected an object");
		}
		len = enter(r, "at_100", 0);
		for (guint k = 0; k < RPT_FGD_N_AT; k++) {
			if (!read_stat(r, at, at_keys[k], &policy->at_100[k])) {
				return FALSE;
			}
		}
		leave(r, len);
		policy->has_at_100 = TRUE;
	}
	if (!read_array(r, item, "points", RPT_FGD_POINTS, TRUE, &points)) {
		return FALSE;
	}
	len = enter(r, "points", 0);
	cJSON_ArrayForEach(point, points)
	{
		gsize at_len = enter(r, NULL, i++);

		if (!read_point(r, point, policy, seen)) {
			return FALSE;
		}
		leave(r, at_len);
	}
	leave(r, len);
	return TRUE;
}

static void
policy_free(gpointer data)
{
	RptFgdPolicy *policy = data;

	g_free(policy->name);
	g_free(policy->refused);
	g_free(policy);
}

static gpointer
read_policy(Reader *r, const cJSON *item)
{
	RptFgdPolicy *policy = g_new0(RptFgdPolicy, 1);

	for (guint c = 0; c < RPT_FGD_N_CURVES; c++) {
		for (guint i = 0; i < RPT_FGD_POINTS; i++) {
			policy->curve[c][i] = (RptFgdStat){ (double)NAN, (double)NAN, 0 };
		}
	}
	if (!expect_object(r, item) || !read_string(r, item, "name", FALSE, &policy->name) ||
	    !read_bool(r, item, "beyond_production", &policy->beyond_production) ||
	    !read_string(r, item, "refused", TRUE, &policy->refused) ||
	    /* a refused pair has no figures: whatever else it carries is not drawn */
	    (policy->refused == NULL && !read_policy_data(r, item, policy))) {
		policy_free(policy);
		return NULL;
	}
	return policy;
}

static void
world_free(gpointer data)
{
	RptFgdWorld *world = data;

	g_free(world->name);
	g_free(world->title);
	g_free(world->device_pick);
	g_ptr_array_unref(world->policies);
	g_free(world);
}

static gpointer
read_world(Reader *r, const cJSON *item)
{
	RptFgdWorld *world = g_new0(RptFgdWorld, 1);

	world->policies = g_ptr_array_new_with_free_func(policy_free);
	if (!expect_object(r, item) || !read_string(r, item, "name", FALSE, &world->name) ||
	    !read_string(r, item, "title", FALSE, &world->title) ||
	    !read_string(r, item, "device_pick", FALSE, &world->device_pick) ||
	    !read_bool(r, item, "beyond_production", &world->beyond_production) ||
	    !read_bool(r, item, "memory_isolation", &world->memory_isolation) ||
	    !read_list(r, item, "policies", RPT_FGD_MAX_POLICY, read_policy, world->policies)) {
		world_free(world);
		return NULL;
	}
	return world;
}

static void
trace_free(gpointer data)
{
	RptFgdTrace *trace = data;

	g_free(trace->name);
	g_ptr_array_unref(trace->worlds);
	g_free(trace);
}

static gpointer
read_trace(Reader *r, const cJSON *item)
{
	RptFgdTrace *trace = g_new0(RptFgdTrace, 1);

	trace->worlds = g_ptr_array_new_with_free_func(world_free);
	if (!expect_object(r, item) || !read_string(r, item, "name", FALSE, &trace->name) ||
	    !read_list(r, item, "worlds", RPT_FGD_MAX_WORLDS, read_world, trace->worlds)) {
		trace_free(trace);
		return NULL;
	}
	return trace;
}

/* An integer or null (0); absent is null too. */
static gboolean
read_option_integer(Reader *r, const cJSON *obj, const char *key, gint64 *out)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = 0;
	if (item == NULL || cJSON_IsNull(item)) {
		return TRUE;
	}
	return read_integer(r, obj, key, 1, 1000000, out);
}

/* world_options: the experiment's --replicas, --capacity-step, --mig-model, each null when unset.
 */
static gboolean
read_world_options(Reader *r, const cJSON *root, RptFgd *self)
{
	const cJSON *opts = cJSON_GetObjectItemCaseSensitive(root, "world_options");
	const cJSON *mig;
	gsize len;
	gboolean ok;

	if (opts == NULL) {
		return TRUE;
	}
	if (!cJSON_IsObject(opts)) {
		return fail(r, "world_options", "expected an object");
	}
	len = enter(r, "world_options", 0);
	mig = cJSON_GetObjectItemCaseSensitive(opts, "mig_model");
	ok = read_option_integer(r, opts, "replicas", &self->replicas) &&
	     read_option_integer(r, opts, "capacity_step", &self->capacity_step) &&
	     (mig == NULL || cJSON_IsNull(mig) ||
	      read_string(r, opts, "mig_model", FALSE, &self->mig_model));
	leave(r, len);
	return ok;
}

static gboolean
read_header(Reader *r, const cJSON *root, RptFgd *self)
{
	const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(root, "seeds");
	gsize len;
	gboolean ok;

	if (!read_string(r, root, "apiVersion", FALSE, &self->api_version)) {
		return FALSE;
	}
	if (strcmp(self->api_version, RPT_FGD_SCHEMA) != 0) {
		return fail(r, "apiVersion", "expected \"" RPT_FGD_SCHEMA "\"");
	}
	if (!read_number(r, root, "tune_ratio", FALSE, &self->tune_ratio)) {
		return FALSE;
	}
	if (!cJSON_IsObject(seeds)) {
		return fail(r, "seeds", "expected an object {\"from\", \"to\"}");
	}
	len = enter(r, "seeds", 0);
	ok = read_integer(r, seeds, "from", 0, 9007199254740992.0, &self->seed_from) &&
	     read_integer(r, seeds, "to", 0, 9007199254740992.0, &self->seed_to);
	if (ok && self->seed_to < self->seed_from) {
		ok = fail(r, "to", "expected at least from (%" G_GINT64_FORMAT ")",
		          self->seed_from);
	}
	leave(r, len);
	return ok;
}

static gboolean
read_root(Reader *r, const cJSON *root, RptFgd *self)
{
	return expect_object(r, root) && read_header(r, root, self) &&
	       read_world_options(r, root, self) &&
	       read_list(r, root, "traces", RPT_FGD_MAX_TRACES, read_trace, self->traces);
}

void
rpt_fgd__free(RptFgd *self)
{
	if (self == NULL) {
		return;
	}
	g_free(self->api_version);
	g_free(self->mig_model);
	g_ptr_array_unref(self->traces);
	g_free(self);
}

RptFgd *
rpt_fgd__load(const char *json, gssize len, GError **error)
{
	g_autoptr(RptFgd) self = g_new0(RptFgd, 1);
	g_autoptr(GString) path = g_string_new(NULL);
	Reader reader = { path, error };
	gsize size = len < 0 ? strlen(json) : (gsize)len;
	const char *end = NULL;
	g_autoptr(GError) deep = NULL;
	cJSON *root = NULL;
	gboolean ok;

	self->traces = g_ptr_array_new_with_free_func(trace_free);
	/* "LINE:COL: JSON nested deeper than N levels; the JSON nesting depth limit ..." */
	if (!base_json_check_depth(NULL, json, size, &deep)) {
		g_set_error_literal(error, RPT_FGD_ERROR, RPT_FGD_ERROR_PARSE, deep->message);
		return NULL;
	}
	root = cJSON_ParseWithLengthOpts(json, size, &end, FALSE);
	if (root == NULL) {
		/* LINE:COL (1-based) of the byte where cJSON gave up, for the caller to prefix
		 * with the file's name */
		gsize at = end != NULL && end >= json ? MIN((gsize)(end - json), size) : 0;
		guint line = 1, col = 1;

		for (gsize i = 0; i < at; i++) {
			line += json[i] == '\n';
			col = json[i] == '\n' ? 1 : col + 1;
		}
		g_set_error(error, RPT_FGD_ERROR, RPT_FGD_ERROR_PARSE,
		            "%u:%u: not valid JSON (expected a complete fgd.json document)", line,
		            col);
		return NULL;
	}
	ok = read_root(&reader, root, self);
	cJSON_Delete(root);
	return ok ? g_steal_pointer(&self) : NULL;
}
