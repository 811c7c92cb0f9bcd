/*
 * fuzz_scenario.c: libFuzzer target for scenario files, as `drasim run` reads them.
 *
 * The input is decoded with scenario_load_data() (the buffer face of scenario_load()) as
 * the file tests/fuzz/fixture/fuzz-scenario.yaml, so the manifests, trace and catalog
 * files it names resolve in that folder; the decoder, the manifests it loads, the trace
 * reader, the catalog and the what-if checks see fuzzed values. Inputs that could name a
 * file outside the fixture are skipped (fuzz.h says why).
 */
#include "fuzz.h"
#include "k8s_diag.h"
#include "scenario.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	char *text = fuzz_text(data, size);

	if (!fuzz_names_outside_fixture(text, size)) {
		K8sDiagList *diags = k8s_diag_list_new();
		Scenario *scenario = scenario_load_data(FUZZ_FIXTURE_DIR "/fuzz-scenario.yaml",
		                                        text, size, diags);

		for (guint i = 0; i < k8s_diag_list_count(diags); i++)
			g_free(k8s_diag_format(k8s_diag_list_get(diags, i)));
		scenario_free(scenario);
		k8s_diag_list_free(diags);
	}
	g_free(text);
	return 0;
}
