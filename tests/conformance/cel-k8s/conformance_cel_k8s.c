/*
 * conformance_cel_k8s.c: the test program `conformance-cel-k8s FILE...` runs the Kubernetes CEL
 * library and DRA selector cases (../shared/conformance/cel-k8s/cases.json, or files of that
 * shape).
 *
 * Library suites (k8s_quantity, k8s_semver) compile and evaluate in the environment the case
 * names; DRA suites go through cel_dra.h exactly as the allocator does: compile with the
 * case's env type and feature gates, compare the static cost estimate, build the device view
 * and evaluate. A case whose DRAListTypeAttributes gate is null runs with the gate off and on,
 * as upstream does, and must pass both ways. Every failure is printed with what was expected.
 */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base.h"
#include "cel_dra.h"
#include "cel_k8s.h"
#include "conformance.h"

typedef struct {
	guint passed;
	guint failed;
	guint skipped;
	gboolean verbose;
	const char *file;
} Tally;

static const char *
json_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void
report_failure(Tally *t, const cJSON *c, const char *variant, const char *expected, const char *got)
{
	t->failed++;
	printf("FAIL %s: %s/%s%s%s\n  expr:     %s\n  expected: %s\n  got:      %s\n", t->file,
	       json_str(c, "suite"), json_str(c, "name"), variant != NULL ? " " : "",
	       variant != NULL ? variant : "", json_str(c, "expr"), expected, got);
}

/* Does @text satisfy the expectation's match/pattern? */
static gboolean
text_matches(const cJSON *expect, const char *text)
{
	const char *match = json_str(expect, "match");
	const char *pattern = json_str(expect, "pattern");
	if (match == NULL || strcmp(match, "any") == 0) {
		return TRUE;
	}
	if (pattern == NULL) {
		return FALSE;
	}
	if (strcmp(match, "substring") == 0) {
		return strstr(text, pattern) != NULL;
	}
	return g_regex_match_simple(pattern, text, 0, 0);
}

static char *
describe_expect(const cJSON *expect)
{
	g_autofree char *json = cJSON_PrintUnformatted(expect);
	return g_strdup(json);
}

/* Compares a value result with the tagged expected value. */
static gboolean
value_matches(const cJSON *want, CelValue got)
{
	const cJSON *v;
	if ((v = cJSON_GetObjectItemCaseSensitive(want, "bool")) != NULL) {
		return got.kind == CEL_KIND_BOOL && got.b == cJSON_IsTrue(v);
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(want, "int")) != NULL && cJSON_IsString(v)) {
		return got.kind == CEL_KIND_INT &&
		       got.i == g_ascii_strtoll(v->valuestring, NULL, 10);
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(want, "uint")) != NULL && cJSON_IsString(v)) {
		return got.kind == CEL_KIND_UINT &&
		       got.u == g_ascii_strtoull(v->valuestring, NULL, 10);
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(want, "double")) != NULL && cJSON_IsNumber(v)) {
		return got.kind == CEL_KIND_DOUBLE && !(got.d < v->valuedouble) &&
		       !(got.d > v->valuedouble);
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(want, "string")) != NULL && cJSON_IsString(v)) {
		return got.kind == CEL_KIND_STRING && strlen(v->valuestring) == got.aux &&
		       memcmp(v->valuestring, got.str, got.aux) == 0;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(want, "quantity")) != NULL && cJSON_IsString(v)) {
		K8sQuantity q, w;
		return cel_k8s_value_get_quantity(got, &q) &&
		       k8s_quantity_parse(v->valuestring, -1, &w, NULL) &&
		       k8s_quantity_cmp(&q, &w) == 0;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(want, "semver")) != NULL && cJSON_IsString(v)) {
		return cel_k8s_value_semver_equal(got, v->valuestring);
	}
	if (cJSON_GetObjectItemCaseSensitive(want, "null") != NULL) {
		return got.kind == CEL_KIND_NULL;
	}
	return FALSE;
}

static char *
describe_value(CelValue v)
{
	GString *s = g_string_new(NULL);
	cel_value_print(s, v);
	return g_string_free(s, FALSE);
}

/* ---- library suites ---- */

static CelEnv *
library_env(const cJSON *c, GHashTable *cache)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(c, "env");
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(env, "semver_lib_version");
	const char *suite = json_str(c, "suite");
	gboolean semver_only = strcmp(suite, "k8s_semver") == 0;
	guint version = cJSON_IsNumber(ver) ? (guint)ver->valueint : 1;
	g_autofree char *key = g_strdup_printf("%s/%u", suite, version);
	CelEnv *e = g_hash_table_lookup(cache, key);

	if (e == NULL) {
		/* The upstream tests use a bare cel.NewEnv with only the listed libraries. */
		CelK8sEnvOptions o = { 0 };
		o.base_libraries = !semver_only;
		o.semver = semver_only;
		o.semver_version = version;
		e = cel_k8s_env_new(&o);
		g_hash_table_insert(cache, g_steal_pointer(&key), e);
	}
	return e;
}

static void
run_library_case(Tally *t, const cJSON *c, GHashTable *cache)
{
	const cJSON *expect = cJSON_GetObjectItemCaseSensitive(c, "expect");
	const char *kind = json_str(expect, "kind");
	g_autofree char *want = describe_expect(expect);
	g_autoptr(GError) error = NULL;
	CelEnv *env = library_env(c, cache);
	g_autoptr(CelProgram) prog = cel_program_compile(env, json_str(c, "expr"), &error);

	if (prog == NULL) {
		if (kind != NULL && strcmp(kind, "compile_error") == 0 &&
		    text_matches(expect, error->message)) {
			t->passed++;
		} else {
			g_autofree char *got = g_strdup_printf("compile error: %s", error->message);
			report_failure(t, c, NULL, want, got);
		}
		return;
	}
	g_autoptr(CelActivation) act = cel_activation_new(env);
	CelValue v = cel_program_eval(prog, act);
	gboolean ok = FALSE;
	if (kind != NULL && strcmp(kind, "value") == 0) {
		ok = !cel_value_is_error(v) &&
		     value_matches(cJSON_GetObjectItemCaseSensitive(expect, "value"), v);
	} else if (kind != NULL && strcmp(kind, "runtime_error") == 0) {
		ok = cel_value_is_error(v) && text_matches(expect, v.str);
	}
	if (ok) {
		t->passed++;
	} else {
		g_autofree char *got = describe_value(v);
		report_failure(t, c, NULL, want, got);
	}
}

/* ---- DRA suites ---- */

static gboolean
add_attribute(CelDraDevice *dev, const char *name, const cJSON *attr, GError **error)
{
	const cJSON *v;
	if ((v = cJSON_GetObjectItemCaseSensitive(attr, "bool")) != NULL) {
		cel_dra_device_add_bool(dev, name, cJSON_IsTrue(v));
	} else if ((v = cJSON_GetObjectItemCaseSensitive(attr, "int")) != NULL) {
		cel_dra_device_add_int(dev, name, g_ascii_strtoll(v->valuestring, NULL, 10));
	} else if ((v = cJSON_GetObjectItemCaseSensitive(attr, "string")) != NULL) {
		cel_dra_device_add_string(dev, name, v->valuestring, -1);
	} else if ((v = cJSON_GetObjectItemCaseSensitive(attr, "version")) != NULL) {
		return cel_dra_device_add_version(dev, name, v->valuestring, -1, error);
	} else {
		guint n = 0;
		const cJSON *item;
		if ((v = cJSON_GetObjectItemCaseSensitive(attr, "bools")) != NULL) {
			g_autofree gboolean *b = g_new0(gboolean, cJSON_GetArraySize(v) + 1);
			cJSON_ArrayForEach(item, v) b[n++] = cJSON_IsTrue(item);
			cel_dra_device_add_bools(dev, name, b, n);
		} else if ((v = cJSON_GetObjectItemCaseSensitive(attr, "ints")) != NULL) {
			g_autofree gint64 *i = g_new0(gint64, cJSON_GetArraySize(v) + 1);
			cJSON_ArrayForEach(item, v) i[n++] =
			        g_ascii_strtoll(item->valuestring, NULL, 10);
			cel_dra_device_add_ints(dev, name, i, n);
		} else if ((v = cJSON_GetObjectItemCaseSensitive(attr, "strings")) != NULL ||
		           (v = cJSON_GetObjectItemCaseSensitive(attr, "versions")) != NULL) {
			g_autofree const char **s = g_new0(const char *, cJSON_GetArraySize(v) + 1);
			cJSON_ArrayForEach(item, v) s[n++] = item->valuestring;
			if (cJSON_GetObjectItemCaseSensitive(attr, "versions") != NULL) {
				return cel_dra_device_add_versions(dev, name, s, n, error);
			}
			cel_dra_device_add_strings(dev, name, s, n);
		} else {
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			            "attribute %s: unknown value shape", name);
			return FALSE;
		}
	}
	return TRUE;
}

static CelDraDevice *
build_device(const cJSON *d, GError **error)
{
	const char *driver = json_str(d, "driver");
	g_autoptr(CelDraDevice) dev = cel_dra_device_new(driver != NULL ? driver : "");
	const cJSON *multi = cJSON_GetObjectItemCaseSensitive(d, "allowMultipleAllocations");
	const cJSON *e;

	cel_dra_device_set_allow_multiple_allocations(dev, cJSON_IsTrue(multi));
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(d, "attributes"))
	{
		if (!add_attribute(dev, e->string, e, error)) {
			return NULL;
		}
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(d, "capacity"))
	{
		K8sQuantity q;
		if (!k8s_quantity_parse(e->valuestring, -1, &q, error)) {
			return NULL;
		}
		cel_dra_device_add_capacity(dev, e->string, &q);
	}
	return g_steal_pointer(&dev);
}

static void
run_dra_variant(Tally *t, const cJSON *c, gboolean list_attrs, const char *variant)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(c, "env");
	const cJSON *expect = cJSON_GetObjectItemCaseSensitive(c, "expect");
	const cJSON *cost = cJSON_GetObjectItemCaseSensitive(c, "expect_cost_estimate");
	const char *kind = json_str(expect, "kind");
	const char *type = json_str(env, "type");
	g_autofree char *want = describe_expect(expect);
	CelDraOptions o = CEL_DRA_OPTIONS_INIT;
	g_autoptr(CelDraDiag) diag = NULL;
	g_autoptr(GError) error = NULL;

	o.env_type = type != NULL && strcmp(type, "NewExpressions") == 0
	                     ? CEL_DRA_NEW_EXPRESSIONS
	                     : CEL_DRA_STORED_EXPRESSIONS;
	o.consumable_capacity = cJSON_IsTrue(
	        cJSON_GetObjectItemCaseSensitive(env, "feature_DRAConsumableCapacity"));
	o.list_type_attributes = list_attrs;
	g_autoptr(CelDraEnv) denv = cel_dra_env_new(&o);
	g_autoptr(CelDraSelector) sel = cel_dra_selector_compile(denv, json_str(c, "expr"), &diag);
	if (sel == NULL) {
		if (kind != NULL && strcmp(kind, "compile_error") == 0 &&
		    text_matches(expect, diag->text)) {
			t->passed++;
		} else {
			g_autofree char *got = g_strdup_printf("compile error: %s", diag->text);
			report_failure(t, c, variant, want, got);
		}
		return;
	}
	if (kind != NULL && strcmp(kind, "compile_error") == 0) {
		report_failure(t, c, variant, want, "compiled without error");
		return;
	}
	if (cJSON_IsNumber(cost) &&
	    (guint64)cost->valuedouble != cel_dra_selector_get_max_cost(sel)) {
		g_autofree char *w = g_strdup_printf("cost estimate %.0f", cost->valuedouble);
		g_autofree char *g = g_strdup_printf("cost estimate %" G_GUINT64_FORMAT,
		                                     cel_dra_selector_get_max_cost(sel));
		report_failure(t, c, variant, w, g);
		return;
	}
	g_autoptr(CelDraDevice) dev =
	        build_device(cJSON_GetObjectItemCaseSensitive(c, "device"), &error);
	if (dev == NULL) {
		g_autofree char *got = g_strdup_printf("device: %s", error->message);
		report_failure(t, c, variant, want, got);
		return;
	}
	g_autoptr(CelDraEval) ev = cel_dra_eval_new(denv);
	const char *msg = NULL;
	CelDraResult r = cel_dra_selector_eval(sel, ev, dev, &msg);
	gboolean ok = FALSE;
	if (kind != NULL && strcmp(kind, "match") == 0) {
		gboolean wanted = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(expect, "value"));
		ok = r == (wanted ? CEL_DRA_TRUE : CEL_DRA_FALSE);
	} else if (kind != NULL && strcmp(kind, "runtime_error") == 0) {
		ok = r == CEL_DRA_ERROR && text_matches(expect, msg);
	}
	if (ok) {
		t->passed++;
		return;
	}
	g_autofree char *got = g_strdup(r == CEL_DRA_ERROR  ? msg
	                                : r == CEL_DRA_TRUE ? "match true"
	                                                    : "match false");
	if (r == CEL_DRA_ERROR) {
		g_free(got);
		got = g_strdup_printf("runtime error: %s", msg);
	}
	report_failure(t, c, variant, want, got);
}

static void
run_dra_case(Tally *t, const cJSON *c)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(c, "env");
	const cJSON *la = cJSON_GetObjectItemCaseSensitive(env, "feature_DRAListTypeAttributes");
	if (cJSON_IsBool(la)) {
		run_dra_variant(t, c, cJSON_IsTrue(la), NULL);
		return;
	}
	/* null: upstream runs both; one tally entry per variant. */
	run_dra_variant(t, c, FALSE, "[list-type-attributes=false]");
	run_dra_variant(t, c, TRUE, "[list-type-attributes=true]");
}

static gboolean
run_file(Tally *t, const char *path)
{
	g_autofree char *text = NULL;
	g_autoptr(GError) error = NULL;

	if (!base_read_file(path, &text, NULL, &error)) {
		fprintf(stderr, "%s: error: %s\n", path, error->message);
		return FALSE;
	}
	cJSON *root = cJSON_Parse(text);
	const cJSON *cases = cJSON_GetObjectItemCaseSensitive(root, "cases");
	if (!cJSON_IsArray(cases)) {
		fprintf(stderr, "%s:1:1: error: expected an object with a \"cases\" array\n", path);
		cJSON_Delete(root);
		return FALSE;
	}
	g_autoptr(GHashTable) envs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
	                                                   (GDestroyNotify)cel_env_unref);
	const cJSON *c;
	t->file = path;
	cJSON_ArrayForEach(c, cases)
	{
		const char *suite = json_str(c, "suite");
		if (suite == NULL) {
			t->skipped++;
			printf("SKIP %s: case without suite\n", path);
		} else if (g_str_has_prefix(suite, "dra_")) {
			run_dra_case(t, c);
		} else if (strcmp(suite, "k8s_quantity") == 0 || strcmp(suite, "k8s_semver") == 0) {
			run_library_case(t, c, envs);
		} else {
			t->skipped++;
			printf("SKIP %s: %s/%s: unknown suite\n", path, suite, json_str(c, "name"));
		}
	}
	cJSON_Delete(root);
	return TRUE;
}

int
main(int argc, char **argv)
{
	Tally t = { 0 };
	GOptionEntry entries[] = {
		{ "verbose", 'v', 0, G_OPTION_ARG_NONE, &t.verbose, "print passing cases too",
		  NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context = g_option_context_new(
	        "FILE... - run Kubernetes CEL library and DRA selector cases (cases.json)");
	g_option_context_add_main_entries(context, entries, NULL);
	int status = conformance_parse_options(context, &argc, &argv);
	if (status != CONFORMANCE_EXIT_OK) {
		return status;
	}
	if (argc < 2) {
		fprintf(stderr, "conformance-cel-k8s: expected at least one FILE\n");
		return CONFORMANCE_EXIT_USAGE;
	}
	gboolean io_ok = TRUE;
	for (int i = 1; i < argc; i++) {
		io_ok &= run_file(&t, argv[i]);
	}
	printf("%u passed, %u failed, %u skipped\n", t.passed, t.failed, t.skipped);
	return t.failed == 0 && io_ok ? CONFORMANCE_EXIT_OK : CONFORMANCE_EXIT_FAILED;
}
