/*
 * cmd_cel.c: `drasim cel EXPR [--slices FILE...] [--feature NAME...]` compiles a device
 * selector in the DRA environment (model/cel/cel_dra.h) and, given ResourceSlices, evaluates
 * it against every device, printing `driver/pool/device: true|false|error: ...`.
 *
 * The slices may come from any kubectl dump (`v1 List`, several kinds): objects that are not
 * ResourceSlices are skipped and counted, kinds drasim does not model are skipped by the
 * loader with a warning each. A summary line on stderr says how many devices matched.
 *
 * Compile errors are printed as `<expression>:LINE:COL: error: message` followed by the source
 * line and a caret, so they read like every other drasim diagnostic.
 */
#include <stdio.h>
#include <string.h>

#include "cel_dra.h"
#include "cli.h"
#include "k8s_objects.h"

int cli_cel_main(int argc, char **argv);

static void
print_compile_error(const char *expr, const CelDraDiag *diag)
{
	fprintf(stderr, "<expression>:%u:%u: error: %s\n", diag->line, diag->column, diag->message);
	/* The source line, then a caret under the column (columns count code points). */
	const char *line = expr;
	for (guint l = 1; l < diag->line && strchr(line, '\n') != NULL; l++) {
		line = strchr(line, '\n') + 1;
	}
	const char *end = strchr(line, '\n');
	int len = end != NULL ? (int)(end - line) : (int)strlen(line);
	fprintf(stderr, " | %.*s\n | ", len, line);
	for (guint c = 1; c < diag->column; c++) {
		fputc('.', stderr);
	}
	fputs("^\n", stderr);
}

/* Builds the CEL view of one device (attributes and capacity as the slice publishes them). */
static CelDraDevice *
device_view(const K8sResourceSlice *slice, const K8sDevice *d, GError **error)
{
	g_autoptr(CelDraDevice) dev = cel_dra_device_new(slice->spec.driver);

	cel_dra_device_set_allow_multiple_allocations(dev, d->has_allow_multiple_allocations &&
	                                                           d->allow_multiple_allocations);
	for (guint i = 0; i < d->n_attributes; i++) {
		const K8sDeviceAttribute *a = &d->attributes[i];
		switch (a->type) {
		case K8S_ATTR_INT:
			cel_dra_device_add_int(dev, a->name, a->int_value);
			break;
		case K8S_ATTR_BOOL:
			cel_dra_device_add_bool(dev, a->name, a->bool_value);
			break;
		case K8S_ATTR_STRING:
			cel_dra_device_add_string(dev, a->name, a->string_value, -1);
			break;
		case K8S_ATTR_VERSION:
			if (!cel_dra_device_add_version(dev, a->name, a->string_value, -1, error)) {
				return NULL;
			}
			break;
		default:
			/* compile.go getAttributeValue */
			g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
			            "attribute %s: unsupported attribute value", a->name);
			return NULL;
		}
	}
	for (guint i = 0; i < d->n_capacity; i++) {
		cel_dra_device_add_capacity(dev, d->capacity[i].name, &d->capacity[i].value.value);
	}
	return g_steal_pointer(&dev);
}

typedef struct {
	guint devices;
	guint matches;
	guint errors;
} CelTally;

static void
evaluate_slices(const CelDraSelector *sel, CelDraEnv *env, K8sObjectSet *set, CelTally *t)
{
	g_autoptr(CelDraEval) ev = cel_dra_eval_new(env);

	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++) {
		const K8sResourceSlice *slice = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind(set, K8S_KIND_RESOURCE_SLICE, i));
		for (guint j = 0; j < slice->spec.n_devices; j++) {
			const K8sDevice *d = &slice->spec.devices[j];
			g_autoptr(GError) error = NULL;
			g_autoptr(CelDraDevice) dev = device_view(slice, d, &error);
			printf("%s/%s/%s: ", slice->spec.driver, slice->spec.pool.name, d->name);
			t->devices++;
			if (dev == NULL) {
				printf("error: %s\n", error->message);
				t->errors++;
				continue;
			}
			const char *msg = NULL;
			switch (cel_dra_selector_eval(sel, ev, dev, &msg)) {
			case CEL_DRA_TRUE:
				printf("true\n");
				t->matches++;
				break;
			case CEL_DRA_FALSE:
				printf("false\n");
				break;
			case CEL_DRA_ERROR:
			default:
				printf("error: %s\n", msg);
				t->errors++;
				break;
			}
		}
	}
}

/* "; 2 objects that are not ResourceSlices skipped (1 ResourceClaim, 1 Pod)", or "". */
static char *
skipped_objects(const K8sObjectSet *set)
{
	guint per_kind[K8S_KIND_COUNT_] = { 0 };
	guint total = 0;

	for (guint i = 0; i < k8s_object_set_count(set); i++) {
		K8sKind kind = k8s_object_set_get(set, i)->kind;
		if (kind != K8S_KIND_RESOURCE_SLICE) {
			per_kind[kind]++;
			total++;
		}
	}
	if (total == 0) {
		return g_strdup("");
	}
	GString *text = g_string_new(NULL);
	g_string_printf(text, "; %u %s skipped (", total,
	                total == 1 ? "object that is not a ResourceSlice"
	                           : "objects that are not ResourceSlices");
	const char *sep = "";
	for (guint k = 0; k < K8S_KIND_COUNT_; k++) {
		if (per_kind[k] > 0) {
			g_string_append_printf(text, "%s%u %s", sep, per_kind[k], k8s_kind_name(k));
			sep = ", ";
		}
	}
	g_string_append_c(text, ')');
	return g_string_free(text, FALSE);
}

int
cli_cel_main(int argc, char **argv)
{
	g_auto(GStrv) slices = NULL;
	g_auto(GStrv) features = NULL;
	gboolean new_expressions = FALSE;
	GOptionEntry entries[] = {
		{ "slices", 's', 0, G_OPTION_ARG_FILENAME_ARRAY, &slices,
		  "evaluate against the devices of these ResourceSlice files or directories",
		  "FILE" },
		{ "feature", 'f', 0, G_OPTION_ARG_STRING_ARRAY, &features,
		  "enable a feature gate (DRAConsumableCapacity, DRAListTypeAttributes)", "NAME" },
		{ "new-expressions", 0, 0, G_OPTION_ARG_NONE, &new_expressions,
		  "validate as a new object would be (NewExpressions: n-1 features only)", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("EXPR - compile a DRA device selector and evaluate it");
	g_option_context_add_main_entries(context, entries, NULL);
	int status = cli_parse_options(context, &argc, &argv);
	if (status != CLI_EXIT_OK) {
		return status;
	}
	if (argc != 2) {
		fprintf(stderr, "drasim cel: expected one EXPR (quote it for the shell)\n");
		return CLI_EXIT_USAGE;
	}

	CelDraOptions o = CEL_DRA_OPTIONS_INIT;
	o.env_type = new_expressions ? CEL_DRA_NEW_EXPRESSIONS : CEL_DRA_STORED_EXPRESSIONS;
	for (guint i = 0; features != NULL && features[i] != NULL; i++) {
		if (strcmp(features[i], "DRAConsumableCapacity") == 0) {
			o.consumable_capacity = TRUE;
		} else if (strcmp(features[i], "DRAListTypeAttributes") == 0) {
			o.list_type_attributes = TRUE;
		} else {
			fprintf(stderr, "drasim cel: unknown feature '%s'\n", features[i]);
			return CLI_EXIT_USAGE;
		}
	}
	g_autoptr(CelDraEnv) env = cel_dra_env_new(&o);
	g_autoptr(CelDraDiag) diag = NULL;
	g_autoptr(CelDraSelector) sel = cel_dra_selector_compile(env, argv[1], &diag);
	if (sel == NULL) {
		print_compile_error(argv[1], diag);
		return CLI_EXIT_INPUT_ERROR;
	}
	guint64 cost = cel_dra_selector_get_max_cost(sel);
	if (cost > CEL_DRA_MAX_COST) {
		fprintf(stderr,
		        "<expression>:1:1: error: estimated cost %" G_GUINT64_FORMAT
		        " exceeds the limit %d; the API server rejects this selector\n",
		        cost, CEL_DRA_MAX_COST);
	}
	if (slices == NULL) {
		if (cost > CEL_DRA_MAX_COST) {
			return CLI_EXIT_INPUT_ERROR;
		}
		printf("ok: estimated cost %" G_GUINT64_FORMAT " (limit %d)\n", cost,
		       CEL_DRA_MAX_COST);
		return CLI_EXIT_OK;
	}

	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	gboolean loaded = k8s_load_paths((const char *const *)slices, K8S_LOAD_DEFAULT, set, diags);
	k8s_diag_list_print(diags, stderr);
	CelTally t = { 0 };
	evaluate_slices(sel, env, set, &t);
	g_autofree char *skipped = skipped_objects(set);
	fprintf(stderr, "drasim cel: %u of %u devices match, %u errors, in %u ResourceSlices%s\n",
	        t.matches, t.devices, t.errors,
	        k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE), skipped);
	return loaded && t.errors == 0 && cost <= CEL_DRA_MAX_COST ? CLI_EXIT_OK
	                                                           : CLI_EXIT_INPUT_ERROR;
}
