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
#include "fuzz_k8s.h"
#include "sweep.h"

/* What `drasim sweep` does before it runs anything. */
static void
check_and_expand(const SweepSpec *spec, K8sDiagList *diags)
{
	GError *error = NULL;
	SweepManifest *manifest;

	if (!sweep_spec_check(spec, diags))
		return;
	manifest = sweep_manifest_new(spec, &error);
	g_clear_error(&error);
	if (manifest != NULL)
		sweep_manifest_free(manifest);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_fixture_text(data, size);
	K8sDiagList *diags;
	SweepSpec *spec;

	if (text == NULL)
		return 0;
	diags = k8s_diag_list_new();
	spec = sweep_spec_load_data(FUZZ_FIXTURE_DIR "/fuzz-sweep.yaml", text, size, diags);
	if (spec != NULL) {
		check_and_expand(spec, diags);
		sweep_spec_free(spec);
	}
	fuzz_print_and_free_diags(diags);
	g_free(text);
	return 0;
}
