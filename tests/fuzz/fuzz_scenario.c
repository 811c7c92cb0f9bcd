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
#include "fuzz_k8s.h"
#include "scenario.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_fixture_text(data, size);

	if (text != NULL) {
		K8sDiagList *diags = k8s_diag_list_new();

		scenario_free(scenario_load_data(FUZZ_FIXTURE_DIR "/fuzz-scenario.yaml", text, size,
		                                 diags));
		fuzz_print_and_free_diags(diags);
		g_free(text);
	}
	return 0;
}
