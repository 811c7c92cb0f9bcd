/*
 * cmd_convert.c: `drasim convert --to v1|dra FILE|DIR...`.
 *
 * --to v1 prints every object as normalized v1 YAML (resource.k8s.io/v1, v1, apps/v1,
 * batch/v1). Older resource.k8s.io versions (v1alpha3 as Kubernetes 1.31 wrote it,
 * v1beta1, v1beta2) are converted by the decoder in model/api; this command only
 * loads and writes. Decoding the output gives the same objects (k8s_object_equal).
 *
 * --to dra also rewrites device-plugin pods for the NVIDIA DRA driver
 * (world_convert_to_dra(), the extended world's translation table read the other
 * way) and prints the translation report, line by line, on stderr or --report FILE.
 */
#include "drasim-config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "k8s_objects.h"
#include "world-xlate.h"

/* @text to @path, or to stdout when @path is NULL; FALSE with the error printed. */
static gboolean
write_out(const char *path, const char *text, const char *what)
{
	g_autoptr(GError) error = NULL;

	if (path == NULL) {
		fputs(text, stdout);
		return TRUE;
	}
	if (!g_file_set_contents(path, text, -1, &error)) {
		fprintf(stderr, "drasim convert: cannot write the %s to %s: %s\n", what, path,
		        error->message);
		return FALSE;
	}
	return TRUE;
}

/* The templates first (pods name them), then every input object, rewritten. */
static int
convert_to_dra(K8sObjectSet *set, const char *output, const char *report_path)
{
	g_autoptr(K8sObjectSet) templates = k8s_object_set_new();
	g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(GString) report = g_string_new(NULL);
	g_autofree char *head = NULL, *body = NULL, *text = NULL;
	guint n;

	n = world_convert_to_dra(set, templates, lines, diags);
	k8s_diag_list_print(diags, stderr);
	if (k8s_diag_list_count_errors(diags) > 0)
		return CLI_EXIT_INPUT_ERROR;
	g_string_append_printf(report,
	                       "translation report (device plugin -> DRA): %u object%s rewritten, "
	                       "%u ResourceClaimTemplate%s added\n",
	                       n, n == 1 ? "" : "s", k8s_object_set_count(templates),
	                       k8s_object_set_count(templates) == 1 ? "" : "s");
	for (guint i = 0; i < lines->len; i++)
		g_string_append_printf(report, "  %s\n", (char *)lines->pdata[i]);
	head = k8s_object_set_encode(templates);
	body = k8s_object_set_encode(set);
	text = g_strconcat(head, body, NULL);
	if (!write_out(output, text, "manifests"))
		return CLI_EXIT_INPUT_ERROR;
	if (report_path == NULL) {
		fputs(report->str, stderr);
		return CLI_EXIT_OK;
	}
	return write_out(report_path, report->str, "report") ? CLI_EXIT_OK : CLI_EXIT_INPUT_ERROR;
}

int
cli_convert_main(int argc, char **argv)
{
	g_autofree char *to = NULL, *output = NULL, *report = NULL;
	gboolean lenient = FALSE;
	g_auto(GStrv) files = NULL;
	GOptionEntry entries[] = {
		{ "to", 0, 0, G_OPTION_ARG_STRING, &to,
		  "v1 (normalized YAML) or dra (device-plugin pods to DRA claims)", "v1|dra" },
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
		  "write the manifests to FILE (default: stdout)", "FILE" },
		{ "report", 0, 0, G_OPTION_ARG_FILENAME, &report,
		  "--to dra: write the translation report to FILE (default: stderr)", "FILE" },
		{ "lenient", 0, 0, G_OPTION_ARG_NONE, &lenient,
		  "report unknown fields as warnings, not errors", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL,
		  "FILE|DIR..." },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context = g_option_context_new(
	        "- print Kubernetes manifests as normalized v1 YAML, or rewritten for DRA");
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autofree char *text = NULL;
	gboolean dra;
	int status;

	g_option_context_add_main_entries(context, entries, NULL);
	g_option_context_set_description(
	        context,
	        "Reads YAML or JSON (multi-document, `v1 List`, directories of *.yaml,\n"
	        "*.yml and *.json) in any apiVersion drasim reads, and writes v1.\n"
	        "--to dra also rewrites each Pod and workload pod template that asks the\n"
	        "NVIDIA device plugin for nvidia.com/gpu: N or nvidia.com/mig-<profile>: N\n"
	        "into a ResourceClaimTemplate (gpu.nvidia.com, count N; mig.nvidia.com with\n"
	        "profile == \"<profile>\") and a pod resourceClaims reference; a GFD\n"
	        "nvidia.com/gpu.product node selector or required node affinity becomes a\n"
	        "CEL selector on productName. The translation report (what each became,\n"
	        "what was not carried over) goes to stderr or --report FILE. See\n"
	        "docs/sharing.md.\n"
	        "Exit status: 0 ok, 1 the input has errors, 2 usage error.");
	status = cli_parse_options(context, &argc, &argv);
	if (status != CLI_EXIT_OK) {
		return status;
	}
	if (to == NULL || (strcmp(to, "v1") != 0 && strcmp(to, "dra") != 0)) {
		fprintf(stderr,
		        "drasim convert: --to is required: v1 (normalized YAML) or dra "
		        "(device-plugin pods to DRA claims)%s%s\n",
		        to != NULL ? "; got " : "", to != NULL ? to : "");
		return CLI_EXIT_USAGE;
	}
	dra = strcmp(to, "dra") == 0;
	if (report != NULL && !dra)
		return cli_usage_error("convert", "--report goes with --to dra");
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
	if (dra)
		return convert_to_dra(set, output, report);
	text = k8s_object_set_encode(set);
	return write_out(output, text, "manifests") ? CLI_EXIT_OK : CLI_EXIT_INPUT_ERROR;
}
