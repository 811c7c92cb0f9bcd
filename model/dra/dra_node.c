/*
 * dra_node.c: node selection of slices and devices.
 *
 * Implements the node-affinity semantics of k8s.io/component-helpers
 * scheduling/corev1/nodeaffinity as the allocator uses them (NodeMatches in
 * structured/internal/experimental/pools_experimental.go): terms are ORed, the
 * requirements of a term are ANDed, an empty term matches nothing, and
 * matchFields knows only metadata.name with In/NotIn and one value.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dra-private.h"

static const char *
node_label(const DraNode *node, const char *key)
{
	for (guint i = 0; i < node->n_labels; i++) {
		if (strcmp(node->label_keys[i], key) == 0) {
			return node->label_values[i];
		}
	}
	return NULL;
}

static gboolean
parse_int64(const char *text, gint64 *out)
{
	char *end = NULL;

	errno = 0;
	long long v = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0') {
		return FALSE;
	}
	*out = v;
	return TRUE;
}

static gboolean
value_in(const DraNodeSelectorRequirement *req, const char *value)
{
	for (guint i = 0; i < req->n_values; i++) {
		if (strcmp(req->values[i], value) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

/* labels.NewRequirement's checks, then the match; FALSE with @error on a parse error. */
static gboolean
expression_matches(const DraNodeSelectorRequirement *req,
                   const DraNode *node,
                   gboolean *match,
                   char **error)
{
	const char *op = req->op != NULL ? req->op : "";
	const char *value = node_label(node, req->key);
	gint64 want = 0;
	gint64 have = 0;

	if (strcmp(op, "In") == 0 || strcmp(op, "NotIn") == 0) {
		if (req->n_values == 0) {
			*error = g_strdup_printf("for '%s', '%s' set must be non-empty", op,
			                         req->key);
			return FALSE;
		}
		gboolean in = value != NULL && value_in(req, value);
		*match = strcmp(op, "In") == 0 ? in : !in;
		return TRUE;
	}
	if (strcmp(op, "Exists") == 0 || strcmp(op, "DoesNotExist") == 0) {
		if (req->n_values != 0) {
			*error = g_strdup_printf("values set must be empty for exists and does "
			                         "not exist");
			return FALSE;
		}
		*match = (value != NULL) == (strcmp(op, "Exists") == 0);
		return TRUE;
	}
	if (strcmp(op, "Gt") == 0 || strcmp(op, "Lt") == 0) {
		if (req->n_values != 1 || !parse_int64(req->values[0], &want)) {
			*error = g_strdup_printf("for 'Gt', 'Lt' operators, exactly one value is "
			                         "required and it must be an integer");
			return FALSE;
		}
		if (value == NULL || !parse_int64(value, &have)) {
			*match = FALSE;
			return TRUE;
		}
		*match = strcmp(op, "Gt") == 0 ? have > want : have < want;
		return TRUE;
	}
	*error = g_strdup_printf("%s is not a valid label selector operator", op);
	return FALSE;
}

static gboolean
field_matches(const DraNodeSelectorRequirement *req,
              const DraNode *node,
              gboolean *match,
              char **error)
{
	const char *op = req->op != NULL ? req->op : "";
	/* fields.Set{"metadata.name": node.Name}: other keys read as "" */
	const char *value = strcmp(req->key, "metadata.name") == 0 ? node->name : "";

	if (strcmp(op, "In") != 0 && strcmp(op, "NotIn") != 0) {
		*error = g_strdup_printf("%s is not a valid node field selector operator", op);
		return FALSE;
	}
	if (req->n_values != 1) {
		*error = g_strdup_printf("unexpected number of value (%u) for node field selector "
		                         "operator %s",
		                         req->n_values, op);
		return FALSE;
	}
	gboolean equal = strcmp(req->values[0], value) == 0;
	*match = strcmp(op, "In") == 0 ? equal : !equal;
	return TRUE;
}

static gboolean
term_matches(const DraNodeSelectorTerm *term, const DraNode *node, gboolean *match, char **error)
{
	gboolean all = TRUE;

	*match = FALSE;
	for (guint i = 0; i < term->n_match_expressions; i++) {
		gboolean m = FALSE;
		if (!expression_matches(&term->match_expressions[i], node, &m, error)) {
			return FALSE;
		}
		all = all && m;
	}
	for (guint i = 0; i < term->n_match_fields; i++) {
		gboolean m = FALSE;
		if (!field_matches(&term->match_fields[i], node, &m, error)) {
			return FALSE;
		}
		all = all && m;
	}
	/* an empty term matches no node */
	*match = all && (term->n_match_expressions + term->n_match_fields) > 0;
	return TRUE;
}

gboolean
dra_node_selector_matches(const DraNodeSelector *selector,
                          const DraNode *node,
                          gboolean *matches,
                          char **error_out)
{
	gboolean any = FALSE;

	*matches = FALSE;
	/* parse every term first: a bad term is an error even if an earlier one matches */
	for (guint i = 0; i < selector->n_terms; i++) {
		gboolean m = FALSE;
		if (node == NULL) {
			continue;
		}
		if (!term_matches(&selector->terms[i], node, &m, error_out)) {
			return FALSE;
		}
		any = any || m;
	}
	*matches = any;
	return TRUE;
}

gboolean
dra_node__matches(const DraNode *node,
                  const char *node_name,
                  gboolean all_nodes,
                  const DraNodeSelector *selector,
                  gboolean *match,
                  char **error)
{
	*match = FALSE;
	if (node_name != NULL && node_name[0] != '\0') {
		*match = node != NULL && strcmp(node->name, node_name) == 0;
		return TRUE;
	}
	if (all_nodes) {
		*match = TRUE;
		return TRUE;
	}
	if (selector != NULL) {
		g_autofree char *why = NULL;
		if (!dra_node_selector_matches(selector, node, match, &why)) {
			*error = g_strdup_printf("failed to parse node selector: %s", why);
			return FALSE;
		}
	}
	return TRUE;
}
