/*
 * plan_dir.c: the output folder of `drasim plan`: DIR/points/ holds every
 * run's report (written atomically by sim/sweep's executor, kept so an
 * interrupted plan resumes), DIR/plan-key.txt says which plan they belong
 * to (the scenario's path and content digest, the horizon), and plan.txt,
 * plan.json and plan.html are replaced atomically at the end. A folder
 * holding anything else is refused, so drasim never mixes its files with
 * someone else's, and points of another plan are never read as results.
 */
#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "base.h"
#include "plan.h"

static const char *const plan_files[] = { "points",    "plan-key.txt", "plan.txt",
	                                  "plan.json", "plan.html",    NULL };

/* Whether @name is one of ours, or an atomic write's leftover temporary file of one. */
static gboolean
is_plan_file(const char *name)
{
	for (guint i = 0; plan_files[i] != NULL; i++) {
		gsize n = strlen(plan_files[i]);

		if (strcmp(name, plan_files[i]) == 0 ||
		    (strncmp(name, plan_files[i], n) == 0 && g_str_has_prefix(name + n, ".tmp-")))
			return TRUE;
	}
	return FALSE;
}

static gboolean
check_entries(const char *dir, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(GDir) handle = g_dir_open(dir, 0, &local);
	const char *name;

	if (handle == NULL) {
		g_set_error(error, PLAN_ERROR, PLAN_ERROR_EVAL, "%s: cannot read: %s", dir,
		            local->message);
		return FALSE;
	}
	while ((name = g_dir_read_name(handle)) != NULL) {
		if (!is_plan_file(name)) {
			g_set_error(error, PLAN_ERROR, PLAN_ERROR_INPUT,
			            "%s holds %s, which drasim plan did not write: choose another "
			            "-o DIR (new, empty, or an earlier plan's)",
			            dir, name);
			return FALSE;
		}
	}
	return TRUE;
}

static char *
plan_key(const PlanSpec *spec, SimTime horizon, GError **error)
{
	g_autofree char *text = NULL;
	g_autofree char *digest = NULL;
	g_autofree char *absolute = g_canonicalize_filename(spec->scenario, NULL);
	gsize length;

	if (!base_read_file(spec->scenario, &text, &length, error)) {
		g_prefix_error(error, "%s: ", spec->scenario);
		return NULL;
	}
	digest = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, length);
	return g_strdup_printf("scenario: %s\nsha256: %s\nhorizon_us: %" G_GINT64_FORMAT "\n",
	                       absolute, digest, (gint64)horizon);
}

gboolean
plan_dir_prepare(const PlanSpec *spec, SimTime horizon, const char *dir, GError **error)
{
	g_autofree char *points = g_build_filename(dir, "points", NULL);
	g_autofree char *key_path = g_build_filename(dir, "plan-key.txt", NULL);
	g_autofree char *key = NULL;
	g_autofree char *old_key = NULL;

	if (g_file_test(dir, G_FILE_TEST_EXISTS) && !check_entries(dir, error))
		return FALSE;
	if ((key = plan_key(spec, horizon, error)) == NULL)
		return FALSE;
	if (base_read_file(key_path, &old_key, NULL, NULL) && strcmp(old_key, key) != 0) {
		g_set_error(error, PLAN_ERROR, PLAN_ERROR_INPUT,
		            "%s holds the points of another plan (the scenario, its text or the "
		            "horizon changed): remove %s or choose another -o DIR",
		            dir, points);
		return FALSE;
	}
	if (g_mkdir_with_parents(points, 0777) != 0) {
		g_set_error(error, PLAN_ERROR, PLAN_ERROR_EVAL, "%s: cannot create: %s", points,
		            g_strerror(errno));
		return FALSE;
	}
	if (old_key == NULL && !rpt_output_write_file(key_path, key, strlen(key), error))
		return FALSE;
	return TRUE;
}

gboolean
plan_dir_write(const RptPlan *plan, const char *dir, char **text_out, GError **error)
{
	static const struct {
		const char *name;
		char *(*write)(const RptPlan *plan);
	} outputs[] = { { "plan.json", rpt_plan_json_to_string },
		        { "plan.html", rpt_plan_html_to_string },
		        { "plan.txt", rpt_plan_text_to_string } };

	for (guint i = 0; i < G_N_ELEMENTS(outputs); i++) {
		g_autofree char *path = g_build_filename(dir, outputs[i].name, NULL);
		g_autofree char *text = outputs[i].write(plan);

		if (!rpt_output_write_file(path, text, strlen(text), error))
			return FALSE;
		if (text_out != NULL && i + 1 == G_N_ELEMENTS(outputs))
			*text_out = g_steal_pointer(&text);
	}
	return TRUE;
}
