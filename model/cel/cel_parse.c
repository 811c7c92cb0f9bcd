/*
 * cel_parse.c: recursive-descent / precedence parser for the CEL grammar,
 * producing cel-go's AST shape (operators become calls "_+_", "_&&_", ...).
 *
 * Rules that follow cel-go's parser.go: an even run of '!' or '-' is the
 * operand itself; a '-' directly before a numeric literal is part of the
 * literal (so -9223372036854775808 is an int); reserved words are allowed
 * after '.'; macros expand as the call is parsed. Recursion depth is
 * bounded: deep nesting is a compile error, never a stack overflow.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cel-ast.h"
#include "cel-lex.h"

typedef struct {
	CelAstTree *tree;
	CelLexer lex;
	CelToken tok;  /* current */
	CelToken peek; /* one ahead */
	guint depth;
	gboolean macros;
	gboolean failed;
	GError **error;
	GString *buf;
} Parser;

static CelAst *parse_expr(Parser *p);

static void
advance(Parser *p)
{
	p->tok = p->peek;
	p->peek = cel_lex_next(&p->lex);
}

static CelAst *
fail(Parser *p, guint32 offset, const char *format, const char *arg)
{
	if (!p->failed) {
		p->failed = TRUE;
		cel_ast_tree_error(p->tree, offset, p->error, CEL_ERROR_SYNTAX, format, arg);
	}
	return NULL;
}

static CelAst *
fail_tok(Parser *p, const char *what)
{
	if (p->tok.kind == CEL_TOK_ERROR) {
		return fail(p, p->tok.offset, "Syntax error: %s", p->tok.text);
	}
	if (p->tok.kind == CEL_TOK_EOF) {
		return fail(p, p->tok.offset, "Syntax error: mismatched input '<EOF>' expecting %s",
		            what);
	}
	g_autofree char *text = g_strndup(p->tok.text, p->tok.len);
	g_autofree char *msg =
	        g_strdup_printf("Syntax error: mismatched input '%s' expecting %s", text, what);
	return fail(p, p->tok.offset, "%s", msg);
}

static gboolean
expect(Parser *p, CelTokenKind kind, const char *what)
{
	if (p->tok.kind != kind) {
		fail_tok(p, what);
		return FALSE;
	}
	advance(p);
	return TRUE;
}

static gboolean
enter(Parser *p)
{
	if (++p->depth > CEL_MAX_NESTING) {
		if (!p->failed) {
			p->failed = TRUE;
			cel_ast_tree_error(p->tree, p->tok.offset, p->error, CEL_ERROR_LIMIT,
			                   "expression recursion limit exceeded (max %d)",
			                   CEL_MAX_NESTING);
		}
		return FALSE;
	}
	return TRUE;
}

static CelAst *
call_or_macro(Parser *p, guint32 offset, const char *fn, CelAst *target, CelAst **args, guint nargs)
{
	if (p->macros) {
		const char *msg = NULL;
		CelAst *m = cel_macro__expand(p->tree, offset, fn, target, args, nargs, &msg);
		if (msg != NULL) {
			return fail(p, offset, "%s", msg);
		}
		if (m != NULL) {
			return m;
		}
	}
	return cel_ast__call(p->tree, offset, fn, target, args, nargs);
}

/* Parses "(args)" after the '(' was seen; returns the count, args in @out. */
static gboolean
parse_args(Parser *p, GPtrArray *out, CelTokenKind close)
{
	if (p->tok.kind == close) {
		advance(p);
		return TRUE;
	}
	for (;;) {
		CelAst *a = parse_expr(p);
		if (a == NULL) {
			return FALSE;
		}
		g_ptr_array_add(out, a);
		if (p->tok.kind == CEL_TOK_COMMA) {
			advance(p);
			continue;
		}
		return expect(p, close, close == CEL_TOK_RPAREN ? "')'" : "']'");
	}
}

static CelAst *
parse_number(Parser *p, gboolean negative)
{
	CelToken t = p->tok;
	g_autofree char *text = g_strndup(t.text, t.len);
	advance(p);
	errno = 0;
	if (t.kind == CEL_TOK_DOUBLE) {
		double d = g_ascii_strtod(text, NULL);
		return cel_ast__const(p->tree, t.offset, cel_value_double(negative ? -d : d));
	}
	gboolean hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
	if (t.kind == CEL_TOK_UINT) {
		text[strlen(text) - 1] = '\0';
		guint64 u = g_ascii_strtoull(hex ? text + 2 : text, NULL, hex ? 16 : 10);
		if (errno == ERANGE) {
			return fail(p, t.offset, "invalid uint literal%s", "");
		}
		return cel_ast__const(p->tree, t.offset, cel_value_uint(u));
	}
	guint64 mag = g_ascii_strtoull(hex ? text + 2 : text, NULL, hex ? 16 : 10);
	if (errno == ERANGE || mag > (guint64)G_MAXINT64 + (negative ? 1 : 0)) {
		return fail(p, t.offset, "invalid int literal%s", "");
	}
	gint64 v = negative ? (gint64)(0 - mag) : (gint64)mag;
	return cel_ast__const(p->tree, t.offset, cel_value_int(v));
}

static CelAst *
parse_string(Parser *p)
{
	CelToken t = p->tok;
	advance(p);
	gboolean is_bytes = FALSE;
	const char *msg = NULL;
	guint32 at = t.offset;
	if (!cel_lex_unescape(&t, p->buf, &is_bytes, &msg, &at)) {
		return fail(p, at, "Syntax error: %s", msg);
	}
	char *data = base_arena_strndup(&p->tree->arena, p->buf->str, p->buf->len);
	CelValue v =
	        is_bytes ? cel_value_bytes(data, p->buf->len) : cel_value_string(data, p->buf->len);
	if (!is_bytes && !cel_utf8_validate(data, p->buf->len, NULL)) {
		return fail(p, t.offset, "Syntax error: invalid UTF-8 in string literal%s", "");
	}
	return cel_ast__const(p->tree, t.offset, v);
}

/* list literal body after '[' */
static CelAst *
parse_list(Parser *p, guint32 offset)
{
	g_autoptr(GPtrArray) elems = g_ptr_array_new();
	g_autoptr(GByteArray) opt = g_byte_array_new();
	gboolean any_opt = FALSE;
	while (p->tok.kind != CEL_TOK_RBRACKET) {
		guint8 o = 0;
		if (p->tok.kind == CEL_TOK_QUESTION) {
			advance(p);
			o = 1;
			any_opt = TRUE;
		}
		CelAst *e = parse_expr(p);
		if (e == NULL) {
			return NULL;
		}
		g_ptr_array_add(elems, e);
		g_byte_array_append(opt, &o, 1);
		if (p->tok.kind != CEL_TOK_COMMA) {
			break;
		}
		advance(p);
	}
	if (!expect(p, CEL_TOK_RBRACKET, "']'")) {
		return NULL;
	}
	CelAst *n = cel_ast__list(p->tree, offset, (CelAst **)elems->pdata, elems->len);
	if (any_opt) {
		n->list.optional = base_arena_alloc(&p->tree->arena, opt->len);
		memcpy(n->list.optional, opt->data, opt->len);
	}
	return n;
}

/* map literal body after '{', or struct fields when @message != NULL */
static CelAst *
parse_map(Parser *p, guint32 offset, const char *message)
{
	g_autoptr(GPtrArray) keys = g_ptr_array_new();
	g_autoptr(GPtrArray) values = g_ptr_array_new();
	g_autoptr(GByteArray) opt = g_byte_array_new();
	gboolean any_opt = FALSE;
	while (p->tok.kind != CEL_TOK_RBRACE) {
		guint8 o = 0;
		if (p->tok.kind == CEL_TOK_QUESTION) {
			advance(p);
			o = 1;
			any_opt = TRUE;
		}
		CelAst *k;
		if (message != NULL) {
			if (p->tok.kind != CEL_TOK_IDENT && p->tok.kind != CEL_TOK_RESERVED) {
				return fail_tok(p, "field name");
			}
			g_autofree char *f = g_strndup(p->tok.text, p->tok.len);
			k = cel_ast__const(p->tree, p->tok.offset,
			                   cel_value_string(g_intern_string(f), strlen(f)));
			advance(p);
		} else {
			k = parse_expr(p);
		}
		if (k == NULL || !expect(p, CEL_TOK_COLON, "':'")) {
			return NULL;
		}
		CelAst *v = parse_expr(p);
		if (v == NULL) {
			return NULL;
		}
		g_ptr_array_add(keys, k);
		g_ptr_array_add(values, v);
		g_byte_array_append(opt, &o, 1);
		if (p->tok.kind != CEL_TOK_COMMA) {
			break;
		}
		advance(p);
	}
	if (!expect(p, CEL_TOK_RBRACE, "'}'")) {
		return NULL;
	}
	CelAst *n = cel_ast__new(p->tree, message ? CEL_AST_STRUCT : CEL_AST_MAP, offset);
	guint cnt = keys->len;
	CelAst **ks = base_arena_alloc(&p->tree->arena, sizeof(CelAst *) * MAX(cnt, 1));
	CelAst **vs = base_arena_alloc(&p->tree->arena, sizeof(CelAst *) * MAX(cnt, 1));
	if (cnt > 0) {
		memcpy(ks, keys->pdata, sizeof(CelAst *) * cnt);
		memcpy(vs, values->pdata, sizeof(CelAst *) * cnt);
	}
	guint8 *o = NULL;
	if (any_opt) {
		o = base_arena_alloc(&p->tree->arena, cnt);
		memcpy(o, opt->data, cnt);
	}
	if (message) {
		n->strukt.message = g_intern_string(message);
		n->strukt.fields = base_arena_alloc(&p->tree->arena, sizeof(char *) * MAX(cnt, 1));
		for (guint i = 0; i < cnt; i++) {
			n->strukt.fields[i] = ks[i]->constant.str;
		}
		n->strukt.values = vs;
		n->strukt.n = cnt;
		n->strukt.optional = o;
	} else {
		n->map.keys = ks;
		n->map.values = vs;
		n->map.n = cnt;
		n->map.optional = o;
	}
	return n;
}

static char *
ident_text(const CelToken *t)
{
	if (t->text[0] == '`') {
		return g_strndup(t->text + 1, t->len - 2);
	}
	return g_strndup(t->text, t->len);
}

static CelAst *
parse_primary(Parser *p)
{
	CelToken t = p->tok;
	switch (t.kind) {
	case CEL_TOK_INT:
	case CEL_TOK_UINT:
	case CEL_TOK_DOUBLE:
		return parse_number(p, FALSE);
	case CEL_TOK_STRING:
	case CEL_TOK_BYTES:
		return parse_string(p);
	case CEL_TOK_TRUE:
	case CEL_TOK_FALSE:
		advance(p);
		return cel_ast__const(p->tree, t.offset, cel_value_bool(t.kind == CEL_TOK_TRUE));
	case CEL_TOK_NULL:
		advance(p);
		return cel_ast__const(p->tree, t.offset, cel_value_null());
	case CEL_TOK_LPAREN: {
		advance(p);
		CelAst *e = parse_expr(p);
		if (e == NULL || !expect(p, CEL_TOK_RPAREN, "')'")) {
			return NULL;
		}
		return e;
	}
	case CEL_TOK_LBRACKET:
		advance(p);
		return parse_list(p, t.offset);
	case CEL_TOK_LBRACE:
		advance(p);
		return parse_map(p, t.offset, NULL);
	case CEL_TOK_DOT:
	case CEL_TOK_IDENT: {
		gboolean root = t.kind == CEL_TOK_DOT;
		if (t.text[0] == '`') {
			return fail_tok(p, "an expression");
		}
		if (root) {
			advance(p);
			if (p->tok.kind != CEL_TOK_IDENT) {
				return fail_tok(p, "IDENTIFIER");
			}
		}
		CelToken id = p->tok;
		g_autofree char *name0 = g_strndup(id.text, id.len);
		g_autofree char *name = root ? g_strconcat(".", name0, NULL) : g_strdup(name0);
		advance(p);
		if (p->tok.kind == CEL_TOK_LPAREN) {
			guint32 off = p->tok.offset;
			advance(p);
			g_autoptr(GPtrArray) args = g_ptr_array_new();
			if (!parse_args(p, args, CEL_TOK_RPAREN)) {
				return NULL;
			}
			return call_or_macro(p, off, name, NULL, (CelAst **)args->pdata, args->len);
		}
		return cel_ast__ident(p->tree, id.offset, name);
	}
	case CEL_TOK_RESERVED: {
		g_autofree char *w = g_strndup(t.text, t.len);
		return fail(p, t.offset, "Syntax error: reserved identifier: %s", w);
	}
	default:
		return fail_tok(p, "an expression");
	}
}

static CelAst *
parse_member(Parser *p)
{
	CelAst *e = parse_primary(p);
	while (e != NULL) {
		CelToken t = p->tok;
		if (t.kind == CEL_TOK_DOT) {
			advance(p);
			gboolean opt = FALSE;
			if (p->tok.kind == CEL_TOK_QUESTION) {
				opt = TRUE;
				advance(p);
			}
			CelToken f = p->tok;
			if (f.kind != CEL_TOK_IDENT && f.kind != CEL_TOK_RESERVED) {
				return fail_tok(p, "IDENTIFIER");
			}
			g_autofree char *field = ident_text(&f);
			advance(p);
			if (!opt && p->tok.kind == CEL_TOK_LPAREN && f.text[0] != '`') {
				guint32 off = p->tok.offset;
				advance(p);
				g_autoptr(GPtrArray) args = g_ptr_array_new();
				if (!parse_args(p, args, CEL_TOK_RPAREN)) {
					return NULL;
				}
				e = call_or_macro(p, off, field, e, (CelAst **)args->pdata,
				                  args->len);
			} else if (opt) {
				CelAst *fc = cel_ast__const(
				        p->tree, f.offset,
				        cel_value_string(g_intern_string(field), strlen(field)));
				e = cel_ast__call2(p->tree, t.offset, "_?._", e, fc);
			} else {
				e = cel_ast__select(p->tree, t.offset, e, field, FALSE);
			}
		} else if (t.kind == CEL_TOK_LBRACKET) {
			advance(p);
			gboolean opt = FALSE;
			if (p->tok.kind == CEL_TOK_QUESTION) {
				opt = TRUE;
				advance(p);
			}
			CelAst *idx = parse_expr(p);
			if (idx == NULL || !expect(p, CEL_TOK_RBRACKET, "']'")) {
				return NULL;
			}
			e = cel_ast__call2(p->tree, t.offset, opt ? "_[?_]" : "_[_]", e, idx);
		} else if (t.kind == CEL_TOK_LBRACE) {
			g_autofree char *msg = cel_ast__qualified_name(e, NULL, NULL);
			if (msg == NULL) {
				return fail_tok(p, "<EOF>");
			}
			advance(p);
			e = parse_map(p, t.offset, msg);
		} else {
			break;
		}
	}
	return e;
}

static CelAst *
parse_unary(Parser *p)
{
	if (!enter(p)) {
		return NULL;
	}
	CelAst *r;
	CelToken t = p->tok;
	if (t.kind == CEL_TOK_NOT || t.kind == CEL_TOK_MINUS) {
		guint n = 0;
		while (p->tok.kind == t.kind) {
			n++;
			advance(p);
		}
		CelAst *operand;
		if (t.kind == CEL_TOK_MINUS &&
		    (p->tok.kind == CEL_TOK_INT || p->tok.kind == CEL_TOK_DOUBLE) &&
		    p->peek.kind != CEL_TOK_DOT && p->peek.kind != CEL_TOK_LBRACKET) {
			/* the last '-' belongs to the literal (grammar: literal sign) */
			n--;
			operand = parse_number(p, TRUE);
		} else {
			operand = parse_member(p);
		}
		if (operand == NULL || n % 2 == 0) {
			r = operand;
		} else {
			r = cel_ast__call2(p->tree, t.offset, t.kind == CEL_TOK_NOT ? "!_" : "-_",
			                   operand, NULL);
		}
	} else {
		r = parse_member(p);
	}
	p->depth--;
	return r;
}

typedef struct {
	CelTokenKind tok;
	const char *fn;
	int prec;
} BinOp;

/* Binding powers, lowest first (CEL spec precedence table). */
enum { PREC_OR = 1, PREC_AND, PREC_RELATION, PREC_ADDITIVE, PREC_MULTIPLY };

static const BinOp binops[] = {
	{ CEL_TOK_OR, "_||_", PREC_OR },         { CEL_TOK_AND, "_&&_", PREC_AND },
	{ CEL_TOK_LT, "_<_", PREC_RELATION },    { CEL_TOK_LE, "_<=_", PREC_RELATION },
	{ CEL_TOK_GT, "_>_", PREC_RELATION },    { CEL_TOK_GE, "_>=_", PREC_RELATION },
	{ CEL_TOK_EQ, "_==_", PREC_RELATION },   { CEL_TOK_NE, "_!=_", PREC_RELATION },
	{ CEL_TOK_IN, "@in", PREC_RELATION },    { CEL_TOK_PLUS, "_+_", PREC_ADDITIVE },
	{ CEL_TOK_MINUS, "_-_", PREC_ADDITIVE }, { CEL_TOK_STAR, "_*_", PREC_MULTIPLY },
	{ CEL_TOK_SLASH, "_/_", PREC_MULTIPLY }, { CEL_TOK_PERCENT, "_%_", PREC_MULTIPLY },
};

static const BinOp *
binop_of(CelTokenKind k)
{
	for (guint i = 0; i < G_N_ELEMENTS(binops); i++) {
		if (binops[i].tok == k) {
			return &binops[i];
		}
	}
	return NULL;
}

/* Precedence climbing: all binary operators are left-associative. */
static CelAst *
parse_binary(Parser *p, int min_prec)
{
	if (!enter(p)) {
		return NULL;
	}
	CelAst *left = parse_unary(p);
	while (left != NULL) {
		const BinOp *op = binop_of(p->tok.kind);
		if (op == NULL || op->prec < min_prec) {
			break;
		}
		guint32 off = p->tok.offset;
		advance(p);
		CelAst *right = parse_binary(p, op->prec + 1);
		if (right == NULL) {
			left = NULL;
			break;
		}
		left = cel_ast__call2(p->tree, off, op->fn, left, right);
	}
	p->depth--;
	return left;
}

static CelAst *
parse_expr(Parser *p)
{
	if (!enter(p)) {
		return NULL;
	}
	CelAst *cond = parse_binary(p, PREC_OR);
	if (cond != NULL && p->tok.kind == CEL_TOK_QUESTION) {
		guint32 off = p->tok.offset;
		advance(p);
		CelAst *a = parse_binary(p, PREC_OR);
		CelAst *b = NULL;
		if (a != NULL && expect(p, CEL_TOK_COLON, "':'")) {
			b = parse_expr(p);
		}
		if (b == NULL) {
			cond = NULL;
		} else {
			CelAst *args[3] = { cond, a, b };
			cond = cel_ast__call(p->tree, off, "_?_:_", NULL, args, 3);
		}
	}
	p->depth--;
	return cond;
}

gboolean
cel_parse(CelAstTree *tree, const char *source, gsize len, gboolean macros, GError **error)
{
	memset(tree, 0, sizeof *tree);
	base_arena_init(&tree->arena, 4096);
	tree->source = base_arena_strndup(&tree->arena, source, len);
	tree->len = len;
	if (tree->len > CEL_MAX_SOURCE_BYTES) {
		g_set_error(error, CEL_ERROR, CEL_ERROR_LIMIT,
		            "ERROR: <input>:1:1: expression size %zu exceeds the limit of %d bytes",
		            tree->len, CEL_MAX_SOURCE_BYTES);
		return FALSE;
	}
	const char *bad = NULL;
	if (!cel_utf8_validate(tree->source, tree->len, &bad)) {
		cel_ast_tree_error(tree, (guint32)(bad - tree->source), error, CEL_ERROR_SYNTAX,
		                   "Syntax error: invalid UTF-8 in expression");
		return FALSE;
	}
	Parser p = { 0 };
	p.tree = tree;
	p.macros = macros;
	p.error = error;
	p.buf = g_string_new(NULL);
	cel_lex_init(&p.lex, tree->source, tree->len);
	p.peek = cel_lex_next(&p.lex);
	advance(&p);
	CelAst *root = parse_expr(&p);
	if (root != NULL && p.tok.kind != CEL_TOK_EOF) {
		root = fail_tok(&p, "<EOF>");
	}
	g_string_free(p.buf, TRUE);
	tree->root = root;
	return root != NULL;
}
