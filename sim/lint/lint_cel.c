/*
 * lint_cel.c: the CEL pass of `drasim lint`. Every selector of every DeviceClass,
 * ResourceClaim(Template) and DeviceTaintRule is compiled in the DRA environment the
 * API server uses to validate new objects (NewExpressions), and a compile error or a
 * static cost estimate over the limit is reported at the expression's own line and
 * column inside the YAML, as `kubectl apply` would be refused.
 */
#include <string.h>

#include "cel_dra.h"
#include "k8s_validate.h"
#include "lint.h"

typedef struct {
	CelDraEnv *env;
	K8sDiagList *diags;
} CelLint;

/*
 * Where (line, column) of the expression lies in the file; @column counts code points,
 * as cel-go does. Literal block scalars (`|`) keep their lines, each starting at the
 * block's indentation. Folded and multi-line plain or quoted scalars change the text,
 * so they point at the expression's first character.
 */
static K8sPos
expression_text_pos(const K8sDeviceSelector *selector, guint line, guint column)
{
	K8sPos pos = selector->expression_text_pos;

	if (selector->expression_style == K8S_YAML_STYLE_LITERAL) {
		pos.line += line - 1;
		pos.col += column - 1;
	} else if (line == 1 && strchr(selector->cel_expression, '\n') == NULL) {
		pos.col += column - 1;
	}
	return pos;
}

static void
lint_one(const K8sCelSite *site, gpointer user_data)
{
	CelLint *lint = user_data;
	g_autoptr(CelDraDiag) diag = NULL;
	g_autoptr(CelDraSelector) selector = NULL;
	guint64 cost;

	if (site->selector->cel_expression == NULL) {
		return;
	}
	selector = cel_dra_selector_compile(lint->env, site->selector->cel_expression, &diag);
	if (selector == NULL) {
		K8sPos pos = expression_text_pos(site->selector, diag->line, diag->column);

		k8s_diag_list_error(lint->diags, &pos, site->path, "CEL compile error: %s",
		                    diag->message);
		return;
	}
	cost = cel_dra_selector_get_max_cost(selector);
	if (cost != G_MAXUINT64 && cost > CEL_DRA_MAX_COST) {
		/* validation.go: "estimated cost exceeds the limit" (CELSelectorExpressionMaxCost)
		 */
		k8s_diag_list_error(lint->diags, &site->selector->expression_pos, site->path,
		                    "CEL expression: estimated worst-case cost %" G_GUINT64_FORMAT
		                    " exceeds the limit of %d; simplify the expression",
		                    cost, CEL_DRA_MAX_COST);
	}
}

void
lint_cel_selectors(K8sObjectSet *set, K8sDiagList *diags)
{
	CelDraOptions options = { .env_type = CEL_DRA_NEW_EXPRESSIONS };
	g_autoptr(CelDraEnv) env = cel_dra_env_new(&options);
	CelLint lint = { env, diags };

	k8s_foreach_cel_expression(set, lint_one, &lint);
}
