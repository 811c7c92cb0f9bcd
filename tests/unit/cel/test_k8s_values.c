/*
 * test_k8s_values.c: the value-level Kubernetes CEL helpers (semver, URL, regex, quoting).
 *
 * Expected values come from blang/semver, Go net/url and Go regexp behaviour as the
 * Kubernetes library tests (semver_test.go, urls_test.go, regex_test.go) exercise it.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cel_lib_k8s.h"

static gboolean
parse(CelSemver *v, const char *s, gboolean normalize, char *err)
{
	static char buf[256];
	return cel_semver_parse(v, s, strlen(s), normalize, buf, err);
}

static void
test_semver_parse_errors(void **state)
{
	static const struct {
		const char *in;
		const char *err;
	} cases[] = {
		{ "", "Version string empty" },
		{ "v1.0", "No Major.Minor.Patch elements found" },
		{ "1", "No Major.Minor.Patch elements found" },
		{ " 1.0.0", "Invalid character(s) found in major number \" 1\"" },
		{ "1. 0.0", "Invalid character(s) found in minor number \" 0\"" },
		{ "1.0.0 ", "Invalid character(s) found in patch number \"0 \"" },
		{ "01.01.01", "Major number must not contain leading zeroes \"01\"" },
		{ "1..0", "strconv.ParseUint: parsing \"\": invalid syntax" },
		{ "1.0.0-", "Prerelease is empty" },
		{ "1.0.0-01", "Numeric PreRelease version must not contain leading zeroes \"01\"" },
		{ "1.0.0+", "Build meta data is empty" },
		{ "1.0.0+a_b", "Invalid character(s) found in build meta data \"a_b\"" },
		{ "99999999999999999999.0.0",
		  "strconv.ParseUint: parsing \"99999999999999999999\": value out of range" },
	};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		CelSemver v;
		char err[CEL_K8S_ERRBUF];
		assert_false(parse(&v, cases[i].in, FALSE, err));
		assert_string_equal(err, cases[i].err);
	}
}

static void
test_semver_normalize(void **state)
{
	static const struct {
		const char *in;
		const char *out; /* NULL: must fail */
	} cases[] = {
		{ "v1.0.0", "1.0.0" }, { "01.01.01", "1.1.1" },
		{ "1", "1.0.0" },      { "1.1", "1.1.0" },
		{ "v01.01", "1.1.0" }, { "", NULL },
		{ " 1.0.0", NULL },    { "1.0.0 ", NULL },
		{ "1.2-rc", NULL },    { "1.0.007-rc.1+b", "1.0.7-rc.1+b" },
		{ "0.00.0", "0.0.0" },
	};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		CelSemver v;
		char err[CEL_K8S_ERRBUF], out[64];
		gboolean ok = parse(&v, cases[i].in, TRUE, err);
		assert_int_equal(ok, cases[i].out != NULL);
		if (ok) {
			cel_semver_format(&v, out, sizeof out);
			assert_string_equal(out, cases[i].out);
		}
	}
}

static void
test_semver_precedence(void **state)
{
	/* semver.org 11.4: each is lower than the next. */
	static const char *order[] = {
		"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta",
		"1.0.0-beta",  "1.0.0-beta.2",  "1.0.0-beta.11",
		"1.0.0-rc.1",  "1.0.0",         "1.0.1",
		"1.1.0",       "2.0.0",
	};
	for (guint i = 0; i < G_N_ELEMENTS(order); i++) {
		for (guint j = 0; j < G_N_ELEMENTS(order); j++) {
			CelSemver a, b;
			char err[CEL_K8S_ERRBUF];
			static char buf2[256];
			assert_true(parse(&a, order[i], FALSE, err));
			assert_true(
			        cel_semver_parse(&b, order[j], strlen(order[j]), FALSE, buf2, err));
			int want = i < j ? -1 : (i > j ? 1 : 0);
			assert_int_equal(cel_semver_compare(&a, &b), want);
		}
	}
	CelSemver a, b;
	char err[CEL_K8S_ERRBUF];
	assert_true(parse(&a, "1.2.3+build.1", FALSE, err));
	assert_true(cel_semver_parse(&b, "1.2.3+other", 11, FALSE, NULL, err));
	assert_int_equal(cel_semver_compare(&a, &b), 0);
}

static void
test_url_parse(void **state)
{
	static const struct {
		const char *in;
		const char *scheme, *host, *hostname, *port, *path, *err;
	} cases[] = {
		{ "https://example.com:80/path?k=v#frag", "https", "example.com:80", "example.com",
		  "80", "/path", NULL },
		{ "https://[::1]:80/", "https", "[::1]:80", "::1", "80", "/", NULL },
		{ "/path", "", "", "", "", "/path", NULL },
		{ "https://example.com/path with spaces/", "https", "example.com", "example.com",
		  "", "/path with spaces/", NULL },
		{ "example.com", NULL, NULL, NULL, NULL, NULL,
		  "parse \"example.com\": invalid URI for request" },
		{ "", NULL, NULL, NULL, NULL, NULL, "parse \"\": empty url" },
		{ ":foo", NULL, NULL, NULL, NULL, NULL, "parse \":foo\": missing protocol scheme" },
		{ "https://ex ample.com/", NULL, NULL, NULL, NULL, NULL,
		  "parse \"https://ex ample.com/\": invalid character \" \" in host name" },
		{ "https://example.com:abc/", NULL, NULL, NULL, NULL, NULL,
		  "parse \"https://example.com:abc/\": invalid port \":abc\" after host" },
		{ "https://example.com/%zz", NULL, NULL, NULL, NULL, NULL,
		  "parse \"https://example.com/%zz\": invalid URL escape \"%zz\"" },
	};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		CelUrl u;
		char err[CEL_K8S_ERRBUF];
		const char *p;
		gsize n;
		gboolean ok = cel_url_parse(&u, cases[i].in, strlen(cases[i].in), err);
		if (cases[i].err != NULL) {
			assert_false(ok);
			assert_string_equal(err, cases[i].err);
			continue;
		}
		assert_true(ok);
		g_autofree char *scheme = g_strndup(u.scheme, u.scheme_len);
		g_autofree char *host = g_strndup(u.host, u.host_len);
		g_autofree char *path = g_strndup(u.path, u.path_len);
		assert_string_equal(scheme, cases[i].scheme);
		assert_string_equal(host, cases[i].host);
		assert_string_equal(path, cases[i].path);
		cel_url_hostname(&u, &p, &n);
		g_autofree char *hostname = g_strndup(p, n);
		assert_string_equal(hostname, cases[i].hostname);
		cel_url_port(&u, &p, &n);
		g_autofree char *port = g_strndup(p, n);
		assert_string_equal(port, cases[i].port);
	}
}

static void
test_url_escaped_path(void **state)
{
	CelUrl u;
	char err[CEL_K8S_ERRBUF], out[256];
	const char *in = "https://example.com/path with spaces/";
	assert_true(cel_url_parse(&u, in, strlen(in), err));
	gsize n = cel_url_escaped_path(&u, out);
	out[n] = '\0';
	assert_string_equal(out, "/path%20with%20spaces/");
	in = "https://example.com/a%2fb(c)";
	assert_true(cel_url_parse(&u, in, strlen(in), err));
	n = cel_url_escaped_path(&u, out);
	out[n] = '\0';
	assert_string_equal(out, "/a%2fb(c)");
}

static gboolean
collect(const char *m, gsize len, gpointer user_data)
{
	GString *s = user_data;
	g_string_append_printf(s, "[%.*s]", (int)len, m);
	return TRUE;
}

static void
test_regex(void **state)
{
	char err[CEL_K8S_ERRBUF];
	CelRegex *re = cel_regex_compile("[^a]?sym", 8, err);
	assert_non_null(re);
	assert_true(cel_regex_match(re, "asymetric", 9));
	assert_false(cel_regex_match(re, "sy", 2));
	cel_regex_free(re);

	/* Go allMatches: the empty match at 4 abuts "aaa" and is dropped. */
	re = cel_regex_compile("a*", 2, err);
	g_autoptr(GString) s = g_string_new(NULL);
	assert_int_equal(cel_regex_find_all(re, "baaab", 5, -1, collect, s), 3);
	assert_string_equal(s->str, "[][aaa][]");
	g_string_truncate(s, 0);
	assert_int_equal(cel_regex_find_all(re, "baaab", 5, 2, collect, s), 2);
	cel_regex_free(re);

	re = cel_regex_compile("[0-9]+", 6, err);
	g_string_truncate(s, 0);
	cel_regex_find_all(re, "123 abc 456", 11, -1, collect, s);
	assert_string_equal(s->str, "[123][456]");
	cel_regex_free(re);

	assert_null(cel_regex_compile("(?=x)", 5, err));
	assert_string_equal(err, "error parsing regexp: invalid or unsupported Perl syntax: `(?=`");
	assert_null(cel_regex_compile("(abc", 4, err));
	assert_string_equal(err, "error parsing regexp: missing closing ): `(abc`");
	assert_null(cel_regex_compile("a**", 3, err));
	assert_string_equal(err, "error parsing regexp: invalid nested repetition operator: `**`");
	assert_null(cel_regex_compile("\\C", 2, err));
	assert_string_equal(err, "error parsing regexp: invalid escape sequence: `\\C`");
	assert_null(cel_regex_compile("(\\1)", 4, err));
	assert_string_equal(err, "error parsing regexp: invalid escape sequence: `\\1`");
}

static void
test_go_quote(void **state)
{
	char out[64];
	cel_k8s_go_quote(out, sizeof out, "a\"b\\\n\x01\xff\xc3\xa9", 9);
	assert_string_equal(out, "\"a\\\"b\\\\\\n\\x01\\xff\xc3\xa9\"");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_semver_parse_errors),
		cmocka_unit_test(test_semver_normalize),
		cmocka_unit_test(test_semver_precedence),
		cmocka_unit_test(test_url_parse),
		cmocka_unit_test(test_url_escaped_path),
		cmocka_unit_test(test_regex),
		cmocka_unit_test(test_go_quote),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
