/*
 * fuzz_sweep.c: libFuzzer target for sweep files, as `drasim sweep` reads them before
 * anything runs.
 *
 * The input is decoded with sweep_spec_load_data() (the buffer face of sweep_spec_load())
 * as the file tests/fuzz/fixture/fuzz-sweep.yaml, so `scenario: scenario.yaml` names the
 * fixture's scenario; then, as the command does, sweep_spec_check() puts each parameter
 * value into that scenario and sweep_manifest_new() expands the grid of runs. Inputs that
 * could name a file outside the fixture are skipped (fuzz.h says why).
 */
#include "fuzz.h"
#include "k8s_diag.h"
#include "sweep.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	char *text = fuzz_text(data, size);

	if (!fuzz_names_outside_fixture(text, size)) {
		K8sDiagList *diags = k8s_diag_list_new();
		SweepSpec *spec = sweep_spec_load_data(FUZZ_FIXTURE_DIR "/fuzz-sweep.yaml", text,
		                                       size, diags);

		if (spec != NULL && sweep_spec_check(spec, diags)) {
			GError *error = NULL;
			SweepManifest *manifest = sweep_manifest_new(spec, &error);

			g_clear_error(&error);
			if (manifest != NULL)
				sweep_manifest_free(manifest);
		}
		for (guint i = 0; i < k8s_diag_list_count(diags); i++)
			g_free(k8s_diag_format(k8s_diag_list_get(diags, i)));
		if (spec != NULL)
			sweep_spec_free(spec);
		k8s_diag_list_free(diags);
	}
	g_free(text);
	return 0;
}
