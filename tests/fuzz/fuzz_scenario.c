/*
 * fuzz_scenario.c: libFuzzer target for scenario files, as `drasim run` reads and runs them.
 *
 * The input is decoded with scenario_load_data() (the buffer face of scenario_load()) as
 * the file tests/fuzz/fixture/fuzz-scenario.yaml, so the manifests, trace and catalog
 * files it names resolve in that folder; the decoder, the manifests it loads, the trace
 * reader, the catalog and the what-if checks see fuzzed values. Inputs that could name a
 * file outside the fixture are skipped (fuzz.h says why). A scenario that loads is then
 * run, every mode, and its report built and written as JSON, so the run model (world,
 * cluster, scheduler, allocator, measures) sees fuzzed scenarios too. The runs are kept
 * small by drasim's own bounds, lowered here (docs/scenario.md "Limits"), and a short
 * horizon: a run that exceeds them ends with the bound's error, which is no finding.
 */
#include "base.h"
#include "fuzz.h"
#include "fuzz_k8s.h"
#include "measure.h"
#include "rpt.h"
#include "scenario.h"
#include "world.h"

/* Big enough for a few pools, a trace and queueing; small enough for many runs a second. */
#define FUZZ_RUN_PODS    64
#define FUZZ_RUN_NODES   16
#define FUZZ_RUN_SAMPLES 20000
#define FUZZ_RUN_HORIZON (2 * SIM_TIME_HOUR)

static void
run_every_mode(const Scenario *sc, K8sDiagList *diags)
{
	g_autoptr(GPtrArray) results =
	        g_ptr_array_new_with_free_func((GDestroyNotify)scenario_result_free);
	SimTime horizon = sc->horizon > 0 ? MIN(sc->horizon, FUZZ_RUN_HORIZON) : FUZZ_RUN_HORIZON;
	RptReport *report;

	for (guint i = 0; i < sc->modes->len; i++) {
		const ScenarioMode *mode = &g_array_index(sc->modes, ScenarioMode, i);
		g_autoptr(GError) error = NULL;
		ScenarioResult *r =
		        scenario_run(sc, mode, sc->seed, horizon, NULL, NULL, diags, &error);

		if (r == NULL)
			return; /* an input error: the run refused to start */
		g_ptr_array_add(results, r);
	}
	report = scenario_report_build(sc, (ScenarioResult *const *)results->pdata, results->len);
	g_free(rpt_json_to_string(report));
	rpt_report_free(report);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_fixture_text(data, size);

	base_limit_set(BASE_LIMIT_PODS, FUZZ_RUN_PODS);
	base_limit_set(BASE_LIMIT_NODES, FUZZ_RUN_NODES);
	base_limit_set(BASE_LIMIT_SAMPLES, FUZZ_RUN_SAMPLES);
	if (text != NULL) {
		K8sDiagList *diags = k8s_diag_list_new();
		Scenario *sc = scenario_load_data(FUZZ_FIXTURE_DIR "/fuzz-scenario.yaml", text,
		                                  size, diags);

		if (sc != NULL)
			run_every_mode(sc, diags);
		scenario_free(sc);
		fuzz_print_and_free_diags(diags);
		g_free(text);
	}
	return 0;
}
