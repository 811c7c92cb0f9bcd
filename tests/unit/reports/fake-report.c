/*
 * fake-report.c: a hand-built report with every part filled, standing in
 * for a simulation run until sim/cluster fills real ones. The numbers are
 * made up but consistent (a 4-node, 8-GPU cluster over 10 minutes), so the
 * writers' tests see every section non-empty.
 */
#include "fake-report.h"

#include <math.h>

static void
fill_series(RptMode *mode, double scale)
{
	RptSeries *alloc = rpt_mode_add_series(mode, RPT_S_GPU_ALLOC_RATIO, "ratio");
	RptSeries *pending = rpt_mode_add_series(mode, RPT_S_PENDING_PODS, "pods");
	RptSeries *frag = rpt_mode_add_series(mode, RPT_S_FRAGMENTATION, "ratio");

	rpt_mode_set_sampling(mode, 0, 60 * G_USEC_PER_SEC);
	for (guint i = 0; i < 11; i++) {
		rpt_series_append(alloc, MIN(1.0, scale * i / 10.0));
		rpt_series_append(pending, (double)(i % 4));
		rpt_series_append(frag, 0.05 * (i % 3));
	}
	for (guint n = 0; n < 4; n++) {
		g_autofree char *name = g_strdup_printf("node-%u", n);
		RptSeries *row = rpt_mode_add_node(mode, name, 8);

		for (guint i = 0; i < 11; i++) {
			rpt_series_append(row, fmin(8.0, (double)((i + n) % 9)));
		}
	}
}

static void
fill_pods(RptMode *mode, double scale)
{
	for (guint i = 0; i < 20; i++) {
		g_autofree char *name = g_strdup_printf("job-%02u", i);
		gboolean ran = i < 17;
		RptPod pod = {
			.name = name,
			.workload = "job",
			.request = i % 2 ? "nvidia.com/gpu=1" : "claim=gpu[gpu.nvidia.com x1]",
			/* a fraction of a second: JSON and CSV print it exactly (0.25 s) */
			.arrival_us = (RptTime)i * 10 * G_USEC_PER_SEC + (i == 1 ? 250000 : 0),
			.start_us =
			        ran ? (RptTime)(i * 10 + i % 5) * G_USEC_PER_SEC : RPT_TIME_NONE,
			.end_us = ran && i < 15 ? (RptTime)(i * 10 + 100) * G_USEC_PER_SEC
			                        : RPT_TIME_NONE,
			.node = ran ? (i % 2 ? "node-1" : "node-0") : NULL,
			.devices = ran ? (i % 3 ? "gpu-0" : "gpu-0,gpu-1") : NULL,
			.slowdown = ran && i < 15 ? 1.0 + scale * (i % 4) / 4.0 : -1.0,
			.outcome = !ran     ? RPT_OUTCOME_PENDING
			           : i < 15 ? RPT_OUTCOME_COMPLETED
			                    : RPT_OUTCOME_RUNNING,
			.attempts = ran ? 1 + i % 3 : 4,
			.oom_kills = i == 3 ? 1 : 0,
		};
		rpt_mode_add_pod(mode, &pod);
	}
}

static void
fill_explanations(RptMode *mode)
{
	static const char *const reasons[] = { "Insufficient cpu", "cannot allocate all claims" };
	static const guint counts[] = { 1, 3 };
	g_autofree char *message = rpt_format_fit_error(4, reasons, counts, 2, NULL, NULL);

	rpt_mode_add_unschedulable(mode, "DynamicResources", 2);
	rpt_mode_add_unschedulable(mode, "NodeResourcesFit", 1);
	rpt_mode_add_pod_reason(mode, "job-17", 170 * G_USEC_PER_SEC, message,
	                        "request gpu: selector device.attributes[\"gpu.nvidia.com\"]"
	                        ".productName == \"H100\" ruled out every device on 3 nodes");
	rpt_mode_add_translation(mode, "ResourceClaimTemplate default/big request gpu", "selector",
	                         "device.capacity[\"gpu.nvidia.com\"].memory >= 80Gi",
	                         "node selector nvidia.com/gpu.memory=81559");
}

static void
fill_gpus(RptMode *mode)
{
	RptGpu *mig = rpt_mode_add_gpu(mode, "node-2", "gpu-0", "H100-SXM5-80GB", "mig", 7,
	                               300 * G_USEC_PER_SEC);
	RptGpu *shared = rpt_mode_add_gpu(mode, "node-3", "gpu-1", "A100-SXM4-40GB", "time-slicing",
	                                  100, 300 * G_USEC_PER_SEC);

	rpt_gpu_add_slice(mig, "3g.40gb", 0, 3, "job-01");
	rpt_gpu_add_slice(mig, "2g.20gb", 4, 2, "job-02");
	rpt_gpu_add_slice(mig, "1g.10gb", 6, 1, NULL);
	rpt_gpu_add_slice(shared, "share", 0, 100, "job-03");
	rpt_gpu_add_slice(shared, "share", 0, 100, "job-04");
}

static void
fill_mode(RptMode *mode, double scale)
{
	double latency[] = { 0.0, 1.0, 2.0, 3.0, 4.0, 0.5, 1.5 };
	double jct[] = { 100.0, 120.0, 150.0 * scale };

	rpt_mode_set_info_number(mode, "nodes", 4);
	rpt_mode_set_info_number(mode, "gpus", 32);
	rpt_mode_set_info_seconds(mode, "simulated_end_s", 600 * G_USEC_PER_SEC + 500);
	rpt_mode_set_info_bool(mode, "score_policy_beyond_production", FALSE);
	rpt_mode_set_metric(mode, RPT_M_PODS_SUBMITTED, 20, "pods");
	rpt_mode_set_metric(mode, RPT_M_PODS_SCHEDULED, 17, "pods");
	rpt_mode_set_metric(mode, RPT_M_PODS_COMPLETED, 15, "pods");
	rpt_mode_set_metric(mode, RPT_M_PODS_PENDING, 3, "pods");
	rpt_mode_set_metric(mode, RPT_M_OOM_KILLS, 1, "kills");
	rpt_mode_set_metric(mode, RPT_M_GPU_ALLOC_RATIO_TW, 0.61234567891 * scale, "ratio");
	rpt_mode_set_metric(mode, RPT_M_GPU_ALLOC_RATIO_FINAL, 0.75, "ratio");
	rpt_mode_set_percentiles(mode, RPT_M_SCHED_LATENCY, latency, G_N_ELEMENTS(latency), "s");
	rpt_mode_set_percentiles(mode, RPT_M_JCT, jct, G_N_ELEMENTS(jct), "s");
	rpt_mode_set_metric(mode, RPT_M_FILTER_CALLS, 1234 * scale, "calls");
	fill_series(mode, scale);
	fill_pods(mode, scale);
	fill_explanations(mode);
	fill_gpus(mode);
}

RptReport *
fake_report_new(double scale)
{
	RptReport *report = rpt_report_new("fake-small", "0123abcd", 42, "0.1.0");

	rpt_report_set_horizon(report, 600 * G_USEC_PER_SEC);
	fill_mode(rpt_mode_add(report, "dra"), scale);
	fill_mode(rpt_mode_add(report, "extended"), scale * 0.9);
	return report;
}
