/*
 * fake-sweep.c: a sweep results table filled by hand, for the writers' tests
 * (test_rpt_sweep.c) and the schema and CSV checks (check_sweep_outputs.py).
 */
#include "fake-sweep.h"

#include <math.h>

/* Cell (2, [dra, extended]): pods_pending in both modes over 3 seeds. Cell (4, [dra]):
 * one seed defined scheduling_latency_p99, none jct_p50; seed 2 failed. Numbers chosen
 * exact in binary so the expected text is what %.9g prints. */
RptSweep *
fake_sweep_new(void)
{
	const char *params[] = { P_COUNT, P_MODES };
	const uint64_t seeds[] = { 1, 2, 3 };
	const char *cell_a[] = { "2", "[dra, extended]" };
	const char *cell_b[] = { "4", "[dra]" };
	RptSweep *table =
	        rpt_sweep_new("demo", "scenarios/x/scenario.yaml", params, 2, seeds, 3, 0.95);
	const RptStat spread = { 3, 2.5, 0.5, 1.25, 3.75 };
	const RptStat zero = { 3, 0, 0, 0, 0 };
	const RptStat one = { 1, 12.5, (double)NAN, (double)NAN, (double)NAN };
	const RptStat none = { 0, (double)NAN, (double)NAN, (double)NAN, (double)NAN };

	rpt_sweep_add_row(table, cell_a, "dra", "pods_pending", "pods", &spread);
	rpt_sweep_add_row(table, cell_a, "extended", "pods_pending", "pods", &zero);
	rpt_sweep_add_row(table, cell_b, "dra", "scheduling_latency_p99", "s", &one);
	rpt_sweep_add_row(table, cell_b, "dra", "jct_p50", "s", &none);
	rpt_sweep_add_failure(table, cell_b, 2, "s.yaml:3:7: spec.x: \"a\" <is> not a number");
	return table;
}
