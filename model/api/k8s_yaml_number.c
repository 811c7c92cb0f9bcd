/*
 * k8s_yaml_number.c: the values of integer and float scalars as go-yaml v2 (which
 * kubectl's sigs.k8s.io/yaml uses) reads them. One reader for every decoder
 * (manifests, scenarios), so that `.inf`, `1_000` or an int64 overflow mean the
 * same thing, and nothing a parser does not fully consume is taken as a number.
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
