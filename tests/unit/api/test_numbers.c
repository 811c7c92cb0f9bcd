/*
 * test_numbers.c: integer fields read the way kubectl reads them (YAML -> JSON -> Go
 * int64). A number JSON cannot carry (.inf, .nan) or one beyond int64 is an error at
 * the value's LINE:COL with the field path and the valid range; never 0, never
 * saturated or wrapped. The accepted forms keep their go-yaml v2 values.
 */
#include <math.h>

#include "api-test-util.h"

/* A claim whose request count is @value: the value sits at line 10, column 16. */
static Loaded
load_count(const char *value)
{
	g_autofree char *text = g_strdup_printf(
	        "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c}\n"
	        "spec:\n  devices:\n    requests:\n    - name: r\n      exactly:\n"
	        "        deviceClassName: x\n        count: %s\n",
	        value);

	return load_text("n.yaml", text, K8S_LOAD_DEFAULT);
}

#define INT64_RANGE "[-9223372036854775808, 9223372036854775807]"

static void
test_numbers__rejected(void **state)
{
	static const struct {
		const char *value, *message;
	} cases[] = {
		/* read as 0 before: g_ascii_strtod does not know YAML's .inf/.nan */
		{ ".inf", "expected an integer in " INT64_RANGE ", got .inf (infinite)" },
		{ "-.inf", "expected an integer in " INT64_RANGE ", got -.inf (infinite)" },
		{ ".Inf", "expected an integer in " INT64_RANGE ", got .Inf (infinite)" },
		{ ".nan", "expected an integer in " INT64_RANGE ", got .nan (not a number)" },
		{ ".NaN", "expected an integer in " INT64_RANGE ", got .NaN (not a number)" },
		/* beyond int64, as a float and as an integer */
		{ "1e30", "number 1e30 is out of range for an integer field " INT64_RANGE },
		{ "1e400", "number 1e400 is out of range for an integer field " INT64_RANGE },
		{ "99999999999999999999",
		  "number 99999999999999999999 is out of range for an integer field " INT64_RANGE },
		{ "0x8000000000000000", "integer 0x8000000000000000 is out of range " INT64_RANGE },
		{ "1_0000_0000_0000_0000_0000",
		  "integer 1_0000_0000_0000_0000_0000 is out of range " INT64_RANGE },
		/* a tagged float that is no number was 0 before too */
		{ "!!float abc", "expected an integer, got 'abc'" },
		{ "2.5", "expected an integer, got the fraction 2.5" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		Loaded l = load_count(cases[i].value);
		const K8sDiag *d;

		print_message("# count: %s\n", cases[i].value);
		assert_false(l.ok);
		d = expect_diag(l.diags, cases[i].message, 10, 16);
		assert_string_equal(d->path, "spec.devices.requests[0].exactly.count");
		loaded_clear(&l);
	}
}

static void
test_numbers__accepted(void **state)
{
	static const struct {
		const char *value;
		gint64 want;
	} cases[] = {
		{ "2", 2 },
		{ "2.0", 2 },
		{ "1e3", 1000 },
		{ "1_000", 1000 },
		{ "1_000.0", 1000 },
		{ "0x10", 16 },
		{ "0o17", 15 },
		{ "017", 15 },
		{ "0b101", 5 },
		{ "+5", 5 },
		{ "-0x8000000000000000", G_MININT64 },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		Loaded l = load_count(cases[i].value);
		K8sResourceClaim *c;

		print_message("# count: %s\n", cases[i].value);
		assert_true(l.ok);
		c = k8s_object_as_resource_claim(k8s_object_set_get(l.set, 0));
		assert_int_equal(c->spec.requests[0].exactly.count, cases[i].want);
		loaded_clear(&l);
	}
}

/* The shared readers the scenario decoder uses too. */
static void
test_numbers__parsers(void **state)
{
	gboolean neg;
	guint64 mag;
	double d;

	assert_true(k8s_yaml_parse_integer("18446744073709551615", &neg, &mag));
	assert_false(neg);
	assert_true(mag == G_MAXUINT64);
	assert_false(k8s_yaml_parse_integer("18446744073709551616", &neg, &mag));
	assert_false(k8s_yaml_parse_integer("0xFFFFFFFFFFFFFFFFFF", &neg, &mag));
	assert_false(k8s_yaml_parse_integer("--5", &neg, &mag));
	assert_false(k8s_yaml_parse_integer("1e3", &neg, &mag));
	assert_true(k8s_yaml_parse_integer("-0b11", &neg, &mag));
	assert_true(neg);
	assert_true(mag == 3);
	assert_true(k8s_yaml_parse_double("-.INF", &d) && isinf(d) && d < 0);
	assert_true(k8s_yaml_parse_double(".NAN", &d) && isnan(d));
	assert_false(k8s_yaml_parse_double("-.nan", &d)); /* not a YAML 1.1 float */
	assert_false(k8s_yaml_parse_double("inf", &d));   /* strtod's, not YAML's */
	assert_false(k8s_yaml_parse_double("0x1p3", &d));
	assert_false(k8s_yaml_parse_double("", &d));
	assert_true(k8s_yaml_parse_double("1_5.2_5e1", &d) && fabs(d - 152.5) < 1e-12);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers__rejected),
		cmocka_unit_test(test_numbers__accepted),
		cmocka_unit_test(test_numbers__parsers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
