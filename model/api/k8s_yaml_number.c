/*
 * k8s_yaml_number.c: the values of integer and float scalars as go-yaml v2 (which
 * kubectl's sigs.k8s.io/yaml uses) reads them. One reader for every decoder
 * (manifests, scenarios), so that `.inf`, `1_000` or an int64 overflow mean the
 * same thing, and nothing a parser does not fully consume is taken as a number.
 * Also the type a plain scalar resolves to (null, bool, int, float or string),
 * which decides whether the value readers above apply at all.
 */
#include <math.h>
#include <string.h>

#include "k8s_yaml.h"

gboolean
k8s_yaml_parse_integer(const char *text, gboolean *negative, guint64 *magnitude)
{
	g_autofree char *clean = g_new(char, strlen(text) + 1);
	const char *p = text;
	char *w = clean;
	guint base = 10;

	*negative = FALSE;
	if (*p == '+' || *p == '-') {
		*negative = *p == '-';
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0' && p[1] == 'o') {
		base = 8;
		p += 2;
	} else if (p[0] == '0' && p[1] == 'b') {
		base = 2;
		p += 2;
	} else if (p[0] == '0' && p[1] != '\0') {
		base = 8;
		p++;
	}
	for (; *p != '\0'; p++) {
		if (*p != '_') {
			*w++ = *p;
		}
	}
	*w = '\0';
	/* GLib's parser takes no sign, no prefix, no space and reports overflow */
	return clean[0] != '+' && clean[0] != '-' &&
	       g_ascii_string_to_unsigned(clean, base, 0, G_MAXUINT64, magnitude, NULL);
}

gboolean
k8s_yaml_parse_int64(const char *text, gint64 *out)
{
	gboolean neg;
	guint64 magnitude;

	if (!k8s_yaml_parse_integer(text, &neg, &magnitude)) {
		return FALSE;
	}
	if (neg) {
		if (magnitude > (guint64)G_MAXINT64 + 1) {
			return FALSE;
		}
		*out = magnitude == (guint64)G_MAXINT64 + 1 ? G_MININT64 : -(gint64)magnitude;
		return TRUE;
	}
	if (magnitude > (guint64)G_MAXINT64) {
		return FALSE;
	}
	*out = (gint64)magnitude;
	return TRUE;
}

gboolean
k8s_yaml_parse_double(const char *text, double *out)
{
	const char *p = text;
	g_autofree char *clean = NULL;
	char *w, *end = NULL;
	gboolean neg = FALSE;

	if (*p == '+' || *p == '-') {
		neg = *p == '-';
		p++;
	}
	if (strcmp(p, ".inf") == 0 || strcmp(p, ".Inf") == 0 || strcmp(p, ".INF") == 0) {
		*out = neg ? -INFINITY : INFINITY;
		return TRUE;
	}
	if (p == text &&
	    (strcmp(p, ".nan") == 0 || strcmp(p, ".NaN") == 0 || strcmp(p, ".NAN") == 0)) {
		*out = NAN;
		return TRUE;
	}
	/* g_ascii_strtod would also take "inf", "nan" and hex floats: digits only here */
	clean = g_new(char, strlen(text) + 1);
	w = clean;
	for (p = text; *p != '\0'; p++) {
		if (*p == '_') {
			continue;
		}
		if (!g_ascii_isdigit(*p) && strchr("+-.eE", *p) == NULL) {
			return FALSE;
		}
		*w++ = *p;
	}
	*w = '\0';
	if (clean[0] == '\0') {
		return FALSE;
	}
	*out = g_ascii_strtod(clean, &end);
	return end != NULL && *end == '\0' && end != clean;
}

gboolean
k8s_yaml_scalar_as_int64(const K8sYamlNode *node, gint64 *out)
{
	K8sYamlType type;
	double d;

	if (node == NULL || node->kind != K8S_YAML_SCALAR)
		return FALSE;
	type = k8s_yaml_scalar_type(node);
	if (type == K8S_YAML_TYPE_INT)
		return k8s_yaml_parse_int64(node->scalar.text, out);
	/* kubectl's YAML-to-JSON writes 50.0 as 50; a fraction, .inf or .nan fails */
	if (type != K8S_YAML_TYPE_FLOAT || !k8s_yaml_parse_double(node->scalar.text, &d) ||
	    !isfinite(d) || fabs(d) >= 9.2233720368547758e18 || isgreater(fabs(d - floor(d)), 0.0))
		return FALSE;
	*out = (gint64)d;
	return TRUE;
}

static gboolean
is_one_of(const char *text, const char *const *words)
{
	for (guint i = 0; words[i] != NULL; i++) {
		if (strcmp(text, words[i]) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

/* go-yaml v2 (which sigs.k8s.io/yaml uses) reads base 10, 0x, 0o/0 octal and 0b
 * integers with '_' separators; values beyond int64 fall through to float. */
static gboolean
looks_like_int(const char *text)
{
	const char *p = text;

	if (*p == '+' || *p == '-') {
		p++;
	}
	if (*p == '\0') {
		return FALSE;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		if (*p == '\0') {
			return FALSE;
		}
		for (; *p != '\0'; p++) {
			if (!g_ascii_isxdigit(*p) && *p != '_') {
				return FALSE;
			}
		}
		return TRUE;
	}
	if (p[0] == '0' && (p[1] == 'b' || p[1] == 'o')) {
		p += 2;
		if (*p == '\0') {
			return FALSE;
		}
	}
	for (; *p != '\0'; p++) {
		if (!g_ascii_isdigit(*p) && *p != '_') {
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean
looks_like_float(const char *text)
{
	static const char *const special[] = { ".inf",  ".Inf",  ".INF",  "+.inf", "+.Inf",
		                               "+.INF", "-.inf", "-.Inf", "-.INF", ".nan",
		                               ".NaN",  ".NAN",  NULL };
	const char *p = text;
	gboolean digits = FALSE;

	if (is_one_of(text, special)) {
		return TRUE;
	}
	if (*p == '+' || *p == '-') {
		p++;
	}
	while (g_ascii_isdigit(*p) || *p == '_') {
		digits = TRUE;
		p++;
	}
	if (*p == '.') {
		p++;
		while (g_ascii_isdigit(*p) || *p == '_') {
			digits = TRUE;
			p++;
		}
	}
	if (!digits) {
		return FALSE;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-') {
			p++;
		}
		if (!g_ascii_isdigit(*p)) {
			return FALSE;
		}
		while (g_ascii_isdigit(*p)) {
			p++;
		}
	}
	return *p == '\0';
}

K8sYamlType
k8s_yaml_scalar_type(const K8sYamlNode *node)
{
	static const char *const nulls[] = { "", "~", "null", "Null", "NULL", NULL };
	static const char *const bools[] = { "y",    "Y",     "yes",   "Yes",   "YES",  "n",
		                             "N",    "no",    "No",    "NO",    "true", "True",
		                             "TRUE", "false", "False", "FALSE", "on",   "On",
		                             "ON",   "off",   "Off",   "OFF",   NULL };
	const char *text;

	if (node->kind != K8S_YAML_SCALAR) {
		return K8S_YAML_TYPE_STRING;
	}
	if (node->scalar.resolved != 0) {
		return (K8sYamlType)(node->scalar.resolved - 1);
	}
	if (node->tag != NULL) {
		if (g_str_has_suffix(node->tag, ":str")) {
			return K8S_YAML_TYPE_STRING;
		}
		if (g_str_has_suffix(node->tag, ":int")) {
			return K8S_YAML_TYPE_INT;
		}
		if (g_str_has_suffix(node->tag, ":bool")) {
			return K8S_YAML_TYPE_BOOL;
		}
		if (g_str_has_suffix(node->tag, ":float")) {
			return K8S_YAML_TYPE_FLOAT;
		}
		if (g_str_has_suffix(node->tag, ":null")) {
			return K8S_YAML_TYPE_NULL;
		}
	}
	if (node->style != K8S_YAML_STYLE_PLAIN) {
		return K8S_YAML_TYPE_STRING;
	}
	text = node->scalar.text;
	/* fast path: most scalars are names, which start with a letter no special word uses */
	if (text[0] == '\0') {
		return K8S_YAML_TYPE_NULL;
	}
	if (strchr("~nNyYtTfFoO0123456789+-.", text[0]) == NULL ||
	    (g_ascii_isalpha(text[0]) && node->scalar.len > 5)) {
		return K8S_YAML_TYPE_STRING;
	}
	if (node->scalar.len <= 5 && is_one_of(text, nulls)) {
		return K8S_YAML_TYPE_NULL;
	}
	if (node->scalar.len <= 5 && is_one_of(text, bools)) {
		return K8S_YAML_TYPE_BOOL;
	}
	if (looks_like_int(text)) {
		gint64 value;
		const char *digits = text[0] == '+' ? text + 1 : text;

		/* beyond int64 go-yaml falls back to float (or uint64) */
		if (strchr(text, '_') != NULL || strchr(text, 'x') != NULL ||
		    strchr(text, 'o') != NULL || strchr(text, 'b') != NULL ||
		    g_ascii_string_to_signed(digits, 10, G_MININT64, G_MAXINT64, &value, NULL)) {
			return K8S_YAML_TYPE_INT;
		}
		return K8S_YAML_TYPE_FLOAT;
	}
	if (looks_like_float(text)) {
		return K8S_YAML_TYPE_FLOAT;
	}
	return K8S_YAML_TYPE_STRING;
}

const char *
k8s_yaml_node_type_name(const K8sYamlNode *node)
{
	if (node->kind == K8S_YAML_MAPPING) {
		return "mapping";
	}
	if (node->kind == K8S_YAML_SEQUENCE) {
		return "list";
	}
	switch (k8s_yaml_scalar_type(node)) {
	case K8S_YAML_TYPE_NULL:
		return "null";
	case K8S_YAML_TYPE_BOOL:
		return "bool";
	case K8S_YAML_TYPE_INT:
		return "integer";
	case K8S_YAML_TYPE_FLOAT:
		return "number";
	default:
		return "string";
	}
}
