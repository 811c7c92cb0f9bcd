/*
 * cmd_convert.c: `drasim convert --to v1 FILE|DIR...`, which prints every object
 * as normalized v1 YAML (resource.k8s.io/v1, v1, apps/v1, batch/v1).
 *
 * Older resource.k8s.io versions (v1alpha3 as Kubernetes 1.31 wrote it, v1beta1,
 * v1beta2) are converted by the decoder in model/api; this command only loads and
 * writes. Decoding the output gives the same objects (k8s_object_equal).
 */
#include "drasim-config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "k8s_objects.h"

int
cli_convert_main(int argc, char **argv)
{
	g_autofree char *to = NULL;
	gboolean lenient = FALSE;
	g_auto(GStrv) files = NULL;
	GOptionEntry entries[] = {
		{ "to", 0, 0, G_OPTION_ARG_STRING, &to, "target version (only v1)", "VERSION" },
		{ "lenient", 0, 0, G_OPTION_ARG_NONE, &lenient,
		  "report unknown fields as warnings, not errors", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
		  "FILE|DIR..." },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("- print Kubernetes manifests as normalized v1 YAML");
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autofree char *text = NULL;
	int status;

	g_option_context_add_main_entries(context, entries, NULL);
	g_option_context_set_description(
	        context, "Reads YAML or JSON (multi-document, `v1 List`, directories of *.yaml,\n"
	                 "*.yml and *.json) in any apiVersion drasim reads, and writes v1.\n"
	                 "Exit status: 0 ok, 1 the input has errors, 2 usage error.");
	status = cli_parse_options(context, &argc, &argv);
	if (status != CLI_EXIT_OK) {
		return status;
	}
	if (to == NULL || strcmp(to, "v1") != 0) {
		fprintf(stderr, "drasim convert: --to v1 is required (v1 is the only target)\n");
		return CLI_EXIT_USAGE;
	}
	if (files == NULL || files[0] == NULL) {
		fprintf(stderr, "drasim convert: no FILE or DIR given\n");
		return CLI_EXIT_USAGE;
	}
	k8s_load_paths((const char *const *)files, lenient ? K8S_LOAD_LENIENT : K8S_LOAD_DEFAULT,
	               set, diags);
	k8s_diag_list_sort(diags);
	k8s_diag_list_print(diags, stderr);
	if (k8s_diag_list_count_errors(diags) > 0) {
		return CLI_EXIT_INPUT_ERROR;
	}
	text = k8s_object_set_encode(set);
	fputs(text, stdout);
	return CLI_EXIT_OK;
}
