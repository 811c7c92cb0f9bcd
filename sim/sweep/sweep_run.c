/*
 * sweep_run.c: one run of a sweep, in the calling process: the scenario
 * with the run's overrides, every mode, the run's seed; its report (or its
 * error) written atomically into its own folder under cells/, so a report
 * that is there is whole, and a run killed midway leaves nothing that reads
 * as a result. The wall time goes to a file of its own, never into results.
 */
#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "base.h"
#include "sweep-private.h"
#include "world.h"

char *
sweep_run__file(const char *cells_dir, const SweepRun *run, const char *name)
{
	return g_build_filename(cells_dir, run->id, name, NULL);
}

gboolean
sweep_run__done(const char *cells_dir, const SweepRun *run)
{
	g_autofree char *path = sweep_run__file(cells_dir, run, SWEEP_REPORT_FILE);

	return g_file_test(path, G_FILE_TEST_IS_REGULAR);
}

double
sweep_run__seconds(const char *cells_dir, const SweepRun *run)
{
	g_autofree char *path = sweep_run__file(cells_dir, run, SWEEP_SECONDS_FILE);
	g_autofree char *text = NULL;

	if (!base_read_file(path, &text, NULL, NULL))
		return 0;
	return g_ascii_strtod(text, NULL);
}

static void
write_or_warn(const char *path, const char *text)
{
	g_autoptr(GError) error = NULL;

	if (!rpt_output_write_file(path, text, strlen(text), &error))
		g_printerr("drasim: %s\n", error->message);
}

void
sweep_run__record_error(const char *cells_dir, const SweepRun *run, const char *message)
{
	g_autofree char *path = sweep_run__file(cells_dir, run, SWEEP_ERROR_FILE);
	g_autofree char *text = g_str_has_suffix(message, "\n") ? g_strdup(message)
	                                                        : g_strconcat(message, "\n", NULL);

	write_or_warn(path, text);
}

static char *
diags_to_string(K8sDiagList *diags)
{
	GString *out = g_string_new(NULL);

	k8s_diag_list_sort(diags);
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		g_autofree char *line = k8s_diag_format(k8s_diag_list_get(diags, i));

		g_string_append_printf(out, "%s\n", line);
	}
	return g_string_free(out, FALSE);
}

/* Every mode of @sc with the run's seed; NULL with the diagnostics in @diags and @error. */
static RptReport *
run_modes(const Scenario *sc,
          SimTime horizon,
          const SweepRun *run,
          K8sDiagList *diags,
          GError **error)
{
	g_autoptr(GPtrArray) results =
	        g_ptr_array_new_with_free_func((GDestroyNotify)scenario_result_free);

	for (guint i = 0; i < sc->modes->len; i++) {
		const ScenarioMode *m = &g_array_index(sc->modes, ScenarioMode, i);
		ScenarioResult *r =
		        scenario_run(sc, m, run->seed, horizon, NULL, NULL, diags, error);

		if (r == NULL) {
			g_prefix_error(error, "mode %s: ", m->name);
			return NULL;
		}
		g_ptr_array_add(results, r);
	}
	return scenario_report_build(sc, (ScenarioResult *const *)results->pdata, results->len);
}

/* The run's folder, made if missing; a stale error.txt of an earlier attempt goes. */
static gboolean
prepare_folder(const char *cells_dir, const SweepRun *run, GError **error)
{
	g_autofree char *dir = g_build_filename(cells_dir, run->id, NULL);
	g_autofree char *stale = sweep_run__file(cells_dir, run, SWEEP_ERROR_FILE);

	if (g_mkdir_with_parents(dir, 0777) != 0) {
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_IO, "%s: cannot create: %s", dir,
		            g_strerror(errno));
		return FALSE;
	}
	g_unlink(stale);
	return TRUE;
}

static gboolean
write_report(const char *cells_dir,
             const SweepRun *run,
             const char *name,
             const RptReport *report,
             GError **error)
{
	g_autofree char *path = sweep_run__file(cells_dir, run, name);
	g_autofree char *json = rpt_json_to_string(report);

	return rpt_output_write_file(path, json, strlen(json), error);
}

static gboolean
run_and_write(const char *scenario,
              SimTime horizon,
              const SweepRun *run,
              const char *cells_dir,
              GError **error)
{
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc =
	        scenario_load_with(scenario, run->overrides, run->n_overrides, diags);
	g_autoptr(RptReport) report = NULL;
	g_autoptr(RptReport) summary = NULL;
	g_autoptr(GError) run_error = NULL;

	if (sc != NULL)
		report = run_modes(sc, horizon, run, diags, &run_error);
	if (report == NULL) {
		g_autofree char *text = diags_to_string(diags);
		g_autofree char *message =
		        g_strconcat(text, run_error != NULL ? run_error->message : "", NULL);

		sweep_run__record_error(cells_dir, run, message);
		g_set_error(error, SWEEP_ERROR, SWEEP_ERROR_RUN, "%s failed", run->id);
		return FALSE;
	}
	summary = rpt_report_copy_summary(report);
	if (k8s_diag_list_count(diags) > 0) {
		g_autofree char *warnings = sweep_run__file(cells_dir, run, "warnings.txt");
		g_autofree char *text = diags_to_string(diags);

		write_or_warn(warnings, text);
	}
	/* The summary first: report.json is what marks the run done. */
	return write_report(cells_dir, run, SWEEP_SUMMARY_FILE, summary, error) &&
	       write_report(cells_dir, run, SWEEP_REPORT_FILE, report, error);
}

gboolean
sweep_run_one(const char *scenario,
              SimTime horizon,
              const SweepRun *run,
              const char *cells_dir,
              GError **error)
{
	gint64 start = g_get_monotonic_time();
	g_autofree char *seconds_path = NULL;
	char seconds[G_ASCII_DTOSTR_BUF_SIZE + 1];
	gboolean ok;

	if (!prepare_folder(cells_dir, run, error))
		return FALSE;
	ok = run_and_write(scenario, horizon, run, cells_dir, error);
	/* The wall clock is read here, around the run, never inside it. */
	g_ascii_formatd(seconds, sizeof seconds - 1, "%.6f",
	                (double)(g_get_monotonic_time() - start) / 1e6);
	strcat(seconds, "\n");
	seconds_path = sweep_run__file(cells_dir, run, SWEEP_SECONDS_FILE);
	write_or_warn(seconds_path, seconds);
	return ok;
}

RptReport *
sweep_run_load(const char *cells_dir, const SweepRun *run, char **error_text)
{
	g_autofree char *report = sweep_run__file(cells_dir, run, SWEEP_REPORT_FILE);
	g_autofree char *summary = sweep_run__file(cells_dir, run, SWEEP_SUMMARY_FILE);
	g_autofree char *failed = sweep_run__file(cells_dir, run, SWEEP_ERROR_FILE);
	g_autoptr(GError) error = NULL;
	RptReport *loaded;
	char *text = NULL;

	if (!g_file_test(report, G_FILE_TEST_EXISTS)) {
		if (error_text != NULL)
			*error_text = base_read_file(failed, &text, NULL, NULL)
			                      ? g_strchomp(text)
			                      : g_strdup("not run");
		return NULL;
	}
	/* A folder without the summary (written by hand, or pruned) still merges, slower. */
	loaded = rpt_json_load(g_file_test(summary, G_FILE_TEST_EXISTS) ? summary : report, &error);
	if (loaded == NULL && error_text != NULL)
		*error_text = g_strdup(error->message);
	return loaded;
}
