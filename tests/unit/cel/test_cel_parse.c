/*
 * test_cel_parse.c: lexer and parser: literal forms, precedence, macro
 * expansion shape, positions in error messages, and the hard limits
 * (nesting depth, 10 KiB, invalid UTF-8, NUL) that must give compile errors.
 */
#include <setjmp.h> /* cmocka 1.x needs these four before cmocka.h */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cel-lex.h"
#include "cel-private.h"

static char *
parse_to_string(const char *src)
{
	CelAstTree tree;
	GError *error = NULL;
	if (!cel_parse(&tree, src, strlen(src), TRUE, &error)) {
		char *msg = g_strdup(error->message);
		g_error_free(error);
		cel_ast_tree_clear(&tree);
		return msg;
	}
	GString *s = g_string_new(NULL);
	cel_ast_print(s, tree.root);
	cel_ast_tree_clear(&tree);
	return g_string_free(s, FALSE);
}

static void
assert_parse(const char *src, const char *want)
{
	g_autofree char *got = parse_to_string(src);
	if (strcmp(got, want) != 0) {
		fail_msg("parse(%s)\n  want %s\n  got  %s", src, want, got);
	}
}

static void
test_lex__tokens(void **state)
{
	CelLexer lex;
	const char *src = "a.b[?1u] >= 0x1F && !'x' || .5e1 in r'\\d'";
	static const CelTokenKind want[] = {
		CEL_TOK_IDENT,  CEL_TOK_DOT,      CEL_TOK_IDENT, CEL_TOK_LBRACKET, CEL_TOK_QUESTION,
		CEL_TOK_UINT,   CEL_TOK_RBRACKET, CEL_TOK_GE,    CEL_TOK_INT,      CEL_TOK_AND,
		CEL_TOK_NOT,    CEL_TOK_STRING,   CEL_TOK_OR,    CEL_TOK_DOUBLE,   CEL_TOK_IN,
		CEL_TOK_STRING, CEL_TOK_EOF,
	};
	cel_lex_init(&lex, src, strlen(src));
	for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
		CelToken t = cel_lex_next(&lex);
		assert_int_equal(t.kind, want[i]);
	}
}

static void
test_parse__literals(void **state)
{
	assert_parse("-9223372036854775808", "-9223372036854775808");
	assert_parse("0xFFu", "255u");
	assert_parse("1e3", "1000.0");
	assert_parse("'\\x41\\u00e9'", "\"Aé\"");
	assert_parse("b'\\377'", "b\"\xff\"");
	assert_parse("r'\\n'", "\"\\\\n\"");
	assert_parse("'''a\nb'''", "\"a\\nb\"");
	assert_parse("9223372036854775808", "ERROR: <input>:1:1: invalid int literal\n"
	                                    " | 9223372036854775808\n"
	                                    " | ^");
}

static void
test_parse__precedence(void **state)
{
	assert_parse("1 + 2 * 3 == 7 && x || y", "(_||_ (_&&_ (_==_ (_+_ 1 (_*_ 2 3)) 7) x) y)");
	assert_parse("a ? b : c ? d : e", "(_?_:_ a b (_?_:_ c d e))");
	assert_parse("!!x", "x");
	assert_parse("--x", "x");
	assert_parse("-x.y[0]", "(-_ (_[_] (. x y) 0))");
	assert_parse("1 - 2 - 3", "(_-_ (_-_ 1 2) 3)");
	assert_parse("{'a': [1, ?x]}.?a", "(_?._ {\"a\": [1, ?x]} \"a\")");
}

static void
test_parse__macros(void **state)
{
	assert_parse("has(a.b)", "(has a b)");
	assert_parse("[1].all(x, x > 0)",
	             "(comprehension x [1] @result=true (@not_strictly_false @result) "
	             "(_&&_ @result (_>_ x 0)) @result)");
	assert_parse("has(a)", "ERROR: <input>:1:4: invalid argument to has() macro\n"
	                       " | has(a)\n"
	                       " | ...^");
	assert_parse("[1].map(1, x)", "ERROR: <input>:1:8: argument must be a simple name\n"
	                              " | [1].map(1, x)\n"
	                              " | .......^");
}

static void
test_parse__errors_have_positions(void **state)
{
	assert_parse("a +\n  b )", "ERROR: <input>:2:5: Syntax error: mismatched input ')' "
	                           "expecting <EOF>\n |   b )\n | ....^");
	assert_parse("'unterminated", "ERROR: <input>:1:1: Syntax error: unterminated string "
	                              "literal\n | 'unterminated\n | ^");
	assert_parse("a.if()", "(if target=a)");
	assert_parse("if", "ERROR: <input>:1:1: Syntax error: reserved identifier: if\n"
	                   " | if\n | ^");
}

static void
test_parse__limits(void **state)
{
	/* deep nesting: an error, not a stack overflow */
	GString *deep = g_string_new(NULL);
	for (int i = 0; i < 100000; i++) {
		g_string_append_c(deep, '(');
	}
	g_autofree char *r1 = parse_to_string(deep->str);
	assert_non_null(strstr(r1, "ERROR"));
	g_string_free(deep, TRUE);

	GString *big = g_string_new("1");
	while (big->len <= CEL_MAX_SOURCE_BYTES) {
		g_string_append(big, " + 1");
	}
	g_autofree char *r2 = parse_to_string(big->str);
	assert_non_null(strstr(r2, "exceeds the limit"));
	g_string_free(big, TRUE);

	g_autofree char *r3 = parse_to_string("'\xff'");
	assert_non_null(strstr(r3, "invalid UTF-8"));

	/* a NUL outside a literal is an error; inside a literal it is data */
	CelAstTree tree;
	GError *error = NULL;
	assert_false(cel_parse(&tree, "1 \0 2", 5, TRUE, &error));
	assert_non_null(strstr(error->message, "NUL"));
	g_clear_error(&error);
	cel_ast_tree_clear(&tree);
	assert_true(cel_parse(&tree, "'a\0b'", 5, TRUE, &error));
	assert_int_equal(tree.root->constant.aux, 3);
	cel_ast_tree_clear(&tree);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lex__tokens),
		cmocka_unit_test(test_parse__literals),
		cmocka_unit_test(test_parse__precedence),
		cmocka_unit_test(test_parse__macros),
		cmocka_unit_test(test_parse__errors_have_positions),
		cmocka_unit_test(test_parse__limits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
