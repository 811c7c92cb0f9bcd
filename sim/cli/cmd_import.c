/*
 * cmd_import.c: `drasim import FILE|DIR... -o SCENARIO_DIR`, a scenario from what
 * `kubectl get ... -A -o yaml|json` printed (docs/import.md).
 *
 * This file reads the command line and the dumps (model/api's loader, counting the
 * kinds drasim does not model instead of a warning each); cmd_import_scan.c decides
 * what goes where, cmd_import_write.c writes the directory. Nothing is written when
 * an object has an error, unless --keep-going leaves such objects out.
 */
#include "drasim-config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "cli.h"
#include "cmd_import.h"
#include "k8s_names.h"
#include "k8s_quantity.h"

/* --node-defaults cpu=64,memory=512Gi,pods=110 as the YAML flow mapping of nodeDefaults. */
static gboolean
parse_node_defaults(const char *text, char **yaml_out)
{
	static const char *const keys[] = { "cpu", "memory", "pods" };
	g_auto(GStrv) parts = g_strsplit(text, ",", -1);
	g_autoptr(GString) yaml = g_string_new("{");
	const char *values[G_N_ELEMENTS(keys)] = { NULL };

	for (guint i = 0; parts[i] != NULL; i++) {
		char *eq = strchr(parts[i], '=');
		K8sQuantity q;
		guint k = 0;

		while (eq != NULL && k < G_N_ELEMENTS(keys) &&
		       strncmp(parts[i], keys[k], (gsize)(eq - parts[i])) != 0) {
			k++;
		}
		if (eq == NULL || k == G_N_ELEMENTS(keys) ||
		    strlen(keys[k]) != (gsize)(eq - parts[i])) {
			fprintf(stderr,
			        "drasim import: --node-defaults: '%s': expected KEY=QUANTITY with "
			        "KEY "
			        "cpu, memory or pods (e.g. cpu=64,memory=512Gi,pods=110)\n",
			        parts[i]);
			return FALSE;
		}
		if (!k8s_quantity_parse(eq + 1, -1, &q, NULL) || k8s_quantity_sign(&q) <= 0 ||
		    (k == 2 && strspn(eq + 1, "0123456789") != strlen(eq + 1))) {
			fprintf(stderr,
			        "drasim import: --node-defaults: %s=%s: expected a positive "
			        "quantity "
			        "such as 64, 500m or 512Gi (pods: a whole number)\n",
			        keys[k], eq + 1);
			return FALSE;
		}
		values[k] = eq + 1;
	}
	for (guint k = 0; k < G_N_ELEMENTS(keys); k++) {
		if (values[k] != NULL) {
			/* pods is a count; CPU and memory are quantities, quoted */
			g_string_append_printf(yaml, k == 2 ? "%s%s: %s" : "%s%s: \"%s\"",
			                       yaml->len > 1 ? ", " : "", keys[k], values[k]);
		}
	}
	g_string_append(yaml, "}");
	*yaml_out = g_string_free(g_steal_pointer(&yaml), FALSE);
	return TRUE;
}

/* The scenario's name: --name, else -o's last component made a DNS-1123 subdomain. */
static char *
scenario_name(const char *given, const char *out_dir)
{
	g_autofree char *base = NULL;
	g_autoptr(GPtrArray) invalid = NULL;
	char *name;

	if (given != NULL) {
		g_autoptr(GPtrArray) errors = k8s_names_dns1123_subdomain(given);

		if (errors != NULL) {
			fprintf(stderr, "drasim import: --name '%s': %s\n", given,
			        (char *)errors->pdata[0]);
			return NULL;
		}
		return g_strdup(given);
	}
	base = g_path_get_basename(out_dir);
	name = g_ascii_strdown(base, -1);
	for (char *c = name; *c != '\0'; c++) {
		if (!g_ascii_isalnum(*c) && *c != '-' && *c != '.') {
			*c = '-';
		}
	}
	if (!g_ascii_isalnum(name[0]) || (invalid = k8s_names_dns1123_subdomain(name)) != NULL) {
		g_free(name);
		name = g_strdup("imported");
	}
	return name;
}

/* One warning for all the skipped kinds, and every other diagnostic as found. */
static void
print_diagnostics(const ImportResult *self)
{
	g_autofree char *skipped = cmd_import_skipped_text(self);

	k8s_diag_list_print(self->diags, stderr);
	if (skipped != NULL) {
		fprintf(stderr,
		        "drasim import: warning: kinds drasim does not model were skipped unread: "
		        "%s\n",
		        skipped);
	}
}

/*
 * An input path that is not there is a mistake in the command, not an object with
 * an error: --keep-going leaves objects out, never whole inputs, so it stops the
 * import (exit 1, nothing written) either way.
 */
static gboolean
inputs_readable(char **inputs)
{
	gboolean ok = TRUE;

	for (guint i = 0; inputs[i] != NULL; i++) {
		if (g_access(inputs[i], R_OK) != 0) {
			fprintf(stderr, "%s:1:1: error: cannot read: %s\n", inputs[i],
			        g_strerror(errno));
			ok = FALSE;
		}
	}
	if (!ok)
		fprintf(stderr, "drasim import: nothing written (--keep-going leaves out "
		                "objects with errors, not inputs that cannot be read)\n");
	return ok;
}

static int
run_import(ImportResult *result)
{
	g_autoptr(GError) error = NULL;

	if (!inputs_readable(result->inputs))
		return CLI_EXIT_INPUT_ERROR;
	k8s_load_paths((const char *const *)result->inputs, K8S_LOAD_COUNT_SKIPPED, result->set,
	               result->diags);
	if (!cmd_import_scan(result)) {
		print_diagnostics(result);
		fprintf(stderr,
		        "drasim import: %u errors; nothing written (--keep-going leaves the "
		        "objects with errors out and imports the rest)\n",
		        result->errors->len);
		return CLI_EXIT_INPUT_ERROR;
	}
	print_diagnostics(result);
	if (result->nodes->len == 0 && result->files[IMPORT_FILE_SLICES]->len == 0) {
		/* Claims or pods alone (a common partial dump) make no cluster, and a
		 * scenario without one does not load: say what is missing instead. */
		fprintf(stderr,
		        "drasim import: no Node and no ResourceSlice was imported, so no "
		        "cluster to simulate; nothing written (give the cluster's dump too: "
		        "kubectl get nodes,resourceslices,deviceclasses -o yaml)\n");
		return CLI_EXIT_INPUT_ERROR;
	}
	if (!cmd_import_write(result, &error)) {
		fprintf(stderr, "drasim import: %s\n", error->message);
		return CLI_EXIT_INPUT_ERROR;
	}
	printf("drasim import: wrote %s (nodes: %u, ResourceSlices: %u, pods: %u of which %u "
	       "bound, objects left out with errors: %u)\n",
	       result->out_dir, result->nodes->len, result->files[IMPORT_FILE_SLICES]->len,
	       result->files[IMPORT_FILE_PODS]->len, result->pods_bound, result->left_out);
	return CLI_EXIT_OK;
}

static const char import_description[] =
        "Reads what `kubectl get ... -A -o yaml` (or -o json) prints: `v1 List` dumps,\n"
        "multi-document YAML, JSON, folders of *.yaml, *.yml and *.json. Nodes,\n"
        "ResourceSlices (v1, v1beta2, v1beta1, v1alpha3), DeviceClasses, ResourceClaims\n"
        "(with status.allocation and reservedFor), ResourceClaimTemplates, Pods,\n"
        "Deployments, StatefulSets, ReplicaSets, Jobs and DeviceTaintRules are imported;\n"
        "other kinds (Secrets, ConfigMaps, Events, Namespaces...) are skipped unread,\n"
        "with a count per kind. Writes DIR/scenario.yaml, DIR/README.md (what was\n"
        "imported and left out), cluster/*.yaml and workload/*.yaml (docs/import.md).\n"
        "\n"
        "Examples:\n"
        "  kubectl get nodes,resourceslices,deviceclasses -o yaml > cluster.yaml\n"
        "  kubectl get resourceclaims,pods -A -o yaml > workload.yaml\n"
        "  drasim import cluster.yaml workload.yaml -o my-cluster\n"
        "  drasim import dumps/ -o my-cluster --keep-going --force\n"
        "  drasim import slices.yaml -o lab --node-defaults cpu=64,memory=512Gi,pods=110\n"
        "  drasim compare my-cluster/scenario.yaml\n"
        "\n"
        "Exit status: 0 written, 1 the input has errors (nothing written) or -o exists,\n"
        "2 usage error.";

int
cli_import_main(int argc, char **argv)
{
	g_autofree char *out_dir = NULL, *name = NULL, *defaults = NULL;
	gboolean keep_going = FALSE, force = FALSE;
	g_auto(GStrv) inputs = NULL;
	GOptionEntry entries[] = {
		{ "output", 'o', 0, G_OPTION_ARG_FILENAME, &out_dir,
		  "the scenario directory to write (must not exist, unless --force)", "DIR" },
		{ "keep-going", 0, 0, G_OPTION_ARG_NONE, &keep_going,
		  "leave out objects with errors (listed in the README) and import the rest",
		  NULL },
		{ "node-defaults", 0, 0, G_OPTION_ARG_STRING, &defaults,
		  "CPU, memory and pods of nodes known only from slices (default: unlimited)",
		  "cpu=64,memory=512Gi,pods=110" },
		{ "name", 0, 0, G_OPTION_ARG_STRING, &name,
		  "the scenario's metadata.name (default: DIR's name)", "NAME" },
		{ "force", 0, 0, G_OPTION_ARG_NONE, &force,
		  "replace DIR when it is empty or an earlier import", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &inputs, NULL,
		  "FILE|DIR..." },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("-o DIR - a scenario from a cluster's dump");
	g_autofree char *scenario = NULL;
	ImportResult result;
	int status;

	g_option_context_add_main_entries(context, entries, NULL);
	g_option_context_set_description(context, import_description);
	status = cli_parse_options(context, &argc, &argv);
	if (status != CLI_EXIT_OK) {
		return status;
	}
	if (inputs == NULL || inputs[0] == NULL) {
		return cli_usage_error("import", "no FILE or DIR given");
	}
	if (out_dir == NULL) {
		return cli_usage_error("import", "-o DIR is required");
	}
	if ((scenario = scenario_name(name, out_dir)) == NULL) {
		return CLI_EXIT_USAGE;
	}
	import_result_init(&result);
	result.inputs = inputs;
	result.out_dir = out_dir;
	result.name = scenario;
	result.keep_going = keep_going;
	result.force = force;
	if (defaults != NULL && !parse_node_defaults(defaults, &result.node_defaults)) {
		import_result_clear(&result);
		return CLI_EXIT_USAGE;
	}
	status = run_import(&result);
	import_result_clear(&result);
	return status;
}
