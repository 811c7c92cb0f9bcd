/*
 * test_k8s_libs.c: the Kubernetes CEL libraries through the CEL engine.
 *
 * Each row is an expression that must evaluate to true (so a wrong result, an error or a
 * compile failure all fail the row), or an expression whose evaluation must fail with a
 * message containing the given text. Expected values follow the upstream library tests
 * (the k8s.io/apiserver/pkg/cel/library tests) and Go's net/url and regexp behaviour.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cel_k8s.h"

static CelEnv *
k8s_env(void)
{
	static CelEnv *env;
	if (env == NULL) {
		CelK8sEnvOptions o = { TRUE, TRUE, TRUE, 1, 0 };
		env = cel_k8s_env_new(&o);
	}
	return env;
}

/* Evaluates @expr; returns the value (print form in @out), or NULL text on compile error. */
static CelValue
eval(const char *expr, GString *out, CelActivation **act_out)
{
	g_autoptr(GError) error = NULL;
	CelProgram *prog = cel_program_compile(k8s_env(), expr, &error);
	if (prog == NULL) {
		g_string_printf(out, "compile error: %s", error->message);
		return cel_value_error("compile error");
	}
	CelActivation *act = cel_activation_new(k8s_env());
	CelValue v = cel_program_eval(prog, act);
	cel_value_print(out, v);
	cel_program_free(prog);
	*act_out = act;
	return v;
}

static const char *const true_exprs[] = {
	/* lists */
	"[1, 2, 3].isSorted() && ![3, 1].isSorted() && ['a', 'b'].isSorted()",
	"[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0 && [1u, 2u].sum() == 3u",
	"[].sum() == 0",
	"[3, 1, 2].min() == 1 && [3, 1, 2].max() == 3 && ['b', 'a'].min() == 'a'",
	"[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(5) == -1",
	/* sets */
	"sets.contains([1, 2, 3], [3, 1]) && !sets.contains([1], [2])",
	"sets.equivalent([1, 2, 2], [2, 1]) && !sets.equivalent([1], [1, 3])",
	"sets.intersects([1, 2], [2, 5]) && !sets.intersects([1], [3])",
	/* regex */
	"'abc 123 def 456'.find('[0-9]+') == '123' && 'abc'.find('[0-9]') == ''",
	"'abc 123 def 456'.findAll('[0-9]+') == ['123', '456']",
	"'abc 123 def 456'.findAll('[0-9]+', 1) == ['123'] && 'a'.findAll('x', 0) == []",
	"'asymetric'.matches('[^a]?sym') && matches('abc', '^a')",
	/* urls */
	"url('https://example.com:80/path').getScheme() == 'https'",
	"url('HTTPS://example.com/').getScheme() == 'https'",
	"url('https://example.com:80/path').getHost() == 'example.com:80'",
	"url('https://[::1]:80/').getHostname() == '::1' && url('https://[::1]:80/').getPort() == "
	"'80'",
	"url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
	"url('https://example.com').getEscapedPath() == ''",
	"url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', "
	"'c']}",
	"url('https://example.com/path?key with spaces=value with spaces').getQuery() == "
	"{'key with spaces': ['value with spaces']}",
	"url('https://example.com/path?').getQuery() == {}",
	"isURL('https://example.com/') && isURL('/absolute-path') && !isURL('relative') && "
	"!isURL('')",
	/* format */
	"!format.dns1123Label().validate('my-label').hasValue()",
	"format.dns1123Label().validate('My_Label').hasValue()",
	"format.dns1123Label().validate('a.b').value() == ['must not contain dots']",
	"!format.dns1123LabelPrefix().validate('my-prefix-').hasValue()",
	"!format.dns1123Subdomain().validate('example.com').hasValue()",
	"!format.qualifiedName().validate('example.com/MyName').hasValue()",
	"format.qualifiedName().validate('/x').value() == ['prefix part must be non-empty']",
	"!format.labelValue().validate('').hasValue()",
	"!format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()",
	"format.uuid().validate('x').value() == ['does not match the UUID format']",
	"!format.byte().validate('aGVsbG8=').hasValue() && format.byte().validate('a').hasValue()",
	"!format.date().validate('2021-01-01').hasValue() && format.date().validate('2021-02-30')"
	".hasValue()",
	"!format.datetime().validate('2021-01-01T00:00:00Z').hasValue()",
	"format.named('uuid').hasValue() && !format.named('nope').hasValue()",
	"format.uri().validate('example.com').value()[0].startsWith('parse \"example.com\"')",
	/* ip and cidr (examples from ip.go and cidr.go) */
	"isIP('192.168.0.1') && isIP('::1') && !isIP('192.168.0.1/24') && !isIP('010.0.0.1')",
	"!isIP('::ffff:192.168.0.1') && !isIP('fe80::1%eth0') && !isIP('1.2.3')",
	"ip('192.168.0.1').family() == 4 && ip('::1').family() == 6",
	"string(ip('2001:0db8:0000:0000:0000:0000:0000:0001')) == '2001:db8::1'",
	"string(ip('2001:db8:0:0:1:0:0:1')) == '2001:db8::1:0:0:1' && string(ip('::')) == '::'",
	"ip.isCanonical('2001:db8::abcd') && !ip.isCanonical('2001:DB8::ABCD')",
	"ip('127.0.0.1').isLoopback() && ip('::1').isLoopback() && !ip('192.168.0.1').isLoopback()",
	"ip('0.0.0.0').isUnspecified() && ip('::').isUnspecified()",
	"ip('224.0.0.1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast() && "
	"ip('ff02::1').isLinkLocalMulticast()",
	"ip('169.254.169.254').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast()",
	"ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() && "
	"!ip('ff00::1').isGlobalUnicast()",
	"ip('192.168.0.1') == ip('192.168.0.1') && ip('192.168.0.1') != ip('192.168.0.2')",
	"cidr('192.168.0.0/24').containsIP(ip('192.168.0.1')) && "
	"!cidr('192.168.0.0/24').containsIP('192.168.1.1')",
	"cidr('192.168.0.0/16').containsCIDR(cidr('192.168.10.0/24')) && "
	"!cidr('192.168.1.0/24').containsCIDR('192.168.2.0/24')",
	"cidr('192.168.0.1/24').ip() == ip('192.168.0.1') && cidr('::1/128').ip().family() == 6",
	"cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24') && "
	"cidr('192.168.0.1/24') != cidr('192.168.0.1/24').masked()",
	"cidr('192.168.0.0/16').prefixLength() == 16 && string(cidr('::1/128')) == '::1/128'",
	"isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0/33') && !isCIDR('10.0.0.0')",
	/* quantity (the upstream table is in the cel-k8s conformance cases) */
	"quantity('50k').add(20) == quantity('50020') && quantity('1Mi').isInteger()",
	"sign(quantity('-1')) == -1 && quantity('1.5').asApproximateFloat() == 1.5",
	/* semver */
	"semver('1.2.3-rc.1').isLessThan(semver('1.2.3')) && semver('1.0.0+b1') == semver('1.0.0')",
	"semver('v1', true).major() == 1 && semver('1.2.3').minor() == 2",
};

/* Evaluates @expr and checks its row: the value true when @error is NULL, else an
 * error whose message contains @error. Prints the row when it does not hold. */
static gboolean
row_holds(const char *expr, const char *error)
{
	g_autoptr(GString) out = g_string_new(NULL);
	CelActivation *act = NULL;
	CelValue v = eval(expr, out, &act);
	gboolean ok = error == NULL ? v.kind == CEL_KIND_BOOL && v.b
	                            : cel_value_is_error(v) && strstr(out->str, error) != NULL;

	if (!ok && error == NULL)
		print_error("expected true: %s\n  got: %s\n", expr, out->str);
	else if (!ok)
		print_error("expected error '%s': %s\n  got: %s\n", error, expr, out->str);
	cel_activation_free(act);
	return ok;
}

static void
test_true_expressions(void **state)
{
	guint failures = 0;

	for (guint i = 0; i < G_N_ELEMENTS(true_exprs); i++)
		failures += !row_holds(true_exprs[i], NULL);
	assert_int_equal(failures, 0);
}

static const struct {
	const char *expr;
	const char *error;
} error_exprs[] = {
	{ "'a'.find('(')", "error parsing regexp: missing closing ): `(`" },
	{ "'a'.findAll('a**')", "invalid nested repetition operator: `**`" },
	{ "url('example.com')",
	  "URL parse error during conversion from string: parse \"example.com\": invalid URI for "
	  "request" },
	{ "[].min()", "min called on empty list" },
	{ "ip('1.2.3')", "IP Address \"1.2.3\" parse error during conversion from string" },
	{ "ip('fe80::1%eth0')", "IP address \"fe80::1%eth0\" with zone value is not allowed" },
	{ "cidr('::ffff:1.2.3.4/120')", "IPv4-mapped IPv6 address" },
	{ "quantity('1Mo')", "quantities must match the regular expression" },
	{ "semver('1.0')", "No Major.Minor.Patch elements found" },
	{ "quantity('9999999999999999999999999999999999999G').asInteger()",
	  "cannot convert value to integer" },
};

static void
test_error_expressions(void **state)
{
	guint failures = 0;

	for (guint i = 0; i < G_N_ELEMENTS(error_exprs); i++)
		failures += !row_holds(error_exprs[i].expr, error_exprs[i].error);
	assert_int_equal(failures, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_true_expressions),
		cmocka_unit_test(test_error_expressions),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	cel_env_unref(k8s_env());
	return rc;
}
