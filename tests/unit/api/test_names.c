/*
 * test_names.c: name formats and field-error wording against upstream's
 * (k8s.io/apimachinery/pkg/util/validation/validation_test.go cases, and the exact
 * messages users see from the API server), and k8s_validate_names() on loaded objects.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "k8s_names.h"
#include "k8s_objects.h"
#include "k8s_validate.h"

typedef GPtrArray *(*NameCheck)(const char *value);

typedef struct {
	NameCheck check;
	const char *value;
	const char *first_message; /* NULL: valid */
} NameCase;

static const char label_regex[] =
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
        "'-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
        "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

static void
test_names_table(void **state)
{
	g_autofree char *long64 = g_strnfill(64, 'a');
	g_autofree char *long63 = g_strnfill(63, 'a');
	g_autofree char *long254 = g_strnfill(254, 'a');
	const NameCase cases[] = {
		{ k8s_names_dns1123_label, "a", NULL },
		{ k8s_names_dns1123_label, "0", NULL },
		{ k8s_names_dns1123_label, "a-b-c", NULL },
		{ k8s_names_dns1123_label, "11-22", NULL },
		{ k8s_names_dns1123_label, long63, NULL },
		{ k8s_names_dns1123_label, "", "a lowercase RFC 1123 label" },
		{ k8s_names_dns1123_label, "A", "a lowercase RFC 1123 label" },
		{ k8s_names_dns1123_label, "-a", "a lowercase RFC 1123 label" },
		{ k8s_names_dns1123_label, "a-", "a lowercase RFC 1123 label" },
		{ k8s_names_dns1123_label, "a_b", "a lowercase RFC 1123 label" },
		{ k8s_names_dns1123_label, "a.b", "must not contain dots" },
		{ k8s_names_dns1123_label, long64, "must be no more than 63 characters" },
		{ k8s_names_dns1123_subdomain, "gpu.nvidia.com", NULL },
		{ k8s_names_dns1123_subdomain, "a", NULL },
		{ k8s_names_dns1123_subdomain, "a..b", "a lowercase RFC 1123 subdomain" },
		{ k8s_names_dns1123_subdomain, "a.", "a lowercase RFC 1123 subdomain" },
		{ k8s_names_dns1123_subdomain, "Gpu.example.com",
		  "a lowercase RFC 1123 subdomain" },
		{ k8s_names_dns1123_subdomain, long254, "must be no more than 253 characters" },
		{ k8s_names_dns1035_label, "abc-123", NULL },
		{ k8s_names_dns1035_label, "1abc", "a DNS-1035 label" },
		{ k8s_names_label_key, "app", NULL },
		{ k8s_names_label_key, "nvidia.com/gpu.product", NULL },
		{ k8s_names_label_key, "example.com/My_Name", NULL },
		{ k8s_names_label_key, "/a", "prefix part must be non-empty" },
		{ k8s_names_label_key, "a/", "name part must be non-empty" },
		{ k8s_names_label_key, "a/b/c", "a valid label key must consist of" },
		{ k8s_names_label_key, "Example.com/a", "prefix part a lowercase RFC 1123" },
		{ k8s_names_label_key, "-a", "name part must consist of" },
		{ k8s_names_label_key, long64, "name part must be no more than 63 characters" },
		{ k8s_names_label_value, "", NULL },
		{ k8s_names_label_value, "v1.2_3-x", NULL },
		{ k8s_names_label_value, "-x", "a valid label must be an empty string" },
		{ k8s_names_label_value, long64, "must be no more than 63 characters" },
		{ k8s_names_c_identifier, "memory", NULL },
		{ k8s_names_c_identifier, "_x9", NULL },
		{ k8s_names_c_identifier, "9x", "a valid C identifier must start" },
		{ k8s_names_c_identifier, "mig-profile", "a valid C identifier must start" },
		{ k8s_names_c_identifier, "", "a valid C identifier must start" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GPtrArray) msgs = cases[i].check(cases[i].value);
		if (cases[i].first_message == NULL) {
			if (msgs != NULL) {
				fail_msg("case %u \"%s\": unexpected \"%s\"", i, cases[i].value,
				         (const char *)msgs->pdata[0]);
			}
			continue;
		}
		if (msgs == NULL) {
			fail_msg("case %u \"%s\": accepted", i, cases[i].value);
		}
		if (!g_str_has_prefix(msgs->pdata[0], cases[i].first_message)) {
			fail_msg("case %u \"%s\": got \"%s\"", i, cases[i].value,
			         (const char *)msgs->pdata[0]);
		}
	}
}

static void
test_label_exact_message(void **state)
{
	g_autoptr(GPtrArray) msgs = k8s_names_dns1123_label("Gpu");

	assert_non_null(msgs);
	assert_int_equal(msgs->len, 1);
	assert_string_equal(msgs->pdata[0], label_regex);
	/* both length and format are reported, as upstream does */
	g_autofree char *bad = g_strnfill(70, 'A');
	g_autoptr(GPtrArray) two = k8s_names_dns1123_label(bad);
	assert_int_equal(two->len, 2);
}

static void
test_extended_resource_name(void **state)
{
	assert_true(k8s_names_is_extended_resource_name("example.com/gpu"));
	assert_true(k8s_names_is_extended_resource_name("nvidia.com/gpu"));
	assert_false(k8s_names_is_extended_resource_name("gpu"));
	assert_false(k8s_names_is_extended_resource_name("kubernetes.io/gpu"));
	assert_false(k8s_names_is_extended_resource_name("requests.example.com/gpu"));
	assert_false(k8s_names_is_extended_resource_name("example.com/-gpu"));
}

static void
test_field_error_body(void **state)
{
	g_autofree char *q = k8s_field_quote("Gpu\"x\n\xff");
	g_autofree char *invalid = k8s_field_error_body(K8S_FIELD_INVALID, "\"a\"", "detail");
	g_autofree char *required = k8s_field_error_body(K8S_FIELD_REQUIRED, "\"a\"", NULL);
	g_autofree char *too_many =
	        k8s_field_error_body(K8S_FIELD_TOO_MANY, "33", "must have at most 32 items");
	g_autofree char *too_long =
	        k8s_field_error_body(K8S_FIELD_TOO_LONG, NULL, "may not be more than 64 bytes");

	assert_string_equal(q, "\"Gpu\\\"x\\n\\xff\"");
	assert_string_equal(invalid, "Invalid value: \"a\": detail");
	assert_string_equal(required, "Required value");
	assert_string_equal(too_many, "Too many: 33: must have at most 32 items");
	assert_string_equal(too_long, "Too long: may not be more than 64 bytes");
}

/*
 * k8s_validate_names (what drasim allocate and scenarios require): three objects, the first
 * named, the second with neither name nor generateName (validation's own message, at its
 * metadata: line 7, column 11), the third with only generateName: two errors, FALSE.
 */
static void
test_names_required(void **state)
{
	static const char yaml[] = "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n---\n"
	                           "apiVersion: v1\nkind: Node\nmetadata: {labels: {x: z}}\n---\n"
	                           "apiVersion: v1\nkind: Node\nmetadata: {generateName: n-}\n";
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();

	g_autoptr(K8sDiagList) loaded = k8s_diag_list_new();

	k8s_load_data("names.yaml", yaml, strlen(yaml), K8S_LOAD_DEFAULT, set, loaded);
	assert_int_equal(k8s_diag_list_count_errors(loaded), 0);
	assert_int_equal(k8s_object_set_count(set), 3);
	assert_false(k8s_validate_names(set, diags));
	assert_int_equal(k8s_diag_list_count(diags), 2);
	g_autofree char *first = k8s_diag_format(k8s_diag_list_get(diags, 0));
	assert_string_equal(first, "names.yaml:7:11: error: Required value: name or generateName "
	                           "is required [metadata.name]");
	assert_non_null(strstr(k8s_diag_list_get(diags, 1)->message, "generateName \"n-\""));
	g_autoptr(K8sObjectSet) named = k8s_object_set_new();
	k8s_load_data("one.yaml", yaml, (gsize)(strstr(yaml, "---") - yaml), K8S_LOAD_DEFAULT,
	              named, loaded);
	assert_int_equal(k8s_object_set_count(named), 1);
	assert_true(k8s_validate_names(named, diags));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_table),
		cmocka_unit_test(test_label_exact_message),
		cmocka_unit_test(test_extended_resource_name),
		cmocka_unit_test(test_field_error_body),
		cmocka_unit_test(test_names_required),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
