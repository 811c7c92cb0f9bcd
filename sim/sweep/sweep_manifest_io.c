/*
 * sweep_manifest_io.c: the manifest as DIR/sweep-manifest.json. Saving into
 * a folder that already holds one is how a sweep resumes: the same sweep
 * (byte-equal manifest) goes on where it stopped, another one is refused,
 * and a folder that is not a sweep's is never written into (it may hold the
 * user's files).
 */
#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "base.h"
#include "rpt.h"
#include "sweep-private.h"

static cJSON *
params_to_json(const SweepSpec *spec)
{
	cJSON *params = cJSON_CreateArray();

	for (guint i = 0; i < spec->params->len; i++) {
		const SweepParam *p = &g_array_index(spec->params, SweepParam, i);
		cJSON *item = cJSON_CreateObject();
		cJSON *values = cJSON_CreateArray();

		cJSON_AddStringToObject(item, "path", p->path);
		for (guint v = 0; v < p->values->len; v++)
			cJSON_AddItemToArray(values, cJSON_CreateString(p->values->pdata[v]));
		cJSON_AddItemToObject(item, "values", values);
		cJSON_AddItemToArray(params, item);
	}
	return params;
}

/* Seeds are strings: a JSON number holds only 53 bits. */
static char *
manifest_to_string(const SweepManifest *self)
{
	const SweepSpec *spec = sweep_manifest_get_spec(self);
	g_autoptr(cJSON) root = cJSON_CreateObject();
	cJSON *seeds = cJSON_CreateArray();
	char *text, *out;

	cJSON_AddStringToObject(root, "schema", SWEEP_MANIFEST_SCHEMA);
	cJSON_AddStringToObject(root, "name", spec->name);
	cJSON_AddStringToObject(root, "scenario", spec->scenario);
	if (spec->file != NULL)
		cJSON_AddStringToObject(root, "sweep_file", spec->file);
	cJSON_AddNumberToObject(root, "horizon_us", (double)spec->horizon);
	cJSON_AddItemToObject(root, "parameters", params_to_json(spec));
	for (guint i = 0; i < spec->seeds->len; i++) {
		char seed[32];

		g_snprintf(seed, sizeof seed, "%" G_GUINT64_FORMAT,
		           g_array_index(spec->seeds, guint64, i));
		cJSON_AddItemToArray(seeds, cJSON_CreateString(seed));
	}
	cJSON_AddItemToObject(root, "seeds", seeds);
	text = cJSON_Print(root);
	out = g_strconcat(text, "\n", NULL);
	cJSON_free(text);
	return out;
}

/* A folder drasim may start a sweep in: missing, or empty. */
static gboolean
folder_is_new(const char *dir, GError **error)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);

	if (d == NULL)
		return TRUE;
	if (g_dir_read_name(d) == NULL)
		return TRUE;
	g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_RESUME,
	            "%s is not empty and holds no sweep (no %s): a sweep is written into a new or "
	            "empty folder, or resumes the sweep already in it; choose another -o DIR",
	            dir, SWEEP_MANIFEST_FILE);
	return FALSE;
}

gboolean
sweep_manifest_save(const SweepManifest *self, const char *dir, GError **error)
{
	g_autofree char *path = g_build_filename(dir, SWEEP_MANIFEST_FILE, NULL);
	g_autofree char *text = manifest_to_string(self);
	g_autofree char *cells = g_build_filename(dir, "cells", NULL);
	g_autofree char *old = NULL;
	gsize len;

	if (g_file_test(path, G_FILE_TEST_EXISTS)) {
		if (!base_read_file(path, &old, &len, error))
			return FALSE;
		if (strcmp(old, text) == 0)
			return TRUE;
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_RESUME,
		            "%s holds another sweep (its %s differs from this one's: scenario, "
		            "parameters, values, seeds or horizon); resume it with the same "
		            "arguments, or choose another -o DIR",
		            dir, SWEEP_MANIFEST_FILE);
		return FALSE;
	}
	if (!folder_is_new(dir, error))
		return FALSE;
	if (g_mkdir_with_parents(cells, 0777) != 0) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_IO, "%s: cannot create: %s", cells,
		            g_strerror(errno));
		return FALSE;
	}
	return rpt_output_write_file(path, text, strlen(text), error);
}

static gboolean
param_from_json(const cJSON *item, SweepParam *p)
{
	const cJSON *path = cJSON_GetObjectItemCaseSensitive(item, "path");
	const cJSON *values = cJSON_GetObjectItemCaseSensitive(item, "values");
	const cJSON *v;

	if (!cJSON_IsString(path) || !cJSON_IsArray(values))
		return FALSE;
	p->path = g_strdup(path->valuestring);
	p->values = g_ptr_array_new_with_free_func(g_free);
	p->value_pos = g_array_new(FALSE, TRUE, sizeof(K8sPos));
	cJSON_ArrayForEach(v, values)
	{
		if (!cJSON_IsString(v))
			return FALSE;
		g_ptr_array_add(p->values, g_strdup(v->valuestring));
	}
	return TRUE;
}

static gboolean
seeds_from_json(const cJSON *seeds, GArray *out)
{
	const cJSON *s;

	if (!cJSON_IsArray(seeds))
		return FALSE;
	cJSON_ArrayForEach(s, seeds)
	{
		guint64 seed;

		if (!cJSON_IsString(s) ||
		    !g_ascii_string_to_unsigned(s->valuestring, 10, 1, G_MAXUINT64, &seed, NULL))
			return FALSE;
		g_array_append_val(out, seed);
	}
	return TRUE;
}

static SweepSpec *
spec_from_json(const cJSON *root)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
	const cJSON *scenario = cJSON_GetObjectItemCaseSensitive(root, "scenario");
	const cJSON *file = cJSON_GetObjectItemCaseSensitive(root, "sweep_file");
	const cJSON *horizon = cJSON_GetObjectItemCaseSensitive(root, "horizon_us");
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(root, "parameters");
	const cJSON *item;
	g_autoptr(SweepSpec) spec = NULL;

	if (!cJSON_IsString(name) || !cJSON_IsString(scenario) || !cJSON_IsNumber(horizon) ||
	    !cJSON_IsArray(params))
		return NULL;
	spec = sweep_spec_new(name->valuestring, scenario->valuestring);
	if (cJSON_IsString(file))
		spec->file = g_strdup(file->valuestring);
	spec->horizon = (SimTime)horizon->valuedouble;
	cJSON_ArrayForEach(item, params)
	{
		SweepParam p = { 0 };
		gboolean ok = param_from_json(item, &p);

		g_array_append_val(spec->params, p);
		if (!ok)
			return NULL;
	}
	if (!seeds_from_json(cJSON_GetObjectItemCaseSensitive(root, "seeds"), spec->seeds))
		return NULL;
	return g_steal_pointer(&spec);
}

SweepManifest *
sweep_manifest_load(const char *dir, GError **error)
{
	g_autofree char *path = g_build_filename(dir, SWEEP_MANIFEST_FILE, NULL);
	g_autofree char *text = NULL;
	g_autoptr(cJSON) root = NULL;
	g_autoptr(SweepSpec) spec = NULL;
	const cJSON *schema;
	gsize len;

	if (!base_read_file(path, &text, &len, error)) {
		g_prefix_error(error, "%s is not a sweep folder: ", dir);
		return NULL;
	}
	if (!base_json_check_depth(path, text, len, error))
		return NULL;
	root = cJSON_ParseWithLength(text, len);
	schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	if (!cJSON_IsString(schema) || strcmp(schema->valuestring, SWEEP_MANIFEST_SCHEMA) != 0 ||
	    (spec = spec_from_json(root)) == NULL) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_IO,
		            "%s: not a %s manifest (written by another drasim version, or damaged)",
		            path, SWEEP_MANIFEST_SCHEMA);
		return NULL;
	}
	return sweep_manifest_new(spec, error);
}
