/*
 * scenario_test_util.c: the scenario unit tests' shared scaffolding (see the
 * header). Failures go through cmocka, so a broken fixture fails the test
 * that used it.
 */
#include "scenario_test_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib/gstdio.h>

#include "measure.h"

char *
scenario_test_data_path(const char *name)
{
	return g_build_filename(DRASIM_TEST_DATA, name, NULL);
}

static ScenarioResult *
run_mode(const char *file, const char *mode_name, gboolean journal)
{
	g_autofree char *path = scenario_test_data_path(file);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = scenario_load(path, diags);
	g_autoptr(GError) error = NULL;
	const ScenarioMode *mode;
	ScenarioResult *r;

	if (sc == NULL)
		k8s_diag_list_print(diags, stderr);
	assert_non_null(sc);
	sc->journal = journal;
	mode = scenario_lookup_mode(sc, mode_name);
	assert_non_null(mode);
	r = scenario_run(sc, mode, 0, 0, NULL, NULL, diags, &error);
	if (r == NULL) {
		k8s_diag_list_print(diags, stderr);
		fail_msg("%s", error->message);
	}
	return r;
}

ScenarioResult *
scenario_test_run_mode(const char *file, const char *mode_name)
{
	return run_mode(file, mode_name, FALSE);
}

ScenarioResult *
scenario_test_run_journal(const char *file, const char *mode_name)
{
	ScenarioResult *r = run_mode(file, mode_name, TRUE);

	assert_non_null(r->journal);
	return r;
}

void
scenario_test_expect_error(const char *text, const char *needle)
{
	g_autofree char *dir = g_dir_make_tmp("scenario-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "s.yaml", NULL);
	g_autoptr(K8sDiagList) diags = k8s_diag_list_new();
	g_autoptr(Scenario) sc = NULL;
	g_autofree char *all = NULL;
	GString *buf = g_string_new(NULL);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	sc = scenario_load(path, diags);
	g_unlink(path);
	g_rmdir(dir);
	for (guint i = 0; i < k8s_diag_list_count(diags); i++) {
		g_autofree char *line = k8s_diag_format(k8s_diag_list_get(diags, i));

		g_string_append_printf(buf, "%s\n", line);
	}
	all = g_string_free(buf, FALSE);
	if (sc != NULL || strstr(all, needle) == NULL)
		fail_msg("expected \"%s\" in:\n%s", needle, all);
}

const ScenarioPodRecord *
scenario_test_pod_record(const ScenarioResult *r, const char *name, guint *index)
{
	for (guint i = 0; i < r->pod_records->len; i++) {
		const ScenarioPodRecord *p = &g_array_index(r->pod_records, ScenarioPodRecord, i);

		if (strcmp(p->name, name) == 0) {
			if (index != NULL)
				*index = i;
			return p;
		}
	}
	fail_msg("no pod %s", name);
	abort(); /* fail_msg does not return; this tells the compiler (-Wnull-dereference) */
}

const char *
scenario_test_devices(const ScenarioResult *r, const char *name)
{
	guint i = 0;
	const char *list;

	scenario_test_pod_record(r, name, &i);
	list = scenario_sample__get_pod_devices(r->sampler, i);
	assert_non_null(list);
	return list;
}

const ScenarioReason *
scenario_test_find_reason(const ScenarioResult *r, const char *name)
{
	for (guint i = 0; i < r->reasons->len; i++) {
		const ScenarioReason *why = g_ptr_array_index(r->reasons, i);

		if (strcmp(why->pod, name) == 0)
			return why;
	}
	return NULL;
}

const ScenarioReason *
scenario_test_pod_reason(const ScenarioResult *r, const char *name)
{
	const ScenarioReason *why = scenario_test_find_reason(r, name);

	if (why == NULL) {
		fail_msg("no reason for pod %s", name);
		abort(); /* fail_msg does not return; this tells the compiler */
	}
	return why;
}
