/*
 * cel_lex.c: the CEL scanner. One token per call, tokens are slices of the
 * source (clox's design), errors come back as CEL_TOK_ERROR tokens so the
 * parser reports them in one place. String escapes are decoded separately by
 * cel_lex_unescape(), following cel-go's parser/unescape.go rules: in string
 * literals \x, \u and octal escapes are code points; in bytes they are bytes.
 */
#include <string.h>

#include "cel-lex.h"

void
cel_lex_init(CelLexer *lex, const char *source, gsize len)
{
	lex->source = source;
	lex->len = len;
	lex->pos = 0;
}

static CelToken
make(CelLexer *lex, CelTokenKind kind, gsize start)
{
	return (CelToken){ kind, (guint32)start, (guint32)(lex->pos - start), lex->source + start };
}

static CelToken
error_tok(gsize start, const char *message)
{
	return (CelToken){ CEL_TOK_ERROR, (guint32)start, 0, message };
}

static char
peek(CelLexer *lex, gsize ahead)
{
	return lex->pos + ahead < lex->len ? lex->source[lex->pos + ahead] : '\0';
}

static void
skip_space(CelLexer *lex)
{
	for (;;) {
		char c = peek(lex, 0);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f') {
			lex->pos++;
		} else if (c == '/' && peek(lex, 1) == '/') {
			while (lex->pos < lex->len && lex->source[lex->pos] != '\n') {
				lex->pos++;
			}
		} else {
			return;
		}
	}
}

static const char *const reserved[] = { "as",   "break",    "const",     "continue", "else",
	                                "for",  "function", "if",        "import",   "let",
	                                "loop", "package",  "namespace", "return",   "var",
	                                "void", "while" };

static CelToken
scan_ident(CelLexer *lex, gsize start)
{
	while (g_ascii_isalnum(peek(lex, 0)) || peek(lex, 0) == '_') {
		lex->pos++;
	}
	gsize n = lex->pos - start;
	const char *s = lex->source + start;
	if (n == 4 && memcmp(s, "true", 4) == 0) {
		return make(lex, CEL_TOK_TRUE, start);
	}
	if (n == 5 && memcmp(s, "false", 5) == 0) {
		return make(lex, CEL_TOK_FALSE, start);
	}
	if (n == 4 && memcmp(s, "null", 4) == 0) {
		return make(lex, CEL_TOK_NULL, start);
	}
	if (n == 2 && memcmp(s, "in", 2) == 0) {
		return make(lex, CEL_TOK_IN, start);
	}
	for (guint i = 0; i < G_N_ELEMENTS(reserved); i++) {
		if (strlen(reserved[i]) == n && memcmp(s, reserved[i], n) == 0) {
			return make(lex, CEL_TOK_RESERVED, start);
		}
	}
	return make(lex, CEL_TOK_IDENT, start);
}

static CelToken
scan_number(CelLexer *lex, gsize start)
{
	if (peek(lex, 0) == '0' && (peek(lex, 1) == 'x' || peek(lex, 1) == 'X')) {
		lex->pos += 2;
		if (!g_ascii_isxdigit(peek(lex, 0))) {
			return error_tok(start, "invalid hex literal");
		}
		while (g_ascii_isxdigit(peek(lex, 0))) {
			lex->pos++;
		}
		if (peek(lex, 0) == 'u' || peek(lex, 0) == 'U') {
			lex->pos++;
			return make(lex, CEL_TOK_UINT, start);
		}
		return make(lex, CEL_TOK_INT, start);
	}
	gboolean is_double = FALSE;
	while (g_ascii_isdigit(peek(lex, 0))) {
		lex->pos++;
	}
	if (peek(lex, 0) == '.' && g_ascii_isdigit(peek(lex, 1))) {
		is_double = TRUE;
		lex->pos++;
		while (g_ascii_isdigit(peek(lex, 0))) {
			lex->pos++;
		}
	}
	char e = peek(lex, 0);
	if (e == 'e' || e == 'E') {
		gsize save = lex->pos;
		lex->pos++;
		if (peek(lex, 0) == '+' || peek(lex, 0) == '-') {
			lex->pos++;
		}
		if (g_ascii_isdigit(peek(lex, 0))) {
			is_double = TRUE;
			while (g_ascii_isdigit(peek(lex, 0))) {
				lex->pos++;
			}
		} else {
			lex->pos = save;
		}
	}
	if (is_double) {
		return make(lex, CEL_TOK_DOUBLE, start);
	}
	if (peek(lex, 0) == 'u' || peek(lex, 0) == 'U') {
		lex->pos++;
		return make(lex, CEL_TOK_UINT, start);
	}
	return make(lex, CEL_TOK_INT, start);
}

/* Scans a quoted literal; lex->pos is at the first quote. */
static CelToken
scan_string(CelLexer *lex, gsize start, gboolean raw, gboolean bytes)
{
	char q = peek(lex, 0);
	gboolean triple = peek(lex, 1) == q && peek(lex, 2) == q;
	lex->pos += triple ? 3 : 1;
	for (;;) {
		if (lex->pos >= lex->len) {
			return error_tok(start, "unterminated string literal");
		}
		char c = lex->source[lex->pos];
		if (c == '\\' && !raw) {
			lex->pos += 2;
			continue;
		}
		if (c == '\\' && raw) {
			/* raw strings keep the backslash but it still protects a quote */
			lex->pos++;
			continue;
		}
		if (!triple && (c == '\n' || c == '\r')) {
			return error_tok(start, "unterminated string literal");
		}
		if (c == q) {
			if (!triple) {
				lex->pos++;
				break;
			}
			if (peek(lex, 1) == q && peek(lex, 2) == q) {
				lex->pos += 3;
				break;
			}
		}
		lex->pos++;
	}
	return make(lex, bytes ? CEL_TOK_BYTES : CEL_TOK_STRING, start);
}

/* The operators of two characters; each is tried before the one-character tokens. */
static const struct {
	char first, second;
	CelTokenKind kind;
} two_char_ops[] = {
	{ '!', '=', CEL_TOK_NE }, { '<', '=', CEL_TOK_LE },  { '>', '=', CEL_TOK_GE },
	{ '=', '=', CEL_TOK_EQ }, { '&', '&', CEL_TOK_AND }, { '|', '|', CEL_TOK_OR },
};

/*
 * Punctuation and operators, one or two characters starting with @c (already consumed):
 * the two-character operators from their table, then one switch over the first character.
 */
static CelToken
scan_punct(CelLexer *lex, gsize start, char c)
{
	char n = peek(lex, 0);
	for (guint i = 0; i < G_N_ELEMENTS(two_char_ops); i++) {
		if (c == two_char_ops[i].first && n == two_char_ops[i].second) {
			lex->pos++;
			return make(lex, two_char_ops[i].kind, start);
		}
	}
	switch (c) {
	case '(':
		return make(lex, CEL_TOK_LPAREN, start);
	case ')':
		return make(lex, CEL_TOK_RPAREN, start);
	case '[':
		return make(lex, CEL_TOK_LBRACKET, start);
	case ']':
		return make(lex, CEL_TOK_RBRACKET, start);
	case '{':
		return make(lex, CEL_TOK_LBRACE, start);
	case '}':
		return make(lex, CEL_TOK_RBRACE, start);
	case '.':
		return make(lex, CEL_TOK_DOT, start);
	case ',':
		return make(lex, CEL_TOK_COMMA, start);
	case ':':
		return make(lex, CEL_TOK_COLON, start);
	case '?':
		return make(lex, CEL_TOK_QUESTION, start);
	case '+':
		return make(lex, CEL_TOK_PLUS, start);
	case '-':
		return make(lex, CEL_TOK_MINUS, start);
	case '*':
		return make(lex, CEL_TOK_STAR, start);
	case '/':
		return make(lex, CEL_TOK_SLASH, start);
	case '%':
		return make(lex, CEL_TOK_PERCENT, start);
	case '!':
		return make(lex, CEL_TOK_NOT, start);
	case '<':
		return make(lex, CEL_TOK_LT, start);
	case '>':
		return make(lex, CEL_TOK_GT, start);
	case '\0':
		return error_tok(start, "NUL character (\\u0000) outside a string literal");
	default:
		break;
	}
	return error_tok(start, "token recognition error");
}

/* r"...", b'...', rb"..." (any case, any order): FALSE when @c starts no prefixed string. */
static gboolean
scan_prefixed_string(CelLexer *lex, gsize start, char c, CelToken *out)
{
	if (c != 'r' && c != 'R' && c != 'b' && c != 'B') {
		return FALSE;
	}
	gboolean raw = FALSE, bytes = FALSE;
	gsize p = 0;
	for (int i = 0; i < 2; i++) {
		char d = peek(lex, p);
		if ((d == 'r' || d == 'R') && !raw) {
			raw = TRUE;
			p++;
		} else if ((d == 'b' || d == 'B') && !bytes) {
			bytes = TRUE;
			p++;
		}
	}
	char qc = peek(lex, p);
	if (p > 0 && (qc == '"' || qc == '\'')) {
		lex->pos += p;
		*out = scan_string(lex, start, raw, bytes);
		return TRUE;
	}
	return FALSE;
}

/* A quoted field name (ESC_IDENTIFIER): `content-type`. */
static CelToken
scan_quoted_ident(CelLexer *lex, gsize start)
{
	lex->pos++;
	while (lex->pos < lex->len && lex->source[lex->pos] != '`' &&
	       lex->source[lex->pos] != '\n') {
		lex->pos++;
	}
	if (peek(lex, 0) != '`' || lex->pos == start + 1) {
		return error_tok(start, "invalid quoted identifier");
	}
	lex->pos++;
	return make(lex, CEL_TOK_IDENT, start);
}

CelToken
cel_lex_next(CelLexer *lex)
{
	CelToken tok;

	skip_space(lex);
	gsize start = lex->pos;
	if (lex->pos >= lex->len) {
		return make(lex, CEL_TOK_EOF, start);
	}
	char c = lex->source[lex->pos];
	if (scan_prefixed_string(lex, start, c, &tok)) {
		return tok;
	}
	if (g_ascii_isalpha(c) || c == '_') {
		return scan_ident(lex, start);
	}
	if (g_ascii_isdigit(c) || (c == '.' && g_ascii_isdigit(peek(lex, 1)))) {
		return scan_number(lex, start);
	}
	if (c == '"' || c == '\'') {
		return scan_string(lex, start, FALSE, FALSE);
	}
	if (c == '`') {
		return scan_quoted_ident(lex, start);
	}
	lex->pos++;
	return scan_punct(lex, start, c);
}

static void
append_code_point(GString *out, gunichar cp, gboolean bytes)
{
	if (bytes && cp < 256) {
		g_string_append_c(out, (char)cp);
	} else {
		g_string_append_unichar(out, cp);
	}
}

static int
hexval(char c)
{
	return g_ascii_xdigit_value(c);
}

/* \xHH, \uHHHH, \UHHHHHHHH (@e is the letter; *i is past it): a code point, or a byte. */
static gboolean
unescape_hex(const char *s,
             gsize *i,
             gsize end,
             char e,
             gboolean bytes,
             GString *out,
             const char **message)
{
	int digits = (e == 'x' || e == 'X') ? 2 : e == 'u' ? 4 : 8;
	if (bytes && (e == 'u' || e == 'U')) {
		*message = "unicode escape in bytes literal";
		return FALSE;
	}
	guint32 cp = 0;
	for (int k = 0; k < digits; k++) {
		if (*i >= end || hexval(s[*i]) < 0) {
			*message = "invalid escape sequence";
			return FALSE;
		}
		cp = cp * 16 + (guint32)hexval(s[*i]);
		(*i)++;
	}
	if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) {
		*message = "invalid unicode code point";
		return FALSE;
	}
	append_code_point(out, cp, bytes);
	return TRUE;
}

/* \ooo (@e is the first digit, 0-3; *i is past it). */
static gboolean
unescape_octal(const char *s,
               gsize *i,
               gsize end,
               char e,
               gboolean bytes,
               GString *out,
               const char **message)
{
	guint32 cp = (guint32)(e - '0');
	for (int k = 0; k < 2; k++) {
		if (*i >= end || s[*i] < '0' || s[*i] > '7') {
			*message = "invalid octal escape";
			return FALSE;
		}
		cp = cp * 8 + (guint32)(s[*i] - '0');
		(*i)++;
	}
	append_code_point(out, cp, bytes);
	return TRUE;
}

/* The escape whose letter is s[*i] (after the backslash); *i ends past it. */
static gboolean
unescape_one(const char *s, gsize *i, gsize end, gboolean bytes, GString *out, const char **message)
{
	static const char named[] = "a\ab\bf\fn\nr\rt\tv\v"; /* letter, value pairs */
	char e = s[(*i)++];
	for (const char *p = named; *p != '\0'; p += 2) {
		if (e == p[0]) {
			g_string_append_c(out, p[1]);
			return TRUE;
		}
	}
	switch (e) {
	case '\\':
	case '?':
	case '"':
	case '\'':
	case '`':
		g_string_append_c(out, e);
		return TRUE;
	case 'x':
	case 'X':
	case 'u':
	case 'U':
		return unescape_hex(s, i, end, e, bytes, out, message);
	case '0':
	case '1':
	case '2':
	case '3':
		return unescape_octal(s, i, end, e, bytes, out, message);
	default:
		*message = "invalid escape sequence";
		return FALSE;
	}
}

gboolean
cel_lex_unescape(const CelToken *tok,
                 GString *out,
                 gboolean *is_bytes,
                 const char **message,
                 guint32 *err_offset)
{
	const char *s = tok->text;
	gsize n = tok->len;
	gsize i = 0;
	gboolean raw = FALSE, bytes = FALSE;
	while (s[i] != '"' && s[i] != '\'') {
		if (s[i] == 'r' || s[i] == 'R') {
			raw = TRUE;
		} else {
			bytes = TRUE;
		}
		i++;
	}
	char q = s[i];
	gsize qlen = (i + 2 < n && s[i + 1] == q && s[i + 2] == q && n - i >= 6) ? 3 : 1;
	gsize end = n - qlen;
	i += qlen;
	*is_bytes = bytes;
	g_string_truncate(out, 0);
	while (i < end) {
		char c = s[i];
		if (c != '\\' || raw) {
			g_string_append_c(out, c);
			i++;
			continue;
		}
		*err_offset = tok->offset + (guint32)i;
		if (i + 1 >= end) {
			*message = "invalid escape sequence";
			return FALSE;
		}
		i++;
		if (!unescape_one(s, &i, end, bytes, out, message)) {
			return FALSE;
		}
	}
	return TRUE;
}
