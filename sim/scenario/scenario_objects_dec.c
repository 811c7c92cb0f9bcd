/*
 * scenario_objects_dec.c: a scenario's cluster given as objects and the
 * imported starting state (issue 16, docs/import.md section 1): decodes
 * spec.cluster.objects (paths of Nodes and ResourceSlices, read like `drasim
 * lint`), spec.cluster.nodeDefaults and spec.workload.imported, loads their
 * files, and says in warnings what of them drasim does not use: no object of
 * the inventory or of the manifests is ignored without a word.
 */
#include <string.h>

#include "scenario-private.h"

static char *
resolve(const Scenario *self, const char *path)
{
	if (g_path_is_absolute(path))
		return g_strdup(path);
	return g_build_filename(self->dir, path, NULL);
}

GPtrArray *
scenario_objects__paths(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);

	if (!scenario_dec__seq(dec, node, path))
		return out;
	for (guint i = 0; i < node->seq.n; i++) {
		g_autofree char *field = g_strdup_printf("%s[%u]", path, i);
		g_autofree char *p = scenario_dec__string(dec, node->seq.items[i], field);
		g_autofree char *full = NULL;

		if (p == NULL)
			continue;
		full = resolve(self, p);
		if (!g_file_test(full, G_FILE_TEST_EXISTS))
			scenario_dec__error(dec, node->seq.items[i], field,
			                    "expected a file or folder of Kubernetes objects, "
			                    "nothing at %s",
			                    full);
		else
			g_ptr_array_add(out, g_steal_pointer(&full));
	}
	return out;
}

/* A quantity >= 0 (cpu "64", "500m"; memory "512Gi"; pods "110") in @scale units. */
static gboolean
decode_quantity(
        ScenarioDec *dec, const K8sYamlNode *node, const char *path, gboolean milli, gint64 *out)
{
	g_autoptr(GError) error = NULL;
	K8sQuantity q;

	if (node->kind != K8S_YAML_SCALAR) {
		scenario_dec__error(dec, node, path,
		                    "expected a quantity like 64, 500m or 512Gi, got %s",
		                    k8s_yaml_node_type_name(node));
		return FALSE;
	}
	if (!k8s_quantity_parse(node->scalar.text, -1, &q, &error)) {
		scenario_dec__error(dec, node, path,
		                    "expected a quantity like 64, 500m or 512Gi: %s",
		                    error->message);
		return FALSE;
	}
	if (k8s_quantity_sign(&q) < 0) {
		scenario_dec__error(dec, node, path, "expected a quantity >= 0, got %s",
		                    node->scalar.text);
		return FALSE;
	}
	*out = milli ? k8s_quantity_milli_value(&q) : k8s_quantity_value(&q);
	return TRUE;
}

void
scenario_objects__node_defaults(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node)
{
	static const char *const known[] = { "cpu", "memory", "pods", NULL };
	const char *path = "spec.cluster.nodeDefaults";
	ScenarioNodeDefaults *d = &self->node_defaults;

	d->pos = scenario_dec__pos(dec, node);
	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	for (guint i = 0; i < node->map.n; i++) {
		const char *key = node->map.pairs[i].key->scalar.text;
		const K8sYamlNode *v = node->map.pairs[i].value;
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);

		if (strcmp(key, "cpu") == 0)
			decode_quantity(dec, v, field, TRUE, &d->cpu_milli);
		else if (strcmp(key, "memory") == 0)
			decode_quantity(dec, v, field, FALSE, &d->memory);
		else if (strcmp(key, "pods") == 0)
			decode_quantity(dec, v, field, FALSE, &d->pods);
	}
}

void
scenario_objects__imported(Scenario *self, ScenarioDec *dec, const K8sYamlNode *node)
{
	static const char *const known[] = { "manifests", "duration", "compute", "memory", NULL };
	const char *path = "spec.workload.imported";
	ScenarioImported *im = &self->imported;

	im->pos = scenario_dec__pos(dec, node);
	if (!scenario_dec__map(dec, node, path))
		return;
	scenario_dec__check_keys(dec, node, path, known);
	for (guint i = 0; i < node->map.n; i++) {
		const char *key = node->map.pairs[i].key->scalar.text;
		const K8sYamlNode *v = node->map.pairs[i].value;
		g_autofree char *field = g_strdup_printf("%s.%s", path, key);

		if (strcmp(key, "manifests") == 0) {
			g_clear_pointer(&im->manifests, g_ptr_array_unref);
			im->manifests = scenario_objects__paths(self, dec, v, field);
		} else if (strcmp(key, "duration") == 0) {
			scenario_spec__dist(dec, v, field, &im->duration);
			im->service = FALSE;
		} else if (strcmp(key, "compute") == 0) {
			scenario_dec__double(dec, v, field, &im->compute);
		} else if (strcmp(key, "memory") == 0) {
			scenario_dec__bytes(dec, v, field, &im->memory);
		}
	}
	if (im->manifests == NULL)
		scenario_dec__error(dec, node, "spec.workload.imported.manifests",
		                    "expected the files of the snapshot's Pods");
}

/* Loads the NULL-less array @paths into @set (errors at file:line:col). */
static void
load_paths(const GPtrArray *paths, K8sObjectSet *set, K8sDiagList *diags)
{
	g_autoptr(GPtrArray) list = g_ptr_array_new();

	for (guint i = 0; i < paths->len; i++)
		g_ptr_array_add(list, paths->pdata[i]);
	g_ptr_array_add(list, NULL);
	k8s_load_paths((const char *const *)list->pdata, K8S_LOAD_DEFAULT, set, diags);
}

/* Appends "N Kind" for each kind of @set that @keep rejects; returns the count. */
static guint
count_unused(const K8sObjectSet *set, gboolean (*keep)(K8sKind), GString *out, K8sPos *first)
{
	guint total = 0;

	for (K8sKind k = K8S_KIND_UNKNOWN + 1; k < K8S_KIND_COUNT_; k++) {
		guint n = k8s_object_set_count_kind(set, k);
		const K8sObject *o;

		if (n == 0 || keep(k))
			continue;
		o = k8s_object_set_get_kind(set, k, 0);
		if (total == 0)
			*first = o->pos;
		g_string_append_printf(out, "%s%u %s", total > 0 ? ", " : "", n, o->kind_name);
		total += n;
	}
	return total;
}

static gboolean
is_inventory(K8sKind kind)
{
	return kind == K8S_KIND_NODE || kind == K8S_KIND_RESOURCE_SLICE ||
	       kind == K8S_KIND_DEVICE_CLASS;
}

static gboolean
is_imported(K8sKind kind)
{
	return kind == K8S_KIND_POD;
}

static gboolean
not_inventory(K8sKind kind)
{
	return kind != K8S_KIND_NODE && kind != K8S_KIND_RESOURCE_SLICE;
}

/* Slices whose nodeName names no Node: one warning naming those nodes (sim/world infers them). */
static void
warn_inferred(const K8sObjectSet *set, K8sDiagList *diags)
{
	g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
	g_autoptr(GString) names = g_string_new(NULL);
	K8sPos pos = { 0 };

	for (guint i = 0; i < k8s_object_set_count_kind(set, K8S_KIND_RESOURCE_SLICE); i++) {
		const K8sResourceSlice *s = k8s_object_as_resource_slice(
		        k8s_object_set_get_kind((K8sObjectSet *)set, K8S_KIND_RESOURCE_SLICE, i));
		const char *node = s->spec.node_name;

		if (node == NULL || node[0] == '\0' ||
		    k8s_object_set_lookup(set, K8S_KIND_NODE, NULL, node) != NULL ||
		    !g_hash_table_add(seen, (gpointer)node))
			continue;
		if (names->len == 0)
			pos = s->spec.node_name_pos;
		g_string_append_printf(names, "%s%s", names->len > 0 ? ", " : "", node);
	}
	if (names->len > 0)
		k8s_diag_list_warning(
		        diags, &pos, "spec.nodeName",
		        "no Node object for %s: inferred from the ResourceSlices with "
		        "spec.cluster.nodeDefaults (unlimited CPU and memory when unset; "
		        "docs/import.md section 1)",
		        names->str);
}

/*
 * Loads spec.cluster.objects and spec.workload.imported.manifests, then warns
 * about what is not used where it was put (kinds drasim does not model at all
 * are the loader's own warnings, one per object).
 */
void
scenario_objects__load(Scenario *self, K8sDiagList *diags)
{
	g_autoptr(GString) list = g_string_new(NULL);
	K8sPos pos = { 0 };

	if (self->inventory_paths != NULL) {
		self->inventory = k8s_object_set_new();
		load_paths(self->inventory_paths, self->inventory, diags);
		warn_inferred(self->inventory, diags);
		if (count_unused(self->inventory, is_inventory, list, &pos) > 0)
			k8s_diag_list_warning(diags, &pos, "spec.cluster.objects",
			                      "not inventory, ignored: %s (spec.cluster.objects "
			                      "takes Nodes, ResourceSlices and DeviceClasses; Pods "
			                      "go under spec.workload.imported.manifests, claims "
			                      "and workloads under spec.workload.manifests)",
			                      list->str);
	}
	if (self->imported.manifests != NULL) {
		self->imported.objects = k8s_object_set_new();
		load_paths(self->imported.manifests, self->imported.objects, diags);
		g_string_truncate(list, 0);
		if (count_unused(self->imported.objects, is_imported, list, &pos) > 0)
			k8s_diag_list_warning(
			        diags, &pos, "spec.workload.imported.manifests",
			        "not Pods, ignored: %s (claims and workloads go under "
			        "spec.workload.manifests, Nodes and ResourceSlices "
			        "under spec.cluster.objects)",
			        list->str);
	}
	g_string_truncate(list, 0);
	if (count_unused(self->objects, not_inventory, list, &pos) > 0)
		k8s_diag_list_warning(diags, &pos, "spec.workload.manifests",
		                      "the manifests' %s are not the cluster and are ignored: "
		                      "put them under spec.cluster.objects (docs/import.md)",
		                      list->str);
}
