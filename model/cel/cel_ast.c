/*
 * cel_ast.c: AST construction helpers, positions and cel-go style error text.
 *
 * Nodes live in the tree's arena. Positions are byte offsets; they become
 * line:column (columns counted in code points, as cel-go does) only when a
 * message is printed.
 */
#include <string.h>

#include "cel-ast.h"

CelAst *
cel_ast__new(CelAstTree *tree, CelAstKind kind, guint32 offset)
{
	CelAst *n = base_arena_alloc(&tree->arena, sizeof(CelAst));
	n->kind = kind;
	n->id = ++tree->next_id;
	n->offset = offset;
	n->type = NULL;
	return n;
}

char *
cel_ast__qualified_name(const CelAst *n,
                        gboolean (*is_local)(gpointer data, const char *name),
                        gpointer data)
{
	if (n->kind == CEL_AST_IDENT) {
		if (is_local != NULL && n->ident.name[0] != '.' && is_local(data, n->ident.name)) {
			return NULL;
		}
		return g_strdup(n->ident.name);
	}
	if (n->kind == CEL_AST_SELECT && !n->select.test_only) {
		char *left = cel_ast__qualified_name(n->select.operand, is_local, data);
		if (left == NULL) {
			return NULL;
		}
		char *r = g_strconcat(left, ".", n->select.field, NULL);
		g_free(left);
		return r;
	}
	return NULL;
}

CelAst *
cel_ast__const(CelAstTree *tree, guint32 offset, CelValue value)
{
	CelAst *n = cel_ast__new(tree, CEL_AST_CONST, offset);
	n->constant = value;
	return n;
}

CelAst *
cel_ast__ident(CelAstTree *tree, guint32 offset, const char *name)
{
	CelAst *n = cel_ast__new(tree, CEL_AST_IDENT, offset);
	n->ident.name = g_intern_string(name);
	return n;
}

CelAst *
cel_ast__select(
        CelAstTree *tree, guint32 offset, CelAst *operand, const char *field, gboolean test_only)
{
	CelAst *n = cel_ast__new(tree, CEL_AST_SELECT, offset);
	n->select.operand = operand;
	n->select.field = g_intern_string(field);
	n->select.field_len = (guint32)strlen(field);
	n->select.test_only = test_only;
	return n;
}

CelAst *
cel_ast__call(CelAstTree *tree,
              guint32 offset,
              const char *function,
              CelAst *target,
              CelAst *const *args,
              guint nargs)
{
	CelAst *n = cel_ast__new(tree, CEL_AST_CALL, offset);
	n->call.function = g_intern_string(function);
	n->call.target = target;
	n->call.nargs = nargs;
	n->call.args = base_arena_alloc(&tree->arena, sizeof(CelAst *) * MAX(nargs, 1));
	for (guint i = 0; i < nargs; i++) {
		n->call.args[i] = args[i];
	}
	return n;
}

CelAst *
cel_ast__call2(CelAstTree *tree, guint32 offset, const char *function, CelAst *a, CelAst *b)
{
	CelAst *args[2] = { a, b };
	return cel_ast__call(tree, offset, function, NULL, args, b ? 2 : 1);
}

CelAst *
cel_ast__list(CelAstTree *tree, guint32 offset, CelAst *const *elems, guint n)
{
	CelAst *node = cel_ast__new(tree, CEL_AST_LIST, offset);
	node->list.n = n;
	node->list.elems = base_arena_alloc(&tree->arena, sizeof(CelAst *) * MAX(n, 1));
	for (guint i = 0; i < n; i++) {
		node->list.elems[i] = elems[i];
	}
	return node;
}

CelAst *
cel_ast__comprehension(CelAstTree *tree,
                       guint32 offset,
                       const char *iter_var,
                       const char *iter_var2,
                       CelAst *range,
                       const char *accu_var,
                       CelAst *init,
                       CelAst *cond,
                       CelAst *step,
                       CelAst *result)
{
	CelAst *n = cel_ast__new(tree, CEL_AST_COMPREHENSION, offset);
	n->comp.iter_var = g_intern_string(iter_var);
	n->comp.iter_var2 = iter_var2 ? g_intern_string(iter_var2) : NULL;
	n->comp.iter_range = range;
	n->comp.accu_var = g_intern_string(accu_var);
	n->comp.accu_init = init;
	n->comp.loop_cond = cond;
	n->comp.loop_step = step;
	n->comp.result = result;
	return n;
}

void
cel_ast_tree_clear(CelAstTree *tree)
{
	base_arena_clear(&tree->arena);
	if (tree->line_starts != NULL) {
		g_array_unref(tree->line_starts);
		tree->line_starts = NULL;
	}
	tree->root = NULL;
}

void
cel_ast_tree_position(const CelAstTree *tree, guint32 offset, guint *line, guint *column)
{
	guint l = 1;
	gsize start = 0;
	for (gsize i = 0; i < offset && i < tree->len; i++) {
		if (tree->source[i] == '\n') {
			l++;
			start = i + 1;
		}
	}
	*line = l;
	/* columns in code points, 1-based */
	*column = (guint)cel_utf8_length(tree->source + start, offset - start) + 1;
}

void
cel_ast_tree_error(
        const CelAstTree *tree, guint32 offset, GError **error, int code, const char *format, ...)
{
	if (error == NULL || *error != NULL) {
		return;
	}
	va_list ap;
	va_start(ap, format);
	g_autofree char *msg = g_strdup_vprintf(format, ap);
	va_end(ap);
	guint line, column;
	cel_ast_tree_position(tree, offset, &line, &column);
	GString *s = g_string_new(NULL);
	g_string_append_printf(s, "ERROR: <input>:%u:%u: %s", line, column, msg);
	/* the source line and a caret under the column (cel-go ToDisplayString) */
	const char *p = tree->source;
	const char *end = tree->source + tree->len;
	for (guint i = 1; i < line; i++) {
		p = (const char *)memchr(p, '\n', (gsize)(end - p)) + 1;
	}
	const char *eol = memchr(p, '\n', (gsize)(end - p));
	gsize n = eol ? (gsize)(eol - p) : (gsize)(end - p);
	g_string_append(s, "\n | ");
	for (gsize i = 0; i < n; i++) {
		g_string_append_c(s, p[i] == '\t' ? ' ' : p[i]);
	}
	g_string_append(s, "\n | ");
	for (guint i = 1; i < column; i++) {
		g_string_append_c(s, '.');
	}
	g_string_append_c(s, '^');
	g_set_error_literal(error, CEL_ERROR, code, s->str);
	g_string_free(s, TRUE);
}
