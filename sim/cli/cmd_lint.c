/*
 * cmd_lint.c: `drasim lint FILE|DIR... [--lenient]`: decode, validate and cross-check
 * Kubernetes manifests the way a 1.34 cluster would, and print every problem as
 * FILE:LINE:COL: error|warning: message [field.path], sorted by file and line.
 *
 * The checks of model/api run first (k8s_lint_paths). Rooms that come later add their
 * checks as rows of lint_passes[] below: each gets the loaded set and the diagnostic list.
 * CEL checks walk every expression with k8s_foreach_cel_expression() (k8s_validate.h),
 * which hands them the expression, its position and its field path.
 */
#include "drasim-config.h"

#include <stdio.h>

#include "cli.h"
#include "hw_api.h"
#include "k8s_lint.h"
#include "k8s_validate.h"
#include "lint.h"

typedef void (*LintPass)(K8sObjectSet *set, K8sDiagList *diags);

/* Passes of later rooms, run in this order after validation; NULL-terminated. */
static const LintPass lint_passes[] = {
	lint_cel_selectors, /* model/cel: every selector compiles, within the cost limit */
	lint_dra_requests,  /* model/dra: every request can match some published device */
	NULL,
};

int
cli_lint_main(int argc, char **argv)
{
	gboolean lenient = FALSE, quiet = FALSE;
	g_auto(GStrv) files = NULL;
	g_auto(GStrv) shapes = NULL;
	g_auto(GStrv) clusters = NULL;
	g_autoptr(GError) error = NULL;
	GOptionEntry entries[] = {
		{ "lenient", 0, 0, G_OPTION_ARG_NONE, &lenient,
		  "report unknown fields as warnings, not errors", NULL },
		{ "shape", 0, 0, G_OPTION_ARG_STRING_ARRAY, &shapes,
		  "check selectors against what the drivers publish on this node shape "
		  "(repeatable; see drasim publish --list-shapes)",
		  "NAME" },
		{ "cluster", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &clusters,
		  "check selectors against the node pools of this cluster/catalog file "
		  "(repeatable)",
		  "FILE" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "do not print the summary line",
		  NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
		  "FILE|DIR..." },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context = g_option_context_new("- check Kubernetes manifests");
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	guint errors, warnings;
	int status;

	g_option_context_add_main_entries(context, entries, NULL);
	g_option_context_set_description(
	        context,
	        "Decodes YAML or JSON (multi-document, `v1 List`, directories of *.yaml, *.yml\n"
	        "and *.json) strictly, validates every object with Kubernetes 1.34's rules and\n"
	        "checks the references between objects (claims, templates, DeviceClasses).\n"
	        "With --shape or --cluster, every selector is also checked against the devices\n"
	        "the modelled drivers publish there (attribute vs capacity, unknown names).\n"
	        "Diagnostics go to stderr as FILE:LINE:COL: error|warning: message [path].\n"
	        "Exit status: 0 no errors (warnings are fine), 1 errors, 2 usage error.");
	status = cli_parse_options(context, &argc, &argv);
	if (status != CLI_EXIT_OK) {
		return status;
	}
	if (files == NULL || files[0] == NULL) {
		fprintf(stderr, "drasim lint: no FILE or DIR given\nRun with --help for usage.\n");
		return CLI_EXIT_USAGE;
	}
	k8s_lint_paths((const char *const *)files, lenient ? K8S_LOAD_LENIENT : K8S_LOAD_DEFAULT,
	               set, diags);
	for (const LintPass *pass = lint_passes; *pass != NULL; pass++) {
		(*pass)(set, diags);
	}
	if ((shapes != NULL || clusters != NULL) &&
	    !hw_lint_run((const char *const *)shapes, (const char *const *)clusters, set, diags,
	                 &error)) {
		fprintf(stderr, "drasim lint: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	k8s_diag_list_sort(diags);
	k8s_diag_list_print(diags, stderr);
	errors = k8s_diag_list_count_errors(diags);
	warnings = k8s_diag_list_count_warnings(diags);
	if (!quiet) {
		fprintf(stderr, "drasim lint: %u object%s, %u error%s, %u warning%s\n",
		        k8s_object_set_count(set), k8s_object_set_count(set) == 1 ? "" : "s",
		        errors, errors == 1 ? "" : "s", warnings, warnings == 1 ? "" : "s");
	}
	return errors > 0 ? CLI_EXIT_INPUT_ERROR : CLI_EXIT_OK;
}
