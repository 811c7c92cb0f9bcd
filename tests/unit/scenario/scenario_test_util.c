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

#include <cmocka.h>

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
