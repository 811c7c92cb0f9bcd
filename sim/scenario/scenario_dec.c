/*
 * scenario_dec.c: the strict scalar and shape readers the scenario decoder
 * uses over model/api's positioned YAML tree. They are thin names for
 * model/api's strict reader face (k8s_yaml_read.h, over base_strict.h), which
 * every decoder of drasim's own files shares: every rejection is a diagnostic
 * FILE:LINE:COL with the field path and what was expected; an unknown key gets
 * the closest known key as a suggestion. Durations are read here, as SimTime
 * is the engine's.
 */
#include <string.h>

#include "k8s_yaml_read.h"
#include "scenario-private.h"

/* The shared reader over this decoder's file and diagnostics. */
#define READER(dec) (&(K8sYamlReader){ (dec)->file, (dec)->diags })

K8sPos
scenario_dec__pos(ScenarioDec *dec, const K8sYamlNode *node)
{
	return k8s_yaml_node_pos(node, dec->file);
}

void
scenario_dec__error(
        ScenarioDec *dec, const K8sYamlNode *node, const char *path, const char *format, ...)
{
	K8sPos pos = scenario_dec__pos(dec, node);
	va_list ap;

	va_start(ap, format);
	k8s_diag_list_addv(dec->diags, K8S_SEVERITY_ERROR, &pos, path, format, ap);
	va_end(ap);
}

gboolean
scenario_dec__map(ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	return k8s_yaml_read_map(READER(dec), node, path);
}

gboolean
scenario_dec__seq(ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	return k8s_yaml_read_seq(READER(dec), node, path);
}

gboolean
scenario_dec__check_keys(ScenarioDec *dec,
                         const K8sYamlNode *map,
                         const char *path,
                         const char *const *known)
{
	return k8s_yaml_read_keys(READER(dec), map, path, known, BASE_STRICT_HINT_CLOSEST);
}

char *
scenario_dec__string(ScenarioDec *dec, const K8sYamlNode *node, const char *path)
{
	return k8s_yaml_read_string(READER(dec), node, path);
}

gboolean
scenario_dec__uint(
        ScenarioDec *dec, const K8sYamlNode *node, const char *path, guint64 max, guint64 *out)
{
	return k8s_yaml_read_uint(READER(dec), node, path, max, out);
}

gboolean
scenario_dec__double(ScenarioDec *dec, const K8sYamlNode *node, const char *path, double *out)
{
	return k8s_yaml_read_double(READER(dec), node, path, out);
}

gboolean
scenario_dec__bool(ScenarioDec *dec, const K8sYamlNode *node, const char *path, gboolean *out)
{
	return k8s_yaml_read_bool(READER(dec), node, path, out);
}

gboolean
scenario_dec__choice(ScenarioDec *dec,
                     const K8sYamlNode *node,
                     const char *path,
                     const char *const *names,
                     guint n,
                     guint *out)
{
	g_autofree char *s = scenario_dec__string(dec, node, path);
	g_autoptr(GString) valid = g_string_new(NULL);

	if (s == NULL)
		return FALSE; /* not a string: scenario_dec__string said so */
	for (guint i = 0; i < n; i++) {
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return TRUE;
		}
		g_string_append_printf(valid, "%s%s",
		                       i == 0      ? ""
		                       : i + 1 < n ? ", "
		                                   : " or ",
		                       names[i]);
	}
	scenario_dec__error(dec, node, path, "expected %s, got \"%s\"", valid->str, s);
	return FALSE;
}

gboolean
scenario_dec__duration(ScenarioDec *dec, const K8sYamlNode *node, const char *path, SimTime *out)
{
	g_autoptr(GError) error = NULL;

	if (node->kind != K8S_YAML_SCALAR) {
		scenario_dec__error(dec, node, path,
		                    "expected a duration like 90s or 1h30m, got %s",
		                    k8s_yaml_node_type_name(node));
		return FALSE;
	}
	if (!sim_time_parse(node->scalar.text, out, &error)) {
		scenario_dec__error(dec, node, path, "expected a duration like 90s or 1h30m: %s",
		                    error->message);
		return FALSE;
	}
	if (*out < 0) {
		scenario_dec__error(dec, node, path, "expected a duration >= 0, got %s",
		                    node->scalar.text);
		return FALSE;
	}
	return TRUE;
}

gboolean
scenario_dec__rate(ScenarioDec *dec, const K8sYamlNode *node, const char *path, double *out)
{
	g_autofree char *message = NULL;

	if (node->kind != K8S_YAML_SCALAR) {
		scenario_dec__error(dec, node, path, "expected a rate: %s, got %s",
		                    WORKLOAD_RATE_FORMS, k8s_yaml_node_type_name(node));
		return FALSE;
	}
	if (!workload_rate_parse(node->scalar.text, out, &message)) {
		scenario_dec__error(dec, node, path, "%s", message);
		return FALSE;
	}
	return TRUE;
}

gboolean
scenario_dec__bytes(ScenarioDec *dec, const K8sYamlNode *node, const char *path, gint64 *out)
{
	return k8s_yaml_read_bytes(READER(dec), node, path, out);
}
