/*
 * cel-ast.h: node constructors shared by the parser and the macro expander.
 */
#pragma once

#include "cel-private.h"

CelAst *cel_ast__new(CelAstTree *tree, CelAstKind kind, guint32 offset);
/* The dotted name of an ident/select chain ("a.b.c"), or NULL when @n is not
 * one, or when @is_local (may be NULL) says its root names a local variable
 * (a root written ".x" is never local). (transfer full) */
char *cel_ast__qualified_name(const CelAst *n,
                              gboolean (*is_local)(gpointer data, const char *name),
                              gpointer data);
CelAst *cel_ast__const(CelAstTree *tree, guint32 offset, CelValue value);
CelAst *cel_ast__ident(CelAstTree *tree, guint32 offset, const char *name);
CelAst *cel_ast__select(
        CelAstTree *tree, guint32 offset, CelAst *operand, const char *field, gboolean test_only);
CelAst *cel_ast__call(CelAstTree *tree,
                      guint32 offset,
                      const char *function,
                      CelAst *target,
                      CelAst *const *args,
                      guint nargs);
/* Global call with one (b == NULL) or two arguments. */
CelAst *
cel_ast__call2(CelAstTree *tree, guint32 offset, const char *function, CelAst *a, CelAst *b);
CelAst *cel_ast__list(CelAstTree *tree, guint32 offset, CelAst *const *elems, guint n);
CelAst *cel_ast__comprehension(CelAstTree *tree,
                               guint32 offset,
                               const char *iter_var,
                               const char *iter_var2,
                               CelAst *range,
                               const char *accu_var,
                               CelAst *init,
                               CelAst *cond,
                               CelAst *step,
                               CelAst *result);

/*
 * cel_macro__expand:
 * If @function with @target/@args is a macro, returns its expansion; sets
 * *@error_msg (static text) when the call is a malformed macro; returns NULL
 * when it is not a macro at all.
 */
CelAst *cel_macro__expand(CelAstTree *tree,
                          guint32 offset,
                          const char *function,
                          CelAst *target,
                          CelAst **args,
                          guint nargs,
                          const char **error_msg);
