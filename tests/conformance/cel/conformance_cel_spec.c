/*
 * conformance_cel_spec.c: the test program `conformance-cel-spec PATH...` runs the
 * cel-spec "simple" conformance files (JSON conversion in ../shared), read in
 * place. A test is skipped only when it needs something outside the
 * Kubernetes DRA CEL environment (protobuf messages, enums, wrappers,
 * unknowns, the math/encoders/block/proto/network extensions, strings ext
 * v3), or when it is a known deviation of the cel-go version Kubernetes
 * pins; every skip is counted by its reason and printed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base.h"
#include "cel-private.h"
#include "conformance.h"

typedef struct {
	guint passed, failed, skipped;
	GHashTable *skip_reasons; /* reason -> count (printed sorted) */
	gboolean verbose;
	const char *match;
} Stats;

/* requires tag -> skip reason; the first listed tag that a test requires wins */
static const struct {
	const char *tag;
	const char *reason;
} skip_tags[] = {
	{ "proto", "needs protobuf messages (not in the DRA environment)" },
	{ "enum", "needs protobuf enums (not in the DRA environment)" },
	{ "wkt", "needs protobuf wrapper/well-known types (not in the DRA environment)" },
	{ "unknowns", "needs unknown-value evaluation (not in the DRA environment)" },
	{ "ext:math", "needs the cel-go math extension (not enabled by Kubernetes)" },
	{ "ext:encoders", "needs the cel-go encoders extension (not enabled for DRA)" },
	{ "ext:block", "needs cel.block (optimizer-internal, not in Kubernetes)" },
	{ "ext:proto", "needs the cel-go proto extension (not in the DRA environment)" },
	{ "ext:network", "needs the cel-go network extension (Kubernetes has its own ip/cidr)" },
	{ "ext:strings>=3", "needs strings extension v3+ (Kubernetes 1.34 enables v2)" },
};

/*
 * Known deviations: Kubernetes 1.34 pins cel-go v0.26.0 with strings ext v2,
 * whose format() differs from the cel-spec expectations (cel-go HEAD). Each
 * row is file, section, test name and the exact difference (docs/cel.md).
 */
typedef struct {
	const char *file;
	const char *section;
	const char *test;
	const char *reason;
} Deviation;

#define V2_FORMAT                                                                                  \
	"Kubernetes 1.34 pins cel-go v0.26.0 with strings ext v2, whose format() is the pre-v4 "   \
	"formatter; cel-spec expects the v4 formatter"

static const Deviation deviations[] = {
	{ "string_ext", "format", "default precision for fixed-point clause with int", V2_FORMAT },
	{ "string_ext", "format", "default precision for fixed-point clause with uint", V2_FORMAT },
	{ "string_ext", "format", "default precision for scientific notation with int", V2_FORMAT },
	{ "string_ext", "format", "default precision for scientific notation with uint",
	  V2_FORMAT },
	{ "string_ext", "format", "NaN support for scientific notation", V2_FORMAT },
	{ "string_ext", "format", "positive infinity support for scientific notation", V2_FORMAT },
	{ "string_ext", "format", "negative infinity support for scientific notation", V2_FORMAT },
	{ "string_ext", "format", "NaN support for decimal", V2_FORMAT },
	{ "string_ext", "format", "positive infinity support for decimal", V2_FORMAT },
	{ "string_ext", "format", "negative infinity support for decimal", V2_FORMAT },
	{ "string_ext", "format", "positive infinity support for fixed-point", V2_FORMAT },
	{ "string_ext", "format", "negative infinity support for fixed-point", V2_FORMAT },
	{ "string_ext", "format", "list support for string", V2_FORMAT },
	{ "string_ext", "format", "map support for string", V2_FORMAT },
	{ "string_ext", "format", "map support (all key types)", V2_FORMAT },
	{ "string_ext", "format", "dyntype NaN/infinity support", V2_FORMAT },
	{ "string_ext", "format", "dyntype support for lists", V2_FORMAT },
	{ "string_ext", "format", "dyntype support for maps", V2_FORMAT },
	{ "string_ext", "last_index_of", "empty_string",
	  "cel-go (v0.26 and later) returns \"index out of range: -1\" for ''.lastIndexOf('@@'); "
	  "cel-spec expects -1" },
	{ NULL, NULL, NULL, NULL },
};

static const char *
deviation_of(const char *file, const char *section, const char *test)
{
	for (const Deviation *d = deviations; d->file != NULL; d++) {
		if (strcmp(d->file, file) == 0 && strcmp(d->section, section) == 0 &&
		    (d->test == NULL || strcmp(d->test, test) == 0)) {
			return d->reason;
		}
	}
	return NULL;
}

/* --- JSON -> types and values ------------------------------------------------ */

/*
 * cJSON strings are NUL-terminated, but cel-spec has NULs inside literals and
 * expected strings ("\u0000"). Before parsing, each JSON escape \u0000 becomes
 * the escape of U+10FFFE (a noncharacter absent from the corpus), and
 * restore_nul() turns that code point back into a NUL with an explicit length.
 */
#define NUL_SENTINEL "\xf4\x8f\xbf\xbe"

static void
protect_nul(char *text)
{
	GString *out = g_string_new(NULL);
	for (const char *p = text; *p; p++) {
		if (p[0] == '\\' && p[1] == 'u' && strncmp(p + 2, "0000", 4) == 0) {
			g_string_append(out, "\\uDBFF\\uDFFE");
			p += 5;
		} else if (p[0] == '\\' && p[1] != '\0') {
			g_string_append_len(out, p, 2);
			p++;
		} else {
			g_string_append_c(out, *p);
		}
	}
	/* the replacement is longer: callers pass a buffer from protect_nul_dup */
	strcpy(text, out->str);
	g_string_free(out, TRUE);
}

static char *
protect_nul_dup(const char *text)
{
	char *buf = g_malloc(strlen(text) * 2 + 1);
	strcpy(buf, text);
	protect_nul(buf);
	return buf;
}

/* Copies @s with sentinels turned back into NULs; length in *@len. */
static char *
restore_nul(const char *s, gsize *len)
{
	GString *out = g_string_new(NULL);
	while (*s) {
		if (strncmp(s, NUL_SENTINEL, 4) == 0) {
			g_string_append_c(out, '\0');
			s += 4;
		} else {
			g_string_append_c(out, *s++);
		}
	}
	*len = out->len;
	return g_string_free(out, FALSE);
}

static const CelType *
json_type(const cJSON *t)
{
	const char *kind = cJSON_GetStringValue(cJSON_GetObjectItem(t, "kind"));
	if (kind == NULL) {
		return NULL;
	}
	if (strcmp(kind, "dyn") == 0) {
		return cel_type_dyn();
	}
	if (strcmp(kind, "null") == 0) {
		return cel_type_null();
	}
	if (strcmp(kind, "primitive") == 0) {
		return cel_type_parse(cJSON_GetStringValue(cJSON_GetObjectItem(t, "primitive")));
	}
	if (strcmp(kind, "well_known") == 0) {
		const char *w = cJSON_GetStringValue(cJSON_GetObjectItem(t, "well_known"));
		if (w && strstr(w, "Timestamp")) {
			return cel_type_timestamp();
		}
		if (w && strstr(w, "Duration")) {
			return cel_type_duration();
		}
		return cel_type_dyn();
	}
	if (strcmp(kind, "list") == 0) {
		const CelType *e = json_type(cJSON_GetObjectItem(t, "elem"));
		return e ? cel_type_list(e) : NULL;
	}
	if (strcmp(kind, "map") == 0) {
		const CelType *k = json_type(cJSON_GetObjectItem(t, "key"));
		const CelType *v = json_type(cJSON_GetObjectItem(t, "value"));
		return k && v ? cel_type_map(k, v) : NULL;
	}
	if (strcmp(kind, "type_param") == 0) {
		return cel_type_param(cJSON_GetStringValue(cJSON_GetObjectItem(t, "name")));
	}
	if (strcmp(kind, "type") == 0) {
		const cJSON *of = cJSON_GetObjectItem(t, "type");
		return cel_type_type(of && cJSON_IsObject(of) ? json_type(of) : NULL);
	}
	if (strcmp(kind, "abstract") == 0) {
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(t, "name"));
		const cJSON *params = cJSON_GetObjectItem(t, "params");
		const CelType *ps[4];
		int n = cJSON_GetArraySize(params);
		if (name == NULL || n > 4) {
			return NULL;
		}
		for (int i = 0; i < n; i++) {
			if ((ps[i] = json_type(cJSON_GetArrayItem(params, i))) == NULL) {
				return NULL;
			}
		}
		if (strcmp(name, "optional_type") == 0 && n == 1) {
			return cel_type_optional(ps[0]);
		}
		return cel_type_abstract(name, ps, (guint)n);
	}
	return NULL;
}

typedef struct {
	CelActivation *act;
	const char *unsupported; /* set when a value cannot be represented */
} ValueCtx;

static CelValue json_value(ValueCtx *vc, const cJSON *v);

static double
json_double(const cJSON *d)
{
	if (cJSON_IsNumber(d)) {
		return d->valuedouble;
	}
	const char *s = cJSON_GetStringValue(d);
	if (s && strcmp(s, "NaN") == 0) {
		return NAN;
	}
	if (s && strcmp(s, "-Infinity") == 0) {
		return -INFINITY;
	}
	return INFINITY;
}

static CelValue
json_value(ValueCtx *vc, const cJSON *v)
{
	const cJSON *x = v ? v->child : NULL;
	if (x == NULL) {
		vc->unsupported = "empty value";
		return cel_value_null();
	}
	const char *k = x->string;
	if (strcmp(k, "int") == 0) {
		return cel_value_int(g_ascii_strtoll(x->valuestring, NULL, 10));
	}
	if (strcmp(k, "uint") == 0) {
		return cel_value_uint(g_ascii_strtoull(x->valuestring, NULL, 10));
	}
	if (strcmp(k, "double") == 0) {
		return cel_value_double(json_double(x));
	}
	if (strcmp(k, "string") == 0) {
		gsize len;
		g_autofree char *str = restore_nul(x->valuestring, &len);
		return cel_string_new(vc->act, str, len);
	}
	if (strcmp(k, "bytes") == 0) {
		gsize len = 0;
		g_autofree guchar *raw = g_base64_decode(x->valuestring, &len);
		return cel_bytes_new(vc->act, (const char *)raw, len);
	}
	if (strcmp(k, "bool") == 0) {
		return cel_value_bool(cJSON_IsTrue(x));
	}
	if (strcmp(k, "null") == 0) {
		return cel_value_null();
	}
	if (strcmp(k, "list") == 0) {
		guint n = (guint)cJSON_GetArraySize(x);
		CelList *l = cel_list_new(vc->act, n);
		const cJSON *e;
		cJSON_ArrayForEach(e, x)
		{
			l->items[l->len++] = json_value(vc, e);
		}
		return cel_value_list(l);
	}
	if (strcmp(k, "map") == 0) {
		guint n = (guint)cJSON_GetArraySize(x);
		CelMap *m = cel_map_new(vc->act, n);
		const cJSON *e;
		cJSON_ArrayForEach(e, x)
		{
			m->keys[m->len] = json_value(vc, cJSON_GetObjectItem(e, "key"));
			m->values[m->len++] = json_value(vc, cJSON_GetObjectItem(e, "value"));
		}
		return cel_value_map(m);
	}
	if (strcmp(k, "type") == 0) {
		const char *name = x->valuestring;
		const CelType *t = cel_type_parse(name);
		if (t == NULL && strcmp(name, "google.protobuf.Timestamp") == 0) {
			t = cel_type_timestamp();
		} else if (t == NULL && strcmp(name, "google.protobuf.Duration") == 0) {
			t = cel_type_duration();
		} else if (t == NULL) {
			t = cel_type_lookup_named(name);
		}
		if (t == NULL) {
			vc->unsupported = "type value outside the DRA environment";
			return cel_value_null();
		}
		return cel_value_type(t);
	}
	vc->unsupported = "protobuf value";
	return cel_value_null();
}

/* Strict equality for test results: kinds must match, NaN matches NaN. */
static gboolean
result_equal(CelValue want, CelValue got, CelActivation *act)
{
	if (want.kind != got.kind) {
		return FALSE;
	}
	switch ((CelKind)want.kind) {
	case CEL_KIND_DOUBLE:
		if (isnan(want.d)) {
			return isnan(got.d);
		}
		return CEL_DOUBLE_EQ(want.d, got.d);
	case CEL_KIND_LIST:
		if (want.list->len != got.list->len) {
			return FALSE;
		}
		for (guint i = 0; i < want.list->len; i++) {
			if (!result_equal(cel_list_get(want.list, i, act),
			                  cel_list_get(got.list, i, act), act)) {
				return FALSE;
			}
		}
		return TRUE;
	case CEL_KIND_MAP:
		if (want.map->len != got.map->len) {
			return FALSE;
		}
		for (guint i = 0; i < want.map->len; i++) {
			CelValue wk, wv;
			gboolean found = FALSE;
			cel_map_entry(want.map, i, &wk, &wv, act);
			for (guint j = 0; j < got.map->len && !found; j++) {
				CelValue gk, gv;
				cel_map_entry(got.map, j, &gk, &gv, act);
				if (result_equal(wk, gk, act)) {
					if (!result_equal(wv, gv, act)) {
						return FALSE;
					}
					found = TRUE;
				}
			}
			if (!found) {
				return FALSE;
			}
		}
		return TRUE;
	case CEL_KIND_OPTIONAL:
		if (want.opt == NULL || got.opt == NULL) {
			return want.opt == got.opt;
		}
		return result_equal(*(const CelValue *)want.opt, *(const CelValue *)got.opt, act);
	default:
		return cel_value_equal(want, got, act);
	}
}

/* --- one test ---------------------------------------------------------------- */

static const char *
skip_reason(const cJSON *test)
{
	const cJSON *req = cJSON_GetObjectItem(test, "requires");
	for (guint i = 0; i < G_N_ELEMENTS(skip_tags); i++) {
		const cJSON *r;
		cJSON_ArrayForEach(r, req)
		{
			if (cJSON_IsString(r) && strcmp(r->valuestring, skip_tags[i].tag) == 0) {
				return skip_tags[i].reason;
			}
		}
	}
	return NULL;
}

static gboolean
declare_type_env(CelEnv *env, const cJSON *type_env, GString *why)
{
	const cJSON *d;
	cJSON_ArrayForEach(d, type_env)
	{
		const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(d, "name"));
		const cJSON *ident = cJSON_GetObjectItem(d, "ident");
		const cJSON *fn = cJSON_GetObjectItem(d, "function");
		if (ident != NULL) {
			const CelType *t = json_type(cJSON_GetObjectItem(ident, "type"));
			if (t == NULL) {
				g_string_append_printf(why, "unsupported type for '%s'", name);
				return FALSE;
			}
			cel_env_declare_var(env, name, t);
			continue;
		}
		const cJSON *o;
		cJSON_ArrayForEach(o, cJSON_GetObjectItem(fn, "overloads"))
		{
			const CelType *params[CEL_MAX_PARAMS];
			guint n = 0;
			const cJSON *p;
			cJSON_ArrayForEach(p, cJSON_GetObjectItem(o, "params"))
			{
				if (n == CEL_MAX_PARAMS || (params[n] = json_type(p)) == NULL) {
					g_string_append_printf(why, "unsupported signature of '%s'",
					                       name);
					return FALSE;
				}
				n++;
			}
			const CelType *r = json_type(cJSON_GetObjectItem(o, "result_type"));
			if (r == NULL) {
				g_string_append_printf(why, "unsupported result type of '%s'",
				                       name);
				return FALSE;
			}
			const char *id =
			        cJSON_GetStringValue(cJSON_GetObjectItem(o, "overload_id"));
			gboolean recv =
			        cJSON_IsTrue(cJSON_GetObjectItem(o, "is_instance_function"));
			if (!cel_env_declare_function(env, name, id ? id : name, recv, params, n, r,
			                              NULL)) {
				return FALSE;
			}
		}
	}
	return TRUE;
}

static void
print_failure(const char *file,
              const char *section,
              const char *name,
              const char *expr,
              const char *expected,
              const char *got)
{
	printf("FAIL %s: %s/%s\n  expr:     %s\n  expected: %s\n  got:      %s\n", file, section,
	       name, expr, expected, got);
}

static void
count_skip(Stats *st, const char *reason)
{
	st->skipped++;
	gpointer old = g_hash_table_lookup(st->skip_reasons, reason);
	g_hash_table_insert(st->skip_reasons, (gpointer)reason,
	                    GUINT_TO_POINTER(GPOINTER_TO_UINT(old) + 1));
}

/* One test of a cel-spec file: where it is and what it expects. */
typedef struct {
	const char *file;
	const char *section;
	const char *name;
	const char *expr;
	const cJSON *json;
	const cJSON *expect;
	const char *ekind;
	gboolean want_error;
	char *want_text;
} SpecTest;

/* The test's environment: container, switches, its type_env, its bindings as dyn. */
static CelEnv *
test_env(const SpecTest *t, GString *why)
{
	g_autoptr(CelEnv) env = cel_env_new();
	const char *container = cJSON_GetStringValue(cJSON_GetObjectItem(t->json, "container"));
	cel_env_set_container(env, container ? container : "");
	cel_env_set_disable_check(env, cJSON_IsTrue(cJSON_GetObjectItem(t->json, "disable_check")));
	cel_env_set_disable_macros(env,
	                           cJSON_IsTrue(cJSON_GetObjectItem(t->json, "disable_macros")));
	if (!declare_type_env(env, cJSON_GetObjectItem(t->json, "type_env"), why)) {
		return NULL;
	}
	const cJSON *b;
	cJSON_ArrayForEach(b, cJSON_GetObjectItem(t->json, "bindings"))
	{
		if (cel_env_lookup_var(env, b->string) == NULL) {
			cel_env_declare_var(env, b->string, cel_type_dyn());
		}
	}
	return g_steal_pointer(&env);
}

static void
bind_values(const SpecTest *t, CelEnv *env, CelActivation *act, ValueCtx *vc)
{
	const cJSON *b;
	cJSON_ArrayForEach(b, cJSON_GetObjectItem(t->json, "bindings"))
	{
		const char *bk = cJSON_GetStringValue(cJSON_GetObjectItem(b, "kind"));
		CelValue v = bk && strcmp(bk, "error") == 0
		                     ? cel_value_error("binding error")
		                     : json_value(vc, cJSON_GetObjectItem(b, "value"));
		cel_activation_set(act, cel_env_lookup_var(env, b->string)->slot, v);
	}
}

/*
 * The compiled program against `expect`: the deduced type, then (unless
 * check_only) the value or error. Returns 1 ok, 0 differs (@got_text says
 * what came), -1 skipped (an expected value outside the DRA environment).
 */
static int
check_program(
        const SpecTest *t, CelProgram *prog, CelActivation *act, ValueCtx *vc, GString *got_text)
{
	gboolean check_only = cJSON_IsTrue(cJSON_GetObjectItem(t->json, "check_only"));
	gboolean ok = TRUE;
	if (strcmp(t->ekind, "typed_result") == 0) {
		const cJSON *dt = cJSON_GetObjectItem(t->expect, "deduced_type");
		const char *want_type = cJSON_GetStringValue(cJSON_GetObjectItem(dt, "text"));
		const char *got_type = cel_type_get_name(cel_program_get_type(prog));
		if (want_type && strcmp(want_type, got_type) != 0) {
			ok = FALSE;
			g_string_append_printf(got_text, "type %s; ", got_type);
		}
	}
	const cJSON *want_json = cJSON_GetObjectItem(t->expect, "value");
	if (check_only || (want_json == NULL && !t->want_error && strcmp(t->ekind, "value") != 0)) {
		return ok;
	}
	CelValue got = cel_program_eval(prog, act);
	cel_value_print(got_text, got);
	if (t->want_error) {
		return ok && got.kind == CEL_KIND_ERROR;
	}
	if (strcmp(t->ekind, "value") != 0 && strcmp(t->ekind, "typed_result") != 0) {
		return FALSE;
	}
	CelValue want = json_value(vc, want_json);
	if (vc->unsupported != NULL) {
		return -1;
	}
	return ok && result_equal(want, got, act);
}

/* A test that ran: passed, a known deviation (skipped and shown), or failed. */
static void
tally_result(Stats *st, const SpecTest *t, gboolean ok, const char *got_text)
{
	/* a known deviation still runs: it is skipped (and shown) only while it differs */
	const char *deviation = deviation_of(t->file, t->section, t->name);

	if (ok) {
		st->passed++;
	} else if (deviation != NULL) {
		count_skip(st, deviation);
		printf("SKIP %s: %s/%s (known deviation)\n  expr:     %s\n  cel-spec: %s\n  "
		       "drasim:   %s\n",
		       t->file, t->section, t->name, t->expr, t->want_text, got_text);
	} else {
		st->failed++;
		print_failure(t->file, t->section, t->name, t->expr, t->want_text, got_text);
	}
}

/* Compiles, binds and evaluates one test whose environment is ready. */
static void
run_in_env(Stats *st, const SpecTest *t, CelEnv *env)
{
	g_autoptr(GError) error = NULL;
	gsize expr_len;
	g_autofree char *expr_bytes = restore_nul(t->expr, &expr_len);
	g_autoptr(CelProgram) prog = cel_program_compile_len(env, expr_bytes, expr_len, &error);
	if (prog == NULL) {
		if (t->want_error) {
			st->passed++;
		} else {
			st->failed++;
			print_failure(t->file, t->section, t->name, t->expr, t->want_text,
			              error->message);
		}
		return;
	}
	g_autoptr(CelActivation) act = cel_activation_new(env);
	ValueCtx vc = { act, NULL };
	bind_values(t, env, act, &vc);
	g_autoptr(GString) got_text = g_string_new(NULL);
	int verdict = check_program(t, prog, act, &vc, got_text);
	if (verdict < 0) {
		count_skip(st, "expected value outside the DRA environment");
		return;
	}
	tally_result(st, t, verdict > 0, got_text->str);
}

static void
run_test(Stats *st, const char *file, const char *section, const cJSON *test)
{
	SpecTest t = { .file = file, .section = section };
	t.name = cJSON_GetStringValue(cJSON_GetObjectItem(test, "name"));
	t.expr = cJSON_GetStringValue(cJSON_GetObjectItem(test, "expr"));
	t.json = test;
	t.expect = cJSON_GetObjectItem(test, "expect");
	t.ekind = cJSON_GetStringValue(cJSON_GetObjectItem(t.expect, "kind"));
	if (st->match && !strstr(t.expr, st->match) && !strstr(t.name, st->match)) {
		return;
	}
	const char *reason = skip_reason(test);
	if (reason != NULL) {
		count_skip(st, reason);
		return;
	}
	g_autoptr(GString) why = g_string_new(NULL);
	g_autoptr(CelEnv) env = test_env(&t, why);
	if (env == NULL) {
		st->failed++;
		print_failure(file, section, t.name, t.expr, "(type_env)", why->str);
		return;
	}
	t.want_error = strcmp(t.ekind, "error") == 0 || strcmp(t.ekind, "any_error") == 0;
	t.want_text = cJSON_PrintUnformatted(t.expect);
	run_in_env(st, &t, env);
	cJSON_free(t.want_text);
}

static gboolean
run_file(Stats *st, const char *path)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;
	if (!base_read_file(path, &text, NULL, &error)) {
		fprintf(stderr, "%s:1:1: error: %s\n", path, error->message);
		return FALSE;
	}
	g_autofree char *protected = protect_nul_dup(text);
	cJSON *root = cJSON_Parse(protected);
	if (root == NULL) {
		fprintf(stderr, "%s:1:1: error: invalid JSON\n", path);
		return FALSE;
	}
	g_autofree char *base = g_path_get_basename(path);
	char *dot = strrchr(base, '.');
	if (dot) {
		*dot = '\0';
	}
	const cJSON *section;
	cJSON_ArrayForEach(section, cJSON_GetObjectItem(root, "sections"))
	{
		const char *sname = cJSON_GetStringValue(cJSON_GetObjectItem(section, "name"));
		const cJSON *test;
		cJSON_ArrayForEach(test, cJSON_GetObjectItem(section, "tests"))
		{
			run_test(st, base, sname ? sname : "", test);
		}
	}
	cJSON_Delete(root);
	return TRUE;
}

static gint
cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
main(int argc, char **argv)
{
	Stats st = { 0 };
	char *match = NULL;
	GOptionEntry entries[] = {
		{ "match", 'm', 0, G_OPTION_ARG_STRING, &match,
		  "only tests whose name or expression contains TEXT", "TEXT" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("PATH... - run cel-spec conformance files (JSON)");
	g_option_context_add_main_entries(context, entries, NULL);
	int status = conformance_parse_options(context, &argc, &argv);
	if (status != CONFORMANCE_EXIT_OK) {
		return status;
	}
	if (argc < 2) {
		fprintf(stderr, "conformance-cel-spec: no PATH given\n");
		return CONFORMANCE_EXIT_USAGE;
	}
	st.match = match;
	st.skip_reasons = g_hash_table_new(g_str_hash, g_str_equal);
	gboolean io_ok = TRUE;
	for (int i = 1; i < argc; i++) {
		if (g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
			g_autoptr(GDir) dir = g_dir_open(argv[i], 0, NULL);
			g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
			const char *n;
			while (dir && (n = g_dir_read_name(dir)) != NULL) {
				if (g_str_has_suffix(n, ".json")) {
					g_ptr_array_add(names, g_build_filename(argv[i], n, NULL));
				}
			}
			g_ptr_array_sort(names, cmp_str);
			for (guint j = 0; j < names->len; j++) {
				io_ok &= run_file(&st, g_ptr_array_index(names, j));
			}
		} else {
			io_ok &= run_file(&st, argv[i]);
		}
	}
	/* skip reasons, sorted for deterministic output */
	g_autoptr(GList) keys = g_hash_table_get_keys(st.skip_reasons);
	keys = g_list_sort(keys, (GCompareFunc)strcmp);
	for (GList *l = keys; l; l = l->next) {
		printf("skipped %u: %s\n",
		       GPOINTER_TO_UINT(g_hash_table_lookup(st.skip_reasons, l->data)),
		       (const char *)l->data);
	}
	printf("%u passed, %u failed, %u skipped\n", st.passed, st.failed, st.skipped);
	g_hash_table_unref(st.skip_reasons);
	g_free(match);
	return (st.failed == 0 && io_ok) ? CONFORMANCE_EXIT_OK : CONFORMANCE_EXIT_FAILED;
}
