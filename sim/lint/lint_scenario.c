/*
 * lint_scenario.c: `drasim lint SCENARIO`: the scenario file read exactly as
 * `drasim run` reads it (scenario_load(), so the same file:line:col errors),
 * then its manifests with what the scenario implies:
 *  - in every mode: Kubernetes validation and cross-checks, with the DeviceClasses
 *    of the DRA world (the chart's and drasim's mig-<profile> classes, from
 *    scenario_dra_classes_load(), the run's own source), and CEL compilation;
 *  - in each DRA mode: the cluster that mode builds, one node per pool with the
 *    mode's MIG layout, as the drivers publish it: requests no device can match
 *    (dra_lint_requests) and selectors against published names (hw_lint);
 *  - in each extended mode: the pods as the run translates them, against the
 *    mode's device-plugin nodes (scenario_lint_extended()).
 * A finding that not every mode has names its modes.
 */
#include <string.h>

#include "hw_api.h"
#include "k8s_lint.h"
#include "k8s_yaml.h"
#include "lint.h"
#include "world.h"

/* A YAML mapping's scalar value at @key, or NULL. */
static const char *
scalar_at(const K8sYamlNode *map, const char *key)
{
	const K8sYamlNode *v = map->kind == K8S_YAML_MAPPING ? k8s_yaml_map_lookup(map, key) : NULL;

	return v != NULL && v->kind == K8S_YAML_SCALAR ? v->scalar.text : NULL;
}

gboolean
lint_is_scenario(const char *path)
{
	g_autoptr(GMappedFile) mapped = NULL;
	g_autoptr(BaseArena) arena = NULL;
	g_autoptr(K8sDiagList) quiet = NULL;
	GStringChunk *strings;
	K8sYamlFile file = { 0 };
	const char *data;
	gsize len;
	gboolean found = FALSE;

	if (!g_file_test(path, G_FILE_TEST_IS_REGULAR) ||
	    (mapped = g_mapped_file_new(path, FALSE, NULL)) == NULL)
		return FALSE;
	data = g_mapped_file_get_contents(mapped);
	len = g_mapped_file_get_length(mapped);
	/* Cheap first: a manifest file of any size without the group is not one. */
	if (data == NULL || g_strstr_len(data, (gssize)len, "drasim.io/") == NULL)
		return FALSE;
	arena = base_arena_new();
	quiet = k8s_diag_list_new();
	strings = g_string_chunk_new(4096);
	k8s_yaml_parse(&(K8sYamlInput){ path, data, len, arena, strings, quiet }, &file);
	for (guint i = 0; i < file.n_docs && !found; i++) {
		const char *api = scalar_at(file.docs[i].root, "apiVersion");
		const char *kind = scalar_at(file.docs[i].root, "kind");

		found = api != NULL && g_str_has_prefix(api, "drasim.io/") &&
		        g_strcmp0(kind, "Scenario") == 0;
	}
	g_string_chunk_free(strings);
	return found;
}

void
lint_print_dir_hint(const char *path, FILE *out)
{
	g_autofree char *scenario = g_build_filename(path, "scenario.yaml", NULL);

	if (g_file_test(path, G_FILE_TEST_IS_DIR) && lint_is_scenario(scenario))
		fprintf(out,
		        "drasim lint: note: %s is a drasim Scenario, which lint DIR skips; "
		        "`drasim lint %s` lints it and its manifests on its cluster, in each of "
		        "its modes\n",
		        scenario, scenario);
}

/* The published devices of one node per pool, as @mode builds them. */
static gboolean
add_mode_cluster(const Scenario *sc,
                 const ScenarioMode *mode,
                 HwLintTarget *target,
                 K8sObjectSet *set,
                 K8sDiagList *diags)
{
	for (guint p = 0; p < sc->pools->len; p++) {
		const ScenarioPool *pool = &g_array_index(sc->pools, ScenarioPool, p);
		const HwNodeShape *shape = hw_catalog_lookup_shape(sc->catalog, pool->shape);
		const char *layout = scenario_mode_pool_layout(mode, pool);
		gboolean dynamic = strcmp(layout, "dynamic") == 0;
		g_autofree char *name = g_strdup_printf("%s-0", pool->name);
		g_autoptr(HwNode) node = shape != NULL ? hw_node_new(shape, name) : NULL;
		g_autoptr(K8sDiagList) quiet = k8s_diag_list_new();
		g_autoptr(GError) error = NULL;
		HwPublishOptions opts;

		if (node == NULL || pool->count == 0)
			continue; /* an unknown shape: scenario_load() reported it */
		if ((!dynamic && !hw_node_apply_layout(node, layout, &error)) ||
		    !hw_lint_target_add_shape(target, shape, dynamic ? NULL : layout, &error)) {
			/* the run fails to build this mode with the same message */
			k8s_diag_list_error(diags, &pool->pos, "spec.cluster.nodePools",
			                    "mode %s: node pool %s: %s", mode->name, pool->name,
			                    error->message);
			return FALSE;
		}
		hw_publish_options_init(&opts);
		opts.dynamic_mig = dynamic;
		/* published objects always decode (tests/unit/hw/test_api.c) */
		hw_publish_objects(node, &opts, FALSE, set, quiet);
	}
	return TRUE;
}

/* The checks against one DRA mode's cluster, into @diags. */
static void
lint_dra_mode(const Scenario *sc, const ScenarioMode *mode, K8sDiagList *diags)
{
	/* first: @set's copies of its slices borrow from it, so it is freed last */
	g_autoptr(K8sObjectSet) imported = NULL;
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(HwLintTarget) target = hw_lint_target_new();
	g_autoptr(K8sDiagList) quiet = k8s_diag_list_new();
	g_autoptr(GPtrArray) paths = g_ptr_array_new();

	/* The manifests again, in a set of this mode's own; scenario_load() has already
	 * reported what decoding them says. */
	for (guint i = 0; i < sc->manifests->len; i++)
		g_ptr_array_add(paths, sc->manifests->pdata[i]);
	g_ptr_array_add(paths, NULL);
	k8s_load_paths((const char *const *)paths->pdata, K8S_LOAD_DEFAULT, set, quiet);
	scenario_dra_classes_load(sc, set, quiet);
	if (!add_mode_cluster(sc, mode, target, set, diags))
		return;
	/* an imported cluster: the slices this mode has after its what-ifs, for both
	 * the allocator's pass and the published-names pass */
	imported = scenario_mode_inventory(sc, mode, diags);
	if (imported != NULL) {
		hw_lint_target_add_objects(target, imported);
		for (guint i = 0; i < k8s_object_set_count_kind(imported, K8S_KIND_RESOURCE_SLICE);
		     i++)
			k8s_object_set_add_copy(
			        set, k8s_object_set_get_kind(imported, K8S_KIND_RESOURCE_SLICE, i),
			        NULL);
	}
	lint_dra_requests(set, diags);
	hw_lint_selectors(target, set, diags);
}

typedef struct {
	const K8sDiag *diag;
	GString *modes;
	guint n_modes;
} ModeFinding;

static void
mode_finding_free(gpointer data)
{
	ModeFinding *f = data;

	g_string_free(f->modes, TRUE);
	g_free(f);
}

/* Every finding once; those not in all @n_modes lists name the modes they are from. */
static void
merge_modes(GPtrArray *lists, GPtrArray *names, K8sDiagList *diags)
{
	g_autoptr(GHashTable) seen =
	        g_hash_table_new_full(g_str_hash, g_str_equal, g_free, mode_finding_free);
	g_autoptr(GPtrArray) order = g_ptr_array_new();

	for (guint m = 0; m < lists->len; m++) {
		const K8sDiagList *list = lists->pdata[m];

		for (guint i = 0; i < k8s_diag_list_count(list); i++) {
			const K8sDiag *d = k8s_diag_list_get(list, i);
			char *key = k8s_diag_format(d);
			ModeFinding *f = g_hash_table_lookup(seen, key);

			if (f == NULL) {
				f = g_new0(ModeFinding, 1);
				f->diag = d;
				f->modes = g_string_new(NULL);
				g_hash_table_insert(seen, key, f);
				g_ptr_array_add(order, f);
			} else {
				g_free(key);
			}
			if (f->n_modes++ > 0)
				g_string_append(f->modes, ", ");
			g_string_append(f->modes, names->pdata[m]);
		}
	}
	for (guint i = 0; i < order->len; i++) {
		const ModeFinding *f = order->pdata[i];

		if (f->n_modes == lists->len)
			k8s_diag_list_add(diags, f->diag->severity, &f->diag->pos, f->diag->path,
			                  "%s", f->diag->message);
		else
			k8s_diag_list_add(diags, f->diag->severity, &f->diag->pos, f->diag->path,
			                  "%s (in mode%s %s)", f->diag->message,
			                  f->n_modes > 1 ? "s" : "", f->modes->str);
	}
}

/* The checks of each mode, each mode's findings in @lists, its name in @names. */
static void
lint_modes(const Scenario *sc, GPtrArray *lists, GPtrArray *names)
{
	for (guint i = 0; i < sc->modes->len; i++) {
		const ScenarioMode *mode = &g_array_index(sc->modes, ScenarioMode, i);
		g_autoptr(K8sDiagList) found = NULL;
		K8sDiagList *list;

		found = k8s_diag_list_new();
		if (mode->world == SCENARIO_WORLD_DRA)
			lint_dra_mode(sc, mode, found);
		else
			scenario_lint_extended(sc, mode, found);
		list = k8s_diag_list_new();
		lint_classes_append_user(list, found);
		g_ptr_array_add(lists, list);
		g_ptr_array_add(names, mode->name);
	}
}

static void
copy_all(K8sObjectSet *to, K8sObjectSet *from)
{
	for (guint i = 0; from != NULL && i < k8s_object_set_count(from); i++)
		k8s_object_set_add_copy(to, k8s_object_set_get(from, i), NULL);
}

static gboolean
is_imported_file(const Scenario *sc, const char *file)
{
	for (guint i = 0; file != NULL && i < sc->imported.manifests->len; i++) {
		if (strcmp(file, sc->imported.manifests->pdata[i]) == 0)
			return TRUE;
	}
	return FALSE;
}

/* The imported pods (spec.workload.imported) and their claims, linted beside the
 * manifests and the cluster's objects, whose claims, templates and classes they
 * name; only the findings in the imported files are kept (the rest are reported
 * by the manifests' own pass). */
static void
lint_imported(const Scenario *sc, K8sDiagList *diags)
{
	g_autoptr(K8sObjectSet) set = k8s_object_set_new();
	g_autoptr(K8sDiagList) found = k8s_diag_list_new();
	g_autoptr(K8sDiagList) kept = k8s_diag_list_new();

	if (sc->imported.objects == NULL)
		return;
	copy_all(set, sc->objects);
	copy_all(set, sc->inventory);
	copy_all(set, sc->imported.objects);
	k8s_lint_set(set, found);
	lint_cel_selectors(set, found);
	for (guint i = 0; i < k8s_diag_list_count(found); i++) {
		const K8sDiag *d = k8s_diag_list_get(found, i);

		if (is_imported_file(sc, d->pos.file))
			k8s_diag_list_add(kept, d->severity, &d->pos, d->path, "%s", d->message);
	}
	lint_classes_append_user(diags, kept);
}

guint
lint_scenario(const char *path, K8sDiagList *diags)
{
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	g_autoptr(GPtrArray) lists =
	        g_ptr_array_new_with_free_func((GDestroyNotify)k8s_diag_list_free);
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	g_autoptr(K8sDiagList) found = k8s_diag_list_new();
	guint n_objects;

	if (sc == NULL)
		return 0;
	n_objects = k8s_object_set_count(sc->objects);
	/* Modes first: they read which classes the manifests define in sc->objects. */
	lint_modes(sc, lists, names);
	merge_modes(lists, names, diags);
	/* Then the mode-independent checks, with the DRA world's classes beside the
	 * manifests (the cross-checks look classes up in the one set). */
	lint_classes_check_overrides(sc->objects, diags);
	scenario_dra_classes_load(sc, sc->objects, found);
	k8s_lint_set(sc->objects, found);
	lint_cel_selectors(sc->objects, found);
	lint_shared_claims_scenario(sc, found);
	lint_classes_append_user(diags, found);
	lint_imported(sc, diags);
	if (sc->imported.objects != NULL)
		n_objects += k8s_object_set_count(sc->imported.objects);
	return n_objects;
}
