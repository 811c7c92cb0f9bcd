/*
 * fuzz_report.c: libFuzzer target for the report JSON that `drasim diff` reads (a report,
 * drasim.io/report/v1, or a benchmark file, drasim.io/bench/v2).
 *
 * The input is read with rpt_diff_load_data() (the buffer face of rpt_diff_load()); a
 * report that loads is compared, under the default tolerances, with a recorded baseline
 * (reports/baselines/dra-claims.json, read once) and with itself, and the comparisons
 * printed, as the command does with two files.
 */
#include "fuzz.h"
#include "rpt.h"

static void
compare(const RptReport *old_report, const RptReport *new_report, const RptTolerances *tolerances)
{
	RptDiff *diff = rpt_diff_new(old_report, new_report, tolerances);

	g_free(rpt_diff_to_string(diff, TRUE));
	(void)rpt_diff_count_failures(diff, TRUE);
	rpt_diff_free(diff);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	char *text = fuzz_text(data, size);
	GError *error = NULL;
	RptReport *report = rpt_diff_load_data("fuzz.json", text, size, &error);

	static RptReport *baseline;

	if (baseline == NULL) {
		baseline = rpt_diff_load(DRASIM_SOURCE_ROOT "/reports/baselines/dra-claims.json",
		                         NULL);
		g_assert(baseline != NULL);
	}
	if (report != NULL) {
		RptTolerances *tolerances = rpt_tolerances_new();

		compare(baseline, report, tolerances);
		compare(report, report, tolerances);
		rpt_tolerances_free(tolerances);
		rpt_report_free(report);
	}
	g_clear_error(&error);
	g_free(text);
	return 0;
}
