/*
 * test_encode_kubectl.c: k8s_object_list_encode_kubectl() writes objects as
 * `kubectl get -o yaml` does: a `kind: List`, every mapping in go-yaml v2's key
 * order (digit runs compare as numbers, a non-letter before a letter) and strings
 * plain, single-quoted or double-quoted by kubectl's rules; the text decodes back to
 * an object that prints the same.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "k8s_objects.h"

static const char slice_yaml[] = "apiVersion: resource.k8s.io/v1\n"
                                 "kind: ResourceSlice\n"
                                 "metadata: {name: s}\n"
                                 "spec:\n"
                                 "  driver: example.com\n"
                                 "  pool: {name: p, generation: 1, resourceSliceCount: 1}\n"
                                 "  nodeName: n1\n"
                                 "  devices:\n"
                                 "  - name: d\n"
                                 "    attributes:\n"
                                 "      port10: {string: \"yes\"}\n"
                                 "      port2: {string: \"0000:10:1b.0\"}\n"
                                 "      aB: {string: \"x: y\"}\n"
                                 "      a_b: {string: \"- dash\"}\n"
                                 "      tab: {string: \"a\\tb\"}\n"
                                 "      ver: {version: 1.2.3}\n"
                                 "      count: {int: 7}\n"
                                 "    capacity:\n"
                                 "      slot10: {value: \"1\"}\n"
                                 "      slot2: {value: 64Gi}\n";

/*
 * Worked out by hand from go-yaml v2 (sorter.go keyList.Less, encode.go stringv):
 * - keys: a_b before aB ('_' is not a letter, 'B' is: non-letters first), then count,
 *   port2 before port10 (2 < 10 as numbers), tab, ver; slot2 before slot10; every
 *   struct's fields by name (devices, driver, nodeName, pool; generation, name, ...);
 * - "yes" and "1" would read back as a bool and a number: double quotes;
 *   "0000:10:1b.0" is no base-60 number (the b) and may be plain;
 *   "x: y" (": ") and "- dash" (leading "- ") may not be plain: single quotes;
 *   a tab is not printable: double quotes with the escape \t;
 * - quantities are strings in JSON: "1" quoted, 64Gi plain.
 */
static const char slice_want[] = "apiVersion: v1\n"
                                 "items:\n"
                                 "- apiVersion: resource.k8s.io/v1\n"
                                 "  kind: ResourceSlice\n"
                                 "  metadata:\n"
                                 "    name: s\n"
                                 "  spec:\n"
                                 "    devices:\n"
                                 "    - attributes:\n"
                                 "        a_b:\n"
                                 "          string: '- dash'\n"
                                 "        aB:\n"
                                 "          string: 'x: y'\n"
                                 "        count:\n"
                                 "          int: 7\n"
                                 "        port2:\n"
                                 "          string: 0000:10:1b.0\n"
                                 "        port10:\n"
                                 "          string: \"yes\"\n"
                                 "        tab:\n"
                                 "          string: \"a\\tb\"\n"
                                 "        ver:\n"
                                 "          version: 1.2.3\n"
                                 "      capacity:\n"
                                 "        slot2:\n"
                                 "          value: 64Gi\n"
                                 "        slot10:\n"
                                 "          value: \"1\"\n"
                                 "      name: d\n"
                                 "    driver: example.com\n"
                                 "    nodeName: n1\n"
                                 "    pool:\n"
                                 "      generation: 1\n"
                                 "      name: p\n"
                                 "      resourceSliceCount: 1\n"
                                 "kind: List\n"
                                 "metadata:\n"
                                 "  resourceVersion: \"\"\n";

static K8sObjectSet *
load(const char *text)
{
	K8sObjectSet *set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();

	if (!k8s_load_data("t.yaml", text, strlen(text), K8S_LOAD_DEFAULT, set, diags)) {
		fail_msg("load: %u diagnostics", k8s_diag_list_count(diags));
	}
	return set;
}

static void
test_encode_kubectl__order_and_quoting(void **state)
{
	g_autoptr(K8sObjectSet) set = load(slice_yaml);
	g_autoptr(K8sObjectSet) again = NULL;
	g_autoptr(GString) out = g_string_new(NULL);
	K8sObject *obj = k8s_object_set_get(set, 0);

	k8s_object_list_encode_kubectl(&obj, 1, out);
	assert_string_equal(out->str, slice_want);
	/* what kubectl shows decodes to an object kubectl shows the same way (equal up
	 * to the order of map entries, which k8s_object_equal() compares) */
	again = load(out->str);
	assert_int_equal(k8s_object_set_count(again), 1);
	obj = k8s_object_set_get(again, 0);
	g_string_truncate(out, 0);
	k8s_object_list_encode_kubectl(&obj, 1, out);
	assert_string_equal(out->str, slice_want);
}

/* No objects: kubectl's empty List. */
static void
test_encode_kubectl__empty_list(void **state)
{
	g_autoptr(GString) out = g_string_new(NULL);

	k8s_object_list_encode_kubectl(NULL, 0, out);
	assert_string_equal(out->str, "apiVersion: v1\n"
	                              "items: []\n"
	                              "kind: List\n"
	                              "metadata:\n"
	                              "  resourceVersion: \"\"\n");
}

/*
 * kubectl's output sorts keys with digit runs beyond int64 as go-yaml v2's keyList.Less: the run's
 * value is computed in int64 and wraps (fuzz-catalog found the overflow, undefined in C).
 * By hand: 9223372036854775808 = 2^63 wraps to -2^63; 18446744073709551617 = 2^64 + 1 wraps
 * to 1; 2 is 2. So x9223372036854775808 < x18446744073709551617 < x2.
 */
static void
test_encode_kubectl__digit_runs_wrap(void **state)
{
	static const char yaml[] =
	        "apiVersion: v1\nkind: Node\nmetadata:\n  name: node\n  labels:\n"
	        "    x2: a\n    x18446744073709551617: b\n"
	        "    x9223372036854775808: c\n";
	g_autoptr(K8sObjectSet) set = load(yaml);
	K8sObject *obj = k8s_object_set_get(set, 0);
	g_autoptr(GString) out = g_string_new(NULL);

	k8s_object_list_encode_kubectl(&obj, 1, out);
	const char *min = strstr(out->str, "x9223372036854775808:");
	const char *one = strstr(out->str, "x18446744073709551617:");
	const char *two = strstr(out->str, "x2:");
	assert_non_null(min);
	assert_non_null(one);
	assert_non_null(two);
	assert_true(min < one);
	assert_true(one < two);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_kubectl__order_and_quoting),
		cmocka_unit_test(test_encode_kubectl__empty_list),
		cmocka_unit_test(test_encode_kubectl__digit_runs_wrap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
