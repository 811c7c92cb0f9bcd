/*
 * k8s_yaml.c: libyaml events -> positioned node tree.
 *
 * The builder is iterative: open collections are frames on an explicit stack and
 * their children wait in one shared scratch vector, so a collection costs one
 * arena copy when it closes and deep input cannot overflow the C stack. Keys and
 * short scalars are interned, so duplicate-key checks compare pointers.
 * Everything that goes wrong becomes a diagnostic with a position; nothing here
 * aborts on bad input.
 */
#include "k8s_yaml.h"

#include <string.h>

#include <yaml.h>

#include "base.h"
#include "k8s_yaml_feed.h"

#define INTERN_MAX_LEN   128
#define FLAG_OPEN        K8S_YAML_FLAG_OPEN
#define MAX_ALIAS_FACTOR 10

typedef struct {
	K8sYamlNode *node;
	guint first_child; /* index into scratch */
} Frame;

typedef struct {
	const char *file;
	const char *data;
	gsize len;
	K8sArena *arena; /* where nodes go now: main_arena, or item_arena inside a List item */
	K8sArena *main_arena;
	K8sArena *item_arena; /* List items, reset after each one is handed to item_fn */
	K8sYamlItemFn item_fn;
	gpointer user_data;
	gboolean in_items;     /* frames[1] is the top-level `items` sequence */
	gboolean in_item;      /* frames[2] is a List item being streamed */
	gboolean anchors_seen; /* nodes may be shared: never reset the item arena */
	guint item_index;
	K8sYamlNode *placeholder;
	GStringChunk *strings;
	K8sDiagList *diags;
	gboolean json;
	GArray *frames;      /* Frame */
	GPtrArray *scratch;  /* children of open collections (pairs as key, value) */
	GHashTable *anchors; /* anchor name (owned) -> K8sYamlNode* */
	GArray *docs;        /* K8sYamlDoc */
	K8sYamlNode *root;   /* root of the current document */
	guint doc_index;
	guint doc_real_nodes; /* nodes created in this document */
	gboolean first_root_flow;
	gboolean failed; /* any error */
	gboolean fatal;  /* the tree is unusable from here on: stop */
	/* base.h limits, read once per file: nodes of the file, nesting */
	guint64 n_nodes, max_nodes;
	guint max_depth;
} Builder;

static K8sPos
mark_pos(const Builder *b, yaml_mark_t mark)
{
	K8sPos pos = { b->file, (guint32)mark.line + 1, (guint32)mark.column + 1 };

	return pos;
}

static void fail(Builder *b, yaml_mark_t mark, const char *format, ...) G_GNUC_PRINTF(3, 4);

static void
fail(Builder *b, yaml_mark_t mark, const char *format, ...)
{
	K8sPos pos = mark_pos(b, mark);
	va_list args;

	va_start(args, format);
	k8s_diag_list_addv(b->diags, K8S_SEVERITY_ERROR, &pos, NULL, format, args);
	va_end(args);
	b->failed = TRUE;
	b->fatal = TRUE;
}

static const char *
intern(Builder *b, const char *text, gsize len)
{
	if (len <= INTERN_MAX_LEN) {
		return g_string_chunk_insert_const(b->strings, text);
	}
	return g_string_chunk_insert_len(b->strings, text, (gssize)len);
}

static K8sYamlNode *
new_node(Builder *b, K8sYamlKind kind, yaml_mark_t mark, const char *tag)
{
	K8sYamlNode *node = k8s_arena_new0(b->arena, K8sYamlNode, 1);

	node->kind = kind;
	node->line = (guint32)mark.line + 1;
	node->col = (guint32)mark.column + 1;
	node->size = 1;
	if (tag != NULL && tag[0] != '\0' && strcmp(tag, "!") != 0) {
		node->tag = g_string_chunk_insert_const(b->strings, tag);
	}
	b->doc_real_nodes++;
	return node;
}

static guint32
add_size(guint32 a, guint32 b)
{
	return a > G_MAXUINT32 - b ? G_MAXUINT32 : a + b;
}

/* Attach a finished node to the open collection, or make it the document root. */
static void
add_child(Builder *b, K8sYamlNode *node)
{
	if (b->frames->len == 0) {
		b->root = node;
		return;
	}
	g_ptr_array_add(b->scratch, node);
}

static void
register_anchor(Builder *b, const yaml_char_t *anchor, K8sYamlNode *node)
{
	if (anchor != NULL) {
		g_hash_table_replace(b->anchors, g_strdup((const char *)anchor), node);
		b->anchors_seen = TRUE;
	}
}

/* Block scalars remember their content indentation in flags, for k8s_yaml_text_pos. */
static void
note_block_indent(Builder *b, K8sYamlNode *node, yaml_mark_t start)
{
	gsize i = start.index;
	guint indent = 0;

	while (i < b->len && b->data[i] != '\n') {
		i++;
	}
	i++;
	while (i < b->len && b->data[i] == '\n') {
		i++; /* leading empty lines belong to the content; rare, approximate */
	}
	while (i < b->len && b->data[i] == ' ') {
		indent++;
		i++;
	}
	node->scalar.block_indent = (guint16)MIN(indent, G_MAXUINT16);
}

static gboolean
json_literal(const char *text)
{
	static GRegex *number;

	if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0 || strcmp(text, "null") == 0) {
		return TRUE;
	}
	if (g_once_init_enter(&number)) {
		GRegex *re = g_regex_new("^-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][-+]?[0-9]+)?$",
		                         G_REGEX_OPTIMIZE, 0, NULL);
		g_once_init_leave(&number, re);
	}
	return g_regex_match(number, text, 0, NULL);
}

static void
on_scalar(Builder *b, const yaml_event_t *event)
{
	const char *text = (const char *)event->data.scalar.value;
	gsize len = event->data.scalar.length;
	K8sYamlNode *node;

	if (memchr(text, '\0', len) != NULL) {
		fail(b, event->start_mark, "NUL character in a string");
		return;
	}
	if (b->json) {
		if (event->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !json_literal(text)) {
			gboolean is_key =
			        b->frames->len > 0 &&
			        g_array_index(b->frames, Frame, b->frames->len - 1).node->kind ==
			                K8S_YAML_MAPPING &&
			        (b->scratch->len -
			         g_array_index(b->frames, Frame, b->frames->len - 1).first_child) %
			                        2 ==
			                0;
			fail(b, event->start_mark,
			     "JSON/YAML mix: unquoted %s '%s' in a JSON document (JSON strings "
			     "need "
			     "double quotes)",
			     is_key ? "key" : "value", text);
			return;
		}
		if (event->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		    event->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
		    event->data.scalar.style == YAML_FOLDED_SCALAR_STYLE) {
			fail(b, event->start_mark,
			     "JSON/YAML mix: YAML-style string in a JSON document (use double "
			     "quotes)");
			return;
		}
	}
	node = new_node(b, K8S_YAML_SCALAR, event->start_mark,
	                (const char *)event->data.scalar.tag);
	node->scalar.text = intern(b, text, len);
	node->scalar.len = (guint32)len;
	switch (event->data.scalar.style) {
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
		node->style = K8S_YAML_STYLE_SINGLE_QUOTED;
		break;
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		node->style = K8S_YAML_STYLE_DOUBLE_QUOTED;
		break;
	case YAML_LITERAL_SCALAR_STYLE:
		node->style = K8S_YAML_STYLE_LITERAL;
		note_block_indent(b, node, event->start_mark);
		break;
	case YAML_FOLDED_SCALAR_STYLE:
		node->style = K8S_YAML_STYLE_FOLDED;
		note_block_indent(b, node, event->start_mark);
		break;
	default:
		node->style = K8S_YAML_STYLE_PLAIN;
		break;
	}
	node->scalar.resolved = (guint8)(k8s_yaml_scalar_type(node) + 1);
	register_anchor(b, event->data.scalar.anchor, node);
	add_child(b, node);
}

/* TRUE when the open root mapping already has a `kind` that is not a List: then its
 * `items` (a typo, or a field of some kind) must not be decoded as objects. */
static gboolean
kind_is_not_list(const Builder *b, const Frame *root)
{
	for (guint i = root->first_child; i + 1 < b->scratch->len; i += 2) {
		const K8sYamlNode *key = g_ptr_array_index(b->scratch, i);
		const K8sYamlNode *value = g_ptr_array_index(b->scratch, i + 1);

		if (key->kind == K8S_YAML_SCALAR && strcmp(key->scalar.text, "kind") == 0) {
			return value->kind != K8S_YAML_SCALAR ||
			       !g_str_has_suffix(value->scalar.text, "List");
		}
	}
	return FALSE;
}

/* TRUE when the open root mapping has a complete pair with key @key: a second `items`
 * is a duplicate key, reported and dropped when the root closes, so not streamed. */
static gboolean
root_has_key(const Builder *b, const Frame *root, const char *key)
{
	for (guint i = root->first_child; i + 1 < b->scratch->len; i += 2) {
		const K8sYamlNode *k = g_ptr_array_index(b->scratch, i);

		if (k->kind == K8S_YAML_SCALAR && strcmp(k->scalar.text, key) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

static void
on_start(Builder *b, const yaml_event_t *event, K8sYamlKind kind)
{
	gboolean flow;
	const yaml_char_t *anchor, *tag;
	K8sYamlNode *node;
	Frame frame;

	if (kind == K8S_YAML_MAPPING) {
		flow = event->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE;
		anchor = event->data.mapping_start.anchor;
		tag = event->data.mapping_start.tag;
	} else {
		flow = event->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
		anchor = event->data.sequence_start.anchor;
		tag = event->data.sequence_start.tag;
	}
	if (b->frames->len >= b->max_depth) {
		fail(b, event->start_mark,
		     "nesting deeper than %u levels (the YAML nesting depth limit; %s sets it, "
		     "up to %d)",
		     b->max_depth, base_limit_env(BASE_LIMIT_YAML_DEPTH), K8S_YAML_MAX_DEPTH);
		return;
	}
	if (b->json && !flow) {
		fail(b, event->start_mark, "JSON/YAML mix: YAML block %s in a JSON document",
		     kind == K8S_YAML_MAPPING ? "mapping" : "sequence");
		return;
	}
	if (b->item_fn != NULL && kind == K8S_YAML_SEQUENCE && b->frames->len == 1) {
		Frame *root = &g_array_index(b->frames, Frame, 0);
		guint pending = b->scratch->len - root->first_child;

		b->in_items =
		        root->node->kind == K8S_YAML_MAPPING && pending % 2 == 1 &&
		        strcmp(((K8sYamlNode *)g_ptr_array_index(b->scratch, b->scratch->len - 1))
		                       ->scalar.text,
		               "items") == 0 &&
		        !kind_is_not_list(b, root) && !root_has_key(b, root, "items");
	} else if (b->in_items && kind == K8S_YAML_MAPPING && b->frames->len == 2) {
		b->in_item = TRUE;
		b->arena = b->item_arena;
	}
	node = new_node(b, kind, event->start_mark, (const char *)tag);
	node->style = flow ? K8S_YAML_STYLE_FLOW : K8S_YAML_STYLE_BLOCK;
	node->flags |= FLAG_OPEN;
	if (b->frames->len == 0 && b->docs->len == 0) {
		b->first_root_flow = flow;
	}
	register_anchor(b, anchor, node);
	frame.node = node;
	frame.first_child = b->scratch->len;
	g_array_append_val(b->frames, frame);
}

/* The pair among the first @n of @pairs whose key is @key's text, or NULL. */
static const K8sYamlPair *
find_earlier_key(const K8sYamlPair *pairs, guint n, const K8sYamlNode *key, GHashTable *seen)
{
	if (seen != NULL) {
		return g_hash_table_lookup(seen, key->scalar.text);
	}
	for (guint j = 0; j < n; j++) {
		if (pairs[j].key->scalar.text == key->scalar.text ||
		    strcmp(pairs[j].key->scalar.text, key->scalar.text) == 0) {
			return &pairs[j];
		}
	}
	return NULL;
}

/*
 * Duplicate keys are an error, as in Kubernetes' strict decoding. The later pair is
 * reported and then dropped from the mapping, so that no reader of the tree (the field
 * decoder, the scenario decoder, map lookups) ever sees one key twice: decoding a field
 * a second time into storage sized for the first value is how a duplicate `labels:`
 * overflowed the heap. The first value stays, as the message points at it.
 */
static void
check_duplicates(Builder *b, K8sYamlNode *map)
{
	K8sYamlPair *pairs = map->map.pairs;
	guint n = map->map.n;
	guint kept = 0;
	g_autoptr(GHashTable) seen =
	        n > 16 ? g_hash_table_new(g_str_hash, g_str_equal) : NULL; /* else: scan */

	for (guint i = 0; i < n; i++) {
		K8sYamlPair pair = pairs[i];
		const K8sYamlPair *first = find_earlier_key(pairs, kept, pair.key, seen);

		if (first != NULL) {
			K8sPos pos = k8s_yaml_node_pos(pair.key, b->file);

			k8s_diag_list_error(b->diags, &pos, NULL,
			                    "duplicate key '%s' (first at line %u)",
			                    pair.key->scalar.text, first->key->line);
			b->failed = TRUE;
			continue;
		}
		pairs[kept] = pair;
		if (seen != NULL) {
			g_hash_table_insert(seen, (gpointer)pair.key->scalar.text, &pairs[kept]);
		}
		kept++;
	}
	map->map.n = kept;
}

static gboolean
has_key(const K8sYamlPair *pairs, guint n, const char *key)
{
	for (guint i = 0; i < n; i++) {
		if (strcmp(pairs[i].key->scalar.text, key) == 0) {
			return TRUE;
		}
	}
	return FALSE;
}

static gboolean
is_merge_key(const K8sYamlNode *key)
{
	return key->style == K8S_YAML_STYLE_PLAIN && strcmp(key->scalar.text, "<<") == 0 &&
	       (key->tag == NULL || g_str_has_suffix(key->tag, ":merge"));
}

/*
 * YAML merge keys (`<<: *base` or `<<: [*a, *b]`), which go-yaml v2 and so kubectl
 * support: keys of the merged mappings are added unless the mapping has them already;
 * with a list, earlier mappings win.
 */
static void
apply_merge_keys(Builder *b, K8sYamlNode *map)
{
	GArray *out = NULL;

	for (guint i = 0; i < map->map.n; i++) {
		if (is_merge_key(map->map.pairs[i].key)) {
			out = g_array_new(FALSE, FALSE, sizeof(K8sYamlPair));
			break;
		}
	}
	if (out == NULL) {
		return;
	}
	for (guint i = 0; i < map->map.n; i++) {
		if (!is_merge_key(map->map.pairs[i].key)) {
			g_array_append_val(out, map->map.pairs[i]);
		}
	}
	for (guint i = 0; i < map->map.n; i++) {
		const K8sYamlNode *value = map->map.pairs[i].value;
		const K8sYamlNode *const *sources = &value;
		guint n_sources = 1;

		if (!is_merge_key(map->map.pairs[i].key)) {
			continue;
		}
		if (value->kind == K8S_YAML_SEQUENCE) {
			sources = (const K8sYamlNode *const *)value->seq.items;
			n_sources = value->seq.n;
		}
		for (guint s = 0; s < n_sources; s++) {
			if (sources[s]->kind != K8S_YAML_MAPPING) {
				K8sPos pos = k8s_yaml_node_pos(sources[s], b->file);

				k8s_diag_list_error(b->diags, &pos, NULL,
				                    "a merge key (<<) takes a mapping or a list of "
				                    "mappings, not a %s",
				                    k8s_yaml_node_type_name(sources[s]));
				b->failed = TRUE;
				continue;
			}
			for (guint k = 0; k < sources[s]->map.n; k++) {
				const K8sYamlPair *p = &sources[s]->map.pairs[k];

				if (!has_key((const K8sYamlPair *)(void *)out->data, out->len,
				             p->key->scalar.text)) {
					g_array_append_val(out, *p);
				}
			}
		}
	}
	map->map.pairs = k8s_arena_dup(b->arena, out->data, out->len * sizeof(K8sYamlPair));
	map->map.n = out->len;
	g_array_free(out, TRUE);
}

/*
 * YAML flow collections allow a comma before the closing bracket; JSON does
 * not, and kubectl's JSON decoder rejects `{"a": 1,}`. libyaml's events do not
 * carry commas, so look back from the closing bracket in the source text.
 */
static void
check_json_trailing_comma(Builder *b, yaml_mark_t end)
{
	gsize i = end.index;

	if (i > b->len) {
		return;
	}
	while (i > 0 && g_ascii_isspace(b->data[i - 1])) {
		i--;
	}
	if (i > 0 && b->data[i - 1] == ',') {
		fail(b, end, "JSON: trailing comma before '%c' (JSON does not allow it)",
		     end.index < b->len ? b->data[end.index] : '}');
	}
}

static void
on_end(Builder *b, const yaml_event_t *event)
{
	Frame frame;
	guint n;
	K8sYamlNode **children;
	K8sYamlNode *node;
	guint32 size = 1;

	if (b->frames->len == 0) {
		return; /* its start was rejected; the error is already reported */
	}
	if (b->json) {
		check_json_trailing_comma(b, event->start_mark);
	}
	frame = g_array_index(b->frames, Frame, b->frames->len - 1);
	g_array_set_size(b->frames, b->frames->len - 1);
	node = frame.node;
	n = b->scratch->len - frame.first_child;
	children = (K8sYamlNode **)b->scratch->pdata + frame.first_child;
	for (guint i = 0; i < n; i++) {
		size = add_size(size, children[i]->size);
	}
	node->size = size;
	node->flags &= (guint16)~FLAG_OPEN;
	if (node->kind == K8S_YAML_SEQUENCE) {
		node->seq.items = k8s_arena_dup(b->arena, children, n * sizeof(K8sYamlNode *));
		node->seq.n = n;
	} else {
		guint n_pairs = n / 2;
		K8sYamlPair *pairs = k8s_arena_new0(b->arena, K8sYamlPair, n_pairs);
		guint kept = 0;

		for (guint i = 0; i < n_pairs; i++) {
			K8sYamlNode *key = children[2 * i];

			if (key->kind != K8S_YAML_SCALAR) {
				K8sPos pos = k8s_yaml_node_pos(key, b->file);

				k8s_diag_list_error(b->diags, &pos, NULL,
				                    "mapping key must be a string, not a %s",
				                    k8s_yaml_node_type_name(key));
				b->failed = TRUE;
				continue;
			}
			pairs[kept].key = key;
			pairs[kept].value = children[2 * i + 1];
			kept++;
		}
		node->map.pairs = pairs;
		node->map.n = kept;
		check_duplicates(b, node);
		apply_merge_keys(b, node);
	}
	g_ptr_array_set_size(b->scratch, frame.first_child);
	if (b->in_item && b->frames->len == 2) {
		/* a List item is complete: decode it now, then forget its nodes */
		b->item_fn(node, b->doc_index, b->item_index++, b->user_data);
		if (!b->anchors_seen) {
			k8s_arena_reset(b->item_arena);
		}
		b->arena = b->main_arena;
		b->in_item = FALSE;
		add_child(b, b->placeholder);
		return;
	}
	if (b->in_items && b->frames->len == 1) {
		b->in_items = FALSE;
	}
	add_child(b, node);
}

static void
on_alias(Builder *b, const yaml_event_t *event)
{
	K8sYamlNode *target =
	        g_hash_table_lookup(b->anchors, (const char *)event->data.alias.anchor);

	if (target == NULL) {
		fail(b, event->start_mark, "unknown anchor '%s'",
		     (const char *)event->data.alias.anchor);
		return;
	}
	if (target->flags & FLAG_OPEN) {
		fail(b, event->start_mark, "alias '*%s' refers to a collection that contains it",
		     (const char *)event->data.alias.anchor);
		return;
	}
	if (b->json) {
		fail(b, event->start_mark, "JSON/YAML mix: YAML alias in a JSON document");
		return;
	}
	add_child(b, target);
}

static void
on_document_end(Builder *b, const yaml_event_t *event)
{
	K8sYamlDoc doc = { b->root, b->doc_index };
	guint64 limit = (guint64)b->doc_real_nodes * MAX_ALIAS_FACTOR + 10000;

	b->doc_index++;
	if (b->root == NULL) {
		return;
	}
	if (b->root->size > limit) {
		K8sPos pos = k8s_yaml_node_pos(b->root, b->file);

		k8s_diag_list_error(
		        b->diags, &pos, NULL,
		        "document expands to %u nodes through aliases (limit %" G_GUINT64_FORMAT
		        ")",
		        b->root->size, limit);
		b->failed = TRUE;
	} else if (!(b->root->kind == K8S_YAML_SCALAR &&
	             k8s_yaml_scalar_type(b->root) == K8S_YAML_TYPE_NULL)) {
		g_array_append_val(b->docs, doc);
	}
	b->root = NULL;
	g_array_set_size(b->frames, 0);
	g_ptr_array_set_size(b->scratch, 0);
	g_hash_table_remove_all(b->anchors);
	b->arena = b->main_arena;
	b->in_items = b->in_item = b->anchors_seen = FALSE;
	b->item_index = 0;
}

/* The byte offset where a line starts (0-based line), or len. */
static gsize
line_start(const Builder *b, gsize line)
{
	gsize offset = 0;

	for (gsize l = 0; l < line && offset < b->len; l++) {
		const char *nl = memchr(b->data + offset, '\n', b->len - offset);

		if (nl == NULL) {
			return b->len;
		}
		offset = (gsize)(nl - b->data) + 1;
	}
	return offset;
}

/* Turn libyaml's error into a diagnostic that says what a user did wrong. */
static void
report_parser_error(Builder *b, const yaml_parser_t *parser)
{
	yaml_mark_t mark = parser->problem_mark;
	const char *problem = parser->problem != NULL ? parser->problem : "syntax error";
	gsize start = line_start(b, mark.line);

	/* A tab in the indentation of the offending line, or right at the mark. */
	for (gsize i = start; i < b->len && (b->data[i] == ' ' || b->data[i] == '\t'); i++) {
		if (b->data[i] == '\t') {
			mark.column = i - start;
			fail(b, mark,
			     "tab character in indentation (YAML indents with spaces only)");
			return;
		}
	}
	if (mark.index < b->len && b->data[mark.index] == '\t') {
		fail(b, mark, "tab character where YAML expects a token (use spaces)");
		return;
	}
	if (mark.index >= b->len || strstr(problem, "end of stream") != NULL) {
		/* point at the real end of the input (libyaml may invent a final line) */
		mark.line = 0;
		mark.column = 0;
		for (const char *p = b->data; p < b->data + b->len; p++) {
			if (*p == '\n') {
				mark.line++;
				mark.column = 0;
			} else if (((guchar)*p & 0xc0) != 0x80) {
				mark.column++;
			}
		}
		if (parser->context != NULL) {
			K8sPos ctx = mark_pos(b, parser->context_mark);

			fail(b, mark,
			     "truncated input: unexpected end of file (%s started at %u:%u)",
			     parser->context, ctx.line, ctx.col);
		} else {
			fail(b, mark, "truncated input: unexpected end of file (%s)", problem);
		}
		return;
	}
	if (b->first_root_flow && strstr(problem, "document start") != NULL) {
		fail(b, mark,
		     "JSON/YAML mix: YAML content after a JSON document (separate documents "
		     "with '---' or use one format)");
		return;
	}
	if (parser->context != NULL) {
		K8sPos ctx = mark_pos(b, parser->context_mark);

		fail(b, mark, "invalid YAML: %s (%s at %u:%u)", problem, parser->context, ctx.line,
		     ctx.col);
	} else {
		fail(b, mark, "invalid YAML: %s", problem);
	}
}

/* Kubernetes reads UTF-8 only; libyaml would also guess UTF-16, so check first. */
static gboolean
check_utf8(Builder *b)
{
	const char *end;
	yaml_mark_t mark = { 0, 0, 0 };

	if (g_utf8_validate_len(b->data, b->len, &end)) {
		return TRUE;
	}
	mark.index = (size_t)(end - b->data);
	for (const char *p = b->data; p < end; p++) {
		if (*p == '\n') {
			mark.line++;
			mark.column = 0;
		} else if (((guchar)*p & 0xc0) != 0x80) {
			mark.column++;
		}
	}
	if (*end == '\0') {
		fail(b, mark, "NUL byte in input (is this a binary file?)");
	} else {
		fail(b, mark, "invalid UTF-8 byte 0x%02x (Kubernetes manifests must be UTF-8)",
		     (guint)(guchar)*end);
	}
	return FALSE;
}

static gboolean
looks_like_json(const char *file, const char *data, gsize len)
{
	if (g_str_has_suffix(file, ".json")) {
		return TRUE;
	}
	for (gsize i = 0; i < len; i++) {
		if (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n') {
			continue;
		}
		return data[i] == '{' || data[i] == '[';
	}
	return FALSE;
}

static void
check_json_document(Builder *b, const yaml_event_t *event)
{
	if (!b->json) {
		return;
	}
	if (event->type == YAML_DOCUMENT_START_EVENT && !event->data.document_start.implicit) {
		fail(b, event->start_mark, "JSON/YAML mix: YAML document marker in a JSON file");
	} else if (event->type == YAML_DOCUMENT_START_EVENT && b->docs->len > 0) {
		fail(b, event->start_mark, "JSON/YAML mix: more than one document in a JSON file");
	}
}

/* FALSE (and a fatal error) once the file has more nodes than the limit:
 * a small file of empty collections could otherwise fill memory. */
static gboolean
count_node(Builder *b, const yaml_event_t *event)
{
	g_autofree char *limit = NULL;

	if (++b->n_nodes <= b->max_nodes)
		return TRUE;
	limit = base_limit_describe(BASE_LIMIT_YAML_NODES);
	fail(b, event->start_mark, "more than %" G_GUINT64_FORMAT " YAML nodes in the file: %s",
	     b->max_nodes, limit);
	return FALSE;
}

/* One event into the tree; *@done at the end of the stream. */
static void
dispatch(Builder *b, const yaml_event_t *event, gboolean *done)
{
	if ((event->type == YAML_SCALAR_EVENT || event->type == YAML_SEQUENCE_START_EVENT ||
	     event->type == YAML_MAPPING_START_EVENT || event->type == YAML_ALIAS_EVENT) &&
	    !count_node(b, event))
		return;
	switch (event->type) {
	case YAML_DOCUMENT_START_EVENT:
		check_json_document(b, event);
		b->root = NULL;
		b->doc_real_nodes = 0;
		break;
	case YAML_DOCUMENT_END_EVENT:
		on_document_end(b, event);
		break;
	case YAML_SCALAR_EVENT:
		on_scalar(b, event);
		break;
	case YAML_SEQUENCE_START_EVENT:
		on_start(b, event, K8S_YAML_SEQUENCE);
		break;
	case YAML_MAPPING_START_EVENT:
		on_start(b, event, K8S_YAML_MAPPING);
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		on_end(b, event);
		break;
	case YAML_ALIAS_EVENT:
		on_alias(b, event);
		break;
	case YAML_STREAM_END_EVENT:
		*done = TRUE;
		break;
	default:
		break;
	}
}

static void
run_parser(Builder *b)
{
	yaml_parser_t parser;
	gboolean done = FALSE;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)b->data, b->len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	while (!done && !b->fatal) {
		yaml_event_t event;

		if (!yaml_parser_parse(&parser, &event)) {
			report_parser_error(b, &parser);
			break;
		}
		dispatch(b, &event, &done);
		yaml_event_delete(&event);
	}
	yaml_parser_delete(&parser);
}

typedef enum {
	CONTENT_NOTHING,
	CONTENT_COMMENTS,
	CONTENT_MARKERS, /* document markers or explicit nulls: empty documents */
} Content;

static Content
what_is_there(const char *data, gsize len)
{
	gboolean in_comment = FALSE, comments = FALSE;

	for (gsize i = 0; i < len; i++) {
		if (in_comment) {
			in_comment = data[i] != '\n';
		} else if (data[i] == '#') {
			in_comment = comments = TRUE;
		} else if (!g_ascii_isspace(data[i])) {
			return CONTENT_MARKERS;
		}
	}
	return comments ? CONTENT_COMMENTS : CONTENT_NOTHING;
}

gboolean
k8s_yaml_parse(const char *file,
               const char *data,
               gsize len,
               K8sArena *arena,
               GStringChunk *strings,
               K8sYamlFile *out,
               K8sDiagList *diags)
{
	return k8s_yaml_parse_stream(file, data, len, arena, strings, NULL, NULL, out, diags);
}

/* Set up @b to build into @arena; text of the input (if any) is @data. */
static void
builder_init(Builder *b,
             const char *file,
             const char *data,
             gsize len,
             K8sArena *arena,
             K8sArena *item_arena,
             GStringChunk *strings,
             K8sYamlItemFn item_fn,
             gpointer user_data,
             K8sDiagList *diags)
{
	*b = (Builder){
		.file = g_string_chunk_insert_const(strings, file),
		.data = data,
		.len = len,
		.arena = arena,
		.main_arena = arena,
		.item_arena = item_arena,
		.item_fn = item_fn,
		.user_data = user_data,
		.strings = strings,
		.diags = diags,
		.max_nodes = base_limit_get(BASE_LIMIT_YAML_NODES),
		/* recursive consumers of the tree rely on K8S_YAML_MAX_DEPTH */
		.max_depth = (guint)MIN(base_limit_get(BASE_LIMIT_YAML_DEPTH), K8S_YAML_MAX_DEPTH),
	};
	b->placeholder = k8s_arena_new0(arena, K8sYamlNode, 1);
	b->placeholder->kind = K8S_YAML_MAPPING;
	b->placeholder->flags = K8S_YAML_FLAG_STREAMED;
	b->placeholder->size = 1;
	b->json = looks_like_json(file, data, len);
	b->frames = g_array_new(FALSE, FALSE, sizeof(Frame));
	b->scratch = g_ptr_array_new();
	b->anchors = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	b->docs = g_array_new(FALSE, FALSE, sizeof(K8sYamlDoc));
}

/* The documents into @out, the builder's scratch freed. */
static gboolean
builder_finish(Builder *b, K8sYamlFile *out)
{
	yaml_mark_t origin = { 0, 0, 0 };

	if (!b->failed && b->docs->len == 0) {
		static const char *const why[] = {
			[CONTENT_NOTHING] = "empty file: no Kubernetes object",
			[CONTENT_COMMENTS] = "no Kubernetes object in file (only comments)",
			[CONTENT_MARKERS] = "no Kubernetes object in file (only empty documents)",
		};

		fail(b, origin, "%s", why[what_is_there(b->data, b->len)]);
	}
	memset(out, 0, sizeof(*out));
	out->file = b->file;
	out->json = b->json;
	out->n_docs = b->docs->len;
	out->docs = k8s_arena_dup(b->main_arena, b->docs->data, b->docs->len * sizeof(K8sYamlDoc));
	g_array_free(b->docs, TRUE);
	g_array_free(b->frames, TRUE);
	g_ptr_array_free(b->scratch, TRUE);
	g_hash_table_destroy(b->anchors);
	return !b->failed;
}

gboolean
k8s_yaml_parse_stream(const char *file,
                      const char *data,
                      gsize len,
                      K8sArena *arena,
                      GStringChunk *strings,
                      K8sYamlItemFn item_fn,
                      gpointer user_data,
                      K8sYamlFile *out,
                      K8sDiagList *diags)
{
	g_autoptr(K8sArena) item_arena = item_fn != NULL ? k8s_arena_new() : NULL;
	Builder b;

	builder_init(&b, file, data, len, arena, item_arena, strings, item_fn, user_data, diags);
	if (check_utf8(&b)) {
		run_parser(&b);
	}
	return builder_finish(&b, out);
}

/* ---- events from a program instead of a parser (k8s_yaml_feed.h) ---- */

struct K8sYamlFeed {
	Builder b;
	K8sArena *item_arena;
	gboolean done;
};

K8sYamlFeed *
k8s_yaml_feed_new(const char *file,
                  K8sArena *arena,
                  GStringChunk *strings,
                  K8sYamlItemFn item_fn,
                  gpointer user_data,
                  K8sDiagList *diags)
{
	K8sYamlFeed *feed = g_new0(K8sYamlFeed, 1);

	feed->item_arena = item_fn != NULL ? k8s_arena_new() : NULL;
	builder_init(&feed->b, file, "", 0, arena, feed->item_arena, strings, item_fn, user_data,
	             diags);
	return feed;
}

void
k8s_yaml_feed_event(K8sYamlFeed *feed, const yaml_event_t *event)
{
	/* as the parser loop: nothing more once the tree is unusable or the stream ended */
	if (!feed->done && !feed->b.fatal)
		dispatch(&feed->b, event, &feed->done);
}

gboolean
k8s_yaml_feed_finish(K8sYamlFeed *feed, K8sYamlFile *out)
{
	gboolean ok = builder_finish(&feed->b, out);

	g_clear_pointer(&feed->item_arena, k8s_arena_free);
	g_free(feed);
	return ok;
}

K8sPos
k8s_yaml_node_pos(const K8sYamlNode *node, const char *file)
{
	K8sPos pos = { file, 0, 0 };

	if (node != NULL) {
		pos.line = node->line;
		pos.col = node->col;
	}
	return pos;
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

const K8sYamlNode *
k8s_yaml_map_lookup(const K8sYamlNode *map, const char *key)
{
	if (map == NULL || map->kind != K8S_YAML_MAPPING) {
		return NULL;
	}
	for (guint i = 0; i < map->map.n; i++) {
		if (strcmp(map->map.pairs[i].key->scalar.text, key) == 0) {
			return map->map.pairs[i].value;
		}
	}
	return NULL;
}

static K8sYamlNode *
copy_node(const K8sYamlNode *node, K8sArena *arena, GStringChunk *strings, guint depth)
{
	K8sYamlNode *out = k8s_arena_dup(arena, node, sizeof(*node));

	/* depth is bounded by K8S_YAML_MAX_DEPTH when the tree came from the parser */
	g_return_val_if_fail(depth <= K8S_YAML_MAX_DEPTH + 1, out);
	if (node->tag != NULL) {
		out->tag = g_string_chunk_insert_const(strings, node->tag);
	}
	switch (node->kind) {
	case K8S_YAML_SCALAR:
		out->scalar.text = node->scalar.len <= INTERN_MAX_LEN
		                           ? g_string_chunk_insert_const(strings, node->scalar.text)
		                           : g_string_chunk_insert_len(strings, node->scalar.text,
		                                                       node->scalar.len);
		break;
	case K8S_YAML_MAPPING:
		out->map.pairs = k8s_arena_new0(arena, K8sYamlPair, node->map.n);
		for (guint i = 0; i < node->map.n; i++) {
			out->map.pairs[i].key =
			        copy_node(node->map.pairs[i].key, arena, strings, depth + 1);
			out->map.pairs[i].value =
			        copy_node(node->map.pairs[i].value, arena, strings, depth + 1);
		}
		break;
	case K8S_YAML_SEQUENCE:
		out->seq.items = k8s_arena_new0(arena, K8sYamlNode *, node->seq.n);
		for (guint i = 0; i < node->seq.n; i++) {
			out->seq.items[i] =
			        copy_node(node->seq.items[i], arena, strings, depth + 1);
		}
		break;
	default:
		break;
	}
	return out;
}

K8sYamlNode *
k8s_yaml_copy(const K8sYamlNode *node, K8sArena *arena, GStringChunk *strings)
{
	if (node == NULL) {
		return NULL;
	}
	return copy_node(node, arena, strings, 0);
}

K8sPos
k8s_yaml_text_pos(const K8sYamlNode *node, const char *file, gsize offset)
{
	K8sPos pos = k8s_yaml_node_pos(node, file);
	const char *text = node->scalar.text;
	guint indent = node->scalar.block_indent;

	switch (node->style) {
	case K8S_YAML_STYLE_LITERAL:
		pos.line++;
		pos.col = indent + 1;
		for (gsize i = 0; i < offset && text[i] != '\0';
		     i = (gsize)(g_utf8_next_char(text + i) - text)) {
			if (text[i] == '\n') {
				pos.line++;
				pos.col = indent + 1;
			} else {
				pos.col++;
			}
		}
		return pos;
	case K8S_YAML_STYLE_FOLDED:
		pos.line++;
		pos.col = indent + 1;
		return pos;
	case K8S_YAML_STYLE_SINGLE_QUOTED:
	case K8S_YAML_STYLE_DOUBLE_QUOTED:
		pos.col++; /* the opening quote */
		return k8s_pos_advance(pos, text, offset);
	default:
		return k8s_pos_advance(pos, text, offset);
	}
}

gboolean
k8s_yaml_equal(const K8sYamlNode *a, const K8sYamlNode *b)
{
	if (a == b) {
		return TRUE;
	}
	if (a == NULL || b == NULL || a->kind != b->kind) {
		return FALSE;
	}
	switch (a->kind) {
	case K8S_YAML_SCALAR:
		/* "1" and 1 differ in meaning, so compare the resolved type too */
		return strcmp(a->scalar.text, b->scalar.text) == 0 &&
		       k8s_yaml_scalar_type(a) == k8s_yaml_scalar_type(b);
	case K8S_YAML_MAPPING:
		if (a->map.n != b->map.n) {
			return FALSE;
		}
		for (guint i = 0; i < a->map.n; i++) {
			if (!k8s_yaml_equal(a->map.pairs[i].key, b->map.pairs[i].key) ||
			    !k8s_yaml_equal(a->map.pairs[i].value, b->map.pairs[i].value)) {
				return FALSE;
			}
		}
		return TRUE;
	default:
		if (a->seq.n != b->seq.n) {
			return FALSE;
		}
		for (guint i = 0; i < a->seq.n; i++) {
			if (!k8s_yaml_equal(a->seq.items[i], b->seq.items[i])) {
				return FALSE;
			}
		}
		return TRUE;
	}
}
