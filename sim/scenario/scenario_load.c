/*
 * scenario_load.c: reads a Scenario document (apiVersion drasim.io/v1alpha1)
 * strictly: the envelope, spec.seed/horizon/sampling and spec.cluster here,
 * the workload, modes and run-model overrides in scenario_spec.c; then loads
 * the manifests it names with model/api's loader, relative to the scenario.
 * scenario_load_with() first changes the document by path (scenario_override.c).
 */
#include <string.h>

#include "base.h"
#include "hw.h"
#include "hw_api.h"
#include "k8s_validate.h"
#include "scenario-private.h"

G_DEFINE_QUARK(drasim - scenario - error - quark, scenario_error)

static void
pool_clear(gpointer data)
{
	ScenarioPool *p = data;

	g_free(p->name);
	g_free(p->shape);
	g_free(p->mig);
}

static void
entry_clear(gpointer data)
{
	ScenarioEntry *e = data;

	g_free(e->kind);
	g_free(e->name);
}

static void
mode_clear(gpointer data)
{
	ScenarioMode *m = data;

	g_free(m->name);
	cluster_score_policy_config_clear(&m->policy);
	if (m->layouts != NULL) {
		for (guint i = 0; i < m->layouts->len; i++) {
			ScenarioPoolLayout *l = &g_array_index(m->layouts, ScenarioPoolLayout, i);

			g_free(l->pool);
			g_free(l->mig);
		}
		g_array_unref(m->layouts);
	}
	scenario_whatif__clear(m);
}

void
scenario_free(Scenario *self)
{
	if (self == NULL)
		return;
	g_free(self->file);
	g_free(self->dir);
	g_free(self->name);
	g_array_unref(self->pools);
	hw_catalog_free(self->catalog);
	g_ptr_array_unref(self->manifests);
	g_array_unref(self->entries);
	g_free(self->trace.path);
	g_clear_pointer(&self->trace.gpu_models, g_ptr_array_unref);
	g_clear_pointer(&self->trace.gpu_model_pos, g_array_unref);
	g_array_unref(self->modes);
	g_array_unref(self->events);
	k8s_object_set_free(self->objects);
	g_clear_pointer(&self->inventory_paths, g_ptr_array_unref);
	g_clear_pointer(&self->inventory, k8s_object_set_free);
	g_clear_pointer(&self->imported.manifests, g_ptr_array_unref);
	g_clear_pointer(&self->imported.objects, k8s_object_set_free);
	g_string_chunk_free(self->strings);
	g_free(self);
}

static Scenario *
scenario_new(const char *path)
{
	Scenario *self = g_new0(Scenario, 1);

	self->file = g_strdup(path);
	self->dir = g_path_get_dirname(path);
	self->seed = 1;
	self->horizon = SIM_TIME_NEVER;
	self->sampling = SIM_TIME_MIN;
	self->pools = g_array_new(FALSE, TRUE, sizeof(ScenarioPool));
	g_array_set_clear_func(self->pools, pool_clear);
	self->manifests = g_ptr_array_new_with_free_func(g_free);
	self->entries = g_array_new(FALSE, TRUE, sizeof(ScenarioEntry));
	g_array_set_clear_func(self->entries, entry_clear);
	self->modes = g_array_new(FALSE, TRUE, sizeof(ScenarioMode));
	g_array_set_clear_func(self->modes, mode_clear);
	self->events = g_array_new(FALSE, TRUE, sizeof(ScenarioEvent));
	g_array_set_clear_func(self->events, scenario_event__clear);
	self->default_duration = SIM_TIME_HOUR;
	self->default_compute = 1.0;
	self->objects = k8s_object_set_new();
	/* nodes known only from slices: unlimited unless nodeDefaults says */
	self->node_defaults.cpu_milli = -1;
	self->node_defaults.memory = -1;
	self->node_defaults.pods = -1;
	/* imported pods run to the horizon unless a duration is given */
	self->imported.service = TRUE;
	self->imported.compute = 1.0;
	self->strings = g_string_chunk_new(4096);
	/* The built-in catalog is compiled in; it fails only on a build bug. */
	self->catalog = hw_catalog_new_builtin(NULL);
	if (self->catalog == NULL)
		self->catalog = hw_catalog_new_empty();
	cluster_run_params_init(&self->run);
	return self;
}

static void
decode_pool(Scenario *self,
            ScenarioDec *dec,
            const K8sYamlNode *node,
            const char *path,
            const HwCatalog *catalog)
{
	static const char *const known[] = { "name", "shape", "count", "mig", NULL };
	ScenarioPool pool = { .count = 1, .pos = scenario_dec__pos(dec, node) };
	const K8sYamlNode *shape_node = NULL;

	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	for (guint i = 0; i < node->map.n; i++) {
		const char *key = node->map.pairs[i].key->scalar.text;
		const K8sYamlNode *v = node->map.pairs[i].value;
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);
		guint64 n;

		if (strcmp(key, "name") == 0)
			pool.name = scenario_dec__string(dec, v, field);
		else if (strcmp(key, "shape") == 0) {
			pool.shape = scenario_dec__string(dec, v, field);
			shape_node = v;
		} else if (strcmp(key, "count") == 0 &&
		           scenario_dec__uint(dec, v, field, 100000, &n))
			pool.count = (guint)n;
		else if (strcmp(key, "mig") == 0)
			pool.mig = scenario_dec__string(dec, v, field);
	}
	if (pool.name == NULL)
		pool.name = g_strdup_printf("pool-%u", self->pools->len);
	for (guint i = 0; i < self->pools->len; i++) {
		const ScenarioPool *first = &g_array_index(self->pools, ScenarioPool, i);

		/* nodes are <pool>-<k>: a second pool of one name would repeat node names */
		if (strcmp(first->name, pool.name) == 0) {
			const K8sYamlNode *name = k8s_yaml_map_lookup(node, "name");
			g_autofree char *field = g_strdup_printf("%s.name", path);

			scenario_dec__error(dec, name != NULL ? name : node, field,
			                    "duplicate node pool \"%s\" (first at line %u): pool "
			                    "names must be distinct",
			                    pool.name, first->pos.line);
			break;
		}
	}
	if (pool.shape == NULL) {
		g_autofree char *field = g_strdup_printf("%s.shape", path);

		scenario_dec__error(dec, node, field,
		                    "expected a node shape (drasim publish "
		                    "--list-shapes)");
	} else if (catalog != NULL) {
		const HwNodeShape *shape = hw_catalog_lookup_shape(catalog, pool.shape);
		g_autofree char *field = g_strdup_printf("%s.shape", path);
		g_autoptr(GError) error = NULL;
		gboolean on = FALSE;

		if (shape == NULL) {
			g_autofree char *msg = hw_catalog_unknown_shape(catalog, pool.shape);

			scenario_dec__error(dec, shape_node, field, "%s", msg);
		} else if (pool.mig != NULL && strcmp(pool.mig, "dynamic") != 0) {
			g_autoptr(GArray) inst = NULL;

			inst = hw_mig_layout_parse(shape->gpu_model, pool.mig, &on, &error);
			if (inst == NULL) {
				g_free(field);
				field = g_strdup_printf("%s.mig", path);
				scenario_dec__error(dec, k8s_yaml_map_lookup(node, "mig"), field,
				                    "%s", error->message);
			}
		}
	}
	g_array_append_val(self->pools, pool);
}

/* spec.cluster.catalog: more node shapes and GPUs for the pools. */
static void
decode_catalog(Scenario *self, ScenarioDec *dec, const K8sYamlNode *files)
{
	if (!scenario_dec__seq(dec, files, "spec.cluster.catalog"))
		return;
	for (guint i = 0; i < files->seq.n; i++) {
		g_autofree char *field = g_strdup_printf("spec.cluster.catalog[%u]", i);
		g_autofree char *p = scenario_dec__string(dec, files->seq.items[i], field);
		g_autofree char *full = NULL;
		g_autoptr(GError) err = NULL;

		if (p == NULL)
			continue;
		full = g_path_is_absolute(p) ? g_strdup(p) : g_build_filename(self->dir, p, NULL);
		if (!hw_catalog_load_file(self->catalog, full, &err))
			scenario_dec__error(dec, files->seq.items[i], field, "%s", err->message);
	}
}

/* A cluster is node pools of catalog shapes, objects (docs/import.md), or both. */
static void
decode_cluster(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node)
{
	static const char *const known[] = { "nodePools", "catalog", "objects", "nodeDefaults",
		                             NULL };
	const K8sYamlNode *pools, *v;

	if (!scenario_dec__map(dec, node, "spec.cluster"))
		return;
	scenario_dec__check_keys(dec, node, "spec.cluster", known);
	if ((v = k8s_yaml_map_lookup(node, "catalog")) != NULL)
		decode_catalog(self, dec, v);
	if ((v = k8s_yaml_map_lookup(node, "objects")) != NULL) {
		self->inventory_paths =
		        scenario_objects__paths(self, dec, v, "spec.cluster.objects");
		if (v->kind == K8S_YAML_SEQUENCE && v->seq.n == 0)
			scenario_dec__error(dec, v, "spec.cluster.objects",
			                    "expected files or folders of Nodes and "
			                    "ResourceSlices, got an empty list");
	}
	if ((v = k8s_yaml_map_lookup(node, "nodeDefaults")) != NULL)
		scenario_objects__node_defaults(self, dec, v);
	pools = k8s_yaml_map_lookup(node, "nodePools");
	if (pools == NULL && self->inventory_paths == NULL) {
		scenario_dec__error(dec, node, "spec.cluster.nodePools",
		                    "expected at least one node pool or spec.cluster.objects");
		return;
	}
	if (pools == NULL || !scenario_dec__seq(dec, pools, "spec.cluster.nodePools"))
		return;
	if (pools->seq.n == 0 && self->inventory_paths == NULL) {
		scenario_dec__error(dec, pools, "spec.cluster.nodePools",
		                    "expected at least one node pool (or spec.cluster.objects), "
		                    "got an empty list");
		return;
	}
	for (guint i = 0; i < pools->seq.n; i++) {
		g_autofree char *path = g_strdup_printf("spec.cluster.nodePools[%u]", i);

		decode_pool(self, dec, pools->seq.items[i], path, self->catalog);
	}
}

static void
decode_spec(Scenario *self, ScenarioDec *dec, const K8sYamlNode *spec)
{
	static const char *const known[] = { "seed",  "horizon", "sampling", "cluster", "workload",
		                             "modes", "run",     "events",   NULL };

	if (!scenario_dec__map(dec, spec, "spec"))
		return;
	scenario_dec__check_keys(dec, spec, "spec", known);
	for (guint i = 0; i < spec->map.n; i++) {
		const char *key = spec->map.pairs[i].key->scalar.text;
		const K8sYamlNode *v = spec->map.pairs[i].value;
		g_autofree char *field = g_strdup_printf("spec.%s", key);

		if (strcmp(key, "seed") == 0)
			scenario_dec__uint(dec, v, field, G_MAXUINT64, &self->seed);
		else if (strcmp(key, "horizon") == 0)
			scenario_dec__duration(dec, v, field, &self->horizon);
		else if (strcmp(key, "sampling") == 0 &&
		         scenario_dec__duration(dec, v, field, &self->sampling) &&
		         self->sampling <= 0)
			scenario_dec__error(dec, v, field, "expected a duration > 0");
		else if (strcmp(key, "cluster") == 0)
			decode_cluster(self, dec, v);
		else if (strcmp(key, "workload") == 0)
			scenario_spec__workload(self, dec, v);
		else if (strcmp(key, "modes") == 0)
			scenario_spec__modes(self, dec, v);
		else if (strcmp(key, "run") == 0)
			scenario_spec__run(self, dec, v);
	}
	if (k8s_yaml_map_lookup(spec, "cluster") == NULL)
		scenario_dec__error(dec, spec, "spec.cluster", "expected a cluster");
	if (k8s_yaml_map_lookup(spec, "modes") == NULL)
		scenario_spec__modes(self, dec, NULL);
	/* After the cluster: events name its pools and nodes. */
	if (k8s_yaml_map_lookup(spec, "events") != NULL)
		scenario_events__decode(self, dec, k8s_yaml_map_lookup(spec, "events"));
	/* After the cluster: gpuModels name catalog GPUs, spec.cluster.catalog included. */
	scenario_spec__check_gpu_models(self, dec);
	/* After the cluster: mode layouts name its pools and use their GPUs. */
	scenario_spec__check_mode_layouts(self, dec);
}

static void
decode_envelope(Scenario *self, ScenarioDec *dec, const K8sYamlNode *root)
{
	static const char *const known[] = { "apiVersion", "kind", "metadata", "spec", NULL };
	static const char *const meta_known[] = { "name", NULL };
	const K8sYamlNode *v;

	if (!scenario_dec__map(dec, root, ""))
		return;
	scenario_dec__check_keys(dec, root, "", known);
	v = k8s_yaml_map_lookup(root, "apiVersion");
	if (v == NULL || v->kind != K8S_YAML_SCALAR ||
	    strcmp(v->scalar.text, "drasim.io/v1alpha1") != 0)
		scenario_dec__error(dec, v != NULL ? v : root, "apiVersion",
		                    "expected apiVersion drasim.io/v1alpha1");
	v = k8s_yaml_map_lookup(root, "kind");
	if (v == NULL || v->kind != K8S_YAML_SCALAR || strcmp(v->scalar.text, "Scenario") != 0)
		scenario_dec__error(dec, v != NULL ? v : root, "kind", "expected kind Scenario");
	v = k8s_yaml_map_lookup(root, "metadata");
	if (v != NULL && scenario_dec__map(dec, v, "metadata")) {
		const K8sYamlNode *name = k8s_yaml_map_lookup(v, "name");

		scenario_dec__check_keys(dec, v, "metadata", meta_known);
		if (name != NULL)
			self->name = scenario_dec__string(dec, name, "metadata.name");
	}
	if (self->name == NULL)
		scenario_dec__error(dec, v != NULL ? v : root, "metadata.name",
		                    "expected a scenario name");
	v = k8s_yaml_map_lookup(root, "spec");
	if (v == NULL)
		scenario_dec__error(dec, root, "spec", "expected a spec");
	else
		decode_spec(self, dec, v);
}

static void
load_manifests(Scenario *self, K8sDiagList *diags)
{
	g_autoptr(GPtrArray) paths = g_ptr_array_new();

	if (self->manifests->len == 0)
		return;
	for (guint i = 0; i < self->manifests->len; i++)
		g_ptr_array_add(paths, self->manifests->pdata[i]);
	g_ptr_array_add(paths, NULL);
	k8s_load_paths((const char *const *)paths->pdata, K8S_LOAD_DEFAULT, self->objects, diags);
	/* the world indexes objects by name: a nameless claim crashed `drasim run` (tests/fuzz) */
	k8s_validate_names(self->objects, diags);
	/* The NVIDIA driver rejects an invalid GpuConfig when it prepares the claim
	 * (NodePrepareResources fails, the pod never starts): an input error here,
	 * before any run, at the field (hw_gpu_config.c). */
	hw_check_gpu_configs(self->objects, diags);
}

Scenario *
scenario_load(const char *path, K8sDiagList *diags)
{
	return scenario_load_with(path, NULL, 0, diags);
}

/* Decodes the scenario document @data (from @path) and loads what it names. */
static Scenario *
load_text(const char *path,
          const char *data,
          gsize len,
          const ScenarioOverride *overrides,
          guint n,
          K8sDiagList *diags)
{
	g_autoptr(Scenario) self = scenario_new(path);
	g_autoptr(BaseArena) arena = base_arena_new();
	GStringChunk *strings = self->strings;
	K8sYamlFile file = { 0 };
	ScenarioDec dec = { .diags = diags };
	guint before = k8s_diag_list_count_errors(diags);

	if (k8s_yaml_parse(&(K8sYamlInput){ path, data, len, arena, strings, diags }, &file)) {
		dec.file = file.file;
		if (file.n_docs != 1) {
			K8sPos pos = { file.file, 1, 1 };

			k8s_diag_list_error(diags, &pos, "",
			                    "expected exactly one Scenario document, got %u",
			                    file.n_docs);
		} else if (scenario_override__apply(file.docs[0].root, overrides, n, arena, strings,
		                                    diags)) {
			decode_envelope(self, &dec, file.docs[0].root);
		}
	}
	if (k8s_diag_list_count_errors(diags) == before) {
		load_manifests(self, diags);
		scenario_objects__load(self, diags);
	}
	/* After the inventory: the what-if edits and the events name its Nodes. */
	if (k8s_diag_list_count_errors(diags) == before &&
	    scenario_whatif__check_node_count(self, diags)) {
		scenario_whatif__check(self, diags);
		scenario_whatif__check_events(self, diags);
	}
	if (k8s_diag_list_count_errors(diags) > before)
		return NULL;
	return g_steal_pointer(&self);
}

Scenario *
scenario_load_with(const char *path, const ScenarioOverride *overrides, guint n, K8sDiagList *diags)
{
	g_autofree char *data = NULL;
	g_autoptr(GError) error = NULL;
	gsize len;

	if (!base_read_file(path, &data, &len, &error)) {
		K8sPos pos = { path, 0, 0 };

		k8s_diag_list_error(diags, &pos, "", "cannot read the scenario: %s",
		                    error->message);
		return NULL;
	}
	return load_text(path, data, len, overrides, n, diags);
}

Scenario *
scenario_load_data(const char *path, const char *data, gsize len, K8sDiagList *diags)
{
	return load_text(path, data, len, NULL, 0, diags);
}

const ScenarioMode *
scenario_lookup_mode(const Scenario *self, const char *name)
{
	for (guint i = 0; i < self->modes->len; i++) {
		const ScenarioMode *m = &g_array_index(self->modes, ScenarioMode, i);

		if (strcmp(m->name, name) == 0)
			return m;
	}
	return NULL;
}

const char *
scenario_mode_pool_layout(const ScenarioMode *mode, const ScenarioPool *pool)
{
	for (guint i = 0; mode->layouts != NULL && i < mode->layouts->len; i++) {
		const ScenarioPoolLayout *l = &g_array_index(mode->layouts, ScenarioPoolLayout, i);

		if (strcmp(l->pool, pool->name) == 0)
			return l->mig;
	}
	return pool->mig != NULL ? pool->mig : "all-disabled";
}
