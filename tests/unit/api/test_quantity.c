/*
 * test_quantity.c: K8sQuantity against upstream's quantity_test.go tables.
 *
 * Expected values are facts from k8s.io/apimachinery/pkg/api/resource/quantity_test.go
 * (TestQuantityParse, TestQuantityString, TestQuantityParseEmit, TestQuantityCmp*,
 * TestNegativeValueRoundsAwayFromZero, TestAdd/TestSub/TestMul, ...), plus the forms that
 * matter to CEL (which form a parse lands in, hence isInteger()).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "k8s_quantity.h"

#define DSI K8S_QUANTITY_DECIMAL_SI
#define BSI K8S_QUANTITY_BINARY_SI
#define DEX K8S_QUANTITY_DECIMAL_EXPONENT

static K8sQuantity
parse_ok(const char *text)
{
	g_autoptr(GError) error = NULL;
	K8sQuantity q;

	if (!k8s_quantity_parse(text, -1, &q, &error)) {
		fail_msg("%s: unexpected error: %s", text, error->message);
	}
	return q;
}

static K8sQuantity
make(gint64 value, gint32 scale, K8sQuantityFormat format)
{
	K8sQuantity q = k8s_quantity_from_scaled(value, scale);

	q.format = format;
	return q;
}

static void
assert_string(const K8sQuantity *q, const char *expect, const char *what)
{
	char buf[K8S_QUANTITY_STRING_MAX];

	k8s_quantity_to_string(q, buf);
	if (strcmp(buf, expect) != 0) {
		fail_msg("%s: expected \"%s\", got \"%s\"", what, expect, buf);
	}
}

/* ---- parse: canonical string, format, form ------------------------------------------- */

typedef struct {
	const char *in;
	const char *canonical;
	K8sQuantityFormat format;
	gboolean slow;     /* lands in the inf.Dec form (AsInt64 fails) */
	gboolean is_input; /* upstream's String() returns the input itself */
} ParseCase;

static const ParseCase parse_cases[] = {
	{ "0", "0", DSI, FALSE, TRUE },
	{ "0n", "0", DSI, FALSE, FALSE },
	{ "0Ki", "0", BSI, FALSE, FALSE },
	{ "0Ti", "0", BSI, FALSE, FALSE },
	{ "1", "1", DSI, FALSE, TRUE },
	{ "1Ki", "1Ki", BSI, FALSE, TRUE },
	{ "8Ki", "8Ki", BSI, FALSE, FALSE },
	{ "7Mi", "7Mi", BSI, FALSE, TRUE },
	{ "6Gi", "6Gi", BSI, FALSE, TRUE },
	{ "5Ti", "5Ti", BSI, FALSE, TRUE },
	{ "4Pi", "4Pi", BSI, TRUE, FALSE }, /* 2^50 has too few spare digits: inf.Dec */
	{ "3Ei", "3Ei", BSI, TRUE, FALSE },
	{ "100Ti", "100Ti", BSI, TRUE, FALSE },
	{ "1024Mi", "1Gi", BSI, FALSE, FALSE },
	{ "1025Ki", "1025Ki", BSI, FALSE, TRUE },
	{ "5n", "5n", DSI, FALSE, TRUE },
	{ "4u", "4u", DSI, FALSE, TRUE },
	{ "3m", "3m", DSI, FALSE, TRUE },
	{ "50k", "50k", DSI, FALSE, TRUE },
	{ "1000M", "1G", DSI, FALSE, FALSE },
	{ "40T", "40T", DSI, FALSE, TRUE },
	{ "300T", "300T", DSI, FALSE, TRUE },
	{ "1E", "1E", DSI, FALSE, TRUE },
	{ "12E", "12E", DSI, FALSE, TRUE },
	{ "1000E", "1e21", DSI, FALSE, FALSE }, /* no DecimalSI suffix past E */
	{ "1E-3", "1e-3", DEX, FALSE, TRUE },
	{ "1e3", "1e3", DEX, FALSE, TRUE },
	{ "1E3", "1e3", DEX, FALSE, TRUE }, /* String() would say "1E3" */
	{ "1e14", "100e12", DEX, FALSE, FALSE },
	{ "1.3E+6", "1300e3", DEX, FALSE, FALSE },
	{ "0.5e-9", "1e-9", DEX, TRUE, FALSE },
	{ "1.1E-9", "2e-9", DEX, TRUE, FALSE },
	{ "100.035k", "100035", DSI, FALSE, TRUE },
	{ "10.035M", "10035k", DSI, FALSE, TRUE },
	{ "1.01E", "1010P", DSI, FALSE, FALSE },
	{ "0.001", "1m", DSI, FALSE, FALSE },
	{ "0.5", "500m", DSI, FALSE, FALSE },
	{ "1.5", "1500m", DSI, FALSE, FALSE },
	{ "-1.5", "-1500m", DSI, FALSE, FALSE },
	{ "1000m", "1", DSI, FALSE, FALSE },
	{ "1500m", "1500m", DSI, FALSE, TRUE },
	{ "0.1m", "100u", DSI, FALSE, FALSE },
	{ "3.001n", "4n", DSI, TRUE, FALSE },
	{ "0.0000000001", "1n", DSI, TRUE, FALSE },
	{ "0.00000012345", "124n", DSI, TRUE, FALSE },
	{ "1.5Gi", "1536Mi", BSI, TRUE, FALSE },
	{ "0.5Gi", "512Mi", BSI, TRUE, FALSE },
	{ "0.5Mi", "512Ki", BSI, TRUE, FALSE },
	{ "1.5Ki", "1536", BSI, TRUE, FALSE },
	{ "0.025Ti", "27487790694400m", BSI, TRUE, FALSE },
	{ "100.035Ki", "102435840m", BSI, TRUE, FALSE },
	{ ".001Ki", "1024m", BSI, TRUE, FALSE }, /* 1.024 >= 1 */
	{ ".000001Ki", "1024u", DSI, TRUE, FALSE },
	{ ".000000001Ki", "1024n", DSI, TRUE, FALSE },
	{ ".000000000001Ki", "2n", DSI, TRUE, FALSE },      /* rounds up, changes format */
	{ "9Ei", "9223372036854775807", BSI, TRUE, FALSE }, /* capped at 2^63-1 */
	{ "9223372036854775807Ki", "9223372036854775807", BSI, TRUE, FALSE },
	{ "100000000000000000000", "100E", DSI, TRUE, FALSE },
	{ "123456789012345678901234567890", "123456789012345678901234567890", DSI, TRUE, FALSE },
	{ "-100000000000000000001", "-100000000000000000001", DSI, TRUE, FALSE },
	{ "1e4000", "10e3999", DEX, FALSE, FALSE },
	{ "-.484785E-7466", "-1e-9", DEX, TRUE, FALSE },
	{ ".001", "1m", DSI, FALSE, FALSE },
	{ ".0001k", "100m", DSI, FALSE, FALSE },
	{ "1.", "1", DSI, FALSE, TRUE }, /* String() would say "1." */
	{ "1.G", "1G", DSI, FALSE, TRUE },
	{ "+1", "1", DSI, FALSE, TRUE },
	{ "01", "1", DSI, FALSE, TRUE },
	{ "-", "0", DSI, FALSE, FALSE },
	{ "-1Ki", "-1Ki", BSI, FALSE, TRUE },
	{ "-100m", "-100m", DSI, FALSE, TRUE },
	{ "1Ei", "1Ei", BSI, TRUE, FALSE },
	{ "0.5Ki", "512", BSI, TRUE, FALSE },
};

static void
test_parse_table(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(parse_cases); i++) {
		const ParseCase *c = &parse_cases[i];
		K8sQuantity q = parse_ok(c->in);
		gint64 ignored;

		assert_string(&q, c->canonical, c->in);
		if (k8s_quantity_get_format(&q) != c->format) {
			fail_msg("%s: format %d, expected %d", c->in, k8s_quantity_get_format(&q),
			         c->format);
		}
		if (k8s_quantity_is_slow(&q) != c->slow) {
			fail_msg("%s: slow form %d, expected %d", c->in, k8s_quantity_is_slow(&q),
			         c->slow);
		}
		if (c->slow && k8s_quantity_as_int64(&q, &ignored)) {
			fail_msg("%s: AsInt64 must fail on the inf.Dec form", c->in);
		}
		if (k8s_quantity_string_is_input(&q) != c->is_input) {
			fail_msg("%s: string_is_input %d, expected %d", c->in,
			         k8s_quantity_string_is_input(&q), c->is_input);
		}
		/* the canonical text parses back to the same value */
		K8sQuantity back = parse_ok(c->canonical);
		if (k8s_quantity_cmp(&q, &back) != 0) {
			fail_msg("%s: canonical %s does not round-trip", c->in, c->canonical);
		}
	}
}

/* Negating the input negates the value and keeps the format (TestQuantityParse). */
static void
test_parse_signs(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(parse_cases); i++) {
		const ParseCase *c = &parse_cases[i];
		if (c->in[0] == '-' || c->in[0] == '+') {
			continue;
		}
		g_autofree char *neg = g_strconcat("-", c->in, NULL);
		g_autofree char *pos = g_strconcat("+", c->in, NULL);
		K8sQuantity q = parse_ok(c->in), n = parse_ok(neg), p = parse_ok(pos);

		k8s_quantity_neg(&q);
		assert_int_equal(k8s_quantity_cmp(&q, &n), 0);
		assert_int_equal(k8s_quantity_get_format(&n), c->format);
		k8s_quantity_neg(&q);
		assert_int_equal(k8s_quantity_cmp(&q, &p), 0);
	}
}

typedef struct {
	const char *in;
	K8sQuantityErrorCode code;
} BadCase;

static const BadCase bad_cases[] = {
	{ "", K8S_QUANTITY_ERROR_FORMAT },
	{ "1.1.M", K8S_QUANTITY_ERROR_FORMAT },
	{ "1+1.0M", K8S_QUANTITY_ERROR_FORMAT },
	{ "0.1mi", K8S_QUANTITY_ERROR_SUFFIX },
	{ "0.1am", K8S_QUANTITY_ERROR_FORMAT },
	{ "aoeu", K8S_QUANTITY_ERROR_FORMAT },
	{ ".5i", K8S_QUANTITY_ERROR_SUFFIX },
	{ "1i", K8S_QUANTITY_ERROR_SUFFIX },
	{ "-3.01i", K8S_QUANTITY_ERROR_SUFFIX },
	{ "-3.01e-", K8S_QUANTITY_ERROR_SUFFIX },
	{ "1e4294967297", K8S_QUANTITY_ERROR_SUFFIX },
	{ "1E2147483648", K8S_QUANTITY_ERROR_SUFFIX },
	{ " 1", K8S_QUANTITY_ERROR_FORMAT },
	{ "1 ", K8S_QUANTITY_ERROR_FORMAT },
	{ "1gi", K8S_QUANTITY_ERROR_FORMAT },
	{ "1KiB", K8S_QUANTITY_ERROR_FORMAT },
	{ "9999999999999999999", K8S_QUANTITY_ERROR_NUMERIC }, /* strconv range error */
	{ ".e-20", K8S_QUANTITY_ERROR_NUMERIC },               /* inf.Dec: no digits */
	{ "1234567890123456789012345678901234567891", K8S_QUANTITY_ERROR_LIMIT },
};

static void
test_parse_errors(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		g_autoptr(GError) error = NULL;
		K8sQuantity q;

		if (k8s_quantity_parse(bad_cases[i].in, -1, &q, &error)) {
			fail_msg("\"%s\" parsed unexpectedly", bad_cases[i].in);
		}
		if (!g_error_matches(error, K8S_QUANTITY_ERROR, (gint)bad_cases[i].code)) {
			fail_msg("\"%s\": error %d (%s), expected %d", bad_cases[i].in, error->code,
			         error->message, bad_cases[i].code);
		}
		assert_true(k8s_quantity_is_zero(&q));
	}
}

static void
test_parse_messages(void **state)
{
	g_autoptr(GError) e1 = NULL;
	g_autoptr(GError) e2 = NULL;
	K8sQuantity q;

	assert_false(k8s_quantity_parse("aoeu", -1, &q, &e1));
	assert_string_equal(e1->message, "quantities must match the regular expression "
	                                 "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
	assert_false(k8s_quantity_parse("1i", -1, &q, &e2));
	assert_string_equal(e2->message, "unable to parse quantity's suffix");
}

static void
test_parse_json_trims(void **state)
{
	static const char *const ins[] = { " 1", "1 ", "\t1\n",
		                           "\xc2\xa0"
		                           "1\xe2\x80\x83" };
	for (guint i = 0; i < G_N_ELEMENTS(ins); i++) {
		K8sQuantity q;
		assert_true(k8s_quantity_parse_json(ins[i], -1, &q, NULL));
		assert_string(&q, "1", ins[i]);
	}
	K8sQuantity q;
	assert_false(k8s_quantity_parse_json("1\xe9", -1, &q, NULL)); /* invalid UTF-8 */
}

/* ---- String() of constructed quantities (TestQuantityString) ------------------------- */

typedef struct {
	gint64 value;
	gint32 scale;
	K8sQuantityFormat format;
	const char *expect;
} StringCase;

static const StringCase string_cases[] = {
	{ 1024 * 1024 * 1024, 0, BSI, "1Gi" },
	{ 300 * 1024 * 1024, 0, BSI, "300Mi" },
	{ 6 * 1024, 0, BSI, "6Ki" },
	{ 1001LL * 1024 * 1024 * 1024, 0, BSI, "1001Gi" },
	{ 1024LL * 1024 * 1024 * 1024, 0, BSI, "1Ti" },
	{ 5, 0, BSI, "5" },
	{ 500, -3, BSI, "500m" },
	{ 1, 9, DSI, "1G" },
	{ 1000, 6, DSI, "1G" },
	{ 1000000000, 0, DSI, "1G" },
	{ 1, -3, DSI, "1m" },
	{ 1080, -3, DSI, "1080m" },
	{ 108, -2, DSI, "1080m" },
	{ 10800, -4, DSI, "1080m" },
	{ 1, 21, DSI, "1e21" },
	{ 5, 21, DSI, "5e21" },
	{ 1, 24, DSI, "1e24" },
	{ 1, -12, DSI, "1e-12" },
	{ 1, -10, DSI, "100e-12" },
	{ 1234567, -3, BSI, "1234567m" },
	{ 1025, 0, BSI, "1025" },
	{ 2000, 0, BSI, "2000" },
	{ -2000, 0, BSI, "-2000" },
	{ 0, 0, BSI, "0" },
	{ 1, 9, DEX, "1e9" },
	{ 1, -3, DEX, "1e-3" },
	{ 80, -3, DEX, "80e-3" },
	{ 300, 6, DEX, "300e6" },
	{ 0, 0, DEX, "0" },
	{ 1080, -9, DSI, "1080n" },
	{ 108, -8, DSI, "1080n" },
	{ 80, -6, DSI, "80u" },
	{ 1, 70, BSI, "10e69" }, /* past Ei: exact decimal */
	{ 1, 72, BSI, "1e72" },
	{ 901, -2, DSI, "9010m" },
};

static void
test_string_table(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(string_cases); i++) {
		const StringCase *c = &string_cases[i];
		K8sQuantity q = make(c->value, c->scale, c->format);
		char what[64];

		g_snprintf(what, sizeof(what), "%" G_GINT64_FORMAT "e%d/%d", c->value, c->scale,
		           c->format);
		assert_string(&q, c->expect, what);
		if (c->value != 0 && c->value != -2000) {
			g_autofree char *neg = g_strconcat("-", c->expect, NULL);
			k8s_quantity_neg(&q);
			assert_string(&q, neg, what);
		}
	}
}

static void
test_string_past_ei(void **state)
{
	K8sQuantity q = parse_ok("1Ei");
	gboolean overflow;

	k8s_quantity_mul(&q, 1024, &overflow); /* 2^70 */
	assert_false(overflow);
	assert_string(&q, "1180591620717411303424", "2^70");
}

/* ---- comparison ---------------------------------------------------------------------- */

typedef struct {
	const char *a, *b;
	int cmp;
} CmpCase;

static const CmpCase cmp_cases[] = {
	{ "0", "0", 0 },
	{ "100m", "50m", 1 },
	{ "50m", "100m", -1 },
	{ "10000T", "100Gi", 1 },
	{ "1Ki", "1024", 0 },
	{ "1.5Gi", "1536Mi", 0 },
	{ "40Gi", "40G", 1 },
	{ "80Gi", "40Gi", 1 },
	{ "1e4000", "1", 1 },
	{ "-1e4000", "1e-4000", -1 },
	{ "1e-4000", "1n", 0 },
	{ "9Ei", "9223372036854775807", 0 },
	{ "100000000000000000001", "100000000000000000000", 1 },
	{ "1e2147483647", "1e2147483646", 1 },
	{ "-1Pi", "-1125899906842624", 0 },
	{ "0.000000001", "1n", 0 },
};

static void
test_cmp_table(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(cmp_cases); i++) {
		K8sQuantity a = parse_ok(cmp_cases[i].a), b = parse_ok(cmp_cases[i].b);
		int got = k8s_quantity_cmp(&a, &b), inv = k8s_quantity_cmp(&b, &a);

		if (got != cmp_cases[i].cmp || inv != -cmp_cases[i].cmp) {
			fail_msg("cmp(%s, %s) = %d/%d, expected %d", cmp_cases[i].a, cmp_cases[i].b,
			         got, inv, cmp_cases[i].cmp);
		}
	}
}

typedef struct {
	gint64 av;
	gint32 as;
	gint64 bv;
	gint32 bs;
	int cmp;
} CmpIntCase;

/* TestQuantityCmpInt64AndDec */
static const CmpIntCase cmp_int_cases[] = {
	{ 901, -2, 901, -2, 0 },
	{ 90, -1, 901, -2, -1 },
	{ 901, -2, 900, -2, 1 },
	{ 0, 1, 0, -1, 0 },
	{ 800, -3, 1, 0, -1 },
	{ 800, -3, 79, -2, 1 },
	{ G_MAXINT64, 0, 1, -1, 1 },
	{ G_MAXINT64, 1, 1, 0, 1 },
	{ G_MAXINT64, 1, 1, 1, 1 },
	{ G_MAXINT64, -16, 1, 3, -1 },
	{ G_MININT64, 0, 0, 0, -1 },
	{ G_MININT64, -18, -1, 0, -1 },
	{ G_MININT64, -19, -1, 0, 1 },
	{ 1000000000000000000LL, -17, 1, 1, 0 },
	{ 1000000000000000000LL, -17, -10, 0, 1 },
	{ -1000000000000000000LL, -17, -10, 0, 0 },
	{ 1000000000000000001LL, -17, 1, 1, 1 },
	{ 999999999999999999LL, -17, 1, 1, -1 },
};

static void
test_cmp_int_table(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(cmp_int_cases); i++) {
		const CmpIntCase *c = &cmp_int_cases[i];
		K8sQuantity a = make(c->av, c->as, DSI), b = make(c->bv, c->bs, DSI);

		if (k8s_quantity_cmp(&a, &b) != c->cmp || k8s_quantity_cmp(&b, &a) != -c->cmp) {
			fail_msg("case %u: cmp = %d, expected %d", i, k8s_quantity_cmp(&a, &b),
			         c->cmp);
		}
	}
	K8sQuantity q = parse_ok("1500m");
	assert_int_equal(k8s_quantity_cmp_int64(&q, 1), 1);
	assert_int_equal(k8s_quantity_cmp_int64(&q, 2), -1);
	assert_int_equal(k8s_quantity_sign(&q), 1);
}

/* ---- integer views ------------------------------------------------------------------- */

typedef struct {
	const char *in;
	gboolean ok;
	gint64 value;
} Int64Case;

static const Int64Case int64_cases[] = {
	{ "1Ki", TRUE, 1024 },
	{ "1Ti", TRUE, 1099511627776LL },
	{ "1Pi", FALSE, 0 }, /* inf.Dec form */
	{ "1.5Gi", FALSE, 0 },
	{ "1k", TRUE, 1000 },
	{ "1000m", FALSE, 0 }, /* negative scale */
	{ "1e18", TRUE, 1000000000000000000LL },
	{ "10e18", FALSE, 0 }, /* overflows int64 */
	{ "-5", TRUE, -5 },
	{ "0", TRUE, 0 },
	{ "9223372036854775807", TRUE, G_MAXINT64 },
};

static void
test_as_int64(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(int64_cases); i++) {
		K8sQuantity q = parse_ok(int64_cases[i].in);
		gint64 v = 42;
		gboolean ok = k8s_quantity_as_int64(&q, &v);

		if (ok != int64_cases[i].ok || v != int64_cases[i].value) {
			fail_msg("%s: AsInt64 = %" G_GINT64_FORMAT "/%d", int64_cases[i].in, v, ok);
		}
	}
}

typedef struct {
	const char *in;
	gint64 value, milli;
} ValueCase;

/* TestNegativeValueRoundsAwayFromZero */
static const ValueCase value_cases[] = {
	{ "-.484785E-7466", -1, -1 },
	{ ".484785E-7466", 1, 1 },
	{ "-.484785E-1", -1, -49 },
	{ ".484785E-1", 1, 49 },
	{ "-0.0005", -1, -1 },
	{ "0.0005", 1, 1 },
	{ "-1500m", -2, -1500 },
	{ "1500m", 2, 1500 },
	{ "-9.5000000001Gi", -10200547329LL, -10200547328108LL },
	{ "9.5000000001Gi", 10200547329LL, 10200547328108LL },
	{ "-1", -1, -1000 },
	{ "1", 1, 1000 },
	{ "0", 0, 0 },
	{ "1e30", G_MAXINT64, G_MAXINT64 }, /* saturates */
	{ "100000000000000000000", G_MAXINT64, G_MAXINT64 },
};

static void
test_value_rounding(void **state)
{
	for (guint i = 0; i < G_N_ELEMENTS(value_cases); i++) {
		K8sQuantity q = parse_ok(value_cases[i].in);
		gint64 v = k8s_quantity_value(&q), m = k8s_quantity_milli_value(&q);

		if (v != value_cases[i].value || m != value_cases[i].milli) {
			fail_msg("%s: Value %" G_GINT64_FORMAT " MilliValue %" G_GINT64_FORMAT,
			         value_cases[i].in, v, m);
		}
	}
}

/* TestScaledValue: NewScaledQuantity(1, from).ScaledValue(to) */
static void
test_scaled_value(void **state)
{
	static const struct {
		gint32 from, to;
		gint64 expect;
	} cases[] = {
		{ -9, -9, 1 },         { -9, -6, 1 },      { -9, -3, 1 },   { -9, 0, 1 },
		{ -6, -9, 1000 },      { -6, -6, 1 },      { -6, -3, 1 },   { -6, 0, 1 },
		{ -3, -9, 1000000 },   { -3, -6, 1000 },   { -3, -3, 1 },   { -3, 0, 1 },
		{ 0, -9, 1000000000 }, { 0, -6, 1000000 }, { 0, -3, 1000 }, { 0, 0, 1 },
		{ 2, -2, 10000 },
	};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		K8sQuantity q = k8s_quantity_from_scaled(1, cases[i].from);
		assert_int_equal(k8s_quantity_scaled_value(&q, cases[i].to), cases[i].expect);
	}
}

/* ---- floats -------------------------------------------------------------------------- */

static void
assert_float_bits(double got, double expect, const char *what)
{
	if (memcmp(&got, &expect, sizeof(double)) != 0) {
		fail_msg("%s: expected %.17g, got %.17g", what, expect, got);
	}
}

static void
test_approximate_float(void **state)
{
	static const struct {
		const char *in;
		double out;
	} parsed[] = {
		{ "2Ki", 2048 },
		{ "1.1Ki", 1126.4e+0 },
		{ "1Mi", 1.048576e+06 },
		{ "2Gi", 2.147483648e+09 },
		{ "0", 0 },
		{ "9Ei", 9223372036854775807.0 },
	};
	for (guint i = 0; i < G_N_ELEMENTS(parsed); i++) {
		K8sQuantity q = parse_ok(parsed[i].in);
		assert_float_bits(k8s_quantity_as_approximate_float64(&q), parsed[i].out,
		                  parsed[i].in);
	}
	K8sQuantity q = make(7 * 1024 * 1024, -1, DSI);
	/* '* Pow10' and '/ 10' do not round the same way; upstream multiplies */
	assert_float_bits(k8s_quantity_as_approximate_float64(&q), (7 * 1024 * 1024) * 1e-1,
	                  "7Mi*10^-1");
	q = make(7 * 1024 * 1024, 8, BSI);
	assert_float_bits(k8s_quantity_as_approximate_float64(&q), 7340032.0 * 100000000.0,
	                  "7Mi*10^8");
	q = make(12, 18, DSI);
	assert_float_bits(k8s_quantity_as_approximate_float64(&q), 1.2e19, "12e18");
	q = make(12, 500, DSI);
	assert_true(isinf(k8s_quantity_as_approximate_float64(&q)));
	q = make(-12, 500, DSI);
	assert_true(k8s_quantity_as_approximate_float64(&q) < 0);
	q = make(0, 500, DSI);
	assert_float_bits(k8s_quantity_as_approximate_float64(&q), 0.0, "0e500");
}

/* ---- arithmetic ---------------------------------------------------------------------- */

static void
test_add_sub(void **state)
{
	static const struct {
		gint64 av;
		gint32 as;
		K8sQuantityFormat af;
		gint64 bv;
		gint32 bs;
		K8sQuantityFormat bf;
		gint64 sum, diff; /* at scale 0 */
		K8sQuantityFormat format;
	} cases[] = {
		/* TestAdd / TestSub */
		{ 10, 0, DSI, 1, 1, DSI, 20, 0, DSI },  { 10, 0, DSI, 1, 0, BSI, 11, 9, DSI },
		{ 10, 0, BSI, 1, 0, DSI, 11, 9, BSI },  { 0, 0, DSI, 50, 0, DSI, 50, -50, DSI },
		{ 50, 0, DSI, 0, 0, DSI, 50, 50, DSI }, { 0, 0, DSI, 0, 0, DSI, 0, 0, DSI },
	};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		K8sQuantity a = make(cases[i].av, cases[i].as, cases[i].af);
		K8sQuantity b = make(cases[i].bv, cases[i].bs, cases[i].bf);
		K8sQuantity s = a, d = a;

		assert_true(k8s_quantity_add(&s, &b));
		assert_true(k8s_quantity_sub(&d, &b));
		assert_int_equal(k8s_quantity_value(&s), cases[i].sum);
		assert_int_equal(k8s_quantity_value(&d), cases[i].diff);
		assert_int_equal(k8s_quantity_get_format(&s), cases[i].format);
	}

	/* a zero takes the other's suffix either way (TestQuantityAddZeroPreservesSuffix) */
	static const char *const keep[] = { "100m", "1Gi" };
	for (guint i = 0; i < G_N_ELEMENTS(keep); i++) {
		K8sQuantity zero = parse_ok("0"), v = parse_ok(keep[i]), v1 = v, v2 = zero;
		assert_true(k8s_quantity_add(&v1, &zero));
		assert_true(k8s_quantity_add(&v2, &v));
		assert_string(&v1, keep[i], "v+0");
		assert_string(&v2, keep[i], "0+v");
		g_autofree char *neg = g_strconcat("-", keep[i], NULL);
		K8sQuantity v3 = zero;
		assert_true(k8s_quantity_sub(&v3, &v));
		assert_string(&v3, neg, "0-v");
	}

	K8sQuantity a = parse_ok("1.5Gi"), b = parse_ok("512Mi");
	assert_true(k8s_quantity_add(&a, &b));
	assert_string(&a, "2Gi", "1.5Gi+512Mi");
	assert_false(k8s_quantity_string_is_input(&a));
	a = parse_ok("1e4000");
	b = parse_ok("1");
	assert_false(k8s_quantity_add(&a, &b)); /* not exact in 38 digits: refused */
	assert_string(&a, "10e3999", "unchanged");
}

static void
test_most_negative(void **state)
{
	K8sQuantity q = make(G_MININT64, 0, DSI), zero = make(0, 0, DSI), one = make(1, 0, DSI);
	K8sQuantity min = make(G_MININT64, 0, DSI);
	gint64 v;

	k8s_quantity_neg(&q);
	assert_false(k8s_quantity_as_int64(&q, &v));
	assert_int_equal(k8s_quantity_sign(&q), 1);
	assert_string(&q, "9223372036854775808", "-MIN");

	assert_true(k8s_quantity_sub(&zero, &min));
	assert_string(&zero, "9223372036854775808", "0-MIN");
	assert_true(k8s_quantity_sub(&one, &min));
	assert_string(&one, "9223372036854775809", "1-MIN");

	q = make(G_MININT64, -3, DSI);
	k8s_quantity_neg(&q);
	assert_string(&q, "9223372036854775808m", "-MIN m");

	q = make(1, 1, DSI);
	assert_true(k8s_quantity_sub(&q, &min));
	assert_string(&q, "9223372036854775818", "10-MIN");

	zero = make(0, 0, DSI);
	min.format = BSI;
	assert_true(k8s_quantity_sub(&zero, &min));
	assert_int_equal(k8s_quantity_get_format(&zero), BSI);
	assert_string(&zero, "8Ei", "0-MIN binary");

	q = make(G_MININT64 + 1, 0, DSI);
	k8s_quantity_neg(&q);
	assert_true(k8s_quantity_as_int64(&q, &v));
	assert_int_equal(v, G_MAXINT64);
}

static void
test_mul(void **state)
{
	static const struct {
		gint64 v, y;
		gboolean ok;
		const char *expect;
	} cases[] = {
		{ 10, 10, TRUE, "100" },
		{ 10, -10, TRUE, "-100" },
		{ -50, -50, TRUE, "2500" },
		{ 50, 0, TRUE, "0" },
		{ G_MAXINT64, -1, TRUE, "-9223372036854775807" },
		{ G_MAXINT64 / 2, 2, TRUE, "9223372036854775806" },
		{ G_MAXINT64, 2, FALSE, "18446744073709551614" },
		{ G_MAXINT64, 10, FALSE, "92233720368547758070" },
		{ G_MININT64, 1, TRUE, "-9223372036854775808" },
		{ G_MININT64, -1, FALSE, "9223372036854775808" },
		{ G_MININT64 / 2, 2, TRUE, "-9223372036854775808" },
	};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		K8sQuantity q = make(cases[i].v, 0, DSI);
		gboolean overflow;
		gboolean ok = k8s_quantity_mul(&q, cases[i].y, &overflow);

		assert_false(overflow);
		if (ok != cases[i].ok) {
			fail_msg("case %u: ok %d", i, ok);
		}
		assert_string(&q, cases[i].expect, "mul");
	}
}

static void
test_round_up(void **state)
{
	static const struct {
		const char *in;
		gint32 scale;
		const char *expect;
		gboolean exact;
	} cases[] = {
		{ "9.01", -3, "9010m", TRUE },    { "9.01", -2, "9010m", TRUE },
		{ "9.01", -1, "9100m", FALSE },   { "9.01", 0, "10", FALSE },
		{ "9.01", 1, "10", FALSE },       { "9.01", 2, "100", FALSE },
		{ "-9.01", -1, "-9100m", FALSE }, { "-9.01", 0, "-10", FALSE },
		{ "-9.01", 2, "-100", FALSE },    { "1.5Gi", 0, "1536Mi", TRUE },
	};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		K8sQuantity q = parse_ok(cases[i].in);
		gboolean exact = k8s_quantity_round_up(&q, cases[i].scale);
		assert_int_equal(exact, cases[i].exact);
		assert_string(&q, cases[i].expect, cases[i].in);
	}
}

static void
test_constructors(void **state)
{
	K8sQuantity q;

	/* TestMilliNewSet / TestNewSet */
	q = k8s_quantity_from_milli(1, DSI);
	assert_string(&q, "1m", "milli 1");
	q = k8s_quantity_from_milli(1234000, DSI);
	assert_string(&q, "1234", "milli 1234000");
	q = k8s_quantity_from_milli(1024, BSI);
	assert_string(&q, "1024m", "milli 1024 binary");
	q = k8s_quantity_from_int64(1024 * 1024, BSI);
	assert_string(&q, "1Mi", "1Mi");
	q = k8s_quantity_from_int64(1234000, DSI);
	assert_string(&q, "1234k", "1234k");
	q = k8s_quantity_from_scaled(1000, K8S_QUANTITY_NANO);
	assert_string(&q, "1u", "1000n");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_table),       cmocka_unit_test(test_parse_signs),
		cmocka_unit_test(test_parse_errors),      cmocka_unit_test(test_parse_messages),
		cmocka_unit_test(test_parse_json_trims),  cmocka_unit_test(test_string_table),
		cmocka_unit_test(test_string_past_ei),    cmocka_unit_test(test_cmp_table),
		cmocka_unit_test(test_cmp_int_table),     cmocka_unit_test(test_as_int64),
		cmocka_unit_test(test_value_rounding),    cmocka_unit_test(test_scaled_value),
		cmocka_unit_test(test_approximate_float), cmocka_unit_test(test_add_sub),
		cmocka_unit_test(test_most_negative),     cmocka_unit_test(test_mul),
		cmocka_unit_test(test_round_up),          cmocka_unit_test(test_constructors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
