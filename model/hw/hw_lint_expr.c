/*
 * hw_lint_expr.c: a scanner for the parts of CEL selectors that lint can judge
 * without evaluating them (see hw-lint-private.h). It tolerates anything else: text
 * it does not understand is skipped, never reported.
 */
#include <string.h>

#include "hw-lint-private.h"

static void
ref_clear(HwRef *ref)
{
	g_free(ref->domain);
	g_free(ref->name);
}

static void
cond_clear(HwCond *cond)
{
	g_free(cond->domain);
	g_free(cond->name);
	g_free(cond->str);
}

void
hw_selector_scan_init(HwSelectorScan *scan)
{
	scan->refs = g_array_new(FALSE, TRUE, sizeof(HwRef));
	g_array_set_clear_func(scan->refs, (GDestroyNotify)ref_clear);
	scan->conds = g_array_new(FALSE, TRUE, sizeof(HwCond));
	g_array_set_clear_func(scan->conds, (GDestroyNotify)cond_clear);
	scan->has_top_level_or = FALSE;
}

void
hw_selector_scan_clear(HwSelectorScan *scan)
{
	g_clear_pointer(&scan->refs, g_array_unref);
	g_clear_pointer(&scan->conds, g_array_unref);
}

static const char *
skip_space(const char *p)
{
	while (g_ascii_isspace(*p)) {
		p++;
	}
	return p;
}

/* A quoted string at @p; returns the character after it, or NULL. */
static const char *
quoted(const char *p, char **out)
{
	char quote = *p;
	GString *text;

	if (quote != '\'' && quote != '"') {
		return NULL;
	}
	text = g_string_new(NULL);
	for (p++; *p != '\0' && *p != quote; p++) {
		if (*p == '\\' && p[1] != '\0') {
			p++;
		}
		g_string_append_c(text, *p);
	}
	if (*p != quote) {
		g_string_free(text, TRUE);
		return NULL;
	}
	*out = g_string_free(text, FALSE);
	return p + 1;
}

static gboolean
ident_char(char c)
{
	return g_ascii_isalnum(c) || c == '_';
}

/* `device.attributes["d"].name` or `device.capacity["d"]["name"]` at @p. */
static const char *
parse_ref(const char *start, const char *p, HwRef *ref)
{
	static const struct {
		const char *text;
		HwRefKind kind;
	} heads[] = { { "device.attributes", HW_REF_ATTRIBUTE },
		      { "device.capacity", HW_REF_CAPACITY } };
	g_autofree char *domain = NULL;
	g_autofree char *name = NULL;

	if (p > start && (ident_char(p[-1]) || p[-1] == '.')) {
		return NULL;
	}
	for (guint i = 0; i < G_N_ELEMENTS(heads); i++) {
		if (!g_str_has_prefix(p, heads[i].text)) {
			continue;
		}
		const char *q = skip_space(p + strlen(heads[i].text));
		if (*q != '[' || (q = quoted(skip_space(q + 1), &domain)) == NULL ||
		    *(q = skip_space(q)) != ']') {
			return NULL;
		}
		q = skip_space(q + 1);
		if (*q == '.') {
			const char *from = q = skip_space(q + 1);
			while (ident_char(*q)) {
				q++;
			}
			if (q == from) {
				return NULL;
			}
			name = g_strndup(from, (gsize)(q - from));
		} else if (*q == '[') {
			if ((q = quoted(skip_space(q + 1), &name)) == NULL ||
			    *(q = skip_space(q)) != ']') {
				return NULL;
			}
			q++;
		} else {
			return NULL;
		}
		*ref = (HwRef){ heads[i].kind, g_steal_pointer(&domain), g_steal_pointer(&name),
			        (gsize)(p - start), FALSE };
		return q;
	}
	return NULL;
}

/* Inside has(...)? Look back from @p over spaces for "has(". */
static gboolean
is_guarded(const char *start, const char *p)
{
	while (p > start && g_ascii_isspace(p[-1])) {
		p--;
	}
	if (p == start || p[-1] != '(') {
		return FALSE;
	}
	p--;
	while (p > start && g_ascii_isspace(p[-1])) {
		p--;
	}
	return p - start >= 3 && strncmp(p - 3, "has", 3) == 0 &&
	       (p - start == 3 || !ident_char(p[-4]));
}

static void
scan_refs(HwSelectorScan *scan, const char *expression)
{
	const char *p = expression;

	while (*p != '\0') {
		HwRef ref;
		const char *next;

		if (*p == '\'' || *p == '"') {
			g_autofree char *skipped = NULL;
			next = quoted(p, &skipped);
			p = next ? next : p + 1;
			continue;
		}
		next = parse_ref(expression, p, &ref);
		if (next == NULL) {
			p++;
			continue;
		}
		ref.guarded = is_guarded(expression, p);
		g_array_append_val(scan->refs, ref);
		p = next;
	}
}

/* Splits at top-level && (outside brackets and strings); notes a top-level ||. */
static GPtrArray *
split_conjuncts(const char *expression, gboolean *has_or)
{
	GPtrArray *parts = g_ptr_array_new_with_free_func(g_free);
	const char *from = expression, *p = expression;
	int depth = 0;

	while (*p != '\0') {
		if (*p == '\'' || *p == '"') {
			g_autofree char *skipped = NULL;
			const char *next = quoted(p, &skipped);
			p = next ? next : p + 1;
			continue;
		}
		depth += (*p == '(' || *p == '[' || *p == '{') ? 1 : 0;
		depth -= (*p == ')' || *p == ']' || *p == '}') ? 1 : 0;
		if (depth == 0 && p[0] == '|' && p[1] == '|') {
			*has_or = TRUE;
		}
		if (depth == 0 && p[0] == '&' && p[1] == '&') {
			g_ptr_array_add(parts, g_strstrip(g_strndup(from, (gsize)(p - from))));
			from = p + 2;
			p += 2;
			continue;
		}
		p++;
	}
	g_ptr_array_add(parts, g_strstrip(g_strdup(from)));
	return parts;
}

/* A literal that makes up all of @p: string, bool or int. */
static gboolean
parse_literal(const char *p, HwCond *cond)
{
	g_autofree char *text = NULL;
	const char *end;

	p = skip_space(p);
	if ((end = quoted(p, &text)) != NULL && *skip_space(end) == '\0') {
		cond->type = HW_ATTR_STRING;
		cond->str = g_steal_pointer(&text);
		return TRUE;
	}
	if (strcmp(p, "true") == 0 || strcmp(p, "false") == 0) {
		cond->type = HW_ATTR_BOOL;
		cond->num = p[0] == 't';
		return TRUE;
	}
	if (g_ascii_string_to_signed(p, 10, G_MININT64, G_MAXINT64, &cond->num, NULL)) {
		cond->type = HW_ATTR_INT;
		return TRUE;
	}
	return FALSE;
}

static void
scan_conjunct(HwSelectorScan *scan, const char *text)
{
	HwCond cond = { 0 };
	HwRef ref;
	const char *after;

	if (g_str_has_prefix(text, "has(") && g_str_has_suffix(text, ")")) {
		after = parse_ref(text, skip_space(text + 4), &ref);
		if (after != NULL && *skip_space(after) == ')' && skip_space(after)[1] == '\0') {
			cond = (HwCond){ HW_COND_HAS, ref.kind, ref.domain, ref.name, 0, NULL, 0 };
			g_array_append_val(scan->conds, cond);
		} else if (after != NULL) {
			ref_clear(&ref);
		}
		return;
	}
	if (g_str_has_prefix(text, "device.driver")) {
		after = skip_space(text + strlen("device.driver"));
		if (g_str_has_prefix(after, "==") && parse_literal(after + 2, &cond) &&
		    cond.type == HW_ATTR_STRING) {
			cond.kind = HW_COND_DRIVER;
			g_array_append_val(scan->conds, cond);
		} else {
			cond_clear(&cond);
		}
		return;
	}
	after = parse_ref(text, text, &ref);
	if (after == NULL) {
		return;
	}
	after = skip_space(after);
	if (g_str_has_prefix(after, "==") && parse_literal(after + 2, &cond)) {
		cond.kind = HW_COND_EQUAL;
		cond.ref_kind = ref.kind;
		cond.domain = g_steal_pointer(&ref.domain);
		cond.name = g_steal_pointer(&ref.name);
		g_array_append_val(scan->conds, cond);
	} else {
		cond_clear(&cond);
	}
	ref_clear(&ref);
}

void
hw_selector_scan(HwSelectorScan *scan, const char *expression, gboolean refs_too)
{
	gboolean has_or = FALSE;
	g_autoptr(GPtrArray) parts = split_conjuncts(expression, &has_or);

	if (refs_too) {
		scan_refs(scan, expression);
	}
	if (has_or) {
		/* Only the selector under check matters here; a class selector with || just
		 * contributes no conditions. */
		scan->has_top_level_or = scan->has_top_level_or || refs_too;
		return;
	}
	for (guint i = 0; i < parts->len; i++) {
		scan_conjunct(scan, g_ptr_array_index(parts, i));
	}
}
