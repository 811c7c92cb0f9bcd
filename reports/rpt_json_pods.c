/*
 * rpt_json_pods.c: the per-pod records of the JSON report, written as text.
 *
 * A run of 200,000 pods made 2.4 million cJSON nodes (one malloc each, and
 * as many frees) only to print them. This writer prints the same bytes that
 * cJSON_Print gives for the same tree: members one per line, indented by
 * tabs to the array's depth, ":\t" between key and value, cJSON's string
 * escapes, and numbers through rpt__format_number(). rpt_json.c prints
 * the rest of the report with cJSON and this text where the array goes, a
 * chunk at a time, so millions of pods never sit in memory as text.
 */
#include <string.h>

#include "rpt-private.h"

/*
 * GLib 2.74's g_string_append_len() goes through the general g_string_insert_len();
 * at a few million short appends per report that was most of the writer's cost.
 * GString's fields are public: copy in place while there is room.
 */
static inline void
put(GString *out, const char *text, gsize len)
{
	if (out->len + len >= out->allocated_len) {
		g_string_append_len(out, text, (gssize)len);
		return;
	}
	memcpy(out->str + out->len, text, len);
	out->len += len;
	out->str[out->len] = '\0';
}

#define PUT_LITERAL(out, text) put((out), (text), sizeof(text) - 1)

/* cJSON's short escapes; NULL for a byte that has none. */
static const char *
short_escape(unsigned char c)
{
	static const char *const escapes[] = {
		['"'] = "\\\"", ['\\'] = "\\\\", ['\b'] = "\\b", ['\f'] = "\\f",
		['\n'] = "\\n", ['\r'] = "\\r",  ['\t'] = "\\t",
	};

	return c < G_N_ELEMENTS(escapes) ? escapes[c] : NULL;
}

/* cJSON's escapes: the short forms, \u00xx (lowercase) for other control
 * characters; every other byte, UTF-8 included, goes out as it is. */
static void
append_string(GString *out, const char *text)
{
	const unsigned char *run = (const unsigned char *)text;
	const unsigned char *c = run;

	g_string_append_c(out, '"');
	for (; *c != '\0'; c++) {
		const char *escape;

		if (*c >= 32 && *c != '"' && *c != '\\')
			continue;
		/* the plain run before this byte in one copy */
		put(out, (const char *)run, (gsize)(c - run));
		run = c + 1;
		escape = short_escape(*c);
		if (escape != NULL)
			put(out, escape, strlen(escape));
		else
			g_string_append_printf(out, "\\u%04x", *c);
	}
	put(out, (const char *)run, (gsize)(c - run));
	g_string_append_c(out, '"');
}

/* ",\n" (unless first), @depth tabs, "key":\t: the separator and the tabs
 * are one copy from a ready prefix. */
static void
append_key(GString *out, guint depth, const char *key, gboolean first)
{
	static const char prefix[] = ",\n\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t"; /* 16 tabs */
	guint tabs = MIN(depth, (guint)sizeof(prefix) - 3);

	if (first)
		put(out, prefix + 2, tabs);
	else
		put(out, prefix, 2 + tabs);
	g_string_append_c(out, '"');
	put(out, key, strlen(key));
	PUT_LITERAL(out, "\":\t");
}

static void
append_number(GString *out, double value)
{
	char buf[64];

	rpt__format_number(buf, sizeof(buf), value);
	put(out, buf, strlen(buf));
}

static void
append_time(GString *out, RptTime t)
{
	char buf[64];

	if (t == RPT_TIME_NONE) {
		PUT_LITERAL(out, "null");
		return;
	}
	rpt__format_seconds(buf, sizeof(buf), t);
	put(out, buf, strlen(buf));
}

static void
append_string_or_null(GString *out, const char *text)
{
	if (text != NULL)
		append_string(out, text);
	else
		PUT_LITERAL(out, "null");
}

/* A pod's members of one kind, in the order the report writes them. */
typedef struct {
	const char *key;
	glong offset;
} PodMember;

static const PodMember pod_asks[] = {
	{ "workload", G_STRUCT_OFFSET(RptPod, workload) },
	{ "request", G_STRUCT_OFFSET(RptPod, request) },
};

static const PodMember pod_times[] = {
	{ "arrival_s", G_STRUCT_OFFSET(RptPod, arrival_us) },
	{ "start_s", G_STRUCT_OFFSET(RptPod, start_us) },
	{ "end_s", G_STRUCT_OFFSET(RptPod, end_us) },
};

static const PodMember pod_places[] = {
	{ "node", G_STRUCT_OFFSET(RptPod, node) },
	{ "devices", G_STRUCT_OFFSET(RptPod, devices) },
};

static void
close_object(GString *out, guint depth)
{
	g_string_append_c(out, '\n');
	for (guint t = 0; t < depth; t++)
		g_string_append_c(out, '\t');
	g_string_append_c(out, '}');
}

/* The pod's placements, an array of objects whose members sit at @depth + 1 tabs. */
static void
append_placements(GString *out, const RptPod *pod, guint depth)
{
	g_string_append_c(out, '[');
	for (guint i = 0; i < pod->n_placements; i++) {
		const RptPlacement *p = &pod->placements[i];

		if (i == 0)
			PUT_LITERAL(out, "{\n");
		else
			PUT_LITERAL(out, ", {\n");
		append_key(out, depth + 1, "node", TRUE);
		append_string_or_null(out, p->node);
		append_key(out, depth + 1, "devices", FALSE);
		append_string_or_null(out, p->devices);
		append_key(out, depth + 1, "start_s", FALSE);
		append_time(out, p->start_us);
		append_key(out, depth + 1, "end_s", FALSE);
		append_time(out, p->end_us);
		append_key(out, depth + 1, "ended", FALSE);
		append_string_or_null(out, p->ended);
		close_object(out, depth);
	}
	g_string_append_c(out, ']');
}

/* One pod as an object whose members sit at @depth tabs. */
static void
append_pod(GString *out, const RptPod *pod, guint depth)
{
	append_key(out, depth, "name", TRUE);
	append_string(out, pod->name);
	for (guint i = 0; i < G_N_ELEMENTS(pod_asks); i++) {
		append_key(out, depth, pod_asks[i].key, FALSE);
		append_string_or_null(out, G_STRUCT_MEMBER(const char *, pod, pod_asks[i].offset));
	}
	for (guint i = 0; i < G_N_ELEMENTS(pod_times); i++) {
		append_key(out, depth, pod_times[i].key, FALSE);
		append_time(out, G_STRUCT_MEMBER(RptTime, pod, pod_times[i].offset));
	}
	for (guint i = 0; i < G_N_ELEMENTS(pod_places); i++) {
		append_key(out, depth, pod_places[i].key, FALSE);
		append_string_or_null(out,
		                      G_STRUCT_MEMBER(const char *, pod, pod_places[i].offset));
	}
	append_key(out, depth, "slowdown", FALSE);
	if (pod->slowdown < 0)
		PUT_LITERAL(out, "null");
	else
		append_number(out, pod->slowdown);
	append_key(out, depth, "outcome", FALSE);
	append_string(out, rpt_outcome_to_string(pod->outcome));
	append_key(out, depth, "attempts", FALSE);
	append_number(out, pod->attempts);
	append_key(out, depth, "oom_kills", FALSE);
	append_number(out, pod->oom_kills);
	/* present only when set, so a row of a pod placed once stays as it was */
	if (pod->shared) {
		append_key(out, depth, "shared", FALSE);
		PUT_LITERAL(out, "true");
	}
	if (pod->n_placements > 0) {
		append_key(out, depth, "placements", FALSE);
		append_placements(out, pod, depth);
	}
}

gboolean
rpt_json__pods_write(
        const GArray *pods, guint depth, GString *buffer, const RptSink *sink, GError **error)
{
	g_string_append_c(buffer, '[');
	for (guint i = 0; i < pods->len; i++) {
		if (i == 0)
			PUT_LITERAL(buffer, "{\n");
		else
			PUT_LITERAL(buffer, ", {\n");
		append_pod(buffer, &g_array_index(pods, RptPod, i), depth + 1);
		close_object(buffer, depth);
		if (!rpt__sink_pass(sink, buffer, RPT_SINK_CHUNK, error))
			return FALSE;
	}
	g_string_append_c(buffer, ']');
	return TRUE;
}
