/*
 * test_strict.c: base's strict readers (base_strict.h). Every message below is
 * written out by hand from the rule it checks; the arithmetic of each
 * edit-distance case is in its comment.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "base_strict.h"

static const char *const scenario_keys[] = { "horizon", "seed", "modes", NULL };

/* Expects @ok FALSE and *@message equal to @want; frees and clears the message. */
static void
assert_rejected(gboolean ok, char **message, const char *want)
{
	if (ok || *message == NULL)
		fail_msg("accepted, expected the error: %s", want);
	assert_string_equal(*message, want);
	g_clear_pointer(message, g_free);
}

static void
test_closest__typos_within_the_limit(void **state)
{
	static const char *const long_keys[] = { "abcdefxyz", "abcdexyz", NULL };

	/* "horizn": one deletion from "horizon"; 6 characters allow 2 edits */
	assert_string_equal(base_strict_closest("horizn", scenario_keys), "horizon");
	/* "sede": one transposition (de/ed) from "seed"; 4 characters allow 1 */
	assert_string_equal(base_strict_closest("sede", scenario_keys), "seed");
	/* case does not count: distance 0 */
	assert_string_equal(base_strict_closest("HORIZON", scenario_keys), "horizon");
	/* 9 characters allow 3 edits: "abcdefghi" -> "abcdefxyz" is 3 substitutions */
	assert_string_equal(base_strict_closest("abcdefghi", long_keys), "abcdefxyz");
	/* 8 characters allow 2: "abcdefgh" is 3 from "abcdexyz" and 3 from "abcdefxyz"
	 * (2 substitutions + 1 insertion), so no suggestion */
	assert_null(base_strict_closest("abcdefgh", long_keys));
	/* "xyz" needs 4 edits to reach "seed" (3 substitutions + 1 insertion), the
	 * limit for 3 characters is 1 */
	assert_null(base_strict_closest("xyz", scenario_keys));
}

static void
test_unknown__one_message(void **state)
{
	static const char *const modes[] = { "dra", "extended", NULL };
	static const char *const commands[] = { "compare", "convert", "run", NULL };
	g_autofree char *near = base_strict_unknown("no such mode", "extnded", modes, "modes");
	g_autofree char *far = base_strict_unknown("no such mode", "dr-x", modes, "modes");
	g_autofree char *no_list =
	        base_strict_unknown("unknown command", "comapre", commands, NULL);
	g_autofree char *nothing = base_strict_unknown("unknown command", "zzz", commands, NULL);

	/* "extnded" is one insertion from "extended" (7 characters allow 2) */
	assert_string_equal(
	        near, "no such mode 'extnded'; did you mean 'extended'? modes: dra, extended");
	/* "dr-x" is 2 edits from "dra" (4 characters allow 1): the list alone */
	assert_string_equal(far, "no such mode 'dr-x'; modes: dra, extended");
	/* "comapre": one transposition (ap/pa) from "compare"; "convert" differs in 5
	 * places; without a label, no list */
	assert_string_equal(no_list, "unknown command 'comapre'; did you mean 'compare'?");
	assert_string_equal(nothing, "unknown command 'zzz'");
	/* "comp" is 3 insertions from "compare" (4 characters allow 1): none */
	assert_null(base_strict_closest_n("comp", commands, 3));
	/* the counted form reads only the first @n: "rnu" (transposition of "run") is not seen with
	 * n = 2 */
	assert_string_equal(base_strict_closest_n("rnu", commands, 3), "run");
	assert_null(base_strict_closest_n("rnu", commands, 2));
	/* a transposition ignores case like every other edit: "RNu" is 1 from "run" */
	assert_string_equal(base_strict_closest("RNu", commands), "run");
}

static void
test_key__both_hint_styles(void **state)
{
	static const char *const gpu_keys[] = { "id", "memory_mib", NULL };
	char *message = NULL;

	assert_true(base_strict_key("seed", scenario_keys, BASE_STRICT_HINT_CLOSEST, &message));
	assert_null(message);
	assert_rejected(
	        base_strict_key("horizn", scenario_keys, BASE_STRICT_HINT_CLOSEST, &message),
	        &message, "unknown field 'horizn'; did you mean 'horizon'?");
	assert_rejected(base_strict_key("zzz", scenario_keys, BASE_STRICT_HINT_CLOSEST, &message),
	                &message, "unknown field 'zzz'");
	assert_rejected(base_strict_key("memory_gb", gpu_keys, BASE_STRICT_HINT_LIST, &message),
	                &message, "unknown field \"memory_gb\" (expected one of: id, memory_mib)");
}

static void
test_uint__decimal_in_range(void **state)
{
	guint64 v = 0;
	char *message = NULL;

	assert_true(base_strict_uint("42", 100, &v, &message));
	assert_int_equal(v, 42);
	assert_true(base_strict_uint("100", 100, &v, &message)); /* the bound is inclusive */
	assert_int_equal(v, 100);
	assert_rejected(base_strict_uint("101", 100, &v, &message), &message,
	                "101 is too large (at most 100)");
	assert_rejected(base_strict_uint("-1", 100, &v, &message), &message,
	                "expected a non-negative integer, got -1");
	/* decimal only: a base prefix is not a number here */
	assert_rejected(base_strict_uint("0x10", 100, &v, &message), &message,
	                "expected an integer, got \"0x10\"");
	assert_rejected(base_strict_uint("", 100, &v, &message), &message,
	                "expected an integer, got \"\"");
	assert_int_equal(v, 100); /* untouched by the rejections */
}

static void
test_uint_range__parsed_integers(void **state)
{
	guint64 v = 99;
	char *message = NULL;

	assert_true(base_strict_uint_range(FALSE, 7, 10, "7", &v, &message));
	assert_int_equal(v, 7);
	assert_true(base_strict_uint_range(TRUE, 0, 10, "-0", &v, &message)); /* -0 is 0 */
	assert_int_equal(v, 0);
	assert_rejected(base_strict_uint_range(TRUE, 3, 10, "-3", &v, &message), &message,
	                "expected an integer in [0, 10], got -3");
	assert_rejected(base_strict_uint_range(FALSE, 11, 10, "0xb", &v, &message), &message,
	                "expected an integer in [0, 10], got 0xb");
}

static void
test_bool_number_count(void **state)
{
	gboolean b = FALSE;
	char *message = NULL;

	assert_true(base_strict_bool("true", &b, &message));
	assert_true(b);
	assert_true(base_strict_bool("false", &b, &message));
	assert_false(b);
	/* exactly true or false: YAML 1.1's yes/True are not accepted here */
	assert_rejected(base_strict_bool("yes", &b, &message), &message,
	                "expected true or false, got \"yes\"");
	assert_rejected(base_strict_bool("True", &b, &message), &message,
	                "expected true or false, got \"True\"");
	assert_true(base_strict_nonnegative(0.0, "0", &message));
	assert_rejected(base_strict_nonnegative(-0.5, "-0.5", &message), &message,
	                "expected a finite number >= 0, got -0.5");
	assert_rejected(base_strict_nonnegative(INFINITY, ".inf", &message), &message,
	                "expected a finite number >= 0, got .inf");
	assert_true(base_strict_count(8, 8, "starts", &message));
	assert_rejected(base_strict_count(9, 8, "starts", &message), &message, "at most 8 starts");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closest__typos_within_the_limit),
		cmocka_unit_test(test_unknown__one_message),
		cmocka_unit_test(test_key__both_hint_styles),
		cmocka_unit_test(test_uint__decimal_in_range),
		cmocka_unit_test(test_uint_range__parsed_integers),
		cmocka_unit_test(test_bool_number_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
