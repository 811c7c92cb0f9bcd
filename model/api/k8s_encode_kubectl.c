/*
 * k8s_encode_kubectl.c: how `kubectl get -o yaml` writes scalars and orders keys,
 * for the encoder's kubectl style (k8s_encode.c).
 *
 * kubectl marshals an object to JSON and that JSON to YAML with go-yaml v2
 * (sigs.k8s.io/yaml JSONToYAML): every mapping is a Go map, written in go-yaml's
 * key order (keyList.Less in gopkg.in/yaml.v2 sorter.go: digit runs compare as
 * numbers, a non-letter sorts before a letter), and every value is a string,
 * number or bool. A string is double-quoted when it would read back as another
 * type (encode.go stringv: resolve() or isBase60Float), otherwise written plain if
 * the emitter allows that and single-quoted if not (emitterc.go
 * yaml_emitter_analyze_scalar / select_scalar_style, the libyaml rules). Multi-line
 * strings are the encoder's literal blocks, as go-yaml writes them.
 */
#include <string.h>

#include "k8s-private.h"

/* Would go-yaml's resolver read plain @text back as a bool, null, number or
 * base-60 float (then kubectl double-quotes it)? YAML 1.1 words and numbers. */
static gboolean
resolves_to_non_string(const char *text)
{
	static const char *const words[] = { "true", "false", "yes", "no",   "on",
		                             "off",  "y",     "n",   "null", "~" };
	char *end = NULL;
	gboolean base60 = strchr(text, ':') != NULL;

	if (*text == '\0') {
		return TRUE;
	}
	for (guint i = 0; i < G_N_ELEMENTS(words); i++) {
		if (g_ascii_strcasecmp(text, words[i]) == 0) {
			return TRUE;
		}
	}
	(void)g_ascii_strtod(text, &end);
	if (end != NULL && *end == '\0') {
		return TRUE;
	}
	for (const char *c = text; *c != '\0'; c++) {
		base60 = base60 && (g_ascii_isdigit(*c) || *c == ':' || *c == '.');
	}
	return base60;
}

/* What the emitter's analysis of a one-line scalar allows (block context). */
typedef struct {
	gboolean plain;  /* block_plain_allowed */
	gboolean single; /* single_quoted_allowed */
} ScalarStyles;

static gboolean
is_blank_or_end(char c)
{
	return c == ' ' || c == '\t' || c == '\0';
}

/* An indicator at the start (or, for some, anywhere) that rules plain style out. */
static gboolean
breaks_plain_at(const char *s, const char *p)
{
	gboolean followed_by_blank = is_blank_or_end(p[1]);

	if (p == s) {
		return strchr("#,[]{}&*!|>'\"%@`", *p) != NULL ||
		       ((*p == '?' || *p == ':' || *p == '-') && followed_by_blank);
	}
	return (*p == ':' && followed_by_blank) || (*p == '#' && p[-1] == ' ');
}

static ScalarStyles
analyze_scalar(const char *s)
{
	ScalarStyles styles = { TRUE, TRUE };
	gsize len = strlen(s);

	if (strncmp(s, "---", 3) == 0 || strncmp(s, "...", 3) == 0 || s[0] == ' ' ||
	    s[len - 1] == ' ') {
		styles.plain = FALSE;
	}
	for (const char *p = s; *p != '\0'; p++) {
		guchar c = (guchar)*p;

		if (breaks_plain_at(s, p)) {
			styles.plain = FALSE;
		}
		/* not printable (tab and control characters): only double quotes can hold it */
		if (c < 0x20 || c == 0x7f) {
			styles.plain = styles.single = FALSE;
		}
	}
	return styles;
}

/* libyaml's escapes (emitterc.go yaml_emitter_write_double_quoted). */
static void
append_double_quoted(GString *out, const char *s)
{
	static const char escapes[] = "0\0\0\0\0\0\0abtnvfr\0\0\0\0\0\0\0\0\0\0\0\0\0e";

	g_string_append_c(out, '"');
	for (const char *p = s; *p != '\0'; p++) {
		guchar c = (guchar)*p;

		if (c == '"' || c == '\\') {
			g_string_append_c(out, '\\');
			g_string_append_c(out, (char)c);
		} else if (c < 0x20 && escapes[c] != '\0') {
			g_string_append_c(out, '\\');
			g_string_append_c(out, escapes[c]);
		} else if (c < 0x20 || c == 0x7f) {
			g_string_append_printf(out, "\\x%02X", (guint)c);
		} else {
			g_string_append_c(out, (char)c);
		}
	}
	g_string_append_c(out, '"');
}

void
k8s_kubectl__append_scalar(GString *out, const char *s)
{
	ScalarStyles styles;

	if (resolves_to_non_string(s)) {
		append_double_quoted(out, s);
		return;
	}
	styles = analyze_scalar(s);
	if (styles.plain) {
		g_string_append(out, s);
	} else if (styles.single) {
		g_string_append_c(out, '\'');
		for (const char *p = s; *p != '\0'; p++) {
			if (*p == '\'') {
				g_string_append_c(out, '\'');
			}
			g_string_append_c(out, *p);
		}
		g_string_append_c(out, '\'');
	} else {
		append_double_quoted(out, s);
	}
}

/* go-yaml v2 keyList.Less on two rune strings. */
static gboolean
key_less(const gunichar *a, glong na, const gunichar *b, glong nb)
{
	for (glong i = 0; i < na && i < nb; i++) {
		gboolean al, bl;
		/* Go's int64 arithmetic wraps on overflow; unsigned arithmetic wraps the same way
		 * in C (a signed overflow is undefined: UBSan, fuzz-catalog), compared as int64 */
		guint64 an = 0, bn = 0;
		glong ai, bi;

		if (a[i] == b[i]) {
			continue;
		}
		al = g_unichar_isalpha(a[i]);
		bl = g_unichar_isalpha(b[i]);
		if (al && bl) {
			return a[i] < b[i];
		}
		if (al || bl) {
			return bl;
		}
		if (a[i] == '0' || b[i] == '0') {
			/* a run with a non-zero digit before: the zeros are not leading ones */
			for (glong j = i - 1; j >= 0 && g_unichar_isdigit(a[j]); j--) {
				if (a[j] != '0') {
					an = bn = 1;
					break;
				}
			}
		}
		for (ai = i; ai < na && g_unichar_isdigit(a[ai]); ai++) {
			an = an * 10 + (guint64)(a[ai] - '0');
		}
		for (bi = i; bi < nb && g_unichar_isdigit(b[bi]); bi++) {
			bn = bn * 10 + (guint64)(b[bi] - '0');
		}
		if (an != bn) {
			return (gint64)an < (gint64)bn;
		}
		if (ai != bi) {
			return ai < bi;
		}
		return a[i] < b[i];
	}
	return na < nb;
}

int
k8s_kubectl__key_compare(const char *a, const char *b)
{
	glong na = 0, nb = 0;
	g_autofree gunichar *ua = NULL;
	g_autofree gunichar *ub = NULL;

	if (strcmp(a, b) == 0) {
		return 0;
	}
	ua = g_utf8_to_ucs4_fast(a, -1, &na);
	ub = g_utf8_to_ucs4_fast(b, -1, &nb);
	if (key_less(ua, na, ub, nb)) {
		return -1;
	}
	return key_less(ub, nb, ua, na) ? 1 : 0;
}
