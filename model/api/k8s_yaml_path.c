/*
 * k8s_yaml_path.c: paths into a positioned YAML tree (k8s_yaml_path.h): the
 * parser of `spec.cluster.nodePools[name=dgx].count`, and the walk that
 * resolves one in a tree and puts a value there. A sweep varies a scenario
 * through these, so every error says which step failed and lists what is
 * there instead (keys, item names, the index range). Cold code: it runs once
 * per override, before anything is simulated.
 */
#include "k8s_yaml_path.h"

#include <string.h>

#include "base_strict.h"

G_DEFINE_QUARK(k8s - yaml - path - error - quark, k8s_yaml_path_error)

/* Names listed in one message at most (then "... and N more"). */
#define MAX_LISTED 16

struct K8sYamlPath {
	char *text;
	GArray *steps; /* K8sYamlPathStep */
};

static void
step_clear(gpointer data)
{
	K8sYamlPathStep *step = data;

	g_free(step->key);
	g_free(step->value);
}

void
k8s_yaml_path_free(K8sYamlPath *self)
{
	if (self == NULL)
		return;
	g_free(self->text);
	g_array_unref(self->steps);
	g_free(self);
}

const char *
k8s_yaml_path_get_text(const K8sYamlPath *self)
{
	return self->text;
}

guint
k8s_yaml_path_get_n_steps(const K8sYamlPath *self)
{
	return self->steps->len;
}

const K8sYamlPathStep *
k8s_yaml_path_get_step(const K8sYamlPath *self, guint index)
{
	g_return_val_if_fail(index < self->steps->len, NULL);
	return &g_array_index(self->steps, K8sYamlPathStep, index);
}

/* ---- parsing --------------------------------------------------------------------------- */

typedef struct {
	const char *text;
	gsize len;
	gsize i; /* the next byte */
	GError **error;
} PathLexer;

static gboolean G_GNUC_PRINTF(2, 3) syntax_error(PathLexer *lx, const char *format, ...)
{
	g_autofree char *what = NULL;
	va_list ap;

	va_start(ap, format);
	what = g_strdup_vprintf(format, ap);
	va_end(ap);
	g_set_error(lx->error, K8S_YAML_PATH_ERROR, K8S_YAML_PATH_ERROR_SYNTAX,
	            "bad path (character %" G_GSIZE_FORMAT "): %s; write one like "
	            "spec.cluster.nodePools[0].count or spec.cluster.nodePools[name=dgx].count",
	            lx->i + 1, what);
	return FALSE;
}

static gboolean
is_bare_char(char c)
{
	return c != '.' && c != '[' && c != ']' && c != '"' && c != '=' && !g_ascii_isspace(c) &&
	       !g_ascii_iscntrl(c);
}

/* What the byte at the lexer is, for messages: "'x'" or "the end". */
static const char *
shown_char(const PathLexer *lx, char buf[8])
{
	if (lx->i >= lx->len)
		return "the end of the path";
	g_snprintf(buf, 8, "'%c'", lx->text[lx->i]);
	return buf;
}

/* A bare key (or F of [F=V]) into *@out; FALSE when there is none. */
static gboolean
lex_bare(PathLexer *lx, const char *what, char **out)
{
	gsize start = lx->i;
	char buf[8];

	while (lx->i < lx->len && is_bare_char(lx->text[lx->i]))
		lx->i++;
	if (lx->i == start)
		return syntax_error(lx, "expected %s, got %s", what, shown_char(lx, buf));
	*out = g_strndup(lx->text + start, lx->i - start);
	return TRUE;
}

/* A "quoted" string (the lexer at the opening quote) into *@out. */
static gboolean
lex_quoted(PathLexer *lx, char **out)
{
	GString *s = g_string_new(NULL);

	lx->i++;
	while (lx->i < lx->len && lx->text[lx->i] != '"') {
		if (lx->text[lx->i] == '\\' && lx->i + 1 < lx->len &&
		    (lx->text[lx->i + 1] == '"' || lx->text[lx->i + 1] == '\\'))
			lx->i++;
		g_string_append_c(s, lx->text[lx->i++]);
	}
	if (lx->i >= lx->len) {
		g_string_free(s, TRUE);
		return syntax_error(lx, "a quoted key is not closed with '\"'");
	}
	lx->i++;
	*out = g_string_free(s, FALSE);
	return TRUE;
}

static gboolean
lex_close(PathLexer *lx)
{
	char buf[8];

	if (lx->i < lx->len && lx->text[lx->i] == ']') {
		lx->i++;
		return TRUE;
	}
	return syntax_error(lx, "expected ']', got %s", shown_char(lx, buf));
}

static gboolean
lex_index(PathLexer *lx, K8sYamlPathStep *step)
{
	guint64 n = 0;

	step->kind = K8S_YAML_STEP_INDEX;
	while (lx->i < lx->len && g_ascii_isdigit(lx->text[lx->i])) {
		n = n * 10 + (guint64)(lx->text[lx->i] - '0');
		if (n > G_MAXINT32)
			return syntax_error(lx, "the index is too large (at most %d)", G_MAXINT32);
		lx->i++;
	}
	step->index = (guint)n;
	return lex_close(lx);
}

/* [N], ["KEY"] or [F=V], the lexer at '['. */
static gboolean
lex_bracket(PathLexer *lx, K8sYamlPathStep *step)
{
	char c;

	lx->i++;
	c = lx->i < lx->len ? lx->text[lx->i] : '\0';
	if (g_ascii_isdigit(c))
		return lex_index(lx, step);
	if (c == '"') {
		step->kind = K8S_YAML_STEP_KEY;
		return lex_quoted(lx, &step->key) && lex_close(lx);
	}
	if (!is_bare_char(c) || c == '-')
		return syntax_error(lx, "expected an index [0], a quoted key [\"key\"] or an item "
		                        "[name=value] after '['");
	step->kind = K8S_YAML_STEP_MATCH;
	if (!lex_bare(lx, "a field name", &step->key))
		return FALSE;
	if (lx->i >= lx->len || lx->text[lx->i] != '=')
		return syntax_error(lx, "expected '=' after [%s (an item is picked as [%s=value])",
		                    step->key, step->key);
	lx->i++;
	if (lx->i < lx->len && lx->text[lx->i] == '"')
		return lex_quoted(lx, &step->value) && lex_close(lx);
	{
		gsize start = lx->i;

		while (lx->i < lx->len && lx->text[lx->i] != ']')
			lx->i++;
		if (lx->i == start)
			return syntax_error(lx, "expected a value after [%s=", step->key);
		step->value = g_strndup(lx->text + start, lx->i - start);
	}
	return lex_close(lx);
}

static gboolean
lex_step(PathLexer *lx, gboolean first, K8sYamlPathStep *step)
{
	char buf[8];

	if (lx->text[lx->i] == '[')
		return lex_bracket(lx, step);
	if (!first) {
		if (lx->text[lx->i] != '.')
			return syntax_error(lx, "expected '.' or '[' after a step, got %s",
			                    shown_char(lx, buf));
		lx->i++;
	}
	step->kind = K8S_YAML_STEP_KEY;
	return lex_bare(lx, first ? "a key" : "a key after '.'", &step->key);
}

K8sYamlPath *
k8s_yaml_path_parse(const char *text, GError **error)
{
	g_autoptr(K8sYamlPath) self = g_new0(K8sYamlPath, 1);
	PathLexer lx = { text, strlen(text), 0, error };

	self->text = g_strdup(text);
	self->steps = g_array_new(FALSE, TRUE, sizeof(K8sYamlPathStep));
	g_array_set_clear_func(self->steps, step_clear);
	if (lx.len == 0) {
		syntax_error(&lx, "the path is empty");
		return NULL;
	}
	if (lx.len > K8S_YAML_PATH_MAX_LEN) {
		lx.i = K8S_YAML_PATH_MAX_LEN;
		syntax_error(&lx, "the path is %" G_GSIZE_FORMAT " bytes long (at most %d)", lx.len,
		             K8S_YAML_PATH_MAX_LEN);
		return NULL;
	}
	while (lx.i < lx.len) {
		K8sYamlPathStep step = { 0 };
		gboolean ok;

		if (self->steps->len == K8S_YAML_PATH_MAX_STEPS) {
			syntax_error(&lx, "more than %d steps (no document is deeper)",
			             K8S_YAML_PATH_MAX_STEPS);
			return NULL;
		}
		ok = lex_step(&lx, self->steps->len == 0, &step);
		step.end = (guint)lx.i;
		g_array_append_val(self->steps, step); /* freed with the path, ok or not */
		if (!ok)
			return NULL;
	}
	return g_steal_pointer(&self);
}

/* ---- resolving ----------------------------------------------------------------------- */

/* Where the walk is: the node a step reached and the slot that holds it. */
typedef struct {
	const K8sYamlPath *path;
	K8sYamlNode *nodes[K8S_YAML_PATH_MAX_STEPS + 1]; /* nodes[0]: the root */
	K8sYamlNode **slots[K8S_YAML_PATH_MAX_STEPS + 1];
	guint depth;  /* steps resolved */
	gboolean add; /* the last step is a key to add to nodes[depth] */
	GError **error;
} PathWalk;

/* The path text up to the end of step @n ("the document" for none). */
static char *
prefix(const K8sYamlPath *path, guint n)
{
	if (n == 0)
		return g_strdup("the document");
	return g_strndup(path->text, k8s_yaml_path_get_step(path, n - 1)->end);
}

static gboolean G_GNUC_PRINTF(3, 4) not_found(PathWalk *w, guint step, const char *format, ...)
{
	g_autofree char *where = prefix(w->path, step + 1);
	g_autofree char *what = NULL;
	va_list ap;

	va_start(ap, format);
	what = g_strdup_vprintf(format, ap);
	va_end(ap);
	g_set_error(w->error, K8S_YAML_PATH_ERROR, K8S_YAML_PATH_ERROR_NOT_FOUND, "%s: %s", where,
	            what);
	return FALSE;
}

/* Appends "a, b, c" (at most MAX_LISTED, then "... and N more"). */
static void
append_list(GString *out, const char *const *names, guint n)
{
	for (guint i = 0; i < n && i < MAX_LISTED; i++)
		g_string_append_printf(out, "%s%s", i > 0 ? ", " : "", names[i]);
	if (n > MAX_LISTED)
		g_string_append_printf(out, ", ... and %u more", n - MAX_LISTED);
}

/* "the keys here are a, b" (or "the mapping here is empty"), with a typo hint for @want. */
static char *
keys_here(const K8sYamlNode *map, const char *want)
{
	g_autofree const char **keys = g_new0(const char *, map->map.n + 1);
	GString *out = g_string_new(NULL);
	const char *closest;

	for (guint i = 0; i < map->map.n; i++)
		keys[i] = map->map.pairs[i].key->scalar.text;
	closest = want != NULL ? base_strict_closest(want, keys) : NULL;
	if (closest != NULL)
		g_string_append_printf(out, "did you mean %s? ", closest);
	if (map->map.n == 0) {
		g_string_append(out, "the mapping here is empty");
	} else {
		g_string_append(out, "the keys here are ");
		append_list(out, keys, map->map.n);
	}
	return g_string_free(out, FALSE);
}

/* "the list has 2 items (0-1)" or "the list is empty". */
static char *
items_here(const K8sYamlNode *seq)
{
	if (seq->seq.n == 0)
		return g_strdup("the list is empty");
	if (seq->seq.n == 1)
		return g_strdup("the list has 1 item (0)");
	return g_strdup_printf("the list has %u items (0-%u)", seq->seq.n, seq->seq.n - 1);
}

/* The bytes of a scalar a message shows: a long one is cut (at a character boundary). */
static guint
shown_len(const K8sYamlNode *scalar)
{
	guint len = MIN(scalar->scalar.len, 40);

	while (len < scalar->scalar.len && len > 0 &&
	       ((guchar)scalar->scalar.text[len] & 0xc0) == 0x80)
		len--;
	return len;
}

/* What is at @node when a step expected another kind of node there. */
static gboolean
wrong_kind(PathWalk *w, guint step, const K8sYamlNode *node)
{
	const K8sYamlPathStep *s = k8s_yaml_path_get_step(w->path, step);
	g_autofree char *parent = prefix(w->path, step);
	g_autofree char *here = NULL;

	if (node->kind == K8S_YAML_MAPPING) {
		guint start = step > 0 ? k8s_yaml_path_get_step(w->path, step - 1)->end : 0;

		here = keys_here(node, NULL);
		return not_found(w, step, "%.*s on a mapping, not a list; %s",
		                 (int)(s->end - start), w->path->text + start, here);
	}
	if (node->kind == K8S_YAML_SEQUENCE) {
		here = items_here(node);
		return not_found(w, step,
		                 "%s is a list, not a mapping; pick an item with [0] or "
		                 "[name=...] first (%s)",
		                 parent, here);
	}
	return not_found(w, step, "%s is a scalar (%s %.*s%s), not a %s", parent,
	                 k8s_yaml_node_type_name(node), (int)shown_len(node), node->scalar.text,
	                 shown_len(node) < node->scalar.len ? "..." : "",
	                 s->kind == K8S_YAML_STEP_KEY ? "mapping" : "list");
}

static gboolean
walk_key(PathWalk *w, guint step, K8sYamlNode *node, gboolean last)
{
	const char *key = k8s_yaml_path_get_step(w->path, step)->key;
	g_autofree char *here = NULL;

	if (node->kind != K8S_YAML_MAPPING)
		return wrong_kind(w, step, node);
	for (guint i = 0; i < node->map.n; i++) {
		if (strcmp(node->map.pairs[i].key->scalar.text, key) == 0) {
			w->slots[step + 1] = &node->map.pairs[i].value;
			w->nodes[step + 1] = node->map.pairs[i].value;
			return TRUE;
		}
	}
	if (last && w->add)
		return TRUE; /* k8s_yaml_path_set() adds it */
	here = keys_here(node, key);
	return not_found(w, step, "no key %s; %s", key, here);
}

static gboolean
walk_index(PathWalk *w, guint step, K8sYamlNode *node)
{
	guint index = k8s_yaml_path_get_step(w->path, step)->index;
	g_autofree char *here = NULL;

	if (node->kind != K8S_YAML_SEQUENCE)
		return wrong_kind(w, step, node);
	if (index >= node->seq.n) {
		here = items_here(node);
		return not_found(w, step, "index out of range, %s", here);
	}
	w->slots[step + 1] = &node->seq.items[index];
	w->nodes[step + 1] = node->seq.items[index];
	return TRUE;
}

/* The scalar text of @item's @field, or NULL. */
static const char *
item_field(const K8sYamlNode *item, const char *field)
{
	const K8sYamlNode *v = k8s_yaml_map_lookup(item, field);

	return v != NULL && v->kind == K8S_YAML_SCALAR ? v->scalar.text : NULL;
}

/* No item of @seq has @field == @value: say which values there are. */
static gboolean
no_match(PathWalk *w, guint step, const K8sYamlNode *seq)
{
	const K8sYamlPathStep *s = k8s_yaml_path_get_step(w->path, step);
	g_autoptr(GPtrArray) values = g_ptr_array_new();
	gboolean by_name = strcmp(s->key, "name") == 0;
	g_autoptr(GString) have = g_string_new(NULL);

	for (guint i = 0; i < seq->seq.n; i++) {
		const char *v = item_field(seq->seq.items[i], s->key);

		if (v != NULL)
			g_ptr_array_add(values, (gpointer)v);
	}
	if (values->len == 0) {
		g_autofree char *here = items_here(seq);

		return not_found(w, step, "no item has a %s; %s", s->key, here);
	}
	append_list(have, (const char *const *)values->pdata, values->len);
	if (by_name)
		return not_found(w, step, "no item named %s; the items are named %s", s->value,
		                 have->str);
	return not_found(w, step, "no item with %s=%s; the items have %s %s", s->key, s->value,
	                 s->key, have->str);
}

static gboolean
walk_match(PathWalk *w, guint step, K8sYamlNode *node)
{
	const K8sYamlPathStep *s = k8s_yaml_path_get_step(w->path, step);
	guint found = G_MAXUINT;

	if (node->kind != K8S_YAML_SEQUENCE)
		return wrong_kind(w, step, node);
	for (guint i = 0; i < node->seq.n; i++) {
		const char *v = item_field(node->seq.items[i], s->key);

		if (v == NULL || strcmp(v, s->value) != 0)
			continue;
		if (found != G_MAXUINT)
			return not_found(w, step,
			                 "items %u and %u both have %s %s; pick one by "
			                 "index",
			                 found, i, s->key, s->value);
		found = i;
	}
	if (found == G_MAXUINT)
		return no_match(w, step, node);
	w->slots[step + 1] = &node->seq.items[found];
	w->nodes[step + 1] = node->seq.items[found];
	return TRUE;
}

/* Resolves every step; with w->add the last may name a key to add (slot NULL). */
static gboolean
walk(PathWalk *w, K8sYamlNode *root)
{
	guint n = k8s_yaml_path_get_n_steps(w->path);

	w->nodes[0] = root;
	w->slots[0] = NULL;
	for (guint i = 0; i < n; i++) {
		const K8sYamlPathStep *s = k8s_yaml_path_get_step(w->path, i);
		gboolean ok;

		w->slots[i + 1] = NULL;
		w->nodes[i + 1] = NULL;
		if (s->kind == K8S_YAML_STEP_KEY)
			ok = walk_key(w, i, w->nodes[i], i + 1 == n);
		else if (s->kind == K8S_YAML_STEP_INDEX)
			ok = walk_index(w, i, w->nodes[i]);
		else
			ok = walk_match(w, i, w->nodes[i]);
		if (!ok)
			return FALSE;
	}
	w->depth = n;
	return TRUE;
}

const K8sYamlNode *
k8s_yaml_path_resolve(const K8sYamlNode *root, const K8sYamlPath *path, GError **error)
{
	PathWalk w = { .path = path, .error = error };

	/* the walk only reads: the slots it records are used by k8s_yaml_path_set() */
	if (!walk(&w, (K8sYamlNode *)root))
		return NULL;
	return w.nodes[w.depth];
}

/* ---- setting ------------------------------------------------------------------------- */

/* Levels of nesting under and including @node (bounded by the parser's depth limit). */
static guint
node_depth(const K8sYamlNode *node)
{
	guint n = node->kind == K8S_YAML_MAPPING    ? node->map.n
	          : node->kind == K8S_YAML_SEQUENCE ? node->seq.n
	                                            : 0;
	guint deepest = 0;

	/* one call per child: MAX() would evaluate it twice, 2^depth calls */
	for (guint i = 0; i < n; i++) {
		guint d = node_depth(node->kind == K8S_YAML_MAPPING ? node->map.pairs[i].value
		                                                    : node->seq.items[i]);

		deepest = MAX(deepest, d);
	}
	return deepest + 1;
}

/* Gives every node of a freshly copied subtree the position @line:@col. */
static void
place(K8sYamlNode *node, guint32 line, guint32 col)
{
	node->line = line;
	node->col = col;
	if (node->kind == K8S_YAML_MAPPING) {
		for (guint i = 0; i < node->map.n; i++) {
			place(node->map.pairs[i].key, line, col);
			place(node->map.pairs[i].value, line, col);
		}
	} else if (node->kind == K8S_YAML_SEQUENCE) {
		for (guint i = 0; i < node->seq.n; i++)
			place(node->seq.items[i], line, col);
	}
}

/* Adds @key: @value at the end of mapping @map (the pairs array is copied, never grown). */
static void
add_pair(K8sYamlNode *map,
         const char *key,
         K8sYamlNode *value,
         BaseArena *arena,
         GStringChunk *strings)
{
	K8sYamlPair *pairs = base_arena_new0(arena, K8sYamlPair, map->map.n + 1);
	K8sYamlNode *k = base_arena_new0(arena, K8sYamlNode, 1);

	k->kind = K8S_YAML_SCALAR;
	k->style = K8S_YAML_STYLE_DOUBLE_QUOTED; /* a key is a string, whatever its text */
	k->size = 1;
	k->scalar.text = g_string_chunk_insert_const(strings, key);
	k->scalar.len = (guint32)strlen(key);
	place(k, map->line, map->col);
	if (map->map.n > 0)
		memcpy(pairs, map->map.pairs, map->map.n * sizeof(K8sYamlPair));
	pairs[map->map.n].key = k;
	pairs[map->map.n].value = value;
	map->map.pairs = pairs;
	map->map.n++;
}

/* Subtree sizes above the changed node (saturating, like the parser's). */
static void
adjust_sizes(PathWalk *w, guint32 removed, guint32 added)
{
	for (guint i = 0; i < w->depth; i++) {
		guint64 size = (guint64)w->nodes[i]->size - MIN(removed, w->nodes[i]->size) + added;

		w->nodes[i]->size = (guint32)MIN(size, G_MAXUINT32);
	}
}

gboolean
k8s_yaml_path_set(K8sYamlNode *root,
                  const K8sYamlPath *path,
                  const K8sYamlNode *value,
                  BaseArena *arena,
                  GStringChunk *strings,
                  GError **error)
{
	PathWalk w = { .path = path, .add = TRUE, .error = error };
	guint n = k8s_yaml_path_get_n_steps(path);
	K8sYamlNode *copy;

	if (!walk(&w, root))
		return FALSE;
	if (n + node_depth(value) > K8S_YAML_MAX_DEPTH) {
		g_set_error(error, K8S_YAML_PATH_ERROR, K8S_YAML_PATH_ERROR_VALUE,
		            "%s: the value is nested %u deep there, deeper than %d", path->text,
		            n + node_depth(value), K8S_YAML_MAX_DEPTH);
		return FALSE;
	}
	copy = k8s_yaml_copy(value, arena, strings);
	if (w.slots[n] == NULL) {
		K8sYamlNode *map = w.nodes[n - 1];

		place(copy, map->line, map->col);
		add_pair(map, k8s_yaml_path_get_step(path, n - 1)->key, copy, arena, strings);
		adjust_sizes(&w, 0, copy->size + 1); /* the mapping and its ancestors grow */
		return TRUE;
	}
	place(copy, w.nodes[n]->line, w.nodes[n]->col);
	*w.slots[n] = copy;
	adjust_sizes(&w, w.nodes[n]->size, copy->size);
	return TRUE;
}
