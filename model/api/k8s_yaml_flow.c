/*
 * k8s_yaml_flow.c: a node tree as one line of YAML flow text (k8s_yaml_flow_text
 * in k8s_yaml_path.h). Sweeps keep each value of a varied parameter as this
 * text: it names cells and CSV columns, goes into the manifest, and is parsed
 * back when the run loads its scenario, so it must read back to the same tree.
 */
#include <string.h>

#include "k8s_yaml_path.h"

/* Characters that end or change a plain scalar inside a flow collection. */
static gboolean
flow_unsafe(const char *text)
{
	static const char indicators[] = "?:,[]{}#&*!|>'\"%@`";
	gsize len = strlen(text);

	if (len == 0 || strchr(indicators, text[0]) != NULL || g_ascii_isspace(text[0]) ||
	    g_ascii_isspace(text[len - 1]))
		return TRUE;
	/* "-1" and "-x" are plain scalars; "- x" or "-" alone start a list item */
	if (text[0] == '-' && (text[1] == '\0' || g_ascii_isspace(text[1])))
		return TRUE;
	if (g_str_has_prefix(text, "---") || g_str_has_prefix(text, "..."))
		return TRUE; /* document markers when the value is parsed alone */
	for (const char *p = text; *p != '\0'; p++) {
		if (strchr(",[]{}", *p) != NULL || (guchar)*p < 0x20 || *p == 0x7f)
			return TRUE;
		if ((*p == ':' && (p[1] == ' ' || p[1] == '\0')) || (*p == '#' && p[-1] == ' '))
			return TRUE;
	}
	return FALSE;
}

/* Whether @text written plain reads back as a scalar of type @type. */
static gboolean
plain_reads_as(const char *text, K8sYamlType type)
{
	K8sYamlNode probe = { .kind = K8S_YAML_SCALAR, .style = K8S_YAML_STYLE_PLAIN };

	if (flow_unsafe(text))
		return FALSE;
	probe.scalar.text = text;
	probe.scalar.len = (guint32)strlen(text);
	return k8s_yaml_scalar_type(&probe) == type;
}

static void
append_quoted(GString *out, const char *text)
{
	g_string_append_c(out, '"');
	for (const char *p = text; *p != '\0'; p++) {
		guchar c = (guchar)*p;

		if (c == '"' || c == '\\')
			g_string_append_printf(out, "\\%c", c);
		else if (c == '\n')
			g_string_append(out, "\\n");
		else if (c == '\t')
			g_string_append(out, "\\t");
		else if (c < 0x20 || c == 0x7f)
			g_string_append_printf(out, "\\x%02x", c);
		else
			g_string_append_c(out, (char)c);
	}
	g_string_append_c(out, '"');
}

static void
append_scalar(GString *out, const K8sYamlNode *node)
{
	const char *text = node->scalar.text;
	K8sYamlType type = k8s_yaml_scalar_type(node);

	if (node->tag != NULL)
		g_string_append_printf(out, "!<%s> ", node->tag);
	/* a null written as nothing reads back as nothing only at the end of a pair */
	if (type == K8S_YAML_TYPE_NULL && text[0] == '\0')
		g_string_append(out, "null");
	else if (plain_reads_as(text, type))
		g_string_append(out, text);
	else
		append_quoted(out, text); /* a quoted scalar is always a string */
}

static void
append_node(GString *out, const K8sYamlNode *node)
{
	switch (node->kind) {
	case K8S_YAML_MAPPING:
		g_string_append_c(out, '{');
		for (guint i = 0; i < node->map.n; i++) {
			g_string_append(out, i > 0 ? ", " : "");
			append_node(out, node->map.pairs[i].key);
			g_string_append(out, ": ");
			append_node(out, node->map.pairs[i].value);
		}
		g_string_append_c(out, '}');
		break;
	case K8S_YAML_SEQUENCE:
		g_string_append_c(out, '[');
		for (guint i = 0; i < node->seq.n; i++) {
			g_string_append(out, i > 0 ? ", " : "");
			append_node(out, node->seq.items[i]);
		}
		g_string_append_c(out, ']');
		break;
	default:
		append_scalar(out, node);
		break;
	}
}

char *
k8s_yaml_flow_text(const K8sYamlNode *node)
{
	GString *out = g_string_new(NULL);

	append_node(out, node); /* recursion bounded by the tree's depth (K8S_YAML_MAX_DEPTH) */
	return g_string_free(out, FALSE);
}
