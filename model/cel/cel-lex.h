/*
 * cel-lex.h: tokens of the CEL lexer (private to cel_lex.c / cel_parse.c).
 */
#pragma once

#include <glib.h>

typedef enum {
	CEL_TOK_EOF,
	CEL_TOK_ERROR, /* text is the message */
	CEL_TOK_IDENT,
	CEL_TOK_INT,
	CEL_TOK_UINT,
	CEL_TOK_DOUBLE,
	CEL_TOK_STRING,
	CEL_TOK_BYTES,
	CEL_TOK_TRUE,
	CEL_TOK_FALSE,
	CEL_TOK_NULL,
	CEL_TOK_IN,
	CEL_TOK_LPAREN,
	CEL_TOK_RPAREN,
	CEL_TOK_LBRACKET,
	CEL_TOK_RBRACKET,
	CEL_TOK_LBRACE,
	CEL_TOK_RBRACE,
	CEL_TOK_DOT,
	CEL_TOK_COMMA,
	CEL_TOK_COLON,
	CEL_TOK_QUESTION,
	CEL_TOK_NOT,
	CEL_TOK_MINUS,
	CEL_TOK_PLUS,
	CEL_TOK_STAR,
	CEL_TOK_SLASH,
	CEL_TOK_PERCENT,
	CEL_TOK_LT,
	CEL_TOK_LE,
	CEL_TOK_GT,
	CEL_TOK_GE,
	CEL_TOK_EQ,
	CEL_TOK_NE,
	CEL_TOK_AND,
	CEL_TOK_OR,
	CEL_TOK_RESERVED, /* reserved word used as identifier */
	CEL_TOK__COUNT,
} CelTokenKind;

typedef struct {
	CelTokenKind kind;
	guint32 offset; /* byte offset of the first character */
	guint32 len;
	const char *text; /* points into the source (or a message for ERROR) */
} CelToken;

typedef struct {
	const char *source;
	gsize len;
	gsize pos;
} CelLexer;

void cel_lex_init(CelLexer *lex, const char *source, gsize len);
CelToken cel_lex_next(CelLexer *lex);
/*
 * Decodes a string or bytes literal token into @out. Returns FALSE with a
 * message (static) in @message and the byte offset of the problem.
 */
gboolean cel_lex_unescape(const CelToken *tok,
                          GString *out,
                          gboolean *is_bytes,
                          const char **message,
                          guint32 *err_offset);
