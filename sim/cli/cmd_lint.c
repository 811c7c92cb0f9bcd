/*
 * cmd_lint.c: `drasim lint FILE|DIR... [--lenient]`: decode, validate and cross-check
 * Kubernetes manifests the way a 1.34 cluster would, and print every problem as
 * FILE:LINE:COL: error|warning: message [field.path], sorted by file and line.
 * A FILE holding a drasim Scenario is linted with its cluster and modes
 * (lint_scenario.c); with --shape or --cluster the other paths are linted with the
 * NVIDIA DRA driver's DeviceClasses and against what the drivers publish there.
 *
 * The checks of model/api run first (k8s_lint_paths). Rooms that come later add their
 * checks as rows of lint_passes[] below: each gets the loaded set and the diagnostic list.
 * CEL checks walk every expression with k8s_foreach_cel_expression() (k8s_validate.h),
 * which hands them the expression, its position and its field path.
 */
#include "drasim-config.h"

#include <stdio.h>
#include <string.h>

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
	lint_shared_claims_manifests, /* many pods on one claim's GPU memory (lint_shared.c) */
	NULL,
};

/* The manifest paths of @files (the rest are scenarios, into @scenarios). */
static GPtrArray *
split_scenarios(char **files, GPtrArray *scenarios)
{
	GPtrArray *manifests = g_ptr_array_new();

	for (guint i = 0; files[i] != NULL; i++) {
		g_ptr_array_add(lint_is_scenario(files[i]) ? scenarios : manifests, files[i]);
	}
	g_ptr_array_add(manifests, NULL);
	return manifests;
}

/* --cluster takes hardware catalogs; a scenario there is a usage error that says so. */
static int
check_cluster_files(char **clusters)
{
	for (guint i = 0; clusters != NULL && clusters[i] != NULL; i++) {
		if (lint_is_scenario(clusters[i])) {
			fprintf(stderr,
			        "drasim lint: --cluster %s: expected a hardware catalog file (a "
			        "schema: drasim.hw/v1 document whose node_pools describe the "
			        "cluster, "
			        "see docs/hardware.md), got a drasim Scenario; to lint a "
			        "scenario's "
			        "manifests on its cluster, in each of its modes, run drasim lint "
			        "%s\n",
			        clusters[i], clusters[i]);
			return CLI_EXIT_USAGE;
		}
	}
	return CLI_EXIT_OK;
}

/*
 * The manifests given as paths: decoded, with the chart's DeviceClasses when a driver
 * is implied (@shapes or @clusters), validated and cross-checked, then every pass.
 * Returns: the number of objects read, or -1 with the error printed.
 */
static gint64
lint_manifests(const char *const *paths,
               K8sLoadFlags flags,
               char **shapes,
               char **clusters,
               K8sDiagList *diags)
{
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) found = k8s_diag_list_new();
	g_autoptr(GError) error = NULL;
	gboolean driver = shapes != NULL || clusters != NULL;
	guint n_objects;

	k8s_load_paths(paths, flags, set, diags);
	n_objects = k8s_object_set_count(set);
	if (driver) {
		lint_classes_add_chart(set, diags);
	}
	k8s_lint_set(set, found);
	for (const LintPass *pass = lint_passes; *pass != NULL; pass++) {
		(*pass)(set, found);
	}
	if (driver && !hw_lint_run((const char *const *)shapes, (const char *const *)clusters, set,
	                           found, &error)) {
		fprintf(stderr, "drasim lint: %s\n", error->message);
		return -1;
	}
	lint_classes_append_user(diags, found);
	return n_objects;
}

/* The notes (chart classes when no driver is implied, scenario.yaml in a DIR), the summary. */
static void
print_notes_and_summary(const K8sDiagList *diags, char **files, gboolean driver, guint n_objects)
{
	guint errors = k8s_diag_list_count_errors(diags);
	guint warnings = k8s_diag_list_count_warnings(diags);

	if (!driver) {
		lint_classes_print_hints(diags, stderr);
	}
	for (guint i = 0; files[i] != NULL; i++) {
		lint_print_dir_hint(files[i], stderr);
	}
	fprintf(stderr, "drasim lint: %u object%s, %u error%s, %u warning%s\n", n_objects,
	        n_objects == 1 ? "" : "s", errors, errors == 1 ? "" : "s", warnings,
	        warnings == 1 ? "" : "s");
}

int
cli_lint_main(int argc, char **argv)
{
	gboolean lenient = FALSE, quiet = FALSE;
	g_auto(GStrv) files = NULL;
	g_auto(GStrv) shapes = NULL;
	g_auto(GStrv) clusters = NULL;
	GOptionEntry entries[] = {
		{ "lenient", 0, 0, G_OPTION_ARG_NONE, &lenient,
		  "report unknown fields as warnings, not errors", NULL },
		{ "shape", 0, 0, G_OPTION_ARG_STRING_ARRAY, &shapes,
		  "check selectors against what the drivers publish on this node shape "
		  "(repeatable; see drasim publish --list-shapes)",
		  "NAME" },
		{ "cluster", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &clusters,
		  "check selectors against the node pools of this hardware catalog file "
		  "(repeatable; not a scenario: lint the scenario file itself)",
		  "FILE" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet,
		  "do not print the summary line and notes", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
		  "FILE|DIR|SCENARIO..." },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context = g_option_context_new("- check Kubernetes manifests");
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(GPtrArray) scenarios = g_ptr_array_new();
	g_autoptr(GPtrArray) manifests = NULL;
	guint n_objects = 0;
	int status;

	g_option_context_add_main_entries(context, entries, NULL);
	g_option_context_set_description(
	        context,
	        "Decodes YAML or JSON (multi-document, `v1 List`, directories of *.yaml, *.yml\n"
	        "and *.json) strictly, validates every object with Kubernetes 1.34's rules and\n"
	        "checks the references between objects (claims, templates, DeviceClasses).\n"
	        "With --shape or --cluster, the NVIDIA DRA driver's DeviceClasses are known and\n"
	        "every selector is also checked against the devices the modelled drivers\n"
	        "publish there (attribute vs capacity, unknown names).\n"
	        "A drasim Scenario file is read as drasim run reads it, and its manifests are\n"
	        "linted on its cluster in each of its modes (a directory skips scenario.yaml).\n"
	        "A ResourceClaim named by more pods than its GPU memory holds is a warning\n"
	        "(docs/sharing.md).\n"
	        "Diagnostics go to stderr as FILE:LINE:COL: error|warning: message [path].\n"
	        "Exit status: 0 no errors (warnings are fine), 1 errors, 2 usage error.");
	status = cli_parse_options(context, &argc, &argv);
	if (status != CLI_EXIT_OK) {
		return status;
	}
	if (files == NULL || files[0] == NULL)
		return cli_usage_error("lint", "no FILE or DIR given");
	if ((status = check_cluster_files(clusters)) != CLI_EXIT_OK) {
		return status;
	}
	manifests = split_scenarios(files, scenarios);
	if (manifests->pdata[0] != NULL) {
		gint64 n = lint_manifests((const char *const *)manifests->pdata,
		                          lenient ? K8S_LOAD_LENIENT : K8S_LOAD_DEFAULT, shapes,
		                          clusters, diags);

		if (n < 0) {
			return CLI_EXIT_INPUT_ERROR;
		}
		n_objects += (guint)n;
	}
	for (guint i = 0; i < scenarios->len; i++) {
		n_objects += lint_scenario(scenarios->pdata[i], diags);
	}
	k8s_diag_list_sort(diags);
	k8s_diag_list_print(diags, stderr);
	if (!quiet) {
		print_notes_and_summary(diags, files, shapes != NULL || clusters != NULL,
		                        n_objects);
	}
	return k8s_diag_list_count_errors(diags) > 0 ? CLI_EXIT_INPUT_ERROR : CLI_EXIT_OK;
}
