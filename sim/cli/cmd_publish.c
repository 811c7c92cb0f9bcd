/*
 * cmd_publish.c: `drasim publish`, what the drivers of a simulated cluster publish.
 *
 * Builds N nodes of a catalog shape, applies a MIG layout, and prints through
 * model/api's encoder as `kubectl get -o yaml` would (hw_yaml_write_list()): under
 * --mode dra the Nodes, the NVIDIA DeviceClasses and
 * the ResourceSlices of gpu.nvidia.com, dra.net and any generic driver; under
 * --mode extended the Nodes with the device plugin's allocatable and GFD's labels.
 */
#include <stdio.h>
#include <string.h>

#include "base.h"
#include "cli.h"
#include "hw.h"
#include "xr.h"

typedef struct {
	char *shape;
	char *pool;
	int count;
	char *mig;
	char *mode;
	char *output;
	char **catalogs;
	char **drivers;
	char *k8s;
	char *naming;
	char *mig_strategy;
	char *sharing;
	int replicas;
	gboolean rename_by_default;
	gboolean fail_requests_greater_than_one;
	gboolean list_shapes;
	char *name_prefix; /* node names: <prefix>-<i> (the pool's name, else the shape's) */
} PublishArgs;

static void
publish_args_clear(PublishArgs *a)
{
	g_free(a->shape);
	g_free(a->pool);
	g_free(a->mig);
	g_free(a->mode);
	g_free(a->output);
	g_strfreev(a->catalogs);
	g_strfreev(a->drivers);
	g_free(a->k8s);
	g_free(a->naming);
	g_free(a->mig_strategy);
	g_free(a->sharing);
	g_free(a->name_prefix);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(PublishArgs, publish_args_clear)

static void
list_shapes(const HwCatalog *catalog)
{
	const GPtrArray *shapes = hw_catalog_get_shapes(catalog);

	for (guint i = 0; i < shapes->len; i++) {
		const HwNodeShape *s = g_ptr_array_index(shapes, i);
		guint gpus = 0;

		for (guint r = 0; r < s->roots->len; r++) {
			gpus += ((const HwPcieRoot *)g_ptr_array_index(s->roots, r))->gpu_bdfs->len;
		}
		printf("%-24s %u x %-24s %4u CPUs %6" G_GUINT64_FORMAT " GiB  %s%s\n", s->id, gpus,
		       s->gpu_model->product_name, s->cpus, s->memory_gib,
		       hw_confidence_to_string(s->confidence),
		       s->synthetic_topology ? ", synthetic topology" : "");
	}
}

static gboolean
load_catalog(const PublishArgs *a, HwCatalog **out)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(HwCatalog) catalog = hw_catalog_new_builtin(&error);

	for (guint i = 0; catalog != NULL && a->catalogs != NULL && a->catalogs[i] != NULL; i++) {
		if (!hw_catalog_load_file(catalog, a->catalogs[i], &error)) {
			g_clear_pointer(&catalog, hw_catalog_free);
		}
	}
	if (catalog == NULL) {
		fprintf(stderr, "%s\n", error->message);
		return FALSE;
	}
	*out = g_steal_pointer(&catalog);
	return TRUE;
}

static gboolean
load_drivers(const PublishArgs *a, GPtrArray *drivers)
{
	for (guint i = 0; a->drivers != NULL && a->drivers[i] != NULL; i++) {
		g_autoptr(GError) error = NULL;
		g_autofree char *data = NULL;
		gsize len = 0;
		HwGenericDriver *driver = NULL;

		if (!base_read_file(a->drivers[i], &data, &len, &error)) {
			fprintf(stderr, "%s:1:1: error: %s [<file>]\n", a->drivers[i],
			        error->message);
			return FALSE;
		}
		driver = hw_generic_driver_parse(a->drivers[i], data, len, &error);
		if (driver == NULL) {
			fprintf(stderr, "%s\n", error->message);
			return FALSE;
		}
		g_ptr_array_add(drivers, driver);
	}
	return TRUE;
}

static gboolean
parse_xr_config(const PublishArgs *a, XrConfig *config)
{
	xr_config_init(config);
	if (a->mig_strategy != NULL &&
	    !xr_mig_strategy_parse(a->mig_strategy, &config->mig_strategy)) {
		return FALSE;
	}
	if (a->sharing != NULL && !xr_sharing_parse(a->sharing, &config->sharing)) {
		return FALSE;
	}
	config->replicas = (guint)MAX(a->replicas, 0);
	config->rename_by_default = a->rename_by_default;
	config->fail_requests_greater_than_one = a->fail_requests_greater_than_one;
	return TRUE;
}

/* Builds the nodes and collects their objects; returns an exit status. */
static int
publish(const PublishArgs *a,
        const HwNodeShape *shape,
        gboolean extended,
        const HwPublishOptions *options,
        const XrConfig *xr_config,
        const GPtrArray *drivers)
{
	g_autoptr(GPtrArray) nodes =
	        g_ptr_array_new_with_free_func((GDestroyNotify)hw_node_object_free);
	g_autoptr(GPtrArray) slices = g_ptr_array_new_with_free_func((GDestroyNotify)hw_slice_free);
	g_autofree char *yaml = NULL;

	for (int i = 0; i < a->count; i++) {
		g_autofree char *name =
		        g_strdup_printf("%s-%d", a->name_prefix ? a->name_prefix : shape->id, i);
		g_autoptr(HwNode) node = hw_node_new(shape, name);
		g_autoptr(GError) error = NULL;
		HwNodeObject *object;

		if (!hw_node_apply_layout(node, a->mig, &error)) {
			fprintf(stderr, "drasim publish: --mig: %s\n", error->message);
			return CLI_EXIT_INPUT_ERROR;
		}
		object = hw_node_object_new(node);
		g_ptr_array_add(nodes, object);
		if (extended) {
			g_autoptr(XrNodeView) view = xr_node_view_new(node, xr_config, &error);

			if (view == NULL) {
				fprintf(stderr, "drasim publish: %s\n", error->message);
				return CLI_EXIT_INPUT_ERROR;
			}
			if (xr_node_view_invalid_reason(view) != NULL) {
				fprintf(stderr,
				        "drasim publish: warning: %s: mig-strategy=single is "
				        "invalid: %s\n",
				        name, xr_node_view_invalid_reason(view));
			}
			xr_node_view_apply(view, object);
			continue;
		}
		g_autoptr(GPtrArray) gpu_slices = hw_publish_nvidia(node, options);
		while (gpu_slices->len > 0) {
			g_ptr_array_add(slices, g_ptr_array_steal_index(gpu_slices, 0));
		}
		HwSlice *nics = hw_publish_dranet(node);
		if (nics != NULL) {
			g_ptr_array_add(slices, nics);
		}
		for (guint d = 0; d < drivers->len; d++) {
			g_ptr_array_add(slices, hw_generic_driver_publish(
			                                g_ptr_array_index(drivers, d), name));
		}
	}
	yaml = hw_yaml_write_list(nodes, extended ? NULL : hw_nvidia_device_classes(), slices);
	fputs(yaml, stdout);
	return CLI_EXIT_OK;
}

/* The options of `drasim publish`, bound to @a. */
static void
add_entries(GOptionContext *context, PublishArgs *a)
{
	GOptionEntry entries[] = {
		{ "shape", 0, 0, G_OPTION_ARG_STRING, &a->shape, "node shape from the catalog",
		  "NAME" },
		{ "pool", 0, 0, G_OPTION_ARG_STRING, &a->pool,
		  "a node pool of a --catalog scenario file (shape, count and MIG from there)",
		  "NAME" },
		{ "count", 0, 0, G_OPTION_ARG_INT, &a->count, "number of nodes (default 1)", "N" },
		{ "mig", 0, 0, G_OPTION_ARG_STRING, &a->mig,
		  "MIG layout: all-disabled (default), all-enabled, all-balanced, all-<profile>, "
		  "a list like 2x1g.10gb,3g.40gb@4, or dynamic",
		  "LAYOUT" },
		{ "mode", 0, 0, G_OPTION_ARG_STRING, &a->mode,
		  "dra (ResourceSlices, default) or extended (device plugin)", "MODE" },
		{ "output", 'o', 0, G_OPTION_ARG_STRING, &a->output, "output format: yaml",
		  "FORMAT" },
		{ "catalog", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &a->catalogs,
		  "extra catalog file (overrides and extends the built-in one)", "FILE" },
		{ "driver", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &a->drivers,
		  "generic driver description to publish on every node", "FILE" },
		{ "k8s", 0, 0, G_OPTION_ARG_STRING, &a->k8s,
		  "Kubernetes version for the dynamic MIG slice layout: 1.34 (default) or 1.35",
		  "VERSION" },
		{ "naming", 0, 0, G_OPTION_ARG_STRING, &a->naming,
		  "DRA driver device naming: v25.12 (default) or v25.3", "VERSION" },
		{ "mig-strategy", 0, 0, G_OPTION_ARG_STRING, &a->mig_strategy,
		  "device plugin MIG strategy: none (default), single, mixed", "STRATEGY" },
		{ "sharing", 0, 0, G_OPTION_ARG_STRING, &a->sharing,
		  "device plugin sharing: none (default), time-slicing, mps", "STRATEGY" },
		{ "replicas", 0, 0, G_OPTION_ARG_INT, &a->replicas,
		  "replicas per device when shared", "N" },
		{ "rename-by-default", 0, 0, G_OPTION_ARG_NONE, &a->rename_by_default,
		  "advertise shared resources as <name>.shared", NULL },
		{ "fail-requests-greater-than-one", 0, 0, G_OPTION_ARG_NONE,
		  &a->fail_requests_greater_than_one,
		  "reject requests above 1 of a shared resource", NULL },
		{ "list-shapes", 0, 0, G_OPTION_ARG_NONE, &a->list_shapes,
		  "list the catalog's shapes", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};

	g_option_context_add_main_entries(context, entries, NULL);
}

/* --pool: shape, count, MIG layout and node names from a --catalog node pool.
 * Returns an exit status. */
static int
apply_pool(PublishArgs *a, const HwCatalog *catalog)
{
	const HwNodePool *pool = hw_catalog_lookup_pool(catalog, a->pool);

	if (pool == NULL) {
		fprintf(stderr, "drasim publish: no node pool \"%s\" in the --catalog files\n",
		        a->pool);
		return CLI_EXIT_INPUT_ERROR;
	}
	if (a->shape != NULL || a->mig != NULL) {
		return cli_usage_error(
		        "publish", "--pool takes shape and MIG layout from the pool: drop --shape "
		                   "and --mig");
	}
	a->shape = g_strdup(pool->shape_id);
	a->mig = g_strdup(pool->dynamic_mig ? "dynamic" : pool->layout);
	a->count = (int)pool->count;
	a->name_prefix = g_strdup(pool->name);
	return CLI_EXIT_OK;
}

/* The node shape, count, output format and mode; returns an exit status. */
static int
check_target(const PublishArgs *a,
             const HwCatalog *catalog,
             const HwNodeShape **shape,
             gboolean *extended)
{
	if (a->shape == NULL) {
		return cli_usage_error("publish",
		                       "--shape or --pool is required (see --list-shapes)");
	}
	*shape = hw_catalog_lookup_shape(catalog, a->shape);
	if (*shape == NULL) {
		g_autofree char *msg = hw_catalog_unknown_shape(catalog, a->shape);

		return cli_usage_error(NULL, msg);
	}
	if (a->count < 1 || a->count > 100000) {
		return cli_usage_error("publish", "--count must be between 1 and 100000");
	}
	if (a->output != NULL && strcmp(a->output, "yaml") != 0) {
		return cli_usage_error("publish", "only -o yaml is supported");
	}
	*extended = a->mode != NULL && strcmp(a->mode, "extended") == 0;
	if (a->mode != NULL && !*extended && strcmp(a->mode, "dra") != 0) {
		return cli_usage_error("publish", "--mode must be dra or extended");
	}
	return CLI_EXIT_OK;
}

/* --mig dynamic, --k8s and --naming into @options (a->mig becomes the static
 * layout); returns an exit status. */
static int
parse_publish_options(PublishArgs *a, gboolean extended, HwPublishOptions *options)
{
	hw_publish_options_init(options);
	if (a->mig != NULL && strcmp(a->mig, "dynamic") == 0) {
		if (extended) {
			return cli_usage_error(
			        "publish",
			        "--mig dynamic needs --mode dra (DynamicMIG is a DRA feature)");
		}
		options->dynamic_mig = TRUE;
		g_clear_pointer(&a->mig, g_free);
	}
	if (a->mig == NULL) {
		a->mig = g_strdup("all-disabled");
	}
	if (a->k8s != NULL && strcmp(a->k8s, "1.34") != 0 && strcmp(a->k8s, "1.35") != 0) {
		return cli_usage_error("publish", "--k8s must be 1.34 or 1.35");
	}
	options->k8s_1_35 = a->k8s != NULL && strcmp(a->k8s, "1.35") == 0;
	if (a->naming != NULL && strcmp(a->naming, "v25.12") != 0 &&
	    strcmp(a->naming, "v25.3") != 0) {
		return cli_usage_error("publish", "--naming must be v25.12 or v25.3");
	}
	options->naming = a->naming != NULL && strcmp(a->naming, "v25.3") == 0 ? HW_NAMING_V25_3
	                                                                       : HW_NAMING_V25_12;
	return CLI_EXIT_OK;
}

int
cli_publish_main(int argc, char **argv)
{
	g_auto(PublishArgs) a = { .count = 1, .replicas = 1 };
	g_autoptr(GOptionContext) context =
	        g_option_context_new("- print the Nodes and ResourceSlices a cluster publishes");
	g_autoptr(HwCatalog) catalog = NULL;
	g_autoptr(GPtrArray) drivers =
	        g_ptr_array_new_with_free_func((GDestroyNotify)hw_generic_driver_free);
	HwPublishOptions options;
	XrConfig xr_config;
	const HwNodeShape *shape = NULL;
	gboolean extended = FALSE;
	int status;

	add_entries(context, &a);
	status = cli_parse_options(context, &argc, &argv);
	if (status != CLI_EXIT_OK) {
		return status;
	}
	if (argc > 1) {
		return cli_usage_error("publish", "unexpected argument");
	}
	if (!load_catalog(&a, &catalog)) {
		return CLI_EXIT_INPUT_ERROR;
	}
	if (a.list_shapes) {
		list_shapes(catalog);
		return CLI_EXIT_OK;
	}
	if ((a.pool != NULL && (status = apply_pool(&a, catalog)) != CLI_EXIT_OK) ||
	    (status = check_target(&a, catalog, &shape, &extended)) != CLI_EXIT_OK ||
	    (status = parse_publish_options(&a, extended, &options)) != CLI_EXIT_OK) {
		return status;
	}
	if (!parse_xr_config(&a, &xr_config)) {
		return cli_usage_error(
		        "publish", "--mig-strategy must be none, single or mixed; --sharing none, "
		                   "time-slicing or mps");
	}
	if (!load_drivers(&a, drivers)) {
		return CLI_EXIT_INPUT_ERROR;
	}
	return publish(&a, shape, extended, &options, &xr_config, drivers);
}
