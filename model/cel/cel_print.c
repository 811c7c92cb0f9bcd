/*
 * cel_print.c: a compact S-expression dump of the AST, for tests and
 * debugging (clox's debug.c idea): "(_+_ x 1)", "(. a b)", "(has . a b)".
 */
#include "cel-private.h"

void
cel_ast_print(GString *out, const CelAst *n)
{
	switch (n->kind) {
	case CEL_AST_CONST:
		cel_value_print(out, n->constant);
		break;
	case CEL_AST_IDENT:
		g_string_append(out, n->ident.name);
		break;
	case CEL_AST_SELECT:
		g_string_append(out, n->select.test_only ? "(has " : "(. ");
		cel_ast_print(out, n->select.operand);
		g_string_append_printf(out, " %s)", n->select.field);
		break;
	case CEL_AST_CALL:
		g_string_append_printf(out, "(%s", n->call.function);
		if (n->call.target) {
			g_string_append(out, " target=");
			cel_ast_print(out, n->call.target);
		}
		for (guint i = 0; i < n->call.nargs; i++) {
			g_string_append_c(out, ' ');
			cel_ast_print(out, n->call.args[i]);
		}
		g_string_append_c(out, ')');
		break;
	case CEL_AST_LIST:
		g_string_append_c(out, '[');
		for (guint i = 0; i < n->list.n; i++) {
			g_string_append(out, i ? ", " : "");
			if (n->list.optional && n->list.optional[i]) {
				g_string_append_c(out, '?');
			}
			cel_ast_print(out, n->list.elems[i]);
		}
		g_string_append_c(out, ']');
		break;
	case CEL_AST_MAP:
		g_string_append_c(out, '{');
		for (guint i = 0; i < n->map.n; i++) {
			g_string_append(out, i ? ", " : "");
			cel_ast_print(out, n->map.keys[i]);
			g_string_append(out, ": ");
			cel_ast_print(out, n->map.values[i]);
		}
		g_string_append_c(out, '}');
		break;
	case CEL_AST_STRUCT:
		g_string_append_printf(out, "%s{...}", n->strukt.message);
		break;
	case CEL_AST_COMPREHENSION:
		g_string_append_printf(out, "(comprehension %s%s%s ", n->comp.iter_var,
		                       n->comp.iter_var2 ? "," : "",
		                       n->comp.iter_var2 ? n->comp.iter_var2 : "");
		cel_ast_print(out, n->comp.iter_range);
		g_string_append_printf(out, " %s=", n->comp.accu_var);
		cel_ast_print(out, n->comp.accu_init);
		g_string_append_c(out, ' ');
		cel_ast_print(out, n->comp.loop_cond);
		g_string_append_c(out, ' ');
		cel_ast_print(out, n->comp.loop_step);
		g_string_append_c(out, ' ');
		cel_ast_print(out, n->comp.result);
		g_string_append_c(out, ')');
		break;
	case CEL_AST_HOST:
		g_string_append(out, "<host>");
		break;
	}
}
