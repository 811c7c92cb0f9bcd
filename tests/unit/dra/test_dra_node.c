/*
 * test_dra_node.c: node-affinity matching and quantities.
 *
 * Node selectors follow k8s.io/component-helpers scheduling/corev1/nodeaffinity
 * (terms ORed, empty term matches nothing, Gt/Lt need one integer, matchFields
 * only In/NotIn with one value); quantities round up to milli like MilliValue.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "dra.h"

static const DraNode node = { "node-1", (const char *const[]){ "zone", "gpus" },
	                      (const char *const[]){ "a", "8" }, 2 };

static gboolean
match1(const char *key,
       const char *op,
       const char *const *values,
       guint n,
       gboolean field,
       gboolean *ok)
{
	DraNodeSelectorRequirement r = { key, op, values, n };
	DraNodeSelectorTerm t = { field ? NULL : &r, field ? 0 : 1, field ? &r : NULL,
		                  field ? 1 : 0 };
	DraNodeSelector s = { &t, 1 };
	gboolean m = FALSE;
	g_autofree char *err = NULL;
	*ok = dra_node_selector_matches(&s, &node, &m, &err);
	return m;
}

static void
test_operators(void **state)
{
	gboolean ok;
	assert_true(match1("zone", "In", (const char *const[]){ "a", "b" }, 2, FALSE, &ok) && ok);
	assert_false(match1("zone", "NotIn", (const char *const[]){ "a" }, 1, FALSE, &ok));
	assert_true(match1("missing", "NotIn", (const char *const[]){ "a" }, 1, FALSE, &ok));
	assert_true(match1("gpus", "Gt", (const char *const[]){ "4" }, 1, FALSE, &ok));
	assert_false(match1("gpus", "Lt", (const char *const[]){ "4" }, 1, FALSE, &ok));
	assert_true(match1("zone", "Exists", NULL, 0, FALSE, &ok));
	assert_true(match1("x", "DoesNotExist", NULL, 0, FALSE, &ok));
	assert_true(match1("metadata.name", "In", (const char *const[]){ "node-1" }, 1, TRUE, &ok));
	assert_false(
	        match1("metadata.name", "NotIn", (const char *const[]){ "node-1" }, 1, TRUE, &ok));
}

static void
test_parse_errors(void **state)
{
	gboolean ok = TRUE;
	match1("gpus", "Gt", (const char *const[]){ "x" }, 1, FALSE, &ok);
	assert_false(ok);
	match1("zone", "Like", (const char *const[]){ "a" }, 1, FALSE, &ok);
	assert_false(ok);
	match1("metadata.name", "In", (const char *const[]){ "a", "b" }, 2, TRUE, &ok);
	assert_false(ok);
	match1("zone", "In", NULL, 0, FALSE, &ok);
	assert_false(ok);
}

static void
test_empty_term(void **state)
{
	DraNodeSelectorTerm t = { NULL, 0, NULL, 0 };
	DraNodeSelector s = { &t, 1 };
	gboolean m = TRUE;
	char *err = NULL;
	assert_true(dra_node_selector_matches(&s, &node, &m, &err));
	assert_false(m);
}

static void
test_quantities(void **state)
{
	DraMilli v = 0;
	assert_true(dra_milli_parse("2", &v));
	assert_int_equal(v, 2000);
	assert_true(dra_milli_parse("1500m", &v));
	assert_int_equal(v, 1500);
	assert_true(dra_milli_parse("4Gi", &v));
	assert_int_equal(v, 4LL * 1024 * 1024 * 1024 * 1000);
	assert_true(dra_milli_parse("0.5k", &v));
	assert_int_equal(v, 500000);
	assert_true(dra_milli_parse("1n", &v));
	assert_int_equal(v, 1); /* rounds up */
	assert_true(dra_milli_parse("1e3", &v));
	assert_int_equal(v, 1000000);
	assert_false(dra_milli_parse("abc", &v));
	assert_false(dra_milli_parse("1Zi", &v));
	g_autofree char *a = dra_milli_format(4LL * 1024 * 1024 * 1024 * 1000);
	assert_string_equal(a, "4Gi");
	g_autofree char *b = dra_milli_format(1500);
	assert_string_equal(b, "1500m");
}

static void
test_features(void **state)
{
	DraFeatures f = dra_features_default();
	assert_true(f.prioritized_list);
	assert_true(f.admin_access);
	assert_true(f.device_status);
	assert_false(f.consumable_capacity);
	assert_true(dra_features_set(&f, "DRAConsumableCapacity", TRUE));
	assert_true(f.consumable_capacity);
	assert_false(dra_features_set(&f, "NoSuchGate", TRUE));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_operators),  cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_empty_term), cmocka_unit_test(test_quantities),
		cmocka_unit_test(test_features),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
