/*
 * sweep_spec.c: a sweep as the user writes it (sweep.h's SweepSpec): the
 * kind: Sweep file, read as strictly as a scenario, and the command line's
 * `--vary PATH=V1,V2` and `--seeds 1-10`. Both end in the same few helpers, so
 * a path, a value and a seed list obey one set of rules whichever way they
 * came: a path must parse (k8s_yaml_path.h), a value must be one YAML value
 * and is kept as its canonical flow text (k8s_yaml_flow_text: it names cells
 * and CSV columns), no path or value is given twice, and the documented
 * bounds hold. What needs the scenario is sweep_spec_check()'s
 * (sweep_spec_check.c).
 */
#include <string.h>

#include "base.h"
#include "k8s_yaml_path.h"
#include "k8s_yaml_read.h"
#include "sweep_spec-private.h"

static void
param_clear(gpointer data)
{
	SweepParam *p = data;

	g_free(p->path);
	g_clear_pointer(&p->values, g_ptr_array_unref);
	g_clear_pointer(&p->value_pos, g_array_unref);
}

SweepSpec *
sweep_spec_new(const char *name, const char *scenario)
{
	SweepSpec *self = g_new0(SweepSpec, 1);

	self->name = g_strdup(name);
	self->scenario = g_strdup(scenario);
	self->params = g_array_new(FALSE, TRUE, sizeof(SweepParam));
	g_array_set_clear_func(self->params, param_clear);
	self->seeds = g_array_new(FALSE, FALSE, sizeof(guint64));
	return self;
}

void
sweep_spec_free(SweepSpec *self)
{
	if (self == NULL)
		return;
	g_free(self->file);
	g_free(self->name);
	g_free(self->scenario);
	g_array_unref(self->params);
	g_array_unref(self->seeds);
	g_free(self);
}

/* ---- what the file and the command line share --------------------------------------- */

SweepParam *
sweep_spec__add_param(SweepSpec *self, const char *path, K8sPos pos, char **message)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(K8sYamlPath) parsed = k8s_yaml_path_parse(path, &error);
	SweepParam p = { g_strdup(path), NULL, pos, NULL };

	if (parsed == NULL) {
		*message = g_strdup(error->message);
		g_free(p.path);
		return NULL;
	}
	for (guint i = 0; i < self->params->len; i++) {
		const SweepParam *q = &g_array_index(self->params, SweepParam, i);

		if (strcmp(q->path, path) == 0) {
			*message = g_strdup_printf("%s is varied twice (a parameter varies each "
			                           "path once; give it all its values)",
			                           path);
			g_free(p.path);
			return NULL;
		}
	}
	if (self->params->len == SWEEP_MAX_PARAMS) {
		*message = g_strdup_printf("more than %d parameters (a sweep varies at most %d)",
		                           SWEEP_MAX_PARAMS, SWEEP_MAX_PARAMS);
		g_free(p.path);
		return NULL;
	}
	p.values = g_ptr_array_new_with_free_func(g_free);
	p.value_pos = g_array_new(FALSE, FALSE, sizeof(K8sPos));
	g_array_append_val(self->params, p);
	return &g_array_index(self->params, SweepParam, self->params->len - 1);
}

gboolean
sweep_spec__add_value(SweepParam *param, const K8sYamlNode *value, K8sPos pos, char **message)
{
	g_autofree char *text = k8s_yaml_flow_text(value);

	for (guint i = 0; i < param->values->len; i++) {
		if (strcmp(param->values->pdata[i], text) == 0) {
			const K8sPos *first = &g_array_index(param->value_pos, K8sPos, i);

			if (first->line > 0)
				*message = g_strdup_printf("the value %s is given twice (first at "
				                           "line %u)",
				                           text, first->line);
			else
				*message = g_strdup_printf("the value %s is given twice", text);
			return FALSE;
		}
	}
	if (param->values->len == SWEEP_MAX_VALUES) {
		*message = g_strdup_printf("more than %d values (a parameter takes at most %d)",
		                           SWEEP_MAX_VALUES, SWEEP_MAX_VALUES);
		return FALSE;
	}
	g_ptr_array_add(param->values, g_steal_pointer(&text));
	g_array_append_val(param->value_pos, pos);
	return TRUE;
}

/* ---- the Sweep file ------------------------------------------------------------------ */

typedef struct {
	K8sYamlReader r;
	SweepSpec *spec;
	const char *dir; /* the Sweep file's folder: the scenario is relative to it */
} SpecDec;

static void
decode_param(SpecDec *d, const K8sYamlNode *node, const char *path)
{
	static const char *const known[] = { "path", "values", NULL };
	const K8sYamlNode *p = k8s_yaml_map_lookup(node, "path");
	const K8sYamlNode *values = k8s_yaml_map_lookup(node, "values");
	g_autofree char *field = g_strdup_printf("%s.path", path);
	g_autofree char *text = NULL;
	g_autofree char *message = NULL;
	SweepParam *param;

	if (!k8s_yaml_read_map(&d->r, node, path) ||
	    !k8s_yaml_read_keys(&d->r, node, path, known, BASE_STRICT_HINT_CLOSEST))
		return;
	if (p == NULL || values == NULL) {
		k8s_yaml_read_error(&d->r, node, path,
		                    "expected a path and its values, like {path: "
		                    "spec.cluster.nodePools[0].count, values: [2, 3, 4]}");
		return;
	}
	if ((text = k8s_yaml_read_string(&d->r, p, field)) == NULL)
		return;
	param = sweep_spec__add_param(d->spec, text, k8s_yaml_node_pos(p, d->r.file), &message);
	if (param == NULL) {
		k8s_yaml_read_error(&d->r, p, field, "%s", message);
		return;
	}
	g_free(field);
	field = g_strdup_printf("%s.values", path);
	if (!k8s_yaml_read_seq(&d->r, values, field))
		return;
	if (values->seq.n == 0)
		k8s_yaml_read_error(&d->r, values, field, "expected at least one value");
	for (guint i = 0; i < values->seq.n; i++) {
		const K8sYamlNode *v = values->seq.items[i];

		g_clear_pointer(&message, g_free);
		if (!sweep_spec__add_value(param, v, k8s_yaml_node_pos(v, d->r.file), &message)) {
			g_autofree char *item = g_strdup_printf("%s[%u]", field, i);

			k8s_yaml_read_error(&d->r, v, item, "%s", message);
			if (param->values->len == SWEEP_MAX_VALUES)
				break;
		}
	}
}

/* spec.seeds: 7, "1-10", "1-5,9", or a list of those. */
static void
decode_seeds(SpecDec *d, const K8sYamlNode *node)
{
	g_autoptr(GString) text = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	const K8sYamlNode *const *items = &node;
	guint n = 1;

	if (node->kind == K8S_YAML_SEQUENCE) {
		items = (const K8sYamlNode *const *)node->seq.items;
		n = node->seq.n;
	}
	for (guint i = 0; i < n; i++) {
		K8sYamlType t = items[i]->kind == K8S_YAML_SCALAR ? k8s_yaml_scalar_type(items[i])
		                                                  : K8S_YAML_TYPE_NULL;

		if (t != K8S_YAML_TYPE_INT && t != K8S_YAML_TYPE_STRING) {
			k8s_yaml_read_error(
			        &d->r, items[i], "spec.seeds",
			        "expected seeds like 1-10, 7, \"1-5,9\" or [1, 2, 3], got "
			        "%s",
			        k8s_yaml_node_type_name(items[i]));
			return;
		}
		g_string_append_printf(text, "%s%s", i > 0 ? "," : "", items[i]->scalar.text);
	}
	if (!sweep_seeds_parse(text->str, d->spec->seeds, &error))
		k8s_yaml_read_error(&d->r, node, "spec.seeds", "%s", error->message);
}

static void
decode_scenario(SpecDec *d, const K8sYamlNode *node)
{
	g_autofree char *text = k8s_yaml_read_string(&d->r, node, "spec.scenario");

	if (text == NULL)
		return;
	g_free(d->spec->scenario);
	d->spec->scenario = g_canonicalize_filename(text, d->dir);
	if (!g_file_test(d->spec->scenario, G_FILE_TEST_IS_REGULAR))
		k8s_yaml_read_error(&d->r, node, "spec.scenario",
		                    "no scenario file at %s (a path is relative to the Sweep file)",
		                    d->spec->scenario);
}

static void
decode_horizon(SpecDec *d, const K8sYamlNode *node)
{
	g_autoptr(GError) error = NULL;

	if (node->kind != K8S_YAML_SCALAR ||
	    !sim_time_parse(node->scalar.text, &d->spec->horizon, &error) ||
	    d->spec->horizon <= 0) {
		k8s_yaml_read_error(&d->r, node, "spec.horizon",
		                    "expected a duration > 0 like 1d or 12h, got %s",
		                    node->kind == K8S_YAML_SCALAR ? node->scalar.text
		                                                  : k8s_yaml_node_type_name(node));
		d->spec->horizon = 0;
	}
}

static void
decode_spec(SpecDec *d, const K8sYamlNode *spec)
{
	static const char *const known[] = { "scenario", "seeds", "horizon", "parameters", NULL };
	const K8sYamlNode *v;

	if (!k8s_yaml_read_map(&d->r, spec, "spec"))
		return;
	k8s_yaml_read_keys(&d->r, spec, "spec", known, BASE_STRICT_HINT_CLOSEST);
	if ((v = k8s_yaml_map_lookup(spec, "scenario")) != NULL)
		decode_scenario(d, v);
	else
		k8s_yaml_read_error(&d->r, spec, "spec.scenario",
		                    "expected the scenario file to sweep (relative to this file)");
	if ((v = k8s_yaml_map_lookup(spec, "seeds")) != NULL)
		decode_seeds(d, v);
	else
		k8s_yaml_read_error(&d->r, spec, "spec.seeds",
		                    "expected the seeds each cell runs with, like 1-10");
	if ((v = k8s_yaml_map_lookup(spec, "horizon")) != NULL)
		decode_horizon(d, v);
	if ((v = k8s_yaml_map_lookup(spec, "parameters")) != NULL &&
	    k8s_yaml_read_seq(&d->r, v, "spec.parameters")) {
		for (guint i = 0; i < v->seq.n; i++) {
			g_autofree char *path = g_strdup_printf("spec.parameters[%u]", i);

			decode_param(d, v->seq.items[i], path);
		}
	}
}

static void
decode_envelope(SpecDec *d, const K8sYamlNode *root)
{
	static const char *const known[] = { "apiVersion", "kind", "metadata", "spec", NULL };
	static const char *const meta_known[] = { "name", NULL };
	const K8sYamlNode *v;

	if (!k8s_yaml_read_map(&d->r, root, ""))
		return;
	k8s_yaml_read_keys(&d->r, root, "", known, BASE_STRICT_HINT_CLOSEST);
	v = k8s_yaml_map_lookup(root, "apiVersion");
	if (v == NULL || v->kind != K8S_YAML_SCALAR ||
	    strcmp(v->scalar.text, "drasim.io/v1alpha1") != 0)
		k8s_yaml_read_error(&d->r, v != NULL ? v : root, "apiVersion",
		                    "expected apiVersion drasim.io/v1alpha1");
	v = k8s_yaml_map_lookup(root, "kind");
	if (v == NULL || v->kind != K8S_YAML_SCALAR || strcmp(v->scalar.text, "Sweep") != 0)
		k8s_yaml_read_error(&d->r, v != NULL ? v : root, "kind", "expected kind Sweep");
	v = k8s_yaml_map_lookup(root, "metadata");
	if (v != NULL && k8s_yaml_read_map(&d->r, v, "metadata") &&
	    k8s_yaml_read_keys(&d->r, v, "metadata", meta_known, BASE_STRICT_HINT_CLOSEST) &&
	    k8s_yaml_map_lookup(v, "name") != NULL) {
		g_free(d->spec->name);
		d->spec->name = k8s_yaml_read_string(&d->r, k8s_yaml_map_lookup(v, "name"),
		                                     "metadata.name");
	}
	if (d->spec->name == NULL)
		k8s_yaml_read_error(&d->r, v != NULL ? v : root, "metadata.name",
		                    "expected a name for the sweep");
	if ((v = k8s_yaml_map_lookup(root, "spec")) != NULL)
		decode_spec(d, v);
	else
		k8s_yaml_read_error(&d->r, root, "spec", "expected a spec");
}

/* Decodes the Sweep document @data (NULL: read @path); @path names it in
 * positions, and the scenario it names is relative to @path's folder. */
static SweepSpec *
load_spec(const char *path, const char *data, gsize len, K8sDiagList *diags)
{
	/* interned: positions in the spec (and in copies of it) outlive this call */
	const char *file = g_intern_string(path);
	g_autoptr(SweepSpec) spec = sweep_spec_new(NULL, NULL);
	g_autoptr(BaseArena) arena = base_arena_new();
	GStringChunk *strings = g_string_chunk_new(1024);
	g_autofree char *absolute = g_canonicalize_filename(path, NULL);
	g_autofree char *dir = g_path_get_dirname(absolute);
	g_autofree char *read = NULL;
	g_autoptr(GError) error = NULL;
	guint before = k8s_diag_list_count_errors(diags);
	SpecDec d = { { file, diags }, spec, dir };
	K8sYamlFile doc = { 0 };

	spec->file = g_strdup(path);
	spec->pos = (K8sPos){ file, 1, 1 };
	if (data == NULL && !base_read_file(path, &read, &len, &error)) {
		K8sPos pos = { file, 0, 0 };

		k8s_diag_list_error(diags, &pos, "", "cannot read the sweep: %s", error->message);
	} else if (k8s_yaml_parse(&(K8sYamlInput){ file, data != NULL ? data : read, len, arena,
	                                           strings, diags },
	                          &doc)) {
		if (doc.n_docs != 1)
			k8s_diag_list_error(diags, &spec->pos, "",
			                    "expected exactly one Sweep document, got %u",
			                    doc.n_docs);
		else
			decode_envelope(&d, doc.docs[0].root);
	}
	g_string_chunk_free(strings);
	if (k8s_diag_list_count_errors(diags) > before)
		return NULL;
	return g_steal_pointer(&spec);
}

SweepSpec *
sweep_spec_load(const char *path, K8sDiagList *diags)
{
	return load_spec(path, NULL, 0, diags);
}

SweepSpec *
sweep_spec_load_data(const char *path, const char *data, gsize len, K8sDiagList *diags)
{
	return load_spec(path, data, len, diags);
}
