/*
 * k8s_yaml.c: libyaml events -> positioned node tree.
 *
 * The builder is iterative: open collections are frames on an explicit stack and
 * their children wait in one shared scratch vector, so a collection costs one
 * arena copy when it closes and deep input cannot overflow the C stack. Keys and
 * short scalars are interned, so duplicate-key checks compare pointers.
 * Everything that goes wrong becomes a diagnostic with a position; nothing here
 * aborts on bad input. The keys of a closing mapping are checked in k8s_yaml_keys.c,
 * the input text and libyaml's errors in k8s_yaml_input.c; queries on the finished
 * tree are in k8s_yaml_tree.c and scalar typing in k8s_yaml_number.c.
 */
#include "k8s_yaml.h"

#include <string.h>

#include <yaml.h>

#include "base.h"
#include "k8s-private.h"

#define FLAG_OPEN        K8S_YAML_FLAG_OPEN
#define MAX_ALIAS_FACTOR 10

void
k8s_yaml_fail(K8sYamlBuilder *b, yaml_mark_t mark, const char *format, ...)
{
	K8sPos pos = k8s_yaml_mark_pos(b, mark);
	va_list args;

	va_start(args, format);
	k8s_diag_list_addv(b->diags, K8S_SEVERITY_ERROR, &pos, NULL, format, args);
	va_end(args);
	b->failed = TRUE;
	b->fatal = TRUE;
}

static const char *
intern(K8sYamlBuilder *b, const char *text, gsize len)
{
	if (len <= K8S_YAML_INTERN_MAX_LEN) {
		return g_string_chunk_insert_const(b->strings, text);
	}
	return g_string_chunk_insert_len(b->strings, text, (gssize)len);
}

static K8sYamlNode *
new_node(K8sYamlBuilder *b, K8sYamlKind kind, yaml_mark_t mark, const char *tag)
{
	K8sYamlNode *node = base_arena_new0(b->arena, K8sYamlNode, 1);

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
add_child(K8sYamlBuilder *b, K8sYamlNode *node)
{
	if (b->frames->len == 0) {
		b->root = node;
		return;
	}
	g_ptr_array_add(b->scratch, node);
}

static void
register_anchor(K8sYamlBuilder *b, const yaml_char_t *anchor, K8sYamlNode *node)
{
	if (anchor != NULL) {
		g_hash_table_replace(b->anchors, g_strdup((const char *)anchor), node);
		b->anchors_seen = TRUE;
	}
}

/* Block scalars remember their content indentation in flags, for k8s_yaml_text_pos. */
static void
note_block_indent(K8sYamlBuilder *b, K8sYamlNode *node, yaml_mark_t start)
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
on_scalar(K8sYamlBuilder *b, const yaml_event_t *event)
{
	const char *text = (const char *)event->data.scalar.value;
	gsize len = event->data.scalar.length;
	K8sYamlNode *node;

	if (memchr(text, '\0', len) != NULL) {
		k8s_yaml_fail(b, event->start_mark, "NUL character in a string");
		return;
	}
	if (b->json) {
		if (event->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !json_literal(text)) {
			gboolean is_key = b->frames->len > 0 &&
			                  g_array_index(b->frames, K8sYamlFrame, b->frames->len - 1)
			                                  .node->kind == K8S_YAML_MAPPING &&
			                  (b->scratch->len - g_array_index(b->frames, K8sYamlFrame,
			                                                   b->frames->len - 1)
			                                             .first_child) %
			                                  2 ==
			                          0;
			k8s_yaml_fail(
			        b, event->start_mark,
			        "JSON/YAML mix: unquoted %s '%s' in a JSON document (JSON strings "
			        "need "
			        "double quotes)",
			        is_key ? "key" : "value", text);
			return;
		}
		if (event->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
		    event->data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
		    event->data.scalar.style == YAML_FOLDED_SCALAR_STYLE) {
			k8s_yaml_fail(
			        b, event->start_mark,
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
	if (!b->data_file) {
		/* manifests' decoders type nearly every scalar; data-file readers read text */
		node->scalar.resolved = (guint8)(k8s_yaml_scalar_type(node) + 1);
	}
	register_anchor(b, event->data.scalar.anchor, node);
	add_child(b, node);
}

/* TRUE when the open root mapping already has a `kind` that is not a List: then its
 * `items` (a typo, or a field of some kind) must not be decoded as objects. */
static gboolean
kind_is_not_list(const K8sYamlBuilder *b, const K8sYamlFrame *root)
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
root_has_key(const K8sYamlBuilder *b, const K8sYamlFrame *root, const char *key)
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
on_start(K8sYamlBuilder *b, const yaml_event_t *event, K8sYamlKind kind)
{
	gboolean flow;
	const yaml_char_t *anchor, *tag;
	K8sYamlNode *node;
	K8sYamlFrame frame;

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
		k8s_yaml_fail(
		        b, event->start_mark,
		        "nesting deeper than %u levels (the YAML nesting depth limit; %s sets it, "
		        "up to %d)",
		        b->max_depth, base_limit_env(BASE_LIMIT_YAML_DEPTH), K8S_YAML_MAX_DEPTH);
		return;
	}
	if (b->json && !flow) {
		k8s_yaml_fail(b, event->start_mark,
		              "JSON/YAML mix: YAML block %s in a JSON document",
		              kind == K8S_YAML_MAPPING ? "mapping" : "sequence");
		return;
	}
	if (b->item_fn != NULL && kind == K8S_YAML_SEQUENCE && b->frames->len == 1) {
		K8sYamlFrame *root = &g_array_index(b->frames, K8sYamlFrame, 0);
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

static void
on_end(K8sYamlBuilder *b, const yaml_event_t *event)
{
	K8sYamlFrame frame;
	guint n;
	K8sYamlNode **children;
	K8sYamlNode *node;
	guint32 size = 1;

	if (b->frames->len == 0) {
		return; /* its start was rejected; the error is already reported */
	}
	if (b->json) {
		k8s_yaml_check_json_trailing_comma(b, event->start_mark);
	}
	frame = g_array_index(b->frames, K8sYamlFrame, b->frames->len - 1);
	g_array_set_size(b->frames, b->frames->len - 1);
	node = frame.node;
	n = b->scratch->len - frame.first_child;
	/* an empty collection first in a document: the scratch array may have no storage
	 * yet, and NULL + 0 is undefined (UBSan, tests/data/fuzz-regress/allocate) */
	children = n > 0 ? (K8sYamlNode **)b->scratch->pdata + frame.first_child : NULL;
	for (guint i = 0; i < n; i++) {
		size = add_size(size, children[i]->size);
	}
	node->size = size;
	node->flags &= (guint16)~FLAG_OPEN;
	if (node->kind == K8S_YAML_SEQUENCE) {
		node->seq.items = base_arena_dup(b->arena, children, n * sizeof(K8sYamlNode *));
		node->seq.n = n;
	} else {
		guint n_pairs = n / 2;
		K8sYamlPair *pairs = base_arena_new0(b->arena, K8sYamlPair, n_pairs);
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
		if (!b->data_file) {
			k8s_yaml_check_duplicates(b, node); /* data files: the reader's job */
		}
		k8s_yaml_apply_merge_keys(b, node);
	}
	g_ptr_array_set_size(b->scratch, frame.first_child);
	if (b->in_item && b->frames->len == 2) {
		/* a List item is complete: decode it now, then forget its nodes */
		b->item_fn(node, b->doc_index, b->item_index++, b->user_data);
		if (!b->anchors_seen) {
			base_arena_reset(b->item_arena);
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
on_alias(K8sYamlBuilder *b, const yaml_event_t *event)
{
	K8sYamlNode *target =
	        g_hash_table_lookup(b->anchors, (const char *)event->data.alias.anchor);

	if (target == NULL) {
		k8s_yaml_fail(b, event->start_mark, "unknown anchor '%s'",
		              (const char *)event->data.alias.anchor);
		return;
	}
	if (target->flags & FLAG_OPEN) {
		k8s_yaml_fail(b, event->start_mark,
		              "alias '*%s' refers to a collection that contains it",
		              (const char *)event->data.alias.anchor);
		return;
	}
	if (b->json) {
		k8s_yaml_fail(b, event->start_mark, "JSON/YAML mix: YAML alias in a JSON document");
		return;
	}
	add_child(b, target);
}

static void
on_document_end(K8sYamlBuilder *b, const yaml_event_t *event)
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

/* FALSE (and a fatal error) once the file has more nodes than the limit:
 * a small file of empty collections could otherwise fill memory. */
static gboolean
count_node(K8sYamlBuilder *b, const yaml_event_t *event)
{
	g_autofree char *limit = NULL;

	if (++b->n_nodes <= b->max_nodes)
		return TRUE;
	limit = base_limit_describe(BASE_LIMIT_YAML_NODES);
	k8s_yaml_fail(b, event->start_mark,
	              "more than %" G_GUINT64_FORMAT " YAML nodes in the file: %s", b->max_nodes,
	              limit);
	return FALSE;
}

/* One event into the tree; *@done at the end of the stream. */
static void
dispatch(K8sYamlBuilder *b, const yaml_event_t *event, gboolean *done)
{
	if ((event->type == YAML_SCALAR_EVENT || event->type == YAML_SEQUENCE_START_EVENT ||
	     event->type == YAML_MAPPING_START_EVENT || event->type == YAML_ALIAS_EVENT) &&
	    !count_node(b, event))
		return;
	switch (event->type) {
	case YAML_DOCUMENT_START_EVENT:
		k8s_yaml_check_json_document(b, event);
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
run_parser(K8sYamlBuilder *b)
{
	yaml_parser_t parser;
	gboolean done = FALSE;

	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)b->data, b->len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	while (!done && !b->fatal) {
		yaml_event_t event;

		if (!yaml_parser_parse(&parser, &event)) {
			if (b->data_file) {
				k8s_yaml_fail(b, parser.problem_mark, "%s",
				              parser.problem ? parser.problem : "malformed YAML");
			} else {
				k8s_yaml_report_parser_error(b, &parser);
			}
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
k8s_yaml_parse(const K8sYamlInput *in, K8sYamlFile *out)
{
	return k8s_yaml_parse_stream(in, NULL, NULL, out);
}

/* Set up @b to build into @in's arena; text of the input (if any) is @in's data. */
static void
builder_init(K8sYamlBuilder *b,
             const K8sYamlInput *in,
             BaseArena *item_arena,
             K8sYamlItemFn item_fn,
             gpointer user_data)
{
	*b = (K8sYamlBuilder){
		.file = g_string_chunk_insert_const(in->strings, in->file),
		.data = in->data,
		.len = in->len,
		.arena = in->arena,
		.main_arena = in->arena,
		.item_arena = item_arena,
		.item_fn = item_fn,
		.user_data = user_data,
		.strings = in->strings,
		.diags = in->diags,
		.max_nodes = base_limit_get(BASE_LIMIT_YAML_NODES),
		/* recursive consumers of the tree rely on K8S_YAML_MAX_DEPTH */
		.max_depth = (guint)MIN(base_limit_get(BASE_LIMIT_YAML_DEPTH), K8S_YAML_MAX_DEPTH),
	};
	b->placeholder = base_arena_new0(in->arena, K8sYamlNode, 1);
	b->placeholder->kind = K8S_YAML_MAPPING;
	b->placeholder->flags = K8S_YAML_FLAG_STREAMED;
	b->placeholder->size = 1;
	b->json = k8s_yaml_looks_like_json(in->file, in->data, in->len);
	b->frames = g_array_new(FALSE, FALSE, sizeof(K8sYamlFrame));
	b->scratch = g_ptr_array_new();
	b->anchors = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	b->docs = g_array_new(FALSE, FALSE, sizeof(K8sYamlDoc));
}

/* The documents into @out, the builder's scratch freed. */
static gboolean
builder_finish(K8sYamlBuilder *b, K8sYamlFile *out)
{
	yaml_mark_t origin = { 0, 0, 0 };

	if (!b->failed && b->docs->len == 0 && !b->data_file) {
		static const char *const why[] = {
			[CONTENT_NOTHING] = "empty file: no Kubernetes object",
			[CONTENT_COMMENTS] = "no Kubernetes object in file (only comments)",
			[CONTENT_MARKERS] = "no Kubernetes object in file (only empty documents)",
		};

		k8s_yaml_fail(b, origin, "%s", why[what_is_there(b->data, b->len)]);
	}
	memset(out, 0, sizeof(*out));
	out->file = b->file;
	out->json = b->json;
	out->n_docs = b->docs->len;
	out->docs = base_arena_dup(b->main_arena, b->docs->data, b->docs->len * sizeof(K8sYamlDoc));
	g_array_free(b->docs, TRUE);
	g_array_free(b->frames, TRUE);
	g_ptr_array_free(b->scratch, TRUE);
	g_hash_table_destroy(b->anchors);
	return !b->failed;
}

/* The one parse every entry point runs: manifests (with @item_fn or not) or
 * drasim's own data files (@data_file: YAML only, duplicate keys kept). */
static gboolean
parse_input(const K8sYamlInput *in,
            K8sYamlItemFn item_fn,
            gpointer user_data,
            gboolean data_file,
            K8sYamlFile *out)
{
	g_autoptr(BaseArena) item_arena = item_fn != NULL ? base_arena_new() : NULL;
	K8sYamlBuilder b;

	builder_init(&b, in, item_arena, item_fn, user_data);
	if (data_file) {
		b.data_file = TRUE;
		b.json = FALSE;
	}
	if (k8s_yaml_check_utf8(&b)) {
		run_parser(&b);
	}
	return builder_finish(&b, out);
}

gboolean
k8s_yaml_parse_stream(const K8sYamlInput *in,
                      K8sYamlItemFn item_fn,
                      gpointer user_data,
                      K8sYamlFile *out)
{
	return parse_input(in, item_fn, user_data, FALSE, out);
}

gboolean
k8s_yaml_parse_data(const K8sYamlInput *in, K8sYamlFile *out)
{
	return parse_input(in, NULL, NULL, TRUE, out);
}
