/*
 * k8s_yaml_read.c: strict readers over the positioned YAML tree for drasim's
 * own files. The judgement (what text is valid, what the message says) is
 * base's (base_strict.c) or the tree's YAML typing (k8s_yaml_number.c); this
 * file adds positions and field paths and collects the diagnostics.
 */
#include "k8s_yaml_read.h"

#include <math.h>
#include <string.h>

#include "k8s_quantity.h"

void
k8s_yaml_read_error(
        K8sYamlReader *r, const K8sYamlNode *node, const char *path, const char *format, ...)
{
	K8sPos pos = k8s_yaml_node_pos(node, r->file);
	va_list ap;

	va_start(ap, format);
	k8s_diag_list_addv(r->diags, K8S_SEVERITY_ERROR, &pos, path, format, ap);
	va_end(ap);
}

/* The text an error shows for @node: a scalar's own, else its type. */
static const char *
shown(const K8sYamlNode *node)
{
	return node->kind == K8S_YAML_SCALAR ? node->scalar.text : k8s_yaml_node_type_name(node);
}

gboolean
k8s_yaml_read_map(K8sYamlReader *r, const K8sYamlNode *node, const char *path)
{
	if (node->kind == K8S_YAML_MAPPING)
		return TRUE;
	k8s_yaml_read_error(r, node, path, "expected a mapping, got %s",
	                    k8s_yaml_node_type_name(node));
	return FALSE;
}

gboolean
k8s_yaml_read_seq(K8sYamlReader *r, const K8sYamlNode *node, const char *path)
{
	if (node->kind == K8S_YAML_SEQUENCE)
		return TRUE;
	k8s_yaml_read_error(r, node, path, "expected a list, got %s",
	                    k8s_yaml_node_type_name(node));
	return FALSE;
}

gboolean
k8s_yaml_read_keys(K8sYamlReader *r,
                   const K8sYamlNode *map,
                   const char *path,
                   const char *const *known,
                   BaseStrictHint hint)
{
	gboolean ok = TRUE;

	for (guint i = 0; i < map->map.n; i++) {
		const K8sYamlNode *key = map->map.pairs[i].key;
		g_autofree char *message = NULL;
		g_autofree char *field = NULL;

		if (base_strict_key(key->scalar.text, known, hint, &message))
			continue;
		ok = FALSE;
		field = *path ? g_strdup_printf("%s.%s", path, key->scalar.text)
		              : g_strdup(key->scalar.text);
		k8s_yaml_read_error(r, key, field, "%s", message);
	}
	return ok;
}

char *
k8s_yaml_read_string(K8sYamlReader *r, const K8sYamlNode *node, const char *path)
{
	if (node->kind == K8S_YAML_SCALAR && k8s_yaml_scalar_type(node) == K8S_YAML_TYPE_STRING)
		return g_strdup(node->scalar.text);
	k8s_yaml_read_error(r, node, path, "expected a string, got %s",
	                    k8s_yaml_node_type_name(node));
	return NULL;
}

gboolean
k8s_yaml_read_uint(
        K8sYamlReader *r, const K8sYamlNode *node, const char *path, guint64 max, guint64 *out)
{
	gboolean negative = TRUE;
	guint64 magnitude = G_MAXUINT64;
	g_autofree char *message = NULL;

	/* go-yaml v2 reads a decimal beyond int64 as uint64; the tree types it a number */
	if (node->kind == K8S_YAML_SCALAR &&
	    (k8s_yaml_scalar_type(node) == K8S_YAML_TYPE_INT ||
	     k8s_yaml_scalar_type(node) == K8S_YAML_TYPE_FLOAT) &&
	    !k8s_yaml_parse_integer(node->scalar.text, &negative, &magnitude)) {
		negative = TRUE; /* not an integer: rejected below like one out of range */
		magnitude = G_MAXUINT64;
	}
	if (base_strict_uint_range(negative, magnitude, max, shown(node), out, &message))
		return TRUE;
	k8s_yaml_read_error(r, node, path, "%s", message);
	return FALSE;
}

/* The value of an integer or float scalar; NAN when it has none. */
static double
number_value(const K8sYamlNode *node, K8sYamlType type)
{
	double v = NAN;

	if (type == K8S_YAML_TYPE_INT) {
		gboolean negative;
		guint64 magnitude;

		if (k8s_yaml_parse_integer(node->scalar.text, &negative, &magnitude))
			v = negative ? -(double)magnitude : (double)magnitude;
	} else if (!k8s_yaml_parse_double(node->scalar.text, &v)) {
		v = NAN;
	}
	return v;
}

gboolean
k8s_yaml_read_double(K8sYamlReader *r, const K8sYamlNode *node, const char *path, double *out)
{
	K8sYamlType t =
	        node->kind == K8S_YAML_SCALAR ? k8s_yaml_scalar_type(node) : K8S_YAML_TYPE_NULL;
	g_autofree char *message = NULL;
	double v;

	if (t != K8S_YAML_TYPE_INT && t != K8S_YAML_TYPE_FLOAT) {
		k8s_yaml_read_error(r, node, path, "expected a number, got %s",
		                    k8s_yaml_node_type_name(node));
		return FALSE;
	}
	v = number_value(node, t);
	if (!base_strict_nonnegative(v, node->scalar.text, &message)) {
		k8s_yaml_read_error(r, node, path, "%s", message);
		return FALSE;
	}
	*out = v;
	return TRUE;
}

gboolean
k8s_yaml_read_bool(K8sYamlReader *r, const K8sYamlNode *node, const char *path, gboolean *out)
{
	if (node->kind != K8S_YAML_SCALAR || k8s_yaml_scalar_type(node) != K8S_YAML_TYPE_BOOL) {
		k8s_yaml_read_error(r, node, path, "expected true or false, got %s",
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
k8s_yaml_read_bytes(K8sYamlReader *r, const K8sYamlNode *node, const char *path, gint64 *out)
{
	K8sQuantity q;
	g_autoptr(GError) error = NULL;

	if (node->kind != K8S_YAML_SCALAR ||
	    !k8s_quantity_parse(node->scalar.text, -1, &q, &error) ||
	    !k8s_quantity_as_int64(&q, out) || *out < 0) {
		k8s_yaml_read_error(r, node, path,
		                    "expected a quantity of bytes like 40Gi or 10G, got %s",
		                    shown(node));
		return FALSE;
	}
	return TRUE;
}
