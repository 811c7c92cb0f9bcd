/*
 * cmd_allocate.c: `drasim allocate FILE... [--node NAME] [--feature G=B]
 * [--filter-timeout D] [-o yaml|json]`: parses the command line, loads the
 * manifests, hands them to sim/cluster's cluster_allocate_manifests() (the one
 * home of "allocate these manifests") and prints the claims it allocated, with
 * status.allocation as the scheduler writes it, and for each pod that does not
 * fit, why, per node.
 */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "base_strict.h"
#include "cli.h"
#include "cluster_allocate.h"
#include "dra.h"
#include "dra_k8s.h"
#include "k8s_objects.h"
#include "sim.h"

int cli_allocate_main(int argc, char **argv);

static cJSON *
yaml_to_json(const K8sYamlNode *n)
{
	switch (n->kind) {
	case K8S_YAML_MAPPING: {
		cJSON *o = cJSON_CreateObject();
		for (guint i = 0; i < n->map.n; i++) {
			cJSON_AddItemToObject(o, n->map.pairs[i].key->scalar.text,
			                      yaml_to_json(n->map.pairs[i].value));
		}
		return o;
	}
	case K8S_YAML_SEQUENCE: {
		cJSON *a = cJSON_CreateArray();
		for (guint i = 0; i < n->seq.n; i++) {
			cJSON_AddItemToArray(a, yaml_to_json(n->seq.items[i]));
		}
		return a;
	}
	default:
		switch (k8s_yaml_scalar_type(n)) {
		case K8S_YAML_TYPE_NULL:
			return cJSON_CreateNull();
		case K8S_YAML_TYPE_BOOL:
			return cJSON_CreateBool(g_ascii_strcasecmp(n->scalar.text, "true") == 0);
		case K8S_YAML_TYPE_INT:
		case K8S_YAML_TYPE_FLOAT:
			return cJSON_CreateRaw(n->scalar.text);
		default:
			return cJSON_CreateString(n->scalar.text);
		}
	}
}

static int
print_claims(const ClusterAllocateRun *run, gboolean json)
{
	g_autoptr(GString) yaml = g_string_new(NULL);
	const GPtrArray *written = cluster_allocate_get_written(run);

	for (guint i = 0; i < written->len; i++) {
		K8sResourceClaim *c = g_ptr_array_index(written, i);
		g_string_append(yaml, "---\n");
		k8s_object_encode(&c->obj, yaml);
	}
	if (!json) {
		fputs(yaml->str, stdout);
		return CLI_EXIT_OK;
	}
	/* JSON: a v1 List of the same objects */
	g_autoptr(BaseArena) arena = base_arena_new();
	GStringChunk *strings = g_string_chunk_new(4096);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	K8sYamlFile file = { 0 };
	k8s_yaml_parse(&(K8sYamlInput){ "<output>", yaml->str, yaml->len, arena, strings, diags },
	               &file);
	cJSON *list = cJSON_CreateObject();
	cJSON_AddStringToObject(list, "apiVersion", "v1");
	cJSON_AddStringToObject(list, "kind", "List");
	cJSON *items = cJSON_AddArrayToObject(list, "items");
	for (guint i = 0; i < file.n_docs; i++) {
		cJSON_AddItemToArray(items, yaml_to_json(file.docs[i].root));
	}
	char *text = cJSON_Print(list);
	printf("%s\n", text);
	cJSON_free(text);
	cJSON_Delete(list);
	g_string_chunk_free(strings);
	return CLI_EXIT_OK;
}

/*
 * The step budget of DynamicResources' filterTimeout (model/dra/dra.h): 10 s
 * by default, 0 = none, and no timeout with DRASchedulerFilterTimeout off,
 * where upstream's ValidateDynamicResourcesArgs forbids setting it.
 */
static int
filter_budget(const char *timeout, gboolean gate, guint64 *steps)
{
	g_autoptr(GError) error = NULL;
	SimTime t = DRA_FILTER_TIMEOUT_DEFAULT;

	if (timeout != NULL && !gate) {
		g_printerr("drasim allocate: --filter-timeout: Forbidden: the "
		           "DRASchedulerFilterTimeout feature gate is disabled\n");
		return CLI_EXIT_USAGE;
	}
	if (timeout != NULL && !sim_time_parse(timeout, &t, &error)) {
		g_printerr("drasim allocate: --filter-timeout %s: expected a duration like 10s, "
		           "250ms or 0 (no timeout): %s\n",
		           timeout, error->message);
		return CLI_EXIT_USAGE;
	}
	if (t < 0) {
		g_printerr("drasim allocate: --filter-timeout %s: must be zero or positive\n",
		           timeout);
		return CLI_EXIT_USAGE;
	}
	*steps = gate ? dra_filter_timeout_steps(t) : 0;
	return CLI_EXIT_OK;
}

/* The parsed command line. */
typedef struct {
	char *only_node;
	char **gates;
	char *output;
	char *filter_timeout;
	gboolean stats;
	gboolean json;
	DraFeatures features;
	guint64 budget;
} AllocateArgs;

static void
allocate_args_clear(AllocateArgs *args)
{
	g_free(args->only_node);
	g_strfreev(args->gates);
	g_free(args->output);
	g_free(args->filter_timeout);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(AllocateArgs, allocate_args_clear)

/* The allocator's gates and the scheduler plugin's DRASchedulerFilterTimeout. */
static const char **
feature_names_with_filter_timeout(void)
{
	const char *const *gates = dra_feature_names();
	guint n = g_strv_length((char **)gates);
	const char **all = g_new0(const char *, n + 2);

	for (guint i = 0; i < n; i++)
		all[i] = gates[i];
	all[n] = "DRASchedulerFilterTimeout";
	return all;
}

/* --feature G=B: the allocator's gates, and the scheduler plugin's filter-timeout gate. */
static int
parse_features(AllocateArgs *args)
{
	gboolean filter_gate = TRUE;

	args->features = dra_features_default();
	for (guint i = 0; args->gates != NULL && args->gates[i] != NULL; i++) {
		g_auto(GStrv) kv = g_strsplit(args->gates[i], "=", 2);
		gboolean on = kv[1] == NULL || g_ascii_strcasecmp(kv[1], "true") == 0;
		if (kv[1] != NULL && !on && g_ascii_strcasecmp(kv[1], "false") != 0) {
			g_printerr("drasim allocate: unknown feature setting %s\n", args->gates[i]);
			return CLI_EXIT_USAGE;
		}
		if (strcmp(kv[0], "DRASchedulerFilterTimeout") == 0) {
			filter_gate = on; /* the scheduler plugin's gate, not the allocator's */
		} else if (!dra_features_set(&args->features, kv[0], on)) {
			g_autofree const char **known = feature_names_with_filter_timeout();
			g_autofree char *msg = base_strict_unknown(
			        "--feature: unknown feature gate", kv[0], known, "gates");

			return cli_usage_error(NULL, msg);
		}
	}
	return filter_budget(args->filter_timeout, filter_gate, &args->budget);
}

static int
parse_args(AllocateArgs *args, int *argc, char ***argv)
{
	GOptionEntry entries[] = {
		{ "stats", 0, 0, G_OPTION_ARG_NONE, &args->stats,
		  "print the allocator's statistics to stderr", NULL },
		{ "node", 0, 0, G_OPTION_ARG_STRING, &args->only_node,
		  "allocate for this node only", "NAME" },
		{ "feature", 0, 0, G_OPTION_ARG_STRING_ARRAY, &args->gates,
		  "switch an allocator feature gate (repeatable)", "NAME=true|false" },
		{ "filter-timeout", 0, 0, G_OPTION_ARG_STRING, &args->filter_timeout,
		  "DynamicResources filterTimeout per node (default 10s; 0: none)", "DURATION" },
		{ "output", 'o', 0, G_OPTION_ARG_STRING, &args->output, "output format",
		  "yaml|json" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) ctx =
	        g_option_context_new("FILE... - allocate the claims of pods as the scheduler "
	                             "would (Kubernetes 1.34 structured allocator)");
	g_option_context_add_main_entries(ctx, entries, NULL);
	int rc = cli_parse_options(ctx, argc, argv);
	if (rc != CLI_EXIT_OK) {
		return rc;
	}
	if (*argc < 2) {
		g_printerr("usage: drasim allocate FILE... [--node NAME] [--feature G=B] "
		           "[--filter-timeout D] [-o yaml|json]\n");
		return CLI_EXIT_USAGE;
	}
	args->json = args->output != NULL && strcmp(args->output, "json") == 0;
	if (args->output != NULL && !args->json && strcmp(args->output, "yaml") != 0) {
		static const char *const formats[] = { "yaml", "json", NULL };
		g_autofree char *msg =
		        base_strict_unknown("-o: unknown format", args->output, formats, "formats");

		return cli_usage_error(NULL, msg);
	}
	return parse_features(args);
}

static void
print_stats(const DraStats *st)
{
	g_printerr("allocator: %" G_GUINT64_FORMAT " Allocate calls, %" G_GUINT64_FORMAT
	           " search steps, %" G_GUINT64_FORMAT " devices tried, %" G_GUINT64_FORMAT
	           " selector evaluations, %" G_GUINT64_FORMAT " backtracks, %" G_GUINT64_FORMAT
	           " constraint rejections\n",
	           st->allocate_calls, st->allocate_one_calls, st->devices_tried,
	           st->selector_evaluations, st->backtracks, st->constraint_rejections);
	g_printerr("allocator quirks: %" G_GUINT64_FORMAT " counter leaks, %" G_GUINT64_FORMAT
	           " distinctAttribute pointer passes, %" G_GUINT64_FORMAT
	           " capacity re-checks on another device, %" G_GUINT64_FORMAT
	           " devices left marked, %" G_GUINT64_FORMAT
	           " stale sub-request keys, %" G_GUINT64_FORMAT " All sub-request index drops\n",
	           st->quirk_counters_leaked, st->quirk_distinct_by_pointer,
	           st->quirk_capacity_recheck, st->quirk_device_marked_on_fail,
	           st->quirk_stale_subrequest_key, st->quirk_all_subrequest_index);
}

int
cli_allocate_main(int argc, char **argv)
{
	g_auto(AllocateArgs) args = { 0 };
	int rc = parse_args(&args, &argc, &argv);
	if (rc != CLI_EXIT_OK) {
		return rc;
	}

	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	K8sObjectSet *set = k8s_object_set_new();
	if (!k8s_load_paths((const char *const *)argv + 1, K8S_LOAD_DEFAULT, set, diags)) {
		k8s_diag_list_print(diags, stderr);
		k8s_object_set_free(set);
		return CLI_EXIT_INPUT_ERROR;
	}
	ClusterAllocateOptions opts = {
		.features = args.features,
		.step_budget = args.budget,
		.only_node = args.only_node,
	};
	ClusterAllocateRun *run = cluster_allocate_manifests(set, &opts, diags);
	k8s_diag_list_print(diags, stderr);
	if (args.stats) {
		print_stats(cluster_allocate_get_stats(run));
	}
	rc = cluster_allocate_get_failed(run) ? CLI_EXIT_INPUT_ERROR : print_claims(run, args.json);
	cluster_allocate_free(run);
	k8s_object_set_free(set);
	return rc;
}
