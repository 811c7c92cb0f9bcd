/*
 * scenario_dec.c: the strict scalar and shape readers the scenario decoder
 * uses over model/api's positioned YAML tree. Every rejection is a
 * diagnostic FILE:LINE:COL with the field path and what was expected; an
 * unknown key gets the closest known key as a suggestion.
 */
#include <math.h>
#include <string.h>

#include "k8s_quantity.h"
#include "scenario-private.h"

K8sPos
scenario_dec__pos(ScenarioDec *dec, const K8sYamlNode *node)
{
	return k8s_yaml_node_pos(node, dec->file);
}

void
scenario_dec__error(
        ScenarioDec *dec, const K8sYamlNode *node, const char *path, const char *format, ...)
{
	K8sPos pos = scenario_dec__pos(dec, node);
	va_list ap;

	va_start(ap, format);
	k8s_diag_list_addv(dec->diags, K8S_SEVERITY_ERROR, &pos, path, format, ap);
	va_end(ap);
}

/* Optimal string alignment distance, case-insensitive; names are short. */
static guint
osa_distance(const char *a, const char *b)
{
	gsize n = strlen(a), m = strlen(b);
	g_autofree guint *d = NULL;

	if (n > 64 || m > 64)
		return G_MAXUINT;
	d = g_new0(guint, (n + 1) * (m + 1));
#define D(i, j) d[(i) * (m + 1) + (j)]
	for (gsize i = 0; i <= n; i++)
		D(i, 0) = (guint)i;
	for (gsize j = 0; j <= m; j++)
		D(0, j) = (guint)j;
	for (gsize i = 1; i <= n; i++) {
		for (gsize j = 1; j <= m; j++) {
			guint cost = g_ascii_tolower(a[i - 1]) != g_ascii_tolower(b[j - 1]);
			guint v = MIN(D(i - 1, j) + 1, D(i, j - 1) + 1);

			v = MIN(v, D(i - 1, j - 1) + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				v = MIN(v, D(i - 2, j - 2) + 1);
			D(i, j) = v;
		}
	}
	return D(n, m);
#undef D
}

static const char *
closest(const char *word, const char *const *known)
{
	guint limit = strlen(word) <= 4 ? 1 : strlen(word) <= 8 ? 2 : 3;
	const char *best = NULL;
	guint best_d = limit + 1;

	for (guint i = 0; known[i] != NULL; i++) {
		guint d = osa_distance(word, known[i]);

		if (d < best_d) {
			best_d = d;
			best = known[i];
		}
	}
	return best;
}

gboolean
scenario_dec__map(ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	if (node->kind == K8S_YAML_MAPPING)
		return TRUE;
	scenario_dec__error(dec, node, path, "expected a mapping, got %s",
	                    k8s_yaml_node_type_name(node));
	return FALSE;
}

gboolean
scenario_dec__seq(ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	if (node->kind == K8S_YAML_SEQUENCE)
		return TRUE;
	scenario_dec__error(dec, node, path, "expected a list, got %s",
	                    k8s_yaml_node_type_name(node));
	return FALSE;
}

gboolean
scenario_dec__check_keys(ScenarioDec *dec,
                         const K8sYamlNode *map,
                         const char *path,
                         const char *const *known)
{
	gboolean ok = TRUE;

	for (guint i = 0; i < map->map.n; i++) {
		const char *key = map->map.pairs[i].key->scalar.text;
		const char *hint;
		gboolean found = FALSE;
		g_autofree char *field = NULL;

		for (guint k = 0; known[k] != NULL && !found; k++)
			found = strcmp(key, known[k]) == 0;
		if (found)
			continue;
		ok = FALSE;
		field = *path ? g_strdup_printf("%s.%s", path, key) : g_strdup(key);
		hint = closest(key, known);
		if (hint != NULL)
			scenario_dec__error(dec, map->map.pairs[i].key, field,
			                    "unknown field '%s'; did you mean '%s'?", key, hint);
		else
			scenario_dec__error(dec, map->map.pairs[i].key, field, "unknown field '%s'",
			                    key);
	}
	return ok;
}

char *
scenario_dec__string(ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	if (node->kind == K8S_YAML_SCALAR && k8s_yaml_scalar_type(node) == K8S_YAML_TYPE_STRING)
		return g_strdup(node->scalar.text);
	scenario_dec__error(dec, node, path, "expected a string, got %s",
	                    k8s_yaml_node_type_name(node));
	return NULL;
}

/*
 * A YAML integer as kubectl would read it (model/api's reader: '_' separators, 0x, 0o,
 * 0b), in [0, max]. Floats (.inf, .nan, 1e30, 2.0), strings and anything beyond 64 bits
 * are refused, never rounded, saturated or wrapped.
 */
gboolean
scenario_dec__uint(
        ScenarioDec *dec, const K8sYamlNode *node, const char *path, guint64 max, guint64 *out)
{
	gboolean negative = FALSE;
	guint64 v = 0;

	/* go-yaml v2 reads a decimal beyond int64 as uint64; the tree types it a number */
	if (node->kind != K8S_YAML_SCALAR ||
	    (k8s_yaml_scalar_type(node) != K8S_YAML_TYPE_INT &&
	     k8s_yaml_scalar_type(node) != K8S_YAML_TYPE_FLOAT) ||
	    !k8s_yaml_parse_integer(node->scalar.text, &negative, &v) || (negative && v != 0) ||
	    v > max) {
		scenario_dec__error(dec, node, path,
		                    "expected an integer in [0, %" G_GUINT64_FORMAT "], got %s",
		                    max,
		                    node->kind == K8S_YAML_SCALAR ? node->scalar.text
		                                                  : k8s_yaml_node_type_name(node));
		return FALSE;
	}
	*out = v;
	return TRUE;
}

gboolean
scenario_dec__double(ScenarioDec *dec, const K8sYamlNode *node, const char *path, double *out)
{
	K8sYamlType t =
	        node->kind == K8S_YAML_SCALAR ? k8s_yaml_scalar_type(node) : K8S_YAML_TYPE_NULL;
	double v = 0;

	if (t != K8S_YAML_TYPE_INT && t != K8S_YAML_TYPE_FLOAT) {
		scenario_dec__error(dec, node, path, "expected a number, got %s",
		                    k8s_yaml_node_type_name(node));
		return FALSE;
	}
	if (t == K8S_YAML_TYPE_INT) {
		gboolean negative;
		guint64 magnitude;

		if (k8s_yaml_parse_integer(node->scalar.text, &negative, &magnitude))
			v = negative ? -(double)magnitude : (double)magnitude;
		else
			v = NAN;
	} else if (!k8s_yaml_parse_double(node->scalar.text, &v)) {
		v = NAN;
	}
	if (!isfinite(v) || v < 0) {
		scenario_dec__error(dec, node, path, "expected a finite number >= 0, got %s",
		                    node->scalar.text);
		return FALSE;
	}
	*out = v;
	return TRUE;
}

gboolean
scenario_dec__bool(ScenarioDec *dec, const K8sYamlNode *node, const char *path, gboolean *out)
{
	if (node->kind != K8S_YAML_SCALAR || k8s_yaml_scalar_type(node) != K8S_YAML_TYPE_BOOL) {
		scenario_dec__error(dec, node, path, "expected true or false, got %s",
		                    k8s_yaml_node_type_name(node));
		return FALSE;
	}
	*out = g_ascii_strcasecmp(node->scalar.text, "true") == 0 ||
	       g_ascii_strcasecmp(node->scalar.text, "yes") == 0 ||
	       g_ascii_strcasecmp(node->scalar.text, "on") == 0 ||
	       g_ascii_strcasecmp(node->scalar.text, "y") == 0;
	return TRUE;
}

gboolean
scenario_dec__duration(ScenarioDec *dec, const K8sYamlNode *node, const char *path, SimTime *out)
{
	g_autoptr(GError) error = NULL;

	if (node->kind != K8S_YAML_SCALAR) {
		scenario_dec__error(dec, node, path,
		                    "expected a duration like 90s or 1h30m, got %s",
		                    k8s_yaml_node_type_name(node));
		return FALSE;
	}
	if (!sim_time_parse(node->scalar.text, out, &error)) {
		scenario_dec__error(dec, node, path, "expected a duration like 90s or 1h30m: %s",
		                    error->message);
		return FALSE;
	}
	if (*out < 0) {
		scenario_dec__error(dec, node, path, "expected a duration >= 0, got %s",
		                    node->scalar.text);
		return FALSE;
	}
	return TRUE;
}

gboolean
scenario_dec__bytes(ScenarioDec *dec, const K8sYamlNode *node, const char *path, gint64 *out)
{
	K8sQuantity q;
	g_autoptr(GError) error = NULL;

	if (node->kind != K8S_YAML_SCALAR ||
	    !k8s_quantity_parse(node->scalar.text, -1, &q, &error) ||
	    !k8s_quantity_as_int64(&q, out) || *out < 0) {
		scenario_dec__error(dec, node, path,
		                    "expected a quantity of bytes like 40Gi or 10G, got %s",
		                    node->kind == K8S_YAML_SCALAR ? node->scalar.text
		                                                  : k8s_yaml_node_type_name(node));
		return FALSE;
	}
	return TRUE;
}
