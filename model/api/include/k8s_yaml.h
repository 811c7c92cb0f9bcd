/*
 * k8s_yaml.h: the positioned YAML/JSON node tree that every decoder reads.
 *
 * One file holds zero or more documents; each document
 * is a tree of mappings, sequences and scalars, every node with its line and
 * column. Nodes live in a BaseArena, scalar text in a GStringChunk (short
 * scalars and all keys are interned: equal text, equal pointer).
 */
#pragma once

#include <glib.h>

#include "base_arena.h"
#include "k8s_diag.h"

G_BEGIN_DECLS

/* Nesting deeper than this is rejected (no manifest comes close; it protects the stack
 * of every recursive consumer, e.g. the encoder of opaque parameters). */
#define K8S_YAML_MAX_DEPTH 100

typedef enum {
	K8S_YAML_SCALAR,
	K8S_YAML_MAPPING,
	K8S_YAML_SEQUENCE,
} K8sYamlKind;

typedef enum {
	K8S_YAML_STYLE_PLAIN,
	K8S_YAML_STYLE_SINGLE_QUOTED,
	K8S_YAML_STYLE_DOUBLE_QUOTED,
	K8S_YAML_STYLE_LITERAL, /* | */
	K8S_YAML_STYLE_FOLDED,  /* > */
	K8S_YAML_STYLE_BLOCK,   /* block mapping or sequence */
	K8S_YAML_STYLE_FLOW,    /* {..} or [..] */
} K8sYamlScalarStyle;

/* What a scalar means, resolved the way Kubernetes' YAML reader (go-yaml v2) does. */
typedef enum {
	K8S_YAML_TYPE_NULL,
	K8S_YAML_TYPE_BOOL,
	K8S_YAML_TYPE_INT,
	K8S_YAML_TYPE_FLOAT,
	K8S_YAML_TYPE_STRING,
} K8sYamlType;

typedef struct K8sYamlNode K8sYamlNode;

#define K8S_YAML_FLAG_OPEN     0x1 /* collection still being built (an alias to it = cycle) */
#define K8S_YAML_FLAG_STREAMED 0x2 /* a List item already handed to the item callback */

typedef struct {
	K8sYamlNode *key; /* always a scalar */
	K8sYamlNode *value;
} K8sYamlPair;

struct K8sYamlNode {
	guint8 kind;     /* K8sYamlKind */
	guint8 style;    /* K8sYamlScalarStyle */
	guint16 flags;   /* K8S_YAML_FLAG_* */
	guint32 line;    /* 1-based */
	guint32 col;     /* 1-based */
	guint32 size;    /* nodes in this subtree, aliases expanded (saturating) */
	const char *tag; /* explicit tag ("tag:yaml.org,2002:str"), or NULL */
	union {
		struct {
			const char *text; /* NUL-terminated */
			guint32 len;
			guint16 block_indent; /* literal/folded: indentation of the content */
			guint8 resolved;      /* K8sYamlType + 1 when known, 0 = not computed */
		} scalar;
		struct {
			K8sYamlPair *pairs;
			guint32 n;
		} map;
		struct {
			K8sYamlNode **items;
			guint32 n;
		} seq;
	};
};

typedef struct {
	K8sYamlNode *root; /* never NULL; empty documents are skipped */
	guint index;       /* 0-based document number in the file, counting empty ones */
} K8sYamlDoc;

typedef struct {
	const char *file; /* interned */
	K8sYamlDoc *docs;
	guint n_docs;
	gboolean json; /* the file was read as JSON (.json or starts with { or [) */
} K8sYamlFile;

/**
 * k8s_yaml_parse:
 * Parses @in's @len bytes of @data (YAML, multi-document, or JSON) named @file
 * into @out. Nodes go to @arena, text to @strings. Every problem is added to
 * @diags with its position. Documents before a syntax error are kept in @out.
 * Returns: TRUE when no error was added.
 */
/* What k8s_yaml_parse() and its variants read, and where they put what they build. */
typedef struct {
	const char *file; /* the name positions and diagnostics carry */
	const char *data; /* @len bytes, not necessarily NUL-terminated */
	gsize len;
	BaseArena *arena;      /* the nodes of the tree */
	GStringChunk *strings; /* the text of the tree */
	K8sDiagList *diags;    /* every problem, with its position */
} K8sYamlInput;

gboolean k8s_yaml_parse(const K8sYamlInput *in, K8sYamlFile *out);

/**
 * k8s_yaml_parse_data:
 * Like k8s_yaml_parse(), for drasim's own YAML data files (the hardware catalog,
 * generic-driver descriptions) read through k8s_yaml_read.h: YAML only (never
 * JSON); duplicate keys are kept, for the reader to report with their field path;
 * a syntax error is libyaml's own text at its position; a file without documents
 * is no error here (@out has none: the reader says what it needed). The same
 * limits apply (DRASIM_MAX_YAML_DEPTH, DRASIM_MAX_YAML_NODES).
 */
gboolean k8s_yaml_parse_data(const K8sYamlInput *in, K8sYamlFile *out);

/**
 * K8sYamlItemFn:
 * Called by k8s_yaml_parse_stream() for each item of a document's top-level `items`
 * list (a `v1 List`) as soon as the item is complete, with its 0-based @index. The
 * item's nodes are freed after the call (unless the document uses anchors), so the
 * callback must copy what it keeps; text stays valid (it is in the string chunk).
 */
typedef void (*K8sYamlItemFn)(const K8sYamlNode *item,
                              guint doc_index,
                              guint index,
                              gpointer user_data);

/**
 * k8s_yaml_parse_stream:
 * Like k8s_yaml_parse(), but hands `items` entries of top-level mappings to @item_fn
 * while parsing, so a 60 MB List never exists as one tree. In the documents of @out
 * those items are replaced by nodes flagged K8S_YAML_FLAG_STREAMED.
 */
gboolean k8s_yaml_parse_stream(const K8sYamlInput *in,
                               K8sYamlItemFn item_fn,
                               gpointer user_data,
                               K8sYamlFile *out);

/** k8s_yaml_node_pos: the position of @node in @file. */
K8sPos k8s_yaml_node_pos(const K8sYamlNode *node, const char *file);

/** k8s_yaml_scalar_type: what a scalar means (plain scalars resolve like go-yaml v2). */
K8sYamlType k8s_yaml_scalar_type(const K8sYamlNode *node);

/**
 * k8s_yaml_parse_integer:
 * An integer scalar's text as go-yaml v2 reads it (sign, '_' separators, 0x, 0o, 0b,
 * leading-0 octal) into sign and magnitude; FALSE when it is not one or the magnitude
 * exceeds 64 bits. k8s_yaml_parse_int64: the same, FALSE beyond int64.
 */
gboolean k8s_yaml_parse_integer(const char *text, gboolean *negative, guint64 *magnitude);
gboolean k8s_yaml_parse_int64(const char *text, gint64 *out);

/**
 * k8s_yaml_parse_double:
 * A float scalar's text (digits with '_' separators, exponent; .inf, -.inf, .nan);
 * FALSE when the whole text is not such a number. Non-finite values are returned:
 * callers decide (an integer or a duration field rejects them).
 */
gboolean k8s_yaml_parse_double(const char *text, double *out);

/**
 * k8s_yaml_scalar_as_int64:
 * An integer field's value as a Go int decoded from kubectl's JSON: an integer
 * scalar within int64, or a float scalar with an integral finite value (kubectl
 * writes YAML 50.0 as JSON 50). FALSE for anything else (strings, quoted numbers,
 * fractions, .inf, .nan, out of range).
 */
gboolean k8s_yaml_scalar_as_int64(const K8sYamlNode *node, gint64 *out);

/** k8s_yaml_type_name: "null", "bool", "integer", "number", "string", "mapping", "list". */
const char *k8s_yaml_node_type_name(const K8sYamlNode *node);

/** k8s_yaml_map_lookup: the value of @key in a mapping, or NULL. */
const K8sYamlNode *k8s_yaml_map_lookup(const K8sYamlNode *map, const char *key);

/**
 * k8s_yaml_copy:
 * Deep copy of @node into @arena with text interned in @strings (used to keep
 * opaque parameters after the file's tree is freed). (transfer none: arena-owned)
 */
K8sYamlNode *k8s_yaml_copy(const K8sYamlNode *node, BaseArena *arena, GStringChunk *strings);

/**
 * k8s_yaml_text_pos:
 * The position of byte @offset of a scalar's text. Exact for plain and quoted
 * one-line scalars and for literal block scalars (|); for other multi-line
 * scalars it gives the line of the start.
 */
K8sPos k8s_yaml_text_pos(const K8sYamlNode *node, const char *file, gsize offset);

/** k8s_yaml_equal: structural equality (kind, text, keys in order). */
gboolean k8s_yaml_equal(const K8sYamlNode *a, const K8sYamlNode *b);

G_END_DECLS
